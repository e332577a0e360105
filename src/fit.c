/* fit.c - logistic regression of self-play targets on the evaluation
 * (fit.h). The features are those of eval.c and patterns.c, extracted once
 * per sample; the parameters are doubles in evaluation units, rounded at the
 * end. */
#include "kingme/fit.h"
#include "kingme/bits.h"
#include "kingme/movegen.h"
#include "kingme/patterns.h"
#include "kingme/workers.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define NPAIRS (EVAL_NTERMS / 2)

void fit_config_default(FitConfig *c)
{
    memset(c, 0, sizeof *c);
    c->lambda = 0.5;
    c->l2 = 1.0;
    c->l2_pattern = 10.0;
    c->rate = 4.0;
    c->epochs = 300;
    c->holdout = 0.05;
    c->min_pieces = 5;
    c->named = true;
    c->patterns = true;
    c->threads = 1;
    c->seed = 1;
}

/* The own_ term of each pair and its opp_ twin. */
static int pair_own[NPAIRS], pair_opp[NPAIRS];
static void pairs_init(void)
{
    int k = 0;
    for (int i = 0; i < EVAL_NTERMS; i++) {
        int j = eval_term_partner(i);
        if (j >= 0 && k < NPAIRS) pair_own[k] = i, pair_opp[k] = j, k++;
    }
}

typedef struct Sample {
    float target;
    uint8_t t; /* phase, 0..EVAL_PHASE_SPAN */
    int16_t d[NPAIRS];
    uint16_t reg[2][PAT_NREGIONS]; /* [0] the side to move's own view, [1] the opponent's */
    uint8_t nmen[2], nkings[2];
    uint8_t men[2][12], kings[2][12];
} Sample;

/* The parameters: the named pairs (opening, ending), then the pattern
 * tables of both phases, each table's cells in a row. */
#define NNAMED (2 * NPAIRS)
static int table_at[2][PAT_NTABLES]; /* offset of each table's cells */
static int nparams;
static pthread_once_t layout_once = PTHREAD_ONCE_INIT;
static void layout_init(void)
{
    pairs_init();
    int at = NNAMED;
    for (int ph = 0; ph < 2; ph++)
        for (int t = 0; t < PAT_NTABLES; t++) table_at[ph][t] = at, at += pat_tables[t].cells;
    nparams = at;
}

static void extract(const Board *b, Sample *s)
{
    EvalFeatures ef;
    eval_features(b, b->stm, &ef);
    const int *f = ef.term;
    const PatFeatures *pf = &ef.pat;
    for (int k = 0; k < NPAIRS; k++) s->d[k] = (int16_t)(f[pair_own[k]] - f[pair_opp[k]]);
    s->t = (uint8_t)phase_factor(bits_popcount32(board_occupied(b)));
    for (int v = 0; v < 2; v++) {
        int c = v == 0 ? b->stm : b->stm ^ 1;
        memcpy(s->reg[v], pf->region[c], sizeof s->reg[v]);
        s->nmen[v] = pf->nmen[c], s->nkings[v] = pf->nkings[c];
        memcpy(s->men[v], pf->men[c], sizeof s->men[v]);
        memcpy(s->kings[v], pf->kings[c], sizeof s->kings[v]);
    }
}

typedef struct Model {
    const FitConfig *c;
    double *theta;
    double scale;
} Model;

/* The evaluation of s for the side to move. */
static double score(const Model *m, const Sample *s)
{
    const double *th = m->theta;
    double wo = s->t / (double)EVAL_PHASE_SPAN, we = 1.0 - wo, v = 0;
    for (int k = 0; k < NPAIRS; k++) v += s->d[k] * (th[2 * k] * wo + th[2 * k + 1] * we);
    if (!m->c->patterns) return v;
    for (int ph = 0; ph < 2; ph++) {
        double p = 0;
        for (int side = 0; side < 2; side++) {
            double q = 0;
            for (int r = 0; r < PAT_NREGIONS; r++)
                q += th[table_at[ph][PAT_REGION_TABLE(r)] + s->reg[side][r]];
            for (int i = 0; i < s->nmen[side]; i++)
                q += th[table_at[ph][PAT_MAN_TABLE] + s->men[side][i] - 1];
            for (int i = 0; i < s->nkings[side]; i++)
                q += th[table_at[ph][PAT_KING_TABLE] + s->kings[side][i] - 1];
            p += side ? -q : q;
        }
        v += p * (ph ? we : wo);
    }
    return v;
}

static void add_gradient(const Model *m, const Sample *s, double g, double *grad)
{
    double wo = s->t / (double)EVAL_PHASE_SPAN, we = 1.0 - wo;
    if (m->c->named)
        for (int k = 0; k < NPAIRS; k++) {
            grad[2 * k] += g * s->d[k] * wo;
            grad[2 * k + 1] += g * s->d[k] * we;
        }
    if (!m->c->patterns) return;
    for (int ph = 0; ph < 2; ph++) {
        double gp = g * (ph ? we : wo);
        for (int side = 0; side < 2; side++) {
            double gs = side ? -gp : gp;
            for (int r = 0; r < PAT_NREGIONS; r++)
                grad[table_at[ph][PAT_REGION_TABLE(r)] + s->reg[side][r]] += gs;
            for (int i = 0; i < s->nmen[side]; i++)
                grad[table_at[ph][PAT_MAN_TABLE] + s->men[side][i] - 1] += gs;
            for (int i = 0; i < s->nkings[side]; i++)
                grad[table_at[ph][PAT_KING_TABLE] + s->kings[side][i] - 1] += gs;
        }
    }
}

/* ---- one pass on several threads ------------------------------------------ */

typedef struct Pass {
    const Model *m;
    const Sample *s;
    size_t from, to;
    double *grad; /* NULL: the loss only */
    double loss;
} Pass;

static void pass_share(Pass *p)
{
    double loss = 0;
    for (size_t i = p->from; i < p->to; i++) {
        const Sample *s = &p->s[i];
        double q = fit_sigmoid(score(p->m, s) / p->m->scale);
        loss += fit_cross_entropy(q, s->target);
        if (p->grad) add_gradient(p->m, s, (q - s->target) / p->m->scale, p->grad);
    }
    p->loss = loss;
}

/* A share as a job of the runner (workers.h), on a local thread. */
static int pass_job(void *ctx, int thread, int i, const atomic_bool *stop, char *err)
{
    (void)thread, (void)stop, (void)err;
    pass_share(&((Pass *)ctx)[i]);
    return 0;
}

/* The mean loss over s[0..n) and, when grad is not NULL, the mean gradient
 * added to it; partial sums of fixed shares, added in share order. */
static int pass(const Model *m, const Sample *s, size_t n, int threads, double **tgrad, double *grad,
                double *loss, char *err)
{
    if (n == 0) {
        *loss = -1;
        return 0;
    }
    Pass p[64];
    if (threads > 64) threads = 64;
    if ((size_t)threads > n) threads = (int)n;
    for (int t = 0; t < threads; t++) {
        p[t] = (Pass){m,
                      s,
                      n * (size_t)t / (size_t)threads,
                      n * (size_t)(t + 1) / (size_t)threads,
                      grad ? tgrad[t] : NULL,
                      0};
        if (grad) memset(tgrad[t], 0, sizeof(double) * (size_t)nparams);
    }
    if (threads == 1) {
        pass_share(&p[0]);
    } else {
        WorkersJobs jobs = {.n = threads, .ctx = p, .play = pass_job};
        if (workers_run_jobs(NULL, &jobs, threads, NULL, err)) return -1;
    }
    double l = 0;
    for (int t = 0; t < threads; t++) {
        l += p[t].loss;
        if (grad)
            for (int i = 0; i < nparams; i++) grad[i] += tgrad[t][i] / (double)n;
    }
    *loss = l / (double)n;
    return 0;
}

/* ---- the scale ------------------------------------------------------------ */

/* By golden-section search on log K. */
double fit_scale(const SelfplayData *d, const bool *use)
{
    double lo = log(50.0), hi = log(20000.0);
    const double gr = (sqrt(5.0) - 1) / 2;
    double a = hi - gr * (hi - lo), b = lo + gr * (hi - lo);
    for (int it = 0; it < 60; it++) {
        double k[2] = {exp(a), exp(b)}, f[2] = {0, 0};
        for (int j = 0; j < 2; j++)
            for (size_t i = 0; i < d->n; i++)
                if (use[i] && d->pos[i].score != SELFPLAY_NO_SCORE)
                    f[j] += fit_cross_entropy(fit_sigmoid(d->pos[i].score / k[j]), d->pos[i].result / 2.0);
        if (f[0] < f[1]) hi = b, b = a, a = hi - gr * (hi - lo);
        else lo = a, a = b, b = lo + gr * (hi - lo);
    }
    return exp((lo + hi) / 2);
}

int fit_samples(const SelfplayData *data, uint64_t seed, double holdout, int min_pieces, int max_pieces,
                FitSamples *fs, char *err)
{
    memset(fs, 0, sizeof *fs);
    fs->use = calloc(data->n ? data->n : 1, sizeof *fs->use);
    fs->held = calloc(data->n ? data->n : 1, sizeof *fs->held);
    if (!fs->use || !fs->held) {
        fit_samples_free(fs);
        return km_fail(err, "out of memory");
    }
    bool hold = false;
    for (size_t i = 0; i < data->n; i++) {
        const SelfplayPos *p = &data->pos[i];
        if (i == 0 || p->ply <= data->pos[i - 1].ply) {
            fs->games++;
            hold = (double)(km_mix64(seed ^ km_mix64((uint64_t)fs->games)) >> 11) * 0x1.0p-53 < holdout;
        }
        int pieces = bits_popcount32(board_occupied(&p->b));
        if (pieces <= min_pieces || (max_pieces && pieces > max_pieces) || mg_can_capture(&p->b, p->b.stm))
            continue;
        fs->use[i] = true;
        fs->held[i] = hold;
        fs->nuse++;
        fs->nheld += hold;
    }
    if (fs->nuse - fs->nheld == 0) {
        fit_samples_free(fs);
        return km_fail(err, "no position to fit (%zu positions, none quiet with more than %d pieces)",
                       data->n, min_pieces);
    }
    return 0;
}

void fit_samples_free(FitSamples *fs)
{
    free(fs->use);
    free(fs->held);
    fs->use = fs->held = NULL;
}

/* ---- the whole fit ---------------------------------------------------------- */

static int16_t round_clamp(double v, int lim)
{
    long r = lround(v);
    return (int16_t)(r > lim ? lim : r < -lim ? -lim : r);
}

int fit_run(const FitConfig *c, const SelfplayData *data, const Weights *prior, Weights *out, FitReport *rep,
            FitProgressFn progress, void *user, const atomic_bool *stop, char *err)
{
    pthread_once(&layout_once, layout_init);
    memset(rep, 0, sizeof *rep);
    int threads = c->threads < 1 ? 1 : c->threads > 64 ? 64 : c->threads;
    /* the samples: quiet positions with enough pieces; their games */
    FitSamples fs;
    if (fit_samples(data, c->seed, c->holdout, c->min_pieces, c->max_pieces, &fs, err)) return -1;
    bool *use = fs.use, *held = fs.held;
    size_t nuse = fs.nuse, nheld = fs.nheld;
    rep->games = fs.games;
    double scale = fit_scale(data, use);
    Sample *s = malloc(nuse * sizeof *s);
    double *theta = calloc((size_t)nparams, sizeof *theta);
    double *prior_theta = calloc((size_t)nparams, sizeof *theta);
    double *grad = calloc((size_t)nparams, sizeof *grad);
    double *am = calloc((size_t)nparams, sizeof *am), *av = calloc((size_t)nparams, sizeof *av);
    double *tgrad[64] = {0};
    int ok = s && theta && prior_theta && grad && am && av;
    for (int t = 0; ok && t < threads; t++)
        ok = (tgrad[t] = malloc(sizeof(double) * (size_t)nparams)) != NULL;
    int rc = -1;
    if (!ok) {
        km_fail(err, "out of memory (%zu samples, %d weights)", nuse, nparams);
        goto done;
    }
    /* training samples first, then the held-out ones */
    size_t nt = 0, nh = nuse - nheld;
    for (size_t i = 0; i < data->n; i++) {
        if (!use[i]) continue;
        Sample *x = &s[held[i] ? nh++ : nt++];
        extract(&data->pos[i].b, x);
        x->target = (float)fit_target(&data->pos[i], c->lambda, scale);
    }
    /* the start: the prior's weights */
    for (int k = 0; k < NPAIRS; k++) {
        int i = pair_own[k], j = pair_opp[k];
        theta[2 * k] = (prior->w[i] - prior->w[j]) / 2.0;
        theta[2 * k + 1] = prior->phased ? (prior->end[i] - prior->end[j]) / 2.0 : theta[2 * k];
    }
    if (prior->pat)
        for (int ph = 0; ph < 2; ph++)
            for (int t = 0; t < PAT_NTABLES; t++) {
                const int16_t *cells = pat_cells_const(prior->pat, t, ph);
                for (int i = 0; i < pat_tables[t].cells; i++) theta[table_at[ph][t] + i] = cells[i];
            }
    memcpy(prior_theta, theta, sizeof(double) * (size_t)nparams);
    Model m = {c, theta, scale};
    FitConfig cc = *c;
    if (!c->patterns && prior->pat) cc.patterns = true, cc.l2_pattern = 0; /* kept, not fitted: see below */
    m.c = &cc;
    size_t ntrain = nuse - nheld;
    rep->samples = ntrain;
    rep->holdout = nheld;
    rep->scale = scale;
    double loss, hloss;
    if (pass(&m, s, ntrain, threads, NULL, NULL, &rep->prior_train, err) ||
        pass(&m, s + ntrain, nheld, threads, NULL, NULL, &rep->prior_holdout, err))
        goto done;
    const double b1 = 0.9, b2 = 0.999, eps = 1e-15;
    double t0 = km_now();
    int from = c->named ? 0 : NNAMED, to = c->patterns ? nparams : NNAMED;
    for (int e = 1; e <= c->epochs; e++) {
        memset(grad, 0, sizeof(double) * (size_t)nparams);
        if (pass(&m, s, ntrain, threads, tgrad, grad, &loss, err)) goto done;
        double lr =
            c->rate *
            (0.1 + 0.9 * 0.5 * (1 + cos(3.14159265358979 * (e - 1) / c->epochs))); /* cosine to a tenth */
        double c1 = 1 - pow(b1, e), c2 = 1 - pow(b2, e);
        for (int i = from; i < to; i++) {
            double g = grad[i];
            if (i < NNAMED) g += 2e-6 * c->l2 * (theta[i] - prior_theta[i]) / (double)ntrain;
            else
                g +=
                    2e-6 * c->l2_pattern * (theta[i] - (c->pull_prior ? prior_theta[i] : 0)) / (double)ntrain;
            am[i] = b1 * am[i] + (1 - b1) * g;
            av[i] = b2 * av[i] + (1 - b2) * g * g;
            theta[i] -= lr * (am[i] / c1) / (sqrt(av[i] / c2) + eps);
            if (i >= NNAMED)
                theta[i] = theta[i] > PAT_WEIGHT_MAX    ? PAT_WEIGHT_MAX
                           : theta[i] < -PAT_WEIGHT_MAX ? -PAT_WEIGHT_MAX
                                                        : theta[i];
        }
        if (pass(&m, s + ntrain, nheld, threads, NULL, NULL, &hloss, err)) goto done;
        rep->train = loss;
        rep->holdout_loss = hloss;
        if (progress) {
            FitProgress p = {e, c->epochs, loss, hloss, km_now() - t0, 0};
            p.eta = p.elapsed / e * (c->epochs - e);
            progress(&p, user);
        }
        if (stop && atomic_load(stop)) break;
    }
    if (pass(&m, s, ntrain, threads, NULL, NULL, &rep->train, err)) goto done;
    /* the result */
    Weights w = *prior;
    if (c->named) {
        for (int k = 0; k < NPAIRS; k++) {
            w.w[pair_own[k]] = round_clamp(theta[2 * k], 32767);
            w.w[pair_opp[k]] = (int16_t)-w.w[pair_own[k]];
            w.end[pair_own[k]] = round_clamp(theta[2 * k + 1], 32767);
            w.end[pair_opp[k]] = (int16_t)-w.end[pair_own[k]];
        }
        w.phased = 1;
    }
    if (c->patterns) {
        EvalPatterns *p = pat_new();
        if (!p) {
            km_fail(err, "out of memory");
            goto done;
        }
        for (int ph = 0; ph < 2; ph++)
            for (int t = 0; t < PAT_NTABLES; t++) {
                int16_t *cells = pat_cells(p, t, ph);
                for (int i = 0; i < pat_tables[t].cells; i++)
                    cells[i] = round_clamp(theta[table_at[ph][t] + i], PAT_WEIGHT_MAX);
            }
        if (!(w.pat = pat_intern(p))) {
            km_fail(err, "out of memory");
            goto done;
        }
    }
    *out = w;
    rc = 0;
done:
    for (int t = 0; t < threads; t++) free(tgrad[t]);
    free(s), free(theta), free(prior_theta), free(grad), free(am), free(av), free(use), free(held);
    return rc;
}
