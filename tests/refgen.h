/* refgen.h - a deliberately simple reference move generator for the tests.
 *
 * It works on a mailbox (an 8x8 array of cells, Black at the top, row 0 =
 * squares 1-4) with row/column arithmetic and plain recursion for the jumps.
 * It shares no tables or code with src/movegen.c, so that comparing the two
 * can catch the real generator's mistakes. Only the conversion from and to a
 * Board touches the library's representation.
 *
 * Everything here speaks square numbers 1..32 (not bit indices). */
#ifndef KINGME_TESTS_REFGEN_H
#define KINGME_TESTS_REFGEN_H

#include "kingme/board.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Cell contents. Light squares are never used. */
enum { RC_EMPTY = '.', RC_BLACK_MAN = 'b', RC_BLACK_KING = 'B', RC_WHITE_MAN = 'w', RC_WHITE_KING = 'W' };

typedef struct RefPos {
    char cell[8][8]; /* [row][col], row 0 at the top (Black's back rank) */
    int stm;         /* KM_BLACK or KM_WHITE */
} RefPos;

#define REF_MAX_JUMPS 16   /* more than the 12 pieces that can be taken */
#define REF_MAX_MOVES 2048 /* far more than MAX_MOVES, to notice an overflow */

typedef struct RefMove {
    int from;                    /* square number */
    int njumps;                  /* 0 for a simple move */
    int path[REF_MAX_JUMPS];     /* simple move: path[0] is the destination;
                                    capture: the landing square of each jump */
    int ncaptured;               /* == njumps */
    int captured[REF_MAX_JUMPS]; /* captured squares, ascending */
} RefMove;

typedef struct RefMoves {
    int count;  /* every legal move, even those that did not fit */
    int stored; /* how many are in moves[] (min(count, REF_MAX_MOVES)) */
    RefMove moves[REF_MAX_MOVES];
} RefMoves;

/* Geometry, worked out from the diagram in docs/rules.md. */
bool ref_square_rc(int sq, int *row, int *col); /* false if sq is not 1..32 */
int ref_rc_square(int row, int col);            /* 0 off the board or on a light square */

void ref_from_board(const Board *b, RefPos *p);
void ref_to_board(const RefPos *p, Board *b);

/* All legal moves of the side to move (captures only when there is one). */
int ref_gen(const RefPos *p, RefMoves *out);
/* Whether side has at least one jump, whoever is to move. */
bool ref_can_capture(const RefPos *p, int side);
/* Plays m (from ref_gen of p) on p: the side to move changes. */
void ref_make(RefPos *p, const RefMove *m);
/* "11-15", "15x24x31". */
void ref_move_text(const RefMove *m, char *buf, size_t len);
/* The destination square of m. */
static inline int ref_move_to(const RefMove *m) { return m->njumps ? m->path[m->njumps - 1] : m->path[0]; }

/* Leaf count of the game tree (the reference's own perft). */
uint64_t ref_perft(const RefPos *p, int depth);

/* ---- helpers for the random tests ----------------------------------------- */

/* splitmix64: a small, fixed-seed PRNG. */
typedef struct RefRng {
    uint64_t s;
} RefRng;
uint64_t ref_rand(RefRng *r);
int ref_rand_below(RefRng *r, int n); /* 0..n-1 */

/* A random position that the FEN rules accept: 1..12 pieces a side (12 is
 * favoured), kings with a probability chosen per position, no man on its own
 * promotion row, a random side to move. */
void ref_random_board(RefRng *r, Board *b);
/* A random position rich in captures: the side to move has 1-3 pieces
 * (mostly kings) on squares that one jumper's landings can reach, and the
 * other side 4-12 pieces only on the squares such a jumper jumps over. */
void ref_random_jumpy_board(RefRng *r, Board *b);

/* A stream of test positions: in turn, one random game (moves chosen with the
 * reference generator) from the initial position, up to 200 plies; a random
 * position and up to 30 random plies (three times); a capture-rich random
 * position and up to 10 random plies (four times). */
typedef struct RefStream {
    RefRng rng;
    Board b;
    int left;  /* plies still to play from b */
    int games; /* games started so far */
    RefMoves *buf;
} RefStream;
void ref_stream_init(RefStream *s, uint64_t seed);
void ref_stream_next(RefStream *s, Board *out);
void ref_stream_free(RefStream *s);

#endif
