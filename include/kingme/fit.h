/* fit.h - fits the evaluation's weights to self-play positions (kingme fit):
 * logistic regression of each position's target on its evaluation.
 *
 * Samples: the positions of selfplay.h where the side to move has no capture
 * (a quiet position: the evaluation is what the search meets at its leaves)
 * and more than min_pieces pieces are on the board (fewer: the endgame
 * database answers, the evaluation is never asked). A sample's target, for
 * the side to move, mixes the game's result r (0, 1/2, 1) and the search's
 * score v: lambda r + (1 - lambda) sigmoid(v / K).
 *
 * The model: p = sigmoid(s / K), s the evaluation for the side to move: the
 * named terms (eval.h) with each opp_ weight the negative of its own_ twin, in
 * two phases, plus the pattern layer (patterns.h), which is antisymmetric by
 * construction. K is the scale of the scores: fitted first, so that
 * sigmoid(v / K) predicts the results best, it keeps the evaluation in the
 * prior's units (a man about 1000). The loss, the cross-entropy summed over
 * the samples plus l2 x sum (w - prior)^2 / 1e6 over the named weights and
 * l2_pattern x sum w^2 / 1e6 over the pattern weights (w - prior with
 * pull_prior: a fit of new games that keeps what the prior's layer learnt
 * from others where they say nothing; so l2 counts like
 * samples: a cell seen in fewer than about 7 x l2_pattern samples stays near
 * 0), divided by the samples, is minimised by full-batch Adam; each
 * thread sums the gradient of its own fixed share of the samples and the
 * shares are added in one order, so a fit is the same for a given seed and
 * thread count. A held-out share of the games (by game, drawn from the seed)
 * is not fitted; its loss is reported. Library code: nothing prints. */
#ifndef KINGME_FIT_H
#define KINGME_FIT_H

#include "kingme/eval.h"
#include "kingme/selfplay.h"

#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct FitConfig {
    double lambda;     /* weight of the game's result in the target (0: the score alone) */
    double l2;         /* the pull of the named weights towards the prior */
    double l2_pattern; /* the pull of the pattern weights towards 0 */
    double rate;       /* Adam's step, evaluation units */
    int epochs;        /* full passes */
    double holdout;    /* share of the games held out, 0..0.5 */
    int min_pieces;    /* samples need more pieces than this */
    int max_pieces;    /* and at most this many (0: no limit) */
    bool named;        /* fit the named weights (else they keep the prior's) */
    bool patterns;     /* fit a pattern layer (else none, or the prior's kept) */
    bool pull_prior;   /* the pattern weights are pulled towards the prior's, not 0 */
    int threads;
    uint64_t seed;
} FitConfig;

void fit_config_default(FitConfig *c);

/* The samples of a fit, chosen once for every model that kingme fit trains
 * (the weights here, the network in nn_fit.h): use[i], position i is quiet
 * and has more than min_pieces pieces (and at most max_pieces when it is
 * not 0); held[i], its game is held out (drawn
 * from seed, a share holdout of the games). Both malloc'd (free them).
 * Returns 0, or -1 with err (out of memory, or no position left to fit). */
typedef struct FitSamples {
    bool *use, *held;
    size_t nuse, nheld;
    int games;
} FitSamples;
int fit_samples(const SelfplayData *data, uint64_t seed, double holdout, int min_pieces, int max_pieces,
                FitSamples *fs, char *err);
void fit_samples_free(FitSamples *fs);
static inline double fit_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }
static inline double fit_cross_entropy(double p, double y)
{
    const double eps = 1e-12;
    return -(y * log(p + eps) + (1 - y) * log(1 - p + eps));
}
/* A sample's target for the side to move: lambda r + (1 - lambda)
 * sigmoid(v / scale), the game's result r (0, 1/2, 1) and the search's score
 * v, or r alone where the position has no score. */
static inline double fit_target(const SelfplayPos *p, double lambda, double scale)
{
    double y = p->result / 2.0;
    return p->score == SELFPLAY_NO_SCORE ? y : lambda * y + (1 - lambda) * fit_sigmoid(p->score / scale);
}
/* K minimising the cross-entropy of sigmoid(v / K) against the results of
 * the samples used: the scale of the scores. */
double fit_scale(const SelfplayData *d, const bool *use);

typedef struct FitProgress {
    int epoch, epochs;
    double train_loss, holdout_loss; /* holdout_loss < 0: no held-out samples */
    double elapsed, eta;
} FitProgress;
typedef void (*FitProgressFn)(const FitProgress *p, void *user);

typedef struct FitReport {
    size_t samples, holdout; /* samples fitted, held out */
    int games;
    double scale;                      /* K */
    double prior_train, prior_holdout; /* the prior's losses */
    double train, holdout_loss;        /* the result's */
} FitReport;

/* Fit the weights of prior to the positions of data, into *out (with a
 * pattern layer when c->patterns: a new shared copy). progress (may be NULL)
 * after each epoch. stop (may be NULL): end after the epoch in progress (the
 * result is then the weights so far). Returns 0, or -1 with err. */
int fit_run(const FitConfig *c, const SelfplayData *data, const Weights *prior, Weights *out, FitReport *rep,
            FitProgressFn progress, void *user, const atomic_bool *stop, char *err);

#endif
