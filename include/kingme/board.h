/* board.h - the position: three 32-bit bitboards and the side to move.
 *
 * Square n (1..32, standard numbering, Black on 1-12 at the top) is bit n-1.
 * Row r = (n-1)/4 counts from Black's back rank (row 0: squares 1-4) to
 * White's (row 7: squares 29-32). Black men move towards higher numbers. */
#ifndef KINGME_BOARD_H
#define KINGME_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kingme/base.h" /* KM_BLACK, KM_WHITE, KM_ERR_MAX, the promotion rows */

#define SQ(n) (1u << ((n)-1)) /* mask of square number n (1..32) */

/* Rows as masks (row 0 = squares 1-4 ... row 7 = squares 29-32). */
#define ROW_MASK(r) (0xFu << (4 * (r)))

typedef struct Board {
    uint32_t pieces[2]; /* [KM_BLACK], [KM_WHITE]: all pieces of that colour */
    uint32_t kings;     /* kings of both colours */
    int stm;            /* side to move: KM_BLACK or KM_WHITE */
} Board;

static inline uint32_t board_occupied(const Board *b) { return b->pieces[0] | b->pieces[1]; }
static inline uint32_t board_empty(const Board *b) { return ~(b->pieces[0] | b->pieces[1]); }
static inline uint32_t board_men(const Board *b, int side) { return b->pieces[side] & ~b->kings; }
static inline uint32_t board_kings(const Board *b, int side) { return b->pieces[side] & b->kings; }
static inline bool board_equal(const Board *a, const Board *b)
{
    return a->pieces[0] == b->pieces[0] && a->pieces[1] == b->pieces[1] && a->kings == b->kings &&
           a->stm == b->stm;
}

/* The initial position, Black to move. */
void board_init(Board *b);

/* Parse PDN FEN ("B:W21-32:B1-12", "W:WK3,19:B12,K28", sections in either order,
 * ranges, spaces, trailing '.', CR/LF). Returns 0, or -1 with a message in err
 * (KM_ERR_MAX bytes). Positions that cannot arise in a game are refused: more
 * than 12 pieces of a colour, a man on its own promotion row. */
int board_from_fen(Board *b, const char *fen, char *err);

/* Canonical FEN: "B:W21,22,...:B1,2,...", kings as K<n>. buf needs 128 bytes. */
void board_to_fen(const Board *b, char *buf, size_t len);

/* The same position turned round (square s becomes 33-s) with colours swapped,
 * so Black's position becomes White's. */
void board_mirror(const Board *in, Board *out);

/* Zobrist keys: table computed once by board_hash_init (idempotent,
 * thread-safe after the first call from main). */
extern uint64_t board_zobrist[4][32]; /* [black man, white man, black king, white king] */
extern uint64_t board_zobrist_side;   /* xor-ed in when White is to move */
void board_hash_init(void);
uint64_t board_hash(const Board *b);

/* The square (1..32) of a coordinate such as 'c', '3' (files a-h from
 * White's left, ranks 1-8 from White's side), or 0 for a light square or
 * anything else. */
int board_square_from_coord(char file, char rank);

#endif
