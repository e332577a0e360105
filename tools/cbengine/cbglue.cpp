// cbglue.cpp - cbengine.h for an engine compiled from its CheckerBoard
// source: its getmove and enginecommand are C++ functions (the DLL exports
// them by a .def file), reached here with the declarations CheckerBoard's
// cb_interface.h gives and handed on with C linkage.
#include "cbengine.h"

#include "cb_interface.h"

#include <stdio.h>
#include <string.h>

int WINAPI getmove(Board8x8 board, int color, double maxtime, char str[1024], int *playnow, int info,
                   int moreinfo, CBmove *move);
int WINAPI enginecommand(const char *command, char reply[ENGINECOMMAND_REPLY_SIZE]);

extern "C" int cbe_getmove(int board[8][8], int color, double maxtime, char status[CBE_STATUS_MAX],
                           int *playnow, int info, int moreinfo)
{
    CBmove move;
    memset(&move, 0, sizeof move);
    return getmove(board, color, maxtime, status, playnow, info, moreinfo, &move);
}

extern "C" void cbe_name(char *name, int len)
{
    char reply[ENGINECOMMAND_REPLY_SIZE] = "";
    if (len <= 0) return;
    if (enginecommand("name", reply) != 1) reply[0] = '\0';
    reply[sizeof reply - 1] = '\0';
    snprintf(name, (size_t)len, "%s", reply);
}
