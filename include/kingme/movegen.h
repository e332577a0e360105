/* movegen.h - legal moves of English draughts, make-move, perft. */
#ifndef KINGME_MOVEGEN_H
#define KINGME_MOVEGEN_H

#include "kingme/board.h"

#define MAX_MOVES 256 /* generous: real positions have < 60 */
#define MAX_JUMPS 12  /* at most 12 enemy pieces can be taken */

/* Square masks used by the generator and the evaluation. */
#define MG_EVEN_ROWS 0x0F0F0F0Fu /* rows 0,2,4,6 (squares 1-4, 9-12, ...) */
#define MG_ODD_ROWS 0xF0F0F0F0u
#define MG_COL0 0x11111111u /* first square of each row (5,13,21,29 / 1,9,17,25) */
#define MG_COL3 0x88888888u /* last square of each row (4,12,20,28 / 8,16,24,32) */

/* One diagonal step of every piece in x. "Down" is towards higher square
 * numbers (Black's forward), "left" towards the a-file. Pieces that would
 * leave the board are dropped. DL and UR are each other's inverse, as are DR
 * and UL. */
static inline uint32_t mg_dl(uint32_t x)
{
    return ((x & MG_EVEN_ROWS) << 4) | ((x & MG_ODD_ROWS & ~MG_COL0) << 3);
}
static inline uint32_t mg_dr(uint32_t x)
{
    return ((x & MG_EVEN_ROWS & ~MG_COL3) << 5) | ((x & MG_ODD_ROWS) << 4);
}
static inline uint32_t mg_ul(uint32_t x)
{
    return ((x & MG_EVEN_ROWS) >> 4) | ((x & MG_ODD_ROWS & ~MG_COL0) >> 5);
}
static inline uint32_t mg_ur(uint32_t x)
{
    return ((x & MG_EVEN_ROWS & ~MG_COL3) >> 3) | ((x & MG_ODD_ROWS) >> 4);
}

enum { MG_DL = 0, MG_DR = 1, MG_UL = 2, MG_UR = 3 };
/* Per-square table (square index 0..31, -1 off the board): the neighbour in
 * direction d. */
extern const int8_t mg_neighbour[32][4];

typedef struct Move {
    uint32_t captured; /* mask of the pieces taken */
    uint8_t from, to;  /* square indices 0..31 (square number - 1) */
    uint8_t njumps;    /* 0 for a simple move */
    uint8_t pad_;
    uint8_t path[MAX_JUMPS]; /* landing squares of each jump; path[njumps-1] == to */
} Move;

typedef struct MoveList {
    int count;
    Move moves[MAX_MOVES];
} MoveList;

/* All legal moves for the side to move (captures only, when any exist).
 * Each distinct jump path is a distinct move. Returns the count. */
int mg_moves(const Board *b, MoveList *ml);

/* Only the capture moves (empty list when there are none). */
int mg_captures(const Board *b, MoveList *ml);

/* A jump is a uniform shift: two steps down-left are +7 and two steps
 * down-right +9 from any row (up: -9 and -7), valid when the piece is not in
 * the column the jump would leave the board through. The jumped square is one
 * ordinary step away, so "the neighbour in direction d is an enemy" is
 * "the square is in the opposite step of the enemy set". The pieces of x
 * that can jump down / up: */
static inline uint32_t mg_jumpers_down(uint32_t x, uint32_t opp, uint32_t empty)
{
    return (x & ~MG_COL0 & (empty >> 7) & mg_ur(opp)) | (x & ~MG_COL3 & (empty >> 9) & mg_ul(opp));
}
static inline uint32_t mg_jumpers_up(uint32_t x, uint32_t opp, uint32_t empty)
{
    return (x & ~MG_COL0 & (empty << 9) & mg_dr(opp)) | (x & ~MG_COL3 & (empty << 7) & mg_dl(opp));
}

/* Pieces of side that can make a jump (the rule that a capture is compulsory
 * between pieces is not applied: each piece is looked at alone). */
static inline uint32_t mg_jumpers(const Board *b, int side)
{
    uint32_t own = b->pieces[side], opp = b->pieces[side ^ 1];
    uint32_t empty = ~(b->pieces[0] | b->pieces[1]), kings = own & b->kings;
    uint32_t j = side == KM_BLACK ? mg_jumpers_down(own, opp, empty) : mg_jumpers_up(own, opp, empty);
    if (kings) j |= side == KM_BLACK ? mg_jumpers_up(kings, opp, empty) : mg_jumpers_down(kings, opp, empty);
    return j;
}

/* Whether side would have a capture if it were to move (inline: the search
 * asks at nearly every node). */
static inline bool mg_can_capture(const Board *b, int side) { return mg_jumpers(b, side) != 0; }

/* Number of legal moves of the side to move, without building them when
 * there is no capture (the perft leaf count). */
int mg_count_moves(const Board *b);

/* Whether side has a simple (non-capturing) move: a few shifts. */
static inline bool mg_can_step(const Board *b, int side)
{
    uint32_t own = b->pieces[side], kings = own & b->kings;
    uint32_t empty = ~(b->pieces[0] | b->pieces[1]);
    uint32_t down = side == KM_BLACK ? own : kings, up = side == KM_BLACK ? kings : own;
    return ((mg_dl(down) | mg_dr(down) | mg_ul(up) | mg_ur(up)) & empty) != 0;
}

/* Play m (a legal move of b->stm) on b; the side to move changes. */
static inline void mg_make_move(Board *b, const Move *m)
{
    uint32_t fm = 1u << m->from, tm = 1u << m->to;
    int s = b->stm;
    b->pieces[s] = (b->pieces[s] & ~fm) | tm; /* from == to is possible for a king */
    if (b->kings & fm) b->kings = (b->kings & ~fm) | tm;
    else if (tm & (s == KM_BLACK ? BLACK_PROMO_ROW : WHITE_PROMO_ROW)) b->kings |= tm;
    b->pieces[s ^ 1] &= ~m->captured;
    b->kings &= ~m->captured;
    b->stm = s ^ 1;
}

/* The Zobrist key (board_hash) after m, from the key before it. */
static inline uint64_t mg_move_key_after(const Board *b, const Move *m, uint64_t key)
{
    int s = b->stm;
    uint32_t fm = 1u << m->from, c = m->captured;
    bool king = (b->kings & fm) != 0;
    bool crowned = !king && ((1u << m->to) & (s == KM_BLACK ? BLACK_PROMO_ROW : WHITE_PROMO_ROW));
    key ^= board_zobrist[s + (king ? 2 : 0)][m->from];
    key ^= board_zobrist[s + (king || crowned ? 2 : 0)][m->to];
    while (c) {
        int i = __builtin_ctz(c);
        c &= c - 1;
        key ^= board_zobrist[(s ^ 1) + ((b->kings >> i) & 1 ? 2 : 0)][i];
    }
    return key ^ board_zobrist_side;
}

/* Whether m crowns a man. */
static inline bool mg_move_promotes(const Board *b, const Move *m)
{
    uint32_t tm = 1u << m->to;
    return !(b->kings & (1u << m->from)) && (tm & (b->stm == KM_BLACK ? BLACK_PROMO_ROW : WHITE_PROMO_ROW));
}

/* Whether m restarts the forty-move count: a capture, or a move of an
 * uncrowned man (both irreversible, so no earlier position can recur). */
static inline bool mg_move_resets_count(const Board *b, const Move *m)
{
    return m->captured != 0 || !(b->kings & (1u << m->from));
}

static inline bool mg_move_equal(const Move *a, const Move *b)
{
    if (a->from != b->from || a->to != b->to || a->njumps != b->njumps || a->captured != b->captured)
        return false;
    for (int i = 0; i < a->njumps; i++)
        if (a->path[i] != b->path[i]) return false;
    return true;
}

/* Leaf count of the game tree to depth plies. */
uint64_t mg_perft(const Board *b, int depth);

/* The same count with a table of subtrees already counted (transpositions
 * are frequent in draughts). Each entry keeps the whole position and depth,
 * so a hash collision can never give a wrong count. */
typedef struct PerftEntry {
    uint32_t pieces[2], kings;
    uint32_t meta; /* 1 + stm + 2 * depth; 0 = empty */
    uint64_t count;
} PerftEntry;
typedef struct PerftTable {
    PerftEntry *e;
    size_t mask; /* entries - 1 (a power of two) */
} PerftTable;
/* Allocate about mb megabytes (at least 1). Returns 0, or -1 when out of memory. */
int mg_perft_table_init(PerftTable *t, size_t mb);
void mg_perft_table_free(PerftTable *t);
uint64_t mg_perft_hashed(const Board *b, int depth, PerftTable *t);

#endif
