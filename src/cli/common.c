/* common.c - helpers several commands share. */
#include "cli.h"
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
            size_t n = 0;
            while (w + n < end && w[n] != ' ') n++;
            if (n == 0) break;
            if (col > indent && col + 1 + (int)n > CLI_WIDTH) {
                fprintf(f, "\n%*s", indent, "");
                col = indent;
            } else if (col > start) {
                fputc(' ', f);
                col++;
            }
            fwrite(w, 1, n, f);
            col += (int)n;
            p = w + n;
        }
        fputc('\n', f);
        line += len + (line[len] == '\n');
    }
}
