/* test_match.c - the ballot table, openings, engine games, the game pool,
 * Elo statistics, and the `kingme match` command. */
#include "test.h"
#include "kingme/match.h"
#include "kingme/notation.h"
#include "kingme/pdn.h"
#include "kingme/weights.h"

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
        ballot_line(&km_ballots[n], mine, sizeof mine);
        CHECK_MSG(strcmp(line, mine) == 0, "ballot %d: file '%s', table '%s'", n + 1, line, mine);
        n++;
    }
    fclose(f);
    CHECK_INT(n, BALLOT_COUNT);
    int cross = 0, ctd = 0;
    for (int i = 0; i < BALLOT_COUNT; i++) {
        cross += km_ballots[i].status == BALLOT_CROSSBOARD;
        ctd += km_ballots[i].ctd;
    }
    CHECK_INT(cross, BALLOT_CROSSBOARD_COUNT);
    CHECK_INT(ctd, 50);
    CHECK_STR(km_ballots[4].name, "Dreaded Edinburgh");
    CHECK(km_ballots[4].ctd && km_ballots[4].status == BALLOT_CROSSBOARD);
}

/* Every ballot, barred ones included, is three legal moves from the start;
 * the crossboard openings come in ballot-number order. */
TEST(match_ballot_openings)
{
    char err[KM_ERR_MAX];
    for (int i = 0; i < BALLOT_COUNT; i++) {
        Opening o;
        int r = opening_from_ballot(&o, &km_ballots[i], err);
        CHECK_MSG(r == 0, "ballot %d: %s", i + 1, err);
        CHECK_INT(o.nply, 3);
        CHECK_INT(o.ballot, i + 1);
        Board b = o.start;
        char text[3][MOVE_TEXT_MAX];
        for (int k = 0; k < o.nply; k++) {
            move_to_text(&o.moves[k], text[k]);
            make_move(&b, &o.moves[k]);
        }
        char all[200];
        snprintf(all, sizeof all, "%s %s %s", text[0], text[1], text[2]);
        CHECK_MSG(strcmp(all, km_ballots[i].moves) == 0, "ballot %d: %s", i + 1, all);
        CHECK_INT(b.stm, KM_WHITE);
    }
    Opening *ops;
    int n;
    CHECK_INT(openings_crossboard(&ops, &n, err), 0);
    CHECK_INT(n, 144);
    CHECK_INT(ops[0].ballot, 1);
    CHECK_INT(ops[2].ballot, 4); /* ballot 3 is barred */
    for (int i = 1; i < n; i++) CHECK(ops[i].ballot > ops[i - 1].ballot);
    for (int i = 0; i < n; i++) CHECK(km_ballots[ops[i].ballot - 1].status == BALLOT_CROSSBOARD);
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
    CHECK(fabs(elo_los(60, 40) - 0.977250) < 1e-5);  /* Phi(2) */
    CHECK(fabs(elo_los(30, 20) - 0.921350) < 1e-5);  /* Phi(10 / sqrt(50)) */
    CHECK(fabs(elo_los(20, 30) - (1 - 0.921350)) < 1e-5);

    EloStats e;
    elo_stats(60, 0, 40, &e);
    CHECK_INT(e.games, 100);
    CHECK(fabs(e.score - 0.6) < 1e-12);
    CHECK(fabs(e.elo - 70.4365) < 1e-3);
    CHECK(fabs(e.elo_lo - 2.7669) < 1e-3);
    CHECK(fabs(e.elo_hi - 143.9092) < 1e-3);
    elo_stats(30, 50, 20, &e);
    CHECK(fabs(e.score - 0.55) < 1e-12);
    CHECK(fabs(e.elo - 34.8601) < 1e-3);
    CHECK(fabs(e.elo_lo + 12.9297) < 1e-3);
    CHECK(fabs(e.elo_hi - 84.0108) < 1e-3);
    CHECK(fabs(e.los - 0.921350) < 1e-5);
    elo_stats(0, 0, 0, &e);
    CHECK(e.games == 0 && e.elo == 0 && e.los == 0.5);
    elo_stats(5, 0, 0, &e);
    CHECK(isinf(e.elo) && e.elo > 0);
}

static bool same_game(const Game *a, const Game *b)
{
    if (a->nply != b->nply || a->result != b->result || a->reason != b->reason) return false;
    for (int i = 0; i < a->nply; i++)
        if (!move_equal(&a->moves[i], &b->moves[i])) return false;
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
    CHECK_INT(opening_from_ballot(&op, &km_ballots[4], err), 0);
    MatchSettings set;
    match_settings_default(&set);
    set.limits.depth = 2;
    set.hash_mb = 1;
    MatchGameSpec spec = {&w, &m, &op, 99};
    Game a, b;
    CHECK_INT(match_play_game(&set, &spec, &a, NULL, err), 0);
    CHECK_INT(match_play_game(&set, &spec, &b, NULL, err), 0);
    CHECK(a.result != GAME_ONGOING);
    CHECK(a.nply > 3 && a.nply <= MATCH_PLY_CAP);
    CHECK(same_game(&a, &b));
    for (int i = 0; i < 3; i++) CHECK(move_equal(&a.moves[i], &op.moves[i]));
    /* replay: every move legal, same end */
    Game r;
    CHECK_INT(game_init(&r, NULL), 0);
    for (int i = 0; i < a.nply; i++) {
        MoveList ml;
        gen_moves(&r.cur, &ml);
        bool legal = false;
        for (int k = 0; k < ml.count; k++) legal |= move_equal(&ml.moves[k], &a.moves[i]);
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
    MatchGameSpec s1 = {&w, &w, NULL, 1}, s2 = {&w, &w, NULL, 2};
    CHECK_INT(match_play_game(&set, &s1, &b, NULL, err), 0);
    CHECK_INT(match_play_game(&set, &s2, &r, NULL, err), 0);
    CHECK(!same_game(&b, &r));
    game_free(&b);
    game_free(&r);

    set.ply_cap = 10;
    CHECK_INT(match_play_game(&set, &spec, &b, NULL, err), 0);
    CHECK_INT(b.nply, 10);
    CHECK_INT(b.result, GAME_DRAW);
    CHECK_INT(b.reason, REASON_PLY_CAP);
    for (int i = 0; i < 10; i++) CHECK(move_equal(&a.moves[i], &b.moves[i]));
    game_free(&b);
    game_free(&a);

    atomic_bool stop = true;
    set.ply_cap = 0;
    CHECK_INT(match_play_game(&set, &spec, &b, &stop, err), 0);
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
    CHECK_INT(openings_crossboard(&ops, &nops, err), 0);
    enum { N = 8 };
    MatchGameSpec specs[N];
    for (int g = 0; g < N; g++)
        specs[g] = (MatchGameSpec){&w[g % 2], &w[1 - g % 2], &ops[(g / 2) * 37 % nops], match_game_seed(5, g)};
    MatchSettings set;
    match_settings_default(&set);
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
    CHECK_MSG(openings_from_pdn(path, &ops, &n, err) == 0, "%s", err);
    CHECK_INT(n, 2);
    if (n == 2) {
        CHECK_INT(ops[0].nply, 3);
        CHECK_INT(ops[1].nply, 0);
        CHECK_INT(ops[1].start.stm, KM_WHITE);
        CHECK_INT(ops[0].ballot, 0);
    }
    free(ops);
    write_file(path, "1. 11-15 23-19 2. 8-11 *\n\n1. 11-15 24-19 2. 15x24 *\n\n1. 12-16 99-98 *\n");
    CHECK_INT(openings_from_pdn(path, &ops, &n, err), -1);
    CHECK_MSG(strstr(err, "game 3") != NULL, "error: %s", err);
    write_file(path, "[FEN \"B:W18:B14\"]\n1. 14x23 *\n");
    CHECK_INT(openings_from_pdn(path, &ops, &n, err), -1);
    CHECK_MSG(strstr(err, "already over") != NULL, "error: %s", err);
    CHECK_INT(openings_from_pdn("tests/data/no-such.pdn", &ops, &n, err), -1);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}

/* Find "A: W wins, D draws, L losses" in the output. */
static bool wdl(const char *out, int *w, int *d, int *l)
{
    const char *p = strstr(out, "\nA: ");
    return p && sscanf(p, "\nA: %d wins, %d draws, %d losses", w, d, l) == 3;
}

TEST(match_command)
{
    char dir[64], cmd[1024], out[16384];
    snprintf(dir, sizeof dir, "/tmp/kingme-match-cli-%d", (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
    int depth = test_sanitized() ? 1 : 2;
    for (int j = 1; j <= 2; j++) {
        snprintf(cmd, sizeof cmd, "%s match weights/default.w weights/thesis.w --games 6 --depth %d -j %d "
                 "--seed 3 --pdn %s/m%d.pdn", test_kingme(), depth, j, dir, j);
        CHECK_INT(test_run(cmd, out, sizeof out), 0);
        CHECK_MSG(strstr(out, "Elo difference") && strstr(out, "LOS"), "output: %s", out);
    }
    int w, d, l;
    CHECK_MSG(wdl(out, &w, &d, &l), "output: %s", out);
    CHECK_INT(w + d + l, 6);
    /* the same games on 1 and 2 threads */
    snprintf(cmd, sizeof cmd, "cmp %s/m1.pdn %s/m2.pdn", dir, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    /* the games replay, with their tags */
    snprintf(cmd, sizeof cmd, "%s pdn %s/m1.pdn", test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "6 games,") && strstr(out, " 0 errors"), "pdn: %s", out);
    char path[128];
    snprintf(path, sizeof path, "%s/m1.pdn", dir);
    PdnGame *g;
    int n;
    char err[KM_ERR_MAX];
    CHECK_MSG(pdn_read_file(path, &g, &n, err) == 0, "%s", err);
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
    snprintf(cmd, sizeof cmd, "%s match weights/default.w weights/default.w --games 2 --depth 1 "
             "--openings start --pdn %s/s.pdn", test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    snprintf(cmd, sizeof cmd, "%s match weights/default.w weights/material.w --depth 1 "
             "--openings tests/data/no-such.pdn --pdn %s/s.pdn", test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 1);

    /* bad flags: usage, status 2 */
    const char *bad[] = {"weights/default.w", "a.w b.w --games 3", "a.w b.w --depth x", "a.w b.w --bogus",
                         "a.w b.w --depth 2 --time 1", "a.w b.w --openings nonsense", "a.w b.w c.w"};
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
