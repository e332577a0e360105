/* engine.c - the engine protocol (engine.h) over an engine session. */
#include "kingme/engine.h"
#include "kingme/base.h"
#include "kingme/book.h"
#include "kingme/level.h"
#include "kingme/notation.h"
#include "kingme/textio.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct Engine {
    Session *s;
    int multipv; /* the running search's: > 1, one info line per move */
    const char *version;
    EngineWriter out;
    void *user;
    pthread_mutex_t out_mu; /* one line at a time */
};

static void say(Engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(Engine *e, const char *fmt, ...)
{
    char line[8192], shown[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    /* an answer that repeats the input (error lines) shows its control
     * bytes escaped: one line, and no escape sequence reaches a terminal */
    textio_escape(line, shown, sizeof shown);
    pthread_mutex_lock(&e->out_mu);
    e->out(shown, e->user);
    pthread_mutex_unlock(&e->out_mu);
}

Engine *engine_new(Session *s, const char *version, EngineWriter out, void *user, char *err)
{
    Engine *e = calloc(1, sizeof *e);
    if (!e) {
        session_free(s);
        km_fail(err, "out of memory");
        return NULL;
    }
    e->s = s;
    e->version = version;
    e->out = out;
    e->user = user;
    pthread_mutex_init(&e->out_mu, NULL);
    return e;
}

void engine_free(Engine *e)
{
    if (!e) return;
    session_free(e->s); /* stops the search: its bestmove is written */
    pthread_mutex_destroy(&e->out_mu);
    free(e);
}

/* ---- the search's lines ------------------------------------------------------- */

static void report(const SearchResult *r, void *user)
{
    Engine *e = user;
    char pv[SEARCH_MAX_PLY * MOVE_TEXT_MAX];
    uint64_t ms = (uint64_t)(r->seconds * 1000.0);
    uint64_t nps = r->seconds > 0 ? (uint64_t)((double)r->nodes / r->seconds) : 0;
    if (e->multipv > 1 && r->nlines) {
        /* one line per move, best first, each with its own score and line */
        for (int k = 0; k < r->nlines; k++) {
            const SearchLine *l = &r->lines[k];
            notation_moves_to_text(l->pv, l->pv_len, pv, sizeof pv);
            say(e,
                "info multipv %d depth %d score %" PRId32 " nodes %" PRIu64 " nps %" PRIu64 " time %" PRIu64
                " pv%s%s",
                k + 1, l->depth, l->score, r->nodes, nps, ms, pv[0] ? " " : "", pv);
        }
        return;
    }
    notation_moves_to_text(r->pv, r->pv_len, pv, sizeof pv);
    say(e, "info depth %d score %" PRId32 " nodes %" PRIu64 " nps %" PRIu64 " time %" PRIu64 " pv%s%s",
        r->depth, r->score, r->nodes, nps, ms, pv[0] ? " " : "", pv);
}

static void bestmove(const SearchResult *r, int rc, void *user)
{
    Engine *e = user;
    if (rc) say(e, "error out of memory");
    if (rc || !r->has_move) {
        say(e, "bestmove none");
    } else {
        /* the reply it expects, to ponder on: the line's second move */
        char t[MOVE_TEXT_MAX], p[MOVE_TEXT_MAX + 8] = "";
        notation_move_to_text(&r->best, t);
        if (r->pv_len >= 2 && mg_move_equal(&r->pv[0], &r->best)) {
            memcpy(p, " ponder ", 8);
            notation_move_to_text(&r->pv[1], p + 8);
        }
        say(e, "bestmove %s%s", t, p);
    }
}

/* ---- commands ---------------------------------------------------------------- */

#define MAX_TOKENS 4096

static bool parse_count(const char *s, long long lo, long long hi, long long *out)
{
    return s && textio_parse_ll(s, lo, hi, out);
}

/* tok[from..to) joined by single spaces into buf (cut to len); the length
 * the whole would take: len or more when it does not fit. */
static size_t join_words(char **tok, int from, int to, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = from; i < to; i++)
        at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "%s%s", i > from ? " " : "", tok[i]);
    return at;
}

int engine_parse_position(char **tok, int n, Board *start, int *first, char *err)
{
    char why[KM_ERR_MAX];
    int i = 1;
    if (i < n && strcmp(tok[i], "start") == 0) {
        board_init(start);
        i++;
    } else if (i < n && strcmp(tok[i], "fen") == 0) {
        /* the FEN is one token, or several up to "moves" (spaces are allowed in FEN) */
        char fen[1024];
        int from = ++i;
        while (i < n && strcmp(tok[i], "moves") != 0) i++;
        size_t at = join_words(tok, from, i, fen, sizeof fen);
        if (!at) return km_fail(err, "position fen: the FEN is missing");
        if (at >= sizeof fen) return km_fail(err, "position fen: the FEN is too long");
        if (board_from_fen(start, fen, why)) return km_fail(err, "position fen: %s", why);
    } else {
        return km_fail(err, "position: expected 'start' or 'fen FEN', not '%s'", i < n ? tok[i] : "");
    }
    if (i < n && strcmp(tok[i], "moves") != 0)
        return km_fail(err, "position: expected 'moves', not '%s'", tok[i]);
    *first = i + 1 < n ? i + 1 : n;
    return 0;
}

static void cmd_position(Engine *e, char **tok, int n)
{
    char err[KM_ERR_MAX];
    Board b;
    int first;
    if (engine_parse_position(tok, n, &b, &first, err)) say(e, "error %s", err);
    else if (session_set_game(e->s, &b, (const char *const *)&tok[first], n - first, err))
        say(e, "error position: %s", err);
}

static void cmd_go(Engine *e, char **tok, int n)
{
    SessionGo lim = {0};
    lim.start = km_now();                /* the clock runs from here, not from the thread's start */
    double ms[5] = {-1, -1, -1, -1, -1}; /* btime wtime binc winc movetime */
    static const char *const msname[5] = {"btime", "wtime", "binc", "winc", "movetime"};
    for (int i = 1; i < n; i++) {
        long long v;
        int k;
        for (k = 0; k < 5 && strcmp(tok[i], msname[k]) != 0; k++) {
        }
        if (k < 5) {
            if (!parse_count(i + 1 < n ? tok[i + 1] : NULL, 0, 1000LL * 3600 * 24 * 365, &v)) {
                say(e, "error go: %s needs a whole number of milliseconds", tok[i]);
                return;
            }
            ms[k] = (double)v;
            i++;
        } else if (strcmp(tok[i], "depth") == 0) {
            if (!parse_count(i + 1 < n ? tok[i + 1] : NULL, 1, SEARCH_MAX_PLY - 2, &v)) {
                say(e, "error go: depth needs a number from 1 to %d", SEARCH_MAX_PLY - 2);
                return;
            }
            lim.depth = (int)v;
            i++;
        } else if (strcmp(tok[i], "nodes") == 0) {
            if (!parse_count(i + 1 < n ? tok[i + 1] : NULL, 1, INT64_MAX, &v)) {
                say(e, "error go: nodes needs a positive whole number");
                return;
            }
            lim.nodes = (uint64_t)v;
            i++;
        } else if (strcmp(tok[i], "movestogo") == 0) {
            if (!parse_count(i + 1 < n ? tok[i + 1] : NULL, 1, 1000, &v)) {
                say(e, "error go: movestogo needs a number from 1 to 1000");
                return;
            }
            lim.movestogo = (int)v;
            i++;
        } else if (strcmp(tok[i], "infinite") == 0) {
            lim.infinite = true;
        } else if (strcmp(tok[i], "ponder") == 0) {
            lim.ponder = true;
        } else if (strcmp(tok[i], "allmoves") == 0) {
            lim.multipv = SEARCH_ALL_MOVES;
        } else if (strcmp(tok[i], "multipv") == 0) {
            if (!parse_count(i + 1 < n ? tok[i + 1] : NULL, 1, SEARCH_ALL_MOVES, &v)) {
                say(e, "error go: multipv needs a number from 1 to %d", SEARCH_ALL_MOVES);
                return;
            }
            lim.multipv = (int)v;
            i++;
        } else {
            say(e, "error go: unknown limit '%s'", tok[i]);
            return;
        }
    }
    int stm = session_game(e->s)->cur.stm;
    double left = ms[stm == KM_BLACK ? 0 : 1], inc = ms[stm == KM_BLACK ? 2 : 3];
    if (left >= 0) {
        lim.time_left = left > 0 ? left / 1000.0 : 0.001;
        lim.increment = inc > 0 ? inc / 1000.0 : 0;
    } else if (ms[2] >= 0 || ms[3] >= 0 || lim.movestogo) {
        say(e, "error go: binc, winc and movestogo go with btime and wtime");
        return;
    }
    if (ms[4] >= 0) lim.movetime = ms[4] > 0 ? ms[4] / 1000.0 : 0.001;
    bool limited = lim.depth || lim.nodes || lim.time_left > 0 || lim.movetime > 0 || lim.infinite;
    if (!limited) lim.movetime = 1.0; /* a bare `go`: one second */
    BookMove bm;
    if (!lim.infinite && !lim.ponder && lim.multipv <= 1 && session_book_move(e->s, &bm)) { /* at once */
        char t[MOVE_TEXT_MAX];
        notation_move_to_text(&bm.move, t);
        say(e, "info book score %" PRId32 " pv %s", bm.score, t);
        say(e, "bestmove %s", t);
        return;
    }
    e->multipv = lim.multipv;
    char err[KM_ERR_MAX];
    if (session_go(e->s, &lim, report, bestmove, e, err)) say(e, "error go: %s", err);
}

/* The words tok[2..n) joined by spaces into path: a path may hold spaces
 * (option weights, egdb, book). False, with an error line for option name,
 * when it does not fit. */
static bool path_of_words(Engine *e, const char *name, char **tok, int n, char *path, size_t len)
{
    if (join_words(tok, 2, n, path, len) < len) return true;
    say(e, "error option %s: the path is too long", name);
    return false;
}

static void cmd_option(Engine *e, char **tok, int n)
{
    char err[KM_ERR_MAX];
    long long v;
    if (n < 3) {
        say(e, "error option: expected 'option NAME VALUE' (hash, threads, weights, egdb, book, "
               "book-variety, seed, "
               "tiebreak, search, level)");
        return;
    }
    const char *name = tok[1], *val = tok[2];
    if (n > 3 && strcmp(name, "weights") != 0 && strcmp(name, "egdb") != 0 && strcmp(name, "book") != 0) {
        say(e, "error option %s: one value expected", name);
        return;
    }
    if (strcmp(name, "hash") == 0) {
        if (!parse_count(val, 0, SESSION_HASH_MAX, &v)) {
            say(e, "error option hash: a size in MB from 0 to %d, not '%s'", SESSION_HASH_MAX, val);
            return;
        }
        if (session_set_hash(e->s, (size_t)v, err)) say(e, "error option hash: %s", err);
    } else if (strcmp(name, "threads") == 0) {
        if (!parse_count(val, 1, SEARCH_MAX_THREADS, &v)) {
            say(e, "error option threads: a number of threads from 1 to %d, not '%s'", SEARCH_MAX_THREADS,
                val);
            return;
        }
        if (session_set_threads(e->s, (int)v, err)) say(e, "error option threads: %s", err);
    } else if (strcmp(name, "weights") == 0 || strcmp(name, "egdb") == 0 || strcmp(name, "book") == 0) {
        bool none = strcmp(val, "none") == 0 && n == 3;
        char path[4096]; /* a path may hold spaces: the rest of the line */
        if (name[0] == 'w') {
            if (path_of_words(e, name, tok, n, path, sizeof path) && session_load_weights(e->s, path, err))
                say(e, "error option weights: %s", err);
        } else if (name[0] == 'e') {
            if (none) session_take_egdb(e->s, NULL);
            else if (path_of_words(e, name, tok, n, path, sizeof path) && session_open_egdb(e->s, path, err))
                say(e, "error option egdb: %s", err);
        } else {
            if (none) session_take_book(e->s, NULL);
            else if (path_of_words(e, name, tok, n, path, sizeof path) && session_open_book(e->s, path, err))
                say(e, "error option book: %s", err);
        }
    } else if (strcmp(name, "book-variety") == 0) {
        char *end;
        double x = strtod(val, &end);
        if (end == val || *end || !(x >= 0 && x <= 100)) {
            say(e, "error option book-variety: a margin in men from 0 to 100, not '%s'", val);
            return;
        }
        session_set_book_variety(e->s, x);
    } else if (strcmp(name, "seed") == 0) {
        if (!parse_count(val, 0, INT64_MAX, &v)) {
            say(e, "error option seed: a whole number from 0, not '%s'", val);
            return;
        }
        session_set_seed(e->s, (uint64_t)v);
    } else if (strcmp(name, "tiebreak") == 0) {
        if (strcmp(val, "first") == 0) session_set_tiebreak(e->s, TIEBREAK_FIRST);
        else if (strcmp(val, "random") == 0) session_set_tiebreak(e->s, TIEBREAK_RANDOM);
        else say(e, "error option tiebreak: 'first' or 'random', not '%s'", val);
    } else if (strcmp(name, "search") == 0) {
        if (strcmp(val, "selective") == 0) session_set_exact(e->s, false);
        else if (strcmp(val, "exact") == 0) session_set_exact(e->s, true);
        else say(e, "error option search: 'selective' or 'exact', not '%s'", val);
    } else if (strcmp(name, "level") == 0) {
        if (!parse_count(val, LEVEL_MIN, LEVEL_FULL, &v)) {
            say(e, "error option level: a level from %d (a beginner) to %d (the full engine), not '%s'",
                LEVEL_MIN, LEVEL_FULL, val);
            return;
        }
        session_set_level(e->s, (int)v);
    } else if (search_params_find(name) >= 0) {
        if (session_set_search_param(e->s, name, val, err)) say(e, "error option %s", err);
    } else {
        say(e,
            "error option: unknown option '%s' (hash, threads, weights, egdb, book, book-variety, seed, "
            "tiebreak, "
            "search, level, or a search parameter: kingme show --search)",
            name);
    }
}

static void cmd_moves(Engine *e)
{
    MoveList ml;
    mg_moves(&session_game(e->s)->cur, &ml);
    char buf[MAX_MOVES * (MOVE_TEXT_MAX + 1) + 16];
    size_t at = (size_t)snprintf(buf, sizeof buf, "moves");
    if (!ml.count) snprintf(buf + at, sizeof buf - at, " none");
    for (int i = 0; i < ml.count; i++) {
        char t[MOVE_TEXT_MAX];
        notation_move_to_text(&ml.moves[i], t);
        at += (size_t)snprintf(buf + at, sizeof buf - at, " %s", t);
    }
    say(e, "%s", buf);
}

bool engine_command(Engine *e, const char *line)
{
    size_t len = strlen(line);
    if (len > ENGINE_LINE_MAX) {
        say(e, "error the line is too long (%zu bytes, at most %d)", len, ENGINE_LINE_MAX);
        return true;
    }
    /* a line of len bytes has at most len / 2 + 1 words */
    size_t ntok = len / 2 + 2 < MAX_TOKENS + 1 ? len / 2 + 2 : MAX_TOKENS + 1;
    char *copy = malloc(len + 1);
    char **tok = malloc(ntok * sizeof *tok);
    if (!copy || !tok) {
        free(copy);
        free(tok);
        say(e, "error out of memory");
        return true;
    }
    memcpy(copy, line, len + 1);
    int n = textio_split(copy, tok, (int)ntok - 1);
    bool go_on = true;
    const char *c = n > 0 ? tok[0] : "";
    bool busy = session_busy(e->s);
    if (n > MAX_TOKENS) {
        say(e, "error too many words on one line (at most %d)", MAX_TOKENS);
    } else if (n == 0) {
        /* an empty line: nothing to do */
    } else if (strcmp(c, "quit") == 0) {
        session_stop(e->s);
        go_on = false;
    } else if (strcmp(c, "stop") == 0) {
        session_stop(e->s);
    } else if (strcmp(c, "ponderhit") == 0) {
        session_ponderhit(e->s); /* nothing when no ponder search runs */
    } else if (strcmp(c, "isready") == 0) {
        /* ProbCut's margin for the weights is measured now (once), not
         * on the first move's clock */
        if (!busy) {
            session_prepare(e->s);
            /* the database's files load in the background from the start
               (or option egdb): ready means they are in */
            char err[KM_ERR_MAX];
            if (session_wait_egdb(e->s, err)) say(e, "error egdb: %s", err);
        }
        say(e, "readyok");
    } else if (strcmp(c, "hello") == 0) {
        say(e, "hello kingme %s protocol %d", e->version, ENGINE_PROTOCOL);
    } else if (strcmp(c, "fen") == 0 || strcmp(c, "moves") == 0 || strcmp(c, "eval") == 0) {
        if (n > 1) say(e, "error %s takes no argument", c);
        else if (c[0] == 'f') {
            char fen[128];
            board_to_fen(&session_game(e->s)->cur, fen, sizeof fen);
            say(e, "fen %s", fen);
        } else if (c[0] == 'm') {
            cmd_moves(e);
        } else {
            const Board *b = &session_game(e->s)->cur;
            EvalTable t;
            eval_table_init(&t, session_weights(e->s));
            say(e, "eval %" PRId32, eval_score(b, b->stm, &t));
        }
    } else if (strcmp(c, "position") == 0 || strcmp(c, "go") == 0 || strcmp(c, "newgame") == 0 ||
               strcmp(c, "option") == 0) {
        if (busy) say(e, "error %s: a search is running (send stop first)", c);
        else {
            if (c[0] == 'p') cmd_position(e, tok, n);
            else if (c[0] == 'g') cmd_go(e, tok, n);
            else if (c[0] == 'o') cmd_option(e, tok, n);
            else if (n > 1) say(e, "error newgame takes no argument");
            else if (session_new_game(e->s)) say(e, "error out of memory");
        }
    } else {
        say(e, "error unknown command '%.64s'", c);
    }
    free(copy);
    free(tok);
    return go_on;
}
