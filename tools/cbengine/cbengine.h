/* cbengine.h - the CheckerBoard engine linked into cbengine.c, as the
 * adapter calls it (C linkage). cbglue.cpp defines these for an engine
 * built from its CheckerBoard source (its getmove and enginecommand are
 * C++ functions); a stand-in engine may define them directly in C. */
#ifndef CBENGINE_H
#define CBENGINE_H

#define CBE_STATUS_MAX 1024 /* the status line getmove may write (CheckerBoard's size) */

#ifdef __cplusplus
extern "C" {
#endif

/* CheckerBoard's getmove (cb_interface.h): board[x][y] with x the column
 * from Black's left and y the row from Black's side, pieces CB_BLACK 2 /
 * CB_WHITE 1 with CB_MAN 4 / CB_KING 8; color the side to move; maxtime
 * seconds; info and moreinfo the incremental clock. The engine's move is
 * left in board. Returns CB_WIN 1, CB_LOSS 2, CB_DRAW 0 or CB_UNKNOWN 3. */
int cbe_getmove(int board[8][8], int color, double maxtime, char status[CBE_STATUS_MAX], int *playnow,
                int info, int moreinfo);

/* The engine's answer to CheckerBoard's enginecommand "name" in name
 * (len bytes), or "" when it gives none. */
void cbe_name(char *name, int len);

#ifdef __cplusplus
}
#endif

#endif
