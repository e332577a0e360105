/* version.c - kingme version: what a bug report needs. The build's facts
 * come from build/.../gen/buildinfo.h, which the Makefile writes (and
 * -include's) from git and the compiler; built otherwise they say unknown. */
#include "cli.h"
#include "kingme/book.h"
#include "kingme/datapath.h"
#include "kingme/egdb.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef KINGME_COMMIT
#define KINGME_COMMIT "unknown"
#endif
#ifndef KINGME_BUILD_DATE
#define KINGME_BUILD_DATE "unknown"
#endif
#ifndef KINGME_BUILD_FLAGS
#define KINGME_BUILD_FLAGS ""
#endif

#if defined(__clang__)
#define COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define COMPILER "gcc " __VERSION__
#else
#define COMPILER "an unknown compiler"
#endif

static int by_name(const void *a, const void *b) { return strcmp(a, b); }

/* The named weights files of the data folders (weights/NAME.w), each name
 * once, the first folder's first, into out. */
static void named_weights(char dirs[DATA_DIRS_MAX][DATA_PATH_MAX], int ndirs, char *out, size_t len)
{
    static char names[128][64]; /* the names found so far: a later folder's same name is skipped */
    int n = 0;
    size_t at = (size_t)snprintf(out, len, "default (built in)");
    for (int i = 0; i < ndirs; i++) {
        char wdir[DATA_PATH_MAX + 16];
        if (snprintf(wdir, sizeof wdir, "%s/weights", dirs[i]) >= (int)sizeof wdir) continue;
        DIR *d = opendir(wdir);
        if (!d) continue;
        int first = n; /* this folder's, sorted: readdir's order is the file system's */
        for (struct dirent *e; (e = readdir(d)) != NULL && n < 128;) {
            size_t k = strlen(e->d_name);
            if (k < 3 || k >= 64 || strcmp(e->d_name + k - 2, ".w") != 0) continue;
            snprintf(names[n], sizeof names[n], "%.*s", (int)(k - 2), e->d_name);
            bool seen = strcmp(names[n], "default") == 0;
            for (int j = 0; j < n && !seen; j++) seen = strcmp(names[j], names[n]) == 0;
            if (!seen) n++;
        }
        closedir(d);
        qsort(names[first], (size_t)(n - first), sizeof names[0], by_name);
        for (int k = first; k < n && at < len; k++) {
            int w = snprintf(out + at, len - at, ", %s", names[k]);
            at = w > 0 ? at + (size_t)w : len;
        }
    }
}

void cli_version_report(FILE *f)
{
    char dirs[DATA_DIRS_MAX][DATA_PATH_MAX], path[DATA_PATH_MAX], err[KM_ERR_MAX];
    const char *why[DATA_DIRS_MAX];
    fprintf(f, "kingme %s\n", KINGME_VERSION);
    fprintf(f, "commit:   %s\n", KINGME_COMMIT);
    fprintf(f, "built:    %s with %s%s%s\n", KINGME_BUILD_DATE, COMPILER, KINGME_BUILD_FLAGS[0] ? ", " : "",
            KINGME_BUILD_FLAGS);
    fprintf(f, "program:  %s\n", datapath_exe(path, sizeof path) ? path : "unknown");
    int n = datapath_dirs(dirs, why);
    if (!n) fprintf(f, "data:     none found (looked in %s too)\n", datapath_install_dir());
    for (int i = 0; i < n; i++) fprintf(f, "%s%s (%s)\n", i ? "          " : "data:     ", dirs[i], why[i]);

    /* the book and the database the playing commands use by default */
    const char *env = getenv(BOOK_ENV);
    if (env && *env && strcmp(env, "none") == 0) fprintf(f, "book:     none (%s=none)\n", BOOK_ENV);
    else if ((env && *env && snprintf(path, sizeof path, "%s", env) > 0) ||
             datapath_find(BOOK_FILE, false, path, sizeof path)) {
        Book *bk = book_open(path, err);
        if (bk) fprintf(f, "book:     %s (%d positions)\n", path, book_count(bk));
        else fprintf(f, "book:     %s\n", err);
        book_close(bk);
    } else fprintf(f, "book:     none found\n");

    env = getenv(EGDB_ENV);
    if (env && *env && strcmp(env, "none") == 0) fprintf(f, "database: none (%s=none)\n", EGDB_ENV);
    else if ((env && *env && snprintf(path, sizeof path, "%s", env) > 0) ||
             datapath_find(EGDB_DEFAULT_DIR, true, path, sizeof path)) {
        Egdb *db = egdb_open(path, 1, err);
        if (db) fprintf(f, "database: %s (up to %d pieces)\n", path, egdb_pieces(db));
        else fprintf(f, "database: %s\n", err);
        egdb_close(db);
    } else {
        char user[DATA_PATH_MAX];
        fprintf(f, "database: none found (kingme egdb build --pieces 5 --dir %s/egdb)\n",
                datapath_user_dir(user, sizeof user) ? user : "DIR");
    }
    char names[4096];
    named_weights(dirs, n, names, sizeof names);
    fprintf(f, "weights:  %s\n", names);
}
