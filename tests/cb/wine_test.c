/* wine_test.c - the CheckerBoard engine DLL driven as CheckerBoard drives it,
 * run under Wine by tests/cb/run_wine.sh (make test-dll): LoadLibrary, then
 * GetProcAddress("getmove") and ("enginecommand"), the engine commands
 * CheckerBoard sends, a whole game of the engine against itself through
 * getmove with "set gamehist" before each move and every move checked legal,
 * each time mode, "move now" and the endgame database.
 *
 * Usage: wine_test.exe DLL [DBDIR]  (DLL beside a folder egdb and a book
 * kingme.book, which it should find by itself; DBDIR: a database folder for
 * "set dbpath").
 * Prints what it measured and, last, "test-dll: N passed, M failed". The
 * times are measured and printed with their bound, not failed on: a loaded
 * machine stretches them. The board, the moves and the game's rules for
 * checking come from kingme's library, the square numbering from the
 * interface's own rule (tests/cb's conversion, not the adapter's). */
#include "cb.h"
#include "kingme/board.h"
#include "kingme/game.h"
#include "kingme/movegen.h"
#include "kingme/notation.h"
#include "kingme/timeman.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

typedef int(__stdcall *GetmoveFn)(int board[8][8], int color, double maxtime, char str[1024], int *playnow,
                                  int info, int moreinfo, struct CBmove *move);
typedef int(__stdcall *CommandFn)(const char *command, char reply[1024]);

static GetmoveFn cb_getmove;
static CommandFn cb_command;
static int passed, failed;

static void check(int ok, const char *what, const char *fmt, ...) __attribute__((format(gnu_printf, 3, 4)));
static void check(int ok, const char *what, const char *fmt, ...)
{
    char detail[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    printf("%-4s %s: %s\n", ok ? "ok" : "FAIL", what, detail);
    fflush(stdout);
    if (ok) passed++;
    else failed++;
}

static double now_s(void)
{
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (double)c.QuadPart / (double)f.QuadPart;
}

/* ---- the board as CheckerBoard keeps it (the interface's numbering rule) ---- */

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

static int cb_color(const Board *b) { return b->stm == KM_BLACK ? CB_BLACK : CB_WHITE; }

/* The legal move of b that turns it into the board CheckerBoard got back:
 * its index in ml, or -1. */
static int legal_move_to(const Board *b, const MoveList *ml, int after[8][8])
{
    for (int i = 0; i < ml->count; i++) {
        Board c = *b;
        mg_make_move(&c, &ml->moves[i]);
        int cbb[8][8];
        to_cb(&c, cbb);
        if (memcmp(cbb, after, sizeof cbb) == 0) return i;
    }
    return -1;
}

/* "set gamehist": the position after the last capture or man move, then the
 * moves since, as CheckerBoard sends it before each getmove. */
static void send_gamehist(const Game *g)
{
    Board b = g->start;
    int last_reset = 0;
    for (int i = 0; i < g->nply; i++) {
        if (mg_move_resets_count(&b, &g->moves[i])) last_reset = i + 1;
        mg_make_move(&b, &g->moves[i]);
    }
    b = g->start;
    for (int i = 0; i < last_reset; i++) mg_make_move(&b, &g->moves[i]);
    char cmd[8192], fen[128], reply[1024];
    board_to_fen(&b, fen, sizeof fen);
    size_t at = (size_t)snprintf(cmd, sizeof cmd, "set gamehist %s", fen);
    for (int i = last_reset; i < g->nply && at + 16 < sizeof cmd; i++)
        at += (size_t)snprintf(cmd + at, sizeof cmd - at, " %d-%d", g->moves[i].from + 1, g->moves[i].to + 1);
    if (!cb_command(cmd, reply)) check(0, "set gamehist", "'%s' answered '%s'", cmd, reply);
}

typedef struct Timed {
    int result; /* getmove's */
    double seconds;
    double returned; /* now_s() when getmove returned */
    int move;        /* the legal move of ml played, -1: the board came back otherwise */
    MoveList ml;
    char status[1024];
} Timed;

/* One getmove on b, timed; which legal move it played (the returned board
 * and the CBmove's from, to and jumps must all agree). */
static Timed ask(const Board *b, double maxtime, int info, int moreinfo, int *playnow)
{
    Timed t;
    int board[8][8];
    struct CBmove mv;
    int dummy = 0;
    to_cb(b, board);
    t.status[0] = '\0';
    double t0 = now_s();
    t.result =
        cb_getmove(board, cb_color(b), maxtime, t.status, playnow ? playnow : &dummy, info, moreinfo, &mv);
    t.returned = now_s();
    t.seconds = t.returned - t0;
    mg_moves(b, &t.ml);
    t.move = legal_move_to(b, &t.ml, board);
    if (t.move >= 0) {
        const Move *m = &t.ml.moves[t.move];
        int fx, fy, tx, ty;
        coor_of(m->from + 1, &fx, &fy);
        coor_of(m->to + 1, &tx, &ty);
        if (mv.from.x != fx || mv.from.y != fy || mv.to.x != tx || mv.to.y != ty || mv.jumps != m->njumps)
            t.move = -1;
    }
    return t;
}

/* A new engine's table as the Options dialog reads it ("get hashsize" picks
 * the entry of its list), then a size of that list set. */
static void hash_size(void)
{
    char reply[1024], about[1024];
    int r = cb_command("get hashsize", reply);
    check(r == 1 && strcmp(reply, "64") == 0, "get hashsize of a new engine", "%d '%s'", r, reply);
    r = cb_command("set hashsize 128", reply);
    check(r == 1 && strcmp(reply, "hashsize 128") == 0, "set hashsize 128", "%d '%s'", r, reply);
    r = cb_command("get hashsize", reply);
    int r2 = cb_command("about", about);
    for (char *nl = strchr(about, '\n'); nl; nl = strchr(nl, '\n')) *nl = '|';
    check(r == 1 && strcmp(reply, "128") == 0 && r2 == 1 && strstr(about, "hash table: 128 MB") != NULL,
          "get hashsize, about after it", "'%s', about '%s'", reply, about);
}

static void commands(void)
{
    char reply[1024];
    int r = cb_command("name", reply);
    check(r == 1 && strncmp(reply, "kingme ", 7) == 0, "enginecommand name", "%d '%s'", r, reply);
    r = cb_command("get protocolversion", reply);
    check(r == 1 && strcmp(reply, "2") == 0, "get protocolversion", "%d '%s'", r, reply);
    r = cb_command("get gametype", reply);
    check(r == 1 && strcmp(reply, "21") == 0, "get gametype", "%d '%s'", r, reply);
    r = cb_command("set hashsize 32", reply);
    int r2 = cb_command("get hashsize", reply);
    check(r == 1 && r2 == 1 && strcmp(reply, "32") == 0, "set/get hashsize", "%d %d '%s'", r, r2, reply);
    r = cb_command("set searchthreads 2", reply);
    r2 = cb_command("get searchthreads", reply);
    check(r == 1 && r2 == 1 && strcmp(reply, "2") == 0, "set/get searchthreads", "%d %d '%s'", r, r2, reply);
    cb_command("set searchthreads 1", reply);
    r = cb_command("set allscores 1", reply);
    r2 = cb_command("get allscores", reply);
    check(r == 1 && r2 == 1 && strcmp(reply, "1") == 0, "set/get allscores", "%d %d '%s'", r, r2, reply);
    {
        /* every move's score in the status line: after 11-15 23-19 8-11
         * 22-17, 12-16 gives a man away */
        Board b;
        board_from_fen(&b, "B:W17,19,21,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12,15", NULL);
        Timed t = ask(&b, 0.3, 0, 0, NULL);
        const char *given = strstr(t.status, " 12-16 ");
        check(t.move >= 0 && given && (given[7] == '-' || strncmp(given + 7, "loss", 4) == 0),
              "allscores: a search lists every move", "%d moves: %s", t.ml.count, t.status);
    }
    cb_command("set allscores 0", reply);
    r = cb_command("get movelist B:W1:B", reply);
    check(r == 0, "get movelist (English: CheckerBoard's own)", "%d '%s'", r, reply);
    r = cb_command("frobnicate", reply);
    check(r == 0 && strstr(reply, "not support") != NULL, "unknown command", "%d '%s'", r, reply);
    r = cb_command("about", reply);
    char *nl;
    while ((nl = strchr(reply, '\n')) != NULL) *nl = '|';
    check(r == 1 && strstr(reply, "hash table: 32 MB") != NULL, "about", "%s", reply);
}

/* A whole game, the engine on both sides, maxtime a move on average, with
 * the game's history sent before every move. */
static void whole_game(double maxtime)
{
    Game g;
    game_init(&g, NULL);
    int illegal = 0, searched = 0, over = 0, last_result = CB_UNKNOWN;
    double sum = 0, worst = 0;
    while (g.result == GAME_ONGOING && g.nply < 300) {
        send_gamehist(&g);
        Timed t = ask(&g.cur, maxtime, 0, 0, NULL);
        last_result = t.result;
        if (t.move < 0) {
            illegal++;
            printf("     ply %d: what getmove returned is no legal move (%s)\n", g.nply + 1, t.status);
            break;
        }
        if (t.ml.count > 1) {
            searched++;
            sum += t.seconds;
            if (t.seconds > worst) worst = t.seconds;
            if (t.seconds > maxtime * 1.1) over++;
        }
        game_play(&g, &t.ml.moves[t.move]);
    }
    check(illegal == 0 && g.nply >= 20, "a whole game through getmove, every move legal",
          "%d plies, %s (%s), the last getmove returned %d", g.nply, game_result_text(g.result),
          game_reason_text(g.reason), last_result);
    double mean = searched ? sum / searched : 0;
    printf("     its %d moves with a choice: mean %.3f s for %.3f s asked (%.0f%%), longest %.3f s, %d over "
           "+10%%\n",
           searched, mean, maxtime, 100 * mean / maxtime, worst, over);
    if (g.reason == REASON_NO_MOVES) {
        Timed t = ask(&g.cur, maxtime, 0, 0, NULL);
        check(t.result == CB_LOSS, "getmove with no legal move", "returns %d (CB_LOSS is %d): %s", t.result,
              CB_LOSS, t.status);
    }
    game_free(&g);
}

/* A middle-game position to time searches on (Black to move). */
static const char *const MIDDLE = "B:W18,19,21,22,23,24,25,26,27,28,30,31:B1,2,3,5,6,7,9,10,11,12,14,16";
#define MIDDLE_FOR_ABUSE "B:W18,19,21,22,23,24,25,26,27,28,30,31:B1,2,3,5,6,7,9,10,11,12,14,16"

static void time_modes(void)
{
    Board b;
    board_from_fen(&b, MIDDLE, NULL);
    /* on average: the whole time, so that the mean is what was asked */
    double sum = 0;
    int ok = 1;
    for (int i = 0; i < 3; i++) {
        Timed t = ask(&b, 0.5, 0, 0, NULL);
        ok = ok && t.move >= 0;
        sum += t.seconds;
    }
    double mean = sum / 3;
    check(ok, "a time a move on average, 0.5 s", "mean %.3f s, %.1f%% of it (%s 10%%)", mean,
          100 * mean / 0.5, mean >= 0.45 && mean <= 0.55 ? "within" : "NOT within");
    /* exactly: never longer */
    double worst = 0, least = 1e9;
    ok = 1;
    for (int i = 0; i < 3; i++) {
        Timed t = ask(&b, 0.5, CB_EXACT_TIME, 0, NULL);
        ok = ok && t.move >= 0;
        if (t.seconds > worst) worst = t.seconds;
        if (t.seconds < least) least = t.seconds;
    }
    check(ok, "exactly 0.5 s a move", "from %.3f to %.3f s (%s 10%% below 0.5 s, %s)", least, worst,
          least >= 0.45 && worst <= 0.55 ? "within" : "NOT within", worst <= 0.5 ? "never longer" : "LONGER");
    /* a Fischer clock in moreinfo, in each unit: play on with both clocks
     * kept as CheckerBoard keeps them; no flag may fall, and each move
     * stays within the time manager's limit for its clock */
    static const double unit[4] = {0, 0.001, 0.01, 0.1};
    for (int mode = 1; mode <= 3; mode++) {
        const double start = 3.0, inc = 0.05;
        Game g;
        game_init(&g, &b);
        double left[2] = {start, start}, used = 0, lowest = 1e9, ratio = 0;
        int plies = 0, legal = 1;
        while (g.result == GAME_ONGOING && plies < 20) {
            int side = g.cur.stm;
            unsigned l16 = (unsigned)(left[side] / unit[mode]) & 0xffff,
                     i16 = (unsigned)(inc / unit[mode] + 0.5) & 0xffff;
            TimeBudget tb;
            tm_budget((double)l16 * unit[mode], (double)i16 * unit[mode], 0, &tb);
            send_gamehist(&g);
            Timed t = ask(&g.cur, 1.0, mode << CB_INCR_TIME_SHIFT, (int)(l16 << 16 | i16), NULL);
            if (t.move < 0) {
                legal = 0;
                break;
            }
            if (t.seconds / tb.hard > ratio) ratio = t.seconds / tb.hard;
            left[side] += inc - t.seconds;
            used += t.seconds;
            if (left[side] < lowest) lowest = left[side];
            plies++;
            game_play(&g, &t.ml.moves[t.move]);
        }
        check(legal && lowest > 0, "a Fischer clock",
              "unit %.3f s, %.0f s + %.2f s: %d plies in %.2f s, lowest clock %.3f s, longest move %.0f%% of "
              "its "
              "hard limit (%s 10%% over)",
              unit[mode], start, inc, plies, used, lowest, 100 * ratio,
              ratio <= 1.1 ? "within" : "NOT within");
        game_free(&g);
    }
}

/* The user's "play now": playnow set half a second into the search, and
 * the moment it was set. */
typedef struct Press {
    volatile LONG playnow;
    double at;
} Press;

static DWORD WINAPI press_play(LPVOID arg)
{
    Press *p = arg;
    Sleep(500);
    p->at = now_s();
    InterlockedExchange(&p->playnow, 1);
    return 0;
}

/* "move now" in a 30 s search, five times: how long after playnow is set
 * the move comes. */
static void move_now(void)
{
    Board b;
    board_from_fen(&b, MIDDLE, NULL);
    double worst = 0;
    char each[128] = "";
    size_t at = 0;
    int ok = 1;
    for (int i = 0; i < 5; i++) {
        Press p = {0, 0};
        HANDLE th = CreateThread(NULL, 0, press_play, &p, 0, NULL);
        Timed t = ask(&b, 30.0, 0, 0, (int *)&p.playnow);
        WaitForSingleObject(th, INFINITE);
        CloseHandle(th);
        double late = t.returned - p.at;
        ok = ok && t.move >= 0 && t.seconds < 5;
        if (late > worst) worst = late;
        at += (size_t)snprintf(each + at, sizeof each - at, "%s%.1f", i ? ", " : "", late * 1000);
    }
    check(ok, "move now (playnow) in a 30 s search", "the move came %s ms after it was asked for (%s 50 ms)",
          each, worst < 0.050 ? "all within" : "NOT all within");
}

static void database(const char *dbdir)
{
    char reply[1024], cmd[1200];
    int r = cb_command("get dbpath", reply);
    check(r == 1 && strstr(reply, "egdb") != NULL, "the database folder beside the DLL", "get dbpath '%s'",
          reply);
    r = cb_command("about", reply);
    for (char *nl = strchr(reply, '\n'); nl; nl = strchr(nl, '\n')) *nl = '|';
    check(r == 1 && strstr(reply, "up to 3 pieces") != NULL, "about names it", "%s", reply);
    if (dbdir) {
        snprintf(cmd, sizeof cmd, "set dbpath %s", dbdir);
        r = cb_command(cmd, reply);
        check(r == 1 && strstr(reply, "up to 3 pieces") != NULL, "set dbpath", "'%s'", reply);
    }
    r = cb_command("set dbpath Z:\\no\\such\\folder", reply);
    int r2 = cb_command("get dbpath", cmd);
    check(r == 0 && r2 == 1 && strstr(cmd, "egdb") != NULL, "set dbpath to a missing folder",
          "'%s', kept '%s'", reply, cmd);
    Board b;
    board_from_fen(&b, "W:WK30,K31:BK1", NULL);
    Timed t = ask(&b, 0.2, 0, 0, NULL);
    check(t.move >= 0 && t.result == CB_WIN, "a database win", "getmove returns %d (CB_WIN %d): %s", t.result,
          CB_WIN, t.status);
    board_from_fen(&b, "B:WK30,K31:BK1", NULL);
    t = ask(&b, 0.2, 0, 0, NULL);
    check(t.move >= 0 && t.result == CB_LOSS, "a database loss", "getmove returns %d (CB_LOSS %d): %s",
          t.result, CB_LOSS, t.status);
    board_from_fen(&b, "B:WK30:BK1", NULL);
    t = ask(&b, 0.2, 0, 0, NULL);
    check(t.move >= 0 && t.result == CB_DRAW, "a database draw", "getmove returns %d (CB_DRAW %d): %s",
          t.result, CB_DRAW, t.status);
    /* every setting of the database CheckerBoard asks about: the cache
     * (Options... > Endgame DB), Limit max pieces (24: no limit), the
     * auxiliary database ("?" and 0: not supported, greyed out) */
    r = cb_command("get dbmbytes", reply);
    r2 = cb_command("set dbmbytes 128", cmd);
    check(r == 1 && strcmp(reply, "64") == 0 && r2 == 1 && strncmp(cmd, "dbmbytes 128", 12) == 0,
          "get dbmbytes, set dbmbytes 128", "'%s', then '%s'", reply, cmd);
    r = cb_command("get max_dbpieces", reply);
    r2 = cb_command("set max_dbpieces 2", cmd);
    check(r == 1 && strcmp(reply, "24") == 0 && r2 == 1 && strstr(cmd, "up to 2 pieces") != NULL,
          "get max_dbpieces, set max_dbpieces 2", "'%s', then '%s'", reply, cmd);
    r = cb_command("set max_dbpieces 24", cmd);
    check(r == 1 && strstr(cmd, "up to 3 pieces") != NULL, "set max_dbpieces 24 (no limit)", "'%s'", cmd);
    r = cb_command("get enable_mtc", reply);
    r2 = cb_command("get mtcpath", cmd);
    check(r == 0 && r2 == 0 && strcmp(reply, "?") == 0, "the auxiliary database: not supported",
          "get enable_mtc %d '%s', get mtcpath %d '%s'", r, reply, r2, cmd);
    r = cb_command("get cpus", reply);
    check(r == 1 && atoi(reply) >= 1, "get cpus", "'%s'", reply);
}

/* A forced move played with the score of a short search, as the status bar
 * shows it: here the depth-1 score is 733, while searches of depth 2 to 22
 * say 320 to 607 (the figure swings with the depth the clock allows). */
static void forced_move(void)
{
    Board b;
    board_from_fen(&b, "B:W19,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,8,7,6,12,11,9,15", NULL);
    Timed t = ask(&b, 1.0, 0, 0, NULL);
    const char *d = strstr(t.status, "depth ");
    int depth = 0, score = 0;
    int ok = t.move >= 0 && t.ml.count == 1 && d && sscanf(d, "depth %d  score %d", &depth, &score) == 2;
    check(ok && depth >= 6 && score < 700, "a forced move's score from a search", "%.3f s: %s", t.seconds,
          t.status);
}

/* The board CheckerBoard gave back unchanged and a legal move still played
 * after it: the engine survived what came before. */
static int still_plays(void)
{
    Board b;
    board_from_fen(&b, MIDDLE_FOR_ABUSE, NULL);
    Timed t = ask(&b, 0.02, 0, 0, NULL);
    return t.move >= 0;
}

/* A reply that ends within CheckerBoard's 1024 bytes. */
static int bounded(const char *reply) { return memchr(reply, '\0', 1024) != NULL; }

/* The DLL abused as CheckerBoard could abuse it: every command it sends,
 * with good and bad values; long, empty and non-ASCII strings; getmove with
 * boards that are illegal, have no move, or hold 13 men a side. Each call
 * must answer (0 or 1) within the reply's 1024 bytes, and the engine must
 * play on afterwards. */
static void abuse(void)
{
    /* clang-format off */
    static const char *const sent[] = {
        /* what CheckerBoard 1.77 sends (its dialogs, menus and engine match) */
        "name", "about", "help", "get protocolversion", "get gametype", "get book", "get hashsize",
        "get dbmbytes", "get allscores", "get solve", "get dbpath", "get enable_wld", "get max_dbpieces",
        "get enable_mtc", "get mtcpath", "get bookfile", "get searchthreads", "get cpus",
        "get movelist B:W1:B", "set hashsize 8", "set dbmbytes 0", "set book 2", "set allscores 0",
        "set solve 0", "set max_dbpieces 4", "set dbpath ", "set mtcpath C:\\db", "set bookfile kingme.book",
        "set enable_wld 1", "set enable_mtc 0", "set searchthreads 12", "set searchthreads 1",
        "set check_wld_dir C:\\no\\db", "set check_mtc_dir C:\\no\\db", "set gamehist B:W21,22:B1,2 1-5",
        "staticevaluation B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        /* values out of range, missing, of another type */
        "set hashsize", "set hashsize -1", "set hashsize 99999999999999999999", "set hashsize 1e3",
        "set dbmbytes -5", "set book 7", "set book", "set allscores 2", "set solve yes",
        "set max_dbpieces 25", "set searchthreads 0", "set searchthreads 100000", "set enable_wld x",
        "set gamehist", "set gamehist B:W99:B1", "set gamehist B:W21:B1 1-2 2-1 nonsense",
        "staticevaluation", "staticevaluation B:W21,21:B1", "get", "set", "get nothing", "set nothing 1",
        /* empty, blank, control and non-ASCII bytes */
        "", " ", "\t\t", "\r\n", "name\r\n", "get hashsize\r", "\x1b[31mname", "get \xc3\xa9t\xc3\xa9",
        "set bookfile \xff\xfe\xfd", "set dbpath C:\\\xe9" "checs\\egdb", "staticevaluation B:W\xe2\x80\x8b" "21:B1",
        "\x7f\x80\x81", "about\x01\x02",
    };
    /* clang-format on */
    char reply[1024];
    int bad = 0, n = 0;
    for (size_t i = 0; i < sizeof sent / sizeof sent[0]; i++, n++) {
        memset(reply, 'x', sizeof reply);
        int r = cb_command(sent[i], reply);
        if ((r != 0 && r != 1) || !bounded(reply)) {
            bad++;
            printf("     '%s': returned %d, reply %s\n", sent[i], r, bounded(reply) ? reply : "NOT ENDED");
        }
    }
    /* long strings: 100 kB commands, a long path, a long game history */
    static char big[100 * 1024 + 64];
    static const char *const heads[] = {
        "",     "set dbpath ",  "set bookfile ", "set gamehist B:W21:B1 ", "staticevaluation ",
        "get ", "set hashsize "};
    for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++) {
        for (size_t len = 1000; len <= 100 * 1024; len *= 10) {
            size_t at = (size_t)snprintf(big, sizeof big, "%s", heads[h]);
            for (size_t k = at; k < len; k++) big[k] = h == 3 ? " 1-5 5-1"[k % 8] : (char)('a' + k % 26);
            big[len > at ? len : at] = '\0';
            memset(reply, 'x', sizeof reply);
            int r = cb_command(big, reply);
            n++;
            if ((r != 0 && r != 1) || !bounded(reply)) {
                bad++;
                printf("     a %zu-byte '%s...': returned %d\n", len, heads[h], r);
            }
        }
    }
    cb_command("set dbpath ", reply);
    cb_command("set hashsize 32", reply);
    cb_command("set book 0", reply);
    check(bad == 0 && still_plays(), "enginecommand abused",
          "%d commands (every one CheckerBoard sends, bad values, long, empty, control and non-ASCII "
          "strings): %d answered badly; a legal move after them",
          n, bad);

    /* getmove with boards CheckerBoard's setup mode could make */
    struct {
        const char *what;
        const char *fen; /* NULL: made below */
        int expect;
    } boards[] = {
        {"13 black men", "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12,13", CB_UNKNOWN},
        {"13 men a side", "W:W20,21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12,13",
         CB_UNKNOWN},
        {"a black man on its crowning row", "B:W21:B29", CB_UNKNOWN},
        {"a white man on its crowning row", "W:W2:B21", CB_UNKNOWN},
        {"no piece at all", "B:W:B", CB_LOSS},
        {"no move: the side to move is blocked", "W:W5:B1", CB_LOSS},
        {"no piece of the side to move", "B:W21,22:B", CB_LOSS},
        {"a piece on a light square", NULL, CB_UNKNOWN},
        {"a square holding no piece's value", NULL, CB_UNKNOWN},
        {"the side to move neither colour", NULL, CB_UNKNOWN},
    };
    bad = 0;
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        int board[8][8], keep[8][8], color = CB_BLACK, playnow = 0;
        char status[1024] = "";
        struct CBmove mv;
        memset(board, 0, sizeof board);
        if (boards[i].fen) {
            /* placed square by square (board_from_fen refuses some of them) */
            const char *f = boards[i].fen;
            color = f[0] == 'B' ? CB_BLACK : CB_WHITE;
            int side = 0;
            for (const char *p = f + 1; *p; p++) {
                if (*p == 'W') side = CB_WHITE;
                else if (*p == 'B') side = CB_BLACK;
                else if (*p >= '0' && *p <= '9') {
                    int n2 = (int)strtol(p, (char **)&p, 10), x, y;
                    coor_of(n2, &x, &y);
                    board[x][y] = side | CB_MAN;
                    p--;
                }
            }
        } else {
            Board b;
            board_from_fen(&b, MIDDLE_FOR_ABUSE, NULL);
            to_cb(&b, board);
            if (strstr(boards[i].what, "light")) board[1][0] = CB_WHITE | CB_MAN;
            else if (strstr(boards[i].what, "value")) board[0][0] = 99;
            else color = 7;
        }
        memcpy(keep, board, sizeof keep);
        int r = cb_getmove(board, color, 0.05, status, &playnow, 0, 0, &mv);
        int same = memcmp(board, keep, sizeof keep) == 0;
        if (r != boards[i].expect || !same || strncmp(status, "kingme: ", 8) != 0 || !bounded(status)) bad++;
        printf("     %s: getmove %d, board %s, '%s'\n", boards[i].what, r, same ? "unchanged" : "CHANGED",
               status);
    }
    check(bad == 0 && still_plays(), "getmove with illegal boards, no move, 13 men a side",
          "%d boards answered otherwise; a legal move after them", bad);
}

/* The book kingme.book beside the DLL: found by itself, played from the
 * start position at once, then switched off for the games and clocks. */
static void opening_book(void)
{
    char reply[1024];
    int r = cb_command("get bookfile", reply);
    check(r == 1 && strcmp(reply, "kingme.book") == 0, "the book beside the DLL", "get bookfile '%s'", reply);
    r = cb_command("get book", reply);
    check(r == 1 && strcmp(reply, "3") == 0, "get book (best moves)", "%d '%s'", r, reply);
    Game g;
    game_init(&g, NULL);
    send_gamehist(&g);
    Timed t = ask(&g.cur, 5.0, 0, 0, NULL);
    check(t.move >= 0 && strstr(t.status, "from the opening book") != NULL && t.seconds < 1, "a book move",
          "%.3f s: %s", t.seconds, t.status);
    game_free(&g);
    r = cb_command("set book 0", reply);
    check(r == 1, "set book 0", "'%s'", reply);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: wine_test.exe DLL [DBDIR]\n");
        return 2;
    }
    board_hash_init();
    HMODULE dll = LoadLibraryA(argv[1]);
    if (!dll) {
        printf("FAIL LoadLibrary(%s): error %lu\n", argv[1], (unsigned long)GetLastError());
        printf("test-dll: 0 passed, 1 failed\n");
        return 1;
    }
    cb_getmove = (GetmoveFn)(void *)GetProcAddress(dll, "getmove");
    cb_command = (CommandFn)(void *)GetProcAddress(dll, "enginecommand");
    check(cb_getmove && cb_command, "LoadLibrary and GetProcAddress", "%s: getmove %s, enginecommand %s",
          argv[1], cb_getmove ? "found" : "MISSING", cb_command ? "found" : "MISSING");
    if (cb_getmove && cb_command) {
        hash_size();
        commands();
        database(argc > 2 ? argv[2] : NULL);
        opening_book();
        forced_move();
        abuse();
        cb_command("set dbpath ", (char[1024]){0}); /* the game and the clocks without it */
        whole_game(0.05);
        time_modes();
        move_now();
    }
    FreeLibrary(dll);
    printf("test-dll: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
