/* test_game.c - the game record: the end of the game (no moves, threefold
 * repetition, the 40-move rule) and taking moves back. Positions are worked
 * out by hand on the numbered board of docs/rules.md. */
#include "kingme/game.h"
#include "kingme/notation.h"
#include "test.h"

static bool start(Game *g, const char *fen)
{
    Board b;
    char err[KM_ERR_MAX];
    if (fen && board_from_fen(&b, fen, err)) {
        CHECK_MSG(false, "%s", err);
        return false;
    }
    bool ok = game_init(g, fen ? &b : NULL) == 0;
    CHECK(ok);
    return ok;
}

/* Play move text; false (and a failed check) if it is not legal. */
static bool play(Game *g, const char *text)
{
    Move m;
    char err[KM_ERR_MAX];
    if (notation_parse_move(&g->cur, text, &m, err)) {
        CHECK_MSG(false, "%s", err);
        return false;
    }
    CHECK(game_play(g, &m) == 0);
    return true;
}

TEST(game_no_moves_loses)
{
    Game g;
    /* Black's man on 14 must jump White's only piece on 18 (14x23): White
     * has nothing left */
    if (start(&g, "B:W18:B14")) {
        CHECK_INT(g.result, GAME_ONGOING);
        play(&g, "14x23");
        CHECK_INT(g.result, GAME_BLACK_WINS);
        CHECK_INT(g.reason, REASON_NO_MOVES);
        CHECK_STR(game_result_text(g.result), "1-0");
        game_free(&g);
    }
    /* Black's man on 21 (a3) can only go to 25 (b2), which is taken, and
     * cannot jump it since 30 (c1) is taken too: lost before a move */
    if (start(&g, "B:W25,30:B21")) {
        CHECK_INT(g.result, GAME_WHITE_WINS);
        CHECK_INT(g.reason, REASON_NO_MOVES);
        game_free(&g);
    }
    /* the same block made by a move: White plays 29-25 */
    if (start(&g, "W:W29,30:B21")) {
        CHECK_INT(g.result, GAME_ONGOING);
        play(&g, "29-25");
        CHECK_INT(g.result, GAME_WHITE_WINS);
        CHECK_INT(g.reason, REASON_NO_MOVES);
        CHECK_STR(game_result_text(g.result), "0-1");
        CHECK(game_undo(&g));
        CHECK_INT(g.result, GAME_ONGOING);
        CHECK_INT(g.cur.stm, KM_WHITE);
        game_free(&g);
    }
    /* White's man on 12 (h6) can only go to 8 (g7): taken, and 3 behind it
     * too. White to move has no move */
    if (start(&g, "W:W12:B3,8")) {
        CHECK_INT(g.result, GAME_BLACK_WINS);
        CHECK_INT(g.reason, REASON_NO_MOVES);
        game_free(&g);
    }
}

TEST(game_threefold_repetition)
{
    Game g;
    if (!start(&g, "B:WK32:BK1")) return;
    /* both kings step out and back: the start position comes again after
     * 4 plies (second time: play on) and after 8 (third time: a draw) */
    const char *cycle[] = {"1-5", "32-28", "5-1", "28-32"};
    for (int i = 0; i < 8; i++) {
        play(&g, cycle[i % 4]);
        if (i < 7) {
            CHECK_MSG(g.result == GAME_ONGOING, "ply %d: result %d", i + 1, g.result);
        }
        if (i == 3) CHECK_INT(game_repetitions(&g), 1);
    }
    CHECK_INT(game_repetitions(&g), 2);
    CHECK_INT(g.result, GAME_DRAW);
    CHECK_INT(g.reason, REASON_REPETITION);
    CHECK_STR(game_result_text(g.result), "1/2-1/2");
    CHECK(game_undo(&g));
    CHECK_INT(g.result, GAME_ONGOING);
    CHECK_INT(g.nply, 7);
    game_free(&g);
}

/* Kings walking in circles, never near each other, so nothing can be
 * captured. Black's king goes round a 6-move loop in the top left (files
 * a-d, ranks 5-8); White's king on 32 round the mirror loop in the bottom
 * right (files e-h, ranks 1-4) while White's king on 4 steps 4-8 and back,
 * an 8-move cycle for White. A position comes back after lcm(6, 8) = 24
 * moves each (48 plies), the third time only after 96 plies: no threefold
 * repetition within the 80 plies of the forty-move rule. */
const char *const test_black_loop[6] = {"1-6", "6-10", "10-14", "14-9", "9-5", "5-1"};
const char *const test_white_loop[8] = {"32-27", "27-23", "23-19", "4-8", "19-24", "24-28", "28-32", "8-4"};

/* Play n plies of the loops; bi, wi: each side's place in its loop. Each
 * ply is checked to leave the game going and to count one more reversible ply. */
static bool walk(Game *g, int *bi, int *wi, int n)
{
    for (int i = 0; i < n; i++) {
        int q = game_reversible_plies(g);
        const char *m = g->cur.stm == KM_BLACK ? test_black_loop[(*bi)++ % 6] : test_white_loop[(*wi)++ % 8];
        if (!play(g, m)) return false;
        CHECK_INT(game_reversible_plies(g), q + 1);
        if (i < n - 1) CHECK_MSG(g->result == GAME_ONGOING, "ply %d: result %d", g->nply, g->result);
    }
    return true;
}

TEST(game_forty_move_rule)
{
    Game g;
    if (!start(&g, "B:WK4,K32:BK1")) return;
    int bi = 0, wi = 0;
    /* 79 reversible plies: play on; the 80th: a draw */
    CHECK(walk(&g, &bi, &wi, 79));
    CHECK_INT(game_reversible_plies(&g), 79);
    CHECK_INT(g.result, GAME_ONGOING);
    CHECK(walk(&g, &bi, &wi, 1));
    CHECK_INT(g.nply, 80);
    CHECK_INT(game_reversible_plies(&g), 80);
    CHECK_INT(g.result, GAME_DRAW);
    CHECK_INT(g.reason, REASON_FORTY_MOVES);
    CHECK_INT(game_repetitions(&g), 1); /* seen once before, at ply 32 */
    CHECK(game_undo(&g));
    CHECK_INT(g.result, GAME_ONGOING);
    CHECK_INT(game_reversible_plies(&g), 79);
    game_free(&g);
}

TEST(game_forty_move_rule_restarts_after_a_man_move_and_a_capture)
{
    /* as above, plus Black's man on 13 (a5) and White's on 22 (c3), out of
     * reach. After 39 plies White plays 22-17: a man's move restarts the
     * count (the official rule); Black must take 13x22 (over b4, landing on
     * c3), and the count starts again from there */
    Game g;
    if (!start(&g, "B:WK4,K32,22:BK1,13")) return;
    int bi = 0, wi = 0;
    CHECK(walk(&g, &bi, &wi, 39));
    CHECK_INT(game_reversible_plies(&g), 39);
    CHECK_INT(g.result, GAME_ONGOING);
    CHECK(play(&g, "22-17"));
    CHECK_INT(game_reversible_plies(&g), 0); /* a man moved */
    MoveList ml;
    CHECK_INT(mg_moves(&g.cur, &ml), 1); /* the capture is forced */
    CHECK(play(&g, "13x22"));
    CHECK_INT(game_reversible_plies(&g), 0);
    /* 79 more: plies 42-120 of the game, no draw at ply 80 */
    CHECK(walk(&g, &bi, &wi, 79));
    CHECK_INT(g.nply, 120);
    CHECK_INT(game_reversible_plies(&g), 79);
    CHECK_INT(g.result, GAME_ONGOING);
    CHECK(walk(&g, &bi, &wi, 1));
    CHECK_INT(g.result, GAME_DRAW);
    CHECK_INT(g.reason, REASON_FORTY_MOVES);
    game_free(&g);
}

TEST(game_forty_move_rule_man_move_late)
{
    /* 78 plies of kings only, then a man's move (13-17) at ply 79: without it
     * the next ply would draw; with it, 79 more king plies play on and the
     * 80th after the man's move draws. The man's move also ends the
     * repetition window: positions before it are never counted again. */
    Game g;
    if (!start(&g, "B:WK4,K32:BK1,13")) return;
    int bi = 0, wi = 0;
    CHECK(walk(&g, &bi, &wi, 78));
    CHECK_INT(game_reversible_plies(&g), 78);
    CHECK_INT(game_repetitions(&g), 1);
    CHECK_INT(g.cur.stm, KM_BLACK);
    CHECK(play(&g, "13-17"));
    CHECK_INT(game_reversible_plies(&g), 0);
    CHECK_INT(game_repetitions(&g), 0);
    CHECK(walk(&g, &bi, &wi, 79));
    CHECK_INT(g.result, GAME_ONGOING);
    CHECK(walk(&g, &bi, &wi, 1));
    CHECK_INT(g.nply, 79 + 80);
    CHECK_INT(g.result, GAME_DRAW);
    CHECK_INT(g.reason, REASON_FORTY_MOVES);
    game_free(&g);
}

TEST(game_undo_restores_each_position)
{
    Game g;
    if (!start(&g, NULL)) return;
    CHECK(!game_undo(&g)); /* nothing to take back */
    const char *moves[] = {"11-15", "22-18", "15x22", "25x18", "8-11", "29-25", "4-8", "25-22"};
    Board before[8];
    for (int i = 0; i < 8; i++) {
        before[i] = g.cur;
        play(&g, moves[i]);
    }
    CHECK_INT(g.nply, 8);
    CHECK_INT(game_reversible_plies(&g), 0); /* 25-22 is a man's move: the count restarts */
    CHECK(game_undo(&g));
    CHECK_INT(game_reversible_plies(&g), 0); /* so is 4-8 */
    CHECK(play(&g, "25-22"));
    for (int i = 7; i >= 0; i--) {
        CHECK(game_undo(&g));
        CHECK_INT(g.nply, i);
        CHECK_MSG(board_equal(&g.cur, &before[i]), "after undoing ply %d", i + 1);
    }
    Board init;
    board_init(&init);
    CHECK(board_equal(&g.cur, &init));
    CHECK_INT(game_reversible_plies(&g), 0);
    CHECK(!game_undo(&g));
    /* and forwards again from there */
    CHECK(play(&g, "9-14"));
    CHECK_INT(g.nply, 1);
    game_free(&g);
}

TEST(game_texts)
{
    CHECK_STR(game_result_text(GAME_ONGOING), "*");
    CHECK_STR(game_result_text(GAME_BLACK_WINS), "1-0");
    CHECK_STR(game_result_text(GAME_WHITE_WINS), "0-1");
    CHECK_STR(game_result_text(GAME_DRAW), "1/2-1/2");
    CHECK_STR(game_reason_text(REASON_NO_MOVES), "no legal moves");
    CHECK_STR(game_reason_text(REASON_REPETITION), "threefold repetition");
}
