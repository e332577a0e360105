/* match.c - kingme match A B: a match between two players, each a weights
 * file (searched in this process) or engine:COMMAND (another process speaking
 * the kingme engine protocol), from the ACF ballots (or the initial position,
 * or PDN starts), each opening once with each colour. kingme is the referee
 * (clocks, forfeits); Elo statistics, an optional SPRT; every finished game is
 * written to the PDN file at once. */
#include "kingme/match.h"
#include "cli.h"
#include "kingme/book.h"
#include "kingme/charts.h"
#include "kingme/egdb.h"
#include "kingme/elo.h"
#include "kingme/memlimit.h"
#include "kingme/pdn.h"
#include "kingme/search_params.h"
#include "kingme/textio.h"
#include "kingme/weights.h"
#include "kingme/workers.h"
#include "longrun.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MATCH_START_GAMES 288  /* --openings start: as many games as the ballots give */
#define MATCH_SPRT_GAMES 20000 /* --sprt without --games: the most games played */

/* The PDN destination, open from before the first game: each finished game
 * is appended with one write(), so a crash or Ctrl-C loses none. */
typedef struct PdnOut {
    const char *path;
    int fd;
    bool regular, created, failed;
    off_t size; /* bytes written (regular files) */
    int games;
    char err[KM_ERR_MAX];
} PdnOut;

static bool pdn_open(PdnOut *f, const char *path)
{
    memset(f, 0, sizeof *f);
    f->path = path;
    if (strcmp(path, "-") == 0) { /* standard output: the games as they end */
        f->path = "standard output";
        f->fd = dup(STDOUT_FILENO);
        if (f->fd < 0) {
            cli_error("standard output: cannot write: %s", strerror(errno));
            return false;
        }
        return true;
    }
    /* kingme's writer rules (textio.h): missing folders made, a link to a
     * missing file refused, a new file created exclusively */
    char err[KM_ERR_MAX];
    f->fd = textio_open_append(path, &f->created, err);
    if (f->fd < 0) {
        cli_error("%s", err);
        return false;
    }
    struct stat st;
    f->regular = fstat(f->fd, &st) == 0 && S_ISREG(st.st_mode);
    return true;
}

static void pdn_append(PdnOut *f, const char *text)
{
    if (f->failed) return;
    /* the match replaces what a regular file held, from its first game on
     * (an engine that does not start leaves the file as it was) */
    if (f->games == 0 && f->regular && ftruncate(f->fd, 0) != 0) {
        snprintf(f->err, sizeof f->err, "%s: cannot write: %s", f->path, strerror(errno));
        f->failed = true;
        return;
    }
    size_t len = strlen(text), off = 0;
    while (off < len) {
        ssize_t w = write(f->fd, text + off, len - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            snprintf(f->err, sizeof f->err, "%s: cannot write: %s", f->path,
                     strerror(w < 0 ? errno : ENOSPC));
            f->failed = true;
            /* no half game: cut a regular file back to its last whole game */
            if (f->regular && ftruncate(f->fd, f->size) != 0) {
            }
            return;
        }
        off += (size_t)w;
    }
    f->size += (off_t)len;
    f->games++;
}

/* Returns false (with the error printed) if the last bytes did not reach the disk. */
static bool pdn_close(PdnOut *f)
{
    bool ok = !f->failed;
    if (f->failed) cli_error("%s", f->err);
    if (f->regular && fsync(f->fd) != 0 && ok) {
        cli_error("%s: cannot write: %s", f->path, strerror(errno));
        ok = false;
    }
    if (close(f->fd) != 0 && ok) {
        cli_error("%s: cannot write: %s", f->path, strerror(errno));
        ok = false;
    }
    if (f->games == 0 && f->created && f->regular) unlink(f->path);
    return ok;
}

typedef struct Tally {
    bool tty;
    int every;                      /* not a terminal: a line every `every` games */
    int w, d, l;                    /* for A */
    int forfeits[2][FORFEIT_COUNT]; /* [A or B][reason] */
    bool clock;
    double closest; /* least time left on any clock */
    int closest_game, closest_colour, closest_ply;
    long moves[2]; /* [A or B]: moves on the clock, their time, */
    double used[2];
    double end_left[2];       /* and the clocks at the games' ends (sums) */
    const char *const *names; /* [A, B] */
    const MatchGameSpec *specs;
    PdnOut *pdn;
    bool sprt;
    Sprt test;
    SprtDecision decision;
    double llr; /* at the decision, or now */
    int decided_after;
    /* --svg: A's points in each game, in the order they ended, and the picture
     * rewritten as they come in */
    const char *svg;
    uint8_t *points;
    int total;
    double sprt_elo[2];
    double svg_written; /* km_now() of the last write */
    bool svg_failed;
} Tally;

/* The match's picture (--svg), written whole (temporary file, rename). */
static void write_svg(Tally *t, const char *title)
{
    if (!t->svg || t->svg_failed) return;
    int n = t->w + t->d + t->l;
    KmBuf b = {0};
    chart_match(&b, title, t->points, n, t->total, t->sprt ? t->sprt_elo : NULL);
    size_t len = b.len;
    char *text = textio_buf_done(&b), err[KM_ERR_MAX];
    if (!text || textio_write_atomic(t->svg, text, len, err)) {
        cli_error("%s", text ? err : "out of memory");
        t->svg_failed = true;
    }
    free(text);
    t->svg_written = km_now();
}

static void svg_title(const Tally *t, char *buf, size_t len)
{
    snprintf(buf, len, "kingme match: A = %.150s, B = %.150s", t->names[0], t->names[1]);
}

/* A is Black in the even games. */
static int a_points(int job, const MatchOutcome *o)
{
    if (o->result == GAME_DRAW) return 1;
    bool black_won = o->result == GAME_BLACK_WINS;
    return (job % 2 == 0) == black_won ? 2 : 0;
}

static char *game_text(const Tally *t, int job, const MatchOutcome *o)
{
    const Opening *op = t->specs[job].opening;
    char round[16], opening[96], ballot[16];
    snprintf(round, sizeof round, "%d", job + 1);
    if (op->ballot)
        snprintf(opening, sizeof opening, "ACF ballot %d: %s", op->ballot,
                 opening_ballots[op->ballot - 1].moves);
    else snprintf(opening, sizeof opening, "%s", op->name);
    snprintf(ballot, sizeof ballot, "%d", op->ballot);
    PdnTag tags[8];
    int nt = 0;
    tags[nt++] = (PdnTag){"Event", "kingme match"};
    tags[nt++] = (PdnTag){"Round", round};
    tags[nt++] = (PdnTag){"Black", (char *)t->names[job % 2]};
    tags[nt++] = (PdnTag){"White", (char *)t->names[1 - job % 2]};
    tags[nt++] = (PdnTag){"Opening", opening};
    if (op->ballot) tags[nt++] = (PdnTag){"Ballot", ballot};
    tags[nt++] = (PdnTag){"Termination", (char *)o->termination};
    return pdn_format_game(&o->game, tags, nt, game_result_text(o->result));
}

/* After each finished game, in the order they finish (never two at a time). */
static void on_game(int done, int total, int job, const MatchOutcome *o, void *user)
{
    Tally *t = user;
    /* A game counts once it is kept: after a write fails (a full disk), the
     * tally and the file hold the same games, and the games that end while
     * the match stops are not counted either. */
    if (t->pdn->failed) return;
    char *text = game_text(t, job, o);
    if (!text) {
        snprintf(t->pdn->err, sizeof t->pdn->err, "out of memory");
        t->pdn->failed = true;
    } else {
        pdn_append(t->pdn, text);
        free(text);
    }
    if (t->pdn->failed) {
        atomic_store(&cli_stop, true); /* no point playing games that cannot be kept */
        return;
    }
    int p = a_points(job, o);
    if (t->points) t->points[t->w + t->d + t->l] = (uint8_t)p;
    if (p == 2) t->w++;
    else if (p == 1) t->d++;
    else t->l++;
    /* the picture as the games come in: at most one write a second */
    if (t->svg && km_now() - t->svg_written >= 1.0) {
        char title[400];
        svg_title(t, title, sizeof title);
        write_svg(t, title);
    }
    if (o->forfeit != FORFEIT_NONE) {
        /* A is Black in the even games */
        int who = (o->forfeit_side == KM_BLACK) == (job % 2 == 0) ? 0 : 1;
        t->forfeits[who][o->forfeit]++;
    }
    for (int c = 0; c < 2; c++) {
        int who = (c == KM_BLACK) == (job % 2 == 0) ? 0 : 1; /* A is Black in the even games */
        t->moves[who] += o->timed_moves[c];
        t->used[who] += o->time_used[c];
        t->end_left[who] += o->end_left[c];
    }
    for (int c = 0; c < 2; c++)
        if (o->min_left[c] < t->closest) {
            t->closest = o->min_left[c];
            t->closest_game = job + 1;
            t->closest_colour = c;
            t->closest_ply = o->min_left_ply[c];
        }
    char sprt[64] = "";
    if (t->sprt && t->decision == SPRT_CONTINUE) {
        t->llr = elo_sprt_llr(&t->test, t->w, t->d, t->l);
        t->decision = elo_sprt_decide(&t->test, t->llr);
        if (t->decision != SPRT_CONTINUE) {
            t->decided_after = done;
            atomic_store(&cli_stop, true);
        }
    }
    if (t->sprt) snprintf(sprt, sizeof sprt, "  LLR %.2f (%.2f, %.2f)", t->llr, t->test.lower, t->test.upper);
    if (t->tty) {
        printf("\r  game %d/%d  A +%d =%d -%d%s", done, total, t->w, t->d, t->l, sprt);
        fflush(stdout);
    } else if (done % t->every == 0 || done == total) {
        printf("  game %d/%d  A +%d =%d -%d%s\n", done, total, t->w, t->d, t->l, sprt);
        fflush(stdout);
    }
}

static void fmt_elo(double e, char *buf, size_t len)
{
    if (isinf(e)) snprintf(buf, len, "%sinf", e > 0 ? "+" : "-");
    else snprintf(buf, len, "%+.1f", e);
}

static void print_forfeits(const Tally *t)
{
    int total = 0;
    for (int s = 0; s < 2; s++)
        for (int r = 1; r < FORFEIT_COUNT; r++) total += t->forfeits[s][r];
    if (!total) {
        printf("forfeits: none\n");
        return;
    }
    printf("forfeits: %d", total);
    for (int s = 0; s < 2; s++) {
        int n = 0;
        for (int r = 1; r < FORFEIT_COUNT; r++) n += t->forfeits[s][r];
        if (!n) continue;
        printf("; %s %d (", s ? "B" : "A", n);
        bool first = true;
        for (int r = 1; r < FORFEIT_COUNT; r++)
            if (t->forfeits[s][r]) {
                printf("%s%s %d", first ? "" : ", ", referee_forfeit_text((MatchForfeit)r),
                       t->forfeits[s][r]);
                first = false;
            }
        printf(")");
    }
    printf("\n");
}

/* --sprt ELO0 ELO1: the option holds ELO0; ELO1 is the one positional
 * argument that is a number (players are files or engine:COMMAND). */
static int sprt_args(const Opts *o, const char *names[2], double *elo0, double *elo1)
{
    *elo0 = opt_real(o, OPT_SPRT);
    int k = 0, found = -1;
    for (int i = 0; i < o->nargs; i++) {
        double x;
        if (found < 0 && cli_double(o->args[i], -1000, 1000, &x)) {
            found = i;
            *elo1 = x;
        } else if (k < 2) {
            names[k++] = o->args[i];
        }
    }
    if (found < 0) return cli_usage_error("match", "--sprt needs two Elo differences: --sprt ELO0 ELO1");
    if (k < 2) return cli_usage_error("match", "give two players (weights files or engine:COMMAND)");
    if (*elo1 <= *elo0)
        return cli_usage_error("match", "--sprt %g %g: ELO1 must be above ELO0", *elo0, *elo1);
    return 0;
}

/* --depth, --time, --nodes or --tc into set. Returns 0 or the usage error's status. */
static int read_limits(const Opts *o, MatchSettings *set)
{
    if (opt_given(o, OPT_DEPTH) + opt_given(o, OPT_TIME) + opt_given(o, OPT_TC) + opt_given(o, OPT_NODES) > 1)
        return cli_usage_error("match", "give one of --depth, --time, --nodes and --tc");
    if (opt_given(o, OPT_NODES)) {
        set->limits.depth = 0;
        set->limits.nodes = (uint64_t)opt_int(o, OPT_NODES);
    }
    if (opt_given(o, OPT_TIME)) {
        set->limits.depth = 0;
        set->limits.seconds = opt_real(o, OPT_TIME);
    }
    if (opt_given(o, OPT_TC)) {
        if (!cli_tc(o, &set->tc_base, &set->tc_inc)) return 2;
        set->limits.depth = 0;
    }
    return 0;
}

/* The match's first line: players, games, openings, limit, threads, seed. */
static void print_header(const MatchSettings *set, const char *const names[2], int n, int nops,
                         const char *what, const char *who, long long seed, bool sprt)
{
    char limit[96];
    if (set->tc_base > 0)
        snprintf(limit, sizeof limit, "clock %g s + %g s per move", set->tc_base, set->tc_inc);
    else if (set->limits.seconds > 0) snprintf(limit, sizeof limit, "%g s per move", set->limits.seconds);
    else if (set->limits.nodes > 0)
        snprintf(limit, sizeof limit, "%llu nodes per move", (unsigned long long)set->limits.nodes);
    else snprintf(limit, sizeof limit, "depth %d", set->limits.depth);
    size_t k = strlen(limit);
    if (set->ply_cap != MATCH_PLY_NONE)
        snprintf(limit + k, sizeof limit - k, ", at most %d plies", set->ply_cap);
    int used = n / 2 < nops ? n / 2 : nops;
    char line[4096];
    snprintf(line, sizeof line, "kingme match: A = %s, B = %s", names[0], names[1]);
    cli_wrap(stdout, line, 2);
    for (int side = 0; side < 2 && set->side_params; side++) { /* the parameters set (--set-a, --set-b) */
        if (search_params_are_default(&set->side_params[side])) continue;
        size_t at = (size_t)snprintf(line, sizeof line, "%s's search:", side ? "B" : "A");
        for (int i = 0; i < SEARCH_NPARAMS && at < sizeof line; i++) {
            char v[40], d[40];
            search_params_text(&set->side_params[side], i, v, sizeof v);
            search_params_value_text(i, search_params_info[i].def, d, sizeof d);
            if (strcmp(v, d))
                at += (size_t)snprintf(line + at, sizeof line - at, " %s=%s", search_params_info[i].name, v);
        }
        cli_wrap(stdout, line, 2);
    }
    snprintf(line, sizeof line, "%d games%s: %d %s (%s) x 2 colours", n, sprt ? " at most" : "", used,
             cli_plural(used, "opening", "openings"), what);
    cli_wrap(stdout, line, 2);
    snprintf(line, sizeof line, "%s, %s, seed %lld%s", limit, who, seed,
             set->egdb ? ", endgame database" : "");
    cli_wrap(stdout, line, 2);
}

/* The two players: weights files (loaded into w) or engine:COMMAND. Returns
 * the number of engines, or -1 / -2 (the exit status, negated) after an
 * error line. */
static int read_sides(const char *const names[2], Weights w[2], MatchSide sides[2])
{
    int engines = 0;
    for (int s = 0; s < 2; s++) {
        sides[s] = (MatchSide){names[s], NULL, NULL};
        if (strncmp(names[s], "engine:", 7) == 0) {
            if (!names[s][7]) return -cli_usage_error("match", "'%s' names no command", names[s]);
            sides[s].command = names[s] + 7;
            engines++;
        } else {
            if (!cli_weights(names[s], &w[s])) return -1;
            sides[s].weights = &w[s];
        }
    }
    return engines;
}

/* The tables: one for each game played at once (its in-process players
 * share it), and the engines' own when --hash is given; false after an
 * error line when they cannot fit in the machine's memory. */
static bool tables_fit(const MatchSettings *set, long long threads, int engines, bool hash_given)
{
    uint64_t mb = (uint64_t)set->hash_mb * (uint64_t)threads *
                  (uint64_t)((engines < 2 ? 1 : 0) + (hash_given ? engines : 0));
    uint64_t have = memlimit_bytes() >> 20;
    if (have && mb > have) {
        cli_error("--hash %zu with -j %lld needs %llu MB of tables, more than the %llu MB of memory here",
                  set->hash_mb, threads, (unsigned long long)mb, (unsigned long long)have);
        return false;
    }
    return true;
}

/* The openings of --openings (ballots, start or a PDN file) into *ops;
 * --games' default with the initial position. Returns what they are, or
 * NULL after an error line. */
static const char *load_openings(const char *openings, Opening **ops, int *nops, long long *games, bool sprt)
{
    char err[KM_ERR_MAX];
    if (strcmp(openings, "ballots") == 0) {
        if (opening_list_crossboard(ops, nops, err)) return cli_error_null("%s", err);
        return "crossboard ACF ballots";
    }
    if (strcmp(openings, "start") == 0) {
        *ops = malloc(sizeof **ops);
        if (!*ops) return cli_error_null("out of memory");
        opening_start(*ops);
        *nops = 1;
        if (*games < 0 && !sprt) *games = MATCH_START_GAMES;
        return "the initial position, random tie-breaks";
    }
    if (opening_list_from_pdn(openings, ops, nops, err)) return cli_error_null("%s", err);
    return openings;
}

/* The result lines: score, Elo, forfeits, clocks, the SPRT's decision. */
static void print_summary(Tally *pt, const char *const names[2], int played, int n, double secs, int engines,
                          bool sprt, double tc_inc)
{
    Tally t = *pt;
    EloStats e;
    elo_stats(t.w, t.d, t.l, &e);
    char elo[32], lo[32], hi[32];
    fmt_elo(e.elo, elo, sizeof elo);
    fmt_elo(e.elo_lo, lo, sizeof lo);
    fmt_elo(e.elo_hi, hi, sizeof hi);
    if (played < n && t.decision == SPRT_CONTINUE) printf("stopped: %d of %d games played\n", played, n);
    char line[4096];
    snprintf(line, sizeof line, "A (%s) vs B (%s): %d %s in %.1f s", names[0], names[1], played,
             cli_plural(played, "game", "games"), secs);
    cli_wrap(stdout, line, 2);
    printf("A: %d %s, %d %s, %d %s; score %.1f%% (%.1f/%d)\n", t.w, cli_plural(t.w, "win", "wins"), t.d,
           cli_plural(t.d, "draw", "draws"), t.l, cli_plural(t.l, "loss", "losses"), 100 * e.score,
           t.w + 0.5 * t.d, played);
    printf("Elo difference %s (95%%: %s .. %s), LOS %.1f%%\n", elo, lo, hi, 100 * e.los);
    if (engines || t.clock) print_forfeits(&t);
    if (t.clock && played && t.moves[0] && t.moves[1])
        printf("clock use: A %.3f s a move, B %.3f s (increment %g s); clock at the end of a game: A %.3f s, "
               "B %.3f s on average\n",
               t.used[0] / (double)t.moves[0], t.used[1] / (double)t.moves[1], tc_inc, t.end_left[0] / played,
               t.end_left[1] / played);
    if (t.clock && played) {
        if (isinf(t.closest)) printf("closest call: no move made on a clock\n");
        else
            printf("closest call: %.3f s left (game %d, %s, %s, move %d)\n", t.closest, t.closest_game,
                   t.closest_colour == KM_BLACK ? "Black" : "White",
                   names[(t.closest_game - 1) % 2 == (t.closest_colour == KM_BLACK ? 0 : 1) ? 0 : 1],
                   (t.closest_ply + 1) / 2);
    }
    if (sprt) {
        if (t.decision == SPRT_CONTINUE) t.llr = elo_sprt_llr(&t.test, t.w, t.d, t.l);
        const char *verdict = t.decision == SPRT_H1   ? "H1 accepted"
                              : t.decision == SPRT_H0 ? "H0 accepted"
                                                      : "inconclusive";
        printf("SPRT: %s, LLR %.2f (bounds %.2f .. %.2f)", verdict, t.llr, t.test.lower, t.test.upper);
        if (t.decision != SPRT_CONTINUE)
            printf(" after %d %s", t.decided_after, cli_plural(t.decided_after, "game", "games"));
        printf("\n");
    }
}

/* The coordinator's line after a match on workers. */
static void print_worker_stats(WorkerSet *ws)
{
    WorkerStats st;
    workers_stats(ws, &st);
    char line[512];
    snprintf(line, sizeof line,
             "\nworkers: %llu %s from %d %s, %llu %s; coordinator CPU %.2f s (%.3f ms a game); %.0f bytes a "
             "job, %.0f bytes a result",
             (unsigned long long)st.results, cli_plural((long long)st.results, "game", "games"),
             workers_count(ws), cli_plural(workers_count(ws), "worker", "workers"),
             (unsigned long long)st.failures, cli_plural((long long)st.failures, "failure", "failures"),
             st.cpu, st.results ? 1000 * st.cpu / (double)st.results : 0.0,
             st.jobs ? (double)st.bytes_out / (double)st.jobs : 0.0,
             st.results ? (double)st.bytes_in / (double)st.results : 0.0);
    cli_wrap(stdout, line, 2);
}

/* After the games: the summary, where the games and the picture went, and
 * the status (1: a file not written whole, 130: stopped by Ctrl-C). */
static int finish(Tally *t, const char *const names[2], int played, int n, double secs, int engines,
                  bool sprt, double tc_inc, const PdnOut *pdn, const char *path, bool saved)
{
    bool interrupted = played < n && t->decision == SPRT_CONTINUE;
    print_summary(t, names, played, n, secs, engines, sprt, tc_inc);
    if (pdn->games) {
        char line[4200];
        snprintf(line, sizeof line, "games written to %s", path);
        cli_wrap(stdout, line, 2);
    }
    if (t->svg) {
        char title[400];
        svg_title(t, title, sizeof title);
        write_svg(t, title);
        if (!t->svg_failed && !textio_is_stdout_name(t->svg)) {
            char line[4200];
            snprintf(line, sizeof line, "picture written to %s", t->svg);
            cli_wrap(stdout, line, 2);
        } else if (t->svg_failed) {
            saved = false;
        }
    }
    free(t->points);
    if (!saved) return 1;
    return interrupted ? 130 : 0;
}

/* --set-a and --set-b into par (the defaults else): 0, or the exit status
 * of a usage error (an engine takes its own parameters). */
static int side_params(const Opts *o, const MatchSide *sides, SearchParams par[2])
{
    for (int k = 0; k < 2; k++) {
        OptId opt = k ? OPT_SET_B : OPT_SET_A;
        search_params_default(&par[k]);
        if (!opt_count(o, opt)) continue;
        if (sides[k].command)
            return cli_usage_error("match", "%s is for a player searched here; an engine takes its own (%s)",
                                   opt_name(opt), "engine:\"./kingme engine --set NAME=VALUE\"");
        if (!cli_search_params(o, opt, &par[k])) return 1;
    }
    return 0;
}

/* Game g: opening g / 2, A Black in the even games and White in the odd. */
static void fill_specs(MatchGameSpec *specs, int n, const Weights w[2], const Opening *ops, int nops,
                       long long seed)
{
    for (int g = 0; g < n; g++) {
        int a_black = g % 2 == 0;
        specs[g] = (MatchGameSpec){a_black ? &w[0] : &w[1],
                                   a_black ? &w[1] : &w[0],
                                   &ops[(g / 2) % nops],
                                   referee_game_seed((uint64_t)seed, (uint64_t)g),
                                   {a_black ? 0 : 1, a_black ? 1 : 0}};
    }
}

/* What comes after the header, before the first game: the book, the SVG
 * (written at once, so that a path that cannot be written stops the match
 * before any game: false) and the SPRT's bounds. */
static bool announce(Tally *t, const MatchSettings *set, const Book *bk)
{
    if (bk) {
        printf("opening book %s for %s", book_path(bk),
               set->sides[0].command   ? "B"
               : set->sides[1].command ? "A"
                                       : "A and B");
        if (set->book_variety > 0) printf(", any move within %g men of its best", set->book_variety);
        printf("\n");
    }
    if (t->svg) {
        char title[400];
        svg_title(t, title, sizeof title);
        if ((t->points = calloc((size_t)t->total, 1))) write_svg(t, title);
        if (!t->points) cli_error("out of memory");
        if (!t->points || t->svg_failed) return false;
    }
    if (t->sprt) {
        elo_sprt_init(&t->test, t->sprt_elo[0], t->sprt_elo[1], 0.05, 0.05);
        printf("SPRT: H0 Elo %g, H1 Elo %g, alpha 0.05, beta 0.05, LLR bounds %.2f .. %.2f\n", t->sprt_elo[0],
               t->sprt_elo[1], t->test.lower, t->test.upper);
    }
    fflush(stdout);
    return true;
}

static int run(const Opts *o)
{
    const char *names[2] = {o->args[0], o->args[1]}, *openings = opt_str(o, OPT_OPENINGS);
    const char *pdn_out = opt_str(o, OPT_OUT);
    long long games = opt_given(o, OPT_GAMES) ? opt_int(o, OPT_GAMES) : -1;
    long long threads = cli_concurrency(o);
    long long seed = opt_int(o, OPT_SEED);
    MatchSettings set;
    referee_settings_default(&set);
    set.limits.depth = (int)opt_int(o, OPT_DEPTH);
    set.hash_mb = (size_t)opt_int(o, OPT_HASH);
    set.timeout = opt_real(o, OPT_TIMEOUT);
    int cap = (int)opt_int(o, OPT_MAX_PLIES);
    set.ply_cap = cap ? cap : MATCH_PLY_NONE; /* 0: no cap */
    bool hash_given = opt_given(o, OPT_HASH), sprt = opt_given(o, OPT_SPRT);
    double elo0 = 0, elo1 = 0;
    if (sprt) {
        int r = sprt_args(o, names, &elo0, &elo1);
        if (r) return r;
    } else if (o->nargs != 2) {
        return cli_usage_error(
            "match", "give two players (weights files or engine:COMMAND), not %d arguments", o->nargs);
    }
    if (games >= 0 && games % 2)
        return cli_usage_error("match", "--games %lld is odd: each opening is played with each colour",
                               games);
    int lr = read_limits(o, &set);
    if (lr) return lr;
    if (strcmp(openings, "ballots") && strcmp(openings, "start") && !strchr(openings, '.') &&
        !strchr(openings, '/'))
        return cli_usage_error("match", "--openings is ballots, start or a PDN file, not '%s'", openings);

    Weights w[2];
    MatchSide sides[2];
    int engines = read_sides(names, w, sides);
    if (engines < 0) return -engines;
    SearchParams par[2];
    int pr = side_params(o, sides, par);
    if (pr) return pr;
    set.sides = sides;
    set.nsides = 2;
    set.side_params = par;
    set.engine_hash = hash_given;
    set.share_table = true;
    /* with --workers and no -j, no game is played here */
    long long local = opt_given(o, OPT_WORKERS) && !opt_given(o, OPT_CONCURRENCY) ? 0 : threads;
    if (!tables_fit(&set, local, engines, hash_given)) return 1;

    char err[KM_ERR_MAX];
    Opening *ops = NULL;
    int nops = 0;
    const char *what = load_openings(openings, &ops, &nops, &games, sprt);
    if (!what) return 1;
    if (games < 0) games = sprt ? MATCH_SPRT_GAMES : 2LL * nops;
    int n = (int)games;

    /* the destination, checked before any game */
    char path[4096];
    if (pdn_out) snprintf(path, sizeof path, "%s", pdn_out);
    else cli_time_name(path, sizeof path, "games/match-%Y%m%d-%H%M%S.pdn");
    PdnOut pdn;
    if (!pdn_open(&pdn, path)) {
        free(ops);
        return 1;
    }
    /* from here every way out goes through done: */
    MatchGameSpec *specs = malloc((size_t)n * sizeof *specs);
    MatchOutcome *out = malloc((size_t)n * sizeof *out);
    Egdb *db = NULL;
    Book *bk = NULL;
    WorkerSet *ws = NULL;
    Tally t = {.tty = isatty(STDOUT_FILENO) != 0,
               .every = sprt      ? 20
                        : n >= 20 ? n / 10
                                  : 1,
               .clock = set.tc_base > 0,
               .closest = INFINITY,
               .names = names,
               .specs = specs,
               .pdn = &pdn,
               .sprt = sprt,
               .svg = opt_str(o, OPT_SVG),
               .total = n,
               .sprt_elo = {elo0, elo1}};
    bool ran = false;
    int r = 0, played = 0;
    double secs = 0;
    if (!specs || !out) {
        cli_error("out of memory");
        goto done;
    }
    fill_specs(specs, n, w, ops, nops, seed);

    /* the database beside the program by default (workers must hold the
     * same slices: one that does not stops the match with a line) */
    if (!cli_egdb_auto(o, &db)) goto done;
    set.egdb = db; /* both sides */
    /* the opening book of the in-process players (engines use their own);
     * workers are sent it, or use their own copy of the same bytes */
    bool inprocess = !sides[0].command || !sides[1].command;
    if (inprocess && !cli_book_auto(o, &bk)) goto done;
    set.book = bk;
    set.book_variety = opt_real(o, OPT_BOOK_VARIETY);
    if (!cli_workers(o, &ws, &threads)) goto done;

    char who[96];
    cli_threads_text(threads, ws, who, sizeof who);
    print_header(&set, names, n, nops, what, who, seed, sprt);
    if (!announce(&t, &set, bk)) goto done;

    cli_catch_sigint(true, "stopping: the games finished so far are kept");
    double t0 = km_now();
    r = match_run_workers(ws, &set, specs, n, (int)threads, false, out, on_game, &t, &cli_stop, err);
    if (r) cli_error("%s", err);
    secs = km_now() - t0;
    if (ws) print_worker_stats(ws);
    cli_catch_sigint(false, NULL);
    if (t.tty) printf("\n");
    played = t.w + t.d + t.l;
    match_outcomes_free(out, n);
    ran = true;

done:
    workers_free(ws);
    egdb_close(db);
    book_close(bk);
    free(out);
    free(specs);
    free(ops);
    bool saved = pdn_close(&pdn);
    if (!ran || r) {
        free(t.points);
        return 1;
    }

    return finish(&t, names, played, n, secs, engines, sprt, set.tc_inc, &pdn, path, saved);
}

static const Opt options[] = {
    {OPT_SVG, NULL, NULL, OPT_STR, "FILE", 0, 0, DESCRIBED("none"),
     "draw the match as an SVG picture, rewritten as the games come in: A's running score and the Elo "
     "difference with their 95% intervals (and the SPRT's log-likelihood ratio)"},
    {OPT_GAMES, NULL, NULL, OPT_INT, "N", 2, 1e7,
     DESCRIBED("every opening twice: 288 for the ballots and for start; 20000 at most with --sprt"),
     "an even number: N/2 openings, each once with each colour"},
    {OPT_DEPTH, NULL, NULL, OPT_INT, "D", 1, SEARCH_MAX_PLY - 2, "6", "search depth per move"},
    {OPT_TIME, NULL, NULL, OPT_REAL, "S", 0.001, 1e5, DESCRIBED("none"),
     "seconds per move instead of --depth (then the games depend on the machine's speed)"},
    {OPT_NODES, NULL, NULL, OPT_INT, "N", 1, 9e18, DESCRIBED("none"),
     "nodes searched per move instead of --depth: a budget that trades depth for pruning as a clock "
     "does, but does not depend on the machine's speed or load"},
    CLI_TC_OPT,
    {OPT_SPRT, NULL, NULL, OPT_REAL, "ELO0 ELO1", -1000, 1000, DESCRIBED("none"),
     "stop as soon as the sequential probability ratio test (alpha = beta = 0.05, trinomial GSPRT) "
     "accepts Elo ELO0 (H0) or ELO1 (H1) for A, judging the games in the order they end; --games is then "
     "the most games"},
    {OPT_OPENINGS, NULL, NULL, OPT_STR, "ballots|start|FILE.pdn", 0, 0, "ballots",
     "ballots: the 144 crossboard ACF three-move ballots in number order; start: the initial "
     "position with random tie-breaks; FILE.pdn: the start position and moves of each game"},
    WORKERS_OPTIONS,
    CLI_CONCURRENCY_OPT("games played at once; with --depth the result does not depend on it"),
    {OPT_OUT, NULL, NULL, OPT_STR, "FILE", 0, 0, DESCRIBED("games/match-YYYYMMDD-HHMMSS.pdn"),
     "where the games go, each as soon as it ends (checked before the first game)"},
    CLI_SEED_OPT("seed of the random tie-breaks"),
    CLI_MAX_PLIES_OPT,
    CLI_HASH_OPT("transposition table of each game in progress, shared by its in-process players and "
                 "cleared every game (0: none); when given, also sent to engines as option hash; refused "
                 "when the tables cannot fit in memory"),
    {OPT_TIMEOUT, NULL, NULL, OPT_REAL, "S", 0.01, 1e6, "60",
     "an engine with no bestmove after S seconds (with --time: S seconds past its time) has hung; "
     "under --tc: 1 s past its clock"},
    CLI_EGDB_OPTS,
    CLI_BOOK_OPTS,
    {OPT_BOOK_VARIETY, NULL, NULL, OPT_REAL, "MEN", 0, 100, "0",
     "the in-process players play a book move within MEN of the book's best, the better likelier, drawn by "
     "the game's seed (0: the best)"},
    CLI_SET_OPT(OPT_SET_A, "player A (searched here)"),
    CLI_SET_OPT(OPT_SET_B, "player B (searched here)"),
    OPTS_END,
};

const CliCommand cmd_match = {
    "match",
    run,
    "play a match between two weights files or engines, with Elo statistics and SPRT",
    &(const OptSpec){
        "A B",
        2,
        3,
        "A and B are weights files (searched in this process; 'default' is the built-in weights) or "
        "engine:COMMAND, a program speaking the kingme engine protocol (engine:\"./kingme engine\"), "
        "started with /bin/sh -c COMMAND. Plays the openings in order, each once with each colour (A is "
        "Black first), then prints A's wins, draws and losses, its score, the Elo difference with a 95% "
        "interval and the likelihood of superiority (LOS). kingme is the referee: a loss on time, an "
        "illegal move, a crash, a protocol error or a hang forfeits the game (PDN tag Termination) and "
        "the engine is restarted. Every game is played to its end by the rules unless --max-plies caps "
        "it.",
        options,
        "Ctrl-C stops; the games finished are counted and kept, and the exit status is 130.",
    },
};
