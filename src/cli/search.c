/* search.c - kingme search [--fen FEN] (--depth D | --time S | --nodes N) ... */
#include "cli.h"
#include "kingme/notation.h"
#include "kingme/search.h"
#include "kingme/weights.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static void print_pv(const Board *root, const Move *pv, int n)
{
    Board b = *root;
    for (int i = 0; i < n; i++) {
        char t[MOVE_TEXT_MAX];
        move_to_text(&pv[i], t);
        printf(" %s", t);
        make_move(&b, &pv[i]);
    }
}

typedef struct { const Board *root; } ReportCtx;

static void report(const SearchResult *r, void *user)
{
    const ReportCtx *c = user;
    char sc[32];
    search_score_text(r->score, sc, sizeof sc);
    double nps = r->seconds > 0 ? (double)r->nodes / r->seconds : 0;
    printf("depth %2d  score %8s  nodes %10" PRIu64 "  nps %9.0f  time %7.3f  pv", r->depth, sc,
           r->nodes, nps, r->seconds);
    print_pv(c->root, r->pv, r->pv_len);
    putchar('\n');
    fflush(stdout);
}

static int run(int argc, char **argv)
{
    const char *fen = NULL, *wpath = NULL;
    SearchLimits lim;
    search_limits_default(&lim);
    long long hash_mb = 64, seed = 1;
    bool limited = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        long long n;
        double x;
        if (strcmp(a, "--fen") == 0) {
            if (!(fen = cli_value("search", argc, argv, &i))) return 2;
        } else if (strcmp(a, "--weights") == 0) {
            if (!(wpath = cli_value("search", argc, argv, &i))) return 2;
        } else if (strcmp(a, "--depth") == 0) {
            if (!(v = cli_value("search", argc, argv, &i))) return 2;
            if (!cli_int(v, 1, SEARCH_MAX_PLY - 2, &n))
                return cli_usage_error("search", "--depth '%s' is not a number from 1 to %d", v, SEARCH_MAX_PLY - 2);
            lim.depth = (int)n;
            limited = true;
        } else if (strcmp(a, "--time") == 0) {
            if (!(v = cli_value("search", argc, argv, &i))) return 2;
            if (!cli_double(v, 0.001, 1e6, &x))
                return cli_usage_error("search", "--time '%s' is not a number of seconds", v);
            lim.seconds = x;
            limited = true;
        } else if (strcmp(a, "--nodes") == 0) {
            if (!(v = cli_value("search", argc, argv, &i))) return 2;
            if (!cli_int(v, 1, INT64_MAX, &n))
                return cli_usage_error("search", "--nodes '%s' is not a positive number", v);
            lim.nodes = (uint64_t)n;
            limited = true;
        } else if (strcmp(a, "--hash") == 0) {
            if (!(v = cli_value("search", argc, argv, &i))) return 2;
            if (!cli_int(v, 0, 65536, &hash_mb))
                return cli_usage_error("search", "--hash '%s' is not a size in MB from 0 to 65536", v);
        } else if (strcmp(a, "--seed") == 0) {
            if (!(v = cli_value("search", argc, argv, &i))) return 2;
            if (!cli_int(v, 0, INT64_MAX, &seed))
                return cli_usage_error("search", "--seed '%s' is not a non-negative number", v);
        } else if (strcmp(a, "--tiebreak") == 0) {
            if (!(v = cli_value("search", argc, argv, &i))) return 2;
            if (strcmp(v, "first") == 0) lim.tiebreak = TIEBREAK_FIRST;
            else if (strcmp(v, "random") == 0) lim.tiebreak = TIEBREAK_RANDOM;
            else return cli_usage_error("search", "--tiebreak is 'random' or 'first', not '%s'", v);
        } else if (strcmp(a, "--plain") == 0) {
            lim.use_tt = lim.quiescence = lim.extensions = false;
        } else if (strcmp(a, "--no-tt") == 0) {
            lim.use_tt = false;
        } else if (strcmp(a, "--no-quiescence") == 0) {
            lim.quiescence = false;
        } else if (strcmp(a, "--no-extensions") == 0) {
            lim.extensions = false;
        } else {
            return cli_usage_error("search", "unknown argument '%s'", a);
        }
    }
    if (!limited) return cli_usage_error("search", "give --depth, --time or --nodes");
    Board b;
    if (!cli_board(fen, &b)) return 1;
    Weights w;
    if (!cli_weights(wpath, &w)) return 1;
    Searcher s;
    char err[KM_ERR_MAX];
    if (searcher_init(&s, &w, (size_t)hash_mb, (uint64_t)seed, err)) return cli_error("%s", err);
    SearchResult r;
    ReportCtx ctx = {&b};
    if (search_run(&s, &b, NULL, 0, 0, &lim, &r, report, &ctx)) {
        searcher_free(&s);
        return cli_error("search: out of memory");
    }
    searcher_free(&s);
    if (!r.has_move) {
        printf("no legal move: %s loses\nbestmove none\n", b.stm == KM_BLACK ? "Black" : "White");
        return 0;
    }
    char t[MOVE_TEXT_MAX];
    move_to_text(&r.best, t);
    printf("bestmove %s\n", t);
    return 0;
}

const CliCommand cmd_search = {
    "search", run, "search a position and print the best move",
    "kingme search [--fen FEN] (--depth D | --time S | --nodes N) [--weights FILE]\n"
    "              [--hash MB] [--seed N] [--tiebreak random|first]\n"
    "              [--plain | --no-tt --no-quiescence --no-extensions]\n"
    "  One line per completed iteration: depth, score (for the side to move; a\n"
    "  proven result is 'win N' or 'loss N', N in plies), nodes, nodes per second,\n"
    "  time and principal variation; then 'bestmove MOVE'.\n"
    "  --weights FILE  the evaluation's weights (default: the built-in weights/default.w)\n"
    "  --hash MB       transposition table size (default 64; 0 = none)\n"
    "  --tiebreak      among equally scored moves: a random one (default, seeded\n"
    "                  by --seed, default 1) or the first generated\n"
    "  --plain         the design documents' search: fixed-depth alpha-beta with\n"
    "                  no table, no quiescence and no forced-move extension",
};
