/* fuzz_fen.c - FEN: whatever board_from_fen accepts is written back by
 * board_to_fen as a FEN that reads as the same board and writes the same
 * text again (the written form is canonical). */
#include "fuzz.h"
#include "kingme/board.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    Board a, b;
    char err[KM_ERR_MAX], f1[256], f2[256];
    if (board_from_fen(&a, text, err) == 0) {
        board_to_fen(&a, f1, sizeof f1);
        FUZZ_CHECK(board_from_fen(&b, f1, err) == 0, "'%s' (from '%s') refused: %s", f1, text, err);
        FUZZ_CHECK(board_equal(&a, &b), "'%s' reads as another board than '%s'", f1, text);
        board_to_fen(&b, f2, sizeof f2);
        FUZZ_CHECK(strcmp(f1, f2) == 0, "'%s' written again as '%s'", f1, f2);
    } else {
        /* one line (a newline in the message only when the input has one) */
        FUZZ_CHECK(err[0] != '\0' && (!strchr(err, '\n') || strchr(text, '\n')), "refused with '%s'", err);
    }
    free(text);
    return 0;
}
