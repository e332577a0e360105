/* patterns.h - the pattern layer of the evaluation: many small indexed
 * weights that data can fit (kingme fit), beside the named terms of eval.h.
 *
 * Every table is written from the point of view of one side, the "player",
 * with the board turned so that the player's men move from squares 1-12
 * towards 29-32 (Black's own view; White's is the board turned round, square s
 * becoming 33 - s). The pattern score of a position for a side is the sum of
 * the player's cells minus the sum of the opponent's cells (each seen from its
 * own side), so it is antisymmetric by construction: the same tables serve both
 * colours. Each table has an opening and an ending version, blended by the
 * number of pieces exactly as the named terms are (phase.h, EVAL_PHASE_SPAN).
 *
 * The tables:
 *  - man   (32 cells): a man of the player on own-view square 1..32;
 *  - king  (32 cells): a king of the player on own-view square 1..32;
 *  - r<R>c<C> (15 regions, 6561 cells each): the contents of the 4 x 4 region
 *    of the board whose top row is own-view row R (0..4; row 0 holds squares
 *    1-4, the player's back rank) and whose left column is C (0, 2 or 4,
 *    columns counted from square 1's side): its eight playable squares in
 *    increasing square order, each a base-3 digit (0 empty, 1 a piece of the
 *    player, 2 a piece of the opponent; men and kings alike), the first square
 *    the lowest digit. Cell = sum digit_j x 3^j.
 *
 * For speed the evaluation does not look the tables up as written: patterns
 * made ready (pat_finish) hold the regions' two views already combined
 * (for Black: the player's region minus the opponent's turned region) with the
 * man table folded into them, so a position costs one lookup per region and
 * one per king. */
#ifndef KINGME_PATTERNS_H
#define KINGME_PATTERNS_H

#include "kingme/board.h"
#include "kingme/phase.h"

#include <stdbool.h>
#include <stdint.h>

#define PAT_NREGIONS 15
#define PAT_REGION_SQUARES 8
#define PAT_REGION_CELLS 6561 /* 3^8 */
#define PAT_NTABLES (2 + PAT_NREGIONS)
#define PAT_MAN_TABLE 0
#define PAT_KING_TABLE 1
#define PAT_REGION_TABLE(r) (2 + (r))
/* The largest magnitude of a pattern weight: a region cell of each view and
 * the man weights folded into a region (at most 3 squares each) then stay
 * within 16 bits: 5 x 6000 < 32767. */
#define PAT_WEIGHT_MAX 6000

typedef struct PatTableInfo {
    const char *name; /* in weights files: "man", "king", "r0c0" ... "r4c4" */
    int cells;
} PatTableInfo;

extern const PatTableInfo pat_tables[PAT_NTABLES];

/* The table called name (its length n, not NUL-terminated), or -1. */
int pat_table_find(const char *name, size_t n);

/* The squares (1..32, own view, increasing) of region r. */
void pat_region_squares(int r, int sq[PAT_REGION_SQUARES]);

typedef struct EvalPatterns {
    /* the weights as written: [0] opening, [1] ending */
    int16_t man[2][32];
    int16_t king[2][32];
    int16_t region[2][PAT_NREGIONS][PAT_REGION_CELLS];
    /* made by pat_finish */
    uint64_t key; /* a hash of the weights */
    uint32_t ready[PAT_NREGIONS]
                  [PAT_REGION_CELLS]; /* Black's view: opening in the low 16 bits, ending high */
    int32_t ready_king[2][2][32];     /* [colour][phase][square - 1], Black's view */
} EvalPatterns;

/* The cells of table t in phase ph (0 opening, 1 ending) of p. */
int16_t *pat_cells(EvalPatterns *p, int t, int ph);
const int16_t *pat_cells_const(const EvalPatterns *p, int t, int ph);

/* Make p ready for the evaluation (the combined tables and the key); call
 * after the weights change. */
void pat_finish(EvalPatterns *p);

/* A copy of p kept for the life of the process and shared: the same weights
 * give the same pointer, so Weights that hold it can be copied and compared
 * as values. p is consumed (freed, or kept). NULL when memory ran out. */
const EvalPatterns *pat_intern(EvalPatterns *p);

/* A zeroed set of tables (calloc), or NULL. */
EvalPatterns *pat_new(void);

/* The region index of Black's pieces and White's pieces in region r of the
 * board as it stands (Black's own view): sum of digits (1 black, 2 white). */
static inline uint32_t pat_gather_(uint32_t x, int shift)
{
    uint32_t g = (x >> shift) & 0x3333u;
    g = (g | (g >> 2)) & 0x0F0Fu;
    return (g | (g >> 4)) & 0xFFu;
}
extern const uint8_t pat_region_shift[PAT_NREGIONS];
extern const uint16_t pat_base3[256];
static inline int pat_region_index(const Board *b, int r)
{
    int sh = pat_region_shift[r];
    return pat_base3[pat_gather_(b->pieces[KM_BLACK], sh)] +
           2 * pat_base3[pat_gather_(b->pieces[KM_WHITE], sh)];
}

/* pat_rowcode[black nibble | white nibble << 4] of a board row: in 16-bit
 * lane k (0..2), the base-3 value of the row's squares k and k + 1 (d_k + 3
 * d_k+1, d = 1 black, 2 white). Region (R, k) is lane k of the rows R..R+3
 * combined as code[R] + 9 code[R+1] + 81 code[R+2] + 729 code[R+3]: all three
 * regions of a top row at once. */
extern const uint64_t pat_rowcode[256];

/* The pattern score of b for Black in each phase (ready tables). */
static inline void pat_score(const EvalPatterns *p, const Board *b, int32_t *open, int32_t *end)
{
    uint32_t bl = b->pieces[KM_BLACK], wh = b->pieces[KM_WHITE];
    uint64_t code[8];
    for (int row = 0; row < 8; row++)
        code[row] = pat_rowcode[((bl >> 4 * row) & 15) | ((wh >> 4 * row) & 15) << 4];
    int32_t o = 0, e = 0;
    for (int top = 0; top < 5; top++) {
        uint64_t x = code[top] + 9 * (code[top + 1] + 9 * (code[top + 2] + 9 * code[top + 3]));
        for (int k = 0; k < 3; k++) {
            uint32_t v = p->ready[3 * top + k][(x >> 16 * k) & 0xFFFF];
            o += (int16_t)(v & 0xFFFFu);
            e += (int16_t)(v >> 16);
        }
    }
    for (int c = 0; c < 2; c++) {
        uint32_t k = b->pieces[c] & b->kings;
        while (k) {
            int s = __builtin_ctz(k);
            k &= k - 1;
            o += p->ready_king[c][0][s];
            e += p->ready_king[c][1][s];
        }
    }
    *open = o;
    *end = e;
}

/* The pattern score of b for side (the blend of pat_score, negated for White). */
static inline int32_t pat_eval(const EvalPatterns *p, const Board *b, int side)
{
    int32_t o, e;
    pat_score(p, b, &o, &e);
    int32_t v = phase_blend(o, e, __builtin_popcount(board_occupied(b)));
    return side == KM_BLACK ? v : -v;
}

/* The features of b from each side's own view, for fitting and explaining:
 * for side c (KM_BLACK, KM_WHITE): the cell of each region, and the own-view
 * squares (1..32) of its men and of its kings. The commands take them from
 * eval_features (eval.h), the one extractor, which calls pat_features. */
typedef struct PatFeatures {
    uint16_t region[2][PAT_NREGIONS];
    uint8_t nmen[2], nkings[2];
    uint8_t men[2][12], kings[2][12];
} PatFeatures;
void pat_features(const Board *b, PatFeatures *f);

/* Table t's part of the written (not ready) pattern score for side, in
 * phase ph (0 opening, 1 ending), of the position whose features are f: the
 * player's cells minus the opponent's, each seen from its own side.
 * `kingme eval` and `kingme show` explain with it. */
int32_t pat_table_part(const EvalPatterns *p, int t, int ph, const PatFeatures *f, int side);

/* The written pattern score of b for side, in each phase: the sum of the
 * tables' parts. Equal to pat_score's (negated for White); the tests check it. */
void pat_score_written(const EvalPatterns *p, const Board *b, int side, int32_t *open, int32_t *end);

/* A region cell as text: its eight squares, '.' empty, 'x' the player's, 'o'
 * the opponent's (in increasing square order). buf needs 9 bytes. */
void pat_cell_text(int cell, char buf[9]);

#endif
