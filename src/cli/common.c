/* common.c - helpers several commands share. */
#include "cli.h"
#include "kingme/datapath.h"
#include "kingme/game.h"
#include "kingme/memlimit.h"
#include "kingme/notation.h"
#include "kingme/search_params.h"
#include "kingme/weights.h"
#include "kingme/workers.h"
#include "longrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

bool cli_weights_with_comments(const char *path, Weights *w, char **comments)
{
    char err[KM_ERR_MAX];
    if (comments) *comments = NULL;
    if (!path || strcmp(path, "default") == 0) {
        if (weights_default_with_comments(w, comments, err)) {
            cli_error("%s", err);
            return false;
        }
        return true;
    }
    /* a named weights file (material, handset, ...) or a path of the
     * checkout's (weights/material.w) from any folder: the data folders */
    char found[DATA_PATH_MAX];
    if (datapath_weights(path, found, sizeof found)) path = found;
    if (weights_read(w, path, comments, err)) {
        cli_error("%s", err);
        return false;
    }
    return true;
}

bool cli_weights(const char *path, Weights *w) { return cli_weights_with_comments(path, w, NULL); }

void cli_time_name(char *buf, size_t len, const char *fmt)
{
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    if (strftime(buf, len, fmt, &tm) == 0 && len) buf[0] = '\0';
}

const char *cli_plural(long long n, const char *one, const char *many) { return n == 1 ? one : many; }

int cli_term_width(int fd)
{
    struct winsize ws;
    if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20 && ws.ws_col < CLI_WIDTH)
        return ws.ws_col;
    return CLI_WIDTH;
}

void cli_wrap(FILE *f, const char *text, int indent)
{
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n");
        const char *p = line, *end = line + len;
        int col = 0;
        while (p < end && *p == ' ') { /* the line's own indent is kept */
            fputc(' ', f);
            p++, col++;
        }
        int start = col;
        while (p < end) {
            const char *w = p;
            while (w < end && *w == ' ') w++;
            int gap = (int)(w - p); /* the spaces between two words are kept */
            size_t n = 0;
            while (w + n < end && w[n] != ' ') n++;
            if (n == 0) break;
            if (col > indent && col + gap + (int)n > CLI_WIDTH) {
                fprintf(f, "\n%*s", indent, "");
                col = indent;
            } else if (col > start) {
                fprintf(f, "%*s", gap, "");
                col += gap;
            }
            fwrite(w, 1, n, f);
            col += (int)n;
            p = w + n;
        }
        fputc('\n', f);
        line += len + (line[len] == '\n');
    }
}

long long cli_concurrency(const Opts *o)
{
    return opt_given(o, OPT_CONCURRENCY) ? opt_int(o, OPT_CONCURRENCY) : cli_default_threads();
}

bool cli_tc(const Opts *o, double *seconds, double *inc)
{
    const char *v = opt_str(o, OPT_TC);
    char buf[64];
    *seconds = *inc = 0;
    double m;
    bool ok = snprintf(buf, sizeof buf, "%s", v) < (int)sizeof buf;
    char *plus = ok ? strchr(buf, '+') : NULL;
    if (plus) {
        *plus = '\0';
        ok = cli_double(plus + 1, 0, 600, inc);
    }
    ok = ok && cli_double(buf, 1e-4, 600, &m);
    if (!ok) {
        cli_usage_error(o->name, "--tc '%s' is not MINUTES+SECONDS (5+2: 5 minutes each, 2 s a move)", v);
        return false;
    }
    *seconds = m * 60;
    return true;
}

static void on_worker_event(int worker, WorkerEventKind kind, const char *why, void *user)
{
    const WorkerSet *ws = user;
    (void)ws;
    if (kind == WORKER_FAILED)
        cli_error("worker %d %s; its games go to the others, and it is started again later", worker + 1,
                  why ? why : "failed");
    else if (kind == WORKER_DROPPED)
        cli_error("worker %d %s, too often: it is not started again", worker + 1, why ? why : "failed");
}

bool cli_workers(const Opts *o, WorkerSet **ws, long long *threads)
{
    *ws = NULL;
    if (!opt_given(o, OPT_WORKERS)) return true;
    char err[KM_ERR_MAX];
    *ws = workers_from_file(opt_str(o, OPT_WORKERS), err);
    if (!*ws) {
        cli_error("%s", err);
        return false;
    }
    workers_set_timeout(*ws, opt_real(o, OPT_WORKER_TIMEOUT));
    workers_set_events(*ws, on_worker_event, *ws);
    if (!opt_given(o, OPT_CONCURRENCY)) *threads = 0;
    return true;
}

bool cli_tables_fit(long long hash_mb, long long tables)
{
    uint64_t mb = (uint64_t)hash_mb * (uint64_t)(tables > 0 ? tables : 0);
    uint64_t have = memlimit_bytes() >> 20;
    if (have && mb > have) {
        cli_error("--hash %lld with -j %lld needs %llu MB of tables, more than the %llu MB of memory here",
                  hash_mb, tables, (unsigned long long)mb, (unsigned long long)have);
        return false;
    }
    return true;
}

void cli_threads_text(long long threads, const WorkerSet *ws, char *buf, size_t len)
{
    int nw = ws ? workers_count(ws) : 0;
    if (!nw) snprintf(buf, len, "%lld thread%s", threads, threads == 1 ? "" : "s");
    else if (!threads) snprintf(buf, len, "%d worker%s (no local thread)", nw, nw == 1 ? "" : "s");
    else
        snprintf(buf, len, "%d worker%s and %lld local thread%s", nw, nw == 1 ? "" : "s", threads,
                 threads == 1 ? "" : "s");
}

bool cli_play_moves(Game *g, const char *text)
{
    char tok[MOVE_TEXT_MAX + 16], err[KM_ERR_MAX];
    for (const char *p = text;;) {
        while (*p == ' ' || *p == '\t' || *p == ',') p++;
        if (!*p) return true;
        size_t n = strcspn(p, " \t,");
        snprintf(tok, sizeof tok, "%.*s", (int)n, p);
        Move m;
        if (n >= sizeof tok - 1 || notation_parse_move_input(&g->cur, tok, &m, err)) {
            cli_error("move %d '%.*s': %s", g->nply + 1, (int)(n > 24 ? 24 : n), p,
                      n >= sizeof tok - 1 ? "not a move" : err);
            return false;
        }
        if (game_play(g, &m)) {
            cli_error("out of memory");
            return false;
        }
        p += n;
    }
}

bool cli_board(const char *fen, Board *b)
{
    if (!fen) {
        board_init(b);
        return true;
    }
    char err[KM_ERR_MAX];
    if (board_from_fen(b, fen, err)) {
        cli_error("%s", err);
        return false;
    }
    return true;
}

bool cli_color_ok(int fd)
{
    const char *nc = getenv("NO_COLOR");
    if (nc && *nc) return false;
    const char *term = getenv("TERM");
    if (term && strcmp(term, "dumb") == 0) return false;
    return isatty(fd);
}

/* The command line, for cli_command_text. */
static int saved_argc;
static char **saved_argv;

void cli_set_command_line(int argc, char **argv)
{
    saved_argc = argc;
    saved_argv = argv;
}

/* Whether a word needs quotes in a shell command. */
static bool needs_quotes(const char *w)
{
    if (!*w) return true;
    for (const char *p = w; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,/:=+@%", *p))
            return true;
    return false;
}

void cli_command_text(char *buf, size_t len)
{
    size_t at = (size_t)snprintf(buf, len, "kingme");
    for (int i = 1; i < saved_argc && at < len; i++) {
        const char *w = saved_argv[i];
        if (!needs_quotes(w)) {
            at += (size_t)snprintf(buf + at, len - at, " %s", w);
            continue;
        }
        at += (size_t)snprintf(buf + at, len - at, " '");
        for (const char *p = w; *p && at < len; p++)
            at += (size_t)(*p == '\'' ? snprintf(buf + at, len - at, "'\\''")
                                      : snprintf(buf + at, len - at, "%c", *p));
        if (at < len) at += (size_t)snprintf(buf + at, len - at, "'");
    }
}

bool cli_search_params(const Opts *o, OptId id, SearchParams *p)
{
    char err[KM_ERR_MAX];
    for (int k = 0; k < opt_count(o, id); k++) {
        const char *v = opt_item(o, id, k);
        if (v[0] == '@') {
            SearchParams f;
            if (search_params_read(&f, v + 1, err)) return cli_error_false("%s", err);
            /* a file sets every parameter it names; the others keep what
             * the earlier values gave them */
            SearchParams def;
            search_params_default(&def);
            for (int i = 0; i < SEARCH_NPARAMS; i++)
                if (search_params_get(&f, i) != search_params_get(&def, i))
                    search_params_set(p, i, search_params_get(&f, i));
            continue;
        }
        if (search_params_assign(p, v, err)) return cli_error_false("%s: %s", opt_name(id), err);
    }
    return true;
}

void cli_print_search_params(const SearchParams *p, bool measured)
{
    printf("%-22s %8s %8s  %s\n", "parameter", "value", "default", "range: what it does");
    for (int i = 0; i < SEARCH_NPARAMS; i++) {
        const SearchParamInfo *in = &search_params_info[i];
        char v[32], d[32], lo[32], hi[32], line[1024];
        search_params_text(p, i, v, sizeof v);
        search_params_value_text(i, in->def, d, sizeof d);
        search_params_value_text(i, in->lo, lo, sizeof lo);
        search_params_value_text(i, in->hi, hi, sizeof hi);
        printf("%-22s %7s%s %8s  %s..%s\n", in->name, v, strcmp(v, d) ? "*" : " ", d, lo, hi);
        bool none = strcmp(in->measured, "not measured") == 0;
        snprintf(line, sizeof line, "    %s%s%s", in->help,
                 !measured ? ""
                 : none    ? "; not measured"
                           : "; measured: ",
                 measured && !none ? in->measured : "");
        cli_wrap(stdout, line, 4);
    }
}
