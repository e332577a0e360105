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

static int run(const Opts *o)
{
    const char *paths[2] = {o->args[0], o->args[1]}, *openings = opt_str(o, "--openings");
    const char *pdn_out = opt_str(o, "--out");
    long long games = opt_given(o, "--games") ? opt_int(o, "--games") : -1;
    long long threads = opt_given(o, "--threads") ? opt_int(o, "--threads") : cli_default_threads();
    long long seed = opt_int(o, "--seed");
    MatchSettings set;
    match_settings_default(&set);
    set.limits.depth = (int)opt_int(o, "--depth");
    set.hash_mb = (size_t)opt_int(o, "--hash");
    if (games >= 0 && games % 2)
        return cli_usage_error("match", "--games %lld is odd: each opening is played with each colour", games);
    if (opt_given(o, "--depth") && opt_given(o, "--time")) return cli_usage_error("match", "give --depth or --time, not both");
    if (opt_given(o, "--time")) {
        set.limits.depth = 0;
        set.limits.seconds = opt_real(o, "--time");
    }
    if (strcmp(openings, "ballots") && strcmp(openings, "start") && !strchr(openings, '.') && !strchr(openings, '/'))
        return cli_usage_error("match", "--openings is ballots, start or a PDN file, not '%s'", openings);

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

static const Opt options[] = {
    {"--games", NULL, NULL, OPT_INT, "N", 2, 1e7, DESCRIBED("every opening twice: 288 for the ballots and for start"),
     "an even number: N/2 openings, each once with each colour"},
    {"--depth", NULL, NULL, OPT_INT, "D", 1, SEARCH_MAX_PLY - 2, "6", "search depth per move"},
    {"--time", NULL, NULL, OPT_REAL, "S", 0.001, 1e5, DESCRIBED("none"),
     "seconds per move instead of --depth (then the games depend on the machine's speed)"},
    {"--openings", NULL, NULL, OPT_STR, "ballots|start|FILE.pdn", 0, 0, "ballots",
     "ballots: the 144 crossboard ACF three-move ballots in number order; start: the initial "
     "position with random tie-breaks; FILE.pdn: the start position and moves of each game"},
    {"--threads", "-j", NULL, OPT_INT, "N", 1, 256, DESCRIBED("all cores"),
     "games played at once; with --depth the result does not depend on it"},
    {"--out", NULL, "--pdn", OPT_STR, "FILE", 0, 0, DESCRIBED("games/match-YYYYMMDD-HHMMSS.pdn"), "where the games go"},
    {"--seed", NULL, NULL, OPT_INT, "N", 0, 9e18, "1", "seed of the random tie-breaks"},
    {"--hash", NULL, NULL, OPT_INT, "MB", 0, 65536, "16",
     "transposition table size of each player (cleared every game; 0: none)"},
    OPTS_END,
};

const CliCommand cmd_match = {
    "match", run, "play a match between two weights files, with Elo statistics",
    &(const OptSpec){
        "A.w B.w", 2, 2,
        "Plays the openings in order, each once with each colour (A is Black first), then prints "
        "A's wins, draws and losses, its score, the Elo difference with a 95% interval and the "
        "likelihood of superiority (LOS). A or B may be 'default', the built-in weights. A game "
        "still going after 200 plies is scored a draw.",
        options,
        "Ctrl-C stops; the games finished are counted and written, and the exit status is 130.",
    },
};
