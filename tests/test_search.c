/* test_search.c - the search against a plain minimax written here, endgames
 * with known results, determinism and thread safety. */
#include "kingme/bits.h"
#include "kingme/notation.h"
#include "kingme/search.h"
#include "kingme/timeman.h"
#include "kingme/weights.h"
#include "test.h"

#include <pthread.h>
#include <stdlib.h>

/* ---- a deliberately plain reference: minimax, no pruning ---------------------
 * Same leaf rule as the engine: evaluate for the root side, negated when the
 * other side is to move; no move = lost (scored by distance); a position that
 * repeats one earlier on the path (same side to move, no capture between) is
 * a draw. With quiescence, a leaf where a capture is pending is searched on
 * (captures only, as they are forced). */
typedef struct Ref {
    const Weights *w;
    int root;
    bool quiescence;
    uint64_t path[64];
    uint64_t nodes;
} Ref;

static int32_t ref_minimax(Ref *r, const Board *b, int depth, int ply, int reversible)
{
    r->nodes++;
    uint64_t k = board_hash(b);
    r->path[ply] = k;
    MoveList ml;
    mg_moves(b, &ml);
    if (ml.count == 0) return -(SCORE_WIN - ply);
    for (int i = ply - 2; i >= 0 && i >= ply - reversible; i -= 2)
        if (r->path[i] == k) return 0;
    bool capture = ml.moves[0].njumps > 0;
    if (depth <= 0 && !(r->quiescence && capture)) {
        EvalFeatures f; /* the 60 alone: the documents' weighted sum */
        eval_features(b, r->root, &f);
        int32_t v = 0;
        for (int i = 0; i < EVAL_NPARAMS; i++) v += f.term[i] * r->w->w[i];
        return b->stm == r->root ? v : -v;
    }
    int32_t best = -SCORE_INF;
    for (int i = 0; i < ml.count; i++) {
        Board c = *b;
        mg_make_move(&c, &ml.moves[i]);
        int32_t v = -ref_minimax(r, &c, depth - 1, ply + 1,
                                 mg_move_resets_count(b, &ml.moves[i]) ? 0 : reversible + 1);
        if (v > best) best = v;
    }
    return best;
}

/* ---- random positions --------------------------------------------------------- */

static uint64_t rnd_state;
static uint64_t rnd(void)
{
    uint64_t z = (rnd_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A random legal position: 1-7 pieces a side, some kings, no man on its own
 * promotion row. */
static void random_position(Board *b)
{
    b->pieces[0] = b->pieces[1] = b->kings = 0;
    b->stm = (int)(rnd() & 1);
    for (int side = 0; side < 2; side++) {
        int n = 1 + (int)(rnd() % 7);
        for (int k = 0; k < n; k++) {
            int sq = (int)(rnd() % 32);
            uint32_t m = 1u << sq;
            if ((b->pieces[0] | b->pieces[1]) & m) continue;
            bool king = rnd() % 3 == 0;
            uint32_t promo = side == KM_BLACK ? BLACK_PROMO_ROW : WHITE_PROMO_ROW;
            if (m & promo) king = true;
            b->pieces[side] |= m;
            if (king) b->kings |= m;
        }
    }
}

/* Random weights of the 60 (the new terms and the phase off: the reference
 * evaluates the 60 alone). */
static void random_weights(Weights *w)
{
    memset(w, 0, sizeof *w);
    for (int i = 0; i < EVAL_NPARAMS; i++) w->w[i] = (int16_t)((int)(rnd() % 2001) - 1000);
}

static void exactness(bool quiescence)
{
    rnd_state = quiescence ? 77 : 42;
    Weights w;
    Searcher s;
    char err[KM_ERR_MAX];
    random_weights(&w);
    CHECK(search_init(&s, &w, 0, 1, err) == 0);
    SearchSwitches use;
    search_switches_exact(&use);
    use.tt = false;
    use.extensions = false;
    use.quiescence = quiescence;
    search_set_switches(&s, &use);
    search_set_tiebreak(&s, TIEBREAK_FIRST);
    SearchLimits lim;
    search_limits_default(&lim);
    int n = test_sanitized() ? 150 : 1500, compared = 0, pruned = 0, with_caps = 0;
    for (int i = 0; i < n; i++) {
        Board b;
        random_position(&b);
        if (i % 100 == 0) random_weights(&w), search_set_weights(&s, &w);
        lim.depth = 1 + i % 5;
        SearchResult res;
        CHECK(search_run(&s, &b, NULL, 0, 0, &lim, &res, NULL, NULL) == 0);
        Ref r = {&w, b.stm, quiescence, {0}, 0};
        int32_t want = ref_minimax(&r, &b, lim.depth, 0, 0);
        if (!res.has_move) {
            CHECK_INT(want, -SCORE_WIN);
            continue;
        }
        char fen[128];
        board_to_fen(&b, fen, sizeof fen);
        CHECK_MSG(res.score == want, "position %d (%s) depth %d: search %d, minimax %d", i, fen, lim.depth,
                  res.score, want);
        compared++;
        if (res.nodes < r.nodes) pruned++;
        if (mg_can_capture(&b, b.stm)) with_caps++;
        /* the best move really scores that much */
        Board c = b;
        mg_make_move(&c, &res.best);
        Ref r2 = {&w, b.stm, quiescence, {0}, 0};
        r2.path[0] = board_hash(&b);
        int32_t v = -ref_minimax(&r2, &c, lim.depth - 1, 1, res.best.captured ? 0 : 1);
        CHECK_MSG(v == want, "position %d: best move scores %d, not %d", i, v, want);
    }
    search_free(&s);
    CHECK(compared > n * 9 / 10);
    CHECK(pruned > compared / 2); /* alpha-beta did prune */
    CHECK(with_caps > n / 20);
}

TEST(search_alphabeta_equals_minimax) { exactness(false); }

TEST(search_quiescence_equals_minimax_with_same_rule) { exactness(true); }

/* ---- game knowledge ------------------------------------------------------------- */

/* fen searched to depth (or for seconds) with the default weights, a 16 MB
 * table, the first tie-break and the given number of threads. */
static SearchResult search_threads(const char *fen, int depth, double seconds, bool exact, int threads)
{
    Board b;
    char err[KM_ERR_MAX];
    CHECK_MSG(board_from_fen(&b, fen, err) == 0, "%s", err);
    Weights w;
    weights_default(&w);
    Searcher s;
    SearchResult r;
    memset(&r, 0, sizeof r);
    if (search_init(&s, &w, 16, 1, err)) return r;
    CHECK_MSG(search_set_threads(&s, threads, err) == 0, "%s", err);
    search_set_exact(&s, exact);
    search_set_tiebreak(&s, TIEBREAK_FIRST);
    SearchLimits lim;
    search_limits_default(&lim);
    lim.depth = depth;
    lim.seconds = seconds;
    CHECK(search_run(&s, &b, NULL, 0, 0, &lim, &r, NULL, NULL) == 0);
    search_free(&s);
    return r;
}

static SearchResult search_fen_mode(const char *fen, int depth, double seconds, bool exact)
{
    return search_threads(fen, depth, seconds, exact, 1);
}

static SearchResult search_fen(const char *fen, int depth, double seconds)
{
    return search_fen_mode(fen, depth, seconds, false);
}

TEST(search_no_move_is_a_loss)
{
    /* White's man on 32 is blocked by Black's men on 27/28 (it moves up: 27 or
     * 28) and cannot jump: 23 and 24 behind them are occupied. */
    SearchResult r = search_fen("W:W32:B23,24,27,28", 4, 0);
    CHECK(!r.has_move);
    CHECK(r.score <= -SCORE_WIN_MIN);
}

TEST(search_prefers_the_fastest_win)
{
    /* Black king on 14, White man on 18 with 23 empty: 14x23 wins at once (White
     * has nothing left). Slower wins exist; the engine must report win 1. */
    SearchResult r = search_fen("B:W18:BK14,K1", 8, 0);
    CHECK(r.has_move);
    char t[32];
    search_score_text(r.score, t, sizeof t);
    CHECK_STR(t, "win 1");
    CHECK_INT(r.best.from, 13);
    CHECK_INT(r.best.to, 22);
}

TEST(search_two_kings_beat_one)
{
    /* Two kings against one in the double corner: a known win for the two,
     * from several starting squares and with either side to move. */
    const char *fens[] = {
        "W:WK32:BK1,K2",  "B:WK32:BK1,K2", "W:WK28:BK9,K10", "B:WK5:BK30,K31",
        "W:WK1:BK31,K32", "B:BK32:WK1,K2", "W:WK14:BK3,K4",
    };
    for (size_t i = 0; i < sizeof fens / sizeof *fens; i++) {
        SearchResult r = search_fen(fens[i], 40, test_sanitized() ? 20 : 10);
        Board b;
        char err[KM_ERR_MAX];
        board_from_fen(&b, fens[i], err);
        bool strong_to_move = bits_popcount32(b.pieces[b.stm]) == 2;
        CHECK_MSG(strong_to_move ? r.score >= SCORE_WIN_MIN : r.score <= -SCORE_WIN_MIN,
                  "%s: score %d at depth %d", fens[i], r.score, r.depth);
    }
}

/* Weights under which one king each is not 0 for the root side: a draw (0)
 * then differs from the evaluation (own_kings 1000, opp_kings -300: +700). */
static void kings_weights(Weights *w)
{
    memset(w, 0, sizeof *w);
    w->w[EP_own_kings] = 1000;
    w->w[EP_opp_kings] = -300;
}

static SearchResult search_with(const char *fen, const Weights *w, const uint64_t *hist, int nhist,
                                int reversible, int depth, bool extensions)
{
    Board b;
    char err[KM_ERR_MAX];
    SearchResult r;
    memset(&r, 0, sizeof r);
    CHECK_MSG(board_from_fen(&b, fen, err) == 0, "%s", err);
    Searcher s;
    if (search_init(&s, w, 4, 1, err)) return r;
    SearchSwitches use;
    search_switches_default(&use);
    use.extensions = extensions;
    search_set_switches(&s, &use);
    search_set_tiebreak(&s, TIEBREAK_FIRST);
    SearchLimits lim;
    search_limits_default(&lim);
    lim.depth = depth;
    CHECK(search_run(&s, &b, hist, nhist, reversible, &lim, &r, NULL, NULL) == 0);
    search_free(&s);
    return r;
}

TEST(search_forty_move_rule_is_a_draw)
{
    Weights w;
    kings_weights(&w);
    /* Black king 4, White king 29: at depth 1 the leaf is worth +700 to Black... */
    SearchResult r = search_with("B:WK29:BK4", &w, NULL, 0, 0, 1, false);
    CHECK_INT(r.score, 700);
    /* ...but after 79 reversible plies every move completes 40 moves each: a draw */
    r = search_with("B:WK29:BK4", &w, NULL, 0, 79, 1, false);
    CHECK_INT(r.score, 0);
    r = search_with("B:WK29:BK4", &w, NULL, 0, 78, 1, false);
    CHECK_INT(r.score, 700);
}

TEST(search_repetition_with_game_history_is_a_draw)
{
    /* The game so far: A (BK8 WK29, White to move), 29-25 -> B, 8-4 -> C,
     * 25-29 -> D = now (BK4 WK29, Black to move). Black's only move 4-8 gives
     * A again: a repetition, scored 0 instead of the +700 the leaf is worth. */
    Weights w;
    kings_weights(&w);
    Board a, bb, c;
    char err[KM_ERR_MAX];
    CHECK(board_from_fen(&a, "W:WK29:BK8", err) == 0);
    CHECK(board_from_fen(&bb, "B:WK25:BK8", err) == 0);
    CHECK(board_from_fen(&c, "W:WK25:BK4", err) == 0);
    uint64_t hist[3] = {board_hash(&a), board_hash(&bb), board_hash(&c)};
    SearchResult r = search_with("B:WK29:BK4", &w, hist, 3, 3, 1, false);
    CHECK_INT(r.score, 0);
    /* without that history, or when a capture came between (reversible = 1), it is not */
    r = search_with("B:WK29:BK4", &w, NULL, 0, 3, 1, false);
    CHECK_INT(r.score, 700);
    r = search_with("B:WK29:BK4", &w, hist, 3, 1, 1, false);
    CHECK_INT(r.score, 700);
}

/* ---- determinism and threads --------------------------------------------------- */

typedef struct Job {
    const char *fen;
    SearchResult r;
} Job;

static void *job_run(void *arg)
{
    Job *j = arg;
    Board b;
    char err[KM_ERR_MAX];
    board_from_fen(&b, j->fen, err);
    Weights w;
    weights_default(&w);
    Searcher s;
    if (search_init(&s, &w, 8, 3, err)) return NULL;
    SearchLimits lim;
    search_limits_default(&lim);
    lim.depth = test_sanitized() ? 6 : 9;
    search_run(&s, &b, NULL, 0, 0, &lim, &j->r, NULL, NULL);
    search_free(&s);
    return NULL;
}

TEST(search_is_deterministic_and_thread_safe)
{
    const char *fens[2] = {"B:W21-32:B1-12", "W:W18,22,23,25,26,27,29,30,31,32:B1,2,3,5,6,7,9,10,11,14"};
    Job seq[2], par[2];
    for (int i = 0; i < 2; i++) {
        seq[i].fen = par[i].fen = fens[i];
        job_run(&seq[i]);
    }
    pthread_t t[2];
    for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, job_run, &par[i]);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    for (int i = 0; i < 2; i++) {
        CHECK(seq[i].r.nodes > 1000);
        CHECK_INT(seq[i].r.nodes, par[i].r.nodes);
        CHECK_INT(seq[i].r.score, par[i].r.score);
        CHECK(mg_move_equal(&seq[i].r.best, &par[i].r.best));
    }
}

/* A searcher that has searched with other weights, or for the other side,
 * searches as a fresh one does: nothing it kept (the evaluation cache among
 * it) carries a value across weights or root sides. */
static void search_fresh_and_used(Searcher *used, const Weights *w, const char *fen, SearchResult *fresh_r,
                                  SearchResult *used_r)
{
    char err[KM_ERR_MAX];
    Board b;
    CHECK(board_from_fen(&b, fen, err) == 0);
    SearchLimits lim;
    search_limits_default(&lim);
    lim.depth = 9;
    Searcher fresh;
    CHECK(search_init(&fresh, w, 1, 1, err) == 0);
    search_set_tiebreak(&fresh, TIEBREAK_FIRST);
    CHECK(search_run(&fresh, &b, NULL, 0, 0, &lim, fresh_r, NULL, NULL) == 0);
    search_free(&fresh);
    search_set_weights(used, w);
    search_clear(used);
    CHECK(search_run(used, &b, NULL, 0, 0, &lim, used_r, NULL, NULL) == 0);
}

TEST(search_used_searcher_searches_as_a_fresh_one)
{
    Weights def, old;
    char err[KM_ERR_MAX];
    weights_default(&def);
    CHECK_MSG(weights_read(&old, "weights/default-60.w", NULL, err) == 0, "%s", err);
    const char *fens[2] = {"W:W18,22,23,25,26,27,29,30,31,32:B1,2,3,5,6,7,9,10,11,14",
                           "B:W18,22,23,25,26,27,29,30,31,32:B1,2,3,5,6,7,9,10,11,14"};
    const Weights *ws[2] = {&def, &old};
    Searcher s;
    CHECK(search_init(&s, &def, 1, 1, err) == 0);
    search_set_tiebreak(&s, TIEBREAK_FIRST);
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < 2; i++)
            for (int k = 0; k < 2; k++) {
                SearchResult a, b;
                search_fresh_and_used(&s, ws[k], fens[i], &a, &b);
                CHECK(a.nodes > 1000);
                CHECK_INT(b.nodes, a.nodes);
                CHECK_INT(b.score, a.score);
                CHECK(mg_move_equal(&b.best, &a.best));
            }
    search_free(&s);
}

TEST(search_incremental_key_equals_full_hash)
{
    rnd_state = 5;
    int checked = 0;
    for (int g = 0; g < 200; g++) {
        Board b;
        random_position(&b);
        uint64_t k = board_hash(&b);
        for (int ply = 0; ply < 40; ply++) {
            MoveList ml;
            if (mg_moves(&b, &ml) == 0) break;
            const Move *m = &ml.moves[rnd() % (uint64_t)ml.count];
            k = mg_move_key_after(&b, m, k);
            mg_make_move(&b, m);
            CHECK_MSG(k == board_hash(&b), "game %d ply %d", g, ply);
            checked++;
        }
    }
    CHECK(checked > 2000);
}

TEST(search_random_tiebreak_picks_among_equals)
{
    /* Material-only weights: at depth 1 from the initial position all 7 moves
     * score 0. The random tie-break must spread over them by seed; the first
     * tie-break must always give the same move. */
    Board b;
    board_init(&b);
    Weights w;
    memset(&w, 0, sizeof w);
    w.w[0] = 100, w.w[2] = -100;
    char err[KM_ERR_MAX];
    SearchLimits lim;
    search_limits_default(&lim);
    lim.depth = 1;
    uint32_t seen_random = 0, seen_first = 0;
    for (int seed = 0; seed < 40; seed++) {
        Searcher s;
        CHECK(search_init(&s, &w, 1, (uint64_t)seed, err) == 0);
        SearchResult r;
        search_set_tiebreak(&s, TIEBREAK_RANDOM);
        search_run(&s, &b, NULL, 0, 0, &lim, &r, NULL, NULL);
        CHECK_INT(r.ties, 7);
        CHECK_INT(r.score, 0);
        seen_random |= 1u << r.best.from | 1u << r.best.to;
        search_set_tiebreak(&s, TIEBREAK_FIRST);
        search_run(&s, &b, NULL, 0, 0, &lim, &r, NULL, NULL);
        seen_first |= 1u << r.best.from | 1u << r.best.to;
        search_free(&s);
    }
    CHECK(bits_popcount32(seen_random) >= 5);  /* several different moves were chosen */
    CHECK_INT(bits_popcount32(seen_first), 2); /* always the same from and to */
}

/* ---- the selective search ---------------------------------------------------- */

TEST(search_selective_proves_what_exact_proves)
{
    /* Three kings against two (Black in the double corner), White to move:
     * a win in 15 plies; both searches must say exactly that. (The two kings
     * against one of search_two_kings_beat_one run with the selective search
     * too.) */
    SearchResult r = search_fen_mode("W:WK22,K23,K24:BK31,K32", 40, 0, true);
    CHECK_INT(r.score, SCORE_WIN - 15);
    r = search_fen_mode("W:WK22,K23,K24:BK31,K32", 40, 0, false);
    CHECK_INT(r.score, SCORE_WIN - 15);
}

/* Singular extensions (off by default): on, they change the tree of a
 * middle game (the verification searches and the extended moves), stay
 * deterministic, prove what the exact search proves, and stay out of the
 * exact search. */
static SearchResult search_singular(const char *fen, int depth, int on, int multicut, bool exact)
{
    char err[KM_ERR_MAX];
    Board b;
    CHECK(board_from_fen(&b, fen, err) == 0);
    Weights w;
    weights_default(&w);
    Searcher s;
    CHECK(search_init(&s, &w, 1, 1, err) == 0);
    search_set_tiebreak(&s, TIEBREAK_FIRST);
    s.par.singular = on;
    s.par.singular_margin = 50;
    s.par.singular_multicut = multicut;
    search_set_exact(&s, exact);
    SearchLimits lim;
    search_limits_default(&lim);
    lim.depth = depth;
    SearchResult r;
    CHECK(search_run(&s, &b, NULL, 0, 0, &lim, &r, NULL, NULL) == 0);
    search_free(&s);
    return r;
}

TEST(search_singular_extensions_extend_and_prove)
{
    const char *mid = "B:W13,14,20,24,26,27,30,32:B2,5,7,10,11,12,16,18";
    int depth = test_sanitized() ? 11 : 13;
    SearchResult off = search_singular(mid, depth, 0, 0, false),
                 on = search_singular(mid, depth, 1, 0, false),
                 again = search_singular(mid, depth, 1, 0, false);
    CHECK_INT(on.depth, depth);
    CHECK_MSG(on.nodes != off.nodes, "singular extensions left the tree as it was (%llu nodes)",
              (unsigned long long)on.nodes);
    CHECK_INT(again.nodes, on.nodes);
    CHECK_INT(again.score, on.score);
    /* multi-cut: a position of the tactics suite where a rival of the
     * table's move holds the bound above beta: fewer nodes to depth 12,
     * the same move */
    const char *tact = "W:WK6,21,22,25,26,29:B2,3,9,12,13,K31";
    SearchResult nocut = search_singular(tact, 12, 1, 0, false), cut = search_singular(tact, 12, 1, 1, false);
    CHECK_MSG(cut.nodes < nocut.nodes, "multi-cut did not cut: %llu nodes, %llu without",
              (unsigned long long)cut.nodes, (unsigned long long)nocut.nodes);
    CHECK(mg_move_equal(&cut.best, &nocut.best));
    for (int mc = 0; mc <= 1; mc++) {
        SearchResult win = search_singular("W:WK22,K23,K24:BK31,K32", 40, 1, mc, false);
        CHECK_INT(win.score, SCORE_WIN - 15);
    }
    /* the exact search has none: the same tree with the parameters on or off */
    int ed = test_sanitized() ? 8 : 10;
    CHECK_INT(search_singular(mid, ed, 1, 1, true).nodes, search_singular(mid, ed, 0, 0, true).nodes);
}

TEST(search_selective_searches_fewer_nodes)
{
    /* The same depth from the initial position, and from a middle game of
     * Tinsley's: the selective search visits fewer nodes (a third fewer at least); it stays
     * deterministic. */
    const char *fens[] = {"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
                          "B:W13,14,20,24,26,27,30,32:B2,5,7,10,11,12,16,18"};
    int depth = test_sanitized() ? 9 : 11;
    for (int i = 0; i < 2; i++) {
        SearchResult ex = search_fen_mode(fens[i], depth, 0, true);
        SearchResult sel = search_fen_mode(fens[i], depth, 0, false);
        SearchResult sel2 = search_fen_mode(fens[i], depth, 0, false);
        CHECK_INT(ex.depth, depth);
        CHECK_INT(sel.depth, depth);
        /* at depth 9 from the start: 67859 against 117455 */
        CHECK_MSG(sel.nodes * 3 < ex.nodes * 2, "%s: selective %llu nodes, exact %llu", fens[i],
                  (unsigned long long)sel.nodes, (unsigned long long)ex.nodes);
        CHECK(sel.nodes == sel2.nodes && sel.score == sel2.score);
    }
}

/* ---- threads (lazy SMP) ------------------------------------------------------------ */

/* What a writer stores for key k: every field follows from k, so a probe
 * that mixed two writers' entries would show fields that do not. */
static int32_t tt_score_of(uint64_t k) { return (int32_t)(uint32_t)(k >> 17); }
static int tt_depth_of(uint64_t k) { return (int)(k % 100); }
static int tt_move_of(uint64_t k) { return (int)((k >> 9) & 255); }

typedef struct TTJob {
    TT *t;
    uint64_t seed;
    long bad, found;
} TTJob;

static void *tt_hammer(void *arg)
{
    TTJob *j = arg;
    uint64_t x = j->seed;
    for (int i = 0; i < 400000; i++) {
        /* 8 keys per thread, so that the two threads' keys meet in the same buckets */
        uint64_t k = km_mix64((j->seed & 1) * 8 + (km_rng_next(&x) & 7)) | 1;
        if (i & 1) {
            tt_store(j->t, k, tt_score_of(k), tt_depth_of(k), TT_EXACT, tt_move_of(k), 7);
        } else {
            uint64_t q = km_mix64(km_rng_next(&x) & 15) | 1; /* either thread's keys */
            TTEntry e;
            if (!tt_probe(j->t, q, &e)) continue;
            j->found++;
            if (e.score != tt_score_of(q) || e.depth != tt_depth_of(q) || e.move != tt_move_of(q) ||
                e.to != 7)
                j->bad++;
        }
    }
    return NULL;
}

TEST(tt_shared_entries_are_never_torn)
{
    /* Two threads store and probe 16 keys in a table of one bucket (two
     * entries), as the threads of one search share a table: a probe finds
     * either nothing or an entry whole, never one writer's key with the
     * other's data (the lockless scheme of tt.h). */
    TTSlot slots[2];
    memset(slots, 0, sizeof slots);
    TT t = {slots, 1, 0};
    TTJob j[2] = {{&t, 2, 0, 0}, {&t, 3, 0, 0}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, tt_hammer, &j[i]);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    CHECK_MSG(j[0].found + j[1].found > 1000, "only %ld probes found an entry", j[0].found + j[1].found);
    CHECK_MSG(j[0].bad + j[1].bad == 0, "%ld torn entries", j[0].bad + j[1].bad);
}

TEST(search_threads_prove_and_find_what_one_does)
{
    /* With helpers sharing the table, the search still proves the won
     * endings and finds the winning moves of the tactics suite (lines 1, 4,
     * 9, 14, 19 and 21 of tests/data/tactics.txt, which one thread solves at
     * depths 9 and 11 with the default weights, selective and exact),
     * completing the depth it was given. Lines the selective search misses
     * at these depths with the default (3, 6, 10, 16, 18, 25 of the first 25
     * at the default of 2026-11-26) would test the search, not the threads;
     * so would a line it finds only by the order of equal scores: line 5
     * (10-7, which wins, against 10-6, which draws) is scored 756 for both at
     * depth 9, each searched alone, and a helper's table entries decide. */
    const char *wins[] = {"B:WK32:BK1,K2", "B:WK5:BK30,K31", "W:WK22,K23,K24:BK31,K32"};
    for (size_t i = 0; i < sizeof wins / sizeof *wins; i++) {
        SearchResult r = search_threads(wins[i], 40, 0, false, 3);
        CHECK_MSG(r.score >= SCORE_WIN_MIN, "%s: score %d", wins[i], r.score);
    }
    static const char *const tactics[][2] = {
        {"W:WK8,10,14,27,28:B3,5,7,K17,19,K26", "27-24"},
        {"B:W12,18,21,23,25,26,27,31:B1,2,7,9,10,11,14", "10-15"},
        {"W:WK12,24,27,28,31:B13,15,19,20,K22", "12-16"},
        {"W:WK14,18,21,29:B8,11,13,19,K30", "18-15"},
        {"W:WK6,K10,17,20,30,32:B8,11,15,16,19,23,K29", "32-28"},
        {"W:WK10,14,20,K23,30:B11,12,K28,K29,K31", "23-18"},
    };
    int depth = test_sanitized() ? 9 : 11;
    for (size_t i = 0; i < sizeof tactics / sizeof *tactics; i++) {
        for (int exact = 0; exact < 2; exact++) {
            SearchResult one = search_threads(tactics[i][0], depth, 0, exact, 1);
            SearchResult two = search_threads(tactics[i][0], depth, 0, exact, 2);
            char m1[MOVE_TEXT_MAX], m2[MOVE_TEXT_MAX];
            notation_move_to_text(&one.best, m1);
            notation_move_to_text(&two.best, m2);
            CHECK_STR(m1, tactics[i][1]);
            CHECK_MSG(strcmp(m2, tactics[i][1]) == 0, "%s, 2 threads%s: %s instead of %s", tactics[i][0],
                      exact ? ", exact" : "", m2, tactics[i][1]);
            CHECK_INT(two.depth, depth);
            /* the helper's nodes are counted too */
            CHECK(two.nodes > 0);
        }
    }
}

TEST(search_threads_can_be_changed_and_refused)
{
    Weights w;
    weights_default(&w);
    Searcher s;
    char err[KM_ERR_MAX];
    CHECK(search_init(&s, &w, 1, 1, err) == 0);
    CHECK_INT(s.nthreads, 1);
    CHECK(search_set_threads(&s, 0, err) != 0);
    CHECK_STR(err, "threads: 1 to 64, not 0");
    CHECK(search_set_threads(&s, 65, err) != 0);
    CHECK_INT(s.nthreads, 1);
    CHECK(search_set_threads(&s, 3, err) == 0);
    CHECK_INT(s.nthreads, 3);
    /* a new weight vector reaches the helpers */
    Weights m;
    memset(&m, 0, sizeof m);
    m.w[EP_own_men] = 100;
    search_set_weights(&s, &m);
    CHECK_INT(s.helpers[1].weights.w[EP_own_men], 100);
    CHECK(s.helpers[1].helper_id == 2);
    Board b;
    board_init(&b);
    SearchLimits lim;
    search_limits_default(&lim);
    lim.depth = 6;
    SearchResult r;
    CHECK(search_run(&s, &b, NULL, 0, 0, &lim, &r, NULL, NULL) == 0);
    CHECK(r.has_move && r.depth == 6);
    CHECK(search_set_threads(&s, 1, err) == 0);
    CHECK(s.helpers == NULL);
    CHECK(search_run(&s, &b, NULL, 0, 0, &lim, &r, NULL, NULL) == 0);
    CHECK(r.has_move && r.depth == 6);
    search_free(&s);
}

/* ProbCut's margin is measured for each weight vector: narrow for one whose
 * evaluation moves little from ply to ply, wide for one that moves a lot;
 * the same on every measurement; kept per vector; not spoilt by a stop left
 * over; and a searcher that never searches deep enough never measures it. */
TEST(search_probcut_margin_follows_the_weights)
{
    Weights def, old, mat;
    char err[KM_ERR_MAX];
    weights_default(&def);
    CHECK_MSG(weights_read(&old, "weights/default-60.w", NULL, err) == 0, "%s", err);
    CHECK_MSG(weights_read(&mat, "weights/material.w", NULL, err) == 0, "%s", err);
    Searcher s, t;
    CHECK(search_init(&s, &def, 1, 1, err) == 0);
    CHECK(search_init(&t, &old, 1, 1, err) == 0);
    CHECK(!s.margin_known);
    int32_t md = search_probcut_margin(&s), mo = search_probcut_margin(&t);
    CHECK(s.margin_known && t.margin_known);
    /* the default's positional terms swing far more than default-60.w's */
    CHECK_MSG(md >= 150 && md <= 400, "default.w margin %d", (int)md);
    CHECK_MSG(mo >= 25 && mo <= 80, "default-60.w margin %d", (int)mo);
    /* material alone: the scores of 3 and 6 plies mostly agree */
    search_set_weights(&t, &mat);
    CHECK(!t.margin_known);
    CHECK_INT(search_probcut_margin(&t), 20);
    /* back to a vector measured before: no new measurement */
    search_set_weights(&t, &old);
    CHECK(t.margin_known);
    CHECK_INT(t.probcut_margin, mo);
    /* a fresh searcher measures the same, even with a stop pending */
    Searcher u;
    CHECK(search_init(&u, &def, 0, 7, err) == 0);
    atomic_store(&u.stop, 1);
    CHECK_INT(search_probcut_margin(&u), md);
    CHECK_INT(atomic_load(&u.stop), 1);
    search_free(&u);
    /* a search of 4 plies does not measure it; a timed one does, and its
     * helpers get it */
    CHECK(search_init(&u, &old, 1, 1, err) == 0);
    Board b;
    board_init(&b);
    SearchLimits lim;
    search_limits_default(&lim);
    lim.depth = 4;
    SearchResult r;
    CHECK(search_run(&u, &b, NULL, 0, 0, &lim, &r, NULL, NULL) == 0);
    CHECK(!u.margin_known);
    CHECK_INT(u.probcut_margin, 100);
    CHECK(search_set_threads(&u, 2, err) == 0);
    lim.depth = 0;
    lim.seconds = 0.05;
    CHECK(search_run(&u, &b, NULL, 0, 0, &lim, &r, NULL, NULL) == 0);
    CHECK(u.margin_known && r.has_move);
    CHECK_INT(u.probcut_margin, mo);
    CHECK_INT(u.helpers[0].probcut_margin, mo);
    search_free(&u);
    search_free(&s);
    search_free(&t);
}

/* The time manager's budgets (values only: no clock is read). */
TEST(timeman_fixed_time_keeps_a_small_margin)
{
    TimeBudget tb;
    /* a short move keeps a tenth of its time, a long one TM_MARGIN */
    tm_budget_fixed(0.02, &tb);
    CHECK_MSG(tb.hard > 0.0179 && tb.hard < 0.0181 && tb.soft == tb.hard, "0.02 s: %.4f", tb.hard);
    tm_budget_fixed(0.1, &tb);
    CHECK_MSG(tb.hard > 0.0899 && tb.hard < 0.0901, "0.1 s: %.4f", tb.hard);
    tm_budget_fixed(1.0, &tb);
    CHECK_MSG(tb.hard > 0.9899 && tb.hard < 0.9901, "1 s: %.4f", tb.hard);
    /* at least TM_MARGIN_MIN, and never less than half the time */
    tm_budget_fixed(0.005, &tb);
    CHECK_MSG(tb.hard > 0.0039 && tb.hard < 0.0041, "0.005 s: %.4f", tb.hard);
    tm_budget_fixed(0.001, &tb);
    CHECK_MSG(tb.hard > 0.00049 && tb.hard < 0.00051, "0.001 s: %.5f", tb.hard);
    /* on a clock: never past half of what is left less the margin, the
     * hard limit at least the soft one */
    double left[] = {0.05, 0.3, 1.0, 6.0, 60.0};
    for (int i = 0; i < 5; i++)
        for (int inc = 0; inc <= 1; inc++) {
            tm_budget(left[i], inc * 0.05, 0, &tb);
            CHECK_MSG(tb.hard <= 0.5 * (left[i] - TM_MARGIN) + 1e-9 || tb.hard <= 0.0005,
                      "%.2f s left: hard %.4f", left[i], tb.hard);
            CHECK(tb.soft > 0 && tb.soft <= tb.hard);
        }
}

/* ---- every move's score (multi-PV) ---------------------------------------- */

/* With every reduction off and no table, the score of each root move of an
 * all-moves search is the minimax value after it, the lines are sorted, the
 * best is the single search's, and each line is legal and starts with its
 * move; the best two (multipv 2) are the first two of them. */
TEST(search_all_moves_scores_every_move_exactly)
{
    rnd_state = 4242;
    Weights w;
    random_weights(&w);
    Searcher s;
    char err[KM_ERR_MAX];
    CHECK(search_init(&s, &w, 0, 1, err) == 0);
    SearchSwitches use;
    search_switches_exact(&use);
    use.tt = use.extensions = false;
    search_set_switches(&s, &use);
    search_set_tiebreak(&s, TIEBREAK_FIRST);
    SearchLimits lim;
    search_limits_default(&lim);
    int n = test_sanitized() ? 40 : 300, lines = 0;
    for (int i = 0; i < n; i++) {
        Board b;
        random_position(&b);
        MoveList ml;
        if (mg_moves(&b, &ml) < 2) continue;
        lim.depth = 1 + i % 4;
        lim.multipv = SEARCH_ALL_MOVES;
        SearchResult all, two, one;
        CHECK(search_run(&s, &b, NULL, 0, 0, &lim, &all, NULL, NULL) == 0);
        CHECK_INT(all.nlines, ml.count);
        CHECK(all.lines && mg_move_equal(&all.lines[0].move, &all.best));
        for (int k = 0; k < all.nlines; k++) {
            const SearchLine *l = &all.lines[k];
            Board c = b;
            mg_make_move(&c, &l->move);
            Ref r = {&w, b.stm, true, {0}, 0};
            r.path[0] = board_hash(&b);
            int32_t want = -ref_minimax(&r, &c, lim.depth - 1, 1, mg_move_resets_count(&b, &l->move) ? 0 : 1);
            CHECK_MSG(l->score == want, "position %d move %d: %d, minimax %d", i, k, l->score, want);
            CHECK(k == 0 || all.lines[k - 1].score >= l->score);
            CHECK(l->pv_len >= 1 && mg_move_equal(&l->pv[0], &l->move));
            CHECK_INT(l->depth, lim.depth);
            /* the line is a sequence of legal moves */
            Board p = b;
            for (int j = 0; j < l->pv_len; j++) {
                MoveList pl;
                mg_moves(&p, &pl);
                bool legal = false;
                for (int x = 0; x < pl.count; x++) legal = legal || mg_move_equal(&pl.moves[x], &l->pv[j]);
                CHECK_MSG(legal, "position %d move %d: ply %d of the line is illegal", i, k, j);
                if (!legal) break;
                mg_make_move(&p, &l->pv[j]);
            }
            lines++;
        }
        int32_t s0 = all.lines[0].score, s1 = all.lines[1].score;
        lim.multipv = 2;
        CHECK(search_run(&s, &b, NULL, 0, 0, &lim, &two, NULL, NULL) == 0);
        CHECK_INT(two.nlines, 2);
        CHECK_INT(two.lines[0].score, s0);
        CHECK_INT(two.lines[1].score, s1);
        lim.multipv = 0;
        CHECK(search_run(&s, &b, NULL, 0, 0, &lim, &one, NULL, NULL) == 0);
        CHECK_INT(one.score, s0);
        CHECK_INT(one.nlines, 0);
    }
    search_free(&s);
    CHECK(lines > n * 2);
}

/* The selective search with its table and a clock gives every move a line
 * too, and the first is the move it plays. */
TEST(search_all_moves_selective_and_timed)
{
    Board b;
    char err[KM_ERR_MAX];
    CHECK(board_from_fen(&b, "B:W13,19,21,22,23,26,27,30,31,32:B1,3,6,7,8,9,12,16", err) == 0);
    Weights w;
    weights_default(&w);
    Searcher s;
    CHECK(search_init(&s, &w, 4, 1, err) == 0);
    SearchLimits lim;
    search_limits_default(&lim);
    lim.multipv = SEARCH_ALL_MOVES;
    lim.depth = 9;
    SearchResult r;
    CHECK(search_run(&s, &b, NULL, 0, 0, &lim, &r, NULL, NULL) == 0);
    MoveList ml;
    mg_moves(&b, &ml);
    CHECK_INT(r.nlines, ml.count);
    CHECK(mg_move_equal(&r.lines[0].move, &r.best));
    CHECK_INT(r.lines[0].score, r.score);
    for (int k = 1; k < r.nlines; k++) CHECK(r.lines[k - 1].score >= r.lines[k].score);
    /* every move once */
    for (int i = 0; i < ml.count; i++) {
        int seen = 0;
        for (int k = 0; k < r.nlines; k++) seen += mg_move_equal(&r.lines[k].move, &ml.moves[i]);
        CHECK_INT(seen, 1);
    }
    search_free(&s);
}

/* A forced move on the clock is played after a short search of its own (a
 * tenth of the move's budget, at most a second), not with its depth-1
 * score: here 15x24 is the only move, which depth 1 scores 733 and depth 12
 * 322. The front ends (kingme search, the engine, CheckerBoard) show it. */
TEST(search_forced_move_gets_a_real_score)
{
    Board b;
    char err[KM_ERR_MAX];
    CHECK(board_from_fen(&b, "B:W19,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,8,7,6,12,11,9,15", err) == 0);
    MoveList ml;
    CHECK_INT(mg_moves(&b, &ml), 1);
    Weights w;
    weights_default(&w);
    Searcher s;
    CHECK(search_init(&s, &w, 4, 1, err) == 0);
    SearchLimits lim;
    search_limits_default(&lim);
    lim.seconds = 1.0;
    SearchResult r;
    CHECK(search_run(&s, &b, NULL, 0, 0, &lim, &r, NULL, NULL) == 0);
    CHECK(r.has_move && mg_move_equal(&r.best, &ml.moves[0]));
    /* more than depth 1 (the time it takes is a clock's matter, not a
     * test's: a loaded machine stretches the iteration under way) */
    CHECK_MSG(r.depth >= 6, "depth %d, score %d", r.depth, (int)r.score);
    /* the deep score, not depth 1's 733 */
    CHECK_MSG(r.score < 600, "score %d at depth %d", (int)r.score, r.depth);
    search_free(&s);
}
