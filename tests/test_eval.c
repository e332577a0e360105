/* test_eval.c - the 60 parameters (docs/eval-params.md) on hand-built
 * positions, against a square-by-square reference on random positions, the
 * mirror symmetry, the weighted sum, and the show / eval / bench commands.
 *
 * The board, Black at the top (square n is bit n-1):
 *        a   b   c   d   e   f   g   h
 *   8   .   1   .   2   .   3   .   4      Black's back rank
 *   7   5   .   6   .   7   .   8   .
 *   6   .   9   .  10   .  11   .  12
 *   5  13   .  14   .  15   .  16   .
 *   4   .  17   .  18   .  19   .  20
 *   3  21   .  22   .  23   .  24   .
 *   2   .  25   .  26   .  27   .  28
 *   1  29   .  30   .  31   .  32   .      White's back rank
 * On rows starting at b (1-4, 9-12, ...) the neighbours of n are n-4, n-3
 * (up) and n+4, n+5 (down); on rows starting at a (5-8, 13-16, ...) they are
 * n-5, n-4 and n+3, n+4 (none beyond the a- or h-file). */
#include "../src/cli/cli.h"
#include "kingme/eval.h"
#include "kingme/movegen.h"
#include "kingme/nn.h"
#include "kingme/patterns.h"
#include "kingme/pdn.h"
#include "kingme/weights.h"
#include "test.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void feats(const char *fen, int side, int f[EVAL_NPARAMS])
{
    Board b;
    char err[KM_ERR_MAX];
    int rc = board_from_fen(&b, fen, err);
    CHECK_MSG(rc == 0, "FEN %s: %s", fen, err);
    memset(f, 0xff, sizeof(int) * EVAL_NPARAMS);
    EvalFeatures ef;
    if (rc == 0) eval_features(&b, side, &ef), memcpy(f, ef.term, sizeof(int) * EVAL_NPARAMS);
}

int32_t test_eval_score(const Board *b, int side, const Weights *w)
{
    EvalTable t;
    eval_table_init(&t, w);
    return eval_score(b, side, &t);
}

/* parameter number nr (1..60) of f */
#define P(f, nr) ((f)[(nr)-1])

TEST(eval_param_table)
{
    for (int i = 0; i < EVAL_NPARAMS; i++) {
        CHECK_INT(eval_params[i].nr, i + 1);
        for (int j = 0; j < i; j++) CHECK(strcmp(eval_params[i].name, eval_params[j].name) != 0);
        CHECK(eval_params[i].desc && eval_params[i].desc[0]);
    }
    /* the enumeration generated from the same list */
    CHECK_INT(EP_own_men, 0);
    CHECK_INT(EP_opp_longest_block_line, 59);
    CHECK_INT(EP_own_promotion_row_empty, 22);
    CHECK_STR(eval_params[EP_opp_dog].name, "opp_dog");
}

/* Parameters 1-8 and 21-36: material, walls, promotion, rows.
 * Black: men 1, 5, 14, 22, kings 20, 29.  White: men 12, 21, 30, kings 4, 13. */
TEST(eval_material_edges_rows)
{
    const char *fen = "B:W12,21,30,K4,K13:B1,5,14,22,K20,K29";
    int f[EVAL_NPARAMS];
    feats(fen, KM_BLACK, f);
    CHECK_INT(P(f, 1), 4); /* Black men 1, 5, 14, 22 */
    CHECK_INT(P(f, 2), 2); /* Black kings 20, 29 */
    CHECK_INT(P(f, 3), 3); /* White men 12, 21, 30 */
    CHECK_INT(P(f, 4), 2); /* White kings 4, 13 */
    CHECK_INT(P(f, 5), 1); /* walls 4,5,12,13,20,21,28,29: Black man 5 */
    CHECK_INT(P(f, 6), 2); /* Black kings 20 and 29 are both on walls */
    CHECK_INT(P(f, 7), 2); /* White men 12, 21 */
    CHECK_INT(P(f, 8), 2); /* White kings 4, 13 */
    /* Black man on board row r (1-4 is r=0) is on its row r+1: 8-(r+1) to go:
     * 1 -> 7, 5 -> 6, 14 -> 4, 22 -> 2 */
    CHECK_INT(P(f, 21), 19);
    /* White man on board row r is on its row 8-r, r to go: 12 -> 2, 21 -> 5, 30 -> 7 */
    CHECK_INT(P(f, 22), 14);
    CHECK_INT(P(f, 23), 2); /* Black crowns on 29-32: 29 (Black king), 30 (White man) taken; 31, 32 */
    CHECK_INT(P(f, 24), 2); /* White crowns on 1-4: 1 (Black man), 4 (White king); 2, 3 empty */
    /* Black's rows: 1-2 = squares 1-8, 4-5 = 13-20, 6-8 = 21-32 */
    CHECK_INT(P(f, 25), 2); /* men 1, 5 */
    CHECK_INT(P(f, 29), 1); /* man 14 */
    CHECK_INT(P(f, 30), 1); /* king 20 */
    CHECK_INT(P(f, 33), 1); /* man 22 */
    CHECK_INT(P(f, 34), 1); /* king 29 */
    /* White's rows: 1-2 = squares 25-32, 4-5 = 13-20, 6-8 = 1-12; 21 is its row 3 */
    CHECK_INT(P(f, 27), 1); /* man 30 */
    CHECK_INT(P(f, 31), 0); /* man 21 is on row 3: in no group */
    CHECK_INT(P(f, 32), 1); /* king 13 */
    CHECK_INT(P(f, 35), 1); /* man 12 */
    CHECK_INT(P(f, 36), 1); /* king 4 */

    /* The same position for White: own and opp swap. */
    feats(fen, KM_WHITE, f);
    CHECK_INT(P(f, 1), 3);
    CHECK_INT(P(f, 2), 2);
    CHECK_INT(P(f, 3), 4);
    CHECK_INT(P(f, 4), 2);
    CHECK_INT(P(f, 5), 2);
    CHECK_INT(P(f, 6), 2);
    CHECK_INT(P(f, 7), 1);
    CHECK_INT(P(f, 8), 2);
    CHECK_INT(P(f, 21), 14);
    CHECK_INT(P(f, 22), 19);
    CHECK_INT(P(f, 23), 2);
    CHECK_INT(P(f, 24), 2);
    CHECK_INT(P(f, 25), 1); /* White man 30 */
    CHECK_INT(P(f, 30), 1); /* White king 13 */
    CHECK_INT(P(f, 33), 1); /* White man 12 */
    CHECK_INT(P(f, 32), 1); /* Black king 20 */
    CHECK_INT(P(f, 27), 2);
    CHECK_INT(P(f, 31), 1);
    CHECK_INT(P(f, 34), 1);
    CHECK_INT(P(f, 35), 1);
    CHECK_INT(P(f, 36), 1);
}

/* Kings in the lower rows and men in the middle rows (26, 28, 29, 31, 32):
 * White: king 30 (its row 1), man 17 (its row 4), king 2 (its row 8).
 * Black: king 3 (its row 1), man 18 (its row 5), king 11 (its row 3). */
TEST(eval_rows_kings_low_men_middle)
{
    const char *fen = "W:WK30,17,K2:BK3,18,K11";
    int f[EVAL_NPARAMS];
    feats(fen, KM_WHITE, f);
    CHECK_INT(P(f, 26), 1); /* White king 30 */
    CHECK_INT(P(f, 29), 1); /* White man 17 */
    CHECK_INT(P(f, 34), 1); /* White king 2 */
    CHECK_INT(P(f, 28), 1); /* Black king 3 */
    CHECK_INT(P(f, 31), 1); /* Black man 18 */
    CHECK_INT(P(f, 32), 0); /* Black king 11 is on its row 3 */
    CHECK_INT(P(f, 36), 0);
    feats(fen, KM_BLACK, f);
    CHECK_INT(P(f, 26), 1); /* Black king 3 */
    CHECK_INT(P(f, 29), 1); /* Black man 18 */
    CHECK_INT(P(f, 28), 1); /* White king 30 */
    CHECK_INT(P(f, 31), 1); /* White man 17 */
    CHECK_INT(P(f, 36), 1); /* White king 2 */
    CHECK_INT(P(f, 21), 3); /* Black man 18 (board row 4, its row 5): 3 rows to go */
    CHECK_INT(P(f, 22), 4); /* White man 17 (board row 4, its row 4): 4 rows to go */
}

/* Movable pieces (9-12) and moves with a compulsory capture (13-17).
 * Black: men 5, 7, 8, 9, 11, 12, king 30.  White: men 16, 19, 26, kings 1, 4.
 * Black men: 5 (down-right 9 is Black), 8 (11 and 12 Black), 12 (16 White,
 * beyond it 19 White) cannot move; 7 (to 10), 9 (to 13), 11 (to 15) can. King
 * 30 can go to 25. White men: 16 is shut in (11 Black with 7 Black beyond, 12
 * Black at the wall); 19 (to 15) and 26 (to 22, 23) can. King 1 can go to 6;
 * king 4 cannot (8 Black, 11 Black beyond). */
TEST(eval_movable_and_moves)
{
    const char *fen = "B:W16,19,26,K1,K4:B5,7,8,9,11,12,K30";
    int f[EVAL_NPARAMS];
    feats(fen, KM_BLACK, f);
    CHECK_INT(P(f, 9), 3);
    CHECK_INT(P(f, 10), 1);
    CHECK_INT(P(f, 11), 2);
    CHECK_INT(P(f, 12), 1);
    /* Black must capture: 11x20 (over 16) and king 30x23 (over 26; from 23
     * nothing more: 19's far side 16 is taken, 18 is empty). */
    CHECK_INT(P(f, 13), 2);
    CHECK_INT(P(f, 15), 1);
    CHECK_INT(P(f, 16), 2);
    CHECK_INT(P(f, 17), 1);
    /* White has no capture: 19-15, 26-22, 26-23, K1-6 */
    CHECK_INT(P(f, 14), 4);
    CHECK_INT(P(f, 18), 0);
    CHECK_INT(P(f, 19), 0);
    CHECK_INT(P(f, 20), 0);
    feats(fen, KM_WHITE, f);
    CHECK_INT(P(f, 9), 2);
    CHECK_INT(P(f, 10), 1);
    CHECK_INT(P(f, 11), 3);
    CHECK_INT(P(f, 12), 1);
    CHECK_INT(P(f, 13), 4);
    CHECK_INT(P(f, 14), 2);
}

/* Captures for both sides (13-20), computed whoever is to move.
 * Black men 2, 6; White men 7, 10, 18, 19. Black: 6x15x22 (over 10, 18),
 * 6x15x24 (over 10, 19), 2x11 (over 7): three captures, the longest takes 2.
 * White: 10x1 (over 6, crowning): one capture. */
TEST(eval_captures_both_sides)
{
    const char *fen = "B:W7,10,18,19:B2,6";
    int f[EVAL_NPARAMS];
    feats(fen, KM_BLACK, f);
    CHECK_INT(P(f, 13), 3);
    CHECK_INT(P(f, 14), 1);
    CHECK_INT(P(f, 15), 1);
    CHECK_INT(P(f, 16), 3);
    CHECK_INT(P(f, 17), 2);
    CHECK_INT(P(f, 18), 1);
    CHECK_INT(P(f, 19), 1);
    CHECK_INT(P(f, 20), 1);
    feats(fen, KM_WHITE, f);
    CHECK_INT(P(f, 13), 1);
    CHECK_INT(P(f, 14), 3);
    CHECK_INT(P(f, 15), 1);
    CHECK_INT(P(f, 16), 1);
    CHECK_INT(P(f, 17), 1);
    CHECK_INT(P(f, 18), 1);
    CHECK_INT(P(f, 19), 3);
    CHECK_INT(P(f, 20), 2);
    /* The side to move does not matter. */
    feats("W:W7,10,18,19:B2,6", KM_WHITE, f);
    CHECK_INT(P(f, 19), 3);
    CHECK_INT(P(f, 20), 2);
}

/* Lone pieces (37-40). Black: men 1 (5, 6 empty), 12 (8, 16 empty), 14
 * (10 is a White king: not lone), king 32 (27, 28 empty). White: man 19 (15, 16,
 * 23, 24 empty), men 21 and 25 (next to each other), king 3 (7, 8 empty),
 * king 10 (next to 14). */
TEST(eval_lone_pieces)
{
    const char *fen = "W:W19,21,25,K3,K10:B1,12,14,K32";
    int f[EVAL_NPARAMS];
    feats(fen, KM_BLACK, f);
    CHECK_INT(P(f, 37), 2);
    CHECK_INT(P(f, 38), 1);
    CHECK_INT(P(f, 39), 1);
    CHECK_INT(P(f, 40), 1);
    feats(fen, KM_WHITE, f);
    CHECK_INT(P(f, 37), 1);
    CHECK_INT(P(f, 38), 1);
    CHECK_INT(P(f, 39), 2);
    CHECK_INT(P(f, 40), 1);
}

/* Corners 4 and 29 (41-46). */
TEST(eval_corners)
{
    int f[EVAL_NPARAMS];
    /* Black man on 4, White king on 29 */
    feats("B:WK29,20:B4,9", KM_BLACK, f);
    CHECK_INT(P(f, 41), 1);
    CHECK_INT(P(f, 42), 0);
    CHECK_INT(P(f, 43), 0);
    CHECK_INT(P(f, 44), 0);
    CHECK_INT(P(f, 45), 1);
    CHECK_INT(P(f, 46), 0);
    feats("B:WK29,20:B4,9", KM_WHITE, f);
    CHECK_INT(P(f, 42), 1);
    CHECK_INT(P(f, 44), 1);
    /* Black kings on both corners */
    feats("W:W20:BK4,K29", KM_BLACK, f);
    CHECK_INT(P(f, 41), 0);
    CHECK_INT(P(f, 42), 1);
    CHECK_INT(P(f, 43), 1);
    feats("W:W20:BK4,K29", KM_WHITE, f);
    CHECK_INT(P(f, 45), 1);
    CHECK_INT(P(f, 46), 1);
    /* a man and a king: both corners held, by different kinds of piece */
    feats("W:W29,18:B4,9", KM_WHITE, f); /* White man 29, Black man 4 */
    CHECK_INT(P(f, 41), 1);
    CHECK_INT(P(f, 44), 1);
    CHECK_INT(P(f, 43), 0); /* one corner each */
    feats("B:W18:B4,K29", KM_BLACK, f);
    CHECK_INT(P(f, 41), 1);
    CHECK_INT(P(f, 42), 1);
    CHECK_INT(P(f, 43), 1);
}

/* Patterns (47-54). Black men 1, 2, 3, 6, 7, 28: Triangle (1, 2, 6), Oreo
 * (2, 3, 7), Bridge (1, 3), Dog (28 held by the White man on 32). White men 5,
 * 26, 30, 31, 32: no Triangle (27 missing), Oreo (26, 30, 31), Bridge (30, 32),
 * Dog (5 held by the Black man on 1). */
TEST(eval_patterns)
{
    const char *fen = "B:W5,26,30,31,32:B1,2,3,6,7,28";
    int f[EVAL_NPARAMS];
    feats(fen, KM_BLACK, f);
    CHECK_INT(P(f, 47), 1);
    CHECK_INT(P(f, 48), 1);
    CHECK_INT(P(f, 49), 1);
    CHECK_INT(P(f, 50), 1);
    CHECK_INT(P(f, 51), 0);
    CHECK_INT(P(f, 52), 1);
    CHECK_INT(P(f, 53), 1);
    CHECK_INT(P(f, 54), 1);
    feats(fen, KM_WHITE, f);
    CHECK_INT(P(f, 47), 0);
    CHECK_INT(P(f, 48), 1);
    CHECK_INT(P(f, 49), 1);
    CHECK_INT(P(f, 50), 1);
    CHECK_INT(P(f, 51), 1);
    CHECK_INT(P(f, 52), 1);
    CHECK_INT(P(f, 53), 1);
    CHECK_INT(P(f, 54), 1);
    /* Both Triangles; Black's 3 is a king, so no Bridge (patterns need men) */
    const char *fen2 = "W:W27,31,32:B1,2,6,K3";
    feats(fen2, KM_WHITE, f);
    CHECK_INT(P(f, 47), 1);
    CHECK_INT(P(f, 51), 1);
    CHECK_INT(P(f, 53), 0);
    CHECK_INT(P(f, 49), 0);
    /* A king on 32 does not hold a Dog; nor does a king in the hole */
    feats("B:WK32,20:B28,9", KM_BLACK, f);
    CHECK_INT(P(f, 50), 0);
    feats("B:W32,20:BK28,9", KM_BLACK, f);
    CHECK_INT(P(f, 50), 0);
}

/* Blockers and block lines (55-60). Black: men 1, 6, 9, 10, 13, 15, king 28.
 * Runs: 1-6-10-15 (down-right diagonal, 4) and 6-9-13 (down-left, 3).
 * Blockers (an own piece one row forward, towards 29-32): 1 (6), 6 (9),
 * 9 (13), 10 (15) = 4; 13, 15 and the king 28 have none ahead.
 * White: men 21, 23, 25, 26, 30. Runs: 21-25-30 and 23-26-30 (3 each).
 * Blockers (forward = towards 1-4): 25 (21), 26 (23), 30 (25, 26) = 3. */
TEST(eval_blockers_and_lines)
{
    const char *fen = "B:W21,23,25,26,30:B1,6,9,10,13,15,K28";
    int f[EVAL_NPARAMS];
    feats(fen, KM_BLACK, f);
    CHECK_INT(P(f, 55), 4);
    CHECK_INT(P(f, 56), 2);
    CHECK_INT(P(f, 57), 4);
    CHECK_INT(P(f, 58), 3);
    CHECK_INT(P(f, 59), 2);
    CHECK_INT(P(f, 60), 3);
    feats(fen, KM_WHITE, f);
    CHECK_INT(P(f, 55), 3);
    CHECK_INT(P(f, 56), 2);
    CHECK_INT(P(f, 57), 3);
    CHECK_INT(P(f, 58), 4);
    CHECK_INT(P(f, 59), 2);
    CHECK_INT(P(f, 60), 4);
    /* A king counts as the piece in front: 15 has the Black king 19 ahead
     * (down-right); the king has nothing ahead of it. One run of 2. */
    feats("B:W30:BK19,15", KM_BLACK, f);
    CHECK_INT(P(f, 55), 1);
    CHECK_INT(P(f, 56), 1);
    CHECK_INT(P(f, 57), 2);
    /* Backwards does not count: White men 18, 22 - 22 has 18 ahead (up-right
     * of 22 is 18); 18 has nothing ahead. For Black, none. */
    feats("W:W18,22:B1", KM_WHITE, f);
    CHECK_INT(P(f, 55), 1);
    CHECK_INT(P(f, 56), 1);
    CHECK_INT(P(f, 57), 2);
    CHECK_INT(P(f, 58), 0);
    CHECK_INT(P(f, 59), 0);
    CHECK_INT(P(f, 60), 0);
}

TEST(eval_initial_position)
{
    int f[EVAL_NPARAMS];
    feats("B:W21-32:B1-12", KM_BLACK, f);
    CHECK_INT(P(f, 1), 12);
    CHECK_INT(P(f, 5), 3); /* men on the walls 4, 5, 12 */
    CHECK_INT(P(f, 9), 4); /* 9, 10, 11, 12 */
    CHECK_INT(P(f, 13), 7);
    CHECK_INT(P(f, 14), 7);
    CHECK_INT(P(f, 21), 72); /* 4 x (7 + 6 + 5) */
    CHECK_INT(P(f, 25), 8);
    CHECK_INT(P(f, 47), 1);
    CHECK_INT(P(f, 48), 1);
    CHECK_INT(P(f, 49), 1);
    CHECK_INT(P(f, 41), 1); /* man on 4 */
    CHECK_INT(P(f, 44), 1); /* White man on 29 */
    /* blockers: the 8 men on 1-8 each have an own man ahead; 9-12 do not */
    CHECK_INT(P(f, 55), 8);
}

/* ---- a square-by-square reference ---------------------------------------- */

static int sq_row(int i) { return i / 4; }
static int sq_col(int i) { return 2 * (i % 4) + (sq_row(i) % 2 == 0 ? 1 : 0); }
static int sq_at(int r, int c)
{
    if (r < 0 || r > 7 || c < 0 || c > 7 || (r + c) % 2 == 0) return -1;
    return r * 4 + c / 2;
}
/* 0 empty, 1 black man, 2 white man, 3 black king, 4 white king */
static int piece(const Board *b, int i)
{
    if (i < 0) return -1;
    uint32_t m = 1u << i;
    int k = (b->kings & m) ? 2 : 0;
    if (b->pieces[KM_BLACK] & m) return 1 + k;
    if (b->pieces[KM_WHITE] & m) return 2 + k;
    return 0;
}
static int owner(int p) { return p <= 0 ? -1 : (p - 1) % 2; }
static int is_king(int p) { return p >= 3; }
static int own_row(int i, int c) { return c == KM_BLACK ? sq_row(i) + 1 : 8 - sq_row(i); }

static void ref_colour(const Board *b, int c, int q[30])
{
    static const int walls[] = {4, 5, 12, 13, 20, 21, 28, 29};
    int fwd = c == KM_BLACK ? 1 : -1;
    memset(q, 0, 30 * sizeof(int));
    for (int i = 0; i < 32; i++) {
        int p = piece(b, i);
        if (owner(p) != c) continue;
        int k = is_king(p), r = own_row(i, c);
        q[k]++;
        for (int j = 0; j < 8; j++)
            if (walls[j] == i + 1) q[2 + k]++;
        /* movable: a step or a jump in an allowed direction */
        int mov = 0, lone = 1, blocker = 0;
        for (int dr = -1; dr <= 1; dr += 2)
            for (int dc = -1; dc <= 1; dc += 2) {
                int n = sq_at(sq_row(i) + dr, sq_col(i) + dc);
                int n2 = sq_at(sq_row(i) + 2 * dr, sq_col(i) + 2 * dc);
                if (n >= 0 && piece(b, n) != 0) lone = 0;
                if (dr == fwd && n >= 0 && owner(piece(b, n)) == c) blocker = 1;
                if (!k && dr != fwd) continue;
                if (n >= 0 && piece(b, n) == 0) mov = 1;
                if (n2 >= 0 && owner(piece(b, n)) == (c ^ 1) && piece(b, n2) == 0) mov = 1;
            }
        q[4 + k] += mov;
        if (!k) q[10] += 8 - r;
        if (r <= 2) q[12 + k]++;
        if (r == 4 || r == 5) q[14 + k]++;
        if (r >= 6) q[16 + k]++;
        q[18 + k] += lone;
        if (i + 1 == 4 || i + 1 == 29) q[20 + k] = 1;
        q[27] += blocker;
    }
    q[22] = owner(piece(b, 3)) == c && owner(piece(b, 28)) == c;
    for (int i = 0; i < 32; i++)
        if (own_row(i, c) == 8 && piece(b, i) == 0) q[11]++;
            /* patterns: Black's squares, turned round for White */
#define MAN(s) (piece(b, (c == KM_BLACK ? (s) : 33 - (s)) - 1) == 1 + c)
#define ENEMY_MAN(s) (piece(b, (c == KM_BLACK ? (s) : 33 - (s)) - 1) == 2 - c)
    q[23] = MAN(1) && MAN(2) && MAN(6);
    q[24] = MAN(2) && MAN(3) && MAN(7);
    q[25] = MAN(1) && MAN(3);
    q[26] = MAN(28) && ENEMY_MAN(32);
#undef MAN
#undef ENEMY_MAN
    /* runs along both diagonal directions, walked from their top square */
    for (int dc = -1; dc <= 1; dc += 2)
        for (int i = 0; i < 32; i++) {
            if (owner(piece(b, i)) != c) continue;
            int prev = sq_at(sq_row(i) - 1, sq_col(i) - dc);
            if (prev >= 0 && owner(piece(b, prev)) == c) continue;
            int len = 1, r = sq_row(i), col = sq_col(i);
            for (;;) {
                int n = sq_at(r + len, col + len * dc);
                if (n < 0 || owner(piece(b, n)) != c) break;
                len++;
            }
            if (len >= 2) {
                q[28]++;
                if (len > q[29]) q[29] = len;
            }
        }
    /* moves and captures from the move generator */
    Board t = *b;
    t.stm = c;
    MoveList ml;
    int n = mg_moves(&t, &ml);
    q[6] = n;
    if (n && ml.moves[0].njumps) {
        q[7] = 1;
        q[8] = n;
        for (int j = 0; j < n; j++)
            if (ml.moves[j].njumps > q[9]) q[9] = ml.moves[j].njumps;
    }
}

/* The reference's quantity order mapped to parameter numbers (own, opp). */
static const int ref_own[30] = {1,  2,  5,  6,  9,  10, 13, 15, 16, 17, 21, 23, 25, 26, 29,
                                30, 33, 34, 37, 38, 41, 42, 43, 47, 48, 49, 50, 55, 56, 57};
static const int ref_opp[30] = {3,  4,  7,  8,  11, 12, 14, 18, 19, 20, 22, 24, 27, 28, 31,
                                32, 35, 36, 39, 40, 44, 45, 46, 51, 52, 53, 54, 58, 59, 60};

static void ref_features(const Board *b, int side, int f[EVAL_NPARAMS])
{
    int q[30];
    ref_colour(b, side, q);
    for (int i = 0; i < 30; i++) f[ref_own[i] - 1] = q[i];
    ref_colour(b, side ^ 1, q);
    for (int i = 0; i < 30; i++) f[ref_opp[i] - 1] = q[i];
}

/* ---- the terms beyond the 60, square by square ---- */

/* No enemy of c on square i nor on any square a man of c could reach from
 * it by forward steps (its forward cone, up to the crowning row). */
static int ref_cone_free(const Board *b, int c, int i)
{
    if (owner(piece(b, i)) == (c ^ 1)) return 0;
    if (own_row(i, c) == 8) return 1;
    int fwd = c == KM_BLACK ? 1 : -1;
    for (int dc = -1; dc <= 1; dc += 2) {
        int n = sq_at(sq_row(i) + fwd, sq_col(i) + dc);
        if (n >= 0 && !ref_cone_free(b, c, n)) return 0;
    }
    return 1;
}

/* q: runaway men, back-rank men, men and kings in the centre, kings in the
 * double corners, sole kings, trade lead (the order of EVAL_EXTRA_LIST). */
static void ref_extra_colour(const Board *b, int c, int q[7])
{
    static const int centre[] = {10, 11, 14, 15, 18, 19, 22, 23}, dbl[] = {1, 5, 28, 32};
    memset(q, 0, 7 * sizeof(int));
    int mine = 0, theirs = 0, their_kings = 0, my_kings = 0;
    for (int i = 0; i < 32; i++) {
        int p = piece(b, i);
        if (owner(p) == (c ^ 1)) {
            theirs++;
            their_kings += is_king(p);
        }
        if (owner(p) != c) continue;
        mine++;
        int k = is_king(p);
        my_kings += k;
        if (!k && ref_cone_free(b, c, i)) q[0]++;
        if (!k && own_row(i, c) == 1) q[1]++;
        for (int j = 0; j < 8; j++)
            if (centre[j] == i + 1) q[2 + k]++;
        for (int j = 0; j < 4; j++)
            if (k && dbl[j] == i + 1) q[4]++;
    }
    q[5] = their_kings ? 0 : my_kings;
    q[6] = mine > theirs ? (mine - theirs) * (24 - mine - theirs) : 0;
}

static void ref_extra(const Board *b, int side, int f[EVAL_NTERMS])
{
    int q[7];
    ref_extra_colour(b, side, q);
    for (int i = 0; i < 7; i++) f[EVAL_NPARAMS + 2 * i] = q[i];
    ref_extra_colour(b, side ^ 1, q);
    for (int i = 0; i < 7; i++) f[EVAL_NPARAMS + 2 * i + 1] = q[i];
}

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A random legal-looking position: up to 12 pieces a side, a quarter of them
 * kings, no man on its own promotion row. */
static void random_board(uint64_t *rng, Board *b)
{
    b->pieces[0] = b->pieces[1] = b->kings = 0;
    b->stm = (int)(rng_next(rng) & 1);
    for (int c = 0; c < 2; c++) {
        int n = (int)(rng_next(rng) % 13);
        for (int k = 0; k < n; k++) {
            int i = (int)(rng_next(rng) % 32);
            uint32_t m = 1u << i;
            if (board_occupied(b) & m) continue;
            bool king = rng_next(rng) % 4 == 0 || (m & (c == KM_BLACK ? BLACK_PROMO_ROW : WHITE_PROMO_ROW));
            b->pieces[c] |= m;
            if (king) b->kings |= m;
        }
    }
}

static void fen_of(const Board *b, char *buf) { board_to_fen(b, buf, 128); }

TEST(eval_matches_reference_on_random_positions)
{
    uint64_t rng = 12345;
    int n = test_sanitized() ? 1000 : 5000, bad = 0;
    for (int k = 0; k < n && bad < 5; k++) {
        Board b;
        random_board(&rng, &b);
        for (int side = 0; side < 2; side++) {
            int r[EVAL_NPARAMS];
            EvalFeatures ef;
            eval_features(&b, side, &ef);
            const int *f = ef.term;
            ref_features(&b, side, r);
            for (int i = 0; i < EVAL_NPARAMS; i++)
                if (f[i] != r[i]) {
                    char fen[128];
                    fen_of(&b, fen);
                    CHECK_MSG(0, "%s for %s: parameter %d %s = %d, reference %d", fen,
                              side ? "white" : "black", i + 1, eval_params[i].name, f[i], r[i]);
                    bad++;
                }
            /* 15 and 18 agree with the generator's own test */
            CHECK_INT(f[14], mg_can_capture(&b, side));
            CHECK_INT(f[17], mg_can_capture(&b, side ^ 1));
        }
    }
}

/* The new terms (61-74) against the square-by-square reference. */
TEST(eval_extra_terms_match_reference_on_random_positions)
{
    uint64_t rng = 4242;
    int n = test_sanitized() ? 1000 : 5000, bad = 0;
    for (int k = 0; k < n && bad < 5; k++) {
        Board b;
        random_board(&rng, &b);
        for (int side = 0; side < 2; side++) {
            int r[EVAL_NTERMS];
            EvalFeatures ef;
            eval_features(&b, side, &ef);
            const int *f = ef.term;
            ref_extra(&b, side, r);
            for (int i = EVAL_NPARAMS; i < EVAL_NTERMS; i++)
                if (f[i] != r[i]) {
                    char fen[128];
                    fen_of(&b, fen);
                    CHECK_MSG(0, "%s for %s: term %d %s = %d, reference %d", fen, side ? "white" : "black",
                              i + 1, eval_params[i].name, f[i], r[i]);
                    bad++;
                }
        }
    }
    CHECK_INT(bad, 0);
}

/* The new terms on hand-built positions.
 * Black men 9 (White's 26 is in its cone) and 24 (cone 27, 28, 31, 32:
 * free), man 2 on its back rank, kings 15 (centre) and 5
 * (double corner). White men 26, 29 (its back rank), 10 (cone: 6-7, 1-3;
 * Black's man 2 is in it); no White king. */
TEST(eval_extra_terms_by_hand)
{
    const char *fen = "B:W10,26,29:B2,9,24,K5,K15";
    Board b;
    char err[KM_ERR_MAX];
    CHECK(board_from_fen(&b, fen, err) == 0);
    EvalFeatures ef;
    const int *f = ef.term;
    eval_features(&b, KM_BLACK, &ef);
    CHECK_INT(f[EP_own_runaway_men], 1); /* 24 */
    CHECK_INT(f[EP_opp_runaway_men], 0); /* 10: Black's 2 is in its cone, 26: 9, 29: 24 */
    CHECK_INT(f[EP_own_back_men], 1);    /* 2 */
    CHECK_INT(f[EP_opp_back_men], 1);    /* 29 */
    CHECK_INT(f[EP_own_men_centre], 0);
    CHECK_INT(f[EP_opp_men_centre], 1);          /* 10 */
    CHECK_INT(f[EP_own_kings_centre], 1);        /* 15 */
    CHECK_INT(f[EP_own_kings_double_corner], 1); /* 5 */
    CHECK_INT(f[EP_own_sole_kings], 2);          /* White has no king */
    CHECK_INT(f[EP_opp_sole_kings], 0);
    CHECK_INT(f[EP_own_trade_lead], 2 * 16); /* 5 against 3, 8 on the board */
    CHECK_INT(f[EP_opp_trade_lead], 0);
    /* the same for White: own and opp swap */
    eval_features(&b, KM_WHITE, &ef);
    CHECK_INT(f[EP_opp_runaway_men], 1);
    CHECK_INT(f[EP_opp_trade_lead], 32);
    CHECK_INT(f[EP_opp_sole_kings], 2);
    /* a White king anywhere: no sole kings for Black */
    CHECK(board_from_fen(&b, "B:W10,26,29,K32:B2,9,24,K5,K15", err) == 0);
    eval_features(&b, KM_BLACK, &ef);
    CHECK_INT(f[EP_own_sole_kings], 0);
    CHECK_INT(f[EP_own_runaway_men], 0); /* 24's cone now holds 32 */
    CHECK_INT(f[EP_own_trade_lead], 1 * 15);
}

TEST(eval_mirror_symmetry)
{
    uint64_t rng = 777;
    int n = test_sanitized() ? 1000 : 5000;
    int compared = 0;
    for (int k = 0; k < n; k++) {
        Board b, m;
        random_board(&rng, &b);
        board_mirror(&b, &m);
        EvalFeatures eb, em;
        const int *fb = eb.term, *fm = em.term;
        for (int side = 0; side < 2; side++) {
            eval_features(&b, side, &eb);
            eval_features(&m, side ^ 1, &em);
            if (memcmp(fb, fm, sizeof eb.term) != 0) {
                char fen[128];
                fen_of(&b, fen);
                for (int i = 0; i < EVAL_NTERMS; i++)
                    CHECK_MSG(fb[i] == fm[i], "%s: term %d differs in the mirror (%d, %d)", fen, i + 1, fb[i],
                              fm[i]);
                return;
            }
            compared++;
        }
    }
    CHECK_INT(compared, 2 * n); /* every position and side compared equal */
}

TEST(eval_score_equals_dot_product)
{
    uint64_t rng = 99;
    int n = test_sanitized() ? 500 : 3000;
    Weights def, hand;
    weights_default(&def);
    static EvalTable tdef, thand, tx, tph, tw; /* static: the tables are 5 KB each */
    eval_table_init(&tdef, &def);
    char err[KM_ERR_MAX];
    CHECK_MSG(weights_read(&hand, "weights/handset.w", NULL, err) == 0, "%s", err);
    eval_table_init(&thand, &hand);
    for (int k = 0; k < n; k++) {
        Board b;
        random_board(&rng, &b);
        /* a random vector, with about a third of the weights 0 so that the
         * skipped groups are exercised in both states */
        Weights w = {0};
        for (int i = 0; i < EVAL_NPARAMS; i++)
            w.w[i] = rng_next(&rng) % 3 == 0 ? 0 : (int16_t)(rng_next(&rng) & 0xffff);
        /* the same vector with new terms, and with a phase */
        Weights x = w, ph;
        for (int i = EVAL_NPARAMS; i < EVAL_NTERMS; i++)
            x.w[i] = rng_next(&rng) % 3 == 0 ? 0 : (int16_t)(rng_next(&rng) & 0xffff);
        ph = x;
        ph.phased = 1;
        for (int i = 0; i < EVAL_NTERMS; i++)
            ph.end[i] = rng_next(&rng) % 3 == 0 ? 0 : (int16_t)(rng_next(&rng) & 0xffff);
        eval_table_init(&tw, &w);
        eval_table_init(&tx, &x);
        eval_table_init(&tph, &ph);
        for (int side = 0; side < 2; side++) {
            EvalFeatures ef;
            eval_features(&b, side, &ef);
            const int *fa = ef.term;
            int64_t dot = 0, so = 0, se = 0;
            for (int i = 0; i < EVAL_NTERMS; i++) {
                dot += (int64_t)fa[i] * w.w[i];
                so += (int64_t)fa[i] * x.w[i];
                se += (int64_t)fa[i] * ph.end[i];
            }
            CHECK_INT(eval_score(&b, side, &tw), dot);
            CHECK_INT(eval_score(&b, side, &tx), so);
            /* the blend by hand: t = pieces - 4 in 0..16 */
            int pieces = __builtin_popcount(b.pieces[0] | b.pieces[1]);
            int t = pieces - 4 < 0 ? 0 : pieces - 4 > 16 ? 16 : pieces - 4;
            int64_t blend = (so * t + se * (16 - t)) / 16;
            CHECK_INT(eval_score(&b, side, &tph), blend);
            /* the default: phased, new terms, a pattern layer and an ending
             * network (their scores are added) */
            CHECK(def.phased && def.pat != NULL && def.net != NULL);
            int64_t dso = 0, dse = 0;
            for (int i = 0; i < EVAL_NTERMS; i++) {
                dso += (int64_t)fa[i] * def.w[i];
                dse += (int64_t)fa[i] * def.end[i];
            }
            CHECK_INT(eval_score(&b, side, &tdef), phase_blend(dso, dse, pieces) +
                                                       pat_eval(def.pat, &b, side) +
                                                       nn_eval(def.net, &b, side));
        }
        /* the hand-set vector is antisymmetric: one side's score is minus the other's */
        CHECK_INT(eval_score(&b, KM_BLACK, &thand), -eval_score(&b, KM_WHITE, &thand));
    }
}

TEST(eval_score_by_hand)
{
    /* initial position, material and moves only: 12 - 12 men, 7 moves */
    Board b;
    board_init(&b);
    Weights mat = {0};
    mat.w[0] = 1000, mat.w[2] = -1000, mat.w[12] = 7;
    static EvalTable t; /* static: 5 KB */
    eval_table_init(&t, &mat);
    CHECK_INT(eval_score(&b, KM_BLACK, &t), 49);
    CHECK_INT(eval_score(&b, KM_WHITE, &t), 49);
    /* the largest weight in 32 bits: the opponent's longest run (3) x -32768 */
    mat.w[EP_opp_longest_block_line] = -32768;
    eval_table_init(&t, &mat);
    EvalFeatures ef;
    eval_features(&b, KM_BLACK, &ef);
    CHECK_INT(ef.term[EP_opp_longest_block_line], 3);
    CHECK_INT(eval_score(&b, KM_BLACK, &t), 49 - 3 * 32768);
}

/* ---- commands ------------------------------------------------------------- */

static int count_lines_starting_with_number(const char *out)
{
    int n = 0;
    for (const char *p = out; *p;) {
        const char *q = p;
        while (*q == ' ') q++;
        if (*q >= '0' && *q <= '9') n++;
        const char *e = strchr(p, '\n');
        if (!e) break;
        p = e + 1;
    }
    return n;
}

static const char *find_row(const char *out, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, " %s ", name);
    return strstr(out, key);
}

static bool row_has(const char *out, const char *name, const char *text)
{
    const char *r = find_row(out, name);
    if (!r) return false;
    const char *e = strchr(r, '\n');
    size_t n = e ? (size_t)(e - r) : strlen(r);
    char line[256];
    if (n >= sizeof line) n = sizeof line - 1;
    memcpy(line, r, n);
    line[n] = '\0';
    return strstr(line, text) != NULL;
}

/* The table the Makefile generates for kingme show (tools/gen_typical.c):
 * the mean of every term over the positions of tests/data/tinsley.pdn for
 * the side to move, to the 4 decimals kept, recomputed here. */
TEST(eval_typical_values)
{
    PdnGame *g;
    int n;
    char err[KM_ERR_MAX];
    CHECK(pdn_read_file("tests/data/tinsley.pdn", &g, &n, err) == 0);
    if (!g) return;
    double sum[EVAL_NTERMS] = {0};
    long count = 0, negative = 0;
    for (int i = 0; i < n; i++) {
        const Game *gm = &g[i].game;
        Board b = gm->start;
        for (int k = 0; k <= gm->nply; k++) {
            EvalFeatures ef;
            eval_features(&b, b.stm, &ef);
            const int *f = ef.term;
            for (int j = 0; j < EVAL_NTERMS; j++) {
                negative += f[j] < 0;
                sum[j] += f[j];
            }
            count++;
            if (k < gm->nply) mg_make_move(&b, &gm->moves[k]);
        }
    }
    pdn_free_games(g, n);
    CHECK_INT(negative, 0); /* so w x mean(value) is the mean |value x weight| with w's sign */
    CHECK_INT(count, cli_typical_positions);
    CHECK_INT(n, cli_typical_games);
    for (int j = 0; j < EVAL_NTERMS; j++)
        CHECK_MSG(fabs(sum[j] / (double)count - cli_typical_value[j]) < 0.00005,
                  "%s: %.4f, the table says %.4f", eval_params[j].name, sum[j] / (double)count,
                  cli_typical_value[j]);
}

TEST(eval_cli_show)
{
    static char out[65536];
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s show weights/thesis.w", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_INT(count_lines_starting_with_number(out), 60);
    /* largest |weight| 32651 (own_king_in_corner): high from 21768 (2/3,
     * rounded up), medium from 10884 */
    CHECK(strstr(out, "32651") && strstr(out, "21768") && strstr(out, "10884"));
    CHECK(row_has(out, "own_men", "-27848") && row_has(out, "own_men", "high negative"));
    CHECK(row_has(out, "opp_men", "high positive"));
    CHECK(row_has(out, "own_moves", "medium positive"));           /* 21613 < 21768 */
    CHECK(row_has(out, "opp_lone_kings", "medium positive"));      /* 11132 */
    CHECK(row_has(out, "opp_longest_capture", "medium negative")); /* -13876 */
    CHECK(row_has(out, "own_oreo", "low"));                        /* 1326 */
    CHECK(row_has(out, "own_kings", "unused"));                    /* 0 */
    /* typical contributions in men (|own_men| = 27848): opp_promotion_distance
     * -24871 x 42.2119 / 27848 = -37.699; own_oreo 1326 x 0.3231 / 27848 */
    CHECK(row_has(out, "opp_promotion_distance", "-37.699") && row_has(out, "own_oreo", "+0.015"));
    CHECK(row_has(out, "own_kings", " - "));
    CHECK(strstr(out, "typ: in men, 1 man = |own_men| = 27848 points") &&
          strstr(out, "Triangle men on 1 2 6"));
    CHECK(row_has(out, "opp_blockers", "high positive")); /* 32446 */

    /* sorted: the largest weight first, the most negative last */
    snprintf(cmd, sizeof cmd, "%s show --sort weight weights/thesis.w", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    const char *a = strstr(out, "opp_blockers"), *z = strstr(out, "own_king_in_corner");
    const char *mid = strstr(out, "own_kings ");
    CHECK(a && z && mid && a < mid && mid < z);
    /* by typical contribution: opp_promotion_distance (-37.7 men) first, then
     * own_men (-7.68), opp_men (+6.31); unused weights last, in number order */
    snprintf(cmd, sizeof cmd, "%s show --sort typical --no-legend weights/thesis.w", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strncmp(strchr(out, '\n') + 1 + strcspn(strchr(out, '\n') + 1, "\n") + 1,
                      "22  opp_promotion_distance", 26) == 0,
              "%s", out);
    a = strstr(out, "own_men "), z = strstr(out, "opp_men ");
    CHECK(a && z && a < z && strstr(out, "Triangle men on") == NULL);
    CHECK(strstr(out, "opp_longest_block_line") > strstr(out, "own_kings "));

    /* the built-in weights by name */
    snprintf(cmd, sizeof cmd, "%s show default", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK(strncmp(out, "default (the built-in weights/default.w)\n", 41) == 0);

    /* side by side: thesis against material. Material has men and kings
     * (high), the rest unused. The thesis vector has 29 weights that are not
     * 0; with own_kings (0 against 1300) 30 weights differ. In class: all of
     * those but opp_kings (high negative in both): 29. Sign: own_men and
     * opp_men. */
    snprintf(cmd, sizeof cmd, "%s show weights/thesis.w weights/material.w", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(
        strstr(out, "30 of 60 weights differ; 29 differ in class (marked *), 2 change sign (marked !)") !=
            NULL,
        "%s", out);
    CHECK(row_has(out, "own_men", "*!") && row_has(out, "own_men", "+28848"));
    CHECK(!row_has(out, "opp_kings", "*"));
    CHECK(row_has(out, "own_oreo", "*"));

    /* usage errors: 2; a bad file: 1 with file:line */
    snprintf(cmd, sizeof cmd, "%s show", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 2);
    snprintf(cmd, sizeof cmd, "%s show --sort name weights/thesis.w", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 2);
    snprintf(cmd, sizeof cmd, "%s show --bogus weights/thesis.w", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 2);
    snprintf(cmd, sizeof cmd, "%s show a.w b.w c.w", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 2);
    snprintf(cmd, sizeof cmd, "%s show tests/data/no-such-file.w", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    CHECK(strstr(out, "kingme: tests/data/no-such-file.w: cannot open") != NULL);

    char path[64];
    snprintf(path, sizeof path, "/tmp/kingme-test-eval-%d.w", (int)getpid());
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs("# a header\nown_men 1000\n\nown_mem 5\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s show %s", test_kingme(), path);
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    char want[128];
    snprintf(want, sizeof want, "kingme: %s:4: unknown parameter 'own_mem'\n", path);
    CHECK_STR(out, want);
    snprintf(cmd, sizeof cmd, "%s eval --weights %s", test_kingme(), path);
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    CHECK_STR(out, want);
    remove(path);
}

TEST(eval_cli_eval)
{
    static char out[65536];
    char cmd[512];
    /* the capture position above, for White, with the thesis weights */
    snprintf(cmd, sizeof cmd, "%s eval --fen 'B:W7,10,18,19:B2,6' --for white --weights weights/thesis.w",
             test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    int lines = 0, next = 1;
    long sum = 0, total = -1;
    bool have_total = false;
    for (char *p = out; *p;) {
        char *e = strchr(p, '\n');
        if (e) *e = '\0';
        int nr, value;
        long contrib, weight;
        char name[64];
        if (sscanf(p, "%d %63s %d %ld %ld", &nr, name, &value, &contrib, &weight) == 5) {
            CHECK_INT(nr, next);
            CHECK_STR(name, eval_params[nr - 1].name);
            CHECK_INT(contrib, (long)value * weight);
            next++;
            lines++;
            sum += contrib;
            if (nr == 20) CHECK_INT(value, 2);          /* opp_longest_capture: 6x15x22 */
            if (nr == 3) CHECK_INT(contrib, 2 * 22520); /* opp_men: 2 Black men */
        } else if (sscanf(p, "total %ld", &total) == 1) {
            have_total = true;
        }
        if (!e) break;
        p = e + 1;
    }
    CHECK_INT(lines, EVAL_NTERMS); /* the 60, then the new terms */
    CHECK(have_total);
    CHECK_INT(total, sum);
    /* and the total is the library's score */
    Board b;
    char err[KM_ERR_MAX];
    board_from_fen(&b, "B:W7,10,18,19:B2,6", err);
    Weights w;
    CHECK_INT(weights_read(&w, "weights/thesis.w", NULL, err), 0);
    CHECK_INT(total, test_eval_score(&b, KM_WHITE, &w));

    /* --for defaults to the side to move; the default weights are built in */
    snprintf(cmd, sizeof cmd, "%s eval", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK(strstr(out, "for black") != NULL);
    CHECK(strstr(out, "\ntotal ") != NULL);
    /* an antisymmetric vector on the symmetric start: 0 for either side */
    snprintf(cmd, sizeof cmd, "%s eval --weights weights/handset.w --for white", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK(strstr(out, "\ntotal 0\n") != NULL);

    snprintf(cmd, sizeof cmd, "%s eval --for red", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 2);
    snprintf(cmd, sizeof cmd, "%s eval --bogus", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 2);
    snprintf(cmd, sizeof cmd, "%s eval --fen", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 2);
    snprintf(cmd, sizeof cmd, "%s eval --fen 'X:W1'", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
}

TEST(eval_cli_bench)
{
    static char out[4096];
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s bench --eval --rounds 20", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK(strstr(out, "eval: ") && strstr(out, " ns per evaluation\n"));
    snprintf(cmd, sizeof cmd, "%s bench --eval --rounds 0", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 2);
}
