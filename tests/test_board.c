/* test_board.c - FEN reading and writing, coordinates, the diagram, hashing. */
#include "kingme/board.h"
#include "refgen.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

/* The canonical text of the initial position, as docs/rules.md gives it. */
#define INIT_FEN "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"

/* fen must read as the position with these bit masks (built from square
 * numbers by the caller). */
static void check_fen(const char *fen, uint32_t black, uint32_t white, uint32_t kings, int stm, int line)
{
    Board b;
    char err[KM_ERR_MAX];
    test_checks++;
    if (board_from_fen(&b, fen, err) != 0) {
        test_fail(__FILE__, line, "\"%s\" refused: %s", fen, err);
        return;
    }
    test_checks++;
    if (b.pieces[KM_BLACK] != black || b.pieces[KM_WHITE] != white || b.kings != kings || b.stm != stm) {
        char got[128];
        board_to_fen(&b, got, sizeof got);
        test_fail(__FILE__, line, "\"%s\" read as %s", fen, got);
    }
}
#define CHECK_FEN(fen, black, white, kings, stm) check_fen(fen, black, white, kings, stm, __LINE__)

/* fen must be refused, the message naming the FEN and containing want. */
static void check_bad_fen(const char *fen, const char *want, int line)
{
    Board b;
    char err[KM_ERR_MAX] = "";
    test_checks++;
    if (board_from_fen(&b, fen, err) == 0) {
        char got[128];
        board_to_fen(&b, got, sizeof got);
        test_fail(__FILE__, line, "\"%s\" accepted as %s", fen, got);
        return;
    }
    test_checks++;
    if (!strstr(err, want))
        test_fail(__FILE__, line, "\"%s\": message \"%s\" does not say \"%s\"", fen, err, want);
    test_checks++;
    if (!*err || strchr(err, '\n') || strlen(err) >= KM_ERR_MAX)
        test_fail(__FILE__, line, "\"%s\": message \"%s\" is not one line", fen, err);
}
#define CHECK_BAD_FEN(fen, want) check_bad_fen(fen, want, __LINE__)

/* Mask of the squares lo..hi. */
static uint32_t range(int lo, int hi)
{
    uint32_t m = 0;
    for (int s = lo; s <= hi; s++) m |= SQ(s);
    return m;
}

TEST(board_fen_variants)
{
    uint32_t b12 = range(1, 12), w12 = range(21, 32);
    Board init;
    board_init(&init);
    CHECK(init.pieces[KM_BLACK] == b12 && init.pieces[KM_WHITE] == w12 && init.kings == 0 &&
          init.stm == KM_BLACK);
    /* every variant of the initial position in docs/rules.md */
    CHECK_FEN(INIT_FEN, b12, w12, 0, KM_BLACK);
    CHECK_FEN("B:W21-32:B1-12", b12, w12, 0, KM_BLACK); /* ranges */
    CHECK_FEN("B:B1-12:W21-32", b12, w12, 0, KM_BLACK); /* sections swapped */
    CHECK_FEN("B:B1,2,3,4,5,6,7,8,9,10,11,12:W21-24,25-32", b12, w12, 0, KM_BLACK);
    CHECK_FEN("B:W21-32:B1-12.", b12, w12, 0, KM_BLACK);    /* trailing '.' */
    CHECK_FEN("B:W21-32:B1-12\r\n", b12, w12, 0, KM_BLACK); /* CRLF */
    CHECK_FEN("B:W21-32:B1-12.\r\n", b12, w12, 0, KM_BLACK);
    CHECK_FEN(" B : W21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32 : B1 - 12 ", b12, w12, 0, KM_BLACK);
    CHECK_FEN("W:W21-32:B1-12", b12, w12, 0, KM_WHITE);
    /* kings: docs/rules.md's example, White to move, White king on 3 and man on
     * 19, Black man on 12 and king on 28 */
    CHECK_FEN("W:WK3,19:B12,K28", SQ(12) | SQ(28), SQ(3) | SQ(19), SQ(3) | SQ(28), KM_WHITE);
    CHECK_FEN("W:B12,K28:WK3,19.", SQ(12) | SQ(28), SQ(3) | SQ(19), SQ(3) | SQ(28), KM_WHITE);
    /* kings on their own side's promotion rows are fine (only men are refused) */
    CHECK_FEN("B:WK1,K4:BK29,K32", SQ(29) | SQ(32), SQ(1) | SQ(4), SQ(1) | SQ(4) | SQ(29) | SQ(32), KM_BLACK);
    /* men on the other side's promotion row are fine too (their own back rank) */
    CHECK_FEN("B:W29-32:B1-4", range(1, 4), range(29, 32), 0, KM_BLACK);
    /* a colour with no pieces */
    CHECK_FEN("W:W:B24", SQ(24), 0, 0, KM_WHITE);
    CHECK_FEN("B:W9", 0, SQ(9), 0, KM_BLACK);
}

TEST(board_fen_round_trip)
{
    char buf[128];
    Board b, c;
    char err[KM_ERR_MAX];
    board_init(&b);
    board_to_fen(&b, buf, sizeof buf);
    CHECK_STR(buf, INIT_FEN);
    CHECK(board_from_fen(&c, "W:B12,K28:WK3,19", err) == 0);
    board_to_fen(&c, buf, sizeof buf);
    CHECK_STR(buf, "W:WK3,19:B12,K28");
    /* the longest text fits: 24 pieces, all kings, with two-digit squares */
    CHECK(board_from_fen(&c, "W:WK9-20:BK21-32", err) == 0);
    board_to_fen(&c, buf, sizeof buf);
    CHECK_STR(
        buf,
        "W:WK9,K10,K11,K12,K13,K14,K15,K16,K17,K18,K19,K20:BK21,K22,K23,K24,K25,K26,K27,K28,K29,K30,K31,K32");

    /* random positions: write, read back, the same board */
    RefRng r = {0x5EED0005u};
    int n = test_sanitized() ? 2000 : 20000, bad = 0;
    for (int i = 0; i < n && bad < 5; i++) {
        if (i % 2) ref_random_board(&r, &b);
        else ref_random_jumpy_board(&r, &b);
        board_to_fen(&b, buf, sizeof buf);
        if (board_from_fen(&c, buf, err) != 0 || !board_equal(&b, &c)) {
            CHECK_MSG(false, "%s does not read back: %s", buf, err);
            bad++;
        }
    }
}

TEST(board_fen_errors)
{
    CHECK_BAD_FEN("B:W0:B1", "square 0 ");
    CHECK_BAD_FEN("B:W21:B33", "square 33 ");
    CHECK_BAD_FEN("B:W21-33:B1", "square 33 ");
    CHECK_BAD_FEN("B:W21,21:B1", "square 21 is given twice");
    CHECK_BAD_FEN("B:W21-24,23:B1", "square 23 is given twice");
    CHECK_BAD_FEN("B:W21:B21", "square 21 is given twice"); /* across colours */
    CHECK_BAD_FEN("B:W21-32:B1-12,22", "square 22 is given twice");
    CHECK_BAD_FEN("B:W21;22:B1", "unexpected ';'");
    CHECK_BAD_FEN("B:W21:B1 x", "unexpected 'x'");
    CHECK_BAD_FEN("B:W21:B1:", "expected B or W");
    CHECK_BAD_FEN("", "side to move");
    CHECK_BAD_FEN("   ", "side to move");
    CHECK_BAD_FEN(":W21:B1", "side to move");
    CHECK_BAD_FEN("X:W21:B1", "side to move");
    CHECK_BAD_FEN("W21-32:B1-12", "bad FEN 'W21-32:B1-12'"); /* no side to move before the sections */
    CHECK_BAD_FEN("B", "no pieces");
    CHECK_BAD_FEN("B:W21-32:B1-13", "Black has 13 pieces");
    CHECK_BAD_FEN("B:W20-32:B1-12", "White has 13 pieces");
    CHECK_BAD_FEN("B:WK1-13:B20", "White has 13 pieces");
    CHECK_BAD_FEN("B:W21-28:B1-11,29", "Black man on square 29");
    CHECK_BAD_FEN("W:W4,21:B5", "White man on square 4");
    CHECK_BAD_FEN("B:W21,", "a square is missing after ','");
    CHECK_BAD_FEN("B:W21,:B1", "a square is missing after ','");
    CHECK_BAD_FEN("B:W21-", "expected a square number");
    CHECK_BAD_FEN("B:W24-21:B1", "runs backwards");
    CHECK_BAD_FEN("B:W21:W22", "White pieces are given twice");
    CHECK_BAD_FEN("B:WK:B1", "expected a square number");
}

TEST(board_coordinates)
{
    /* docs/rules.md: a1 = 29, h8 = 4; and from the diagram c3 = 22, d4 = 18,
     * e5 = 15, b8 = 1, g1 = 32, h2 = 28, a7 = 5. */
    CHECK_INT(board_square_from_coord('a', '1'), 29);
    CHECK_INT(board_square_from_coord('h', '8'), 4);
    CHECK_INT(board_square_from_coord('c', '3'), 22);
    CHECK_INT(board_square_from_coord('d', '4'), 18);
    CHECK_INT(board_square_from_coord('e', '5'), 15);
    CHECK_INT(board_square_from_coord('b', '8'), 1);
    CHECK_INT(board_square_from_coord('g', '1'), 32);
    CHECK_INT(board_square_from_coord('h', '2'), 28);
    CHECK_INT(board_square_from_coord('a', '7'), 5);
    /* light squares and squares off the board */
    CHECK_INT(board_square_from_coord('a', '8'), 0);
    CHECK_INT(board_square_from_coord('b', '1'), 0);
    CHECK_INT(board_square_from_coord('h', '1'), 0);
    CHECK_INT(board_square_from_coord('d', '5'), 0);
    CHECK_INT(board_square_from_coord('i', '2'), 0);
    CHECK_INT(board_square_from_coord('a', '9'), 0);
    CHECK_INT(board_square_from_coord('a', '0'), 0);
    CHECK_INT(board_square_from_coord('`', '2'), 0);
    /* all 32, against the reference's geometry; the 32 dark squares are
     * exactly the 32 non-zero answers */
    int dark = 0;
    for (int sq = 1; sq <= 32; sq++) {
        int r, c;
        ref_square_rc(sq, &r, &c);
        CHECK_MSG(board_square_from_coord((char)('a' + c), (char)('1' + (7 - r))) == sq, "square %d", sq);
    }
    for (char f = 'a'; f <= 'h'; f++)
        for (char k = '1'; k <= '8'; k++) dark += board_square_from_coord(f, k) != 0;
    CHECK_INT(dark, 32);
}

TEST(board_hash_depends_on_the_whole_position)
{
    board_hash_init();
    Board a, b;
    board_init(&a);
    b = a;
    CHECK(board_hash(&a) == board_hash(&b));
    b.stm = KM_WHITE;
    CHECK(board_hash(&a) != board_hash(&b)); /* side to move */
    char err[KM_ERR_MAX];
    CHECK(board_from_fen(&a, "B:W18:B14", err) == 0);
    CHECK(board_from_fen(&b, "B:W18:BK14", err) == 0);
    CHECK(board_hash(&a) != board_hash(&b)); /* man or king */
    CHECK(board_from_fen(&b, "B:W14:B18", err) == 0);
    CHECK(board_hash(&a) != board_hash(&b)); /* colours swapped */
    /* the same position from two FEN spellings */
    CHECK(board_from_fen(&a, "W:WK3,19:B12,K28", err) == 0);
    CHECK(board_from_fen(&b, "W:B12,K28:WK3,19.", err) == 0);
    CHECK(board_hash(&a) == board_hash(&b));
    /* no collisions among a few thousand random positions (64-bit keys) */
    enum { N = 4000 };
    static uint64_t keys[N];
    static Board boards[N];
    RefRng r = {0x5EED0006u};
    for (int i = 0; i < N; i++) {
        ref_random_board(&r, &boards[i]);
        keys[i] = board_hash(&boards[i]);
    }
    int collisions = 0;
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N; j++)
            if (keys[i] == keys[j] && !board_equal(&boards[i], &boards[j])) collisions++;
    CHECK_INT(collisions, 0);
}
