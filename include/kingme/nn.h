/* nn.h - the network layer of the evaluation: a small network over the
 * board, its output added to the named weights and the pattern layer.
 *
 * Inputs: the board seen by one side (its "view": Black's squares as they
 * are, White's turned round, square s becoming 33 - s), 128 of them, each 0
 * or 1: the view's own men, own kings, the other side's men, the other
 * side's kings, on each of the 32 own-view squares (input = 32 x kind +
 * square - 1, kind 0..3 in that order).
 *
 * The network, for the side to move:
 *   a_v  = clip(b1 + sum of the columns W1[i] of the view's inputs) for the
 *          view v of the side to move and of the other side (H units each,
 *          the same W1 for both: the accumulators);
 *   h    = clip(W2 [a_stm, a_other] + b2)              (NN_L2 units);
 *   out  = W3 h + b3,  the score for the side to move = NN_OUT_SCALE x out;
 * clip(x) = min(max(x, 0), 1). In integers: activations in units of NN_QA
 * (1 = 127), W1 and b1 in NN_QA units (int16), W2 and W3 in NN_QB units
 * (1 = 64, int16), b2 and b3 in NN_QA x NN_QB units (int32). The score of
 * the position for a side is that of the side to move, negated for the
 * other side, so the layer is antisymmetric and the same from both colours'
 * views of mirrored positions by construction. Library code: nothing prints. */
#ifndef KINGME_NN_H
#define KINGME_NN_H

#include "kingme/bits.h"
#include "kingme/board.h"

#include <stdbool.h>
#include <stdint.h>

#define NN_INPUTS 128
#define NN_MAX_HIDDEN 256 /* H: a multiple of 16, 16..256 */
#define NN_L2 16
#define NN_QA 127
#define NN_QB 64
#define NN_OUT_SCALE 1000 /* the output 1.0 is worth a man of the prior */
/* W1's magnitude: 24 pieces plus b1 stay within an int16 accumulator */
#define NN_W1_MAX 1300

typedef struct EvalNet {
    int hidden;     /* H */
    int max_pieces; /* asked only with at most this many pieces on the board (0: always) */
    /* the weights */
    int16_t w1[NN_INPUTS][NN_MAX_HIDDEN]; /* input i's column: w1[i][0..H) */
    int16_t b1[NN_MAX_HIDDEN];
    int16_t w2[NN_L2][2 * NN_MAX_HIDDEN]; /* unit k: w2[k][0..2H), the side to move's H first */
    int32_t b2[NN_L2];
    int16_t w3[NN_L2];
    int32_t b3;
    /* made by nn_finish */
    uint32_t crc; /* CRC-32 of the values as the weights file lists them (nn_crc) */
    uint64_t key;
} EvalNet;

/* The number of parameters of a network of H units. */
long nn_nparams(int hidden);

/* A zeroed network of H units (calloc), or NULL. */
EvalNet *nn_new(int hidden);

/* The layers as the weights file lists them, each a flat list of values:
 * w1 (input by input, H values each: value i H + j is w1[i][j]), b1, w2
 * (unit by unit, 2H each), b2, w3, b3. */
enum { NN_W1, NN_B1, NN_W2, NN_B2, NN_W3, NN_B3, NN_NLAYERS };
extern const char *const nn_layer_names[NN_NLAYERS];
long nn_layer_size(int hidden, int layer);
int32_t nn_layer_max(int layer); /* the largest magnitude of a value */
int32_t nn_get(const EvalNet *n, int layer, long i);
void nn_set(EvalNet *n, int layer, long i, int32_t v);

/* The checksum of the values in the file's order, each value as 4
 * little-endian bytes of its int32 (CRC-32, textio.h), then, for an ending
 * network, max_pieces the same way (so that the checksum holds it too). */
uint32_t nn_crc(const EvalNet *n);

/* Compute crc and key; call after the weights change. */
void nn_finish(EvalNet *n);

/* A shared copy kept for the life of the process (the same weights give the
 * same pointer, as pat_intern); n is consumed. NULL when out of memory. */
const EvalNet *nn_intern(EvalNet *n);

/* The accumulator of view `view` (KM_BLACK, KM_WHITE) of b, from scratch. */
void nn_accumulate(const EvalNet *n, const Board *b, int view, int16_t acc[NN_MAX_HIDDEN]);

/* The input index of a piece of colour `colour` (king or man) on bit s
 * (0..31) in view `view`. */
static inline int nn_input(int view, int colour, int king, int s)
{
    int v = view == KM_BLACK ? s : 31 - s;
    return 32 * (2 * (colour != view) + king) + v;
}

/* The layers after the first, from the two accumulators (the side to
 * move's first): the score for the side to move. */
int32_t nn_output(const EvalNet *n, const int16_t *acc_stm, const int16_t *acc_other);

/* An ending network is not asked with fewer pieces than this: it is
 * trained on positions of more than 5 (kingme fit's --min-pieces), and the
 * 5-piece database answers those of 5 or fewer before the evaluation is
 * asked; without the database the named weights and the pattern layer
 * score them, as they were trained to. */
#define NN_ENDING_MIN_PIECES 6

/* Whether the network is asked at b: always, or with NN_ENDING_MIN_PIECES
 * to max_pieces pieces on the board (an ending network). */
static inline bool nn_applies(const EvalNet *n, const Board *b)
{
    if (!n->max_pieces) return true;
    int pieces = bits_popcount32(board_occupied(b));
    return pieces <= n->max_pieces && pieces >= NN_ENDING_MIN_PIECES;
}

/* The network's score of b for side (0 where it does not apply). */
int32_t nn_eval(const EvalNet *n, const Board *b, int side);

/* The two accumulators of a position, kept from one position to the next:
 * the pieces that differ between two boards are taken out of (or added to)
 * the accumulators, which is exact (int16 arithmetic wraps, and the true
 * sums fit in 16 bits). The search keeps one a ply. */
typedef struct NnAcc {
    Board b;                       /* the position they are of */
    int valid;                     /* 0: none yet */
    int16_t acc[2][NN_MAX_HIDDEN]; /* [view]: KM_BLACK's, KM_WHITE's */
} NnAcc;

/* Make *a the accumulators of b: from those of *from (may be a itself, NULL
 * or not valid) when few pieces differ, else from scratch. */
void nn_acc_set(const EvalNet *n, NnAcc *a, const NnAcc *from, const Board *b);

/* The network's score of a's position for side. */
static inline int32_t nn_acc_eval(const EvalNet *n, const NnAcc *a, int side)
{
    int stm = a->b.stm;
    int32_t v = nn_output(n, a->acc[stm], a->acc[stm ^ 1]);
    return side == stm ? v : -v;
}

#endif
