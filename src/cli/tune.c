/* tune.c - kingme tune (alias: kingme find): the genetic algorithm's
 * sessions, with their files under --dir. */
#include "cli.h"
#include "longrun.h"
#include "kingme/tune.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static bool valid_name(const char *s)
{
    if (!*s || strlen(s) > 200 || s[0] == '.') return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '-' || *s == '_' || *s == '.'))
            return false;
    return true;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* The newest .pop file in DIR/population, into path. */
static bool latest_pop(const char *dir, char *path, size_t len)
{
    char pdir[4096];
    snprintf(pdir, sizeof pdir, "%s/population", dir);
    DIR *d = opendir(pdir);
    if (!d) {
        cli_error("%s: no population folder: %s", pdir, strerror(errno));
        return false;
    }
    struct dirent *e;
    struct timespec best = {0, 0};
    bool found = false;
    while ((e = readdir(d))) {
        if (!ends_with(e->d_name, ".pop")) continue;
        char p[4096];
        struct stat st;
        if (snprintf(p, sizeof p, "%s/%s", pdir, e->d_name) >= (int)sizeof p || stat(p, &st)) continue;
        bool newer = !found || st.st_mtim.tv_sec > best.tv_sec ||
                     (st.st_mtim.tv_sec == best.tv_sec && st.st_mtim.tv_nsec > best.tv_nsec);
        if (newer) {
            best = st.st_mtim;
            snprintf(path, len, "%s", p);
            found = true;
        }
    }
    closedir(d);
    if (!found) cli_error("no population file (*.pop) in %s", pdir);
    return found;
}

/* A population file named by ARG: a path (with a '/' or ending in .pop) or a
 * session name under DIR/population. The session's name and folder follow
 * from the path (FOLDER/population/NAME.pop). */
static bool resolve_pop(const char *arg, const char *dir, char *path, char *name, char *sdir)
{
    if (!arg) {
        if (!latest_pop(dir, path, 4096)) return false;
    } else if (strchr(arg, '/') || ends_with(arg, ".pop")) {
        snprintf(path, 4096, "%s", arg);
    } else {
        snprintf(path, 4096, "%s/population/%s.pop", dir, arg);
    }
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (ends_with(base, ".pop")) n -= 4;
    snprintf(name, 256, "%.*s", (int)(n < 255 ? n : 255), base);
    /* FOLDER/population/NAME.pop -> FOLDER */
    snprintf(sdir, 4096, "%s", dir);
    if (base != path) {
        char parent[4096];
        snprintf(parent, sizeof parent, "%.*s", (int)(base - 1 - path), path);
        const char *pb = strrchr(parent, '/');
        const char *last = pb ? pb + 1 : parent;
        if (strcmp(last, "population") == 0) {
            if (pb) snprintf(sdir, 4096, "%.*s", (int)(pb - parent), parent);
            else snprintf(sdir, 4096, ".");
            if (!sdir[0]) snprintf(sdir, 4096, "/");
        }
    }
    return true;
}

/* ---- progress ---------------------------------------------------------------------- */

typedef struct Ui {
    bool tty;
    int cells;           /* progress bar cells drawn (tty), -1: none */
} Ui;

#define BAR 30

static void fmt_hms(double s, char *buf, size_t len)
{
    if (!(s >= 0) || s > 1e8) {
        snprintf(buf, len, "?");
        return;
    }
    long t = (long)(s + 0.5);
    snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

static void on_event(const TuneEvent *e, void *user)
{
    Ui *ui = user;
    if (e->kind == TUNE_EVENT_GAME) {
        if (!ui->tty || e->total <= 0) return;
        int cells = (int)((long long)e->done * BAR / e->total);
        if (cells == ui->cells && e->done != 1) return;
        ui->cells = cells;
        printf("\r  gen %d [%.*s%*s] %d/%d games", e->generation, cells,
               "##############################", BAR - cells, "", e->done, e->total);
        fflush(stdout);
        return;
    }
    const TuneGenStats *st = e->stats;
    const TuneSession *s = e->session;
    if (ui->tty) printf("\r\033[K");
    ui->cells = -1;
    char prog[64], left[32];
    if (s->c.stop == TUNE_STOP_GENERATIONS) {
        snprintf(prog, sizeof prog, "gen %d/%.0f", st->generation, s->c.limit);
        fmt_hms((s->c.limit - s->generation) * (s->elapsed / s->generation), left, sizeof left);
    } else {
        snprintf(prog, sizeof prog, "gen %d, %.0f/%.0f s", st->generation, s->elapsed, s->c.limit);
        fmt_hms(s->c.limit - s->elapsed, left, sizeof left);
    }
    char champ[48];
    if (!st->duel_played) snprintf(champ, sizeof champ, st->best_changed ? "first best" : "same as best so far");
    else snprintf(champ, sizeof champ, "%s (duel %d-%d)", st->best_changed ? "new best" : "best kept",
                  st->duel_points[0], st->duel_points[1]);
    printf("%s  best %d/%d  mean %.1f  %s  %d games  %.1f games/s  left %s\n", prog, st->best_score,
           st->max_score, st->mean_score, champ, st->games, st->seconds > 0 ? st->games / st->seconds : 0.0,
           left);
    fflush(stdout);
}

/* Best and mean score per generation, from the log, as horizontal bars. */
static void print_chart(const char *csv)
{
    FILE *f = fopen(csv, "r");
    if (!f) return;
    enum { MAXROWS = 40, WIDTH = 50 };
    int cap = 0, n = 0, top = 1;
    struct Row { int gen, best, max; double mean; } *rows = NULL;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        struct Row r;
        double el, secs, gps;
        int games;
        if (sscanf(line, "%d,%lf,%lf,%d,%lf,%d,%lf,%d", &r.gen, &el, &secs, &games, &gps, &r.best, &r.mean,
                   &r.max) != 8)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            struct Row *x = realloc(rows, (size_t)cap * sizeof *x);
            if (!x) break;
            rows = x;
        }
        rows[n++] = r;
        if (r.max > top) top = r.max;
    }
    fclose(f);
    if (n) {
        int per = (n + MAXROWS - 1) / MAXROWS;
        printf("\nscore per generation (= mean, # best; full width = %d points)\n", top);
        for (int i = 0; i < n; i += per) {
            int j = i + per < n ? i + per : n, best = 0;
            double mean = 0;
            for (int k = i; k < j; k++) {
                if (rows[k].best > best) best = rows[k].best;
                mean += rows[k].mean / (j - i);
            }
            int m = (int)(mean * WIDTH / top + 0.5), b = (int)((double)best * WIDTH / top + 0.5);
            if (b < m) b = m;
            char label[32];
            if (j - i > 1) snprintf(label, sizeof label, "%d-%d", rows[i].gen, rows[j - 1].gen);
            else snprintf(label, sizeof label, "%d", rows[i].gen);
            printf("gen %-9s best %4d mean %6.1f |", label, best, mean);
            for (int k = 0; k < WIDTH; k++) putchar(k < m ? '=' : k < b ? '#' : ' ');
            printf("|\n");
        }
    }
    free(rows);
}

/* ---- the command ---------------------------------------------------------------------- */

enum { C_POPULATION = 1, C_DUELS = 2, C_DEPTH = 4, C_SELECTION = 8, C_MUTATION = 16, C_STOP = 32,
       C_OPENINGS = 64, C_SEED = 128 };

static int run(int argc, char **argv)
{
    const char *cmd = argv[0];
    TuneControls c;
    tune_controls_default(&c);
    unsigned given = 0;
    long long threads = cli_default_threads();
    const char *name = NULL, *dir = "weights", *resume_arg = NULL, *continue_arg = NULL;
    bool resume = false;
    const char *include[TUNE_MAX_POPULATION];
    int ninclude = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        long long n;
        double x;
#define VALUE() do { if (!(v = cli_value(cmd, argc, argv, &i))) return 2; } while (0)
        if (strcmp(a, "--population") == 0) {
            VALUE();
            if (!cli_int(v, 1, 1000000, &n))
                return cli_usage_error(cmd, "--population '%s' is not a positive whole number", v);
            c.population = (int)n;
            given |= C_POPULATION;
        } else if (strcmp(a, "--duels") == 0) {
            VALUE();
            if (!cli_int(v, 0, 1000000, &n))
                return cli_usage_error(cmd, "--duels '%s' is not a whole number (0 = round robin)", v);
            c.duels = (int)n;
            given |= C_DUELS;
        } else if (strcmp(a, "--depth") == 0) {
            VALUE();
            if (!cli_int(v, 1, TUNE_MAX_DEPTH, &n))
                return cli_usage_error(cmd, "--depth '%s' is not a whole number from 1 to %d", v, TUNE_MAX_DEPTH);
            c.depth = (int)n;
            given |= C_DEPTH;
        } else if (strcmp(a, "--selection") == 0) {
            VALUE();
            if (!cli_double(v, 0, 1e9, &x)) return cli_usage_error(cmd, "--selection '%s' is not a number >= 0", v);
            c.selection = x;
            given |= C_SELECTION;
        } else if (strcmp(a, "--mutation") == 0) {
            VALUE();
            if (!cli_double(v, 0, 1, &x)) return cli_usage_error(cmd, "--mutation '%s' is not a chance from 0 to 1", v);
            c.mutation = x;
            given |= C_MUTATION;
        } else if (strcmp(a, "--generations") == 0 || strcmp(a, "--seconds") == 0) {
            VALUE();
            if (given & C_STOP) return cli_usage_error(cmd, "give one of --generations and --seconds");
            if (a[2] == 'g') {
                if (!cli_int(v, 1, 1000000000, &n))
                    return cli_usage_error(cmd, "--generations '%s' is not a positive whole number", v);
                c.stop = TUNE_STOP_GENERATIONS;
                c.limit = (double)n;
            } else {
                if (!cli_double(v, 0.001, 1e9, &x))
                    return cli_usage_error(cmd, "--seconds '%s' is not a number of seconds", v);
                c.stop = TUNE_STOP_SECONDS;
                c.limit = x;
            }
            given |= C_STOP;
        } else if (strcmp(a, "--openings") == 0) {
            VALUE();
            if (strcmp(v, "ballots") == 0) c.openings = TUNE_OPENINGS_BALLOTS;
            else if (strcmp(v, "start") == 0) c.openings = TUNE_OPENINGS_START;
            else return cli_usage_error(cmd, "--openings is 'ballots' or 'start', not '%s'", v);
            given |= C_OPENINGS;
        } else if (strcmp(a, "--seed") == 0) {
            VALUE();
            if (!cli_int(v, 0, INT64_MAX, &n)) return cli_usage_error(cmd, "--seed '%s' is not a whole number >= 0", v);
            c.seed = (uint64_t)n;
            given |= C_SEED;
        } else if (strcmp(a, "-j") == 0 || strcmp(a, "--threads") == 0) {
            VALUE();
            if (!cli_int(v, 1, 256, &threads)) return cli_usage_error(cmd, "%s '%s' is not a number of threads (1-256)", a, v);
        } else if (strcmp(a, "--name") == 0) {
            VALUE();
            if (!valid_name(v))
                return cli_usage_error(cmd, "--name '%s': use letters, digits, '-', '_' and '.'", v);
            name = v;
        } else if (strcmp(a, "--dir") == 0) {
            VALUE();
            dir = v;
        } else if (strcmp(a, "--resume") == 0) {
            resume = true;
            if (i + 1 < argc && argv[i + 1][0] != '-') resume_arg = argv[++i];
        } else if (strcmp(a, "--continue") == 0) {
            VALUE();
            continue_arg = v;
        } else if (strcmp(a, "--include") == 0) {
            VALUE();
            if (ninclude == TUNE_MAX_POPULATION) return cli_usage_error(cmd, "too many --include files");
            include[ninclude++] = v;
        } else {
            return cli_usage_error(cmd, "unknown argument '%s'", a);
        }
#undef VALUE
    }
    if (resume && continue_arg) return cli_usage_error(cmd, "give --resume or --continue, not both");
    if (resume && (given & ~(unsigned)C_STOP))
        return cli_usage_error(cmd, "a resumed session keeps its controls (only --generations or --seconds "
                               "may change); use --continue FILE to play on with other controls");
    if (resume && name) return cli_usage_error(cmd, "--resume takes the session's own name");
    if (ninclude && (resume || continue_arg))
        return cli_usage_error(cmd, "--include seeds a new session's first population");
    if (!resume && !continue_arg && !(given & C_STOP))
        return cli_usage_error(cmd, "give --generations G or --seconds S");

    char err[KM_ERR_MAX], pop_path[4096], sname[256], sdir[4096], from_path[4096] = "";
    TuneSession s;
    if (resume) {
        if (!resolve_pop(resume_arg, dir, pop_path, sname, sdir)) return 1;
        if (tune_read(&s, pop_path, err)) return cli_error("%s", err);
        if (given & C_STOP) {
            s.c.stop = c.stop;
            s.c.limit = c.limit;
        }
        if (tune_finished(&s)) {
            printf("session %s is complete (%d generations, %.0f s); give --generations or --seconds to go "
                   "further\n", sname, s.generation, s.elapsed);
            tune_free(&s);
            return 0;
        }
    } else {
        if (!(given & C_SEED)) c.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
        if (continue_arg) {
            char d1[256], d2[4096];
            TuneSession from;
            if (!resolve_pop(continue_arg, dir, from_path, d1, d2)) return 1;
            if (tune_read(&from, from_path, err)) return cli_error("%s", err);
            /* controls not given keep the saved values */
            if (!(given & C_POPULATION)) c.population = from.c.population;
            if (!(given & C_DUELS)) c.duels = from.c.duels;
            if (!(given & C_DEPTH)) c.depth = from.c.depth;
            if (!(given & C_SELECTION)) c.selection = from.c.selection;
            if (!(given & C_MUTATION)) c.mutation = from.c.mutation;
            if (!(given & C_STOP)) c.stop = from.c.stop, c.limit = from.c.limit;
            if (!(given & C_OPENINGS)) c.openings = from.c.openings;
            if (tune_controls_check(&c, err)) {
                tune_free(&from);
                return cli_usage_error(cmd, "%s", err);
            }
            int r = tune_continue(&s, &from, &c, err);
            tune_free(&from);
            if (r) return cli_usage_error(cmd, "%s", err);
        } else {
            if (tune_controls_check(&c, err)) return cli_usage_error(cmd, "%s", err);
            if (ninclude > c.population)
                return cli_usage_error(cmd, "%d --include files for a population of %d", ninclude, c.population);
            Weights inc[TUNE_MAX_POPULATION];
            for (int k = 0; k < ninclude; k++)
                if (!cli_weights(include[k], &inc[k])) return 1;
            if (tune_new(&s, &c, err)) return cli_error("%s", err);
            /* the given vectors take the places of the first random ones */
            for (int k = 0; k < ninclude; k++) s.pop[k].w = inc[k];
        }
        if (name) {
            snprintf(sname, sizeof sname, "%s", name);
        } else {
            cli_time_name(sname, sizeof sname, "session-%Y%m%d-%H%M%S");
        }
        snprintf(sdir, sizeof sdir, "%s", dir);
        if (!cli_path(pop_path, sizeof pop_path, "%s/population/%s.pop", sdir, sname)) {
            tune_free(&s);
            return 1;
        }
        if (access(pop_path, F_OK) == 0) {
            tune_free(&s);
            return cli_error("%s exists: resume it with --resume %s, or give another --name", pop_path, sname);
        }
    }

    char pdir[4096], odir[4096], csv_path[4096], w_path[4096];
    if (!cli_path(pdir, sizeof pdir, "%s/population", sdir) || !cli_path(odir, sizeof odir, "%s/output", sdir) ||
        !cli_path(csv_path, sizeof csv_path, "%s/population/%s.csv", sdir, sname) ||
        !cli_path(w_path, sizeof w_path, "%s/output/%s.w", sdir, sname) || !cli_make_dirs(pdir) ||
        !cli_make_dirs(odir)) {
        tune_free(&s);
        return 1;
    }

    /* where the weights come from, for the output file's header */
    struct utsname un;
    const char *machine = uname(&un) == 0 ? un.machine : "unknown";
    char stamp[64];
    cli_time_name(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S");
    char header[8192];
    cli_path(header, sizeof header,
             "made by kingme %s tune, session %s (population file %s), run started %s\n"
             "machine: %s, %d cores online; games played on %lld threads\n%s",
             KINGME_VERSION, sname, pop_path, stamp, machine, cli_default_threads(), threads,
             ninclude ? "first population: random vectors and the --include files:" : "");
    for (int k = 0; k < ninclude; k++) {
        size_t len = strlen(header);
        snprintf(header + len, sizeof header - len, " %s%s", include[k], k + 1 == ninclude ? "\n" : "");
    }

    char *desc = tune_describe(&s);
    if (resume) printf("kingme %s: resuming session %s at generation %d\n", cmd, sname, s.generation);
    else if (continue_arg) printf("kingme %s: session %s, continuing the population of %s\n", cmd, sname, from_path);
    else printf("kingme %s: new session %s\n", cmd, sname);
    printf("%s", desc ? desc : "");
    free(desc);
    printf("threads %lld; files %s, %s, %s\n", threads, pop_path, csv_path, w_path);
    fflush(stdout);

    cli_catch_sigint(true, "stopping after saving");

    Ui ui = {isatty(STDOUT_FILENO) != 0, -1};
    TuneFiles files = {pop_path, csv_path, w_path, header};
    int r = tune_run(&s, &files, (int)threads, on_event, &ui, &cli_stop, err);
    cli_catch_sigint(false, NULL);
    if (ui.tty && ui.cells >= 0) printf("\r\033[K");
    if (r < 0) {
        tune_free(&s);
        return cli_error("%s", err);
    }
    print_chart(csv_path);
    if (r == 1)
        printf("\nstopped after generation %d; go on with: kingme %s --resume %s\n", s.generation, cmd,
               pop_path);
    else
        printf("\nsession %s done: %d generations, %.1f s of play, %lld games\n", sname, s.generation, s.elapsed,
               s.games);
    if (s.has_best) printf("best so far (generation %d, score %d/%d) written to %s\n", s.best_generation,
                           s.best_score, tune_max_score(&s.c), w_path);
    tune_free(&s);
    return r == 1 ? 130 : 0;
}

#define TUNE_USAGE(NAME)                                                                             \
    "kingme " NAME " --population N --duels K --depth D --selection F --mutation P\n"                 \
    "            (--generations G | --seconds S) [--openings ballots|start] [--seed N]\n"            \
    "            [-j N] [--name NAME] [--dir DIR]\n"                                                 \
    "kingme " NAME " --resume [NAME|FILE] [--generations G | --seconds S] [-j N] [--dir DIR]\n"       \
    "kingme " NAME " --continue NAME|FILE [controls] [--name NAME] [-j N] [--dir DIR]\n"             \
    "  Tunes the 60 weights by self-play (shared/spec/tuning.md): every generation\n"               \
    "  each individual plays a double duel (one game with each colour from the\n"                   \
    "  same opening) with every other one, or with K opponents it draws; the\n"                      \
    "  generation's best duels the best so far; then roulette selection, one-point\n"               \
    "  crossover and mutation make half the next generation, the best quarter of\n"                 \
    "  the parents and a quarter of fresh random vectors the rest.\n"                               \
    "  --population N  individuals, a multiple of 4 (default 32)\n"                                  \
    "  --duels K       opponents per individual; 0 = round robin (default)\n"                        \
    "  --depth D       search depth of every game (default 4)\n"                                     \
    "  --selection F   roulette bonus drawn from [0, F] points (default 10; a win is 2)\n"          \
    "  --mutation P    chance that a child gets one random weight (default 0.1)\n"                   \
    "  --generations G, --seconds S   when to stop (seconds of play, over all runs)\n"             \
    "  --openings      ballots: a random crossboard ACF ballot per pairing (default);\n"            \
    "                  start: the initial position with random tie-breaks\n"                        \
    "  --seed N        the session's random seed (default: from the clock; printed)\n"             \
    "  -j N            threads (default: all cores); the result does not depend on it\n"          \
    "  --name NAME     session name (default session-YYYYMMDD-HHMMSS)\n"                            \
    "  --dir DIR       where the files go (default weights/):\n"                                    \
    "                  DIR/population/NAME.pop  the session, rewritten every generation\n"           \
    "                  DIR/population/NAME.csv  one line per generation\n"                           \
    "                  DIR/output/NAME.w        the best vector so far\n"                            \
    "  --resume        go on with a session (the newest DIR/population/*.pop if no\n"               \
    "                  name is given), with its own controls and a new stop if given\n"             \
    "  --continue      a new session starting from a saved population; controls\n"                  \
    "                  not given keep the saved values\n"                                            \
    "  --include FILE  (new sessions, repeatable) put this weights file in the first\n"             \
    "                  population in place of a random vector\n"                                    \
    "  Ctrl-C stops after saving the last finished generation (a second Ctrl-C quits\n"            \
    "  at once); the exit status is then 130."

const CliCommand cmd_tune = {
    "tune", run, "tune the weights with the genetic algorithm (self-play)", TUNE_USAGE("tune"),
};

const CliCommand cmd_find = {
    "find", run, "the same as tune (the design documents' name)", TUNE_USAGE("find"),
};
