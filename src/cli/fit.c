/* fit.c - kingme fit: the evaluation's weights fitted to self-play games. */
#include "kingme/fit.h"
#include "cli.h"
#include "kingme/label.h"
#include "kingme/nn.h"
#include "kingme/nn_fit.h"
#include "kingme/textio.h"
#include "kingme/weights.h"
#include "longrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct Show {
    bool tty;
    int every;
} Show;

static void on_progress(const FitProgress *p, void *user)
{
    const Show *sh = user;
    if (!sh->tty && p->epoch % sh->every && p->epoch != p->epochs) return;
    char hold[32] = "";
    if (p->holdout_loss >= 0) snprintf(hold, sizeof hold, ", held out %.5f", p->holdout_loss);
    fprintf(stderr, "%sfit: epoch %d of %d, loss %.5f%s, ETA %.0f s%s", sh->tty ? "\r" : "", p->epoch,
            p->epochs, p->train_loss, hold, p->eta, sh->tty ? "   " : "\n");
    fflush(stderr);
}

/* kingme fit --net H: a network trained over the prior's evaluation. */
static int run_net(const Opts *o, const FitConfig *fc, const Weights *prior, const char *prior_path,
                   const char *prior_comments, const char *out_path, SelfplayData *d)
{
    NetFitConfig c;
    nn_fit_config_default(&c);
    c.hidden = (int)opt_int(o, OPT_NET);
    if (c.hidden % 16) return cli_usage_error("fit", "--net %d is not a multiple of 16", c.hidden);
    c.epochs = (int)(opt_given(o, OPT_EPOCHS) ? opt_int(o, OPT_EPOCHS) : opt_int(o, OPT_NET_EPOCHS));
    c.batch = (int)opt_int(o, OPT_NET_BATCH);
    c.rate = opt_real(o, OPT_NET_RATE);
    c.l2 = opt_real(o, OPT_NET_L2);
    c.lambda = fc->lambda;
    c.holdout = fc->holdout;
    c.min_pieces = fc->min_pieces;
    c.max_pieces = fc->max_pieces;
    c.threads = fc->threads;
    c.seed = fc->seed;
    c.checkpoint = opt_given(o, OPT_CHECKPOINT) ? opt_str(o, OPT_CHECKPOINT) : NULL;
    if (c.checkpoint && (textio_is_stdout_name(c.checkpoint) || textio_writes_in_place(c.checkpoint)))
        return cli_usage_error("fit", "--checkpoint '%s' is not a file", c.checkpoint);
    Show sh = {isatty(2) != 0, c.epochs >= 20 ? c.epochs / 20 : 1};
    NetFitReport rep;
    char err[KM_ERR_MAX] = "";
    cli_catch_sigint(true, "stopping after this epoch (the checkpoint keeps it)");
    Weights out;
    if (c.checkpoint && access(c.checkpoint, F_OK) == 0)
        fprintf(stderr, "fit: going on from the checkpoint %s\n", c.checkpoint);
    int rc = nn_fit_run(&c, d, prior, &out, &rep, on_progress, &sh, &cli_stop, err);
    cli_catch_sigint(false, NULL);
    if (sh.tty) fputc('\n', stderr);
    if (rc) return cli_error("%s", err);
    KmBuf h = {0};
    char maxp[32] = "";
    if (c.max_pieces) snprintf(maxp, sizeof maxp, " --max-pieces %d", c.max_pieces);
    textio_buf_str(&h, "made by: kingme fit");
    for (int i = 0; i < o->nargs; i++) textio_buf_printf(&h, " %s", o->args[i]);
    textio_buf_printf(
        &h,
        " --prior %s --out %s --net %d --epochs %d --net-batch %d --net-rate %g --net-l2 %g \\\n"
        "    --lambda %g --holdout %g --min-pieces %d%s --seed %llu -j %d%s\n",
        prior_path, out_path, c.hidden, c.epochs, c.batch, c.rate, c.l2, c.lambda, c.holdout, c.min_pieces,
        maxp, (unsigned long long)c.seed, c.threads, opt_flag(o, OPT_LABELS) ? " --labels" : "");
    textio_buf_printf(&h, "samples: %zu quiet positions of %d games (%zu held out), score scale K %.1f\n",
                      rep.samples + rep.holdout, rep.games, rep.holdout, rep.scale);
    textio_buf_printf(&h, "network: %d units, %ld weights, %d of %d epochs\n", c.hidden, nn_nparams(c.hidden),
                      rep.epochs_done, c.epochs);
    textio_buf_printf(&h, "loss: prior %.5f, with the network %.5f (integers %.5f)\n", rep.prior_train,
                      rep.train, rep.quant_train);
    textio_buf_printf(&h, "held out: prior %.5f, with the network %.5f (integers %.5f)\n", rep.prior_holdout,
                      rep.holdout_loss, rep.quant_holdout);
    if (rep.prior_net_holdout >= 0)
        textio_buf_printf(&h, "held out: the prior with its own network %.5f\n", rep.prior_net_holdout);
    /* the prior's own header, so that the file says how both layers were made */
    textio_buf_lines(&h, prior_comments, "prior: ");
    char *hdr = textio_buf_done(&h);
    if (!hdr) return cli_error("out of memory");
    rc = weights_write(&out, out_path, hdr, err);
    free(hdr);
    if (rc) return cli_error("%s", err);
    if (rep.epochs_done < c.epochs)
        fprintf(stderr, "fit: stopped after epoch %d of %d%s%s\n", rep.epochs_done, c.epochs,
                c.checkpoint ? "; the same command goes on from " : "", c.checkpoint ? c.checkpoint : "");
    printf("fit: %zu samples (%zu held out), K %.1f; network of %d units; held out %.5f -> %.5f (integers "
           "%.5f); wrote %s\n",
           rep.samples, rep.holdout, rep.scale, c.hidden, rep.prior_holdout, rep.holdout_loss,
           rep.quant_holdout, out_path);
    if (rep.prior_net_holdout >= 0)
        printf("fit: the prior with its own network (left out of this fit): held out %.5f\n",
               rep.prior_net_holdout);
    return 0;
}

static int run(const Opts *o)
{
    FitConfig c;
    fit_config_default(&c);
    if (!cli_double(opt_str(o, OPT_LAMBDA), 0, 1, &c.lambda))
        return cli_usage_error("fit", "--lambda '%s' is not a number from 0 to 1", opt_str(o, OPT_LAMBDA));
    c.l2 = opt_real(o, OPT_L2);
    c.l2_pattern = opt_real(o, OPT_L2_PATTERN);
    c.rate = opt_real(o, OPT_RATE);
    c.epochs = (int)opt_int(o, OPT_EPOCHS);
    c.holdout = opt_real(o, OPT_HOLDOUT);
    c.min_pieces = (int)opt_int(o, OPT_MIN_PIECES);
    c.max_pieces = opt_given(o, OPT_MAX_PIECES) ? (int)opt_int(o, OPT_MAX_PIECES) : 0;
    if (c.max_pieces && c.max_pieces <= c.min_pieces)
        return cli_usage_error("fit", "--max-pieces %d leaves no position above --min-pieces %d",
                               c.max_pieces, c.min_pieces);
    if (c.max_pieces && c.max_pieces < NN_ENDING_MIN_PIECES && opt_given(o, OPT_NET))
        return cli_usage_error("fit",
                               "--max-pieces %d with --net: an ending network is asked only from %d pieces",
                               c.max_pieces, NN_ENDING_MIN_PIECES);
    c.seed = (uint64_t)opt_int(o, OPT_SEED);
    c.threads = (int)(opt_given(o, OPT_THREADS) ? opt_int(o, OPT_THREADS) : cli_default_threads());
    if (opt_flag(o, OPT_NAMED_ONLY)) c.patterns = false;
    if (opt_flag(o, OPT_PATTERNS_ONLY)) c.named = false;
    c.pull_prior = opt_flag(o, OPT_PULL_PRIOR);
    if (!c.named && !c.patterns)
        return cli_usage_error("fit", "--named-only and --patterns-only leave nothing to fit");
    Weights prior, out;
    char *prior_comments = NULL;
    const char *prior_path = opt_str(o, OPT_PRIOR);
    if (!cli_weights_with_comments(prior_path, &prior, opt_given(o, OPT_NET) ? &prior_comments : NULL))
        return 1;
    const char *out_path = opt_str(o, OPT_OUT);
    SelfplayData d = {0};
    char err[KM_ERR_MAX] = "";
    bool labels = opt_flag(o, OPT_LABELS);
    for (int i = 0; i < o->nargs; i++) {
        size_t first = d.n;
        LabelInfo li;
        if (selfplay_read_dir(o->args[i], &d, err) ||
            (labels && label_apply_dir(o->args[i], &d, first, &li, err))) {
            selfplay_data_free(&d);
            free(prior_comments);
            return cli_error("%s", err);
        }
        if (labels)
            fprintf(stderr,
                    "fit: %s: labels of the positions of %d to %d pieces: %llu exact, %llu searched (%llu "
                    "nodes)\n",
                    o->args[i], li.min_pieces + 1, li.max_pieces, (unsigned long long)li.exact,
                    (unsigned long long)li.searched, (unsigned long long)li.nodes);
    }
    fprintf(stderr, "fit: %zu positions of %d games, %d thread%s\n", d.n, d.games, c.threads,
            c.threads == 1 ? "" : "s");
    if (opt_given(o, OPT_NET)) {
        int nrc = run_net(o, &c, &prior, prior_path, prior_comments, out_path, &d);
        selfplay_data_free(&d);
        free(prior_comments);
        return nrc;
    }
    Show sh = {isatty(2) != 0, c.epochs >= 20 ? c.epochs / 20 : 1};
    FitReport rep;
    cli_catch_sigint(true, "stopping after this epoch (the weights so far are written)");
    int rc = fit_run(&c, &d, &prior, &out, &rep, on_progress, &sh, &cli_stop, err);
    cli_catch_sigint(false, NULL);
    if (sh.tty) fputc('\n', stderr);
    selfplay_data_free(&d);
    if (rc) return cli_error("%s", err);
    /* the header: the command (without the program's path) and the figures */
    KmBuf h = {0};
    char maxp[32] = "";
    if (c.max_pieces) snprintf(maxp, sizeof maxp, " --max-pieces %d", c.max_pieces);
    textio_buf_str(&h, "made by: kingme fit");
    for (int i = 0; i < o->nargs; i++) textio_buf_printf(&h, " %s", o->args[i]);
    textio_buf_printf(&h,
                      " --prior %s --out %s --lambda %g --epochs %d --rate %g --l2 %g --l2-pattern %g \\\n"
                      "    --holdout %g --min-pieces %d%s --seed %llu -j %d%s%s%s%s\n",
                      prior_path, out_path, c.lambda, c.epochs, c.rate, c.l2, c.l2_pattern, c.holdout,
                      c.min_pieces, maxp, (unsigned long long)c.seed, c.threads,
                      c.patterns ? "" : " --named-only", c.named ? "" : " --patterns-only",
                      labels ? " --labels" : "", c.pull_prior ? " --pull-prior" : "");
    textio_buf_printf(&h, "samples: %zu quiet positions of %d games (%zu held out), score scale K %.1f\n",
                      rep.samples + rep.holdout, rep.games, rep.holdout, rep.scale);
    /* no game held out (--holdout 0, or too few games): no held-out loss */
    char held[96] = "none";
    if (rep.holdout) snprintf(held, sizeof held, "from %.5f to %.5f", rep.prior_holdout, rep.holdout_loss);
    textio_buf_printf(&h, "loss: from %.5f to %.5f; held out: %s\n", rep.prior_train, rep.train, held);
    char *hdr = textio_buf_done(&h);
    if (!hdr) return cli_error("out of memory");
    rc = weights_write(&out, out_path, hdr, err);
    free(hdr);
    if (rc) return cli_error("%s", err);
    if (rep.holdout) snprintf(held, sizeof held, "%.5f -> %.5f", rep.prior_holdout, rep.holdout_loss);
    printf("fit: %zu samples (%zu held out), K %.1f; loss %.5f -> %.5f, held out %s; wrote %s\n", rep.samples,
           rep.holdout, rep.scale, rep.prior_train, rep.train, held, out_path);
    return 0;
}

static const Opt options[] = {
    {OPT_PRIOR, "-w", NULL, OPT_STR, "FILE", 0, 0, "default",
     "the weights to start from: their named weights are the pull's centre, their pattern layer the start"},
    {OPT_OUT, "-o", NULL, OPT_STR, "FILE", 0, 0, "fitted.w", "the weights file written"},
    {OPT_LAMBDA, NULL, NULL, OPT_STR, "L", 0, 0, "0.5",
     "the target: L x the game's result + (1 - L) x the search's score as a probability"},
    {OPT_EPOCHS, NULL, NULL, OPT_INT, "N", 1, 100000, "300", "full passes over the samples"},
    {OPT_RATE, NULL, NULL, OPT_REAL, "R", 0.001, 1000, "4",
     "Adam's step in evaluation units (a man is 1000)"},
    {OPT_L2, NULL, NULL, OPT_REAL, "X", 0, 1e9, "1", "pull of the named weights towards the prior's"},
    {OPT_L2_PATTERN, NULL, NULL, OPT_REAL, "X", 0, 1e9, "10", "pull of the pattern weights towards 0"},
    {OPT_PULL_PRIOR, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL,
     "pull the pattern weights towards the prior's instead (new games refine the prior's layer; a cell "
     "they do not see keeps its value)"},
    {OPT_LABELS, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL,
     "use the folders' labels (kingme label): an exact one is the position's target, a searched one "
     "replaces the game's score"},
    {OPT_HOLDOUT, NULL, NULL, OPT_REAL, "F", 0, 0.5, "0.05",
     "share of the games held out (their loss is shown)"},
    {OPT_MIN_PIECES, NULL, NULL, OPT_INT, "N", 0, 24, "5",
     "only positions with more pieces (the endgame database answers the rest)"},
    {OPT_MAX_PIECES, NULL, NULL, OPT_INT, "N", 2, 24, DESCRIBED("no limit"),
     "only positions with at most N pieces; with --net the network is then asked only with 6 to N "
     "pieces (an ending network)"},
    {OPT_NAMED_ONLY, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL,
     "fit the named weights alone (no pattern layer)"},
    {OPT_PATTERNS_ONLY, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL,
     "fit the pattern layer alone (the named weights kept)"},
    {OPT_NET, NULL, NULL, OPT_INT, "H", 16, NN_MAX_HIDDEN, DESCRIBED("no network"),
     "train a network of H units (a multiple of 16) over the prior's named weights and pattern layer, "
     "kept as they are (a network of the prior's own is left out, its held-out loss printed)"},
    {OPT_NET_EPOCHS, NULL, NULL, OPT_INT, "N", 1, 100000, "10",
     "with --net: passes over the samples (or --epochs)"},
    {OPT_NET_BATCH, NULL, NULL, OPT_INT, "N", 1, 1000000, "1024", "with --net: samples a step"},
    {OPT_NET_RATE, NULL, NULL, OPT_REAL, "R", 1e-6, 1, "0.001", "with --net: Adam's step"},
    {OPT_NET_L2, NULL, NULL, OPT_REAL, "X", 0, 1, "0.0001",
     "with --net: pull of the network's weights towards 0 (X x their squares, added to the mean loss)"},
    {OPT_CHECKPOINT, NULL, NULL, OPT_STR, "FILE", 0, 0, DESCRIBED("none"),
     "with --net: the state after each epoch; a fit given the same file goes on from it"},
    CLI_SEED_OPT("which games are held out"),
    {OPT_THREADS, "-j", NULL, OPT_INT, "N", 1, 64, DESCRIBED("all cores"),
     "threads (the result is the same for the same number)"},
    OPTS_END,
};

const CliCommand cmd_fit = {
    "fit",
    run,
    "fit the evaluation's weights to self-play games (logistic regression)",
    &(const OptSpec){
        "DIR...",
        1,
        8,
        "Reads the positions of kingme selfplay's folders, keeps the quiet ones (no capture pending) "
        "with more than --min-pieces pieces, and fits the named weights and the pattern layer so that "
        "sigmoid(evaluation / K) predicts each position's target (K fitted first to the scores and "
        "results), by full-batch Adam with an L2 pull; prints the loss on the games held out. The "
        "weights file written holds the command in its header.",
        options,
        "example: kingme fit sp --prior weights/named.w --out new.w --epochs 200",
    },
};
