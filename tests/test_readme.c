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
#include "kingme/nn.h"
#include "test.h"

#include <ctype.h>
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

/* Figures the manual states about the files kingme ships agree with those
 * files: the game count and the generations the default weights were fitted
 * to (weights/default.w's own header), the bench node count
 * (tests/bench.txt, which test_bench compares with the program) and the
 * opening book's positions and moves (its own header, `kingme book info`). */

/* The whole number written just before text[at] ("15,200" or "15200"), or -1. */
static long number_before(const char *text, size_t at)
{
    size_t i = at;
    while (i > 0 && (isdigit((unsigned char)text[i - 1]) || text[i - 1] == ',')) i--;
    if (i == at || !isdigit((unsigned char)text[i])) return -1;
    long v = 0;
    for (size_t k = i; k < at; k++)
        if (isdigit((unsigned char)text[k])) v = v * 10 + (text[k] - '0');
    return v;
}

/* From the header text h of a fit: the games of its "# samples: ... of G
 * games" line and the generations (one self-play folder each) of its "made
 * by" line. */
static void fit_figures(const char *h, long *games, long *gens)
{
    const char *of = strstr(h, " games (");
    *games = of ? number_before(h, (size_t)(of - h)) : -1;
    const char *made = strstr(h, "made by: ");
    const char *fit_end = made ? strstr(made, "--prior") : NULL;
    *gens = 0;
    for (const char *p = made; p && fit_end && (p = strstr(p + 1, "selfplay")) != NULL && p < fit_end;)
        (*gens)++;
}

static const char *const number_words[] = {"one",   "two",   "three", "four", "five",   "six",
                                           "seven", "eight", "nine",  "ten",  "eleven", "twelve"};

/* n with a thousands comma from 1000 on ("15,200"). */
static void thousands(char *buf, size_t len, long n)
{
    if (n >= 1000) snprintf(buf, len, "%ld,%03ld", n / 1000, n % 1000);
    else snprintf(buf, len, "%ld", n);
}

/* Whether path holds want, a sentence that states the default's fit with
 * the figures of weights/default.w. */
static void check_fit_sentence(const char *path, const char *want)
{
    char *text = test_slurp(path);
    CHECK_MSG(text && strstr(text, want), "%s should say \"%s\" (the figures of weights/default.w's header)",
              path, want);
    free(text);
}

TEST(readme_figures_match_the_shipped_files)
{
    /* weights/default.w: "# samples: ... of G games", and one self-play
     * folder a generation on its "made by" line; with an ending network,
     * that is the network's fit, and the pattern fit's header follows as
     * "# prior: " lines */
    char *w = test_slurp("weights/default.w");
    CHECK(w != NULL);
    if (!w) return;
    const char *pat = strstr(w, "# prior: made by: ");
    long games = -1, gens = 0, egames = -1, egens = 0;
    fit_figures(pat ? pat : w, &games, &gens);
    if (pat) fit_figures(w, &egames, &egens);
    const char *units = strstr(w, "# network: ");
    long hidden = units ? strtol(units + 11, NULL, 10) : -1;
    const char *mp = strstr(w, "--max-pieces ");
    long max_pieces = pat && mp && mp < pat ? strtol(mp + 13, NULL, 10) : -1;
    free(w);
    CHECK_MSG(games > 0 && gens > 0, "weights/default.w's header names no games (%ld) or generations (%ld)",
              games, gens);
    CHECK(gens <= 12 && egens <= 12);
    if (gens > 12 || egens > 12) return;
    char g[32], want[256];
    thousands(g, sizeof g, games);
    const char *gw = number_words[gens - 1];
    if (pat) {
        /* the ending network: its games, generations, units and pieces */
        char eg[32];
        thousands(eg, sizeof eg, egames);
        CHECK_MSG(egames > 0 && egens > 0 && hidden > 0 && max_pieces > 0,
                  "weights/default.w's network header: %ld games, %ld generations, %ld units, %ld pieces",
                  egames, egens, hidden, max_pieces);
        if (egens > 0) {
            snprintf(want, sizeof want,
                     "a network of %ld units asked in endings of %d to %ld pieces, trained on %s more games "
                     "in %s generations",
                     hidden, NN_ENDING_MIN_PIECES, max_pieces, eg, number_words[egens - 1]);
            check_fit_sentence("README.md", want);
            check_fit_sentence("docs/evaluation.md", want);
        }
    }
    snprintf(want, sizeof want, "fitted to %s self-play games in %s generations", g, gw);
    check_fit_sentence("README.md", want);
    snprintf(want, sizeof want, "`weights/default.w` again from a clean checkout, in %s generations", gw);
    check_fit_sentence("README.md", want);
    snprintf(want, sizeof want,
             "fitted by `kingme fit` to %s games of `kingme selfplay` played in %s generations", g, gw);
    check_fit_sentence("weights/README.md", want);
    snprintf(want, sizeof want, "the last fit, to all %s games", g);
    check_fit_sentence("docs/evaluation.md", want);
    snprintf(want, sizeof want, "with two commands, in %s generations", gw);
    check_fit_sentence("docs/evaluation.md", want);

    /* the bench count of the README's speed figures */
    char *bench = test_slurp("tests/bench.txt"), *readme = test_slurp("README.md");
    CHECK(bench && readme);
    long recorded = -1;
    for (char *line = bench; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (isdigit((unsigned char)*line)) {
            recorded = strtol(line, NULL, 10);
            break;
        }
    const char *b = readme ? strstr(readme, "`kingme bench` (") : NULL;
    const char *nodes = b ? strstr(b, " nodes in") : NULL;
    long said = nodes ? number_before(readme, (size_t)(nodes - readme)) : -1;
    CHECK_MSG(said == recorded, "README.md gives `kingme bench` %ld nodes; tests/bench.txt records %ld", said,
              recorded);
    free(bench);

    /* the opening book: positions and moves, from its header */
    static char out[8192];
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s book info --book weights/default.book", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    const char *fin = strstr(out, "finished: ");
    long positions = fin ? strtol(fin + 10, NULL, 10) : -1;
    const char *mv = fin ? strstr(fin, " moves") : NULL;
    long moves = mv ? number_before(out, (size_t)(mv - out)) : -1;
    CHECK(positions > 0 && moves > 0);
    char *bookmd = test_slurp("docs/book.md");
    const char *texts[] = {readme, bookmd};
    const char *names[] = {"README.md", "docs/book.md"};
    for (int i = 0; i < 2; i++) {
        const char *t = texts[i];
        CHECK(t != NULL);
        if (!t) continue;
        int found = 0;
        for (const char *p = strstr(t, " positions"); p; p = strstr(p + 1, " positions")) {
            const char *ctx = p > t + 200 ? p - 200 : t;
            if (!strstr(ctx, "default.book") && !strstr(ctx, "It holds")) continue;
            long v = number_before(t, (size_t)(p - t));
            if (v < 0 || v == 3000) continue; /* the build's aim, --positions 3000 */
            found++;
            CHECK_MSG(v == positions, "%s gives the book %ld positions; weights/default.book holds %ld",
                      names[i], v, positions);
        }
        CHECK_MSG(found > 0, "%s states no size of weights/default.book", names[i]);
    }
    const char *m = bookmd ? strstr(bookmd, "It holds") : NULL;
    const char *mm = m ? strstr(m, " moves") : NULL;
    CHECK_MSG(mm && number_before(bookmd, (size_t)(mm - bookmd)) == moves,
              "docs/book.md's move count is not %ld", moves);
    free(bookmd);
    free(readme);
}

/* docs/architecture.md's table of modules names every header of
 * include/kingme/, and every header it names is there */
TEST(readme_architecture_names_every_module)
{
    char *doc = test_slurp("docs/architecture.md");
    CHECK(doc != NULL);
    if (!doc) return;
    DIR *d = opendir("include/kingme");
    CHECK(d != NULL);
    int headers = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".h") != 0) continue;
        char want[300];
        snprintf(want, sizeof want, "| `%s`: ", e->d_name);
        CHECK_MSG(strstr(doc, want), "docs/architecture.md does not list %s", e->d_name);
        headers++;
    }
    if (d) closedir(d);
    CHECK(headers > 30);
    int rows = 0;
    for (const char *p = doc; (p = strstr(p, "| `")); p += 3) {
        const char *end = strstr(p + 3, "`: ");
        if (!end || end - p > 40 || memchr(p + 3, '\n', (size_t)(end - p - 3))) continue;
        char path[128];
        snprintf(path, sizeof path, "include/kingme/%.*s", (int)(end - p - 3), p + 3);
        char *h = test_slurp(path);
        CHECK_MSG(h != NULL, "docs/architecture.md lists %s, which is not there", path);
        free(h);
        rows++;
    }
    CHECK_INT(rows, headers);
    free(doc);
}
