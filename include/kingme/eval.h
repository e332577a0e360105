/* eval.h - the 60 evaluation parameters (docs/eval-params.md) and the
 * weighted sum: one feature extractor (eval_features) and one scorer
 * (eval_score), from one source, for the search and every command. */
#ifndef KINGME_EVAL_H
#define KINGME_EVAL_H

#include "kingme/board.h"
#include "kingme/patterns.h"
#include "kingme/phase.h"

/* The 60 parameters, defined here once: every table of names, numbers and
 * indices is generated from this list.
 *   X(nr, name, quantity, role, description)
 * nr: the documents' number (1..60, the list is in that order); name: the
 * name in weights files; quantity: what eval.c computes once per colour (the
 * parameters come in own/opp pairs of one quantity); role: OWN (the player's,
 * the side the evaluation is for) or OPP (the opponent's); description: the
 * short text of `kingme show` and `kingme eval`. */
#define EVAL_PARAM_LIST(X)                                                                           \
    X(1, own_men, MEN, OWN, "player's men")                                                          \
    X(2, own_kings, KINGS, OWN, "player's kings")                                                    \
    X(3, opp_men, MEN, OPP, "opponent's men")                                                        \
    X(4, opp_kings, KINGS, OPP, "opponent's kings")                                                  \
    X(5, own_men_edge, MEN_EDGE, OWN, "player's men on wall squares")                                \
    X(6, own_kings_edge, KINGS_EDGE, OWN, "player's kings on wall squares")                          \
    X(7, opp_men_edge, MEN_EDGE, OPP, "opponent's men on wall squares")                              \
    X(8, opp_kings_edge, KINGS_EDGE, OPP, "opponent's kings on wall squares")                        \
    X(9, own_movable_men, MOV_MEN, OWN, "player's men that can move or capture")                     \
    X(10, own_movable_kings, MOV_KINGS, OWN, "player's kings that can move or capture")              \
    X(11, opp_movable_men, MOV_MEN, OPP, "opponent's men that can move or capture")                  \
    X(12, opp_movable_kings, MOV_KINGS, OPP, "opponent's kings that can move or capture")            \
    X(13, own_moves, MOVES, OWN, "player's legal moves (as if to move)")                             \
    X(14, opp_moves, MOVES, OPP, "opponent's legal moves (as if to move)")                           \
    X(15, own_can_capture, CAN_CAPTURE, OWN, "1 if the player has a capture")                        \
    X(16, own_captures, CAPTURES, OWN, "player's capture moves")                                     \
    X(17, own_longest_capture, LONGEST_CAPTURE, OWN, "most pieces one player's capture takes")       \
    X(18, opp_can_capture, CAN_CAPTURE, OPP, "1 if the opponent has a capture")                      \
    X(19, opp_captures, CAPTURES, OPP, "opponent's capture moves")                                   \
    X(20, opp_longest_capture, LONGEST_CAPTURE, OPP, "most pieces one opponent's capture takes")     \
    X(21, own_promotion_distance, PROMO_DIST, OWN, "rows the player's men still have to go")         \
    X(22, opp_promotion_distance, PROMO_DIST, OPP, "rows the opponent's men still have to go")       \
    X(23, own_promotion_row_empty, PROMO_EMPTY, OWN, "empty squares in the player's crowning row")   \
    X(24, opp_promotion_row_empty, PROMO_EMPTY, OPP, "empty squares in the opponent's crowning row") \
    X(25, own_men_low, MEN_LOW, OWN, "player's men in its rows 1-2")                                 \
    X(26, own_kings_low, KINGS_LOW, OWN, "player's kings in its rows 1-2")                           \
    X(27, opp_men_low, MEN_LOW, OPP, "opponent's men in its rows 1-2")                               \
    X(28, opp_kings_low, KINGS_LOW, OPP, "opponent's kings in its rows 1-2")                         \
    X(29, own_men_middle, MEN_MID, OWN, "player's men in its rows 4-5")                              \
    X(30, own_kings_middle, KINGS_MID, OWN, "player's kings in its rows 4-5")                        \
    X(31, opp_men_middle, MEN_MID, OPP, "opponent's men in its rows 4-5")                            \
    X(32, opp_kings_middle, KINGS_MID, OPP, "opponent's kings in its rows 4-5")                      \
    X(33, own_men_high, MEN_HIGH, OWN, "player's men in its rows 6-8")                               \
    X(34, own_kings_high, KINGS_HIGH, OWN, "player's kings in its rows 6-8")                         \
    X(35, opp_men_high, MEN_HIGH, OPP, "opponent's men in its rows 6-8")                             \
    X(36, opp_kings_high, KINGS_HIGH, OPP, "opponent's kings in its rows 6-8")                       \
    X(37, own_lone_men, LONE_MEN, OWN, "player's men with no neighbour piece")                       \
    X(38, own_lone_kings, LONE_KINGS, OWN, "player's kings with no neighbour piece")                 \
    X(39, opp_lone_men, LONE_MEN, OPP, "opponent's men with no neighbour piece")                     \
    X(40, opp_lone_kings, LONE_KINGS, OPP, "opponent's kings with no neighbour piece")               \
    X(41, own_man_in_corner, MAN_CORNER, OWN, "1 if a player's man is on 4 or 29")                   \
    X(42, own_king_in_corner, KING_CORNER, OWN, "1 if a player's king is on 4 or 29")                \
    X(43, own_both_corners, BOTH_CORNERS, OWN, "1 if the player holds both 4 and 29")                \
    X(44, opp_man_in_corner, MAN_CORNER, OPP, "1 if an opponent's man is on 4 or 29")                \
    X(45, opp_king_in_corner, KING_CORNER, OPP, "1 if an opponent's king is on 4 or 29")             \
    X(46, opp_both_corners, BOTH_CORNERS, OPP, "1 if the opponent holds both 4 and 29")              \
    X(47, own_triangle, TRIANGLE, OWN, "1 if the player has the Triangle")                           \
    X(48, own_oreo, OREO, OWN, "1 if the player has the Oreo")                                       \
    X(49, own_bridge, BRIDGE, OWN, "1 if the player has the Bridge")                                 \
    X(50, own_dog, DOG, OWN, "1 if the player has the Dog")                                          \
    X(51, opp_triangle, TRIANGLE, OPP, "1 if the opponent has the Triangle")                         \
    X(52, opp_oreo, OREO, OPP, "1 if the opponent has the Oreo")                                     \
    X(53, opp_bridge, BRIDGE, OPP, "1 if the opponent has the Bridge")                               \
    X(54, opp_dog, DOG, OPP, "1 if the opponent has the Dog")                                        \
    X(55, own_blockers, BLOCKERS, OWN, "player's pieces with an own piece ahead")                    \
    X(56, own_block_lines, LINES, OWN, "player's diagonal runs of 2+ pieces")                        \
    X(57, own_longest_block_line, LONGEST_LINE, OWN, "length of the player's longest run")           \
    X(58, opp_blockers, BLOCKERS, OPP, "opponent's pieces with an own piece ahead")                  \
    X(59, opp_block_lines, LINES, OPP, "opponent's diagonal runs of 2+ pieces")                      \
    X(60, opp_longest_block_line, LONGEST_LINE, OPP, "length of the opponent's longest run")

/* The terms beyond the documents' 60 (docs/file-formats.md, "The terms
 * 61-74"), in the same form. A weights file that names none of them
 * leaves their weights 0, and a term of weight 0 is not computed by
 * eval_score, so such a file evaluates exactly as the 60 alone. */
#define EVAL_EXTRA_LIST(X)                                                                            \
    X(61, own_runaway_men, RUNAWAY, OWN, "player's men with no opponent piece in their forward cone") \
    X(62, opp_runaway_men, RUNAWAY, OPP, "opponent's men with no player piece in their forward cone") \
    X(63, own_back_men, BACK_MEN, OWN, "player's men on its back rank (row 1)")                       \
    X(64, opp_back_men, BACK_MEN, OPP, "opponent's men on its back rank (row 1)")                     \
    X(65, own_men_centre, MEN_CENTRE, OWN, "player's men on 10,11,14,15,18,19,22,23")                 \
    X(66, opp_men_centre, MEN_CENTRE, OPP, "opponent's men on 10,11,14,15,18,19,22,23")               \
    X(67, own_kings_centre, KINGS_CENTRE, OWN, "player's kings on 10,11,14,15,18,19,22,23")           \
    X(68, opp_kings_centre, KINGS_CENTRE, OPP, "opponent's kings on 10,11,14,15,18,19,22,23")         \
    X(69, own_kings_double_corner, KINGS_DOUBLE, OWN, "player's kings on 1, 5, 28, 32")               \
    X(70, opp_kings_double_corner, KINGS_DOUBLE, OPP, "opponent's kings on 1, 5, 28, 32")             \
    X(71, own_sole_kings, SOLE_KINGS, OWN, "player's kings when the opponent has no king")            \
    X(72, opp_sole_kings, SOLE_KINGS, OPP, "opponent's kings when the player has no king")            \
    X(73, own_trade_lead, TRADE_LEAD, OWN, "player's piece lead x (24 - pieces on the board)")        \
    X(74, opp_trade_lead, TRADE_LEAD, OPP, "opponent's piece lead x (24 - pieces on the board)")

/* Every term, the 60 first. */
#define EVAL_TERM_LIST(X) EVAL_PARAM_LIST(X) EVAL_EXTRA_LIST(X)

/* EP_own_men (0) .. EP_opp_longest_block_line (59), then the new terms
 * (EP_own_runaway_men, 60, ...): the index of each term in Weights.w and in
 * feature arrays. EVAL_NPARAMS is the documents' 60, EVAL_NTERMS all. */
enum {
#define EVAL_PARAM_ENUM_(nr, name, q, role, desc) EP_##name,
    EVAL_PARAM_LIST(EVAL_PARAM_ENUM_) EVAL_NPARAMS,
    EVAL_EXTRA_FIRST_ = EVAL_NPARAMS - 1,
    EVAL_EXTRA_LIST(EVAL_PARAM_ENUM_)
#undef EVAL_PARAM_ENUM_
        EVAL_NTERMS
};
#define EVAL_NEXTRA (EVAL_NTERMS - EVAL_NPARAMS)

/* A weight vector: w[i] is the weight of term number i+1 (in the opening, or
 * in the whole game without a phase); end[i] its weight in the ending. */
typedef struct Weights {
    int16_t w[EVAL_NTERMS];
    int16_t end[EVAL_NTERMS];
    int16_t phased;   /* 1: interpolate w and end by the number of pieces; 0: w alone */
    int16_t zero_[3]; /* always 0: no padding bytes, so that Weights compare with memcmp */
    /* The pattern layer (patterns.h), or NULL: a shared copy
     * (pat_intern), so that Weights stay values to copy and compare. */
    const struct EvalPatterns *pat;
    /* The network layer (nn.h), or NULL: a shared copy (nn_intern). */
    const struct EvalNet *net;
} Weights;

/* The weights of a vector with a phase as one list of EVAL_NWEIGHTS_PHASE:
 * the opening's EVAL_NTERMS (w), then the ending's (end). Weight i of that
 * list, to read or to write. */
#define EVAL_NWEIGHTS_PHASE (2 * EVAL_NTERMS)
static inline int16_t *eval_weights_ref(Weights *w, int i)
{
    return i < EVAL_NTERMS ? &w->w[i] : &w->end[i - EVAL_NTERMS];
}
static inline int16_t eval_weights_at(const Weights *w, int i)
{
    return i < EVAL_NTERMS ? w->w[i] : w->end[i - EVAL_NTERMS];
}

typedef struct EvalParamInfo {
    int nr;           /* the documents' number, 1..60; the new terms 61.. */
    const char *name; /* spec name, e.g. "own_men" */
    const char *desc; /* short description for show / eval */
} EvalParamInfo;

extern const EvalParamInfo eval_params[EVAL_NTERMS];

/* The opponent's term of the same quantity as the player's term i
 * (own_men -> opp_men): the pairs of an antisymmetric vector. -1 when i is
 * an opp_ term (or out of range). */
int eval_term_partner(int i);

/* The features of a position: what the evaluation sees, for `kingme eval`,
 * `kingme show`, `kingme fit` and the charts. */
typedef struct EvalFeatures {
    int term[EVAL_NTERMS]; /* term[i]: the value of term i (EP_...) for the side */
    PatFeatures pat;       /* the pattern layer's: each colour's cells and squares, from its own view */
} EvalFeatures;

/* The features of b from the point of view of `side` (the "player"),
 * whoever is to move: every named term (the 60, then the new ones) and the
 * pattern layer's cells. The one extractor: eval_score computes the same
 * terms from the same source. */
void eval_features(const Board *b, int side, EvalFeatures *f);

/* The terms rounded up to a whole number of 16-byte vectors of int16. */
#define EVAL_NTERMS_PAD ((EVAL_NTERMS + 7) / 8 * 8)

/* A weight vector made ready for eval_score: the opening and ending weights
 * as int16 rows padded with zeros (wq[0] = w, wq[1] = end), for two dot
 * products with the terms' values blended afterwards (the blend is linear;
 * it is divided once, at the end, as phase_blend does); and for each phase
 * t the blended weights (t w + (EVAL_PHASE_SPAN - t) end, or w without a
 * phase), whose zeros say which costly terms need not be computed. */
typedef struct EvalTable {
    _Alignas(16) int16_t wq[2][EVAL_NTERMS_PAD];
    int32_t cw[EVAL_PHASE_SPAN + 1][EVAL_NTERMS];
    int phased;                     /* divide the sum by EVAL_PHASE_SPAN */
    int extra;                      /* some term beyond the 60 has a weight */
    const struct EvalPatterns *pat; /* the pattern layer, or NULL */
    const struct EvalNet *net;      /* the network layer, or NULL (the search, which
                                       keeps the network's accumulators, sets it to NULL
                                       and adds the network's part itself) */
} EvalTable;

/* t made from w (some 5 KB: make it once per vector, not per position). */
void eval_table_init(EvalTable *t, const Weights *w);

/* The evaluation of b for `side`, whoever is to move: the sum over every
 * term of eval_features' value times its weight, blended by the phase when
 * the vector has one, plus the pattern layer's score (pat_eval) and the
 * network's (nn_eval) when t has them. The one scorer, for the search and
 * every command. Terms of weight 0 (in the position's phase) whose
 * computation costs anything are skipped. */
int32_t eval_score(const Board *b, int side, const EvalTable *t);

/* A 64-bit key of the whole vector (named weights, phase, pattern layer,
 * network):
 * equal vectors have equal keys (the search mixes it into its table's keys). */
uint64_t eval_weights_key(const Weights *w);

#endif
