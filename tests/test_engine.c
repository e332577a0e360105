/* test_engine.c - kingme engine driven through pipes, as a GUI or a match
 * referee drives it: a whole game, stop during go infinite, errors, the
 * game's history (repetition, the forty-move rule). */
#include "kingme/game.h"
#include "kingme/notation.h"
#include "kingme/search.h"
#include "kingme/weights.h"
#include "test.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct Pipe {
    pid_t pid;
    int to, from; /* write commands to `to`, read answers from `from` */
    char buf[65536];
    size_t len;
} Pipe;

static bool pipe_open(Pipe *p, const char *args)
{
    int in[2], out[2];
    memset(p, 0, sizeof *p);
    if (pipe(in) || pipe(out)) return false;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "exec %s engine %s", test_kingme(), args);
    p->pid = fork();
    if (p->pid < 0) return false;
    if (p->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    p->to = in[1];
    p->from = out[0];
    signal(SIGPIPE, SIG_IGN);
    return true;
}

static void pipe_send(Pipe *p, const char *line)
{
    size_t n = strlen(line);
    if (write(p->to, line, n) != (ssize_t)n || write(p->to, "\n", 1) != 1)
        test_fail(__FILE__, __LINE__, "cannot write '%s' to the engine", line);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The next answer line (no newline) into line, waiting at most secs. */
static bool pipe_line(Pipe *p, char *line, size_t cap, double secs)
{
    double end = now_s() + secs;
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->len);
        if (nl) {
            size_t n = (size_t)(nl - p->buf);
            snprintf(line, cap, "%.*s", (int)n, p->buf);
            memmove(p->buf, nl + 1, p->len - n - 1);
            p->len -= n + 1;
            return true;
        }
        double left = end - now_s();
        if (left <= 0 || p->len == sizeof p->buf) return false;
        struct pollfd pf = {p->from, POLLIN, 0};
        if (poll(&pf, 1, (int)(left * 1000) + 1) <= 0) continue;
        ssize_t r = read(p->from, p->buf + p->len, sizeof p->buf - p->len);
        if (r <= 0) return false;
        p->len += (size_t)r;
    }
}

/* Read until a line starting with prefix; that line into line. Lines before
 * it (info ...) are kept in the last `info` line when info is not NULL. */
static bool pipe_until(Pipe *p, const char *prefix, char *line, size_t cap, char *info, double secs)
{
    double end = now_s() + secs;
    char l[8192];
    while (pipe_line(p, l, sizeof l, end - now_s())) {
        if (strncmp(l, prefix, strlen(prefix)) == 0) {
            snprintf(line, cap, "%s", l);
            return true;
        }
        if (info && strncmp(l, "info ", 5) == 0) snprintf(info, 8192, "%s", l);
    }
    return false;
}

/* "bestmove M ponder P" -> "bestmove M" (the reply it expects is checked
 * where it matters). */
static void strip_ponder(char *line)
{
    char *p = strstr(line, " ponder ");
    if (p) *p = '\0';
}

static int pipe_close(Pipe *p)
{
    close(p->to);
    char l[8192];
    while (pipe_line(p, l, sizeof l, 10)) {
    }
    close(p->from);
    int st = 0;
    waitpid(p->pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The score of an info line ("info depth D score S ..."). */
static long info_score(const char *info)
{
    const char *s = strstr(info, " score ");
    return s ? strtol(s + 7, NULL, 10) : -999999;
}

TEST(engine_plays_a_whole_game)
{
    /* The engine plays both sides at depth 4 from the start; the referee here
     * checks every bestmove against the rules and the engine's own fen. */
    Pipe p;
    if (!pipe_open(&p, "--hash 8")) return;
    char line[8192];
    pipe_send(&p, "hello");
    CHECK(pipe_line(&p, line, sizeof line, 10));
    CHECK_MSG(strncmp(line, "hello kingme ", 13) == 0 && strstr(line, " protocol 1"), "%s", line);
    pipe_send(&p, "newgame");
    pipe_send(&p, "isready");
    CHECK(pipe_until(&p, "readyok", line, sizeof line, NULL, 10));
    Game g;
    game_init(&g, NULL);
    char moves[65536] = "position start moves";
    int plies = 0;
    while (g.result == GAME_ONGOING && plies < 120) {
        pipe_send(&p, moves);
        pipe_send(&p, "go depth 4");
        if (!pipe_until(&p, "bestmove ", line, sizeof line, NULL, 30)) {
            CHECK_MSG(false, "no bestmove at ply %d", plies);
            break;
        }
        strip_ponder(line);
        Move m;
        char err[KM_ERR_MAX];
        if (notation_parse_move(&g.cur, line + 9, &m, err)) {
            CHECK_MSG(false, "ply %d: '%s': %s", plies, line, err);
            break;
        }
        game_play(&g, &m);
        size_t at = strlen(moves);
        snprintf(moves + at, sizeof moves - at, " %s", line + 9);
        plies++;
    }
    CHECK_MSG(plies >= 20, "only %d plies", plies);
    /* the engine's idea of the position is the referee's */
    pipe_send(&p, moves);
    pipe_send(&p, "fen");
    CHECK(pipe_until(&p, "fen ", line, sizeof line, NULL, 10));
    char fen[128];
    board_to_fen(&g.cur, fen, sizeof fen);
    CHECK_STR(line + 4, fen);
    if (g.result != GAME_ONGOING && g.reason == REASON_NO_MOVES) {
        pipe_send(&p, "go depth 3");
        CHECK(pipe_until(&p, "bestmove ", line, sizeof line, NULL, 10));
        CHECK_STR(line, "bestmove none");
    }
    pipe_send(&p, "quit");
    CHECK_INT(pipe_close(&p), 0);
    game_free(&g);
}

/* The CPU seconds the process pid has used (all its threads), or -1 when
 * its CPU-time clock cannot be read. */
static double cpu_of(pid_t pid)
{
    clockid_t c;
    struct timespec t;
    if (clock_getcpuclockid(pid, &c) || clock_gettime(c, &t)) return -1;
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

TEST(engine_stop_during_go_infinite)
{
    /* stop ends a running search at once: the engine works less than 50 ms
     * of CPU from the stop to its bestmove. CPU time, not the wall clock:
     * the search that goes on after the stop, a command reader that is slow
     * to see it or a search that finishes its iteration all burn CPU, while
     * the time a loaded machine keeps the engine off the processor does not
     * (the wall clock is the fallback where the process's CPU-time clock
     * cannot be read). The best of three tries. */
    Pipe p;
    if (!pipe_open(&p, "--hash 8")) return;
    char line[8192];
    double best = 1e9, wall = 1e9;
    bool cpu = true;
    for (int t = 0; t < 3; t++) {
        pipe_send(&p, "position start");
        pipe_send(&p, "go infinite");
        /* stopped deep in the search: its depth 12 takes some milliseconds
         * from the start position, the iterations after it longer */
        CHECK(pipe_until(&p, "info depth 12 ", line, sizeof line, NULL, 60));
        pipe_send(&p, "isready"); /* answered while searching */
        CHECK(pipe_until(&p, "readyok", line, sizeof line, NULL, 5));
        double c0 = cpu_of(p.pid), t0 = now_s();
        pipe_send(&p, "stop");
        CHECK(pipe_until(&p, "bestmove ", line, sizeof line, NULL, 5));
        double c1 = cpu_of(p.pid), dt = now_s() - t0;
        if (c0 < 0 || c1 < 0) cpu = false;
        if (c1 - c0 < best) best = c1 - c0;
        if (dt < wall) wall = dt;
        CHECK_MSG(strcmp(line, "bestmove none") != 0, "%s", line);
    }
    if (cpu) CHECK_MSG(best < 0.050, "the engine worked %.1f ms of CPU after stop at best", best * 1000);
    else CHECK_MSG(wall < 0.050, "stop answered after %.1f ms at best", wall * 1000);
    /* an infinite search that ended by itself (a proven result) still waits for stop */
    pipe_send(&p, "position fen W:WK32:BK1,K2");
    pipe_send(&p, "go infinite");
    CHECK(!pipe_until(&p, "bestmove", line, sizeof line, NULL, 0.5));
    pipe_send(&p, "stop");
    CHECK(pipe_until(&p, "bestmove ", line, sizeof line, NULL, 5));
    pipe_send(&p, "quit");
    CHECK_INT(pipe_close(&p), 0);
}

/* The nodes of the engine's depth-D search from the start (a fresh process:
 * a fresh table), or 0. */
static unsigned long long engine_nodes(const char *args, const char *before, int depth)
{
    Pipe p;
    if (!pipe_open(&p, args)) return 0;
    char line[8192], info[8192] = "", go[32];
    if (before) pipe_send(&p, before);
    pipe_send(&p, "position start");
    snprintf(go, sizeof go, "go depth %d", depth);
    pipe_send(&p, go);
    unsigned long long n = 0;
    if (pipe_until(&p, "bestmove ", line, sizeof line, info, 60)) {
        const char *s = strstr(info, " nodes ");
        char want[32];
        snprintf(want, sizeof want, "info depth %d ", depth);
        if (s && strncmp(info, want, strlen(want)) == 0) n = strtoull(s + 7, NULL, 10);
    }
    pipe_send(&p, "quit");
    pipe_close(&p);
    return n;
}

TEST(engine_exact_search_is_the_librarys)
{
    /* --exact and 'option search exact' search what search_switches_exact does
     * (no reduction or pruning, node for node), and the default selective
     * search fewer nodes to the same depth. */
    Weights w;
    weights_default(&w);
    Searcher s;
    char err[KM_ERR_MAX];
    CHECK_MSG(search_init(&s, &w, 16, 1, err) == 0, "%s", err);
    Board b;
    board_init(&b);
    search_set_exact(&s, true);
    search_set_tiebreak(&s, TIEBREAK_FIRST);
    SearchLimits lim;
    search_limits_default(&lim);
    lim.depth = 10;
    SearchResult r;
    CHECK(search_run(&s, &b, NULL, 0, 0, &lim, &r, NULL, NULL) == 0);
    search_free(&s);
    unsigned long long flag = engine_nodes("--hash 16 --no-egdb --no-book --exact", NULL, 10);
    unsigned long long opt = engine_nodes("--hash 16 --no-egdb --no-book", "option search exact", 10);
    unsigned long long sel = engine_nodes("--hash 16 --no-egdb --no-book", "option search selective", 10);
    CHECK_MSG(flag == r.nodes, "engine --exact %llu nodes, library %llu", flag, (unsigned long long)r.nodes);
    CHECK_MSG(opt == r.nodes, "option search exact %llu nodes, library %llu", opt,
              (unsigned long long)r.nodes);
    CHECK_MSG(sel > 0 && sel < r.nodes, "selective %llu nodes, exact %llu", sel, (unsigned long long)r.nodes);
}

TEST(engine_errors_then_goes_on)
{
    Pipe p;
    if (!pipe_open(&p, "--hash 1")) return;
    char line[8192];
    static const char *const bad[][2] = {
        {"fly away", "error unknown command 'fly'"},
        {"position fen B:W33:B1", "error position fen: "},
        {"position start moves 11-15 11-16", "error position: move 2 '11-16': "},
        {"position sideways", "error position: expected 'start' or 'fen FEN'"},
        {"go depth zero", "error go: depth needs a number"},
        {"go wtime", "error go: wtime needs a whole number of milliseconds"},
        {"go binc 10", "error go: binc, winc and movestogo go with btime and wtime"},
        {"go warp 9", "error go: unknown limit 'warp'"},
        {"option hash lots", "error option hash: "},
        {"option weights /nonexistent/x.w", "error option weights: /nonexistent/x.w: "},
        {"option tiebreak last", "error option tiebreak: "},
        {"option search deep", "error option search: 'selective' or 'exact', not 'deep'"},
        {"option threads 0", "error option threads: a number of threads from 1 to 64, not '0'"},
        {"option threads many", "error option threads: a number of threads from 1 to 64, not 'many'"},
        {"option colour red", "error option: unknown option 'colour'"},
        {"fen please", "error fen takes no argument"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pipe_send(&p, bad[i][0]);
        CHECK_MSG(pipe_line(&p, line, sizeof line, 10), "no answer to '%s'", bad[i][0]);
        CHECK_MSG(strncmp(line, bad[i][1], strlen(bad[i][1])) == 0, "'%s' -> '%s'", bad[i][0], line);
    }
    /* the position is still the one before the bad commands, and good commands work */
    pipe_send(&p, "position start moves 11-15 c3-d4");
    pipe_send(&p, "moves");
    CHECK(pipe_line(&p, line, sizeof line, 10));
    CHECK_STR(line, "moves 15x22");
    pipe_send(&p, "position start moves 11-15 24-19 15x24 28x19 b6-a5");
    pipe_send(&p, "fen");
    CHECK(pipe_line(&p, line, sizeof line, 10));
    CHECK_STR(line, "fen W:W19,21,22,23,25,26,27,29,30,31,32:B1,2,3,4,5,6,7,8,10,12,13");
    /* a list number is a move too, as at the play prompt: the 1st of 7 */
    pipe_send(&p, "position start moves 1");
    pipe_send(&p, "fen");
    CHECK(pipe_line(&p, line, sizeof line, 10));
    CHECK_STR(line, "fen W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,13");
    pipe_send(&p, "go depth 3");
    CHECK(pipe_until(&p, "bestmove ", line, sizeof line, NULL, 10));
    pipe_send(&p, "go depth 5 movetime 100000 infinite"); /* fine: stop ends it */
    pipe_send(&p, "go depth 2");
    /* the infinite search's info lines may come first */
    CHECK(pipe_until(&p, "error", line, sizeof line, NULL, 10));
    CHECK_STR(line, "error go: a search is running (send stop first)");
    pipe_send(&p, "stop");
    CHECK(pipe_until(&p, "bestmove ", line, sizeof line, NULL, 10));
    /* end of input is quit */
    CHECK_INT(pipe_close(&p), 0);
}

/* Black's king shuffles 1-5-1, White's 29-25-29. Starting from P1 (after
 * Black's 1-5, White to move), seven plies lead to P0 (Black to move) for
 * the second time, and Black's 1-5 would make P1 occur the third time. No
 * other Black move reaches a position seen before. */
static void repetition_case(const char *fen, bool expect_repeat)
{
    Pipe p;
    if (!pipe_open(&p, "--hash 8")) return;
    char line[8192], info[8192] = "", cmd[512];
    snprintf(cmd, sizeof cmd, "position fen %s moves 29-25 5-1 25-29 1-5 29-25 5-1 25-29", fen);
    pipe_send(&p, cmd);
    pipe_send(&p, "go depth 6");
    CHECK(pipe_until(&p, "bestmove ", line, sizeof line, info, 30));
    strip_ponder(line);
    if (expect_repeat) {
        CHECK_MSG(strcmp(line, "bestmove 1-5") == 0, "behind: %s (%s)", line, info);
        CHECK_MSG(info_score(info) == 0, "the repetition is a draw: %s", info);
    } else {
        CHECK_MSG(strcmp(line, "bestmove 1-5") != 0, "ahead: %s (%s)", line, info);
        CHECK_MSG(info_score(info) > 0, "%s", info);
    }
    pipe_send(&p, "quit");
    pipe_close(&p);
}

TEST(engine_repetition_from_the_game_history)
{
    /* ahead (three kings to two): Black avoids the third occurrence */
    repetition_case("W:WK29,K30:BK5,K3,K12", false);
    /* behind (two kings to three): Black takes the draw */
    repetition_case("W:WK29,K31,K32:BK5,K3", true);
}

TEST(engine_forty_move_rule_with_a_man_move)
{
    /* From "B:WK4,K32,29:BK1" the kings walk the loops of test_game.c for 79
     * plies with no man move: White (two kings and a man against a king) is
     * to move, and every king move completes 40 moves each, a draw. Only the
     * man's move 29-25 restarts the count (the official rule; counting
     * captures only, it would draw too), so White, ahead, plays it. */
    Pipe p;
    if (!pipe_open(&p, "--hash 8")) return;
    char cmd[4096] = "position fen B:WK4,K32,29:BK1 moves", line[8192], info[8192] = "";
    for (int ply = 0, bi = 0, wi = 0; ply < 79; ply++) {
        const char *m = ply % 2 == 0 ? test_black_loop[bi++ % 6] : test_white_loop[wi++ % 8];
        size_t at = strlen(cmd);
        snprintf(cmd + at, sizeof cmd - at, " %s", m);
    }
    pipe_send(&p, cmd);
    pipe_send(&p, "go depth 3");
    CHECK(pipe_until(&p, "bestmove ", line, sizeof line, info, 30));
    strip_ponder(line);
    CHECK_STR(line, "bestmove 29-25");
    CHECK_MSG(strncmp(info, "info depth 3 ", 13) == 0 && info_score(info) > 0, "%s", info);
    /* one ply earlier (78 reversible plies, Black to move) nothing is forced yet:
     * a king move leaves White one more move before the count runs out */
    char *last = strrchr(cmd, ' ');
    *last = '\0';
    last = strrchr(cmd, ' ');
    *last = '\0';
    pipe_send(&p, cmd); /* 77 plies: White to move, the count at 77 */
    pipe_send(&p, "go depth 1");
    CHECK(pipe_until(&p, "bestmove ", line, sizeof line, info, 30));
    CHECK_MSG(info_score(info) > 0, "%s", info);
    pipe_send(&p, "quit");
    pipe_close(&p);
}

TEST(search_command_sees_the_moves_history)
{
    /* kingme search --moves: the same repetition as above, through the command
     * line: with the history, Black (behind) takes the draw (score 0); from the
     * bare position, nothing repeats and the score is Black's deficit */
    static char out[65536];
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "%s search --depth 6 --tiebreak first --fen W:WK29,K31,K32:BK5,K3 "
             "--moves '29-25 5-1 25-29 1-5 29-25 5-1 25-29'",
             test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "depth  6  score        0 ") && strstr(out, "bestmove 1-5\n"), "%s", out);
    snprintf(cmd, sizeof cmd, "%s search --depth 6 --tiebreak first --fen B:WK29,K31,K32:BK1,K3",
             test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "depth  6  score    -") != NULL, "%s", out);
    /* a move that is not legal there: one line, exit 1 */
    snprintf(cmd, sizeof cmd, "%s search --depth 2 --moves '11-15 11-16'", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    CHECK_MSG(strncmp(out, "kingme: move 2 '11-16': ", 24) == 0 && !strchr(out, '\n')[1], "%s", out);
}

/* A 3-piece database built in /tmp/kingme-engine-TAG-PID (its name in dir). */
static void build_egdb3(char *dir, size_t len, const char *tag)
{
    char cmd[1024];
    static char out[65536];
    snprintf(dir, len, "/tmp/kingme-engine-%s-%d", tag, (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf %s && %s egdb build --pieces 3 --dir %s", dir, test_kingme(), dir);
    CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s", out);
}

/* The database's files are checked while the engine answers, not before
 * it reads its first command: a file whose data fail their checksum is
 * said at isready (before, the whole database was refused at the start,
 * on stderr, and the engine went on without it), and the other files are
 * used. */
TEST(engine_checks_the_database_files_while_it_answers)
{
    char dir[128], cmd[1024], line[8192], info[8192] = "";
    static char out[65536];
    build_egdb3(dir, sizeof dir, "egdb-bad");
    /* the last byte of the data of one man against one man */
    char victim[256];
    snprintf(victim, sizeof victim, "%s/b1k0w1k0.kdb", dir);
    FILE *f = fopen(victim, "r+b");
    CHECK(f != NULL);
    if (!f) return;
    int c = fseek(f, -1, SEEK_END) == 0 ? fgetc(f) : EOF;
    CHECK(c != EOF && fseek(f, -1, SEEK_END) == 0 && fputc(c ^ 0x10, f) != EOF);
    fclose(f);
    Pipe p;
    snprintf(cmd, sizeof cmd, "--hash 1 --egdb %s 2>/dev/null", dir);
    if (!pipe_open(&p, cmd)) return;
    pipe_send(&p, "isready");
    CHECK(pipe_line(&p, line, sizeof line, 10));
    CHECK_MSG(strncmp(line, "error egdb: ", 12) == 0 &&
                  strstr(line, "b1k0w1k0.kdb: corrupt data (checksum mismatch)"),
              "%s", line);
    CHECK(pipe_line(&p, line, sizeof line, 10));
    CHECK_STR(line, "readyok");
    /* said once */
    pipe_send(&p, "isready");
    CHECK(pipe_line(&p, line, sizeof line, 10));
    CHECK_STR(line, "readyok");
    /* three kings: a database loss for White */
    pipe_send(&p, "position fen W:WK32:BK1,K2");
    pipe_send(&p, "go depth 2");
    CHECK(pipe_until(&p, "bestmove ", line, sizeof line, info, 10));
    long sc = info_score(info);
    CHECK_MSG(sc < -400000000 && sc > -500000000, "%s", info);
    pipe_send(&p, "quit");
    CHECK_INT(pipe_close(&p), 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}

TEST(engine_option_egdb)
{
    /* a 3-piece database built here; option egdb makes the search use it */
    char dir[128], cmd[1024], line[8192], info[8192] = "";
    static char out[65536];
    build_egdb3(dir, sizeof dir, "egdb");
    Pipe p;
    if (!pipe_open(&p, "--hash 1")) return;
    pipe_send(&p, "option egdb /nonexistent/egdb");
    CHECK(pipe_line(&p, line, sizeof line, 10));
    CHECK_MSG(strncmp(line, "error option egdb: ", 19) == 0, "%s", line);
    snprintf(cmd, sizeof cmd, "option egdb %s", dir);
    pipe_send(&p, cmd);
    /* the files load in the background; isready waits for them */
    pipe_send(&p, "isready");
    CHECK(pipe_until(&p, "readyok", line, sizeof line, NULL, 10));
    pipe_send(&p, "position fen W:WK32:BK1,K2");
    pipe_send(&p, "go depth 2");
    CHECK(pipe_until(&p, "bestmove ", line, sizeof line, info, 10));
    long sc = info_score(info);
    /* a database loss for White: -(500000000 - distance), below every
     * evaluation and above every proven loss */
    CHECK_MSG(sc < -400000000 && sc > -500000000, "%s", info);
    /* a path with spaces: the rest of the line, as for weights and book */
    char spaced[160];
    snprintf(spaced, sizeof spaced, "%s-a b", dir);
    snprintf(cmd, sizeof cmd, "ln -s %s '%s'", dir, spaced);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    pipe_send(&p, "option egdb none");
    snprintf(cmd, sizeof cmd, "option egdb %s", spaced);
    pipe_send(&p, cmd);
    pipe_send(&p, "isready");
    CHECK(pipe_until(&p, "readyok", line, sizeof line, NULL, 10));
    CHECK_MSG(strncmp(line, "readyok", 7) == 0, "%s", line);
    pipe_send(&p, "go depth 2");
    CHECK(pipe_until(&p, "bestmove ", line, sizeof line, info, 10));
    sc = info_score(info);
    CHECK_MSG(sc < -400000000 && sc > -500000000, "through '%s': %s", spaced, info);
    snprintf(cmd, sizeof cmd, "rm -f '%s'", spaced);
    test_run(cmd, out, sizeof out);
    pipe_send(&p, "option egdb none");
    pipe_send(&p, "go depth 2");
    CHECK(pipe_until(&p, "bestmove ", line, sizeof line, info, 10));
    sc = info_score(info);
    CHECK_MSG(sc > -100000 && sc < 0, "without the database: %s", info);
    pipe_send(&p, "quit");
    CHECK_INT(pipe_close(&p), 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}

TEST(engine_egdb_beside_the_program)
{
    /* the engine and play use the database in egdb/ beside the program with
     * no option (KINGME_EGDB unset), none with --no-egdb or KINGME_EGDB=none,
     * and a damaged one costs a warning, not the command */
    char dir[128], cmd[2048];
    static char out[65536];
    snprintf(dir, sizeof dir, "/tmp/kingme-beside-%d", (int)getpid());
    snprintf(cmd, sizeof cmd,
             "rm -rf %s && mkdir %s && cp %s %s/kingme && %s/kingme egdb build --pieces 3 --dir %s/egdb", dir,
             dir, test_kingme(), dir, dir, dir);
    CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s", out);
    /* isready: the database's files are in (they load in the background) */
    const char *go = "printf 'isready\\nposition fen W:WK32:BK1,K2\\ngo depth 2\\nquit\\n'";
    /* beside the program: a database loss for White */
    snprintf(cmd, sizeof cmd, "%s | env -u KINGME_EGDB %s/kingme engine --hash 1 | grep '^info' | tail -1",
             go, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    long sc = info_score(out);
    CHECK_MSG(sc < -400000000 && sc > -500000000, "%s", out);
    /* --no-egdb, KINGME_EGDB=none: the evaluation's score */
    snprintf(cmd, sizeof cmd,
             "%s | env -u KINGME_EGDB %s/kingme engine --hash 1 --no-egdb | grep '^info' | tail -1", go, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    sc = info_score(out);
    CHECK_MSG(sc > -100000 && sc < 0, "--no-egdb: %s", out);
    snprintf(cmd, sizeof cmd, "%s | KINGME_EGDB=none %s/kingme engine --hash 1 | grep '^info' | tail -1", go,
             dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    sc = info_score(out);
    CHECK_MSG(sc > -100000 && sc < 0, "KINGME_EGDB=none: %s", out);
    /* play says what the database knows of the position */
    snprintf(cmd, sizeof cmd,
             "printf 'quit\\n' | env -u KINGME_EGDB %s/kingme play --fen W:WK32:BK1,K2 --no-color --out "
             "%s/game.pdn | grep 'Endgame database'",
             dir, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "Endgame database: White, to move, loses") != NULL, "%s", out);
    /* every command that searches does the same: search, match */
    snprintf(cmd, sizeof cmd, "env -u KINGME_EGDB %s/kingme search --fen W:WK32:BK1,K2 --depth 2 --hash 1",
             dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "score  db loss") != NULL, "search: %s", out);
    snprintf(cmd, sizeof cmd,
             "env -u KINGME_EGDB %s/kingme search --fen W:WK32:BK1,K2 --depth 2 --hash 1 --no-egdb", dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "db loss") == NULL, "search --no-egdb: %s", out);
    snprintf(cmd, sizeof cmd,
             "env -u KINGME_EGDB %s/kingme match default default --games 2 --depth 1 -j 1 --out /dev/null",
             dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "seed 1, endgame database\n") != NULL, "match: %s", out);
    snprintf(cmd, sizeof cmd,
             "env -u KINGME_EGDB %s/kingme match default default --games 2 --depth 1 -j 1 --out /dev/null "
             "--no-egdb",
             dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "seed 1\n") != NULL, "match --no-egdb: %s", out);
    /* a damaged slice: one warning line, and the engine plays on without it */
    snprintf(cmd, sizeof cmd,
             "truncate -s 100 %s/egdb/b0k2w0k1.kdb && %s | env -u KINGME_EGDB %s/kingme engine --hash 1 2>&1 "
             "| grep -c -e '^kingme: .*going on without the endgame database$' -e '^bestmove '",
             dir, go, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strcmp(out, "2\n") == 0, "%s", out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}

/* go ... allmoves: at every depth one info line per legal move (multipv 1
 * to n), best first, the first line's move the bestmove; multipv 2 the best
 * two. */
TEST(engine_allmoves_scores_every_move)
{
    Pipe p;
    if (!pipe_open(&p, "--hash 8 --no-egdb")) return;
    char line[8192];
    pipe_send(&p, "position start moves 11-15 23-19");
    pipe_send(&p, "go depth 6 allmoves");
    int seen[8] = {0};
    long last_score = 1L << 40;
    char first[64] = "";
    for (;;) {
        if (!pipe_line(&p, line, sizeof line, 30)) {
            CHECK_MSG(false, "no bestmove");
            break;
        }
        if (strncmp(line, "bestmove ", 9) == 0) break;
        int k, d;
        if (sscanf(line, "info multipv %d depth %d ", &k, &d) != 2) {
            CHECK_MSG(false, "not a multipv line: %s", line);
            continue;
        }
        if (d != 6 || k < 1 || k > 7) continue;
        seen[k]++;
        long sc = info_score(line);
        CHECK_MSG(sc <= last_score, "not sorted: %s", line);
        last_score = sc;
        if (k == 1) {
            const char *pv = strstr(line, " pv ");
            if (pv) snprintf(first, sizeof first, "%.*s", (int)strcspn(pv + 4, " "), pv + 4);
        }
    }
    for (int k = 1; k <= 7; k++) CHECK_MSG(seen[k] == 1, "multipv %d seen %d times at depth 6", k, seen[k]);
    strip_ponder(line);
    CHECK_MSG(strcmp(line + 9, first) == 0, "%s, first line %s", line, first);
    pipe_send(&p, "go depth 4 multipv 2");
    int lines = 0;
    while (pipe_line(&p, line, sizeof line, 30) && strncmp(line, "bestmove ", 9) != 0)
        lines += strncmp(line, "info multipv ", 13) == 0 && strstr(line, " depth 4 ") != NULL;
    CHECK_INT(lines, 2);
    pipe_send(&p, "go depth 2 multipv 0");
    CHECK(pipe_until(&p, "error go: multipv", line, sizeof line, NULL, 5));
    pipe_send(&p, "quit");
    pipe_close(&p);
}

/* go ponder: no bestmove until ponderhit (or stop), then the move; a ponder
 * search that ends by itself (depth reached) waits for the hit too;
 * ponderhit with no ponder search does nothing. bestmove names the reply it
 * expects, a legal move after it. */
TEST(engine_ponder_waits_for_the_hit)
{
    Pipe p;
    if (!pipe_open(&p, "--hash 8 --no-egdb")) return;
    char line[8192];
    pipe_send(&p, "ponderhit");
    pipe_send(&p, "isready");
    CHECK(pipe_until(&p, "readyok", line, sizeof line, NULL, 10));
    pipe_send(&p, "position start moves 11-15 23-19");
    pipe_send(&p, "go ponder movetime 50");
    CHECK(!pipe_until(&p, "bestmove", line, sizeof line, NULL, 0.4)); /* pondering: no limit */
    pipe_send(&p, "ponderhit");
    CHECK(pipe_until(&p, "bestmove ", line, sizeof line, NULL, 10));
    /* bestmove M ponder P: P is legal after M */
    char mv[32], reply[32];
    CHECK_MSG(sscanf(line, "bestmove %31s ponder %31s", mv, reply) == 2, "%s", line);
    Game g;
    game_init(&g, NULL);
    Move m;
    char err[KM_ERR_MAX];
    const char *opening[2] = {"11-15", "23-19"};
    for (int i = 0; i < 2; i++)
        CHECK(notation_parse_move(&g.cur, opening[i], &m, err) == 0 && game_play(&g, &m) == 0);
    CHECK_MSG(notation_parse_move(&g.cur, mv, &m, err) == 0, "%s", err);
    game_play(&g, &m);
    CHECK_MSG(notation_parse_move(&g.cur, reply, &m, err) == 0, "ponder %s: %s", reply, err);
    game_free(&g);
    /* a search that has ended still waits */
    pipe_send(&p, "go ponder depth 2");
    CHECK(!pipe_until(&p, "bestmove", line, sizeof line, NULL, 0.3));
    pipe_send(&p, "ponderhit");
    CHECK(pipe_until(&p, "bestmove ", line, sizeof line, NULL, 5));
    /* stop ends a ponder search as any other */
    pipe_send(&p, "go ponder");
    CHECK(!pipe_until(&p, "bestmove", line, sizeof line, NULL, 0.2));
    pipe_send(&p, "stop");
    CHECK(pipe_until(&p, "bestmove ", line, sizeof line, NULL, 5));
    pipe_send(&p, "quit");
    CHECK_INT(pipe_close(&p), 0);
}

/* option level N: the same seed the same move; bad levels refused. */
TEST(engine_level_option)
{
    char first[3][96];
    for (int run = 0; run < 3; run++) {
        Pipe p;
        if (!pipe_open(&p, "--hash 8 --no-egdb")) return;
        char line[8192];
        pipe_send(&p, run < 2 ? "option seed 5" : "option seed 6");
        pipe_send(&p, "option level 1");
        for (int k = 0; k < 4; k++) {
            pipe_send(&p, k % 2 ? "position start moves 10-14" : "position start");
            pipe_send(&p, "go depth 8");
            CHECK(pipe_until(&p, "bestmove ", line, sizeof line, NULL, 10));
            strip_ponder(line);
            size_t at = strlen(first[run] + 0) * (k > 0);
            snprintf(first[run] + at, sizeof first[run] - at, "%s%.16s", k ? " " : "", line + 9);
        }
        if (run == 0) {
            pipe_send(&p, "option level 0");
            CHECK(pipe_until(&p, "error option level: a level from 1", line, sizeof line, NULL, 5));
            pipe_send(&p, "option level 11");
            CHECK(pipe_until(&p, "error option level", line, sizeof line, NULL, 5));
        }
        pipe_send(&p, "quit");
        pipe_close(&p);
    }
    CHECK_MSG(strcmp(first[0], first[1]) == 0, "%s / %s", first[0], first[1]);
}
