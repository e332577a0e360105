/* workers.h - the coordinator: games played by other processes, `kingme
 * worker` (worker.h) over ssh, srun, kubectl exec -i, or plain local
 * processes: each is started with /bin/sh -c COMMAND and spoken to through
 * its stdin and stdout in the worker protocol (worker_proto.h).
 *
 * The coordinator hands out jobs (two in flight per worker), collects the
 * results into their slots, and when a worker dies, stays silent past the
 * timeout or answers garbage, kills it, gives its jobs to others and starts it
 * again later (back-off 1, 2, 4 ... 60 s; after 8 failures in a row it is
 * dropped). Local threads, when asked for, play from the same queue. A run
 * whose vectors have terms 61-74 fails, with one message naming the worker,
 * when a worker speaks protocol 1 only (it would refuse the 74 weights); one
 * whose vectors have a phase, when a worker does not speak protocol 3. */
#ifndef KINGME_WORKERS_H
#define KINGME_WORKERS_H

#include "kingme/match.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define WORKERS_MAX 256

/* What happened to a worker, for the progress line. */
typedef enum WorkerEventKind {
    WORKER_STARTED, /* it said hello */
    WORKER_FAILED,  /* died, timed out, or answered garbage: its jobs go to others */
    WORKER_DROPPED, /* failed too often: not restarted any more */
} WorkerEventKind;

typedef void (*WorkerEventFn)(int worker, WorkerEventKind kind, const char *why, void *user);

typedef struct WorkerSet WorkerSet;

/* Read a workers file: one shell command per line; blank lines and lines
 * starting with '#' are skipped. Returns the set (not started yet: workers
 * are started by workers_run and kept between runs), or NULL with err. */
WorkerSet *workers_from_file(const char *path, char *err);
int workers_count(const WorkerSet *ws);
void workers_set_timeout(WorkerSet *ws, double seconds); /* per job (default 600 s) */
void workers_set_events(WorkerSet *ws, WorkerEventFn fn, void *user);
/* The first back-off after a failure (doubled each time, at most 60 s;
 * default 1 s). */
void workers_set_backoff(WorkerSet *ws, double first);
/* What the coordinator did, over every run of this set. */
typedef struct WorkerStats {
    uint64_t jobs, results;       /* job lines sent, results taken */
    uint64_t bytes_out, bytes_in; /* written to the workers (jobs and vectors), read from them */
    uint64_t failures;            /* worker failures (each gave its jobs back) */
    double cpu;                   /* CPU seconds of the coordinating thread */
} WorkerStats;
void workers_stats(const WorkerSet *ws, WorkerStats *out);

/* Stop every worker process (close its stdin, then kill it) and free. */
void workers_free(WorkerSet *ws);

/* Any kind of job the workers can do (games are one kind, the book's
 * positions another): n jobs, each a line to a worker and a line back, or
 * done on a local thread. The callbacks are called from the coordinating
 * thread (vectors, line, take) and the local threads (play), never two
 * `take`s at once but a `take` and `play`s at once: they store their results
 * under a lock of their own. */
typedef struct WorkersJobs {
    int n;
    bool terms, phase, book, selfplay; /* the jobs need workers that speak protocol 2, 3, 4, 5 */
    void *ctx;
    /* the vectors job i needs (sent once to each worker before its line): how many (0 to 2) */
    int (*vectors)(void *ctx, int i, const Weights *v[2]);
    char *(*line)(void *ctx, int i); /* job i's line (malloc'd), NULL when out of memory */
    const char *answer;              /* the first word of a result line ("result", "scored") */
    /* the result line of job i (its words; tok[0] is `answer`, tok[1] is i):
     * 0 when stored, -1 with why (the worker then failed, the job goes to
     * another), or -2 with why (the run fails: a file cannot be written) */
    int (*take)(void *ctx, int i, char **tok, int nt, char *why);
    /* job i on local thread number `thread` (0 .. threads - 1): 0 when
     * stored, 1 when stopped, -1 with err (the run fails) */
    int (*play)(void *ctx, int thread, int i, const atomic_bool *stop, char *err);
} WorkersJobs;

/* 0, or -1 with one line when v has a pattern layer: the protocol's weights
 * lines carry the named weights only, so a worker would play without it. */
int workers_refuse_layer(const Weights *v, char *err);

/* Do the jobs on the workers and `threads` local threads (0: none), as
 * workers_run does the games. 0 (check stop: jobs may be left undone), or
 * -1 with a message. */
int workers_run_jobs(WorkerSet *ws, const WorkersJobs *jobs, int threads, const atomic_bool *stop, char *err);

/* As match_run, with the games shared between the worker processes and
 * `threads` local threads (0: none). The results, the progress calls (never
 * two at a time) and the error contract are match_run's: the workers send
 * every game's moves, which are replayed and checked against the checksum. Fails when no
 * worker can be kept alive and there is no local thread, and at once (before
 * any worker hears of it) when a vector has a pattern layer, which the
 * protocol does not carry. */
int workers_run(WorkerSet *ws, const MatchSettings *set, const MatchGameSpec *specs, int n, int threads,
                bool keep_games, MatchOutcome *out, MatchProgress progress, void *user,
                const atomic_bool *stop, char *err);

#endif
