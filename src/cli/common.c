/* common.c - helpers several commands share. */
#include "cli.h"
#include "longrun.h"
#include "kingme/weights.h"

#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

bool cli_weights(const char *path, Weights *w)
{
    if (!path || strcmp(path, "default") == 0) {
        weights_default(w);
        return true;
    }
    char err[KM_ERR_MAX];
    if (weights_read(w, path, NULL, err)) {
        cli_error("%s", err);
        return false;
    }
    return true;
}

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
    if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20 && ws.ws_col < CLI_WIDTH) return ws.ws_col;
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
    return opt_given(o, "--concurrency") ? opt_int(o, "--concurrency") : cli_default_threads();
}

bool cli_tc(const Opts *o, double *seconds, double *inc)
{
    const char *v = opt_str(o, "--tc");
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
