/* eval.c - kingme eval [--fen FEN] [--weights FILE] [--for black|white]:
 * the 60 parameters and the new terms of a position, their weighted
 * contributions, the total (with a phase: both vectors' and the blend). */
#include "cli.h"
#include "kingme/weights.h"

#include <stdio.h>
#include <string.h>

static int run(const Opts *o)
{
    const char *fen = opt_str(o, "--fen"), *wfile = opt_str(o, "--weights");
    Weights w;
    if (!cli_weights(wfile, &w)) return 1;
    Board b;
    if (!cli_board(fen, &b)) return 1;
    int side = opt_given(o, "--for") ? opt_choice(o, "--for") : b.stm; /* black = 0 = KM_BLACK */

    int f[EVAL_NTERMS];
    eval_features_all(&b, side, f);
    char fenbuf[128];
    board_to_fen(&b, fenbuf, sizeof fenbuf);
    printf("# %s\n# for %s (%s to move), weights %s\n", fenbuf,
           side == KM_BLACK ? "black" : "white", b.stm == KM_BLACK ? "black" : "white",
           wfile && strcmp(wfile, "default") ? wfile : "built-in default");
    if (w.phased)
        printf("# %2s %-23s %5s %9s  %6s %9s  %s\n", "nr", "name", "value", "contrib", "weight", "end.contr",
               "end.weight");
    else
        printf("# %2s %-23s %5s %9s  %s\n", "nr", "name", "value", "contrib", "weight");
    int64_t so = 0, se = 0;
    for (int i = 0; i < EVAL_NTERMS; i++) {
        int32_t c = (int32_t)f[i] * w.w[i], ce = (int32_t)f[i] * w.end[i];
        so += c;
        se += ce;
        if (w.phased)
            printf("%4d %-23s %5d %9ld  %6d %9ld  %d\n", eval_params[i].nr, eval_params[i].name, f[i], (long)c,
                   w.w[i], (long)ce, w.end[i]);
        else
            printf("%4d %-23s %5d %9ld  %d\n", eval_params[i].nr, eval_params[i].name, f[i], (long)c, w.w[i]);
    }
    if (w.phased) {
        int n = f[EP_own_men] + f[EP_own_kings] + f[EP_opp_men] + f[EP_opp_kings];
        int t = eval_phase(n);
        printf("opening %lld, ending %lld, %d pieces: (opening x %d + ending x %d) / %d\n", (long long)so,
               (long long)se, n, t, EVAL_PHASE_SPAN - t, EVAL_PHASE_SPAN);
    }
    printf("total %ld\n", (long)eval_dot_all(f, &w));
    return 0;
}

static const Opt options[] = {
    {"--fen", NULL, NULL, OPT_STR, "FEN", 0, 0, DESCRIBED("the initial position"), "the position"},
    {"--weights", NULL, NULL, OPT_STR, "FILE", 0, 0, "default", WEIGHTS_HELP},
    {"--for", NULL, NULL, OPT_CHOICE, "black|white", 0, 0, DESCRIBED("the side to move"),
     "the player the evaluation is for"},
    OPTS_END,
};

const CliCommand cmd_eval = {
    "eval", run, "the evaluation of a position, parameter by parameter",
    &(const OptSpec){
        NULL, 0, 0,
        "Prints the 60 parameters and the new terms (61-74) of the position from the point of view "
        "of one side: nr, name, value, contribution (value x weight) and weight (with a phase, the "
        "ending vector's too, and the blend), then the total.",
        options,
        "example: kingme eval --fen 'W:W18,K26:B6,10' --for black",
    },
};
