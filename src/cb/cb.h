/* cb.h - kingme as a CheckerBoard engine: the two functions CheckerBoard
 * looks up by name in an engine DLL (GetProcAddress "getmove" and
 * "enginecommand"), and the types of its engine interface (protocol
 * version 2; docs/checkerboard.md).
 *
 * The interface as CheckerBoard defines it:
 * - the board is int board[x][y], x the column and y the row, 0..7; square n
 *   (1..32, the standard numbering) is at y = (n-1)/4, x = 2 * (3 - (n-1)%4)
 *   plus 1 on odd rows; each entry is CB_FREE or a colour or-ed with CB_MAN
 *   or CB_KING. Black (CB_BLACK) starts on squares 1-12 and moves first.
 * - getmove searches the position for color, writes the position after its
 *   move back into board, fills *move and returns CB_WIN, CB_LOSS, CB_DRAW or
 *   CB_UNKNOWN (what the engine expects of the game). maxtime is the time
 *   for the move in seconds, used on average; bit CB_EXACT_TIME of info asks
 *   for it exactly; bits 2-3 of info (a unit of 1, 10 or 100 ms) say that
 *   moreinfo holds a game clock: the time left in its upper 16 bits, the
 *   increment in its lower 16. *playnow turning non-zero asks for the move
 *   at once. str is the status line CheckerBoard shows while it searches.
 * - enginecommand answers a command in reply (at most 1024 bytes) and
 *   returns 1 when it handled it, 0 when not.
 * The functions are __stdcall, which 64-bit Windows ignores (it has one
 * calling convention), and exported undecorated (src/cb/kingme64.def).
 *
 * The adapter keeps one engine session (session.h) with its table from
 * call to call: the interface has no handle, so a loaded DLL is one engine.
 * It holds no search or evaluation of its own. Built natively too, so that
 * the tests call the same functions as CheckerBoard. */
#ifndef KINGME_CB_H
#define KINGME_CB_H

#define CB_FREE 0
#define CB_WHITE 1
#define CB_BLACK 2
#define CB_MAN 4
#define CB_KING 8

/* getmove's results */
#define CB_DRAW 0
#define CB_WIN 1
#define CB_LOSS 2
#define CB_UNKNOWN 3

/* getmove's info bits */
#define CB_RESET_MOVES 1
#define CB_EXACT_TIME 2
#define CB_INCR_TIME_SHIFT 2 /* bits 2-3: 0 no clock, 1/2/3: units of 0.001/0.01/0.1 s */

#define CB_GAMETYPE_ENGLISH 21
#define CB_PROTOCOL_VERSION 2
#define CB_REPLY_SIZE 1024
#define CB_STATUS_SIZE 1024

struct coor {
    int x;
    int y;
};

/* A move as CheckerBoard shows it: path[0] is the from square, path[1..]
 * the squares landed on (path[jumps] == to for a capture, path[1] == to for
 * a simple move); del[0..jumps-1] the captured pieces in path order, with
 * their types in delpiece; del[jumps].x is -1. */
struct CBmove {
    int jumps;
    int newpiece;
    int oldpiece;
    struct coor from;
    struct coor to;
    struct coor path[12];
    struct coor del[12];
    int delpiece[12];
};

#ifdef _WIN32
#define CB_CALL __stdcall
#else
#define CB_CALL
#endif

int CB_CALL getmove(int board[8][8], int color, double maxtime, char str[CB_STATUS_SIZE], int *playnow,
                    int info, int moreinfo, struct CBmove *move);
int CB_CALL enginecommand(const char *command, char reply[CB_REPLY_SIZE]);

/* Not exported: the search's limits that getmove makes of its time
 * arguments (a clock in moreinfo when info says so, else maxtime for the
 * move), for the tests. */
struct SessionGo;
void cb_time_limits(double maxtime, int info, int moreinfo, struct SessionGo *go);

#endif
