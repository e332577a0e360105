/* test_analyze.c - game analysis: a known blunder is found and marked, a
 * win thrown away by the database's verdict is '??', and the annotated PDN
 * and the curve read back. */
#include "kingme/analyze.h"
#include "kingme/egdb.h"
#include "kingme/notation.h"
#include "kingme/svg.h"
#include "kingme/weights.h"
#include "test.h"

#include <stdlib.h>
#include <unistd.h>

static bool play_text(Game *g, const char *moves)
{
    char buf[512], err[KM_ERR_MAX];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        Move m;
        if (notation_parse_move(&g->cur, t, &m, err) || game_play(g, &m)) return false;
    }
    return true;
}

/* 12-16 gives a man away (19x12); the search's best move (4-8 or 9-14,
 * as the search's details have it) keeps the man. */
TEST(analyze_marks_a_man_given_away)
{
    Game g;
    CHECK(game_init(&g, NULL) == 0);
    CHECK(play_text(&g, "11-15 23-19 8-11 22-17 12-16 19x12"));
    /* the named weights, whose man is 1000 units in every phase: the
     * thresholds are in men */
    Weights w;
    char err[KM_ERR_MAX];
    CHECK_MSG(weights_read(&w, "weights/named.w", NULL, err) == 0, "%s", err);
    Searcher s;
    CHECK(search_init(&s, &w, 4, 1, err) == 0);
    SearchLimits lim;
    search_limits_default(&lim);
    lim.depth = 8;
    GameAnalysis a;
    CHECK(analyze_game(&s, &g, &lim, &a, NULL, NULL, NULL, err) == 0);
    CHECK_INT(a.nply, 6);
    const AnalyzedPly *p = &a.ply[4];
    CHECK_INT(p->side, KM_BLACK);
    CHECK_INT(p->mark, MARK_BLUNDER);
    CHECK(p->loss >= ANALYZE_BLUNDER && p->rank > 1 && p->nmoves == 8);
    char bm[MOVE_TEXT_MAX];
    notation_move_to_text(&p->best_move, bm);
    CHECK_MSG(strcmp(bm, "4-8") == 0 || strcmp(bm, "9-14") == 0, "best %s", bm);
    char best_text[2 * MOVE_TEXT_MAX + 16], best_sum[MOVE_TEXT_MAX + 16];
    snprintf(best_text, sizeof best_text, "best %s: %s", bm, bm);
    snprintf(best_sum, sizeof best_sum, "%s was best", bm);
    CHECK_INT(a.ply[5].nmoves, 1); /* 19x12 was forced */
    CHECK_INT(a.ply[5].mark, MARK_NONE);
    CHECK_INT(a.side[KM_BLACK].blunders, 1);
    CHECK_INT(a.side[KM_BLACK].worst[0], 4);
    CHECK_INT(a.side[KM_WHITE].blunders, 0);
    for (int i = 0; i < 4; i++) CHECK_MSG(a.ply[i].mark == MARK_NONE, "ply %d marked", i);
    /* the annotated PDN: read back, same moves, the mark and its comment */
    PdnTag tags[2] = {{(char *)"Black", (char *)"Beginner"}, {(char *)"White", (char *)"kingme"}};
    char *text = analyze_format_pdn(&a, &g, tags, 2, "*", "depth 8 a position");
    CHECK(text != NULL);
    if (text) {
        CHECK(strstr(text, "12-16??") != NULL);
        CHECK(strstr(text, "12-16?? {??") != NULL || strstr(text, "12-16??\n{??") != NULL);
        CHECK_MSG(strstr(text, best_text) != NULL, "no '%s'", best_text);
        char *flat = strdup(text);
        for (char *c = flat; c && *c; c++)
            if (*c == '\n') *c = ' ';
        CHECK(flat && strstr(flat, "Black (Beginner): 3 moves with a choice") != NULL);
        free(flat);
        PdnGame *games;
        int n;
        CHECK(pdn_parse(text, "annotated", &games, &n, err) == 0);
        CHECK_INT(n, 1);
        CHECK(games[0].error == NULL);
        CHECK_INT(games[0].game.nply, 6);
        for (int i = 0; i < 6 && games[0].game.nply == 6; i++)
            CHECK(mg_move_equal(&games[0].game.moves[i], &g.moves[i]));
        pdn_free_games(games, n);
        free(text);
    }
    char *sum = analyze_summary(&a, &g, KM_BLACK, "Black");
    CHECK(sum && strstr(sum, "worst: 3. 12-16?? lost") && strstr(sum, best_sum));
    free(sum);
    /* the curve */
    KmBuf b = {0};
    analyze_svg_open(&b, 1);
    analyze_svg_chart(&b, &a, &g, "a <test> game", 0);
    svg_close(&b);
    char *svg = textio_buf_done(&b), why[256];
    CHECK(svg && test_xml_well_formed(svg, "svg", why, sizeof why));
    CHECK(svg && strstr(svg, ">12-16?\?</text>") != NULL);
    free(svg);
    analyze_free(&a);
    search_free(&s);
    game_free(&g);
}

/* In a database win, a move to a draw or a loss is '??' whatever the
 * scores; a move that keeps the win is never marked. */
TEST(analyze_database_verdict_marks_a_thrown_win)
{
    char err[KM_ERR_MAX];
    const Egdb *db = test_db();
    CHECK(db != NULL);
    Weights w;
    weights_default(&w);
    Searcher s;
    CHECK(search_init(&s, &w, 1, 1, err) == 0);
    SearchLimits lim;
    search_limits_default(&lim);
    lim.depth = 6;
    search_set_egdb(&s, db);
    uint64_t rng = 7;
    int found = 0;
    for (int tries = 0; db && tries < 20000 && found < 3; tries++) {
        Board b;
        egdb_random_position(3, &rng, &b);
        MoveList ml;
        if (mg_moves(&b, &ml) < 2 || egdb_probe(db, &b, NULL) != EGDB_WIN) continue;
        int bad = -1, good = -1;
        for (int i = 0; i < ml.count; i++) {
            Board c = b;
            mg_make_move(&c, &ml.moves[i]);
            int v = egdb_probe(db, &c, NULL);
            if (v == EGDB_LOSS) good = i; /* the opponent loses */
            else if (v != EGDB_UNKNOWN) bad = i;
        }
        if (bad < 0 || good < 0) continue;
        for (int pass = 0; pass < 2; pass++) {
            Game g;
            CHECK(game_init(&g, &b) == 0);
            CHECK(game_play(&g, &ml.moves[pass ? good : bad]) == 0);
            GameAnalysis a;
            CHECK(analyze_game(&s, &g, &lim, &a, NULL, NULL, NULL, err) == 0);
            CHECK_INT(a.ply[0].db_before, EGDB_WIN);
            if (pass == 0) {
                CHECK(a.ply[0].db_after != EGDB_WIN);
                CHECK_INT(a.ply[0].mark, MARK_BLUNDER);
            } else {
                CHECK_INT(a.ply[0].db_after, EGDB_WIN);
                CHECK_INT(a.ply[0].mark, MARK_NONE);
            }
            analyze_free(&a);
            game_free(&g);
        }
        found++;
    }
    CHECK_INT(found, 3);
    search_free(&s);
}

/* ---- the command ---------------------------------------------------------------- */

static char out[65536];

static int kingme(const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s", test_kingme(), args);
    return test_run(cmd, out, sizeof out);
}

/* Game 3 of Tinsley's (27 plies) at depth 4: the summaries, the annotated
 * file that kingme pdn reads back, the curve well-formed; bad input gets one
 * line. */
TEST(analyze_command_writes_pdn_and_svg)
{
    char dir[] = "/tmp/kingme-analyze-XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(false);
        return;
    }
    char args[1024];
    snprintf(args, sizeof args,
             "analyze tests/data/tinsley.pdn --game 3 --depth 4 --no-egdb --out %s/a.pdn --svg %s/a.svg 2>&1",
             dir, dir);
    CHECK_INT(kingme(args), 0);
    CHECK_MSG(strstr(out, "game 3: E Fuller - MF Tinsley, 1-0, 27 plies") != NULL, "%s", out);
    CHECK(strstr(out, "Black (E Fuller): 13 moves with a choice") != NULL);
    CHECK(strstr(out, "White (MF Tinsley): 12 moves with a choice") != NULL);
    CHECK(strstr(out, "1 annotated game written to") != NULL);
    snprintf(args, sizeof args, "pdn %s/a.pdn -v", dir);
    CHECK_INT(kingme(args), 0);
    CHECK_MSG(strstr(out, "E Fuller - MF Tinsley, 1-0, 27 plies") &&
                  strstr(out, "1 game, 27 moves, 0 errors"),
              "%s", out);
    char path[256];
    snprintf(path, sizeof path, "%s/a.svg", dir);
    char *svg = test_slurp(path), why[256];
    CHECK_MSG(svg && test_xml_well_formed(svg, "svg", why, sizeof why), "%s", svg ? why : "no file");
    free(svg);
    snprintf(path, sizeof path, "%s/a.pdn", dir);
    char *pdn = test_slurp(path);
    CHECK(pdn && strstr(pdn, "{kingme analyze: depth 4 a position, default weights, 1 thread") != NULL);
    free(pdn);
    /* bad input: one line, status 1 (2 for the command line), no file */
    CHECK_INT(kingme("analyze /tmp/kingme-no-such.pdn 2>&1"), 1);
    CHECK(strstr(out, "kingme: /tmp/kingme-no-such.pdn: cannot read") != NULL);
    snprintf(args, sizeof args, "analyze tests/data/tinsley.pdn --game 999 --out %s/b.pdn 2>&1", dir);
    CHECK_INT(kingme(args), 1);
    CHECK_MSG(strstr(out, "there is no game 999 (the file has 724 games)") != NULL, "%s", out);
    snprintf(args, sizeof args, "analyze tests/data/tinsley.pdn --game 541 --depth 2 --out %s/b.pdn 2>&1",
             dir);
    CHECK_INT(kingme(args), 1);
    CHECK_MSG(strstr(out, "move 62 (Black): '32-28': there is no piece on 32") != NULL, "%s", out);
    CHECK_INT(kingme("analyze tests/data/tinsley.pdn --depth 3 --time 1 2>&1"), 2);
    snprintf(path, sizeof path, "%s/b.pdn", dir);
    CHECK(access(path, F_OK) != 0);
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    CHECK(system(args) == 0);
}
