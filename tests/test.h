/* test.h - a tiny test harness. Each TEST registers itself; the runner
 * (tests/main.c) runs them all, or those whose name contains argv[1], and
 * ends with "N passed, M failed, K skipped" (tests, not checks). A test that
 * cannot run here (test_skip: a 6-piece database not built) is neither passed
 * nor failed: the runner prints "skip NAME: why" and counts it as skipped. A
 * test that makes no check and does not skip fails: it tested nothing. The
 * registry aborts when it is full rather than drop a test. The tests of one
 * source file run in order in a process of their own (what a file builds
 * once, such as test_db, is shared by its tests), KINGME_TEST_JOBS files at
 * a time (default: the processors online); their lines are printed file by
 * file in the order the files registered, whatever order they end in. */
#ifndef KINGME_TEST_H
#define KINGME_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef void (*test_fn)(void);
void test_register(const char *name, const char *file, test_fn fn);
void test_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
extern long test_checks;
/* The running test cannot run here: why is printed, and the test is counted
 * neither passed nor failed. The test should return at once. */
void test_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* eval_score of b for side with the vector w, its table made for the call
 * (test_eval.c). */
struct Board;
struct Weights;
int32_t test_eval_score(const struct Board *b, int side, const struct Weights *w);
/* Whether the tests run under the sanitizers (slower: some loops are shortened). */
bool test_sanitized(void);
/* The build folder of the library the tests were built with: the one of
 * KINGME's program (build/asan/kingme: build/asan), else build/release;
 * and the -fsanitize flags a program linked against it needs ("" for none). */
void test_build_dir(char *buf, size_t len);
const char *test_build_sanitizers(void);
/* Path of the kingme program for the command-line tests (env KINGME). */
const char *test_kingme(void);
/* A fresh, empty folder /tmp/kingme-KIND-PID-TAG into buf (a failed
 * check when it cannot be made), and the folder removed with all it holds. */
void test_fresh_dir(const char *kind, char *buf, size_t len, const char *tag);
void test_remove_dir(const char *dir);
/* Write text to path (created or truncated); false on any error. */
bool test_put_file(const char *path, const char *text);
/* The whole file as a malloc'd NUL-terminated string, or NULL. */
char *test_slurp(const char *path);
/* Runs a shell command, captures stdout+stderr into out (truncated to len),
 * returns the exit status (or -1). */
int test_run(const char *cmd, char *out, size_t len);
/* Starts sh -c cmd with its standard output and error on a pipe whose read
 * end goes to *out; its standard input is the write end of another pipe,
 * into *in (SIGPIPE is then ignored here), or /dev/null when in is NULL.
 * Returns its pid, or -1. */
int test_spawn(const char *cmd, int *in, int *out);
/* Reads fd until what comes holds want: true. false at the end of the
 * pipe or after timeout seconds, a guard against a hang and never a pace:
 * the tests wait on what the program says, not on the clock. */
bool test_wait_for(int fd, const char *want, double timeout);
/* Whether text is a well-formed XML document (test_svg.c: a small checker
 * of elements, attributes, entities, comments and UTF-8) whose root element
 * is root; false with the reason and its line in why. */
/* A folder the runner makes for the run, which its test processes share
 * and which it removes at the end. */
const char *test_shared_dir(void);
/* The tests' small endgame database (test_egdb.c: every position of up to
 * 4 pieces, 3 under the sanitizers), built once for the run in the shared
 * folder, opened once per process; and its folder, which no test writes
 * into. NULL after a failed check. */
struct Egdb;
const struct Egdb *test_db(void);
const char *test_db_dir(void);
/* An endgame database of up to pieces pieces at path, a link to the run's
 * when it has that many, else built there; false with why in err
 * (KM_ERR_MAX bytes). */
bool test_db_at(const char *path, int pieces, char *err);
bool test_xml_well_formed(const char *text, const char *root, char *why, size_t len);

/* Kings walking in loops without a capture or a man move and without a
 * threefold repetition within 80 plies, from "B:WK4,K32:BK1" (test_game.c):
 * Black's king on 1 goes round a 6-move loop, White's kings an 8-move one. */
extern const char *const test_black_loop[6];
extern const char *const test_white_loop[8];

#define TEST(name)                                                                                           \
    static void name(void);                                                                                  \
    __attribute__((constructor)) static void register_##name(void) { test_register(#name, __FILE__, name); } \
    static void name(void)

#define CHECK(cond)                                                     \
    do {                                                                \
        test_checks++;                                                  \
        if (!(cond)) test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond); \
    } while (0)

#define CHECK_MSG(cond, ...)                                     \
    do {                                                         \
        test_checks++;                                           \
        if (!(cond)) test_fail(__FILE__, __LINE__, __VA_ARGS__); \
    } while (0)

#define CHECK_INT(a, b)                                                                                 \
    do {                                                                                                \
        long long a_ = (long long)(a), b_ = (long long)(b);                                             \
        test_checks++;                                                                                  \
        if (a_ != b_) test_fail(__FILE__, __LINE__, "%s == %lld, expected %s == %lld", #a, a_, #b, b_); \
    } while (0)

#define CHECK_STR(a, b)                                                                                      \
    do {                                                                                                     \
        const char *a_ = (a), *b_ = (b);                                                                     \
        test_checks++;                                                                                       \
        if (strcmp(a_, b_) != 0) test_fail(__FILE__, __LINE__, "%s == \"%s\", expected \"%s\"", #a, a_, b_); \
    } while (0)

#endif
