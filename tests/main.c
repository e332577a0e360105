/* main.c - the test runner. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "test.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_TESTS 1024
static struct {
    const char *name;
    const char *file;
    test_fn fn;
} tests[MAX_TESTS];
static int ntests;
static int cur_failures;
static char cur_skip[256]; /* why the running test was skipped ("" if not) */
long test_checks;

void test_register(const char *name, const char *file, test_fn fn)
{
    if (ntests == MAX_TESTS) { /* a test dropped in silence would count as nothing */
        fprintf(stderr, "tests: more than %d tests: raise MAX_TESTS in tests/main.c\n", MAX_TESTS);
        abort();
    }
    tests[ntests].name = name;
    tests[ntests].file = file;
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

void test_build_dir(char *buf, size_t len)
{
    const char *k = test_kingme();
    const char *slash = strrchr(k, '/');
    if (strncmp(k, "build/", 6) == 0 && slash) snprintf(buf, len, "%.*s", (int)(slash - k), k);
    else snprintf(buf, len, "build/release");
}

const char *test_build_sanitizers(void)
{
    char dir[256];
    test_build_dir(dir, sizeof dir);
    if (strcmp(dir, "build/tsan") == 0) return "-fsanitize=thread";
    return test_sanitized() ? "-fsanitize=address,undefined" : "";
}

/* made by main before the first test process, which inherits it */
static char shared[] = "/tmp/kingme-tests-XXXXXX";

const char *test_shared_dir(void) { return shared; }

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

int test_spawn(const char *cmd, int *in, int *out)
{
    int o[2], i[2] = {-1, -1};
    if (pipe(o)) return -1;
    if (in && pipe(i)) {
        close(o[0]), close(o[1]);
        return -1;
    }
    /* a program that ends early makes a write into its pipe fail (a check),
     * not end the tests */
    if (in) signal(SIGPIPE, SIG_IGN);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGPIPE, SIG_DFL);
        int null = in ? -1 : open("/dev/null", O_RDONLY);
        dup2(in ? i[0] : null, 0);
        dup2(o[1], 1);
        dup2(o[1], 2);
        close(o[0]), close(o[1]);
        if (in) close(i[0]), close(i[1]);
        else close(null);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(o[1]);
    if (in) close(i[0]);
    if (pid < 0) {
        close(o[0]);
        if (in) close(i[1]);
        return -1;
    }
    *out = o[0];
    if (in) *in = i[1];
    return (int)pid;
}

bool test_wait_for(int fd, const char *want, double timeout)
{
    /* the last strlen(want) bytes read, one byte at a time so that nothing
     * after the match is taken from the pipe */
    size_t n = strlen(want), have = 0;
    if (n == 0) return true;
    char *tail = calloc(n + 1, 1);
    if (!tail) return false;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bool found = false;
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        double left = timeout - ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9);
        if (left <= 0) break;
        struct pollfd pf = {fd, POLLIN, 0};
        int r = poll(&pf, 1, (int)(left * 1000) + 1);
        if (r < 0) continue; /* a signal */
        if (r == 0) break;
        char c;
        if (read(fd, &c, 1) != 1) break; /* its end */
        if (have == n) memmove(tail, tail + 1, --have);
        tail[have++] = c;
        if (have == n && memcmp(tail, want, n) == 0) {
            found = true;
            break;
        }
    }
    free(tail);
    return found;
}

/* What a test's process tells the runner, in memory the processes share. */
enum { T_NOT_RUN, T_RUNNING, T_PASSED, T_FAILED, T_SKIPPED };
typedef struct {
    int state;
    long checks;
} Result;
static Result *results;

/* Runs test i in this process: its lines to stdout, its result to results[i]. */
static void run_one(int i)
{
    results[i].state = T_RUNNING;
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
    results[i].checks = test_checks - checks0;
    if (cur_skip[0] && !cur_failures) {
        results[i].state = T_SKIPPED;
        printf("skip %s: %s\n", tests[i].name, cur_skip);
    } else if (cur_failures) {
        results[i].state = T_FAILED;
        printf("FAIL %s (%d failed checks)\n", tests[i].name, cur_failures);
    } else {
        results[i].state = T_PASSED;
        if (s > 1.0) printf("ok   %s (slow: %.1f s)\n", tests[i].name, s);
        else printf("ok   %s\n", tests[i].name);
    }
    fflush(stdout);
}

/* A source file's chosen tests, run by one process whose lines go to out. */
typedef struct {
    const char *file;
    int first, count; /* into order[] */
    FILE *out;
    pid_t pid;
    int status; /* its wait status, once done */
    bool done;
} Unit;

static int jobs_wanted(void)
{
    const char *e = getenv("KINGME_TEST_JOBS");
    long n = e && *e ? strtol(e, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    /* the programs the tests start use no endgame database unless a test
     * names one (a developer's egdb/ beside ./kingme would change answers) */
    setenv("KINGME_EGDB", "none", 1);
    if (!mkdtemp(shared)) {
        perror("tests: mkdtemp");
        return 1;
    }
    results =
        mmap(NULL, sizeof(Result) * MAX_TESTS, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (results == MAP_FAILED) {
        perror("tests: mmap");
        return 1;
    }
    /* the chosen tests grouped by file, files in the order they registered */
    static int order[MAX_TESTS];
    static Unit units[MAX_TESTS];
    int nunits = 0, n = 0;
    for (int i = 0; i < ntests; i++) {
        if (filter && !strstr(tests[i].name, filter)) continue;
        int u = 0;
        while (u < nunits && strcmp(units[u].file, tests[i].file) != 0) u++;
        if (u == nunits) units[nunits++] = (Unit){.file = tests[i].file};
    }
    for (int u = 0; u < nunits; u++) {
        units[u].first = n;
        for (int i = 0; i < ntests; i++)
            if ((!filter || strstr(tests[i].name, filter)) && strcmp(tests[i].file, units[u].file) == 0)
                order[n++] = i;
        units[u].count = n - units[u].first;
    }
    int jobs = jobs_wanted(), running = 0, next = 0, shown = 0;
    while (shown < nunits) {
        while (running < jobs && next < nunits) {
            Unit *un = &units[next++];
            un->out = tmpfile();
            if (!un->out) {
                perror("tests: tmpfile");
                return 1;
            }
            fflush(stdout);
            un->pid = fork();
            if (un->pid < 0) {
                perror("tests: fork");
                return 1;
            }
            if (un->pid == 0) {
                dup2(fileno(un->out), 1);
                for (int k = 0; k < un->count; k++) run_one(order[un->first + k]);
                fflush(stdout);
                exit(0);
            }
            running++;
        }
        int st;
        pid_t pid = wait(&st);
        if (pid < 0) {
            perror("tests: wait");
            return 1;
        }
        for (int u = 0; u < nunits; u++)
            if (units[u].pid == pid && !units[u].done) {
                units[u].done = true;
                units[u].status = st;
                running--;
            }
        /* the files that have ended, in order: their lines, then what a
         * process that died took with it */
        for (; shown < nunits && units[shown].done; shown++) {
            Unit *un = &units[shown];
            rewind(un->out);
            char buf[4096];
            size_t got;
            while ((got = fread(buf, 1, sizeof buf, un->out)) > 0) fwrite(buf, 1, got, stdout);
            fclose(un->out);
            char how[64];
            if (WIFSIGNALED(un->status)) snprintf(how, sizeof how, "signal %d", WTERMSIG(un->status));
            else snprintf(how, sizeof how, "exit status %d", WEXITSTATUS(un->status));
            for (int k = 0; k < un->count; k++) {
                Result *r = &results[order[un->first + k]];
                const char *name = tests[order[un->first + k]].name;
                if (r->state == T_RUNNING) printf("FAIL %s (its process ended during it: %s)\n", name, how);
                else if (r->state == T_NOT_RUN)
                    printf("FAIL %s (not run: its process ended before: %s)\n", name, how);
                else continue;
                r->state = T_FAILED;
            }
            if (un->status != 0 && !WIFSIGNALED(un->status))
                printf("FAIL %s: the tests' process ended with %s\n", un->file, how);
            fflush(stdout);
        }
    }
    int passed = 0, failed = 0, skipped = 0;
    long checks = 0;
    for (int k = 0; k < n; k++) {
        Result *r = &results[order[k]];
        checks += r->checks;
        passed += r->state == T_PASSED;
        failed += r->state == T_FAILED;
        skipped += r->state == T_SKIPPED;
    }
    for (int u = 0; u < nunits; u++)
        if (units[u].status != 0 && !WIFSIGNALED(units[u].status)) failed++;
    test_remove_dir(shared);
    printf("%ld checks\n", checks);
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}
