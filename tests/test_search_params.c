/* test_search_params.c - the search's parameters: the list, `--set`,
 * parameters files, and the search reading them through the Searcher. */
#include "kingme/base.h"
#include "kingme/board.h"
#include "kingme/search.h"
#include "kingme/search_params.h"
#include "kingme/timeman.h"
#include "kingme/weights.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TEST(search_params_defaults_are_the_list)
{
    SearchParams p;
    search_params_default(&p);
    CHECK(search_params_are_default(&p));
    /* the numbers the search had as constants */
    CHECK(p.lmr == 1 && p.probcut == 1 && p.etc == 1 && p.futility == 1);
    CHECK(p.lmr_from == 3 && p.lmr_div == 3.0 && p.lmr_base == 0.5);
    CHECK(p.probcut_depth == 5 && p.probcut_max_depth == 10 && p.probcut_margin == 100);
    CHECK(p.probcut_pieces == 6 && p.probcut_scale == 150 && p.etc_depth == 6);
    CHECK(p.futility_depth == 2 && p.futility_margin == 200 && p.aspiration == 60);
    CHECK(p.tm_margin == 0.010 && p.tm_reserve == 0.100 && p.tm_horizon == 28 && p.tm_hard == 3.0);
    for (int i = 0; i < SEARCH_NPARAMS; i++) {
        const SearchParamInfo *in = &search_params_info[i];
        CHECK_MSG(in->lo <= in->def && in->def <= in->hi, "%s: default outside its range", in->name);
        CHECK(search_params_find(in->name) == i);
        CHECK(in->help[0] && in->measured[0]);
    }
    CHECK(search_params_find("no_such") == -1);
}

TEST(search_params_assign_checks_name_and_range)
{
    SearchParams p;
    search_params_default(&p);
    char err[KM_ERR_MAX];
    CHECK(search_params_assign(&p, "lmr_from=5", err) == 0 && p.lmr_from == 5);
    CHECK(search_params_assign(&p, "lmr_div=2.25", err) == 0 && p.lmr_div == 2.25);
    CHECK(search_params_assign(&p, "etc=0", err) == 0 && p.etc == 0);
    SearchParams before = p;
    CHECK(search_params_assign(&p, "lmr_from=64", err) == -1);
    CHECK_MSG(strstr(err, "lmr_from '64' is not a whole number from 1 to 63") != NULL, "%s", err);
    CHECK(search_params_assign(&p, "etc=2", err) == -1 && strstr(err, "not 0 (off) or 1 (on)"));
    CHECK(search_params_assign(&p, "lmr_div=abc", err) == -1 && strstr(err, "lmr_div 'abc'"));
    CHECK(search_params_assign(&p, "lmr_div=", err) == -1);
    CHECK(search_params_assign(&p, "own_mem=1", err) == -1 &&
          strstr(err, "unknown search parameter 'own_mem'"));
    CHECK(search_params_assign(&p, "lmr_from", err) == -1 && strstr(err, "NAME=VALUE"));
    CHECK(search_params_equal(&p, &before));
}

TEST(search_params_file_round_trip_and_refusals)
{
    SearchParams p, q;
    search_params_default(&p);
    p.lmr_div = 2.7;
    p.probcut_depth = 6;
    p.tm_max_share = 0.3;
    char *t = search_params_format(&p, "from a test\n\nline three");
    CHECK(t != NULL);
    char err[KM_ERR_MAX];
    CHECK_MSG(search_params_parse(&q, t, "x.params", err) == 0, "%s", err);
    CHECK(search_params_equal(&p, &q));
    const char *head = "kingme-search-params 1\n# from a test\n#\n# line three\n";
    CHECK(strncmp(t, head, strlen(head)) == 0);
    CHECK(strstr(t, "probcut_depth          6        # default 5\n") != NULL);
    free(t);
    struct {
        const char *text, *msg;
    } bad[] = {
        {"", "x.params: empty, not a search parameters file"},
        {"lmr 1\n", "x.params:1: not a search parameters file"},
        {"kingme-search-params 9\n", "x.params:1: format 9 is newer"},
        {"kingme-search-params 1\nlmr 1\nown_mem 3\n", "x.params:3: unknown search parameter 'own_mem'"},
        {"kingme-search-params 1\nlmr 1\nlmr 0\n", "x.params:3: lmr given twice"},
        {"kingme-search-params 1\n# c\nlmr_from 0\n",
         "x.params:3: lmr_from '0' is not a whole number from 1"},
        {"kingme-search-params 1\nlmr_div 1 2\n", "x.params:2: lmr_div: one value expected"},
        {"kingme-search-params 1\nlmr_div\n", "x.params:2: lmr_div: one value expected"},
        {"kingme-search-params 1\ntm_hard nan\n", "x.params:2: tm_hard 'nan' is not a number from 1 to 20"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        search_params_default(&q);
        q.lmr_from = 9;
        CHECK_MSG(search_params_parse(&q, bad[i].text, "x.params", err) == -1, "accepted %s", bad[i].text);
        CHECK_MSG(strstr(err, bad[i].msg) == err, "'%s': %s", bad[i].text, err);
        CHECK(!strchr(err, '\n'));
        CHECK(q.lmr_from == 9); /* unchanged */
    }
    /* a file naming a few: the others are the defaults */
    CHECK(search_params_parse(&q, "\xEF\xBB\xBFkingme-search-params 1\n\n  etc 0 # off\n", "y", err) == 0);
    CHECK(q.etc == 0 && q.lmr_from == 3);
}

/* A search to depth 9 of a middle-game position with parameters p. */
static uint64_t nodes_with(const SearchParams *p)
{
    Weights w;
    weights_default(&w);
    Searcher s;
    char err[KM_ERR_MAX];
    if (search_init(&s, &w, 4, 1, err)) return 0;
    search_set_tiebreak(&s, TIEBREAK_FIRST);
    if (p) search_set_params(&s, p);
    Board b;
    board_from_fen(&b, "B:W18,19,21,22,24,26,27,28,29,30,31,32:B1,2,3,4,6,7,8,10,11,12,14,15", err);
    SearchLimits l;
    search_limits_default(&l);
    l.depth = 9;
    SearchResult r;
    search_run(&s, &b, NULL, 0, 0, &l, &r, NULL, NULL);
    search_free(&s);
    return r.nodes;
}

TEST(search_params_reach_the_search)
{
    SearchParams p;
    search_params_default(&p);
    uint64_t def = nodes_with(NULL);
    CHECK(def > 0 && nodes_with(&p) == def);
    /* each switch and number changes the tree; back to the default, the same */
    const char *changes[] = {"lmr=0",        "probcut=0",        "futility=0",
                             "lmr_div=1.5",  "probcut_depth=3",  "futility_margin=50",
                             "aspiration=5", "probcut_scale=60", "lmr_threat=1"};
    char err[KM_ERR_MAX];
    for (size_t i = 0; i < sizeof changes / sizeof *changes; i++) {
        SearchParams q = p;
        CHECK(search_params_assign(&q, changes[i], err) == 0);
        CHECK_MSG(nodes_with(&q) != def, "%s left the tree as it was", changes[i]);
    }
    /* a searcher set to other numbers and back searches as a new one (its
     * reductions and ProbCut margin are the defaults' again) */
    Weights w;
    weights_default(&w);
    Searcher s;
    CHECK(search_init(&s, &w, 4, 1, err) == 0);
    search_set_tiebreak(&s, TIEBREAK_FIRST);
    SearchParams q = p;
    q.lmr_div = 1.0;
    q.probcut_scale = 300;
    search_set_params(&s, &q);
    search_set_params(&s, &p);
    Board b;
    board_from_fen(&b, "B:W18,19,21,22,24,26,27,28,29,30,31,32:B1,2,3,4,6,7,8,10,11,12,14,15", err);
    SearchLimits l;
    search_limits_default(&l);
    l.depth = 9;
    SearchResult r;
    CHECK(search_run(&s, &b, NULL, 0, 0, &l, &r, NULL, NULL) == 0);
    CHECK(r.nodes == def);
    /* the measured gap is kept: another scale gives its margin at once */
    int32_t m = s.probcut_margin;
    CHECK(s.margin_known);
    q = p;
    q.probcut_scale = 300;
    search_set_params(&s, &q);
    CHECK(s.margin_known && s.probcut_margin >= 2 * m - 2 && s.probcut_margin <= 2 * m + 2);
    search_free(&s);
}

TEST(search_params_time_manager)
{
    SearchParams p;
    search_params_default(&p);
    TimeBudget a, b;
    tm_budget(60, 0.5, 0, &a);
    tm_budget_p(&p, 60, 0.5, 0, &b);
    CHECK(a.soft == b.soft && a.hard == b.hard);
    p.tm_horizon = 14; /* twice the share */
    tm_budget_p(&p, 60, 0, 0, &b);
    tm_budget(60, 0, 0, &a);
    CHECK(b.soft > 1.9 * a.soft && b.soft < 2.1 * a.soft);
    p.tm_hard = 1;
    tm_budget_p(&p, 60, 0, 0, &b);
    CHECK(b.hard == b.soft);
    search_params_default(&p);
    p.tm_stable = 0.3;
    CHECK(tm_soft_scaled_p(&p, &a, 0) < tm_soft_scaled(&a, 0));
}

TEST(search_params_command_line)
{
    char cmd[512], out[16384];
    snprintf(cmd, sizeof cmd, "%s show --search --set lmr_div=2.5 2>&1", test_kingme());
    CHECK(test_run(cmd, out, sizeof out) == 0);
    CHECK_MSG(strstr(out, "lmr_div                    2.5*        3  0.25..20\n") != NULL, "%s", out);
    CHECK(strstr(out, "etc                          1         1  0..1\n") != NULL);
    for (int i = 0; i < SEARCH_NPARAMS; i++) CHECK(strstr(out, search_params_info[i].name) != NULL);
    snprintf(cmd, sizeof cmd, "%s search --depth 3 --set own_mem=1 2>&1", test_kingme());
    CHECK(test_run(cmd, out, sizeof out) == 1);
    CHECK_MSG(strcmp(out, "kingme: --set: unknown search parameter 'own_mem' (kingme show --search lists "
                          "them)\n") == 0,
              "%s", out);
    snprintf(cmd, sizeof cmd, "%s search --depth 3 --set @tests/data/no-such.params 2>&1", test_kingme());
    CHECK(test_run(cmd, out, sizeof out) == 1 && strstr(out, "no-such.params: cannot open"));
    /* the same search with etc off, by --set and by the engine's option;
     * another tree with etc on */
    char a[4096], b[4096], c[4096];
    snprintf(cmd, sizeof cmd, "%s search --depth 9 --tiebreak first --no-egdb --set etc=0 2>&1",
             test_kingme());
    CHECK(test_run(cmd, a, sizeof a) == 0);
    snprintf(cmd, sizeof cmd, "%s search --depth 9 --tiebreak first --no-egdb 2>&1", test_kingme());
    CHECK(test_run(cmd, c, sizeof c) == 0);
    /* the engine's answer is awaited before quit (the end of input stops a search) */
    char tmp[] = "/tmp/kingme-sp-XXXXXX";
    int fd = mkstemp(tmp);
    CHECK(fd >= 0);
    if (fd >= 0) close(fd);
    snprintf(cmd, sizeof cmd,
             "(printf 'option etc 0\\noption etc 3\\nposition start\\ngo depth 9\\n'; "
             "i=0; while ! grep -q bestmove %s && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done; echo "
             "quit) | %s engine --no-egdb --no-book > %s "
             "2>&1; cat %s; rm -f %s",
             tmp, test_kingme(), tmp, tmp, tmp);
    CHECK(test_run(cmd, b, sizeof b) == 0);
    CHECK_MSG(strstr(b, "error option etc '3' is not 0 (off) or 1 (on)\n") != NULL, "%s", b);
    const char *da = strstr(a, "depth  9"), *dc = strstr(c, "depth  9");
    long long na = -1, nc = -1;
    CHECK(da && sscanf(da, "depth  9 score %*d nodes %lld", &na) == 1);
    CHECK(dc && sscanf(dc, "depth  9 score %*d nodes %lld", &nc) == 1);
    char want[64];
    snprintf(want, sizeof want, " nodes %lld ", na);
    const char *ib = strstr(b, "info depth 9 ");
    CHECK_MSG(ib && strstr(ib, want) != NULL, "%s / %s", want, b);
    CHECK(na > 0 && nc > 0 && na != nc);
    snprintf(cmd, sizeof cmd, "%s match default engine:true --set-b etc=0 --games 2 2>&1", test_kingme());
    CHECK(test_run(cmd, out, sizeof out) == 2 && strstr(out, "--set-b is for a player searched here"));
}

TEST(search_params_extremes_terminate)
{
    /* ProbCut's shallow search is at the same ply: from depth 2 (a forced
     * move's extension making a node of depth 1 one of 2) it would search
     * itself again without end, so its range starts at 3 */
    SearchParams p;
    search_params_default(&p);
    char err[KM_ERR_MAX];
    CHECK(search_params_assign(&p, "probcut_depth=2", err) == -1);
    const char *sets[][4] = {
        {"probcut_depth=3", "probcut_div=2", "probcut_max_depth=63", "probcut_pieces=0"},
        {"lmr_div=0.25", "lmr_base=4", "lmr_from=1", "lmr_depth=2"},
        {"etc_depth=1", "futility_depth=10", "futility_margin=0", "aspiration=1"},
    };
    for (size_t k = 0; k < sizeof sets / sizeof *sets; k++) {
        search_params_default(&p);
        for (int j = 0; j < 4; j++) CHECK(search_params_assign(&p, sets[k][j], err) == 0);
        CHECK(nodes_with(&p) > 0);
    }
}
