/* test_nn.c - the network layer (nn.h): the accumulators kept from position
 * to position equal those made from scratch along real games, the
 * evaluation with a network is the same from both colours' views of
 * mirrored positions, a weights file with a network reads back identical
 * and a damaged network section is refused with one line, and kingme fit
 * --net is deterministic and goes on from its checkpoint exactly. */
#include "kingme/movegen.h"
#include "kingme/nn.h"
#include "kingme/nn_fit.h"
#include "kingme/search.h"
#include "kingme/selfplay.h"
#include "kingme/weights.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t rng_next(uint64_t *s) { return km_rng_next(s); }
static int32_t rnd(uint64_t *s, int32_t a) { return (int32_t)(rng_next(s) % (uint64_t)(2 * a + 1)) - a; }

/* A network of h units with random weights of a realistic size, asked
 * only with at most max_pieces pieces (0: always). */
static const EvalNet *random_net_for(uint64_t seed, int h, int max_pieces)
{
    uint64_t r = seed;
    EvalNet *n = nn_new(h);
    if (!n) return NULL;
    for (int i = 0; i < NN_INPUTS; i++)
        for (int j = 0; j < h; j++) n->w1[i][j] = (int16_t)rnd(&r, 60);
    for (int j = 0; j < h; j++) n->b1[j] = (int16_t)rnd(&r, 60);
    for (int k = 0; k < NN_L2; k++) {
        for (int j = 0; j < 2 * h; j++) n->w2[k][j] = (int16_t)rnd(&r, 64);
        n->b2[k] = rnd(&r, NN_QA * NN_QB);
        n->w3[k] = (int16_t)rnd(&r, 64);
    }
    n->b3 = rnd(&r, 1000);
    n->max_pieces = max_pieces;
    return nn_intern(n);
}
static const EvalNet *random_net(uint64_t seed, int h) { return random_net_for(seed, h, 0); }

/* A game of random legal moves from the start (captures, crownings, kings):
 * its positions into b (at most max); the count. */
static int random_game(uint64_t *r, Board *b, int max)
{
    Board x;
    board_init(&x);
    int n = 0;
    while (n < max) {
        b[n++] = x;
        MoveList ml;
        if (mg_moves(&x, &ml) == 0) break;
        mg_make_move(&x, &ml.moves[rng_next(r) % (uint64_t)ml.count]);
    }
    return n;
}

TEST(nn_incremental_accumulators_equal_scratch)
{
    const EvalNet *net = random_net(42, 32);
    CHECK(net != NULL);
    if (!net) return;
    static NnAcc acc[3];
    int16_t scratch[NN_MAX_HIDDEN];
    uint64_t r = 9;
    int games = test_sanitized() ? 20 : 200, compared = 0;
    for (int g = 0; g < games; g++) {
        Board b[200];
        int n = random_game(&r, b, 200);
        acc[0].valid = acc[1].valid = 0;
        for (int i = 0; i < n; i++) {
            /* move by move (the parent's), and from two plies back (a
             * sibling's, as the search's ply slots are) */
            nn_acc_set(net, &acc[i & 1], i ? &acc[(i - 1) & 1] : NULL, &b[i]);
            if (i >= 2) nn_acc_set(net, &acc[2], &acc[2], &b[i]);
            else nn_acc_set(net, &acc[2], NULL, &b[i]);
            for (int v = 0; v < 2; v++) {
                nn_accumulate(net, &b[i], v, scratch);
                size_t bytes = sizeof(int16_t) * (size_t)net->hidden;
                if (memcmp(scratch, acc[i & 1].acc[v], bytes) || memcmp(scratch, acc[2].acc[v], bytes)) {
                    char fen[128];
                    board_to_fen(&b[i], fen, sizeof fen);
                    CHECK_MSG(0, "game %d, ply %d (%s): view %d's accumulator differs from scratch", g, i,
                              fen, v);
                    return;
                }
                compared++;
            }
            CHECK_INT(nn_acc_eval(net, &acc[i & 1], KM_BLACK), nn_eval(net, &b[i], KM_BLACK));
        }
    }
    CHECK(compared > games * 20);
}

/* The search with a network (its accumulators kept a ply) finds the same
 * score as the static evaluation at depth 0 and agrees with a search whose
 * accumulators start from nothing: two searches of the same position. */
TEST(nn_search_with_network)
{
    Weights w;
    weights_default(&w);
    w.net = random_net(7, 32);
    static Searcher s;
    char err[KM_ERR_MAX];
    CHECK_MSG(search_init(&s, &w, 4, 1, err) == 0, "%s", err);
    Board b;
    CHECK(board_from_fen(&b, "B:W18,19,21,23,24,26,29,30,31,32:B1,2,3,5,6,7,9,10,12,14", err) == 0);
    SearchLimits lim = {0};
    lim.depth = 6;
    search_set_tiebreak(&s, TIEBREAK_FIRST);
    static SearchResult r1, r2;
    CHECK(search_run(&s, &b, NULL, 0, 0, &lim, &r1, NULL, NULL) == 0);
    search_clear(&s);
    free(s.nnacc);
    s.nnacc = NULL;
    CHECK(search_run(&s, &b, NULL, 0, 0, &lim, &r2, NULL, NULL) == 0);
    CHECK_INT(r1.score, r2.score);
    CHECK_INT((long long)r1.nodes, (long long)r2.nodes);
    /* the network's part shows in the evaluation */
    Weights plain = w;
    plain.net = NULL;
    CHECK_INT(test_eval_score(&b, KM_BLACK, &w),
              test_eval_score(&b, KM_BLACK, &plain) + nn_eval(w.net, &b, KM_BLACK));
    search_free(&s);
}

TEST(eval_mirror_symmetry_with_network)
{
    Weights w;
    weights_default(&w);
    w.net = random_net(5, 64);
    uint64_t r = 31;
    int games = test_sanitized() ? 10 : 60;
    for (int g = 0; g < games; g++) {
        Board b[200], m;
        int n = random_game(&r, b, 200);
        for (int i = 0; i < n; i++) {
            board_mirror(&b[i], &m);
            for (int side = 0; side < 2; side++) {
                int32_t x = test_eval_score(&b[i], side, &w), y = test_eval_score(&m, side ^ 1, &w);
                int32_t p = nn_eval(w.net, &b[i], side), q = nn_eval(w.net, &m, side ^ 1);
                if (x != y || p != q || p != -nn_eval(w.net, &b[i], side ^ 1)) {
                    char fen[128];
                    board_to_fen(&b[i], fen, sizeof fen);
                    CHECK_MSG(0, "%s for side %d: %d, mirrored %d (network %d, %d)", fen, side, x, y, p, q);
                    return;
                }
            }
        }
    }
    CHECK_INT(nn_eval(w.net, &(Board){0}, KM_BLACK), -nn_eval(w.net, &(Board){0}, KM_WHITE));
}

TEST(nn_weights_file_round_trip)
{
    Weights w, back;
    weights_default(&w);
    w.net = random_net(11, 48);
    char *text = weights_format(&w, "a network");
    CHECK(text != NULL);
    if (!text) return;
    char err[KM_ERR_MAX];
    CHECK_MSG(weights_parse(&back, text, "x.w", NULL, err) == 0, "%s", err);
    CHECK(back.net == w.net); /* the same weights: the same shared copy */
    CHECK(back.pat == w.pat);
    CHECK(eval_weights_key(&back) == eval_weights_key(&w));
    char *again = weights_format(&back, "a network");
    CHECK(again && strcmp(text, again) == 0);
    free(again);
    /* the key depends on the network */
    Weights other = w;
    other.net = random_net(12, 48);
    CHECK(eval_weights_key(&other) != eval_weights_key(&w));
    other.net = NULL;
    CHECK(eval_weights_key(&other) != eval_weights_key(&w));
    free(text);
}

/* text with the first occurrence of from replaced by to */
static char *replaced(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (!at) return NULL;
    size_t n = strlen(text) + strlen(to) + 1;
    char *s = malloc(n);
    if (!s) return NULL;
    snprintf(s, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return s;
}

TEST(nn_weights_file_errors)
{
    Weights w;
    memset(&w, 0, sizeof w);
    w.w[EP_own_men] = 1000;
    w.net = random_net(13, 16);
    char *text = weights_format(&w, NULL);
    CHECK(text != NULL);
    if (!text) return;
    char hdr[64];
    snprintf(hdr, sizeof hdr, "network 16 crc %08x", (unsigned)w.net->crc);
    /* the line of the network: the 60 parameters, then it */
    int netline = 1;
    for (const char *p = text; p < strstr(text, "network"); p++) netline += *p == '\n';
    char line3[16];
    snprintf(line3, sizeof line3, "\n%d: %d", 0, w.net->w1[0][0]);
    char changed[16];
    snprintf(changed, sizeof changed, "\n%d: %d", 0, w.net->w1[0][0] + 1);
    struct {
        const char *from, *to, *want;
    } cases[] = {
        {line3, changed, "the network's values have checksum"},
        {hdr, "network 20 crc 00000000", "a network of 20 units"},
        {hdr, "network 16", "expected 'network H crc XXXXXXXX'"},
        {"layer b2", "layer b9", "unknown layer 'b9'"},
        {"layer w3", "layer w2", "duplicate layer 'w2'"},
        {line3, "\n0: 99999", "out of range"},
        {line3, "\n0: 1x", "is not an integer"},
        {hdr, "layer w1", "a layer before the 'network' line"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *bad = replaced(text, cases[i].from, cases[i].to);
        CHECK_MSG(bad != NULL, "case %zu: '%s' not found", i, cases[i].from);
        if (!bad) continue;
        Weights r;
        char err[KM_ERR_MAX] = "";
        CHECK_MSG(weights_parse(&r, bad, "x.w", NULL, err) == -1 && strstr(err, cases[i].want) &&
                      strncmp(err, "x.w:", 4) == 0 && !strchr(err, '\n'),
                  "case %zu: '%s'", i, err);
        free(bad);
    }
    /* the checksum's error names the network's line */
    char *bad = replaced(text, line3, changed);
    Weights r;
    char err[KM_ERR_MAX] = "", want[32];
    snprintf(want, sizeof want, "x.w:%d: ", netline);
    CHECK_MSG(bad && weights_parse(&r, bad, "x.w", NULL, err) == -1 && strncmp(err, want, strlen(want)) == 0,
              "%s", err);
    free(bad);
    /* a file cut short inside the network is refused (its values are missing) */
    size_t cut = strlen(text) - 40;
    text[cut] = '\0';
    CHECK(weights_parse(&r, text, "x.w", NULL, err) == -1 && strstr(err, "checksum"));
    free(text);
}

/* a pattern layer whose every cell is 0 is dropped, and a network in the
 * same file stays whole (the drop once freed the network with it) */
TEST(nn_weights_file_zero_table_keeps_network)
{
    Weights w;
    memset(&w, 0, sizeof w);
    w.w[EP_own_men] = 1000;
    w.net = random_net(14, 16);
    char *text = weights_format(&w, NULL);
    CHECK(text != NULL);
    if (!text) return;
    size_t n = strlen(text) + 32;
    char *with = malloc(n);
    CHECK(with != NULL);
    if (with) {
        snprintf(with, n, "%stable man\n0: 0 0 0\n", text);
        Weights r;
        char err[KM_ERR_MAX] = "";
        CHECK_MSG(weights_parse(&r, with, "z.w", NULL, err) == 0, "%s", err);
        CHECK(r.pat == NULL);
        CHECK(r.net == w.net); /* interned: the same network as the one written */
        CHECK_INT(r.w[EP_own_men], 1000);
    }
    free(with);
    free(text);
}

/* kingme fit --net on a few self-play games: the same network twice with two
 * threads; stopped after an epoch and started again from its checkpoint, the
 * same network as a fit never stopped. */
TEST(nn_fit_deterministic_and_resumes)
{
    char dir[] = "/tmp/kingme-nn-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char cmd[2048], out[4096];
    snprintf(
        cmd, sizeof cmd,
        "%s selfplay --games 6 --chunk 3 --nodes 300 --random-plies 4 --seed 3 --no-egdb -j 2 --out %s/sp "
        "2>/dev/null",
        test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    /* the command: twice the same file; held-out losses printed */
    for (int i = 0; i < 2; i++) {
        snprintf(
            cmd, sizeof cmd,
            "%s fit %s/sp --net 16 --epochs 3 --net-batch 64 --holdout 0.5 -j 2 --out %s/n%d.w 2>/dev/null",
            test_kingme(), dir, dir, i);
        CHECK_INT(test_run(cmd, out, sizeof out), 0);
    }
    CHECK_MSG(strstr(out, "network of 16 units; held out ") && strstr(out, "(integers "), "%s", out);
    snprintf(cmd, sizeof cmd,
             "grep -v '^#' %s/n0.w > %s/a && grep -v '^#' %s/n1.w > %s/b && cmp -s %s/a %s/b", dir, dir, dir,
             dir, dir, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    snprintf(cmd, sizeof cmd, "%s/n0.w", dir);
    Weights w;
    char err[KM_ERR_MAX];
    CHECK_MSG(weights_read(&w, cmd, NULL, err) == 0, "%s", err);
    CHECK(w.net != NULL && w.net->hidden == 16 && w.pat != NULL);

    /* the library: a fit stopped after its first epoch, then resumed */
    SelfplayData d = {0};
    snprintf(cmd, sizeof cmd, "%s/sp", dir);
    CHECK_MSG(selfplay_read_dir(cmd, &d, err) == 0, "%s", err);
    Weights prior, full, part, resumed;
    weights_default(&prior);
    NetFitConfig c;
    nn_fit_config_default(&c);
    c.hidden = 16;
    c.epochs = 3;
    c.batch = 64;
    c.holdout = 0.5;
    c.threads = 2;
    NetFitReport rep;
    CHECK_MSG(nn_fit_run(&c, &d, &prior, &full, &rep, NULL, NULL, NULL, err) == 0, "%s", err);
    CHECK_INT(rep.epochs_done, 3);
    CHECK_MSG(rep.holdout > 0 && rep.prior_holdout > 0 && rep.quant_holdout > 0, "%zu %f %f", rep.holdout,
              rep.prior_holdout, rep.quant_holdout);
    /* a fit over a file with a network measures that network on the same
     * held-out positions first: the loss its own fit gave it in integers */
    CHECK(prior.net != NULL); /* the default's ending network */
    CHECK_MSG(rep.prior_net_holdout > 0, "%f", rep.prior_net_holdout);
    NetFitConfig c2 = c;
    c2.rate = 0.02; /* a network that changes the loss, so the checks tell them apart */
    Weights strong;
    CHECK_MSG(nn_fit_run(&c2, &d, &prior, &strong, &rep, NULL, NULL, NULL, err) == 0, "%s", err);
    double first_holdout = rep.quant_holdout, first_prior = rep.prior_holdout;
    /* twice the tolerance of the check below */
    CHECK_MSG(fabs(first_holdout - first_prior) > 2e-4, "%f %f", first_holdout, first_prior);
    CHECK_MSG(nn_fit_run(&c2, &d, &strong, &part, &rep, NULL, NULL, NULL, err) == 0, "%s", err);
    CHECK_MSG(fabs(rep.prior_net_holdout - first_holdout) < 1e-4, "%f %f", rep.prior_net_holdout,
              first_holdout);
    CHECK_MSG(rep.prior_holdout == first_prior, "%f %f", rep.prior_holdout, first_prior); /* left out */
    Weights plain = prior;
    plain.net = NULL;
    CHECK_MSG(nn_fit_run(&c2, &d, &plain, &part, &rep, NULL, NULL, NULL, err) == 0, "%s", err);
    CHECK_MSG(rep.prior_net_holdout == -1, "%f", rep.prior_net_holdout);
    char ck[128];
    snprintf(ck, sizeof ck, "%s/net.ckpt", dir);
    c.checkpoint = ck;
    atomic_bool stop;
    atomic_init(&stop, true);
    CHECK_MSG(nn_fit_run(&c, &d, &prior, &part, &rep, NULL, NULL, &stop, err) == 0, "%s", err);
    CHECK_INT(rep.epochs_done, 1);
    CHECK(part.net != full.net);
    CHECK_MSG(nn_fit_run(&c, &d, &prior, &resumed, &rep, NULL, NULL, NULL, err) == 0, "%s", err);
    CHECK_INT(rep.resumed_from, 1);
    CHECK_INT(rep.epochs_done, 3);
    CHECK(resumed.net == full.net); /* interned: the same weights */
    /* another configuration does not take that checkpoint */
    c.batch = 32;
    CHECK(nn_fit_run(&c, &d, &prior, &resumed, &rep, NULL, NULL, NULL, err) == -1 &&
          strstr(err, "a checkpoint of another fit"));
    selfplay_data_free(&d);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}

/* kingme eval lists the network's part of the score, kingme show sums the
 * network up, and fit refuses a checkpoint that is not its own. */
TEST(nn_eval_show_and_checkpoint_commands)
{
    char cmd[1024], out[8192];
    const char *fen = "B:W18,19,21,23,24,26,29,30,31,32:B1,2,3,5,6,7,9,10,12,14";
    long sum[2] = {0, 0}, part[2] = {0, 0};
    for (int side = 0; side < 2; side++) {
        snprintf(cmd, sizeof cmd, "%s eval --weights weights/nn-experimental.w --fen '%s' --for %s",
                 test_kingme(), fen, side ? "white" : "black");
        CHECK_INT(test_run(cmd, out, sizeof out), 0);
        const char *t = strstr(out, "\ntotal ");
        long named = 0, pat = 0, net = 0;
        CHECK_MSG(t && sscanf(t, "\ntotal %ld (named %ld + patterns %ld + network %ld)", &sum[side], &named,
                              &pat, &net) == 4,
                  "%s", out);
        CHECK(sum[side] == named + pat + net && net != 0);
        CHECK_MSG(strstr(out, "\nnetwork: ") && strstr(out, "(32 units; "), "%s", out);
        part[side] = net;
    }
    CHECK(sum[0] == -sum[1] && part[0] == -part[1]);
    snprintf(cmd, sizeof cmd, "%s show weights/nn-experimental.w | grep -A1 '^network'", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    Weights w;
    char err[KM_ERR_MAX], want[160];
    CHECK_MSG(weights_read(&w, "weights/nn-experimental.w", NULL, err) == 0, "%s", err);
    CHECK(w.net && w.net->hidden == 32);
    if (w.net) {
        snprintf(want, sizeof want,
                 "network: 128 inputs a view x 2 views -> 32 units -> 16 -> 1, 5185 weights, checksum %08x",
                 (unsigned)w.net->crc);
        CHECK_MSG(strstr(out, want) && strstr(out, "mean |part| "), "%s", out);
    }
    /* a checkpoint that is not one: refused with one line, nothing written */
    char dir[] = "/tmp/kingme-nnck-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    snprintf(
        cmd, sizeof cmd,
        "%s selfplay --games 2 --chunk 2 --nodes 200 --random-plies 4 --seed 4 --no-egdb -j 1 --out %s/sp "
        "2>/dev/null && echo junk > %s/ck",
        test_kingme(), dir, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    snprintf(cmd, sizeof cmd, "%s fit %s/sp --net 16 --epochs 1 --checkpoint %s/ck --out %s/o.w 2>&1",
             test_kingme(), dir, dir, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    CHECK_MSG(strstr(out, "/ck: not a checkpoint of this network") != NULL, "%s", out);
    snprintf(cmd, sizeof cmd, "%s/o.w", dir);
    CHECK(access(cmd, F_OK) != 0);
    snprintf(cmd, sizeof cmd, "%s fit %s/sp --net 16 --checkpoint - --out %s/o.w 2>&1", test_kingme(), dir,
             dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 2);
    CHECK_MSG(strstr(out, "--checkpoint '-' is not a file") != NULL, "%s", out);
    /* an ending network: fitted to the positions of at most 16 pieces,
     * the file and show say so, the header holds the option */
    snprintf(cmd, sizeof cmd,
             "%s fit %s/sp --net 16 --epochs 1 --max-pieces 16 --out %s/e.w >/dev/null 2>&1 && grep -c "
             "'^network 16 crc [0-9a-f]* pieces 16$\\|--max-pieces 16' %s/e.w && %s show %s/e.w | grep "
             "'ending network'",
             test_kingme(), dir, dir, dir, test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strncmp(out, "2\n", 2) == 0 && strstr(out, "asked only in positions of 6 to 16 pieces"), "%s",
              out);
    snprintf(cmd, sizeof cmd, "%s fit %s/sp --net 16 --max-pieces 4 --out %s/e2.w 2>&1", test_kingme(), dir,
             dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 2);
    CHECK_MSG(strstr(out, "--max-pieces 4 leaves no position above --min-pieces 5"), "%s", out);
    snprintf(cmd, sizeof cmd, "%s fit %s/sp --net 16 --max-pieces 5 --min-pieces 3 --out %s/e2.w 2>&1",
             test_kingme(), dir, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 2);
    CHECK_MSG(strstr(out, "--max-pieces 5 with --net: an ending network is asked only from 6 pieces"), "%s",
              out);
    /* a worker plays a vector with a network as a local thread does: the
     * network travels inside the vector's named-weights file */
    snprintf(
        cmd, sizeof cmd,
        "awk '/^table /{s=1} /^network /{s=0} !s' weights/nn-experimental.w > %s/net.w && echo '%s worker' > "
        "%s/wk && %s match %s/net.w weights/named.w --games 4 --depth 3 --no-book --no-egdb --workers %s/wk "
        "--out %s/w.pdn >/dev/null 2>&1 && %s match %s/net.w weights/named.w --games 4 --depth 3 --no-book "
        "--no-egdb -j 1 --out %s/j.pdn >/dev/null 2>&1 && cmp %s/w.pdn %s/j.pdn 2>&1",
        dir, test_kingme(), dir, test_kingme(), dir, dir, dir, test_kingme(), dir, dir, dir, dir);
    CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s", out);
    /* tune breeds the named weights over a file's pattern layer and the
     * network that rides with it (the session's key covers both); a
     * network without a layer it cannot keep */
    snprintf(cmd, sizeof cmd,
             "%s tune --yardstick none --include weights/nn-experimental.w --population 8 --generations 1 "
             "--depth 1 -j 1 --dir %s/t --name n 2>&1 && grep -c '^network ' %s/t/output/n.w",
             test_kingme(), dir, dir);
    CHECK_MSG(test_run(cmd, out, sizeof out) == 0 && strstr(out, "\n1\n") &&
                  strstr(out, "over the fixed pattern layer and network of weights/nn-experimental.w"),
              "%s", out);
    snprintf(
        cmd, sizeof cmd,
        "%s fit %s/sp --prior weights/named.w --net 16 --epochs 1 --out %s/np.w >/dev/null 2>&1 && %s tune "
        "--yardstick none --include %s/np.w --population 8 --generations 1 2>&1",
        test_kingme(), dir, dir, test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 2);
    CHECK_MSG(strstr(out, "/np.w has a network but no pattern layer, which tune cannot keep"), "%s", out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}

/* An ending network (fit --net --max-pieces): asked only with at most its
 * pieces on the board, 0 elsewhere, in the evaluation and in the search;
 * its pieces are kept in the weights file under the network's checksum. */
TEST(nn_ending_network)
{
    const EvalNet *full = random_net(7, 32), *end = random_net_for(7, 32, 10);
    CHECK(full && end && full != end && full->crc != end->crc);
    if (!full || !end) return;
    uint64_t r = 5;
    int asked = 0, not_asked = 0, below = 0;
    for (int g = 0; g < 20; g++) {
        Board b[200];
        int n = random_game(&r, b, 200);
        for (int i = 0; i < n; i++) {
            int pieces = __builtin_popcount(b[i].pieces[0] | b[i].pieces[1]);
            bool in = pieces <= 10 && pieces >= NN_ENDING_MIN_PIECES;
            int32_t want = in ? nn_eval(full, &b[i], KM_BLACK) : 0;
            CHECK_INT(nn_eval(end, &b[i], KM_BLACK), want);
            asked += in, not_asked += pieces > 10, below += pieces < NN_ENDING_MIN_PIECES;
        }
    }
    CHECK(asked > 100 && not_asked > 100 && below > 10);

    /* the search: from the start no position of 10 pieces is in reach at
     * depth 7, so the tree is the default weights' with their own network
     * taken out; in an ending, that of the same network asked with 6 to 24
     * pieces (and not the default's) */
    const EvalNet *wide = random_net_for(7, 32, 24);
    CHECK(wide != NULL);
    if (!wide) return;
    Weights def, we, wf;
    weights_default(&def);
    def.net = NULL;
    we = wf = def;
    we.net = end;
    wf.net = wide;
    static Searcher s;
    char err[KM_ERR_MAX];
    const Weights *ws[3] = {&def, &we, &wf};
    static SearchResult res[2][3];
    const char *fens[2] = {NULL, "W:W21,22,26,K30:B5,6,9,K10"};
    for (int f = 0; f < 2; f++)
        for (int k = 0; k < 3; k++) {
            /* no table (its keys hold the weights) and no ProbCut (its
             * margin is measured for the weights): the plain tree */
            CHECK_MSG(search_init(&s, ws[k], 0, 1, err) == 0, "%s", err);
            SearchSwitches sw;
            search_switches_exact(&sw);
            sw.tt = false;
            search_set_switches(&s, &sw);
            search_set_tiebreak(&s, TIEBREAK_FIRST);
            Board b;
            if (fens[f]) CHECK(board_from_fen(&b, fens[f], err) == 0);
            else board_init(&b);
            SearchLimits lim = {0};
            lim.depth = 7;
            CHECK(search_run(&s, &b, NULL, 0, 0, &lim, &res[f][k], NULL, NULL) == 0);
            search_free(&s);
        }
    CHECK_INT(res[0][1].score, res[0][0].score);
    CHECK_INT((long long)res[0][1].nodes, (long long)res[0][0].nodes);
    CHECK_INT(res[1][1].score, res[1][2].score);
    CHECK_INT((long long)res[1][1].nodes, (long long)res[1][2].nodes);
    CHECK(res[1][1].score != res[1][0].score || res[1][1].nodes != res[1][0].nodes);

    /* the weights file: "pieces 10" after the checksum, read back the
     * same; another count under the same checksum, or out of range, refused */
    char *text = weights_format(&we, NULL);
    CHECK(text != NULL);
    if (!text) return;
    char line[64];
    snprintf(line, sizeof line, "network 32 crc %08x pieces 10\n", (unsigned)end->crc);
    CHECK_MSG(strstr(text, line) != NULL, "no '%s'", line);
    Weights back;
    CHECK_MSG(weights_parse(&back, text, "x.w", NULL, err) == 0, "%s", err);
    CHECK(back.net == end && back.net->max_pieces == 10);
    struct {
        const char *to, *want;
    } cases[] = {
        {"pieces 12\n", "the network's values have checksum"},
        {"pieces 1\n", "a network for positions of at most 1 pieces (2..24)"},
        {"pieces ten\n", "expected 'network H crc XXXXXXXX'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *bad = replaced(text, "pieces 10\n", cases[i].to);
        CHECK(bad != NULL);
        if (!bad) continue;
        Weights x;
        char e2[KM_ERR_MAX] = "";
        CHECK_MSG(weights_parse(&x, bad, "x.w", NULL, e2) == -1 && strstr(e2, cases[i].want),
                  "case %zu: '%s'", i, e2);
        free(bad);
    }
    free(text);
}
