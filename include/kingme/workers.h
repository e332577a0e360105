/* workers.h - games played by other processes: `kingme worker` and the
 * coordinator that feeds a set of them (over ssh, srun, kubectl exec -i, or
 * plain local processes: each is started with /bin/sh -c COMMAND and spoken
 * to through its stdin and stdout).
 *
 * The worker protocol (version 3; version 1 had 60 weights only, version 2 no
 * phase), one line each way:
 *   worker -> `worker kingme VERSION protocol 1 2 3` when it starts (the versions it
 *              speaks; a coordinator of version 1 looks for "protocol 1", one of
 *              version 2 for "protocol 1 2")
 *   coord  -> `weights ID W1 ... W60`   a vector, once per worker (ID: 16 hex digits)
 *          or `weights ID W1 ... W74`   (version 2) a vector with the terms 61-74,
 *              sent only when one of them is not 0, only to a worker that speaks 2
 *          or `weights ID W1 ... W148`  (version 3) a vector with a phase: the
 *              opening's 74, then the ending's (end.), only to a worker that speaks 3
 *   coord  -> `job N BLACK-ID WHITE-ID depth D time S nodes K cap C hash MB share 0|1
 *              tiebreak first|random flags F seed X keep 0|1 fen FEN [moves M1 M2 M3 ...]`
 *   worker -> `result N RESULT REASON PLIES CHECKSUM [moves M1 ...]`   (moves: when keep 1)
 *          or `error N MESSAGE` (a job it refused), `error - MESSAGE` (a line it could not read)
 * RESULT is 1-0, 0-1 or 1/2-1/2; REASON the GameReason number; CHECKSUM 16
 * hex digits of the game's moves (workers_moves_checksum). A job carries
 * everything its game depends on, so the same job gives the same game on any
 * worker and on the coordinator's own threads: results never depend on who
 * played what.
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

#define WORKERS_PROTOCOL 3
#define WORKERS_MAX 256
#define WORKERS_LINE_MAX 65536

/* ---- the line codec (shared by both sides; also what the tests and the
 * fuzz targets check) ---- */

/* The ID of a weight vector: 16 hex digits of a hash of its values. */
uint64_t workers_weights_id(const Weights *w);

/* One ply's worth of checksum: a hash chain over from, to and the captured
 * pieces of each move, in order. */
uint64_t workers_moves_checksum(const Game *g);

/* The job line of spec under set, with the vectors' IDs (no newline). */
char *workers_job_line(int n, const MatchSettings *set, const MatchGameSpec *spec, bool keep);

/* ---- the worker side ---- */

/* Handle one line as `kingme worker` does; answer (when there is one) is a
 * malloc'd line without newline, or NULL. The state keeps the vectors seen. */
typedef struct WorkerState WorkerState;
WorkerState *worker_state_new(void);
void worker_state_free(WorkerState *ws);
char *worker_handle_line(WorkerState *ws, const char *line);

/* ---- the coordinator side ---- */

/* What happened to a worker, for the progress line. */
typedef enum WorkerEventKind {
    WORKER_STARTED,   /* it said hello */
    WORKER_FAILED,    /* died, timed out, or answered garbage: its jobs go to others */
    WORKER_DROPPED,   /* failed too often: not restarted any more */
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
    uint64_t jobs, results;        /* job lines sent, results taken */
    uint64_t bytes_out, bytes_in;  /* written to the workers (jobs and vectors), read from them */
    uint64_t failures;             /* worker failures (each gave its jobs back) */
    double cpu;                    /* CPU seconds of the coordinating thread */
} WorkerStats;
void workers_stats(const WorkerSet *ws, WorkerStats *out);

/* Stop every worker process (close its stdin, then kill it) and free. */
void workers_free(WorkerSet *ws);

/* As match_run, with the games shared between the worker processes and
 * `threads` local threads (0: none). The results, the progress calls (never
 * two at a time) and the error contract are match_run's: the workers send
 * every game's moves, which are replayed and checked against the checksum. Fails when no
 * worker can be kept alive and there is no local thread. */
int workers_run(WorkerSet *ws, const MatchSettings *set, const MatchGameSpec *specs, int n, int threads,
                bool keep_games, MatchOutcome *out, MatchProgress progress, void *user,
                const atomic_bool *stop, char *err);

#endif
