/* gen_tactics.c - makes the tactics suite tests/data/tactics.txt from the
 * Tinsley games.
 *
 *   make tools/gen_tactics
 *   nice tools/gen_tactics tests/data/tinsley.pdn 130 > tests/data/tactics.txt
 *
 * It walks the games in file order, every position from ply 6 on where the
 * side to move has at least two legal moves, and keeps a position when a deep
 * EXACT search (no reduction or pruning; material weights, men 1000, kings
 * 1300, so that a score is material and the evaluation is the same for both
 * sides) proves that one move wins material or the game and no other does:
 *   1. a depth-10 search scores the position at least 700 (about a man) above
 *      its material now;
 *   2. each legal move is searched to depth DEEP - 1 = 11 (the position to
 *      depth 12); the best move must score at least 700 above the material now
 *      and at least 700 above every other move.
 * Positions met before are skipped. It stops after COUNT positions (default
 * 130). Each line: FEN, a tab, the winning move, a tab, where it comes from
 * and the scores. Deterministic: the same file on every run (25 minutes on
 * the busy project machine, nice 5). */
#include "kingme/bits.h"
#include "kingme/notation.h"
#include "kingme/pdn.h"
#include "kingme/search.h"
#include "kingme/weights.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEEP 12
#define GAIN 700

static Searcher S;

static int32_t search_exact(const Board *b, int depth, Move *best)
{
    search_set_exact(&S, true);
    search_set_tiebreak(&S, TIEBREAK_FIRST);
    SearchLimits lim;
    search_limits_default(&lim);
    lim.depth = depth;
    SearchResult r;
    search_clear(&S);
    if (search_run(&S, b, NULL, 0, 0, &lim, &r, NULL, NULL)) {
        fprintf(stderr, "gen_tactics: out of memory\n");
        exit(1);
    }
    if (best) *best = r.best;
    return r.score;
}

static int32_t material(const Board *b)
{
    int s = b->stm;
    return 1000 * (bits_popcount32(board_men(b, s)) - bits_popcount32(board_men(b, !s))) +
           1300 * (bits_popcount32(board_kings(b, s)) - bits_popcount32(board_kings(b, !s)));
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: gen_tactics FILE.pdn [COUNT]\n");
        return 2;
    }
    int want = argc > 2 ? atoi(argv[2]) : 130;
    char err[KM_ERR_MAX];
    Weights w;
    if (weights_read(&w, "weights/material.w", NULL, err)) {
        fprintf(stderr, "gen_tactics: %s\n", err);
        return 1;
    }
    if (search_init(&S, &w, 32, 1, err)) {
        fprintf(stderr, "gen_tactics: %s\n", err);
        return 1;
    }
    PdnGame *games;
    int ngames;
    if (pdn_read_file(argv[1], &games, &ngames, err)) {
        fprintf(stderr, "gen_tactics: %s\n", err);
        return 1;
    }
    char (*seen)[128] = malloc((size_t)64 * 1024 * 128);
    int nseen = 0, found = 0;
    for (int gi = 0; gi < ngames && found < want; gi++) {
        const Game *g = &games[gi].game;
        Board b = g->start;
        for (int p = 0; p < g->nply && found < want; mg_make_move(&b, &g->moves[p]), p++) {
            if (p < 6) continue;
            MoveList ml;
            if (mg_moves(&b, &ml) < 2) continue;
            char fen[128];
            board_to_fen(&b, fen, sizeof fen);
            bool dup = false;
            for (int i = 0; i < nseen && !dup; i++) dup = !strcmp(seen[i], fen);
            if (dup) continue;
            if (nseen < 64 * 1024) strcpy(seen[nseen++], fen);
            int32_t mat = material(&b);
            if (search_exact(&b, 10, NULL) < mat + GAIN) continue;
            int32_t best = -SCORE_INF, second = -SCORE_INF;
            int bi = -1;
            for (int i = 0; i < ml.count; i++) {
                Board c = b;
                mg_make_move(&c, &ml.moves[i]);
                int32_t v = -search_exact(&c, DEEP - 1, NULL);
                if (v >= SCORE_WIN_MIN) v--; /* one ply further from this position */
                else if (v <= -SCORE_WIN_MIN) v++;
                if (v > best) second = best, best = v, bi = i;
                else if (v > second) second = v;
            }
            if (best < mat + GAIN || second > best - GAIN) continue;
            char mv[MOVE_TEXT_MAX], bs[32], ss[32];
            notation_move_to_text(&ml.moves[bi], mv);
            search_score_text(best - mat, bs, sizeof bs);
            search_score_text(second - mat, ss, sizeof ss);
            if (best >= SCORE_WIN_MIN) search_score_text(best, bs, sizeof bs);
            if (second >= SCORE_WIN_MIN || second <= -SCORE_WIN_MIN) search_score_text(second, ss, sizeof ss);
            printf("%s\t%s\tgame %d ply %d: depth %d, best %s, next best %s\n", fen, mv, gi + 1, p, DEEP, bs,
                   ss);
            fflush(stdout);
            found++;
        }
    }
    free(seen);
    pdn_free_games(games, ngames);
    search_free(&S);
    return found >= want ? 0 : 1;
}
