/* pdn.c - kingme pdn FILE [--verbose]: replay every game of a PDN file. */
#include "cli.h"
#include "kingme/pdn.h"

#include <stdio.h>
#include <string.h>

static int run(const Opts *o)
{
    const char *path = o->args[0];
    bool verbose = opt_flag(o, "--verbose");
    PdnGame *games;
    int n;
    char err[KM_ERR_MAX];
    if (pdn_read_file(path, &games, &n, err)) return cli_error("%s", err);
    long plies = 0;
    int errors = 0;
    for (int i = 0; i < n; i++) {
        const PdnGame *g = &games[i];
        plies += g->game.nply;
        if (g->error) {
            errors++;
            fflush(stdout); /* keep the two streams in file order on a terminal */
            cli_error("%s", g->error);
        }
        if (verbose) {
            const char *black = pdn_tag(g, "Black"), *white = pdn_tag(g, "White");
            printf("game %d (line %d): %s - %s, %s, %d plies%s\n", i + 1, g->line,
                   black ? black : "?", white ? white : "?", g->result, g->game.nply,
                   g->error ? ", ERROR" : "");
        }
    }
    printf("%d games, %ld moves, %d errors\n", n, plies, errors);
    pdn_free_games(games, n);
    return errors ? 1 : 0;
}

static const Opt options[] = {
    {"--verbose", "-v", NULL, OPT_FLAG, NULL, 0, 0, NULL,
     "one line per game: number, line, players, result, plies"},
    OPTS_END,
};

const CliCommand cmd_pdn = {
    "pdn", run, "replay every game of a PDN file and report the bad ones",
    &(const OptSpec){
        "FILE", 1, 1,
        "Reads every game of FILE (tags, [FEN] starts, comments, variations, NAGs), checks each "
        "move against the rules and replays it. Each bad game gets one line on stderr (game "
        "number, line, move number, why); stdout ends with 'N games, M moves, E errors' (M counts "
        "plies). Exit status 1 if any game is bad or the file cannot be read.",
        options,
        "example: kingme pdn tests/data/tinsley.pdn  ->  one line about game 541 on stderr, then 724 games, 36108 moves, 1 errors",
    },
};
