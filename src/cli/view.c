/* view.c - drawing the board and the move list for `kingme play`.
 *
 * Each square is three columns wide and one line high. Fancy mode paints the
 * squares (buff and green, like a tournament board) and draws the pieces as
 * Unicode discs, filled for Black and hollow for White (so a copy without
 * colours still reads), a ringed disc for a king; the squares of the last move get their own
 * colour. Plain mode is ASCII only: b/w men, B/W kings, empty dark squares
 * show their number, and the last move is marked with brackets round the piece
 * that moved and a '*' after the numbers of the squares it left or passed. */
#include "view.h"

#include "kingme/notation.h"

#include <stdarg.h>
#include <string.h>

typedef struct Palette {
    const char *light, *dark, *from, *to; /* square backgrounds */
    const char *black, *white, *number;   /* foregrounds */
} Palette;

static const Palette pal256 = {
    "48;5;187", "48;5;65", "48;5;101", "48;5;136", "1;38;5;16", "1;38;5;231", "38;5;151",
};
static const Palette pal16 = {
    "47", "42", "46", "43", "1;30", "1;97", "37",
};

const char *view_sgr(const View *v, ViewStyle s)
{
    if (!v->fancy) return "";
    switch (s) {
    case VS_RESET:
        return "\033[0m";
    case VS_BOLD:
        return "\033[1m";
    case VS_DIM:
        return "\033[2m";
    case VS_ERROR:
        return "\033[31m";
    case VS_GOOD:
        return "\033[32m";
    }
    return "";
}

const char *view_legend(const View *v)
{
    return v->fancy ? "\u25CF \u25CB men  \u25C9 \u25CE kings" : "b w men, B W kings";
}

/* Squares the last move touched: its start, every landing square. */
static uint32_t move_squares(const Move *m)
{
    uint32_t s = 1u << m->from | 1u << m->to;
    for (int i = 0; i < m->njumps && i < MAX_JUMPS; i++) s |= 1u << m->path[i];
    return s;
}

/* A line being built; trailing blanks are cut before it is printed. */
typedef struct Line {
    char s[1024];
    size_t n;
} Line;

static void put(Line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Line *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(l->s + l->n, sizeof l->s - l->n, fmt, ap);
    va_end(ap);
    if (k > 0) l->n += (size_t)k;
    if (l->n >= sizeof l->s) l->n = sizeof l->s - 1;
}

static void end_line(FILE *f, Line *l)
{
    while (l->n > 0 && l->s[l->n - 1] == ' ') l->n--;
    l->s[l->n] = '\0';
    fprintf(f, "%s\n", l->s);
    l->n = 0;
}

static void cell(Line *l, const View *v, const Board *b, int row, int col, const Move *last)
{
    const Palette *p = v->c256 ? &pal256 : &pal16;
    bool dark = (row + col) % 2 == 1;
    if (!dark) {
        if (v->fancy) put(l, "\033[0;%sm   ", p->light);
        else put(l, "   ");
        return;
    }
    int i = row * 4 + col / 2;
    uint32_t m = 1u << i;
    int side = (b->pieces[KM_BLACK] & m) ? KM_BLACK : (b->pieces[KM_WHITE] & m) ? KM_WHITE : -1;
    bool king = (b->kings & m) != 0;
    bool is_to = last && last->to == i;
    bool marked = last && (move_squares(last) & m);
    if (v->fancy) {
        const char *bg = is_to ? p->to : marked ? p->from : p->dark;
        if (side < 0) put(l, "\033[0;%s;%sm%2d ", bg, p->number, i + 1);
        else
            put(l, "\033[0;%s;%sm %s ", bg, side == KM_BLACK ? p->black : p->white,
                side == KM_BLACK ? (king ? "\u25C9" : "\u25CF") : (king ? "\u25CE" : "\u25CB"));
        return;
    }
    if (side < 0) {
        put(l, "%2d%c", i + 1, marked ? '*' : ' ');
    } else {
        char c = side == KM_BLACK ? 'b' : 'w';
        if (king) c = (char)(c - 'a' + 'A');
        if (marked) put(l, "[%c]", c);
        else put(l, " %c ", c);
    }
}

void view_board(FILE *f, const View *v, const Board *b, const Move *last,
                const char *const panel[VIEW_PANEL_ROWS])
{
    Line l = {.n = 0};
    for (int dr = 0; dr < 8; dr++) {
        int row = v->black_bottom ? 7 - dr : dr;
        put(&l, "  %d ", 8 - row);
        for (int dc = 0; dc < 8; dc++) cell(&l, v, b, row, v->black_bottom ? 7 - dc : dc, last);
        if (v->fancy) put(&l, "\033[0m");
        if (panel && panel[dr] && panel[dr][0]) put(&l, "    %s", panel[dr]);
        end_line(f, &l);
    }
    put(&l, "    ");
    for (int dc = 0; dc < 8; dc++) put(&l, " %c ", 'a' + (v->black_bottom ? 7 - dc : dc));
    end_line(f, &l);
}

void view_move_list(FILE *f, const MoveList *ml, int indent, int width)
{
    char t[MOVE_TEXT_MAX];
    int longest = 0;
    for (int i = 0; i < ml->count; i++) {
        notation_move_to_text(&ml->moves[i], t);
        int n = (int)strlen(t);
        if (n > longest) longest = n;
    }
    /* "NN) " + the move + two spaces between columns */
    int numw = ml->count >= 10 ? 2 : 1;
    int colw = numw + 2 + longest + 2;
    int per_line = (width - indent) / colw;
    if (per_line < 1) per_line = 1;
    for (int i = 0; i < ml->count; i++) {
        notation_move_to_text(&ml->moves[i], t);
        if (i % per_line == 0) fprintf(f, "%*s", indent, "");
        bool end = (i % per_line == per_line - 1) || i == ml->count - 1;
        if (end) fprintf(f, "%*d) %s\n", numw, i + 1, t);
        else fprintf(f, "%*d) %-*s", numw, i + 1, longest + 2, t);
    }
}
