/* test_tune_search.c - the genetic algorithm over the search's parameters:
 * a tiny session, its resumption, its files and their refusals. */
#include "kingme/base.h"
#include "kingme/search_params.h"
#include "kingme/tune_search.h"
#include "kingme/weights.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void tiny(TsControls *c)
{
    ts_controls_default(c);
    c->population = 4;
    c->elite = 1;
    c->games = 2;
    c->nodes = 600;
    c->generations = 2;
    c->seed = 7;
    c->confirm = 0;
}

/* The session's text without its wall time. */
static char *text_of(const TsSession *s)
{
    char *t = ts_format(s);
    if (!t) return NULL;
    char *e = strstr(t, "elapsed ");
    if (e) {
        char *eol = strchr(e, '\n');
        memmove(e, eol + 1, strlen(eol + 1) + 1);
    }
    return t;
}

TEST(tune_search_resumes_as_if_never_stopped)
{
    TsControls c;
    tiny(&c);
    Weights w;
    weights_default(&w);
    char err[KM_ERR_MAX];
    TsSession a, b, r;
    CHECK(ts_new(&a, &c, err) == 0);
    CHECK(ts_new(&b, &c, err) == 0);
    /* the first population: the defaults, then mutations of them */
    CHECK(search_params_are_default(&a.pop[0].p));
    for (int i = 1; i < c.population; i++) CHECK(!search_params_are_default(&a.pop[i].p));
    TsGenStats st;
    CHECK(ts_generation(&a, &w, 2, NULL, NULL, NULL, &st, err) == 0);
    CHECK(st.generation == 1 && st.games == 8 && st.pop_score >= 0 && st.pop_score <= 1);
    CHECK(ts_generation(&a, &w, 2, NULL, NULL, NULL, &st, err) == 0);
    CHECK(ts_finished(&a));
    /* b: one generation on one thread, written, read back, one more */
    CHECK(ts_generation(&b, &w, 1, NULL, NULL, NULL, NULL, err) == 0);
    char *t = ts_format(&b);
    CHECK(t != NULL);
    CHECK_MSG(ts_parse(&r, t, "b.spop", err) == 0, "%s", err);
    free(t);
    ts_free(&b);
    CHECK(ts_generation(&r, &w, 1, NULL, NULL, NULL, NULL, err) == 0);
    char *ta = text_of(&a), *tr = text_of(&r);
    CHECK(ta && tr && strcmp(ta, tr) == 0);
    /* the leader kept its record into the bred generation, the children none */
    int li = ts_leader(&a);
    CHECK(li == 0 && a.pop[0].w + a.pop[0].d + a.pop[0].l == 2 * c.games);
    for (int i = 1; i < c.population; i++) CHECK(a.pop[i].w + a.pop[i].d + a.pop[i].l == 0);
    free(ta), free(tr);
    ts_free(&a), ts_free(&r);
}

TEST(tune_search_file_refusals)
{
    TsControls c;
    tiny(&c);
    TsSession s;
    char err[KM_ERR_MAX];
    CHECK(ts_new(&s, &c, err) == 0);
    char *good = ts_format(&s);
    ts_free(&s);
    CHECK(good != NULL);
    char count_msg[64]; /* one value short of the parameters' number */
    snprintf(count_msg, sizeof count_msg, "x.spop:20: %d values, not the %d", SEARCH_NPARAMS - 1,
             SEARCH_NPARAMS);
    struct {
        const char *from, *to, *msg;
    } bad[] = {
        {"kingme-search-population 1", "kingme-population 7", "x.spop:1: not a search population file"},
        {"elite 1", "elite 1\nelite_x 3", "x.spop:4: unknown or malformed line 'elite_x'"},
        {"budget nodes 600", "budget moves 3", "x.spop:8: budget: 'nodes N', 'time S' or 'clock BASE INC'"},
        {"params lmr", "params lmq", "x.spop:13: unknown search parameter 'lmq'"},
        {"individual 0 1 0 0 0 0 0 0 1 3", "individual 0 1 0 0 0 0 0 0 1 99",
         "x.spop:20: lmr_from '99' is not"},
        {"individual 0 1 0 0 0 0 0 0 1 3", "individual 0 1 0 0 0 0 0 0 1", count_msg},
        {"end\n", "", "x.spop: truncated (no 'end' line)"},
        {"elite 1", "elite 4", "x.spop: elite 4 is not from 1 to the population - 1 (3)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *at = strstr(good, bad[i].from);
        CHECK_MSG(at != NULL, "no '%s' in the file", bad[i].from);
        if (!at) continue;
        size_t n = strlen(good) + strlen(bad[i].to) + 1;
        char *t = malloc(n);
        snprintf(t, n, "%.*s%s%s", (int)(at - good), good, bad[i].to, at + strlen(bad[i].from));
        CHECK_MSG(ts_parse(&s, t, "x.spop", err) == -1, "accepted: %s", bad[i].to);
        CHECK_MSG(strstr(err, bad[i].msg) == err, "%s: %s", bad[i].to, err);
        CHECK(!strchr(err, '\n'));
        free(t);
    }
    free(good);
}

TEST(tune_search_command_writes_a_parameters_file)
{
    char dir[] = "/tmp/kingme-ts-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char cmd[1024], out[16384];
    snprintf(cmd, sizeof cmd,
             "%s tune-search --nodes 600 --population 4 --elite 1 --games 2 --generations 2 --confirm 2 "
             "--only lmr_div,probcut_depth,etc --seed 5 -j 2 --dir %s --name t 2>&1",
             test_kingme(), dir);
    CHECK(test_run(cmd, out, sizeof out) == 0);
    CHECK_MSG(strstr(out, "generation 2: 8 games") != NULL, "%s", out);
    char path[512], err[KM_ERR_MAX];
    snprintf(path, sizeof path, "%s/output/t.params", dir);
    SearchParams p;
    CHECK_MSG(search_params_read(&p, path, err) == 0, "%s", err);
    /* the best is the confirmed leader or, not confirmed, the defaults */
    TsSession s;
    snprintf(path, sizeof path, "%s/population/t.spop", dir);
    CHECK_MSG(ts_read(&s, path, err) == 0, "%s", err);
    if (!s.accepted) CHECK(search_params_are_default(&p));
    else CHECK(search_params_equal(&p, &s.confirmed));
    /* only the parameters asked for were bred */
    for (int k = 0; k < s.c.population; k++)
        for (int i = 0; i < SEARCH_NPARAMS; i++)
            if (i != SP_lmr_div && i != SP_probcut_depth && i != SP_etc)
                CHECK(search_params_get(&s.pop[k].p, i) == search_params_get(&search_params_defaults, i));
    ts_free(&s);
    /* the file is what search --set @FILE reads */
    snprintf(cmd, sizeof cmd, "%s search --depth 4 --set @%s/output/t.params 2>&1", test_kingme(), dir);
    CHECK(test_run(cmd, out, sizeof out) == 0 && strstr(out, "bestmove"));
    snprintf(cmd, sizeof cmd, "%s tune-search --report t --dir %s 2>&1", test_kingme(), dir);
    CHECK(test_run(cmd, out, sizeof out) == 0);
    CHECK_MSG(strstr(out, "session t: population 4") && strstr(out, "   2 "), "%s", out);
    /* a session of that name is not overwritten */
    snprintf(cmd, sizeof cmd, "%s tune-search --nodes 600 --dir %s --name t 2>&1", test_kingme(), dir);
    CHECK(test_run(cmd, out, sizeof out) == 2 && strstr(out, "exists: --resume t goes on with it"));
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

/* The search parameters travel to workers: a tune-search session whose
 * games are played by a worker process writes the same population file as
 * the same session on one local thread, and so does a match with --set-a. */
TEST(tune_search_on_workers_as_on_one_thread)
{
    char dir[] = "/tmp/kingme-tsw-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char cmd[2048], out[16384], how[2][512];
    snprintf(cmd, sizeof cmd, "echo '%s worker --no-egdb --no-book' > %s/wk", test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    snprintf(how[0], sizeof how[0], "-j 1");
    snprintf(how[1], sizeof how[1], "--workers %s/wk", dir);
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd,
                 "%s tune-search --nodes 400 --population 4 --elite 1 --games 2 --generations 2 --confirm 0 "
                 "--only lmr_div,etc --seed 7 --no-egdb %s --dir %s --name s%d 2>&1",
                 test_kingme(), how[k], dir, k);
        CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s", out);
    }
    /* the same file but for the wall time it records */
    snprintf(cmd, sizeof cmd,
             "cd %s/population && grep -v ^elapsed s0.spop > s0.x && grep -v ^elapsed s1.spop > s1.x && "
             "cmp s0.x s1.x 2>&1",
             dir);
    CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s", out);
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd,
                 "%s match default default --set-a etc=0 --set-a lmr_div=2 --games 4 --depth 4 --no-egdb "
                 "--no-book "
                 "%s --out %s/m%d.pdn 2>&1",
                 test_kingme(), how[k], dir, k);
        CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s", out);
    }
    snprintf(cmd, sizeof cmd, "cmp %s/m0.pdn %s/m1.pdn 2>&1", dir, dir);
    CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s", out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}
