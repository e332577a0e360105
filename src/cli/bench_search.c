/* bench_search.c - the search benchmark: a fixed set of positions searched
 * deterministically (first tie-break, a fresh table each) to a fixed depth.
 * The node count is the same on every run and every machine: commits that
 * change search or evaluation state it. */
#include "cli.h"
#include "kingme/notation.h"
#include "kingme/search.h"
#include "kingme/textio.h"
#include "kingme/weights.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The initial position, eight ACF ballots (crossboard, after their three
 * moves) and 24 positions from Marion Tinsley's games (tests/data/tinsley.pdn,
 * game and ply noted): middle games and endings with kings. */
static const struct {
    const char *fen, *what;
} positions[] = {
    {"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", "initial position"},
    {"W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,6,7,8,9,10,11,12,13", "ballot 1"},
    {"W:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,6,7,8,9,10,11,12,13", "ballot 18"},
    {"W:W21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,11,12,23", "ballot 69"},
    {"W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,8,9,10,11,12,15", "ballot 86"},
    {"W:W18,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,11,12,14,15", "ballot 100"},
    {"W:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,7,8,9,10,11,12,15", "ballot 103"},
    {"W:W21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,22", "ballot 120"},
    {"W:W19,21,22,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,8,9,10,11,12,16", "ballot 154"},
    {"B:W21,22,23,26,27,28,31,32:B1,2,3,6,10,11,14,20", "Tinsley game 4, ply 20"},
    {"B:W19,21,22,23,25,27,31:B5,7,8,10,13,14,20", "Tinsley game 18, ply 30"},
    {"B:W15,18,20,21,23,30,31:B3,5,7,9,11,12,22", "Tinsley game 41, ply 32"},
    {"B:W18,19,20,21,23,24,25,26,29,30,31,32:B1,2,4,6,7,8,9,10,11,12,13,14", "Tinsley game 78, ply 10"},
    {"B:W11,13,17,21,22,23,31:B2,4,6,9,15,20,24", "Tinsley game 102, ply 36"},
    {"W:W5,18,20,32:B2,13,15,26,28", "Tinsley game 151, ply 45"},
    {"B:W14,17,18,19,20,28,30,31:B2,3,5,7,9,11,12", "Tinsley game 200, ply 28"},
    {"B:W13,14,20,24,26,27,30,32:B2,5,7,10,11,12,16,18", "Tinsley game 234, ply 30"},
    {"B:WK3,13,K16,21:B19,23,24,K32", "Tinsley game 301, ply 60"},
    {"B:W6,14,20,24,25,28,29,31:B5,7,8,11,12,15,18,K27", "Tinsley game 351, ply 34"},
    {"B:WK15,23,27,32:B9,17,20,28", "Tinsley game 402, ply 52"},
    {"W:WK19,20,30:B21,22,24,27", "Tinsley game 451, ply 59"},
    {"B:WK3,13,19,21,24,25:B1,2,4,12,18,K31", "Tinsley game 501, ply 46"},
    {"W:W9,18,19,20,30:B10,11,13,16,21", "Tinsley game 556, ply 45"},
    {"W:WK3,15,21,26,27,32:B7,13,14,16,19", "Tinsley game 601, ply 41"},
    {"B:W12,14,16,18,19:B3,7,10,11,17", "Tinsley game 651, ply 46"},
    {"B:WK10,11,K19,20,29:B2,5,22,K26,K30", "Tinsley game 701, ply 64"},
    {"W:WK11,12,13,21:B2,5,15,23,K31", "Tinsley game 13, ply 57"},
    {"W:W18,K19,29:B5,22,K32", "Tinsley game 89, ply 55"},
    {"W:WK3,K6,10,31,32:B4,12,K19,20,K22", "Tinsley game 124, ply 63"},
    {"W:W5,K15,16,28:B7,17,21,K23", "Tinsley game 223, ply 67"},
    {"W:W6,17,21,23:B10,11,12,K15", "Tinsley game 334, ply 51"},
    {"B:WK15,18,20,21,22:B8,12,13,K27", "Tinsley game 445, ply 50"},
    {"W:W9,20,23,24,29,30,31:B2,3,4,7,11,12,15", "Tinsley game 516, ply 25"},
};
#define NPOSITIONS (int)(sizeof positions / sizeof positions[0])

int cli_bench_search(int depth, const char *wpath, bool verbose, bool exact)
{
    Weights w;
    if (!cli_weights(wpath, &w)) return 1;
    Searcher s;
    char err[KM_ERR_MAX];
    if (search_init(&s, &w, 16, 1, err)) return cli_error("%s", err);
    search_set_exact(&s, exact);
    search_set_tiebreak(&s, TIEBREAK_FIRST);
    SearchLimits lim;
    search_limits_default(&lim);
    lim.depth = depth;
    if (!exact) search_probcut_margin(&s); /* measured once, before the clock */
    uint64_t nodes = 0;
    double t0 = km_now();
    for (int i = 0; i < NPOSITIONS; i++) {
        Board b;
        if (board_from_fen(&b, positions[i].fen, err)) {
            search_free(&s);
            return cli_error("bench: %s", err);
        }
        search_clear(&s);
        SearchResult r;
        if (search_run(&s, &b, NULL, 0, 0, &lim, &r, NULL, NULL)) {
            search_free(&s);
            return cli_error("bench: out of memory");
        }
        nodes += r.nodes;
        if (verbose) {
            char mv[MOVE_TEXT_MAX] = "none", sc[32];
            if (r.has_move) notation_move_to_text(&r.best, mv);
            search_score_text(r.score, sc, sizeof sc);
            printf("%2d %-34s %10" PRIu64 " nodes  %-10s %8s\n", i + 1, positions[i].what, r.nodes, mv, sc);
        }
    }
    double sec = km_now() - t0;
    search_free(&s);
    printf("bench: %" PRIu64 " nodes, %.3f s, %.0f nps\n", nodes, sec, sec > 0 ? (double)nodes / sec : 0.0);
    return 0;
}

/* The tactics suite: one position a line, "FEN<tab>MOVE<tab>comment" (made by
 * tools/gen_tactics). Each is searched with a fresh table up to the node
 * budget (first tie-break, so the result is deterministic); solved when the
 * search's move is MOVE. */
int cli_bench_tactics(const char *path, uint64_t budget, const char *wpath, bool verbose, bool exact)
{
    Weights w;
    if (!cli_weights(wpath, &w)) return 1;
    char err[KM_ERR_MAX];
    char *text = textio_read_text(path, NULL, NULL, err);
    if (!text) return cli_error("%s", err);
    Searcher s;
    if (search_init(&s, &w, 16, 1, err)) {
        free(text);
        return cli_error("%s", err);
    }
    search_set_exact(&s, exact);
    search_set_tiebreak(&s, TIEBREAK_FIRST);
    SearchLimits lim;
    search_limits_default(&lim);
    lim.nodes = budget;
    if (!exact) search_probcut_margin(&s); /* measured once, before the clock */
    int total = 0, solved = 0, lineno = 0, rc = 0;
    uint64_t nodes = 0;
    double t0 = km_now();
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        lineno++;
        size_t n = strlen(line);
        if (n && line[n - 1] == '\r') line[--n] = '\0';
        if (!n || line[0] == '#') continue;
        char *tab = strchr(line, '\t'), *tab2 = tab ? strchr(tab + 1, '\t') : NULL;
        if (!tab) {
            rc = cli_error("%s:%d: expected FEN, a tab and the move", path, lineno);
            break;
        }
        *tab = '\0';
        if (tab2) *tab2 = '\0';
        Board b;
        Move want;
        if (board_from_fen(&b, line, err) || notation_parse_move(&b, tab + 1, &want, err)) {
            rc = cli_error("%s:%d: %s", path, lineno, err);
            break;
        }
        search_clear(&s);
        SearchResult r;
        if (search_run(&s, &b, NULL, 0, 0, &lim, &r, NULL, NULL)) {
            rc = cli_error("bench: out of memory");
            break;
        }
        total++;
        nodes += r.nodes;
        bool ok = r.has_move && mg_move_equal(&r.best, &want);
        solved += ok;
        if (verbose) {
            char mv[MOVE_TEXT_MAX] = "none";
            if (r.has_move) notation_move_to_text(&r.best, mv);
            printf("%3d %-7s %-8s %-8s depth %2d  %s\n", total, ok ? "solved" : "missed", tab + 1, mv,
                   r.depth, tab2 ? tab2 + 1 : "");
        }
    }
    double sec = km_now() - t0;
    search_free(&s);
    free(text);
    if (rc) return rc;
    printf("tactics: %d of %d solved at %" PRIu64 " nodes each, %" PRIu64 " nodes, %.3f s\n", solved, total,
           budget, nodes, sec);
    return 0;
}
