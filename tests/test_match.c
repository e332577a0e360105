/* test_match.c - the ballot table, openings, engine games, the game pool,
 * Elo statistics, and the `kingme match` command. */
#include "kingme/bits.h"
#include "kingme/elo.h"
#include "kingme/match.h"
#include "kingme/notation.h"
#include "kingme/pdn.h"
#include "kingme/weights.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

/* The table compiled into the library (src/ballots.c) says exactly what the
 * data file says, line for line. */
TEST(match_ballots_equal_data_file)
{
    FILE *f = fopen("tests/data/ballots-3move.txt", "r");
    CHECK_MSG(f != NULL, "cannot open tests/data/ballots-3move.txt");
    if (!f) return;
    char line[256], mine[256];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0') continue;
        CHECK_MSG(n < BALLOT_COUNT, "more ballots in the file than in the table");
        if (n >= BALLOT_COUNT) break;
        opening_ballot_line(&opening_ballots[n], mine, sizeof mine);
        CHECK_MSG(strcmp(line, mine) == 0, "ballot %d: file '%s', table '%s'", n + 1, line, mine);
        n++;
    }
    fclose(f);
    CHECK_INT(n, BALLOT_COUNT);
    int cross = 0, ctd = 0;
    for (int i = 0; i < BALLOT_COUNT; i++) {
        cross += opening_ballots[i].status == BALLOT_CROSSBOARD;
        ctd += opening_ballots[i].ctd;
    }
    CHECK_INT(cross, BALLOT_CROSSBOARD_COUNT);
    CHECK_INT(ctd, 50);
    CHECK_STR(opening_ballots[4].name, "Dreaded Edinburgh");
    CHECK(opening_ballots[4].ctd && opening_ballots[4].status == BALLOT_CROSSBOARD);
}

/* Every ballot, barred ones included, is three legal moves from the start;
 * the crossboard openings come in ballot-number order. */
TEST(match_ballot_openings)
{
    char err[KM_ERR_MAX];
    for (int i = 0; i < BALLOT_COUNT; i++) {
        Opening o;
        int r = opening_from_ballot(&o, &opening_ballots[i], err);
        CHECK_MSG(r == 0, "ballot %d: %s", i + 1, err);
        CHECK_INT(o.nply, 3);
        CHECK_INT(o.ballot, i + 1);
        Board b = o.start;
        char text[3][MOVE_TEXT_MAX];
        for (int k = 0; k < o.nply; k++) {
            notation_move_to_text(&o.moves[k], text[k]);
            mg_make_move(&b, &o.moves[k]);
        }
        char all[200];
        snprintf(all, sizeof all, "%s %s %s", text[0], text[1], text[2]);
        CHECK_MSG(strcmp(all, opening_ballots[i].moves) == 0, "ballot %d: %s", i + 1, all);
        CHECK_INT(b.stm, KM_WHITE);
    }
    Opening *ops;
    int n;
    CHECK_INT(opening_list_crossboard(&ops, &n, err), 0);
    CHECK_INT(n, 144);
    CHECK_INT(ops[0].ballot, 1);
    CHECK_INT(ops[2].ballot, 4); /* ballot 3 is barred */
    for (int i = 1; i < n; i++) CHECK(ops[i].ballot > ops[i - 1].ballot);
    for (int i = 0; i < n; i++) CHECK(opening_ballots[ops[i].ballot - 1].status == BALLOT_CROSSBOARD);
    free(ops);
}

/* 60% is +70.4 Elo; W = L is a LOS of 50%; the interval of known figures
 * (worked out separately with the same textbook formulas in Python). */
TEST(match_elo_known_numbers)
{
    CHECK(fabs(elo_from_score(0.6) - 70.4365) < 1e-3);
    CHECK(fabs(elo_from_score(0.4) + 70.4365) < 1e-3);
    CHECK(elo_from_score(0.5) == 0);
    CHECK(isinf(elo_from_score(1.0)) && elo_from_score(1.0) > 0);
    CHECK(isinf(elo_from_score(0.0)) && elo_from_score(0.0) < 0);
    CHECK(fabs(elo_los(10, 10) - 0.5) < 1e-12);
    CHECK(fabs(elo_los(0, 0) - 0.5) < 1e-12);
    CHECK(fabs(elo_los(60, 40) - 0.977250) < 1e-5); /* Phi(2) */
    CHECK(fabs(elo_los(30, 20) - 0.921350) < 1e-5); /* Phi(10 / sqrt(50)) */
    CHECK(fabs(elo_los(20, 30) - (1 - 0.921350)) < 1e-5);

    EloStats e;
    elo_stats(60, 0, 40, &e);
    CHECK_INT(e.games, 100);
    CHECK(fabs(e.score - 0.6) < 1e-12);
    CHECK(fabs(e.elo - 70.4365) < 1e-3);
    CHECK(fabs(e.elo_lo - 1.3915) < 1e-3); /* Wilson's interval, the games' variance */
    CHECK(fabs(e.elo_hi - 139.4815) < 1e-3);
    elo_stats(30, 50, 20, &e);
    CHECK(fabs(e.score - 0.55) < 1e-12);
    CHECK(fabs(e.elo - 34.8601) < 1e-3);
    CHECK(fabs(e.elo_lo + 14.2190) < 1e-3);
    CHECK(fabs(e.elo_hi - 82.6523) < 1e-3);
    CHECK(fabs(e.los - 0.921350) < 1e-5);
    elo_stats(0, 0, 0, &e);
    CHECK(e.games == 0 && e.elo == 0 && e.los == 0.5);
    elo_stats(5, 0, 0, &e);
    CHECK(isinf(e.elo) && e.elo > 0);
    /* a perfect score: the upper bound is +inf, the lower one is not */
    CHECK(isinf(e.elo_hi) && fabs(e.elo_lo - 45.7895) < 1e-3);
    /* lopsided, few games: both bounds finite (the normal approximation's
     * upper bound was +inf for 3-1) */
    elo_stats(3, 0, 1, &e);
    CHECK(fabs(e.elo - 190.8485) < 1e-3 && fabs(e.elo_lo + 146.6601) < 1e-3 &&
          fabs(e.elo_hi - 528.3571) < 1e-3);
    elo_stats(0, 100, 0, &e); /* all draws: a narrow interval round 0 */
    CHECK(fabs(e.elo_lo + 12.8587) < 1e-3 && fabs(e.elo_hi - 12.8587) < 1e-3);
}

static bool same_game(const Game *a, const Game *b)
{
    if (a->nply != b->nply || a->result != b->result || a->reason != b->reason) return false;
    for (int i = 0; i < a->nply; i++)
        if (!mg_move_equal(&a->moves[i], &b->moves[i])) return false;
    return true;
}

/* A game follows the rules, starts with its opening, and depends only on its
 * seed; the ply cap makes a draw. */
TEST(match_one_game)
{
    Weights w, m;
    weights_default(&w);
    char err[KM_ERR_MAX];
    CHECK_MSG(weights_read(&m, "weights/material.w", NULL, err) == 0, "%s", err);
    Opening op;
    CHECK_INT(opening_from_ballot(&op, &opening_ballots[4], err), 0);
    MatchSettings set;
    referee_settings_default(&set);
    set.limits.depth = 2;
    set.hash_mb = 1;
    MatchGameSpec spec = {&w, &m, &op, 99, {0, 0}};
    MatchOutcome oa, ob;
    Game a, b;
    CHECK_INT(referee_play_game(&set, &spec, &oa, NULL, err), 0);
    CHECK_INT(referee_play_game(&set, &spec, &ob, NULL, err), 0);
    a = oa.game;
    b = ob.game;
    CHECK_INT(oa.forfeit, FORFEIT_NONE);
    CHECK_STR(oa.termination, game_reason_text(a.reason));
    CHECK(isinf(oa.min_left[0]) && isinf(oa.min_left[1]));
    CHECK(a.result != GAME_ONGOING);
    CHECK(a.nply > 3 && a.nply <= MATCH_PLY_CAP);
    CHECK(same_game(&a, &b));
    for (int i = 0; i < 3; i++) CHECK(mg_move_equal(&a.moves[i], &op.moves[i]));
    /* replay: every move legal, same end */
    Game r;
    CHECK_INT(game_init(&r, NULL), 0);
    for (int i = 0; i < a.nply; i++) {
        MoveList ml;
        mg_moves(&r.cur, &ml);
        bool legal = false;
        for (int k = 0; k < ml.count; k++) legal |= mg_move_equal(&ml.moves[k], &a.moves[i]);
        CHECK_MSG(legal, "ply %d is not legal", i + 1);
        if (!legal) break;
        CHECK_INT(r.result, GAME_ONGOING);
        game_play(&r, &a.moves[i]);
    }
    if (a.reason != REASON_PLY_CAP) CHECK_INT(r.result, a.result);
    game_free(&r);
    game_free(&b);

    /* another seed: random tie-breaks give another game (between equal
     * vectors from the start position, where ties are everywhere) */
    Weights nw; /* weights/named.w: a fitted pattern layer or fitted named
                 * weights leave few ties */
    CHECK_MSG(weights_read(&nw, "weights/named.w", NULL, err) == 0, "%s", err);
    MatchGameSpec s1 = {&nw, &nw, NULL, 1, {0, 0}}, s2 = {&nw, &nw, NULL, 2, {0, 0}};
    CHECK_INT(referee_play_game(&set, &s1, &ob, NULL, err), 0);
    b = ob.game;
    CHECK_INT(referee_play_game(&set, &s2, &oa, NULL, err), 0);
    r = oa.game;
    CHECK(!same_game(&b, &r));
    game_free(&b);
    game_free(&r);

    set.ply_cap = 10;
    CHECK_INT(referee_play_game(&set, &spec, &ob, NULL, err), 0);
    b = ob.game;
    CHECK_INT(b.nply, 10);
    CHECK_INT(b.result, GAME_DRAW);
    CHECK_INT(b.reason, REASON_PLY_CAP);
    for (int i = 0; i < 10; i++) CHECK(mg_move_equal(&a.moves[i], &b.moves[i]));
    game_free(&b);
    game_free(&a);

    atomic_bool stop = true;
    set.ply_cap = 0;
    CHECK_INT(referee_play_game(&set, &spec, &ob, &stop, err), 0);
    b = ob.game;
    CHECK_INT(b.result, GAME_ONGOING);
    CHECK_INT(b.nply, 3);
    game_free(&b);
}

/* The pool: the outcomes do not depend on the number of threads; a stop
 * flag set before leaves every game unplayed. */
TEST(match_pool_threads)
{
    Weights w[2];
    char err[KM_ERR_MAX];
    weights_default(&w[0]);
    CHECK_INT(weights_read(&w[1], "weights/thesis.w", NULL, err), 0);
    Opening *ops;
    int nops;
    CHECK_INT(opening_list_crossboard(&ops, &nops, err), 0);
    enum { N = 8 };
    MatchGameSpec specs[N];
    for (int g = 0; g < N; g++)
        specs[g] = (MatchGameSpec){
            &w[g % 2], &w[1 - g % 2], &ops[(g / 2) * 37 % nops], referee_game_seed(5, g), {0, 0}};
    MatchSettings set;
    referee_settings_default(&set);
    set.limits.depth = test_sanitized() ? 1 : 2;
    set.hash_mb = 1;
    MatchOutcome o1[N], o3[N];
    CHECK_INT(match_run(&set, specs, N, 1, true, o1, NULL, NULL, NULL, err), 0);
    CHECK_INT(match_run(&set, specs, N, 3, true, o3, NULL, NULL, NULL, err), 0);
    for (int g = 0; g < N; g++) {
        CHECK(o1[g].result != GAME_ONGOING);
        CHECK_INT(o1[g].nply, o1[g].game.nply);
        CHECK_MSG(same_game(&o1[g].game, &o3[g].game), "game %d differs between 1 and 3 threads", g);
    }
    match_outcomes_free(o1, N);
    match_outcomes_free(o3, N);
    atomic_bool stop = true;
    CHECK_INT(match_run(&set, specs, N, 2, true, o1, NULL, NULL, &stop, err), 0);
    for (int g = 0; g < N; g++) CHECK_INT(o1[g].result, GAME_ONGOING);
    match_outcomes_free(o1, N);
    free(ops);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

TEST(match_pdn_openings)
{
    char dir[64], path[128], err[KM_ERR_MAX];
    snprintf(dir, sizeof dir, "/tmp/kingme-match-%d", (int)getpid());
    char cmd[512], out[8192];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    snprintf(path, sizeof path, "%s/open.pdn", dir);
    write_file(path, "[Event \"a\"]\n1. 11-15 23-19 2. 8-11 *\n\n"
                     "[FEN \"W:W18,K31:B1,2,14\"]\n*\n");
    Opening *ops;
    int n;
    CHECK_MSG(opening_list_from_pdn(path, &ops, &n, err) == 0, "%s", err);
    CHECK_INT(n, 2);
    if (n == 2) {
        CHECK_INT(ops[0].nply, 3);
        CHECK_INT(ops[1].nply, 0);
        CHECK_INT(ops[1].start.stm, KM_WHITE);
        CHECK_INT(ops[0].ballot, 0);
    }
    free(ops);
    write_file(path, "1. 11-15 23-19 2. 8-11 *\n\n1. 11-15 24-19 2. 15x24 *\n\n1. 12-16 99-98 *\n");
    CHECK_INT(opening_list_from_pdn(path, &ops, &n, err), -1);
    CHECK_MSG(strstr(err, "game 3") != NULL, "error: %s", err);
    write_file(path, "[FEN \"B:W18:B14\"]\n1. 14x23 *\n");
    CHECK_INT(opening_list_from_pdn(path, &ops, &n, err), -1);
    CHECK_MSG(strstr(err, "already over") != NULL, "error: %s", err);
    CHECK_INT(opening_list_from_pdn("tests/data/no-such.pdn", &ops, &n, err), -1);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}

/* Two PDN files of the same match hold the same games, round by round. */
static bool same_rounds(const char *dir, const char *f1, const char *f2)
{
    char p1[256], p2[256], err[KM_ERR_MAX];
    snprintf(p1, sizeof p1, "%s/%s", dir, f1);
    snprintf(p2, sizeof p2, "%s/%s", dir, f2);
    PdnGame *a, *b;
    int na, nb;
    if (pdn_read_file(p1, &a, &na, err)) return false;
    if (pdn_read_file(p2, &b, &nb, err)) {
        pdn_free_games(a, na);
        return false;
    }
    bool same = na == nb;
    for (int i = 0; same && i < na; i++) {
        const char *round = pdn_tag(&a[i], "Round");
        int k = -1;
        for (int j = 0; j < nb && round; j++)
            if (pdn_tag(&b[j], "Round") && strcmp(pdn_tag(&b[j], "Round"), round) == 0) k = j;
        same = k >= 0 && same_game(&a[i].game, &b[k].game) && strcmp(a[i].result, b[k].result) == 0;
    }
    pdn_free_games(a, na);
    pdn_free_games(b, nb);
    return same;
}

/* Find "A: W wins, D draws, L losses" in the output, the words singular
 * or plural as the program prints them ("A: 10 wins, 1 draw, 0 losses"). */
static bool wdl(const char *out, int *w, int *d, int *l)
{
    const char *p = strstr(out, "\nA: ");
    char a[8], b[8], c[8];
    return p && sscanf(p, "\nA: %d %7[a-z], %d %7[a-z], %d %7[a-z]", w, a, d, b, l, c) == 6 &&
           strncmp(a, "win", 3) == 0 && strncmp(b, "draw", 4) == 0 && strncmp(c, "loss", 4) == 0;
}

TEST(match_command)
{
    char dir[64], cmd[1024], out[16384];
    snprintf(dir, sizeof dir, "/tmp/kingme-match-cli-%d", (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
    int depth = test_sanitized() ? 1 : 2;
    for (int j = 1; j <= 2; j++) {
        snprintf(cmd, sizeof cmd,
                 "%s match weights/default.w weights/thesis.w --games 6 --depth %d -j %d "
                 "--seed 3 --out %s/m%d.pdn",
                 test_kingme(), depth, j, dir, j);
        CHECK_INT(test_run(cmd, out, sizeof out), 0);
        CHECK_MSG(strstr(out, "Elo difference") && strstr(out, "LOS"), "output: %s", out);
    }
    int w, d, l;
    CHECK_MSG(wdl(out, &w, &d, &l), "output: %s", out);
    CHECK_INT(w + d + l, 6);
    /* the same games on 1 and 2 threads (written as they end, so perhaps in
     * another order) */
    CHECK_MSG(same_rounds(dir, "m1.pdn", "m2.pdn"), "the games differ between -j 1 and -j 2");
    /* the games replay, with their tags */
    snprintf(cmd, sizeof cmd, "%s pdn %s/m1.pdn", test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "6 games,") && strstr(out, " 0 errors"), "pdn: %s", out);
    char path[128];
    snprintf(path, sizeof path, "%s/m1.pdn", dir);
    PdnGame *g = NULL; /* still NULL after a failed read: nothing to free */
    int n = 0;
    char err[KM_ERR_MAX];
    CHECK_MSG(pdn_read_file(path, &g, &n, err) == 0, "%s", err);
    /* -j 1: the games end in round order */
    if (n == 6) {
        CHECK_STR(pdn_tag(&g[0], "Black"), "weights/default.w");
        CHECK_STR(pdn_tag(&g[1], "Black"), "weights/thesis.w");
        CHECK_STR(pdn_tag(&g[2], "Ballot"), "2");
        CHECK_STR(pdn_tag(&g[3], "Round"), "4");
        int a = 0; /* A's points, from the PDN, must agree with the summary */
        for (int i = 0; i < 6; i++) {
            const char *res = g[i].result;
            bool a_black = i % 2 == 0;
            if (strcmp(res, "1/2-1/2") == 0) a += 1;
            else if ((strcmp(res, "1-0") == 0) == a_black) a += 2;
        }
        CHECK_INT(a, 2 * w + d);
    }
    CHECK_INT(n, 6);
    pdn_free_games(g, n);

    /* openings from the start position and from a PDN file */
    snprintf(cmd, sizeof cmd,
             "%s match weights/default.w weights/default.w --games 2 --depth 1 "
             "--openings start --out %s/s.pdn",
             test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    snprintf(cmd, sizeof cmd,
             "%s match weights/default.w weights/material.w --depth 1 "
             "--openings tests/data/no-such.pdn --out %s/s.pdn",
             test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 1);

    /* --max-plies: 12 plies end every game (the ballot's 3 included); none
     * by default, the rules ending every game */
    snprintf(cmd, sizeof cmd,
             "%s match weights/default.w weights/material.w --games 4 --depth 1 -j 1 "
             "--max-plies 12 --out %s/c.pdn",
             test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "depth 1, at most 12 plies,") && strstr(out, "A: 0 wins, 4 draws, 0 losses"),
              "output: %s", out);
    snprintf(path, sizeof path, "%s/c.pdn", dir);
    CHECK_MSG(pdn_read_file(path, &g, &n, err) == 0, "%s", err);
    CHECK_INT(n, 4);
    for (int i = 0; i < n; i++) {
        CHECK_STR(pdn_tag(&g[i], "Termination"), "ply cap reached");
        CHECK_INT(g[i].game.nply, 12);
    }
    pdn_free_games(g, n);
    snprintf(cmd, sizeof cmd,
             "%s match weights/default.w weights/material.w --games 4 --depth 1 -j 1 "
             "--out %s/c.pdn",
             test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "depth 1, 1 thread,"), "output: %s", out);
    CHECK_MSG(pdn_read_file(path, &g, &n, err) == 0, "%s", err);
    CHECK_INT(n, 4);
    for (int i = 0; i < n; i++)
        CHECK_MSG(strcmp(pdn_tag(&g[i], "Termination"), "ply cap reached") != 0, "game %d", i);
    pdn_free_games(g, n);

    /* bad flags: usage, status 2 */
    const char *bad[] = {"weights/default.w", "a.w b.w --games 3",          "a.w b.w --depth x",
                         "a.w b.w --bogus",   "a.w b.w --depth 2 --time 1", "a.w b.w --openings nonsense",
                         "a.w b.w c.w",       "a.w b.w --max-plies -1",     "a.w b.w --max-plies 100000"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(cmd, sizeof cmd, "%s match %s", test_kingme(), bad[i]);
        CHECK_MSG(test_run(cmd, out, sizeof out) == 2, "'%s' should exit 2: %s", bad[i], out);
        CHECK_MSG(strstr(out, "\nsee: kingme help match\n") != NULL && strchr(out, '\n')[1] == 's',
                  "'%s': not one line and see: %s", bad[i], out);
    }
    snprintf(cmd, sizeof cmd, "%s match weights/default.w tests/data/no-such.w --games 2", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}

/* ---- SPRT ------------------------------------------------------------------ */

/* LLR values worked out by hand (with a calculator) from the formula in
 * elo.h: for 60/20/20, s = 0.7, var = (60 0.09 + 20 0.04 + 20 0.49) / 100 =
 * 0.16, s0 = 0.5, s1 = 1 / (1 + 10^(-10/400)) = 0.5143868, so LLR = 100
 * 0.0143868 (1.4 - 1.0143868) / 0.32 = 1.7337133. */
TEST(match_sprt_llr)
{
    Sprt t;
    elo_sprt_init(&t, 0, 10, 0.05, 0.05);
    CHECK(fabs(t.lower + 2.9444389792) < 1e-9);
    CHECK(fabs(t.upper - 2.9444389792) < 1e-9);
    CHECK(fabs(elo_sprt_llr(&t, 60, 20, 20) - 1.7337133119) < 1e-8);
    CHECK(fabs(elo_sprt_llr(&t, 10, 80, 10) + 0.2069910682) < 1e-8);
    CHECK(fabs(elo_sprt_llr(&t, 3, 0, 1) - 0.0745237442) < 1e-8);
    CHECK(fabs(elo_sprt_llr(&t, 300, 400, 250) - 0.0) > 1); /* H1 side, checked below with 0 5 */
    elo_sprt_init(&t, 0, 5, 0.05, 0.05);
    CHECK(fabs(elo_sprt_llr(&t, 300, 400, 250) - 1.0780478599) < 1e-8);
    elo_sprt_init(&t, -5, 5, 0.05, 0.05);
    CHECK(fabs(elo_sprt_llr(&t, 100, 100, 150) + 2.0738764926) < 1e-8);
    /* no variance: no information */
    CHECK(elo_sprt_llr(&t, 0, 0, 0) == 0);
    CHECK(elo_sprt_llr(&t, 0, 40, 0) == 0);
    CHECK(elo_sprt_llr(&t, 7, 0, 0) == 0);
    CHECK_INT(elo_sprt_decide(&t, 2.95), SPRT_H1);
    CHECK_INT(elo_sprt_decide(&t, 2.94), SPRT_CONTINUE);
    CHECK_INT(elo_sprt_decide(&t, -2.95), SPRT_H0);
}

/* Results fed one game at a time, as the match does: the test stops at the
 * first game whose LLR crosses a bound (the game numbers computed apart, in
 * double precision, from the same formula). */
static int sprt_stop_at(const char *pattern, int max, SprtDecision *d, double *llr)
{
    Sprt t;
    elo_sprt_init(&t, 0, 10, 0.05, 0.05);
    int w = 0, dr = 0, l = 0;
    size_t len = strlen(pattern);
    for (int i = 0; i < max; i++) {
        char c = pattern[(size_t)i % len];
        w += c == 'W';
        dr += c == 'D';
        l += c == 'L';
        *llr = elo_sprt_llr(&t, w, dr, l);
        if ((*d = elo_sprt_decide(&t, *llr)) != SPRT_CONTINUE) return i + 1;
    }
    return 0;
}

TEST(match_sprt_sequences)
{
    SprtDecision d;
    double llr;
    /* W W D W L: a 70% score, H1 after 167 games (101 wins, 33 draws, 33 losses) */
    CHECK_INT(sprt_stop_at("WWDWL", 4000, &d, &llr), 167);
    CHECK_INT(d, SPRT_H1);
    CHECK(fabs(llr - 2.965028) < 1e-5);
    /* L D D W D: an even score, H0 (Elo 0 rather than 10) after 2777 games */
    CHECK_INT(sprt_stop_at("LDDWD", 4000, &d, &llr), 2777);
    CHECK_INT(d, SPRT_H0);
    CHECK(fabs(llr + 2.945478) < 1e-5);
    /* only draws: never decides */
    CHECK_INT(sprt_stop_at("D", 4000, &d, &llr), 0);
}

/* ---- the referee ------------------------------------------------------------ */

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

static int count_lines(const char *path)
{
    char *t = test_slurp(path);
    int n = 0;
    for (char *p = t; p && *p; p++) n += *p == '\n';
    free(t);
    return n;
}

/* A process that is gone, or dead and waiting for its new parent (init,
 * which may take its time) to reap it. */
static bool process_dead(int pid)
{
    if (kill(pid, 0) != 0 && errno == ESRCH) return true;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    char *t = test_slurp(path);
    const char *p = t ? strrchr(t, ')') : NULL;
    bool zombie = p && p[1] == ' ' && p[2] == 'Z';
    free(t);
    return zombie;
}

/* No child of this process is left: every engine was reaped. */
static bool no_children(void)
{
    int st;
    return waitpid(-1, &st, WNOHANG) < 0 && errno == ECHILD;
}

/* An engine side that misbehaves at its first move forfeits each game with
 * the reason named, and is restarted (a new process) before the next game. */
TEST(match_referee_forfeits)
{
    static const struct {
        const char *mode;
        MatchForfeit why;
        const char *term; /* how Termination starts, for game 1 (engine is Black) */
    } cases[] = {
        {"illegal", FORFEIT_ILLEGAL, "illegal move: Black played '32-1'"},
        {"crash", FORFEIT_CRASH, "crash: Black at its move (exited with status 3)"},
        {"garbage", FORFEIT_PROTOCOL, "protocol error: Black sent 'I am not an engine'"},
        {"hang", FORFEIT_HANG, "hang: Black sent no bestmove within 0.3 s"},
    };
    Weights m;
    char err[KM_ERR_MAX];
    CHECK_INT(weights_read(&m, "weights/material.w", NULL, err), 0);
    Opening op;
    opening_start(&op);
    char log[128], cmd[256];
    snprintf(log, sizeof log, "/tmp/kingme-referee-%d.log", (int)getpid());
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        remove(log);
        snprintf(cmd, sizeof cmd, "sh tests/data/engines/broken.sh %s %s", cases[k].mode, log);
        MatchSide sides[2] = {{"broken", NULL, cmd}, {"material", &m, NULL}};
        MatchSettings set;
        referee_settings_default(&set);
        set.limits.depth = 2;
        /* short for the hang, long for the others (a loaded machine must not
         * turn a slow answer into a hang) */
        set.timeout = strcmp(cases[k].mode, "hang") == 0 ? 0.3 : 30;
        set.hash_mb = 1;
        set.sides = sides;
        set.nsides = 2;
        MatchGameSpec specs[2] = {{NULL, NULL, &op, 1, {0, 1}}, {NULL, NULL, &op, 2, {1, 0}}};
        MatchOutcome out[2];
        CHECK_MSG(match_run(&set, specs, 2, 1, true, out, NULL, NULL, NULL, err) == 0, "%s: %s",
                  cases[k].mode, err);
        CHECK_INT(out[0].forfeit, cases[k].why);
        CHECK_INT(out[0].forfeit_side, KM_BLACK);
        CHECK_INT(out[0].result, GAME_WHITE_WINS);
        CHECK_INT(out[0].reason, REASON_ADJUDICATED);
        CHECK_INT(out[0].nply, 0);
        CHECK_MSG(strncmp(out[0].termination, cases[k].term, strlen(cases[k].term)) == 0, "%s: '%s'",
                  cases[k].mode, out[0].termination);
        /* game 2: the engine is White, and forfeits after material's first move */
        CHECK_INT(out[1].forfeit, cases[k].why);
        CHECK_INT(out[1].forfeit_side, KM_WHITE);
        CHECK_INT(out[1].result, GAME_BLACK_WINS);
        CHECK_INT(out[1].nply, 1);
        match_outcomes_free(out, 2);
        /* started for game 1, restarted for game 2 */
        CHECK_MSG(count_lines(log) == 2, "%s: %d starts", cases[k].mode, count_lines(log));
        CHECK_MSG(no_children(), "%s: a child is left", cases[k].mode);
        if (strcmp(cases[k].mode, "hang") == 0) {
            /* what the hung script started was killed with it */
            char sleep_log[160];
            snprintf(sleep_log, sizeof sleep_log, "%s.sleep", log);
            char *t = test_slurp(sleep_log);
            int pid = t ? atoi(t) : 0;
            free(t);
            CHECK(pid > 0);
            /* The sleep is the script's child, not ours: no waitpid, no
             * pipe tells when the kill has taken effect. A loop on that
             * condition, 10 ms a look, given up after 10 s. */
            bool gone = false;
            for (int i = 0; i < 1000 && pid > 0 && !gone; i++) {
                gone = process_dead(pid);
                if (!gone) nanosleep(&(struct timespec){0, 10000000}, NULL);
            }
            CHECK_MSG(gone, "the hung engine's sleep (pid %d) is still there", pid);
            remove(sleep_log);
        }
    }
    remove(log);
}

/* Under a clock: a move that takes longer than the time left loses on time
 * (the referee measures it); the closest call is the least time left. */
TEST(match_referee_clock)
{
    Weights m;
    char err[KM_ERR_MAX];
    CHECK_INT(weights_read(&m, "weights/material.w", NULL, err), 0);
    Opening op;
    opening_start(&op);
    MatchSide sides[2] = {{"slow", NULL, "sh tests/data/engines/broken.sh slow"}, {"material", &m, NULL}};
    MatchSettings set;
    referee_settings_default(&set);
    set.hash_mb = 1;
    set.tc_base = 0.1; /* 0.3 s is too long */
    set.tc_inc = 0;
    set.sides = sides;
    set.nsides = 2;
    MatchGameSpec spec = {NULL, NULL, &op, 1, {0, 1}};
    MatchOutcome o;
    CHECK_MSG(referee_play_game(&set, &spec, &o, NULL, err) == 0, "%s", err);
    CHECK_INT(o.forfeit, FORFEIT_TIME);
    CHECK_INT(o.result, GAME_WHITE_WINS);
    CHECK_MSG(strncmp(o.termination, "time forfeit: Black took 0.", 27) == 0, "'%s'", o.termination);
    CHECK(o.min_left[KM_BLACK] < 0);
    CHECK(isinf(o.min_left[KM_WHITE]));
    game_free(&o.game);
    /* enough time: 9-13 is played and the charge is the time taken */
    set.tc_base = 5;
    set.ply_cap = 1;
    CHECK_MSG(referee_play_game(&set, &spec, &o, NULL, err) == 0, "%s", err);
    CHECK_INT(o.forfeit, FORFEIT_NONE);
    CHECK_INT(o.nply, 1);
    CHECK_INT(o.reason, REASON_PLY_CAP);
    CHECK_MSG(o.min_left[KM_BLACK] < 4.75 && o.min_left[KM_BLACK] > 0, "left %.3f", o.min_left[KM_BLACK]);
    game_free(&o.game);
    CHECK(no_children());
}

/* An engine that cannot start stops the match before any game, with one
 * message. */
TEST(match_engine_does_not_start)
{
    Weights m;
    char err[KM_ERR_MAX];
    weights_default(&m);
    MatchSide sides[2] = {{"engine:exit 7", NULL, "exit 7"}, {"default", &m, NULL}};
    MatchSettings set;
    referee_settings_default(&set);
    set.limits.depth = 1;
    set.hash_mb = 1;
    set.sides = sides;
    set.nsides = 2;
    MatchGameSpec specs[2] = {{NULL, NULL, NULL, 1, {0, 1}}, {NULL, NULL, NULL, 2, {1, 0}}};
    MatchOutcome out[2];
    CHECK_INT(match_run(&set, specs, 2, 2, false, out, NULL, NULL, NULL, err), -1);
    CHECK_STR(err, "engine:exit 7: the engine exited with status 7 before answering hello");
    CHECK_INT(out[0].result, GAME_ONGOING);
    CHECK(no_children());
}

/* kingme match with an engine side: forfeits in the summary and the PDN, the
 * PDN replays; bad destinations and oversized tables are refused before any
 * game; a killed match keeps the games that ended. */
TEST(match_command_referee)
{
    char dir[64], cmd[2048], out[16384];
    snprintf(dir, sizeof dir, "/tmp/kingme-referee-cli-%d", (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    snprintf(cmd, sizeof cmd,
             "%s match engine:\"sh tests/data/engines/broken.sh garbage\" weights/material.w "
             "--games 4 --depth 2 -j 2 --out %s/g.pdn",
             test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "A: 0 wins, 0 draws, 4 losses") &&
                  strstr(out, "forfeits: 4; A 4 (protocol error 4)"),
              "output: %s", out);
    char path[128], err[KM_ERR_MAX];
    snprintf(path, sizeof path, "%s/g.pdn", dir);
    PdnGame *g;
    int n;
    CHECK_MSG(pdn_read_file(path, &g, &n, err) == 0, "%s", err);
    CHECK_INT(n, 4);
    for (int i = 0; i < n; i++) {
        const char *t = pdn_tag(&g[i], "Termination");
        CHECK_MSG(t && strncmp(t, "protocol error: ", 16) == 0, "Termination '%s'", t ? t : "(none)");
        CHECK(g[i].error == NULL);
    }
    pdn_free_games(g, n);
    snprintf(cmd, sizeof cmd, "%s pdn %s/g.pdn", test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);

    /* against kingme's own engine process: the games are legal and replay */
    snprintf(cmd, sizeof cmd,
             "%s match engine:\"%s engine\" weights/material.w --games 4 --depth 2 --out %s/e.pdn",
             test_kingme(), test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "forfeits: none") && strstr(out, "4 games in"), "output: %s", out);
    snprintf(cmd, sizeof cmd, "%s pdn %s/e.pdn", test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strncmp(out, "4 games, ", 9) == 0 && strstr(out, " 0 errors"), "pdn: %s", out);

    /* --sprt: stops at the first game where the LLR of the games so far
     * crosses a bound (-j 1: in round order); default.w is far stronger than
     * material.w, so H1 */
    snprintf(cmd, sizeof cmd,
             "%s match weights/default.w weights/material.w --depth 2 --sprt 0 10 --games 400 -j 1 --no-book "
             "--out %s/s.pdn",
             test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    int sw, sd, sl, after;
    double llr;
    const char *sp = strstr(out, "SPRT: H1 accepted, LLR ");
    CHECK_MSG(wdl(out, &sw, &sd, &sl) && sp &&
                  sscanf(sp, "SPRT: H1 accepted, LLR %lf (bounds -2.94 .. 2.94) after %d", &llr, &after) == 2,
              "output: %s", out);
    if (sp) {
        Sprt t;
        elo_sprt_init(&t, 0, 10, 0.05, 0.05);
        CHECK_INT(after, sw + sd + sl);
        CHECK(after < 400);
        CHECK(fabs(elo_sprt_llr(&t, sw, sd, sl) - llr) < 0.006);
        CHECK(elo_sprt_llr(&t, sw, sd, sl) >= t.upper);
        /* one game fewer had not decided: the last game was a win, draw or loss */
        double before = elo_sprt_llr(&t, sw - 1, sd, sl);
        if (before > t.upper) before = elo_sprt_llr(&t, sw, sd - 1, sl);
        if (before > t.upper) before = elo_sprt_llr(&t, sw, sd, sl - 1);
        CHECK(before < t.upper);
        snprintf(path, sizeof path, "%s/s.pdn", dir);
        CHECK_MSG(pdn_read_file(path, &g, &n, err) == 0, "%s", err);
        CHECK_INT(n, after);
        pdn_free_games(g, n);
    }

    /* refused before any game, one line each */
    const char *bad[][2] = {
        {"engine:'exit 7' weights/material.w --depth 1",
         "the engine exited with status 7 before answering hello"},
        {"weights/material.w weights/material.w --out tests/data/engines/broken.sh/x.pdn",
         "cannot create the folder"},
        {"weights/material.w weights/material.w --hash 65536 -j 64", "MB of tables, more than the"},
    };
    snprintf(path, sizeof path, "%s/bad.pdn", dir);
    write_file(path, "old games\n");
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        /* stderr only */
        snprintf(cmd, sizeof cmd, "{ %s match %s --games 2 --out %s/bad.pdn >/dev/null; } 2>&1",
                 test_kingme(), bad[i][0], dir);
        if (i == 1)
            snprintf(cmd, sizeof cmd, "{ %s match %s --games 2 >/dev/null; } 2>&1", test_kingme(), bad[i][0]);
        CHECK_INT(test_run(cmd, out, sizeof out), 1);
        CHECK_MSG(strstr(out, bad[i][1]) && strchr(out, '\n') == out + strlen(out) - 1, "'%s': %s", bad[i][0],
                  out);
    }
    /* nothing played: a file that was there is left as it was */
    char *kept = test_slurp(path);
    CHECK(kept && strcmp(kept, "old games\n") == 0);
    free(kept);

    /* a device is written to, not replaced */
    snprintf(cmd, sizeof cmd,
             "%s match weights/material.w weights/material.w --games 2 --depth 1 --out /dev/null "
             "&& test -c /dev/null",
             test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 0);

    /* kill -9 after the first game: that game is in the file. The engine
     * plays an illegal move at its first start and hangs after its restart.
     * The hang's pid file (written by the engine's script, which no pipe
     * joins to the test) says the second game has begun, so the first is
     * written: the shell loops on it, 50 ms a look, for at most 20 s. */
    snprintf(cmd, sizeof cmd,
             "%s match engine:\"sh tests/data/engines/broken.sh once %s/log\" weights/material.w --games 4 "
             "--depth 2 -j 1 --timeout 30 --out %s/k.pdn >/dev/null 2>&1 & pid=$!; "
             "for i in $(seq 400); do test -s %s/log.sleep && break; sleep 0.05; done; "
             "kill -9 $pid; wait $pid 2>/dev/null; kill $(sed -n 's/start //p' %s/log) $(cat %s/log.sleep) "
             "2>/dev/null; "
             "%s pdn %s/k.pdn",
             test_kingme(), dir, dir, dir, dir, dir, test_kingme(), dir);
    test_run(cmd, out, sizeof out);
    CHECK_MSG(strncmp(out, "1 game, 4 moves, 0 errors", 25) == 0 ||
                  strstr(out, "\n1 game, 4 moves, 0 errors"),
              "after kill -9: %s", out);

    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}

TEST(match_out_dash_is_standard_output)
{
    /* --out - writes the games to standard output ('-' names
     * stdout wherever an output file is named); no file called '-' */
    static char out[1 << 16];
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "cd /tmp && %s/%s match %s/weights/material.w default --depth 2 --games 4 --out - -j 1",
             getcwd((char[1024]){0}, 1024), test_kingme(), getcwd((char[1024]){0}, 1024));
    if (test_kingme()[0] == '/')
        snprintf(cmd, sizeof cmd,
                 "cd /tmp && %s match %s/weights/material.w default --depth 2 --games 4 --out - -j 1",
                 test_kingme(), getcwd((char[1024]){0}, 1024));
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    int events = 0;
    for (const char *p = out; (p = strstr(p, "[Event \"kingme match\"]")); p++) events++;
    CHECK_MSG(events == 4, "%d games on stdout: %s", events, out);
    CHECK(access("/tmp/-", F_OK) != 0);
}

/* --nodes: a budget of nodes a move, the same games however many threads
 * play them and however loaded the machine is; engine players get
 * `go nodes N`. */
TEST(match_node_budget)
{
    char dir[64], cmd[2048], out[8192], path[128], err[KM_ERR_MAX];
    snprintf(dir, sizeof dir, "/tmp/kingme-match-nodes-%d", (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    PdnGame *g[2];
    int n[2];
    for (int k = 0; k < 2; k++) {
        snprintf(
            cmd, sizeof cmd,
            "%s match weights/default.w weights/handset.w --nodes 3000 --games 4 -j %d --no-egdb --no-book "
            "--out %s/n%d.pdn",
            test_kingme(), k + 1, dir, k);
        CHECK_INT(test_run(cmd, out, sizeof out), 0);
        CHECK_MSG(strstr(out, "3000 nodes per move, ") != NULL, "output: %s", out);
        snprintf(path, sizeof path, "%s/n%d.pdn", dir, k);
        CHECK_MSG(pdn_read_file(path, &g[k], &n[k], err) == 0, "%s", err);
    }
    CHECK_INT(n[0], 4);
    CHECK_INT(n[1], 4);
    for (int i = 0; i < 4 && i < n[0] && i < n[1]; i++) {
        /* the games come in as they end: match them by round */
        const PdnGame *a = &g[0][i], *b = NULL;
        for (int j = 0; j < n[1]; j++)
            if (!strcmp(pdn_tag(&g[1][j], "Round"), pdn_tag(a, "Round"))) b = &g[1][j];
        CHECK(b != NULL);
        if (!b) continue;
        CHECK_INT(a->game.nply, b->game.nply);
        CHECK(a->game.nply > 10 &&
              !memcmp(a->game.keys, b->game.keys, (size_t)(a->game.nply + 1) * sizeof a->game.keys[0]));
    }
    for (int k = 0; k < 2; k++) pdn_free_games(g[k], n[k]);
    snprintf(
        cmd, sizeof cmd,
        "%s match engine:\"%s engine --no-egdb\" weights/handset.w --nodes 3000 --games 2 -j 1 --no-egdb "
        "--no-book --out %s/e.pdn",
        test_kingme(), test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "forfeits: none") && strstr(out, "2 games: 1 opening"), "output: %s", out);
    snprintf(cmd, sizeof cmd, "%s match default default --nodes 3000 --depth 2 2>&1", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 2);
    CHECK_MSG(strstr(out, "give one of --depth, --time, --nodes and --tc") != NULL, "output: %s", out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
}

/* tools/endings.sh at a tiny scale: three positions judged with a 4-piece
 * database (two kings against one, won; a king against a king, drawn; three
 * kings against one, won, with the losing side to move), then played by
 * kingme with the 3-piece database against kingme with the 4-piece one at
 * depth 4: the tally counts the won positions won by A holding the winning
 * side, the drawn one held with both colours, and none of the lost ones
 * saved (B has the whole database); both sides win them as fast. A missing
 * program, database or file is one line. */
TEST(match_endings_script)
{
    char dir[128], cmd[2048], path[256];
    static char out[1 << 16];
    const char *k = test_kingme();
    test_fresh_dir("endings", dir, sizeof dir, "s");
    char err[KM_ERR_MAX];
    snprintf(cmd, sizeof cmd, "%s egdb build --pieces 3 --dir %s/db3 -j 1 >/dev/null 2>&1", k, dir);
    CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s", out);
    snprintf(path, sizeof path, "%s/db4", dir);
    CHECK_MSG(test_db_at(path, 4, err), "%s", err);
    snprintf(path, sizeof path, "%s/picks.txt", dir);
    CHECK(
        test_put_file(path, "3\tW:WK1,K5:BK32\tfirst\n2\tB:WK1:BK32\tsecond\n4\tB:WK1,K5,K9:BK32\tthird\n"));
    snprintf(cmd, sizeof cmd,
             "tools/endings.sh judge --kingme %s --egdb %s/db4 --depth 6 --header 'three test positions' %s "
             "%s/judged.pdn 2>/dev/null",
             k, dir, path, dir);
    CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s", out);
    CHECK_MSG(strstr(out, "3 of 3 positions judged"), "%s", out);
    snprintf(path, sizeof path, "%s/judged.pdn", dir);
    char *judged = test_slurp(path);
    CHECK(judged != NULL);
    if (judged) {
        CHECK_MSG(strncmp(judged,
                          "% three test positions\n% judged by: kingme search --egdb db4 --depth 6, draw "
                          "when |score| < 100\n",
                          95) == 0,
                  "%s", judged);
        const char *w1 =
            strstr(judged, "[Judgement \"white wins\"]\n[Score \"db win\"]\n[FEN \"W:WK1,K5:BK32\"]");
        const char *d = strstr(judged, "[Judgement \"draw\"]\n[Score \"0\"]\n[FEN \"B:WK1:BK32\"]");
        const char *w2 =
            strstr(judged, "[Judgement \"white wins\"]\n[Score \"db loss\"]\n[FEN \"B:WK1,K5,K9:BK32\"]");
        CHECK_MSG(w1 && d && w2 && w1 < d && d < w2, "%s", judged);
        free(judged);
    }
    /* the positions file is a match's openings */
    Opening *ops;
    int n;
    bool listed = opening_list_from_pdn(path, &ops, &n, err) == 0;
    CHECK_MSG(listed, "%s", err);
    if (listed) {
        CHECK_INT(n, 3);
        free(ops);
    }
    snprintf(cmd, sizeof cmd,
             "tools/endings.sh --kingme %s --egdb-a %s/db3 --egdb-b %s/db4 --depth 4 --out %s/games.pdn %s "
             "2>/dev/null",
             k, dir, dir, dir, path);
    CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s", out);
    const char *tally = strstr(out, "pieces  won: A wins");
    CHECK_MSG(tally && strcmp(tally, "pieces  won: A wins         drawn: A holds      lost: A saves\n"
                                     "     2     -                   2/2    100.0%       -\n"
                                     "     3     1/1    100.0%       -                   0/1      0.0%\n"
                                     "     4     1/1    100.0%       -                   0/1      0.0%\n"
                                     "   all     2/2    100.0%       2/2    100.0%       0/2      0.0%\n"
                                     "won by both sides: A wins in 35.5 plies on average, B in 35.5 (2 "
                                     "positions)\n"
                                     "A: 2 wins, 2 draws, 2 losses in 6 games\n") == 0,
              "%s", out);
    /* --positions 1: the first position only, with both colours */
    snprintf(cmd, sizeof cmd,
             "tools/endings.sh --kingme %s --egdb-a %s/db3 --egdb-b %s/db4 --depth 4 --positions 1 --out "
             "%s/games.pdn %s 2>/dev/null | tail -1",
             k, dir, dir, dir, path);
    CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s", out);
    CHECK_STR(out, "A: 1 win, 0 draws, 1 loss in 2 games\n");
    /* one clear line for what is missing */
    struct {
        const char *args, *line;
    } bad[] = {
        {"--kingme %s/none --egdb-b %s/db4 %s", "endings.sh: %s/none: no such program (--kingme)\n"},
        {"--egdb-a %s/db9 --egdb-b %s/db4 %s",
         "endings.sh: %s/db9: no such database folder (--egdb-a; make egdb builds egdb/)\n"},
        {"--egdb-a %s/db3 --egdb-b %s/db6 %s", "endings.sh: %s/db6: no such database folder (--egdb-b)\n"},
        {"--egdb-a %s/db3 --egdb-b %s/db4 %s.none",
         "endings.sh: %s/judged.pdn.none: no such positions file\n"},
    };
    for (int i = 0; i < 4; i++) {
        char args[512], want[512];
        snprintf(args, sizeof args, bad[i].args, dir, dir, path);
        snprintf(want, sizeof want, bad[i].line, dir);
        snprintf(cmd, sizeof cmd, "tools/endings.sh --kingme %s %s 2>&1", k, args);
        if (i == 0) snprintf(cmd, sizeof cmd, "tools/endings.sh %s 2>&1", args);
        CHECK_INT(test_run(cmd, out, sizeof out), 1);
        CHECK_STR(out, want);
    }
    /* the judge: a missing database; a position kingme refuses, and no
     * output file then */
    char want[512];
    snprintf(cmd, sizeof cmd, "tools/endings.sh judge --kingme %s --egdb %s/db9 %s/picks.txt %s/j.pdn 2>&1",
             k, dir, dir, dir);
    snprintf(want, sizeof want, "endings.sh: %s/db9: no such database folder (--egdb)\n", dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    CHECK_STR(out, want);
    snprintf(path, sizeof path, "%s/bad.txt", dir);
    CHECK(test_put_file(path, "3\tB:W1,2:B3\tthe bad one\n"));
    snprintf(cmd, sizeof cmd, "tools/endings.sh judge --kingme %s --egdb %s/db4 --depth 2 %s %s/j.pdn 2>&1",
             k, dir, path, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    CHECK_MSG(strstr(out, "endings.sh: the bad one: kingme search failed\n"), "%s", out);
    snprintf(path, sizeof path, "%s/j.pdn", dir);
    CHECK(access(path, F_OK) != 0);
    test_remove_dir(dir);
}

/* The kept endings (tests/data/endings.pdn, tools/endings.sh's positions):
 * each is a match opening of 7 to 10 pieces, judged a win or a draw, with
 * neither side able to capture. */
TEST(match_endings_positions)
{
    PdnGame *games;
    int ngames, counts[11] = {0};
    char err[KM_ERR_MAX];
    bool read = pdn_read_file("tests/data/endings.pdn", &games, &ngames, err) == 0;
    CHECK_MSG(read, "%s", err);
    if (!read) return;
    for (int i = 0; i < ngames; i++) {
        const PdnGame *g = &games[i];
        const char *pieces = pdn_tag(g, "Pieces"), *j = pdn_tag(g, "Judgement");
        int n = bits_popcount32(board_occupied(&g->game.start));
        CHECK_MSG(!g->error && g->game.nply == 0, "game %d: %s", i + 1, g->error ? g->error : "has moves");
        CHECK_MSG(pieces && atoi(pieces) == n && n >= 7 && n <= 10, "game %d: %d pieces, tag %s", i + 1, n,
                  pieces ? pieces : "none");
        CHECK_MSG(j && (!strcmp(j, "black wins") || !strcmp(j, "white wins") || !strcmp(j, "draw")),
                  "game %d: judgement %s", i + 1, j ? j : "none");
        CHECK_MSG(!mg_can_capture(&g->game.start, KM_BLACK) && !mg_can_capture(&g->game.start, KM_WHITE),
                  "game %d: a capture", i + 1);
        if (n >= 7 && n <= 10) counts[n]++;
    }
    for (int n = 7; n <= 10; n++) CHECK_MSG(counts[n] >= 30, "%d positions of %d pieces", counts[n], n);
    pdn_free_games(games, ngames);
    Opening *ops;
    int nops;
    read = opening_list_from_pdn("tests/data/endings.pdn", &ops, &nops, err) == 0;
    CHECK_MSG(read, "%s", err);
    if (read) {
        CHECK_INT(nops, ngames);
        free(ops);
    }
}
