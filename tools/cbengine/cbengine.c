/* cbengine.c - a CheckerBoard engine (its getmove, linked in: cbengine.h)
 * as a program speaking kingme's engine protocol (docs/engine-protocol.md),
 * so that `kingme match` can play it (tools/opponents.sh builds Martin
 * Fierz's Simple Checkers with it: docs/opponents.md).
 *
 * kingme's library keeps the position, reads the moves of `position` and
 * writes the `bestmove`; the engine sees only CheckerBoard's board. Its
 * move is found back as the one legal move whose result is the board
 * getmove left; a board no legal move gives is answered with the move it
 * shows (`bestmove 2-6` where a capture is compulsory, `bestmove none`
 * when the board is unchanged), which the referee refuses as an illegal
 * move: the engine's own mistake, not the adapter's.
 *
 * The commands: hello, isready, newgame, position, go (movetime MS;
 * btime/wtime/binc/winc as CheckerBoard's incremental clock, less 20 ms
 * for the pipe; depth D as D tenths of a second, an engine with no depth
 * limit; a bare go one second), fen, moves, option seed|hash (accepted,
 * nothing to set), stop (nothing runs: go answers when the engine has
 * moved), quit.
 * Anything else is answered with one line `error ...`. */
#include "cbengine.h"
#include "kingme/board.h"
#include "kingme/engine.h"
#include "kingme/movegen.h"
#include "kingme/notation.h"
#include "kingme/textio.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CheckerBoard's pieces and clock bits (its cb_interface.h) */
#define CB_FREE 0
#define CB_WHITE 1
#define CB_BLACK 2
#define CB_MAN 4
#define CB_KING 8
#define CB_INCR_TIME_SHIFT 2

#define MAX_TOKENS 4096
#define DEPTH_SECONDS 0.1 /* go depth D: D times this (the engine has no depth limit) */
#define BARE_GO_SECONDS 1.0
/* On a clock the engine is told this much less than the referee counts
 * (at most a tenth of it): CheckerBoard times getmove in its own process,
 * the referee times the pipe and the process switches too, which an engine
 * that plans to the last few milliseconds (Simple Checkers keeps 3 ms)
 * does not know of. */
#define PIPE_RESERVE_MS 20

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

/* ---- the board -------------------------------------------------------------------- */

/* Square index 0..31 (square number - 1) to CheckerBoard's board[x][y]: y
 * the row from Black's side (squares 1-4 on row 0), x the column from
 * Black's left, square 1 at x 6 (as src/cb/cb.c maps them). */
static int *cb_cell(int board[8][8], int sq)
{
    int y = sq / 4;
    return &board[2 * (3 - sq % 4) + (y & 1)][y];
}

static void board_to_cb(const Board *b, int board[8][8])
{
    memset(board, 0, 64 * sizeof(int));
    for (int sq = 0; sq < 32; sq++) {
        uint32_t m = 1u << sq;
        int colour = b->pieces[KM_BLACK] & m ? CB_BLACK : b->pieces[KM_WHITE] & m ? CB_WHITE : 0;
        *cb_cell(board, sq) = colour ? colour | (b->kings & m ? CB_KING : CB_MAN) : CB_FREE;
    }
}

/* What the engine did when its board is no legal move's result, read off
 * the board as a move text for the referee to judge ("2-6": a step where a
 * capture is compulsory): the one square the mover's piece left, the one
 * it reached, 'x' when the other side lost a piece. "none" when the board
 * is unchanged; false when the change is no single piece's move. */
static bool cb_move_text(int before[8][8], int after[8][8], int mover, char *out, size_t len)
{
    int from = -1, to = -1, nfrom = 0, nto = 0;
    bool took = false, changed = false, odd = false;
    for (int sq = 0; sq < 32; sq++) {
        int a = *cb_cell(before, sq), b = *cb_cell(after, sq);
        if (a == b) continue;
        changed = true;
        if ((a & mover) && !(b & mover)) from = sq, nfrom++;
        if ((b & mover) && !(a & mover)) to = sq, nto++;
        if (a != CB_FREE && !(a & mover)) {
            if (b == CB_FREE) took = true;
            else if (!(b & mover)) odd = true; /* the other side's piece changed in place */
        }
    }
    if (!changed) {
        snprintf(out, len, "none");
        return true;
    }
    if (odd || nfrom != 1 || nto != 1) return false;
    snprintf(out, len, "%d%c%d", from + 1, took ? 'x' : '-', to + 1);
    return true;
}

/* ---- the commands ----------------------------------------------------------------- */

static Board pos; /* the position of the last good `position` */

static void cmd_position(char **tok, int n)
{
    char err[KM_ERR_MAX];
    Board b;
    int first;
    if (engine_parse_position(tok, n, &b, &first, err)) {
        say("error %s", err);
        return;
    }
    for (int i = first; i < n; i++) {
        Move m;
        if (notation_parse_move_input(&b, tok[i], &m, err)) {
            say("error position: %s", err);
            return;
        }
        mg_make_move(&b, &m);
    }
    pos = b;
}

/* The `go` limits as getmove's: maxtime, and the clock in info/moreinfo
 * (CheckerBoard's incremental time: remaining and increment in the upper
 * and lower 16 bits, in the finest of 0.001, 0.01 or 0.1 s that holds
 * both). 0, or -1 after an error line. */
static int go_limits(char **tok, int n, double *maxtime, int *info, int *moreinfo)
{
    long long ms[5] = {-1, -1, -1, -1, -1}; /* btime wtime binc winc movetime */
    static const char *const msname[5] = {"btime", "wtime", "binc", "winc", "movetime"};
    long long depth = 0, togo;
    for (int i = 1; i < n; i++) {
        int k = 0;
        while (k < 5 && strcmp(tok[i], msname[k]) != 0) k++;
        if (k < 5) {
            if (i + 1 >= n || !textio_parse_ll(tok[i + 1], 0, 1000000000, &ms[k])) {
                say("error go: %s needs a whole number of milliseconds", tok[i]);
                return -1;
            }
            i++;
        } else if (strcmp(tok[i], "depth") == 0) {
            if (i + 1 >= n || !textio_parse_ll(tok[i + 1], 1, 100, &depth)) {
                say("error go: depth needs a number from 1 to 100");
                return -1;
            }
            i++;
        } else if (strcmp(tok[i], "movestogo") == 0) {
            /* CheckerBoard's clock has no moves to go: read, not used */
            if (i + 1 >= n || !textio_parse_ll(tok[i + 1], 1, 1000, &togo)) {
                say("error go: movestogo needs a number from 1 to 1000");
                return -1;
            }
            (void)togo;
            i++;
        } else {
            say("error go: '%s' is not a limit a CheckerBoard engine takes (movetime, depth, btime, wtime, "
                "binc, winc, movestogo)",
                tok[i]);
            return -1;
        }
    }
    *info = 0;
    *moreinfo = 0;
    long long left = pos.stm == KM_BLACK ? ms[0] : ms[1], inc = pos.stm == KM_BLACK ? ms[2] : ms[3];
    if (ms[0] >= 0 || ms[1] >= 0) {
        if (left < 0) {
            say("error go: the clock of the side to move (%s) is missing",
                pos.stm == KM_BLACK ? "btime" : "wtime");
            return -1;
        }
        if (inc < 0) inc = 0;
        left -= left / 10 < PIPE_RESERVE_MS ? left / 10 : PIPE_RESERVE_MS;
        int mode = 1;
        long long unit = 1; /* ms */
        while (mode < 3 && (left / unit > 0xffff || inc / unit > 0xffff)) mode++, unit *= 10;
        long long l = left / unit > 0xffff ? 0xffff : left / unit,
                  c = inc / unit > 0xffff ? 0xffff : inc / unit;
        *info = mode << CB_INCR_TIME_SHIFT;
        *moreinfo = (int)(uint32_t)((uint32_t)l << 16 | (uint32_t)c);
        *maxtime = left / 1000.0 / 30; /* not read by an engine that reads the clock */
    } else if (ms[2] >= 0 || ms[3] >= 0) {
        say("error go: binc and winc go with btime and wtime");
        return -1;
    } else if (ms[4] >= 0) {
        *maxtime = ms[4] > 0 ? ms[4] / 1000.0 : 0.001;
    } else if (depth) {
        *maxtime = depth * DEPTH_SECONDS;
    } else {
        *maxtime = BARE_GO_SECONDS;
    }
    return 0;
}

static void cmd_go(char **tok, int n)
{
    double maxtime;
    int info, moreinfo;
    if (go_limits(tok, n, &maxtime, &info, &moreinfo)) return;
    MoveList ml;
    mg_moves(&pos, &ml);
    if (ml.count == 0) {
        say("bestmove none");
        return;
    }
    int board[8][8], before[8][8], after[8][8];
    board_to_cb(&pos, board);
    memcpy(before, board, sizeof before);
    char status[CBE_STATUS_MAX];
    status[0] = '\0';
    int playnow = 0;
    cbe_getmove(board, pos.stm == KM_BLACK ? CB_BLACK : CB_WHITE, maxtime, status, &playnow, info, moreinfo);
    status[CBE_STATUS_MAX - 1] = '\0';
    /* the status line as an info line: one line, printable */
    for (char *p = status; *p; p++)
        if ((unsigned char)*p < ' ' || (unsigned char)*p > '~') *p = ' ';
    if (status[0]) say("info string %.400s", status);
    for (int i = 0; i < ml.count; i++) {
        Board b = pos;
        mg_make_move(&b, &ml.moves[i]);
        board_to_cb(&b, after);
        if (memcmp(board, after, sizeof after) == 0) {
            char t[MOVE_TEXT_MAX];
            notation_move_to_text(&ml.moves[i], t);
            say("bestmove %s", t);
            return;
        }
    }
    /* no legal move gives the engine's board: its move as the board shows
     * it, which the referee refuses as an illegal move */
    char t[32];
    if (cb_move_text(before, board, pos.stm == KM_BLACK ? CB_BLACK : CB_WHITE, t, sizeof t)) {
        say("info string the engine's board is the result of no legal move");
        say("bestmove %s", t);
    } else {
        say("error go: the engine left a board no legal move gives");
    }
}

static void cmd_option(char **tok, int n)
{
    if (n != 3) {
        say("error option: expected 'option NAME VALUE'");
        return;
    }
    long long v;
    if (strcmp(tok[1], "seed") == 0) {
        if (!textio_parse_ll(tok[2], 0, INT64_MAX, &v))
            say("error option seed: a whole number from 0, not '%s'", tok[2]);
    } else if (strcmp(tok[1], "hash") == 0) {
        if (!textio_parse_ll(tok[2], 0, 1 << 20, &v))
            say("error option hash: a size in MB from 0 to %d, not '%s'", 1 << 20, tok[2]);
    } else {
        say("error option %s: a CheckerBoard engine takes only seed and hash (and uses neither)", tok[1]);
    }
}

int main(void)
{
    char name[256];
    cbe_name(name, sizeof name);
    for (char *p = name; *p; p++)
        if ((unsigned char)*p < ' ') *p = ' ';
    board_init(&pos);
    char *line = NULL;
    size_t cap = 0;
    static char *tok[MAX_TOKENS];
    while (getline(&line, &cap, stdin) >= 0) {
        int n = 0;
        char *save = NULL;
        for (char *t = strtok_r(line, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
            if (n == MAX_TOKENS) break;
            tok[n++] = t;
        }
        if (n == MAX_TOKENS) {
            say("error the line has more than %d words", MAX_TOKENS - 1);
            continue;
        }
        if (n == 0) continue;
        const char *c = tok[0];
        if (strcmp(c, "quit") == 0) break;
        if (strcmp(c, "hello") == 0) say("hello %s protocol 1", name[0] ? name : "cbengine");
        else if (strcmp(c, "isready") == 0) say("readyok");
        else if (strcmp(c, "newgame") == 0) board_init(&pos); /* the engine keeps nothing between moves */
        else if (strcmp(c, "position") == 0) cmd_position(tok, n);
        else if (strcmp(c, "go") == 0) cmd_go(tok, n);
        else if (strcmp(c, "stop") == 0) continue; /* go has answered already */
        else if (strcmp(c, "option") == 0) cmd_option(tok, n);
        else if (strcmp(c, "fen") == 0) {
            char fen[128];
            board_to_fen(&pos, fen, sizeof fen);
            say("fen %s", fen);
        } else if (strcmp(c, "moves") == 0) {
            MoveList ml;
            mg_moves(&pos, &ml);
            static char text[MAX_MOVES * MOVE_TEXT_MAX];
            notation_moves_to_text(ml.moves, ml.count, text, sizeof text);
            say("moves %s", ml.count ? text : "none");
        } else say("error unknown command '%.60s'", c);
    }
    free(line);
    return 0;
}
