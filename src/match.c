/* match.c - the game pool (match.h). */
#include "kingme/match.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool stopped(const atomic_bool *stop)
{
    return stop && atomic_load_explicit(stop, memory_order_relaxed);
}

/* ---- the pool ------------------------------------------------------------------ */

/* Shared between the workers: the job index (atomic), the failure flag
 * (atomic), and under the lock the done count, the callback and the first
 * error. Each outcome slot is written by the one worker that took the job. */
typedef struct Pool {
    const MatchSettings *set;
    const MatchGameSpec *specs;
    int n;
    bool keep;
    MatchOutcome *out;
    MatchProgress progress;
    void *user;
    const atomic_bool *stop;
    atomic_int next;
    atomic_bool failed;
    pthread_mutex_t lock;
    int done;
    char err[KM_ERR_MAX];
} Pool;

static void pool_fail(Pool *p, const char *msg)
{
    pthread_mutex_lock(&p->lock);
    if (!atomic_load(&p->failed)) snprintf(p->err, sizeof p->err, "%s", msg);
    atomic_store(&p->failed, true);
    pthread_mutex_unlock(&p->lock);
}

/* One thread's games, on the players made for it. */
typedef struct WorkerArg {
    Pool *pool;
    MatchPlayers *players;
} WorkerArg;

static void *worker(void *arg)
{
    WorkerArg *wa = arg;
    Pool *p = wa->pool;
    MatchPlayers *P = wa->players;
    char err[KM_ERR_MAX];
    while (!stopped(p->stop) && !atomic_load(&p->failed)) {
        int i = atomic_fetch_add(&p->next, 1);
        if (i >= p->n) break;
        MatchOutcome *o = &p->out[i];
        if (match_players_play(P, p->set, &p->specs[i], o, p->stop, err)) {
            game_free(&o->game);
            memset(&o->game, 0, sizeof o->game);
            o->result = GAME_ONGOING;
            pool_fail(p, err);
            break;
        }
        if (o->result != GAME_ONGOING) {
            pthread_mutex_lock(&p->lock);
            p->done++;
            if (p->progress) p->progress(p->done, p->n, i, o, p->user);
            pthread_mutex_unlock(&p->lock);
        }
        if (!p->keep || o->result == GAME_ONGOING) {
            game_free(&o->game);
            memset(&o->game, 0, sizeof o->game);
        }
    }
    return NULL;
}

int match_run(const MatchSettings *set, const MatchGameSpec *specs, int n, int threads, bool keep_games,
              MatchOutcome *out, MatchProgress progress, void *user, const atomic_bool *stop, char *err)
{
    memset(out, 0, (size_t)(n > 0 ? n : 0) * sizeof *out);
    if (n <= 0) return 0;
    Pool p = {.set = set,
              .specs = specs,
              .n = n,
              .keep = keep_games,
              .out = out,
              .progress = progress,
              .user = user,
              .stop = stop};
    atomic_init(&p.next, 0);
    atomic_init(&p.failed, false);
    if (threads > n) threads = n;
    if (threads < 1) threads = 1;
    /* every thread's players first, one after the other on this thread: an
     * engine that cannot start stops the match with one message */
    MatchPlayers **players = malloc((size_t)threads * sizeof *players);
    WorkerArg *args = malloc((size_t)threads * sizeof *args);
    pthread_t *tid = malloc((size_t)threads * sizeof *tid);
    if (!players || !args || !tid) {
        free(players);
        free(args);
        free(tid);
        return km_fail(err, "out of memory");
    }
    int made = 0;
    for (; made < threads; made++) {
        if (!(players[made] = match_players_new(set, err))) break;
        args[made] = (WorkerArg){&p, players[made]};
    }
    int r = 0;
    if (made < threads) {
        r = -1;
    } else if (pthread_mutex_init(&p.lock, NULL)) {
        r = km_fail(err, "cannot create a mutex");
    } else {
        if (threads == 1) {
            worker(&args[0]);
        } else {
            int started = 0;
            for (; started < threads; started++)
                if (pthread_create(&tid[started], NULL, worker, &args[started])) {
                    /* the threads already running finish the jobs */
                    if (started == 0) pool_fail(&p, "cannot start a thread");
                    break;
                }
            for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
        }
        pthread_mutex_destroy(&p.lock);
        if (atomic_load(&p.failed)) r = km_fail(err, "%s", p.err);
    }
    for (int t = 0; t < made; t++) match_players_free(players[t]);
    free(players);
    free(args);
    free(tid);
    return r;
}

void match_outcomes_free(MatchOutcome *out, int n)
{
    for (int i = 0; out && i < n; i++)
        if (out[i].game.moves) game_free(&out[i].game);
}
