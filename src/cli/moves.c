/* moves.c - kingme moves [--fen FEN] */
#include "cli.h"
#include "kingme/movegen.h"
#include "kingme/notation.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_text(const void *a, const void *b)
{
    const Move *x = a, *y = b;
    if (x->from != y->from) return x->from - y->from;
    if (x->to != y->to) return x->to - y->to;
    for (int i = 0; i < x->njumps && i < y->njumps; i++)
        if (x->path[i] != y->path[i]) return x->path[i] - y->path[i];
    return x->njumps - y->njumps;
}

static int run(const Opts *o)
{
    const char *fen = opt_str(o, OPT_FEN);
    Board b;
    if (!cli_board(fen, &b)) return 1;
    MoveList ml;
    mg_moves(&b, &ml);
    qsort(ml.moves, (size_t)ml.count, sizeof(Move), by_text);
    for (int i = 0; i < ml.count; i++) {
        char t[MOVE_TEXT_MAX];
        notation_move_to_text(&ml.moves[i], t);
        puts(t);
    }
    return 0;
}

static const Opt options[] = {
    {OPT_FEN, NULL, NULL, OPT_STR, "FEN", 0, 0, DESCRIBED("the initial position"), "the position"},
    OPTS_END,
};

const CliCommand cmd_moves = {
    "moves",
    run,
    "list every legal move of a position",
    &(const OptSpec){
        NULL,
        0,
        0,
        "One legal move per line in full path notation (11-15, 15x24x31), ordered by square.",
        options,
        NULL,
    },
};
