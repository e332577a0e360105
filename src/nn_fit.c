/* nn_fit.c - training the network layer (nn_fit.h): floats, mini-batch
 * Adam, a checkpoint each epoch, quantisation at the end. */
#include "kingme/nn_fit.h"
#include "kingme/bits.h"
#include "kingme/movegen.h"
#include "kingme/nn.h"
#include "kingme/textio.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void nn_fit_config_default(NetFitConfig *c)
{
    memset(c, 0, sizeof *c);
    c->hidden = 64;
    c->epochs = 10;
    c->batch = 1024;
    c->rate = 0.001;
    c->l2 = 1e-4;
    c->lambda = 0.5;
    c->holdout = 0.05;
    c->min_pieces = 5;
    c->threads = 1;
    c->seed = 1;
}

#define MAXF 24 /* pieces on a board */

typedef struct NSample {
    Board b;
    float target, base; /* base: the prior's evaluation for the side to move */
    uint8_t nf;
    uint8_t f[2][MAXF]; /* the inputs of the side to move's view, then the other's */
} NSample;

/* The float network: offsets of each layer in one array. */
typedef struct Layout {
    int h;
    long w1, b1, w2, b2, w3, b3, n;
} Layout;

static Layout layout(int h)
{
    Layout l = {h, 0, 0, 0, 0, 0, 0, 0};
    l.b1 = l.w1 + (long)NN_INPUTS * h;
    l.w2 = l.b1 + h;
    l.b2 = l.w2 + (long)NN_L2 * 2 * h;
    l.w3 = l.b2 + NN_L2;
    l.b3 = l.w3 + NN_L2;
    l.n = l.b3 + 1;
    return l;
}

static void extract(const Board *b, NSample *s)
{
    s->b = *b;
    int n = 0;
    for (int v = 0; v < 2; v++) {
        int view = v ? b->stm ^ 1 : b->stm;
        n = 0;
        for (int colour = 0; colour < 2; colour++)
            for (int king = 0; king < 2; king++) {
                uint32_t x = b->pieces[colour] & (king ? b->kings : ~b->kings);
                while (x && n < MAXF) {
                    int sq = __builtin_ctz(x);
                    x &= x - 1;
                    s->f[v][n++] = (uint8_t)nn_input(view, colour, king, sq);
                }
            }
    }
    s->nf = (uint8_t)n;
}

/* The float network's output for s (in men); with grad, the gradient of g x
 * output added to it. */
static double forward(const Layout *L, const float *th, const NSample *s, float *grad, double g)
{
    int h = L->h;
    float acc[2 * NN_MAX_HIDDEN], a[2 * NN_MAX_HIDDEN], z2[NN_L2], h2[NN_L2];
    for (int v = 0; v < 2; v++) {
        float *ac = acc + v * h;
        memcpy(ac, th + L->b1, sizeof(float) * (size_t)h);
        for (int i = 0; i < s->nf; i++) {
            const float *col = th + L->w1 + (long)s->f[v][i] * h;
            for (int j = 0; j < h; j++) ac[j] += col[j];
        }
    }
    for (int j = 0; j < 2 * h; j++) a[j] = acc[j] < 0 ? 0 : acc[j] > 1 ? 1 : acc[j];
    double out = th[L->b3];
    for (int k = 0; k < NN_L2; k++) {
        const float *w = th + L->w2 + (long)k * 2 * h;
        float z = th[L->b2 + k];
        for (int j = 0; j < 2 * h; j++) z += w[j] * a[j];
        z2[k] = z;
        h2[k] = z < 0 ? 0 : z > 1 ? 1 : z;
        out += th[L->w3 + k] * h2[k];
    }
    if (!grad) return out;
    float da[2 * NN_MAX_HIDDEN];
    memset(da, 0, sizeof(float) * 2 * (size_t)h);
    grad[L->b3] += (float)g;
    for (int k = 0; k < NN_L2; k++) {
        grad[L->w3 + k] += (float)(g * h2[k]);
        if (z2[k] <= 0 || z2[k] >= 1) continue;
        float d = (float)(g * th[L->w3 + k]);
        grad[L->b2 + k] += d;
        const float *w = th + L->w2 + (long)k * 2 * h;
        float *gw = grad + L->w2 + (long)k * 2 * h;
        for (int j = 0; j < 2 * h; j++) {
            gw[j] += d * a[j];
            da[j] += d * w[j];
        }
    }
    for (int j = 0; j < 2 * h; j++)
        if (acc[j] <= 0 || acc[j] >= 1) da[j] = 0;
    for (int v = 0; v < 2; v++) {
        const float *d = da + v * h;
        float *gb = grad + L->b1;
        for (int j = 0; j < h; j++) gb[j] += d[j];
        for (int i = 0; i < s->nf; i++) {
            float *gc = grad + L->w1 + (long)s->f[v][i] * h;
            for (int j = 0; j < h; j++) gc[j] += d[j];
        }
    }
    return out;
}

/* ---- a pass over samples, on fixed shares per thread ---------------------- */

typedef struct Share {
    const Layout *L;
    const float *th;
    const NSample *s;
    const uint32_t *idx; /* the samples' order (NULL: as they are) */
    size_t from, to;
    double scale;
    float *grad; /* NULL: the loss only */
    double loss;
} Share;

static void *share_run(void *arg)
{
    Share *p = arg;
    double loss = 0;
    if (p->grad) memset(p->grad, 0, sizeof(float) * (size_t)p->L->n);
    for (size_t i = p->from; i < p->to; i++) {
        const NSample *s = &p->s[p->idx ? p->idx[i] : i];
        double out = forward(p->L, p->th, s, NULL, 0);
        double q = fit_sigmoid((s->base + NN_OUT_SCALE * out) / p->scale);
        loss += fit_cross_entropy(q, s->target);
        if (p->grad) forward(p->L, p->th, s, p->grad, (q - s->target) * NN_OUT_SCALE / p->scale);
    }
    p->loss = loss;
    return NULL;
}

/* The summed loss over [from, to) of idx (or of s) and, with grads, the
 * summed gradient in grads[0]; the shares added in thread order. */
static double run_shares(const Layout *L, const float *th, const NSample *s, const uint32_t *idx, size_t from,
                         size_t to, double scale, int threads, float **grads)
{
    Share p[64];
    pthread_t tid[64];
    bool started[64] = {false};
    size_t n = to - from;
    if ((size_t)threads > n) threads = n ? (int)n : 1;
    for (int t = 0; t < threads; t++) {
        p[t] = (Share){L,
                       th,
                       s,
                       idx,
                       from + n * (size_t)t / (size_t)threads,
                       from + n * (size_t)(t + 1) / (size_t)threads,
                       scale,
                       grads ? grads[t] : NULL,
                       0};
        if (t > 0) started[t] = pthread_create(&tid[t], NULL, share_run, &p[t]) == 0;
    }
    share_run(&p[0]);
    for (int t = 1; t < threads; t++) {
        if (started[t]) pthread_join(tid[t], NULL);
        else share_run(&p[t]);
    }
    double loss = 0;
    for (int t = 0; t < threads; t++) {
        loss += p[t].loss;
        if (grads && t > 0)
            for (long i = 0; i < L->n; i++) grads[0][i] += grads[t][i];
    }
    return loss;
}

/* ---- the checkpoint --------------------------------------------------------- */

#define CKPT_MAGIC "KMNNCKP1"

typedef struct CkptHead {
    char magic[8];
    uint64_t key; /* the configuration and the data */
    int32_t epoch, hidden;
    int64_t nparams;
} CkptHead;

static int ckpt_write(const char *path, const CkptHead *hd, const float *th, const float *m, const float *v,
                      char *err)
{
    size_t n = (size_t)hd->nparams, len = sizeof *hd + 3 * n * sizeof(float) + 4;
    char *buf = malloc(len);
    if (!buf) return km_fail(err, "%s: out of memory", path);
    memcpy(buf, hd, sizeof *hd);
    memcpy(buf + sizeof *hd, th, n * sizeof(float));
    memcpy(buf + sizeof *hd + n * sizeof(float), m, n * sizeof(float));
    memcpy(buf + sizeof *hd + 2 * n * sizeof(float), v, n * sizeof(float));
    uint32_t crc = textio_crc32(0, buf, len - 4);
    memcpy(buf + len - 4, &crc, 4);
    int rc = textio_write_atomic(path, buf, len, err);
    free(buf);
    return rc;
}

/* 1: read (the epoch in hd), 0: no such file, -1: error (another fit's, or
 * damaged). */
static int ckpt_read(const char *path, CkptHead *hd, uint64_t key, float *th, float *m, float *v, char *err)
{
    if (access(path, F_OK) != 0) return 0;
    size_t n = (size_t)hd->nparams, len = sizeof *hd + 3 * n * sizeof(float) + 4, got = 0;
    KmReadOpts opts = {.max_bytes = len, .too_large = "not a checkpoint of this network (too large)"};
    char *buf = textio_read_text(path, &opts, &got, err); /* a regular file only, bounded */
    if (!buf) return -1;
    CkptHead h;
    if (got != len || memcmp(buf, CKPT_MAGIC, 8)) {
        free(buf);
        return km_fail(err, "%s: not a checkpoint of this network (%zu bytes); delete it to start again",
                       path, got);
    }
    uint32_t crc;
    memcpy(&crc, buf + len - 4, 4);
    memcpy(&h, buf, sizeof h);
    if (crc != textio_crc32(0, buf, len - 4)) {
        free(buf);
        return km_fail(err, "%s: damaged checkpoint (checksum); delete it to start again", path);
    }
    if (h.key != key || h.hidden != hd->hidden || h.nparams != hd->nparams) {
        free(buf);
        return km_fail(
            err, "%s: a checkpoint of another fit (other data or options); delete it to start again", path);
    }
    memcpy(th, buf + sizeof h, n * sizeof(float));
    memcpy(m, buf + sizeof h + n * sizeof(float), n * sizeof(float));
    memcpy(v, buf + sizeof h + 2 * n * sizeof(float), n * sizeof(float));
    *hd = h;
    free(buf);
    return 1;
}

/* ---- quantisation ------------------------------------------------------------ */

static int32_t q(double x, double unit, int32_t lim)
{
    double r = nearbyint(x * unit);
    return (int32_t)(r > lim ? lim : r < -lim ? -lim : r);
}

static EvalNet *quantise(const Layout *L, const float *th)
{
    EvalNet *n = nn_new(L->h);
    if (!n) return NULL;
    int h = L->h;
    for (int i = 0; i < NN_INPUTS; i++)
        for (int j = 0; j < h; j++) n->w1[i][j] = (int16_t)q(th[L->w1 + (long)i * h + j], NN_QA, NN_W1_MAX);
    for (int j = 0; j < h; j++) n->b1[j] = (int16_t)q(th[L->b1 + j], NN_QA, NN_W1_MAX);
    for (int k = 0; k < NN_L2; k++) {
        for (int j = 0; j < 2 * h; j++)
            n->w2[k][j] = (int16_t)q(th[L->w2 + (long)k * 2 * h + j], NN_QB, 32767);
        n->b2[k] = q(th[L->b2 + k], NN_QA * NN_QB, nn_layer_max(NN_B2));
        n->w3[k] = (int16_t)q(th[L->w3 + k], NN_QB, 32767);
    }
    n->b3 = q(th[L->b3], NN_QA * NN_QB, nn_layer_max(NN_B3));
    return n;
}

/* ---- the fit ------------------------------------------------------------------ */

static double quant_loss(const EvalNet *net, const NSample *s, size_t n, double scale)
{
    double l = 0;
    for (size_t i = 0; i < n; i++) {
        double v = s[i].base + nn_eval(net, &s[i].b, s[i].b.stm);
        l += fit_cross_entropy(fit_sigmoid(v / scale), s[i].target);
    }
    return n ? l / (double)n : -1;
}

int nn_fit_run(const NetFitConfig *c, const SelfplayData *data, const Weights *prior_in, Weights *out,
               NetFitReport *rep, FitProgressFn progress, void *user, const atomic_bool *stop, char *err)
{
    memset(rep, 0, sizeof *rep);
    if (c->hidden < 16 || c->hidden > NN_MAX_HIDDEN || c->hidden % 16)
        return km_fail(err, "a network of %d units (16..%d, a multiple of 16)", c->hidden, NN_MAX_HIDDEN);
    int threads = c->threads < 1 ? 1 : c->threads > 64 ? 64 : c->threads;
    int batch = c->batch < 1 ? 1 : c->batch;
    Weights prior = *prior_in;
    prior.net = NULL;
    /* the samples and the held-out games: as fit_run chooses them */
    FitSamples fs;
    if (fit_samples(data, c->seed, c->holdout, c->min_pieces, c->max_pieces, &fs, err)) return -1;
    bool *use = fs.use, *held = fs.held;
    size_t nuse = fs.nuse, nheld = fs.nheld;
    rep->games = fs.games;
    double scale = fit_scale(data, use);
    Layout L = layout(c->hidden);
    size_t ntrain = nuse - nheld;
    NSample *s = malloc(nuse * sizeof *s);
    uint32_t *idx = malloc(ntrain * sizeof *idx);
    float *th = calloc((size_t)L.n, sizeof *th), *am = calloc((size_t)L.n, sizeof *am);
    float *av = calloc((size_t)L.n, sizeof *av);
    float *grads[64] = {0};
    int ok = s && idx && th && am && av;
    for (int t = 0; ok && t < threads; t++) ok = (grads[t] = malloc(sizeof(float) * (size_t)L.n)) != NULL;
    int rc = -1;
    EvalNet *net = NULL;
    if (!ok) {
        km_fail(err, "out of memory (%zu samples, a network of %ld weights)", nuse, L.n);
        goto done;
    }
    /* the data's key: the samples' boards and targets, for the checkpoint */
    uint64_t key = km_mix64(0x6E6E666974ull ^ (uint64_t)c->hidden);
    EvalTable ptab;
    eval_table_init(&ptab, &prior);
    double lnet = 0; /* the held-out loss with the prior's own network, if any */
    size_t nt = 0, nh = ntrain;
    for (size_t i = 0; i < data->n; i++) {
        if (!use[i]) continue;
        NSample *x = &s[held[i] ? nh++ : nt++];
        extract(&data->pos[i].b, x);
        x->target = (float)fit_target(&data->pos[i], c->lambda, scale);
        x->base = (float)eval_score(&x->b, x->b.stm, &ptab);
        if (prior_in->net && held[i])
            lnet += fit_cross_entropy(
                fit_sigmoid((x->base + nn_eval(prior_in->net, &x->b, x->b.stm)) / scale), x->target);
        key = km_mix64(key ^ board_hash(&x->b) ^ (uint64_t)(x->target * 1e6) ^
                       ((uint64_t)(int32_t)x->base << 32));
    }
    const double cfg[] = {(double)c->epochs, (double)batch, c->rate, c->l2, (double)threads, (double)c->seed};
    for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++) {
        uint64_t u;
        memcpy(&u, &cfg[i], 8);
        key = km_mix64(key ^ u);
    }
    rep->samples = ntrain;
    rep->holdout = nheld;
    rep->scale = scale;
    /* the prior's losses: the network's output 0 */
    double lp = 0, lh = 0;
    for (size_t i = 0; i < nuse; i++) {
        double l = fit_cross_entropy(fit_sigmoid(s[i].base / scale), s[i].target);
        if (i < ntrain) lp += l;
        else lh += l;
    }
    rep->prior_train = lp / (double)ntrain;
    rep->prior_holdout = nheld ? lh / (double)nheld : -1;
    rep->prior_net_holdout = prior_in->net && nheld ? lnet / (double)nheld : -1;
    /* the start, drawn from the seed: units in their linear range, a small output */
    uint64_t rng = km_mix64(c->seed ^ 0x6E6E696E6974ull);
#define UNIFORM(a) ((float)(((double)(km_rng_next(&rng) >> 11) * 0x1.0p-53 * 2 - 1) * (a)))
    for (long i = 0; i < NN_INPUTS * (long)L.h; i++) th[L.w1 + i] = UNIFORM(0.1);
    for (int j = 0; j < L.h; j++) th[L.b1 + j] = 0.5f;
    for (long i = 0; i < NN_L2 * 2 * (long)L.h; i++) th[L.w2 + i] = UNIFORM(1.0 / sqrt(2.0 * L.h));
    for (int k = 0; k < NN_L2; k++) th[L.b2 + k] = 0.25f, th[L.w3 + k] = UNIFORM(0.05);
#undef UNIFORM
    CkptHead hd = {CKPT_MAGIC, key, 0, L.h, L.n};
    int first = 1;
    if (c->checkpoint) {
        int r = ckpt_read(c->checkpoint, &hd, key, th, am, av, err);
        if (r < 0) goto done;
        if (r > 0) first = hd.epoch + 1, rep->resumed_from = hd.epoch;
    }
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    long steps = (long)((ntrain + (size_t)batch - 1) / (size_t)batch);
    double t0 = km_now();
    double hloss = -1, tloss = 0;
    for (int e = first; e <= c->epochs; e++) {
        /* the order of this epoch: from the seed and the epoch alone */
        uint64_t r = km_mix64(c->seed ^ km_mix64(0x73687566ull + (uint64_t)e));
        for (size_t i = 0; i < ntrain; i++) idx[i] = (uint32_t)i;
        for (size_t i = ntrain - 1; i > 0; i--) {
            size_t j = (size_t)(km_rng_next(&r) % (i + 1));
            uint32_t x = idx[i];
            idx[i] = idx[j], idx[j] = x;
        }
        double lr = c->rate * (0.1 + 0.9 * 0.5 * (1 + cos(3.14159265358979 * (e - 1) / c->epochs)));
        double sum = 0;
        for (long st = 0; st < steps; st++) {
            size_t from = (size_t)st * (size_t)batch, to = from + (size_t)batch;
            if (to > ntrain) to = ntrain;
            sum += run_shares(&L, th, s, idx, from, to, scale, threads, grads);
            long step = (long)(e - 1) * steps + st + 1;
            double c1 = 1 - pow(b1, (double)step), c2 = 1 - pow(b2, (double)step);
            double inv = 1.0 / (double)(to - from), decay = 2 * c->l2;
            for (long i = 0; i < L.n; i++) {
                double g = grads[0][i] * inv + decay * th[i];
                am[i] = (float)(b1 * am[i] + (1 - b1) * g);
                av[i] = (float)(b2 * av[i] + (1 - b2) * g * g);
                th[i] -= (float)(lr * (am[i] / c1) / (sqrt(av[i] / c2) + eps));
            }
        }
        tloss = sum / (double)ntrain;
        hloss = nheld ? run_shares(&L, th, s, NULL, ntrain, nuse, scale, threads, NULL) / (double)nheld : -1;
        rep->epochs_done = e;
        if (c->checkpoint) {
            hd.epoch = e;
            if (ckpt_write(c->checkpoint, &hd, th, am, av, err)) goto done;
        }
        if (progress) {
            FitProgress p = {e, c->epochs, tloss, hloss, km_now() - t0, 0};
            p.eta = p.elapsed / (e - first + 1) * (c->epochs - e);
            progress(&p, user);
        }
        if (stop && atomic_load(stop)) break;
    }
    rep->train = run_shares(&L, th, s, NULL, 0, ntrain, scale, threads, NULL) / (double)ntrain;
    rep->holdout_loss =
        nheld ? run_shares(&L, th, s, NULL, ntrain, nuse, scale, threads, NULL) / (double)nheld : -1;
    if (!(net = quantise(&L, th))) {
        km_fail(err, "out of memory");
        goto done;
    }
    net->max_pieces = c->max_pieces;
    nn_finish(net);
    rep->quant_train = quant_loss(net, s, ntrain, scale);
    rep->quant_holdout = quant_loss(net, s + ntrain, nheld, scale);
    prior.net = nn_intern(net);
    net = NULL;
    if (!prior.net) {
        km_fail(err, "out of memory");
        goto done;
    }
    *out = prior;
    rc = 0;
done:
    free(net);
    for (int t = 0; t < threads; t++) free(grads[t]);
    free(s), free(idx), free(th), free(am), free(av), free(use), free(held);
    return rc;
}
