/* fit_eval.c - fits an evaluation's weights to positions: logistic
 * regression of a target on the evaluation, solved by Newton's method. The
 * target is the game's result ("Texel tuning") or, with --label-depth, the
 * prior vector's own search score (this made weights/default.w;
 * docs/devlog.md, "Evaluation terms beyond the 60").
 *
 *   make tools/fit_eval
 *   tools/fit_eval [options] GAMES.pdn... > CHANGES.txt
 *
 * Samples: every position of every game with a result (1-0, 0-1, 1/2-1/2),
 * from ply --min-ply on (default 10), where the side to move has no capture
 * (a capture is forced, the position is not quiet): the terms of
 * eval_features_all for the side to move, and the game's result for it (1,
 * 1/2, 0). Positions with --max-pieces or fewer pieces are left out (default
 * 0: none). With --label-depth D, one sample in --every N is kept and its
 * target becomes 1 / (1 + exp(-v / 1000)), v the prior's depth-D search
 * score for the side to move (first tie-break, a 16 MB table per thread,
 * two threads; --label-k changes the 1000).
 *
 * The model: P = 1 / (1 + exp(-s / K)), s the evaluation for the side to
 * move with antisymmetric weights (each opp_ weight minus its own_ twin, as
 * the learn GA breeds them), so that one sample serves both sides. K is first
 * fitted to the prior vector (-w, default weights/default.w) alone; then the
 * free weights minimise the cross-entropy plus --lambda x (w - prior)^2 / 1e6
 * a sample (a pull towards the prior, default 1; 0.0001 made the default).
 * Eight Newton steps (--iters). Free weights: the 60 (--terms 60, default),
 * all 74 (--terms 74) or the 14 new ones alone (--new-only; the 60 keep the
 * prior's values); --phase fits an opening and an ending vector (each term
 * times t/16 and (16 - t)/16, docs/file-formats.md "the phase"); the rest keep the prior's
 * values. The result is written to -o FILE (temporary name, then renamed);
 * with --men M every weight is first scaled so that own_men is M (the
 * search's margins are set for a man of 1000), else K keeps the prior's
 * scale. --drop NAME (any number of times) takes the pair of NAME out: not
 * free, and 0 in both vectors of the result (the labels still come from the
 * prior as it is); that is how a term is measured by a refit without it.
 * --labels FILE keeps the search's labels: read from FILE if it exists and
 * was made from the same positions, prior, depth, --every and --label-k,
 * else computed and written there, so
 * that several fits on the same positions label them once. Standard output:
 * each free weight, prior -> fitted; standard error: the counts and the loss
 * after each step. */
#include "kingme/bits.h"
#include "kingme/eval.h"
#include "kingme/movegen.h"
#include "kingme/pdn.h"
#include "kingme/search.h"
#include "kingme/textio.h"
#include "kingme/weights.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 40 /* pairs */
#define MAXV (2 * MAXP)

static int npairs, own_of[MAXP], opp_of[MAXP];
static int nvar; /* npairs, or 2 * npairs with a phase */

typedef struct Sample {
    int16_t d[MAXP]; /* own - opp of each free pair, for the side to move */
    uint8_t t;       /* eval_phase */
    float y;         /* the target for the side to move: the result (0, 1/2, 1),
                      * or with --label-depth the search's score as a probability */
    int32_t fixed;   /* the evaluation of the terms not fitted (prior weights) */
    Board b;
} Sample;

static Sample *S;
static size_t ns, cap;

static void x_of(const Sample *s, double *x)
{
    for (int k = 0; k < npairs; k++) {
        if (nvar == npairs) {
            x[k] = s->d[k];
        } else {
            x[k] = s->d[k] * (double)s->t / EVAL_PHASE_SPAN;
            x[npairs + k] = s->d[k] * (double)(EVAL_PHASE_SPAN - s->t) / EVAL_PHASE_SPAN;
        }
    }
}

/* mean cross-entropy at weights v, scale K */
static double loss(const double *v, double K)
{
    double sum = 0, x[MAXV];
    for (size_t i = 0; i < ns; i++) {
        x_of(&S[i], x);
        double s = S[i].fixed;
        for (int k = 0; k < nvar; k++) s += v[k] * x[k];
        double p = 1 / (1 + exp(-s / K)), y = S[i].y;
        p = p < 1e-12 ? 1e-12 : p > 1 - 1e-12 ? 1 - 1e-12 : p;
        sum -= y * log(p) + (1 - y) * log(1 - p);
    }
    return sum / (double)ns;
}

/* solve A x = b (n x n, Gaussian elimination with partial pivoting) */
static int solve(int n, double A[MAXV][MAXV], double *b)
{
    for (int c = 0; c < n; c++) {
        int piv = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(A[r][c]) > fabs(A[piv][c])) piv = r;
        if (fabs(A[piv][c]) < 1e-18) return -1;
        for (int k = 0; k < n; k++) { double t = A[c][k]; A[c][k] = A[piv][k]; A[piv][k] = t; }
        double t = b[c]; b[c] = b[piv]; b[piv] = t;
        for (int r = 0; r < n; r++) {
            if (r == c) continue;
            double f = A[r][c] / A[c][c];
            for (int k = c; k < n; k++) A[r][k] -= f * A[c][k];
            b[r] -= f * b[c];
        }
    }
    for (int c = 0; c < n; c++) b[c] /= A[c][c];
    return 0;
}

/* --label-depth D: each sample's target becomes 1 / (1 + exp(-v / LK)), v
 * the prior's depth-D search score for the side to move (clamped to +-LK x
 * 8; proven results are taken as that bound), on two threads. Only every
 * --every-th sample is kept (the searches cost). */
typedef struct Job { const Weights *w; int depth; double lk; size_t from, to; } Job;

static void *label_job(void *arg)
{
    Job *j = arg;
    Searcher sr;
    char err[KM_ERR_MAX];
    if (searcher_init(&sr, j->w, 16, 1, err)) { fprintf(stderr, "fit_eval: %s\n", err); exit(1); }
    searcher_set_tiebreak(&sr, TIEBREAK_FIRST);
    for (size_t i = j->from; i < j->to; i++) {
        SearchLimits lim;
        search_limits_default(&lim);
        lim.depth = j->depth;
        SearchResult r;
        if (search_run(&sr, &S[i].b, NULL, 0, 0, &lim, &r, NULL, NULL)) { fprintf(stderr, "fit_eval: out of memory\n"); exit(1); }
        double v = r.score, lim8 = 8 * j->lk;
        v = v > lim8 ? lim8 : v < -lim8 ? -lim8 : v;
        S[i].y = (float)(1 / (1 + exp(-v / j->lk)));
    }
    searcher_free(&sr);
    return NULL;
}

/* What a labels file was made from: the count, the depth, --every,
 * --label-k, the prior's weights and the samples' positions (FNV-1a), so
 * that a file from other games or another prior is not taken. */
static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static void label_key(const Weights *w, int depth, double lk, int every, uint64_t key[5])
{
    uint64_t h = fnv1a(1469598103934665603ull, w, sizeof *w), hb = 1469598103934665603ull;
    for (size_t i = 0; i < ns; i++) hb = fnv1a(hb, &S[i].b, sizeof S[i].b);
    key[0] = ns;
    key[1] = (uint64_t)depth << 32 | (uint32_t)every;
    key[2] = (uint64_t)llround(lk * 1000);
    key[3] = h;
    key[4] = hb;
}

static void label_by_search(const Weights *w, int depth, double lk, int every, const char *cache)
{
    size_t n = 0;
    for (size_t i = 0; i < ns; i += (size_t)every) S[n++] = S[i];
    ns = n;
    uint64_t key[5], got[5];
    label_key(w, depth, lk, every, key);
    FILE *f = cache ? fopen(cache, "rb") : NULL;
    if (f) {
        float *y = NULL;
        int ok = fread(got, sizeof got, 1, f) == 1 && !memcmp(got, key, sizeof key) &&
                 (y = malloc(ns * sizeof *y)) && fread(y, sizeof *y, ns, f) == ns;
        fclose(f);
        if (ok) {
            for (size_t i = 0; i < ns; i++) S[i].y = y[i];
            free(y);
            fprintf(stderr, "fit_eval: %zu labels read from %s\n", ns, cache);
            return;
        }
        free(y);
        fprintf(stderr, "fit_eval: %s holds other labels (positions, prior, depth or --every): labelling again\n", cache);
    }
    pthread_t t[2];
    Job j[2] = {{w, depth, lk, 0, ns / 2}, {w, depth, lk, ns / 2, ns}};
    for (int k = 0; k < 2; k++)
        if (pthread_create(&t[k], NULL, label_job, &j[k])) {
            fprintf(stderr, "fit_eval: cannot start a thread\n");
            exit(1);
        }
    for (int k = 0; k < 2; k++) pthread_join(t[k], NULL);
    fprintf(stderr, "fit_eval: %zu positions labelled by depth-%d searches\n", ns, depth);
    if (!cache) return;
    size_t len = sizeof key + ns * sizeof(float);
    char *buf = malloc(len), err[KM_ERR_MAX];
    if (!buf) { fprintf(stderr, "fit_eval: out of memory\n"); return; }
    memcpy(buf, key, sizeof key);
    for (size_t i = 0; i < ns; i++) memcpy(buf + sizeof key + i * sizeof(float), &S[i].y, sizeof(float));
    if (km_write_atomic(cache, buf, len, err)) fprintf(stderr, "fit_eval: %s\n", err);
    free(buf);
}

static void usage(void)
{
    fprintf(stderr, "usage: fit_eval [-w PRIOR.w] [-o OUT.w] [--terms 60|74] [--new-only] [--phase] [--min-ply N] "
                    "[--max-pieces N] [--lambda L] [--iters N] [--men M] [--label-depth D [--label-k K] [--every N] [--labels FILE]] [--drop NAME]... GAMES.pdn...\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *prior_path = "weights/default.w", *out = NULL;
    int terms = 60, phase = 0, min_ply = 10, max_pieces = 0, iters = 8, men = 0, new_only = 0, label_depth = 0, every = 1;
    double label_k = 1000;
    double lambda = 1.0;
    const char *labels = NULL;
    int dropped[EVAL_NTERMS] = {0};
    int a = 1;
    for (; a < argc && argv[a][0] == '-'; a++) {
        const char *o = argv[a];
        if (!strcmp(o, "--phase")) { phase = 1; continue; }
        if (!strcmp(o, "--new-only")) { new_only = 1; continue; }
        if (a + 1 >= argc) usage();
        const char *v = argv[++a];
        if (!strcmp(o, "-w")) prior_path = v;
        else if (!strcmp(o, "-o")) out = v;
        else if (!strcmp(o, "--terms")) terms = atoi(v);
        else if (!strcmp(o, "--min-ply")) min_ply = atoi(v);
        else if (!strcmp(o, "--max-pieces")) max_pieces = atoi(v);
        else if (!strcmp(o, "--lambda")) lambda = atof(v);
        else if (!strcmp(o, "--iters")) iters = atoi(v);
        else if (!strcmp(o, "--men")) men = atoi(v);
        else if (!strcmp(o, "--label-depth")) label_depth = atoi(v);
        else if (!strcmp(o, "--label-k")) label_k = atof(v);
        else if (!strcmp(o, "--every")) every = atoi(v);
        else if (!strcmp(o, "--labels")) labels = v;
        else if (!strcmp(o, "--drop")) {
            int i = 0;
            while (i < EVAL_NTERMS && strcmp(eval_params[i].name, v)) i++;
            if (i == EVAL_NTERMS || eval_term_partner(i) < 0) {
                fprintf(stderr, "fit_eval: --drop: no own/opp term '%s'\n", v);
                return 2;
            }
            dropped[i] = dropped[eval_term_partner(i)] = 1;
        }
        else usage();
    }
    if (a >= argc || (terms != 60 && terms != 74) || every < 1 || label_depth < 0 || iters < 0 || men < 0 ||
        label_k <= 0 || lambda < 0)
        usage();
    char err[KM_ERR_MAX];
    Weights prior;
    if (weights_read(&prior, prior_path, NULL, err)) {
        fprintf(stderr, "fit_eval: %s\n", err);
        return 1;
    }
    if (prior.phased && !phase) {
        fprintf(stderr, "fit_eval: %s has a phase: give --phase\n", prior_path);
        return 1;
    }
    /* the own/opp pairs among the free terms */
    if (new_only) terms = EVAL_NTERMS;
    for (int i = new_only ? EVAL_NPARAMS : 0; i < terms; i++) {
        int j = eval_term_partner(i);
        if (j < 0 || j >= terms || dropped[i]) continue;
        own_of[npairs] = i;
        opp_of[npairs] = j;
        npairs++;
    }
    nvar = phase ? 2 * npairs : npairs;
    /* the prior's values of the free weights, as antisymmetric pairs */
    double v[MAXV] = {0}, v0[MAXV] = {0};
    for (int k = 0; k < npairs; k++) {
        v0[k] = (prior.w[own_of[k]] - prior.w[opp_of[k]]) / 2.0;
        if (phase) v0[npairs + k] = prior.phased ? (prior.end[own_of[k]] - prior.end[opp_of[k]]) / 2.0 : v0[k];
    }
    memcpy(v, v0, sizeof v);
    Weights rest = prior; /* the prior with the free weights zeroed: the fixed part */
    for (int k = 0; k < npairs; k++) {
        rest.w[own_of[k]] = rest.w[opp_of[k]] = 0;
        rest.end[own_of[k]] = rest.end[opp_of[k]] = 0;
    }
    if (phase && !rest.phased) {
        memcpy(rest.end, rest.w, sizeof rest.end);
        rest.phased = 1;
    }
    for (int i = 0; i < EVAL_NTERMS; i++)
        if (dropped[i]) rest.w[i] = rest.end[i] = 0;
    long games = 0, skipped = 0;
    for (; a < argc; a++) {
        PdnGame *pg;
        int ng;
        if (pdn_read_file(argv[a], &pg, &ng, err)) {
            fprintf(stderr, "fit_eval: %s\n", err);
            return 1;
        }
        for (int gi = 0; gi < ng; gi++) {
            const Game *g = &pg[gi].game;
            const char *r = pg[gi].result;
            int yb = !strcmp(r, "1-0") || !strcmp(r, "2-0") ? 2 : !strcmp(r, "0-1") || !strcmp(r, "0-2") ? 0 : !strcmp(r, "1/2-1/2") || !strcmp(r, "1-1") ? 1 : -1;
            if (pg[gi].error || yb < 0) { skipped++; continue; }
            games++;
            /* PDN results are Black's first ("1-0": Black won) */
            Board b = g->start;
            for (int p = 0; p < g->nply; make_move(&b, &g->moves[p]), p++) {
                if (p < min_ply || mg_can_capture(&b, b.stm)) continue;
                int pieces = popcount32(board_occupied(&b));
                if (pieces <= max_pieces) continue;
                if (ns == cap) {
                    cap = cap ? 2 * cap : 1 << 16;
                    S = realloc(S, cap * sizeof *S);
                    if (!S) { fprintf(stderr, "fit_eval: out of memory\n"); return 1; }
                }
                Sample *s = &S[ns++];
                int f[EVAL_NTERMS];
                eval_features_all(&b, b.stm, f);
                for (int k = 0; k < npairs; k++) s->d[k] = (int16_t)(f[own_of[k]] - f[opp_of[k]]);
                s->t = (uint8_t)eval_phase(pieces);
                s->y = (float)(b.stm == KM_BLACK ? yb : 2 - yb) / 2;
                s->b = b;
                s->fixed = eval_dot_all(f, &rest);
            }
        }
        pdn_free_games(pg, ng);
    }
    fprintf(stderr, "fit_eval: %ld games (%ld skipped), %zu positions, %d pairs, %d weights free\n", games, skipped, ns,
            npairs, nvar);
    if (ns == 0) {
        fprintf(stderr, "fit_eval: no positions to fit (games with a result, from ply %d on)\n", min_ply);
        return 1;
    }
    if (label_depth > 0) label_by_search(&prior, label_depth, label_k, every, labels);
    /* K for the prior: golden-section search on log K */
    double lo = log(50), hi = log(20000);
    for (int it = 0; it < 40; it++) {
        double m1 = lo + (hi - lo) * 0.382, m2 = lo + (hi - lo) * 0.618;
        if (loss(v, exp(m1)) < loss(v, exp(m2))) hi = m2; else lo = m1;
    }
    double K = exp((lo + hi) / 2);
    double l0 = loss(v, K);
    fprintf(stderr, "fit_eval: K %.1f, prior loss %.6f\n", K, l0);
    double reg = lambda / 1e6;
    for (int it = 0; it < iters; it++) {
        static double H[MAXV][MAXV];
        double g[MAXV] = {0}, x[MAXV];
        memset(H, 0, sizeof H);
        for (size_t i = 0; i < ns; i++) {
            x_of(&S[i], x);
            double s = S[i].fixed;
            for (int k = 0; k < nvar; k++) s += v[k] * x[k];
            double p = 1 / (1 + exp(-s / K)), y = S[i].y;
            double e = (p - y) / K, h = p * (1 - p) / (K * K);
            for (int k = 0; k < nvar; k++) {
                if (x[k] == 0) continue;
                g[k] += e * x[k];
                double hx = h * x[k];
                for (int j = 0; j <= k; j++) H[k][j] += hx * x[j];
            }
        }
        for (int k = 0; k < nvar; k++) {
            g[k] = g[k] / (double)ns + 2 * reg * (v[k] - v0[k]);
            for (int j = 0; j <= k; j++) {
                H[k][j] /= (double)ns;
                H[j][k] = H[k][j];
            }
            H[k][k] += 2 * reg;
        }
        if (solve(nvar, H, g)) { fprintf(stderr, "fit_eval: singular\n"); return 1; }
        for (int k = 0; k < nvar; k++) v[k] -= g[k];
        fprintf(stderr, "fit_eval: iteration %d: loss %.6f\n", it + 1, loss(v, K));
    }
    double fin = loss(v, K);
    if (men > 0) { /* every weight times men / own_men (the prior's fixed ones too): the scale the search's margins expect */
        double man = prior.w[EP_own_men];
        for (int k = 0; k < npairs; k++)
            if (own_of[k] == EP_own_men) man = v[k];
        double f = men / man;
        for (int k = 0; k < nvar; k++) v[k] *= f;
        for (int i = 0; i < EVAL_NTERMS; i++) {
            prior.w[i] = (int16_t)lround(prior.w[i] * f);
            prior.end[i] = (int16_t)lround(prior.end[i] * f);
        }
        K *= f;
    }
    Weights w = prior;
    if (phase && !w.phased) {
        memcpy(w.end, w.w, sizeof w.end);
        w.phased = 1;
    }
    for (int i = 0; i < EVAL_NTERMS; i++)
        if (dropped[i]) w.w[i] = w.end[i] = 0;
    for (int k = 0; k < nvar; k++) {
        int kk = k % npairs;
        double c = v[k] > 32000 ? 32000 : v[k] < -32000 ? -32000 : v[k];
        int16_t *own = k < npairs ? &w.w[own_of[kk]] : &w.end[own_of[kk]];
        int16_t *opp = k < npairs ? &w.w[opp_of[kk]] : &w.end[opp_of[kk]];
        *own = (int16_t)lround(c);
        *opp = (int16_t)-lround(c);
        printf("%-28s %8.1f -> %8.1f%s\n", eval_params[own_of[kk]].name, v0[k], v[k], k < npairs ? "" : "  (end)");
    }
    if (out) {
        char com[512];
        snprintf(com, sizeof com, "fitted by tools/fit_eval from %s: %zu positions, K %.1f, loss %.6f -> %.6f", prior_path,
                 ns, K, l0, fin);
        if (weights_write(&w, out, com, err)) {
            fprintf(stderr, "fit_eval: %s\n", err);
            return 1;
        }
    }
    return 0;
}
