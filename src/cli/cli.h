/* cli.h - what the command-line front end shares: the command table, error
 * lines, and argument helpers. Only the front end prints and exits. */
#ifndef KINGME_CLI_H
#define KINGME_CLI_H

#include "kingme/board.h"
#include "kingme/egdb.h"
#include "kingme/eval.h"
#include "opts.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

typedef struct CliCommand {
    const char *name;
    int (*run)(const Opts *o); /* the arguments parsed by the command's table */
    const char *summary;       /* one line for "kingme help" */
    const OptSpec *spec;       /* the options, arguments and help text */
} CliCommand;

/* "kingme: <message>" on stderr. Returns 1 (the exit status for a failure).
 * Every error line shows its message through cli_vshown: a file name, FEN
 * or move that holds control bytes is printed escaped, never sent to the
 * terminal as they are. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The usage error: "kingme CMD: <message>" and "see: kingme help CMD" on
 * stderr. Returns 2 (the exit status for a bad command line). */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same lines for a function that answers false or NULL on failure:
 * `return cli_error_false("%s", err);`. */
bool cli_error_false(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *cli_error_null(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool cli_usage_false(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The message of fmt with its control bytes escaped (textio_escape), into
 * shown (len bytes). */
void cli_vshown(char *shown, size_t len, const char *fmt, va_list ap);

/* Integer / real in [lo, hi]; false if s is not entirely such a number. */
bool cli_int(const char *s, long long lo, long long hi, long long *out);
bool cli_double(const char *s, double lo, double hi, double *out);

/* FEN to board, or the initial position for NULL; prints the error. */
bool cli_board(const char *fen, Board *b);

/* --workers FILE (and --worker-timeout S) of tune and match: the worker set,
 * or NULL when --workers is not given (*ws NULL) or after an error line
 * (returns false). With workers, *threads becomes the local threads beside
 * them: -j N when given, else none. Worker events are said on stderr. */
struct WorkerSet;
bool cli_workers(const Opts *o, struct WorkerSet **ws, long long *threads);
/* Whether `tables` tables of hash_mb MB each (one a local thread) fit in the
 * memory here (memlimit_bytes) all at once; false after an error line
 * ("--hash 16000 with -j 2 needs 32000 MB of tables, more than ..."), so that
 * a run is refused before it starts, not when its second table is made. */
bool cli_tables_fit(long long hash_mb, long long tables);
/* Who plays the games, for a header: "2 threads", "3 workers (no local
 * thread)", "3 workers and 1 local thread" (ws NULL: no workers). */
void cli_threads_text(long long threads, const struct WorkerSet *ws, char *buf, size_t len);
#define WORKERS_OPTIONS                                                                                 \
    {OPT_WORKERS,                                                                                       \
     NULL,                                                                                              \
     NULL,                                                                                              \
     OPT_STR,                                                                                           \
     "FILE",                                                                                            \
     0,                                                                                                 \
     0,                                                                                                 \
     DESCRIBED("none"),                                                                                 \
     "play the games on worker processes too: each line of FILE is a shell command that starts one "    \
     "(`ssh node3 kingme worker`, `srun -N1 -n1 kingme worker`, `./kingme worker`); the results are "   \
     "the same as without; -j N local threads play beside them (default with --workers: none)"},        \
    {                                                                                                   \
        OPT_WORKER_TIMEOUT, NULL, NULL, OPT_REAL, "S", 1, 1e6, "600",                                   \
            "a worker silent for S seconds with a game to play is restarted and its games go to others" \
    }

/* Play the moves of text (separated by spaces, in the play prompt's forms:
 * notation_parse_move_input) on g; prints "kingme: move N 'M': why" and returns false
 * at the first that is not legal. */
struct Game;
bool cli_play_moves(struct Game *g, const char *text);

/* Weights from path, or the built-in default (weights/default.w) for NULL
 * or "default"; a name or relative path not found here is looked for in the
 * data folders (datapath_weights: `material`, `weights/handset.w`); prints
 * the error ("kingme: FILE:LINE: ...") and returns false on failure. */
struct Weights;
#define WEIGHTS_HELP                                                                                \
    "a weights file, or a name of the data folders (material, handset); 'default' is the built-in " \
    "weights/default.w"
bool cli_weights(const char *path, struct Weights *w);
/* The same, with the file's header comments (*comments malloc'd, or NULL). */
bool cli_weights_with_comments(const char *path, struct Weights *w, char **comments);

/* The search benchmark (bench_search.c): its fixed positions to depth with
 * the given weights (NULL: default); ends "bench: N nodes, T s, X nps". */
int cli_bench_search(int depth, const char *wpath, bool verbose, bool exact);
/* The positions of bench --eval (the opening, positions of Tinsley's games,
 * a few endgames with kings), FEN strings. */
extern const char *const cli_bench_eval_positions[];
extern const int cli_bench_eval_npositions;
/* The typical-contribution table of kingme show: the mean of every term
 * (eval.h) over the cli_typical_positions positions of Tinsley's
 * cli_typical_games games (tests/data/tinsley.pdn: every position of every
 * game, for the side to move). Every term is >= 0, so w[i] * cli_typical_value[i] is the typical
 * contribution of weight i: the mean |value x weight|, with the weight's
 * sign. Generated by the Makefile (tools/gen_typical.c, linked against the
 * library) into $(BUILD)/gen/eval_typical.c, which the front end links. */
extern const double cli_typical_value[EVAL_NTERMS];
extern const int cli_typical_games, cli_typical_positions;
/* The tactics benchmark: the suite of path searched with a node budget each;
 * ends "tactics: S of N solved at B nodes each, ...". */
int cli_bench_tactics(const char *path, uint64_t budget, const char *wpath, bool verbose, bool exact);

/* one or many by n: "1 game", "2 games" (cli_plural(n, "game", "games")). */
const char *cli_plural(long long n, const char *one, const char *many);

/* The output width: 80 columns (what every line kingme prints fits), or
 * fewer when fd is a narrower terminal. */
#define CLI_WIDTH 80
int cli_term_width(int fd);

/* text printed to f with each line wrapped at CLI_WIDTH columns at its
 * spaces, continuation lines indented by indent. */
void cli_wrap(FILE *f, const char *text, int indent);

/* strftime(fmt) of the local time now into buf ("session-%Y%m%d-%H%M%S"). */
void cli_time_name(char *buf, size_t len, const char *fmt);

/* True when stdout is a terminal and colours are allowed (NO_COLOR unset). */
bool cli_color_ok(int fd);

/* The endgame-database directory: given (--egdb DIR), else $KINGME_EGDB,
 * else egdb/. */
const char *cli_egdb_dir(const char *given);

/* ---- the options several commands share, each defined once ----------------
 * The same spelling and default wherever the same thing is meant. */

/* The endgame database (--egdb [DIR], --no-egdb) of every command that
 * searches (search, play, engine, analyze, match): by default the database
 * of $KINGME_EGDB, else the directory egdb of the data folders (datapath.h:
 * beside the program, where `make`
 * builds it), when there is one; --egdb DIR another, --no-egdb or
 * KINGME_EGDB=none none. cli_egdb_auto opens it into *db (NULL: none). A
 * database asked for (--egdb, KINGME_EGDB) that cannot be opened is an
 * error line (false); the one beside the program costs a warning on stderr,
 * not the command. --egdb-pieces N limits it to N pieces (egdb_limit_pieces;
 * a database of fewer is an error line). */
#define CLI_EGDB_OPTS                                                                             \
    {OPT_EGDB,                                                                                    \
     NULL,                                                                                        \
     NULL,                                                                                        \
     OPT_OPTSTR,                                                                                  \
     "DIR",                                                                                       \
     0,                                                                                           \
     0,                                                                                           \
     NULL,                                                                                        \
     "use the endgame database in DIR (alone: $KINGME_EGDB or egdb/); without it, $KINGME_EGDB, " \
     "else egdb/ in the data folders (beside the program, PREFIX/share/kingme; kingme version)"}, \
        {OPT_EGDB_PIECES,                                                                         \
         NULL,                                                                                    \
         NULL,                                                                                    \
         OPT_INT,                                                                                 \
         "N",                                                                                     \
         1,                                                                                       \
         EGDB_MAX_PIECES,                                                                         \
         DESCRIBED("all it has"),                                                                 \
         "use the database's positions of at most N pieces only (an error when it has fewer); "   \
         "with --workers, each worker needs the same slices up to N pieces only"},                \
    {                                                                                             \
        OPT_NO_EGDB, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL,                                      \
            "no endgame database, not even the data folders'"                                     \
    }
struct Egdb;
bool cli_egdb_auto(const Opts *o, struct Egdb **db);
/* The same, the files' data read by a thread (egdb_open_background): for
 * the engine, which answers at once and waits for them at isready. */
bool cli_egdb_auto_background(const Opts *o, struct Egdb **db);
/* Only when asked for (--egdb, KINGME_EGDB): what cli_egdb_auto opens then. */
bool cli_egdb(const Opts *o, struct Egdb **db);
/* --no-egdb of the commands that search but never with a database (bench,
 * tune: their figures must not depend on what is built): accepted, so that
 * every command that searches takes it. */
#define CLI_NO_EGDB_NEVER_OPT(who)                                                              \
    {                                                                                           \
        OPT_NO_EGDB, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL,                                    \
            who " never uses an endgame database (accepted, as by every command that searches)" \
    }

/* The transposition table: MB, 0 for none; 16 wherever there is one. */
#define CLI_HASH_OPT(help)                                        \
    {                                                             \
        OPT_HASH, NULL, NULL, OPT_INT, "MB", 0, 65536, "16", help \
    }

/* The seed of everything random in a command: 1 unless given, so that a
 * command run again does the same. */
#define CLI_SEED_OPT(help)                                     \
    {                                                          \
        OPT_SEED, NULL, NULL, OPT_INT, "N", 0, 9e18, "1", help \
    }

/* The search's parameters (search_params.h) of one player: --set NAME=VALUE
 * (repeatable) and --set @FILE (a parameters file, read where it stands in
 * the list: later values win). cli_search_params applies every value of
 * option id to *p; false after an error line. */
#define CLI_SET_OPT(name, who)                                                                          \
    {                                                                                                   \
        name, NULL, NULL, OPT_LIST, "NAME=VALUE|@FILE", 0, 0, NULL,                                     \
            "set a search or time-manager parameter of " who " (repeatable; @FILE: a parameters file, " \
            "as kingme tune-search writes); kingme show --search lists them with their ranges"          \
    }
struct SearchParams;
bool cli_search_params(const Opts *o, OptId id, struct SearchParams *p);
/* The table of kingme show --search: name, value, default, range, what it does. */
void cli_print_search_params(const struct SearchParams *p, bool measured);

/* The threads of one search (search, play, engine, analyze):
 * search_set_threads. Not -j, which is how many games (or slices) are
 * played at once. */
#define SEARCH_THREADS_OPT                                                                   \
    {                                                                                        \
        OPT_THREADS, NULL, NULL, OPT_INT, "N", 1, SEARCH_MAX_THREADS, "1",                   \
            "search threads (lazy SMP: helpers share the table; not deterministic beyond 1)" \
    }

/* How many games (tune, match) or slices (egdb build) run at once. */
#define CLI_CONCURRENCY_OPT(help)                                                       \
    {                                                                                   \
        OPT_CONCURRENCY, "-j", NULL, OPT_INT, "N", 1, 256, DESCRIBED("all cores"), help \
    }
/* Its value: -j N, else the cores (cli_default_threads). */
long long cli_concurrency(const Opts *o);

/* A game clock (play, match): M minutes for each side's game plus I seconds
 * after each move, as players write it (5+2). cli_tc reads it: false after the usage error line. */
#define CLI_TC_OPT                                                                                          \
    {                                                                                                       \
        OPT_TC, NULL, NULL, OPT_STR, "M+I", 0, 0, DESCRIBED("none"),                                        \
            "a game clock for both sides: M minutes each plus I seconds after each move (5+2; 0.1+0.05: 6 " \
            "s a "                                                                                          \
            "game); a side whose clock runs out loses"                                                      \
    }
bool cli_tc(const Opts *o, double *seconds, double *inc);

/* The ply cap (play, match): a game still going after N plies is scored a
 * draw; none by default, the rules ending every game (the forty-move rule). */
#define CLI_MAX_PLIES_OPT                                                                                \
    {                                                                                                    \
        OPT_MAX_PLIES, NULL, NULL, OPT_INT, "N", 0, 99999, "0",                                          \
            "a game still going after N plies (an opening's included) is scored a draw; 0: no cap, the " \
            "rules end "                                                                                 \
            "every game (the forty-move rule)"                                                           \
    }

/* Analyse one game (analyze.c): the summaries on stdout, the annotated
 * game appended to pdn, its curve (chart number index) to svg when not
 * NULL; a Ctrl-C (cli_stop) stops it. Returns 0, 130 when stopped, 1 after
 * an error line. */
struct Searcher;
struct SearchLimits;
struct PdnTag;
struct KmBuf;
int cli_analyze_game(struct Searcher *s, const struct Game *g, const struct SearchLimits *lim,
                     const struct PdnTag *tags, int ntags, const char *result, const char *how,
                     struct KmBuf *pdn, struct KmBuf *svg, int index, int ngames, const char *title);

const CliCommand *cli_find(const char *name);
/* Every command, in the order of kingme help (n of them). */
const CliCommand *const *cli_commands(int *n);

/* The manual page (troff) and the shell completions (bash, zsh; 2 for
 * another shell) written from the command tables (manpage.c). */
void cli_man_page(FILE *f);
int cli_completion(FILE *f, const char *shell);
/* kingme version: the version, the build, the data found (version.c). */
void cli_version_report(FILE *f);

/* The command line as typed, "kingme" and its arguments, each quoted for
 * the shell where it needs it (truncated to len); main gives it first. */
void cli_command_text(char *buf, size_t len);
void cli_set_command_line(int argc, char **argv);

/* The opening book of the commands that play (play, engine, match):
 * --book FILE (none: no book), --no-book; without them $KINGME_BOOK (a
 * file, or none); else weights/default.book of the data folders (datapath.h:
 * beside the program, where the
 * repository keeps it) when there is one, a book that cannot be read then
 * costing a warning on stderr, not the command. cli_book_auto opens it
 * into *bk (NULL: none); false after an error line (a book named that
 * cannot be read). */
#define CLI_BOOK_OPTS                                                                                      \
    {OPT_BOOK,                                                                                             \
     NULL,                                                                                                 \
     NULL,                                                                                                 \
     OPT_STR,                                                                                              \
     "FILE",                                                                                               \
     0,                                                                                                    \
     0,                                                                                                    \
     DESCRIBED("$KINGME_BOOK, else weights/default.book of the data folders"),                             \
     "the opening book (kingme book; none: no book)"},                                                     \
    {                                                                                                      \
        OPT_NO_BOOK, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL, "no opening book, not even the data folders'" \
    }
struct Book;
bool cli_book_auto(const Opts *o, struct Book **bk);
/* The book file book commands read: FILE, else $KINGME_BOOK, else the one
 * beside the program (into buf); false after an error line when there is none. */
bool cli_book_path(const char *given, char *buf, size_t len);

#endif
