/* view.h - how `kingme play` draws a game in a terminal: the board (Unicode
 * pieces and ANSI colours, or plain ASCII), the numbered move list, and the
 * few escape sequences the dialogue uses. Only the front end prints. */
#ifndef KINGME_CLI_VIEW_H
#define KINGME_CLI_VIEW_H

#include "kingme/movegen.h"

#include <stdbool.h>
#include <stdio.h>

#define VIEW_PANEL_ROWS 8   /* one text line beside each row of the board */
#define VIEW_PANEL_WIDTH 48 /* its columns: the board and its margin take 32 of 80 */

typedef struct View {
    bool fancy;        /* Unicode pieces and colours (a colour terminal) */
    bool c256;         /* the 256-colour palette (else the 16 basic colours) */
    bool black_bottom; /* Black's side at the bottom (the board seen by Black) */
} View;

/* Colours and styles for the dialogue; empty strings when not fancy. */
typedef enum ViewStyle { VS_RESET, VS_BOLD, VS_DIM, VS_ERROR, VS_GOOD } ViewStyle;
const char *view_sgr(const View *v, ViewStyle s);

/* The board with rank and file labels, the squares of `last` (NULL: none)
 * marked, and panel[r] (may be NULL) printed beside display row r. */
void view_board(FILE *f, const View *v, const Board *b, const Move *last,
                const char *const panel[VIEW_PANEL_ROWS]);

/* "1) 11-15  2) 11-16 ..." in aligned columns, wrapped under `width`
 * columns, every line starting with `indent` spaces. */
void view_move_list(FILE *f, const MoveList *ml, int indent, int width);

/* A short legend for the pieces: "● ○ men  ◉ ◎ kings" or "b w men, B W kings". */
const char *view_legend(const View *v);

#endif
