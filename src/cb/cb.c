/* cb.c - kingme as a CheckerBoard engine (cb.h): CheckerBoard's boards,
 * clocks and commands turned into an engine session's positions, searches
 * and options. The search and everything it knows are the session's. */
#include "cb.h"
#include "kingme/base.h"
#include "kingme/book.h"
#include "kingme/egdb.h"
#include "kingme/game.h"
#include "kingme/notation.h"
#include "kingme/search.h"
#include "kingme/session.h"
#include "kingme/textio.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <unistd.h>
#endif

#define CB_HASH_MB 64 /* the table a new engine gets ("set hashsize" changes it) */
#define CB_DB_CACHE_MB                                                                          \
    64                       /* the database's cache of decoded blocks ("set dbmbytes"): one of \
                              * the sizes CheckerBoard's list offers (0, 64, 128, ...) */
#define CB_NO_PIECE_LIMIT 24 /* "limit max pieces": CheckerBoard's "No limit" */
#define CB_STATUS_MAX 250    /* status lines kept short: older CheckerBoards have 256 bytes */
#define CB_PATH_MAX 1024
#define CB_BOOK_FILE "kingme.book" /* the book a new engine opens beside the DLL */
#define CB_EXACT_SHARE 0.95        /* of an exact time a move, the share the search is given */

/* The engine of this loaded module. CheckerBoard's interface names no
 * engine, so this is the one piece of state that is not an argument. */
typedef struct CbEngine {
    pthread_mutex_t mu; /* around every use of the session; not held while it searches */
    Session *s;         /* made by the first call */
    bool failed;        /* the session could not be made (init_err says why) */
    char init_err[KM_ERR_MAX];
    char dbpath[CB_PATH_MAX];   /* the database folder ("" none) */
    char bookpath[CB_PATH_MAX]; /* the book file as set ("" none) */
    int book_level;             /* CheckerBoard's: 0 no book, 1 all kinds of moves, 2 good, 3 best */
    bool db_enabled;            /* "set enable_wld": use the database at dbpath */
    bool allscores;             /* "set allscores": every move's score in the status line */
    int db_pieces;              /* pieces of the open database used (0: none open) */
    int db_cache_mb;            /* "set dbmbytes": the database's cache */
    int db_max_pieces;          /* "set max_dbpieces": the most pieces probed (CB_NO_PIECE_LIMIT: all) */
} CbEngine;

static CbEngine the_engine = {.mu = PTHREAD_MUTEX_INITIALIZER,
                              .db_enabled = true,
                              .book_level = 3,
                              .db_cache_mb = CB_DB_CACHE_MB,
                              .db_max_pieces = CB_NO_PIECE_LIMIT};

/* ---- the board ---------------------------------------------------------------------- */

/* Square index 0..31 (square number - 1) to CheckerBoard's coordinates. */
static void square_coor(int sq, struct coor *c)
{
    c->y = sq / 4;
    c->x = 2 * (3 - sq % 4) + (c->y & 1);
}

static int piece_at(const Board *b, int sq)
{
    uint32_t m = 1u << sq;
    int colour = b->pieces[KM_BLACK] & m ? CB_BLACK : b->pieces[KM_WHITE] & m ? CB_WHITE : 0;
    if (!colour) return CB_FREE;
    return colour | (b->kings & m ? CB_KING : CB_MAN);
}

/* CheckerBoard's board and side to move as a Board, checked as a FEN is
 * (at most 12 pieces a side, no man on its own crowning row). */
static int board_from_cb(int board[8][8], int color, Board *out, char *err)
{
    if (color != CB_BLACK && color != CB_WHITE)
        return km_fail(err, "the side to move is %d, not %d or %d", color, CB_BLACK, CB_WHITE);
    /* the squares no piece stands on in draughts: empty */
    for (int x = 0; x < 8; x++)
        for (int y = 0; y < 8; y++)
            if ((x + y) % 2 == 1 && board[x][y] != CB_FREE)
                return km_fail(err, "column %d row %d holds %d, off the playing squares", x, y, board[x][y]);
    char part[2][160];
    size_t at[2] = {0, 0};
    for (int sq = 0; sq < 32; sq++) {
        struct coor c;
        square_coor(sq, &c);
        int v = board[c.x][c.y];
        if (v == CB_FREE) continue;
        int side = v == (CB_BLACK | CB_MAN) || v == (CB_BLACK | CB_KING)   ? KM_BLACK
                   : v == (CB_WHITE | CB_MAN) || v == (CB_WHITE | CB_KING) ? KM_WHITE
                                                                           : -1;
        if (side < 0) return km_fail(err, "square %d holds %d, which is no piece", sq + 1, v);
        at[side] += (size_t)snprintf(part[side] + at[side], sizeof part[side] - at[side], "%s%s%d",
                                     at[side] ? "," : "", v & CB_KING ? "K" : "", sq + 1);
    }
    char fen[400];
    snprintf(fen, sizeof fen, "%c:W%s:B%s", color == CB_BLACK ? 'B' : 'W', at[KM_WHITE] ? part[KM_WHITE] : "",
             at[KM_BLACK] ? part[KM_BLACK] : "");
    return board_from_fen(out, fen, err);
}

static void board_to_cb(const Board *b, int board[8][8])
{
    memset(board, 0, 64 * sizeof(int));
    for (int sq = 0; sq < 32; sq++) {
        struct coor c;
        square_coor(sq, &c);
        board[c.x][c.y] = piece_at(b, sq);
    }
}

/* m (a legal move of before) as CheckerBoard describes a move. */
static void move_to_cb(const Board *before, const Move *m, struct CBmove *out)
{
    memset(out, 0, sizeof *out);
    Board after = *before;
    mg_make_move(&after, m);
    out->jumps = m->njumps;
    out->oldpiece = piece_at(before, m->from);
    out->newpiece = piece_at(&after, m->to);
    square_coor(m->from, &out->from);
    square_coor(m->to, &out->to);
    out->path[0] = out->from;
    if (m->njumps == 0) out->path[1] = out->to;
    for (int i = 0; i < m->njumps; i++) {
        square_coor(m->path[i], &out->path[i + 1]);
        /* the piece taken lies half-way along the jump */
        struct coor a = out->path[i], b = out->path[i + 1];
        out->del[i] = (struct coor){(a.x + b.x) / 2, (a.y + b.y) / 2};
        out->delpiece[i] = piece_at(before, 4 * out->del[i].y + 3 - out->del[i].x / 2);
    }
    if (m->njumps < 12) out->del[m->njumps].x = -1;
}

/* ---- the session ---------------------------------------------------------------------- */

/* Open the database at cb->dbpath into the session (or none), with the
 * cache and the piece limit set. -1 with err: the open one is kept.
 * CheckerBoard's commands (set dbpath ...) come outside any clock: the
 * files are read and checked before the reply. A new engine's own folder
 * is opened on its first call, which may be a getmove whose clock runs:
 * background, its files then read on a thread while it searches without
 * them (egdb_open_background). */
static int open_db(CbEngine *cb, bool background, char *err)
{
    if (!cb->db_enabled || !cb->dbpath[0]) {
        session_take_egdb(cb->s, NULL);
        cb->db_pieces = 0;
        return 0;
    }
    /* the cache: 0 is the opener's default, CheckerBoard's 0 the least */
    size_t cache_mb = cb->db_cache_mb > 0 ? (size_t)cb->db_cache_mb : 1;
    Egdb *db =
        background ? egdb_open_background(cb->dbpath, cache_mb, err) : egdb_open(cb->dbpath, cache_mb, err);
    if (!db) return -1;
    egdb_limit_pieces(db, cb->db_max_pieces);
    session_take_egdb(cb->s, db);
    cb->db_pieces = egdb_pieces(db);
    return 0;
}

/* The path of name in the DLL's own folder (the engines folder): true, or
 * false natively (the tests), where there is no DLL. */
static bool beside_dll(const char *name, char *out, size_t len)
{
#ifdef _WIN32
    HMODULE self = NULL;
    char path[CB_PATH_MAX];
    if (!GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                                GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                            (LPCSTR)(void *)beside_dll, &self))
        return false;
    DWORD n = GetModuleFileNameA(self, path, sizeof path);
    if (n == 0 || n >= sizeof path) return false;
    char *slash = strrchr(path, '\\');
    if (!slash) return false;
    slash[1] = '\0';
    return snprintf(out, len, "%s%s", path, name) < (int)len;
#else
    (void)name, (void)out, (void)len;
    return false;
#endif
}

/* A bare file name given for the book is the DLL's folder's, as the
 * interface says; a path is taken as it is (relative: to CheckerBoard's). */
static void book_path_for(const char *given, char *out, size_t len)
{
    if (strpbrk(given, "\\/:") || !beside_dll(given, out, len)) snprintf(out, len, "%s", given);
}

/* What a new engine opens by itself, as the command-line program opens what
 * is beside it: the folder egdb and the book kingme.book beside the DLL. */
static void open_defaults(CbEngine *cb)
{
    char path[CB_PATH_MAX], err[KM_ERR_MAX];
#ifdef _WIN32
    DWORD attr;
    if (beside_dll(EGDB_DEFAULT_DIR, path, sizeof path) &&
        (attr = GetFileAttributesA(path)) != INVALID_FILE_ATTRIBUTES && (attr & FILE_ATTRIBUTE_DIRECTORY)) {
        snprintf(cb->dbpath, sizeof cb->dbpath, "%s", path);
        if (open_db(cb, true, err)) cb->dbpath[0] = '\0'; /* a broken folder beside the DLL: none */
    }
    if (beside_dll(CB_BOOK_FILE, path, sizeof path) && GetFileAttributesA(path) != INVALID_FILE_ATTRIBUTES &&
        session_open_book(cb->s, path, err) == 0)
        snprintf(cb->bookpath, sizeof cb->bookpath, "%s", CB_BOOK_FILE);
#else
    (void)cb, (void)path, (void)err; /* natively (the tests) only set dbpath and set bookfile open them */
#endif
}

/* The variety of CheckerBoard's book settings: best moves, good moves, all
 * kinds of moves (men below the book's best; 0: the best alone). */
static const double book_variety[4] = {0, 0.25, 0.05, 0};

/* The session, made on the first call (with cb->mu held). NULL with a
 * message in err when it cannot be made. */
static Session *session_of(CbEngine *cb, char *err)
{
    if (cb->s) return cb->s;
    if (cb->failed) {
        km_fail(err, "%s", cb->init_err);
        return NULL;
    }
    cb->s = session_new(CB_HASH_MB, cb->init_err);
    if (!cb->s) {
        cb->failed = true;
        km_fail(err, "%s", cb->init_err);
        return NULL;
    }
    /* the book's choices differ from one CheckerBoard run to the next */
    session_set_seed(cb->s, (uint64_t)(km_now() * 1e6));
    session_set_book_variety(cb->s, book_variety[cb->book_level]);
    open_defaults(cb);
    session_prepare(cb->s); /* before any move's clock runs */
    return cb->s;
}

/* ---- getmove ---------------------------------------------------------------------- */

/* What getmove's search shares with the search thread's callbacks. */
typedef struct CbSearch {
    char *str; /* CheckerBoard's status line */
    bool all;  /* every move's score in it (allscores) */
    pthread_mutex_t mu;
    pthread_cond_t cv; /* signalled with done */
    bool done;         /* r and rc are the result */
    SearchResult r;
    int rc;
} CbSearch;

static void set_status(char *str, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_status(char *str, const char *fmt, ...)
{
    char line[CB_STATUS_MAX + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    memcpy(str, line, strlen(line) + 1); /* CheckerBoard reads it from another thread */
}

/* "depth 12  score 35  0.52 s  1.4 M nodes  pv 11-15 23-19 ..." */
static void status_of(const SearchResult *r, const char *head, char *str)
{
    char score[32], pv[CB_STATUS_MAX + 1];
    search_score_text(r->score, score, sizeof score);
    notation_moves_to_text(r->pv, r->pv_len, pv, 160); /* room for the rest of the status */
    set_status(str, "%sdepth %d  score %s  %.2f s  %.1f M nodes  pv%s%s", head, r->depth, score, r->seconds,
               (double)r->nodes / 1e6, pv[0] ? " " : "", pv);
}

/* allscores: "depth 12  11-15 35, 9-14 20, 10-14 -5, ..." (best first, as
 * many as the line holds). A stopped iteration lists the moves it searched
 * to the new depth first, then the others with their depth:
 * "depth 13  3-8 -191 | depth 12  9-14 -51, ..." */
static void status_all(const SearchResult *r, const char *head, char *str)
{
    if (r->nlines < 1) {
        status_of(r, head, str);
        return;
    }
    char line[CB_STATUS_MAX + 1];
    int at = snprintf(line, sizeof line, "%sdepth %d ", head, r->lines[0].depth);
    for (int i = 0; i < r->nlines && at < CB_STATUS_MAX; i++) {
        char mv[MOVE_TEXT_MAX], score[32], item[MOVE_TEXT_MAX + 60], sep[24] = "";
        notation_move_to_text(&r->lines[i].move, mv);
        search_score_text(r->lines[i].score, score, sizeof score);
        if (i > 0 && r->lines[i].depth != r->lines[i - 1].depth)
            snprintf(sep, sizeof sep, " | depth %d ", r->lines[i].depth);
        else if (i > 0) snprintf(sep, sizeof sep, ",");
        int n = snprintf(item, sizeof item, "%s %s %s", sep, mv, score);
        if (at + n > CB_STATUS_MAX) break; /* no move without its score */
        memcpy(line + at, item, (size_t)n + 1);
        at += n;
    }
    set_status(str, "%s", line);
}

static void on_report(const SearchResult *r, void *user)
{
    CbSearch *cs = user;
    if (cs->all) status_all(r, "kingme: ", cs->str);
    else status_of(r, "kingme: ", cs->str);
}

static void on_done(const SearchResult *r, int rc, void *user)
{
    CbSearch *cs = user;
    pthread_mutex_lock(&cs->mu);
    cs->r = *r;
    cs->rc = rc;
    cs->done = true;
    pthread_cond_signal(&cs->cv);
    pthread_mutex_unlock(&cs->mu);
}

/* Wait up to a millisecond for the search's result: true once it is there. */
static bool wait_done(CbSearch *cs)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_nsec += 1000000;
    if (t.tv_nsec >= 1000000000) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000;
    }
    pthread_mutex_lock(&cs->mu);
    if (!cs->done) pthread_cond_timedwait(&cs->cv, &cs->mu, &t);
    bool done = cs->done;
    pthread_mutex_unlock(&cs->mu);
    return done;
}

/* What the engine expects of the game after its search: a win or loss the
 * search proved (or the database's), a draw when the database says so. */
static int expectation(const Session *s, const Board *root, const SearchResult *r)
{
    if (!r->has_move || r->score <= -SCORE_DB_MIN) return CB_LOSS;
    if (r->score >= SCORE_DB_MIN) return CB_WIN;
    if (egdb_probe(session_egdb(s), root, NULL) == EGDB_DRAW) return CB_DRAW;
    return CB_UNKNOWN;
}

void cb_time_limits(double maxtime, int info, int moreinfo, SessionGo *go)
{
    static const double unit[4] = {0, 0.001, 0.01, 0.1};
    int mode = (info >> CB_INCR_TIME_SHIFT) & 3;
    if (mode) {
        /* a game clock: the time manager plans the move */
        double left = (double)((unsigned)moreinfo >> 16 & 0xffff) * unit[mode];
        go->time_left = left > 0 ? left : 0.001;
        go->increment = (double)((unsigned)moreinfo & 0xffff) * unit[mode];
    } else {
        /* a time a move, on average: used whole, less the time manager's
         * margin, so the average is the time asked; exactly: a twentieth
         * more kept back, for the thread switches between the search's end
         * and CheckerBoard's clock on a busy machine */
        double t = info & CB_EXACT_TIME ? maxtime * CB_EXACT_SHARE : maxtime;
        go->movetime = t > 0.001 ? t : 0.001;
    }
}

int CB_CALL getmove(int board[8][8], int color, double maxtime, char str[CB_STATUS_SIZE], int *playnow,
                    int info, int moreinfo, struct CBmove *move)
{
    double start = km_now(); /* the move's time runs from the call */
    CbEngine *cb = &the_engine;
    char err[KM_ERR_MAX], no_str[CB_STATUS_MAX + 1];
    int no_playnow = 0;
    struct CBmove no_move;
    if (!str) str = no_str;
    if (!playnow) playnow = &no_playnow;
    if (!move) move = &no_move;
    /* info's CB_RESET_MOVES is not needed: set gamehist comes before every
     * move, and a board that is not where that game ends starts afresh */
    pthread_mutex_lock(&cb->mu);
    Session *s = session_of(cb, err);
    Board b;
    if (!s || session_busy(s) || board_from_cb(board, color, &b, err)) {
        if (s && session_busy(s)) km_fail(err, "already searching");
        set_status(str, "kingme: %s", err);
        pthread_mutex_unlock(&cb->mu);
        return CB_UNKNOWN;
    }
    /* the game CheckerBoard sent (set gamehist) when it ends here, so that
     * repetitions are seen; else this position alone */
    if (!board_equal(&session_game(s)->cur, &b) && session_set_position(s, &b)) {
        set_status(str, "kingme: out of memory");
        pthread_mutex_unlock(&cb->mu);
        return CB_UNKNOWN;
    }
    MoveList ml;
    if (mg_moves(&b, &ml) == 0) {
        set_status(str, "kingme: no legal move");
        pthread_mutex_unlock(&cb->mu);
        return CB_LOSS;
    }
    BookMove bm;
    /* with allscores every move is searched, as in analysis */
    if (cb->book_level > 0 && !cb->allscores && session_book_move(s, &bm)) { /* at once */
        char t[MOVE_TEXT_MAX];
        notation_move_to_text(&bm.move, t);
        Board after = b;
        mg_make_move(&after, &bm.move);
        board_to_cb(&after, board);
        move_to_cb(&b, &bm.move, move);
        set_status(str, "%s: from the opening book, score %d", t, (int)bm.score);
        pthread_mutex_unlock(&cb->mu);
        return CB_UNKNOWN;
    }
    SessionGo go = {0};
    go.start = start;
    cb_time_limits(maxtime, info, moreinfo, &go);
    if (cb->allscores) go.multipv = SEARCH_ALL_MOVES;
    CbSearch cs = {.str = str, .all = cb->allscores};
    pthread_mutex_init(&cs.mu, NULL);
    pthread_cond_init(&cs.cv, NULL);
    set_status(str, "kingme: searching");
    if (session_go(s, &go, on_report, on_done, &cs, err)) {
        set_status(str, "kingme: %s", err);
        pthread_mutex_unlock(&cb->mu);
        pthread_mutex_destroy(&cs.mu);
        pthread_cond_destroy(&cs.cv);
        return CB_UNKNOWN;
    }
    pthread_mutex_unlock(&cb->mu);
    /* wait for the move, and ask for it as soon as *playnow is set */
    for (bool halted = false; !wait_done(&cs);) {
        if (!halted && __atomic_load_n(playnow, __ATOMIC_RELAXED)) {
            session_halt(s);
            halted = true;
        }
    }
    pthread_mutex_destroy(&cs.mu);
    pthread_cond_destroy(&cs.cv);
    pthread_mutex_lock(&cb->mu);
    /* the search's thread joined before the call returns: no thread of the
     * DLL outlives a call, so unloading it (DllMain) never waits for one */
    session_stop(s);
    int result;
    if (cs.rc || !cs.r.has_move) {
        set_status(str, "kingme: %s", cs.rc ? "out of memory" : "no move");
        result = CB_UNKNOWN;
    } else {
        char head[MOVE_TEXT_MAX + 16];
        notation_move_to_text(&cs.r.best, head);
        strcat(head, ": ");
        Board after = b;
        mg_make_move(&after, &cs.r.best);
        board_to_cb(&after, board);
        move_to_cb(&b, &cs.r.best, move);
        if (cs.all) status_all(&cs.r, head, str);
        else status_of(&cs.r, head, str);
        result = expectation(s, &b, &cs.r);
    }
    pthread_mutex_unlock(&cb->mu);
    return result;
}

/* ---- enginecommand ------------------------------------------------------------------- */

static int say(char *reply, int handled, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int say(char *reply, int handled, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reply, CB_REPLY_SIZE, fmt, ap);
    va_end(ap);
    return handled;
}

/* The word at *p (advancing past it and the blanks after it), at most
 * len - 1 bytes of it into buf. */
static void word(const char **p, char *buf, size_t len)
{
    const char *q = *p;
    while (*q == ' ' || *q == '\t') q++;
    size_t n = 0;
    while (*q && *q != ' ' && *q != '\t' && *q != '\r' && *q != '\n') {
        if (n + 1 < len) buf[n++] = *q;
        q++;
    }
    buf[n] = '\0';
    while (*q == ' ' || *q == '\t') q++;
    *p = q;
}

/* The rest of the line, blanks at its end dropped, into buf. false when it
 * does not fit. */
static bool rest(const char *p, char *buf, size_t len)
{
    size_t n = strlen(p);
    while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r' || p[n - 1] == '\n')) n--;
    if (n >= len) return false;
    memcpy(buf, p, n);
    buf[n] = '\0';
    return true;
}

static bool parse_switch(const char *v, bool *out)
{
    long long x;
    if (!textio_parse_ll(v, 0, 1, &x)) return false;
    *out = x == 1;
    return true;
}

static int cmd_about(CbEngine *cb, Session *s, char *reply)
{
    char db[CB_PATH_MAX + 64];
    if (cb->db_pieces)
        snprintf(db, sizeof db, "%s (up to %d pieces, cache %d MB)", cb->dbpath, cb->db_pieces,
                 cb->db_cache_mb);
    else snprintf(db, sizeof db, "none");
    char book[CB_PATH_MAX + 64];
    static const char *const what[4] = {"off", "all kinds of moves", "good moves", "best moves"};
    if (session_book(s)) snprintf(book, sizeof book, "%s (%s)", cb->bookpath, what[cb->book_level]);
    else snprintf(book, sizeof book, "none");
    return say(reply, 1,
               "kingme %s\nan English draughts engine\n\nhash table: %zu MB\nsearch threads: %d\n"
               "search: %s\nendgame database: %s\nopening book: %s",
               KINGME_VERSION, session_hash_mb(s), session_threads(s),
               session_exact(s) ? "exact (solve)" : "selective", db, book);
}

/* "set gamehist FEN [MOVE ...]": the game since its last capture or man move. */
static int cmd_gamehist(Session *s, const char *args, char *reply)
{
    int max = (int)(strlen(args) / 2 + 1); /* words of one letter and a blank at most */
    char *text = malloc(strlen(args) + 1);
    char **tok = malloc((size_t)max * sizeof *tok);
    const char **moves = malloc((size_t)max * sizeof *moves);
    if (!text || !tok || !moves) {
        free(text);
        free(tok);
        free(moves);
        return say(reply, 0, "gamehist: out of memory");
    }
    strcpy(text, args);
    int nt = textio_split(text, tok, max), n = 0;
    char *fen = nt > 0 ? tok[0] : NULL;
    for (int i = 1; i < nt; i++) moves[n++] = tok[i];
    free(tok);
    Board b;
    char err[KM_ERR_MAX];
    int handled;
    if (!fen) handled = say(reply, 0, "gamehist: the FEN is missing");
    else if (board_from_fen(&b, fen, err)) handled = say(reply, 0, "gamehist: %s", err);
    else if (session_set_game(s, &b, moves, n, err)) handled = say(reply, 0, "gamehist: %s", err);
    else handled = say(reply, 1, "gamehist: %d move%s", n, n == 1 ? "" : "s");
    free(text);
    free(moves);
    return handled;
}

static int cmd_dbpath(CbEngine *cb, const char *path, char *reply)
{
    char err[KM_ERR_MAX], old[CB_PATH_MAX];
    if (strlen(path) >= sizeof cb->dbpath) return say(reply, 0, "dbpath: the path is too long");
    snprintf(old, sizeof old, "%s", cb->dbpath);
    snprintf(cb->dbpath, sizeof cb->dbpath, "%s", path);
    if (open_db(cb, false, err)) {
        snprintf(cb->dbpath, sizeof cb->dbpath, "%s", old);
        return say(reply, 0, "dbpath: %s", err);
    }
    if (!path[0]) return say(reply, 1, "dbpath: none");
    if (!cb->db_enabled) return say(reply, 1, "dbpath %s (the database is disabled)", path);
    return say(reply, 1, "dbpath %s: up to %d pieces", path, cb->db_pieces);
}

/* "set NAME VALUE" */
static int cmd_set(CbEngine *cb, Session *s, const char *name, const char *args, char *reply)
{
    char value[CB_PATH_MAX], err[KM_ERR_MAX];
    long long v;
    bool on;
    if (strcmp(name, "gamehist") == 0) return cmd_gamehist(s, args, reply);
    if (!rest(args, value, sizeof value)) return say(reply, 0, "set %s: the value is too long", name);
    if (strcmp(name, "dbpath") == 0) return cmd_dbpath(cb, value, reply);
    if (strcmp(name, "check_wld_dir") == 0) {
        Egdb *db = egdb_open(value, 0, err);
        if (!db) return say(reply, 1, "%s", err);
        int n = egdb_pieces(db);
        egdb_close(db);
        return say(reply, 1, "%s: kingme's endgame database, up to %d pieces", value, n);
    }
    if (strcmp(name, "hashsize") == 0) {
        if (!textio_parse_ll(value, 0, SESSION_HASH_MAX, &v))
            return say(reply, 0, "hashsize: a size in MB from 0 to %d, not '%s'", SESSION_HASH_MAX, value);
        if (session_set_hash(s, (size_t)v, err)) return say(reply, 0, "hashsize: %s", err);
        return say(reply, 1, "hashsize %lld", v);
    }
    if (strcmp(name, "searchthreads") == 0) {
        if (!textio_parse_ll(value, 1, SEARCH_MAX_THREADS, &v))
            return say(reply, 0, "searchthreads: a number from 1 to %d, not '%s'", SEARCH_MAX_THREADS, value);
        if (session_set_threads(s, (int)v, err)) return say(reply, 0, "searchthreads: %s", err);
        return say(reply, 1, "searchthreads %lld", v);
    }
    if (strcmp(name, "enable_wld") == 0) {
        if (!parse_switch(value, &on)) return say(reply, 0, "enable_wld: 0 or 1, not '%s'", value);
        cb->db_enabled = on;
        if (open_db(cb, false, err)) {
            cb->db_enabled = false;
            return say(reply, 0, "enable_wld: %s", err);
        }
        return say(reply, 1, "enable_wld %d", on);
    }
    if (strcmp(name, "book") == 0) {
        if (!textio_parse_ll(value, 0, 3, &v)) return say(reply, 0, "book: 0 to 3, not '%s'", value);
        cb->book_level = (int)v;
        session_set_book_variety(s, book_variety[v]);
        static const char *const what[4] = {"no book", "all kinds of moves", "good moves", "best moves"};
        return say(reply, 1, "book %lld: %s%s", v, what[v], session_book(s) ? "" : " (no book file open)");
    }
    if (strcmp(name, "bookfile") == 0) {
        char path[CB_PATH_MAX];
        if (!value[0]) {
            session_take_book(s, NULL);
            cb->bookpath[0] = '\0';
            return say(reply, 1, "bookfile: none");
        }
        book_path_for(value, path, sizeof path);
        if (session_open_book(s, path, err)) return say(reply, 0, "bookfile: %s", err);
        snprintf(cb->bookpath, sizeof cb->bookpath, "%s", value);
        return say(reply, 1, "bookfile %s: %d positions", value, book_count(session_book(s)));
    }
    if (strcmp(name, "dbmbytes") == 0 || strcmp(name, "max_dbpieces") == 0) {
        bool cache = name[0] == 'd';
        if (cache ? !textio_parse_ll(value, 0, SESSION_HASH_MAX, &v)
                  : !textio_parse_ll(value, 1, CB_NO_PIECE_LIMIT, &v))
            return cache ? say(reply, 0, "dbmbytes: a size in MB from 0 to %d, not '%s'", SESSION_HASH_MAX,
                               value)
                         : say(reply, 0, "max_dbpieces: 1 to %d, not '%s'", CB_NO_PIECE_LIMIT, value);
        int *field = cache ? &cb->db_cache_mb : &cb->db_max_pieces, old = *field;
        *field = (int)v;
        if (open_db(cb, false, err)) {
            *field = old;
            return say(reply, 0, "%s: %s", name, err);
        }
        if (cache) return say(reply, 1, "dbmbytes %lld: the endgame database's cache in MB", v);
        if (!cb->db_pieces) return say(reply, 1, "max_dbpieces %lld (no database open)", v);
        return say(reply, 1, "max_dbpieces %lld: the database is used up to %d pieces", v, cb->db_pieces);
    }
    if (strcmp(name, "allscores") == 0) {
        if (!parse_switch(value, &on)) return say(reply, 0, "allscores: 0 or 1, not '%s'", value);
        cb->allscores = on;
        return say(reply, 1, "allscores %d", on);
    }
    if (strcmp(name, "solve") == 0) {
        /* solve mode: no reduction or pruning, which is kingme's exact search */
        if (!parse_switch(value, &on)) return say(reply, 0, "solve: 0 or 1, not '%s'", value);
        session_set_exact(s, on);
        if (!on) session_prepare(s);
        return say(reply, 1, "solve %d", on);
    }
    /* the auxiliary (MTC) database (enable_mtc, mtcpath, check_mtc_dir) and
     * anything else: CheckerBoard greys out a setting answered so */
    return say(reply, 0, "?");
}

/* The processors, for CheckerBoard's "get cpus" (shown beside the search
 * threads). */
static int processors(void)
{
#ifdef _WIN32
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return (int)si.dwNumberOfProcessors;
#else
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
#endif
}

/* "get NAME" */
static int cmd_get(CbEngine *cb, Session *s, const char *name, char *reply)
{
    if (strcmp(name, "protocolversion") == 0) return say(reply, 1, "%d", CB_PROTOCOL_VERSION);
    if (strcmp(name, "gametype") == 0) return say(reply, 1, "%d", CB_GAMETYPE_ENGLISH);
    if (strcmp(name, "hashsize") == 0) return say(reply, 1, "%zu", session_hash_mb(s));
    if (strcmp(name, "searchthreads") == 0) return say(reply, 1, "%d", session_threads(s));
    if (strcmp(name, "dbpath") == 0) return say(reply, 1, "%s", cb->dbpath);
    if (strcmp(name, "enable_wld") == 0) return say(reply, 1, "%d", cb->db_enabled);
    if (strcmp(name, "solve") == 0) return say(reply, 1, "%d", session_exact(s));
    if (strcmp(name, "allscores") == 0) return say(reply, 1, "%d", cb->allscores);
    if (strcmp(name, "bookfile") == 0) return say(reply, 1, "%s", cb->bookpath);
    if (strcmp(name, "dbmbytes") == 0) return say(reply, 1, "%d", cb->db_cache_mb);
    if (strcmp(name, "max_dbpieces") == 0) return say(reply, 1, "%d", cb->db_max_pieces);
    if (strcmp(name, "cpus") == 0) return say(reply, 1, "%d", processors());
    if (strcmp(name, "book") == 0) {
        /* "?" without a book file: CheckerBoard greys the book's choices out */
        if (!session_book(s)) return say(reply, 0, "?");
        return say(reply, 1, "%d", cb->book_level);
    }
    return say(reply, 0, "?");
}

static int command(CbEngine *cb, const char *line, char *reply)
{
    char cmd[64], name[64], err[KM_ERR_MAX];
    const char *p = line;
    word(&p, cmd, sizeof cmd);
    /* the session is made on the first command (CheckerBoard asks for the
     * name and the game type when it loads an engine), so that no move's
     * clock pays for it */
    Session *s = session_of(cb, err);
    if (strcmp(cmd, "name") == 0) return say(reply, 1, "kingme %s", KINGME_VERSION);
    if (strcmp(cmd, "help") == 0) return say(reply, 1, "kingme.htm");
    if (!s) return say(reply, 0, "kingme: %s", err);
    if (strcmp(cmd, "about") == 0) return cmd_about(cb, s, reply);
    if (strcmp(cmd, "get") == 0) {
        word(&p, name, sizeof name);
        return cmd_get(cb, s, name, reply);
    }
    if (strcmp(cmd, "set") == 0) {
        word(&p, name, sizeof name);
        if (session_busy(s)) return say(reply, 0, "kingme is searching: set %s after its move", name);
        return cmd_set(cb, s, name, p, reply);
    }
    if (strcmp(cmd, "staticevaluation") == 0) {
        char fen[256];
        Board b;
        if (!rest(p, fen, sizeof fen) || board_from_fen(&b, fen, err))
            return say(reply, 0, "staticevaluation: %s", fen[0] ? err : "the FEN is missing");
        EvalTable t;
        eval_table_init(&t, session_weights(s));
        return say(reply, 1, "kingme's static evaluation: %+d for %s", (int)eval_score(&b, b.stm, &t),
                   b.stm == KM_BLACK ? "Black" : "White");
    }
    return say(reply, 0, "kingme does not support '%.64s'", cmd);
}

int CB_CALL enginecommand(const char *command_line, char reply[CB_REPLY_SIZE])
{
    CbEngine *cb = &the_engine;
    char no_reply[CB_REPLY_SIZE];
    if (!reply) reply = no_reply;
    reply[0] = '\0';
    pthread_mutex_lock(&cb->mu);
    int handled = command(cb, command_line ? command_line : "", reply);
    pthread_mutex_unlock(&cb->mu);
    return handled;
}

#ifdef _WIN32
/* CheckerBoard unloads an engine it no longer uses (FreeLibrary): give the
 * table and the database back then. No search thread is left to wait for
 * (getmove joins its own), which DllMain could not do: a thread that ends
 * needs the loader lock DllMain holds. At process exit (reserved not NULL)
 * Windows takes everything back itself. */
BOOL WINAPI DllMain(HINSTANCE dll, DWORD reason, LPVOID reserved);
BOOL WINAPI DllMain(HINSTANCE dll, DWORD reason, LPVOID reserved)
{
    (void)dll;
    if (reason == DLL_PROCESS_DETACH && reserved == NULL && the_engine.s) {
        session_free(the_engine.s);
        the_engine.s = NULL;
    }
    return TRUE;
}
#endif
