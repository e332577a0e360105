/* endings_pick.c - the quiet endings of a set of games, for tools/endings.sh
 * judge (docs/devlog.md, "Endings of 7 to 10 pieces, judged by the 6-piece
 * database").
 *
 *   make tools/endings_pick
 *   tools/endings_pick PER GAMES.pdn...
 *
 * Replays every game of the PDN files and takes, in each game, the first
 * quiet position (the side to move has no capture, and the opponent has none
 * either; the side to move has a move) of each count of 7, 8, 9 and 10
 * pieces: at most one a game a count. The positions are deduplicated (by
 * FEN, side to move included) and PER of each count are kept, the ones with
 * the smallest hash of their FEN (a deterministic sample that does not depend
 * on the games' order). One line each, the counts in turn (7, 8, 9, 10, 7, 8,
 * ...) so that any first lines are spread over the four:
 *   PIECES<TAB>FEN<TAB>FILE game G ply P
 * then, on stderr, how many positions of each count were found. */
#include "kingme/bits.h"
#include "kingme/pdn.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIN_PIECES 7
#define MAX_PIECES 10
#define NCOUNTS (MAX_PIECES - MIN_PIECES + 1)

typedef struct Pick {
    uint64_t hash;
    char fen[128];
    char source[160];
} Pick;

static Pick *picks[NCOUNTS];
static int npicks[NCOUNTS], cap[NCOUNTS];

static uint64_t fnv(const char *s)
{
    uint64_t h = 14695981039346656037ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int by_hash(const void *a, const void *b)
{
    const Pick *x = a, *y = b;
    if (x->hash != y->hash) return x->hash < y->hash ? -1 : 1;
    int c = strcmp(x->fen, y->fen);
    return c ? c : strcmp(x->source, y->source);
}

static void add(int pieces, const Board *b, const char *file, int game, int ply)
{
    int c = pieces - MIN_PIECES;
    if (npicks[c] == cap[c]) {
        cap[c] = cap[c] ? 2 * cap[c] : 256;
        Pick *p = realloc(picks[c], (size_t)cap[c] * sizeof *p);
        if (!p) {
            fprintf(stderr, "endings_pick: out of memory\n");
            exit(1);
        }
        picks[c] = p;
    }
    Pick *p = &picks[c][npicks[c]++];
    board_to_fen(b, p->fen, sizeof p->fen);
    p->hash = fnv(p->fen);
    snprintf(p->source, sizeof p->source, "%s game %d ply %d", file, game, ply);
}

int main(int argc, char **argv)
{
    if (argc < 3 || atoi(argv[1]) < 1) {
        fprintf(stderr, "usage: endings_pick PER GAMES.pdn...\n");
        return 2;
    }
    int per = atoi(argv[1]);
    board_hash_init();
    for (int f = 2; f < argc; f++) {
        char err[KM_ERR_MAX];
        PdnGame *games;
        int ngames;
        if (pdn_read_file(argv[f], &games, &ngames, err)) {
            fprintf(stderr, "endings_pick: %s\n", err);
            return 1;
        }
        const char *base = strrchr(argv[f], '/') ? strrchr(argv[f], '/') + 1 : argv[f];
        for (int gi = 0; gi < ngames; gi++) {
            const Game *g = &games[gi].game;
            if (games[gi].error) continue;
            bool seen[NCOUNTS] = {false};
            Board b = g->start;
            for (int p = 0; p <= g->nply; p++) {
                int n = bits_popcount32(board_occupied(&b));
                if (n >= MIN_PIECES && n <= MAX_PIECES && !seen[n - MIN_PIECES] &&
                    !mg_can_capture(&b, KM_BLACK) && !mg_can_capture(&b, KM_WHITE) &&
                    mg_can_step(&b, b.stm)) {
                    seen[n - MIN_PIECES] = true;
                    add(n, &b, base, gi + 1, p);
                }
                if (p < g->nply) mg_make_move(&b, &g->moves[p]);
            }
        }
        pdn_free_games(games, ngames);
    }
    int kept[NCOUNTS];
    for (int c = 0; c < NCOUNTS; c++) {
        qsort(picks[c], (size_t)npicks[c], sizeof *picks[c], by_hash);
        int u = 0; /* deduplicate: equal FENs are neighbours */
        for (int i = 0; i < npicks[c]; i++)
            if (!u || strcmp(picks[c][i].fen, picks[c][u - 1].fen)) picks[c][u++] = picks[c][i];
        fprintf(stderr, "%d pieces: %d quiet positions, %d distinct\n", c + MIN_PIECES, npicks[c], u);
        npicks[c] = u;
        kept[c] = u < per ? u : per;
    }
    for (int i = 0; i < per; i++)
        for (int c = 0; c < NCOUNTS; c++)
            if (i < kept[c]) printf("%d\t%s\t%s\n", c + MIN_PIECES, picks[c][i].fen, picks[c][i].source);
    for (int c = 0; c < NCOUNTS; c++) free(picks[c]);
    return 0;
}
