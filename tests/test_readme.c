/* test_readme.c - the examples of README.md and of every .md file in docs/
 * are real output: every fenced block whose info string is `console` is run
 * and compared.
 *
 * In such a block a line starting "$ " is a command, run from the repository
 * root by /bin/sh (a line ending in a backslash continues on the next one);
 * the lines after it, up to the next "$ " or the end of the block, are its
 * exact standard output (trailing spaces aside). "./kingme" in a command is
 * the program under test (KINGME: the sanitized build under make sanitize).
 * Examples whose output varies (timings, clock seeds) are in `text` blocks
 * and are not run. */
#include "test.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#define OUT_MAX (1 << 20)

/* s with "./kingme" replaced by the program under test. */
static char *with_program(const char *s)
{
    const char *prog = test_kingme();
    size_t n = strlen(s) + 1, k = 0;
    for (const char *p = strstr(s, "./kingme"); p; p = strstr(p + 1, "./kingme")) k++;
    char *r = malloc(n + k * (strlen(prog) + 1));
    if (!r) return NULL;
    char *w = r;
    for (const char *p = s; *p;) {
        if (strncmp(p, "./kingme", 8) == 0 && (p == s || p[-1] == ' ' || p[-1] == '|' || p[-1] == '(')) {
            w += sprintf(w, "%s", prog);
            p += 8;
        } else {
            *w++ = *p++;
        }
    }
    *w = '\0';
    return r;
}

/* Lines of text with trailing spaces removed, so that the comparison ignores them. */
static void trim_lines(char *s)
{
    char *w = s;
    for (char *p = s; *p;) {
        size_t n = strcspn(p, "\n");
        size_t m = n;
        while (m > 0 && (p[m - 1] == ' ' || p[m - 1] == '\t' || p[m - 1] == '\r')) m--;
        memmove(w, p, m);
        w += m;
        p += n;
        if (*p == '\n') {
            *w++ = '\n';
            p++;
        }
    }
    *w = '\0';
}

/* The first line where got and want differ, whole, for the failure message. */
static void first_difference(const char *file, const char *got, const char *want, char *buf, size_t len)
{
    int line = 1;
    const char *g = got, *w = want;
    while (*got && *got == *want) {
        if (*got == '\n') {
            line++;
            g = got + 1;
            w = want + 1;
        }
        got++, want++;
    }
    snprintf(buf, len, "output line %d: %s has \"%.*s\", the program printed \"%.*s\"", line, file,
             (int)strcspn(w, "\n"), w, (int)strcspn(g, "\n"), g);
}

/* Run one example (the command at line `at` of file) and compare. */
static void check_example(const char *file, int at, const char *cmd, const char *want, char *out)
{
    char *run = with_program(cmd);
    size_t n = run ? strlen(run) + 32 : 0;
    char *full = run ? malloc(n) : NULL;
    CHECK(full != NULL);
    if (!full) {
        free(run);
        return;
    }
    snprintf(full, n, "( (%s) 2>/dev/null )", run); /* stdout only: test_run adds 2>&1 */
    test_run(full, out, OUT_MAX);
    trim_lines(out);
    char *exp = strdup(want);
    if (exp) trim_lines(exp);
    char why[512] = "";
    if (exp && strcmp(out, exp) != 0) first_difference(file, out, exp, why, sizeof why);
    CHECK_MSG(exp && strcmp(out, exp) == 0, "%s:%d: $ %s\n  %s", file, at, cmd, why);
    free(exp);
    free(run);
    free(full);
}

/* Every console example of one file, run and compared; the number run. */
static int check_file(const char *file)
{
    char *text = test_slurp(file);
    CHECK_MSG(text != NULL, "%s cannot be read", file);
    if (!text) return 0;
    char *out = malloc(OUT_MAX), *cmd = malloc(OUT_MAX), *want = malloc(OUT_MAX);
    CHECK(out && cmd && want);
    int line = 0, nblocks = 0, nexamples = 0, cmd_line = 0;
    bool in_console = false, in_other = false, have_cmd = false;
    size_t wl = 0;
    for (char *p = text; out && cmd && want && *p;) {
        size_t n = strcspn(p, "\n");
        char *l = p;
        p += n + (p[n] == '\n');
        l[n] = '\0';
        line++;
        bool fence = strncmp(l, "```", 3) == 0;
        if (!in_console && !in_other) {
            if (fence && strcmp(l + 3, "console") == 0) in_console = true, nblocks++;
            else if (fence) in_other = true;
            continue;
        }
        if (in_other) {
            if (fence) in_other = false;
            continue;
        }
        /* in a console block */
        bool is_cmd = strncmp(l, "$ ", 2) == 0;
        if ((fence || is_cmd) && have_cmd) {
            want[wl] = '\0';
            check_example(file, cmd_line, cmd, want, out);
            nexamples++;
            have_cmd = false;
        }
        if (fence) {
            in_console = false;
        } else if (is_cmd) {
            snprintf(cmd, OUT_MAX, "%s", l + 2);
            cmd_line = line;
            while (cmd[0] && cmd[strlen(cmd) - 1] == '\\' && *p) { /* continued */
                size_t m = strcspn(p, "\n");
                size_t k = strlen(cmd) - 1;
                snprintf(cmd + k, OUT_MAX - k, " %.*s", (int)m, p);
                p += m + (p[m] == '\n');
                line++;
            }
            have_cmd = true;
            wl = 0;
        } else if (have_cmd && wl + n + 2 < OUT_MAX) {
            memcpy(want + wl, l, n);
            wl += n;
            want[wl++] = '\n';
        } else if (!have_cmd) {
            CHECK_MSG(false, "%s:%d: a console block line before any '$ ' command", file, line);
        }
    }
    CHECK_MSG(!in_console, "%s: a console block is not closed", file);
    CHECK_MSG(nexamples > 0 || nblocks == 0, "%s: %d console blocks without a command", file, nblocks);
    free(out);
    free(cmd);
    free(want);
    free(text);
    return nexamples;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

TEST(readme_and_docs_console_examples_are_real_output)
{
    int in_readme = check_file("README.md");
    CHECK_MSG(in_readme >= 5, "only %d console examples in README.md", in_readme);
    /* the .md files of docs/ in name order, so that failures read the same on every machine */
    char *names[256];
    int n = 0, in_docs = 0, files = 0;
    DIR *d = opendir("docs");
    CHECK_MSG(d != NULL, "docs/ cannot be opened");
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len > 3 && strcmp(e->d_name + len - 3, ".md") == 0 && n < 256) {
            names[n] = malloc(len + 6);
            if (names[n]) snprintf(names[n++], len + 6, "docs/%s", e->d_name);
        }
    }
    if (d) closedir(d);
    qsort(names, (size_t)n, sizeof *names, by_name);
    for (int i = 0; i < n; i++) {
        int k = check_file(names[i]);
        in_docs += k;
        files += k > 0;
        free(names[i]);
    }
    CHECK_MSG(in_docs >= 10 && files >= 3, "only %d console examples in %d files of docs/", in_docs, files);
}
