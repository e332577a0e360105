/* eval.c - kingme eval [--fen FEN] [--weights FILE] [--for black|white]:
 * the 60 parameters of a position, their weighted contributions, the total. */
#include "cli.h"
#include "kingme/weights.h"

#include <stdio.h>
#include <string.h>

static int run(int argc, char **argv)
{
    const char *fen = NULL, *wfile = NULL, *forside = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--fen") == 0) {
            if (!(fen = cli_value("eval", argc, argv, &i))) return 2;
        } else if (strcmp(argv[i], "--weights") == 0) {
            if (!(wfile = cli_value("eval", argc, argv, &i))) return 2;
        } else if (strcmp(argv[i], "--for") == 0) {
            if (!(forside = cli_value("eval", argc, argv, &i))) return 2;
            if (strcmp(forside, "black") != 0 && strcmp(forside, "white") != 0)
                return cli_usage_error("eval", "--for takes black or white, not '%s'", forside);
        } else {
            return cli_usage_error("eval", "unknown argument '%s'", argv[i]);
        }
    }
    Weights w;
    if (!cli_weights(wfile, &w)) return 1;
    Board b;
    if (!cli_board(fen, &b)) return 1;
    int side = forside ? (forside[0] == 'b' ? KM_BLACK : KM_WHITE) : b.stm;

    int f[EVAL_NPARAMS];
    eval_features(&b, side, f);
    char fenbuf[128];
    board_to_fen(&b, fenbuf, sizeof fenbuf);
    printf("# %s\n# for %s (%s to move), weights %s\n", fenbuf,
           side == KM_BLACK ? "black" : "white", b.stm == KM_BLACK ? "black" : "white",
           wfile ? wfile : "built-in default");
    printf("# %2s %-23s %5s %9s  %s\n", "nr", "name", "value", "contrib", "weight");
    int32_t total = 0;
    for (int i = 0; i < EVAL_NPARAMS; i++) {
        int32_t c = (int32_t)f[i] * w.w[i];
        total += c;
        printf("%4d %-23s %5d %9ld  %d\n", eval_params[i].nr, eval_params[i].name, f[i],
               (long)c, w.w[i]);
    }
    printf("total %ld\n", (long)total);
    return 0;
}

const CliCommand cmd_eval = {
    "eval", run, "the evaluation of a position, parameter by parameter",
    "kingme eval [--fen FEN] [--weights FILE] [--for black|white]\n"
    "  Prints the 60 parameters of the position (the initial one without --fen)\n"
    "  from the point of view of one side: nr, name, value, contribution\n"
    "  (value x weight) and weight, then the total.\n"
    "  --weights FILE     a weights file (default: the built-in weights/default.w)\n"
    "  --for black|white  the player the evaluation is for (default: side to move)\n"
    "example: kingme eval --fen 'W:W18,K26:B6,10' --for black",
};
