/* cb_first.c - a stand-in CheckerBoard engine for tools/cbengine
 * (cbengine.h), for the tests (test_cbengine.c): on CheckerBoard's board,
 * knowing nothing of kingme, it plays the first legal move it finds,
 * scanning rows y = 0..7 (from Black's side), in each the columns x = 0..7
 * (from Black's left), for each piece the directions (+1,+1), (-1,+1),
 * (+1,-1), (-1,-1); a capture when there is one, its jumps continued the
 * same way until none is left or a man is crowned. CB_FIRST_BROKEN in the
 * environment makes it misbehave, as an engine's bug would: "stay" leaves
 * the board as it was, "step" steps even when a capture is compulsory,
 * "extra" steps and puts a man of its own on the first empty square too. */
#include "cbengine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FREE 0
#define WHITE 1
#define BLACK 2
#define MAN 4
#define KING 8
#define TAKEN 16 /* a piece jumped, off the board at the end of the move */

static const int dirs[4][2] = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}};

static int on(int x, int y) { return x >= 0 && x < 8 && y >= 0 && y < 8; }

/* May the piece p go in direction d? Men go forward: Black up, White down. */
static int goes(int p, int d)
{
    if (p & KING) return 1;
    return (p & BLACK) ? dirs[d][1] > 0 : dirs[d][1] < 0;
}

static int can_jump(int b[8][8], int x, int y, int d)
{
    int p = b[x][y], mx = x + dirs[d][0], my = y + dirs[d][1], tx = x + 2 * dirs[d][0],
        ty = y + 2 * dirs[d][1];
    int enemy = (p & BLACK) ? WHITE : BLACK;
    return goes(p, d) && on(tx, ty) && (b[mx][my] & enemy) && !(b[mx][my] & TAKEN) && b[tx][ty] == FREE;
}

/* Move the piece on (x, y) to (tx, ty), crowned on the far row; 1 when a
 * man was crowned there. */
static int step(int b[8][8], int x, int y, int tx, int ty)
{
    int p = b[x][y];
    b[x][y] = FREE;
    int crowned = !(p & KING) && ty == ((p & BLACK) ? 7 : 0);
    b[tx][ty] = crowned ? (p & (BLACK | WHITE)) | KING : p;
    return crowned;
}

static int first_capture(int b[8][8], int color)
{
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            if (!(b[x][y] & color)) continue;
            for (int d = 0; d < 4; d++) {
                if (!can_jump(b, x, y, d)) continue;
                int cx = x, cy = y, e = d;
                for (;;) { /* jump in direction e, then the first one left */
                    b[cx + dirs[e][0]][cy + dirs[e][1]] |= TAKEN;
                    int nx = cx + 2 * dirs[e][0], ny = cy + 2 * dirs[e][1];
                    int crowned = step(b, cx, cy, nx, ny);
                    cx = nx, cy = ny;
                    if (crowned) break;
                    for (e = 0; e < 4 && !can_jump(b, cx, cy, e); e++) continue;
                    if (e == 4) break;
                }
                for (int i = 0; i < 8; i++)
                    for (int j = 0; j < 8; j++)
                        if (b[i][j] & TAKEN) b[i][j] = FREE;
                return 1;
            }
        }
    return 0;
}

static int first_step(int b[8][8], int color)
{
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            if (!(b[x][y] & color)) continue;
            for (int d = 0; d < 4; d++) {
                int tx = x + dirs[d][0], ty = y + dirs[d][1];
                if (goes(b[x][y], d) && on(tx, ty) && b[tx][ty] == FREE) {
                    step(b, x, y, tx, ty);
                    return 1;
                }
            }
        }
    return 0;
}

int cbe_getmove(int board[8][8], int color, double maxtime, char status[CBE_STATUS_MAX], int *playnow,
                int info, int moreinfo)
{
    (void)maxtime, (void)playnow;
    const char *broken = getenv("CB_FIRST_BROKEN");
    broken = broken ? broken : "";
    int moved = 0;
    if (strcmp(broken, "stay") == 0) {
        moved = 0;
    } else if (strcmp(broken, "step") == 0) {
        moved = first_step(board, color);
    } else if (strcmp(broken, "extra") == 0) {
        moved = first_step(board, color);
        for (int y = 0, done = 0; y < 8 && !done; y++)
            for (int x = (y & 1); x < 8 && !done; x += 2)
                if (board[x][y] == FREE) board[x][y] = color | MAN, done = 1;
    } else {
        moved = first_capture(board, color) || first_step(board, color);
    }
    snprintf(status, CBE_STATUS_MAX, "first legal move%s, clock bits %d, %d", moved ? "" : ": none", info,
             moreinfo);
    return 3; /* CB_UNKNOWN */
}

void cbe_name(char *name, int len) { snprintf(name, (size_t)len, "First Legal Move"); }
