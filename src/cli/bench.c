/* bench.c - kingme bench: the search benchmark (bench_search.c; its node
 * count is kept in tests/bench.txt) and, with --eval, the evaluation's speed
 * on a fixed set of positions. */
#include "cli.h"
#include "kingme/weights.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* The opening, positions reached in Tinsley's games (tests/data/tinsley.pdn,
 * the game's number in the file and the plies played; a quarter, half and all
 * of each game) and a few endgames with kings. */
const char *const cli_bench_eval_positions[] = {
    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", /* start */
    "B:W14,15,21,23,25,27,28,29,30,31,32:B1,2,3,4,5,6,8,11,12,13",        /* game 60, ply 10 */
    "B:W10,19,21,23,24,25,27,29,31,32:B1,2,4,5,8,9,12,13,16,18",          /* game 60, ply 20 */
    "W:W14,19,24,29,31:B4,5,13,15,16,18",                                 /* game 60, ply 39 */
    "B:W16,21,22,23,26,27,29,30,31,32:B1,3,4,5,7,9,10,12,14,15",          /* game 120, ply 14 */
    "B:W9,16,20,21,26,28,29,30,31:B1,3,5,7,11,14,15,18,19",               /* game 120, ply 28 */
    "W:WK7,13,21,25,31:B1,10,14,K19,28",                                  /* game 120, ply 55 */
    "B:W7,18,21,22,26,29,30,31,32:B1,2,3,4,6,8,9,12",                     /* game 180, ply 14 */
    "B:W13,22,26,27,30,31:B2,6,8,11,12,14",                               /* game 180, ply 28 */
    "B:W10,16,19:B9,14,K27",                                              /* game 180, ply 54 */
    "B:W18,19,21,22,23,25,27,28,31,32:B1,2,3,4,9,10,11,12,14,16",         /* game 240, ply 16 */
    "B:W11,18,19,20,23,27,31,32:B2,4,6,7,12,13,16,25",                    /* game 240, ply 32 */
    "B:WK3,K4,15,28:B2,14,K22,K26",                                       /* game 240, ply 62 */
    "B:W14,20,24,25,26,27,29,30,31,32:B1,2,4,5,6,7,8,11,12,18",           /* game 300, ply 12 */
    "B:W14,24,26,27,28,29,31:B2,4,5,6,7,12,22",                           /* game 300, ply 24 */
    "W:W10,17,22:B13,14",                                                 /* game 300, ply 47 */
    "W:W21,25,26,27,28,29,30,31,32:B1,2,3,5,6,9,11,12,14",                /* game 360, ply 11 */
    "W:W18,23,24,26,29,30,31,32:B1,3,5,7,11,12,13,17",                    /* game 360, ply 21 */
    "B:W16,20,27,30,31:B5,10,12,18,22",                                   /* game 360, ply 40 */
    "B:W14,20,21,24,25,27,28,29,30,31:B2,3,4,5,7,8,11,12,13,18",          /* game 420, ply 16 */
    "B:W17,19,20,21,24,28,31:B2,8,9,10,11,12,15",                         /* game 420, ply 32 */
    "B:WK6,20,K26:B11,25,28",                                             /* game 420, ply 62 */
    "B:W14,18,20,22,26,27,28,29,30,31,32:B2,3,4,5,6,8,9,11,12,13,15",     /* game 480, ply 12 */
    "W:W13,17,18,20,27,28,29,31,32:B2,4,5,6,7,8,12,16,22",                /* game 480, ply 23 */
    "W:WK1,13,17,27,29,31:B5,11,15,20,24,26",                             /* game 480, ply 45 */
    "B:W18,21,22,25,26,27,28,30,31,32:B1,2,3,4,5,6,7,9,11,19",            /* game 540, ply 10 */
    "B:W17,21,23,25,28,30,31,32:B1,2,3,6,7,11,14,20",                     /* game 540, ply 20 */
    "W:W16,17,21,28,30:B1,3,15,18,19",                                    /* game 540, ply 39 */
    "B:W19,21,22,23,25,26,27,30,31,32:B1,2,3,4,6,7,10,12,14,16",          /* game 600, ply 12 */
    "B:W18,21,25,30,31,32:B1,2,3,10,12,13",                               /* game 600, ply 24 */
    "W:W7,18,30,32:B13,16,19,22",                                         /* game 600, ply 47 */
    "B:W20,21,22,23,24,26,28,30,31,32:B1,2,3,4,8,9,10,11,12,14",          /* game 660, ply 12 */
    "B:W18,19,21,22,23,25,31,32:B2,5,7,9,10,11,12,14",                    /* game 660, ply 24 */
    "B:WK8,14,21,31,32:B2,10,13,22,26",                                   /* game 660, ply 46 */
    "W:W20,21,22,23,24,30,31,32:B2,6,7,11,12,14,15,16",                   /* game 720, ply 25 */
    "W:WK7,18,19,21,23,25:B6,9,10,12,14,K31",                             /* game 720, ply 49 */
    "B:WK7,K15,21,K23:B12,13,K22,K30",                                    /* game 720, ply 96 */
    "W:WK10,K14:BK1,K5",             /* two kings each, near Black's double corner */
    "B:WK32:BK1,K6",                 /* two kings against one */
    "W:WK18,K23,K27:BK3,K9,K14",     /* three kings each in the centre */
    "B:W25,29,30,K19:B6,K10,K15,20", /* kings and men, capture threats both ways */
};
#define NPOS (int)(sizeof cli_bench_eval_positions / sizeof cli_bench_eval_positions[0])
const int cli_bench_eval_npositions = NPOS;

static int bench_eval(long long rounds, const char *wpath)
{
    Board pos[NPOS];
    char err[KM_ERR_MAX];
    for (int i = 0; i < NPOS; i++)
        if (board_from_fen(&pos[i], cli_bench_eval_positions[i], err))
            return cli_error("bench position %d: %s", i + 1, err);
    Weights w;
    if (!cli_weights(wpath, &w)) return 1;
    static EvalTable t;
    eval_table_init(&t, &w);
    /* The sum is printed, so the evaluations cannot be optimised away; the
     * library is a separate unit, so the calls are real calls. */
    uint64_t sum = 0;
    /* CPU seconds: the figure hardly depends on what else the machine runs */
    double t0 = km_cpu_now(), w0 = km_now();
    for (long long r = 0; r < rounds; r++)
        for (int i = 0; i < NPOS; i++) {
            /* the default weights are antisymmetric: a plain sum would be 0 */
            sum = sum * 31 + eval_score(&pos[i], KM_BLACK, &t);
            sum = sum * 31 + eval_score(&pos[i], KM_WHITE, &t);
        }
    double s = km_cpu_now() - t0, ws = km_now() - w0;
    long long n = rounds * NPOS * 2;
    printf("positions: %d, evaluations: %lld (each position for both sides), checksum %016llx\n", NPOS, n,
           (unsigned long long)sum);
    printf("time: %.3f s cpu, %.3f s wall\n", s, ws);
    printf("eval: %.1f ns per evaluation\n", n ? s * 1e9 / (double)n : 0.0);
    return 0;
}

static int run(const Opts *o)
{
    const char *wpath = opt_str(o, OPT_WEIGHTS);
    if (opt_flag(o, OPT_TACTICS))
        return cli_bench_tactics(opt_str(o, OPT_SUITE), (uint64_t)opt_int(o, OPT_NODES), wpath,
                                 opt_flag(o, OPT_VERBOSE), opt_flag(o, OPT_EXACT));
    if (!opt_flag(o, OPT_EVAL))
        return cli_bench_search((int)opt_int(o, OPT_DEPTH), wpath, opt_flag(o, OPT_VERBOSE),
                                opt_flag(o, OPT_EXACT));
    return bench_eval(opt_int(o, OPT_ROUNDS), wpath);
}

static const Opt options[] = {
    {OPT_DEPTH, NULL, NULL, OPT_INT, "D", 1, 60, "11", "search depth of the search benchmark"},
    {OPT_VERBOSE, "-v", NULL, OPT_FLAG, NULL, 0, 0, NULL, "one line per position (nodes, best move, score)"},
    {OPT_EXACT, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL, "the exact search (no reduction or pruning)"},
    {OPT_TACTICS, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL,
     "the tactics benchmark instead: each position of the suite searched with a node budget; "
     "counts those where the search plays the suite's move"},
    {OPT_SUITE, NULL, NULL, OPT_STR, "FILE", 0, 0, "tests/data/tactics.txt",
     "the suite of --tactics: FEN, a tab, the winning move (made by tools/gen_tactics)"},
    {OPT_NODES, NULL, NULL, OPT_INT, "N", 1, 9e18, "20000", "the node budget of each --tactics position"},
    {OPT_EVAL, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL,
     "the evaluation benchmark instead: a fixed set of positions (the opening, positions from "
     "Tinsley's games, king endgames) evaluated for both sides, N rounds; prints the CPU time per "
     "evaluation"},
    {OPT_ROUNDS, NULL, NULL, OPT_INT, "N", 1, 1e9, "50000", "rounds of --eval"},
    {OPT_WEIGHTS, NULL, NULL, OPT_STR, "FILE", 0, 0, "default",
     WEIGHTS_HELP "; zero weights let the evaluation skip the costly parameters"},
    CLI_NO_EGDB_NEVER_OPT("bench (its node count is the same on every machine)"),
    OPTS_END,
};

const CliCommand cmd_bench = {
    "bench",
    run,
    "benchmarks: the search (node count, speed) and the evaluation",
    &(const OptSpec){
        NULL,
        0,
        0,
        "Without --eval: searches 33 fixed positions (the opening, 8 ACF ballots, 24 positions "
        "from Tinsley's games) to depth D, deterministically; the node count is the same on every "
        "machine (tests/bench.txt keeps it). Ends with 'bench: NODES nodes, T s, NPS nps'.",
        options,
        "example: kingme bench --eval  ->  ... eval: N ns per evaluation (N depends on the machine)",
    },
};
