/* fuzz_move.c - move text: the first line of the input picks a position
 * (a FEN when it is one, else one of a few positions rich in captures), the
 * rest is move text. A move notation_parse_move accepts is legal (in mg_moves' list),
 * and its text (notation_move_to_text) parses back to the same move; the same holds
 * for notation_parse_move_input (which also takes a number in the list). */
#include "fuzz.h"
#include "kingme/board.h"
#include "kingme/movegen.h"
#include "kingme/notation.h"

static const char *const positions[] = {
    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "B:W14,15,22,23:BK10", /* a king's loop: two paths, one captured set */
    "B:W10,19:B6",         /* a double jump */
    "W:WK3,19,22,23:B12,K28,14,15",
    "W:WK32:BK1,K2",
    "B:W6,7,14,15,22,23:BK1,K10", /* kings with many jumps */
};

static void check(const Board *b, const char *text, int (*parse)(const Board *, const char *, Move *, char *))
{
    Move m, m2;
    char err[KM_ERR_MAX], t[MOVE_TEXT_MAX];
    if (parse(b, text, &m, err) != 0) {
        FUZZ_CHECK(err[0] != '\0' && (!strchr(err, '\n') || strchr(text, '\n')), "'%s' refused with '%s'",
                   text, err);
        return;
    }
    MoveList ml;
    mg_moves(b, &ml);
    bool legal = false;
    for (int i = 0; i < ml.count; i++) legal = legal || mg_move_equal(&ml.moves[i], &m);
    FUZZ_CHECK(legal, "'%s' gave a move that is not legal", text);
    notation_move_to_text(&m, t);
    FUZZ_CHECK(notation_parse_move(b, t, &m2, err) == 0, "'%s' (the text of '%s') refused: %s", t, text, err);
    FUZZ_CHECK(mg_move_equal(&m, &m2), "'%s' (the text of '%s') is another move", t, text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char *nl = strchr(text, '\n');
    const char *move = text;
    Board b;
    char err[KM_ERR_MAX];
    if (nl) {
        *nl = '\0';
        move = nl + 1;
        if (board_from_fen(&b, text, err) != 0)
            board_from_fen(&b, positions[(unsigned char)text[0] % (sizeof positions / sizeof *positions)],
                           err);
    } else {
        board_from_fen(&b, positions[size % (sizeof positions / sizeof *positions)], err);
    }
    check(&b, move, notation_parse_move);
    check(&b, move, notation_parse_move_input);
    free(text);
    return 0;
}
