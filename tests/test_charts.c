/* test_charts.c - the pictures of the commands (charts.h): well-formed
 * whatever the data, the square weights as the evaluation defines them, and
 * the commands' --svg files. */
#include "kingme/charts.h"
#include "kingme/weights.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

static void well_formed(KmBuf *b, const char *what)
{
    char *t = textio_buf_done(b), why[256];
    CHECK_MSG(t && test_xml_well_formed(t, "svg", why, sizeof why), "%s: %s", what,
              t ? why : "out of memory");
    free(t);
}

TEST(charts_are_well_formed)
{
    /* a match: no game yet, a few, all won (infinite Elo), with an SPRT */
    uint8_t pts[40];
    for (int i = 0; i < 40; i++) pts[i] = (uint8_t)(i % 7 == 0 ? 0 : i % 3 ? 2 : 1);
    double sprt[2] = {0, 10};
    int ns[4] = {0, 1, 40, 40};
    for (int k = 0; k < 4; k++) {
        KmBuf b = {0};
        chart_match(&b, "A <& B>", pts, ns[k], 40, k == 3 ? sprt : NULL);
        well_formed(&b, "match");
    }
    uint8_t wins[5] = {2, 2, 2, 2, 2};
    KmBuf b = {0};
    chart_match(&b, "all won", wins, 5, 10, sprt);
    well_formed(&b, "all won");
    /* a yardstick with a missing measurement and scores of 0 and 1 */
    const char *names[2] = {"material", "hand & set"};
    double secs[4] = {10, 20, 30, 40}, games[4] = {100, 200, 300, 400};
    double s0[4] = {0, 0.25, NAN, 1}, s1[4] = {0.5, 0.5, 0.75, 0.6};
    const double *sc[2] = {s0, s1};
    ChartYard y = {2, 4, names, secs, games, sc, 32};
    KmBuf c = {0};
    chart_yardstick(&c, "session", &y);
    well_formed(&c, "yardstick");
    /* weights: the default (with a phase) and the 60 alone */
    Weights w;
    weights_default(&w);
    KmBuf d = {0};
    chart_weights(&d, "default", &w, 2 * EVAL_NTERMS);
    well_formed(&d, "weights");
    memset(&w, 0, sizeof w);
    w.w[EP_own_men] = 1000;
    KmBuf e = {0};
    chart_weights(&e, "material", &w, EVAL_NPARAMS);
    well_formed(&e, "material");
}

/* The square weights are the weights of the terms a lone piece sets where it
 * stands: a man on 5 (Black's row 2, a wall square, 6 rows to go) and on 15
 * (row 4, the centre, 4 rows to go). */
TEST(charts_square_weights_follow_the_terms)
{
    Weights w;
    memset(&w, 0, sizeof w);
    w.w[EP_own_men] = 1000;
    w.w[EP_own_men_edge] = 50;
    w.w[EP_own_promotion_distance] = -10;
    w.w[EP_own_men_low] = 7;
    w.w[EP_own_men_middle] = 3;
    w.w[EP_own_men_centre] = 20;
    w.w[EP_own_kings] = 1300;
    w.w[EP_own_kings_double_corner] = 11;
    w.w[EP_opp_men] = -999; /* not the player's: never on the board */
    CHECK(fabs(chart_square_weight(&w, 5, false, false) - (1000 + 50 - 60 + 7)) < 1e-9);
    CHECK(fabs(chart_square_weight(&w, 15, false, false) - (1000 - 40 + 3 + 20)) < 1e-9);
    CHECK(fabs(chart_square_weight(&w, 1, true, false) - (1300 + 11)) < 1e-9);
    CHECK(fabs(chart_square_weight(&w, 15, true, false) - 1300) < 1e-9);
    /* the ending vector when there is a phase */
    w.phased = 1;
    w.end[EP_own_men] = 1500;
    CHECK(fabs(chart_square_weight(&w, 18, false, true) - 1500) < 1e-9);
}

static char out[65536];

TEST(charts_commands_write_svg)
{
    char dir[] = "/tmp/kingme-charts-XXXXXX", cmd[1024], path[256], why[256];
    if (!mkdtemp(dir)) {
        CHECK(false);
        return;
    }
    snprintf(cmd, sizeof cmd, "%s show default --no-legend --svg %s/w.svg", test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    snprintf(path, sizeof path, "%s/w.svg", dir);
    char *t = test_slurp(path);
    CHECK_MSG(t && test_xml_well_formed(t, "svg", why, sizeof why), "%s", t ? why : "no file");
    CHECK(t && strstr(t, "end.own_men") && strstr(t, ">crowns</text>"));
    free(t);
    snprintf(cmd, sizeof cmd,
             "%s match default weights/handset.w --games 6 --depth 2 -j 1 --out %s/m.pdn --svg %s/m.svg "
             "--sprt 0 50",
             test_kingme(), dir, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "picture written to"), "%s", out);
    snprintf(path, sizeof path, "%s/m.svg", dir);
    t = test_slurp(path);
    CHECK_MSG(t && test_xml_well_formed(t, "svg", why, sizeof why), "%s", t ? why : "no file");
    CHECK(t && strstr(t, "log-likelihood ratio"));
    free(t);
    /* a picture that cannot be written (its folder would be under a file)
     * stops the match before its first game */
    snprintf(
        cmd, sizeof cmd,
        "%s match default weights/handset.w --games 2 --depth 2 --out %s/n.pdn --svg Makefile/m.svg 2>&1",
        test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    CHECK_MSG(strstr(out, "Makefile: cannot create the folder: Not a directory") && !strstr(out, "game 1/2"),
              "%s", out);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}
