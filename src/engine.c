/* engine.c - the engine protocol (engine.h). */
#include "kingme/engine.h"
#include "kingme/base.h"
#include "kingme/egdb.h"
#include "kingme/game.h"
#include "kingme/notation.h"
#include "kingme/search.h"
#include "kingme/textio.h"
#include "kingme/weights.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct Engine {
    const char *version;
    EngineWriter out;
    void *user;
    pthread_mutex_t out_mu;   /* one line at a time */
    Weights w;
    Searcher s;
    int tiebreak;
    bool exact;               /* option search exact: no reduction or pruning */
    Egdb *egdb;               /* endgame databases (option egdb), or NULL */
    Game g;
    /* the search thread */
    pthread_t th;
    bool searching;           /* a thread was started and not yet joined */
    SearchLimits lim;
    atomic_bool stop;         /* `stop`/`quit`: end the search (and an infinite wait) */
    atomic_bool done;         /* the thread wrote its bestmove */
    pthread_mutex_t mu;       /* with cv: an infinite search waits for stop */
    pthread_cond_t cv;
};

static void say(Engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(Engine *e, const char *fmt, ...)
{
    char line[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&e->out_mu);
    e->out(line, e->user);
    pthread_mutex_unlock(&e->out_mu);
}

Engine *engine_new(size_t hash_mb, const char *version, EngineWriter out, void *user, char *err)
{
    Engine *e = calloc(1, sizeof *e);
    if (!e) {
        km_fail(err, "out of memory");
        return NULL;
    }
    e->version = version;
    e->out = out;
    e->user = user;
    weights_default(&e->w);
    if (searcher_init(&e->s, &e->w, hash_mb, 1, err)) {
        free(e);
        return NULL;
    }
    if (game_init(&e->g, NULL)) {
        searcher_free(&e->s);
        free(e);
        km_fail(err, "out of memory");
        return NULL;
    }
    e->tiebreak = TIEBREAK_FIRST;
    pthread_mutex_init(&e->out_mu, NULL);
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_init(&e->cv, NULL);
    atomic_init(&e->stop, false);
    atomic_init(&e->done, false);
    return e;
}

int engine_load_weights(Engine *e, const char *path, char *err)
{
    Weights w;
    if (weights_read(&w, path, NULL, err)) return -1;
    e->w = w;
    searcher_set_weights(&e->s, &w);
    return 0;
}

void engine_take_egdb(Engine *e, Egdb *db)
{
    egdb_close(e->egdb);
    e->egdb = db;
}

int engine_open_egdb(Engine *e, const char *dir, char *err)
{
    Egdb *db = egdb_open(dir, 0, err);
    if (!db) return -1;
    engine_take_egdb(e, db);
    return 0;
}

/* ---- the search thread ------------------------------------------------------ */

static void pv_text(const Board *root, const Move *pv, int n, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    Board b = *root;
    for (int i = 0; i < n && at + MOVE_TEXT_MAX + 2 < len; i++) {
        char t[MOVE_TEXT_MAX];
        move_to_text(&pv[i], t);
        at += (size_t)snprintf(buf + at, len - at, " %s", t);
        make_move(&b, &pv[i]);
    }
}

static void report(const SearchResult *r, void *user)
{
    Engine *e = user;
    char pv[4096];
    pv_text(&e->g.cur, r->pv, r->pv_len, pv, sizeof pv);
    uint64_t ms = (uint64_t)(r->seconds * 1000.0);
    uint64_t nps = r->seconds > 0 ? (uint64_t)((double)r->nodes / r->seconds) : 0;
    say(e, "info depth %d score %" PRId32 " nodes %" PRIu64 " nps %" PRIu64 " time %" PRIu64 " pv%s",
        r->depth, r->score, r->nodes, nps, ms, pv);
}

static void *search_main(void *arg)
{
    Engine *e = arg;
    SearchResult r;
    int rc = search_game(&e->s, &e->g, &e->lim, &r, report, e);
    if (e->lim.infinite) { /* the answer waits for `stop` */
        pthread_mutex_lock(&e->mu);
        while (!atomic_load(&e->stop)) pthread_cond_wait(&e->cv, &e->mu);
        pthread_mutex_unlock(&e->mu);
    }
    /* done before the answer: a command sent on reading it must find the
     * engine idle (the command's reap joins this thread first) */
    atomic_store(&e->done, true);
    if (rc) say(e, "error out of memory");
    if (rc || !r.has_move) {
        say(e, "bestmove none");
    } else {
        char t[MOVE_TEXT_MAX];
        move_to_text(&r.best, t);
        say(e, "bestmove %s", t);
    }
    return NULL;
}

/* Stop the search, if any, and wait for its bestmove. */
static void stop_search(Engine *e)
{
    if (!e->searching) return;
    pthread_mutex_lock(&e->mu);
    atomic_store(&e->stop, true);
    pthread_cond_broadcast(&e->cv);
    pthread_mutex_unlock(&e->mu);
    pthread_join(e->th, NULL);
    e->searching = false;
}

/* A finished search's thread is joined as soon as a command comes. */
static void reap(Engine *e)
{
    if (e->searching && atomic_load(&e->done)) {
        pthread_join(e->th, NULL);
        e->searching = false;
    }
}

void engine_free(Engine *e)
{
    if (!e) return;
    stop_search(e);
    egdb_close(e->egdb);
    game_free(&e->g);
    searcher_free(&e->s);
    pthread_mutex_destroy(&e->out_mu);
    pthread_mutex_destroy(&e->mu);
    pthread_cond_destroy(&e->cv);
    free(e);
}

/* ---- commands ---------------------------------------------------------------- */

#define MAX_TOKENS 4096

/* Split line into tokens in place; returns the count (at most max). */
static int tokenize(char *line, char **tok, int max)
{
    int n = 0;
    char *p = line;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\r') p++;
        if (!*p) break;
        if (n == max) return max + 1;
        tok[n++] = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r') p++;
        if (*p) *p++ = '\0';
    }
    return n;
}

static bool parse_count(const char *s, long long lo, long long hi, long long *out)
{
    return s && km_parse_ll(s, lo, hi, out);
}

static void cmd_position(Engine *e, char **tok, int n)
{
    char err[KM_ERR_MAX];
    Board b;
    int i = 1;
    if (i < n && strcmp(tok[i], "start") == 0) {
        board_init(&b);
        i++;
    } else if (i < n && strcmp(tok[i], "fen") == 0) {
        /* the FEN is one token, or several up to "moves" (spaces are allowed in FEN) */
        char fen[1024];
        size_t at = 0;
        fen[0] = '\0';
        for (i++; i < n && strcmp(tok[i], "moves") != 0; i++)
            at += (size_t)snprintf(fen + at, at < sizeof fen ? sizeof fen - at : 0, "%s%s", at ? " " : "", tok[i]);
        if (!at) {
            say(e, "error position fen: the FEN is missing");
            return;
        }
        if (at >= sizeof fen) {
            say(e, "error position fen: the FEN is too long");
            return;
        }
        if (board_from_fen(&b, fen, err)) {
            say(e, "error position fen: %s", err);
            return;
        }
    } else {
        say(e, "error position: expected 'start' or 'fen FEN', not '%s'", i < n ? tok[i] : "");
        return;
    }
    Game g;
    if (game_init(&g, &b)) {
        say(e, "error out of memory");
        return;
    }
    if (i < n) {
        if (strcmp(tok[i], "moves") != 0) {
            say(e, "error position: expected 'moves', not '%s'", tok[i]);
            game_free(&g);
            return;
        }
        for (i++; i < n; i++) {
            Move m;
            if (parse_move_input(&g.cur, tok[i], &m, err)) {
                say(e, "error position: move %d '%s': %s", g.nply + 1, tok[i], err);
                game_free(&g);
                return;
            }
            if (game_play(&g, &m)) {
                say(e, "error out of memory");
                game_free(&g);
                return;
            }
        }
    }
    game_free(&e->g);
    e->g = g;
}

static void cmd_go(Engine *e, char **tok, int n)
{
    SearchLimits lim;
    search_limits_default(&lim);
    if (e->exact) search_limits_exact(&lim);
    lim.start = km_now(); /* the clock runs from here, not from the thread's start */
    lim.tiebreak = e->tiebreak;
    lim.egdb = e->egdb;
    double ms[5] = {-1, -1, -1, -1, -1}; /* btime wtime binc winc movetime */
    static const char *const msname[5] = {"btime", "wtime", "binc", "winc", "movetime"};
    bool limited = false;
    for (int i = 1; i < n; i++) {
        long long v;
        int k;
        for (k = 0; k < 5 && strcmp(tok[i], msname[k]) != 0; k++) {}
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
        } else {
            say(e, "error go: unknown limit '%s'", tok[i]);
            return;
        }
    }
    int stm = e->g.cur.stm;
    double left = ms[stm == KM_BLACK ? 0 : 1], inc = ms[stm == KM_BLACK ? 2 : 3];
    if (left >= 0) {
        lim.time_left = left > 0 ? left / 1000.0 : 0.001;
        lim.increment = inc > 0 ? inc / 1000.0 : 0;
    } else if (ms[2] >= 0 || ms[3] >= 0 || lim.movestogo) {
        say(e, "error go: binc, winc and movestogo go with btime and wtime");
        return;
    }
    if (ms[4] >= 0) lim.seconds = ms[4] > 0 ? ms[4] / 1000.0 : 0.001;
    limited = lim.depth || lim.nodes || lim.time_left > 0 || lim.seconds > 0 || lim.infinite;
    if (!limited) lim.seconds = 1.0; /* a bare `go`: one second */
    e->lim = lim;
    atomic_store(&e->stop, false);
    atomic_store(&e->done, false);
    e->lim.abort = &e->stop;
    if (pthread_create(&e->th, NULL, search_main, e)) {
        say(e, "error cannot start the search thread");
        return;
    }
    e->searching = true;
}

static void cmd_option(Engine *e, char **tok, int n)
{
    char err[KM_ERR_MAX];
    long long v;
    if (n < 3) {
        say(e, "error option: expected 'option NAME VALUE' (hash, threads, weights, egdb, seed, tiebreak, search)");
        return;
    }
    const char *name = tok[1], *val = tok[2];
    if (n > 3 && strcmp(name, "weights") != 0 && strcmp(name, "egdb") != 0) {
        say(e, "error option %s: one value expected", name);
        return;
    }
    if (strcmp(name, "hash") == 0) {
        if (!parse_count(val, 0, 65536, &v)) {
            say(e, "error option hash: a size in MB from 0 to 65536, not '%s'", val);
            return;
        }
        TT t;
        if (tt_init(&t, (size_t)v, err)) {
            say(e, "error option hash: %s", err);
            return;
        }
        tt_free(&e->s.own_tt);
        e->s.own_tt = t;
        searcher_set_table(&e->s, NULL);
    } else if (strcmp(name, "threads") == 0) {
        if (!parse_count(val, 1, SEARCH_MAX_THREADS, &v)) {
            say(e, "error option threads: a number of threads from 1 to %d, not '%s'", SEARCH_MAX_THREADS, val);
            return;
        }
        if (searcher_set_threads(&e->s, (int)v, err)) say(e, "error option threads: %s", err);
    } else if (strcmp(name, "weights") == 0) {
        /* a path may hold spaces: the rest of the line */
        char path[4096];
        size_t at = 0;
        path[0] = '\0';
        for (int i = 2; i < n; i++)
            at += (size_t)snprintf(path + at, at < sizeof path ? sizeof path - at : 0, "%s%s", i > 2 ? " " : "", tok[i]);
        if (at >= sizeof path) {
            say(e, "error option weights: the path is too long");
            return;
        }
        if (engine_load_weights(e, path, err)) say(e, "error option weights: %s", err);
    } else if (strcmp(name, "egdb") == 0) {
        if (strcmp(val, "none") == 0 && n == 3) {
            egdb_close(e->egdb);
            e->egdb = NULL;
            return;
        }
        if (engine_open_egdb(e, val, err)) say(e, "error option egdb: %s", err);
    } else if (strcmp(name, "seed") == 0) {
        if (!parse_count(val, 0, INT64_MAX, &v)) {
            say(e, "error option seed: a whole number from 0, not '%s'", val);
            return;
        }
        searcher_seed(&e->s, (uint64_t)v);
    } else if (strcmp(name, "tiebreak") == 0) {
        if (strcmp(val, "first") == 0) e->tiebreak = TIEBREAK_FIRST;
        else if (strcmp(val, "random") == 0) e->tiebreak = TIEBREAK_RANDOM;
        else say(e, "error option tiebreak: 'first' or 'random', not '%s'", val);
    } else if (strcmp(name, "search") == 0) {
        if (strcmp(val, "selective") == 0) e->exact = false;
        else if (strcmp(val, "exact") == 0) e->exact = true;
        else say(e, "error option search: 'selective' or 'exact', not '%s'", val);
    } else {
        say(e, "error option: unknown option '%s' (hash, threads, weights, egdb, seed, tiebreak, search)", name);
    }
}

static void cmd_moves(Engine *e)
{
    MoveList ml;
    gen_moves(&e->g.cur, &ml);
    char buf[MAX_MOVES * (MOVE_TEXT_MAX + 1) + 16];
    size_t at = (size_t)snprintf(buf, sizeof buf, "moves");
    if (!ml.count) snprintf(buf + at, sizeof buf - at, " none");
    for (int i = 0; i < ml.count; i++) {
        char t[MOVE_TEXT_MAX];
        move_to_text(&ml.moves[i], t);
        at += (size_t)snprintf(buf + at, sizeof buf - at, " %s", t);
    }
    say(e, "%s", buf);
}

bool engine_command(Engine *e, const char *line)
{
    reap(e);
    size_t len = strlen(line);
    if (len > ENGINE_LINE_MAX) {
        say(e, "error the line is too long (%zu bytes, at most %d)", len, ENGINE_LINE_MAX);
        return true;
    }
    char *copy = malloc(len + 1);
    char **tok = malloc((MAX_TOKENS + 1) * sizeof *tok);
    if (!copy || !tok) {
        free(copy);
        free(tok);
        say(e, "error out of memory");
        return true;
    }
    memcpy(copy, line, len + 1);
    int n = tokenize(copy, tok, MAX_TOKENS);
    bool go_on = true;
    const char *c = n > 0 ? tok[0] : "";
    bool busy = e->searching && !atomic_load(&e->done);
    if (n > MAX_TOKENS) {
        say(e, "error too many words on one line (at most %d)", MAX_TOKENS);
    } else if (n == 0) {
        /* an empty line: nothing to do */
    } else if (strcmp(c, "quit") == 0) {
        stop_search(e);
        go_on = false;
    } else if (strcmp(c, "stop") == 0) {
        stop_search(e);
    } else if (strcmp(c, "isready") == 0) {
        /* ProbCut's margin for the weights is measured now (once), not
         * on the first move's clock */
        if (!busy && !e->exact) searcher_probcut_margin(&e->s);
        say(e, "readyok");
    } else if (strcmp(c, "hello") == 0) {
        say(e, "hello kingme %s protocol %d", e->version, ENGINE_PROTOCOL);
    } else if (strcmp(c, "fen") == 0 || strcmp(c, "moves") == 0 || strcmp(c, "eval") == 0) {
        if (n > 1) say(e, "error %s takes no argument", c);
        else if (c[0] == 'f') {
            char fen[128];
            board_to_fen(&e->g.cur, fen, sizeof fen);
            say(e, "fen %s", fen);
        } else if (c[0] == 'm') {
            cmd_moves(e);
        } else {
            say(e, "eval %" PRId32, eval_score(&e->g.cur, e->g.cur.stm, &e->w));
        }
    } else if (strcmp(c, "position") == 0 || strcmp(c, "go") == 0 || strcmp(c, "newgame") == 0 ||
               strcmp(c, "option") == 0) {
        if (busy) say(e, "error %s: a search is running (send stop first)", c);
        else {
            reap(e);
            stop_search(e); /* a finished infinite search still waiting */
            if (c[0] == 'p') cmd_position(e, tok, n);
            else if (c[0] == 'g') cmd_go(e, tok, n);
            else if (c[0] == 'o') cmd_option(e, tok, n);
            else if (n > 1) say(e, "error newgame takes no argument");
            else {
                searcher_clear(&e->s);
                Game g;
                if (game_init(&g, NULL)) say(e, "error out of memory");
                else {
                    game_free(&e->g);
                    e->g = g;
                }
            }
        }
    } else {
        say(e, "error unknown command '%.64s'", c);
    }
    free(copy);
    free(tok);
    return go_on;
}
