/* notation.c - reading and writing move text. */
#include "kingme/notation.h"
#include "kingme/textio.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void notation_move_to_text(const Move *m, char buf[MOVE_TEXT_MAX])
{
    int n = snprintf(buf, MOVE_TEXT_MAX, "%d", m->from + 1);
    if (m->njumps == 0) {
        snprintf(buf + n, (size_t)(MOVE_TEXT_MAX - n), "-%d", m->to + 1);
        return;
    }
    for (int i = 0; i < m->njumps && n < MOVE_TEXT_MAX; i++)
        n += snprintf(buf + n, (size_t)(MOVE_TEXT_MAX - n), "x%d", m->path[i] + 1);
}

size_t notation_moves_to_text(const Move *m, int n, char *buf, size_t len)
{
    size_t at = 0;
    if (len) buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        char t[MOVE_TEXT_MAX];
        notation_move_to_text(&m[i], t);
        size_t need = strlen(t) + (i ? 1 : 0), more = i + 1 < n ? 4 : 0;
        if (at + need + more >= len) {
            if (at + 4 < len) at += (size_t)snprintf(buf + at, len - at, " ...");
            return at;
        }
        at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? " " : "", t);
    }
    return at;
}

/* Squares of the text, in order; returns how many, or -1 if unreadable. */
static int read_squares(const char *text, int *sq, int max, bool *has_x, char *err)
{
    const char *p = text;
    int n = 0;
    *has_x = false;
    while (*p == ' ' || *p == '\t') p++;
    for (;;) {
        if (n == max) {
            snprintf(err, KM_ERR_MAX, "'%s' is too long for a move", text);
            return -1;
        }
        int s = 0;
        if (isdigit((unsigned char)*p)) {
            while (isdigit((unsigned char)*p) && s < 100) s = s * 10 + (*p++ - '0');
            if (s < 1 || s > 32) {
                snprintf(err, KM_ERR_MAX, "'%s': there is no square %d (squares are 1-32)", text, s);
                return -1;
            }
        } else if (isalpha((unsigned char)*p) && isdigit((unsigned char)p[1])) {
            s = board_square_from_coord(p[0], p[1]);
            if (!s || isdigit((unsigned char)p[2])) {
                snprintf(err, KM_ERR_MAX, "'%s': '%.2s' is not a dark square (a1-h8)", text, p);
                return -1;
            }
            p += 2;
        } else {
            snprintf(err, KM_ERR_MAX, "'%s' is not a move (write 11-15, 15x24x31 or c3-d4)", text);
            return -1;
        }
        sq[n++] = s - 1;
        if (*p == '-' || *p == 'x' || *p == 'X' || *p == ':') {
            if (*p != '-') *has_x = true;
            p++;
            continue;
        }
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
        if (*p) {
            snprintf(err, KM_ERR_MAX, "'%s' is not a move (unexpected '%c')", text, *p);
            return -1;
        }
        break;
    }
    if (n < 2) {
        snprintf(err, KM_ERR_MAX, "'%s' is not a move: give a start and an end square", text);
        return -1;
    }
    return n;
}

static bool matches(const Move *m, const int *sq, int n)
{
    if (m->from != sq[0]) return false;
    if (n == 2) return m->to == sq[1];
    if (m->njumps != n - 1) return false;
    for (int i = 1; i < n; i++)
        if (m->path[i - 1] != sq[i]) return false;
    return true;
}

static void list_moves(const MoveList *ml, const int *idx, int k, char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < k && n + MOVE_TEXT_MAX + 2 < len; i++) {
        char t[MOVE_TEXT_MAX];
        notation_move_to_text(&ml->moves[idx ? idx[i] : i], t);
        n += (size_t)snprintf(out + n, len - n, "%s%s", i ? ", " : "", t);
    }
}

/* Row (0: squares 1-4) and column (0-7) of square s (0-based), for the
 * shape of a move that is not legal. */
static void square_rc(int s, int *row, int *col)
{
    *row = s / 4;
    *col = 2 * (s % 4) + (*row % 2 == 0);
}

int notation_parse_move(const Board *b, const char *text, Move *out, char *err)
{
    int sq[MAX_JUMPS + 2];
    bool has_x;
    int n = read_squares(text, sq, MAX_JUMPS + 2, &has_x, err);
    if (n < 0) return -1;
    MoveList ml;
    mg_moves(b, &ml);
    int hit[MAX_MOVES], k = 0;
    for (int i = 0; i < ml.count; i++)
        if (matches(&ml.moves[i], sq, n)) hit[k++] = i;
    /* "18x27" is the full path of a single jump even when longer captures
     * (a king's loop) also go from 18 to 27: the exact path wins */
    if (k > 1 && n == 2)
        for (int i = 0; i < k; i++)
            if (ml.moves[hit[i]].njumps == 1) {
                hit[0] = hit[i];
                k = 1;
                break;
            }
    if (k == 1) {
        *out = ml.moves[hit[0]];
        return 0;
    }
    char list[160];
    if (k > 1) {
        list_moves(&ml, hit, k, list, sizeof list);
        snprintf(err, KM_ERR_MAX, "'%s' is ambiguous: it can be %s", text, list);
        return -1;
    }
    /* Say why it is illegal, in the terms a player would use. */
    uint32_t fm = 1u << sq[0];
    int side = b->stm;
    const char *who = side == KM_BLACK ? "Black" : "White";
    if (ml.count == 0) {
        snprintf(err, KM_ERR_MAX, "'%s': %s has no legal move", text, who);
    } else if (!(b->pieces[side] & fm)) {
        if (b->pieces[side ^ 1] & fm)
            snprintf(err, KM_ERR_MAX, "'%s': the piece on %d is not %s's", text, sq[0] + 1, who);
        else snprintf(err, KM_ERR_MAX, "'%s': there is no piece on %d", text, sq[0] + 1);
    } else if (ml.moves[0].njumps > 0) {
        list_moves(&ml, NULL, ml.count, list, sizeof list);
        snprintf(err, KM_ERR_MAX, "'%s' is illegal: a capture is compulsory (%s)", text, list);
    } else if (n == 2 && !has_x) {
        int r0, c0, r1, c1;
        square_rc(sq[0], &r0, &c0);
        square_rc(sq[1], &r1, &c1);
        bool man = !(b->kings & fm), forward = side == KM_BLACK ? r1 > r0 : r1 < r0;
        bool step = abs(r1 - r0) == 1 && abs(c1 - c0) == 1, jump = abs(r1 - r0) == 2 && abs(c1 - c0) == 2;
        if (!step && !jump) snprintf(err, KM_ERR_MAX, "'%s' is not a diagonal step", text);
        else if (jump)
            snprintf(err, KM_ERR_MAX, "'%s' is illegal for the piece on %d: there is nothing to jump", text,
                     sq[0] + 1);
        else if (man && !forward)
            snprintf(err, KM_ERR_MAX, "'%s' is illegal: a man moves forward only", text);
        else if (board_occupied(b) & (1u << sq[1]))
            snprintf(err, KM_ERR_MAX, "'%s' is illegal: %d is occupied", text, sq[1] + 1);
        else snprintf(err, KM_ERR_MAX, "'%s' is illegal for the piece on %d", text, sq[0] + 1);
    } else {
        snprintf(err, KM_ERR_MAX, "'%s' is illegal for the piece on %d", text, sq[0] + 1);
    }
    return -1;
}

int notation_parse_move_input(const Board *b, const char *text, Move *out, char *err)
{
    size_t n = strlen(text);
    bool digits = n > 0;
    for (size_t i = 0; i < n; i++) digits = digits && isdigit((unsigned char)text[i]);
    MoveList ml;
    if (digits) {
        mg_moves(b, &ml);
        long long k;
        if (!textio_parse_ll(text, 1, ml.count, &k)) {
            if (!ml.count) return km_fail(err, "no legal move here");
            return km_fail(err, "there is no move %.12s%s in the list: choose 1 to %d", text,
                           n > 12 ? "..." : "", ml.count);
        }
        *out = ml.moves[k - 1];
        return 0;
    }
    /* "11 - 15": the spaces are forgiven; the message quotes what was typed */
    char compact[128];
    size_t at = 0;
    for (size_t i = 0; i < n && at + 1 < sizeof compact; i++)
        if (!isspace((unsigned char)text[i])) compact[at++] = text[i];
    compact[at] = '\0';
    if (notation_parse_move(b, compact, out, err) == 0) return 0;
    return notation_parse_move(b, text, out, err);
}
