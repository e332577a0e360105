/* tune_search.c - the genetic algorithm over the search's parameters
 * (tune_search.h). */
#include "kingme/tune_search.h"
#include "kingme/base.h"
#include "kingme/elo.h"
#include "kingme/match.h"
#include "kingme/opening.h"
#include "kingme/textio.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ts_tuned_default(TsBudget budget, bool tuned[SEARCH_NPARAMS])
{
    for (int i = 0; i < SEARCH_NPARAMS; i++) {
        const char *n = search_params_info[i].name;
        /* the margin's measurement costs a search of its own per value, and
         * the assumed margin is used only until it is measured */
        bool fixed = i == SP_probcut_measure_depth || i == SP_probcut_margin_min ||
                     i == SP_probcut_margin_max || i == SP_probcut_margin;
        /* the time manager acts only on a game clock */
        if (strncmp(n, "tm_", 3) == 0) fixed = budget != TS_BUDGET_CLOCK;
        tuned[i] = !fixed;
    }
}

void ts_controls_default(TsControls *c)
{
    memset(c, 0, sizeof *c);
    c->population = 12;
    c->elite = 4;
    c->games = 8;
    c->tournament = 2;
    c->sigma = 0.15;
    c->mutation = 0.3;
    c->budget = TS_BUDGET_NODES;
    c->nodes = 20000;
    c->generations = 10;
    c->seed = 1;
    c->confirm = 400;
    c->confirm_elo = 10;
    ts_tuned_default(c->budget, c->tuned);
}

int ts_controls_check(const TsControls *c, char *err)
{
    if (c->population < 4 || c->population > TS_MAX_POPULATION)
        return km_fail(err, "population %d is not from 4 to %d", c->population, TS_MAX_POPULATION);
    if (c->elite < 1 || c->elite >= c->population)
        return km_fail(err, "elite %d is not from 1 to the population - 1 (%d)", c->elite, c->population - 1);
    if (c->games < 2 || c->games > TS_MAX_GAMES || c->games % 2)
        return km_fail(err, "games %d is not an even number from 2 to %d", c->games, TS_MAX_GAMES);
    if (c->tournament < 1 || c->tournament > c->population)
        return km_fail(err, "tournament %d is not from 1 to the population (%d)", c->tournament,
                       c->population);
    if (!(c->sigma > 0 && c->sigma <= 4))
        return km_fail(err, "sigma %g is not above 0 and at most 4", c->sigma);
    if (!(c->mutation >= 0 && c->mutation <= 1))
        return km_fail(err, "mutation %g is not a chance", c->mutation);
    if (c->budget == TS_BUDGET_NODES && (c->nodes < 1 || c->nodes > (1ull << 40)))
        return km_fail(err, "nodes %llu is not from 1 to 2^40", (unsigned long long)c->nodes);
    if (c->budget == TS_BUDGET_TIME && !(c->seconds >= 0.001 && c->seconds <= 1e5))
        return km_fail(err, "time %g is not from 0.001 to 100000 seconds", c->seconds);
    if (c->budget == TS_BUDGET_CLOCK &&
        !(c->tc_base > 0 && c->tc_base <= 1e6 && c->tc_inc >= 0 && c->tc_inc <= 1e4))
        return km_fail(err, "clock %g+%g is not a game clock", c->tc_base, c->tc_inc);
    if (c->generations < 1 || c->generations > 1000000)
        return km_fail(err, "generations %d is not from 1 to 1000000", c->generations);
    if (c->confirm < 0 || c->confirm > 100000 || c->confirm % 2)
        return km_fail(err, "confirm %d is not an even number from 0 to 100000", c->confirm);
    if (!(c->confirm_elo > 0 && c->confirm_elo <= 1000))
        return km_fail(err, "confirm elo %g is not above 0 and at most 1000", c->confirm_elo);
    int n = 0;
    for (int i = 0; i < SEARCH_NPARAMS; i++) n += c->tuned[i];
    if (!n) return km_fail(err, "no parameter to tune");
    return 0;
}

double ts_rank(const TsIndividual *x)
{
    if (x->w + x->d + x->l == 0) return -1e9;
    EloStats st;
    elo_stats(x->w, x->d, x->l, &st);
    return isfinite(st.elo_lo) ? st.elo_lo : st.elo_lo > 0 ? 1e9 : -1e9;
}

/* ---- random numbers ------------------------------------------------------------ */

static double uniform01(uint64_t *rng)
{
    return (double)(km_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}

static double gauss(uint64_t *rng)
{
    double u = uniform01(rng), v = uniform01(rng);
    if (u < 1e-300) u = 1e-300;
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

static int below(uint64_t *rng, int n) { return (int)(km_rng_next(rng) % (uint64_t)n); }

/* Parameter i of p moved by one mutation. */
static void mutate_one(const TsControls *c, SearchParams *p, int i, uint64_t *rng, double scale)
{
    const SearchParamInfo *in = &search_params_info[i];
    double v = search_params_get(p, i);
    if (in->kind == SEARCH_PARAM_INT && in->lo == 0 && in->hi == 1) {
        search_params_set(p, i, 1 - v);
        return;
    }
    double step = c->sigma * scale * (fabs(in->def) > 0 ? fabs(in->def) : 1);
    double g = gauss(rng);
    double nv;
    if (in->kind == SEARCH_PARAM_INT) {
        if (step < 1) step = 1;
        double d = round(g * step);
        if (d == 0) d = g < 0 ? -1 : 1;
        nv = v + d;
    } else {
        nv = v + g * step;
        nv = round(nv * 1000) / 1000; /* three decimals: a file shows them as bred */
    }
    if (nv < in->lo) nv = in->lo;
    if (nv > in->hi) nv = in->hi;
    search_params_set(p, i, nv);
}

/* Mutations of p: each tuned parameter with chance c->mutation, at least one. */
static void mutate(const TsControls *c, SearchParams *p, uint64_t *rng, double scale)
{
    int tuned[SEARCH_NPARAMS], n = 0;
    for (int i = 0; i < SEARCH_NPARAMS; i++)
        if (c->tuned[i]) tuned[n++] = i;
    bool any = false;
    for (int k = 0; k < n; k++)
        if (uniform01(rng) < c->mutation) {
            mutate_one(c, p, tuned[k], rng, scale);
            any = true;
        }
    if (!any) mutate_one(c, p, tuned[below(rng, n)], rng, scale);
}

/* ---- sessions -------------------------------------------------------------------- */

int ts_new(TsSession *s, const TsControls *c, char *err)
{
    memset(s, 0, sizeof *s);
    if (ts_controls_check(c, err)) return -1;
    s->c = *c;
    s->rng = km_mix64(c->seed ^ 0x5345415243480001ull);
    s->pop = calloc((size_t)c->population, sizeof *s->pop);
    if (!s->pop) return km_fail(err, "out of memory");
    s->confirmed_id = -1;
    search_params_default(&s->confirmed);
    /* the defaults, then mutations of them (twice the step: a first spread) */
    for (int i = 0; i < c->population; i++) {
        TsIndividual *x = &s->pop[i];
        x->id = s->next_id++;
        x->born = 1;
        search_params_default(&x->p);
        if (i) mutate(c, &x->p, &s->rng, 2);
    }
    return 0;
}

void ts_free(TsSession *s)
{
    free(s->pop);
    s->pop = NULL;
}

bool ts_finished(const TsSession *s) { return s->generation >= s->c.generations; }

int ts_leader(const TsSession *s)
{
    int best = -1, any = 0;
    for (int i = 0; i < s->c.population; i++) {
        const TsIndividual *x = &s->pop[i];
        if (ts_rank(x) > ts_rank(&s->pop[any])) any = i;
        if (x->w + x->d + x->l < 2 * s->c.games) continue;
        if (best < 0 || ts_rank(x) > ts_rank(&s->pop[best])) best = i;
    }
    return best >= 0 ? best : any;
}

/* The match settings of a session's games: sides[0] the defaults. */
static void settings(const TsControls *c, MatchSettings *set)
{
    referee_settings_default(set);
    set->hash_mb = TS_HASH_MB;
    set->share_table = false;
    if (c->budget == TS_BUDGET_NODES) set->limits.nodes = c->nodes;
    else if (c->budget == TS_BUDGET_TIME) set->limits.seconds = c->seconds;
    else set->tc_base = c->tc_base, set->tc_inc = c->tc_inc;
}

typedef struct Progress {
    TsProgress cb;
    void *user;
} Progress;

static void on_game(int done, int total, int job, const MatchOutcome *o, void *user)
{
    (void)job, (void)o;
    const Progress *p = user;
    if (p->cb) p->cb(done, total, p->user);
}

/* Points of side 1 (the individual) in game k of a pair: 2 a win, 1 a
 * draw, 0 a loss. */
static int points(const MatchOutcome *o, bool ind_black)
{
    if (o->result == GAME_DRAW) return 1;
    bool black_won = o->result == GAME_BLACK_WINS;
    return black_won == ind_black ? 2 : 0;
}

/* games/2 distinct ballots from the crossboard deck. */
static void draw_ballots(uint64_t *rng, int nops, int *pick, int n)
{
    int *deck = malloc((size_t)nops * sizeof *deck);
    if (!deck) {
        for (int k = 0; k < n; k++) pick[k] = below(rng, nops);
        return;
    }
    for (int i = 0; i < nops; i++) deck[i] = i;
    for (int k = 0; k < n; k++) {
        int j = k + below(rng, nops - k);
        int t = deck[k];
        deck[k] = deck[j];
        deck[j] = t;
        pick[k] = deck[k];
    }
    free(deck);
}

/* Play each of the n individuals ind[] against the defaults, from the
 * ballots pick[0..nb-1] with both colours, seeds from gseed; adds each
 * game's result to res[individual][0..2] (W, D, L). Returns 0, 1 when
 * stopped, -1 with a message. */
static int play(const TsControls *c, struct WorkerSet *ws, const Weights *w, const SearchParams *const *ind,
                int n, const Opening *ops, const int *pick, int nb, uint64_t gseed, int threads,
                TsProgress cb, void *user, const atomic_bool *stop, int (*res)[3], char *err)
{
    int ng = n * nb * 2;
    MatchSide *sides = calloc((size_t)n + 1, sizeof *sides);
    SearchParams *par = calloc((size_t)n + 1, sizeof *par);
    MatchGameSpec *specs = calloc((size_t)ng, sizeof *specs);
    MatchOutcome *out = calloc((size_t)ng, sizeof *out);
    if (!sides || !par || !specs || !out) {
        free(sides), free(par), free(specs), free(out);
        return km_fail(err, "out of memory");
    }
    for (int i = 0; i <= n; i++) {
        sides[i].name = i ? "candidate" : "defaults";
        sides[i].weights = w;
        par[i] = i ? *ind[i - 1] : search_params_defaults;
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int b = 0; b < nb; b++)
            for (int col = 0; col < 2; col++, k++) {
                specs[k].opening = &ops[pick[b]];
                specs[k].seed = referee_game_seed(gseed, (uint64_t)k);
                specs[k].side[KM_BLACK] = col == 0 ? i + 1 : 0;
                specs[k].side[KM_WHITE] = col == 0 ? 0 : i + 1;
            }
    MatchSettings set;
    settings(c, &set);
    set.sides = sides;
    set.nsides = n + 1;
    set.side_params = par;
    Progress p = {cb, user};
    int r = ws ? match_run_workers(ws, &set, specs, ng, threads, false, out, on_game, &p, stop, err)
               : match_run(&set, specs, ng, threads, false, out, on_game, &p, stop, err);
    if (r == 0) {
        for (int g = 0; g < ng; g++)
            if (out[g].result == GAME_ONGOING) r = 1;
        if (r == 0)
            for (int g = 0; g < ng; g++) {
                int pts = points(&out[g], specs[g].side[KM_BLACK] != 0);
                res[g / (2 * nb)][pts == 2 ? 0 : pts == 1 ? 1 : 2]++;
            }
    }
    match_outcomes_free(out, ng);
    free(sides), free(par), free(specs), free(out);
    return r;
}

/* The order of the population by rank, best first (ties: the older first). */
static const TsSession *sort_session;
static int by_rank(const void *a, const void *b)
{
    const TsIndividual *x = &sort_session->pop[*(const int *)a], *y = &sort_session->pop[*(const int *)b];
    double rx = ts_rank(x), ry = ts_rank(y);
    if (rx != ry) return rx > ry ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

/* A parent: the best-ranked of c.tournament drawn. */
static int tournament(const TsSession *s, uint64_t *rng)
{
    int best = below(rng, s->c.population);
    for (int t = 1; t < s->c.tournament; t++) {
        int j = below(rng, s->c.population);
        if (ts_rank(&s->pop[j]) > ts_rank(&s->pop[best])) best = j;
    }
    return best;
}

int ts_generation(TsSession *s, const Weights *weights, int threads, TsProgress cb, void *user,
                  const atomic_bool *stop, TsGenStats *st, char *err)
{
    const TsControls *c = &s->c;
    int P = c->population, nb = c->games / 2;
    Opening *ops = NULL;
    int nops = 0;
    if (opening_list_crossboard(&ops, &nops, err)) return -1;
    uint64_t rng = s->rng;
    int pick[TS_MAX_GAMES / 2];
    draw_ballots(&rng, nops, pick, nb);
    const SearchParams **ind = malloc((size_t)P * sizeof *ind);
    int(*res)[3] = calloc((size_t)P, sizeof *res);
    if (!ind || !res) {
        free(ops), free(ind), free(res);
        return km_fail(err, "out of memory");
    }
    for (int i = 0; i < P; i++) ind[i] = &s->pop[i].p;
    uint64_t gseed = km_mix64(c->seed ^ km_mix64(0x47454E00ull + (uint64_t)s->generation));
    double t0 = km_now();
    int r = play(c, s->workers, weights, ind, P, ops, pick, nb, gseed, threads, cb, user, stop, res, err);
    free(ops);
    free(ind);
    if (r) {
        free(res);
        return r;
    }
    double secs = km_now() - t0;
    /* the records */
    double pts = 0;
    for (int i = 0; i < P; i++) {
        TsIndividual *x = &s->pop[i];
        x->gw = res[i][0], x->gd = res[i][1], x->gl = res[i][2];
        x->w += x->gw, x->d += x->gd, x->l += x->gl;
        pts += x->gw + 0.5 * x->gd;
    }
    free(res);
    s->generation++;
    s->elapsed += secs;
    s->games += (long long)P * c->games;
    int lead = ts_leader(s);
    if (st) {
        st->generation = s->generation;
        st->games = P * c->games;
        st->seconds = secs;
        st->leader = s->pop[lead];
        st->pop_score = pts / ((double)P * c->games);
    }
    /* the next generation: the leader first, then the best-ranked; a
     * session stopped here and resumed with more generations goes on as
     * one that never stopped */
    {
        int *order = malloc((size_t)P * sizeof *order);
        TsIndividual *next = calloc((size_t)P, sizeof *next);
        if (!order || !next) {
            free(order), free(next);
            return km_fail(err, "out of memory");
        }
        for (int i = 0; i < P; i++) order[i] = i;
        sort_session = s;
        qsort(order, (size_t)P, sizeof *order, by_rank);
        next[0] = s->pop[lead];
        for (int e = 1, k = 0; e < c->elite; k++)
            if (order[k] != lead) next[e++] = s->pop[order[k]];
        for (int k = c->elite; k < P; k++) {
            const TsIndividual *a = &s->pop[tournament(s, &rng)], *b = &s->pop[tournament(s, &rng)];
            TsIndividual *x = &next[k];
            memset(x, 0, sizeof *x);
            x->id = s->next_id++;
            x->born = s->generation + 1;
            x->p = a->p;
            for (int i = 0; i < SEARCH_NPARAMS; i++)
                if (c->tuned[i] && (km_rng_next(&rng) & 1))
                    search_params_set(&x->p, i, search_params_get(&b->p, i));
            mutate(c, &x->p, &rng, 1);
        }
        memcpy(s->pop, next, (size_t)P * sizeof *next);
        free(order);
        free(next);
    }
    s->rng = rng;
    return 0;
}

int ts_confirm(TsSession *s, const Weights *weights, int threads, TsProgress cb, void *user,
               const atomic_bool *stop, char *err)
{
    const TsIndividual *lead = &s->pop[ts_leader(s)];
    Opening *ops = NULL;
    int nops = 0;
    if (opening_list_crossboard(&ops, &nops, err)) return -1;
    Sprt sp;
    elo_sprt_init(&sp, 0, s->c.confirm_elo, 0.05, 0.05);
    int wdl[1][3] = {{0, 0, 0}};
    int batch = 2 * (threads > 1 ? threads : 1); /* ballots per batch */
    uint64_t rng = km_mix64(s->c.seed ^ 0x434F4E4649524Dull);
    int played = 0, r = 0;
    SprtDecision dec = SPRT_CONTINUE;
    const SearchParams *ind[1] = {&lead->p};
    /* the ballots in an order of the seed's, each with both colours */
    int order[144];
    int n = nops < 144 ? nops : 144;
    draw_ballots(&rng, nops, order, n);
    for (int round = 0; played < s->c.confirm && dec == SPRT_CONTINUE; round++) {
        int nb = batch;
        if (2 * nb > s->c.confirm - played) nb = (s->c.confirm - played) / 2;
        int pick[TS_MAX_GAMES / 2];
        for (int b = 0; b < nb; b++) pick[b] = order[(played / 2 + b) % n];
        r = play(&s->c, s->workers, weights, ind, 1, ops, pick, nb, km_mix64(rng + (uint64_t)round), threads,
                 cb, user, stop, wdl, err);
        if (r) break;
        played += 2 * nb;
        dec = elo_sprt_decide(&sp, elo_sprt_llr(&sp, wdl[0][0], wdl[0][1], wdl[0][2]));
    }
    free(ops);
    if (r) return r;
    s->confirmed_id = lead->id;
    s->confirmed = lead->p;
    s->cw = wdl[0][0], s->cd = wdl[0][1], s->cl = wdl[0][2];
    s->accepted = dec == SPRT_H1;
    s->games += played;
    return 0;
}

/* ---- the session file ------------------------------------------------------------ */

/* v in as few digits as read back the same. */
static const char *real_text(double v, char *buf, size_t len)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
    return buf;
}

static void put_values(KmBuf *b, const SearchParams *p)
{
    for (int i = 0; i < SEARCH_NPARAMS; i++) {
        char v[40];
        search_params_text(p, i, v, sizeof v);
        textio_buf_printf(b, " %s", v);
    }
}

char *ts_format(const TsSession *s)
{
    const TsControls *c = &s->c;
    KmBuf b = {0};
    textio_buf_printf(&b, "%s %d\n", TS_MAGIC, TS_FORMAT_VERSION);
    textio_buf_printf(&b, "population %d\nelite %d\ngames %d\ntournament %d\n", c->population, c->elite,
                      c->games, c->tournament);
    char r1[32], r2[32];
    textio_buf_printf(&b, "sigma %s\nmutation %s\n", real_text(c->sigma, r1, sizeof r1),
                      real_text(c->mutation, r2, sizeof r2));
    if (c->budget == TS_BUDGET_NODES)
        textio_buf_printf(&b, "budget nodes %llu\n", (unsigned long long)c->nodes);
    else if (c->budget == TS_BUDGET_TIME)
        textio_buf_printf(&b, "budget time %s\n", real_text(c->seconds, r1, sizeof r1));
    else
        textio_buf_printf(&b, "budget clock %s %s\n", real_text(c->tc_base, r1, sizeof r1),
                          real_text(c->tc_inc, r2, sizeof r2));
    textio_buf_printf(&b, "generations %d\nseed %llu\nconfirm %d %s\n", c->generations,
                      (unsigned long long)c->seed, c->confirm, real_text(c->confirm_elo, r1, sizeof r1));
    textio_buf_str(&b, "tuned");
    for (int i = 0; i < SEARCH_NPARAMS; i++)
        if (c->tuned[i]) textio_buf_printf(&b, " %s", search_params_info[i].name);
    textio_buf_str(&b, "\nparams");
    for (int i = 0; i < SEARCH_NPARAMS; i++) textio_buf_printf(&b, " %s", search_params_info[i].name);
    textio_buf_printf(&b, "\ngeneration %d\nelapsed %.3f\ngames_played %lld\nrng %016llx\nnext_id %d\n",
                      s->generation, s->elapsed, s->games, (unsigned long long)s->rng, s->next_id);
    if (s->confirmed_id < 0) textio_buf_str(&b, "confirmation none\n");
    else {
        textio_buf_printf(&b, "confirmation %d %d %d %d %s", s->confirmed_id, s->cw, s->cd, s->cl,
                          s->accepted ? "yes" : "no");
        put_values(&b, &s->confirmed);
        textio_buf_str(&b, "\n");
    }
    for (int i = 0; i < c->population; i++) {
        const TsIndividual *x = &s->pop[i];
        textio_buf_printf(&b, "individual %d %d %d %d %d %d %d %d", x->id, x->born, x->w, x->d, x->l, x->gw,
                          x->gd, x->gl);
        put_values(&b, &x->p);
        textio_buf_str(&b, "\n");
    }
    textio_buf_str(&b, "end\n");
    return textio_buf_done(&b);
}

#define TS_MAX_TOKENS (SEARCH_NPARAMS + 16)

/* Parse the values tok[0..] (in the file's params order) into p. */
static int read_values(SearchParams *p, char **tok, int n, const int *map, int nmap, const char *where,
                       int line, char *err)
{
    if (n != nmap)
        return km_fail(err, "%s:%d: %d values, not the %d of the params line", where, line, n, nmap);
    search_params_default(p);
    for (int k = 0; k < n; k++) {
        char e2[KM_ERR_MAX];
        if (search_params_set_text(p, search_params_info[map[k]].name, tok[k], e2))
            return km_fail(err, "%s:%d: %s", where, line, e2);
    }
    return 0;
}

static bool int_of(const char *t, long long lo, long long hi, int *out)
{
    long long v;
    if (!textio_parse_ll(t, lo, hi, &v)) return false;
    *out = (int)v;
    return true;
}

static bool real_of(const char *t, double *out)
{
    char *end;
    double v = strtod(t, &end);
    if (!*t || *end || !isfinite(v)) return false;
    *out = v;
    return true;
}

int ts_parse(TsSession *s, const char *text, const char *where, char *err)
{
    memset(s, 0, sizeof *s);
    TsControls *c = &s->c;
    ts_controls_default(c);
    s->confirmed_id = -1;
    search_params_default(&s->confirmed);
    int map[SEARCH_NPARAMS], nmap = -1, nind = 0, line = 0;
    bool magic = false, ended = false, has_pop = false;
    char *copy = strdup(textio_skip_bom(text));
    if (!copy) return km_fail(err, "%s: out of memory", where);
    char *save = copy;
    int rc = 0;
#define BAD(...)                        \
    do {                                \
        rc = km_fail(err, __VA_ARGS__); \
        goto done;                      \
    } while (0)
    for (char *ln = copy; ln && !rc;) {
        char *eol = strchr(ln, '\n');
        if (eol) *eol = 0;
        line++;
        char *hash = strchr(ln, '#');
        if (hash) *hash = 0;
        char *tok[TS_MAX_TOKENS];
        int n = textio_split(ln, tok, TS_MAX_TOKENS);
        ln = eol ? eol + 1 : NULL;
        if (n == 0) continue;
        if (n > TS_MAX_TOKENS) BAD("%s:%d: too many values", where, line);
        if (ended) BAD("%s:%d: text after 'end'", where, line);
        const char *k = tok[0];
        if (!magic) {
            int v;
            if (strcmp(k, TS_MAGIC) || n != 2 || !int_of(tok[1], 1, 1000000, &v))
                BAD("%s:%d: not a search population file (no '%s %d' line first)", where, line, TS_MAGIC,
                    TS_FORMAT_VERSION);
            if (v > TS_FORMAT_VERSION)
                BAD("%s:%d: format %d is newer than this kingme reads", where, line, v);
            magic = true;
        } else if (!strcmp(k, "end")) {
            ended = true;
        } else if (!strcmp(k, "population") && n == 2) {
            if (!int_of(tok[1], 4, TS_MAX_POPULATION, &c->population))
                BAD("%s:%d: population '%s' is not from 4 to %d", where, line, tok[1], TS_MAX_POPULATION);
            has_pop = true;
            s->pop = calloc((size_t)c->population, sizeof *s->pop);
            if (!s->pop) BAD("%s: out of memory", where);
        } else if (!strcmp(k, "elite") && n == 2) {
            if (!int_of(tok[1], 0, TS_MAX_POPULATION, &c->elite))
                BAD("%s:%d: bad elite '%s'", where, line, tok[1]);
        } else if (!strcmp(k, "games") && n == 2) {
            if (!int_of(tok[1], 2, TS_MAX_GAMES, &c->games))
                BAD("%s:%d: bad games '%s'", where, line, tok[1]);
        } else if (!strcmp(k, "tournament") && n == 2) {
            if (!int_of(tok[1], 1, TS_MAX_POPULATION, &c->tournament))
                BAD("%s:%d: bad tournament '%s'", where, line, tok[1]);
        } else if (!strcmp(k, "sigma") && n == 2) {
            if (!real_of(tok[1], &c->sigma)) BAD("%s:%d: bad sigma '%s'", where, line, tok[1]);
        } else if (!strcmp(k, "mutation") && n == 2) {
            if (!real_of(tok[1], &c->mutation)) BAD("%s:%d: bad mutation '%s'", where, line, tok[1]);
        } else if (!strcmp(k, "budget") && n >= 3) {
            long long v;
            if (!strcmp(tok[1], "nodes") && n == 3 && textio_parse_ll(tok[2], 1, 1LL << 40, &v))
                c->budget = TS_BUDGET_NODES, c->nodes = (uint64_t)v;
            else if (!strcmp(tok[1], "time") && n == 3 && real_of(tok[2], &c->seconds))
                c->budget = TS_BUDGET_TIME;
            else if (!strcmp(tok[1], "clock") && n == 4 && real_of(tok[2], &c->tc_base) &&
                     real_of(tok[3], &c->tc_inc))
                c->budget = TS_BUDGET_CLOCK;
            else BAD("%s:%d: budget: 'nodes N', 'time S' or 'clock BASE INC'", where, line);
        } else if (!strcmp(k, "generations") && n == 2) {
            if (!int_of(tok[1], 1, 1000000, &c->generations))
                BAD("%s:%d: bad generations '%s'", where, line, tok[1]);
        } else if (!strcmp(k, "seed") && n == 2) {
            long long v;
            if (!textio_parse_ll(tok[1], 0, INT64_MAX, &v)) BAD("%s:%d: bad seed '%s'", where, line, tok[1]);
            c->seed = (uint64_t)v;
        } else if (!strcmp(k, "confirm") && n == 3) {
            if (!int_of(tok[1], 0, 100000, &c->confirm) || !real_of(tok[2], &c->confirm_elo))
                BAD("%s:%d: confirm: GAMES ELO", where, line);
        } else if (!strcmp(k, "tuned")) {
            memset(c->tuned, 0, sizeof c->tuned);
            for (int j = 1; j < n; j++) {
                int i = search_params_find(tok[j]);
                if (i < 0) BAD("%s:%d: unknown search parameter '%.60s'", where, line, tok[j]);
                c->tuned[i] = true;
            }
        } else if (!strcmp(k, "params")) {
            nmap = n - 1;
            for (int j = 1; j < n; j++) {
                int i = search_params_find(tok[j]);
                if (i < 0) BAD("%s:%d: unknown search parameter '%.60s'", where, line, tok[j]);
                map[j - 1] = i;
            }
        } else if (!strcmp(k, "generation") && n == 2) {
            if (!int_of(tok[1], 0, 1000000, &s->generation))
                BAD("%s:%d: bad generation '%s'", where, line, tok[1]);
        } else if (!strcmp(k, "elapsed") && n == 2) {
            if (!real_of(tok[1], &s->elapsed) || s->elapsed < 0)
                BAD("%s:%d: bad elapsed '%s'", where, line, tok[1]);
        } else if (!strcmp(k, "games_played") && n == 2) {
            long long v;
            if (!textio_parse_ll(tok[1], 0, INT64_MAX, &v))
                BAD("%s:%d: bad games_played '%s'", where, line, tok[1]);
            s->games = v;
        } else if (!strcmp(k, "rng") && n == 2) {
            char *end;
            unsigned long long v = strtoull(tok[1], &end, 16);
            if (!*tok[1] || *end || strlen(tok[1]) > 16) BAD("%s:%d: bad rng '%s'", where, line, tok[1]);
            s->rng = v;
        } else if (!strcmp(k, "next_id") && n == 2) {
            if (!int_of(tok[1], 0, INT32_MAX, &s->next_id))
                BAD("%s:%d: bad next_id '%s'", where, line, tok[1]);
        } else if (!strcmp(k, "confirmation")) {
            if (n == 2 && !strcmp(tok[1], "none")) continue;
            if (nmap < 0) BAD("%s:%d: confirmation before the params line", where, line);
            if (n < 6 || !int_of(tok[1], 0, INT32_MAX, &s->confirmed_id) ||
                !int_of(tok[2], 0, INT32_MAX, &s->cw) || !int_of(tok[3], 0, INT32_MAX, &s->cd) ||
                !int_of(tok[4], 0, INT32_MAX, &s->cl) || (strcmp(tok[5], "yes") && strcmp(tok[5], "no")))
                BAD("%s:%d: confirmation: none, or ID W D L yes|no and the values", where, line);
            s->accepted = !strcmp(tok[5], "yes");
            if (read_values(&s->confirmed, tok + 6, n - 6, map, nmap, where, line, err)) {
                rc = -1;
                goto done;
            }
        } else if (!strcmp(k, "individual")) {
            if (!has_pop) BAD("%s:%d: individual before the population line", where, line);
            if (nmap < 0) BAD("%s:%d: individual before the params line", where, line);
            if (nind >= c->population)
                BAD("%s:%d: more individuals than the population (%d)", where, line, c->population);
            TsIndividual *x = &s->pop[nind];
            int *f[8] = {&x->id, &x->born, &x->w, &x->d, &x->l, &x->gw, &x->gd, &x->gl};
            if (n < 9) BAD("%s:%d: individual: ID BORN W D L GW GD GL and the values", where, line);
            for (int j = 0; j < 8; j++)
                if (!int_of(tok[1 + j], 0, INT32_MAX, f[j]))
                    BAD("%s:%d: individual: bad number '%s'", where, line, tok[1 + j]);
            if (read_values(&x->p, tok + 9, n - 9, map, nmap, where, line, err)) {
                rc = -1;
                goto done;
            }
            nind++;
        } else {
            BAD("%s:%d: unknown or malformed line '%.40s'", where, line, k);
        }
    }
    if (!magic) BAD("%s: empty, not a search population file", where);
    if (!ended) BAD("%s: truncated (no 'end' line)", where);
    if (!has_pop) BAD("%s: no population line", where);
    if (nind != c->population) BAD("%s: %d individuals, not the population's %d", where, nind, c->population);
    {
        char e2[KM_ERR_MAX];
        if (ts_controls_check(c, e2)) BAD("%s: %s", where, e2);
    }
done:
#undef BAD
    free(save);
    if (rc) ts_free(s);
    return rc;
}

int ts_read(TsSession *s, const char *path, char *err)
{
    KmReadOpts opts = {
        .max_bytes = 16 << 20,
        .too_large = "too large for a search population file",
        .nul_byte = "not a text file (contains a NUL byte)",
    };
    char *text = textio_read_text(path, &opts, NULL, err);
    if (!text) return -1;
    int rc = ts_parse(s, text, path, err);
    free(text);
    return rc;
}

int ts_write(const TsSession *s, const char *path, char *err)
{
    char *t = ts_format(s);
    if (!t) return km_fail(err, "%s: out of memory", path);
    int rc = textio_write_atomic(path, t, strlen(t), err);
    free(t);
    return rc;
}
