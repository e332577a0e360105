/* workers.c - the job runner: local threads and worker processes (workers.h). */
#include "kingme/workers.h"
#include "kingme/engineproc.h"
#include "kingme/textio.h"

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
    double deadline;   /* of the hello, or of the oldest job in flight */
    WprotoHello hello; /* what it said it has */
    uint64_t *sent;    /* files it has */
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
    char *text = textio_read_text(path, &ro, NULL, err);
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
    pthread_cond_t cond;    /* a job done, a job given back, the run failed */
    int done;               /* under lock */
    int *requeue, nrequeue; /* under lock */
    int next;               /* under lock */
    bool *ready;            /* under lock: job i is done */
    int reported;           /* under lock: jobs 0 .. reported - 1 are reported */
    atomic_int thread_ids;
    atomic_bool failed;
    char err[KM_ERR_MAX];
    double t0;
} Run;

static bool run_stopped(const Run *r) { return (r->stop && atomic_load(r->stop)) || atomic_load(&r->failed); }

static void run_fail(Run *r, const char *msg)
{
    pthread_mutex_lock(&r->lock);
    if (!atomic_load(&r->failed)) snprintf(r->err, sizeof r->err, "%s", msg);
    atomic_store(&r->failed, true);
    pthread_cond_broadcast(&r->cond);
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
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->lock);
}

static int run_done(Run *r)
{
    pthread_mutex_lock(&r->lock);
    int d = r->done;
    pthread_mutex_unlock(&r->lock);
    return d;
}

/* Job i is in its slot: reported when the jobs before it are. */
static void job_done(Run *r, int i)
{
    pthread_mutex_lock(&r->lock);
    r->done++;
    r->ready[i] = true;
    while (r->reported < r->jobs->n && r->ready[r->reported]) {
        if (r->jobs->report) r->jobs->report(r->jobs->ctx, r->reported);
        r->reported++;
    }
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->lock);
}

static void *local_thread(void *arg)
{
    Run *r = arg;
    int id = atomic_fetch_add(&r->thread_ids, 1);
    char err[KM_ERR_MAX];
    while (!run_stopped(r)) {
        int i = take_job(r);
        if (i < 0) {
            /* the rest is in flight on workers: one may fail and give some back */
            pthread_mutex_lock(&r->lock);
            bool over = r->done >= r->jobs->n || atomic_load(&r->failed);
            if (!over && !r->nrequeue) {
                struct timespec ts;
                clock_gettime(CLOCK_REALTIME, &ts);
                ts.tv_nsec += 50000000L;
                if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
                pthread_cond_timedwait(&r->cond, &r->lock, &ts);
            }
            pthread_mutex_unlock(&r->lock);
            if (over) break;
            continue;
        }
        int rc = r->jobs->play(r->jobs->ctx, id, i, r->stop, err);
        if (rc < 0) {
            run_fail(r, err);
            break;
        }
        if (rc > 0) break; /* stopped */
        job_done(r, i);
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

static bool has_file(const Worker *w, uint64_t h)
{
    if (w->hello.book == h) return true; /* its own book */
    for (int i = 0; i < w->nsent; i++)
        if (w->sent[i] == h) return true;
    return false;
}

/* Send the file of hash h unless the worker has it: false when it cannot
 * be written to (or the file is not known: *missing). */
static bool send_file(Run *r, Worker *w, uint64_t h, bool *missing)
{
    if (has_file(w, h)) return true;
    const WprotoFile *f = wproto_files_get(r->jobs->files, h);
    if (!f) return !(*missing = true);
    if (w->nsent == w->capsent) {
        int cap = w->capsent ? 2 * w->capsent : 64;
        uint64_t *s = realloc(w->sent, (size_t)cap * sizeof *s);
        if (!s) return !(*missing = true);
        w->sent = s;
        w->capsent = cap;
    }
    size_t len;
    char *text = wproto_file_lines(f, &len);
    if (!text) return !(*missing = true);
    char err[KM_ERR_MAX];
    bool ok = proc_write(&w->proc, text, len, r->ws->timeout, err) == 0;
    free(text);
    r->ws->stats.bytes_out += len;
    r->ws->stats.files++;
    if (ok) w->sent[w->nsent++] = h;
    return ok;
}

/* Give worker k jobs until it has WORKER_INFLIGHT. */
static void feed(Run *r, int k)
{
    Worker *w = &r->ws->w[k];
    while (w->ninflight < WORKER_INFLIGHT && !run_stopped(r)) {
        int i = take_job(r);
        if (i < 0) return;
        uint64_t need[WPROTO_NEED_MAX];
        int nneed = 0;
        char *line = r->jobs->line(r->jobs->ctx, i, need, &nneed);
        WorkerSet *ws = r->ws;
        bool ok = line != NULL, missing = false;
        for (int j = 0; j < nneed && ok; j++) ok = send_file(r, w, need[j], &missing);
        if (missing || !line) {
            free(line);
            give_back(r, i);
            run_fail(r, "out of memory");
            return;
        }
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
    if (!tok) return km_fail_false(why, "out of memory");
    int nt = textio_split(line, tok, WPROTO_LINE_MAX / 2);
    bool ok = false;
    long long n;
    int slot = -1;
    if (nt >= 1 && strcmp(tok[0], "error") == 0) {
        /* the worker's reason, its words joined again after the split */
        for (int i = 2; i < nt - 1; i++) tok[i][strlen(tok[i])] = ' ';
        km_fail(why, "refused a job: %.200s", nt > 2 ? tok[2] : "");
        goto out;
    }
    if (nt < 2 || strcmp(tok[0], r->jobs->answer) != 0 || !textio_parse_ll(tok[1], 0, r->jobs->n - 1, &n)) {
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
    job_done(r, (int)n);
    ok = true;
out:
    free(tok);
    return ok;
}

/* Its hello: what it has. false with why when it is no hello; the run fails
 * (one line) when the worker cannot do this run's jobs. */
static bool take_hello(Run *r, int k, const char *line, char *why)
{
    Worker *w = &r->ws->w[k];
    char e2[KM_ERR_MAX];
    if (wproto_parse_hello(line, &w->hello, e2)) {
        if (strncmp(e2, "speaks protocol", 15) != 0) return km_fail_false(why, "%s", e2);
        char msg[KM_ERR_MAX];
        snprintf(msg, sizeof msg, "worker %d (%.60s) %.150s", k + 1, w->cmd, e2);
        run_fail(r, msg);
        return true;
    }
    if (wproto_egdb_serves(&w->hello, r->jobs->egdb, e2)) {
        char msg[KM_ERR_MAX];
        snprintf(msg, sizeof msg, "worker %d (%.40s) %.190s", k + 1, w->cmd, e2);
        run_fail(r, msg);
        return true;
    }
    w->st = W_READY;
    event(r->ws, k, WORKER_STARTED, NULL);
    return true;
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
        bool ok = w->st == W_STARTING ? take_hello(r, k, w->buf, why) : take_result(r, k, w->buf, why);
        if (!ok) {
            fail_worker(r, k, why);
            return;
        }
        size_t used = (size_t)(nl - w->buf) + 1;
        memmove(w->buf, nl + 1, w->len - used);
        w->len -= used;
        if (w->st == W_READY) feed(r, k);
        if (w->st != W_READY || run_stopped(r)) return;
    }
}

static void progress(Run *r, int *reported)
{
    if (!r->jobs->progress) return;
    int d = run_done(r);
    if (d == *reported) return;
    *reported = d;
    double el = km_now() - r->t0;
    r->jobs->progress(d, r->jobs->n, el, d ? el / d * (r->jobs->n - d) : -1, r->jobs->user);
}

int workers_run_jobs(WorkerSet *ws, const WorkersJobs *jobs, int threads, const atomic_bool *stop, char *err)
{
    int n = jobs->n, nw = ws ? ws->n : 0;
    if (n <= 0) return 0;
    if (threads > WORKERS_THREADS_MAX) threads = WORKERS_THREADS_MAX;
    if (threads < 0) threads = 0;
    if (!nw && !threads) return km_fail(err, "no worker and no local thread to run the jobs");
    Run r = {.ws = ws, .jobs = jobs, .stop = stop, .t0 = km_now()};
    atomic_init(&r.failed, false);
    r.requeue = malloc((size_t)n * sizeof *r.requeue);
    r.ready = calloc((size_t)n, sizeof *r.ready);
    pthread_t *tid = malloc((size_t)(threads ? threads : 1) * sizeof *tid);
    struct pollfd *pf = malloc((size_t)(nw ? nw : 1) * sizeof *pf);
    int *who = malloc((size_t)(nw ? nw : 1) * sizeof *who);
    if (!r.requeue || !r.ready || !tid || !pf || !who) {
        free(r.requeue);
        free(r.ready);
        free(tid);
        free(pf);
        free(who);
        return km_fail(err, "out of memory");
    }
    pthread_mutex_init(&r.lock, NULL);
    pthread_cond_init(&r.cond, NULL);
    atomic_init(&r.thread_ids, 0);
    int started = 0;
    for (; started < threads; started++)
        if (pthread_create(&tid[started], NULL, local_thread, &r)) break;
    if (threads && !started && !nw) run_fail(&r, "cannot start a thread");

    double cpu0 = km_cpu_now();
    int reported = 0;
    double next_tick = r.t0 + WORKERS_TICK;
    while (!run_stopped(&r) && run_done(&r) < n) {
        progress(&r, &reported);
        if (jobs->tick && km_now() >= next_tick) {
            jobs->tick(jobs->user);
            next_tick = km_now() + WORKERS_TICK;
        }
        if (!nw) { /* local threads alone: wait for them */
            pthread_mutex_lock(&r.lock);
            if (r.done < n && !atomic_load(&r.failed)) {
                struct timespec ts;
                clock_gettime(CLOCK_REALTIME, &ts);
                /* a stop set by a signal handler is seen within 0.2 s; a tick comes on time */
                long wait = 200000000L;
                if (jobs->tick) {
                    double left = next_tick - km_now();
                    wait = left <= 0 ? 1000000L : left < 0.2 ? (long)(left * 1e9) + 1000000L : wait;
                }
                ts.tv_nsec += wait;
                if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
                pthread_cond_timedwait(&r.cond, &r.lock, &ts);
            }
            pthread_mutex_unlock(&r.lock);
            continue;
        }
        double now = km_now();
        int alive = 0, np = 0;
        for (int k = 0; k < nw && !run_stopped(&r); k++) {
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
        for (int q = 0; q < np && !run_stopped(&r); q++)
            if (pf[q].revents && ws->w[who[q]].proc.from_fd == pf[q].fd) read_worker(&r, who[q]);
    }
    progress(&r, &reported);
    /* stopped or failed: the jobs in flight are lost with their workers */
    for (int k = 0; k < nw; k++)
        if (ws->w[k].ninflight || (atomic_load(&r.failed) && ws->w[k].st == W_STARTING)) {
            close_worker(&ws->w[k], false);
            ws->w[k].st = W_DEAD;
            ws->w[k].restart_at = 0;
        }
    if (ws) ws->stats.cpu += km_cpu_now() - cpu0;
    pthread_mutex_lock(&r.lock);
    pthread_cond_broadcast(&r.cond);
    pthread_mutex_unlock(&r.lock);
    for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
    /* stopped: the jobs done after one left undone are reported too */
    for (int i = r.reported; i < n && jobs->report; i++)
        if (r.ready[i]) jobs->report(jobs->ctx, i);
    free(r.ready);
    free(tid);
    free(pf);
    free(who);
    free(r.requeue);
    pthread_cond_destroy(&r.cond);
    pthread_mutex_destroy(&r.lock);
    if (atomic_load(&r.failed)) return km_fail(err, "%s", r.err);
    return 0;
}
