/* nn_fit.h - trains the network layer (nn.h) on self-play positions
 * (kingme fit --net H): the network's output added to a prior's evaluation
 * (named weights and pattern layer, kept as they are) is fitted to the
 * positions' targets, so that it learns what the prior misses.
 *
 * The samples, the held-out games, the score scale K and the targets are
 * those of fit.h for the same seed, holdout, lambda and min_pieces, so the
 * two fits' held-out losses are measured on the same positions. Training is
 * in floats: mini-batch Adam on the cross-entropy of sigmoid((prior +
 * network) / K) against the target, plus l2 x the sum of the squared
 * weights (as floats: an activation's range is 0..1), the samples shuffled each epoch by a generator
 * drawn from the seed and the epoch; each batch is cut into one fixed share
 * per thread and the shares' gradients are added in thread order, so a fit
 * is the same for a given seed and thread count. After each epoch the state
 * (weights, Adam's moments, the epoch) can be written to a checkpoint file
 * (atomically); a fit started with the same file, data and configuration
 * goes on from it and ends exactly as one that was never stopped. At the end
 * the network is quantised to the integers of nn.h, and the held-out loss of
 * that integer network is measured too (what quantisation costs). Library
 * code: nothing prints. */
#ifndef KINGME_NN_FIT_H
#define KINGME_NN_FIT_H

#include "kingme/fit.h"

typedef struct NetFitConfig {
    int hidden;             /* H, a multiple of 16 */
    int epochs;             /* passes over the training samples */
    int batch;              /* samples per step */
    double rate;            /* Adam's step (cosine-decayed to a tenth) */
    double l2;              /* the pull of the weights towards 0 */
    double lambda;          /* as FitConfig */
    double holdout;         /* as FitConfig */
    int min_pieces;         /* as FitConfig */
    int max_pieces;         /* as FitConfig; the network is then asked only there (EvalNet) */
    int threads;            /* as FitConfig */
    uint64_t seed;          /* held-out games (as FitConfig), the start, the order */
    const char *checkpoint; /* the checkpoint file, or NULL */
} NetFitConfig;

void nn_fit_config_default(NetFitConfig *c);

typedef struct NetFitReport {
    size_t samples, holdout; /* samples fitted, held out */
    int games;
    double scale;                      /* K */
    double prior_train, prior_holdout; /* the prior's losses (no network) */
    double prior_net_holdout;          /* the prior's held-out loss with its own
                                          network (-1: it has none) */
    double train, holdout_loss;        /* with the float network */
    double quant_train, quant_holdout; /* with the integer network */
    int resumed_from;                  /* the epoch the checkpoint held (0: a new fit) */
    int epochs_done;
} NetFitReport;

/* Fit a network of c->hidden units over prior (its own network, if any, is
 * left out), into *out: prior's weights with the new network. progress (may
 * be NULL) after each epoch; stop (may be NULL): end after the epoch in
 * progress (the checkpoint then holds it). Returns 0, or -1 with err. */
int nn_fit_run(const NetFitConfig *c, const SelfplayData *data, const Weights *prior, Weights *out,
               NetFitReport *rep, FitProgressFn progress, void *user, const atomic_bool *stop, char *err);

#endif
