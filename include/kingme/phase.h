/* phase.h - the game phase: how the opening and the ending versions of
 * the evaluation's weights are blended by the number of pieces. Shared by
 * the named weights (eval.h) and the pattern layer (patterns.h). */
#ifndef KINGME_PHASE_H
#define KINGME_PHASE_H

#include <stdint.h>

/* The game phase: with `phased` set, a position with n pieces on the board
 * is evaluated as (S_open x t + S_end x (16 - t)) / 16, t = n - 4 clamped to
 * 0..16 (20 or more pieces: the opening vector w alone; 4 or fewer: the
 * ending vector end alone), in 64 bits, the division rounding towards zero;
 * S_open = sum f[i] x w[i], S_end = sum f[i] x end[i]. Without `phased`,
 * end[] is ignored and the score is S_open. */
#define EVAL_PHASE_SPAN 16
#define EVAL_PHASE_MIN_PIECES 4

/* The interpolation factor t (0..EVAL_PHASE_SPAN) of a position with n pieces. */
static inline int phase_factor(int npieces)
{
    int t = npieces - EVAL_PHASE_MIN_PIECES;
    return t < 0 ? 0 : t > EVAL_PHASE_SPAN ? EVAL_PHASE_SPAN : t;
}

/* The phase blend of the two sums (see EVAL_PHASE_SPAN). */
static inline int32_t phase_blend(int64_t s_open, int64_t s_end, int npieces)
{
    int t = phase_factor(npieces);
    return (int32_t)((s_open * t + s_end * (EVAL_PHASE_SPAN - t)) / EVAL_PHASE_SPAN);
}

#endif
