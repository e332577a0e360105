/* tune.c - the genetic algorithm (shared/spec/tuning.md) on match.c's game
 * pool, and population files. See tune.h for the algorithm, the order of the
 * random draws and the file format. */
#include "kingme/tune.h"
#include "kingme/match.h"
#include "kingme/textio.h"
#include "kingme/weights.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the session generator (splitmix64, km_rng_next) ------------------------------ */

/* Uniform in 0..n-1 (n < 2^32; the bias, n / 2^32, is negligible). */
static int rng_below(uint64_t *s, int n) { return (int)(((km_rng_next(s) >> 32) * (uint64_t)n) >> 32); }

/* Uniform in [0, 1). */
static double rng_unit(uint64_t *s) { return (double)(km_rng_next(s) >> 11) * 0x1.0p-53; }

static int16_t rng_weight(uint64_t *s) { return (int16_t)(uint16_t)(km_rng_next(s) >> 48); }

static void random_weights(uint64_t *s, Weights *w)
{
    for (int i = 0; i < EVAL_NPARAMS; i++) w->w[i] = rng_weight(s);
}

static bool same_weights(const Weights *a, const Weights *b) { return memcmp(a, b, sizeof *a) == 0; }

/* ---- controls ---------------------------------------------------------------- */

void tune_controls_default(TuneControls *c)
{
    memset(c, 0, sizeof *c);
    c->population = 32;
    c->duels = 0;
    c->depth = 4;
    c->selection = 10;
    c->mutation = 0.1;
    c->stop = TUNE_STOP_GENERATIONS;
    c->limit = 100;
    c->openings = TUNE_OPENINGS_BALLOTS;
    c->seed = 1;
}

int tune_controls_check(const TuneControls *c, char *err)
{
    if (c->population < 4 || c->population > TUNE_MAX_POPULATION)
        return km_fail(err, "population %d is outside 4..%d", c->population, TUNE_MAX_POPULATION);
    if (c->population % 4)
        return km_fail(err, "population %d is not a multiple of 4 (the next generation is half "
                       "children, a quarter parents, a quarter fresh)", c->population);
    if (c->duels < 0 || c->duels > c->population - 1)
        return km_fail(err, "duels %d: 0 (round robin) up to population - 1 = %d opponents", c->duels,
                       c->population - 1);
    if (c->depth < 1 || c->depth > TUNE_MAX_DEPTH)
        return km_fail(err, "depth %d is outside 1..%d", c->depth, TUNE_MAX_DEPTH);
    if (!(c->selection >= 0 && c->selection <= 1e9))
        return km_fail(err, "selection %g is outside 0..1e9", c->selection);
    if (!(c->mutation >= 0 && c->mutation <= 1))
        return km_fail(err, "mutation %g is not a chance from 0 to 1", c->mutation);
    if (c->stop == TUNE_STOP_GENERATIONS) {
        if (!(c->limit >= 1 && c->limit <= 1e9 && c->limit == floor(c->limit)))
            return km_fail(err, "generations %g is not a whole number from 1 to 1e9", c->limit);
    } else if (c->stop == TUNE_STOP_SECONDS) {
        if (!(c->limit > 0 && c->limit <= 1e9)) return km_fail(err, "seconds %g is outside 0..1e9", c->limit);
    } else {
        return km_fail(err, "unknown stop condition");
    }
    if (c->openings != TUNE_OPENINGS_BALLOTS && c->openings != TUNE_OPENINGS_START)
        return km_fail(err, "unknown openings");
    return 0;
}

int tune_max_score(const TuneControls *c) { return 4 * (c->duels ? c->duels : c->population - 1); }

/* ---- sessions ---------------------------------------------------------------- */

int tune_new(TuneSession *s, const TuneControls *c, char *err)
{
    memset(s, 0, sizeof *s);
    if (tune_controls_check(c, err)) return -1;
    s->pop = calloc((size_t)c->population, sizeof *s->pop);
    if (!s->pop) return km_fail(err, "out of memory");
    s->c = *c;
    s->rng = c->seed;
    for (int i = 0; i < c->population; i++) random_weights(&s->rng, &s->pop[i].w);
    return 0;
}

int tune_continue(TuneSession *s, const TuneSession *from, const TuneControls *c, char *err)
{
    memset(s, 0, sizeof *s);
    if (c->population != from->c.population)
        return km_fail(err, "population %d: the saved population has %d individuals", c->population,
                       from->c.population);
    if (tune_new(s, c, err)) return -1;
    for (int i = 0; i < c->population; i++) s->pop[i].w = from->pop[i].w;
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

/* The next population from the scored one (tuning.md steps 3-6). */
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

    /* crossover: pairs in selection order, one cut (1..59) for both children */
    for (int k = 0; k < half; k += 2) {
        const Weights *a = &pop[parents[k]].w, *b = &pop[parents[k + 1]].w;
        int cut = 1 + rng_below(rng, EVAL_NPARAMS - 1);
        for (int i = 0; i < EVAL_NPARAMS; i++) {
            next[k].w.w[i] = i < cut ? a->w[i] : b->w[i];
            next[k + 1].w.w[i] = i < cut ? b->w[i] : a->w[i];
        }
    }
    /* mutation: one weight of a child replaced by a uniform random value */
    for (int k = 0; k < half; k++)
        if (rng_unit(rng) < c->mutation) {
            int i = rng_below(rng, EVAL_NPARAMS);
            next[k].w.w[i] = rng_weight(rng);
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
    for (int k = half + quarter; k < n; k++) random_weights(rng, &next[k].w);
    for (int k = 0; k < n; k++) next[k].score = 0;
}

typedef struct Pair {
    int a, b;     /* a drew b (in round robin a < b) */
    int opening;  /* index into the ballots, -1: the initial position */
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
    TuneEvent e = {.kind = TUNE_EVENT_GAME, .generation = p->generation, .done = p->offset + done,
                   .total = p->total};
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
    specs[0] = (MatchGameSpec){a, b, op, match_game_seed(gseed, (uint64_t)index)};
    specs[1] = (MatchGameSpec){b, a, op, match_game_seed(gseed, (uint64_t)index + 1)};
}

int tune_generation(TuneSession *s, int threads, TuneCallback cb, void *user,
                    const atomic_bool *stop, TuneGenStats *st, char *err)
{
    const TuneControls *c = &s->c;
    int n = c->population;
    double t0 = km_now();
    memset(st, 0, sizeof *st);
    st->generation = s->generation + 1;
    st->max_score = tune_max_score(c);

    Opening *ops = NULL;
    int nops = 0;
    if (c->openings == TUNE_OPENINGS_BALLOTS && openings_crossboard(&ops, &nops, err)) return -1;

    int npairs = c->duels ? n * c->duels : n * (n - 1) / 2;
    int ngames = 2 * npairs;
    TuneIndividual *next = malloc((size_t)n * sizeof *next);
    Pair *pairs = malloc((size_t)npairs * sizeof *pairs);
    MatchGameSpec *specs = malloc((size_t)ngames * sizeof *specs);
    MatchOutcome *out = malloc((size_t)ngames * sizeof *out);
    int r = 0;
    if (!next || !pairs || !specs || !out) {
        r = km_fail(err, "out of memory");
        goto done;
    }

    uint64_t rng = s->rng;
    if (s->generation > 0) breed(s->pop, c, &rng, next);
    else memcpy(next, s->pop, (size_t)n * sizeof *next);
    for (int i = 0; i < n; i++) next[i].score = 0;

    /* pairings, then one opening per pairing */
    int np = 0;
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
                int j = k + rng_below(&rng, m - k), t = others[k];
                others[k] = others[j];
                others[j] = t;
                pairs[np++] = (Pair){a, others[k], -1};
            }
        }
    }
    for (int k = 0; k < npairs; k++) pairs[k].opening = nops ? rng_below(&rng, nops) : -1;

    uint64_t gseed = match_game_seed(c->seed, (uint64_t)s->generation);
    for (int k = 0; k < npairs; k++)
        duel_specs(&next[pairs[k].a].w, &next[pairs[k].b].w, pairs[k].opening >= 0 ? &ops[pairs[k].opening] : NULL,
                   gseed, 2 * k, &specs[2 * k]);
    MatchSettings set;
    match_settings_default(&set);
    set.limits.depth = c->depth;
    set.hash_mb = TUNE_HASH_MB;
    ProgressCtx pc = {cb, user, st->generation, 0, ngames + (s->has_best ? 2 : 0)};
    if (match_run(&set, specs, ngames, threads, false, out, cb ? on_game : NULL, &pc, stop, err)) {
        r = -1;
        goto done;
    }
    if (!all_played(out, ngames)) {
        r = 1; /* stopped */
        goto done;
    }
    for (int k = 0; k < npairs; k++) {
        int pb, pw;
        game_points(&out[2 * k], &pb, &pw);
        next[pairs[k].a].score += pb;
        if (!c->duels) next[pairs[k].b].score += pw;
        game_points(&out[2 * k + 1], &pb, &pw);
        next[pairs[k].a].score += pw;
        if (!c->duels) next[pairs[k].b].score += pb;
    }
    st->games = ngames;

    /* the champion and the gladiator duel */
    long sum = 0;
    for (int i = 0; i < n; i++) {
        sum += next[i].score;
        if (next[i].score > next[st->best_index].score) st->best_index = i;
    }
    st->best_score = next[st->best_index].score;
    st->mean_score = (double)sum / n;
    const Weights *champ = &next[st->best_index].w;
    bool changed;
    if (!s->has_best) {
        changed = true;
    } else if (same_weights(champ, &s->best)) {
        changed = false;
    } else {
        const Opening *op = nops ? &ops[rng_below(&rng, nops)] : NULL;
        duel_specs(champ, &s->best, op, gseed, ngames, specs);
        pc.offset = ngames;
        if (match_run(&set, specs, 2, threads, false, out, cb ? on_game : NULL, &pc, stop, err)) {
            r = -1;
            goto done;
        }
        if (!all_played(out, 2)) {
            r = 1;
            goto done;
        }
        int pb, pw;
        game_points(&out[0], &pb, &pw);
        st->duel_points[0] = pb;
        st->duel_points[1] = pw;
        game_points(&out[1], &pb, &pw);
        st->duel_points[0] += pw;
        st->duel_points[1] += pb;
        st->duel_played = true;
        st->games += 2;
        changed = st->duel_points[0] >= st->duel_points[1];
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

/* ---- text helpers ---------------------------------------------------------------- */

/* Shortest of %.15g / %.17g that reads back as the same double, so a
 * resumed session uses exactly the controls it was given. */
static void fmt_double(double x, char buf[32])
{
    snprintf(buf, 32, "%.15g", x);
    if (strtod(buf, NULL) != x) snprintf(buf, 32, "%.17g", x);
}

/* The controls' doubles: selection, mutation and limit. */
static void fmt_controls(const TuneControls *c, char sel[32], char mut[32], char lim[32])
{
    fmt_double(c->selection, sel);
    fmt_double(c->mutation, mut);
    fmt_double(c->limit, lim);
}

static char *read_text(const char *path, char *err)
{
    static const KmReadOpts opts = {
        .max_bytes = 64u << 20,
        .cannot_open = "cannot open",
        .read_error = "read error",
        .too_large = "too large for a population file",
        .nul_byte = "binary data, not a population file",
    };
    return km_read_text(path, &opts, NULL, err);
}

char *tune_describe(const TuneSession *s)
{
    const TuneControls *c = &s->c;
    char sel[32], mut[32], lim[32];
    fmt_controls(c, sel, mut, lim);
    KmBuf b = {0};
    km_buf_printf(&b, "population %d, duels %d%s, depth %d, selection %s, mutation %s, openings %s, seed %llu\n",
                  c->population, c->duels, c->duels ? "" : " (round robin)", c->depth, sel, mut,
                  c->openings == TUNE_OPENINGS_BALLOTS ? "ballots" : "start", (unsigned long long)c->seed);
    km_buf_printf(&b, "stop after %s %s; %d generations done, %.1f s of play, %lld games\n", lim,
                  c->stop == TUNE_STOP_GENERATIONS ? "generations" : "seconds", s->generation, s->elapsed,
                  s->games);
    if (s->has_best && s->best_generation)
        km_buf_printf(&b, "best so far: from generation %d, score %d of %d\n", s->best_generation,
                      s->best_score, tune_max_score(c));
    else if (s->has_best)
        km_buf_printf(&b, "best so far: carried over from the continued population\n");
    return km_buf_done(&b);
}

/* ---- population files ------------------------------------------------------------ */

static void format_vector(KmBuf *b, const char *key, int score, const Weights *w)
{
    km_buf_printf(b, "%s %d", key, score);
    for (int i = 0; i < EVAL_NPARAMS; i++) km_buf_printf(b, " %d", w->w[i]);
    km_buf_printf(b, "\n");
}

char *tune_format(const TuneSession *s)
{
    const TuneControls *c = &s->c;
    char sel[32], mut[32], lim[32];
    fmt_controls(c, sel, mut, lim);
    KmBuf b = {0};
    km_buf_printf(&b,
                  "# kingme population file: a tuning session's controls, progress, random\n"
                  "# generator state, best vector so far, and its last generation (score and\n"
                  "# the 60 weights per individual, in the order of eval-params.md).\n"
                  "# Go on with: kingme tune --resume FILE\n");
    km_buf_printf(&b, "kingme-population %d\n", TUNE_FORMAT_VERSION);
    km_buf_printf(&b, "population %d\nduels %d\ndepth %d\nselection %s\nmutation %s\n", c->population,
                  c->duels, c->depth, sel, mut);
    km_buf_printf(&b, "stop %s %s\n", c->stop == TUNE_STOP_GENERATIONS ? "generations" : "seconds", lim);
    km_buf_printf(&b, "openings %s\n", c->openings == TUNE_OPENINGS_BALLOTS ? "ballots" : "start");
    km_buf_printf(&b, "seed %llu\n", (unsigned long long)c->seed);
    km_buf_printf(&b, "generation %d\nelapsed %.3f\ngames %lld\nrng %016llx\n", s->generation, s->elapsed, s->games,
                  (unsigned long long)s->rng);
    km_buf_printf(&b, "best_generation %d\n", s->best_generation);
    if (s->has_best) format_vector(&b, "best", s->best_score, &s->best);
    else km_buf_printf(&b, "best none\n");
    for (int i = 0; i < c->population; i++) format_vector(&b, "individual", s->pop[i].score, &s->pop[i].w);
    km_buf_printf(&b, "end\n");
    return km_buf_done(&b);
}

int tune_write(const TuneSession *s, const char *path, char *err)
{
    char *text = tune_format(s);
    if (!text) return km_fail(err, "%s: out of memory", path);
    int r = km_write_atomic(path, text, strlen(text), err);
    free(text);
    return r;
}

enum {
    K_POPULATION, K_DUELS, K_DEPTH, K_SELECTION, K_MUTATION, K_STOP, K_OPENINGS, K_SEED,
    K_GENERATION, K_ELAPSED, K_GAMES, K_RNG, K_BEST_GENERATION, K_BEST, NKEYS
};
static const char *const key_names[NKEYS] = {
    "population", "duels", "depth", "selection", "mutation", "stop", "openings", "seed",
    "generation", "elapsed", "games", "rng", "best_generation", "best",
};

#define MAX_TOKENS 64

typedef struct Parse {
    const char *where;
    int line;
    char *err;
} Parse;

static int perr(const Parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int perr(const Parse *p, const char *fmt, ...)
{
    char msg[KM_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return km_fail(p->err, "%s:%d: %s", p->where, p->line, msg);
}

static bool parse_u64(const char *t, int base, uint64_t *out)
{
    if (!t || !*t || *t == '-' || *t == '+') return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(t, &end, base);
    if (errno || *end) return false;
    *out = v;
    return true;
}

static bool parse_real(const char *t, double lo, double hi, double *out)
{
    if (!t || !*t) return false;
    char *end;
    errno = 0;
    double v = strtod(t, &end);
    if (errno || *end || !isfinite(v) || v < lo || v > hi) return false;
    *out = v;
    return true;
}

/* "KEY SCORE W1 ... W60" (tok[0] is the key). */
static int parse_vector(const Parse *p, char **tok, int ntok, int *score, Weights *w)
{
    if (ntok != 2 + EVAL_NPARAMS)
        return perr(p, "'%s' needs a score and %d weights, found %d numbers", tok[0], EVAL_NPARAMS, ntok - 1);
    long long v;
    if (!km_parse_ll(tok[1], 0, 1000000000, &v))
        return perr(p, "%s score '%s' is not a whole number from 0 up", tok[0], tok[1]);
    *score = (int)v;
    for (int i = 0; i < EVAL_NPARAMS; i++) {
        const char *t = tok[2 + i];
        if (!km_parse_ll(t, INT64_MIN, INT64_MAX, &v))
            return perr(p, "weight %d (%s) '%s' is not a whole number", i + 1, eval_params[i].name, t);
        if (v < -32768 || v > 32767)
            return perr(p, "weight %d (%s) is %s, outside -32768..32767", i + 1, eval_params[i].name, t);
        w->w[i] = (int16_t)v;
    }
    return 0;
}

int tune_parse(TuneSession *s, const char *text, const char *where, char *err)
{
    memset(s, 0, sizeof *s);
    Parse p = {where, 0, err};
    int seen[NKEYS] = {0}; /* line of each key, 0 = not yet */
    TuneSession t;
    memset(&t, 0, sizeof t);
    TuneIndividual *ind = NULL;
    int nind = 0, cap = 0;
    bool header = false, ended = false;
    char line[8192];
    int r = 0;
    const char *q = text;
    while (*q && r == 0) {
        size_t len = strcspn(q, "\n");
        p.line++;
        const char *next = q[len] ? q + len + 1 : q + len;
        if (len >= sizeof line) {
            r = perr(&p, "line too long");
            break;
        }
        memcpy(line, q, len);
        line[len] = '\0';
        q = next;
        char *tok[MAX_TOKENS + 1];
        int ntok = 0;
        for (char *c = line; *c && ntok <= MAX_TOKENS;) {
            while (*c == ' ' || *c == '\t' || *c == '\r') *c++ = '\0';
            if (!*c) break;
            tok[ntok++] = c;
            while (*c && *c != ' ' && *c != '\t' && *c != '\r') c++;
        }
        if (ntok == 0 || tok[0][0] == '#') continue;
        if (ntok > MAX_TOKENS) {
            r = perr(&p, "too many fields");
            break;
        }
        if (ended) {
            r = perr(&p, "'%s' after 'end'", tok[0]);
            break;
        }
        if (!header) {
            long long v;
            if (strcmp(tok[0], "kingme-population") != 0 || ntok != 2)
                r = perr(&p, "not a kingme population file (the first line should be 'kingme-population %d')",
                         TUNE_FORMAT_VERSION);
            else if (!km_parse_ll(tok[1], 1, 1000000, &v) || v != TUNE_FORMAT_VERSION)
                r = perr(&p, "population file format '%s' is not supported (this kingme reads %d)", tok[1],
                         TUNE_FORMAT_VERSION);
            header = true;
            continue;
        }
        if (strcmp(tok[0], "end") == 0) {
            ended = true;
            if (ntok != 1) r = perr(&p, "'end' takes no value");
            continue;
        }
        if (strcmp(tok[0], "individual") == 0) {
            if (nind >= TUNE_MAX_POPULATION) {
                r = perr(&p, "more than %d individuals", TUNE_MAX_POPULATION);
                break;
            }
            if (nind == cap) {
                cap = cap ? cap * 2 : 64;
                TuneIndividual *x = realloc(ind, (size_t)cap * sizeof *x);
                if (!x) {
                    r = km_fail(err, "%s: out of memory", where);
                    break;
                }
                ind = x;
            }
            r = parse_vector(&p, tok, ntok, &ind[nind].score, &ind[nind].w);
            nind++;
            continue;
        }
        int k = 0;
        while (k < NKEYS && strcmp(tok[0], key_names[k]) != 0) k++;
        if (k == NKEYS) {
            r = perr(&p, "unknown key '%s'", tok[0]);
            break;
        }
        if (seen[k]) {
            r = perr(&p, "'%s' given twice (first on line %d)", tok[0], seen[k]);
            break;
        }
        seen[k] = p.line;
        if (k == K_BEST) {
            if (ntok == 2 && strcmp(tok[1], "none") == 0) t.has_best = false;
            else if ((r = parse_vector(&p, tok, ntok, &t.best_score, &t.best)) == 0) t.has_best = true;
            continue;
        }
        int want = k == K_STOP ? 3 : 2;
        if (ntok != want) {
            r = perr(&p, "'%s' needs %s", tok[0], want == 3 ? "two values" : "one value");
            break;
        }
        const char *v = tok[1];
        long long n = 0;
        uint64_t u = 0;
        double x = 0;
        switch (k) {
        case K_POPULATION:
            if (!km_parse_ll(v, 4, TUNE_MAX_POPULATION, &n))
                r = perr(&p, "population '%s' is not a whole number from 4 to %d", v, TUNE_MAX_POPULATION);
            else if (n % 4)
                r = perr(&p, "population %lld is not a multiple of 4", n);
            t.c.population = (int)n;
            break;
        case K_DUELS:
            if (!km_parse_ll(v, 0, TUNE_MAX_POPULATION, &n))
                r = perr(&p, "duels '%s' is not a whole number from 0 to %d", v, TUNE_MAX_POPULATION);
            t.c.duels = (int)n;
            break;
        case K_DEPTH:
            if (!km_parse_ll(v, 1, TUNE_MAX_DEPTH, &n))
                r = perr(&p, "depth '%s' is not a whole number from 1 to %d", v, TUNE_MAX_DEPTH);
            t.c.depth = (int)n;
            break;
        case K_SELECTION:
            if (!parse_real(v, 0, 1e9, &x)) r = perr(&p, "selection '%s' is not a number from 0 to 1e9", v);
            t.c.selection = x;
            break;
        case K_MUTATION:
            if (!parse_real(v, 0, 1, &x)) r = perr(&p, "mutation '%s' is not a chance from 0 to 1", v);
            t.c.mutation = x;
            break;
        case K_STOP:
            if (strcmp(v, "generations") == 0) {
                t.c.stop = TUNE_STOP_GENERATIONS;
                if (!km_parse_ll(tok[2], 1, 1000000000, &n))
                    r = perr(&p, "stop generations '%s' is not a whole number from 1 to 1e9", tok[2]);
                t.c.limit = (double)n;
            } else if (strcmp(v, "seconds") == 0) {
                t.c.stop = TUNE_STOP_SECONDS;
                if (!parse_real(tok[2], 1e-9, 1e9, &x))
                    r = perr(&p, "stop seconds '%s' is not a number of seconds above 0", tok[2]);
                t.c.limit = x;
            } else {
                r = perr(&p, "stop is 'generations N' or 'seconds S', not '%s'", v);
            }
            break;
        case K_OPENINGS:
            if (strcmp(v, "ballots") == 0) t.c.openings = TUNE_OPENINGS_BALLOTS;
            else if (strcmp(v, "start") == 0) t.c.openings = TUNE_OPENINGS_START;
            else r = perr(&p, "openings is 'ballots' or 'start', not '%s'", v);
            break;
        case K_SEED:
            if (!parse_u64(v, 10, &u)) r = perr(&p, "seed '%s' is not a whole number from 0 to 2^64-1", v);
            t.c.seed = u;
            break;
        case K_GENERATION:
            if (!km_parse_ll(v, 0, 1000000000, &n)) r = perr(&p, "generation '%s' is not a whole number from 0", v);
            t.generation = (int)n;
            break;
        case K_ELAPSED:
            if (!parse_real(v, 0, 1e12, &x)) r = perr(&p, "elapsed '%s' is not a number of seconds", v);
            t.elapsed = x;
            break;
        case K_GAMES:
            if (!km_parse_ll(v, 0, INT64_MAX, &n)) r = perr(&p, "games '%s' is not a whole number from 0", v);
            t.games = n;
            break;
        case K_RNG:
            if (strlen(v) > 16 || !parse_u64(v, 16, &u))
                r = perr(&p, "rng '%s' is not a generator state (up to 16 hex digits)", v);
            t.rng = u;
            break;
        case K_BEST_GENERATION:
            if (!km_parse_ll(v, 0, 1000000000, &n))
                r = perr(&p, "best_generation '%s' is not a whole number from 0", v);
            t.best_generation = (int)n;
            break;
        }
    }
    if (r == 0 && !header) {
        p.line = p.line ? p.line : 1;
        r = perr(&p, "empty file, not a kingme population file");
    }
    if (r == 0 && !ended) r = perr(&p, "the file ends without 'end' (truncated?)");
    for (int k = 0; k < NKEYS && r == 0; k++)
        if (!seen[k]) r = perr(&p, "missing '%s'", key_names[k]);
    if (r == 0 && nind != t.c.population)
        r = perr(&p, "%d individuals, but population is %d", nind, t.c.population);
    if (r == 0 && t.c.duels > t.c.population - 1) {
        p.line = seen[K_DUELS];
        r = perr(&p, "duels %d: at most population - 1 = %d", t.c.duels, t.c.population - 1);
    }
    if (r == 0 && t.best_generation > t.generation) {
        p.line = seen[K_BEST_GENERATION];
        r = perr(&p, "best_generation %d is after generation %d", t.best_generation, t.generation);
    }
    if (r == 0 && !t.has_best && t.generation > 0) {
        /* a session that played a generation always has a best so far */
        p.line = seen[K_BEST];
        r = perr(&p, "best none, but %d generations are done", t.generation);
    }
    if (r == 0 && tune_controls_check(&t.c, err)) {
        char msg[KM_ERR_MAX];
        snprintf(msg, sizeof msg, "%s", err);
        p.line = seen[K_POPULATION];
        r = perr(&p, "%s", msg);
    }
    if (r) {
        free(ind);
        return -1;
    }
    t.pop = ind;
    *s = t;
    return 0;
}

int tune_read(TuneSession *s, const char *path, char *err)
{
    memset(s, 0, sizeof *s);
    char *text = read_text(path, err);
    if (!text) return -1;
    int r = tune_parse(s, text, path, err);
    free(text);
    return r;
}

/* ---- the session loop --------------------------------------------------------------- */

/* Drop log lines of generations after s->generation (a run killed after
 * appending its log line but before replacing the population file). */
static int csv_trim(const char *path, int generation, char *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0; /* no log yet */
    fclose(f);
    char *text = read_text(path, err);
    if (!text) return -1;
    KmBuf b = {0};
    bool dropped = false;
    for (const char *q = text; *q;) {
        size_t len = strcspn(q, "\n");
        long g = strtol(q, NULL, 10);
        bool data = *q >= '0' && *q <= '9';
        if (data && g > generation) dropped = true;
        else km_buf_printf(&b, "%.*s\n", (int)len, q);
        q += len + (q[len] ? 1 : 0);
    }
    free(text);
    int r = 0;
    if (dropped) {
        char *out = km_buf_done(&b);
        if (!out) return km_fail(err, "%s: out of memory", path);
        r = km_write_atomic(path, out, strlen(out), err);
        free(out);
    } else {
        free(b.s);
    }
    return r;
}

static int csv_append(const char *path, const TuneSession *s, const TuneGenStats *st, char *err)
{
    FILE *f = fopen(path, "ab");
    if (!f) return km_fail(err, "%s: cannot write: %s", path, strerror(errno));
    struct stat sb;
    bool ok = fstat(fileno(f), &sb) == 0;
    if (ok && sb.st_size == 0) ok = fprintf(f, "%s\n", TUNE_CSV_HEADER) > 0;
    char duel[32] = "-";
    if (st->duel_played) snprintf(duel, sizeof duel, "%d-%d", st->duel_points[0], st->duel_points[1]);
    ok = ok && fprintf(f, "%d,%.3f,%.3f,%d,%.2f,%d,%.3f,%d,%s,%d\n", st->generation, s->elapsed, st->seconds,
                       st->games, st->seconds > 0 ? st->games / st->seconds : 0.0, st->best_score,
                       st->mean_score, st->max_score, duel, st->best_changed ? 1 : 0) > 0;
    ok = fclose(f) == 0 && ok;
    if (!ok) return km_fail(err, "%s: cannot write: %s", path, strerror(errno));
    return 0;
}

static int save_state(const TuneSession *s, const TuneFiles *f, char *err)
{
    if (f->pop_path && tune_write(s, f->pop_path, err)) return -1;
    if (f->weights_path && s->has_best) {
        char *d = tune_describe(s);
        KmBuf b = {0};
        if (f->weights_header) km_buf_printf(&b, "%s", f->weights_header);
        if (b.len && b.s[b.len - 1] != '\n') km_buf_printf(&b, "\n");
        km_buf_printf(&b, "%s", d ? d : "");
        free(d);
        char *comments = km_buf_done(&b);
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
        if (f->csv_path && csv_append(f->csv_path, s, &st, err)) return -1;
        if (save_state(s, f, err)) return -1;
        if (cb) {
            TuneEvent e = {.kind = TUNE_EVENT_GENERATION, .generation = st.generation, .stats = &st,
                           .session = s};
            cb(&e, user);
        }
    }
    return 0;
}
