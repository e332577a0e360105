/* datapath.c - where kingme's data is (datapath.h). */
#define _XOPEN_SOURCE 700 /* realpath (XSI) */
#include "kingme/datapath.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef KINGME_DATADIR /* the Makefile gives PREFIX/share/kingme */
#define KINGME_DATADIR "/usr/local/share/kingme"
#endif

static const char *saved_argv0;

void datapath_set_argv0(const char *argv0) { saved_argv0 = argv0; }

const char *datapath_install_dir(void) { return KINGME_DATADIR; }

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether dir holds kingme's data (a checkout: weights/ or egdb/), so that
 * the folder of an installed program (bin/) is not named as a data folder. */
static bool holds_data(const char *dir)
{
    char sub[DATA_PATH_MAX + 16];
    return (snprintf(sub, sizeof sub, "%s/weights", dir) < (int)sizeof sub && is_dir(sub)) ||
           (snprintf(sub, sizeof sub, "%s/egdb", dir) < (int)sizeof sub && is_dir(sub));
}

/* Whether a and b are the same folder. */
static bool same_dir(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* realpath of path into out (len bytes). */
static bool resolve(const char *path, char *out, size_t len)
{
    char *r = realpath(path, NULL);
    if (!r) return false;
    bool ok = strlen(r) < len;
    if (ok) memcpy(out, r, strlen(r) + 1);
    free(r);
    return ok;
}

bool datapath_exe_from_argv0(const char *argv0, const char *path, char *out, size_t len)
{
    if (!argv0 || !*argv0) return false;
    if (strchr(argv0, '/')) return is_file(argv0) && resolve(argv0, out, len);
    /* a bare name: the shell found it in $PATH */
    char cand[DATA_PATH_MAX];
    for (const char *p = path ? path : ""; p;) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        /* an empty entry is the current folder */
        if (snprintf(cand, sizeof cand, "%.*s/%s", n ? (int)n : 1, n ? p : ".", argv0) < (int)sizeof cand &&
            is_file(cand) && access(cand, X_OK) == 0)
            return resolve(cand, out, len);
        p = colon ? colon + 1 : NULL;
    }
    return false;
}

bool datapath_exe(char *out, size_t len)
{
    /* Linux (and systems that emulate its /proc); elsewhere it fails at once */
    char exe[DATA_PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0 && (size_t)n < len) {
        exe[n] = '\0';
        memcpy(out, exe, (size_t)n + 1);
        return true;
    }
    return datapath_exe_from_argv0(saved_argv0, getenv("PATH"), out, len);
}

bool datapath_user_dir(char *out, size_t len)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    /* the XDG rule: a relative $XDG_DATA_HOME is ignored */
    if (xdg && xdg[0] == '/') return snprintf(out, len, "%s/kingme", xdg) < (int)len;
    if (home && *home) return snprintf(out, len, "%s/.local/share/kingme", home) < (int)len;
    return false;
}

int datapath_dirs(char dirs[DATA_DIRS_MAX][DATA_PATH_MAX], const char *why[DATA_DIRS_MAX])
{
    int n = 0;
    char buf[DATA_PATH_MAX];
    const char *env = getenv(DATA_ENV);
    if (env && *env && is_dir(env) && strlen(env) < DATA_PATH_MAX) {
        if (why) why[n] = DATA_ENV;
        snprintf(dirs[n++], DATA_PATH_MAX, "%s", env);
    }
    char *slash;
    if (datapath_exe(buf, sizeof buf) && (slash = strrchr(buf, '/')) != NULL) {
        *slash = '\0';
        if (!buf[0]) snprintf(buf, sizeof buf, "/");
        if (holds_data(buf)) {
            if (why) why[n] = "beside the program";
            snprintf(dirs[n++], DATA_PATH_MAX, "%s", buf);
        }
        /* PREFIX/bin/kingme beside PREFIX/share/kingme: an installed
         * kingme moved elsewhere (or run from a DESTDIR) finds its data */
        char share[DATA_PATH_MAX + 32];
        snprintf(share, sizeof share, "%s/../share/kingme", buf);
        if (is_dir(share) && resolve(share, buf, sizeof buf) && !same_dir(buf, KINGME_DATADIR)) {
            if (why) why[n] = "the program's ../share/kingme";
            snprintf(dirs[n++], DATA_PATH_MAX, "%s", buf);
        }
    }
    if (is_dir(KINGME_DATADIR)) {
        if (why) why[n] = "the install prefix";
        snprintf(dirs[n++], DATA_PATH_MAX, "%s", KINGME_DATADIR);
    }
    if (datapath_user_dir(buf, sizeof buf) && is_dir(buf)) {
        if (why) why[n] = "the user's data";
        snprintf(dirs[n++], DATA_PATH_MAX, "%s", buf);
    }
    return n;
}

bool datapath_find(const char *rel, bool dir, char *out, size_t len)
{
    char dirs[DATA_DIRS_MAX][DATA_PATH_MAX];
    char cand[DATA_PATH_MAX + 256];
    int n = datapath_dirs(dirs, NULL);
    for (int i = 0; i < n; i++) {
        int w = snprintf(cand, sizeof cand, "%s%s%s", dirs[i], strcmp(dirs[i], "/") ? "/" : "", rel);
        if (w < 0 || (size_t)w >= sizeof cand || (dir ? !is_dir(cand) : !is_file(cand))) continue;
        if ((size_t)w >= len) return false;
        memcpy(out, cand, (size_t)w + 1);
        return true;
    }
    return false;
}

bool datapath_weights(const char *name, char *out, size_t len)
{
    char rel[DATA_PATH_MAX];
    snprintf(out, len, "%s", name);
    if (!*name || is_file(name)) return is_file(name);
    if (name[0] == '/') return false;
    if (!strchr(name, '/')) {
        size_t n = strlen(name);
        bool has_w = n > 2 && strcmp(name + n - 2, ".w") == 0;
        if (!has_w && snprintf(rel, sizeof rel, "weights/%s.w", name) < (int)sizeof rel &&
            datapath_find(rel, false, out, len))
            return true;
        if (snprintf(rel, sizeof rel, "weights/%s", name) < (int)sizeof rel &&
            datapath_find(rel, false, out, len))
            return true;
    } else if (datapath_find(name, false, out, len)) return true;
    snprintf(out, len, "%s", name);
    return false;
}
