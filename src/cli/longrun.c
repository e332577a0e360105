/* longrun.c - Ctrl-C handling, thread count and folders for tune and match. */
#include "longrun.h"
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

atomic_bool cli_stop;

static char stop_msg[160];
static size_t stop_len;
static struct sigaction old_action;

static void on_sigint(int sig)
{
    (void)sig;
    if (atomic_load(&cli_stop)) _exit(130); /* the second Ctrl-C: at once */
    atomic_store(&cli_stop, true);
    ssize_t w = write(STDERR_FILENO, stop_msg, stop_len);
    (void)w;
}

void cli_catch_sigint(bool on, const char *what)
{
    if (!on) {
        sigaction(SIGINT, &old_action, NULL);
        return;
    }
    snprintf(stop_msg, sizeof stop_msg, "\nkingme: %s (Ctrl-C again to quit at once)\n", what);
    stop_len = strlen(stop_msg);
    atomic_store(&cli_stop, false);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_action);
}

int cli_default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

bool cli_make_dirs(const char *path)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        cli_error("%s: path too long", path);
        return false;
    }
    for (char *p = buf + 1;; p++) {
        if (*p != '/' && *p != '\0') continue;
        char c = *p;
        *p = '\0';
        struct stat st;
        if (mkdir(buf, 0777) != 0 && !(errno == EEXIST && stat(buf, &st) == 0 && S_ISDIR(st.st_mode))) {
            cli_error("%s: cannot create the folder: %s", buf, strerror(errno == EEXIST ? ENOTDIR : errno));
            return false;
        }
        *p = c;
        if (!c) break;
    }
    return true;
}

void cli_dirname(const char *path, char *buf, int len)
{
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(buf, (size_t)len, ".");
    else if (slash == path) snprintf(buf, (size_t)len, "/");
    else snprintf(buf, (size_t)len, "%.*s", (int)(slash - path), path);
}

bool cli_path(char *buf, int len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, (size_t)len, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= len) {
        cli_error("path too long: %s...", buf);
        return false;
    }
    return true;
}
