/* test_level.c - strength levels: never a move that hangs a piece to a
 * shot when a safe one exists, a wider choice the lower the level, the same
 * moves from the same seed. */
#include "kingme/game.h"
#include "kingme/level.h"
#include "kingme/notation.h"
#include "kingme/weights.h"
#include "test.h"

#include <stdlib.h>

/* The move of level `level` in fen for the seed, from a fresh table: the
 * table a searcher keeps from earlier searches changes what a small budget
 * finds, so a move that depended on the test's earlier calls would test
 * their order, not the level. */
static Move level_move(Searcher *s, const char *fen, int level, uint64_t seed, LevelInfo *info)
{
    Board b;
    char err[KM_ERR_MAX];
    CHECK_MSG(board_from_fen(&b, fen, err) == 0, "%s", err);
    Game g;
    game_init(&g, &b);
    SearchLimits lim;
    search_limits_default(&lim);
    uint64_t rng = seed;
    search_clear(s);
    SearchResult r;
    memset(&r, 0, sizeof r);
    CHECK(level_search(s, &g, &lim, level, &rng, &r, info) == 0);
    CHECK(r.has_move);
    game_free(&g);
    return r.best;
}

/* Black to move. 9-14 looks best two plies deep but loses to a shot (22-18
 * 14-17 21x14 and more: -1.3 men at four plies, -1.5 at five), 6-10 gives a
 * man away (13x6): no level, at any seed, plays either. */
TEST(level_never_falls_for_a_shot)
{
    static const char *fen = "B:W13,19,21,22,23,30,31,32:B1,3,6,7,8,9,12,16";
    Weights w;
    weights_default(&w);
    Searcher s;
    char err[KM_ERR_MAX];
    CHECK(search_init(&s, &w, 4, 1, err) == 0);
    uint32_t chosen = 0;
    int tries = 0;
    for (int level = LEVEL_MIN; level <= 5; level++)
        for (uint64_t seed = 1; seed <= (level == 1 ? 24u : 4u); seed++) {
            LevelInfo in;
            Move m = level_move(&s, fen, level, seed * 7919, &in);
            char t[MOVE_TEXT_MAX];
            notation_move_to_text(&m, t);
            CHECK_MSG(strcmp(t, "9-14") && strcmp(t, "6-10"), "level %d seed %d played %s", level, (int)seed,
                      t);
            CHECK(in.unsafe >= 2);
            chosen |= 1u << m.from;
            tries++;
        }
    CHECK(tries > 30);
    CHECK(__builtin_popcount(chosen) >= 3); /* level 1 varies among the safe moves */
    search_free(&s);
}

/* A game of level 2 against level 2 from one seed is the same game again;
 * another seed gives another; level 1 chooses among more moves than level
 * 6 in the same position. */
TEST(level_is_reproducible_and_spreads_with_the_level)
{
    Weights w;
    weights_default(&w);
    Searcher s;
    char err[KM_ERR_MAX];
    CHECK(search_init(&s, &w, 4, 1, err) == 0);
    SearchLimits lim;
    search_limits_default(&lim);
    char text[3][600];
    for (int run = 0; run < 3; run++) {
        Game g;
        game_init(&g, NULL);
        search_clear(&s);
        uint64_t rng = run < 2 ? 11 : 12;
        size_t at = 0;
        text[run][0] = '\0';
        for (int ply = 0; ply < 24 && g.result == GAME_ONGOING; ply++) {
            SearchResult r;
            CHECK(level_search(&s, &g, &lim, 2, &rng, &r, NULL) == 0);
            char t[MOVE_TEXT_MAX];
            notation_move_to_text(&r.best, t);
            at += (size_t)snprintf(text[run] + at, sizeof text[run] - at, "%s ", t);
            game_play(&g, &r.best);
        }
        game_free(&g);
    }
    CHECK_MSG(strcmp(text[0], text[1]) == 0, "%s\n%s", text[0], text[1]);
    CHECK(strcmp(text[0], text[2]) != 0);
    /* the spread: over 12 seeds in the initial position */
    int distinct[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        Move seen[12];
        for (uint64_t seed = 1; seed <= 12; seed++) {
            Move m = level_move(&s, "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
                                k == 0 ? 1 : 6, seed * 31, NULL);
            bool known = false;
            for (int j = 0; j < distinct[k]; j++) known = known || mg_move_equal(&seen[j], &m);
            if (!known) seen[distinct[k]++] = m;
        }
    }
    CHECK_MSG(distinct[0] >= 3 && distinct[0] > distinct[1], "level 1: %d moves, level 6: %d", distinct[0],
              distinct[1]);
    /* a forced move is played */
    LevelInfo in;
    Move m = level_move(&s, "B:W18:B14", 1, 5, &in); /* 14x23 is the only move */
    char t[MOVE_TEXT_MAX];
    notation_move_to_text(&m, t);
    CHECK_STR(t, "14x23");
    CHECK_INT(level_spec(LEVEL_FULL - 1)->nodes > level_spec(LEVEL_MIN + 1)->nodes, 1);
    search_free(&s);
}
