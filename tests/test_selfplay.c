/* test_selfplay.c - the training pipeline at a tiny scale: kingme selfplay
 * (the same games on any number of threads, resumed after a lost chunk, a
 * corrupt chunk refused) and kingme fit (the same weights for the same
 * threads, the loss going down, a readable weights file with the command in
 * its header). */
#include "kingme/nn.h"
#include "kingme/patterns.h"
#include "kingme/selfplay.h"
#include "kingme/weights.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool same_file(const char *a, const char *b)
{
    char cmd[1100], out[256];
    snprintf(cmd, sizeof cmd, "cmp -s %s %s", a, b);
    return test_run(cmd, out, sizeof out) == 0;
}

#define SP_OPTS "--games 6 --chunk 3 --nodes 300 --random-plies 4 --seed 5 --no-egdb"

TEST(selfplay_and_fit_pipeline)
{
    char dir[] = "/tmp/kingme-sp-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *k = test_kingme();
    char cmd[2048], out[4096];
    snprintf(cmd, sizeof cmd, "%s selfplay " SP_OPTS " -j 2 --out %s/a 2>/dev/null", k, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "selfplay: 6 games, ") != NULL, "%s", out);
    snprintf(cmd, sizeof cmd, "%s selfplay " SP_OPTS " -j 1 --out %s/b 2>/dev/null", k, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    char a0[256], a1[256], b0[256], b1[256];
    snprintf(a0, sizeof a0, "%s/a/sp-000000.kmsp", dir);
    snprintf(a1, sizeof a1, "%s/a/sp-000001.kmsp", dir);
    snprintf(b0, sizeof b0, "%s/b/sp-000000.kmsp", dir);
    snprintf(b1, sizeof b1, "%s/b/sp-000001.kmsp", dir);
    CHECK_MSG(same_file(a0, b0) && same_file(a1, b1), "two threads and one played other games");

    /* the positions: real games, each with a result and a score */
    SelfplayData d = {0};
    char err[KM_ERR_MAX];
    snprintf(cmd, sizeof cmd, "%s/a", dir);
    CHECK_MSG(selfplay_read_dir(cmd, &d, err) == 0, "%s", err);
    CHECK_INT(d.games, 6);
    CHECK_INT(d.wins[0] + d.wins[1] + d.wins[2], 6);
    CHECK(d.n > 60);
    int scored = 0;
    for (size_t i = 0; i < d.n; i++) scored += d.pos[i].score != SELFPLAY_NO_SCORE && d.pos[i].result <= 2;
    CHECK_INT(scored, (long long)d.n);
    selfplay_data_free(&d);

    /* a lost chunk is played again, the same; the others are kept */
    CHECK(unlink(b1) == 0);
    snprintf(cmd, sizeof cmd, "%s selfplay " SP_OPTS " -j 2 --out %s/b 2>/dev/null", k, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK(same_file(a1, b1));
    /* a corrupt chunk is refused with one line; other settings too */
    FILE *f = fopen(b1, "r+b");
    CHECK(f != NULL);
    if (f) {
        fseek(f, 60, SEEK_SET);
        fputc(0x55, f);
        fclose(f);
    }
    snprintf(cmd, sizeof cmd, "%s selfplay " SP_OPTS " --out %s/b", k, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    CHECK_MSG(strstr(out, "sp-000001.kmsp: checksum mismatch (the file is corrupt)"), "%s", out);
    snprintf(cmd, sizeof cmd, "%s selfplay --games 6 --chunk 3 --nodes 301 --no-egdb --out %s/a", k, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    CHECK_MSG(strstr(out, "sp-000000.kmsp: made by another configuration"), "%s", out);

    /* fit: the same weights twice with two threads; the loss goes down */
    char w1[100], w2[100];
    snprintf(w1, sizeof w1, "%s/w1.w", dir);
    snprintf(w2, sizeof w2, "%s/w2.w", dir);
    for (int i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "%s fit %s/a --epochs 30 --holdout 0.2 -j 2 --out %s 2>/dev/null", k, dir,
                 i ? w2 : w1);
        CHECK_INT(test_run(cmd, out, sizeof out), 0);
    }
    double l0 = 0, l1 = 0;
    const char *at = strstr(out, "; loss ");
    CHECK_MSG(at && sscanf(at, "; loss %lf -> %lf", &l0, &l1) == 2 && l1 < l0, "%s", out);
    CHECK_MSG(strstr(out, "held out") != NULL, "%s", out);
    /* the same but for the header's --out */
    snprintf(cmd, sizeof cmd,
             "grep -v '^#' %s > %s.body && grep -v '^#' %s > %s.body && cmp -s %s.body %s.body", w1, w1, w2,
             w2, w1, w2);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    Weights w;
    char *comments = NULL;
    CHECK_MSG(weights_read(&w, w1, &comments, err) == 0, "%s", err);
    CHECK(w.pat != NULL && w.phased);
    CHECK(comments && strstr(comments, "made by: kingme fit ") && strstr(comments, "--epochs 30"));
    free(comments);
    /* a folder without games is refused */
    snprintf(cmd, sizeof cmd, "%s fit %s --out %s/w3.w", k, dir, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    CHECK_MSG(strstr(out, "no self-play files"), "%s", out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}

/* tools/train-default.sh, the script that rebuilds weights/default.w, at a
 * tiny scale and two generations: selfplay and fit from weights/named.w, then
 * selfplay with the first fit and a fit to both generations' games (a
 * pattern layer), then (ENDING=16, ENDING_GENERATIONS=2) a third and a
 * fourth generation's games and an ending network over that fit, trained on
 * both, whose file has both layers and the last fit's command. */
TEST(selfplay_train_default_script)
{
    char dir[] = "/tmp/kingme-train-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char cmd[1024], out[8192];
    snprintf(cmd, sizeof cmd,
             "KINGME=%s GAMES=4 GENERATIONS=2 NODES=300 EPOCHS=5 EGDB=none EGDB6=none ENDING=16 "
             "ENDING_GENERATIONS=2 ENDING_EPOCHS=2 NET=16 NET_EPOCHS=2 WORK=%s "
             "tools/train-default.sh "
             "%s/out.w 2>&1 "
             ">/dev/null",
             test_kingme(), dir, dir);
    CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s", out);
    snprintf(cmd, sizeof cmd, "%s/out.w", dir);
    Weights w;
    char *comments = NULL, err[KM_ERR_MAX];
    CHECK_MSG(weights_read(&w, cmd, &comments, err) == 0, "%s", err);
    CHECK(w.pat != NULL && w.net != NULL && w.net->hidden == 16 && w.net->max_pieces == 10);
    /* the ending network: over the last pattern fit, on the third and fourth games */
    CHECK_MSG(comments && strstr(comments, "made by: kingme fit ") && strstr(comments, "/selfplay3 ") &&
                  strstr(comments, "/selfplay4 ") && strstr(comments, "--epochs 2 ") &&
                  strstr(comments, "/gen2.w") && strstr(comments, "--net 16") &&
                  strstr(comments, "--max-pieces 10"),
              "%s", comments ? comments : "(no comments)");
    free(comments);
    /* the last pattern fit is to both generations' games */
    snprintf(cmd, sizeof cmd, "%s/gen2.w", dir);
    comments = NULL;
    CHECK_MSG(weights_read(&w, cmd, &comments, err) == 0, "%s", err);
    CHECK(w.pat != NULL && w.net == NULL);
    CHECK_MSG(comments && strstr(comments, "--prior weights/named.w") && strstr(comments, "/selfplay1 ") &&
                  strstr(comments, "/selfplay2 "),
              "%s", comments ? comments : "(no comments)");
    free(comments);
    /* the second generation was played by the first fit, which has a layer */
    snprintf(cmd, sizeof cmd, "%s/gen1.w", dir);
    CHECK_MSG(weights_read(&w, cmd, NULL, err) == 0, "%s", err);
    CHECK(w.pat != NULL);
    snprintf(cmd, sizeof cmd, "%s/selfplay2/sp-000000.kmsp", dir);
    CHECK_MSG(access(cmd, R_OK) == 0, "%s is missing", cmd);
    /* NET=16: a network over the last fit, on both generations' games */
    snprintf(cmd, sizeof cmd, "%s/out-nn.w", dir);
    comments = NULL;
    CHECK_MSG(weights_read(&w, cmd, &comments, err) == 0, "%s", err);
    CHECK(w.net != NULL && w.net->hidden == 16 && w.pat != NULL);
    CHECK_MSG(comments && strstr(comments, "--net 16") && strstr(comments, "/selfplay2 "), "%s",
              comments ? comments : "(no comments)");
    free(comments);
    snprintf(cmd, sizeof cmd, "%s/net.ckpt", dir);
    CHECK_MSG(access(cmd, F_OK) != 0, "%s is left behind", cmd);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}
