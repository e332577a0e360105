/* eval.c - the 60 parameters of docs/eval-params.md (listed in eval.h) and the weighted sum.
 *
 * Everything is computed from the three bitboards with shifts, masks and
 * popcounts, for both colours at once (the parameters come in own/opp pairs,
 * so each colour's quantities are computed once and then placed according to
 * the point of view). Only the capture parameters (16, 17, 19, 20) need the
 * move generator, and only when a bitboard test shows that a capture exists.
 * One source, colour_terms, computes each term: the extractor
 * (eval_features) stores them, the scorer (eval_score) sums them weighted.
 *
 * Choices where the spec leaves room (also in docs/file-formats.md):
 *  - "pieces" means men and kings; "men" / "kings" only those.
 *  - 16/19 count capture moves as the move generator lists them: every
 *    distinct jump path is one move (two paths over the same pieces to the same
 *    square count twice, as in perft). 17/20 count the pieces taken.
 *  - 21/22 count men only (kings have no promotion row).
 *  - 23/24: "empty" means no piece of either colour.
 *  - 47-54: the patterns need men (a king on 1, 2, 6 is no Triangle); the Dog's
 *    holding piece must be a man too ("a White man on 32").
 *  - 55/58: kings count as blockers as well; "forward" is always the owner's
 *    forward (towards its promotion row), for men and kings alike.
 *  - 56/57/59/60: the pieces in a run may be men or kings; a run is along one
 *    diagonal direction (down-left/up-right or down-right/up-left); one square
 *    can be in a run of each direction. 57/60 are 0 when there is no run.
 *  - 41: a man can stand on a side's corner only on its own back rank (4 for
 *    Black, 29 for White); the other corner is its promotion row. */
#include "kingme/eval.h"
#include "kingme/bits.h"
#include "kingme/movegen.h"
#include "kingme/nn.h"
#include "kingme/patterns.h"

#include <string.h>

const EvalParamInfo eval_params[EVAL_NTERMS] = {
#define PARAM_INFO(nr, name, q, role, desc) {nr, #name, desc},
    EVAL_TERM_LIST(PARAM_INFO)
#undef PARAM_INFO
};

/* Each term's quantity and role, from the list: the pairs own_X / opp_X. */
static const struct {
    const char *quantity, *role;
} term_kind[EVAL_NTERMS] = {
#define TERM_KIND_(nr, name, q, role, desc) {#q, #role},
    EVAL_TERM_LIST(TERM_KIND_)
#undef TERM_KIND_
};

int eval_term_partner(int i)
{
    if (i < 0 || i >= EVAL_NTERMS || strcmp(term_kind[i].role, "OWN") != 0) return -1;
    for (int j = 0; j < EVAL_NTERMS; j++)
        if (j != i && strcmp(term_kind[j].quantity, term_kind[i].quantity) == 0) return j;
    return -1;
}

/* The list must be in the documents' order: EP_x is the index of number nr. */
#define PARAM_ORDER(nr, name, q, role, desc) \
    _Static_assert(EP_##name == (nr)-1, "EVAL_PARAM_LIST: " #name " is not number " #nr);
EVAL_TERM_LIST(PARAM_ORDER)
#undef PARAM_ORDER

/* ---- geometry ------------------------------------------------------------- */

#define WALL (SQ(4) | SQ(5) | SQ(12) | SQ(13) | SQ(20) | SQ(21) | SQ(28) | SQ(29))
#define CORNERS (SQ(4) | SQ(29))
#define CENTRE (SQ(10) | SQ(11) | SQ(14) | SQ(15) | SQ(18) | SQ(19) | SQ(22) | SQ(23))
#define DOUBLE_CORNERS (SQ(1) | SQ(5) | SQ(28) | SQ(32))

/* Row masks from each colour's point of view (bit masks of board rows: Black's
 * row 1 is board row 0, squares 1-4; White's row 1 is squares 29-32). */
static const uint32_t LOW[2] = {0x000000FFu, 0xFF000000u};    /* own rows 1-2 */
static const uint32_t BACK[2] = {0x0000000Fu, 0xF0000000u};   /* own row 1 */
static const uint32_t MIDDLE[2] = {0x000FF000u, 0x000FF000u}; /* own rows 4-5 */
static const uint32_t HIGH[2] = {0xFFF00000u, 0x00000FFFu};   /* own rows 6-8 */

/* The patterns for each colour (White's: squares turned round, s -> 33-s). */
static const uint32_t TRIANGLE[2] = {SQ(1) | SQ(2) | SQ(6), SQ(27) | SQ(31) | SQ(32)};
static const uint32_t OREO[2] = {SQ(2) | SQ(3) | SQ(7), SQ(26) | SQ(30) | SQ(31)};
static const uint32_t BRIDGE[2] = {SQ(1) | SQ(3), SQ(30) | SQ(32)};
static const uint32_t DOG_MAN[2] = {SQ(28), SQ(5)};  /* own man in the dog hole */
static const uint32_t DOG_HOLD[2] = {SQ(32), SQ(1)}; /* held by this enemy man */

/* Sum of board row indices (0..7) over the squares of m: bit k of the row
 * index is set on rows with that bit, so three popcounts do it. */
static inline int row_sum(uint32_t m)
{
    return bits_popcount32(m & 0xF0F0F0F0u) + 2 * bits_popcount32(m & 0xFF00FF00u) +
           4 * bits_popcount32(m & 0xFFFF0000u);
}

static inline int has_all(uint32_t set, uint32_t pattern) { return (set & pattern) == pattern; }

/* Capture moves of side (count and most pieces taken by one), from the move
 * generator; only called when a capture exists. */
static void captures(const Board *b, int side, int *count, int *longest)
{
    Board c = *b;
    c.stm = side;
    MoveList ml;
    int n = mg_captures(&c, &ml), best = 0;
    for (int i = 0; i < n; i++)
        if (ml.moves[i].njumps > best) best = ml.moves[i].njumps;
    *count = n;
    *longest = best;
}

/* Each colour's quantities (the OWN entries of the list name them all),
 * and the parameter index each one has as the player's (role OWN) and as the
 * opponent's (role OPP). */
enum { OWN, OPP };
enum {
#define QUANTITY(nr, name, q, role, desc) QUANTITY_##role(q)
#define QUANTITY_OWN(q) Q_##q,
#define QUANTITY_OPP(q)
    EVAL_TERM_LIST(QUANTITY)
#undef QUANTITY
#undef QUANTITY_OWN
#undef QUANTITY_OPP
        NQ
};
_Static_assert(2 * NQ == EVAL_NTERMS, "every quantity has an OWN and an OPP parameter");
static const int8_t QIDX[2][NQ] = {
#define QUANTITY_INDEX(nr, name, q, role, desc) [role][Q_##q] = EP_##name,
    EVAL_TERM_LIST(QUANTITY_INDEX)
#undef QUANTITY_INDEX
};

/* Squares one step down (either way) / up of the squares of x: mg_dl | mg_dr
 * and mg_ul | mg_ur with the common shift by 4 done once. */
static inline uint32_t down2(uint32_t x)
{
    return (x << 4) | ((x & MG_ODD_ROWS & ~MG_COL0) << 3) | ((x & MG_EVEN_ROWS & ~MG_COL3) << 5);
}
static inline uint32_t up2(uint32_t x)
{
    return (x >> 4) | ((x & MG_ODD_ROWS & ~MG_COL0) >> 5) | ((x & MG_EVEN_ROWS & ~MG_COL3) >> 3);
}

/* The squares whose forward cone (the square and every square a man of
 * side s could reach from it by forward steps, up to its crowning row) holds
 * a piece of `opp`: a square is in it when an opp piece is reachable forward,
 * that is when it is reachable from an opp piece by backward steps, so the
 * opp pieces are flooded backwards, one row a step, until nothing changes
 * (seven rows at most). */
static inline uint32_t blocked_cones(uint32_t opp, int s)
{
    uint32_t c = opp;
    for (int k = 0; k < 7; k++) {
        uint32_t n = c | (s == KM_BLACK ? up2(c) : down2(c));
        if (n == c) break;
        c = n;
    }
    return c;
}

/* The position as both colours see it: the board and the masks shared by
 * both colours' terms. */
typedef struct Pos {
    const Board *b;
    uint32_t empty, lonely;
    uint32_t e_ur, e_ul, e_dl, e_dr; /* squares whose DL / DR / UR / UL neighbour is empty */
} Pos;

/* Where the terms go. The extractor (f set) stores every term in f. The
 * scorer (f NULL) stores them as int16 in q (zeros first), for the dot
 * products of named_score, and skips the costly groups (capture generation,
 * the longest run, the runaways' cones) when their weights cw[term] are 0,
 * and the terms beyond the 60 unless `extra`: those tests depend only on
 * the weights, so they are always predicted. Each caller's Sink is a
 * constant of its own copy of colour_terms (always inlined), so neither
 * pays for the other's branches. */
typedef struct Sink {
    int *f;            /* the extractor's terms, or NULL: the scorer */
    int16_t *q;        /* the scorer's terms */
    const int32_t *cw; /* the scorer's weights in the position's phase (a row of EvalTable) */
    int extra;         /* the scorer: some term beyond the 60 has a weight */
} Sink;

#define KM_INLINE static inline __attribute__((always_inline))
KM_INLINE int wanted(const Sink *o, int term) { return o->f || o->cw[term] != 0; }
KM_INLINE void put(Sink *o, int term, int v)
{
    if (o->f) o->f[term] = v;
    else o->q[term] = (int16_t)v; /* every term is a small count */
}

/* One colour's terms: those of colour s, which is the player (role OWN) or
 * the opponent (role OPP). */
KM_INLINE void colour_terms(const Pos *p, int s, int role, Sink *o)
{
    const int8_t *ix = QIDX[role]; /* the term of each quantity */
    const Board *b = p->b;
    uint32_t own = b->pieces[s], opp = b->pieces[s ^ 1];
    uint32_t men = own & ~b->kings, kings = own & b->kings;
    int nmen = bits_popcount32(men);

    put(o, ix[Q_MEN], nmen);
    put(o, ix[Q_KINGS], bits_popcount32(kings));
    put(o, ix[Q_MEN_EDGE], bits_popcount32(men & WALL));
    put(o, ix[Q_KINGS_EDGE], bits_popcount32(kings & WALL));

    /* Pieces able to step or jump towards higher squares ("down") and lower
     * squares ("up"): a step needs the neighbour empty; a jump needs an enemy
     * neighbour whose own neighbour beyond it is empty. */
    uint32_t jump_down = mg_ur(p->e_ur & opp) | mg_ul(p->e_ul & opp);
    uint32_t jump_up = mg_dl(p->e_dl & opp) | mg_dr(p->e_dr & opp);
    uint32_t down = p->e_ur | p->e_ul | jump_down;
    uint32_t up = p->e_dl | p->e_dr | jump_up;
    uint32_t dpieces = s == KM_BLACK ? own : kings; /* pieces moving down */
    uint32_t upieces = s == KM_WHITE ? own : kings; /* pieces moving up */
    put(o, ix[Q_MOV_MEN], bits_popcount32(men & (s == KM_BLACK ? down : up)));
    put(o, ix[Q_MOV_KINGS], bits_popcount32(kings & (down | up)));

    int can = ((dpieces & jump_down) | (upieces & jump_up)) != 0;
    put(o, ix[Q_CAN_CAPTURE], can);
    if (can) {
        if (wanted(o, ix[Q_MOVES]) || wanted(o, ix[Q_CAPTURES]) || wanted(o, ix[Q_LONGEST_CAPTURE])) {
            int n, longest;
            captures(b, s, &n, &longest);
            put(o, ix[Q_MOVES], n); /* compulsory capture: the captures are the moves */
            put(o, ix[Q_CAPTURES], n);
            put(o, ix[Q_LONGEST_CAPTURE], longest);
        }
    } else {
        put(o, ix[Q_MOVES],
            bits_popcount32(dpieces & p->e_ur) + bits_popcount32(dpieces & p->e_ul) +
                bits_popcount32(upieces & p->e_dl) + bits_popcount32(upieces & p->e_dr));
        put(o, ix[Q_CAPTURES], 0);
        put(o, ix[Q_LONGEST_CAPTURE], 0);
    }

    int rs = row_sum(men);
    put(o, ix[Q_PROMO_DIST], s == KM_BLACK ? 7 * nmen - rs : rs);
    put(o, ix[Q_PROMO_EMPTY], bits_popcount32(p->empty & km_promotion_row(s)));

    put(o, ix[Q_MEN_LOW], bits_popcount32(men & LOW[s]));
    put(o, ix[Q_KINGS_LOW], bits_popcount32(kings & LOW[s]));
    put(o, ix[Q_MEN_MID], bits_popcount32(men & MIDDLE[s]));
    put(o, ix[Q_KINGS_MID], bits_popcount32(kings & MIDDLE[s]));
    put(o, ix[Q_MEN_HIGH], bits_popcount32(men & HIGH[s]));
    put(o, ix[Q_KINGS_HIGH], bits_popcount32(kings & HIGH[s]));

    put(o, ix[Q_LONE_MEN], bits_popcount32(men & p->lonely));
    put(o, ix[Q_LONE_KINGS], bits_popcount32(kings & p->lonely));

    put(o, ix[Q_MAN_CORNER], (men & CORNERS) != 0);
    put(o, ix[Q_KING_CORNER], (kings & CORNERS) != 0);
    put(o, ix[Q_BOTH_CORNERS], has_all(own, CORNERS));

    put(o, ix[Q_TRIANGLE], has_all(men, TRIANGLE[s]));
    put(o, ix[Q_OREO], has_all(men, OREO[s]));
    put(o, ix[Q_BRIDGE], has_all(men, BRIDGE[s]));
    put(o, ix[Q_DOG], (men & DOG_MAN[s]) && (opp & ~b->kings & DOG_HOLD[s]));

    /* Pairs along each diagonal: dl = pieces whose down-left neighbour is own,
     * dr = pieces whose down-right neighbour is own. A run's top square is in
     * the pair set but its up neighbour is not own: one per maximal run. */
    uint32_t dl = own & mg_ur(own), dr = own & mg_ul(own);
    put(o, ix[Q_BLOCKERS], bits_popcount32(s == KM_BLACK ? dl | dr : own & (mg_dl(own) | mg_dr(own))));
    put(o, ix[Q_LINES], bits_popcount32(dl & ~mg_dl(own)) + bits_popcount32(dr & ~mg_dr(own)));
    if (wanted(o, ix[Q_LONGEST_LINE])) {
        /* Squares starting a run of length >= k+1 are those starting a run
         * of length >= k whose next square also does. */
        int len = 0;
        if (dl | dr) {
            len = 2;
            for (;;) {
                dl &= mg_ur(dl);
                dr &= mg_ul(dr);
                if (!(dl | dr)) break;
                len++;
            }
        }
        put(o, ix[Q_LONGEST_LINE], len);
    }

    /* ---- the terms beyond the 60 (61..), when one has a weight ---- */
    if (!o->f && !o->extra) return;
    if (wanted(o, ix[Q_RUNAWAY])) put(o, ix[Q_RUNAWAY], bits_popcount32(men & ~blocked_cones(opp, s)));
    put(o, ix[Q_BACK_MEN], bits_popcount32(men & BACK[s]));
    put(o, ix[Q_MEN_CENTRE], bits_popcount32(men & CENTRE));
    put(o, ix[Q_KINGS_CENTRE], bits_popcount32(kings & CENTRE));
    put(o, ix[Q_KINGS_DOUBLE], bits_popcount32(kings & DOUBLE_CORNERS));
    put(o, ix[Q_SOLE_KINGS], (opp & b->kings) ? 0 : bits_popcount32(kings));
    int mine = bits_popcount32(own), theirs = bits_popcount32(opp);
    put(o, ix[Q_TRADE_LEAD], mine > theirs ? (mine - theirs) * (24 - mine - theirs) : 0);
}

/* Both colours' terms of b for side into o. */
KM_INLINE void terms(const Board *b, int side, Sink *o)
{
    uint32_t occ = board_occupied(b);
    Pos p = {b, ~occ, ~(down2(occ) | up2(occ)), mg_ur(~occ), mg_ul(~occ), mg_dl(~occ), mg_dr(~occ)};
    colour_terms(&p, side, OWN, o);
    colour_terms(&p, side ^ 1, OPP, o);
}

/* Whether any of the new terms has a weight in v (one test instead of one
 * per term when none has, as with every 60-parameter file). */
static inline int has_extra(const int16_t *v)
{
    _Static_assert(EVAL_NEXTRA == 14, "has_extra reads the new terms as 3 x 8 + 4 bytes");
    uint64_t x[3];
    uint32_t y;
    memcpy(x, v + EVAL_NPARAMS, sizeof x);
    memcpy(&y, v + EVAL_NPARAMS + 12, sizeof y);
    return (x[0] | x[1] | x[2] | y) != 0;
}

/* Each colour's copy of the extractor and the scorer (and of the scorer
 * with and without the new terms) is compiled on its own, so that the
 * colour's masks and directions are constants. */
void eval_features(const Board *b, int side, EvalFeatures *f)
{
    Sink o = {f->term, NULL, NULL, 1};
    if (side == KM_BLACK) terms(b, KM_BLACK, &o);
    else terms(b, KM_WHITE, &o);
    pat_features(b, &f->pat);
}

/* The sum of q[i] w[i] (a term's value times a weight fits 22 bits, their
 * sum 29: int32 is exact); compilers make it 16-bit multiply-adds. */
static inline int32_t dot16(const int16_t *restrict q, const int16_t *restrict w)
{
    int32_t s = 0;
    for (int i = 0; i < EVAL_NTERMS_PAD; i++) s += q[i] * w[i];
    return s;
}

KM_INLINE int32_t named_score(const Board *b, int side, const EvalTable *t, int extra)
{
    _Alignas(16) int16_t q[EVAL_NTERMS_PAD];
    memset(q, 0, sizeof q);
    int phase = phase_factor(bits_popcount32(board_occupied(b)));
    Sink o = {NULL, q, t->cw[phase], extra};
    terms(b, side, &o);
    if (!t->phased) return dot16(q, t->wq[0]);
    int64_t acc =
        (int64_t)dot16(q, t->wq[0]) * phase + (int64_t)dot16(q, t->wq[1]) * (EVAL_PHASE_SPAN - phase);
    return (int32_t)(acc / EVAL_PHASE_SPAN);
}

int32_t eval_score(const Board *b, int side, const EvalTable *t)
{
    int32_t v;
    if (t->extra) v = side == KM_BLACK ? named_score(b, KM_BLACK, t, 1) : named_score(b, KM_WHITE, t, 1);
    else v = side == KM_BLACK ? named_score(b, KM_BLACK, t, 0) : named_score(b, KM_WHITE, t, 0);
    if (t->pat) v += pat_eval(t->pat, b, side);
    return t->net ? v + nn_eval(t->net, b, side) : v;
}

void eval_table_init(EvalTable *t, const Weights *w)
{
    memset(t, 0, sizeof *t);
    t->phased = w->phased != 0;
    t->extra = has_extra(w->w) || (t->phased && has_extra(w->end));
    for (int p = 0; p <= EVAL_PHASE_SPAN; p++)
        for (int i = 0; i < EVAL_NTERMS; i++)
            t->cw[p][i] =
                t->phased ? (int32_t)w->w[i] * p + (int32_t)w->end[i] * (EVAL_PHASE_SPAN - p) : w->w[i];
    for (int i = 0; i < EVAL_NTERMS; i++) {
        t->wq[0][i] = w->w[i];
        t->wq[1][i] = t->phased ? w->end[i] : 0;
    }
    t->pat = w->pat;
    t->net = w->net;
}

uint64_t eval_weights_key(const Weights *w)
{
    uint64_t h = 0x6B77656967687473ull;
    for (int i = 0; i < EVAL_NPARAMS; i++) h = km_mix64(h ^ (uint16_t)w->w[i] ^ ((uint64_t)i << 16));
    /* the new terms, the phase and the pattern layer when used: a
     * 60-parameter vector keeps its key */
    for (int i = EVAL_NPARAMS; i < EVAL_NTERMS; i++)
        if (w->w[i]) h = km_mix64(h ^ (uint16_t)w->w[i] ^ ((uint64_t)i << 16));
    if (w->phased)
        for (int i = 0; i < EVAL_NTERMS; i++)
            h = km_mix64(h ^ (uint16_t)w->end[i] ^ ((uint64_t)(EVAL_NTERMS + i) << 16));
    if (w->pat) h = km_mix64(h ^ w->pat->key);
    if (w->net) h = km_mix64(h ^ w->net->key);
    return h;
}
