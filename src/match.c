/* match.c - many games, as jobs of the runner (match.h, workers.h). */
#include "kingme/match.h"
#include "kingme/textio.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- games as the runner's jobs (workers.h) ------------------------------------ */

typedef struct GameJobs {
    const MatchSettings *set;
    const MatchGameSpec *specs;
    int n;
    bool keep;
    MatchOutcome *out;
    MatchProgress progress;
    void *user;
    MatchPlayers **players; /* one per local thread */
    WprotoFiles *files;
    int done;
} GameJobs;

/* Game i, in game order: counted and shown (the runner's report). */
static void game_report(void *ctx, int i)
{
    GameJobs *G = ctx;
    MatchOutcome *o = &G->out[i];
    G->done++;
    if (G->progress) G->progress(G->done, G->n, i, o, G->user);
    if (!G->keep && o->game.moves) {
        game_free(&o->game);
        memset(&o->game, 0, sizeof o->game);
    }
}

static char *game_line(void *ctx, int i, uint64_t *need, int *nneed)
{
    GameJobs *G = ctx;
    /* the moves always: checked against the checksum, and the progress shows them */
    return wproto_job_line(G->files, i, G->set, &G->specs[i], true, need, nneed);
}

static int game_take(void *ctx, int i, char **tok, int nt, char *why)
{
    GameJobs *G = ctx;
    char e2[KM_ERR_MAX];
    MatchOutcome o;
    if (wproto_parse_result(tok, nt, G->specs[i].opening, &o, e2))
        return km_fail(why, "answered garbage for game %d: %s", i, e2);
    if (!G->set->tc_base) o.min_left[0] = o.min_left[1] = INFINITY;
    G->out[i] = o;
    return 0;
}

static int game_job_play(void *ctx, int thread, int i, const atomic_bool *stop, char *err)
{
    GameJobs *G = ctx;
    MatchOutcome *o = &G->out[i];
    if (referee_players_play(G->players[thread], G->set, &G->specs[i], o, stop, err)) {
        game_free(&o->game);
        memset(o, 0, sizeof *o);
        return -1;
    }
    if (o->result == GAME_ONGOING) { /* stopped */
        game_free(&o->game);
        memset(&o->game, 0, sizeof o->game);
        return 1;
    }
    return 0;
}

/* Whether every setting a game depends on travels in the job line: encode,
 * decode and compare. */
static int settings_travel(const MatchSettings *set, char *err)
{
    WprotoFiles *F = wproto_files_new();
    WprotoJob *j = malloc(sizeof *j);
    char **tok = malloc((WPROTO_LINE_MAX / 2 + 2) * sizeof *tok);
    Weights z;
    memset(&z, 0, sizeof z);
    MatchGameSpec spec = {&z, &z, NULL, 0, {0, 0}};
    MatchSettings plain = *set;
    plain.sides = NULL;
    plain.book = NULL;
    uint64_t need[WPROTO_NEED_MAX];
    int nneed = 0, rc = -1;
    char *line = F && j && tok ? wproto_job_line(F, 0, &plain, &spec, false, need, &nneed) : NULL;
    if (!line) {
        km_fail(err, "out of memory");
    } else {
        int nt = textio_split(line, tok, WPROTO_LINE_MAX / 2);
        if (wproto_parse_job(tok, nt, j, err) == 0) {
            const MatchSettings *d = &j->set;
            if (memcmp(&set->limits, &d->limits, sizeof d->limits) != 0 ||
                memcmp(&set->use, &d->use, sizeof d->use) != 0 || d->tiebreak != set->tiebreak ||
                d->ply_cap != set->ply_cap || d->hash_mb != set->hash_mb ||
                d->share_table != set->share_table || d->tc_base != set->tc_base ||
                d->tc_inc != set->tc_inc || d->timeout != set->timeout || d->grace != set->grace ||
                d->engine_hash != set->engine_hash || d->book_variety != set->book_variety)
                km_fail(err, "these search settings cannot be sent to workers");
            else rc = 0;
        }
    }
    free(line);
    free(tok);
    free(j);
    wproto_files_free(F);
    return rc;
}

int match_run_workers(WorkerSet *ws, const MatchSettings *set, const MatchGameSpec *specs, int n, int threads,
                      bool keep_games, MatchOutcome *out, MatchProgress progress, void *user,
                      const atomic_bool *stop, char *err)
{
    memset(out, 0, (size_t)(n > 0 ? n : 0) * sizeof *out);
    if (n <= 0) return 0;
    if (ws && settings_travel(set, err)) return -1;
    if (!ws && threads < 1) threads = 1;
    if (threads > n) threads = n;
    if (threads > WORKERS_THREADS_MAX) threads = WORKERS_THREADS_MAX;
    GameJobs G = {.set = set,
                  .specs = specs,
                  .n = n,
                  .keep = keep_games,
                  .out = out,
                  .progress = progress,
                  .user = user};
    G.players = calloc((size_t)(threads ? threads : 1), sizeof *G.players);
    G.files = wproto_files_new();
    if (!G.players || !G.files) {
        free(G.players);
        wproto_files_free(G.files);
        return km_fail(err, "out of memory");
    }
    /* every thread's players first, one after the other on this thread: an
     * engine that cannot start stops the match with one message */
    int made = 0, rc = 0;
    for (; made < threads; made++)
        if (!(G.players[made] = referee_players_new(set, err))) break;
    char dg[WPROTO_DIGEST_MAX];
    wproto_egdb_digest(set->egdb, dg);
    if (made == threads) {
        WorkersJobs jobs = {.n = n,
                            .ctx = &G,
                            .line = game_line,
                            .files = G.files,
                            .answer = "result",
                            .take = game_take,
                            .play = game_job_play,
                            .report = game_report,
                            .egdb = dg};
        rc = workers_run_jobs(ws, &jobs, threads, stop, err);
    } else {
        rc = -1;
    }
    for (int t = 0; t < made; t++) referee_players_free(G.players[t]);
    free(G.players);
    wproto_files_free(G.files);
    return rc;
}

int match_run(const MatchSettings *set, const MatchGameSpec *specs, int n, int threads, bool keep_games,
              MatchOutcome *out, MatchProgress progress, void *user, const atomic_bool *stop, char *err)
{
    return match_run_workers(NULL, set, specs, n, threads, keep_games, out, progress, user, stop, err);
}

void match_outcomes_free(MatchOutcome *out, int n)
{
    for (int i = 0; out && i < n; i++)
        if (out[i].game.moves) game_free(&out[i].game);
}
