/* match.h - many engine-vs-engine games on a small pool of threads, each
 * thread with its own players (referee.h) kept from game to game.
 *
 * The games are jobs of the runner (workers.h): each outcome goes to the
 * job's own slot, so results never depend on the number of threads or on
 * which worker process played what. */
#ifndef KINGME_MATCH_H
#define KINGME_MATCH_H

#include "kingme/referee.h"
#include "kingme/workers.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Called for each finished game in game order (game i once games 0 .. i - 1
 * are; after a stop, every game finished), from the threads but never two at
 * a time, so that what it prints is the same on any number of threads and
 * workers: done counts the games reported so far, job is the index of this one. */
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

/* As match_run, with the games shared between the worker processes of ws
 * (workers.h; NULL: none) and `threads` local threads (0: none). The
 * workers send every game's moves, which are replayed and checked against
 * the checksum; everything a game depends on travels (vectors with their
 * pattern layer as files, the book, engine:COMMAND players started on the
 * worker's machine, the clock), and a worker whose endgame database is not
 * set->egdb's stops the run with a line. */
int match_run_workers(WorkerSet *ws, const MatchSettings *set, const MatchGameSpec *specs, int n, int threads,
                      bool keep_games, MatchOutcome *out, MatchProgress progress, void *user,
                      const atomic_bool *stop, char *err);

void match_outcomes_free(MatchOutcome *out, int n);

#endif
