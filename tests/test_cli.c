/* test_cli.c - the foundation's command line: perft, moves, help, version,
 * and the exit codes (0 success, 1 failure, 2 usage error). */
#include "../src/cli/cli.h"
#include "refgen.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

static char out[65536];

/* Runs "kingme ARGS", output (stdout and stderr) in out; the exit status. */
static int kingme(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s", test_kingme(), args);
    return test_run(cmd, out, sizeof out);
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

TEST(cli_perft)
{
    /* docs/rules.md / tests/data/perft.txt: 7361 leaves at depth 5 */
    CHECK_INT(kingme("perft 5"), 0);
    CHECK_MSG(strstr(out, "perft 5: 7361 leaves") != NULL, "%s", out);
    /* By hand: Black man on 1, White man on 32, far apart. Black: 1-5, 1-6;
     * White: 32-27, 32-28; then Black again: from 5 only to 9 (a-file), from
     * 6 to 9 or 10. Depth 3: 2 x (1 + 2) = 6 leaves. */
    CHECK_INT(kingme("perft 3 --fen 'B:W32:B1'"), 0);
    CHECK_MSG(strstr(out, "perft 3: 6 leaves") != NULL, "%s", out);
    /* A position with kings and captures, against the reference generator's
     * own perft. */
    Board b;
    char err[KM_ERR_MAX], want[64];
    CHECK(board_from_fen(&b, "W:WK3,19,22,23:B12,K28,14,15", err) == 0);
    RefPos p;
    ref_from_board(&b, &p);
    snprintf(want, sizeof want, "perft 4: %llu leaves", (unsigned long long)ref_perft(&p, 4));
    CHECK_INT(kingme("perft 4 --fen 'W:WK3,19,22,23:B12,K28,14,15'"), 0);
    CHECK_MSG(strstr(out, want) != NULL, "expected \"%s\" in %s", want, out);
    /* --divide: the 7 first moves, each with its count, summing to 49 */
    CHECK_INT(kingme("perft 2 --divide"), 0);
    CHECK_MSG(strstr(out, "perft 2: 49 leaves") != NULL && strstr(out, "11-15") != NULL, "%s", out);
    /* usage errors */
    CHECK_INT(kingme("perft"), 2);
    CHECK_STR(out, "kingme perft: give DEPTH\nsee: kingme help perft\n");
    CHECK_INT(kingme("perft 0"), 2);
    CHECK_INT(kingme("perft five"), 2);
    CHECK_INT(kingme("perft 3 --fen"), 2);
    CHECK_INT(kingme("perft 3 --bogus"), 2);
    CHECK_STR(out, "kingme perft: unknown option '--bogus'\nsee: kingme help perft\n");
    /* --opt=value as well as --opt value; no old spelling kept (--nohash) */
    CHECK_INT(kingme("perft 3 --fen='B:W32:B1'"), 0);
    CHECK_MSG(strstr(out, "perft 3: 6 leaves") != NULL, "%s", out);
    CHECK_INT(kingme("perft 4 --nohash"), 2);
    CHECK_STR(out, "kingme perft: unknown option '--nohash'\nsee: kingme help perft\n");
    CHECK_INT(kingme("perft 4 --no-hash"), 0);
    CHECK_MSG(strstr(out, "perft 4: 1469 leaves") != NULL && strstr(out, "(no table)"), "%s", out);
    CHECK_INT(kingme("perft 4 --no-hash --hash=8"), 0);
    CHECK_MSG(strstr(out, "perft 4: 1469 leaves") != NULL, "%s", out);
    CHECK_INT(kingme("perft 3 --divide=yes"), 2);
    CHECK_STR(out, "kingme perft: --divide takes no value\nsee: kingme help perft\n");
    CHECK_INT(kingme("perft 3 --hash=0"), 0); /* 0 MB, as everywhere: no table */
    CHECK_MSG(strstr(out, "perft 3: 302 leaves") && strstr(out, "(no table)"), "%s", out);
    CHECK_INT(kingme("perft 3 --hash=-1"), 2);
    CHECK_STR(out,
              "kingme perft: --hash '-1' is not a whole number from 0 to 65536\nsee: kingme help perft\n");
    CHECK_INT(kingme("perft 3 4"), 2);
    CHECK_STR(out, "kingme perft: unexpected argument '4'\nsee: kingme help perft\n");
    /* a bad FEN is a failure (1) with one "kingme: " line */
    CHECK_INT(kingme("perft 3 --fen 'B:W33:B1'"), 1);
    CHECK_MSG(strncmp(out, "kingme: ", 8) == 0 && count_lines(out) == 1, "%s", out);
}

TEST(cli_moves)
{
    /* the 7 opening moves, ordered by square (see movegen_hand_simple_moves) */
    CHECK_INT(kingme("moves"), 0);
    CHECK_STR(out, "9-13\n9-14\n10-14\n10-15\n11-15\n11-16\n12-16\n");
    /* a multi-jump in full path notation; the 2 paths of the king's loop */
    CHECK_INT(kingme("moves --fen 'B:W10,19:B6'"), 0);
    CHECK_STR(out, "6x15x24\n");
    CHECK_INT(kingme("moves --fen 'B:W14,15,22,23:BK10'"), 0);
    CHECK_STR(out, "10x17x26x19x10\n10x19x26x17x10\n");
    /* no legal move: nothing listed, still a success */
    CHECK_INT(kingme("moves --fen 'B:W9,14:B5'"), 0);
    CHECK_STR(out, "");
    /* bad FEN: exit 1, exactly one line "kingme: ..." */
    CHECK_INT(kingme("moves --fen 'B:W21,21:B1'"), 1);
    CHECK_MSG(strncmp(out, "kingme: ", 8) == 0 && count_lines(out) == 1 && strstr(out, "given twice"), "%s",
              out);
    CHECK_INT(kingme("moves --fen ''"), 1);
    CHECK_MSG(strncmp(out, "kingme: ", 8) == 0 && count_lines(out) == 1, "%s", out);
    /* usage errors */
    CHECK_INT(kingme("moves --bogus"), 2);
    CHECK_STR(out, "kingme moves: unknown option '--bogus'\nsee: kingme help moves\n");
    CHECK_INT(kingme("moves --fen"), 2);
    CHECK_STR(out, "kingme moves: --fen needs a value (FEN)\nsee: kingme help moves\n");
    CHECK_INT(kingme("moves 11-15"), 2);
    CHECK_STR(out, "kingme moves: takes no arguments, not '11-15'\nsee: kingme help moves\n");
}

/* Every command's help: its option table passes the checks (a default for
 * every option with a value, in range; no name twice), else status 70. */
TEST(cli_help_of_every_command)
{
    CHECK_INT(kingme("help"), 0);
    static char list[sizeof out];
    memcpy(list, out, sizeof out);
    int n = 0;
    for (char *line = strstr(list, "commands:\n"); line && (line = strstr(line, "\n  ")); n++) {
        line += 3;
        if (*line == ' ') { /* a long summary continued */
            n--;
            continue;
        }
        char name[32];
        CHECK(sscanf(line, "%31s", name) == 1);
        char args[64];
        snprintf(args, sizeof args, "help %s", name);
        CHECK_MSG(kingme(args) == 0, "%s: %s", args, out);
        char want[64];
        snprintf(want, sizeof want, "usage: kingme %s", name);
        CHECK_MSG(strstr(out, want) != NULL, "%s", out);
        snprintf(args, sizeof args, "%s --help", name);
        CHECK_MSG(kingme(args) == 0 && strstr(out, want) != NULL, "%s: %s", args, out);
    }
    CHECK_MSG(n >= 13, "%d commands listed", n);
}

TEST(cli_help_version_and_unknown_commands)
{
    /* what a bug report needs: the version, the commit, the build, the data */
    CHECK_INT(kingme("--version"), 0);
    CHECK_MSG(strncmp(out, "kingme " KINGME_VERSION "\ncommit:   ",
                      sizeof "kingme " KINGME_VERSION "\ncommit:   " - 1) == 0 &&
                  strstr(out, "\nbuilt:    ") && strstr(out, "\nprogram:  /") &&
                  strstr(out, "\nbook:     ") && strstr(out, "\ndatabase: ") &&
                  strstr(out, "\nweights:  default (built in)"),
              "%s", out);
    CHECK(strstr(out, "commit:   unknown") == NULL); /* the Makefile gave it */
    CHECK_INT(kingme("help perft"), 0);
    CHECK_MSG(strstr(out, "usage: kingme perft DEPTH [OPTIONS]") != NULL && strstr(out, "--fen") != NULL,
              "%s", out);
    /* every option with its default; no old spelling */
    CHECK_MSG(strstr(out, "--hash MB") && strstr(out, "[default: 16]") && !strstr(out, "--nohash"), "%s",
              out);
    CHECK_INT(kingme("help help"), 0);
    CHECK_MSG(strstr(out, "usage: kingme help [COMMAND]") != NULL, "%s", out);
    CHECK_INT(kingme("help moves"), 0);
    CHECK(strstr(out, "kingme moves") != NULL);
    CHECK_INT(kingme("perft --help"), 0);
    CHECK(strstr(out, "kingme perft DEPTH") != NULL);
    CHECK_INT(kingme("help"), 0);
    CHECK(strstr(out, "perft") != NULL && strstr(out, "moves") != NULL);
    /* unknown command, unknown help topic: one line, exit 2; no command: the list */
    CHECK_INT(kingme("frobnicate"), 2);
    CHECK_STR(out, "kingme: unknown command 'frobnicate' (kingme help lists the commands)\n");
    CHECK_INT(kingme("help frobnicate"), 2);
    CHECK_STR(out, "kingme: no command 'frobnicate' (kingme help lists the commands)\n");
    CHECK_INT(kingme(""), 2);
    CHECK(strstr(out, "usage") != NULL);
}

/* The help block of one option of a command (from its line "  OPT" or
 * "  ALIAS, OPT" to the next option), copied to buf; false when absent. */
static bool option_help(const char *cmd, const char *opt, char *buf, size_t len)
{
    char args[64];
    snprintf(args, sizeof args, "help %s", cmd);
    if (kingme(args) != 0) return false;
    for (const char *p = out; (p = strstr(p, "\n  ")); p++) {
        const char *name = p + 3;
        if (strncmp(name, "-j, ", 4) == 0) name += 4;
        size_t n = strlen(opt);
        if (strncmp(name, opt, n) != 0 || (name[n] != ' ' && name[n] != '\n')) continue;
        const char *end = p + 1;
        while ((end = strchr(end, '\n')) && strncmp(end, "\n        ", 9) == 0) end++;
        size_t k = end ? (size_t)(end - p) : strlen(p);
        snprintf(buf, len, "%.*s", (int)(k < len ? k : len - 1), p);
        return true;
    }
    return false;
}

/* One spelling and one default for the same thing in every command: the
 * table size, the seed, the endgame database, the clock, the ply cap, the
 * threads of a search and the games played at once. */
TEST(cli_same_option_same_spelling_and_default)
{
    char h[2048];
    const char *hash[] = {"search", "play", "engine", "analyze", "match", "perft", "selfplay"};
    for (size_t i = 0; i < sizeof hash / sizeof *hash; i++)
        CHECK_MSG(option_help(hash[i], "--hash", h, sizeof h) && strstr(h, "--hash MB") &&
                      strstr(h, "[default: 16]"),
                  "%s --hash: %s", hash[i], h);
    const char *seed[] = {"search", "play", "match", "tune", "egdb"};
    for (size_t i = 0; i < sizeof seed / sizeof *seed; i++)
        CHECK_MSG(option_help(seed[i], "--seed", h, sizeof h) && strstr(h, "[default: 1]"), "%s --seed: %s",
                  seed[i], h);
    const char *egdb[] = {"search", "play", "engine", "analyze", "match", "bench", "tune"};
    for (size_t i = 0; i < sizeof egdb / sizeof *egdb; i++)
        CHECK_MSG(option_help(egdb[i], "--no-egdb", h, sizeof h), "%s: no --no-egdb", egdb[i]);
    const char *game[] = {"play", "match"};
    for (size_t i = 0; i < 2; i++) {
        CHECK_MSG(option_help(game[i], "--tc", h, sizeof h) && strstr(h, "--tc M+I") &&
                      strstr(h, "M minutes each"),
                  "%s --tc: %s", game[i], h);
        CHECK_MSG(option_help(game[i], "--max-plies", h, sizeof h) && strstr(h, "[default: 0]"),
                  "%s --max-plies: %s", game[i], h);
        char args[128];
        /* the values checked; the old spellings (--clock, --ply-cap) are gone */
        const char *players = i ? " default default" : "";
        snprintf(args, sizeof args, "%s%s --tc five", game[i], players);
        CHECK_INT(kingme(args), 2);
        CHECK_MSG(strstr(out, "--tc 'five' is not MINUTES+SECONDS"), "%s", out);
        snprintf(args, sizeof args, "%s%s --max-plies -1", game[i], players);
        CHECK_INT(kingme(args), 2);
        CHECK_MSG(strstr(out, "--max-plies '-1' is not a whole number from 0 to 99999"), "%s", out);
        snprintf(args, sizeof args, "%s%s --clock 5+2", game[i], players);
        CHECK_INT(kingme(args), 2);
        CHECK_MSG(strstr(out, "unknown option '--clock'"), "%s", out);
    }
    const char *search_threads[] = {"search", "play", "engine", "analyze"};
    for (size_t i = 0; i < sizeof search_threads / sizeof *search_threads; i++) {
        CHECK_MSG(option_help(search_threads[i], "--threads", h, sizeof h) && strstr(h, "search threads") &&
                      strstr(h, "[default: 1]") && !strstr(h, "-j"),
                  "%s --threads: %s", search_threads[i], h);
        char args[64];
        snprintf(args, sizeof args, "%s -j 2", search_threads[i]);
        CHECK_INT(kingme(args), 2); /* -j is games at once, not a search's threads */
    }
    const char *at_once[] = {"match", "tune", "egdb", "selfplay", "book"};
    for (size_t i = 0; i < sizeof at_once / sizeof *at_once; i++)
        CHECK_MSG(option_help(at_once[i], "--concurrency", h, sizeof h) && strstr(h, "-j, --concurrency N") &&
                      strstr(h, "[default: all cores]"),
                  "%s -j: %s", at_once[i], h);
    /* book build's old spelling of it is gone */
    CHECK_INT(kingme("book build --threads 1"), 2);
    CHECK_MSG(strstr(out, "kingme book: unknown option '--threads'"), "%s", out);
    CHECK_INT(kingme("help book"), 0);
    CHECK_MSG(!strstr(out, "old spellings"), "%s", out);
}

/* The library has no circle: no module includes one that includes it back,
 * and no object file uses one that uses it back (tools/layers.sh, over the
 * includes and over nm's symbols of the objects the tests were built with). */
TEST(cli_library_layers_have_no_circle)
{
    char build[256];
    test_build_dir(build, sizeof build);
    static char res[8192];
    char cmd[512];
    snprintf(cmd, sizeof cmd, "tools/layers.sh %s", build);
    CHECK_MSG(test_run(cmd, res, sizeof res) == 0, "%s", res);
    CHECK_MSG(strstr(res, "modules:\n") && strstr(res, "objects (") && strstr(res, " 0 circles\nobjects"),
              "%s", res);
}

/* Every name the library exports starts with its module's prefix
 * (tools/prefixes.sh over nm's symbols of the objects the tests were built
 * with), and the script does find one that does not. */
TEST(cli_library_names_carry_their_modules_prefix)
{
    char build[256];
    test_build_dir(build, sizeof build);
    static char res[8192];
    char cmd[1024], dir[64];
    snprintf(cmd, sizeof cmd, "tools/prefixes.sh %s", build);
    CHECK_MSG(test_run(cmd, res, sizeof res) == 0, "%s", res);
    CHECK_MSG(strstr(res, " 0 without their module's prefix") != NULL, "%s", res);
    /* a board.o that exports frobnicate beside board_ok */
    test_fresh_dir("cli", dir, sizeof dir, "prefixes");
    snprintf(
        cmd, sizeof cmd,
        "printf 'int frobnicate(void) { return 1; }\nint board_ok(void) { return 2; }\n' > %s/board.c && "
        "cc -c -o %s/board.o %s/board.c && ar rc %s/libkingme.a %s/board.o && tools/prefixes.sh %s",
        dir, dir, dir, dir, dir, dir);
    CHECK_INT(test_run(cmd, res, sizeof res), 1);
    CHECK_MSG(strstr(res, "prefixes: board.o defines 'frobnicate', not board_...\n") &&
                  !strstr(res, "board_ok") && strstr(res, "2 names exported by 1 objects, 1 without"),
              "%s", res);
    test_remove_dir(dir);
}

/* Every option a command asks for (opt_int(o, OPT_DEPTH), in its own file
 * or in a helper it calls such as cli_egdb_auto) is in that command's table:
 * tools/opts-check.sh over the sources finds none missing, and it does find
 * those of a command made to lack them (tests/data/opts_missing.c). */
TEST(cli_every_option_asked_for_is_in_the_table)
{
    static char res[8192];
    CHECK_MSG(test_run("tools/opts-check.sh", res, sizeof res) == 0, "%s", res);
    int ncmd = 0, nmissing = -1;
    CHECK_MSG(sscanf(res, "%d commands, %d missing", &ncmd, &nmissing) == 2 && nmissing == 0, "%s", res);
    CHECK_INT(kingme("help"), 0); /* as many commands as kingme help lists */
    int listed = 0;
    for (const char *p = out; (p = strstr(p, "\n  ")); p++) listed += p[3] != ' ';
    CHECK_MSG(ncmd == listed && listed >= 20, "%d commands checked, %d listed: %s", ncmd, listed, res);
    CHECK_INT(test_run("tools/opts-check.sh tests/data/opts_missing.c src/cli/egdb.c", res, sizeof res), 1);
    CHECK_MSG(
        strstr(res, "kingme missing (tests/data/opts_missing.c): asks for --depth, not in its table\n") &&
            strstr(res, "asks for --egdb, not in its table\n") &&
            strstr(res, "asks for --no-egdb, not in its table\n") &&
            strstr(res, "asks for --egdb-pieces, not in its table\n") && !strstr(res, "--hash") &&
            strstr(res, "2 commands, 4 missing\n"),
        "%s", res);
}
