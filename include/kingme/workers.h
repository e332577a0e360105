/* workers.h - the job runner: many independent jobs done on local threads
 * and on worker processes (`kingme worker`, worker.h, started over ssh,
 * srun, kubectl exec -i, or plainly: each with /bin/sh -c COMMAND and spoken
 * to through its stdin and stdout in the worker protocol, worker_proto.h).
 * Every command that runs many jobs runs them here: the games of match and
 * tune (match.h), the self-play games (selfplay.h), the opening book's
 * positions (book_build.h), the endgame slices (egdb_build.h, local threads
 * only).
 *
 * A job kind is a few callbacks (WorkersJobs): the line that carries job i
 * to a worker and the files it names, the answer taken into the job's own
 * slot, and the job done on a local thread. The runner keeps two jobs in
 * flight per worker, sends each worker the files its jobs name once, and
 * when a worker dies, stays silent past the timeout or answers garbage, kills
 * it, gives its jobs to others and starts it again later (back-off 1, 2, 4
 * ... 60 s; after 8 failures in a row it is dropped). Results go to their
 * slots, so they never depend on who did what. */
#ifndef KINGME_WORKERS_H
#define KINGME_WORKERS_H

#include "kingme/worker_proto.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define WORKERS_MAX 256
#define WORKERS_THREADS_MAX 256
#define WORKERS_TICK 0.25 /* seconds between WorkersJobs.tick calls */

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
 * are started by workers_run_jobs and kept between runs), or NULL with err. */
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
    uint64_t bytes_out, bytes_in; /* written to the workers (jobs and files), read from them */
    uint64_t files;               /* files sent */
    uint64_t failures;            /* worker failures (each gave its jobs back) */
    double cpu;                   /* CPU seconds of the coordinating thread */
} WorkerStats;
void workers_stats(const WorkerSet *ws, WorkerStats *out);

/* Stop every worker process (close its stdin, then kill it) and free. */
void workers_free(WorkerSet *ws);

/* Progress of a run: done of total jobs, seconds so far, and the seconds
 * left at the pace so far (-1 before the first result). */
typedef void (*WorkersProgressFn)(int done, int total, double elapsed, double eta, void *user);

/* A job kind: n jobs. The callbacks are called from the coordinating thread
 * (line, take) and the local threads (play), never two `take`s at once but a
 * `take` and `play`s at once: they store their results under a lock of
 * their own. */
typedef struct WorkersJobs {
    int n;
    void *ctx;
    /* job i's line (malloc'd; NULL when out of memory), and the hashes of the
     * files it names (up to WPROTO_NEED_MAX), which must be in `files` (or be
     * a book the worker has) */
    char *(*line)(void *ctx, int i, uint64_t *need, int *nneed);
    const WprotoFiles *files;
    const char *answer; /* the first word of a result line ("result", "scored", "played") */
    /* the result line of job i (its words; tok[0] is `answer`, tok[1] is i):
     * 0 when stored, -1 with why (the worker then failed, the job goes to
     * another), or -2 with why (the run fails: a file cannot be written) */
    int (*take)(void *ctx, int i, char **tok, int nt, char *why);
    /* job i on local thread number `thread` (0 .. threads - 1): 0 when
     * stored, 1 when stopped, -1 with err (the run fails) */
    int (*play)(void *ctx, int thread, int i, const atomic_bool *stop, char *err);
    /* may be NULL: called for each job done, in job order (job i once jobs
     * 0 .. i - 1 are; after a stop, the rest done), never two at once, from
     * the thread that did or took the job that completed the order: what a
     * command prints or writes comes out as with one thread */
    void (*report)(void *ctx, int i);
    /* the endgame database the jobs use, as worker_proto says it ("none"
     * or NULL: none): a worker that holds another stops the run with a line */
    const char *egdb;
    WorkersProgressFn progress; /* may be NULL; from the coordinating thread */
    /* may be NULL: called from the coordinating thread about every
     * WORKERS_TICK seconds while the run goes on (a progress line that
     * shows the share done of the jobs in flight, which `progress` cannot) */
    void (*tick)(void *user);
    void *user;
} WorkersJobs;

/* Do the jobs on the workers of ws (NULL: none) and `threads` local
 * threads (0: none). 0 (check stop: jobs may be left undone), or -1 with a
 * message (a worker of another protocol version or database, every worker
 * dropped and no local thread, a local job or a take that failed). */
int workers_run_jobs(WorkerSet *ws, const WorkersJobs *jobs, int threads, const atomic_bool *stop, char *err);

#endif
