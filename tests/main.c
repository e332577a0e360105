/* main.c - the test runner. */
#include "test.h"

#include <stdarg.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_TESTS 1024
static struct {
    const char *name;
    test_fn fn;
} tests[MAX_TESTS];
static int ntests;
static int cur_failures;
static char cur_skip[256]; /* why the running test was skipped ("" if not) */
long test_checks;

void test_register(const char *name, test_fn fn)
{
    if (ntests == MAX_TESTS) { /* a test dropped in silence would count as nothing */
        fprintf(stderr, "tests: more than %d tests: raise MAX_TESTS in tests/main.c\n", MAX_TESTS);
        abort();
    }
    tests[ntests].name = name;
    tests[ntests].fn = fn;
    ntests++;
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
    if (cur_failures++ >= 10) return; /* one broken loop should not flood */
    va_list ap;
    va_start(ap, fmt);
    fprintf(stdout, "  FAIL %s:%d: ", file, line);
    vfprintf(stdout, fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
}

void test_skip(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cur_skip, sizeof cur_skip, fmt, ap);
    va_end(ap);
    if (!cur_skip[0]) snprintf(cur_skip, sizeof cur_skip, "skipped");
}

bool test_sanitized(void) { return getenv("KINGME_SANITIZE") != NULL; }

const char *test_kingme(void)
{
    const char *k = getenv("KINGME");
    return k ? k : "./kingme";
}

void test_fresh_dir(const char *kind, char *buf, size_t len, const char *tag)
{
    snprintf(buf, len, "/tmp/kingme-%s-%d-%s", kind, (int)getpid(), tag);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", buf, buf);
    if (system(cmd) != 0) test_fail(__FILE__, __LINE__, "cannot make %s", buf);
}

void test_remove_dir(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) test_fail(__FILE__, __LINE__, "cannot remove %s", dir);
}

bool test_put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    fputs(text, f);
    return fclose(f) == 0;
}

char *test_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    while (s) {
        n += fread(s + n, 1, cap - n - 1, f);
        if (n < cap - 1) break;
        char *t = realloc(s, cap *= 2);
        if (!t) free(s);
        s = t;
    }
    if (s) s[n] = '\0';
    fclose(f);
    return s;
}

int test_run(const char *cmd, char *out, size_t len)
{
    char full[4096];
    snprintf(full, sizeof full, "%s 2>&1", cmd);
    FILE *p = popen(full, "r");
    if (!p) return -1;
    size_t n = 0;
    if (len) out[0] = '\0';
    int c;
    while ((c = fgetc(p)) != EOF)
        if (n + 1 < len) {
            out[n++] = (char)c;
            out[n] = '\0';
        }
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    /* the programs the tests start use no endgame database unless a test
     * names one (a developer's egdb/ beside ./kingme would change answers) */
    setenv("KINGME_EGDB", "none", 1);
    int passed = 0, failed = 0, skipped = 0;
    for (int i = 0; i < ntests; i++) {
        if (filter && !strstr(tests[i].name, filter)) continue;
        cur_failures = 0;
        cur_skip[0] = '\0';
        long checks0 = test_checks;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        tests[i].fn();
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        /* a test that neither checked anything nor said why it skipped has
         * tested nothing: it fails rather than pass in silence */
        if (!cur_skip[0] && !cur_failures && test_checks == checks0)
            test_fail(__FILE__, __LINE__, "%s made no check (test_skip says why a test cannot run)",
                      tests[i].name);
        if (cur_skip[0] && !cur_failures) {
            skipped++;
            printf("skip %s: %s\n", tests[i].name, cur_skip);
        } else if (cur_failures) {
            failed++;
            printf("FAIL %s (%d failed checks)\n", tests[i].name, cur_failures);
        } else {
            passed++;
            printf("ok   %s%s\n", tests[i].name, s > 1.0 ? " (slow)" : "");
        }
        fflush(stdout);
    }
    printf("%ld checks\n", test_checks);
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}
