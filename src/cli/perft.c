/* perft.c - kingme perft DEPTH [--fen FEN] [--divide] [--hash MB | --no-hash] */
#include "cli.h"
#include "kingme/movegen.h"
#include "kingme/notation.h"

#include <stdio.h>
#include <string.h>

static int run(const Opts *o)
{
    const char *fen = opt_str(o, OPT_FEN);
    long long hash_mb = opt_int(o, OPT_HASH);
    bool divide = opt_flag(o, OPT_DIVIDE), nohash = opt_flag(o, OPT_NO_HASH) || hash_mb == 0;
    long long depth;
    if (!cli_int(o->args[0], 1, 40, &depth))
        return cli_usage_error("perft", "depth '%s' is not a whole number from 1 to 40", o->args[0]);
    Board b;
    if (!cli_board(fen, &b)) return 1;
    PerftTable table = {NULL, 0};
    if (!nohash && mg_perft_table_init(&table, (size_t)hash_mb))
        return cli_error("perft: cannot allocate a %lld MB table (try --hash with less)", hash_mb);
#define COUNT(bd, d) (nohash ? mg_perft((bd), (d)) : mg_perft_hashed((bd), (d), &table))
    double t0 = km_now();
    uint64_t total = 0;
    if (divide) {
        MoveList ml;
        mg_moves(&b, &ml);
        for (int i = 0; i < ml.count; i++) {
            Board c = b;
            mg_make_move(&c, &ml.moves[i]);
            uint64_t n = COUNT(&c, (int)depth - 1);
            char t[MOVE_TEXT_MAX];
            notation_move_to_text(&ml.moves[i], t);
            printf("%-12s %llu\n", t, (unsigned long long)n);
            total += n;
        }
        printf("moves %d\n", ml.count);
    } else {
        total = COUNT(&b, (int)depth);
    }
    double s = km_now() - t0;
    printf("perft %lld: %llu leaves, %.3f s, %.1f Mnps%s\n", depth, (unsigned long long)total, s,
           s > 0 ? (double)total / s / 1e6 : 0.0, nohash ? " (no table)" : "");
    mg_perft_table_free(&table);
    return 0;
}

static const Opt options[] = {
    {OPT_FEN, NULL, NULL, OPT_STR, "FEN", 0, 0, DESCRIBED("the initial position"),
     "start from this position"},
    {OPT_DIVIDE, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL, "also print the count below each first move"},
    CLI_HASH_OPT("size of the table of counted subtrees (0: none, as --no-hash); entries keep the whole "
                 "position, so the count is exact"),
    {OPT_NO_HASH, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL,
     "count every leaf by generating it (the raw generator speed)"},
    OPTS_END,
};

const CliCommand cmd_perft = {
    "perft",
    run,
    "count the leaves of the move tree (verifies the move generator)",
    &(const OptSpec){
        "DEPTH",
        1,
        1,
        "Counts the positions DEPTH plies ahead (1 to 40; each capture path counted once).",
        options,
        "example: kingme perft 10  ->  perft 10: 18391564 leaves, ...",
    },
};
