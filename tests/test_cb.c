/* test_cb.c - the CheckerBoard engine's two functions (src/cb/), built
 * natively and called as CheckerBoard calls them: its 8x8 boards and
 * colours, every time mode, playnow, set gamehist, the endgame database,
 * a whole game of the engine against itself with every move checked legal;
 * and that the DLL's sources still compile for Windows (make dll-check).
 * The real DLL under Wine: make test-dll (tests/cb/). */
#include "../src/cb/cb.h"
#include "kingme/book.h"
#include "kingme/egdb.h"
#include "kingme/egdb_build.h"
#include "kingme/game.h"
#include "kingme/movegen.h"
#include "kingme/notation.h"
#include "kingme/session.h"
#include "test.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- CheckerBoard's side: its numbering rule, its boards ---- */

static void coor_of(int number, int *x, int *y)
{
    number--;
    *y = number / 4;
    *x = 2 * (3 - number % 4) + (*y % 2);
}

static void to_cb(const Board *b, int board[8][8])
{
    memset(board, 0, 64 * sizeof(int));
    for (int n = 1; n <= 32; n++) {
        int x, y;
        coor_of(n, &x, &y);
        uint32_t m = SQ(n);
        if (b->pieces[KM_BLACK] & m) board[x][y] = CB_BLACK | (b->kings & m ? CB_KING : CB_MAN);
        if (b->pieces[KM_WHITE] & m) board[x][y] = CB_WHITE | (b->kings & m ? CB_KING : CB_MAN);
    }
}

static int color_of(const Board *b) { return b->stm == KM_BLACK ? CB_BLACK : CB_WHITE; }

static int piece_on(const int board[8][8], int number)
{
    int x, y;
    coor_of(number, &x, &y);
    return board[x][y];
}

/* Whether mv describes m on b as CheckerBoard describes moves: from, to,
 * the landing squares, the captured squares and pieces, the piece before
 * and after. */
static bool cbmove_is(const struct CBmove *mv, const Board *b, const Move *m)
{
    int before[8][8], after[8][8];
    Board c = *b;
    mg_make_move(&c, m);
    to_cb(b, before);
    to_cb(&c, after);
    int x, y;
    coor_of(m->from + 1, &x, &y);
    if (mv->from.x != x || mv->from.y != y || mv->path[0].x != x || mv->path[0].y != y) return false;
    coor_of(m->to + 1, &x, &y);
    if (mv->to.x != x || mv->to.y != y) return false;
    if (mv->jumps != m->njumps) return false;
    if (mv->oldpiece != piece_on(before, m->from + 1) || mv->newpiece != piece_on(after, m->to + 1))
        return false;
    if (m->njumps == 0) return mv->path[1].x == x && mv->path[1].y == y && mv->del[0].x == -1;
    uint32_t taken = 0;
    for (int i = 0; i < m->njumps; i++) {
        coor_of(m->path[i] + 1, &x, &y);
        if (mv->path[i + 1].x != x || mv->path[i + 1].y != y) return false;
        int n = 4 * mv->del[i].y + 4 - mv->del[i].x / 2; /* the interface's number of a coordinate */
        if (n < 1 || n > 32 || mv->delpiece[i] != piece_on(before, n)) return false;
        taken |= SQ(n);
    }
    return taken == m->captured && (m->njumps == 12 || mv->del[m->njumps].x == -1);
}

typedef struct Asked {
    int result;
    int move; /* index in ml of the legal move played, -1: none matches */
    MoveList ml;
    int board[8][8];
    char status[CB_STATUS_SIZE];
} Asked;

static void ask(Asked *a, const Board *b, double maxtime, int info, int moreinfo, int *playnow)
{
    struct CBmove mv;
    int zero = 0;
    to_cb(b, a->board);
    strcpy(a->status, "untouched");
    memset(&mv, 0x55, sizeof mv);
    a->result =
        getmove(a->board, color_of(b), maxtime, a->status, playnow ? playnow : &zero, info, moreinfo, &mv);
    mg_moves(b, &a->ml);
    a->move = -1;
    for (int i = 0; i < a->ml.count && a->move < 0; i++) {
        Board c = *b;
        mg_make_move(&c, &a->ml.moves[i]);
        int cb[8][8];
        to_cb(&c, cb);
        if (memcmp(cb, a->board, sizeof cb) == 0 && cbmove_is(&mv, b, &a->ml.moves[i])) a->move = i;
    }
}

static int cmd(const char *command, char reply[CB_REPLY_SIZE])
{
    memset(reply, 'x', CB_REPLY_SIZE);
    return enginecommand(command, reply);
}

static Board fen(const char *text)
{
    Board b;
    char err[KM_ERR_MAX];
    if (board_from_fen(&b, text, err)) test_fail(__FILE__, __LINE__, "%s: %s", text, err);
    return b;
}

/* ---- the tests ---- */

/* The library and the adapter compile with mingw-w64 as make dll builds
 * them (a POSIX-only call in a portable module fails here), when the
 * cross-compiler is installed. */
TEST(cb_sources_compile_for_windows)
{
    static char out[1 << 16];
    if (test_run("command -v x86_64-w64-mingw32-gcc >/dev/null", out, sizeof out) != 0) {
        test_skip("x86_64-w64-mingw32-gcc is not installed (apt-get install gcc-mingw-w64-x86-64)");
        return;
    }
    /* a make of its own, not the job server of a make test around it */
    int rc = test_run("MAKEFLAGS= MAKELEVEL= make -s dll-check", out, sizeof out);
    CHECK_MSG(rc == 0, "make dll-check failed:\n%.2000s", out);
}

TEST(cb_commands)
{
    char r[CB_REPLY_SIZE];
    /* the table a new engine has, as its Options dialog shows it (the
     * first test that makes the engine) */
    CHECK_INT(cmd("get hashsize", r), 1);
    CHECK_STR(r, "64");
    CHECK_INT(cmd("about", r), 1);
    CHECK_MSG(strstr(r, "hash table: 64 MB\n") != NULL, "%s", r);
    CHECK_INT(cmd("set hashsize 128", r), 1);
    CHECK_STR(r, "hashsize 128");
    CHECK_INT(cmd("get hashsize", r), 1);
    CHECK_STR(r, "128");
    CHECK_INT(cmd("about", r), 1);
    CHECK_MSG(strstr(r, "hash table: 128 MB\n") != NULL, "%s", r);
    CHECK_INT(cmd("name", r), 1);
    CHECK_STR(r, "kingme " KINGME_VERSION);
    CHECK_INT(cmd("get protocolversion", r), 1);
    CHECK_STR(r, "2");
    CHECK_INT(cmd("get gametype", r), 1);
    CHECK_STR(r, "21");
    CHECK_INT(cmd("help", r), 1);
    CHECK_STR(r, "kingme.htm");
    CHECK_INT(cmd("set hashsize 8", r), 1);
    CHECK_STR(r, "hashsize 8");
    CHECK_INT(cmd("get hashsize", r), 1);
    CHECK_STR(r, "8");
    CHECK_INT(cmd("set hashsize lots", r), 0);
    CHECK_STR(r, "hashsize: a size in MB from 0 to 65536, not 'lots'");
    CHECK_INT(cmd("get hashsize", r), 1);
    CHECK_STR(r, "8");
    CHECK_INT(cmd("set searchthreads 2", r), 1);
    CHECK_INT(cmd("get searchthreads", r), 1);
    CHECK_STR(r, "2");
    CHECK_INT(cmd("set searchthreads 0", r), 0);
    CHECK_INT(cmd("set searchthreads 1", r), 1);
    CHECK_INT(cmd("set solve 1", r), 1);
    CHECK_INT(cmd("get solve", r), 1);
    CHECK_STR(r, "1");
    CHECK_INT(cmd("about", r), 1);
    CHECK_MSG(strstr(r, "kingme " KINGME_VERSION "\n") == r && strstr(r, "hash table: 8 MB\n") &&
                  strstr(r, "search: exact (solve)\n") && strstr(r, "endgame database: none"),
              "%s", r);
    CHECK_INT(cmd("set solve 0", r), 1);
    /* what kingme does not do: 0, and "?" for CheckerBoard's settings (it
     * greys them out) */
    CHECK_INT(cmd("get allscores", r), 1);
    CHECK_STR(r, "0");
    CHECK_INT(cmd("get enable_mtc", r), 0);
    CHECK_STR(r, "?");
    CHECK_INT(cmd("get mtcpath", r), 0);
    CHECK_STR(r, "?");
    CHECK_INT(cmd("set enable_mtc 1", r), 0);
    CHECK_STR(r, "?");
    CHECK_INT(cmd("set check_mtc_dir C:\\db", r), 0);
    CHECK_STR(r, "?");
    CHECK_INT(cmd("get movelist B:W1:B", r), 0);
    CHECK_INT(cmd("frobnicate now", r), 0);
    CHECK_STR(r, "kingme does not support 'frobnicate'");
    CHECK_INT(cmd("", r), 0);
    CHECK_INT(cmd("staticevaluation B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", r),
              1);
    CHECK_MSG(strncmp(r, "kingme's static evaluation: ", 28) == 0 && strstr(r, " for Black"), "%s", r);
    CHECK_INT(cmd("staticevaluation B:W99", r), 0);
    CHECK_MSG(strncmp(r, "staticevaluation: ", 18) == 0, "%s", r);
    /* a reply never runs past the 1024 bytes */
    char long_cmd[4000];
    snprintf(long_cmd, sizeof long_cmd, "set dbpath %03000d", 7);
    CHECK_INT(cmd(long_cmd, r), 0);
    CHECK(memchr(r, '\0', CB_REPLY_SIZE) != NULL);
    CHECK_INT(cmd("set hashsize 16", r), 1);
}

TEST(cb_time_arguments)
{
    SessionGo go;
    /* a time a move: that time for the move on average, a twentieth less
     * when it is exact */
    memset(&go, 0, sizeof go);
    cb_time_limits(2.5, 0, 0, &go);
    CHECK(go.movetime == 2.5 && go.time_left == 0);
    memset(&go, 0, sizeof go);
    cb_time_limits(0.25, CB_EXACT_TIME | CB_RESET_MOVES, 0, &go);
    CHECK_MSG(go.movetime > 0.2374 && go.movetime < 0.2376 && go.time_left == 0, "%g", go.movetime);
    /* a clock: the time left in the upper 16 bits, the increment in the
     * lower, in the unit of info's bits 2-3; maxtime is then ignored */
    static const double unit[4] = {0, 0.001, 0.01, 0.1};
    for (int mode = 1; mode <= 3; mode++) {
        memset(&go, 0, sizeof go);
        cb_time_limits(9.0, mode << CB_INCR_TIME_SHIFT, (int)(60000u << 16 | 250u), &go);
        CHECK_MSG(go.movetime == 0 && go.time_left > 60000 * unit[mode] * 0.999 &&
                      go.time_left < 60000 * unit[mode] * 1.001 && go.increment > 250 * unit[mode] * 0.999 &&
                      go.increment < 250 * unit[mode] * 1.001,
                  "mode %d: left %g inc %g", mode, go.time_left, go.increment);
    }
    /* a clock at zero still gives the search something to run on */
    memset(&go, 0, sizeof go);
    cb_time_limits(1.0, 1 << CB_INCR_TIME_SHIFT, 0, &go);
    CHECK(go.time_left > 0 && go.increment == 0);
}

TEST(cb_every_time_mode_plays_a_legal_move)
{
    char r[CB_REPLY_SIZE];
    cmd("set dbpath ", r);
    Board b = fen("B:W18,19,21,22,23,24,25,26,27,28,30,31:B1,2,3,5,6,7,9,10,11,12,14,16");
    Asked a;
    ask(&a, &b, 0.05, 0, 0, NULL);
    CHECK_MSG(a.move >= 0 && a.result == CB_UNKNOWN, "average: %d %s", a.result, a.status);
    CHECK_MSG(strstr(a.status, ": depth ") && strstr(a.status, "  pv "), "the status line: %s", a.status);
    ask(&a, &b, 0.05, CB_EXACT_TIME, 0, NULL);
    CHECK_MSG(a.move >= 0, "exact: %s", a.status);
    for (int mode = 1; mode <= 3; mode++) {
        ask(&a, &b, 0.05, mode << CB_INCR_TIME_SHIFT, (int)(20u << 16 | 1u), NULL);
        CHECK_MSG(a.move >= 0, "clock %d: %s", mode, a.status);
    }
    /* White to move, and the reply is White's */
    Board w = fen("W:W18,19,21,22,23,24,25,26,27,28,30,31:B1,2,3,5,6,7,9,10,11,12,14,15");
    ask(&a, &w, 0.02, 0, 0, NULL);
    CHECK_MSG(a.move >= 0 && a.ml.count > 1, "%s", a.status);
}

/* ---- playnow ---- */

typedef struct Later {
    int *playnow;
} Later;

/* CheckerBoard's interface gives no event while a search runs (the status
 * line is a buffer it reads on its own), so the flag is set 100 ms after the
 * search was asked for. A slow machine cannot make the test fail: a flag set
 * before the search starts gives a move as well (checked below). */
static void *press_later(void *arg)
{
    Later *l = arg;
    struct timespec t = {0, 100 * 1000 * 1000};
    nanosleep(&t, NULL);
    __atomic_store_n(l->playnow, 1, __ATOMIC_RELAXED);
    return NULL;
}

TEST(cb_playnow)
{
    /* playnow during a search of a minute: the move comes (the test would
     * take that minute if the search went on) */
    char r[CB_REPLY_SIZE];
    cmd("set dbpath ", r);
    Board b = fen("B:W18,19,21,22,23,24,25,26,27,28,30,31:B1,2,3,5,6,7,9,10,11,12,14,16");
    int playnow = 0;
    Later l = {&playnow};
    pthread_t th;
    CHECK(pthread_create(&th, NULL, press_later, &l) == 0);
    Asked a;
    time_t t0 = time(NULL);
    ask(&a, &b, 60.0, 0, 0, &playnow);
    pthread_join(th, NULL);
    CHECK_MSG(a.move >= 0 && time(NULL) - t0 < 30, "%s", a.status);
    /* already set when the search starts: a legal move all the same */
    playnow = 1;
    ask(&a, &b, 60.0, CB_EXACT_TIME, 0, &playnow);
    CHECK_MSG(a.move >= 0 && time(NULL) - t0 < 30, "%s", a.status);
}

/* ---- the game's history ---- */

/* As the engine protocol's test: Black's king shuffles 1-5-1 and White's
 * 29-25-29; after these seven plies Black's 1-5 makes a position occur the
 * third time. Behind, Black takes the draw (score 0) when CheckerBoard sent
 * the history, and sees only its deficit without it. */
/* ---- allscores ---- */

/* "set allscores 1": every legal move with its score in the status line,
 * best first, the first the move played; a man given away scores a man
 * below it. */
TEST(cb_allscores)
{
    char r[CB_REPLY_SIZE], err[KM_ERR_MAX];
    cmd("set dbpath ", r);
    CHECK_INT(cmd("set allscores 2", r), 0);
    CHECK_INT(cmd("set allscores 1", r), 1);
    CHECK_INT(cmd("get allscores", r), 1);
    CHECK_STR(r, "1");
    /* after 11-15 23-19 8-11 22-17: 12-16 gives a man away (19x12) */
    Game g;
    game_init(&g, NULL);
    static const char *const opening[] = {"11-15", "23-19", "8-11", "22-17"};
    for (int i = 0; i < 4; i++) {
        Move m;
        CHECK(notation_parse_move(&g.cur, opening[i], &m, err) == 0);
        game_play(&g, &m);
    }
    Asked a;
    ask(&a, &g.cur, 0.2, 0, 0, NULL);
    CHECK_MSG(a.move >= 0, "%s", a.status);
    /* "4-8: depth D  4-8 111, 9-13 11, ..." (and "| depth D-1  ..." after the
     * moves a stopped iteration reached) */
    const char *p = strstr(a.status, "depth ");
    CHECK_MSG(p != NULL, "%s", a.status);
    p = p ? strchr(p + 6, ' ') : NULL;
    int n = 0, best = 0, given = 0;
    bool played_first = false, have_given = false;
    char seen[MAX_MOVES][MOVE_TEXT_MAX];
    while (p && *p && n < MAX_MOVES) {
        while (*p == ' ' || *p == ',') p++;
        if (*p == '|') { /* "| depth D": the moves a stopped iteration had not reached */
            int used = 0, d = 0;
            if (sscanf(p, "| depth %d%n", &d, &used) != 1) break;
            p += used;
            continue;
        }
        char mv[MOVE_TEXT_MAX], score[32];
        int used = 0;
        if (sscanf(p, "%47s %31[^,|]%n", mv, score, &used) != 2) break;
        p += used;
        snprintf(seen[n], sizeof seen[n], "%s", mv);
        int v = atoi(score);
        if (n == 0) {
            best = v;
            char t[MOVE_TEXT_MAX];
            notation_move_to_text(&a.ml.moves[a.move < 0 ? 0 : a.move], t);
            played_first = strcmp(t, mv) == 0;
        }
        if (strcmp(mv, "12-16") == 0) given = v, have_given = true;
        n++;
    }
    CHECK_MSG(n == a.ml.count, "%d moves listed of %d: %s", n, a.ml.count, a.status);
    for (int i = 0; i < a.ml.count; i++) {
        char t[MOVE_TEXT_MAX];
        notation_move_to_text(&a.ml.moves[i], t);
        bool found = false;
        for (int j = 0; j < n; j++) found = found || strcmp(seen[j], t) == 0;
        CHECK_MSG(found, "%s is not listed: %s", t, a.status);
    }
    CHECK_MSG(played_first, "the move played is not listed first: %s", a.status);
    CHECK_MSG(have_given && given <= best - 500, "12-16 %d, best %d: %s", given, best, a.status);
    game_free(&g);
    CHECK_INT(cmd("set allscores 0", r), 1);
}

TEST(cb_gamehist_repetition)
{
    char r[CB_REPLY_SIZE];
    cmd("set dbpath ", r);
    CHECK_INT(cmd("set gamehist W:WK29,K31,K32:BK5,K3 29-25 5-1 25-29 1-5 29-25 5-1 25-29", r), 1);
    CHECK_STR(r, "gamehist: 7 moves");
    Board b = fen("B:WK29,K31,K32:BK1,K3");
    Asked a;
    ask(&a, &b, 0.2, 0, 0, NULL);
    CHECK_MSG(a.move >= 0 && strncmp(a.status, "1-5: ", 5) == 0 && strstr(a.status, "score 0 "), "%s",
              a.status);
    /* the history names another game: this position alone */
    CHECK_INT(cmd("set gamehist B:WK29,K31,K32:BK1,K3", r), 1);
    CHECK_STR(r, "gamehist: 0 moves");
    ask(&a, &b, 0.2, 0, 0, NULL);
    CHECK_MSG(a.move >= 0 && strstr(a.status, "score -"), "%s", a.status);
    /* a history that is not a game: refused, one line */
    CHECK_INT(cmd("set gamehist W:WK29,K31,K32:BK5,K3 29-25 5-14", r), 0);
    CHECK_MSG(strncmp(r, "gamehist: move 2 '5-14': ", 25) == 0, "%s", r);
    CHECK_INT(cmd("set gamehist", r), 0);
    CHECK_STR(r, "gamehist: the FEN is missing");
}

/* ---- boards that are not positions ---- */

TEST(cb_bad_boards)
{
    Board b = fen("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    int board[8][8], keep[8][8];
    struct CBmove mv;
    char status[CB_STATUS_SIZE];
    int playnow = 0;
    to_cb(&b, board);
    memcpy(keep, board, sizeof keep);
    CHECK_INT(getmove(board, 3, 0.01, status, &playnow, 0, 0, &mv), CB_UNKNOWN);
    CHECK_STR(status, "kingme: the side to move is 3, not 2 or 1");
    CHECK(memcmp(board, keep, sizeof keep) == 0);
    int x, y;
    coor_of(18, &x, &y);
    board[x][y] = 3;
    CHECK_INT(getmove(board, CB_BLACK, 0.01, status, &playnow, 0, 0, &mv), CB_UNKNOWN);
    CHECK_STR(status, "kingme: square 18 holds 3, which is no piece");
    board[x][y] = CB_BLACK | CB_MAN; /* a 13th black man */
    CHECK_INT(getmove(board, CB_BLACK, 0.01, status, &playnow, 0, 0, &mv), CB_UNKNOWN);
    CHECK_MSG(strncmp(status, "kingme: ", 8) == 0 && strstr(status, "13"), "%s", status);
    /* a piece on a light square (no square of the game): refused, not dropped */
    to_cb(&b, board);
    memcpy(keep, board, sizeof keep);
    board[1][0] = CB_WHITE | CB_MAN;
    CHECK_INT(getmove(board, CB_BLACK, 0.01, status, &playnow, 0, 0, &mv), CB_UNKNOWN);
    CHECK_STR(status, "kingme: column 1 row 0 holds 5, off the playing squares");
    board[1][0] = CB_FREE;
    CHECK(memcmp(board, keep, sizeof keep) == 0);
    /* no legal move: the side to move has lost, the board stays */
    Board lost = fen("W:W5:B1");
    to_cb(&lost, board);
    memcpy(keep, board, sizeof keep);
    CHECK_INT(getmove(board, CB_WHITE, 0.01, status, &playnow, 0, 0, &mv), CB_LOSS);
    CHECK_STR(status, "kingme: no legal move");
    CHECK(memcmp(board, keep, sizeof keep) == 0);
}

/* ---- the endgame database ---- */

TEST(cb_database)
{
    char dir[64] = "/tmp/kingme-cb-egdb-XXXXXX", err[KM_ERR_MAX], r[CB_REPLY_SIZE], c[256];
    CHECK(mkdtemp(dir) != NULL);
    CHECK_MSG(egdb_build(dir, 3, 1, NULL, NULL, err) == 0, "%s", err);
    snprintf(c, sizeof c, "set check_wld_dir %s", dir);
    CHECK_INT(cmd(c, r), 1);
    CHECK_MSG(strstr(r, ": kingme's endgame database, up to 3 pieces") != NULL, "%s", r);
    snprintf(c, sizeof c, "set dbpath %s", dir);
    CHECK_INT(cmd(c, r), 1);
    CHECK_MSG(strstr(r, ": up to 3 pieces") != NULL, "%s", r);
    CHECK_INT(cmd("get dbpath", r), 1);
    CHECK_STR(r, dir);
    /* a folder that is no database: refused, the database kept */
    CHECK_INT(cmd("set dbpath /nonexistent/kingme", r), 0);
    CHECK_MSG(strncmp(r, "dbpath: /nonexistent/kingme: ", 29) == 0, "%s", r);
    CHECK_INT(cmd("get dbpath", r), 1);
    CHECK_STR(r, dir);
    /* what the engine expects of the game: the database's value */
    Asked a;
    Board win = fen("W:WK30,K31:BK1"), loss = fen("B:WK30,K31:BK1"), draw = fen("B:WK30:BK1");
    ask(&a, &win, 0.05, 0, 0, NULL);
    CHECK_MSG(a.move >= 0 && a.result == CB_WIN && strstr(a.status, "score db win"), "%d %s", a.result,
              a.status);
    ask(&a, &loss, 0.05, 0, 0, NULL);
    CHECK_MSG(a.move >= 0 && a.result == CB_LOSS, "%d %s", a.result, a.status);
    ask(&a, &draw, 0.05, 0, 0, NULL);
    CHECK_MSG(a.move >= 0 && a.result == CB_DRAW, "%d %s", a.result, a.status);
    /* switched off: no database, nothing claimed for the bare kings */
    CHECK_INT(cmd("set enable_wld 0", r), 1);
    CHECK_INT(cmd("get enable_wld", r), 1);
    CHECK_STR(r, "0");
    ask(&a, &draw, 0.05, 0, 0, NULL);
    CHECK_MSG(a.move >= 0 && a.result == CB_UNKNOWN, "%d %s", a.result, a.status);
    CHECK_INT(cmd("set enable_wld 1", r), 1);
    ask(&a, &draw, 0.05, 0, 0, NULL);
    CHECK_MSG(a.result == CB_DRAW, "%d %s", a.result, a.status);
    /* the database's cache (Engine > Options... > Endgame DB): one of the
     * sizes CheckerBoard lists, 64 MB; 0 is the least */
    CHECK_INT(cmd("get dbmbytes", r), 1);
    CHECK_STR(r, "64");
    CHECK_INT(cmd("set dbmbytes 128", r), 1);
    CHECK_STR(r, "dbmbytes 128: the endgame database's cache in MB");
    CHECK_INT(cmd("get dbmbytes", r), 1);
    CHECK_STR(r, "128");
    CHECK_INT(cmd("about", r), 1);
    CHECK_MSG(strstr(r, "(up to 3 pieces, cache 128 MB)") != NULL, "%s", r);
    CHECK_INT(cmd("set dbmbytes lots", r), 0);
    CHECK_STR(r, "dbmbytes: a size in MB from 0 to 65536, not 'lots'");
    CHECK_INT(cmd("set dbmbytes 0", r), 1);
    ask(&a, &draw, 0.05, 0, 0, NULL);
    CHECK_MSG(a.result == CB_DRAW, "%d %s", a.result, a.status);
    CHECK_INT(cmd("set dbmbytes 64", r), 1);
    /* Limit max pieces (More Options... > WLD Database): CheckerBoard's 24
     * is no limit */
    CHECK_INT(cmd("get max_dbpieces", r), 1);
    CHECK_STR(r, "24");
    CHECK_INT(cmd("set max_dbpieces 2", r), 1);
    CHECK_STR(r, "max_dbpieces 2: the database is used up to 2 pieces");
    CHECK_INT(cmd("get max_dbpieces", r), 1);
    CHECK_STR(r, "2");
    CHECK_INT(cmd("about", r), 1);
    CHECK_MSG(strstr(r, "(up to 2 pieces, cache 64 MB)") != NULL, "%s", r);
    ask(&a, &draw, 0.05, 0, 0, NULL); /* 2 pieces: still the database's draw */
    CHECK_MSG(a.result == CB_DRAW, "%d %s", a.result, a.status);
    CHECK_INT(cmd("set max_dbpieces 0", r), 0);
    CHECK_STR(r, "max_dbpieces: 1 to 24, not '0'");
    CHECK_INT(cmd("set max_dbpieces 24", r), 1);
    CHECK_STR(r, "max_dbpieces 24: the database is used up to 3 pieces");
    /* the processors, shown beside the search threads */
    CHECK_INT(cmd("get cpus", r), 1);
    CHECK_MSG(atoi(r) >= 1, "%s", r);
    CHECK_INT(cmd("set dbpath ", r), 1);
    CHECK_STR(r, "dbpath: none");
    snprintf(c, sizeof c, "rm -rf '%s'", dir);
    CHECK(system(c) == 0);
}

/* A forced move gets the score of a short search, not its depth-1 score
 * (733 here; 322 at depth 12, about 600 at depth 17): the status bar shows
 * it as kingme's. */
TEST(cb_forced_move_score)
{
    Board b = fen("B:W19,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,8,7,6,12,11,9,15");
    char r[CB_REPLY_SIZE];
    CHECK_INT(cmd("set book 0", r), 1);
    Asked a;
    double t0 = km_now();
    ask(&a, &b, 1.0, 0, 0, NULL);
    double took = km_now() - t0;
    CHECK_MSG(a.move == 0, "%s", a.status);
    int depth = 0, score = 0;
    const char *d = strstr(a.status, "depth ");
    CHECK_MSG(d && sscanf(d, "depth %d  score %d", &depth, &score) == 2, "%s", a.status);
    CHECK_MSG(depth >= 6 && score < 700, "%s", a.status);
    CHECK_MSG(took < (test_sanitized() ? 1.0 : 0.6), "%.3f s: %s", took, a.status);
    CHECK_INT(cmd("set book 3", r), 1);
}

/* set gamehist for the start position: a game of its own */
static void send_gamehist_start(void)
{
    char r[CB_REPLY_SIZE];
    CHECK_INT(
        enginecommand("set gamehist B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", r),
        1);
}

/* ---- the opening book ---- */

TEST(cb_opening_book)
{
    /* a book of the start position alone, 10-14 its best move */
    Board start;
    board_init(&start);
    MoveList ml;
    mg_moves(&start, &ml);
    uint16_t codes[MAX_MOVES];
    int16_t scores[MAX_MOVES];
    int best = -1;
    for (int i = 0; i < ml.count; i++) {
        char t[MOVE_TEXT_MAX];
        notation_move_to_text(&ml.moves[i], t);
        codes[i] = (uint16_t)book_move_code(&start, &ml.moves[i]);
        scores[i] = strcmp(t, "10-14") == 0 ? 50 : (int16_t)(-10 * i);
        if (scores[i] == 50) best = i;
    }
    CHECK(best >= 0);
    BookOutPos pos = {book_key(&start), ml.count, codes, scores};
    BookHeader h;
    memset(&h, 0, sizeof h);
    h.man = 1000;
    h.depth = 4;
    h.command = "a test";
    char err[KM_ERR_MAX], path[64], c[128], r[CB_REPLY_SIZE];
    size_t len;
    uint8_t *bytes = book_encode(&h, &pos, 1, &len, err);
    CHECK_MSG(bytes != NULL, "%s", err);
    snprintf(path, sizeof path, "/tmp/kingme-cb-%d.book", (int)getpid());
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(bytes, 1, len, f) == len && fclose(f) == 0);
    free(bytes);
    /* no book yet: CheckerBoard greys its choices out */
    cmd("set bookfile ", r);
    CHECK_INT(cmd("get book", r), 0);
    CHECK_STR(r, "?");
    snprintf(c, sizeof c, "set bookfile %s", path);
    CHECK_INT(cmd(c, r), 1);
    CHECK_MSG(strstr(r, ": 1 positions") != NULL, "%s", r);
    CHECK_INT(cmd("get bookfile", r), 1);
    CHECK_STR(r, path);
    CHECK_INT(cmd("get book", r), 1);
    CHECK_STR(r, "3");
    /* best moves: the book's best, at once */
    send_gamehist_start();
    Asked a;
    ask(&a, &start, 5.0, 0, 0, NULL);
    CHECK_MSG(a.move == best && strcmp(a.status, "10-14: from the opening book, score 50") == 0, "%s",
              a.status);
    /* no book: the search */
    CHECK_INT(cmd("set book 0", r), 1);
    CHECK_STR(r, "book 0: no book");
    ask(&a, &start, 0.02, 0, 0, NULL);
    CHECK_MSG(a.move >= 0 && strstr(a.status, ": depth "), "%s", a.status);
    CHECK_INT(cmd("set book 4", r), 0);
    CHECK_INT(cmd("set book 3", r), 1);
    /* a file that is no book: refused, the book kept */
    CHECK_INT(cmd("set bookfile /nonexistent.book", r), 0);
    CHECK_MSG(strncmp(r, "bookfile: /nonexistent.book: ", 29) == 0, "%s", r);
    CHECK_INT(cmd("get bookfile", r), 1);
    CHECK_STR(r, path);
    CHECK_INT(cmd("set bookfile ", r), 1);
    CHECK_STR(r, "bookfile: none");
    remove(path);
}

/* ---- a whole game ---- */

/* "set gamehist" as CheckerBoard sends it: the position after the last
 * capture or man move, then the king moves since. */
static void send_gamehist(const Game *g)
{
    Board b = g->start;
    int from = 0;
    for (int i = 0; i < g->nply; i++) {
        if (mg_move_resets_count(&b, &g->moves[i])) from = i + 1;
        mg_make_move(&b, &g->moves[i]);
    }
    b = g->start;
    for (int i = 0; i < from; i++) mg_make_move(&b, &g->moves[i]);
    char c[4096], f[128], r[CB_REPLY_SIZE];
    board_to_fen(&b, f, sizeof f);
    size_t at = (size_t)snprintf(c, sizeof c, "set gamehist %s", f);
    for (int i = from; i < g->nply && at + 16 < sizeof c; i++)
        at += (size_t)snprintf(c + at, sizeof c - at, " %d-%d", g->moves[i].from + 1, g->moves[i].to + 1);
    CHECK_MSG(enginecommand(c, r) == 1, "%s: %s", c, r);
}

TEST(cb_plays_a_whole_game_against_itself)
{
    char r[CB_REPLY_SIZE];
    cmd("set dbpath ", r);
    Game g;
    CHECK(game_init(&g, NULL) == 0);
    int captures = 0;
    while (g.result == GAME_ONGOING && g.nply < 300) {
        send_gamehist(&g);
        Asked a;
        Board before = g.cur;
        ask(&a, &before, 0.01, 0, 0, NULL);
        if (a.move < 0) {
            test_fail(__FILE__, __LINE__, "ply %d: the board and move from getmove are no legal move (%s)",
                      g.nply + 1, a.status);
            break;
        }
        const Move *m = &a.ml.moves[a.move];
        captures += m->njumps > 0;
        CHECK(game_play(&g, m) == 0);
    }
    CHECK_MSG(g.nply >= 30 && captures >= 4, "%d plies, %d captures", g.nply, captures);
    /* the game ended by the rules, as CheckerBoard's referee would end it */
    CHECK_MSG(g.result != GAME_ONGOING || g.nply == 300, "%s", game_result_text(g.result));
    game_free(&g);
}
