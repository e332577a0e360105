/* engine.c - kingme engine: the engine protocol on stdin/stdout (engine.h). */
#include "kingme/engine.h"
#include "cli.h"
#include "kingme/datapath.h"
#include "kingme/level.h"
#include "kingme/search.h"
#include "kingme/session.h"
#include "kingme/textio.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool write_failed;
static int write_errno;

static void write_line(const char *line, void *user)
{
    (void)user;
    if (write_failed) return;
    if (fputs(line, stdout) == EOF || putchar('\n') == EOF || fflush(stdout) == EOF) {
        write_failed = true;
        write_errno = errno; /* before anything else can change it */
    }
}

/* One line of stdin into buf (at most cap - 1 bytes kept; *too_long when more
 * came; *nul: the byte offset + 1 of its first NUL byte, 0 when none).
 * Returns false at the end of input with nothing read. */
static bool read_line(char *buf, size_t cap, bool *too_long, size_t *nul)
{
    size_t n = 0, seen = 0;
    int c;
    *too_long = false;
    *nul = 0;
    while ((c = getchar()) != EOF && c != '\n') {
        seen++;
        if (c == '\0' && !*nul) *nul = seen;
        if (n + 1 < cap) buf[n++] = (char)c;
        else *too_long = true;
    }
    buf[n] = '\0';
    return !(c == EOF && seen == 0);
}

static int run(const Opts *o)
{
    const char *wpath = opt_str(o, OPT_WEIGHTS);
    long long hash_mb = opt_int(o, OPT_HASH);
    signal(SIGPIPE, SIG_IGN); /* a closed pipe is a write error, not a death */
    char err[KM_ERR_MAX];
    Session *s = session_new((size_t)hash_mb, err);
    if (!s) return cli_error("%s", err);
    session_set_weights_finder(s, datapath_weights); /* --weights material, option weights material */
    struct Egdb *db;
    if (!cli_egdb_auto_background(o, &db)) {
        session_free(s);
        return 1;
    }
    session_take_egdb(s, db);
    struct Book *bk;
    if (!cli_book_auto(o, &bk)) {
        session_free(s);
        return 1;
    }
    session_take_book(s, bk);
    session_set_book_variety(s, opt_real(o, OPT_BOOK_VARIETY));
    if (opt_flag(o, OPT_EXACT)) session_set_exact(s, true);
    session_set_level(s, (int)opt_int(o, OPT_LEVEL));
    /* the range is checked with the options: only out of memory can fail */
    if (opt_given(o, OPT_THREADS) && session_set_threads(s, (int)opt_int(o, OPT_THREADS), err)) {
        session_free(s);
        return cli_error("%s", err);
    }
    if (wpath && strcmp(wpath, "default") != 0 && session_load_weights(s, wpath, err)) {
        session_free(s);
        return cli_error("%s", err);
    }
    SearchParams par;
    search_params_default(&par);
    if (!cli_search_params(o, OPT_SET, &par)) {
        session_free(s);
        return 1;
    }
    for (int i = 0; i < SEARCH_NPARAMS; i++) {
        char v[40];
        search_params_text(&par, i, v, sizeof v);
        session_set_search_param(s, search_params_info[i].name, v, err); /* checked above */
    }
    Engine *e = engine_new(s, KINGME_VERSION, write_line, NULL, err);
    if (!e) return cli_error("%s", err);
    char *buf = malloc(ENGINE_LINE_MAX + 2);
    if (!buf) {
        engine_free(e);
        return cli_error("out of memory");
    }
    bool too_long;
    size_t nul;
    while (!write_failed && read_line(buf, ENGINE_LINE_MAX + 2, &too_long, &nul)) {
        if (too_long) {
            write_line("error the line is too long (at most 65536 bytes)", NULL);
            continue;
        }
        if (nul) { /* "go depth 2\0 depth 40" is not "go depth 2": the line is refused whole */
            char msg[160];
            snprintf(msg, sizeof msg, "error a NUL byte in the line (byte %zu): the line is ignored", nul);
            write_line(msg, NULL);
            continue;
        }
        if (!engine_command(e, buf)) break;
    }
    engine_free(e); /* end of input is quit */
    free(buf);
    if (write_failed)
        return cli_error("engine: write error on standard output%s%s", write_errno ? ": " : "",
                         write_errno ? strerror(write_errno) : "");
    return 0;
}

static const Opt options[] = {
    {OPT_WEIGHTS, NULL, NULL, OPT_STR, "FILE", 0, 0, "default", WEIGHTS_HELP},
    CLI_EGDB_OPTS,
    CLI_BOOK_OPTS,
    {OPT_BOOK_VARIETY, NULL, NULL, OPT_REAL, "MEN", 0, 100, "0",
     "the book plays one of its moves within MEN of its best, the better likelier (0: its best), as "
     "'option book-variety'"},
    CLI_HASH_OPT("transposition table size (0: none), kept for the whole session"),
    {OPT_EXACT, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL,
     "the exact search (no reduction or pruning), as 'option search exact'"},
    SEARCH_THREADS_OPT,
    {OPT_LEVEL, NULL, NULL, OPT_INT, "N", LEVEL_MIN, LEVEL_FULL, "10",
     "the strength level, as 'option level N': 1 a beginner ... 10 the full engine"},
    CLI_SET_OPT(OPT_SET, "the engine's search, as 'option NAME VALUE'"),
    OPTS_END,
};

const CliCommand cmd_engine = {
    "engine",
    run,
    "the engine protocol on stdin/stdout, for GUIs, scripts and matches",
    &(const OptSpec){
        NULL,
        0,
        0,
        "Reads commands on stdin, one per line, and answers on stdout, one line each "
        "(docs/engine-protocol.md has the whole protocol): hello | isready | newgame | position "
        "start|fen FEN [moves M1 M2 ...] | go [depth D] [nodes N] [movetime MS] [btime MS wtime MS "
        "[binc MS winc MS] [movestogo N]] [infinite] [ponder] [allmoves | multipv N] (info lines, then "
        "bestmove M [ponder P]) | ponderhit | stop | moves | fen | eval | option "
        "hash|weights|egdb|book|book-variety|seed|tiebreak|search|level VALUE | quit. End of input is quit. "
        "While the position is in the opening book, a go for a move (not infinite, ponder, multipv or "
        "allmoves; at the full level) answers at once from it: info book score S pv M, then bestmove M.",
        options,
        "example: printf 'position start\\ngo movetime 500\\n' | kingme engine",
    },
};
