/* match.c - openings, engine-vs-engine games, the game pool, Elo statistics. */
#include "kingme/match.h"
#include "kingme/notation.h"
#include "kingme/pdn.h"
#include "kingme/textio.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- ballots ----------------------------------------------------------------- */

const char *ballot_status_text(BallotStatus s)
{
    switch (s) {
    case BALLOT_CROSSBOARD: return "crossboard";
    case BALLOT_MAILPLAY: return "mailplay";
    default: return "barred";
    }
}

void ballot_line(const Ballot *b, char *buf, size_t len)
{
    snprintf(buf, len, "%d\t%s%s\t%s%s%s", b->number, ballot_status_text(b->status),
             b->ctd ? ",ctd" : "", b->moves, b->name[0] ? "\t" : "", b->name);
}

/* ---- openings ------------------------------------------------------------------ */

void opening_start(Opening *o)
{
    memset(o, 0, sizeof *o);
    board_init(&o->start);
    snprintf(o->name, sizeof o->name, "start");
}

int opening_from_ballot(Opening *o, const Ballot *b, char *err)
{
    opening_start(o);
    o->ballot = b->number;
    snprintf(o->name, sizeof o->name, "ballot %d (%s)", b->number, b->moves);
    Board cur = o->start;
    const char *p = b->moves;
    while (*p) {
        while (*p == ' ') p++;
        if (!*p) break;
        char text[MOVE_TEXT_MAX];
        size_t n = strcspn(p, " ");
        if (n >= sizeof text || o->nply >= OPENING_MAX_PLY)
            return km_fail(err, "ballot %d: bad moves '%s'", b->number, b->moves);
        memcpy(text, p, n);
        text[n] = '\0';
        p += n;
        char why[KM_ERR_MAX];
        if (parse_move(&cur, text, &o->moves[o->nply], why))
            return km_fail(err, "ballot %d: %s", b->number, why);
        make_move(&cur, &o->moves[o->nply]);
        o->nply++;
    }
    return 0;
}

int openings_crossboard(Opening **out, int *n, char *err)
{
    *out = NULL;
    *n = 0;
    Opening *o = malloc(BALLOT_COUNT * sizeof *o);
    if (!o) return km_fail(err, "out of memory");
    int k = 0;
    for (int i = 0; i < BALLOT_COUNT; i++) {
        if (km_ballots[i].status != BALLOT_CROSSBOARD) continue;
        if (opening_from_ballot(&o[k], &km_ballots[i], err)) {
            free(o);
            return -1;
        }
        k++;
    }
    *out = o;
    *n = k;
    return 0;
}

int openings_from_pdn(const char *path, Opening **out, int *n, char *err)
{
    *out = NULL;
    *n = 0;
    PdnGame *games;
    int ng;
    if (pdn_read_file(path, &games, &ng, err)) return -1;
    Opening *o = malloc((size_t)ng * sizeof *o);
    if (!o) {
        pdn_free_games(games, ng);
        return km_fail(err, "%s: out of memory", path);
    }
    int r = 0;
    for (int i = 0; i < ng && r == 0; i++) {
        const PdnGame *pg = &games[i];
        const Game *g = &pg->game;
        if (pg->error) {
            r = km_fail(err, "%s", pg->error);
        } else if (g->nply > OPENING_MAX_PLY) {
            r = km_fail(err, "%s: game %d (line %d) has %d plies; an opening may have at most %d", path,
                        i + 1, pg->line, g->nply, OPENING_MAX_PLY);
        } else if (g->result != GAME_ONGOING) {
            r = km_fail(err, "%s: game %d (line %d) is already over after its moves (%s)", path, i + 1,
                        pg->line, game_reason_text(g->reason));
        } else {
            memset(&o[i], 0, sizeof o[i]);
            o[i].start = g->start;
            o[i].nply = g->nply;
            memcpy(o[i].moves, g->moves, (size_t)g->nply * sizeof *g->moves);
            snprintf(o[i].name, sizeof o[i].name, "game %d (line %d)", i + 1, pg->line);
        }
    }
    pdn_free_games(games, ng);
    if (r) {
        free(o);
        return -1;
    }
    *out = o;
    *n = ng;
    return 0;
}

/* ---- one game ------------------------------------------------------------------ */

void match_settings_default(MatchSettings *s)
{
    memset(s, 0, sizeof *s);
    search_limits_default(&s->limits);
    s->ply_cap = MATCH_PLY_CAP;
    s->hash_mb = MATCH_HASH_MB;
}

uint64_t match_game_seed(uint64_t seed, uint64_t index)
{
    return km_mix64(km_mix64(seed + 0x9E3779B97F4A7C15ull) ^ (index * 0xD1B54A32D192ED03ull + 1));
}

static bool stopped(const atomic_bool *stop)
{
    return stop && atomic_load_explicit(stop, memory_order_relaxed);
}

/* The game on two Searchers of the caller (either colour's table is cleared
 * first, so a game never depends on what the Searchers did before). */
static int play_with(Searcher s[2], const MatchSettings *set, const MatchGameSpec *spec, Game *g,
                     const atomic_bool *stop, char *err)
{
    const Opening *op = spec->opening;
    if (game_init(g, op ? &op->start : NULL)) return km_fail(err, "out of memory");
    for (int i = 0; op && i < op->nply; i++) {
        if (g->result != GAME_ONGOING)
            return km_fail(err, "opening %s: the game is over before its last move", op->name);
        if (game_play(g, &op->moves[i])) return km_fail(err, "out of memory");
    }
    searcher_set_weights(&s[KM_BLACK], spec->black);
    searcher_set_weights(&s[KM_WHITE], spec->white);
    searcher_seed(&s[KM_BLACK], spec->seed);
    searcher_seed(&s[KM_WHITE], km_mix64(spec->seed ^ 0x5768697465ull));
    searcher_clear(&s[KM_BLACK]);
    searcher_clear(&s[KM_WHITE]);
    int cap = set->ply_cap > 0 ? set->ply_cap : MATCH_PLY_CAP;
    while (g->result == GAME_ONGOING) {
        if (g->nply >= cap) {
            g->result = GAME_DRAW;
            g->reason = REASON_PLY_CAP;
            break;
        }
        if (stopped(stop)) break;
        SearchResult r;
        if (search_run(&s[g->cur.stm], &g->cur, g->keys, g->nply, game_quiet_plies(g), &set->limits, &r,
                       NULL, NULL))
            return km_fail(err, "out of memory");
        if (!r.has_move) return km_fail(err, "internal error: the search found no move in a game still going");
        if (game_play(g, &r.best)) return km_fail(err, "out of memory");
    }
    return 0;
}

static int searchers_init(Searcher s[2], size_t hash_mb, char *err)
{
    Weights zero;
    memset(&zero, 0, sizeof zero);
    if (searcher_init(&s[0], &zero, hash_mb, 0, err)) return -1;
    if (searcher_init(&s[1], &zero, hash_mb, 0, err)) {
        searcher_free(&s[0]);
        return -1;
    }
    return 0;
}

int match_play_game(const MatchSettings *set, const MatchGameSpec *spec, Game *g,
                    const atomic_bool *stop, char *err)
{
    memset(g, 0, sizeof *g);
    Searcher s[2];
    if (searchers_init(s, set->hash_mb, err)) return -1;
    int r = play_with(s, set, spec, g, stop, err);
    searcher_free(&s[0]);
    searcher_free(&s[1]);
    return r;
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

static void *worker(void *arg)
{
    Pool *p = arg;
    Searcher s[2];
    char err[KM_ERR_MAX];
    if (searchers_init(s, p->set->hash_mb, err)) {
        pool_fail(p, err);
        return NULL;
    }
    while (!stopped(p->stop) && !atomic_load(&p->failed)) {
        int i = atomic_fetch_add(&p->next, 1);
        if (i >= p->n) break;
        Game g;
        if (play_with(s, p->set, &p->specs[i], &g, p->stop, err)) {
            game_free(&g);
            pool_fail(p, err);
            break;
        }
        MatchOutcome *o = &p->out[i];
        o->result = g.result;
        o->reason = g.reason;
        o->nply = g.nply;
        if (p->keep && o->result != GAME_ONGOING) o->game = g;
        else game_free(&g);
        if (o->result == GAME_ONGOING) continue; /* stopped */
        pthread_mutex_lock(&p->lock);
        p->done++;
        if (p->progress) p->progress(p->done, p->n, i, o, p->user);
        pthread_mutex_unlock(&p->lock);
    }
    searcher_free(&s[0]);
    searcher_free(&s[1]);
    return NULL;
}

int match_run(const MatchSettings *set, const MatchGameSpec *specs, int n, int threads,
              bool keep_games, MatchOutcome *out, MatchProgress progress, void *user,
              const atomic_bool *stop, char *err)
{
    memset(out, 0, (size_t)(n > 0 ? n : 0) * sizeof *out);
    if (n <= 0) return 0;
    Pool p = {.set = set, .specs = specs, .n = n, .keep = keep_games, .out = out,
              .progress = progress, .user = user, .stop = stop};
    atomic_init(&p.next, 0);
    atomic_init(&p.failed, false);
    if (pthread_mutex_init(&p.lock, NULL)) return km_fail(err, "cannot create a mutex");
    if (threads > n) threads = n;
    if (threads <= 1) {
        worker(&p);
    } else {
        pthread_t *tid = malloc((size_t)threads * sizeof *tid);
        int started = 0;
        if (!tid) {
            pool_fail(&p, "out of memory");
        } else {
            for (; started < threads; started++)
                if (pthread_create(&tid[started], NULL, worker, &p)) {
                    /* the threads already running finish the jobs */
                    if (started == 0) pool_fail(&p, "cannot start a thread");
                    break;
                }
            for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
            free(tid);
        }
    }
    pthread_mutex_destroy(&p.lock);
    if (atomic_load(&p.failed)) return km_fail(err, "%s", p.err);
    return 0;
}

void match_outcomes_free(MatchOutcome *out, int n)
{
    for (int i = 0; out && i < n; i++)
        if (out[i].game.moves) game_free(&out[i].game);
}

/* ---- statistics ---------------------------------------------------------------- */

double elo_from_score(double s)
{
    if (s <= 0) return -INFINITY;
    if (s >= 1) return INFINITY;
    return 400.0 * log10(s / (1.0 - s));
}

double elo_los(int wins, int losses)
{
    if (wins + losses == 0) return 0.5;
    return 0.5 * (1.0 + erf((double)(wins - losses) / sqrt(2.0 * (double)(wins + losses))));
}

void elo_stats(int wins, int draws, int losses, EloStats *out)
{
    memset(out, 0, sizeof *out);
    out->wins = wins;
    out->draws = draws;
    out->losses = losses;
    out->games = wins + draws + losses;
    out->los = elo_los(wins, losses);
    if (out->games == 0) return;
    double n = out->games, s = (wins + 0.5 * draws) / n;
    double var = (wins * (1 - s) * (1 - s) + draws * (0.5 - s) * (0.5 - s) + losses * s * s) / n;
    double margin = 1.959963984540054 * sqrt(var / n);
    out->score = s;
    out->elo = elo_from_score(s);
    out->elo_lo = elo_from_score(s - margin);
    out->elo_hi = elo_from_score(s + margin);
}
