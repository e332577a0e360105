/* test_movegen.c - the move generator against the reference generator
 * (tests/refgen.c) on many random positions, and against moves worked out by
 * hand on positions built for one rule each. */
#include "kingme/bits.h"
#include "kingme/movegen.h"
#include "kingme/notation.h"
#include "refgen.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define KEY_MAX 128 /* "15x24x31 {19,27}" */

/* A move as "text {captured squares}", the form the two generators are
 * compared in. */
static void real_key(const Move *m, char *out)
{
    char t[MOVE_TEXT_MAX];
    notation_move_to_text(m, t);
    int n = snprintf(out, KEY_MAX, "%s {", t);
    uint32_t x = m->captured;
    bool first = true;
    while (x && n < KEY_MAX) {
        int i = bits_poplsb32(&x);
        n += snprintf(out + n, (size_t)(KEY_MAX - n), "%s%d", first ? "" : ",", i + 1);
        first = false;
    }
    if (n < KEY_MAX) snprintf(out + n, (size_t)(KEY_MAX - n), "}");
}

static void ref_key(const RefMove *m, char *out)
{
    char t[MOVE_TEXT_MAX];
    ref_move_text(m, t, sizeof t);
    int n = snprintf(out, KEY_MAX, "%s {", t);
    for (int i = 0; i < m->ncaptured && n < KEY_MAX; i++)
        n += snprintf(out + n, (size_t)(KEY_MAX - n), "%s%d", i ? "," : "", m->captured[i]);
    if (n < KEY_MAX) snprintf(out + n, (size_t)(KEY_MAX - n), "}");
}

typedef struct Keyed {
    char key[KEY_MAX];
    int index;
} Keyed;

static int by_key(const void *a, const void *b)
{
    return strcmp(((const Keyed *)a)->key, ((const Keyed *)b)->key);
}

static RefMoves refml; /* large: kept out of the stack */
static Keyed real_keys[REF_MAX_MOVES], ref_keys[REF_MAX_MOVES];

typedef struct Stats {
    long positions, with_kings, with_captures, with_multi, with_loops, crowning_captures, no_moves,
        most_moves;
} Stats;

/* "a, b, c" of the first keys, for failure messages. */
static void key_list(const Keyed *k, int n, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < n && used + KEY_MAX + 4 < len; i++)
        used += (size_t)snprintf(out + used, len - used, "%s%s", i ? ", " : "", k[i].key);
}

/* Every check of one position; returns false (after reporting) on the first
 * disagreement. */
static bool compare_position(const Board *b, Stats *st)
{
    char fen[128];
    board_to_fen(b, fen, sizeof fen);
    RefPos p;
    ref_from_board(b, &p);
    Board back;
    ref_to_board(&p, &back);
    CHECK_MSG(board_equal(&back, b), "%s: the mailbox round trip changed the board", fen);

    int nref = ref_gen(&p, &refml);
    CHECK_MSG(nref == refml.stored, "%s: %d moves, more than the reference holds", fen, nref);
    if (nref != refml.stored) return false;
    static MoveList ml;
    int nreal = mg_moves(b, &ml);
    CHECK_MSG(nreal == ml.count, "%s: mg_moves returned %d for %d moves", fen, nreal, ml.count);
    CHECK_MSG(nreal == nref, "%s: mg_moves gives %d moves, the reference %d", fen, nreal, nref);
    int ncount = mg_count_moves(b);
    CHECK_MSG(ncount == nref, "%s: mg_count_moves gives %d, the reference %d moves", fen, ncount, nref);

    bool capture = nref > 0 && refml.moves[0].njumps > 0;
    static MoveList caps;
    int ncap = mg_captures(b, &caps);
    CHECK_MSG(ncap == (capture ? nref : 0), "%s: mg_captures gives %d, expected %d", fen, ncap,
              capture ? nref : 0);

    st->positions++;
    if (b->kings) st->with_kings++;
    if (capture) st->with_captures++;
    if (nref == 0) st->no_moves++;
    if (nref > st->most_moves) st->most_moves = nref;
    bool multi = false, loop = false, crown = false;
    for (int i = 0; i < nref; i++) {
        const RefMove *m = &refml.moves[i];
        if (m->njumps >= 2) multi = true;
        if (m->njumps && ref_move_to(m) == m->from) loop = true;
        if (m->njumps && !((b->kings >> (m->from - 1)) & 1)) {
            int row = (ref_move_to(m) - 1) / 4;
            if (row == (b->stm == KM_BLACK ? 7 : 0)) crown = true;
        }
    }
    st->with_multi += multi;
    st->with_loops += loop;
    st->crowning_captures += crown;

    if (nreal != nref || nreal > REF_MAX_MOVES) return false;
    /* the same multiset of (path, captured set) */
    for (int i = 0; i < nreal; i++) {
        const Move *m = &ml.moves[i];
        real_key(m, real_keys[i].key);
        real_keys[i].index = i;
        ref_key(&refml.moves[i], ref_keys[i].key);
        ref_keys[i].index = i;
        /* internal consistency of the real move */
        if (m->njumps) {
            CHECK_MSG(m->to == m->path[m->njumps - 1] && bits_popcount32(m->captured) == m->njumps,
                      "%s: inconsistent move %s (to %d, %d jumps)", fen, real_keys[i].key, m->to + 1,
                      m->njumps);
        } else {
            CHECK_MSG(m->captured == 0, "%s: simple move %s captures", fen, real_keys[i].key);
        }
    }
    qsort(real_keys, (size_t)nreal, sizeof(Keyed), by_key);
    qsort(ref_keys, (size_t)nref, sizeof(Keyed), by_key);
    for (int i = 0; i < nreal; i++) {
        if (strcmp(real_keys[i].key, ref_keys[i].key) != 0) {
            char a[1024], r[1024];
            key_list(real_keys, nreal, a, sizeof a);
            key_list(ref_keys, nref, r, sizeof r);
            CHECK_MSG(false, "%s: mg_moves gives [%s], the reference [%s]", fen, a, r);
            return false;
        }
    }
    /* mg_make_move against the reference's own make, move by move */
    for (int i = 0; i < nreal; i++) {
        Board c = *b, d;
        mg_make_move(&c, &ml.moves[real_keys[i].index]);
        RefPos q = p;
        ref_make(&q, &refml.moves[ref_keys[i].index]);
        ref_to_board(&q, &d);
        if (!board_equal(&c, &d)) {
            char fc[128], fd[128];
            board_to_fen(&c, fc, sizeof fc);
            board_to_fen(&d, fd, sizeof fd);
            CHECK_MSG(false, "%s: after %s mg_make_move gives %s, the reference %s", fen, real_keys[i].key,
                      fc, fd);
            return false;
        }
    }
    return true;
}

/* ---- random positions ---------------------------------------------------------- */

TEST(movegen_matches_reference_on_random_positions)
{
    long n = test_sanitized() ? 3000 : 20000;
    RefStream s;
    ref_stream_init(&s, 0x5EED0001u);
    CHECK(s.buf != NULL);
    if (!s.buf) return;
    Stats st = {0};
    long bad = 0;
    for (long i = 0; i < n; i++) {
        Board b;
        ref_stream_next(&s, &b);
        if (!compare_position(&b, &st) && ++bad >= 10) break;
    }
    ref_stream_free(&s);
    if (getenv("KINGME_TEST_VERBOSE"))
        printf("  %ld positions (%d games): %ld with kings, %ld with captures, %ld with "
               "multi-jumps, %ld with loops, %ld crowning captures, %ld without moves, at most %ld "
               "moves\n",
               st.positions, s.games, st.with_kings, st.with_captures, st.with_multi, st.with_loops,
               st.crowning_captures, st.no_moves, st.most_moves);
    CHECK_INT(st.positions, n);
    /* the comparison must have covered every kind of move, many times */
    CHECK_MSG(st.with_kings >= n / 3, "only %ld positions with kings", st.with_kings);
    CHECK_MSG(st.with_captures >= n / 5, "only %ld positions with captures", st.with_captures);
    CHECK_MSG(st.with_multi >= n / 30, "only %ld positions with multi-jumps", st.with_multi);
    CHECK_MSG(st.with_loops >= n / 2000, "only %ld positions with a king's loop", st.with_loops);
    CHECK_MSG(st.crowning_captures >= n / 100, "only %ld crowning captures", st.crowning_captures);
    CHECK_MSG(st.no_moves >= n / 1000, "only %ld positions without moves", st.no_moves);
}

TEST(movegen_reference_perft_matches_published_figures)
{
    /* The reference itself against the published perft (docs/rules.md,
     * tests/data/perft.txt): 7, 49, 302, 1469, 7361, 36768, 179740. */
    static const uint64_t published[] = {1, 7, 49, 302, 1469, 7361, 36768, 179740};
    int maxd = test_sanitized() ? 5 : 7;
    Board b;
    board_init(&b);
    RefPos p;
    ref_from_board(&b, &p);
    for (int d = 1; d <= maxd; d++) CHECK_INT(ref_perft(&p, d), published[d]);
}

TEST(movegen_can_capture_matches_reference)
{
    long n = test_sanitized() ? 3000 : 30000;
    RefStream s;
    ref_stream_init(&s, 0x5EED0002u);
    CHECK(s.buf != NULL);
    if (!s.buf) return;
    long yes[2] = {0, 0}, bad = 0;
    for (long i = 0; i < n && bad < 10; i++) {
        Board b;
        ref_stream_next(&s, &b);
        RefPos p;
        ref_from_board(&b, &p);
        for (int side = 0; side < 2; side++) {
            bool want = ref_can_capture(&p, side), got = mg_can_capture(&b, side);
            if (got != want) {
                char fen[128];
                board_to_fen(&b, fen, sizeof fen);
                CHECK_MSG(false, "%s: mg_can_capture(%s) is %d, expected %d", fen,
                          side == KM_BLACK ? "Black" : "White", got, want);
                bad++;
            }
            yes[side] += want;
        }
        /* for the side to move it must agree with the generator too */
        ref_gen(&p, &refml);
        bool caps = refml.count > 0 && refml.moves[0].njumps > 0;
        CHECK(caps == ref_can_capture(&p, b.stm));
    }
    ref_stream_free(&s);
    /* both answers occurred often for both colours */
    CHECK_MSG(yes[0] >= n / 10 && yes[0] <= n - n / 10, "Black could capture in %ld of %ld", yes[0], n);
    CHECK_MSG(yes[1] >= n / 10 && yes[1] <= n - n / 10, "White could capture in %ld of %ld", yes[1], n);
}

/* The mirror of a move list: every square s becomes 33-s. */
static void mirror_key(const RefMove *m, char *out)
{
    RefMove t = *m;
    t.from = 33 - m->from;
    int steps = m->njumps ? m->njumps : 1;
    for (int i = 0; i < steps; i++) t.path[i] = 33 - m->path[i];
    for (int i = 0; i < m->ncaptured; i++) t.captured[i] = 33 - m->captured[m->ncaptured - 1 - i];
    ref_key(&t, out);
}

TEST(board_mirror_turns_the_moves_round)
{
    /* By hand: the initial position turned round is itself, White to move. */
    Board init, m;
    board_init(&init);
    board_mirror(&init, &m);
    CHECK(m.pieces[KM_BLACK] == init.pieces[KM_BLACK] && m.pieces[KM_WHITE] == init.pieces[KM_WHITE]);
    CHECK(m.kings == 0 && m.stm == KM_WHITE);
    /* "W:WK3,19:B12,K28": Black gets 33-3 = K30 and 33-19 = 14, White gets
     * 33-12 = 21 and 33-28 = K5; Black is to move. */
    Board k, km, want;
    char err[KM_ERR_MAX];
    CHECK(board_from_fen(&k, "W:WK3,19:B12,K28", err) == 0);
    CHECK(board_from_fen(&want, "B:BK30,14:W21,K5", err) == 0);
    board_mirror(&k, &km);
    CHECK(board_equal(&km, &want));

    long n = test_sanitized() ? 1000 : 10000, bad = 0;
    RefStream s;
    ref_stream_init(&s, 0x5EED0003u);
    CHECK(s.buf != NULL);
    if (!s.buf) return;
    static MoveList ml;
    for (long i = 0; i < n && bad < 10; i++) {
        Board b, mb, mmb;
        ref_stream_next(&s, &b);
        board_mirror(&b, &mb);
        board_mirror(&mb, &mmb);
        char fen[128];
        board_to_fen(&b, fen, sizeof fen);
        if (!board_equal(&mmb, &b)) {
            CHECK_MSG(false, "%s: mirrored twice it is not the same", fen);
            bad++;
            continue;
        }
        CHECK(mb.stm != b.stm &&
              bits_popcount32(mb.pieces[KM_BLACK]) == bits_popcount32(b.pieces[KM_WHITE]) &&
              bits_popcount32(mb.kings) == bits_popcount32(b.kings));
        RefPos p;
        ref_from_board(&b, &p);
        int nref = ref_gen(&p, &refml);
        int nreal = mg_moves(&mb, &ml);
        if (nreal != nref || nref > REF_MAX_MOVES) {
            CHECK_MSG(false, "%s: %d moves, the mirror has %d", fen, nref, nreal);
            bad++;
            continue;
        }
        for (int j = 0; j < nref; j++) {
            mirror_key(&refml.moves[j], ref_keys[j].key);
            real_key(&ml.moves[j], real_keys[j].key);
        }
        qsort(real_keys, (size_t)nreal, sizeof(Keyed), by_key);
        qsort(ref_keys, (size_t)nref, sizeof(Keyed), by_key);
        for (int j = 0; j < nref; j++)
            if (strcmp(real_keys[j].key, ref_keys[j].key) != 0) {
                CHECK_MSG(false, "%s: mirror move %s, expected %s", fen, real_keys[j].key, ref_keys[j].key);
                bad++;
                break;
            }
    }
    ref_stream_free(&s);
}

/* ---- positions worked out by hand ------------------------------------------------
 *
 * The squares, from docs/rules.md (row 0 at the top; a "down" move goes to higher
 * numbers, Black's forward):
 *
 *        b8  1   d8  2   f8  3   h8  4
 *    a7  5   c7  6   e7  7   g7  8
 *        b6  9   d6 10   f6 11   h6 12
 *    a5 13   c5 14   e5 15   g5 16
 *        b4 17   d4 18   f4 19   h4 20
 *    a3 21   c3 22   e3 23   g3 24
 *        b2 25   d2 26   f2 27   h2 28
 *    a1 29   c1 30   e1 31   g1 32
 *
 * So on the even rows (1-4, 9-12, 17-20, 25-28) the neighbours of n below are
 * n+4 and n+5, above n-4 and n-3; on the odd rows (5-8, 13-16, ...) below
 * n+3 and n+4, above n-5 and n-4 (none beyond the a- and h-files). */

typedef struct Expect {
    const char *text;     /* full path */
    const char *captured; /* "10,19", "" for none */
} Expect;

static int by_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The moves of fen must be exactly the n expected ones (both generators),
 * and mg_count_moves must agree. */
static void check_moves(const char *fen, const Expect *e, int n, int line)
{
    Board b;
    char err[KM_ERR_MAX];
    if (board_from_fen(&b, fen, err) != 0) {
        test_fail(__FILE__, line, "%s", err);
        return;
    }
    char want[64][KEY_MAX];
    const char *wantp[64];
    for (int i = 0; i < n; i++) {
        snprintf(want[i], KEY_MAX, "%s {%s}", e[i].text, e[i].captured);
        wantp[i] = want[i];
    }
    qsort(wantp, (size_t)n, sizeof(char *), by_str);

    static MoveList ml;
    int got = mg_moves(&b, &ml);
    RefPos p;
    ref_from_board(&b, &p);
    int nref = ref_gen(&p, &refml);
    test_checks += 3;
    if (mg_count_moves(&b) != n)
        test_fail(__FILE__, line, "%s: mg_count_moves %d, expected %d", fen, mg_count_moves(&b), n);
    if (got != n || nref != n) {
        test_fail(__FILE__, line, "%s: mg_moves %d moves, reference %d, expected %d", fen, got, nref, n);
        return;
    }
    for (int i = 0; i < n; i++) {
        real_key(&ml.moves[i], real_keys[i].key);
        ref_key(&refml.moves[i], ref_keys[i].key);
    }
    qsort(real_keys, (size_t)n, sizeof(Keyed), by_key);
    qsort(ref_keys, (size_t)n, sizeof(Keyed), by_key);
    for (int i = 0; i < n; i++) {
        test_checks += 2;
        if (strcmp(real_keys[i].key, wantp[i]) != 0)
            test_fail(__FILE__, line, "%s: mg_moves has %s, expected %s", fen, real_keys[i].key, wantp[i]);
        if (strcmp(ref_keys[i].key, wantp[i]) != 0)
            test_fail(__FILE__, line, "%s: the reference has %s, expected %s", fen, ref_keys[i].key,
                      wantp[i]);
    }
}
#define CHECK_MOVES(fen, ...)                                            \
    do {                                                                 \
        static const Expect e_[] = {__VA_ARGS__};                        \
        check_moves(fen, e_, (int)(sizeof e_ / sizeof e_[0]), __LINE__); \
    } while (0)

/* The position after playing text on fen must be after (by hand). */
static void check_after(const char *fen, const char *text, const char *after, int line)
{
    Board b, want;
    Move m;
    char err[KM_ERR_MAX];
    test_checks++;
    if (board_from_fen(&b, fen, err) || board_from_fen(&want, after, err) ||
        notation_parse_move(&b, text, &m, err)) {
        test_fail(__FILE__, line, "%s %s: %s", fen, text, err);
        return;
    }
    mg_make_move(&b, &m);
    if (!board_equal(&b, &want)) {
        char got[128];
        board_to_fen(&b, got, sizeof got);
        test_fail(__FILE__, line, "%s then %s gives %s, expected %s", fen, text, got, after);
    }
}
#define CHECK_AFTER(fen, text, after) check_after(fen, text, after, __LINE__)

static void check_no_moves(const char *fen, int line) { check_moves(fen, NULL, 0, line); }
#define CHECK_NO_MOVES(fen) check_no_moves(fen, __LINE__)

TEST(movegen_hand_simple_moves)
{
    /* The initial position: Black's front men 9-12 step down, 9 to 13 or 14,
     * 10 to 14 or 15, 11 to 15 or 16, and 12 (h-file) only to 16. */
    CHECK_MOVES("B:W21-32:B1-12", {"9-13", ""}, {"9-14", ""}, {"10-14", ""}, {"10-15", ""}, {"11-15", ""},
                {"11-16", ""}, {"12-16", ""});
    /* White to move there: 21 (a-file) to 17; 22 to 17, 18; 23 to 18, 19; 24 to 19, 20. */
    CHECK_MOVES("W:W21-32:B1-12", {"21-17", ""}, {"22-17", ""}, {"22-18", ""}, {"23-18", ""}, {"23-19", ""},
                {"24-19", ""}, {"24-20", ""});
    /* A king steps all four ways, a man only forward: Black king on 18 (d4)
     * to 14, 15 above and 22, 23 below; the Black man on 1 (b8) to 5 and 6.
     * The White man on 27 is not next to anything. */
    CHECK_MOVES("B:W27:BK18,1", {"18-14", ""}, {"18-15", ""}, {"18-22", ""}, {"18-23", ""}, {"1-5", ""},
                {"1-6", ""});
    /* A king in the single corner 29 (a1) has one neighbour, 25 (b2). A Black
     * man on 28 (h2) can only go to 32 (g1), where it is crowned. */
    CHECK_MOVES("B:BK29,28:W12", {"29-25", ""}, {"28-32", ""});
    CHECK_AFTER("B:BK29,28:W12", "28-32", "W:W12:BK29,K32");
    /* A White man steps up: 22 (c3) to 17 or 18, not down to 25 or 26. */
    CHECK_MOVES("W:W22:B1", {"22-17", ""}, {"22-18", ""});
}

TEST(movegen_hand_multi_jumps)
{
    /* Double jump: the Black man on 6 (c7) jumps 10 (d6) to 15 (e5), then 19
     * (f4) to 24 (g3). Its other first jump, over 9 to 13, finds 9 empty; from
     * 15 the jump over 18 finds 18 empty; from 24 the squares below (27, 28)
     * are empty. One move, taking 10 and 19. */
    CHECK_MOVES("B:W10,19:B6", {"6x15x24", "10,19"});
    CHECK_AFTER("B:W10,19:B6", "6x15x24", "W:W:B24");
    /* Triple jump: Black man on 1 (b8) over 6 to 10, over 15 to 19, over 23
     * to 26 (d2). From 10 the jump over 14 finds it empty; from 19 the jump
     * over 24 too; from 26 a jump would leave the board. */
    CHECK_MOVES("B:W6,15,23:B1", {"1x10x19x26", "6,15,23"});
    CHECK_AFTER("B:W6,15,23:B1", "1x10x19x26", "W:W:B26");
    /* The same with White on 24 too: from 19 it may also go over 24 to 28 (h2),
     * a free choice: two triple jumps. */
    CHECK_MOVES("B:W6,15,23,24:B1", {"1x10x19x26", "6,15,23"}, {"1x10x19x28", "6,15,24"});
    /* Two paths to the same square: 1 over 6 to 10, then either over 14 to 17
     * and over 22 to 26, or over 15 to 19 and over 23 to 26. Two moves, with
     * different captured pieces. */
    CHECK_MOVES("B:W6,14,15,22,23:B1", {"1x10x17x26", "6,14,22"}, {"1x10x19x26", "6,15,23"});
    /* White jumping up the board: the man on 27 (f2) has 23 and 24 above it.
     * Over 24 it lands on 20 (h4), and from 20 the only square above, 16, is
     * empty: 27x20. Over 23 it lands on 18, whose upper neighbours 14 and 15
     * are both Black: on over 14 to 9, or over 15 to 11, and from 9 or 11 the
     * squares above (5, 6 / 7, 8) are empty. Three moves. */
    CHECK_MOVES("W:W27:B14,15,23,24", {"27x18x9", "14,23"}, {"27x18x11", "15,23"}, {"27x20", "24"});
}

TEST(movegen_hand_king_loop)
{
    /* Black king on 10 (d6), White on 14, 15, 22, 23 in a diamond below it.
     * One way round: 10 over 15 to 19, over 23 to 26, over 22 to 17, over 14
     * back to 10 - its own start square, empty while it is away. The other
     * way: 10 over 14 to 17, over 22 to 26, over 23 to 19, over 15 to 10. Back
     * on 10, 14 and 15 are still on the board but already taken, so it stops.
     * Two distinct paths: two moves, both taking all four. */
    CHECK_MOVES("B:W14,15,22,23:BK10", {"10x19x26x17x10", "14,15,22,23"}, {"10x17x26x19x10", "14,15,22,23"});
    CHECK_AFTER("B:W14,15,22,23:BK10", "10x19x26x17x10", "W:W:BK10");
    /* The same with the colours swapped (men may stand anywhere but on their
     * own last row). */
    CHECK_MOVES("W:B14,15,22,23:WK10", {"10x19x26x17x10", "14,15,22,23"}, {"10x17x26x19x10", "14,15,22,23"});
    /* Add a White man on 6, above-left of 10: the king may take it at once
     * (10 over 6 to 1, b8, where nothing more can be taken), or go round the
     * loop and, passing its start square again, go on over 6 to 1. */
    CHECK_MOVES("B:W6,14,15,22,23:BK10", {"10x1", "6"}, {"10x19x26x17x10x1", "6,14,15,22,23"},
                {"10x17x26x19x10x1", "6,14,15,22,23"});
    /* A loop above the king, then on: Black king on 18 (d4), White on 14, 6,
     * 7, 15 above it and 23 below. Up and round: 18 over 14 to 9, over 6 to 2,
     * over 7 to 11, over 15 back to 18, then over 23 to 27 (or the same loop
     * the other way). Or over 23 to 27 first, where nothing more can be
     * jumped (23 is taken, 24 is empty). Three moves. */
    CHECK_MOVES("B:W6,7,14,15,23:BK18", {"18x27", "23"}, {"18x9x2x11x18x27", "6,7,14,15,23"},
                {"18x11x2x9x18x27", "6,7,14,15,23"});
}

TEST(movegen_hand_crowning_ends_the_move)
{
    /* Black man on 15 (e5) over 18 to 22, then over 26 to 31 (e1): it is
     * crowned and the move ends, although the new king could go on over 27
     * to 24. */
    CHECK_MOVES("B:W18,26,27:B15", {"15x22x31", "18,26"});
    CHECK_AFTER("B:W18,26,27:B15", "15x22x31", "W:W27:BK31");
    /* A piece that was a king before the move goes on through the last row:
     * Black king on 22 over 26 to 31, then over 27 to 24. */
    CHECK_MOVES("B:W26,27:BK22", {"22x31x24", "26,27"});
    CHECK_AFTER("B:W26,27:BK22", "22x31x24", "W:W:BK24");
    /* White: the man on 18 (d4) over 14 (c5) to 9 (b6), then over 6 (c7) to
     * 2 (d8), where it is crowned and stops; as a king it could have gone on
     * over 7 to 11. */
    CHECK_MOVES("W:W18:B14,6,7", {"18x9x2", "6,14"});
    CHECK_AFTER("W:W18:B14,6,7", "18x9x2", "B:WK2:B7");
}

TEST(movegen_hand_capture_is_compulsory)
{
    /* Black man on 14 (c5) can take 18 and land on 23; the man on 1 could
     * step to 5 or 6, but may not. */
    CHECK_MOVES("B:W18:B14,1", {"14x23", "18"});
    /* White to move in the same position: 18 takes 14 and lands on 9. */
    CHECK_MOVES("W:W18:B14,1", {"18x9", "14"});
    /* A man does not capture backwards: the White man on 22 has the Black
     * man on 26 behind it, with 31 empty beyond; it only steps to 17 or 18. */
    CHECK_MOVES("W:W22:B26", {"22-17", ""}, {"22-18", ""});
    /* No majority rule: the Black man on 10 may take one piece (over 14 to
     * 17, then 21 and 22 below are empty) or two (over 15 to 19, then over 24
     * to 28). Both are legal. */
    CHECK_MOVES("B:W14,15,24:B10", {"10x17", "14"}, {"10x19x28", "15,24"});
}

TEST(movegen_hand_no_moves)
{
    /* Black man on 5 (a7, on the a-file): its only forward neighbour 9 holds a
     * White man and the square beyond, 14, another: blocked, nothing to take. */
    CHECK_NO_MOVES("B:W9,14:B5");
    /* Black man on 28 (h2) facing White on 32 (g1): the jump would leave the board. */
    CHECK_NO_MOVES("B:W32:B28");
    /* No Black pieces at all. */
    CHECK_NO_MOVES("B:W9");
    Board b;
    char err[KM_ERR_MAX];
    CHECK(board_from_fen(&b, "B:W9,14:B5", err) == 0);
    CHECK(!mg_can_capture(&b, KM_BLACK));
    /* With White to move: 9 cannot take 5 (the landing would be off the
     * board), so it steps to 6; 14 has its own man on 9 and steps to 10. */
    CHECK(!mg_can_capture(&b, KM_WHITE));
    b.stm = KM_WHITE;
    CHECK_INT(mg_count_moves(&b), 2);
}

TEST(movegen_hand_taken_piece_blocks_the_king)
{
    /* Black king on 10 takes 15 and lands on 19. From 19 the taken man on 15
     * is still on the board, with 10 (the king's own start square, empty)
     * beyond it, but it may not be jumped twice: the king stops. */
    CHECK_MOVES("B:W15:BK10", {"10x19", "15"});
    /* Black king on 9 (b6), White on 14, 15, 16, 23, 24. It takes 14 and
     * lands on 18, then goes round the diamond 18 - 27 - 20 - 11 - 18 (over
     * 23, 24, 16, 15), in either direction. Back on 18, the man on 14 it took
     * first is still there, with 9 empty beyond it: it blocks the king, which
     * stops on 18. (In English draughts a taken piece never stands on a square
     * where the jumper could land - those are of the other parity - so the
     * only way a taken piece blocks is this: it cannot be jumped again.) */
    CHECK_MOVES("B:W14,15,16,23,24:BK9", {"9x18x27x20x11x18", "14,15,16,23,24"},
                {"9x18x11x20x27x18", "14,15,16,23,24"});
    CHECK_AFTER("B:W14,15,16,23,24:BK9", "9x18x27x20x11x18", "W:W:BK18");
}
