/* notation.h - move text: 11-15, 15x24, 15x24x31, short 15x31, c3-d4. */
#ifndef KINGME_NOTATION_H
#define KINGME_NOTATION_H

#include "kingme/movegen.h"

#define MOVE_TEXT_MAX 48 /* longest text: 12 jumps "nn" + 'x' each, plus NUL */

/* Full path notation with square numbers: "11-15", "15x24x31". */
void notation_move_to_text(const Move *m, char buf[MOVE_TEXT_MAX]);

/* A line of n moves, "11-15 23-19 8-11", into buf (len bytes): as many
 * whole moves as fit, then " ..." when the rest do not. Returns the length
 * written. The one way every command and protocol writes a line. */
size_t notation_moves_to_text(const Move *m, int n, char *buf, size_t len);

/* Resolve text against the legal moves of b. Accepted: square numbers or
 * coordinates (c3), separated by '-' or 'x'; the full jump path, or just the
 * first and last square when exactly one legal move matches. Returns 0 and
 * fills *out, or -1 with a one-line message in err (KM_ERR_MAX bytes):
 * unreadable text, an illegal move (saying why), or an ambiguous short form
 * (listing the candidates). */
int notation_parse_move(const Board *b, const char *text, Move *out, char *err);

/* A move as a person or a program types it (the play prompt, the engine
 * protocol): a number alone is the move of that number (1-based) in the
 * generated list (`moves` shows it); anything else is notation_parse_move's text,
 * spaces inside forgiven ("11 - 15"). Returns 0, or -1 with a message. */
int notation_parse_move_input(const Board *b, const char *text, Move *out, char *err);

#endif
