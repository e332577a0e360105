/* search.c - negamax alpha-beta (PVS) with iterative deepening, a
 * transposition table, killers and history, quiescence on pending captures,
 * forced-move extension, draw/win knowledge, and the selective search:
 * late-move reductions, ProbCut, futility pruning near the leaves,
 * enhanced transposition cutoffs and singular extensions (all off with
 * search_switches_exact). */
#include "kingme/search.h"
#include "kingme/base.h"
#include "kingme/bits.h"
#include "kingme/egdb.h"
#include "kingme/game.h"
#include "kingme/nn.h"
#include "kingme/timeman.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void search_limits_default(SearchLimits *l) { memset(l, 0, sizeof *l); }

void search_switches_default(SearchSwitches *w)
{
    w->tt = w->quiescence = w->extensions = w->ordering = true;
    w->lmr = w->probcut = w->futility = w->etc = w->singular = true;
}

void search_switches_exact(SearchSwitches *w)
{
    search_switches_default(w);
    w->lmr = w->probcut = w->futility = w->etc = w->singular = false;
}

void search_set_switches(Searcher *s, const SearchSwitches *use) { s->use = *use; }

void search_set_exact(Searcher *s, bool exact)
{
    if (exact) search_switches_exact(&s->use);
    else search_switches_default(&s->use);
}
void search_set_egdb(Searcher *s, const struct Egdb *db) { s->egdb = db; }
void search_set_tiebreak(Searcher *s, int tiebreak) { s->tiebreak = tiebreak; }

static void init_lmr(Searcher *s);

/* ProbCut's margin from a measured gap (the median of |v(d) - v(d/2)|). */
static int32_t margin_of_gap(const SearchParams *p, int32_t gap)
{
    int32_t m = (int32_t)((int64_t)gap * p->probcut_scale / 100);
    return m < p->probcut_margin_min   ? p->probcut_margin_min
           : m > p->probcut_margin_max ? p->probcut_margin_max
                                       : m;
}

/* The gaps measured are kept by weights and measuring depth. */
static uint64_t margin_key(const Searcher *s)
{
    return s->weights_key ^ km_mix64((uint64_t)s->par.probcut_measure_depth);
}

/* The margin for the weights and parameters, when their gap is known;
 * else the parameters' assumed margin. */
static void margin_from_cache(Searcher *s)
{
    uint64_t key = margin_key(s);
    int slot = (int)(key % 64);
    s->margin_known = s->margins[slot].key == key && s->margins[slot].gap > 0;
    s->probcut_margin =
        s->margin_known ? margin_of_gap(&s->par, s->margins[slot].gap - 1) : s->par.probcut_margin;
}

void search_set_params(Searcher *s, const SearchParams *p)
{
    SearchParams old = s->par;
    s->par = *p;
    if (old.lmr_base != p->lmr_base || old.lmr_div != p->lmr_div) init_lmr(s);
    /* the margin from the gap measured for these weights at this depth, if
     * it was (a margin known otherwise, as a node-budget level's, is kept) */
    if (old.probcut_measure_depth != p->probcut_measure_depth || old.probcut_scale != p->probcut_scale ||
        old.probcut_margin_min != p->probcut_margin_min || old.probcut_margin_max != p->probcut_margin_max ||
        old.probcut_margin != p->probcut_margin)
        margin_from_cache(s);
    for (int k = 0; k < s->nthreads - 1; k++) search_set_params(&s->helpers[k], p);
}

/* ProbCut (~+52 Elo, 88 games at 0.05 s, c13c743, 2026-11-22), late-move
 * reductions (~+21 Elo, 200 games at 0.05 s, 1ebbd6e, 2026-11-22), and the
 * numbers of each: search_params.h (its list has what each measured). The
 * reductions grow with the logarithms of the depth and of the move's place
 * in the order. */
static void init_lmr(Searcher *s)
{
    for (int d = 0; d < 64; d++)
        for (int n = 0; n < 64; n++) {
            double r = d && n ? s->par.lmr_base + log((double)d) * log((double)n) / s->par.lmr_div : 0;
            s->lmr[d][n] = (int8_t)(r > 60 ? 60 : r);
        }
}

int search_init(Searcher *s, const Weights *w, size_t hash_mb, uint64_t seed, char *err)
{
    memset(s, 0, sizeof *s);
    board_hash_init();
    search_params_default(&s->par);
    search_set_weights(s, w);
    search_seed(s, seed);
    init_lmr(s);
    search_switches_default(&s->use);
    s->tiebreak = TIEBREAK_RANDOM;
    if (tt_init(&s->own_tt, hash_mb, err)) return -1;
    s->tt = &s->own_tt;
    s->path_cap = 1024;
    s->path = malloc((size_t)s->path_cap * sizeof *s->path);
    if (!s->path) {
        tt_free(&s->own_tt);
        snprintf(err, KM_ERR_MAX, "out of memory");
        return -1;
    }
    atomic_init(&s->stop, 0);
    atomic_init(&s->helpers_stop, false);
    atomic_init(&s->published_nodes, 0);
    s->nthreads = 1;
    return 0;
}

static void free_helpers(Searcher *s)
{
    for (int k = 0; k < s->nthreads - 1; k++) search_free(&s->helpers[k]);
    free(s->helpers);
    s->helpers = NULL;
    s->nthreads = 1;
}

void search_free(Searcher *s)
{
    free_helpers(s);
    tt_free(&s->own_tt);
    free(s->path);
    free(s->lines);
    free(s->nnacc);
    s->nnacc = NULL;
    free(s->ecache);
    s->ecache = NULL;
    s->tt = NULL;
    s->path = NULL;
    s->lines = NULL;
    s->lines_cap = 0;
}

void search_set_table(Searcher *s, TT *t) { s->tt = t ? t : &s->own_tt; }

void search_set_weights(Searcher *s, const Weights *w)
{
    s->weights = *w;
    eval_table_init(&s->etab, w);
    s->etab.net = NULL; /* the network's part comes from its accumulators (search_eval) */
    s->weights_key = eval_weights_key(w);
    margin_from_cache(s);
    for (int p = 0; s->nnacc && p < SEARCH_MAX_PLY; p++) s->nnacc[p].valid = 0; /* another network */
    for (int k = 0; k < s->nthreads - 1; k++) search_set_weights(&s->helpers[k], w);
}

int search_set_threads(Searcher *s, int n, char *err)
{
    if (n < 1 || n > SEARCH_MAX_THREADS) {
        snprintf(err, KM_ERR_MAX, "threads: 1 to %d, not %d", SEARCH_MAX_THREADS, n);
        return -1;
    }
    if (n == s->nthreads) return 0;
    Searcher *h = NULL;
    if (n > 1) {
        h = calloc((size_t)n - 1, sizeof *h);
        if (!h) {
            snprintf(err, KM_ERR_MAX, "out of memory");
            return -1;
        }
        for (int k = 0; k < n - 1; k++) {
            if (search_init(&h[k], &s->weights, 0, s->rng + (uint64_t)k + 1, err)) {
                while (k--) search_free(&h[k]);
                free(h);
                return -1;
            }
            h[k].helper_id = k + 1;
            search_set_params(&h[k], &s->par);
        }
    }
    free_helpers(s);
    s->helpers = h;
    s->nthreads = n;
    return 0;
}

void search_seed(Searcher *s, uint64_t seed) { s->rng = km_mix64(seed ^ 0x5EED5EED5EEDull); }

static void forget_ordering(Searcher *s)
{
    memset(s->killers, 0, sizeof s->killers);
    memset(s->history, 0, sizeof s->history);
}

void search_clear(Searcher *s)
{
    tt_clear(s->tt);
    forget_ordering(s);
    for (int k = 0; k < s->nthreads - 1; k++) forget_ordering(&s->helpers[k]);
}

void search_score_text(int32_t score, char *buf, size_t len)
{
    if (score >= SCORE_WIN_MIN) snprintf(buf, len, "win %d", SCORE_WIN - score);
    else if (score <= -SCORE_WIN_MIN) snprintf(buf, len, "loss %d", SCORE_WIN + score);
    else if (score >= SCORE_DB_MIN) snprintf(buf, len, "db win");
    else if (score <= -SCORE_DB_MIN) snprintf(buf, len, "db loss");
    else snprintf(buf, len, "%d", score);
}

/* ---- keys ------------------------------------------------------------------- */

/* Score stored in the table: wins (proven or by the database) relative to
 * the node, not the root. */
static inline int32_t score_to_tt(int32_t v, int ply)
{
    if (v >= SCORE_DB_MIN) return v + ply;
    if (v <= -SCORE_DB_MIN) return v - ply;
    return v;
}
static inline int32_t score_from_tt(int32_t v, int ply)
{
    if (v >= SCORE_DB_MIN) return v - ply;
    if (v <= -SCORE_DB_MIN) return v + ply;
    return v;
}

/* ---- the tree --------------------------------------------------------------- */

/* A ponder search that has been hit gets its limits: true at the hit. */
static bool ponder_poll(Searcher *s)
{
    if (!s->pondering || !s->limits.ponderhit) return false;
    long long us = atomic_load_explicit(s->limits.ponderhit, memory_order_relaxed);
    if (!us) return false;
    s->pondering = false;
    if (s->ponder_timed) s->deadline = (double)us / 1e6 + s->ponder_hard;
    return true;
}

static void check_limits(Searcher *s)
{
    if (s->helper_id) atomic_store_explicit(&s->published_nodes, s->nodes, memory_order_relaxed);
    if (atomic_load_explicit(&s->stop, memory_order_relaxed)) s->stopped = true;
    if (s->limits.abort && atomic_load_explicit(s->limits.abort, memory_order_relaxed)) s->stopped = true;
    ponder_poll(s);
    if (!s->can_stop || s->pondering) return;
    if (s->limits.nodes && s->nodes >= s->limits.nodes) s->stopped = true;
    if (s->deadline > 0 && km_now() >= s->deadline) s->stopped = true;
}

/* A position seen before on the path or in the game, same side to move, with
 * no capture in between: the search scores it as a draw (the game would be
 * drawn if the sides kept repeating it). */
static inline bool is_repetition(const Searcher *s, int idx, int reversible)
{
    uint64_t k = s->path[idx];
    for (int i = idx - 2; i >= 0 && i >= idx - reversible; i -= 2)
        if (s->path[i] == k) return true;
    return false;
}

static inline bool same_move(const Move *a, const Move *b)
{
    return a->from == b->from && a->to == b->to && a->captured == b->captured;
}

/* Order scores: table move, then the captures taking most, killers, history. */
static void score_moves(const Searcher *s, const Board *b, const MoveList *ml, int ply, int tt_move,
                        int32_t *sc)
{
    const Move *k0 = &s->killers[ply][0], *k1 = &s->killers[ply][1];
    for (int i = 0; i < ml->count; i++) {
        const Move *m = &ml->moves[i];
        int32_t v;
        if (i == tt_move) v = 2000000000;
        else if (m->njumps)
            v = 1000000000 + 1000 * bits_popcount32(m->captured) + bits_popcount32(m->captured & b->kings);
        else if (same_move(m, k0)) v = 900000000;
        else if (same_move(m, k1)) v = 800000000;
        else v = s->history[b->stm][m->from][m->to];
        sc[i] = v;
    }
}

/* The next move to search: the best-scored of positions i.. (the first of
 * equals), swapped to position i. sc[k] is the score of order[k] and moves
 * with it, so that the scan reads the scores in a row (no branch on them). */
static inline int pick_next(int32_t *sc, int *order, int count, int i)
{
    int best = i;
    int32_t bv = sc[i];
    for (int j = i + 1; j < count; j++) {
        int32_t v = sc[j];
        bool g = v > bv;
        best = g ? j : best;
        bv = g ? v : bv;
    }
    int t = order[i];
    order[i] = order[best];
    order[best] = t;
    sc[best] = sc[i];
    sc[i] = bv;
    return order[i];
}

/* A table entry for tkey: its move as *tt_move (when it is still in the
 * list), and true with *v when its bound decides the node. */
static bool tt_lookup(Searcher *s, const MoveList *ml, uint64_t tkey, int depth, int ply, int32_t alpha,
                      int32_t beta, int *tt_move, int32_t *v, TTEntry *e)
{
    if (!tt_probe(s->tt, tkey, e)) return false;
    if (e->move < ml->count && ml->moves[e->move].to + 1 == e->to) *tt_move = e->move;
    if (e->depth < depth) return false;
    *v = score_from_tt(e->score, ply);
    int f = tt_flag(e);
    if (!(f == TT_EXACT || (f == TT_LOWER && *v >= beta) || (f == TT_UPPER && *v <= alpha))) return false;
    if (*tt_move >= 0) {
        s->pv[ply][0] = ml->moves[*tt_move];
        s->pv_len[ply] = 1;
    }
    return true;
}

static int32_t negamax(Searcher *s, const Board *b, uint64_t key, int depth, int ply, int32_t alpha,
                       int32_t beta, int reversible);

/* ProbCut (Buro): at a null-window node of depth 5 to 10 (the defaults), a
 * shallow search (half the depth) whose result lies a margin above beta predicts that the
 * deep one fails high; trust it. Returns true when the node is cut at beta.
 * Only the beta side (~+19 Elo, 1200 games at 0.02 s, d8bd843, 2026-11-26):
 * a shallow search far below alpha predicting a fail low was tried too until
 * 3c6c2a9, and cutting on it lost: a shallow search that fails high has found
 * a move, one that fails low has only not found one. Not deeper than
 * probcut_max_depth: the scores of depths d and d/2 disagree by more as d
 * grows (over 100 Tinsley positions the 90th percentile of the gap is about
 * 100 at d 4-6, 230-285 at d 8-11, 536 at 12), so a deep node's shallow
 * search misjudges more often. (A margin that also grew with depth, by a
 * fifth a ply, gained +11.7 at 0.02 s over the fixed one but not at 0.1 s:
 * docs/devlog.md, 97213ff, 2026-12-05.) Not in endings of probcut_pieces
 * or fewer: there the evaluation says little about the result and the
 * shallow search would hide the wins. */
static bool probcut(Searcher *s, const Board *b, uint64_t key, int depth, int ply, int32_t beta,
                    int reversible)
{
    if (depth < s->par.probcut_depth || depth > s->par.probcut_max_depth || beta >= SCORE_WIN_MIN - 1000 ||
        beta <= -SCORE_WIN_MIN + 1000 || bits_popcount32(board_occupied(b)) <= s->par.probcut_pieces)
        return false;
    int32_t hb = beta + s->probcut_margin;
    int32_t v = negamax(s, b, key, depth / s->par.probcut_div, ply, hb - 1, hb, reversible);
    return !s->stopped && v >= hb;
}

/* ProbCut's margin is measured for each weight vector (~+50 Elo, 400 games
 * at 0.02 s, 4f2a05a, 2026-11-25): how far an exact search to depth 6 and
 * one to depth 3 disagree on the positions below (the median of |v6 - v3|,
 * times 3/2). A vector whose evaluation changes
 * little from ply to ply (weights/default-60.w: a median of 30) gets a
 * narrow margin, one with more positional terms (weights/default.w: 187)
 * a wide one, so that the same fraction of ProbCut's shallow searches is
 * trusted. Measured by hand at 0.02 s a move: margin 50 instead of 100 with
 * default-60.w, +27.9 (+5.0 .. +51.0); 150 instead of 100 with default.w,
 * +27.9 (+4.7 .. +51.2) (400 games each).
 * The positions: 64 of the Tinsley games in tests/data/tinsley.pdn, each 8
 * to 60 plies into its game (picked at random), 12 pieces or more. */
static const char *const MARGIN_POSITIONS[] = {
    "B:W11,18,21,23,31,32:B2,7,12,13,16,22",
    "B:W22,23,26,27,30,32:B3,6,10,11,14,15",
    "B:W9,13,19,22,23,24,25,26,27,30,32:B1,2,5,6,7,8,10,12,16,20",
    "W:W20,21,25,26,28,31:B1,10,14,15,18,19",
    "W:W6,21,22,25,26,29:B2,3,8,9,13,27",
    "B:W10,20,21,23,26,28,30:B2,4,5,8,9,12,19",
    "B:W21,22,23,24,26,27,30,31,32:B1,2,3,4,7,8,10,12,14",
    "W:W21,22,23,26,27,28,29,30,31,32:B1,2,3,4,6,7,8,12,14,19",
    "W:W21,22,24,26,27,28,32:B3,4,7,8,12,14,15",
    "W:W18,22,23,24,25,32:B3,5,7,11,15,16",
    "W:W13,17,20,21,23,24,28:B6,7,8,10,11,14,19",
    "B:W17,20,21,23,25,27,29,30,32:B1,3,4,5,8,10,12,13,14",
    "B:W17,19,21,22,24,26,28,29,30,31,32:B1,2,3,7,8,9,10,11,12,14,15",
    "B:W10,21,24,26,28,29,30,31,32:B1,2,3,4,7,8,15,19",
    "B:W8,13,17,19,23,26,30:B2,6,9,10,12,21,28",
    "W:W17,20,21,22,24,26,27,28,29,30,31:B1,2,4,6,7,10,11,12,14,15,19",
    "W:W13,18,19,22,23,27,30,32:B1,2,3,6,10,12,16,20",
    "B:W16,20,21,22,26,30,31,32:B1,3,7,11,12,13,14",
    "B:W14,15,17,18,21,22,25,30,32:B2,5,6,7,8,10,12,20",
    "W:W18,21,22,24,26,28,29,30,31,32:B1,2,3,4,5,9,10,11,13,16",
    "W:W19,21,22,23,24,26,28,30,31,32:B1,2,3,4,6,10,11,12,14,15",
    "B:W13,19,22,24,27,28,30,31,32:B2,3,5,6,7,10,11,12,15",
    "W:W18,24,25,26,31,32:B2,5,11,12,14,16",
    "B:W17,20,21,25,26,27,30,31,32:B1,2,4,7,8,10,11,14,19",
    "W:W19,21,23,27,28,29,32:B3,4,5,6,11,12,14,25",
    "W:W20,21,22,23,26,27,28,29,30,31,32:B1,2,3,5,6,8,10,11,12,13,15",
    "W:W13,17,18,19,21,22,23,26,30:B2,5,6,7,8,9,10,12,16",
    "W:W11,14,21,23,24,32:B2,4,8,13,15,K26",
    "B:W13,14,20,22,24,25,28,29,31:B2,6,7,8,10,12,15,19",
    "B:W12,19,21,27,28,29,30,31,32:B2,3,4,5,6,9,14,15,20",
    "W:W17,21,24,26,27,28,30,31,32:B1,2,4,5,7,8,12,15,18,19",
    "W:W13,19,21,22,23,26,27,30,31,32:B1,2,3,6,8,10,12,14,15,20",
    "B:W19,21,22,23,26,27,28,29,30,31,32:B1,2,3,4,6,7,10,11,12,14,16",
    "B:WK2,24,26,27,30,32:B9,11,12,16,17,20,21",
    "B:W13,19,20,24,25,27,28,30,31:B2,3,5,6,7,8,12,17,21",
    "W:W13,17,19,21,23,24,25,27,29,30,32:B2,5,6,7,9,10,11,12,14,15,18",
    "B:W15,23,24,25,27,29,31,32:B2,3,4,6,8,9,12,18",
    "B:W13,19,21,22,23,30,31,32:B1,3,6,7,8,9,12,16",
    "W:W20,21,22,23,27,30,32:B1,3,6,8,10,14,18",
    "W:W21,22,25,26,28,29,31,32:B1,2,4,6,7,12,13,16,18",
    "W:W18,21,22,23,24,27,29,30,31,32:B1,2,3,5,7,9,10,11,12,14",
    "W:W13,19,20,25,27,28,29,30,31,32:B1,2,3,5,6,8,11,12,14,18",
    "W:W13,21,25,26,27,28,29,30,32:B1,2,3,4,7,8,12,14,18",
    "B:W7,17,20,21,26,30,31:B1,2,3,6,10,14",
    "W:W19,21,22,23,24,26,28,30:B2,3,6,10,11,12,13,14",
    "W:W18,21,22,23,24,25,27,28,29,30,31:B1,2,3,4,5,6,7,8,9,15,20",
    "W:W17,19,21,23,25,30,31,32:B1,3,4,6,7,9,12,16",
    "W:W16,19,22,27,28,30,32:B1,2,6,7,12,14,20",
    "W:W19,20,21,24,25,28,29,30,31:B2,3,4,5,8,9,12,13,18",
    "B:W18,19,21,22,24,29,30,31,32:B1,2,3,4,10,12,13,15,16",
    "W:W9,20,21,22,24,26,27,28,30:B1,2,6,8,11,13,15,16,19",
    "B:W12,13,22,26,27,28,29,30,31,32:B1,3,4,5,6,7,8,14,15,19",
    "W:W13,19,21,23,25,26,27,30,31,32:B1,2,3,6,7,10,12,14,15,16",
    "B:W13,17,18,21,28,30,31,32:B1,3,6,8,10,11,20,25",
    "W:W12,17,20,21,31,32:B2,3,5,8,14,19,K29",
    "B:WK3,14,25,27,28,31:B2,6,15,16,18,20",
    "W:W6,19,21,23,30,31:B1,3,10,12,15,22",
    "W:W13,25,26,27,28,30,31:B1,2,6,7,8,9,19",
    "W:W13,24,25,27,28,29,30,31,32:B1,2,3,4,5,8,9,12,15",
    "B:W14,21,23,24,26,27,29,30,31,32:B1,2,3,4,5,6,7,11,13,18",
    "B:W9,13,22,23,24,25,26,27,28,30,32:B2,4,5,6,7,8,10,11,12,15",
    "W:W20,21,22,23,24,27,29,30,31,32:B2,3,4,5,6,8,9,11,12,14",
    "W:W18,20,21,22,23,28,31,32:B2,4,5,7,8,10,11,13",
    "B:W17,19,21,22,24,25,26,27,28,30,31,32:B1,2,3,5,6,7,8,10,11,12,14,15",
};

static int cmp_int32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

int32_t search_probcut_margin(Searcher *s)
{
    if (s->margin_known) return s->probcut_margin;
    SearchSwitches exact;
    search_switches_default(&exact);
    search_switches_exact(&exact);
    /* a small table of its own: the searches are the same on every call,
     * and the game's table keeps what it had */
    TT table, *game_table = s->tt;
    char err[KM_ERR_MAX];
    if (tt_init(&table, 1, err)) return s->probcut_margin;
    /* the move ordering the searcher had, put back afterwards: a search
     * must not depend on whether it was the one that measured the margin */
    struct {
        Move killers[SEARCH_MAX_PLY][2];
        int32_t history[2][32][32];
    } *kept = malloc(sizeof *kept);
    if (kept) {
        memcpy(kept->killers, s->killers, sizeof s->killers);
        memcpy(kept->history, s->history, sizeof s->history);
    }
    s->tt = &table;
    SearchLimits saved = s->limits;
    SearchSwitches saved_use = s->use;
    const struct Egdb *saved_db = s->egdb;
    search_limits_default(&s->limits);
    s->use = exact;
    s->egdb = NULL;
    s->salt = 0;
    /* two short searches, not to be cut short: a stop is for a search */
    int pending = atomic_exchange(&s->stop, 0);
    s->stopped = s->can_stop = false;
    s->deadline = 0;
    s->path_base = 0;
    enum { N = sizeof MARGIN_POSITIONS / sizeof *MARGIN_POSITIONS };
    int32_t d[N];
    int n = 0;
    for (int i = 0; i < N; i++) {
        Board b;
        if (board_from_fen(&b, MARGIN_POSITIONS[i], err)) continue;
        uint64_t key = board_hash(&b);
        s->root_side = b.stm;
        int deep_depth = s->par.probcut_measure_depth;
        int32_t shallow = negamax(s, &b, key, deep_depth / 2, 0, -SCORE_INF, SCORE_INF, 0);
        int32_t deep = negamax(s, &b, key, deep_depth, 0, -SCORE_INF, SCORE_INF, 0);
        if (shallow > -3000 && shallow < 3000 && deep > -3000 && deep < 3000)
            d[n++] = deep > shallow ? deep - shallow : shallow - deep;
    }
    atomic_store(&s->stop, pending);
    s->limits = saved;
    s->use = saved_use;
    s->egdb = saved_db;
    s->tt = game_table;
    tt_free(&table);
    if (kept) {
        memcpy(s->killers, kept->killers, sizeof s->killers);
        memcpy(s->history, kept->history, sizeof s->history);
        free(kept);
    } else {
        forget_ordering(s);
    }
    if (n == 0) return s->probcut_margin;
    qsort(d, (size_t)n, sizeof *d, cmp_int32);
    s->probcut_margin = margin_of_gap(&s->par, d[n / 2]);
    s->margin_known = true;
    uint64_t key = margin_key(s);
    int slot = (int)(key % 64);
    s->margins[slot].key = key;
    s->margins[slot].gap = d[n / 2] + 1;
    return s->probcut_margin; /* the helpers get it in start_helpers */
}

/* Every child's table bucket asked for at once, so that the cache misses
 * overlap and the searches that follow find their buckets cached (the same
 * tree, 8% faster: ~+18 Elo, 400 games at 0.02 s, cbd6f47, 2026-11-25); ck
 * gets the children's table keys. */
static void prefetch_children(const Searcher *s, const Board *b, const MoveList *ml, uint64_t key,
                              uint64_t *ck)
{
    for (int i = 0; i < ml->count; i++) {
        ck[i] = mg_move_key_after(b, &ml->moves[i], key) ^ s->salt;
        tt_prefetch(s->tt, ck[i]);
    }
}

/* Enhanced transposition cutoff (Plaat, Schaeffer et al.): before searching
 * the moves, look each child up in the table; one already known to be bad
 * enough for the opponent (an upper bound at or below -beta, deep enough)
 * cuts the node without a search. (About 0 Elo: the search without it
 * scored -5.6, -17.1 .. +5.8, in 800 games at 0.1 s and +5.2, -6.2 ..
 * +16.6, in 800 at 0.02 s, 8fb252a, 2026-11-27; with futility it measured
 * +41 against neither, 1632cdd: not shown to gain on its own.) */
static bool etc_cutoff(Searcher *s, const Board *b, const MoveList *ml, uint64_t key, int depth, int ply,
                       int32_t beta, int32_t *v)
{
    uint64_t ck[MAX_MOVES];
    prefetch_children(s, b, ml, key, ck);
    for (int i = 0; i < ml->count; i++) {
        TTEntry en, *e = &en;
        if (!tt_probe(s->tt, ck[i], e) || e->depth < depth - 1) continue;
        int f = tt_flag(e);
        if (f != TT_UPPER && f != TT_EXACT) continue;
        int32_t cv = -score_from_tt(e->score, ply + 1);
        if (cv >= beta) {
            *v = cv;
            return true;
        }
    }
    return false;
}

/* The evaluation at a node of ply ply, for the side to move: eval_score
 * of the named terms and the pattern layer, plus the network's part. Its
 * accumulators are kept one a ply and brought from this ply's last position
 * or the parent's, whichever differs less (nn_acc_set): the same value as
 * nn_eval. */
static int board_diff(const Board *x, const Board *y)
{
    return bits_popcount32((x->pieces[0] ^ y->pieces[0]) | (x->pieces[1] ^ y->pieces[1]) |
                           (x->kings ^ y->kings));
}
static int32_t search_net(Searcher *s, const EvalNet *net, const Board *b, int ply)
{
    if (!s->nnacc && !(s->nnacc = calloc(SEARCH_MAX_PLY, sizeof *s->nnacc)))
        return nn_eval(net, b, s->root_side);
    NnAcc *a = &s->nnacc[ply];
    const NnAcc *from = a;
    if (ply > 0 && s->nnacc[ply - 1].valid &&
        (!a->valid || board_diff(&s->nnacc[ply - 1].b, b) < board_diff(&a->b, b)))
        from = &s->nnacc[ply - 1];
    nn_acc_set(net, a, from, b);
    return nn_acc_eval(net, a, s->root_side);
}
/* The evaluation cache: the last evaluation of each slot's position, by its
 * key mixed with the weights' and the root side's (not the salt, which the
 * margin's measurement leaves 0), so that a position reached again in the
 * tree (transpositions, re-searches, the next iteration's leaves) is not
 * evaluated again: the same tree, about a quarter fewer evaluations. */
#define ECACHE_BITS 16
typedef struct EvalCacheEntry {
    uint32_t check; /* the key's high half */
    int32_t v;      /* search_eval's value for the root side, +1 (0: empty) */
} EvalCacheEntry;

static inline uint64_t ecache_key(const Searcher *s, uint64_t key)
{
    return key ^ s->weights_key ^ (s->root_side == KM_WHITE ? 0x9E3779B97F4A7C15ull : 0);
}

/* Ask for key's slot before it is needed: the probe otherwise waits on
 * memory (the same tree, about 6% faster, 2026-12-02: docs/devlog.md). */
static inline void ecache_prefetch(const Searcher *s, uint64_t key)
{
    if (s->ecache) __builtin_prefetch(&s->ecache[ecache_key(s, key) & ((1u << ECACHE_BITS) - 1)]);
}

static int32_t search_eval(Searcher *s, const Board *b, uint64_t key, int ply)
{
    uint64_t k = ecache_key(s, key);
    EvalCacheEntry *e = NULL;
    if (s->ecache || (s->ecache = calloc((size_t)1 << ECACHE_BITS, sizeof *s->ecache))) {
        e = &s->ecache[k & ((1u << ECACHE_BITS) - 1)];
        if (e->check == (uint32_t)(k >> 32) && e->v) return b->stm == s->root_side ? e->v - 1 : 1 - e->v;
    }
    int32_t v = eval_score(b, s->root_side, &s->etab);
    if (s->weights.net && nn_applies(s->weights.net, b)) v += search_net(s, s->weights.net, b, ply);
    if (e) {
        e->check = (uint32_t)(k >> 32);
        e->v = v + 1;
    }
    return b->stm == s->root_side ? v : -v;
}

/* Futility pruning (~+11 Elo: the search without it scored -11.3 in 400
 * games at 0.02 s, d8bd843, 2026-11-26) near the leaves, at a quiet
 * null-window node of depth 1 or 2: when the static evaluation is so far below alpha that no quiet move
 * is likely to bring it back, the node fails low at once. Not when either
 * side can capture, when a man can crown, in endings of futility_pieces or
 * fewer, or near a proven score. Returns true with *v (the bound) when it
 * decides the node. */
static bool futility(Searcher *s, const Board *b, uint64_t key, const MoveList *ml, int depth, int ply,
                     int32_t alpha, int32_t *v)
{
    if (alpha >= SCORE_DB_MIN - 1000 || alpha <= -SCORE_DB_MIN + 1000 ||
        bits_popcount32(board_occupied(b)) <= s->par.futility_pieces || mg_can_capture(b, !b->stm))
        return false;
    /* a man about to crown gains more than the margin */
    for (int i = 0; i < ml->count; i++)
        if (mg_move_promotes(b, &ml->moves[i])) return false;
    int32_t e = search_eval(s, b, key, ply) + s->par.futility_margin * depth;
    if (e > alpha) return false;
    *v = e;
    return true;
}

/* How much a late quiet move m (the n-th, leading to c) is reduced: not a
 * killer, not a crowning move, not into a capture. */
static int lmr_reduction(const Searcher *s, const Board *b, const Board *c, const Move *m, int depth, int ply,
                         int n)
{
    if (same_move(m, &s->killers[ply][0]) || same_move(m, &s->killers[ply][1])) return 0;
    if (mg_move_promotes(b, m)) return 0;
    if (mg_can_capture(c, c->stm)) return 0;
    int r = s->lmr[depth < 64 ? depth : 63][n < 64 ? n : 63];
    return r > depth - 2 ? depth - 2 : r;
}

static void halve_history(Searcher *s)
{
    for (int x = 0; x < 2 * 32 * 32; x++) (&s->history[0][0][0])[x] /= 2;
}

/* A quiet move that cut off: a killer of its ply, and history. */
static void reward_cutoff(Searcher *s, const Board *b, const Move *m, int depth, int ply)
{
    if (!same_move(m, &s->killers[ply][0])) {
        s->killers[ply][1] = s->killers[ply][0];
        s->killers[ply][0] = *m;
    }
    int32_t *h = &s->history[b->stm][m->from][m->to];
    *h += depth * depth;
    if (*h > 100000000) halve_history(s); /* keep below the killers' order score */
}

/* The endgame database's verdict on b (no capture pending) as a score at
 * ply: true with *v when the database holds the position. (The 5 pieces:
 * ~+40 Elo, 400 games at 0.05 s, +26 at 0.02 s, 49a96b1, 2026-11-23.) The
 * distance is the one the file keeps, or its bound (egdb_probe_fast):
 * finding the rest would cost a small search at every node, and only
 * orders wins among themselves. */
static inline bool database_score(const Searcher *s, const Board *b, int ply, int32_t *v)
{
    if (!s->egdb) return false;
    int d, r = egdb_probe_fast(s->egdb, b, &d);
    if (r == EGDB_DRAW) *v = 0;
    else if (r == EGDB_WIN) *v = SCORE_DB_WIN - ply - d;
    else if (r == EGDB_LOSS) *v = -(SCORE_DB_WIN - ply - d);
    else return false;
    return true;
}

/* A leaf with no capture to play out (the common node): the same answers as
 * the general node below, in the same order, without generating the moves. */
static int32_t leaf(Searcher *s, const Board *b, int ply, int reversible, int idx, bool capture)
{
    if (!capture && !mg_can_step(b, b->stm)) return -(SCORE_WIN - ply);
    if (reversible >= GAME_REVERSIBLE_LIMIT) return 0;
    if (reversible >= 4 && is_repetition(s, idx, reversible)) return 0;
    int32_t dv;
    if (!capture && database_score(s, b, ply, &dv)) return dv;
    return search_eval(s, b, s->path[idx], ply);
}

/* Singular extensions and multi-cut (on by default since 2026-11-28:
 * docs/devlog.md, "Singular extensions"). The table's move tt_move, whose
 * entry te is a lower bound or exact within singular_tt_slack (3) plies of
 * depth, is the index returned (to be searched a ply deeper) when every
 * other move fails low at (depth - 1) / singular_verify_div (3) plies below
 * the entry's score less singular_margin a ply; not at or beyond
 * singular_max_ply (2) times the iteration's depth. When another move
 * holds that bound instead and the bound is at least beta
 * (singular_multicut), two moves reach beta: SINGULAR_CUT, with the bound
 * as *cut. -1 otherwise. */
#define SINGULAR_CUT (-2)
static int singular_move(Searcher *s, const Board *b, uint64_t key, const MoveList *ml, int tt_move,
                         const TTEntry *te, int depth, int ply, int32_t beta, int reversible, int32_t *cut)
{
    if (ml->count < 2 || ply == 0 || ply >= s->par.singular_max_ply * s->iter_depth ||
        te->depth < depth - s->par.singular_tt_slack || (tt_flag(te) != TT_LOWER && tt_flag(te) != TT_EXACT))
        return -1;
    int32_t ttv = score_from_tt(te->score, ply);
    if (ttv <= -SCORE_DB_MIN + 1000 || ttv >= SCORE_DB_MIN - 1000) return -1;
    int32_t sb = ttv - s->par.singular_margin * depth;
    int verify_depth = (depth - 1) / s->par.singular_verify_div;
    for (int i = 0; i < ml->count; i++) {
        if (i == tt_move) continue;
        Board c = *b;
        mg_make_move(&c, &ml->moves[i]);
        uint64_t ck = mg_move_key_after(b, &ml->moves[i], key);
        int crev = mg_move_resets_count(b, &ml->moves[i]) ? 0 : reversible + 1;
        if (-negamax(s, &c, ck, verify_depth, ply + 1, -sb, -sb + 1, crev) >= sb || s->stopped) {
            if (s->par.singular_multicut && sb >= beta && !s->stopped) {
                *cut = sb;
                return SINGULAR_CUT;
            }
            return -1;
        }
    }
    return tt_move;
}

static int32_t negamax(Searcher *s, const Board *b, uint64_t key, int depth, int ply, int32_t alpha,
                       int32_t beta, int reversible)
{
    s->pv_len[ply] = 0;
    s->nodes++;
    if (ply > s->seldepth) s->seldepth = ply;
    if ((s->nodes & 1023) == 0) check_limits(s);
    if (s->stopped) return 0;

    int idx = s->path_base + ply;
    s->path[idx] = key;
    if (depth > 0) tt_prefetch(s->tt, key ^ s->salt); /* while the moves are generated */
    else {
        ecache_prefetch(s, key);
        bool capture = mg_can_capture(b, b->stm);
        if (!(s->use.quiescence && capture)) return leaf(s, b, ply, reversible, idx, capture);
    }
    MoveList ml;
    mg_moves(b, &ml);
    /* in the order of the game's rules (game.c): no move loses, then the draws */
    if (ml.count == 0) return -(SCORE_WIN - ply);
    if (reversible >= GAME_REVERSIBLE_LIMIT) return 0;
    if (reversible >= 4 && is_repetition(s, idx, reversible)) return 0;
    bool capture = ml.moves[0].njumps > 0;
    /* the endgame database, once the captures are played out */
    int32_t dv;
    if (!capture && database_score(s, b, ply, &dv)) return dv;
    if (ply >= SEARCH_MAX_PLY - 1) return search_eval(s, b, key, ply);
    if (depth <= 0 && !(capture && s->use.quiescence)) return search_eval(s, b, key, ply);
    if (ml.count == 1 && s->use.extensions && depth > 0) depth++; /* a forced move is free */

    /* the table (not for quiescence nodes) */
    bool use_tt = tt_present(s->tt) && s->use.tt && depth > 0;
    int tt_move = -1;
    uint64_t tkey = key ^ s->salt;
    int32_t tv;
    TTEntry te = {0};
    if (use_tt && tt_lookup(s, &ml, tkey, depth, ply, alpha, beta, &tt_move, &tv, &te)) return tv;

    if (use_tt && s->use.etc && s->par.etc && depth >= s->par.etc_depth &&
        etc_cutoff(s, b, &ml, key, depth, ply, beta, &tv))
        return tv;

    if (s->use.futility && s->par.futility && beta - alpha == 1 && depth <= s->par.futility_depth &&
        !capture && futility(s, b, key, &ml, depth, ply, alpha, &tv))
        return tv;

    if (s->use.probcut && s->par.probcut && beta - alpha == 1) {
        bool cut = probcut(s, b, key, depth, ply, beta, reversible);
        if (s->stopped) return 0;
        if (cut) return beta;
    }

    int sing = s->use.singular && s->par.singular && tt_move >= 0 && depth >= s->par.singular_depth
                   ? singular_move(s, b, key, &ml, tt_move, &te, depth, ply, beta, reversible, &tv)
                   : -1;
    if (s->stopped) return 0;
    if (sing == SINGULAR_CUT) return tv;

    int32_t sc[MAX_MOVES];
    int order[MAX_MOVES];
    for (int i = 0; i < ml.count; i++) order[i] = i;
    if (s->use.ordering) score_moves(s, b, &ml, ply, tt_move, sc);

    int32_t best = -SCORE_INF, alpha0 = alpha;
    int best_i = 0;
    bool pv_node = beta - alpha > 1;
    /* late-move reductions: only among quiet moves; at a node where the
     * opponent threatens a capture, only with lmr_threat */
    bool may_reduce = s->use.lmr && s->par.lmr && !capture && depth >= s->par.lmr_depth &&
                      (s->par.lmr_threat || !mg_can_capture(b, !b->stm));
    for (int n = 0; n < ml.count; n++) {
        int i = s->use.ordering ? pick_next(sc, order, ml.count, n) : n;
        const Move *m = &ml.moves[i];
        Board c = *b;
        mg_make_move(&c, m);
        uint64_t ck = mg_move_key_after(b, m, key);
        int crev = mg_move_resets_count(b, m) ? 0 : reversible + 1;
        int32_t v;
        if (n == 0) {
            v = -negamax(s, &c, ck, depth - 1 + (i == sing), ply + 1, -beta, -alpha, crev);
        } else {
            int r = may_reduce && !pv_node && n >= s->par.lmr_from ? lmr_reduction(s, b, &c, m, depth, ply, n)
                                                                   : 0;
            v = alpha + 1;
            if (r > 0) v = -negamax(s, &c, ck, depth - 1 - r, ply + 1, -alpha - 1, -alpha, crev);
            if (v > alpha && !s->stopped)
                v = -negamax(s, &c, ck, depth - 1, ply + 1, -alpha - 1, -alpha, crev);
            if (v > alpha && v < beta && !s->stopped)
                v = -negamax(s, &c, ck, depth - 1, ply + 1, -beta, -alpha, crev);
        }
        if (s->stopped) return 0;
        /* the first move did not cut: likely a node where every move is
         * searched, so the children's buckets are asked for now (again at
         * ETC's depths: the first move's search may have pushed them out) */
        if (n == 0 && v < beta && use_tt && depth >= 2) {
            uint64_t child_keys[MAX_MOVES];
            prefetch_children(s, b, &ml, key, child_keys);
        } else if (n == 0 && v < beta && depth == 1 && s->ecache) {
            for (int j = 0; j < ml.count; j++) ecache_prefetch(s, mg_move_key_after(b, &ml.moves[j], key));
        }
        if (v > best) {
            best = v;
            best_i = i;
            if (v > alpha) {
                alpha = v;
                s->pv[ply][0] = *m;
                memcpy(&s->pv[ply][1], s->pv[ply + 1], (size_t)s->pv_len[ply + 1] * sizeof(Move));
                s->pv_len[ply] = s->pv_len[ply + 1] + 1;
                if (v >= beta) {
                    if (!m->njumps && s->use.ordering) reward_cutoff(s, b, m, depth, ply);
                    break;
                }
            }
        }
    }
    if (use_tt)
        tt_store(s->tt, tkey, score_to_tt(best, ply), depth,
                 best >= beta    ? TT_LOWER
                 : best > alpha0 ? TT_EXACT
                                 : TT_UPPER,
                 best_i, ml.moves[best_i].to + 1);
    return best;
}

/* ---- the root ---------------------------------------------------------------- */

#define MAX_TIE_PV 32

/* Everything a search sets up before its first iteration: counters, the
 * time budget, the table's generation, and the path (the game's positions
 * since the last capture or man move). Returns 0, or -1 when out of memory. */
static int search_setup(Searcher *s, const Board *b, const uint64_t *history, int nhistory, int reversible,
                        const SearchLimits *limits, TimeBudget *tb, bool *clock, bool *timed)
{
    /* ProbCut's margin for these weights, before the clock starts (unless
     * the caller's has: see search_probcut_margin) */
    if (s->use.probcut && s->par.probcut && !s->helper_id && !s->margin_known &&
        (limits->depth <= 0 || limits->depth >= s->par.probcut_depth || limits->infinite))
        search_probcut_margin(s);
    s->limits = *limits;
    s->root_side = b->stm;
    s->salt = km_mix64(s->weights_key ^ (b->stm == KM_WHITE ? 0x57686974ull : 0x426C61636Bull));
    s->nodes = 0;
    s->seldepth = 0;
    s->stopped = false;
    atomic_store(&s->stop, 0); /* a stop asked for an earlier search is spent */
    s->can_stop = false;
    s->start = limits->start > 0 ? limits->start : km_now();
    /* the time manager: a game clock, or a fixed time for the move */
    *clock = limits->time_left > 0;
    *timed = *clock || limits->seconds > 0;
    if (*clock) tm_budget_p(&s->par, limits->time_left, limits->increment, limits->movestogo, tb);
    else if (*timed) tm_budget_fixed_p(&s->par, limits->seconds, tb);
    if (limits->infinite) *timed = *clock = false;
    /* pondering: no limit until the hit (ponder_poll) */
    s->pondering = limits->ponder && limits->ponderhit && !limits->infinite;
    s->ponder_timed = *timed;
    s->ponder_hard = tb->hard;
    s->deadline = *timed && !s->pondering ? s->start + tb->hard : 0;
    if (s->pondering && ponder_poll(s)) s->pondering = false; /* hit before it began */
    if (s->tt && !s->helper_id) tt_new_search(s->tt);         /* once, by the searcher whose search it is */

    if (nhistory > reversible) {
        history += nhistory - reversible;
        nhistory = reversible;
    }
    int need = nhistory + SEARCH_MAX_PLY + 1;
    if (need > s->path_cap) {
        uint64_t *p = realloc(s->path, (size_t)need * sizeof *p);
        if (!p) return -1;
        s->path = p;
        s->path_cap = need;
    }
    if (nhistory) memcpy(s->path, history, (size_t)nhistory * sizeof *history);
    s->path_base = nhistory;
    s->path[s->path_base] = board_hash(b);
    return 0;
}

/* The root moves sharing the best score so far, with their lines. */
typedef struct RootTies {
    int n;
    int idx[MAX_TIE_PV], len[MAX_TIE_PV];
    Move pv[MAX_TIE_PV][SEARCH_MAX_PLY];
} RootTies;

/* Multi-PV: the lines of the iteration under way and of the last one. */
typedef struct RootLines {
    int k;           /* lines wanted (1 to the number of moves) */
    SearchLine *res; /* the result: the last iteration's lines, nres of them */
    SearchLine *cur; /* this iteration's moves with exact scores, best first */
    SearchLine *spare;
    int nres, ncur;
    int32_t prev[MAX_MOVES]; /* each move's exact score at the last iteration, or -SCORE_INF */
} RootLines;

/* Put move m (exact score v, line s->pv[1] after it) among this iteration's
 * lines, keeping them best first. */
static void add_line(const Searcher *s, RootLines *rl, const Move *m, int32_t v, int depth)
{
    int at = rl->ncur;
    while (at > 0 && rl->cur[at - 1].score < v) at--;
    memmove(&rl->cur[at + 1], &rl->cur[at], (size_t)(rl->ncur - at) * sizeof *rl->cur);
    rl->ncur++;
    SearchLine *l = &rl->cur[at];
    l->move = l->pv[0] = *m;
    l->score = v;
    l->depth = depth;
    int n = s->pv_len[1] < SEARCH_MAX_PLY - 1 ? s->pv_len[1] : SEARCH_MAX_PLY - 1;
    memcpy(&l->pv[1], s->pv[1], (size_t)n * sizeof(Move));
    l->pv_len = n + 1;
}

/* One iteration at the root: every move in `order` searched to depth,
 * scores[i] set for the moves searched before a stop. Returns the best score
 * (-SCORE_INF when stopped before the first move had its score). With rl
 * (multi-PV), every move that may be among the best k gets an exact score:
 * it is searched with a window open above the k-th best score so far (all
 * of them while fewer than k have been searched). */
static int32_t root_iteration(Searcher *s, const Board *b, const MoveList *ml, const int *order, int depth,
                              int reversible, int32_t last, int32_t *scores, RootTies *t, RootLines *rl)
{
    uint64_t key = s->path[s->path_base];
    bool random_ties = s->tiebreak == TIEBREAK_RANDOM;
    int32_t best = -SCORE_INF, alpha = -SCORE_INF;
    t->n = 0;
    if (rl) rl->ncur = 0;
    for (int n = 0; n < ml->count; n++) {
        int i = order[n];
        const Move *m = &ml->moves[i];
        Board c = *b;
        mg_make_move(&c, m);
        uint64_t ck = mg_move_key_after(b, m, key);
        int crev = mg_move_resets_count(b, m) ? 0 : reversible + 1;
        int d = depth - 1;
        if (ml->count == 1 && s->use.extensions) d++; /* as in the tree */
        int32_t v;
        /* the score a move must beat to matter: the best so far, or with
         * multi-PV the k-th best (none until k moves have scores) */
        int32_t a = rl ? (rl->ncur >= rl->k ? rl->cur[rl->k - 1].score : -SCORE_INF) : alpha;
        /* with a random tie-break, equal moves must get exact scores:
         * search them against best - 1 instead of best */
        if (random_ties && best > -SCORE_INF && a >= best) a = best - 1;
        if (a == -SCORE_INF) {
            /* aspiration: expect the last iteration's score, widen on failure */
            int32_t expect = rl ? rl->prev[i] : last;
            int32_t lo = -SCORE_INF, hi = SCORE_INF;
            if (depth >= s->par.aspiration_depth && expect > -SCORE_WIN_MIN && expect < SCORE_WIN_MIN)
                lo = expect - s->par.aspiration, hi = expect + s->par.aspiration;
            v = -negamax(s, &c, ck, d, 1, -hi, -lo, crev);
            if ((v <= lo || v >= hi) && !s->stopped)
                v = -negamax(s, &c, ck, d, 1, -SCORE_INF, SCORE_INF, crev);
        } else {
            v = -negamax(s, &c, ck, d, 1, -a - 1, -a, crev);
            if (v > a && !s->stopped) v = -negamax(s, &c, ck, d, 1, -SCORE_INF, -a, crev);
        }
        if (s->stopped) break;
        scores[i] = v;
        if (rl && (a == -SCORE_INF || v > a)) add_line(s, rl, m, v, depth);
        if (v > best) {
            best = v;
            alpha = v;
            t->n = 0;
        }
        if (v == best && t->n < MAX_TIE_PV) {
            t->idx[t->n] = i;
            t->pv[t->n][0] = *m;
            memcpy(&t->pv[t->n][1], s->pv[1], (size_t)s->pv_len[1] * sizeof(Move));
            t->len[t->n] = s->pv_len[1] + 1;
            t->n++;
        }
    }
    return best;
}

/* Multi-PV, after an iteration (complete, or stopped with some moves
 * searched): the result is this iteration's lines, then the last one's for
 * the moves it did not reach; the chosen move (best, one of the lines of the
 * best score) first. */
static void merge_lines(const MoveList *ml, RootLines *rl, const Move *best)
{
    int n = 0;
    for (int j = 0; j < rl->ncur; j++) rl->spare[n++] = rl->cur[j];
    for (int j = 0; j < rl->nres; j++) {
        bool seen = false;
        for (int x = 0; x < rl->ncur && !seen; x++) seen = mg_move_equal(&rl->res[j].move, &rl->cur[x].move);
        if (!seen) rl->spare[n++] = rl->res[j];
    }
    for (int j = 1; j < n && rl->spare[j].score == rl->spare[0].score; j++)
        if (mg_move_equal(&rl->spare[j].move, best)) {
            SearchLine tmp = rl->spare[0];
            rl->spare[0] = rl->spare[j];
            rl->spare[j] = tmp;
            break;
        }
    SearchLine *t = rl->res;
    rl->res = rl->spare;
    rl->spare = t;
    rl->nres = n;
    for (int i = 0; i < ml->count; i++) rl->prev[i] = -SCORE_INF;
    for (int j = 0; j < rl->ncur; j++)
        for (int i = 0; i < ml->count; i++)
            if (mg_move_equal(&ml->moves[i], &rl->cur[j].move)) rl->prev[i] = rl->cur[j].score;
}

/* Next iteration's order: best first, then by this iteration's scores. */
static void sort_root(int *order, const int32_t *scores, int n)
{
    for (int x = 1; x < n; x++) {
        int y = x, t = order[x];
        while (y > 0 && scores[order[y - 1]] < scores[t]) {
            order[y] = order[y - 1];
            y--;
        }
        order[y] = t;
    }
}

/* A database win or loss at the root: its move (the quickest conversion
 * that keeps the win, or the longest resistance), no search. Under a clock
 * the exact distances it may have to search for (6 pieces) get a quarter of
 * the move's hard limit; past it the position is searched as any other. */
static bool root_database(Searcher *s, const Board *b, SearchResult *out, SearchReport report, void *user)
{
    Move m;
    double by = s->deadline > 0 ? s->start + (s->deadline - s->start) / 4 : 0;
    int d, v = egdb_best_move_by(s->egdb, b, by, &m, &d);
    if (v != EGDB_WIN && v != EGDB_LOSS) return false;
    out->has_move = true;
    out->best = out->pv[0] = m;
    out->pv_len = out->depth = out->ties = 1;
    out->score = v == EGDB_WIN ? SCORE_DB_WIN - d : -(SCORE_DB_WIN - d);
    out->nodes = s->nodes = 1;
    out->seconds = km_now() - s->start;
    if (report) report(out, user);
    return true;
}

/* ---- threads ------------------------------------------------------------------ */

typedef struct HelperJob {
    Searcher *h;
    const Board *b;
    const uint64_t *history;
    int nhistory, reversible;
    SearchLimits limits;
    pthread_t tid;
} HelperJob;

static void *helper_main(void *p)
{
    HelperJob *j = p;
    SearchResult *r = malloc(sizeof *r);
    if (r) search_run(j->h, j->b, j->history, j->nhistory, j->reversible, &j->limits, r, NULL, NULL);
    free(r);
    return NULL;
}

/* Lazy SMP (two threads against one: ~+24 Elo, 400 games at 0.02 s, 7677df7,
 * 2026-11-25; ~+40, 200 games at 0.05 s). The helpers of s set off on b:
 * each searches until s's search ends (no limit of its own), with the first
 * tie-break and s's table. Returns how many
 * started (a thread that cannot be created is one helper fewer). */
static int start_helpers(Searcher *s, const Board *b, const uint64_t *history, int nhistory, int reversible,
                         const SearchLimits *limits, HelperJob *jobs)
{
    atomic_store(&s->helpers_stop, false);
    int n = 0;
    for (int k = 0; k < s->nthreads - 1; k++) {
        HelperJob *j = &jobs[n];
        j->h = &s->helpers[k];
        search_set_table(j->h, s->tt);
        j->h->use = s->use;
        if (!search_params_equal(&j->h->par, &s->par)) search_set_params(j->h, &s->par);
        j->h->egdb = s->egdb;
        j->h->tiebreak = TIEBREAK_FIRST;
        j->h->probcut_margin = s->probcut_margin;
        j->h->margin_known = s->margin_known;
        atomic_store(&j->h->published_nodes, 0);
        j->b = b;
        j->history = history;
        j->nhistory = nhistory;
        j->reversible = reversible;
        j->limits = *limits;
        j->limits.depth = 0;
        j->limits.nodes = 0;
        j->limits.seconds = j->limits.time_left = j->limits.increment = 0;
        j->limits.infinite = true;
        j->limits.start = 0;
        j->limits.abort = &s->helpers_stop;
        if (pthread_create(&j->tid, NULL, helper_main, j) == 0) n++;
    }
    return n;
}

/* The helpers' nodes so far (as they last published them). */
static uint64_t helper_nodes(const HelperJob *jobs, int n)
{
    uint64_t t = 0;
    for (int k = 0; k < n; k++) t += atomic_load_explicit(&jobs[k].h->published_nodes, memory_order_relaxed);
    return t;
}

/* Stop the helpers and wait for them; their nodes. */
static uint64_t stop_helpers(Searcher *s, HelperJob *jobs, int n)
{
    atomic_store(&s->helpers_stop, true);
    uint64_t t = 0;
    for (int k = 0; k < n; k++) {
        pthread_join(jobs[k].tid, NULL);
        t += jobs[k].h->nodes;
    }
    return t;
}

/* A forced move on the clock is searched this long, for its score: a tenth
 * of the move's budget, at most a second (its depth-1 score can be a
 * man or more off, and front ends show it as kingme's opinion). */
static double search_forced_time(const TimeBudget *tb)
{
    double t = 0.1 * tb->soft;
    return t < 1.0 ? t : 1.0;
}

int search_run(Searcher *s, const Board *b, const uint64_t *history, int nhistory, int reversible,
               const SearchLimits *limits, SearchResult *out, SearchReport report, void *user)
{
    memset(out, 0, sizeof *out);
    TimeBudget tb = {0, 0};
    bool clock, timed;
    if (search_setup(s, b, history, nhistory, reversible, limits, &tb, &clock, &timed)) return -1;
    MoveList ml;
    mg_moves(b, &ml);
    if (ml.count == 0) {
        out->score = -SCORE_WIN;
        out->seconds = km_now() - s->start;
        return 0;
    }
    /* multi-PV: room for the lines (every move of the root at most) */
    RootLines rlines, *rl = NULL;
    if (limits->multipv > 1) {
        if (s->lines_cap < ml.count) {
            SearchLine *x = realloc(s->lines, 3 * (size_t)ml.count * sizeof *x);
            if (!x) return -1;
            s->lines = x;
            s->lines_cap = ml.count;
        }
        rl = &rlines;
        rl->k = limits->multipv < ml.count ? limits->multipv : ml.count;
        rl->res = s->lines;
        rl->cur = s->lines + s->lines_cap;
        rl->spare = s->lines + 2 * s->lines_cap;
        rl->nres = rl->ncur = 0;
        for (int i = 0; i < ml.count; i++) rl->prev[i] = -SCORE_INF;
    }
    /* the database's move at the root (not with multi-PV: every move is
     * searched, the database answering at the nodes below) */
    if (s->egdb && !rl && root_database(s, b, out, report, user)) return 0;
    int maxdepth =
        limits->depth > 0 && limits->depth < SEARCH_MAX_PLY - 1 && !limits->infinite && !s->pondering
            ? limits->depth
            : SEARCH_MAX_PLY - 2;
    bool pondering = s->pondering; /* until the iteration after the hit */
    int changes[3] = {0, 0, 0};    /* did the best move change in the last three iterations */
    int order[MAX_MOVES];
    for (int i = 0; i < ml.count; i++) order[i] = i;
    RootTies *t = malloc(sizeof *t);
    if (!t) return -1;
    int32_t scores[MAX_MOVES];
    HelperJob jobs[SEARCH_MAX_THREADS - 1];
    int njobs = s->helper_id == 0 && s->nthreads > 1
                    ? start_helpers(s, b, history, nhistory, reversible, limits, jobs)
                    : 0;

    out->has_move = true;
    out->best = ml.moves[0];
    /* every other helper a ply ahead, so that the threads do not all
     * search the same depth at the same time */
    for (int depth = 1 + (s->helper_id & 1); depth <= maxdepth; depth++) {
        s->iter_depth = depth;
        int32_t best = root_iteration(s, b, &ml, order, depth, reversible, out->score, scores, t, rl);
        if (s->stopped && t->n == 0) break;
        /* a complete iteration is the result; so is a stopped one once the
         * first move (the last best) has its new score: the moves searched
         * so far were compared at the new depth */
        bool complete = !s->stopped;
        int pick = 0;
        if (s->tiebreak == TIEBREAK_RANDOM && t->n > 1) pick = (int)(km_rng_next(&s->rng) % (uint64_t)t->n);
        bool changed = out->depth > 0 && !same_move(&out->best, &ml.moves[t->idx[pick]]);
        out->best = ml.moves[t->idx[pick]];
        out->score = best;
        if (complete) out->depth = depth;
        out->ties = t->n;
        out->pv_len = t->len[pick];
        memcpy(out->pv, t->pv[pick], (size_t)t->len[pick] * sizeof(Move));
        if (rl) {
            merge_lines(&ml, rl, &out->best);
            out->lines = rl->res;
            out->nlines = rl->nres < rl->k ? rl->nres : rl->k;
        }
        out->nodes = s->nodes + helper_nodes(jobs, njobs);
        out->seldepth = s->seldepth;
        out->seconds = km_now() - s->start;
        if (!complete) break;
        if (report) report(out, user);
        s->can_stop = true;
        sort_root(order, scores, ml.count);
        if (limits->infinite) continue; /* until stopped */
        bool proven = (best >= SCORE_WIN_MIN || best <= -SCORE_WIN_MIN) &&
                      depth >= SCORE_WIN - (best < 0 ? -best : best) + 2;
        if (pondering) {
            ponder_poll(s);
            if (s->pondering) { /* not hit yet: no limit, but nothing to search on */
                if (proven || ml.count == 1) break;
                continue;
            }
            pondering = false;
            if (limits->depth > 0 && depth >= limits->depth) break;
        }
        /* on the clock, a forced move has nothing to choose, but its score
         * is still what the front ends show: a short search gives it one */
        if (ml.count == 1 && timed && out->seconds >= search_forced_time(&tb)) break;
        if (proven) break; /* proven: deeper cannot change it */
        changes[depth % 3] = changed;
        /* on a game clock, no new iteration after the soft limit, which is
         * shorter while the best move is stable; a fixed time is used up */
        if (clock && out->seconds > tm_soft_scaled_p(&s->par, &tb, changes[0] + changes[1] + changes[2]))
            break;
        if (limits->nodes && s->nodes >= limits->nodes) break;
        if (atomic_load(&s->stop) || (limits->abort && atomic_load(limits->abort))) break;
    }
    free(t);
    out->nodes = s->nodes + stop_helpers(s, jobs, njobs);
    out->seconds = km_now() - s->start;
    return 0;
}

int search_game(Searcher *s, const Game *g, const SearchLimits *limits, SearchResult *out,
                SearchReport report, void *user)
{
    return search_run(s, &g->cur, g->keys, g->nply, game_reversible_plies(g), limits, out, report, user);
}
