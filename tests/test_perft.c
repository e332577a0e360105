/* test_perft.c - the generator against published perft figures
 * (tests/data/perft.txt; where it comes from: tests/data/SOURCES.md). */
#include "kingme/movegen.h"
#include "test.h"

#include <stdlib.h>

TEST(perft_initial_position_to_depth_10)
{
    FILE *f = fopen("tests/data/perft.txt", "r");
    CHECK_MSG(f != NULL, "cannot open tests/data/perft.txt");
    if (!f) return;
    Board b;
    board_init(&b);
    int maxd = test_sanitized() ? 9 : 10, checked = 0;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        int d;
        unsigned long long n;
        if (line[0] == '#' || sscanf(line, "%d %llu", &d, &n) != 2 || d > maxd) continue;
        CHECK_MSG(mg_perft(&b, d) == n, "perft %d: got %llu, expected %llu", d,
                  (unsigned long long)mg_perft(&b, d), n);
        checked++;
    }
    fclose(f);
    CHECK_INT(checked, maxd);
}

TEST(perft_divide_sums_to_total)
{
    Board b;
    board_init(&b);
    MoveList ml;
    CHECK_INT(mg_moves(&b, &ml), 7);
    uint64_t sum = 0;
    for (int i = 0; i < ml.count; i++) {
        Board c = b;
        mg_make_move(&c, &ml.moves[i]);
        sum += mg_perft(&c, 7);
    }
    CHECK_INT(sum, 845931); /* depth 7 below each of the 7 first moves = depth 8 */
}
