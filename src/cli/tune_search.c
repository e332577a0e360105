/* tune_search.c - kingme tune-search: the genetic algorithm over the
 * search's parameters (tune_search.h), its files and its report. */
#include "kingme/tune_search.h"
#include "cli.h"
#include "kingme/elo.h"
#include "kingme/search_params.h"
#include "kingme/textio.h"
#include "kingme/weights.h"
#include "kingme/workers.h"
#include "longrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct Files {
    char name[256];
    char pop[4200], csv[4200], params[4200];
} Files;

/* NAME (DIR/population/NAME.spop ...) or a file FILE.spop (the others
 * beside it: FILE.csv, FILE.params) into the session's three paths. */
static void where(const char *dir, const char *name_or_file, Files *f)
{
    size_t n = strlen(name_or_file);
    bool file = n > 5 && strcmp(name_or_file + n - 5, ".spop") == 0;
    const char *slash = strrchr(name_or_file, '/');
    const char *base = slash ? slash + 1 : name_or_file;
    snprintf(f->name, sizeof f->name, "%.*s", (int)(strlen(base) - (file ? 5 : 0)), base);
    if (file) {
        int stem = (int)(n - 5);
        snprintf(f->pop, sizeof f->pop, "%s", name_or_file);
        snprintf(f->csv, sizeof f->csv, "%.*s.csv", stem, name_or_file);
        snprintf(f->params, sizeof f->params, "%.*s.params", stem, name_or_file);
        return;
    }
    snprintf(f->pop, sizeof f->pop, "%s/population/%s.spop", dir, f->name);
    snprintf(f->csv, sizeof f->csv, "%s/population/%s.csv", dir, f->name);
    snprintf(f->params, sizeof f->params, "%s/output/%s.params", dir, f->name);
}

static const char *budget_text(const TsControls *c, char *buf, size_t len)
{
    if (c->budget == TS_BUDGET_NODES) snprintf(buf, len, "%llu nodes a move", (unsigned long long)c->nodes);
    else if (c->budget == TS_BUDGET_TIME) snprintf(buf, len, "%g s a move", c->seconds);
    else snprintf(buf, len, "a clock of %g s + %g s a move", c->tc_base, c->tc_inc);
    return buf;
}

/* The controls from the options over *c (a new session, or the stop of a
 * resumed one); false after an error line. */
static bool read_controls(const Opts *o, TsControls *c, bool fresh)
{
    if (opt_given(o, OPT_GENERATIONS)) c->generations = (int)opt_int(o, OPT_GENERATIONS);
    if (!fresh) return true;
    c->population = (int)opt_int(o, OPT_POPULATION);
    c->elite = (int)opt_int(o, OPT_ELITE);
    c->games = (int)opt_int(o, OPT_GAMES);
    c->tournament = (int)opt_int(o, OPT_TOURNAMENT);
    c->sigma = opt_real(o, OPT_SIGMA);
    c->mutation = opt_real(o, OPT_MUTATION);
    c->seed = (uint64_t)opt_int(o, OPT_SEED);
    c->confirm = (int)opt_int(o, OPT_CONFIRM);
    c->confirm_elo = opt_real(o, OPT_CONFIRM_ELO);
    int budgets = opt_given(o, OPT_NODES) + opt_given(o, OPT_TIME) + opt_given(o, OPT_TC);
    if (budgets > 1) return cli_usage_false(o->name, "give one of --nodes, --time and --tc");
    c->budget = TS_BUDGET_NODES;
    c->nodes = (uint64_t)opt_int(o, OPT_NODES);
    if (opt_given(o, OPT_TIME)) c->budget = TS_BUDGET_TIME, c->seconds = opt_real(o, OPT_TIME);
    if (opt_given(o, OPT_TC)) {
        if (!cli_tc(o, &c->tc_base, &c->tc_inc)) return false;
        c->budget = TS_BUDGET_CLOCK;
    }
    ts_tuned_default(c->budget, c->tuned);
    const char *only = opt_str(o, OPT_ONLY);
    if (only) {
        memset(c->tuned, 0, sizeof c->tuned);
        char buf[2048];
        snprintf(buf, sizeof buf, "%s", only);
        for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
            int i = search_params_find(t);
            if (i < 0) return cli_usage_false(o->name, "--only: unknown search parameter '%.60s'", t);
            c->tuned[i] = true;
        }
    }
    char err[KM_ERR_MAX];
    if (ts_controls_check(c, err)) return cli_usage_false(o->name, "%s", err);
    return true;
}

static const char CSV_HEAD[] =
    "generation,elapsed_s,seconds,games,pop_score,leader_id,leader_w,leader_d,leader_l,"
    "leader_elo,leader_elo_lo,leader_elo_hi";

/* Keep the log's header and its lines of generations 1..gen (a run killed
 * between the log and the population file leaves one more); a new log
 * gets the header. */
static bool trim_log(const TsSession *s, const char *path)
{
    char err[KM_ERR_MAX];
    KmReadOpts ro = {.missing_ok = true};
    char *text = textio_read_text(path, &ro, NULL, err);
    if (!text) return cli_error_false("%s", err);
    KmBuf b = {0};
    bool head = false;
    for (char *ln = text; *ln;) {
        char *eol = strchr(ln, '\n');
        size_t n = eol ? (size_t)(eol - ln) : strlen(ln);
        if (!head) {
            head = true;
            textio_buf_add(&b, ln, n);
            textio_buf_str(&b, "\n");
        } else if (atoi(ln) >= 1 && atoi(ln) <= s->generation) {
            textio_buf_add(&b, ln, n);
            textio_buf_str(&b, "\n");
        }
        ln = eol ? eol + 1 : ln + n;
    }
    if (!head) {
        textio_buf_str(&b, CSV_HEAD);
        for (int i = 0; i < SEARCH_NPARAMS; i++)
            if (s->c.tuned[i]) textio_buf_printf(&b, ",%s", search_params_info[i].name);
        textio_buf_str(&b, "\n");
    }
    free(text);
    size_t len = b.len;
    char *out = textio_buf_done(&b);
    if (!out) return cli_error_false("out of memory");
    int r = textio_write_atomic(path, out, len, err);
    free(out);
    if (r) return cli_error_false("%s", err);
    return true;
}

static bool append_log(const TsSession *s, const TsGenStats *st, const char *path)
{
    const TsIndividual *x = &st->leader;
    EloStats e;
    elo_stats(x->w, x->d, x->l, &e);
    KmBuf b = {0};
    textio_buf_printf(&b, "%d,%.1f,%.1f,%d,%.4f,%d,%d,%d,%d,%.1f,%.1f,%.1f", st->generation, s->elapsed,
                      st->seconds, st->games, st->pop_score, x->id, x->w, x->d, x->l, e.elo, e.elo_lo,
                      e.elo_hi);
    for (int i = 0; i < SEARCH_NPARAMS; i++)
        if (s->c.tuned[i]) {
            char v[40];
            search_params_text(&x->p, i, v, sizeof v);
            textio_buf_printf(&b, ",%s", v);
        }
    textio_buf_str(&b, "\n");
    size_t len = b.len;
    char *t = textio_buf_done(&b);
    if (!t) return cli_error_false("out of memory");
    char err[KM_ERR_MAX];
    bool created;
    int fd = textio_open_append(path, &created, err);
    if (fd < 0) {
        free(t);
        return cli_error_false("%s", err);
    }
    int r = textio_write_fd(fd, t, len);
    close(fd);
    free(t);
    if (r) return cli_error_false("%s: cannot write", path);
    return true;
}

/* The parameters file: the confirmed leader's, or the defaults when the
 * test did not accept it. */
static bool write_params(const TsSession *s, const Files *f)
{
    char head[1024], b[80];
    const SearchParams *p = &search_params_defaults;
    EloStats e;
    elo_stats(s->cw, s->cd, s->cl, &e);
    if (s->confirmed_id >= 0 && s->accepted) {
        p = &s->confirmed;
        snprintf(head, sizeof head,
                 "kingme tune-search session %s, generation %d, %s\n"
                 "individual %d, confirmed against the defaults by the SPRT (0 against +%g Elo):\n"
                 "+%d =%d -%d, Elo %+.1f (%+.1f .. %+.1f)",
                 f->name, s->generation, budget_text(&s->c, b, sizeof b), s->confirmed_id, s->c.confirm_elo,
                 s->cw, s->cd, s->cl, e.elo, e.elo_lo, e.elo_hi);
    } else if (s->confirmed_id >= 0 && s->cw + s->cd + s->cl == 0) {
        snprintf(head, sizeof head,
                 "kingme tune-search session %s, generation %d, %s\n"
                 "the defaults: the leader (individual %d) is the defaults, nothing ranked above them",
                 f->name, s->generation, budget_text(&s->c, b, sizeof b), s->confirmed_id);
    } else if (s->confirmed_id >= 0) {
        snprintf(head, sizeof head,
                 "kingme tune-search session %s, generation %d, %s\n"
                 "the defaults: the leader (individual %d) was not confirmed against them\n"
                 "(+%d =%d -%d, Elo %+.1f (%+.1f .. %+.1f))",
                 f->name, s->generation, budget_text(&s->c, b, sizeof b), s->confirmed_id, s->cw, s->cd,
                 s->cl, e.elo, e.elo_lo, e.elo_hi);
    } else {
        snprintf(head, sizeof head,
                 "kingme tune-search session %s, generation %d: nothing confirmed yet, the defaults", f->name,
                 s->generation);
    }
    char err[KM_ERR_MAX];
    if (search_params_write(p, head, f->params, err)) return cli_error_false("%s", err);
    return true;
}

static void on_game(int done, int total, void *user)
{
    const bool *tty = user;
    if (*tty) {
        printf("\r  %d/%d games", done, total);
        fflush(stdout);
    }
}

static void print_leader(const TsIndividual *x)
{
    EloStats e;
    elo_stats(x->w, x->d, x->l, &e);
    printf("  leader: individual %d, +%d =%d -%d against the defaults, Elo %+.1f (%+.1f .. %+.1f)\n", x->id,
           x->w, x->d, x->l, e.elo, e.elo_lo, e.elo_hi);
    char line[4096];
    size_t at = (size_t)snprintf(line, sizeof line, "  differs:");
    int nd = 0;
    for (int i = 0; i < SEARCH_NPARAMS && at < sizeof line; i++) {
        char v[40], d[40];
        search_params_text(&x->p, i, v, sizeof v);
        search_params_text(&search_params_defaults, i, d, sizeof d);
        if (strcmp(v, d))
            at += (size_t)snprintf(line + at, sizeof line - at, " %s=%s", search_params_info[i].name, v),
                nd++;
    }
    if (!nd) snprintf(line + at, sizeof line - at, " nothing (the defaults)");
    cli_wrap(stdout, line, 4);
    printf("\n");
}

static int play_session(const Opts *o, TsSession *s, const Files *f)
{
    Weights w;
    if (!cli_weights(opt_str(o, OPT_WEIGHTS), &w)) return 1;
    long long local = cli_concurrency(o);
    WorkerSet *ws = NULL;
    if (!cli_workers(o, &ws, &local)) return 1;
    s->workers = ws;
    int threads = (int)local;
    char who[96];
    cli_threads_text(local, ws, who, sizeof who);
    bool tty = isatty(STDOUT_FILENO) != 0;
    char err[KM_ERR_MAX], b[80];
    printf("session %s: population %d, elite %d, %d games each a generation against the defaults, %s, %d of "
           "%d generations done; %s\n",
           f->name, s->c.population, s->c.elite, s->c.games, budget_text(&s->c, b, sizeof b), s->generation,
           s->c.generations, who);
    printf("files: %s, %s, %s\n", f->pop, f->csv, f->params);
    fflush(stdout);
    int rc = 0;
    if (ts_write(s, f->pop, err)) rc = cli_error("%s", err);
    else if (!trim_log(s, f->csv)) rc = 1;
    if (rc) {
        workers_free(ws);
        s->workers = NULL;
        return rc;
    }
    cli_catch_sigint(true, "stopping: the last finished generation is kept");
    while (!ts_finished(s)) {
        TsGenStats st;
        int r = ts_generation(s, &w, threads, on_game, &tty, &cli_stop, &st, err);
        if (tty) printf("\r");
        if (r < 0) {
            rc = cli_error("%s", err);
            break;
        }
        if (r == 1) {
            rc = 130;
            break;
        }
        if (ts_write(s, f->pop, err)) {
            rc = cli_error("%s", err);
            break;
        }
        if (!append_log(s, &st, f->csv)) {
            rc = 1;
            break;
        }
        printf("generation %d: %d games in %.1f s; the population scored %.1f%% against the defaults\n",
               st.generation, st.games, st.seconds, 100 * st.pop_score);
        print_leader(&st.leader);
        fflush(stdout);
    }
    const TsIndividual *lead = &s->pop[ts_leader(s)];
    if (rc == 0 && s->c.confirm > 0 && s->confirmed_id != lead->id && search_params_are_default(&lead->p)) {
        printf("the leader (individual %d) is the defaults: nothing to confirm\n", lead->id);
        s->confirmed_id = lead->id;
        s->confirmed = lead->p;
        s->cw = s->cd = s->cl = 0;
        s->accepted = false;
        if (ts_write(s, f->pop, err)) rc = cli_error("%s", err);
    }
    if (rc == 0 && s->c.confirm > 0 && s->confirmed_id != lead->id) {
        printf("confirming the leader (individual %d): up to %d games against the defaults, SPRT 0 against "
               "+%g Elo\n",
               s->pop[ts_leader(s)].id, s->c.confirm, s->c.confirm_elo);
        fflush(stdout);
        int r = ts_confirm(s, &w, threads, on_game, &tty, &cli_stop, err);
        if (tty) printf("\r");
        if (r < 0) rc = cli_error("%s", err);
        else if (r == 1) rc = 130;
        else {
            EloStats e;
            elo_stats(s->cw, s->cd, s->cl, &e);
            printf("confirmation: +%d =%d -%d, Elo %+.1f (%+.1f .. %+.1f): %s\n", s->cw, s->cd, s->cl, e.elo,
                   e.elo_lo, e.elo_hi,
                   s->accepted ? "accepted, its parameters are the best" : "not accepted, the defaults stay");
            if (ts_write(s, f->pop, err)) rc = cli_error("%s", err);
        }
    }
    cli_catch_sigint(false, NULL);
    workers_free(ws);
    s->workers = NULL;
    if (!write_params(s, f)) return 1;
    printf("parameters written to %s\n", f->params);
    return rc;
}

/* The curve and each tuned parameter's path, from the log. */
static int report(const Opts *o, const Files *f)
{
    (void)o;
    char err[KM_ERR_MAX];
    TsSession s;
    if (ts_read(&s, f->pop, err)) return cli_error("%s", err);
    char *text = textio_read_text(f->csv, NULL, NULL, err);
    if (!text) {
        ts_free(&s);
        return cli_error("%s", err);
    }
    char b[80];
    printf(
        "session %s: population %d, elite %d, %d games each a generation, %s; %d of %d generations, %.0f s "
        "of play\n",
        f->name, s.c.population, s.c.elite, s.c.games, budget_text(&s.c, b, sizeof b), s.generation,
        s.c.generations, s.elapsed);
    printf("%4s %8s %10s %10s %8s %22s\n", "gen", "time s", "pop score", "yardstick", "leader",
           "leader's Elo");
    /* the paths: the tuned columns of each line */
    enum { MAXG = 1000 };
    int ncols = 0, tuned[SEARCH_NPARAMS];
    for (int i = 0; i < SEARCH_NPARAMS; i++)
        if (s.c.tuned[i]) tuned[ncols++] = i;
    char **paths = calloc((size_t)ncols, sizeof *paths);
    KmBuf *pb = calloc((size_t)ncols, sizeof *pb);
    bool *moved = calloc((size_t)ncols, sizeof *moved);
    if (!paths || !pb || !moved) {
        free(paths), free(pb), free(moved), free(text);
        ts_free(&s);
        return cli_error("out of memory");
    }
    int line = 0;
    for (char *ln = text; *ln;) {
        char *eol = strchr(ln, '\n');
        if (eol) *eol = 0;
        if (line++ > 0 && *ln) {
            char *tok[64 + SEARCH_NPARAMS];
            int n = 0;
            for (char *t = ln; t && n < 64 + SEARCH_NPARAMS; n++) {
                tok[n] = t;
                t = strchr(t, ',');
                if (t) *t++ = 0;
            }
            if (n >= 12) {
                char rec[64];
                snprintf(rec, sizeof rec, "%+.0f (%+.0f .. %+.0f)", atof(tok[9]), atof(tok[10]),
                         atof(tok[11]));
                printf("%4s %8s %9.1f%% %9.1f%% %8s %22s\n", tok[0], tok[1], 100 * atof(tok[4]),
                       100 - 100 * atof(tok[4]), tok[5], rec);
                for (int k = 0; k < ncols && 12 + k < n; k++) {
                    textio_buf_printf(&pb[k], " %s", tok[12 + k]);
                    char d[40];
                    search_params_text(&search_params_defaults, tuned[k], d, sizeof d);
                    if (strcmp(d, tok[12 + k])) moved[k] = true;
                }
            }
        }
        ln = eol ? eol + 1 : ln + strlen(ln);
    }
    printf("the leader's parameters, generation by generation (those that left their default):\n");
    int shown = 0;
    for (int k = 0; k < ncols; k++) {
        char *p = textio_buf_done(&pb[k]);
        if (p && moved[k]) {
            char l[8192];
            snprintf(l, sizeof l, "  %-20s%s", search_params_info[tuned[k]].name, p);
            cli_wrap(stdout, l, 22);
            shown++;
        }
        free(p);
    }
    if (!shown) printf("  none\n");
    if (s.confirmed_id >= 0 && s.cw + s.cd + s.cl == 0) {
        printf("the leader (individual %d) is the defaults: nothing to confirm\n", s.confirmed_id);
    } else if (s.confirmed_id >= 0) {
        EloStats e;
        elo_stats(s.cw, s.cd, s.cl, &e);
        printf("confirmation of individual %d: +%d =%d -%d, Elo %+.1f (%+.1f .. %+.1f): %s\n", s.confirmed_id,
               s.cw, s.cd, s.cl, e.elo, e.elo_lo, e.elo_hi, s.accepted ? "accepted" : "not accepted");
    }
    free(paths), free(pb), free(moved), free(text);
    ts_free(&s);
    return 0;
}

static int run(const Opts *o)
{
    const char *dir = opt_str(o, OPT_DIR);
    Files f;
    if (opt_given(o, OPT_REPORT)) {
        const char *n = opt_str(o, OPT_REPORT);
        if (!n) return cli_usage_error(o->name, "--report NAME|FILE");
        where(dir, n, &f);
        return report(o, &f);
    }
    TsSession s;
    char err[KM_ERR_MAX];
    if (opt_given(o, OPT_RESUME)) {
        const char *n = opt_str(o, OPT_RESUME);
        if (!n) return cli_usage_error(o->name, "--resume NAME|FILE");
        where(dir, n, &f);
        if (ts_read(&s, f.pop, err)) return cli_error("%s", err);
        if (!read_controls(o, &s.c, false)) {
            ts_free(&s);
            return 2;
        }
    } else {
        TsControls c;
        ts_controls_default(&c);
        if (!read_controls(o, &c, true)) return 2;
        char name[256];
        if (opt_given(o, OPT_NAME)) snprintf(name, sizeof name, "%s", opt_str(o, OPT_NAME));
        else cli_time_name(name, sizeof name, "search-%Y%m%d-%H%M%S");
        if (strchr(name, '/') || !name[0])
            return cli_usage_error(o->name, "--name '%s': a name, not a path", name);
        where(dir, name, &f);
        if (access(f.pop, F_OK) == 0)
            return cli_usage_error(o->name, "%s exists: --resume %s goes on with it", f.pop, f.name);
        if (ts_new(&s, &c, err)) return cli_error("%s", err);
    }
    int rc = play_session(o, &s, &f);
    ts_free(&s);
    return rc;
}

static const Opt options[] = {
    {OPT_NODES, NULL, NULL, OPT_INT, "N", 1, 1099511627776.0, "20000",
     "the budget of every move: N nodes (the games do not depend on the machine or its load)"},
    {OPT_TIME, NULL, NULL, OPT_REAL, "S", 0.001, 1e5, DESCRIBED("none"), "or S seconds a move"},
    CLI_TC_OPT,
    {OPT_POPULATION, NULL, NULL, OPT_INT, "N", 4, TS_MAX_POPULATION, "12", "individuals"},
    {OPT_ELITE, NULL, NULL, OPT_INT, "E", 0, TS_MAX_POPULATION - 1, "4",
     "the best-ranked kept unchanged, and so played again"},
    {OPT_GAMES, NULL, NULL, OPT_INT, "G", 2, TS_MAX_GAMES, "8",
     "games of each individual against the defaults a generation (G/2 ballots, both colours)"},
    {OPT_TOURNAMENT, NULL, NULL, OPT_INT, "T", 1, TS_MAX_POPULATION, "2", "a parent is the best of T drawn"},
    {OPT_SIGMA, NULL, NULL, OPT_REAL, "F", 0.001, 4, "0.15",
     "a mutation moves a number by F x its default x N(0,1)"},
    {OPT_MUTATION, NULL, NULL, OPT_REAL, "P", 0, 1, "0.3",
     "chance of each tuned parameter of a child to mutate"},
    {OPT_GENERATIONS, NULL, NULL, OPT_INT, "G", 1, 1000000, "10", "stop after G generations (over all runs)"},
    {OPT_CONFIRM, NULL, NULL, OPT_INT, "N", 0, 100000, "400",
     "at the stop, the leader plays the defaults until the SPRT decides or N games are played; only an "
     "accepted leader is written as the best (0: no confirmation)"},
    {OPT_CONFIRM_ELO, NULL, NULL, OPT_REAL, "E", 0.1, 1000, "10", "the confirmation's H1: +E Elo (H0: 0)"},
    {OPT_ONLY, NULL, NULL, OPT_STR, "NAME,NAME,...", 0, 0,
     DESCRIBED("every parameter but the ProbCut margin's measurement; the time manager's only with --tc"),
     "the parameters to tune"},
    {OPT_WEIGHTS, NULL, NULL, OPT_STR, "FILE", 0, 0, "default", WEIGHTS_HELP},
    CLI_SEED_OPT("the session's random seed"),
    CLI_CONCURRENCY_OPT("games played at once; with --nodes the result does not depend on it"),
    CLI_NO_EGDB_NEVER_OPT("tune-search"),
    WORKERS_OPTIONS,
    {OPT_NAME, NULL, NULL, OPT_STR, "NAME", 0, 0, DESCRIBED("search-YYYYMMDD-HHMMSS"), "the session's name"},
    {OPT_DIR, NULL, NULL, OPT_STR, "DIR", 0, 0, "weights",
     "where the files go: DIR/population/NAME.spop (the session, rewritten every generation), "
     "DIR/population/NAME.csv (one line per generation), DIR/output/NAME.params (the confirmed best)"},
    {OPT_RESUME, NULL, NULL, OPT_STR, "NAME|FILE", 0, 0, DESCRIBED("none"),
     "go on with a session, with its own controls (and --generations G if given)"},
    {OPT_REPORT, NULL, NULL, OPT_STR, "NAME|FILE", 0, 0, DESCRIBED("none"),
     "print a session's curve and each parameter's path over the generations"},
    OPTS_END,
};

const CliCommand cmd_tune_search = {
    "tune-search",
    run,
    "tune the search's and the clock's parameters with a genetic algorithm (self-play)",
    &(const OptSpec){
        NULL,
        0,
        0,
        "Breeds the search's parameters (kingme show --search) by self-play against the defaults, at N "
        "nodes a move (--nodes: the games do not depend on the machine), S seconds a move (--time) or on a "
        "game clock (--tc: the only budget where the time manager's parameters act, and so are tuned). Every "
        "generation each individual plays G games against the defaults; it is ranked by the lower end of the "
        "95% interval of its Elo over every generation it played, so that a lucky short run ranks low until "
        "it survives more games. The elite is kept and played again; the others are children of tournament "
        "winners (uniform crossover, Gaussian mutations, switches flipped). At the stop the leader plays the "
        "defaults until an SPRT decides: only an accepted leader's parameters are written as the best "
        "(kingme search --set @FILE, kingme match --set-a @FILE).",
        options,
        "Ctrl-C stops after saving the last finished generation; the exit status is then 130.",
    },
};
