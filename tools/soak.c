/* soak.c - a long session of one `kingme engine` process (make soak, through
 * tools/soak.sh): GAMES games of the engine against itself at a tiny clock
 * (each move `go btime B wtime B binc I winc I`, from a ballot drawn at
 * random, to the rules' end or 150 plies), then LINES lines of a random
 * protocol session (every command, good and bad: positions, searches cut by
 * stop, pondering, options, garbage bytes, NUL bytes, overlong lines). The
 * engine's resident size is read from /proc at the start, after the first
 * 20 games, after the games, half-way through the lines and at the end,
 * with its peak; the engine must answer isready all along and
 * exit with status 0 (under AddressSanitizer's leak checker: no leak).
 *
 *   tools/soak "exec build/asan/kingme engine --no-book --no-egdb" GAMES LINES [CLOCK_MS INC_MS]
 *
 * Prints one line per phase with the figures; exits 1 when the engine fails. */
#include "kingme/base.h"
#include "kingme/board.h"
#include "kingme/engineproc.h"
#include "kingme/game.h"
#include "kingme/movegen.h"
#include "kingme/notation.h"
#include "kingme/opening.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static EngineProc E;
static char err[KM_ERR_MAX];
static char last[128]; /* the last line sent, for a failure's message */

static void die(const char *what)
{
    char how[64];
    proc_kill(&E);
    proc_exit_text(&E, how, sizeof how);
    fprintf(stderr, "soak: %s after '%s' (the engine %s)\n", what, last, how);
    exit(1);
}

/* VmRSS and VmHWM of the engine, in kB. */
static void rss(long *now, long *peak)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)E.child.pid);
    FILE *f = fopen(path, "r");
    *now = *peak = -1;
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "VmRSS:", 6) == 0) *now = atol(line + 6);
        if (strncmp(line, "VmHWM:", 6) == 0) *peak = atol(line + 6);
    }
    fclose(f);
}

static FILE *trace; /* $SOAK_TRACE: every line sent, for a replay */

static void drain(void);

/* Write n bytes to the engine, reading its lines while its input is full
 * (it may be writing, its output full too): pieces of at most PIPE_BUF
 * bytes, which a pipe takes whole or not at all. */
static void put(const char *buf, size_t n)
{
    double end = km_now() + 30;
    for (size_t at = 0; at < n;) {
        size_t k = n - at < 4096 ? n - at : 4096;
        if (proc_write(&E.child, buf + at, k, 0.02, err) == 0) {
            at += k;
            continue;
        }
        if (km_now() > end || strcmp(err, "the process does not read its input") != 0) die(err);
        drain();
    }
}

static void send(const char *line)
{
    static char buf[16400];
    snprintf(last, sizeof last, "%.100s", line);
    if (trace) fprintf(trace, "%s\n", line);
    int n = snprintf(buf, sizeof buf, "%s\n", line);
    put(buf, (size_t)n);
}

/* Read lines until one starting with want (NULL: none, just drain what is
 * there now); the line into buf. */
static void wait_for(const char *want, char *buf, size_t len, double seconds)
{
    double end = km_now() + seconds;
    for (;;) {
        int r = proc_read_line(&E, want ? end : km_now() + 0.002, NULL, buf, len); /* a moment: it reads */
        if (r == PROC_TIMEOUT && !want) return;
        if (r != PROC_LINE && r != PROC_BAD) {
            char what[128];
            snprintf(what, sizeof what, "no '%s' within %.0f s", want ? want : "line", seconds);
            die(what);
        }
        if (r == PROC_LINE && want && strncmp(buf, want, strlen(want)) == 0) return;
    }
}

static void drain(void)
{
    static char buf[PROC_LINE_MAX];
    wait_for(NULL, buf, sizeof buf, 0);
}

static void sync_engine(void)
{
    char buf[PROC_LINE_MAX];
    send("isready");
    wait_for("readyok", buf, sizeof buf, 60);
}

/* ---- games ------------------------------------------------------------------------ */

static int play_games(int games, int clock_ms, int inc_ms, uint64_t *rng, long *rss20)
{
    static char line[16384], buf[PROC_LINE_MAX];
    int plies = 0;
    for (int n = 0; n < games; n++) {
        send("newgame");
        Opening o;
        if (opening_from_ballot(&o, &opening_ballots[km_rng_next(rng) % BALLOT_COUNT], err)) die(err);
        Game g;
        if (game_init(&g, &o.start)) die("out of memory");
        for (int k = 0; k < o.nply; k++)
            if (game_play(&g, &o.moves[k])) die("out of memory");
        while (g.result == GAME_ONGOING && g.nply < 150) {
            size_t at = (size_t)snprintf(line, sizeof line, "position start moves");
            for (int k = 0; k < g.nply; k++) {
                char t[MOVE_TEXT_MAX];
                notation_move_to_text(&g.moves[k], t);
                at += (size_t)snprintf(line + at, sizeof line - at, " %s", t);
            }
            send(line);
            snprintf(line, sizeof line, "go btime %d wtime %d binc %d winc %d", clock_ms, clock_ms, inc_ms,
                     inc_ms);
            send(line);
            wait_for("bestmove ", buf, sizeof buf, 30);
            Move m;
            if (strcmp(buf, "bestmove none") == 0) break;
            char *sp = strchr(buf + 9, ' ');
            if (sp) *sp = '\0';
            if (notation_parse_move(&g.cur, buf + 9, &m, err)) die(err);
            if (game_play(&g, &m)) die("out of memory");
            plies++;
        }
        game_free(&g);
        if (n + 1 == 20) {
            long peak;
            sync_engine();
            rss(rss20, &peak);
        }
    }
    sync_engine();
    return plies;
}

/* ---- a random session ------------------------------------------------------------------ */

static const char *const vocabulary[] = {
    "position start",
    "position start moves 11-15 23-19 8-11 22-17",
    "position fen W:W18,K30:B14,K2",
    "position fen B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "position fen nonsense",
    "position start moves 11-15 11-15",
    "go nodes 300",
    "go depth 3",
    "go movetime 5",
    "go btime 50 wtime 50 binc 2 winc 2",
    "go depth 2 allmoves",
    "go multipv 3 depth 2",
    "go ponder movetime 5",
    "go infinite",
    "stop",
    "ponderhit",
    "isready",
    "newgame",
    "moves",
    "fen",
    "eval",
    "hello",
    "option hash 1",
    "option hash 4",
    "option threads 2",
    "option threads 1",
    "option level 3",
    "option level 10",
    "option seed 7",
    "option tiebreak random",
    "option search exact",
    "option search selective",
    "option book none",
    "option book-variety 0.1",
    "option egdb none",
    "option weights /nonexistent.w",
    "option hash -5",
    "go depth 99999999999999999999",
    "",
    "   ",
    "gox",
};

static int random_session(int lines, uint64_t *rng, long *rss_mid)
{
    static char line[70000];
    int nv = (int)(sizeof vocabulary / sizeof *vocabulary), garbage = 0;
    for (int n = 0; n < lines; n++) {
        uint64_t r = km_rng_next(rng);
        if (r % 20 == 0) { /* garbage: random bytes (NUL included), sometimes very long */
            size_t len = r % 200 == 0 ? 66000 + km_rng_next(rng) % 1000 : km_rng_next(rng) % 60;
            for (size_t i = 0; i < len; i++) {
                line[i] = (char)(km_rng_next(rng) & 0xFF);
                if (line[i] == '\n') line[i] = ' ';
            }
            line[len] = '\n';
            if (trace) fwrite(line, 1, len + 1, trace);
            put(line, len + 1);
            garbage++;
        } else {
            send(vocabulary[(r >> 8) % (uint64_t)nv]);
        }
        if (n % 50 == 49) send("stop"); /* no search goes on for ever */
        if (n % 500 == 499) sync_engine();
        else drain(); /* read what came, so the pipes never fill */
        if (n + 1 == lines / 2) {
            long peak;
            sync_engine();
            rss(rss_mid, &peak);
        }
    }
    send("stop");
    sync_engine();
    return garbage;
}

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 6) {
        fprintf(stderr, "usage: tools/soak \"ENGINE COMMAND\" GAMES LINES [CLOCK_MS INC_MS]\n");
        return 2;
    }
    int games = atoi(argv[2]), lines = atoi(argv[3]);
    int clock_ms = argc == 6 ? atoi(argv[4]) : 40, inc_ms = argc == 6 ? atoi(argv[5]) : 2;
    if (proc_start(&E, argv[1], NULL, err)) {
        fprintf(stderr, "soak: %s\n", err);
        return 1;
    }
    if (getenv("SOAK_TRACE")) trace = fopen(getenv("SOAK_TRACE"), "wb");
    uint64_t rng = 20261127;
    long r0, p0, r20 = -1, r1, p1, rmid = -1, r2, p2;
    rss(&r0, &p0);
    double t0 = km_now();
    int plies = play_games(games, clock_ms, inc_ms, &rng, &r20);
    rss(&r1, &p1);
    printf(
        "soak: %d games, %d plies at go btime %d wtime %d binc %d winc %d in %.0f s; resident %ld kB at the "
        "start, %ld kB after 20 games, %ld kB after %d games (peak %ld kB)\n",
        games, plies, clock_ms, clock_ms, inc_ms, inc_ms, km_now() - t0, r0, r20, r1, games, p1);
    fflush(stdout);
    fflush(stdout);
    t0 = km_now();
    int garbage = random_session(lines, &rng, &rmid);
    rss(&r2, &p2);
    printf(
        "soak: %d random protocol lines (%d of garbage bytes) in %.0f s; resident %ld kB after %d lines, %ld "
        "kB at the end (peak %ld kB)\n",
        lines, garbage, km_now() - t0, rmid, lines / 2, r2, p2);
    proc_quit(&E, 60);
    char how[64];
    proc_exit_text(&E, how, sizeof how);
    printf("soak: the engine %s\n", how);
    return strcmp(how, "exited with status 0") == 0 ? 0 : 1;
}
