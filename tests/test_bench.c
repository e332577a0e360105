/* test_bench.c - `kingme bench` still counts the nodes of tests/bench.txt. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

TEST(bench_node_count_is_the_recorded_one)
{
    if (test_sanitized()) return; /* the same code, ten times slower: the release run checks it */
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
    CHECK_MSG(nodes == recorded,
              "./kingme bench: %llu nodes, tests/bench.txt says %llu: if the search or the evaluation changed on "
              "purpose, write the new count there (and in the commit message)", nodes, recorded);
}
