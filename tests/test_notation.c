/* test_notation.c - move text: notation_move_to_text and notation_parse_move, by hand and on
 * every move of many random positions. */
#include "kingme/movegen.h"
#include "kingme/notation.h"
#include "refgen.h"
#include "test.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static bool load(Board *b, const char *fen)
{
    char err[KM_ERR_MAX];
    if (board_from_fen(b, fen, err) == 0) return true;
    CHECK_MSG(false, "%s", err);
    return false;
}

/* text must parse on fen to the move with that full path and captured set
 * ("6,15" or ""). */
static void check_parse(const char *fen, const char *text, const char *want_path, const char *want_captured,
                        int line)
{
    Board b;
    if (!load(&b, fen)) return;
    Move m;
    char err[KM_ERR_MAX];
    test_checks++;
    if (notation_parse_move(&b, text, &m, err) != 0) {
        test_fail(__FILE__, line, "%s: '%s' refused: %s", fen, text, err);
        return;
    }
    char got[MOVE_TEXT_MAX], caps[128] = "";
    notation_move_to_text(&m, got);
    size_t n = 0;
    for (int i = 0; i < 32; i++)
        if ((m.captured >> i) & 1)
            n += (size_t)snprintf(caps + n, sizeof caps - n, "%s%d", n ? "," : "", i + 1);
    test_checks++;
    if (strcmp(got, want_path) != 0 || strcmp(caps, want_captured) != 0)
        test_fail(__FILE__, line, "%s: '%s' read as %s {%s}, expected %s {%s}", fen, text, got, caps,
                  want_path, want_captured);
}
#define CHECK_PARSE(fen, text, path, caps) check_parse(fen, text, path, caps, __LINE__)

/* text must be refused on fen with a message containing each of the
 * NULL-terminated pieces. */
static void check_refused(const char *fen, const char *text, int line, ...)
{
    Board b;
    if (!load(&b, fen)) return;
    Move m;
    char err[KM_ERR_MAX] = "";
    test_checks++;
    if (notation_parse_move(&b, text, &m, err) == 0) {
        char got[MOVE_TEXT_MAX];
        notation_move_to_text(&m, got);
        test_fail(__FILE__, line, "%s: '%s' accepted as %s", fen, text, got);
        return;
    }
    va_list ap;
    va_start(ap, line);
    const char *want;
    while ((want = va_arg(ap, const char *)) != NULL) {
        test_checks++;
        if (!strstr(err, want))
            test_fail(__FILE__, line, "%s: '%s' refused with \"%s\", which does not say \"%s\"", fen, text,
                      err, want);
    }
    va_end(ap);
    test_checks++;
    if (strchr(err, '\n')) test_fail(__FILE__, line, "message of more than one line: \"%s\"", err);
}
#define CHECK_REFUSED(fen, text, ...) check_refused(fen, text, __LINE__, __VA_ARGS__, (const char *)NULL)

#define INIT "B:W21-32:B1-12"

TEST(notation_text_of_moves_by_hand)
{
    /* Moves built by hand (indices are square numbers minus one). */
    Move m = {0};
    m.from = 10, m.to = 14; /* 11-15 */
    char t[MOVE_TEXT_MAX];
    notation_move_to_text(&m, t);
    CHECK_STR(t, "11-15");
    m.from = 14, m.to = 30, m.njumps = 2, m.path[0] = 23, m.path[1] = 30; /* 15x24x31 */
    m.captured = SQ(19) | SQ(27);
    notation_move_to_text(&m, t);
    CHECK_STR(t, "15x24x31");
    /* a king's loop back to its start square */
    m.from = 9, m.to = 9, m.njumps = 4, m.path[0] = 18, m.path[1] = 25, m.path[2] = 16, m.path[3] = 9;
    notation_move_to_text(&m, t);
    CHECK_STR(t, "10x19x26x17x10");
    /* the longest text: 12 jumps between two-digit squares fits */
    m.from = 31, m.njumps = 12;
    for (int i = 0; i < 12; i++) m.path[i] = (uint8_t)(i % 2 ? 31 : 22);
    m.to = m.path[11];
    notation_move_to_text(&m, t);
    CHECK_STR(t, "32x23x32x23x32x23x32x23x32x23x32x23x32");
}

TEST(notation_parse_numbers_and_coordinates)
{
    /* The opening 11-15: from 11 to 15 (indices 10, 14), no capture. */
    Board b;
    if (!load(&b, INIT)) return;
    Move m;
    char err[KM_ERR_MAX];
    CHECK(notation_parse_move(&b, "11-15", &m, err) == 0);
    CHECK(m.from == 10 && m.to == 14 && m.njumps == 0 && m.captured == 0);
    CHECK_PARSE(INIT, "9-13", "9-13", "");
    CHECK_PARSE(INIT, "12-16", "12-16", "");
    /* Coordinates: c3 is 22 and d4 is 18 (docs/rules.md), so c3-d4 is White's 22-18. */
    CHECK_PARSE("W:W21-32:B1-12", "c3-d4", "22-18", "");
    /* b6 is 9, a5 is 13: Black's 9-13. */
    CHECK_PARSE(INIT, "b6-a5", "9-13", "");
    /* A capture with numbers or coordinates: White 22 (c3) over 18 (d4) to
     * 15 (e5). */
    CHECK_PARSE("W:W22:B18", "22x15", "22x15", "18");
    CHECK_PARSE("W:W22:B18", "c3xe5", "22x15", "18");
    /* The full path of a multi-jump, with numbers and with coordinates:
     * Black 6 (c7) over 10 to 15 (e5), over 19 to 24 (g3). */
    CHECK_PARSE("B:W10,19:B6", "6x15x24", "6x15x24", "10,19");
    CHECK_PARSE("B:W10,19:B6", "c7xe5xg3", "6x15x24", "10,19");
}

TEST(notation_short_form_of_a_multi_jump)
{
    /* Only one capture goes from 6 to 24: the short form is that move. */
    CHECK_PARSE("B:W10,19:B6", "6x24", "6x15x24", "10,19");
    CHECK_PARSE("B:W10,19:B6", "c7xg3", "6x15x24", "10,19");
    /* From 1 to 26 there are two paths (over 6 and 14 and 22 via 17, or
     * over 6, 15 and 23 via 19): the short form is ambiguous and the message
     * lists both; the full paths are each accepted. */
    const char *two = "B:W6,14,15,22,23:B1";
    CHECK_REFUSED(two, "1x26", "ambiguous", "1x10x17x26", "1x10x19x26");
    CHECK_PARSE(two, "1x10x17x26", "1x10x17x26", "6,14,22");
    CHECK_PARSE(two, "1x10x19x26", "1x10x19x26", "6,15,23");
    /* The king's loop 10 -> 10 both ways round: "10x10" is ambiguous. */
    CHECK_REFUSED("B:W14,15,22,23:BK10", "10x10", "ambiguous", "10x19x26x17x10", "10x17x26x19x10");
    CHECK_PARSE("B:W14,15,22,23:BK10", "10x17x26x19x10", "10x17x26x19x10", "14,15,22,23");
}

TEST(notation_single_jump_is_not_a_short_form)
{
    /* Black king on 18, White on 6, 7, 14, 15 above it and 23 below. Its
     * moves (worked out in test_movegen.c): the single jump 18x27, and the
     * loops 18x9x2x11x18x27 and 18x11x2x9x18x27, which also end on 27. The
     * text "18x27" is the complete path of the single jump - the text
     * notation_move_to_text writes for it - so it must read back as that move, not as
     * an ambiguous short form. */
    const char *fen = "B:W6,7,14,15,23:BK18";
    CHECK_PARSE(fen, "18x27", "18x27", "23");
    CHECK_PARSE(fen, "18x9x2x11x18x27", "18x9x2x11x18x27", "6,7,14,15,23");
}

TEST(notation_illegal_moves_say_why)
{
    /* White's man on 22 with Black to move. */
    CHECK_REFUSED(INIT, "22-18", "22", "not Black's");
    /* With White to move, Black's 11. */
    CHECK_REFUSED("W:W21-32:B1-12", "11-15", "11", "not White's");
    /* Nothing on 15. */
    CHECK_REFUSED(INIT, "15-19", "no piece on 15");
    /* Black 14 must take 18 (14x23): 1-5 is illegal, and the message says
     * a capture is compulsory and names it. */
    CHECK_REFUSED("B:W18:B14,1", "1-5", "capture is compulsory", "14x23");
    /* A man two squares away, and a man moving backwards. */
    CHECK_REFUSED(INIT, "9-18", "illegal", "9");
    CHECK_REFUSED("B:W32:B14", "14-9", "illegal", "14");
    /* A capture path that is not one: 6x15 stops halfway (24 must follow). */
    CHECK_REFUSED("B:W10,19:B6", "6x15x", "not a move");
    CHECK_REFUSED("B:W10,19:B6", "6x15x28", "illegal");
    /* No legal move at all: Black's 5 is blocked by 9 and 14. */
    CHECK_REFUSED("B:W9,14:B5", "5-9", "no legal move");
}

TEST(notation_unreadable_text)
{
    CHECK_REFUSED(INIT, "hello", "'hello'");
    CHECK_REFUSED(INIT, "?", "not a move");
    CHECK_REFUSED(INIT, "-15", "not a move");
    CHECK_REFUSED(INIT, "", "not a move");
    CHECK_REFUSED(INIT, "11-", "not a move");
    CHECK_REFUSED(INIT, "11", "start and an end");
    CHECK_REFUSED(INIT, "11-15z", "not a move");
    CHECK_REFUSED(INIT, "11-15 16", "not a move");
    CHECK_REFUSED(INIT, "0-4", "no square 0");
    CHECK_REFUSED(INIT, "11-33", "no square 33");
    CHECK_REFUSED(INIT, "99999999999-1", "no square");
    /* a2 and b1 are light squares; i3 and a9 are off the board */
    CHECK_REFUSED(INIT, "a2-b3", "a2", "not a dark square");
    CHECK_REFUSED("W:W21-32:B1-12", "c3-b1", "b1", "not a dark square");
    CHECK_REFUSED(INIT, "i3-h4", "not a dark square");
    CHECK_REFUSED(INIT, "a9-b8", "not a dark square");
    /* 13 squares and more than a move can have */
    CHECK_REFUSED(INIT, "1x2x3x4x5x6x7x8x9x10x11x12x13x14x15", "too long");
}

/* Coordinates of square sq, worked out from the reference's geometry. */
static void coord(int sq, char out[3])
{
    int r, c;
    ref_square_rc(sq, &r, &c);
    out[0] = (char)('a' + c);
    out[1] = (char)('1' + (7 - r));
    out[2] = '\0';
}

TEST(notation_round_trip_on_random_positions)
{
    /* Every legal move of the random positions reads back from its full path
     * in numbers and in coordinates, and from its short form when it is a
     * multi-jump - unless several moves share its first and last squares:
     * then the short form is refused as ambiguous, naming them, or, if one of
     * them is a single jump, it is that jump's full path and reads as it. Failures are counted
     * by kind; the first few of each kind are shown. */
    long n = test_sanitized() ? 1000 : 8000, moves = 0, shorts = 0, ambiguous = 0;
    long bad_num = 0, bad_coord = 0, bad_short = 0;
    RefStream s;
    ref_stream_init(&s, 0x5EED0004u);
    CHECK(s.buf != NULL);
    if (!s.buf) return;
    static MoveList ml;
    for (long i = 0; i < n; i++) {
        Board b;
        ref_stream_next(&s, &b);
        mg_moves(&b, &ml);
        char fen[128];
        board_to_fen(&b, fen, sizeof fen);
        for (int j = 0; j < ml.count; j++) {
            const Move *m = &ml.moves[j];
            char text[MOVE_TEXT_MAX], err[KM_ERR_MAX] = "", ctext[64];
            Move got;
            notation_move_to_text(m, text);
            moves++;
            /* the full path, with numbers */
            if (notation_parse_move(&b, text, &got, err) != 0 || !mg_move_equal(&got, m)) {
                if (bad_num++ < 3) CHECK_MSG(false, "%s: '%s' does not read back: %s", fen, text, err);
            }
            /* the full path, with coordinates */
            coord(m->from + 1, ctext);
            size_t k = 2;
            int steps = m->njumps ? m->njumps : 1;
            for (int q = 0; q < steps; q++) {
                ctext[k++] = m->njumps ? 'x' : '-';
                coord((m->njumps ? m->path[q] : m->to) + 1, ctext + k);
                k += 2;
            }
            if (notation_parse_move(&b, ctext, &got, err) != 0 || !mg_move_equal(&got, m)) {
                if (bad_coord++ < 3)
                    CHECK_MSG(false, "%s: '%s' (%s) does not read back: %s", fen, ctext, text, err);
            }
            if (m->njumps < 2) continue;
            char sh[16];
            snprintf(sh, sizeof sh, "%dx%d", m->from + 1, m->to + 1);
            int same = 0, named = 0, single = -1;
            size_t textlen = 0;
            int rc = notation_parse_move(&b, sh, &got, err);
            for (int q = 0; q < ml.count; q++)
                if (ml.moves[q].from == m->from && ml.moves[q].to == m->to) {
                    char t[MOVE_TEXT_MAX];
                    notation_move_to_text(&ml.moves[q], t);
                    same++;
                    textlen += strlen(t) + 2;
                    if (rc != 0 && strstr(err, t)) named++;
                    if (ml.moves[q].njumps == 1) single = q;
                }
            shorts++;
            bool ok;
            if (single >= 0) {
                /* "AxB" is then the full path of the single jump A x B */
                ok = rc == 0 && mg_move_equal(&got, &ml.moves[single]);
            } else if (same == 1) {
                ok = rc == 0 && mg_move_equal(&got, m);
            } else {
                /* all the candidates are named, as long as they fit in a
                 * one-line message */
                ambiguous++;
                ok = rc != 0 && strstr(err, "ambiguous") && (named == same || (textlen > 100 && named >= 2));
            }
            if (!ok && bad_short++ < 3)
                CHECK_MSG(false, "%s: short form '%s' of %s (%d such moves): %s", fen, sh, text, same,
                          rc ? err : "accepted");
        }
    }
    ref_stream_free(&s);
    if (getenv("KINGME_TEST_VERBOSE"))
        printf("  %ld moves, %ld short forms, %ld ambiguous\n", moves, shorts, ambiguous);
    CHECK_INT(bad_num, 0);
    CHECK_INT(bad_coord, 0);
    CHECK_INT(bad_short, 0);
    CHECK_MSG(moves > 5 * n && shorts > n / 20 && ambiguous > 0, "%ld moves, %ld short forms, %ld ambiguous",
              moves, shorts, ambiguous);
}

TEST(notation_move_onto_an_occupied_square_says_so)
{
    /* Black men on 1-11 and 14: 9's forward squares are 13 and 14, and 14
     * holds Black's own man, so 9-14 is refused because 14 is occupied;
     * 9-15 is no step at all. */
    CHECK_REFUSED("B:W21-32:B1-11,14", "9-14", "14 is occupied");
    CHECK_REFUSED("B:W21-32:B1-12", "9-15", "'9-15' is not a diagonal step");
    /* 12 is on the edge: its only step is 16; 17 is two files away */
    CHECK_REFUSED("B:W21-32:B1-12", "12-17", "'12-17' is not a diagonal step");
    CHECK_REFUSED("W:W21-32:B1-12", "21-15", "'21-15' is not a diagonal step");
    /* a man steps forward only; a king may go back */
    CHECK_REFUSED("B:W28:B14", "14-9", "'14-9' is illegal: a man moves forward only");
    CHECK_REFUSED("W:W14:B1", "14-18", "'14-18' is illegal: a man moves forward only");
    Board b;
    Move m;
    char err[KM_ERR_MAX];
    CHECK_INT(board_from_fen(&b, "B:W28:BK14", err), 0);
    CHECK_MSG(notation_parse_move(&b, "14-9", &m, err) == 0, "%s", err);
}
