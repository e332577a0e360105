/* test_cbengine.c - tools/cbengine, the engine protocol in front of a
 * CheckerBoard engine (tools/opponents.sh builds Simple Checkers with it),
 * here with a stand-in engine written on CheckerBoard's board alone
 * (tests/data/engines/cb_first.c: the first legal move it finds), so that a
 * wrong colour, row or column in the adapter's board shows as a wrong or
 * refused move. No network: Simple Checkers itself is not built here. */
#include "test.h"

#include <stdlib.h>

/* DIR/first: cbengine.c and the stand-in against the library; false (the
 * test skipped or failed) when it cannot be built. */
/* A fresh folder of the tests' (dir, of at least 256 bytes) with the
 * stand-in engine built in it as dir/first; false (the folder removed)
 * when it cannot be built. */
static bool build_first(char *dir, const char *tag)
{
    test_fresh_dir("cbengine", dir, 256, tag);
    static char out[8192];
    if (test_run("command -v cc", out, sizeof out) != 0) {
        test_skip("no C compiler (cc) to build tools/cbengine with");
        test_remove_dir(dir);
        return false;
    }
    char build[256], cmd[2048];
    test_build_dir(build, sizeof build);
    snprintf(cmd, sizeof cmd,
             "cc -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -Wall -Wextra -Wshadow -Werror %s -Iinclude "
             "-Itools/cbengine -o %s/first tools/cbengine/cbengine.c tests/data/engines/cb_first.c "
             "%s/libkingme.a -lm -lpthread",
             test_build_sanitizers(), dir, build);
    int rc = test_run(cmd, out, sizeof out);
    CHECK_MSG(rc == 0, "%s\n%s", cmd, out);
    if (rc != 0) test_remove_dir(dir);
    return rc == 0;
}

/* The protocol, answer by answer: the stand-in's moves come back in
 * kingme's notation for both colours, a capture of two jumps ending on the
 * crowning row, a king's move; the clock reaches the engine as
 * CheckerBoard's incremental time; errors are one line and keep the
 * position; an engine's board that no legal move gives is passed on as
 * the move it shows, for the referee to refuse. */
TEST(cbengine_speaks_the_protocol_for_a_checkerboard_engine)
{
    char dir[256];
    if (!build_first(dir, "protocol")) return;
    static const char *const script =
        "hello\n"
        "isready\n"
        "position start\n"
        "go movetime 10\n" /* Black: the first man that can move, on square 12 */
        "position start moves 12-16\n"
        "go depth 2\n" /* White: its first man, on 24 */
        "position fen B:W18,K27,26:B14,10\n"
        "moves\n"
        "go btime 5000 wtime 4000 binc 100 winc 100\n" /* 14x23x30, crowned: the move ends */
        "position fen W:WK3:B1,2,5,6\n"
        "go\n" /* the king on 3 */
        "position fen W:W5:BK1\n"
        "go movetime 50\n" /* White's man on 5 is blocked */
        "position start moves 11-15 11-15\n"
        "fen\n"
        "go nodes 5\n"
        "position fen W:WK3:B1,2,5,6\n"
        "go btime 70000 wtime 900000 winc 70000\n"
        "option seed 3\n"
        "option threads 2\n"
        "frobnicate\n"
        "newgame\n"
        "fen\n"
        "quit\n"
        "go\n";
    char in[300], cmd[700];
    snprintf(in, sizeof in, "%s/in.txt", dir);
    CHECK(test_put_file(in, script));
    static char out[8192];
    snprintf(cmd, sizeof cmd, "%s/first < %s", dir, in);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_STR(out, "hello First Legal Move protocol 1\n"
                   "readyok\n"
                   "info string first legal move, clock bits 0, 0\n"
                   "bestmove 12-16\n"
                   "info string first legal move, clock bits 0, 0\n"
                   "bestmove 24-19\n"
                   "moves 14x23x30 14x23x32\n"
                   /* 5000 ms less 20 for the pipe, 100 ms, in milliseconds (mode 1): 4980 << 16 | 100 */
                   "info string first legal move, clock bits 4, 326369380\n"
                   "bestmove 14x23x30\n"
                   "info string first legal move, clock bits 0, 0\n"
                   "bestmove 3-7\n"
                   "bestmove none\n"
                   "error position: '11-15': there is no piece on 11\n"
                   "fen W:W5:BK1\n"
                   "error go: 'nodes' is not a limit a CheckerBoard engine takes (movetime, depth, btime, "
                   "wtime, binc, winc, movestogo)\n"
                   /* White's 900 s less 20 ms in tenths (mode 3), its 70 s increment in tenths */
                   "info string first legal move, clock bits 12, 589759164\n"
                   "bestmove 3-7\n"
                   "error option threads: a CheckerBoard engine takes only seed and hash (and uses neither)\n"
                   "error unknown command 'frobnicate'\n"
                   "fen B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n");
    /* an engine whose board is no legal move's result: its move as the
     * board shows it, for the referee to refuse as an illegal move, or one
     * error line when the board shows no single piece's move */
    static const struct {
        const char *mode, *fen, *want;
    } broken[] = {
        {"stay", "B:W21-32:B1-12",
         "info string first legal move: none, clock bits 0, 0\ninfo string the engine's board is the result "
         "of no legal move\nbestmove none\n"},
        {"step", "B:W18,K27,26:B14,10",
         "info string first legal move, clock bits 0, 0\ninfo string the engine's board is the result of no "
         "legal move\nbestmove 10-15\n"},
        {"extra", "B:W21-32:B1-12",
         "info string first legal move, clock bits 0, 0\nerror go: the engine left a board no legal move "
         "gives\n"},
    };
    for (size_t k = 0; k < sizeof broken / sizeof *broken; k++) {
        snprintf(cmd, sizeof cmd, "printf 'position fen %s\\ngo\\nquit\\n' | CB_FIRST_BROKEN=%s %s/first",
                 broken[k].fen, broken[k].mode, dir);
        CHECK_INT(test_run(cmd, out, sizeof out), 0);
        CHECK_MSG(strcmp(out, broken[k].want) == 0, "%s: %s", broken[k].mode, out);
    }
    test_remove_dir(dir);
}

/* kingme's referee plays whole games with it, both colours, against kingme
 * and against itself (kings, captures, to the end by the rules): no
 * forfeit, every game ended by the rules; an engine that steps where it
 * must capture forfeits for an illegal move. */
TEST(cbengine_plays_whole_games_under_the_referee)
{
    char dir[256];
    if (!build_first(dir, "match")) return;
    static char out[16384];
    char cmd[1024];
    const char *against[2] = {"weights/material.w", "engine:%s/first"};
    for (int k = 0; k < 2; k++) {
        char b[300];
        snprintf(b, sizeof b, against[k], dir);
        snprintf(cmd, sizeof cmd,
                 "%s match engine:%s/first %s --games 8 --depth 2 -j 1 --no-egdb --no-book --out %s/m%d.pdn",
                 test_kingme(), dir, b, dir, k);
        CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s\n%s", cmd, out);
        CHECK_MSG(strstr(out, "\nforfeits: none\n"), "%s\n%s", cmd, out);
        CHECK_MSG(k == 1 || strstr(out, "A: 0 wins, 0 draws, 8 losses"), "%s\n%s", cmd, out);
        char path[300];
        snprintf(path, sizeof path, "%s/m%d.pdn", dir, k);
        char *pdn = test_slurp(path);
        CHECK_MSG(pdn != NULL, "%s not written", path);
        if (!pdn) continue;
        int games = 0, by_rules = 0;
        for (const char *p = pdn; (p = strstr(p, "[Termination \"")); p++) {
            games++;
            p += 14;
            by_rules += strncmp(p, "no legal moves\"", 15) == 0 ||
                        strncmp(p, "threefold repetition\"", 21) == 0 ||
                        strncmp(p, "forty-move rule\"", 16) == 0;
        }
        CHECK_INT(games, 8);
        CHECK_INT(by_rules, 8);
        free(pdn);
    }
    /* an engine's illegal step, passed on, is the referee's illegal move */
    snprintf(cmd, sizeof cmd,
             "%s match \"engine:CB_FIRST_BROKEN=step %s/first\" weights/material.w --games 2 --depth 2 -j 1 "
             "--no-egdb --no-book --out %s/b.pdn",
             test_kingme(), dir, dir);
    CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s\n%s", cmd, out);
    CHECK_MSG(strstr(out, "\nforfeits: 2; A 2 (illegal move 2)\n"), "%s\n%s", cmd, out);
    char path[300];
    snprintf(path, sizeof path, "%s/b.pdn", dir);
    char *pdn = test_slurp(path);
    CHECK_MSG(pdn && strstr(pdn, "[Termination \"illegal move: Black played '12-16': '12-16' is illegal: a "
                                 "capture is compulsory (10x19, 11x18)\"]"),
              "%s", pdn ? pdn : "no PDN");
    free(pdn);
    test_remove_dir(dir);
}

/* tools/opponents.sh refuses a CB_SRC without the engine's source, in one
 * line, before fetching or building anything. */
TEST(cbengine_opponents_script_refuses_a_wrong_source)
{
    char dir[256];
    test_fresh_dir("cbengine", dir, sizeof dir, "script");
    static char out[4096];
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "CB_SRC=%s tools/opponents.sh %s/out", dir, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    char want[600];
    snprintf(want, sizeof want,
             "opponents.sh: CB_SRC=%s: no source/simplech.c there (a copy of CheckerBoard's repository?)\n",
             dir);
    CHECK_STR(out, want);
    snprintf(cmd, sizeof cmd, "%s/out/simplech-engine", dir);
    FILE *f = fopen(cmd, "r");
    CHECK(f == NULL);
    if (f) fclose(f);
    test_remove_dir(dir);
}
