/* eval.h - the 60 evaluation parameters of shared/spec/eval-params.md and the
 * weighted sum. One extraction serves the search, `kingme eval` and the tuner. */
#ifndef KINGME_EVAL_H
#define KINGME_EVAL_H

#include "kingme/board.h"

#define EVAL_NPARAMS 60

/* A weight vector: w[i] is the weight of parameter number i+1. */
typedef struct Weights {
    int16_t w[EVAL_NPARAMS];
} Weights;

typedef struct EvalParamInfo {
    int nr;               /* the documents' number, 1..60 */
    const char *name;     /* spec name, e.g. "own_men" */
    const char *desc;     /* short description for show / eval */
} EvalParamInfo;

extern const EvalParamInfo eval_params[EVAL_NPARAMS];

/* Index 0..59 of a parameter name, or -1. */
int eval_param_index(const char *name);

/* All 60 parameters of b from the point of view of `side` (the "player"),
 * whoever is to move: f[i] is parameter number i+1. */
void eval_features(const Board *b, int side, int f[EVAL_NPARAMS]);

/* sum f[i] * w[i] in 32 bits (bounded well below 2^31 for real positions). */
int32_t eval_dot(const int f[EVAL_NPARAMS], const Weights *w);

/* eval_dot(eval_features(b, side), w), possibly faster. */
int32_t eval_score(const Board *b, int side, const Weights *w);

/* What a negamax search needs at a leaf: the evaluation for the root side,
 * negated when the other side is to move at the leaf (spec: the documents
 * evaluate every leaf for the player who started the search). */
static inline int32_t eval_for_search(const Board *b, int root_side, const Weights *w)
{
    int32_t s = eval_score(b, root_side, w);
    return b->stm == root_side ? s : -s;
}

#endif
