/* session.c - an engine session (session.h). */
#include "kingme/session.h"
#include "kingme/base.h"
#include "kingme/book.h"
#include "kingme/egdb.h"
#include "kingme/level.h"
#include "kingme/notation.h"
#include "kingme/weights.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct Session {
    Weights w;
    Searcher s;
    size_t hash_mb;
    SessionFindFn find_weights; /* session_set_weights_finder, or NULL */
    int tiebreak;
    bool exact;           /* no reduction or pruning */
    int level;            /* LEVEL_FULL: the full engine */
    uint64_t level_rng;   /* a level's draws */
    Egdb *egdb;           /* NULL: none */
    bool egdb_reported;   /* session_wait_egdb said its error */
    Book *book;           /* NULL: none */
    double variety;       /* men: the book's moves within this of its best */
    uint64_t book_rng;    /* the choices among them */
    uint64_t node_budget; /* session_set_node_budget: the most nodes a search (0: no cap) */
    Game g;
    /* the search thread */
    pthread_t th;
    bool searching; /* a thread was started and not yet joined */
    SearchLimits lim;
    SearchReport report;
    SessionDone done;
    void *user;
    atomic_bool stop;       /* session_stop: end the search (and an infinite wait) */
    atomic_bool finished;   /* the search has its result (the thread is ending) */
    bool ponder;            /* the search is a ponder search */
    atomic_llong ponderhit; /* its hit (km_now() in microseconds), 0: not yet */
    pthread_mutex_t mu;     /* with cv: session_wait, and an infinite search waiting */
    pthread_cond_t cv;
};

Session *session_new(size_t hash_mb, char *err)
{
    Session *s = calloc(1, sizeof *s);
    if (!s) {
        km_fail(err, "out of memory");
        return NULL;
    }
    weights_default(&s->w);
    if (search_init(&s->s, &s->w, hash_mb, 1, err)) {
        free(s);
        return NULL;
    }
    s->hash_mb = hash_mb; /* what session_hash_mb reports (CheckerBoard's get hashsize, about) */
    if (game_init(&s->g, NULL)) {
        search_free(&s->s);
        free(s);
        km_fail(err, "out of memory");
        return NULL;
    }
    s->tiebreak = TIEBREAK_FIRST;
    s->level = LEVEL_FULL;
    session_set_seed(s, 1);
    atomic_init(&s->ponderhit, 0);
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    atomic_init(&s->stop, false);
    atomic_init(&s->finished, false);
    return s;
}

/* A search that has ended is joined (after its done callback returned). */
static void reap(Session *s)
{
    if (s->searching && atomic_load(&s->finished)) {
        pthread_join(s->th, NULL);
        s->searching = false;
    }
}

bool session_busy(Session *s)
{
    reap(s);
    return s->searching;
}

void session_halt(Session *s)
{
    pthread_mutex_lock(&s->mu);
    atomic_store(&s->stop, true);
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

void session_stop(Session *s)
{
    if (!s->searching) return;
    session_halt(s);
    pthread_join(s->th, NULL);
    s->searching = false;
}

void session_ponderhit(Session *s)
{
    if (!s->searching || !s->ponder) return;
    pthread_mutex_lock(&s->mu);
    long long us = (long long)(km_now() * 1e6);
    atomic_store(&s->ponderhit, us > 0 ? us : 1);
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

bool session_wait(Session *s, double seconds)
{
    if (!s->searching) return true;
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    double end = (double)t.tv_nsec / 1e9 + seconds;
    t.tv_sec += (time_t)end;
    t.tv_nsec = (long)((end - (double)(time_t)end) * 1e9);
    pthread_mutex_lock(&s->mu);
    if (!atomic_load(&s->finished)) pthread_cond_timedwait(&s->cv, &s->mu, &t);
    pthread_mutex_unlock(&s->mu);
    return !session_busy(s);
}

void session_free(Session *s)
{
    if (!s) return;
    session_stop(s);
    egdb_close(s->egdb);
    book_close(s->book);
    game_free(&s->g);
    search_free(&s->s);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    free(s);
}

/* ---- options ------------------------------------------------------------------ */

void session_set_weights_finder(Session *s, SessionFindFn find) { s->find_weights = find; }

int session_load_weights(Session *s, const char *path, char *err)
{
    Weights w;
    char found[4096];
    if (s->find_weights && s->find_weights(path, found, sizeof found)) path = found;
    if (weights_read(&w, path, NULL, err)) return -1;
    s->w = w;
    search_set_weights(&s->s, &w);
    return 0;
}

const Weights *session_weights(const Session *s) { return &s->w; }

void session_take_egdb(Session *s, Egdb *db)
{
    egdb_close(s->egdb);
    s->egdb = db;
    s->egdb_reported = false;
}

int session_open_egdb(Session *s, const char *dir, char *err)
{
    Egdb *db = egdb_open_background(dir, 0, err);
    if (!db) return -1;
    session_take_egdb(s, db);
    return 0;
}

int session_wait_egdb(Session *s, char *err)
{
    if (!s->egdb || s->egdb_reported) return 0;
    if (egdb_wait(s->egdb, err) == 0) return 0;
    s->egdb_reported = true;
    return -1;
}

const Egdb *session_egdb(const Session *s) { return s->egdb; }

void session_take_book(Session *s, Book *bk)
{
    book_close(s->book);
    s->book = bk;
}

int session_open_book(Session *s, const char *path, char *err)
{
    Book *bk = book_open(path, err);
    if (!bk) return -1;
    session_take_book(s, bk);
    return 0;
}

const Book *session_book(const Session *s) { return s->book; }
void session_set_book_variety(Session *s, double men) { s->variety = men > 0 ? men : 0; }
double session_book_variety(const Session *s) { return s->variety; }

bool session_book_move(Session *s, BookMove *out)
{
    return s->book && s->level == LEVEL_FULL && /* a weaker level plays its own openings */
           book_choose(s->book, &s->g.cur, book_margin(s->book, s->variety), &s->book_rng, out, NULL);
}

int session_set_hash(Session *s, size_t mb, char *err)
{
    TT t;
    if (tt_init(&t, mb, err)) return -1;
    tt_free(&s->s.own_tt);
    s->s.own_tt = t;
    search_set_table(&s->s, NULL);
    s->hash_mb = mb;
    return 0;
}

size_t session_hash_mb(const Session *s) { return s->hash_mb; }

int session_set_search_param(Session *s, const char *name, const char *value, char *err)
{
    SearchParams p = s->s.par;
    if (search_params_set_text(&p, name, value, err)) return -1;
    search_set_params(&s->s, &p);
    return 0;
}

int session_set_threads(Session *s, int n, char *err) { return search_set_threads(&s->s, n, err); }

int session_threads(const Session *s) { return s->s.nthreads; }

void session_set_seed(Session *s, uint64_t seed)
{
    search_seed(&s->s, seed);
    s->level_rng = km_mix64(seed ^ 0x6C6576656Cull);
    s->book_rng = seed ^ 0x626F6F6Bull; /* "book" */
}

void session_set_level(Session *s, int level)
{
    s->level = level < LEVEL_MIN ? LEVEL_MIN : level > LEVEL_FULL ? LEVEL_FULL : level;
}

int session_level(const Session *s) { return s->level; }

void session_set_tiebreak(Session *s, int tiebreak) { s->tiebreak = tiebreak; }

void session_set_exact(Session *s, bool exact) { s->exact = exact; }

bool session_exact(const Session *s) { return s->exact; }

void session_set_node_budget(Session *s, uint64_t nodes) { s->node_budget = nodes; }

/* With a node budget, ProbCut's margin is not measured (the measurement
 * alone searches about 0.6 M nodes): the searcher keeps the margin it has,
 * the default one for weights it has not measured. */
static void budget_margin(Session *s)
{
    if (s->node_budget) s->s.margin_known = true;
}

void session_prepare(Session *s)
{
    budget_margin(s);
    if (!s->exact) search_probcut_margin(&s->s);
}

/* ---- the game ----------------------------------------------------------------- */

const Game *session_game(const Session *s) { return &s->g; }

/* The session's game becomes g (which it now owns). */
static void replace_game(Session *s, Game *g)
{
    game_free(&s->g);
    s->g = *g;
}

int session_set_game(Session *s, const Board *start, const char *const *moves, int nmoves, char *err)
{
    Game g;
    if (game_init(&g, start)) return km_fail(err, "out of memory");
    for (int i = 0; i < nmoves; i++) {
        Move m;
        char why[KM_ERR_MAX];
        if (notation_parse_move_input(&g.cur, moves[i], &m, why)) {
            km_fail(err, "move %d '%s': %s", g.nply + 1, moves[i], why);
            game_free(&g);
            return -1;
        }
        if (game_play(&g, &m)) {
            game_free(&g);
            return km_fail(err, "out of memory");
        }
    }
    replace_game(s, &g);
    return 0;
}

int session_set_position(Session *s, const Board *b)
{
    Game g;
    if (game_init(&g, b)) return -1;
    replace_game(s, &g);
    return 0;
}

int session_new_game(Session *s)
{
    search_clear(&s->s);
    return session_set_position(s, NULL);
}

/* ---- the search thread -------------------------------------------------------- */

static void *search_main(void *arg)
{
    Session *s = arg;
    SearchResult r;
    int rc = s->level < LEVEL_FULL ? level_search(&s->s, &s->g, &s->lim, s->level, &s->level_rng, &r, NULL)
                                   : search_game(&s->s, &s->g, &s->lim, &r, s->report, s->user);
    if (!rc && s->level < LEVEL_FULL && s->report) s->report(&r, s->user); /* the move chosen */
    pthread_mutex_lock(&s->mu);
    if (s->lim.infinite) /* the result waits for session_stop */
        while (!atomic_load(&s->stop)) pthread_cond_wait(&s->cv, &s->mu);
    if (s->ponder) /* and a ponder search's for the hit */
        while (!atomic_load(&s->stop) && !atomic_load(&s->ponderhit)) pthread_cond_wait(&s->cv, &s->mu);
    /* finished before the result is handed over: a front end that starts
     * something new on reading it must find the session idle (session_busy
     * joins this thread first) */
    atomic_store(&s->finished, true);
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    s->done(&r, rc, s->user);
    return NULL;
}

int session_go(Session *s, const SessionGo *go, SearchReport report, SessionDone done, void *user, char *err)
{
    if (session_busy(s)) return km_fail(err, "a search is running");
    search_set_exact(&s->s, s->exact);
    search_set_tiebreak(&s->s, s->tiebreak);
    search_set_egdb(&s->s, s->egdb);
    SearchLimits lim;
    search_limits_default(&lim);
    lim.start = go->start > 0 ? go->start : km_now();
    lim.depth = go->depth;
    lim.nodes = go->nodes;
    lim.seconds = go->movetime;
    lim.time_left = go->time_left;
    lim.increment = go->increment;
    lim.movestogo = go->movestogo;
    lim.infinite = go->infinite || !(go->depth || go->nodes || go->movetime > 0 || go->time_left > 0);
    if (s->node_budget && (!lim.nodes || lim.nodes > s->node_budget)) lim.nodes = s->node_budget;
    budget_margin(s);
    lim.abort = &s->stop;
    lim.multipv = go->multipv;
    lim.ponder = go->ponder;
    lim.ponderhit = &s->ponderhit;
    s->ponder = go->ponder;
    atomic_store(&s->ponderhit, 0);
    s->lim = lim;
    s->report = report;
    s->done = done;
    s->user = user;
    atomic_store(&s->stop, false);
    atomic_store(&s->finished, false);
    if (pthread_create(&s->th, NULL, search_main, s)) return km_fail(err, "cannot start the search thread");
    s->searching = true;
    return 0;
}
