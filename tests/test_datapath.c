/* test_datapath.c - where kingme finds its data (datapath.h): the program's
 * own path from argv[0] as on systems without /proc (a path, or a name in
 * $PATH), the data folders in their order, and the named weights files.
 * The installed program itself: tests/install_test.sh (make test). */
#include "kingme/datapath.h"
#include "test.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* The checkout's ./kingme, absolute (the tests run from the checkout). */
static bool checkout_kingme(char *out, size_t len)
{
    char cwd[DATA_PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) return false;
    return snprintf(out, len, "%s/kingme", cwd) < (int)len && access(out, X_OK) == 0;
}

/* Without /proc (macOS, the BSDs) the program's path comes from argv[0]:
 * the same function runs there, tested here with argv[0] and $PATH given. */
TEST(datapath_exe_from_argv0_without_proc)
{
    char want[DATA_PATH_MAX], cwd[DATA_PATH_MAX], got[DATA_PATH_MAX], path[3 * DATA_PATH_MAX];
    if (!checkout_kingme(want, sizeof want)) {
        test_skip("./kingme is not built");
        return;
    }
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    /* a name, found in the second folder of $PATH (the first has no kingme) */
    snprintf(path, sizeof path, "/nonexistent-folder:%s:/usr/bin", cwd);
    CHECK(datapath_exe_from_argv0("kingme", path, got, sizeof got));
    CHECK_STR(got, want);
    /* an empty entry of $PATH is the current folder */
    CHECK(datapath_exe_from_argv0("kingme", "/nonexistent-folder::/usr/bin", got, sizeof got));
    CHECK_STR(got, want);
    /* a relative path with a '/', made absolute; .. resolved */
    CHECK(datapath_exe_from_argv0("./kingme", NULL, got, sizeof got));
    CHECK_STR(got, want);
    CHECK(datapath_exe_from_argv0("tests/../kingme", "", got, sizeof got));
    CHECK_STR(got, want);
    /* a symbolic link resolved to the program (its data is beside the real one) */
    char link[DATA_PATH_MAX + 32];
    snprintf(link, sizeof link, "build/datapath-link-%d", (int)getpid());
    unlink(link);
    CHECK(symlink(want, link) == 0);
    CHECK(datapath_exe_from_argv0(link, NULL, got, sizeof got));
    CHECK_STR(got, want);
    unlink(link);
    /* not there: false, never a guess */
    CHECK(!datapath_exe_from_argv0("kingme", "/nonexistent-folder", got, sizeof got));
    CHECK(!datapath_exe_from_argv0("no-such-program-xyz", path, got, sizeof got));
    CHECK(!datapath_exe_from_argv0("", path, got, sizeof got));
    CHECK(!datapath_exe_from_argv0(NULL, path, got, sizeof got));
    /* a folder of that name is not the program */
    CHECK(!datapath_exe_from_argv0("tests", cwd, got, sizeof got));
    /* the running program's own path: /proc/self/exe here */
    CHECK(datapath_exe(got, sizeof got) && got[0] == '/');
}

/* $KINGME_DATA first; a named weights file by its name, with or without
 * .w, and a checkout's path (weights/material.w) from another folder. */
TEST(datapath_named_weights)
{
    char cwd[DATA_PATH_MAX], got[DATA_PATH_MAX], want[DATA_PATH_MAX + 32];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    const char *old = getenv(DATA_ENV);
    char *saved = old ? strdup(old) : NULL;
    setenv(DATA_ENV, cwd, 1);
    char dirs[DATA_DIRS_MAX][DATA_PATH_MAX];
    const char *why[DATA_DIRS_MAX];
    int n = datapath_dirs(dirs, why);
    CHECK(n >= 1);
    CHECK_STR(dirs[0], cwd);
    CHECK_STR(why[0], DATA_ENV);
    snprintf(want, sizeof want, "%s/weights/material.w", cwd);
    CHECK(datapath_weights("material", got, sizeof got));
    CHECK_STR(got, want);
    CHECK(datapath_weights("material.w", got, sizeof got));
    CHECK_STR(got, want);
    /* a path that exists is itself */
    CHECK(datapath_weights("weights/material.w", got, sizeof got));
    CHECK_STR(got, "weights/material.w");
    /* the same path from another folder: found in the data folders */
    CHECK(chdir("/") == 0);
    CHECK(datapath_weights("weights/material.w", got, sizeof got));
    CHECK_STR(got, want);
    CHECK(datapath_find("weights/default.book", false, got, sizeof got));
    snprintf(want, sizeof want, "%s/weights/default.book", cwd);
    CHECK_STR(got, want);
    CHECK(!datapath_find("weights", false, got, sizeof got)); /* a folder is not a file */
    CHECK(datapath_find("weights", true, got, sizeof got));
    /* found nowhere: false, and the name itself to report */
    CHECK(!datapath_weights("no-such-weights", got, sizeof got));
    CHECK_STR(got, "no-such-weights");
    CHECK(!datapath_weights("/no/such/file.w", got, sizeof got));
    CHECK(chdir(cwd) == 0);
    if (saved) setenv(DATA_ENV, saved, 1);
    else unsetenv(DATA_ENV);
    free(saved);
    /* the user's folder: $XDG_DATA_HOME/kingme, a relative one ignored */
    const char *xdg = getenv("XDG_DATA_HOME");
    char *xsaved = xdg ? strdup(xdg) : NULL;
    setenv("XDG_DATA_HOME", "/some/where", 1);
    CHECK(datapath_user_dir(got, sizeof got));
    CHECK_STR(got, "/some/where/kingme");
    setenv("XDG_DATA_HOME", "relative", 1);
    if (getenv("HOME") && *getenv("HOME")) {
        CHECK(datapath_user_dir(got, sizeof got));
        snprintf(want, sizeof want, "%s/.local/share/kingme", getenv("HOME"));
        CHECK_STR(got, want);
    }
    if (xsaved) setenv("XDG_DATA_HOME", xsaved, 1);
    else unsetenv("XDG_DATA_HOME");
    free(xsaved);
}
