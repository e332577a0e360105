/* loss_probe.c - where did a player lose its games? For each game of a
 * match's PDN that the player lost, the mistake (the move after which a deep
 * search's score for it fell the most), and which searches with a small node
 * budget find the move the deep search prefers there. docs/devlog.md,
 * "Where the selective search loses".
 *
 *   make tools/loss_probe
 *   tools/loss_probe GAMES.pdn NAME WEIGHTS [DEEP [SMALL [FIRST LAST]]]
 *
 * NAME: a piece of the player's [Black]/[White] tag (the lost games are the
 * ones it had the losing colour of). Each position of a lost game is
 * searched by the selective search to DEEP nodes (default 1000000; a fresh
 * table each game, first tie-break); the player's move with the largest fall
 * of that score (from the player's side; positions already proven won or
 * lost left out) is the mistake. At it: the deep search's move again (fresh
 * table), then the selective and the exact search with SMALL nodes (default
 * 80000: what this program searches in the 10 ms of a 0.02 s move) and with
 * 3 x SMALL. One line a lost game:
 *   game G ply P fall F (BEFORE -> AFTER) played M deep M | sel M dN
 *   exact M dN sel3 M dN exact3 M dN | FEN
 * then a summary: how many of the mistakes each search finds the deep move
 * in. FIRST LAST: only games FIRST+1 .. LAST (to split the work). Takes about
 * 15 s a lost game. */
#include "kingme/notation.h"
#include "kingme/pdn.h"
#include "kingme/search.h"
#include "kingme/weights.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Searcher S;

/* The score for the side to move after `upto` plies of pg, and its move. */
static int32_t probe(const Game *pg, int upto, uint64_t nodes, bool exact, Move *best, int *depth)
{
    Game g;
    if (game_init(&g, &pg->start)) goto oom;
    for (int i = 0; i < upto; i++)
        if (game_play(&g, &pg->moves[i])) goto oom;
    search_set_exact(&S, exact);
    search_set_tiebreak(&S, TIEBREAK_FIRST);
    SearchLimits l;
    search_limits_default(&l);
    l.nodes = nodes;
    SearchResult r;
    if (search_game(&S, &g, &l, &r, NULL, NULL)) goto oom;
    game_free(&g);
    if (best) *best = r.best;
    if (depth) *depth = r.depth;
    return r.score;
oom:
    fprintf(stderr, "loss_probe: out of memory\n");
    exit(1);
}

/* The move and depth of a search of the mistake's position, fresh table. */
static void try_search(const Game *pg, int ply, uint64_t nodes, bool exact, char txt[MOVE_TEXT_MAX], int *depth)
{
    Move m;
    search_clear(&S);
    probe(pg, ply, nodes, exact, &m, depth);
    notation_move_to_text(&m, txt);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: loss_probe GAMES.pdn NAME WEIGHTS [DEEP [SMALL [FIRST LAST]]]\n");
        return 2;
    }
    char err[KM_ERR_MAX];
    PdnGame *games;
    int ngames;
    board_hash_init();
    if (pdn_read_file(argv[1], &games, &ngames, err)) {
        fprintf(stderr, "loss_probe: %s\n", err);
        return 1;
    }
    Weights w;
    if (weights_read(&w, argv[3], NULL, err) || search_init(&S, &w, 16, 1, err)) {
        fprintf(stderr, "loss_probe: %s\n", err);
        return 1;
    }
    uint64_t deep = argc > 4 ? strtoull(argv[4], NULL, 10) : 1000000;
    uint64_t small = argc > 5 ? strtoull(argv[5], NULL, 10) : 80000;
    int first = argc > 7 ? atoi(argv[6]) : 0, last = argc > 7 ? atoi(argv[7]) : ngames;
    int lost = 0, found[5] = {0};
    for (int gi = first; gi < ngames && gi < last; gi++) {
        PdnGame *P = &games[gi];
        const char *black = pdn_tag(P, "Black");
        if (P->error || !black) continue;
        int me = strstr(black, argv[2]) ? KM_BLACK : KM_WHITE;
        if (strcmp(P->result, me == KM_BLACK ? "0-1" : "1-0")) continue;
        const Game *pg = &P->game;
        int np = pg->nply;
        int32_t *mine = malloc((size_t)(np + 1) * sizeof *mine);
        int *side = malloc((size_t)(np + 1) * sizeof *side);
        if (!mine || !side) {
            fprintf(stderr, "loss_probe: out of memory\n");
            return 1;
        }
        search_clear(&S);
        Board b = pg->start;
        for (int p = 0; p <= np; p++) {
            side[p] = b.stm;
            int32_t v = probe(pg, p, deep, false, NULL, NULL);
            mine[p] = b.stm == me ? v : -v;
            if (p < np) mg_make_move(&b, &pg->moves[p]);
        }
        int at = -1;
        int32_t fall = 0;
        for (int p = 0; p < np; p++) {
            if (side[p] != me || mine[p] >= SCORE_DB_MIN || mine[p] <= -SCORE_DB_MIN) continue;
            if (at < 0 || mine[p] - mine[p + 1] > fall) {
                fall = mine[p] - mine[p + 1];
                at = p;
            }
        }
        if (at >= 0) {
            Board pos = pg->start;
            for (int p = 0; p < at; p++) mg_make_move(&pos, &pg->moves[p]);
            char fen[128], played[MOVE_TEXT_MAX], best[MOVE_TEXT_MAX], m[4][MOVE_TEXT_MAX];
            int d[5];
            board_to_fen(&pos, fen, sizeof fen);
            notation_move_to_text(&pg->moves[at], played);
            try_search(pg, at, deep, false, best, &d[4]);
            try_search(pg, at, small, false, m[0], &d[0]);
            try_search(pg, at, small, true, m[1], &d[1]);
            try_search(pg, at, 3 * small, false, m[2], &d[2]);
            try_search(pg, at, 3 * small, true, m[3], &d[3]);
            lost++;
            found[4] += !strcmp(played, best);
            for (int k = 0; k < 4; k++) found[k] += !strcmp(m[k], best);
            printf("game %d ply %d fall %d (%d -> %d) played %s deep %s | sel %s d%d exact %s d%d sel3 %s d%d "
                   "exact3 %s d%d | %s\n",
                   gi + 1, at, (int)fall, (int)mine[at], (int)mine[at + 1], played, best, m[0], d[0], m[1], d[1],
                   m[2], d[2], m[3], d[3], fen);
            fflush(stdout);
        }
        free(mine);
        free(side);
    }
    printf("%d lost games: the deep move found by the game %d, selective %d, exact %d (%llu nodes), "
           "selective %d, exact %d (%llu nodes)\n",
           lost, found[4], found[0], found[1], (unsigned long long)small, found[2], found[3],
           (unsigned long long)(3 * small));
    pdn_free_games(games, ngames);
    search_free(&S);
    return 0;
}
