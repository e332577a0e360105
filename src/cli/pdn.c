/* pdn.c - kingme pdn FILE... [--verbose]: replay every game of PDN files. */
#include "kingme/pdn.h"
#include "cli.h"
#include "kingme/textio.h"

#include <stdio.h>
#include <string.h>

typedef struct Tally {
    int games, errors;
    long plies;
} Tally;

static const char *plural(long n, const char *one, const char *many) { return n == 1 ? one : many; }

static void print_tally(const char *what, const Tally *t)
{
    printf("%s%d %s, %ld %s, %d %s\n", what, t->games, plural(t->games, "game", "games"), t->plies,
           plural(t->plies, "move", "moves"), t->errors, plural(t->errors, "error", "errors"));
}

/* The games of one file: one stderr line per bad game, one stdout line per
 * game with --verbose. False when the file cannot be read (said). */
static bool replay_file(const char *path, bool verbose, Tally *t)
{
    PdnGame *games;
    int n;
    char err[KM_ERR_MAX];
    if (pdn_read_file(path, &games, &n, err)) {
        fflush(stdout); /* keep the two streams in order on a terminal */
        cli_error("%s", err);
        return false;
    }
    for (int i = 0; i < n; i++) {
        const PdnGame *g = &games[i];
        t->plies += g->game.nply;
        if (g->error) {
            t->errors++;
            fflush(stdout);
            cli_error("%s", g->error);
        }
        if (verbose) {
            const char *black = pdn_tag(g, "Black"), *white = pdn_tag(g, "White");
            char bl[4 * 150 + 1], wh[4 * 150 + 1]; /* the names as any echoed text (textio_escape) */
            textio_escape(black ? black : "?", bl, sizeof bl);
            textio_escape(white ? white : "?", wh, sizeof wh);
            printf("game %d (line %d): %s - %s, %s, %d plies%s\n", i + 1, g->line, bl, wh, g->result,
                   g->game.nply, g->error ? ", ERROR" : "");
        }
    }
    t->games += n;
    pdn_free_games(games, n);
    return true;
}

static int run(const Opts *o)
{
    bool verbose = opt_flag(o, OPT_VERBOSE);
    Tally all = {0, 0, 0};
    int unread = 0;
    for (int f = 0; f < o->nargs; f++) {
        Tally t = {0, 0, 0};
        if (!replay_file(o->args[f], verbose, &t)) {
            unread++;
            continue;
        }
        if (o->nargs > 1) {
            char what[1100];
            snprintf(what, sizeof what, "%.1000s: ", o->args[f]);
            print_tally(what, &t);
        }
        all.games += t.games;
        all.errors += t.errors;
        all.plies += t.plies;
    }
    if (o->nargs == 1 && unread) return 1;
    if (o->nargs > 1) {
        char what[64];
        int read = o->nargs - unread;
        snprintf(what, sizeof what, "%d %s read, %d unreadable: ", read, plural(read, "file", "files"),
                 unread);
        print_tally(unread ? what : "all: ", &all);
    } else {
        print_tally("", &all);
    }
    return all.errors || unread ? 1 : 0;
}

static const Opt options[] = {
    {OPT_VERBOSE, "-v", NULL, OPT_FLAG, NULL, 0, 0, NULL,
     "one line per game: number, line, players, result, plies"},
    OPTS_END,
};

const CliCommand cmd_pdn = {
    "pdn",
    run,
    "replay every game of PDN files and report the bad ones",
    &(const OptSpec){
        "FILE...",
        1,
        OPTS_ARGS,
        "Reads every game of each FILE (tags, [FEN] starts, comments, variations, NAGs), checks "
        "each move against the rules and replays it. Each bad game gets one line on stderr (file, "
        "game number, line, move number, why); stdout ends with 'N games, M moves, E errors' (M "
        "counts plies), after one such line per file when there are several. Exit status 1 if any "
        "game is bad or a file cannot be read.",
        options,
        "example: kingme pdn tests/data/tinsley.pdn  ->  one line about game 541 on stderr, then 724 games, "
        "36108 moves, 1 error",
    },
};
