/* test_bench.c - `kingme bench` still counts the nodes of tests/bench.txt. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

TEST(bench_node_count_is_the_recorded_one)
{
    if (test_sanitized()) {
        test_skip("the same code ten times slower under the sanitizers: the release run checks it");
        return;
    }
    char *want = test_slurp("tests/bench.txt");
    CHECK(want != NULL);
    if (!want) return;
    unsigned long long recorded = 0;
    for (char *line = want; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (*line >= '0' && *line <= '9') {
            recorded = strtoull(line, NULL, 10);
            break;
        }
    free(want);
    CHECK(recorded > 0);
    static char out[4096];
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s bench", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    const char *b = strstr(out, "bench: ");
    unsigned long long nodes = b ? strtoull(b + 7, NULL, 10) : 0;
    CHECK_MSG(
        nodes == recorded,
        "./kingme bench: %llu nodes, tests/bench.txt says %llu: if the search or the evaluation changed on "
        "purpose, write the new count there (and in the commit message)",
        nodes, recorded);
}

/* The tactics suite (tests/data/tactics.txt, made by tools/gen_tactics): at
 * least 100 positions, each with a legal winning move; the benchmark runs over
 * it and counts; a bad line is one error naming the file and line. */
TEST(bench_tactics_suite)
{
    char *suite = test_slurp("tests/data/tactics.txt");
    CHECK(suite != NULL);
    if (!suite) return;
    int lines = 0;
    for (char *p = suite; *p; p++) lines += *p == '\n';
    free(suite);
    CHECK_MSG(lines >= 100, "%d positions", lines);
    static char out[8192], want[128];
    char cmd[512];
    /* a small budget: the whole suite in well under a second */
    snprintf(cmd, sizeof cmd, "%s bench --tactics --nodes 2000", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    snprintf(want, sizeof want, "of %d solved at 2000 nodes each", lines);
    CHECK_MSG(strstr(out, want) != NULL, "%s", out);
    int solved = atoi(strstr(out, "tactics: ") ? strstr(out, "tactics: ") + 9 : "0");
    CHECK_MSG(solved > 0 && solved < lines, "%s", out);
    /* every position plays its move with -v: "solved" or "missed" lines */
    snprintf(cmd, sizeof cmd, "%s bench --tactics --nodes 500 -v | grep -c 'solved\\|missed'", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_INT(atoi(out), lines + 1); /* and the summary line says "solved" */

    const char *path = "build/test_tactics_bad.txt";
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\t11-15\tfine\n"
          "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\t11-17\tnot a move\n",
          f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s bench --tactics --suite %s", test_kingme(), path);
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    CHECK_MSG(strncmp(out, "kingme: build/test_tactics_bad.txt:2: ", 38) == 0 &&
                  strchr(out, '\n') == out + strlen(out) - 1,
              "%s", out);
    remove(path);
}
