/* tune.c - kingme tune (alias: kingme find): the genetic algorithm's
 * sessions, with their files under --dir. */
#include "kingme/tune.h"
#include "cli.h"
#include "kingme/charts.h"
#include "kingme/textio.h"
#include "kingme/weights.h"
#include "kingme/workers.h"
#include "longrun.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
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
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '-' ||
              *s == '_' || *s == '.'))
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
    int cells; /* progress bar cells drawn (tty), -1: none */
} Ui;

#define BAR 30

static void fmt_hms(double s, char *buf, size_t len)
{
    if (!(s >= 0) || s > 1e8) {
        snprintf(buf, len, "?");
        return;
    }
    long t = (long)(s + 0.5);
    if (t >= 3600) snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

static void on_event(const TuneEvent *e, void *user)
{
    Ui *ui = user;
    if (e->kind == TUNE_EVENT_GAME) {
        if (!ui->tty || e->total <= 0) return;
        int cells = (int)((long long)e->done * BAR / e->total);
        if (cells == ui->cells && e->done != 1) return;
        ui->cells = cells;
        printf("\r  gen %d [%.*s%*s] %d/%d games", e->generation, cells, "##############################",
               BAR - cells, "", e->done, e->total);
        fflush(stdout);
        return;
    }
    const TuneGenStats *st = e->stats;
    const TuneSession *s = e->session;
    if (ui->tty) printf("\r\033[K");
    ui->cells = -1;
    /* one line of at most 80 columns a generation (the duel's games and the
     * mean of a round robin, always half the maximum, are in the log) */
    char prog[32], left[32];
    snprintf(prog, sizeof prog, "gen %d", st->generation);
    if (s->c.stop == TUNE_STOP_GENERATIONS) {
        snprintf(prog, sizeof prog, "gen %d/%.0f", st->generation, s->c.limit);
        fmt_hms((s->c.limit - s->generation) * (s->elapsed / s->generation), left, sizeof left);
    } else {
        fmt_hms(s->c.limit - s->elapsed, left, sizeof left);
    }
    char champ[48], mean[32] = "";
    if (!st->duel_played) snprintf(champ, sizeof champ, st->best_changed ? "first best" : "already the best");
    else
        snprintf(champ, sizeof champ, "%s (duel %d-%d)", st->best_changed ? "new best" : "best kept",
                 st->duel_points[0], st->duel_points[1]);
    if (s->c.duels) snprintf(mean, sizeof mean, "  mean %.1f", st->mean_score);
    printf("%s  best %d/%d%s  %s  %d %s  %.0f games/s  %s left\n", prog, st->best_score, st->max_score, mean,
           champ, st->games, cli_plural(st->games, "game", "games"),
           st->seconds > 0 ? st->games / st->seconds : 0.0, left);
    if (st->yard_played) {
        const TuneYardResult *y = &st->yard;
        char line[1024];
        size_t n = (size_t)snprintf(line, sizeof line, "  yardstick %.1f%% %+.0f Elo:", 100 * y->total_score,
                                    y->elo);
        for (int k = 0; k < y->nref && n < sizeof line; k++)
            n += (size_t)snprintf(line + n, sizeof line - n, "%s %s %.1f%% %+.0f", k ? "," : "",
                                  s->c.yard[k].name, 100 * y->score[k], y->ref_elo[k]);
        if (n < sizeof line) snprintf(line + n, sizeof line - n, " (%d games)", y->games);
        cli_wrap(stdout, line, 4);
    }
    fflush(stdout);
}

/* ---- the yardstick curve (the log's yard_ columns) ----------------------------------- */

typedef struct YardRow {
    int gen;
    double elapsed, score, elo;
} YardRow;

/* The comma-separated field `col` of line (0-based) as a number; false when empty or absent. */
static bool csv_field(const char *line, int col, double *v)
{
    const char *q = line;
    for (int k = 0; k < col; k++) {
        q = strchr(q, ',');
        if (!q) return false;
        q++;
    }
    char *end;
    *v = strtod(q, &end);
    return end != q && (*end == ',' || *end == '\n' || *end == '\r' || *end == '\0');
}

/* A session's log (DIR/population/NAME.csv), bounded as when tune trims
 * it; NULL with the message in err. */
static char *read_log(const char *csv, char *err)
{
    static const KmReadOpts opts = {.max_bytes = 64u << 20, .too_large = "too large for a tuning log"};
    return textio_read_text(csv, &opts, NULL, err);
}

/* The next line of *text into line (len bytes, cut if longer, with its
 * '\n'); false at the end. */
static bool next_line(const char **text, char *line, size_t len)
{
    if (!**text) return false;
    size_t n = strcspn(*text, "\n");
    size_t take = n + ((*text)[n] == '\n');
    snprintf(line, len, "%.*s", (int)take, *text);
    *text += take;
    return true;
}

/* The yardstick rows of a log; NULL when it has none. *names gets the
 * references' names from the header (malloc'd, "material, handset"). */
static YardRow *read_yard_rows(const char *csv, int *n, char **names)
{
    *n = 0;
    *names = NULL;
    char err[KM_ERR_MAX];
    char *text = read_log(csv, err);
    if (!text) return NULL;
    const char *at = text;
    char line[4096];
    int col = -1, cap = 0;
    YardRow *rows = NULL;
    while (next_line(&at, line, sizeof line)) {
        if (col < 0) {
            /* the header: find yard_score */
            char *h = strstr(line, ",yard_score,");
            if (!h) break;
            col = 0;
            for (char *q = line; q < h + 1; q++) col += *q == ',';
            KmBuf b = {0};
            for (char *q = strstr(line, ",score_"); q; q = strstr(q + 1, ",score_")) {
                size_t len = strcspn(q + 7, ",\r\n");
                textio_buf_printf(&b, "%s%.*s", b.len ? ", " : "", (int)len, q + 7);
            }
            *names = textio_buf_done(&b);
            continue;
        }
        YardRow r;
        double g;
        if (!csv_field(line, 0, &g) || !csv_field(line, 1, &r.elapsed) || !csv_field(line, col, &r.score) ||
            !csv_field(line, col + 1, &r.elo))
            continue;
        r.gen = (int)g;
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            YardRow *x = realloc(rows, (size_t)cap * sizeof *x);
            if (!x) break;
            rows = x;
        }
        rows[(*n)++] = r;
    }
    free(text);
    return rows;
}

/* The yardstick's Elo per measurement as bars from a zero line. */
static void print_yard_chart(const char *csv)
{
    int n;
    char *names;
    YardRow *rows = read_yard_rows(csv, &n, &names);
    if (n) {
        enum { MAXROWS = 30, HALF = 20 };
        double top = 200;
        for (int i = 0; i < n; i++)
            while (fabs(rows[i].elo) > top) top += 200;
        int per = (n + MAXROWS - 1) / MAXROWS;
        char head[1024];
        snprintf(head, sizeof head, "\nyardstick: the best so far against %s (Elo; half width %.0f)",
                 names ? names : "?", top);
        cli_wrap(stdout, head, 2);
        printf("  gen      time  score    Elo  %-*.0f0%*.0f\n", HALF, -top, HALF, top);
        for (int i = per - 1; i < n + per - 1; i += per) {
            const YardRow *r = &rows[i < n ? i : n - 1];
            char t[32];
            fmt_hms(r->elapsed, t, sizeof t);
            int len = (int)(fabs(r->elo) * HALF / top + 0.5);
            char bar[2 * HALF + 2];
            for (int k = 0; k < 2 * HALF + 1; k++) {
                bool on = r->elo < 0 ? k >= HALF - len && k < HALF : k > HALF && k <= HALF + len;
                bar[k] = k == HALF ? '|' : on ? '#' : ' ';
            }
            bar[2 * HALF + 1] = '\0';
            printf("%5d %9s %5.1f%% %+6.0f  %s\n", r->gen, t, r->score, r->elo, bar);
            if (i >= n - 1) break;
        }
    }
    free(rows);
    free(names);
}

/* Best and mean score per generation, from the log, as horizontal bars. */
static void print_chart(const char *csv)
{
    char err[KM_ERR_MAX];
    char *text = read_log(csv, err);
    if (!text) return;
    const char *at = text;
    enum { MAXROWS = 40, WIDTH = 40 };
    int cap = 0, n = 0, top = 1;
    struct Row {
        int gen, best, max;
        double mean;
    } *rows = NULL;
    char line[512];
    while (next_line(&at, line, sizeof line)) {
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
    free(text);
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

/* Which controls the command line gives: bit i for listed control i
 * (tune_controls.h), then these. */
enum { C_STOP = 1u << TUNE_NCONTROLS, C_SEED = C_STOP << 1, C_YARD = C_SEED << 1 };

/* The --yardstick files into c (none: "none"); false after an error line. */
static bool read_yardsticks(const Opts *o, TuneControls *c)
{
    static const char *const defaults[] = {"weights/material.w", "weights/handset.w"};
    int n = opt_count(o, OPT_YARDSTICK);
    bool given = n > 0;
    if (!given) n = 2;
    if (n > TUNE_MAX_YARDSTICKS) {
        cli_usage_error(o->name, "%d --yardstick files: at most %d", n, TUNE_MAX_YARDSTICKS);
        return false;
    }
    c->nyard = 0;
    for (int k = 0; k < n; k++) {
        const char *path = given ? opt_item(o, OPT_YARDSTICK, k) : defaults[k];
        if (strcmp(path, "none") == 0) {
            if (n > 1) {
                cli_usage_error(o->name, "--yardstick none goes alone");
                return false;
            }
            return true;
        }
        TuneYardstick *y = &c->yard[c->nyard];
        if (!cli_weights(path, &y->w)) return false; /* with or without a phase */
        if (y->w.net && !y->w.pat) {                 /* a network rides with a pattern layer */
            cli_usage_error(
                o->name, "--yardstick %s has a network but no pattern layer, which tune cannot keep", path);
            return false;
        }
        if (y->w.pat) { /* the population file names the layer's file */
            char err[KM_ERR_MAX];
            if (!tune_controls_layer_path_ok(path, err)) {
                cli_usage_error(o->name, "--yardstick %s", err);
                return false;
            }
            snprintf(y->pat_file, sizeof y->pat_file, "%s", path);
        }
        /* the name: the file name without its folder and .w, blanks and commas made '_' */
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        size_t len = strlen(base);
        if (ends_with(base, ".w") && len > 2) len -= 2;
        if (len > TUNE_YARD_NAME_MAX - 4) len = TUNE_YARD_NAME_MAX - 4;
        snprintf(y->name, TUNE_YARD_NAME_MAX, "%.*s", (int)len, base);
        for (char *q = y->name; *q; q++)
            if (*q == ' ' || *q == '\t' || *q == ',' || *q == '\r' || *q == '\n') *q = '_';
        for (int j = 0; j < c->nyard; j++) /* the same name twice: number it */
            if (strcmp(c->yard[j].name, y->name) == 0) {
                size_t l = strlen(y->name);
                snprintf(y->name + l, TUNE_YARD_NAME_MAX - l, "-%d", k + 1);
                break;
            }
        c->nyard++;
    }
    return true;
}

/* The option of each listed control (its name is the list's option: read_controls checks). */
#define TUNE_OPT_ID_algorithm OPT_ALGORITHM
#define TUNE_OPT_ID_population OPT_POPULATION
#define TUNE_OPT_ID_duels OPT_DUELS
#define TUNE_OPT_ID_ballots OPT_BALLOTS
#define TUNE_OPT_ID_depth OPT_DEPTH
#define TUNE_OPT_ID_elite OPT_ELITE
#define TUNE_OPT_ID_tournament OPT_TOURNAMENT
#define TUNE_OPT_ID_fresh OPT_FRESH
#define TUNE_OPT_ID_init OPT_INIT
#define TUNE_OPT_ID_symmetric OPT_SYMMETRIC
#define TUNE_OPT_ID_step OPT_STEP
#define TUNE_OPT_ID_rel_step OPT_REL_STEP
#define TUNE_OPT_ID_gauss OPT_GAUSS
#define TUNE_OPT_ID_selection OPT_SELECTION
#define TUNE_OPT_ID_mutation OPT_MUTATION
#define TUNE_OPT_ID_gladiator OPT_GLADIATOR
#define TUNE_OPT_ID_openings OPT_OPENINGS
#define TUNE_OPT_ID_yard_every OPT_YARDSTICK_EVERY
#define TUNE_OPT_ID_yard_games OPT_YARDSTICK_GAMES
static const OptId control_opt[TUNE_NCONTROLS] = {
#define TUNE_CONTROL_ID_(field, ...) TUNE_OPT_ID_##field,
    TUNE_CONTROL_LIST(TUNE_CONTROL_ID_)
#undef TUNE_CONTROL_ID_
};

static unsigned read_controls(const Opts *o, TuneControls *c)
{
    unsigned given = 0;
    for (int i = 0; i < TUNE_NCONTROLS; i++) {
        if (strcmp(opt_name(control_opt[i]), tune_controls_info[i].option) != 0) {
            fprintf(stderr, "kingme tune: internal error: control %s has option %s\n",
                    tune_controls_info[i].key, opt_name(control_opt[i]));
            abort();
        }
        if (opt_given(o, control_opt[i])) given |= 1u << i;
    }
    if (opt_given(o, OPT_SEED)) given |= C_SEED;
    if (opt_count(o, OPT_YARDSTICK)) given |= C_YARD;
    /* the algorithm's defaults, then what was given */
    if (opt_choice(o, OPT_ALGORITHM) == TUNE_ALG_THESIS) tune_controls_thesis(c);
    else tune_controls_default(c);
    for (int i = 0; i < TUNE_NCONTROLS; i++) {
        if (!(given & 1u << i)) continue;
        OptId id = control_opt[i];
        switch (tune_controls_info[i].kind) {
        case TUNE_KIND_INT:
            tune_controls_set(c, i, (double)opt_int(o, id));
            break;
        case TUNE_KIND_REAL:
            tune_controls_set(c, i, opt_real(o, id));
            break;
        case TUNE_KIND_CHOICE:
            tune_controls_set(c, i, opt_choice(o, id));
            break;
        }
    }
    c->seed = (uint64_t)opt_int(o, OPT_SEED);
    if (opt_given(o, OPT_GENERATIONS)) {
        c->stop = TUNE_STOP_GENERATIONS;
        c->limit = (double)opt_int(o, OPT_GENERATIONS);
        given |= C_STOP;
    } else if (opt_given(o, OPT_SECONDS)) {
        c->stop = TUNE_STOP_SECONDS;
        c->limit = opt_real(o, OPT_SECONDS);
        given |= C_STOP;
    }
    return given;
}

/* The combinations the options allow; 0, or the usage error's status. */
static int check_modes(const Opts *o, unsigned given)
{
    const char *cmd = o->name;
    bool resume = opt_given(o, OPT_RESUME), cont = opt_given(o, OPT_CONTINUE);
    int ninclude = opt_count(o, OPT_INCLUDE);
    const char *name = opt_str(o, OPT_NAME);
    if (opt_given(o, OPT_GENERATIONS) && opt_given(o, OPT_SECONDS))
        return cli_usage_error(cmd, "give one of --generations and --seconds");
    if (name && !valid_name(name))
        return cli_usage_error(cmd, "--name '%s': use letters, digits, '-', '_' and '.'", name);
    if (resume && cont) return cli_usage_error(cmd, "give --resume or --continue, not both");
    if (resume && (given & ~(unsigned)C_STOP))
        return cli_usage_error(cmd, "a resumed session keeps its controls (only --generations or --seconds "
                                    "may change); use --continue FILE to play on with other controls");
    if (resume && name) return cli_usage_error(cmd, "--resume takes the session's own name");
    if (ninclude && (resume || cont))
        return cli_usage_error(cmd, "--include seeds a new session's first population");
    if (!resume && !cont && !(given & C_STOP))
        return cli_usage_error(cmd, "give --generations G or --seconds S");
    return 0;
}

/* Where a session lives: its name, folder and files. */
typedef struct Where {
    char name[256], dir[4096], pop[4096], csv[4096], out[4096], from[4096];
} Where;

/* --resume: the saved session, with a new stop if one was given. Returns -1
 * when it is ready to run, else the exit status. */
static int open_resumed(const Opts *o, const TuneControls *c, unsigned given, TuneSession *s, Where *wh)
{
    char err[KM_ERR_MAX];
    if (!resolve_pop(opt_str(o, OPT_RESUME), opt_str(o, OPT_DIR), wh->pop, wh->name, wh->dir)) return 1;
    if (tune_read(s, wh->pop, err)) return cli_error("%s", err);
    if (given & C_STOP) {
        s->c.stop = c->stop;
        s->c.limit = c->limit;
    }
    if (tune_finished(s)) {
        printf("session %s is complete (%d generations, %.0f s); give --generations or --seconds to go "
               "further\n",
               wh->name, s->generation, s->elapsed);
        tune_free(s);
        return 0;
    }
    return -1;
}

/* --continue: a new session from a saved population; the controls not given
 * keep the saved values. Returns -1 when made, else the exit status. */
static int open_continued(const Opts *o, TuneControls *c, unsigned given, TuneSession *s, Where *wh)
{
    char err[KM_ERR_MAX], d1[256], d2[4096];
    TuneSession from;
    if (!resolve_pop(opt_str(o, OPT_CONTINUE), opt_str(o, OPT_DIR), wh->from, d1, d2)) return 1;
    if (tune_read(&from, wh->from, err)) return cli_error("%s", err);
    for (int i = 0; i < TUNE_NCONTROLS; i++)
        if (!(given & 1u << i)) tune_controls_set(c, i, tune_controls_get(&from.c, i));
    if (!(given & C_STOP)) c->stop = from.c.stop, c->limit = from.c.limit;
    c->nweights = from.c.nweights;
    c->norm = from.c.norm; /* and the pattern layer, fixed for good */
    c->pat = from.c.pat;
    c->net = from.c.net;
    memcpy(c->pat_file, from.c.pat_file, sizeof c->pat_file);
    if (!(given & C_YARD) && from.c.nyard) {
        c->nyard = from.c.nyard;
        memcpy(c->yard, from.c.yard, sizeof c->yard);
    }
    int r = tune_controls_check(c, err) ? -1 : tune_continue(s, &from, c, err);
    tune_free(&from);
    return r ? cli_usage_error(o->name, "%s", err) : -1;
}

/* A new session: random vectors, the --include files first. */
static int open_new(const Opts *o, const TuneControls *c, TuneSession *s)
{
    char err[KM_ERR_MAX];
    int ninclude = opt_count(o, OPT_INCLUDE);
    if (tune_controls_check(c, err)) return cli_usage_error(o->name, "%s", err);
    if (ninclude > c->population)
        return cli_usage_error(o->name, "%d --include files for a population of %d", ninclude, c->population);
    Weights *inc = malloc((size_t)(ninclude ? ninclude : 1) * sizeof *inc);
    if (!inc) return cli_error("out of memory");
    for (int k = 0; k < ninclude; k++) {
        const char *path = opt_item(o, OPT_INCLUDE, k);
        if (!cli_weights(path, &inc[k])) {
            free(inc);
            return 1;
        }
        if (inc[k].net && !inc[k].pat) { /* a network rides with a pattern layer */
            free(inc);
            return cli_usage_error(
                o->name, "--include %s has a network but no pattern layer, which tune cannot keep", path);
        }
    }
    /* the vector's length: 74 when an --include file gives one of the terms
     * 61-74 a weight, 148 (a phase) when one has end. weights */
    TuneControls cc = *c;
    for (int k = 0; k < ninclude; k++) {
        Weights named = inc[k];
        named.pat = NULL; /* a pattern layer alone breeds the 60 */
        if (weights_beyond_60(&named) && cc.nweights < EVAL_NTERMS) cc.nweights = EVAL_NTERMS;
    }
    for (int k = 0; k < ninclude; k++)
        if (inc[k].phased) cc.nweights = TUNE_NWEIGHTS_PHASE;
    /* in a session with a phase, a file without one plays as it would with
     * its ending equal to its opening: the same score at every number of pieces */
    for (int k = 0; k < ninclude && cc.nweights == TUNE_NWEIGHTS_PHASE; k++)
        if (!inc[k].phased) {
            memcpy(inc[k].end, inc[k].w, sizeof inc[k].end);
            inc[k].phased = 1;
        }
    /* a pattern layer: the first file with one gives it and the norm;
     * every other file with one must have the same; a file without one
     * joins with it */
    int layer = -1;
    for (int k = 0; k < ninclude; k++) {
        if (!inc[k].pat) continue;
        if (layer < 0) {
            layer = k;
        } else if (inc[k].pat != inc[layer].pat || inc[k].net != inc[layer].net) {
            free(inc);
            return cli_usage_error(o->name,
                                   "--include %s: its pattern layer is not the one of %s (a session breeds "
                                   "over one fixed layer)",
                                   opt_item(o, OPT_INCLUDE, k), opt_item(o, OPT_INCLUDE, layer));
        }
    }
    if (layer >= 0) {
        const char *path = opt_item(o, OPT_INCLUDE, layer);
        double sq = 0;
        for (int i = 0; i < cc.nweights; i++)
            sq += (double)eval_weights_at(&inc[layer], i) * eval_weights_at(&inc[layer], i);
        long norm = lround(sqrt(sq));
        if (!tune_controls_layer_path_ok(path, err) || norm < TUNE_NORM_MIN || norm > TUNE_NORM_MAX) {
            if (norm < TUNE_NORM_MIN || norm > TUNE_NORM_MAX)
                snprintf(err, sizeof err,
                         "%s: the norm of its %d named weights is %ld, outside %d..%d (the session "
                         "keeps its vectors at that norm, beside the pattern layer)",
                         path, cc.nweights, norm, TUNE_NORM_MIN, TUNE_NORM_MAX);
            free(inc);
            return cli_usage_error(o->name, "--include %s", err);
        }
        cc.pat = inc[layer].pat;
        cc.net = inc[layer].net;
        cc.norm = (int)norm;
        snprintf(cc.pat_file, sizeof cc.pat_file, "%s", path);
        for (int k = 0; k < ninclude; k++) tune_controls_carry_layer(&cc, &inc[k]);
        if (tune_controls_check(&cc, err)) {
            free(inc);
            return cli_usage_error(o->name, "%s", err);
        }
    }
    int r = tune_new(s, &cc, err);
    if (!r) /* the given vectors take the places of the first random ones */
        for (int k = 0; k < ninclude; k++) s->pop[k].w = inc[k];
    free(inc);
    return r ? cli_error("%s", err) : -1;
}

/* The new session's name and population file, which must not exist yet. */
static int name_new(const Opts *o, TuneSession *s, Where *wh)
{
    const char *name = opt_str(o, OPT_NAME);
    if (name) snprintf(wh->name, sizeof wh->name, "%s", name);
    else cli_time_name(wh->name, sizeof wh->name, "session-%Y%m%d-%H%M%S");
    snprintf(wh->dir, sizeof wh->dir, "%s", opt_str(o, OPT_DIR));
    if (!cli_path(wh->pop, sizeof wh->pop, "%s/population/%s.pop", wh->dir, wh->name)) {
        tune_free(s);
        return 1;
    }
    if (access(wh->pop, F_OK) == 0) {
        tune_free(s);
        return cli_error("%s exists: resume it with --resume %s, or give another --name", wh->pop, wh->name);
    }
    return -1;
}

/* The other files' paths and folders; false (and the session freed) on failure. */
static bool make_files(TuneSession *s, Where *wh)
{
    char pdir[4096], odir[4096];
    if (!cli_path(pdir, sizeof pdir, "%s/population", wh->dir) ||
        !cli_path(odir, sizeof odir, "%s/output", wh->dir) ||
        !cli_path(wh->csv, sizeof wh->csv, "%s/population/%s.csv", wh->dir, wh->name) ||
        !cli_path(wh->out, sizeof wh->out, "%s/output/%s.w", wh->dir, wh->name) || !cli_make_dirs(pdir) ||
        !cli_make_dirs(odir)) {
        tune_free(s);
        return false;
    }
    return true;
}

/* Where the weights come from, for the output file's header. */
static void make_header(const Opts *o, const Where *wh, const char *threads, char *header, size_t len)
{
    struct utsname un;
    const char *machine = uname(&un) == 0 ? un.machine : "unknown";
    char stamp[64];
    int ninclude = opt_count(o, OPT_INCLUDE);
    cli_time_name(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S");
    cli_path(header, (int)len,
             "made by kingme %s tune, session %s (population file %s), run started %s\n"
             "machine: %s, %d cores online; games played by %s\n%s",
             KINGME_VERSION, wh->name, wh->pop, stamp, machine, cli_default_threads(), threads,
             ninclude ? "first population: random vectors and the --include files:" : "");
    for (int k = 0; k < ninclude; k++) {
        size_t n = strlen(header);
        snprintf(header + n, len - n, " %s%s", opt_item(o, OPT_INCLUDE, k), k + 1 == ninclude ? "\n" : "");
    }
}

/* Play the session's generations and report; the exit status. */
static int play_session(const Opts *o, TuneSession *s, const Where *wh, long long threads)
{
    const char *cmd = o->name;
    char err[KM_ERR_MAX], header[8192], who[96];
    cli_threads_text(threads, s->workers, who, sizeof who);
    make_header(o, wh, who, header, sizeof header);
    char *desc = tune_describe(s);
    if (opt_given(o, OPT_RESUME))
        printf("kingme %s: resuming session %s at generation %d\n", cmd, wh->name, s->generation);
    else if (opt_given(o, OPT_CONTINUE))
        printf("kingme %s: session %s, continuing the population of %s\n", cmd, wh->name, wh->from);
    else printf("kingme %s: new session %s\n", cmd, wh->name);
    cli_wrap(stdout, desc ? desc : "", 2);
    free(desc);
    char paths[3 * 4096 + 160];
    snprintf(paths, sizeof paths, "%s; files %s %s %s", who, wh->pop, wh->csv, wh->out);
    cli_wrap(stdout, paths, 2);
    fflush(stdout);

    cli_catch_sigint(true, "stopping after saving");
    Ui ui = {isatty(STDOUT_FILENO) != 0, -1};
    TuneFiles files = {wh->pop, wh->csv, wh->out, header};
    int r = tune_run(s, &files, (int)threads, on_event, &ui, &cli_stop, err);
    cli_catch_sigint(false, NULL);
    if (ui.tty && ui.cells >= 0) printf("\r\033[K");
    if (r < 0) {
        tune_free(s);
        return cli_error("%s", err);
    }
    print_chart(wh->csv);
    print_yard_chart(wh->csv);
    char line[4096 + 256];
    if (r == 1) {
        snprintf(line, sizeof line, "\nstopped after generation %d; go on with: kingme %s --resume %s",
                 s->generation, cmd, wh->pop);
        cli_wrap(stdout, line, 2);
    } else
        printf("\nsession %s done: %d %s, %.1f s of play, %lld %s\n", wh->name, s->generation,
               cli_plural(s->generation, "generation", "generations"), s->elapsed, s->games,
               cli_plural(s->games, "game", "games"));
    if (s->has_best) {
        snprintf(line, sizeof line, "best so far (generation %d, score %d/%d) written to %s",
                 s->best_generation, s->best_score, tune_controls_max_score(&s->c), wh->out);
        cli_wrap(stdout, line, 2);
    }
    tune_free(s);
    return r == 1 ? 130 : 0;
}

/* --report --svg: the yardstick's curves from the log, one line per
 * reference, against time and games. Returns 0, or 1 after an error line. */
static int yard_svg(const char *csv, const char *name, const char *out)
{
    FILE *f = fopen(csv, "r");
    if (!f) return cli_error("%s: cannot open: %s", csv, strerror(errno));
    char line[8192];
    enum { MAXREF = 16 };
    int col_games = -1, col_yg = -1, col_ref[MAXREF], nref = 0, n = 0, cap = 0;
    char *names[MAXREF];
    double *secs = NULL, *games = NULL, *score[MAXREF] = {0};
    int yg = 0;
    double played = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        if (col_yg < 0) { /* the header */
            int c = 0;
            for (char *q = line; *q && *q != '\n' && *q != '\r'; c++) {
                size_t len = strcspn(q, ",\r\n");
                if (len == 5 && !strncmp(q, "games", 5)) col_games = c;
                else if (len == 10 && !strncmp(q, "yard_games", 10)) col_yg = c;
                else if (len > 6 && !strncmp(q, "score_", 6) && nref < MAXREF) {
                    col_ref[nref] = c;
                    names[nref] = strndup(q + 6, len - 6);
                    if (!names[nref]) ok = false;
                    nref++;
                }
                q += len;
                if (*q == ',') q++;
            }
            if (col_yg < 0 || col_games < 0 || !nref) break; /* no yardstick */
            continue;
        }
        double g, e, ng, sc[MAXREF];
        if (!csv_field(line, 1, &e) || !csv_field(line, col_games, &g)) continue;
        played += g; /* the log has each generation's games */
        if (!csv_field(line, col_yg, &ng)) continue;
        bool all = true;
        for (int k = 0; k < nref; k++) all = all && csv_field(line, col_ref[k], &sc[k]);
        if (!all) continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            double *a = realloc(secs, (size_t)cap * sizeof *a),
                   *b = a ? realloc(games, (size_t)cap * sizeof *b) : NULL;
            if (a) secs = a;
            if (b) games = b;
            for (int k = 0; k < nref && b; k++) {
                double *x = realloc(score[k], (size_t)cap * sizeof *x);
                if (!x) b = NULL;
                else score[k] = x;
            }
            if (!a || !b) {
                ok = false;
                break;
            }
        }
        secs[n] = e;
        games[n] = played;
        for (int k = 0; k < nref; k++) score[k][n] = sc[k] / 100;
        yg = (int)ng;
        n++;
    }
    fclose(f);
    int status = 0;
    if (!ok) {
        status = cli_error("out of memory");
    } else if (n == 0) {
        status = cli_error("%s: no yardstick measurement in the log: no picture", csv);
    } else {
        char title[400], err[KM_ERR_MAX];
        snprintf(title, sizeof title, "kingme tune: session %.200s, the yardstick", name);
        ChartYard y = {nref,
                       n,
                       (const char *const *)names,
                       secs,
                       games,
                       (const double *const *)score,
                       nref ? yg / nref : 0};
        KmBuf b = {0};
        chart_yardstick(&b, title, &y);
        size_t len = b.len;
        char *text = textio_buf_done(&b);
        if (!text) status = cli_error("out of memory");
        else if (textio_write_atomic(out, text, len, err)) status = cli_error("%s", err);
        else if (!textio_is_stdout_name(out)) printf("\npicture of the yardstick written to %s\n", out);
        free(text);
    }
    for (int k = 0; k < nref; k++) {
        free(names[k]);
        free(score[k]);
    }
    free(secs);
    free(games);
    return status;
}

/* --report: a session's controls, progress and curves from its files. */
static int report(const Opts *o, unsigned given)
{
    if (given || opt_given(o, OPT_RESUME) || opt_given(o, OPT_CONTINUE) || opt_count(o, OPT_INCLUDE) ||
        opt_given(o, OPT_NAME))
        return cli_usage_error(o->name, "--report takes only a session (and --dir)");
    char pop[4096], name[256], dir[4096], csv[4096], err[KM_ERR_MAX];
    if (!resolve_pop(opt_str(o, OPT_REPORT), opt_str(o, OPT_DIR), pop, name, dir)) return 1;
    TuneSession s;
    if (tune_read(&s, pop, err)) return cli_error("%s", err);
    size_t n = strlen(pop);
    snprintf(csv, sizeof csv, "%.*s.csv", (int)(n > 4 ? n - 4 : n), pop);
    char *d = tune_describe(&s);
    printf("session %s (%s)\n", name, pop);
    cli_wrap(stdout, d ? d : "", 2);
    free(d);
    if (!s.c.nyard) printf("no yardstick in this session (--yardstick none)\n");
    tune_free(&s);
    char *log = read_log(csv, err);
    if (!log) return cli_error("%s", err);
    free(log);
    print_chart(csv);
    print_yard_chart(csv);
    if (opt_given(o, OPT_SVG)) return yard_svg(csv, name, opt_str(o, OPT_SVG));
    return 0;
}

static int run(const Opts *o)
{
    TuneControls c;
    unsigned given = read_controls(o, &c);
    if (opt_given(o, OPT_REPORT)) return report(o, given);
    if (opt_given(o, OPT_SVG))
        return cli_usage_error(o->name, "--svg draws a session's yardstick: give it with --report");
    int r = check_modes(o, given);
    if (r) return r;
    if (!opt_given(o, OPT_RESUME) && !read_yardsticks(o, &c))
        return opt_count(o, OPT_YARDSTICK) > TUNE_MAX_YARDSTICKS ? 2 : 1;
    long long threads = cli_concurrency(o);
    Where *wh = calloc(1, sizeof *wh);
    if (!wh) return cli_error("out of memory");
    TuneSession s;
    if (opt_given(o, OPT_RESUME)) {
        r = open_resumed(o, &c, given, &s, wh);
    } else {
        r = opt_given(o, OPT_CONTINUE) ? open_continued(o, &c, given, &s, wh) : open_new(o, &c, &s);
        if (r < 0) r = name_new(o, &s, wh);
    }
    WorkerSet *ws = NULL;
    if (r < 0 && !cli_workers(o, &ws, &threads)) r = 1;
    if (r < 0) {
        s.workers = ws;
        r = make_files(&s, wh) ? play_session(o, &s, wh, threads) : 1;
    }
    workers_free(ws);
    free(wh);
    return r;
}

/* An option of a listed control: its default, or the two algorithms' when
 * they differ; "(learn)" or "(thesis)" before the help of a control only one
 * of them uses. */
#define TUNE_OPT_KIND_INT OPT_INT
#define TUNE_OPT_KIND_REAL OPT_REAL
#define TUNE_OPT_KIND_CHOICE OPT_CHOICE
#define TUNE_OPT_DEFAULT_INT(learn, thesis) \
    ((learn) == (thesis) ? #learn : DESCRIBED("learn " #learn ", thesis " #thesis))
#define TUNE_OPT_DEFAULT_REAL TUNE_OPT_DEFAULT_INT
#define TUNE_OPT_DEFAULT_CHOICE(learn, thesis) learn
#define TUNE_OPT_WHO_BOTH ""
#define TUNE_OPT_WHO_YARD ""
#define TUNE_OPT_WHO_LEARN "(learn) "
#define TUNE_OPT_WHO_THESIS "(thesis) "
#define TUNE_CONTROL_OPT_(field, kind, key, option, arg, lo, hi, multiple, learn, thesis, who, help) \
    {TUNE_OPT_ID_##field,                                                                            \
     NULL,                                                                                           \
     NULL,                                                                                           \
     TUNE_OPT_KIND_##kind,                                                                           \
     arg,                                                                                            \
     lo,                                                                                             \
     hi,                                                                                             \
     TUNE_OPT_DEFAULT_##kind(learn, thesis),                                                         \
     TUNE_OPT_WHO_##who help},

static const Opt options[] = {
    TUNE_CONTROL_LIST(TUNE_CONTROL_OPT_){OPT_GENERATIONS, NULL, NULL, OPT_INT, "G", 1, 1e9, DESCRIBED("none"),
                                         "stop after G generations (over all runs)"},
    {OPT_SECONDS, NULL, NULL, OPT_REAL, "S", 0.001, 1e9, DESCRIBED("none"),
     "or stop after S seconds of play (over all runs); a new session needs one of the two"},
    CLI_SEED_OPT("the session's random seed (give another for another session from other vectors)"),
    CLI_CONCURRENCY_OPT("games played at once; the result does not depend on it"),
    CLI_NO_EGDB_NEVER_OPT("tune"),
    WORKERS_OPTIONS,
    {OPT_NAME, NULL, NULL, OPT_STR, "NAME", 0, 0, DESCRIBED("session-YYYYMMDD-HHMMSS"), "the session's name"},
    {OPT_DIR, NULL, NULL, OPT_STR, "DIR", 0, 0, "weights",
     "where the files go: DIR/population/NAME.pop (the session, rewritten every generation), "
     "DIR/population/NAME.csv (one line per generation), DIR/output/NAME.w (the best vector so far)"},
    {OPT_RESUME, NULL, NULL, OPT_OPTSTR, "NAME|FILE", 0, 0, NULL,
     "go on with a session (the newest DIR/population/*.pop if none is given), with its own controls "
     "and a new stop if one is given"},
    {OPT_CONTINUE, NULL, NULL, OPT_STR, "NAME|FILE", 0, 0, DESCRIBED("none"),
     "a new session starting from a saved population; the controls not given keep the saved values"},
    {OPT_YARDSTICK, NULL, NULL, OPT_LIST, "FILE|none", 0, 0, NULL,
     "(repeatable) a reference that the best so far plays now and then (weights/material.w and "
     "weights/handset.w when none is given; none: no yardstick)"},
    {OPT_SVG, NULL, NULL, OPT_STR, "FILE", 0, 0, DESCRIBED("none"),
     "(with --report) draw the yardstick as an SVG picture: the best so far's Elo against each "
     "reference, with 95% intervals, against time and against games"},
    {OPT_REPORT, NULL, NULL, OPT_OPTSTR, "NAME|FILE", 0, 0, NULL,
     "print a finished or running session's curves (the newest session when none is given)"},
    {OPT_INCLUDE, NULL, NULL, OPT_LIST, "FILE", 0, 0, NULL,
     "(new sessions, repeatable) put this weights file in the first population in place of a random vector; "
     "one with the terms 61-74 makes the session breed 74 weights, one with end. weights 148 (a phase); one "
     "with a pattern layer (table lines) makes it breed the named weights over that fixed layer, at the norm "
     "of that file's named weights"},
    OPTS_END,
};

#define TUNE_SPEC                                                                                           \
    &(const OptSpec)                                                                                        \
    {                                                                                                       \
        NULL, 0, 0,                                                                                         \
            "Tunes the 60 weights by self-play: every generation each individual plays double duels (one "  \
            "game with each colour from the same opening, B openings per pairing) with every other one, "   \
            "or with K opponents it draws; the generation's best duels the best so far. learn (the "        \
            "default): the next generation is the elite, children of tournament winners by uniform "        \
            "crossover and self-adapting Gaussian steps, relative and absolute (vectors antisymmetric and " \
            "kept at one norm), and fresh heavy-tailed random vectors; "                                    \
            "the duel with the best so far is a sequential test. thesis (docs/tuning.md): roulette "        \
            "selection, one-point crossover and mutation make half the next generation, the best quarter "  \
            "of the parents and a quarter of fresh random vectors the rest.\n"                              \
            "A new session: --generations G or --seconds S, and the controls. Go on with one: --resume "    \
            "[NAME|FILE] (a new stop may be given). Start a new session from a saved population: "          \
            "--continue NAME|FILE [controls].",                                                             \
            options,                                                                                        \
            "Ctrl-C stops after saving the last finished generation (a second Ctrl-C quits at once); the "  \
            "exit status is then 130.",                                                                     \
    }

const CliCommand cmd_tune = {
    "tune",
    run,
    "tune the weights with the genetic algorithm (self-play)",
    TUNE_SPEC,
};

const CliCommand cmd_find = {
    "find",
    run,
    "the same as tune (the design documents' name)",
    TUNE_SPEC,
};
