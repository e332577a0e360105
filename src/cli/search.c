/* search.c - kingme search [--fen FEN] (--depth D | --time S | --nodes N) ... */
#include "kingme/search.h"
#include "cli.h"
#include "kingme/egdb.h"
#include "kingme/game.h"
#include "kingme/notation.h"
#include "kingme/weights.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static void report(const SearchResult *r, void *user)
{
    (void)user;
    char sc[32], pv[SEARCH_MAX_PLY * MOVE_TEXT_MAX];
    search_score_text(r->score, sc, sizeof sc);
    double nps = r->seconds > 0 ? (double)r->nodes / r->seconds : 0;
    notation_moves_to_text(r->pv, r->pv_len, pv, sizeof pv);
    printf("depth %2d  score %8s  nodes %10" PRIu64 "  nps %9.0f  time %7.3f  pv%s%s\n", r->depth, sc,
           r->nodes, nps, r->seconds, pv[0] ? " " : "", pv);
    fflush(stdout);
}

/* --all, --multipv: one line per move, best first, cut to 80 columns. */
static void print_lines(const SearchResult *r)
{
    printf("%d move%s by score (for the side to move), each searched alone:\n", r->nlines,
           r->nlines == 1 ? "" : "s");
    printf("  %-3s %-9s %8s %5s  %s\n", "nr", "move", "score", "depth", "line");
    for (int k = 0; k < r->nlines; k++) {
        const SearchLine *l = &r->lines[k];
        char mv[MOVE_TEXT_MAX], sc[32], head[64], pv[256];
        notation_move_to_text(&l->move, mv);
        search_score_text(l->score, sc, sizeof sc);
        int w = snprintf(head, sizeof head, "  %-3d %-9s %8s %5d  ", k + 1, mv, sc, l->depth);
        /* the line (from the move on), as many moves as fit in 80 columns */
        size_t room = (size_t)(80 - w) < sizeof pv ? (size_t)(80 - w) : sizeof pv - 1;
        notation_moves_to_text(l->pv, l->pv_len, pv, room + 1);
        printf("%s%s\n", head, pv);
    }
}

static int run(const Opts *o)
{
    const char *fen = opt_str(o, OPT_FEN), *wpath = opt_str(o, OPT_WEIGHTS);
    SearchLimits lim;
    search_limits_default(&lim);
    long long hash_mb = opt_int(o, OPT_HASH), seed = opt_int(o, OPT_SEED);
    lim.depth = (int)opt_int(o, OPT_DEPTH);
    lim.seconds = opt_real(o, OPT_TIME);
    lim.nodes = (uint64_t)opt_int(o, OPT_NODES);
    bool limited = opt_given(o, OPT_DEPTH) || opt_given(o, OPT_TIME) || opt_given(o, OPT_NODES);
    SearchSwitches use;
    search_switches_default(&use);
    if (opt_flag(o, OPT_EXACT) || opt_flag(o, OPT_PLAIN)) search_switches_exact(&use);
    if (opt_flag(o, OPT_PLAIN)) use.tt = use.quiescence = use.extensions = false;
    if (opt_flag(o, OPT_NO_LMR)) use.lmr = false;
    if (opt_flag(o, OPT_NO_PROBCUT)) use.probcut = false;
    if (opt_flag(o, OPT_NO_FUTILITY)) use.futility = false;
    if (opt_flag(o, OPT_NO_ETC)) use.etc = false;
    if (opt_flag(o, OPT_NO_HASH)) use.tt = false;
    if (opt_flag(o, OPT_NO_QUIESCENCE)) use.quiescence = false;
    if (opt_flag(o, OPT_NO_EXTENSIONS)) use.extensions = false;
    if (!limited) return cli_usage_error("search", "give --depth, --time or --nodes");
    /* one rule for search, play and match: a search has one limit */
    if (opt_given(o, OPT_DEPTH) + opt_given(o, OPT_TIME) + opt_given(o, OPT_NODES) > 1)
        return cli_usage_error("search", "give one of --depth, --time and --nodes");
    Board start;
    if (!cli_board(fen, &start)) return 1;
    Game g;
    if (game_init(&g, &start)) return cli_error("out of memory");
    const char *moves = opt_str(o, OPT_MOVES);
    if (moves && !cli_play_moves(&g, moves)) {
        game_free(&g);
        return 1;
    }
    Board b = g.cur;
    Weights w;
    Searcher s;
    char err[KM_ERR_MAX];
    if (!cli_weights(wpath, &w)) {
        game_free(&g);
        return 1;
    }
    Egdb *db;
    if (!cli_egdb_auto(o, &db)) {
        game_free(&g);
        return 1;
    }
    if (search_init(&s, &w, (size_t)hash_mb, (uint64_t)seed, err)) {
        game_free(&g);
        egdb_close(db);
        return cli_error("%s", err);
    }
    search_set_switches(&s, &use);
    SearchParams par;
    search_params_default(&par);
    if (!cli_search_params(o, OPT_SET, &par)) {
        search_free(&s);
        game_free(&g);
        egdb_close(db);
        return 1;
    }
    search_set_params(&s, &par);
    search_set_egdb(&s, db);
    search_set_tiebreak(&s, opt_choice(o, OPT_TIEBREAK) == 1 ? TIEBREAK_FIRST : TIEBREAK_RANDOM);
    if (search_set_threads(&s, (int)opt_int(o, OPT_THREADS), err)) {
        search_free(&s);
        game_free(&g);
        egdb_close(db);
        return cli_error("%s", err);
    }
    if (opt_flag(o, OPT_ALL)) lim.multipv = SEARCH_ALL_MOVES;
    else if (opt_given(o, OPT_MULTIPV)) lim.multipv = (int)opt_int(o, OPT_MULTIPV);
    SearchResult r;
    int rc = search_game(&s, &g, &lim, &r, report, NULL);
    if (!rc && r.has_move && r.nlines) print_lines(&r);
    search_free(&s); /* r.lines with it */
    game_free(&g);
    if (egdb_damage(db, err))
        cli_error("%s: the positions it holds were searched as if not in the database", err);
    egdb_close(db);
    if (rc) return cli_error("search: out of memory");
    if (!r.has_move) {
        printf("no legal move: %s loses\nbestmove none\n", b.stm == KM_BLACK ? "Black" : "White");
        return 0;
    }
    char t[MOVE_TEXT_MAX];
    notation_move_to_text(&r.best, t);
    printf("bestmove %s\n", t);
    return 0;
}

static const Opt options[] = {
    {OPT_FEN, NULL, NULL, OPT_STR, "FEN", 0, 0, DESCRIBED("the initial position"), "the position"},
    {OPT_MOVES, NULL, NULL, OPT_STR, "\"M1 M2 ...\"", 0, 0, DESCRIBED("none"),
     "moves played from that position (the play prompt's forms): the game's history, which "
     "repetition and the forty-move rule see; the search starts after them"},
    {OPT_DEPTH, NULL, NULL, OPT_INT, "D", 1, SEARCH_MAX_PLY - 2, DESCRIBED("none"), "search D plies"},
    {OPT_TIME, NULL, NULL, OPT_REAL, "S", 0.001, 1e6, DESCRIBED("none"), "search S seconds"},
    {OPT_NODES, NULL, NULL, OPT_INT, "N", 1, 9e18, DESCRIBED("none"),
     "search N nodes (give one of the three)"},
    {OPT_WEIGHTS, NULL, NULL, OPT_STR, "FILE", 0, 0, "default", WEIGHTS_HELP},
    CLI_HASH_OPT("transposition table size (0: none)"),
    CLI_SEED_OPT("seed of the random tie-breaks"),
    {OPT_TIEBREAK, NULL, NULL, OPT_CHOICE, "random|first", 0, 0, "random",
     "among equally scored moves: a random one (seeded by --seed) or the first generated"},
    {OPT_PLAIN, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL,
     "the design documents' search: fixed-depth alpha-beta with no table, no quiescence and no "
     "forced-move extension (the same as the three options below)"},
    {OPT_EXACT, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL,
     "no reduction or pruning: the score is the exact minimax value to the depth (with the table, "
     "quiescence and extensions unless turned off; --plain implies it)"},
    {OPT_NO_LMR, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL, "no late-move reductions"},
    {OPT_NO_PROBCUT, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL, "no ProbCut"},
    {OPT_NO_FUTILITY, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL, "no futility pruning near the leaves"},
    {OPT_NO_ETC, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL, "no enhanced transposition cutoffs"},
    {OPT_NO_HASH, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL, "no transposition table"},
    {OPT_NO_QUIESCENCE, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL, "no quiescence search of captures"},
    {OPT_NO_EXTENSIONS, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL, "no extension of forced moves"},
    {OPT_ALL, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL,
     "every legal move with its exact score and line, best first (a multi-PV search of all of them)"},
    {OPT_MULTIPV, NULL, NULL, OPT_INT, "N", 1, SEARCH_ALL_MOVES, DESCRIBED("1"),
     "the best N moves, each with its exact score and line"},
    SEARCH_THREADS_OPT,
    CLI_SET_OPT(OPT_SET, "the search"),
    CLI_EGDB_OPTS,
    OPTS_END,
};

const CliCommand cmd_search = {
    "search",
    run,
    "search a position and print the best move",
    &(const OptSpec){
        NULL,
        0,
        0,
        "One line per completed iteration: depth, score (for the side to move; a proven result is "
        "'win N' or 'loss N', N in plies; 'db win' or 'db loss' by the endgame database), nodes, nodes per "
        "second, time and principal variation; "
        "with --all or --multipv N, then the moves by score, each with its own line; "
        "then 'bestmove MOVE'.",
        options,
        "example: kingme search --depth 12 --tiebreak first",
    },
};
