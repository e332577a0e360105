/* movegen.c - move generation for English draughts.
 *
 * Simple moves come from whole-board shifts (one shift per direction gives
 * every destination at once). Captures are rarer and need the jump path, so
 * they are found by a depth-first search over per-square tables, started only
 * from the pieces that a bitboard test shows can jump. */
#include "kingme/movegen.h"
#include "kingme/bits.h"

/* Tables written out so they are const and need no initialisation call.
 * Generated from the geometry: square i is on row i/4, column 2*(i%4)+1 on
 * even rows and 2*(i%4) on odd rows. Directions: DL, DR, UL, UR. */
const int8_t mg_neighbour[32][4] = {
    {4, 5, -1, -1}, {5, 6, -1, -1}, {6, 7, -1, -1}, {7, -1, -1, -1},
    {-1, 8, -1, 0}, {8, 9, 0, 1}, {9, 10, 1, 2}, {10, 11, 2, 3},
    {12, 13, 4, 5}, {13, 14, 5, 6}, {14, 15, 6, 7}, {15, -1, 7, -1},
    {-1, 16, -1, 8}, {16, 17, 8, 9}, {17, 18, 9, 10}, {18, 19, 10, 11},
    {20, 21, 12, 13}, {21, 22, 13, 14}, {22, 23, 14, 15}, {23, -1, 15, -1},
    {-1, 24, -1, 16}, {24, 25, 16, 17}, {25, 26, 17, 18}, {26, 27, 18, 19},
    {28, 29, 20, 21}, {29, 30, 21, 22}, {30, 31, 22, 23}, {31, -1, 23, -1},
    {-1, -1, -1, 24}, {-1, -1, 24, 25}, {-1, -1, 25, 26}, {-1, -1, 26, 27},
};
const int8_t mg_jump_to[32][4] = {
    {-1, 9, -1, -1}, {8, 10, -1, -1}, {9, 11, -1, -1}, {10, -1, -1, -1},
    {-1, 13, -1, -1}, {12, 14, -1, -1}, {13, 15, -1, -1}, {14, -1, -1, -1},
    {-1, 17, -1, 1}, {16, 18, 0, 2}, {17, 19, 1, 3}, {18, -1, 2, -1},
    {-1, 21, -1, 5}, {20, 22, 4, 6}, {21, 23, 5, 7}, {22, -1, 6, -1},
    {-1, 25, -1, 9}, {24, 26, 8, 10}, {25, 27, 9, 11}, {26, -1, 10, -1},
    {-1, 29, -1, 13}, {28, 30, 12, 14}, {29, 31, 13, 15}, {30, -1, 14, -1},
    {-1, -1, -1, 17}, {-1, -1, 16, 18}, {-1, -1, 17, 19}, {-1, -1, 18, -1},
    {-1, -1, -1, 21}, {-1, -1, 20, 22}, {-1, -1, 21, 23}, {-1, -1, 22, -1},
};

/* Pieces of side that can make a jump (the rule that a capture is compulsory
 * between pieces is not applied: each piece is looked at alone). */
static inline uint32_t jumpers(const Board *b, int side)
{
    uint32_t own = b->pieces[side], opp = b->pieces[side ^ 1];
    uint32_t empty = board_empty(b);
    uint32_t down = side == KM_BLACK ? own : own & b->kings;
    uint32_t up = side == KM_WHITE ? own : own & b->kings;
    uint32_t j = 0;
    /* landing squares, mapped back twice to the jumping piece */
    j |= mg_ur(mg_ur(mg_dl(mg_dl(down) & opp) & empty));
    j |= mg_ul(mg_ul(mg_dr(mg_dr(down) & opp) & empty));
    j |= mg_dr(mg_dr(mg_ul(mg_ul(up) & opp) & empty));
    j |= mg_dl(mg_dl(mg_ur(mg_ur(up) & opp) & empty));
    return j;
}

bool mg_can_capture(const Board *b, int side)
{
    uint32_t own = b->pieces[side], opp = b->pieces[side ^ 1];
    uint32_t empty = board_empty(b);
    uint32_t down = side == KM_BLACK ? own : own & b->kings;
    uint32_t up = side == KM_WHITE ? own : own & b->kings;
    return ((mg_dl(mg_dl(down) & opp) | mg_dr(mg_dr(down) & opp)) & empty) ||
           ((mg_ul(mg_ul(up) & opp) | mg_ur(mg_ur(up) & opp)) & empty);
}

typedef struct JumpCtx {
    MoveList *ml;
    uint32_t opp;     /* enemy pieces (captured ones stay until the move ends) */
    uint32_t empty;   /* empty squares, the mover's origin included */
    uint32_t promo;   /* promotion row of a man, 0 for a king */
    int dmin, dmax;   /* direction range: men 0-1 (Black) or 2-3 (White), kings 0-3 */
    Move cur;
} JumpCtx;

static void jump_dfs(JumpCtx *c, int sq, int depth)
{
    bool extended = false;
    for (int d = c->dmin; d <= c->dmax; d++) {
        int over = mg_neighbour[sq][d], land = mg_jump_to[sq][d];
        if (land < 0) continue;
        uint32_t om = 1u << over, lm = 1u << land;
        if (!(c->opp & om) || (c->cur.captured & om) || !(c->empty & lm)) continue;
        extended = true;
        c->cur.captured |= om;
        c->cur.path[depth] = (uint8_t)land;
        if (lm & c->promo) { /* a man crowned: the move ends here */
            if (c->ml->count < MAX_MOVES) {
                Move *m = &c->ml->moves[c->ml->count++];
                *m = c->cur;
                m->to = (uint8_t)land;
                m->njumps = (uint8_t)(depth + 1);
            }
        } else {
            jump_dfs(c, land, depth + 1);
        }
        c->cur.captured &= ~om;
    }
    if (!extended && depth > 0 && c->ml->count < MAX_MOVES) {
        Move *m = &c->ml->moves[c->ml->count++];
        *m = c->cur;
        m->to = (uint8_t)sq;
        m->njumps = (uint8_t)depth;
    }
}

int gen_captures(const Board *b, MoveList *ml)
{
    ml->count = 0;
    int side = b->stm;
    uint32_t j = jumpers(b, side);
    if (!j) return 0;
    JumpCtx c;
    c.ml = ml;
    c.opp = b->pieces[side ^ 1];
    while (j) {
        int sq = poplsb32(&j);
        uint32_t fm = 1u << sq;
        c.empty = board_empty(b) | fm;
        if (b->kings & fm) {
            c.dmin = 0, c.dmax = 3, c.promo = 0;
        } else if (side == KM_BLACK) {
            c.dmin = 0, c.dmax = 1, c.promo = BLACK_PROMO_ROW;
        } else {
            c.dmin = 2, c.dmax = 3, c.promo = WHITE_PROMO_ROW;
        }
        c.cur.captured = 0;
        c.cur.from = (uint8_t)sq;
        c.cur.pad_ = 0;
        jump_dfs(&c, sq, 0);
    }
    return ml->count;
}

static inline void add_quiet(MoveList *ml, uint32_t dests, int back)
{
    while (dests) {
        int to = poplsb32(&dests);
        Move *m = &ml->moves[ml->count++];
        m->captured = 0;
        m->from = (uint8_t)mg_neighbour[to][back];
        m->to = (uint8_t)to;
        m->njumps = 0;
        m->pad_ = 0;
    }
}

int gen_moves(const Board *b, MoveList *ml)
{
    if (gen_captures(b, ml)) return ml->count;
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

int count_moves(const Board *b)
{
    int side = b->stm;
    if (jumpers(b, side)) {
        MoveList ml;
        return gen_captures(b, &ml);
    }
    uint32_t own = b->pieces[side], empty = board_empty(b);
    uint32_t down = side == KM_BLACK ? own : own & b->kings;
    uint32_t up = side == KM_WHITE ? own : own & b->kings;
    return popcount32(mg_dl(down) & empty) + popcount32(mg_dr(down) & empty) +
           popcount32(mg_ul(up) & empty) + popcount32(mg_ur(up) & empty);
}

uint64_t perft(const Board *b, int depth)
{
    if (depth <= 0) return 1;
    if (depth == 1) return (uint64_t)count_moves(b);
    MoveList ml;
    gen_moves(b, &ml);
    uint64_t n = 0;
    for (int i = 0; i < ml.count; i++) {
        Board c = *b;
        make_move(&c, &ml.moves[i]);
        n += perft(&c, depth - 1);
    }
    return n;
}
