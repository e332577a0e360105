/* match.h - many engine-vs-engine games on a small pool of threads, each
 * thread with its own players (referee.h) kept from game to game.
 *
 * The pool hands out jobs through one atomic index and stores each outcome in
 * the job's own slot, so results never depend on the number of threads.
 * Games shared with worker processes: workers.h. */
#ifndef KINGME_MATCH_H
#define KINGME_MATCH_H

#include "kingme/referee.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Called after each finished game, from the worker threads but never two at
 * a time: done counts the games finished so far, job is the index of this one. */
typedef void (*MatchProgress)(int done, int total, int job, const MatchOutcome *o, void *user);

/* Play the n games on `threads` threads (<= 1: on the calling thread). out[i]
 * receives the outcome of specs[i]. Each thread starts its own process for
 * each engine side, restarts one that forfeited before its next game, and
 * stops them all at the end. When stop becomes true, the games in progress
 * end unfinished and no new one starts. Returns 0 (check stop for unplayed
 * games), or -1 with a message (out of memory, thread creation, an illegal
 * opening, an engine that does not start); free the kept games with
 * match_outcomes_free in any case. */
int match_run(const MatchSettings *set, const MatchGameSpec *specs, int n, int threads, bool keep_games,
              MatchOutcome *out, MatchProgress progress, void *user, const atomic_bool *stop, char *err);

void match_outcomes_free(MatchOutcome *out, int n);

#endif
