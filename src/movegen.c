/* movegen.c - move generation for English draughts.
 *
 * Simple moves come from whole-board shifts (one shift per direction gives
 * every destination at once). Captures are rarer and need the jump path, so
 * they are found by a depth-first search over per-square tables, started only
 * from the pieces that a bitboard test shows can jump. */
#include "kingme/movegen.h"
#include "kingme/bits.h"

#include <stdlib.h>

/* A table written out so it is const and need no initialisation call.
 * Generated from the geometry: square i is on row i/4, column 2*(i%4)+1 on
 * even rows and 2*(i%4) on odd rows. Directions: DL, DR, UL, UR. */
const int8_t mg_neighbour[32][4] = {
    {4, 5, -1, -1},   {5, 6, -1, -1},   {6, 7, -1, -1},   {7, -1, -1, -1},  {-1, 8, -1, 0},
    {8, 9, 0, 1},     {9, 10, 1, 2},    {10, 11, 2, 3},   {12, 13, 4, 5},   {13, 14, 5, 6},
    {14, 15, 6, 7},   {15, -1, 7, -1},  {-1, 16, -1, 8},  {16, 17, 8, 9},   {17, 18, 9, 10},
    {18, 19, 10, 11}, {20, 21, 12, 13}, {21, 22, 13, 14}, {22, 23, 14, 15}, {23, -1, 15, -1},
    {-1, 24, -1, 16}, {24, 25, 16, 17}, {25, 26, 17, 18}, {26, 27, 18, 19}, {28, 29, 20, 21},
    {29, 30, 21, 22}, {30, 31, 22, 23}, {31, -1, 23, -1}, {-1, -1, -1, 24}, {-1, -1, 24, 25},
    {-1, -1, 25, 26}, {-1, -1, 26, 27},
};

typedef struct JumpCtx {
    MoveList *ml;
    uint32_t opp;   /* enemy pieces (captured ones stay until the move ends) */
    uint32_t empty; /* empty squares, the mover's origin included */
    uint32_t promo; /* promotion row of a man, 0 for a king */
    bool down, up;  /* directions the piece may jump in */
    Move cur;
} JumpCtx;

static inline void emit_jump(JumpCtx *c, uint32_t at, int njumps)
{
    if (c->ml->count < MAX_MOVES) {
        Move *m = &c->ml->moves[c->ml->count++];
        *m = c->cur;
        m->to = (uint8_t)bits_lsb32(at);
        m->njumps = (uint8_t)njumps;
    }
}

/* Extend the jump sequence of the piece now standing on p (a single bit).
 * Captured pieces are still on the board: they cannot be jumped again and
 * their squares are not empty. */
static void jump_gen(JumpCtx *c, uint32_t p, int depth)
{
    uint32_t opp = c->opp & ~c->cur.captured;
    bool extended = false;
#define TRY_DIR(STEP)                                                         \
    do {                                                                      \
        uint32_t o = STEP(p) & opp, l;                                        \
        if (o && (l = STEP(o) & c->empty)) {                                  \
            extended = true;                                                  \
            c->cur.captured |= o;                                             \
            c->cur.path[depth] = (uint8_t)bits_lsb32(l);                      \
            if (l & c->promo) emit_jump(c, l, depth + 1); /* crowned: stop */ \
            else jump_gen(c, l, depth + 1);                                   \
            c->cur.captured &= ~o;                                            \
        }                                                                     \
    } while (0)
    if (c->down) {
        TRY_DIR(mg_dl);
        TRY_DIR(mg_dr);
    }
    if (c->up) {
        TRY_DIR(mg_ul);
        TRY_DIR(mg_ur);
    }
#undef TRY_DIR
    if (!extended && depth > 0) emit_jump(c, p, depth);
}

/* The number of complete jump sequences that continue from p (at least 1:
 * stopping here is one), without building them. */
static int jump_count(uint32_t p, uint32_t opp, uint32_t empty, uint32_t promo, bool down, bool up)
{
    int n = 0;
#define COUNT_DIR(STEP)                                                             \
    do {                                                                            \
        uint32_t o = STEP(p) & opp, l;                                              \
        if (o && (l = STEP(o) & empty))                                             \
            n += (l & promo) ? 1 : jump_count(l, opp & ~o, empty, promo, down, up); \
    } while (0)
    if (down) {
        COUNT_DIR(mg_dl);
        COUNT_DIR(mg_dr);
    }
    if (up) {
        COUNT_DIR(mg_ul);
        COUNT_DIR(mg_ur);
    }
#undef COUNT_DIR
    return n ? n : 1;
}

int mg_captures(const Board *b, MoveList *ml)
{
    ml->count = 0;
    int side = b->stm;
    uint32_t j = mg_jumpers(b, side);
    if (!j) return 0;
    JumpCtx c;
    c.ml = ml;
    c.opp = b->pieces[side ^ 1];
    c.cur.pad_ = 0;
    while (j) {
        int sq = bits_poplsb32(&j);
        uint32_t fm = 1u << sq;
        c.empty = board_empty(b) | fm;
        bool king = (b->kings & fm) != 0;
        c.down = king || side == KM_BLACK;
        c.up = king || side == KM_WHITE;
        c.promo = king ? 0 : km_promotion_row(side);
        c.cur.captured = 0;
        c.cur.from = (uint8_t)sq;
        jump_gen(&c, fm, 0);
    }
    return ml->count;
}

/* Number of capture moves of the side to move (0 if none).
 * Men are counted a direction at a time for all of them at once: a man only
 * jumps forward, so the piece it took and the square it left are behind it
 * and cannot matter to the rest of its sequence; only the landing squares
 * from which a further jump exists need a search. Kings search. */
static int count_captures(const Board *b)
{
    int side = b->stm, n = 0;
    uint32_t own = b->pieces[side], opp = b->pieces[side ^ 1];
    uint32_t empty = board_empty(b), kings = own & b->kings, men = own & ~kings;
    uint32_t promo = km_promotion_row(side);
    bool down = side == KM_BLACK;
    uint32_t land[2];
    if (down) {
        land[0] = (men & ~MG_COL0 & (empty >> 7) & mg_ur(opp)) << 7;
        land[1] = (men & ~MG_COL3 & (empty >> 9) & mg_ul(opp)) << 9;
    } else {
        land[0] = (men & ~MG_COL0 & (empty << 9) & mg_dr(opp)) >> 9;
        land[1] = (men & ~MG_COL3 & (empty << 7) & mg_dl(opp)) >> 7;
    }
    for (int k = 0; k < 2; k++) {
        uint32_t l = land[k];
        if (!l) continue;
        uint32_t cont = l & ~promo & (down ? mg_jumpers_down(l, opp, empty) : mg_jumpers_up(l, opp, empty));
        n += bits_popcount32(l & ~cont);
        while (cont) {
            uint32_t lm = cont & -cont;
            cont &= cont - 1;
            uint32_t om = down ? (k ? mg_ul(lm) : mg_ur(lm)) : (k ? mg_dl(lm) : mg_dr(lm));
            n += jump_count(lm, opp & ~om, empty, promo, down, !down);
        }
    }
    uint32_t kj = kings & (mg_jumpers_down(kings, opp, empty) | mg_jumpers_up(kings, opp, empty));
    while (kj) {
        int sq = bits_poplsb32(&kj);
        uint32_t fm = 1u << sq;
        n += jump_count(fm, opp, empty | fm, 0, true, true);
    }
    return n;
}

static inline void add_quiet(MoveList *ml, uint32_t dests, int back)
{
    while (dests) {
        int to = bits_poplsb32(&dests);
        Move *m = &ml->moves[ml->count++];
        m->captured = 0;
        m->from = (uint8_t)mg_neighbour[to][back];
        m->to = (uint8_t)to;
        m->njumps = 0;
        m->pad_ = 0;
    }
}

int mg_moves(const Board *b, MoveList *ml)
{
    if (mg_captures(b, ml)) return ml->count;
    int side = b->stm;
    uint32_t own = b->pieces[side], empty = board_empty(b);
    uint32_t down = side == KM_BLACK ? own : own & b->kings;
    uint32_t up = side == KM_WHITE ? own : own & b->kings;
    /* at most 12 pieces x 4 directions: no bound check needed */
    add_quiet(ml, mg_dl(down) & empty, MG_UR);
    add_quiet(ml, mg_dr(down) & empty, MG_UL);
    add_quiet(ml, mg_ul(up) & empty, MG_DR);
    add_quiet(ml, mg_ur(up) & empty, MG_DL);
    return ml->count;
}

int mg_count_moves(const Board *b)
{
    int side = b->stm;
    uint32_t own = b->pieces[side], opp = b->pieces[side ^ 1];
    uint32_t empty = board_empty(b), kings = own & b->kings;
    int n;
    if (side == KM_BLACK) {
        if (mg_jumpers_down(own, opp, empty) || (kings && mg_jumpers_up(kings, opp, empty)))
            return count_captures(b);
        n = bits_popcount32(mg_dl(own) & empty) + bits_popcount32(mg_dr(own) & empty);
        if (kings) n += bits_popcount32(mg_ul(kings) & empty) + bits_popcount32(mg_ur(kings) & empty);
    } else {
        if (mg_jumpers_up(own, opp, empty) || (kings && mg_jumpers_down(kings, opp, empty)))
            return count_captures(b);
        n = bits_popcount32(mg_ul(own) & empty) + bits_popcount32(mg_ur(own) & empty);
        if (kings) n += bits_popcount32(mg_dl(kings) & empty) + bits_popcount32(mg_dr(kings) & empty);
    }
    return n;
}

static uint64_t perft_rec(const Board *b, int depth);

static inline uint64_t perft_child(const Board *c, int depth)
{
    return depth == 1 ? (uint64_t)mg_count_moves(c) : perft_rec(c, depth);
}

/* Quiet moves of one direction class, played straight from the bitboards:
 * no Move is built (perft spends most of its time here). */
static inline uint64_t perft_quiet(const Board *b, uint32_t dests, int back, uint32_t promo, bool kings,
                                   int depth)
{
    uint64_t n = 0;
    int s = b->stm;
    while (dests) {
        int to = bits_poplsb32(&dests);
        uint32_t tm = 1u << to, fm = 1u << mg_neighbour[to][back];
        Board c = *b;
        c.pieces[s] ^= fm | tm;
        if (kings) c.kings ^= fm | tm;
        else c.kings |= tm & promo;
        c.stm = s ^ 1;
        n += perft_child(&c, depth - 1);
    }
    return n;
}

static uint64_t perft_rec(const Board *b, int depth)
{
    int side = b->stm;
    uint64_t n = 0;
    if (mg_can_capture(b, side)) {
        MoveList ml;
        mg_captures(b, &ml);
        for (int i = 0; i < ml.count; i++) {
            Board c = *b;
            mg_make_move(&c, &ml.moves[i]);
            n += perft_child(&c, depth - 1);
        }
        return n;
    }
    uint32_t empty = board_empty(b);
    uint32_t men = b->pieces[side] & ~b->kings, kings = b->pieces[side] & b->kings;
    if (side == KM_BLACK) {
        n += perft_quiet(b, mg_dl(men) & empty, MG_UR, BLACK_PROMO_ROW, false, depth);
        n += perft_quiet(b, mg_dr(men) & empty, MG_UL, BLACK_PROMO_ROW, false, depth);
    } else {
        n += perft_quiet(b, mg_ul(men) & empty, MG_DR, WHITE_PROMO_ROW, false, depth);
        n += perft_quiet(b, mg_ur(men) & empty, MG_DL, WHITE_PROMO_ROW, false, depth);
    }
    if (kings) {
        n += perft_quiet(b, mg_dl(kings) & empty, MG_UR, 0, true, depth);
        n += perft_quiet(b, mg_dr(kings) & empty, MG_UL, 0, true, depth);
        n += perft_quiet(b, mg_ul(kings) & empty, MG_DR, 0, true, depth);
        n += perft_quiet(b, mg_ur(kings) & empty, MG_DL, 0, true, depth);
    }
    return n;
}

uint64_t mg_perft(const Board *b, int depth)
{
    if (depth <= 0) return 1;
    if (depth == 1) return (uint64_t)mg_count_moves(b);
    return perft_rec(b, depth);
}

/* ---- perft with a table ---------------------------------------------------- */

int mg_perft_table_init(PerftTable *t, size_t mb)
{
    size_t n = 1;
    if (mb < 1) mb = 1;
    while (n * 2 * sizeof(PerftEntry) <= mb * 1024 * 1024) n *= 2;
    t->e = calloc(n, sizeof(PerftEntry));
    t->mask = n - 1;
    return t->e ? 0 : -1;
}

void mg_perft_table_free(PerftTable *t)
{
    free(t->e);
    t->e = NULL;
}

static inline uint64_t perft_key(const Board *b, uint32_t meta)
{
    uint64_t h = ((uint64_t)b->pieces[0] << 32 | b->pieces[1]) * 0x9E3779B97F4A7C15ull;
    h ^= ((uint64_t)b->kings << 8 | meta) * 0xC2B2AE3D27D4EB4Full;
    return h ^ (h >> 29);
}

static uint64_t perft_h(const Board *b, int depth, PerftTable *t)
{
    if (depth <= 2) return mg_perft(b, depth); /* cheaper to count than to look up */
    uint32_t meta = 1u + (uint32_t)b->stm + 2u * (uint32_t)depth;
    PerftEntry *e = &t->e[perft_key(b, meta) & t->mask];
    if (e->meta == meta && e->pieces[0] == b->pieces[0] && e->pieces[1] == b->pieces[1] &&
        e->kings == b->kings)
        return e->count;
    MoveList ml;
    mg_moves(b, &ml);
    uint64_t n = 0;
    for (int i = 0; i < ml.count; i++) {
        Board c = *b;
        mg_make_move(&c, &ml.moves[i]);
        n += perft_h(&c, depth - 1, t);
    }
    e->pieces[0] = b->pieces[0], e->pieces[1] = b->pieces[1], e->kings = b->kings;
    e->meta = meta;
    e->count = n;
    return n;
}

uint64_t mg_perft_hashed(const Board *b, int depth, PerftTable *t)
{
    if (depth <= 0) return 1;
    return perft_h(b, depth, t);
}
