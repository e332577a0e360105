/* eval.c - kingme eval [--fen FEN] [--weights FILE] [--for black|white]:
 * the 60 parameters and the new terms of a position, their weighted
 * contributions, the total (with a phase: both vectors' and the blend). */
#include "cli.h"
#include "kingme/nn.h"
#include "kingme/patterns.h"
#include "kingme/weights.h"

#include <stdio.h>
#include <string.h>

static int popcount_board(const Board *b) { return __builtin_popcount(board_occupied(b)); }

static int run(const Opts *o)
{
    const char *fen = opt_str(o, OPT_FEN), *wfile = opt_str(o, OPT_WEIGHTS);
    Weights w;
    if (!cli_weights(wfile, &w)) return 1;
    Board b;
    if (!cli_board(fen, &b)) return 1;
    int side = opt_given(o, OPT_FOR) ? opt_choice(o, OPT_FOR) : b.stm; /* black = 0 = KM_BLACK */

    EvalFeatures ef;
    eval_features(&b, side, &ef);
    const int *f = ef.term;
    char fenbuf[128];
    board_to_fen(&b, fenbuf, sizeof fenbuf);
    printf("# %s\n# for %s (%s to move), weights %s\n", fenbuf, side == KM_BLACK ? "black" : "white",
           b.stm == KM_BLACK ? "black" : "white",
           wfile && strcmp(wfile, "default") ? wfile : "built-in default");
    if (w.phased)
        printf("# %2s %-23s %5s %9s  %6s %9s  %s\n", "nr", "name", "value", "contrib", "weight", "end.contr",
               "end.weight");
    else printf("# %2s %-23s %5s %9s  %s\n", "nr", "name", "value", "contrib", "weight");
    int64_t so = 0, se = 0;
    for (int i = 0; i < EVAL_NTERMS; i++) {
        int32_t c = (int32_t)f[i] * w.w[i], ce = (int32_t)f[i] * w.end[i];
        so += c;
        se += ce;
        if (w.phased)
            printf("%4d %-23s %5d %9ld  %6d %9ld  %d\n", eval_params[i].nr, eval_params[i].name, f[i],
                   (long)c, w.w[i], (long)ce, w.end[i]);
        else
            printf("%4d %-23s %5d %9ld  %d\n", eval_params[i].nr, eval_params[i].name, f[i], (long)c, w.w[i]);
    }
    int n = popcount_board(&b);
    if (w.phased) {
        int t = phase_factor(n);
        printf("opening %lld, ending %lld, %d pieces: (opening x %d + ending x %d) / %d\n", (long long)so,
               (long long)se, n, t, EVAL_PHASE_SPAN - t, EVAL_PHASE_SPAN);
    }
    int32_t named = w.phased ? phase_blend(so, se, n) : (int32_t)so;
    int32_t net = w.net ? nn_eval(w.net, &b, side) : 0;
    if (w.net && !nn_applies(w.net, &b))
        printf("network: 0 (an ending network, asked only with %d to %d pieces)\n", NN_ENDING_MIN_PIECES,
               w.net->max_pieces);
    else if (w.net)
        printf("network: %ld (%d units; %ld for the side to move)\n", (long)net, w.net->hidden,
               (long)nn_eval(w.net, &b, b.stm));
    if (!w.pat) {
        if (w.net)
            printf("total %ld (named %ld + network %ld)\n", (long)(named + net), (long)named, (long)net);
        else printf("total %ld\n", (long)named);
        return 0;
    }
    /* the pattern layer: each table's part, the player's cells minus the
     * opponent's (each seen from its own side) */
    printf("# pattern layer: each table's part (the player's cells minus the opponent's)\n");
    printf("# %-6s %8s %8s  %-8s  %-8s\n", "table", "opening", "ending", "player", "opponent");
    int32_t po = 0, pe = 0;
    for (int t = 0; t < PAT_NTABLES; t++) {
        int32_t part[2] = {pat_table_part(w.pat, t, 0, &ef.pat, side),
                           pat_table_part(w.pat, t, 1, &ef.pat, side)};
        po += part[0], pe += part[1];
        char a[9] = "", d[9] = "";
        if (t >= 2)
            pat_cell_text(ef.pat.region[side][t - 2], a), pat_cell_text(ef.pat.region[side ^ 1][t - 2], d);
        printf("  %-6s %8ld %8ld  %-8s  %-8s\n", pat_tables[t].name, (long)part[0], (long)part[1], a, d);
    }
    int32_t pat = phase_blend(po, pe, n);
    printf("patterns: opening %ld, ending %ld, blend %ld\n", (long)po, (long)pe, (long)pat);
    if (w.net)
        printf("total %ld (named %ld + patterns %ld + network %ld)\n", (long)(named + pat + net), (long)named,
               (long)pat, (long)net);
    else printf("total %ld (named %ld + patterns %ld)\n", (long)(named + pat), (long)named, (long)pat);
    return 0;
}

static const Opt options[] = {
    {OPT_FEN, NULL, NULL, OPT_STR, "FEN", 0, 0, DESCRIBED("the initial position"), "the position"},
    {OPT_WEIGHTS, NULL, NULL, OPT_STR, "FILE", 0, 0, "default", WEIGHTS_HELP},
    {OPT_FOR, NULL, NULL, OPT_CHOICE, "black|white", 0, 0, DESCRIBED("the side to move"),
     "the player the evaluation is for"},
    OPTS_END,
};

const CliCommand cmd_eval = {
    "eval",
    run,
    "the evaluation of a position, parameter by parameter",
    &(const OptSpec){
        NULL,
        0,
        0,
        "Prints the 60 parameters and the new terms (61-74) of the position from the point of view "
        "of one side: nr, name, value, contribution (value x weight) and weight (with a phase, the "
        "ending vector's too, and the blend), then the total.",
        options,
        "example: kingme eval --fen 'W:W18,K26:B6,10' --for black",
    },
};
