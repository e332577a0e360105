/* match.c - kingme match A.w B.w: an engine match between two weight vectors
 * from the ACF ballots (or the initial position, or PDN starts), each opening
 * once with each colour; Elo statistics; all games written as PDN. */
#include "cli.h"
#include "longrun.h"
#include "kingme/match.h"
#include "kingme/pdn.h"
#include "kingme/weights.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MATCH_DEFAULT_DEPTH 6
#define MATCH_START_GAMES 288 /* --openings start: as many games as the ballots give */

typedef struct Tally {
    bool tty;
    int every;          /* not a terminal: a line every `every` games */
    int w, d, l;        /* for A */
} Tally;

/* A is Black in the even games. */
static int a_points(int job, const MatchOutcome *o)
{
    if (o->result == GAME_DRAW) return 1;
    bool black_won = o->result == GAME_BLACK_WINS;
    return (job % 2 == 0) == black_won ? 2 : 0;
}

static void on_game(int done, int total, int job, const MatchOutcome *o, void *user)
{
    Tally *t = user;
    int p = a_points(job, o);
    if (p == 2) t->w++;
    else if (p == 1) t->d++;
    else t->l++;
    if (t->tty) {
        printf("\r  game %d/%d  A +%d =%d -%d", done, total, t->w, t->d, t->l);
        fflush(stdout);
    } else if (done % t->every == 0 || done == total) {
        printf("  game %d/%d  A +%d =%d -%d\n", done, total, t->w, t->d, t->l);
        fflush(stdout);
    }
}

static void fmt_elo(double e, char *buf, size_t len)
{
    if (isinf(e)) snprintf(buf, len, "%sinf", e > 0 ? "+" : "-");
    else snprintf(buf, len, "%+.1f", e);
}

static int run(int argc, char **argv)
{
    const char *paths[2] = {NULL, NULL}, *openings = "ballots", *pdn_out = NULL;
    long long games = -1, threads = cli_default_threads(), seed = 1;
    MatchSettings set;
    match_settings_default(&set);
    set.limits.depth = MATCH_DEFAULT_DEPTH;
    bool limited = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        double x;
        if (strcmp(a, "--games") == 0) {
            if (!(v = cli_value("match", argc, argv, &i))) return 2;
            if (!cli_int(v, 2, 10000000, &games) || games % 2)
                return cli_usage_error("match", "--games '%s' is not an even number from 2 (each opening is "
                                       "played with each colour)", v);
        } else if (strcmp(a, "--depth") == 0) {
            if (!(v = cli_value("match", argc, argv, &i))) return 2;
            long long d;
            if (limited || !cli_int(v, 1, SEARCH_MAX_PLY - 2, &d))
                return cli_usage_error("match", limited ? "give one of --depth and --time"
                                                        : "--depth '%s' is not a number from 1 to %d", v,
                                       SEARCH_MAX_PLY - 2);
            set.limits.depth = (int)d;
            limited = true;
        } else if (strcmp(a, "--time") == 0) {
            if (!(v = cli_value("match", argc, argv, &i))) return 2;
            if (limited || !cli_double(v, 0.001, 1e5, &x))
                return cli_usage_error("match", limited ? "give one of --depth and --time"
                                                        : "--time '%s' is not a number of seconds per move", v);
            set.limits.depth = 0;
            set.limits.seconds = x;
            limited = true;
        } else if (strcmp(a, "--openings") == 0) {
            if (!(openings = cli_value("match", argc, argv, &i))) return 2;
            if (strcmp(openings, "ballots") && strcmp(openings, "start") && !strchr(openings, '.') &&
                !strchr(openings, '/'))
                return cli_usage_error("match", "--openings is ballots, start or a PDN file, not '%s'", openings);
        } else if (strcmp(a, "-j") == 0 || strcmp(a, "--threads") == 0) {
            if (!(v = cli_value("match", argc, argv, &i))) return 2;
            if (!cli_int(v, 1, 256, &threads))
                return cli_usage_error("match", "%s '%s' is not a number of threads (1-256)", a, v);
        } else if (strcmp(a, "--pdn") == 0) {
            if (!(pdn_out = cli_value("match", argc, argv, &i))) return 2;
        } else if (strcmp(a, "--hash") == 0) {
            if (!(v = cli_value("match", argc, argv, &i))) return 2;
            long long mb;
            if (!cli_int(v, 0, 65536, &mb))
                return cli_usage_error("match", "--hash '%s' is not a size in MB from 0 to 65536", v);
            set.hash_mb = (size_t)mb;
        } else if (strcmp(a, "--seed") == 0) {
            if (!(v = cli_value("match", argc, argv, &i))) return 2;
            if (!cli_int(v, 0, INT64_MAX, &seed))
                return cli_usage_error("match", "--seed '%s' is not a whole number >= 0", v);
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("match", "unknown flag '%s'", a);
        } else if (!paths[0]) {
            paths[0] = a;
        } else if (!paths[1]) {
            paths[1] = a;
        } else {
            return cli_usage_error("match", "unexpected argument '%s'", a);
        }
    }
    if (!paths[1]) return cli_usage_error("match", "give two weights files");

    Weights w[2];
    if (!cli_weights(paths[0], &w[0]) || !cli_weights(paths[1], &w[1])) return 1;
    char err[KM_ERR_MAX];
    Opening *ops = NULL;
    int nops = 0;
    const char *what;
    if (strcmp(openings, "ballots") == 0) {
        if (openings_crossboard(&ops, &nops, err)) return cli_error("%s", err);
        what = "crossboard ACF ballots";
    } else if (strcmp(openings, "start") == 0) {
        ops = malloc(sizeof *ops);
        if (!ops) return cli_error("out of memory");
        opening_start(ops);
        nops = 1;
        what = "the initial position, random tie-breaks";
        if (games < 0) games = MATCH_START_GAMES;
    } else {
        if (openings_from_pdn(openings, &ops, &nops, err)) return cli_error("%s", err);
        what = openings;
    }
    if (games < 0) games = 2LL * nops;
    int n = (int)games;

    MatchGameSpec *specs = malloc((size_t)n * sizeof *specs);
    MatchOutcome *out = malloc((size_t)n * sizeof *out);
    if (!specs || !out) {
        free(specs);
        free(out);
        free(ops);
        return cli_error("out of memory");
    }
    for (int g = 0; g < n; g++) {
        int a_black = g % 2 == 0;
        specs[g] = (MatchGameSpec){a_black ? &w[0] : &w[1], a_black ? &w[1] : &w[0], &ops[(g / 2) % nops],
                                   match_game_seed((uint64_t)seed, (uint64_t)g)};
    }

    char limit[64];
    if (set.limits.seconds > 0) snprintf(limit, sizeof limit, "%g s per move", set.limits.seconds);
    else snprintf(limit, sizeof limit, "depth %d", set.limits.depth);
    int used = n / 2 < nops ? n / 2 : nops;
    printf("kingme match: A = %s, B = %s\n%d games: %d opening%s (%s) x 2 colours, %s, %lld threads, seed %lld\n",
           paths[0], paths[1], n, used, used == 1 ? "" : "s", what, limit, threads, seed);
    fflush(stdout);

    Tally t = {isatty(STDOUT_FILENO) != 0, n >= 20 ? n / 10 : 1, 0, 0, 0};
    cli_catch_sigint(true, "stopping: the games finished so far are kept");
    double t0 = km_now();
    int r = match_run(&set, specs, n, (int)threads, true, out, on_game, &t, &cli_stop, err);
    double secs = km_now() - t0;
    cli_catch_sigint(false, NULL);
    if (t.tty) printf("\n");
    if (r) {
        match_outcomes_free(out, n);
        free(specs);
        free(out);
        free(ops);
        return cli_error("%s", err);
    }

    /* the statistics, and the PDN of every game played */
    int wins = 0, draws = 0, losses = 0, played = 0;
    char *text = NULL;
    size_t tlen = 0;
    bool oom = false;
    for (int g = 0; g < n && !oom; g++) {
        const MatchOutcome *o = &out[g];
        if (o->result == GAME_ONGOING) continue;
        played++;
        int p = a_points(g, o);
        wins += p == 2;
        draws += p == 1;
        losses += p == 0;
        const Opening *op = specs[g].opening;
        char round[16], opening[96], ballot[16];
        snprintf(round, sizeof round, "%d", g + 1);
        if (op->ballot) snprintf(opening, sizeof opening, "ACF ballot %d: %s", op->ballot, km_ballots[op->ballot - 1].moves);
        else snprintf(opening, sizeof opening, "%s", op->name);
        snprintf(ballot, sizeof ballot, "%d", op->ballot);
        PdnTag tags[8];
        int nt = 0;
        tags[nt++] = (PdnTag){"Event", "kingme match"};
        tags[nt++] = (PdnTag){"Round", round};
        tags[nt++] = (PdnTag){"Black", (char *)(g % 2 == 0 ? paths[0] : paths[1])};
        tags[nt++] = (PdnTag){"White", (char *)(g % 2 == 0 ? paths[1] : paths[0])};
        tags[nt++] = (PdnTag){"Opening", opening};
        if (op->ballot) tags[nt++] = (PdnTag){"Ballot", ballot};
        tags[nt++] = (PdnTag){"Termination", (char *)game_reason_text(o->reason)};
        char *gt = pdn_format_game(&o->game, tags, nt, game_result_text(o->result));
        size_t gl = gt ? strlen(gt) : 0;
        char *x = gt ? realloc(text, tlen + gl + 1) : NULL;
        if (!x) {
            oom = true;
        } else {
            text = x;
            memcpy(text + tlen, gt, gl + 1);
            tlen += gl;
        }
        free(gt);
    }
    match_outcomes_free(out, n);
    free(specs);
    free(out);
    free(ops);
    if (oom) {
        free(text);
        return cli_error("out of memory");
    }

    EloStats e;
    elo_stats(wins, draws, losses, &e);
    char elo[32], lo[32], hi[32];
    fmt_elo(e.elo, elo, sizeof elo);
    fmt_elo(e.elo_lo, lo, sizeof lo);
    fmt_elo(e.elo_hi, hi, sizeof hi);
    if (played < n) printf("stopped: %d of %d games played\n", played, n);
    printf("A (%s) vs B (%s): %d games in %.1f s\n", paths[0], paths[1], played, secs);
    printf("A: %d wins, %d draws, %d losses; score %.1f%% (%.1f/%d)\n", wins, draws, losses, 100 * e.score,
           wins + 0.5 * draws, played);
    printf("Elo difference %s (95%%: %s .. %s), LOS %.1f%%\n", elo, lo, hi, 100 * e.los);

    int status = 0;
    if (played) {
        char path[4096], dir[4096];
        if (pdn_out) {
            snprintf(path, sizeof path, "%s", pdn_out);
        } else {
            cli_time_name(path, sizeof path, "games/match-%Y%m%d-%H%M%S.pdn");
        }
        cli_dirname(path, dir, sizeof dir);
        if (!cli_make_dirs(dir)) status = 1;
        else if (pdn_save_text(path, text, false, err)) status = cli_error("%s", err);
        else printf("games written to %s\n", path);
    }
    free(text);
    if (status) return status;
    return played < n ? 130 : 0;
}

const CliCommand cmd_match = {
    "match", run, "play a match between two weights files, with Elo statistics",
    "kingme match A.w B.w [--games N] [--depth D | --time S]\n"
    "             [--openings ballots|start|FILE.pdn] [-j N] [--pdn OUT] [--seed N] [--hash MB]\n"
    "  Plays the openings in order, each once with each colour (A is Black first),\n"
    "  then prints A's wins, draws and losses, its score, the Elo difference with\n"
    "  a 95% interval and the likelihood of superiority (LOS).\n"
    "  --openings    ballots: the 144 crossboard ACF three-move ballots in number\n"
    "                order (default); start: the initial position with random\n"
    "                tie-breaks; FILE.pdn: the start position and moves of each game\n"
    "  --games N     an even number: N/2 openings twice (default: every opening\n"
    "                twice, 288 for the ballots and for start)\n"
    "  --depth D     search depth per move (default 6); or --time S seconds per move\n"
    "                (then the games depend on the machine's speed)\n"
    "  -j N          games played at once (default: all cores); with --depth the\n"
    "                result does not depend on it\n"
    "  --pdn OUT     where the games go (default games/match-YYYYMMDD-HHMMSS.pdn)\n"
    "  --seed N      seed of the random tie-breaks (default 1)\n"
    "  --hash MB     transposition table per player (default 4; cleared every game)\n"
    "  A game still going after 200 plies is scored a draw. Ctrl-C stops; the\n"
    "  games finished are counted and written, and the exit status is 130.",
};
