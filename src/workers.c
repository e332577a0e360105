/* workers.c - the coordinator: games played by worker processes (workers.h). */
#include "kingme/workers.h"
#include "kingme/engineproc.h"
#include "kingme/notation.h"
#include "kingme/textio.h"
#include "kingme/worker_proto.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { W_DEAD = 0, W_STARTING, W_READY, W_DROPPED };
#define WORKER_INFLIGHT 2
#define WORKER_MAX_FAILURES 8
#define WORKER_HELLO_SECONDS 60.0

typedef struct Worker {
    char *cmd;
    int st;
    ProcChild proc;
    char *buf;
    size_t len;
    int inflight[WORKER_INFLIGHT], ninflight;
    double deadline; /* of the hello, or of the oldest job in flight */
    bool terms;      /* it speaks protocol 2 (vectors with the terms 61-74) */
    bool phase;      /* it speaks protocol 3 (vectors with a phase) */
    bool book;       /* it speaks protocol 4 (book positions to score) */
    bool selfplay;   /* it speaks protocol 5 (self-play games) */
    uint64_t *sent;  /* vectors it has */
    int nsent, capsent;
    int failures; /* in a row */
    double restart_at;
} Worker;

struct WorkerSet {
    Worker *w;
    int n;
    WorkerStats stats;
    double timeout, backoff;
    WorkerEventFn fn;
    void *user;
};

WorkerSet *workers_from_file(const char *path, char *err)
{
    KmReadOpts ro = {.max_bytes = 1 << 20, .nul_byte = "holds a NUL byte: not a text file"};
    char *text = km_read_text(path, &ro, NULL, err);
    if (!text) return NULL;
    WorkerSet *ws = calloc(1, sizeof *ws);
    if (!ws) {
        free(text);
        km_fail(err, "out of memory");
        return NULL;
    }
    ws->timeout = 600;
    ws->backoff = 1;
    int lineno = 0;
    for (char *p = text; *p;) {
        char *nl = strchr(p, '\n');
        if (nl) *nl = '\0';
        lineno++;
        size_t l = strlen(p);
        while (l && (p[l - 1] == '\r' || p[l - 1] == ' ' || p[l - 1] == '\t')) p[--l] = '\0';
        while (*p == ' ' || *p == '\t') p++;
        if (*p && *p != '#') {
            if (ws->n == WORKERS_MAX) {
                km_fail(err, "%s:%d: more than %d workers", path, lineno, WORKERS_MAX);
                goto fail;
            }
            Worker *nw = realloc(ws->w, (size_t)(ws->n + 1) * sizeof *nw);
            if (!nw || !(nw[ws->n].cmd = strdup(p))) {
                if (nw) ws->w = nw;
                km_fail(err, "out of memory");
                goto fail;
            }
            ws->w = nw;
            Worker *w = &ws->w[ws->n++];
            char *cmd = w->cmd;
            memset(w, 0, sizeof *w);
            w->cmd = cmd;
            w->proc = (ProcChild)PROC_CHILD_NONE;
        }
        if (!nl) break;
        p = nl + 1;
    }
    free(text);
    if (ws->n == 0) {
        km_fail(err, "%s: no worker command in the file (one shell command per line)", path);
        workers_free(ws);
        return NULL;
    }
    return ws;
fail:
    free(text);
    workers_free(ws);
    return NULL;
}

int workers_count(const WorkerSet *ws) { return ws->n; }
void workers_stats(const WorkerSet *ws, WorkerStats *out) { *out = ws->stats; }

void workers_set_timeout(WorkerSet *ws, double seconds) { ws->timeout = seconds; }
void workers_set_backoff(WorkerSet *ws, double first) { ws->backoff = first; }
void workers_set_events(WorkerSet *ws, WorkerEventFn fn, void *user)
{
    ws->fn = fn;
    ws->user = user;
}

static void event(WorkerSet *ws, int i, WorkerEventKind k, const char *why)
{
    if (ws->fn) ws->fn(i, k, why, ws->user);
}

/* Stop its process: gently, it gets up to a second to leave on its own
 * once its input is closed. */
static void close_worker(Worker *w, bool gently)
{
    proc_reap(&w->proc, gently ? 1.0 : 0);
    free(w->buf);
    w->buf = NULL;
    w->len = 0;
    w->nsent = 0;
    w->ninflight = 0;
}

void workers_free(WorkerSet *ws)
{
    if (!ws) return;
    for (int i = 0; i < ws->n; i++) {
        close_worker(&ws->w[i], true);
        free(ws->w[i].cmd);
        free(ws->w[i].sent);
    }
    free(ws->w);
    free(ws);
}

static int start_worker(Worker *w, char *err)
{
    if (proc_spawn(&w->proc, w->cmd, err)) return -1;
    w->len = 0;
    w->buf = malloc(2 * WPROTO_LINE_MAX + 2);
    if (!w->buf) {
        close_worker(w, false);
        return km_fail(err, "out of memory");
    }
    return 0;
}

/* Write a whole line; false when the worker is gone or has not read its
 * input for the job timeout. */
static bool send_line(WorkerSet *ws, Worker *w, const char *s)
{
    size_t n = strlen(s);
    ws->stats.bytes_out += n + 1;
    char err[KM_ERR_MAX];
    return proc_write(&w->proc, s, n, ws->timeout, err) == 0 &&
           proc_write(&w->proc, "\n", 1, ws->timeout, err) == 0;
}

typedef struct Run {
    WorkerSet *ws;
    const WorkersJobs *jobs;
    const atomic_bool *stop;
    pthread_mutex_t lock;
    int done;               /* under lock */
    int *requeue, nrequeue; /* under lock */
    int next;               /* under lock */
    int nthreads;           /* local threads started (their ids: 0 ..) */
    atomic_int thread_ids;
    atomic_bool failed;
    char err[KM_ERR_MAX];
} Run;

static bool run_stopped(const Run *r) { return (r->stop && atomic_load(r->stop)) || atomic_load(&r->failed); }

static void run_fail(Run *r, const char *msg)
{
    pthread_mutex_lock(&r->lock);
    if (!atomic_load(&r->failed)) snprintf(r->err, sizeof r->err, "%s", msg);
    atomic_store(&r->failed, true);
    pthread_mutex_unlock(&r->lock);
}

static int take_job(Run *r)
{
    int i = -1;
    pthread_mutex_lock(&r->lock);
    if (r->nrequeue) i = r->requeue[--r->nrequeue];
    else if (r->next < r->jobs->n) i = r->next++;
    pthread_mutex_unlock(&r->lock);
    return i;
}

static void give_back(Run *r, int i)
{
    pthread_mutex_lock(&r->lock);
    r->requeue[r->nrequeue++] = i; /* room for every job: allocated with n slots */
    pthread_mutex_unlock(&r->lock);
}

static int run_done(Run *r)
{
    pthread_mutex_lock(&r->lock);
    int d = r->done;
    pthread_mutex_unlock(&r->lock);
    return d;
}

static void job_done(Run *r)
{
    pthread_mutex_lock(&r->lock);
    r->done++;
    pthread_mutex_unlock(&r->lock);
}

static void *local_thread(void *arg)
{
    Run *r = arg;
    int id = atomic_fetch_add(&r->thread_ids, 1);
    char err[KM_ERR_MAX];
    while (!run_stopped(r) && run_done(r) < r->jobs->n) {
        int i = take_job(r);
        if (i < 0) { /* the rest is in flight on workers: one may fail and give some back */
            nanosleep(&(struct timespec){0, 20000000}, NULL);
            continue;
        }
        int rc = r->jobs->play(r->jobs->ctx, id, i, r->stop, err);
        if (rc < 0) {
            run_fail(r, err);
            break;
        }
        if (rc > 0) break; /* stopped */
        job_done(r);
    }
    return NULL;
}

static void fail_worker(Run *r, int k, const char *why)
{
    WorkerSet *ws = r->ws;
    Worker *w = &ws->w[k];
    for (int j = 0; j < w->ninflight; j++) give_back(r, w->inflight[j]);
    close_worker(w, false);
    w->failures++;
    ws->stats.failures++;
    if (w->failures >= WORKER_MAX_FAILURES) {
        w->st = W_DROPPED;
        event(ws, k, WORKER_DROPPED, why);
        return;
    }
    double backoff = ws->backoff;
    for (int j = 1; j < w->failures && backoff < 60; j++) backoff *= 2;
    w->st = W_DEAD;
    w->restart_at = km_now() + (backoff > 60 ? 60 : backoff);
    event(ws, k, WORKER_FAILED, why);
}

static bool has_vector(const Worker *w, uint64_t id)
{
    for (int i = 0; i < w->nsent; i++)
        if (w->sent[i] == id) return true;
    return false;
}

static bool send_vector(WorkerSet *ws, Worker *w, const Weights *v)
{
    uint64_t id = wproto_weights_id(v);
    if (has_vector(w, id)) return true;
    char line[64 + EVAL_NWEIGHTS_PHASE * 8];
    int at = snprintf(line, sizeof line, "weights %016llx", (unsigned long long)id);
    for (int i = 0, n = wproto_vector_length(v); i < n; i++)
        at += snprintf(line + at, sizeof line - (size_t)at, " %d", weights_at(v, i));
    if (!send_line(ws, w, line)) return false;
    if (w->nsent == w->capsent) {
        int cap = w->capsent ? 2 * w->capsent : 64;
        uint64_t *s = realloc(w->sent, (size_t)cap * sizeof *s);
        if (!s) return false;
        w->sent = s;
        w->capsent = cap;
    }
    w->sent[w->nsent++] = id;
    return true;
}

/* Give worker k jobs until it has WORKER_INFLIGHT. */
static void feed(Run *r, int k)
{
    Worker *w = &r->ws->w[k];
    if (r->jobs->terms && !w->terms) { /* an older kingme: it would refuse the vectors */
        char msg[KM_ERR_MAX];
        snprintf(msg, sizeof msg,
                 "worker %d (%.60s) speaks protocol 1 (60 weights); this run's vectors have "
                 "terms 61-74: give it a kingme that speaks protocol 2",
                 k + 1, w->cmd);
        run_fail(r, msg);
        return;
    }
    if (r->jobs->phase && !w->phase) {
        char msg[KM_ERR_MAX];
        snprintf(msg, sizeof msg,
                 "worker %d (%.60s) speaks protocol %s (no phase); this run's vectors have a "
                 "phase (end. weights): give it a kingme that speaks protocol 3",
                 k + 1, w->cmd, w->terms ? "2" : "1");
        run_fail(r, msg);
        return;
    }
    if (r->jobs->book && !w->book) {
        char msg[KM_ERR_MAX];
        snprintf(msg, sizeof msg,
                 "worker %d (%.60s) speaks protocol %s (no book positions): give it a kingme "
                 "that speaks protocol 4",
                 k + 1, w->cmd,
                 w->phase   ? "3"
                 : w->terms ? "2"
                            : "1");
        run_fail(r, msg);
        return;
    }
    if (r->jobs->selfplay && !w->selfplay) {
        char msg[KM_ERR_MAX];
        snprintf(msg, sizeof msg,
                 "worker %d (%.60s) speaks protocol %s (no self-play games): give it a kingme "
                 "that speaks protocol 5",
                 k + 1, w->cmd,
                 w->book    ? "4"
                 : w->phase ? "3"
                 : w->terms ? "2"
                            : "1");
        run_fail(r, msg);
        return;
    }
    while (w->ninflight < WORKER_INFLIGHT && !run_stopped(r)) {
        int i = take_job(r);
        if (i < 0) return;
        const Weights *v[2] = {NULL, NULL};
        int nv = r->jobs->vectors(r->jobs->ctx, i, v);
        char *line = r->jobs->line(r->jobs->ctx, i);
        WorkerSet *ws = r->ws;
        bool ok = line != NULL;
        for (int j = 0; j < nv && ok; j++) ok = send_vector(ws, w, v[j]);
        ok = ok && send_line(ws, w, line);
        ws->stats.jobs++;
        free(line);
        if (w->ninflight == 0) w->deadline = km_now() + r->ws->timeout;
        w->inflight[w->ninflight++] = i;
        if (!ok) {
            fail_worker(r, k, "cannot write to it (it has exited)");
            return;
        }
    }
}

/* A result line of worker k. Returns false (with why) when it is not one. */
static bool take_result(Run *r, int k, char *line, char *why)
{
    Worker *w = &r->ws->w[k];
    char **tok = malloc((WPROTO_LINE_MAX / 2 + 2) * sizeof *tok);
    if (!tok) return km_fail(why, "out of memory"), false;
    int nt = km_split(line, tok, WPROTO_LINE_MAX / 2);
    bool ok = false;
    long long n;
    int slot = -1;
    if (nt >= 1 && strcmp(tok[0], "error") == 0) {
        km_fail(why, "refused a job: %.200s", nt > 2 ? line + (tok[2] - tok[0]) : "");
        goto out;
    }
    if (nt < 2 || strcmp(tok[0], r->jobs->answer) != 0 || !km_parse_ll(tok[1], 0, r->jobs->n - 1, &n)) {
        km_fail(why, "answered garbage: '%.60s'", nt ? tok[0] : "");
        goto out;
    }
    for (int j = 0; j < w->ninflight; j++)
        if (w->inflight[j] == n) slot = j;
    if (slot < 0) {
        km_fail(why, "answered garbage: a result for a job it did not have");
        goto out;
    }
    int rc = r->jobs->take(r->jobs->ctx, (int)n, tok, nt, why);
    if (rc == -2) { /* not the worker's fault: the run fails */
        run_fail(r, why);
        ok = true;
        goto out;
    }
    if (rc) goto out;
    w->inflight[slot] = w->inflight[--w->ninflight];
    w->deadline = km_now() + r->ws->timeout;
    w->failures = 0;
    r->ws->stats.results++;
    job_done(r);
    ok = true;
out:
    free(tok);
    return ok;
}

/* Read what worker k wrote; handle whole lines. */
static void read_worker(Run *r, int k)
{
    Worker *w = &r->ws->w[k];
    size_t cap = 2 * WPROTO_LINE_MAX;
    ssize_t got = read(w->proc.from_fd, w->buf + w->len, cap - w->len);
    if (got <= 0) {
        if (got < 0 && errno == EINTR) return;
        fail_worker(r, k, w->st == W_STARTING ? "exited before saying hello" : "exited");
        return;
    }
    w->len += (size_t)got;
    r->ws->stats.bytes_in += (uint64_t)got;
    for (;;) {
        char *nl = memchr(w->buf, '\n', w->len);
        if (!nl) {
            if (w->len >= cap) fail_worker(r, k, "answered garbage: a line too long");
            return;
        }
        *nl = '\0';
        char why[KM_ERR_MAX];
        bool ok;
        if (w->st == W_STARTING) {
            /* "protocol 1 2 3 4 5": the versions it speaks (protocol 1 alone:
             * before the terms 61-74; 1 2: before the phase; 1 2 3: before
             * the book positions; 1 2 3 4: before the self-play games) */
            const char *pv = strstr(w->buf, " protocol 1");
            ok = strncmp(w->buf, "worker kingme ", 14) == 0 && pv != NULL;
            if (!ok) snprintf(why, sizeof why, "did not say hello: '%.60s'", w->buf);
            else {
                w->terms = w->phase = w->book = w->selfplay = false;
                for (const char *q = pv + 9; *q == ' ';) {
                    char *e;
                    long v = strtol(q + 1, &e, 10);
                    if (e == q + 1 || (*e && *e != ' ')) break;
                    w->terms |= v == 2;
                    w->phase |= v == 3;
                    w->book |= v == 4;
                    w->selfplay |= v == 5;
                    q = e;
                }
                w->st = W_READY;
                event(r->ws, k, WORKER_STARTED, NULL);
            }
        } else {
            ok = take_result(r, k, w->buf, why);
        }
        if (!ok) {
            fail_worker(r, k, why);
            return;
        }
        size_t used = (size_t)(nl - w->buf) + 1;
        memmove(w->buf, nl + 1, w->len - used);
        w->len -= used;
        if (w->st == W_READY) feed(r, k);
        if (w->st != W_READY) return;
    }
}

static bool limits_travel(const MatchSettings *set, char *err)
{
    bool engines = false;
    for (int i = 0; set->sides && i < set->nsides; i++) engines |= set->sides[i].command != NULL;
    if (engines || set->tc_base > 0)
        return km_fail(err, "workers play games between weight vectors at a depth, a time or a node count "
                            "a move (no engine:COMMAND players, no --tc)"),
               false;
    if (set->egdb)
        return km_fail(err, "workers cannot use an endgame database yet (leave out --egdb)"), false;
    if (set->book) return km_fail(err, "workers cannot use an opening book yet (leave out --book)"), false;
    /* everything the game depends on must be in the job line: decode it
     * again and compare */
    MatchGameSpec spec = {NULL, NULL, NULL, 0, {0, 0}};
    Weights z;
    memset(&z, 0, sizeof z);
    spec.black = spec.white = &z;
    MatchSettings plain = *set;
    plain.sides = NULL;
    char *line = wproto_job_line(0, &plain, &spec, false);
    if (!line) return km_fail(err, "out of memory"), false;
    char **tok = malloc(64 * sizeof *tok);
    WprotoJob j;
    int nt = tok ? km_split(line, tok, 63) : 0;
    bool ok = tok && nt <= 63 && wproto_parse_job(tok, nt, &j, err) == 0;
    free(line);
    free(tok);
    if (!ok) return false;
    SearchLimits a = set->limits, b = j.set.limits;
    if (memcmp(&a, &b, sizeof a) != 0 || memcmp(&set->use, &j.set.use, sizeof set->use) != 0 ||
        j.set.tiebreak != set->tiebreak || j.set.ply_cap != set->ply_cap || j.set.hash_mb != set->hash_mb ||
        j.set.share_table != set->share_table)
        return km_fail(err, "these search settings cannot be sent to workers"), false;
    return true;
}

/* ---- games as jobs ---- */

typedef struct GameJobs {
    const MatchSettings *set;
    const MatchGameSpec *specs;
    int n;
    bool keep;
    MatchOutcome *out;
    MatchProgress progress;
    void *user;
    pthread_mutex_t lock; /* the outcomes and the progress calls */
    int done;
} GameJobs;

/* Store a finished game (g is taken over or freed). */
static void finish(GameJobs *G, int i, GameResult res, GameReason why, int nply, Game *g)
{
    pthread_mutex_lock(&G->lock);
    MatchOutcome *o = &G->out[i];
    o->result = res;
    o->reason = why;
    o->nply = nply;
    snprintf(o->termination, sizeof o->termination, "%s", game_reason_text(why));
    o->min_left[0] = o->min_left[1] = INFINITY;
    if (g) o->game = *g; /* valid during the progress call */
    G->done++;
    if (G->progress) G->progress(G->done, G->n, i, o, G->user);
    if (!G->keep && o->game.moves) {
        game_free(&o->game);
        memset(&o->game, 0, sizeof o->game);
    }
    pthread_mutex_unlock(&G->lock);
}

static int game_vectors(void *ctx, int i, const Weights *v[2])
{
    GameJobs *G = ctx;
    v[0] = wproto_spec_weights(G->set, &G->specs[i], KM_BLACK);
    v[1] = wproto_spec_weights(G->set, &G->specs[i], KM_WHITE);
    return 2;
}

static char *game_line(void *ctx, int i)
{
    GameJobs *G = ctx;
    return wproto_job_line(i, G->set, &G->specs[i],
                           true); /* the moves: checked, and the progress shows them */
}

/* `result N RESULT REASON PLIES CHECKSUM moves M1 ...`: the moves replayed
 * and checked against the checksum. */
static int game_take(void *ctx, int n, char **tok, int nt, char *why)
{
    GameJobs *G = ctx;
    long long reason, nply;
    uint64_t sum;
    if (nt < 6 || !km_parse_ll(tok[3], 0, 100, &reason) || !km_parse_ll(tok[4], 0, 100000, &nply) ||
        !wproto_parse_hex64(tok[5], &sum))
        return km_fail(why, "answered garbage: '%.60s'", tok[0]);
    GameResult res = strcmp(tok[2], "1-0") == 0       ? GAME_BLACK_WINS
                     : strcmp(tok[2], "0-1") == 0     ? GAME_WHITE_WINS
                     : strcmp(tok[2], "1/2-1/2") == 0 ? GAME_DRAW
                                                      : GAME_ONGOING;
    if (res == GAME_ONGOING) return km_fail(why, "answered garbage: a result for a game it was not playing");
    const MatchGameSpec *sp = &G->specs[n];
    Game g;
    if (nt != 7 + nply || strcmp(tok[6], "moves") != 0 ||
        game_init(&g, sp->opening ? &sp->opening->start : NULL))
        return km_fail(why, "answered garbage: the moves of game %d are missing", n);
    char e2[KM_ERR_MAX];
    for (int i = 0; i < nply; i++) {
        Move m;
        if (parse_move(&g.cur, tok[7 + i], &m, e2) || game_play(&g, &m)) {
            game_free(&g);
            return km_fail(why, "answered an illegal move in game %d: %.100s", n, e2);
        }
    }
    if (wproto_moves_checksum(&g) != sum) {
        game_free(&g);
        return km_fail(why, "answered garbage: the checksum of game %d does not match its moves", n);
    }
    g.result = res;
    g.reason = (GameReason)reason;
    finish(G, n, res, (GameReason)reason, (int)nply, &g);
    return 0;
}

static int run_game(void *ctx, int thread, int i, const atomic_bool *stop, char *err)
{
    (void)thread;
    GameJobs *G = ctx;
    MatchOutcome o;
    if (match_play_game(G->set, &G->specs[i], &o, stop, err)) {
        game_free(&o.game);
        return -1;
    }
    Game g = o.game;
    if (g.result == GAME_ONGOING) { /* stopped */
        game_free(&g);
        return 1;
    }
    finish(G, i, g.result, g.reason, g.nply, &g);
    return 0;
}

int workers_run(WorkerSet *ws, const MatchSettings *set, const MatchGameSpec *specs, int n, int threads,
                bool keep_games, MatchOutcome *out, MatchProgress progress, void *user,
                const atomic_bool *stop, char *err)
{
    memset(out, 0, (size_t)(n > 0 ? n : 0) * sizeof *out);
    if (n <= 0) return 0;
    if (!limits_travel(set, err)) return -1;
    /* the protocol's weights lines carry the 60 parameters, or (protocol 2)
     * the terms 61-74 too, or (protocol 3) a phase: 148 */
    bool terms = false, phase = false;
    for (int i = 0; i < n; i++)
        for (int c = 0; c < 2; c++) {
            const Weights *v = wproto_spec_weights(set, &specs[i], c);
            terms |= v && wproto_vector_length(v) == EVAL_NTERMS;
            phase |= v && v->phased;
        }

    GameJobs G = {.set = set,
                  .specs = specs,
                  .n = n,
                  .keep = keep_games,
                  .out = out,
                  .progress = progress,
                  .user = user};
    pthread_mutex_init(&G.lock, NULL);
    WorkersJobs jobs = {n,         terms,    phase,     false,   false, &G, game_vectors,
                        game_line, "result", game_take, run_game};
    int rc = workers_run_jobs(ws, &jobs, threads, stop, err);
    pthread_mutex_destroy(&G.lock);
    return rc;
}

/* ---- any jobs ---- */

int workers_refuse_layer(const Weights *v, char *err)
{
    if (v && v->net)
        return km_fail(err, "a vector with a network cannot be sent to workers: the protocol carries the "
                            "named weights only; play on local threads (-j N)");
    if (!v || !v->pat) return 0;
    return km_fail(err, "a vector with a pattern layer (table lines) cannot be sent to workers: "
                        "the protocol carries the named weights only; play on local threads (-j N)");
}

int workers_run_jobs(WorkerSet *ws, const WorkersJobs *jobs, int threads, const atomic_bool *stop, char *err)
{
    int n = jobs->n;
    if (n <= 0) return 0;
    /* no line carries a pattern layer: a worker would search without it */
    for (int i = 0; ws && ws->n > 0 && i < n; i++) {
        const Weights *v[2] = {NULL, NULL};
        int k = jobs->vectors(jobs->ctx, i, v);
        for (int j = 0; j < k; j++)
            if (workers_refuse_layer(v[j], err)) return -1;
    }
    Run r = {.ws = ws, .jobs = jobs, .stop = stop};
    atomic_init(&r.failed, false);
    r.requeue = malloc((size_t)n * sizeof *r.requeue);
    if (!r.requeue) return km_fail(err, "out of memory");
    pthread_mutex_init(&r.lock, NULL);
    atomic_init(&r.thread_ids, 0);
    pthread_t tid[64];
    int started = 0;
    for (; started < threads && started < 64; started++)
        if (pthread_create(&tid[started], NULL, local_thread, &r)) break;

    double cpu0 = km_cpu_now();
    struct pollfd *pf = malloc((size_t)ws->n * sizeof *pf);
    int *who = malloc((size_t)ws->n * sizeof *who);
    if (!pf || !who) run_fail(&r, "out of memory");
    while (!run_stopped(&r) && run_done(&r) < n) {
        double now = km_now();
        int alive = 0, np = 0;
        for (int k = 0; k < ws->n; k++) {
            Worker *w = &ws->w[k];
            if (w->st == W_DEAD && now >= w->restart_at) {
                char e2[KM_ERR_MAX];
                if (start_worker(w, e2)) {
                    w->failures++;
                    w->restart_at = now + ws->backoff;
                    event(ws, k, WORKER_FAILED, e2);
                } else {
                    w->st = W_STARTING;
                    w->deadline = now + WORKER_HELLO_SECONDS;
                }
            }
            if (w->st == W_READY) feed(&r, k);
            if ((w->st == W_STARTING || (w->st == W_READY && w->ninflight)) && now > w->deadline)
                fail_worker(&r, k,
                            w->st == W_STARTING ? "did not say hello in time" : "did not answer in time");
            if (w->st != W_DROPPED) alive++;
            if (w->st == W_STARTING || w->st == W_READY) {
                pf[np].fd = w->proc.from_fd;
                pf[np].events = POLLIN;
                pf[np].revents = 0;
                who[np++] = k;
            }
        }
        if (!alive && started == 0) {
            run_fail(&r, "every worker failed too often, and no local thread plays (-j)");
            break;
        }
        int pr = poll(pf, (nfds_t)np, 50);
        if (pr <= 0) continue;
        for (int q = 0; q < np; q++)
            if (pf[q].revents && ws->w[who[q]].proc.from_fd == pf[q].fd) read_worker(&r, who[q]);
    }
    /* stopped or failed: the games in flight are lost with their workers */
    for (int k = 0; k < ws->n; k++)
        if (ws->w[k].ninflight) {
            close_worker(&ws->w[k], false);
            ws->w[k].st = W_DEAD;
            ws->w[k].restart_at = 0;
        }
    ws->stats.cpu += km_cpu_now() - cpu0;
    for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
    free(pf);
    free(who);
    free(r.requeue);
    pthread_mutex_destroy(&r.lock);
    if (atomic_load(&r.failed)) return km_fail(err, "%s", r.err);
    return 0;
}
