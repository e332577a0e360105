/* search.h - negamax alpha-beta with iterative deepening.
 *
 * Every leaf is evaluated for the side that started the search (the root side)
 * with its weight vector, negated where the other side is to move (spec:
 * docs/eval-params.md). A Searcher owns all mutable state (transposition table,
 * killers, history, counters, random generator, stop flag), so searches on
 * different threads share only what they are given on purpose: lazy SMP's
 * threads one transposition table (tt.h), and a caller the abort flag
 * another thread sets (SearchLimits.abort). */
#ifndef KINGME_SEARCH_H
#define KINGME_SEARCH_H

#include "kingme/eval.h"
#include "kingme/movegen.h"
#include "kingme/search_params.h"
#include "kingme/tt.h"

#include <stdatomic.h>

#define SEARCH_MAX_PLY 128
#define SCORE_WIN 1000000000             /* a win now; a win in n plies: SCORE_WIN - n */
#define SCORE_WIN_MIN (SCORE_WIN - 1000) /* |score| >= this: a proven result */
#define SCORE_INF (SCORE_WIN + 1)
/* A win the endgame database proves (egdb.h), met at ply p with distance to
 * conversion d, scores SCORE_DB_WIN - p - d: above every heuristic score,
 * below every proven win. |score| >= SCORE_DB_MIN (and < SCORE_WIN_MIN): a
 * database result. */
#define SCORE_DB_WIN (SCORE_WIN / 2)
#define SCORE_DB_MIN (SCORE_DB_WIN - 100000)

enum { TIEBREAK_RANDOM = 0, TIEBREAK_FIRST = 1 };

/* When a search stops, and what it reports: one move's request. How it
 * searches (the techniques, the database, the tie-break) is the Searcher's
 * own, set once (search_set_switches, search_set_egdb,
 * search_set_tiebreak). */
typedef struct SearchLimits {
    int depth;      /* plies; 0 = no limit (up to SEARCH_MAX_PLY - 1) */
    double seconds; /* a fixed time for this move (all of it is used); 0 = none */
    uint64_t nodes; /* 0 = no limit */
    /* A game clock: the side to move's time left and increment in seconds,
     * used when time_left > 0 (the time manager, timeman.h, then decides);
     * movestogo: moves until the next control, 0 = sudden death. */
    double time_left, increment;
    int movestogo;
    bool infinite;            /* search until stopped (s->stop), whatever else is set */
    double start;             /* km_now() when this move's time began (the engine: when
                               * `go` arrived); 0: when the search starts */
    const atomic_bool *abort; /* when not NULL: set from another thread to stop now
                               * (unlike s->stop, never cleared by the search) */
    /* Multi-PV: 0 or 1, the best move alone; N > 1, the best N root moves
     * (SEARCH_ALL_MOVES: every one), each with an exact score and its line
     * (SearchResult.lines). Every such move is searched with a window open
     * above, so that its score is exact, not only shown to be worse. */
    int multipv;
    /* Pondering: with ponder set the search runs as if infinite until
     * *ponderhit (set from another thread to the time of the hit, km_now()
     * in microseconds) is not 0; from then on the limits above apply: the
     * hard time limit counted from the hit, the soft one of a clock from the
     * start, so that the time searched while pondering is spent first. A
     * search stopped (stop, abort) before the hit ends as any other. */
    bool ponder;
    const atomic_llong *ponderhit;
} SearchLimits;

#define SEARCH_ALL_MOVES MAX_MOVES

/* No limit at all: every field 0 (set depth, seconds, nodes or a clock). */
void search_limits_default(SearchLimits *l);

/* The search's techniques, each on or off. All on is the default; the first
 * four off give the documents' plain fixed-depth alpha-beta; the last four
 * off (search_switches_exact, the --exact search) make the score the exact
 * minimax value of the tree the first three define. */
typedef struct SearchSwitches {
    bool tt;         /* the transposition table: cutoffs and the first move */
    bool quiescence; /* a pending capture is searched beyond the depth */
    bool extensions; /* a forced move (one legal move) costs no depth */
    bool ordering;   /* killers and history order the quiet moves */
    bool lmr;        /* late-move reductions of quiet moves, re-searched at full depth
                      * when they beat alpha */
    bool probcut;    /* ProbCut: a shallow search far outside the window cuts */
    bool etc;        /* enhanced transposition cutoffs (exact: the table's
                      * bounds are the search's own) */
    bool futility;   /* near the leaves, a static evaluation far outside the
                      * window decides a quiet null-window node */
    bool singular;   /* singular extensions, when the parameter list has them on */
} SearchSwitches;

void search_switches_default(SearchSwitches *w); /* every technique on */
void search_switches_exact(SearchSwitches *w);   /* every one but lmr, probcut, etc and futility */

typedef struct SearchLine {
    Move move;
    int32_t score;
    int depth;
    int pv_len;
    Move pv[SEARCH_MAX_PLY];
} SearchLine;

typedef struct SearchResult {
    Move best;     /* valid when has_move */
    bool has_move; /* false when the root side has no legal move */
    int32_t score; /* for the root side; see search_score_text */
    int depth;     /* last completed iteration */
    int seldepth;  /* deepest ply reached */
    uint64_t nodes;
    double seconds;
    int pv_len;
    Move pv[SEARCH_MAX_PLY];
    int ties; /* root moves sharing the best score (random tie-break) */
    /* multi-PV (SearchLimits.multipv > 1): the lines, best first (lines[0]
     * is best), owned by the Searcher and valid until its next search. A
     * search stopped in the middle of an iteration puts the moves it
     * searched at the new depth first (best first), then the others with
     * their last iteration's scores. */
    int nlines;
    const SearchLine *lines;
} SearchResult;

/* Called after each completed iteration (may be NULL). */
typedef void (*SearchReport)(const SearchResult *r, void *user);

typedef struct Searcher {
    /* configuration */
    Weights weights;
    EvalTable etab;         /* the weights blended for each phase (eval_table_init), without
                               the network: search_eval adds its part from accumulators */
    uint64_t weights_key;   /* mixed into table keys: never mixes weight vectors */
    int32_t probcut_margin; /* ProbCut's margin for these weights (search_probcut_margin) */
    bool margin_known;      /* probcut_margin measured for these weights */
    struct {                /* the gaps measured for the last vectors (by weights_key
                             * and the measuring depth): a match or a tuning run
                             * comes back to the same ones */
        uint64_t key;
        int32_t gap; /* the median gap + 1; 0: none */
    } margins[64];
    TT *tt; /* the table in use: own_tt, or one given by search_set_table */
    TT own_tt;
    SearchSwitches use; /* the techniques (search_set_switches) */
    SearchParams par;   /* the numbers (search_set_params): a selective technique acts
                         * when its switch in use and in par are both on */
    /* An endgame database (NULL: none), probed at every node with few enough
     * pieces and no capture pending; at the root it picks the move outright
     * when the position is a database win or loss. Shared read-only. */
    const struct Egdb *egdb;
    int tiebreak; /* TIEBREAK_RANDOM (the documents' way) or TIEBREAK_FIRST */
    /* per-search state */
    SearchLimits limits;
    int root_side;
    int iter_depth; /* the iteration's depth */
    uint64_t salt;  /* root side and weights, xor-ed into table keys */
    uint64_t nodes;
    int seldepth;
    double start, deadline; /* deadline: the hard limit (0: none) */
    bool stopped;
    atomic_int stop; /* set from another thread (or a signal) to stop now */
    uint64_t rng;
    Move killers[SEARCH_MAX_PLY][2];
    int32_t history[2][32][32];
    int8_t lmr[64][64]; /* late-move reduction by [depth][move number] */
    /* keys of the positions on the path (game history first), for repetitions */
    uint64_t *path;
    int path_cap, path_base;
    SearchLine *lines; /* multi-PV: 3 x lines_cap (the result, this iteration's, spare) */
    int lines_cap;
    Move pv[SEARCH_MAX_PLY][SEARCH_MAX_PLY];
    int pv_len[SEARCH_MAX_PLY];
    bool can_stop;     /* false during the first iteration: always finish it */
    bool pondering;    /* a ponder search before its hit */
    bool ponder_timed; /* its limits, once hit: timed, and the hard limit */
    double ponder_hard;
    /* threads (search_set_threads): helpers that search the same root
     * beside this one, sharing its table (lazy SMP), from the search's start
     * until this one stops; only this one's result counts */
    int nthreads; /* 1 + the helpers */
    struct Searcher *helpers;
    atomic_bool helpers_stop;         /* set when this one's search ends */
    int helper_id;                    /* 0: a searcher of its own; k: the k-th helper */
    _Atomic uint64_t published_nodes; /* a helper's node count, every 1024 nodes */
    struct NnAcc *nnacc;              /* with a network: its accumulators, one a ply (NULL: none yet) */
    struct EvalCacheEntry *ecache;    /* the last evaluations, by table key (NULL: none yet) */
} Searcher;

/* hash_mb: table size in MB (0: no table). Returns 0, or -1 with err when
 * out of memory. */
int search_init(Searcher *s, const Weights *w, size_t hash_mb, uint64_t seed, char *err);
void search_free(Searcher *s);
/* Use table t (not owned; NULL: back to the searcher's own). */
void search_set_table(Searcher *s, TT *t);
void search_set_weights(Searcher *s, const Weights *w);
void search_seed(Searcher *s, uint64_t seed);
/* How it searches, until set again: the techniques (every one on after
 * search_init), an endgame database (none), the tie-break between equal
 * root moves (TIEBREAK_RANDOM). */
void search_set_switches(Searcher *s, const SearchSwitches *use);
/* Every technique on, or with exact, every one but the selective search's
 * (search_switches_exact: the --exact search). */
void search_set_exact(Searcher *s, bool exact);
void search_set_egdb(Searcher *s, const struct Egdb *db);
void search_set_tiebreak(Searcher *s, int tiebreak);
/* The search's and the time manager's parameters (search_params.h; the
 * defaults after search_init), the helpers' too. A change of the ProbCut
 * margin's measurement gives a margin from the gap measured for the
 * weights at that depth, when it was (none measured: probcut_margin). */
void search_set_params(
    Searcher *s,
    const SearchParams *p); /* Search with n threads (1 to SEARCH_MAX_THREADS): n - 1 helpers search the
                             * same root beside the caller's thread, each a whole iterative deepening of
                             * its own (every other one a ply ahead), sharing the table, so that the
                             * caller's search finds more of its positions already searched. The result
                             * is the caller's search's. Not deterministic beyond one thread: the
                             * helpers' timing decides what the table holds. Returns 0, or -1 with err
                             * when out of memory (the searcher is then as before). */
#define SEARCH_MAX_THREADS 64
int search_set_threads(Searcher *s, int n, char *err);
/* ProbCut's margin for s's weights (evaluation units), measured the first
 * time it is asked for: two short exact searches of 64 positions (about
 * 0.6 M nodes). search_game and search_run ask for it when ProbCut can
 * act (a search deeper than 4 plies, or timed); a front end that keeps a
 * clock asks for it when the weights are set, so that no move's time pays
 * for it. Deterministic. */
int32_t search_probcut_margin(Searcher *s);
/* Forget everything learnt (table, killers, history): a new game. */
void search_clear(Searcher *s);

struct Game;

/* The one entry point for games (play, match, tune, engine): search the
 * current position of g, whose earlier positions are the history that
 * repetition and the forty-move rule see. Returns 0, or -1 when out of
 * memory. */
int search_game(Searcher *s, const struct Game *g, const SearchLimits *limits, SearchResult *out,
                SearchReport report, void *user);

/* The same for a bare position: history holds the keys (board_hash) of the
 * game's earlier positions, oldest first, not including b; reversible: plies since
 * the last capture or man move at b (the forty-move rule's count). */
int search_run(Searcher *s, const Board *b, const uint64_t *history, int nhistory, int reversible,
               const SearchLimits *limits, SearchResult *out, SearchReport report, void *user);

/* "win 7", "loss 12" (plies), "db win", "db loss" or the plain score.
 * buf: 32 bytes. */
void search_score_text(int32_t score, char *buf, size_t len);

#endif
