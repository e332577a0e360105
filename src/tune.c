/* tune.c - the genetic algorithm (docs/tuning.md) on match.c's game pool
 * or the worker processes: sessions, one generation, the session loop. The
 * controls are in tune_controls.c, population files in tune_file.c. See
 * tune.h for the algorithm, the order of the random draws and the file
 * format. */
#include "kingme/tune.h"
#include "kingme/elo.h"
#include "kingme/match.h"
#include "kingme/textio.h"
#include "kingme/weights.h"
#include "kingme/workers.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the session generator (splitmix64, km_rng_next) ------------------------------ */

/* Uniform in 0..n-1 (n < 2^32; the bias, n / 2^32, is negligible). */
static int rng_below(uint64_t *s, int n) { return (int)(((km_rng_next(s) >> 32) * (uint64_t)n) >> 32); }

/* Uniform in [0, 1). */
static double rng_unit(uint64_t *s) { return (double)(km_rng_next(s) >> 11) * 0x1.0p-53; }

static int16_t rng_weight(uint64_t *s) { return (int16_t)(uint16_t)(km_rng_next(s) >> 48); }

/* Weight i of a bred vector of n weights is eval_weights_at / eval_weights_ref (eval.h):
 * the opening vector w[], then with n = TUNE_NWEIGHTS_PHASE the ending
 * vector end[]. Every operator reads and writes through them, so the 148
 * are bred alike and nothing reads past w[]. */

/* A vector of a session of n weights: with the ending half it has a phase. */
static void mark_phase(int n, Weights *w)
{
    if (n > EVAL_NTERMS) w->phased = 1;
}

/* The first n weights (the session's vector length) random; the rest stay 0. */
static void random_weights(uint64_t *s, int n, Weights *w)
{
    for (int i = 0; i < n; i++) *eval_weights_ref(w, i) = rng_weight(s);
    mark_phase(n, w);
}

static bool same_weights(const Weights *a, const Weights *b) { return memcmp(a, b, sizeof *a) == 0; }

/* Standard normal (Box-Muller, one value per two uniforms). */
static double rng_gauss(uint64_t *s)
{
    double u = rng_unit(s), v = rng_unit(s);
    return sqrt(-2 * log(1 - u)) * cos(6.283185307179586 * v);
}

static int16_t clamp_weight(double x) { return (int16_t)(x > 32767 ? 32767 : x < -32767 ? -32767 : x); }

/* Antisymmetric: each own weight becomes the mean of itself and minus its
 * partner's, the partner its negative (in each half of a phased vector:
 * end.opp_X = -end.own_X). A vector that is already stays. */
static void antisymmetrise(Weights *w, int n)
{
    for (int i = 0; i < n; i++) {
        int half = i < EVAL_NTERMS ? 0 : EVAL_NTERMS, j = eval_term_partner(i - half);
        if (j < 0 || half + j >= n) continue;
        j += half;
        double m = round((eval_weights_at(w, i) - (double)eval_weights_at(w, j)) / 2);
        *eval_weights_ref(w, i) = clamp_weight(m);
        *eval_weights_ref(w, j) = (int16_t)-eval_weights_at(w, i);
    }
}

/* Scale w to the Euclidean norm `norm` (TUNE_NORM without a pattern layer:
 * a positive factor, the same games). An all-zero vector stays zero.
 * Rounding keeps a symmetric vector symmetric (round() is odd). A phased
 * vector has one norm over both halves: scaling the whole vector is the one
 * change that changes no game, while scaling one half alone would change the
 * blend (the weight of the opening against the ending at a given number of
 * pieces), which is the GA's to breed. Over a fixed pattern layer, scaling
 * does change games (the layer keeps its scale), so the session's norm is
 * that of the named weights of the layer's file: the bred vectors stay in
 * the layer's units. */
static void normalise(Weights *w, int n, int norm)
{
    double sq = 0;
    for (int i = 0; i < n; i++) sq += (double)eval_weights_at(w, i) * eval_weights_at(w, i);
    if (sq <= 0) return;
    double f = norm / sqrt(sq);
    for (int i = 0; i < n; i++) *eval_weights_ref(w, i) = clamp_weight(round(eval_weights_at(w, i) * f));
}

/* A bred or fresh vector of the learn algorithm: symmetric if asked, then
 * normalised; with the session's phase and pattern layer. */
static void finish_learn(const TuneControls *c, Weights *w)
{
    if (c->symmetric) antisymmetrise(w, c->nweights);
    normalise(w, c->nweights, c->norm);
    mark_phase(c->nweights, w);
    tune_controls_carry_layer(c, w);
}

/* A random vector of the learn algorithm (c->init), finished. */
static void random_learn(const TuneControls *c, uint64_t *s, Weights *w)
{
    if (c->init == TUNE_INIT_HEAVY) {
        for (int i = 0; i < c->nweights; i++) {
            double g = rng_gauss(s);
            *eval_weights_ref(w, i) = clamp_weight(round(g * g * g * 4000));
        }
    } else {
        random_weights(s, c->nweights, w);
    }
    finish_learn(c, w);
}

/* k distinct values of 0..n-1 (k <= n) in draw order, from k draws: the
 * j-th draw picks among the n - j values not taken yet. */
static void rng_distinct(uint64_t *s, int n, int k, int *out)
{
    int sorted[TUNE_MAX_GLADIATOR];
    for (int j = 0; j < k; j++) {
        int v = rng_below(s, n - j), i = 0;
        for (; i < j && sorted[i] <= v; i++) v++; /* skip the taken values below it */
        out[j] = v;
        memmove(sorted + i + 1, sorted + i, (size_t)(j - i) * sizeof *sorted);
        sorted[i] = v;
    }
}

/* ---- sessions ---------------------------------------------------------------- */

int tune_new(TuneSession *s, const TuneControls *c, char *err)
{
    memset(s, 0, sizeof *s);
    if (tune_controls_check(c, err)) return -1;
    s->pop = calloc((size_t)c->population, sizeof *s->pop);
    if (!s->pop) return km_fail(err, "out of memory");
    s->c = *c;
    s->rng = c->seed;
    for (int i = 0; i < c->population; i++) {
        if (c->algorithm == TUNE_ALG_LEARN) random_learn(c, &s->rng, &s->pop[i].w);
        else random_weights(&s->rng, c->nweights, &s->pop[i].w);
        s->pop[i].step = c->step;
    }
    return 0;
}

int tune_continue(TuneSession *s, const TuneSession *from, const TuneControls *c, char *err)
{
    memset(s, 0, sizeof *s);
    if (c->population != from->c.population)
        return km_fail(err, "population %d: the saved population has %d individuals", c->population,
                       from->c.population);
    if (c->nweights != from->c.nweights)
        return km_fail(err, "vectors of %d weights: the saved population's have %d", c->nweights,
                       from->c.nweights);
    if (c->pat != from->c.pat || c->net != from->c.net || c->norm != from->c.norm)
        return km_fail(err, "the saved population's pattern layer and norm go on with it");
    if (tune_new(s, c, err)) return -1;
    for (int i = 0; i < c->population; i++) {
        s->pop[i].w = from->pop[i].w;
        if (from->c.algorithm == c->algorithm) s->pop[i].step = from->pop[i].step;
    }
    s->has_best = from->has_best;
    s->best = from->best;
    s->best_score = from->best_score;
    s->best_generation = 0;
    return 0;
}

void tune_free(TuneSession *s)
{
    free(s->pop);
    memset(s, 0, sizeof *s);
}

bool tune_finished(const TuneSession *s)
{
    if (s->c.stop == TUNE_STOP_GENERATIONS) return s->generation >= s->c.limit;
    return s->elapsed >= s->c.limit;
}

/* ---- one generation ------------------------------------------------------------ */

typedef struct Ranked {
    double key;
    int idx;
} Ranked;

static int cmp_ranked(const void *pa, const void *pb)
{
    const Ranked *a = pa, *b = pb;
    if (a->key != b->key) return a->key > b->key ? -1 : 1;
    return a->idx - b->idx;
}

/* The next population from the scored one (docs/tuning.md steps 3-6). */
static void breed(const TuneIndividual *pop, const TuneControls *c, uint64_t *rng, TuneIndividual *next)
{
    int n = c->population, half = n / 2, quarter = n / 4;
    Ranked r[TUNE_MAX_POPULATION];
    int parents[TUNE_MAX_POPULATION / 2];
    bool taken[TUNE_MAX_POPULATION] = {false};

    /* roulette: score plus a uniform bonus; the top half, distinct vectors first */
    for (int i = 0; i < n; i++) r[i] = (Ranked){pop[i].score + rng_unit(rng) * c->selection, i};
    qsort(r, (size_t)n, sizeof *r, cmp_ranked);
    int np = 0;
    for (int k = 0; k < n && np < half; k++) {
        int j = r[k].idx;
        bool distinct = true;
        for (int p = 0; p < np && distinct; p++) distinct = !same_weights(&pop[parents[p]].w, &pop[j].w);
        if (distinct) {
            parents[np++] = j;
            taken[j] = true;
        }
    }
    for (int k = 0; k < n && np < half; k++)
        if (!taken[r[k].idx]) parents[np++] = r[k].idx;

    /* crossover: pairs in selection order, one cut (1..nweights-1) for both children */
    int nw = c->nweights;
    for (int k = 0; k < half; k += 2) {
        const Weights *a = &pop[parents[k]].w, *b = &pop[parents[k + 1]].w;
        int cut = 1 + rng_below(rng, nw - 1);
        for (int i = 0; i < nw; i++) {
            *eval_weights_ref(&next[k].w, i) = i < cut ? eval_weights_at(a, i) : eval_weights_at(b, i);
            *eval_weights_ref(&next[k + 1].w, i) = i < cut ? eval_weights_at(b, i) : eval_weights_at(a, i);
        }
        mark_phase(nw, &next[k].w);
        mark_phase(nw, &next[k + 1].w);
    }
    /* mutation: one weight of a child replaced by a uniform random value */
    for (int k = 0; k < half; k++)
        if (rng_unit(rng) < c->mutation) {
            int i = rng_below(rng, nw);
            *eval_weights_ref(&next[k].w, i) = rng_weight(rng);
        }
    /* the best quarter of the parents by tournament score (ties: selection order) */
    for (int x = 1; x < half; x++) {
        int t = parents[x], y = x;
        while (y > 0 && pop[parents[y - 1]].score < pop[t].score) {
            parents[y] = parents[y - 1];
            y--;
        }
        parents[y] = t;
    }
    for (int e = 0; e < quarter; e++) next[half + e].w = pop[parents[e]].w;
    /* fresh blood */
    for (int k = half + quarter; k < n; k++) random_weights(rng, nw, &next[k].w);
    for (int k = 0; k < n; k++) next[k].score = 0, next[k].step = c->step; /* steps: unused */
}

/* learn: the best of c->tournament individuals drawn at random (the first drawn of equals). */
static int tournament(const TuneIndividual *pop, const TuneControls *c, uint64_t *rng)
{
    int best = rng_below(rng, c->population);
    for (int t = 1; t < c->tournament; t++) {
        int j = rng_below(rng, c->population);
        if (pop[j].score > pop[best].score) best = j;
    }
    return best;
}

/* The next population of the learn algorithm (tune.h): elite, children, fresh. */
static void breed_learn(const TuneSession *s, uint64_t *rng, TuneIndividual *next)
{
    const TuneControls *c = &s->c;
    const TuneIndividual *pop = s->pop;
    int n = c->population, m = 0, nw = c->nweights;
    Ranked r[TUNE_MAX_POPULATION];
    for (int i = 0; i < n; i++) r[i] = (Ranked){pop[i].score, i};
    qsort(r, (size_t)n, sizeof *r, cmp_ranked);

    /* elite: the best so far, then the best-scoring distinct vectors */
    if (s->has_best && c->elite > 0) {
        next[m].w = s->best;
        next[m].step = c->step;
        for (int i = 0; i < n; i++)
            if (same_weights(&pop[i].w, &s->best)) next[m].step = pop[i].step;
        m++;
    }
    for (int k = 0; k < n && m < c->elite; k++) {
        const TuneIndividual *x = &pop[r[k].idx];
        bool distinct = true;
        for (int j = 0; j < m && distinct; j++) distinct = !same_weights(&next[j].w, &x->w);
        if (distinct) next[m++] = *x;
    }
    /* fresh blood, at the end */
    int nchild_end = n - c->fresh;
    for (int k = nchild_end; k < n; k++) {
        random_learn(c, rng, &next[k].w);
        next[k].step = c->step;
    }
    /* children */
    for (int k = m; k < nchild_end; k++) {
        const TuneIndividual *a = &pop[tournament(pop, c, rng)], *b = &pop[tournament(pop, c, rng)];
        /* one bit a weight: 60 one draw, as always; 74 two; 148 three */
        uint64_t bits[3] = {km_rng_next(rng), 0, 0};
        if (nw > 64) bits[1] = km_rng_next(rng);
        if (nw > 128) bits[2] = km_rng_next(rng);
        for (int i = 0; i < nw; i++)
            *eval_weights_ref(&next[k].w, i) =
                (bits[i / 64] >> (i % 64) & 1) ? eval_weights_at(&b->w, i) : eval_weights_at(&a->w, i);
        double step = sqrt(a->step * b->step) * exp(0.2 * rng_gauss(rng));
        step = step < TUNE_STEP_MIN ? TUNE_STEP_MIN : step > TUNE_STEP_MAX ? TUNE_STEP_MAX : step;
        next[k].step = step;
        for (int i = 0; i < nw; i++)
            if (rng_unit(rng) < c->gauss) {
                double x = eval_weights_at(&next[k].w, i);
                if (c->rel_step > 0) x = round(x * exp(c->rel_step * rng_gauss(rng))); /* a relative step */
                *eval_weights_ref(&next[k].w, i) = clamp_weight(x + round(step * c->norm * rng_gauss(rng)));
            }
        if (rng_unit(rng) < c->mutation) {
            int i = rng_below(rng, nw);
            *eval_weights_ref(&next[k].w, i) = (int16_t)(rng_below(rng, c->norm + 1) - c->norm / 2);
        }
        finish_learn(c, &next[k].w);
    }
    for (int k = 0; k < n; k++) next[k].score = 0;
}

typedef struct Pair {
    int a, b;    /* a drew b (in round robin a < b) */
    int opening; /* index into the ballots, -1: the initial position */
} Pair;

typedef struct ProgressCtx {
    TuneCallback cb;
    void *user;
    int generation, offset, total;
} ProgressCtx;

static void on_game(int done, int total, int job, const MatchOutcome *o, void *user)
{
    (void)total;
    (void)job;
    (void)o;
    const ProgressCtx *p = user;
    TuneEvent e = {
        .kind = TUNE_EVENT_GAME, .generation = p->generation, .done = p->offset + done, .total = p->total};
    p->cb(&e, p->user);
}

/* Points of a game for its Black and White player: 2 win, 1 draw, 0 loss. */
static void game_points(const MatchOutcome *o, int *black, int *white)
{
    *black = o->result == GAME_BLACK_WINS ? 2 : o->result == GAME_DRAW ? 1 : 0;
    *white = o->result == GAME_WHITE_WINS ? 2 : o->result == GAME_DRAW ? 1 : 0;
}

static bool all_played(const MatchOutcome *out, int n)
{
    for (int i = 0; i < n; i++)
        if (out[i].result == GAME_ONGOING) return false;
    return true;
}

/* A double duel from one opening: game `index` with a Black, index + 1 with b Black. */
static void duel_specs(const Weights *a, const Weights *b, const Opening *op, uint64_t gseed, int index,
                       MatchGameSpec specs[2])
{
    specs[0] = (MatchGameSpec){a, b, op, referee_game_seed(gseed, (uint64_t)index), {0, 0}};
    specs[1] = (MatchGameSpec){b, a, op, referee_game_seed(gseed, (uint64_t)index + 1), {0, 0}};
}

/* The pairings (round robin, or `duels` opponents drawn for each), then one
 * opening per pairing. */
static void make_pairs(const TuneControls *c, int nops, uint64_t *rng, Pair *pairs, int npairs)
{
    int n = c->population, np = 0;
    if (c->duels == 0) {
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++) pairs[np++] = (Pair){a, b, -1};
    } else {
        int others[TUNE_MAX_POPULATION];
        for (int a = 0; a < n; a++) {
            int m = 0;
            for (int b = 0; b < n; b++)
                if (b != a) others[m++] = b;
            for (int k = 0; k < c->duels; k++) {
                int j = k + rng_below(rng, m - k), t = others[k];
                others[k] = others[j];
                others[j] = t;
                pairs[np++] = (Pair){a, others[k], -1};
            }
        }
    }
    /* c->ballots openings per pairing: the pairings are units of the same
     * two players, in groups of c->ballots */
    int nb = c->ballots, ids[TUNE_MAX_BALLOTS];
    for (int k = npairs / nb - 1; k >= 0; k--)
        for (int j = 0; j < nb; j++) pairs[k * nb + j] = (Pair){pairs[k].a, pairs[k].b, -1};
    for (int k = 0; k < npairs; k += nb) {
        if (nops) rng_distinct(rng, nops, nb, ids);
        for (int j = 0; j < nb; j++) pairs[k + j].opening = nops ? ids[j] : -1;
    }
}

/* The duels' points (with drawn opponents only the drawing individual
 * scores), the best individual and the mean. */
static void score_pairs(const TuneControls *c, const Pair *pairs, int npairs, const MatchOutcome *out,
                        TuneIndividual *next, TuneGenStats *st)
{
    for (int k = 0; k < npairs; k++) {
        int pb, pw;
        game_points(&out[2 * k], &pb, &pw);
        next[pairs[k].a].score += pb;
        if (!c->duels) next[pairs[k].b].score += pw;
        game_points(&out[2 * k + 1], &pb, &pw);
        next[pairs[k].a].score += pw;
        if (!c->duels) next[pairs[k].b].score += pb;
    }
    long sum = 0;
    for (int i = 0; i < c->population; i++) {
        sum += next[i].score;
        if (next[i].score > next[st->best_index].score) st->best_index = i;
    }
    st->best_score = next[st->best_index].score;
    st->mean_score = (double)sum / c->population;
}

/* The gladiator duel's points: [0] the champion's, [1] the best so far's. */
static void duel_result(const MatchOutcome out[2], TuneGenStats *st)
{
    int pb, pw;
    game_points(&out[0], &pb, &pw);
    st->duel_points[0] = pb;
    st->duel_points[1] = pw;
    game_points(&out[1], &pb, &pw);
    st->duel_points[0] += pw;
    st->duel_points[1] += pb;
    st->duel_played = true;
    st->games += 2;
}

/* The games on the worker processes when there are some (the local threads
 * beside them), else on the threads here. */
static int run_games(WorkerSet *ws, const MatchSettings *set, const MatchGameSpec *specs, int n, int threads,
                     MatchOutcome *out, MatchProgress progress, void *user, const atomic_bool *stop,
                     char *err)
{
    return match_run_workers(ws, set, specs, n, threads, false, out, progress, user, stop, err);
}

/* learn's gladiator test: the challenger's GSPRT log-likelihood ratio of
 * Elo +30 against Elo 0 from its game scores x (0, 1/2, 1), with the normal
 * approximation (the per-game variance floored, so a clean sweep counts). */
static double gladiator_llr(const double *x, int n)
{
    double sum = 0, sq = 0;
    for (int i = 0; i < n; i++) sum += x[i], sq += x[i] * x[i];
    double m = sum / n, v = sq / n - m * m, s0 = 0.5, s1 = 1 / (1 + pow(10, -30.0 / 400));
    if (v < 0.05) v = 0.05;
    return n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v);
}

#define GLADIATOR_BATCH 8
#define GLADIATOR_BOUND 2.944 /* log(0.95 / 0.05): alpha = beta = 0.05 */

/* The gladiator duel of the generation's best (champ) against the best so
 * far: thesis, one double duel; learn, the sequential test. Sets st's duel
 * fields and *changed. Returns 0, 1 when stopped, -1 on error. */
static int gladiator(const TuneSession *s, const Weights *champ, const Opening *ops, int nops, uint64_t *rng,
                     uint64_t gseed, int first_index, const MatchSettings *set, int threads, ProgressCtx *pc,
                     const atomic_bool *stop, TuneGenStats *st, bool *changed, char *err)
{
    const TuneControls *c = &s->c;
    MatchGameSpec specs[GLADIATOR_BATCH];
    MatchOutcome out[GLADIATOR_BATCH];
    if (c->algorithm == TUNE_ALG_THESIS) {
        const Opening *op = nops ? &ops[rng_below(rng, nops)] : NULL;
        duel_specs(champ, &s->best, op, gseed, first_index, specs);
        pc->offset = first_index;
        if (run_games(s->workers, set, specs, 2, threads, out, pc->cb ? on_game : NULL, pc, stop, err))
            return -1;
        if (!all_played(out, 2)) return 1;
        duel_result(out, st);
        st->duel_games = 2;
        *changed = st->duel_points[0] >= st->duel_points[1];
        return 0;
    }
    int npair = c->gladiator / 2, nb = nops < npair ? nops : npair;
    int ids[TUNE_MAX_GLADIATOR / 2];
    if (nops) rng_distinct(rng, nops, nb, ids);
    double x[TUNE_MAX_GLADIATOR];
    int played = 0;
    st->duel_points[0] = st->duel_points[1] = 0;
    *changed = false;
    while (played < c->gladiator) {
        for (int g = 0; g < GLADIATOR_BATCH; g += 2) {
            int pair = (played + g) / 2;
            const Opening *op = nops ? &ops[ids[pair % nb]] : NULL;
            duel_specs(champ, &s->best, op, gseed, first_index + played + g, &specs[g]);
        }
        pc->offset = first_index + played;
        if (run_games(s->workers, set, specs, GLADIATOR_BATCH, threads, out, pc->cb ? on_game : NULL, pc,
                      stop, err))
            return -1;
        if (!all_played(out, GLADIATOR_BATCH)) return 1;
        for (int g = 0; g < GLADIATOR_BATCH; g += 2) {
            int pb, pw;
            game_points(&out[g], &pb, &pw); /* the champion is Black */
            st->duel_points[0] += pb, st->duel_points[1] += pw;
            x[played + g] = pb / 2.0;
            game_points(&out[g + 1], &pb, &pw); /* the champion is White */
            st->duel_points[0] += pw, st->duel_points[1] += pb;
            x[played + g + 1] = pw / 2.0;
        }
        played += GLADIATOR_BATCH;
        double llr = gladiator_llr(x, played);
        if (llr >= GLADIATOR_BOUND || llr <= -GLADIATOR_BOUND) {
            *changed = llr > 0;
            break;
        }
        *changed = st->duel_points[0] > st->duel_points[1]; /* if the games run out */
    }
    st->duel_played = true;
    st->duel_games = played;
    st->games += played;
    return 0;
}

int tune_generation(TuneSession *s, int threads, TuneCallback cb, void *user, const atomic_bool *stop,
                    TuneGenStats *st, char *err)
{
    const TuneControls *c = &s->c;
    int n = c->population;
    double t0 = km_now();
    memset(st, 0, sizeof *st);
    st->generation = s->generation + 1;
    st->max_score = tune_controls_max_score(c);

    Opening *ops = NULL;
    int nops = 0;
    if (c->openings == TUNE_OPENINGS_BALLOTS && opening_list_crossboard(&ops, &nops, err)) return -1;

    /* one unit per pairing and ballot: a double duel */
    int npairs = (c->duels ? n * c->duels : n * (n - 1) / 2) * c->ballots;
    int ngames = 2 * npairs;
    TuneIndividual *next = calloc((size_t)n, sizeof *next); /* zero: the terms beyond the 60 stay 0 */
    Pair *pairs = malloc((size_t)npairs * sizeof *pairs);
    MatchGameSpec *specs = malloc((size_t)ngames * sizeof *specs);
    MatchOutcome *out = malloc((size_t)ngames * sizeof *out);
    int r = 0;
    if (!next || !pairs || !specs || !out) {
        r = km_fail(err, "out of memory");
        goto done;
    }

    uint64_t rng = s->rng;
    if (s->generation == 0) memcpy(next, s->pop, (size_t)n * sizeof *next);
    else if (c->algorithm == TUNE_ALG_THESIS) breed(s->pop, c, &rng, next);
    else breed_learn(s, &rng, next);
    for (int i = 0; i < n; i++) {
        next[i].score = 0;
        st->mean_step += next[i].step / n;
    }

    make_pairs(c, nops, &rng, pairs, npairs);

    uint64_t gseed = referee_game_seed(c->seed, (uint64_t)s->generation);
    for (int k = 0; k < npairs; k++)
        duel_specs(&next[pairs[k].a].w, &next[pairs[k].b].w,
                   pairs[k].opening >= 0 ? &ops[pairs[k].opening] : NULL, gseed, 2 * k, &specs[2 * k]);
    MatchSettings set;
    referee_settings_default(&set);
    set.limits.depth = c->depth;
    set.hash_mb = TUNE_HASH_MB;
    int glad = c->algorithm == TUNE_ALG_THESIS ? 2 : c->gladiator;
    ProgressCtx pc = {cb, user, st->generation, 0, ngames + (s->has_best ? glad : 0)};
    if (run_games(s->workers, &set, specs, ngames, threads, out, cb ? on_game : NULL, &pc, stop, err)) {
        r = -1;
        goto done;
    }
    if (!all_played(out, ngames)) {
        r = 1; /* stopped */
        goto done;
    }
    score_pairs(c, pairs, npairs, out, next, st);
    st->games = ngames;

    /* the champion and the gladiator duel */
    const Weights *champ = &next[st->best_index].w;
    bool changed;
    if (!s->has_best) {
        changed = true;
    } else if (same_weights(champ, &s->best)) {
        changed = false;
    } else {
        r = gladiator(s, champ, ops, nops, &rng, gseed, ngames, &set, threads, &pc, stop, st, &changed, err);
        if (r) goto done;
    }
    st->best_changed = changed;

    /* commit */
    if (changed) {
        s->has_best = true;
        s->best = *champ;
        s->best_score = st->best_score;
        s->best_generation = st->generation;
    }
    memcpy(s->pop, next, (size_t)n * sizeof *next);
    s->rng = rng;
    s->generation++;
    st->seconds = km_now() - t0;
    s->elapsed += st->seconds;
    s->games += st->games;
done:
    free(ops);
    free(next);
    free(pairs);
    free(specs);
    free(out);
    return r;
}

/* ---- the yardstick ------------------------------------------------------------------ */

/* The yardstick's own seed: fixed, so measurements compare across sessions. */
#define YARD_SEED 0x79617264737469ULL

double tune_yard_elo(double score, int n)
{
    if (n <= 0) return 0;
    double lo = 0.5 / n, hi = 1 - 0.5 / n;
    return elo_from_score(score < lo ? lo : score > hi ? hi : score);
}

int tune_yardstick(const TuneControls *c, const Weights *w, int threads, const atomic_bool *stop,
                   TuneYardResult *out, char *err)
{
    memset(out, 0, sizeof *out);
    out->nref = c->nyard;
    if (c->nyard <= 0) return 0;
    double t0 = km_now();
    Opening *ops = NULL;
    int nops = 0;
    if (opening_list_crossboard(&ops, &nops, err)) return -1;
    int per = c->yard_games, nb = per / 2, n = per * c->nyard;
    MatchGameSpec *specs = malloc((size_t)n * sizeof *specs);
    MatchOutcome *res = calloc((size_t)n, sizeof *res);
    int r = 0;
    if (!specs || !res) {
        r = km_fail(err, "out of memory");
        goto done;
    }
    /* nb ballots spread evenly over the deck, each with both colours */
    for (int k = 0; k < c->nyard; k++)
        for (int b = 0; b < nb; b++) {
            const Opening *op = &ops[(int)((long long)b * nops / nb)];
            uint64_t seed = referee_game_seed(YARD_SEED, (uint64_t)(2 * b));
            specs[k * per + 2 * b] = (MatchGameSpec){w, &c->yard[k].w, op, seed, {0, 0}};
            specs[k * per + 2 * b + 1] = (MatchGameSpec){
                &c->yard[k].w, w, op, referee_game_seed(YARD_SEED, (uint64_t)(2 * b + 1)), {0, 0}};
        }
    MatchSettings set;
    referee_settings_default(&set);
    set.limits.depth = c->depth;
    set.hash_mb = TUNE_HASH_MB;
    if (match_run(&set, specs, n, threads, false, res, NULL, NULL, stop, err)) {
        r = -1;
        goto done;
    }
    if (!all_played(res, n)) {
        r = 1;
        goto done;
    }
    double total = 0;
    for (int k = 0; k < c->nyard; k++) {
        for (int g = 0; g < per; g++) {
            GameResult gr = res[k * per + g].result;
            bool black = g % 2 == 0; /* w is Black in the even games */
            if (gr == GAME_DRAW) out->draws[k]++;
            else if ((gr == GAME_BLACK_WINS) == black) out->wins[k]++;
            else out->losses[k]++;
        }
        double pts = out->wins[k] + 0.5 * out->draws[k];
        out->score[k] = pts / per;
        out->ref_elo[k] = tune_yard_elo(out->score[k], per);
        total += pts;
    }
    out->games = n;
    out->total_score = total / n;
    out->elo = tune_yard_elo(out->total_score, n);
    out->seconds = km_now() - t0;
done:
    free(ops);
    free(specs);
    free(res);
    return r;
}

/* ---- the session loop --------------------------------------------------------------- */

/* Drop log lines of generations after s->generation (a run killed after
 * appending its log line but before replacing the population file). */
static int csv_trim(const char *path, int generation, char *err)
{
    static const KmReadOpts opts = {
        .max_bytes = 64u << 20, .missing_ok = true, .too_large = "too large for a tuning log"};
    char *text = textio_read_text(path, &opts, NULL, err); /* no log yet: "" */
    if (!text) return -1;
    KmBuf b = {0};
    bool dropped = false;
    for (const char *q = text; *q;) {
        size_t len = strcspn(q, "\n");
        long g = strtol(q, NULL, 10);
        bool data = *q >= '0' && *q <= '9';
        if (data && g > generation) dropped = true;
        else textio_buf_printf(&b, "%.*s\n", (int)len, q);
        q += len + (q[len] ? 1 : 0);
    }
    free(text);
    int r = 0;
    if (dropped) {
        char *out = textio_buf_done(&b);
        if (!out) return km_fail(err, "%s: out of memory", path);
        r = textio_write_atomic(path, out, strlen(out), err);
        free(out);
    } else {
        free(b.s);
    }
    return r;
}

static int csv_append(const char *path, const TuneSession *s, const TuneGenStats *st, char *err)
{
    bool created;
    int fd = textio_open_append(path, &created, err);
    if (fd < 0) return -1;
    struct stat sb;
    const TuneControls *c = &s->c;
    KmBuf b = {0};
    if (fstat(fd, &sb) == 0 && sb.st_size == 0) {
        textio_buf_str(&b, TUNE_CSV_HEADER);
        if (c->nyard) textio_buf_str(&b, ",yard_games,yard_score,yard_elo");
        for (int k = 0; k < c->nyard; k++)
            textio_buf_printf(&b, ",score_%s,elo_%s", c->yard[k].name, c->yard[k].name);
        textio_buf_str(&b, "\n");
    }
    char duel[32] = "-";
    if (st->duel_played) snprintf(duel, sizeof duel, "%d-%d", st->duel_points[0], st->duel_points[1]);
    textio_buf_printf(&b, "%d,%.3f,%.3f,%d,%.2f,%d,%.3f,%d,%s,%d", st->generation, s->elapsed, st->seconds,
                      st->games, st->seconds > 0 ? st->games / st->seconds : 0.0, st->best_score,
                      st->mean_score, st->max_score, duel, st->best_changed ? 1 : 0);
    if (c->nyard && st->yard_played) {
        const TuneYardResult *y = &st->yard;
        textio_buf_printf(&b, ",%d,%.2f,%.1f", y->games, 100 * y->total_score, y->elo);
        for (int k = 0; k < y->nref; k++)
            textio_buf_printf(&b, ",%.2f,%.1f", 100 * y->score[k], y->ref_elo[k]);
    } else if (c->nyard) {
        textio_buf_str(&b, ",,,");
        for (int k = 0; k < c->nyard; k++) textio_buf_str(&b, ",,");
    }
    textio_buf_str(&b, "\n");
    size_t len = b.len;
    char *text = textio_buf_done(&b);
    if (!text) {
        close(fd);
        return km_fail(err, "%s: out of memory", path);
    }
    /* the whole line in one write() */
    int e = textio_write_fd(fd, text, len);
    free(text);
    if (close(fd) != 0 && !e) e = errno ? errno : EIO;
    if (e) return km_fail(err, "%s: cannot write: %s", path, strerror(e));
    return 0;
}

static int save_state(const TuneSession *s, const TuneFiles *f, char *err)
{
    if (f->pop_path && tune_write(s, f->pop_path, err)) return -1;
    if (f->weights_path && s->has_best) {
        char *d = tune_describe(s);
        KmBuf b = {0};
        if (f->weights_header) textio_buf_printf(&b, "%s", f->weights_header);
        if (b.len && b.s[b.len - 1] != '\n') textio_buf_printf(&b, "\n");
        textio_buf_printf(&b, "%s", d ? d : "");
        free(d);
        char *comments = textio_buf_done(&b);
        if (!d || !comments) {
            free(comments);
            return km_fail(err, "out of memory");
        }
        int r = weights_write(&s->best, f->weights_path, comments, err);
        free(comments);
        if (r) return -1;
    }
    return 0;
}

/* The yardstick after a generation, when due: every yard_every generations
 * and at the stop. An unchanged best so far is not measured again. Returns
 * 0 (st->yard_played says whether it was measured), -1 on error. */
static int yard_due(TuneSession *s, int threads, const atomic_bool *stop, TuneGenStats *st, char *err)
{
    const TuneControls *c = &s->c;
    st->yard_played = false;
    if (!c->nyard || !s->has_best) return 0;
    bool due = (c->yard_every && s->generation % c->yard_every == 0) || tune_finished(s);
    if (!due || (stop && atomic_load(stop))) return 0;
    if (!s->yard_valid || !same_weights(&s->yard_of, &s->best)) {
        TuneYardResult y;
        int r = tune_yardstick(c, &s->best, threads, stop, &y, err);
        if (r) return r < 0 ? -1 : 0;
        s->yard_last = y;
        s->yard_of = s->best;
        s->yard_valid = true;
    }
    st->yard = s->yard_last;
    st->yard.generation = s->generation;
    st->yard_played = true;
    return 0;
}

int tune_run(TuneSession *s, const TuneFiles *files, int threads, TuneCallback cb, void *user,
             const atomic_bool *stop, char *err)
{
    TuneFiles none = {0};
    const TuneFiles *f = files ? files : &none;
    if (f->csv_path && csv_trim(f->csv_path, s->generation, err)) return -1;
    if (save_state(s, f, err)) return -1;
    while (!tune_finished(s)) {
        if (stop && atomic_load(stop)) return 1;
        TuneGenStats st;
        int r = tune_generation(s, threads, cb, user, stop, &st, err);
        if (r) return r;
        r = yard_due(s, threads, stop, &st, err);
        if (r < 0) return -1;
        if (f->csv_path && csv_append(f->csv_path, s, &st, err)) return -1;
        if (save_state(s, f, err)) return -1;
        if (cb) {
            TuneEvent e = {
                .kind = TUNE_EVENT_GENERATION, .generation = st.generation, .stats = &st, .session = s};
            cb(&e, user);
        }
    }
    return 0;
}
