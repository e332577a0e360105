/* eval.c - the 60 parameters of shared/spec/eval-params.md and the weighted sum.
 *
 * Everything is computed from the three bitboards with shifts, masks and
 * popcounts, for both colours at once (the parameters come in own/opp pairs,
 * so each colour's quantities are computed once and then placed according to
 * the point of view). Only the capture parameters (16, 17, 19, 20) need the
 * move generator, and only when a bitboard test shows that a capture exists.
 *
 * Choices where the spec leaves room (also in README, section show/eval):
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

#include <string.h>

const EvalParamInfo eval_params[EVAL_NPARAMS] = {
    {1, "own_men", "player's men"},
    {2, "own_kings", "player's kings"},
    {3, "opp_men", "opponent's men"},
    {4, "opp_kings", "opponent's kings"},
    {5, "own_men_edge", "player's men on wall squares"},
    {6, "own_kings_edge", "player's kings on wall squares"},
    {7, "opp_men_edge", "opponent's men on wall squares"},
    {8, "opp_kings_edge", "opponent's kings on wall squares"},
    {9, "own_movable_men", "player's men that can move or capture"},
    {10, "own_movable_kings", "player's kings that can move or capture"},
    {11, "opp_movable_men", "opponent's men that can move or capture"},
    {12, "opp_movable_kings", "opponent's kings that can move or capture"},
    {13, "own_moves", "player's legal moves (as if to move)"},
    {14, "opp_moves", "opponent's legal moves (as if to move)"},
    {15, "own_can_capture", "1 if the player has a capture"},
    {16, "own_captures", "player's capture moves"},
    {17, "own_longest_capture", "most pieces one player's capture takes"},
    {18, "opp_can_capture", "1 if the opponent has a capture"},
    {19, "opp_captures", "opponent's capture moves"},
    {20, "opp_longest_capture", "most pieces one opponent's capture takes"},
    {21, "own_promotion_distance", "rows the player's men still have to go"},
    {22, "opp_promotion_distance", "rows the opponent's men still have to go"},
    {23, "own_promotion_row_empty", "empty squares in the player's crowning row"},
    {24, "opp_promotion_row_empty", "empty squares in the opponent's crowning row"},
    {25, "own_men_low", "player's men in its rows 1-2"},
    {26, "own_kings_low", "player's kings in its rows 1-2"},
    {27, "opp_men_low", "opponent's men in its rows 1-2"},
    {28, "opp_kings_low", "opponent's kings in its rows 1-2"},
    {29, "own_men_middle", "player's men in its rows 4-5"},
    {30, "own_kings_middle", "player's kings in its rows 4-5"},
    {31, "opp_men_middle", "opponent's men in its rows 4-5"},
    {32, "opp_kings_middle", "opponent's kings in its rows 4-5"},
    {33, "own_men_high", "player's men in its rows 6-8"},
    {34, "own_kings_high", "player's kings in its rows 6-8"},
    {35, "opp_men_high", "opponent's men in its rows 6-8"},
    {36, "opp_kings_high", "opponent's kings in its rows 6-8"},
    {37, "own_lone_men", "player's men with no neighbour piece"},
    {38, "own_lone_kings", "player's kings with no neighbour piece"},
    {39, "opp_lone_men", "opponent's men with no neighbour piece"},
    {40, "opp_lone_kings", "opponent's kings with no neighbour piece"},
    {41, "own_man_in_corner", "1 if a player's man is on 4 or 29"},
    {42, "own_king_in_corner", "1 if a player's king is on 4 or 29"},
    {43, "own_both_corners", "1 if the player holds both 4 and 29"},
    {44, "opp_man_in_corner", "1 if an opponent's man is on 4 or 29"},
    {45, "opp_king_in_corner", "1 if an opponent's king is on 4 or 29"},
    {46, "opp_both_corners", "1 if the opponent holds both 4 and 29"},
    {47, "own_triangle", "1 if the player has the Triangle"},
    {48, "own_oreo", "1 if the player has the Oreo"},
    {49, "own_bridge", "1 if the player has the Bridge"},
    {50, "own_dog", "1 if the player has the Dog"},
    {51, "opp_triangle", "1 if the opponent has the Triangle"},
    {52, "opp_oreo", "1 if the opponent has the Oreo"},
    {53, "opp_bridge", "1 if the opponent has the Bridge"},
    {54, "opp_dog", "1 if the opponent has the Dog"},
    {55, "own_blockers", "player's pieces with an own piece ahead"},
    {56, "own_block_lines", "player's diagonal runs of 2+ pieces"},
    {57, "own_longest_block_line", "length of the player's longest run"},
    {58, "opp_blockers", "opponent's pieces with an own piece ahead"},
    {59, "opp_block_lines", "opponent's diagonal runs of 2+ pieces"},
    {60, "opp_longest_block_line", "length of the opponent's longest run"},
};

int eval_param_index(const char *name)
{
    if (!name) return -1;
    for (int i = 0; i < EVAL_NPARAMS; i++)
        if (strcmp(eval_params[i].name, name) == 0) return i;
    return -1;
}

/* ---- geometry ------------------------------------------------------------- */

#define WALL (SQ(4) | SQ(5) | SQ(12) | SQ(13) | SQ(20) | SQ(21) | SQ(28) | SQ(29))
#define CORNERS (SQ(4) | SQ(29))

/* Row masks from each colour's point of view (bit masks of board rows: Black's
 * row 1 is board row 0, squares 1-4; White's row 1 is squares 29-32). */
static const uint32_t LOW[2] = {0x000000FFu, 0xFF000000u};    /* own rows 1-2 */
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
    return popcount32(m & 0xF0F0F0F0u) + 2 * popcount32(m & 0xFF00FF00u) +
           4 * popcount32(m & 0xFFFF0000u);
}

static inline int has_all(uint32_t set, uint32_t pattern) { return (set & pattern) == pattern; }

/* Capture moves of side (count and most pieces taken by one), from the move
 * generator; only called when a capture exists. */
static void captures(const Board *b, int side, int *count, int *longest)
{
    Board c = *b;
    c.stm = side;
    MoveList ml;
    int n = gen_captures(&c, &ml), best = 0;
    for (int i = 0; i < n; i++)
        if (ml.moves[i].njumps > best) best = ml.moves[i].njumps;
    *count = n;
    *longest = best;
}

/* Each colour's 30 quantities, and the parameter index (0-based) each one
 * has as the player's (role 0) and as the opponent's (role 1). */
enum {
    Q_MEN, Q_KINGS, Q_MEN_EDGE, Q_KINGS_EDGE, Q_MOV_MEN, Q_MOV_KINGS,
    Q_MOVES, Q_CAN_CAPTURE, Q_CAPTURES, Q_LONGEST_CAPTURE,
    Q_PROMO_DIST, Q_PROMO_EMPTY,
    Q_MEN_LOW, Q_KINGS_LOW, Q_MEN_MID, Q_KINGS_MID, Q_MEN_HIGH, Q_KINGS_HIGH,
    Q_LONE_MEN, Q_LONE_KINGS, Q_MAN_CORNER, Q_KING_CORNER, Q_BOTH_CORNERS,
    Q_TRIANGLE, Q_OREO, Q_BRIDGE, Q_DOG, Q_BLOCKERS, Q_LINES, Q_LONGEST_LINE,
    NQ
};
static const int8_t QIDX[2][NQ] = {
    {0, 1, 4, 5, 8, 9, 12, 14, 15, 16, 20, 22, 24, 25, 28, 29, 32, 33, 36, 37, 40, 41, 42, 46, 47,
     48, 49, 54, 55, 56},
    {2, 3, 6, 7, 10, 11, 13, 17, 18, 19, 21, 23, 26, 27, 30, 31, 34, 35, 38, 39, 43, 44, 45, 50, 51,
     52, 53, 57, 58, 59},
};

/* Masks shared by both colours. */
typedef struct Shared {
    uint32_t empty, lonely;
    uint32_t e_ur, e_ul, e_dl, e_dr; /* squares whose DL / DR / UR / UL neighbour is empty */
} Shared;

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

/* One colour's quantities, either stored in f (score == 0) or multiplied
 * by their weights and summed (score == 1). In score mode the costly groups
 * (capture generation, the longest run) are skipped when their weights are 0;
 * those branches depend only on the weights, so they are always predicted. */
#define KM_INLINE static inline __attribute__((always_inline))
KM_INLINE int32_t colour_feat(const Board *b, const Shared *sh, int s, int role, int score,
                              const int16_t *w, int *f)
{
    int32_t sum = 0;
#define IDX(q) QIDX[role][q]
#define WANT(q) (!score || w[IDX(q)])
#define PUT(q, v)                                                                          \
    do {                                                                                   \
        if (score)                                                                         \
            sum += (int32_t)(v) * w[IDX(q)];                                               \
        else                                                                               \
            f[IDX(q)] = (v);                                                               \
    } while (0)

    uint32_t own = b->pieces[s], opp = b->pieces[s ^ 1];
    uint32_t men = own & ~b->kings, kings = own & b->kings;
    int nmen = popcount32(men);

    PUT(Q_MEN, nmen);
    PUT(Q_KINGS, popcount32(kings));
    PUT(Q_MEN_EDGE, popcount32(men & WALL));
    PUT(Q_KINGS_EDGE, popcount32(kings & WALL));

    /* Pieces able to step or jump towards higher squares ("down") and lower
     * squares ("up"): a step needs the neighbour empty; a jump needs an enemy
     * neighbour whose own neighbour beyond it is empty. */
    uint32_t jump_down = mg_ur(sh->e_ur & opp) | mg_ul(sh->e_ul & opp);
    uint32_t jump_up = mg_dl(sh->e_dl & opp) | mg_dr(sh->e_dr & opp);
    uint32_t down = sh->e_ur | sh->e_ul | jump_down;
    uint32_t up = sh->e_dl | sh->e_dr | jump_up;
    uint32_t dpieces = s == KM_BLACK ? own : kings; /* pieces moving down */
    uint32_t upieces = s == KM_WHITE ? own : kings; /* pieces moving up */
    PUT(Q_MOV_MEN, popcount32(men & (s == KM_BLACK ? down : up)));
    PUT(Q_MOV_KINGS, popcount32(kings & (down | up)));

    int can = ((dpieces & jump_down) | (upieces & jump_up)) != 0;
    PUT(Q_CAN_CAPTURE, can);
    if (can) {
        if (WANT(Q_MOVES) || WANT(Q_CAPTURES) || WANT(Q_LONGEST_CAPTURE)) {
            int n, longest;
            captures(b, s, &n, &longest);
            PUT(Q_MOVES, n); /* compulsory capture: the captures are the moves */
            PUT(Q_CAPTURES, n);
            PUT(Q_LONGEST_CAPTURE, longest);
        }
    } else {
        PUT(Q_MOVES, popcount32(dpieces & sh->e_ur) + popcount32(dpieces & sh->e_ul) +
                         popcount32(upieces & sh->e_dl) + popcount32(upieces & sh->e_dr));
        if (!score) f[IDX(Q_CAPTURES)] = f[IDX(Q_LONGEST_CAPTURE)] = 0;
    }

    int rs = row_sum(men);
    PUT(Q_PROMO_DIST, s == KM_BLACK ? 7 * nmen - rs : rs);
    PUT(Q_PROMO_EMPTY, popcount32(sh->empty & km_promotion_row(s)));

    PUT(Q_MEN_LOW, popcount32(men & LOW[s]));
    PUT(Q_KINGS_LOW, popcount32(kings & LOW[s]));
    PUT(Q_MEN_MID, popcount32(men & MIDDLE[s]));
    PUT(Q_KINGS_MID, popcount32(kings & MIDDLE[s]));
    PUT(Q_MEN_HIGH, popcount32(men & HIGH[s]));
    PUT(Q_KINGS_HIGH, popcount32(kings & HIGH[s]));

    PUT(Q_LONE_MEN, popcount32(men & sh->lonely));
    PUT(Q_LONE_KINGS, popcount32(kings & sh->lonely));

    PUT(Q_MAN_CORNER, (men & CORNERS) != 0);
    PUT(Q_KING_CORNER, (kings & CORNERS) != 0);
    PUT(Q_BOTH_CORNERS, has_all(own, CORNERS));

    PUT(Q_TRIANGLE, has_all(men, TRIANGLE[s]));
    PUT(Q_OREO, has_all(men, OREO[s]));
    PUT(Q_BRIDGE, has_all(men, BRIDGE[s]));
    PUT(Q_DOG, (men & DOG_MAN[s]) && (opp & ~b->kings & DOG_HOLD[s]));

    /* Pairs along each diagonal: dl = pieces whose down-left neighbour is own,
     * dr = pieces whose down-right neighbour is own. A run's top square is in
     * the pair set but its up neighbour is not own: one per maximal run. */
    uint32_t dl = own & mg_ur(own), dr = own & mg_ul(own);
    PUT(Q_BLOCKERS, popcount32(s == KM_BLACK ? dl | dr : own & (mg_dl(own) | mg_dr(own))));
    PUT(Q_LINES, popcount32(dl & ~mg_dl(own)) + popcount32(dr & ~mg_dr(own)));
    if (WANT(Q_LONGEST_LINE)) {
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
        PUT(Q_LONGEST_LINE, len);
    }
    return sum;
#undef PUT
#undef WANT
#undef IDX
}

KM_INLINE int32_t extract(const Board *b, int side, int score, const int16_t *w, int *f)
{
    Shared sh;
    uint32_t occ = board_occupied(b);
    sh.empty = ~occ;
    sh.e_ur = mg_ur(sh.empty);
    sh.e_ul = mg_ul(sh.empty);
    sh.e_dl = mg_dl(sh.empty);
    sh.e_dr = mg_dr(sh.empty);
    sh.lonely = ~(down2(occ) | up2(occ));
    return colour_feat(b, &sh, side, 0, score, w, f) +
           colour_feat(b, &sh, side ^ 1, 1, score, w, f);
}

/* Each entry point is compiled once per colour, so that the colour's masks
 * and directions are constants. */
void eval_features(const Board *b, int side, int f[EVAL_NPARAMS])
{
    if (side == KM_BLACK)
        extract(b, KM_BLACK, 0, NULL, f);
    else
        extract(b, KM_WHITE, 0, NULL, f);
}

int32_t eval_dot(const int f[EVAL_NPARAMS], const Weights *w)
{
    int32_t s = 0;
    for (int i = 0; i < EVAL_NPARAMS; i++) s += (int32_t)f[i] * w->w[i];
    return s;
}

int32_t eval_score(const Board *b, int side, const Weights *w)
{
    return side == KM_BLACK ? extract(b, KM_BLACK, 1, w->w, NULL)
                            : extract(b, KM_WHITE, 1, w->w, NULL);
}
