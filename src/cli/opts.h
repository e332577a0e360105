/* opts.h - the one option parser of every command.
 *
 * Each command describes its options in a table (OptSpec): name, shown
 * aliases, old spellings still accepted, kind, range, default and help line.
 * The same table parses the command line and writes the command's help, so
 * the help always lists every option with its default. An option is named
 * in the tables and by the accessors by its OptId (OPT_DEPTH for --depth),
 * so that a misspelt name is a compile error.
 *
 * Syntax: `--opt value` and `--opt=value`; a flag takes no value; `--` ends
 * the options; anything else not starting with '-' (or exactly "-") is a
 * positional argument. A repeated option keeps its last value (OPT_LIST
 * keeps them all). A usage error prints one line saying what was wrong and
 * `see: kingme help COMMAND` on stderr; the exit status is then 2. */
#ifndef KINGME_CLI_OPTS_H
#define KINGME_CLI_OPTS_H

#include <stdbool.h>
#include <stdio.h>

typedef enum OptKind {
    OPT_FLAG,   /* no value */
    OPT_INT,    /* a whole number in [lo, hi] */
    OPT_REAL,   /* a number in [lo, hi] */
    OPT_STR,    /* any text */
    OPT_CHOICE, /* one of the words of arg, "random|first" */
    OPT_LIST,   /* text, repeatable: every value is kept */
    OPT_OPTSTR, /* a flag with an optional value: `--opt=V`, or `--opt V`
                   when V does not start with '-' */
} OptKind;

/* Every option name of every command, once: X(ID, "--name") makes OPT_ID.
 * An alias ("-j") and an old spelling are not listed: they are only typed,
 * never asked for. */
/* clang-format off */
#define OPT_NAMES(X)                            \
    X(ALGORITHM, "--algorithm")             \
    X(ALL, "--all")                         \
    X(BALLOT_PLIES, "--ballot-plies")       \
    X(BALLOTS, "--ballots")                 \
    X(BATCH, "--batch")                     \
    X(BLACK, "--black")                     \
    X(BLACK_WEIGHTS, "--black-weights")     \
    X(BOOK, "--book")                       \
    X(BOOK_VARIETY, "--book-variety")       \
    X(CHECK, "--check")                     \
    X(CHECKPOINT, "--checkpoint")           \
    X(CHUNK, "--chunk")                     \
    X(COLOR, "--color")                     \
    X(COMPLETION, "--completion")           \
    X(CONCURRENCY, "--concurrency")         \
    X(CONFIRM, "--confirm")                 \
    X(CONFIRM_ELO, "--confirm-elo")         \
    X(CONTINUE, "--continue")               \
    X(DEPTH, "--depth")                     \
    X(DIR, "--dir")                         \
    X(DIVIDE, "--divide")                   \
    X(DUELS, "--duels")                     \
    X(EGDB, "--egdb")                       \
    X(EGDB_PIECES, "--egdb-pieces")         \
    X(ELITE, "--elite")                     \
    X(ENGINE_FIRST, "--engine-first")       \
    X(EPOCHS, "--epochs")                   \
    X(EVAL, "--eval")                       \
    X(EXACT, "--exact")                     \
    X(FEN, "--fen")                         \
    X(FLIP, "--flip")                       \
    X(FOR, "--for")                         \
    X(FORCE, "--force")                     \
    X(FRESH, "--fresh")                     \
    X(GAME, "--game")                       \
    X(GAMES, "--games")                     \
    X(GAUSS, "--gauss")                     \
    X(GENERATIONS, "--generations")         \
    X(GLADIATOR, "--gladiator")             \
    X(HASH, "--hash")                       \
    X(HOLDOUT, "--holdout")                 \
    X(INCLUDE, "--include")                 \
    X(INDEPENDENT, "--independent")         \
    X(INIT, "--init")                       \
    X(L2, "--l2")                           \
    X(L2_PATTERN, "--l2-pattern")           \
    X(LABELS, "--labels")                   \
    X(LAMBDA, "--lambda")                   \
    X(LEVEL, "--level")                     \
    X(MAN, "--man")                         \
    X(MARGIN, "--margin")                   \
    X(MAX_PIECES, "--max-pieces")           \
    X(MAX_PLIES, "--max-plies")             \
    X(MIN_PIECES, "--min-pieces")           \
    X(MOVES, "--moves")                     \
    X(MULTIPV, "--multipv")                 \
    X(MUTATION, "--mutation")               \
    X(NAME, "--name")                       \
    X(NAMED_ONLY, "--named-only")           \
    X(NET, "--net")                         \
    X(NET_BATCH, "--net-batch")             \
    X(NET_EPOCHS, "--net-epochs")           \
    X(NET_L2, "--net-l2")                   \
    X(NET_RATE, "--net-rate")               \
    X(NO_BOOK, "--no-book")                 \
    X(NO_COLOR, "--no-color")               \
    X(NO_EGDB, "--no-egdb")                 \
    X(NO_ETC, "--no-etc")                   \
    X(NO_EXTENSIONS, "--no-extensions")     \
    X(NO_FUTILITY, "--no-futility")         \
    X(NO_HASH, "--no-hash")                 \
    X(NO_LEGEND, "--no-legend")             \
    X(NO_LMR, "--no-lmr")                   \
    X(NO_PONDER, "--no-ponder")             \
    X(NO_PROBCUT, "--no-probcut")           \
    X(NO_QUIESCENCE, "--no-quiescence")     \
    X(NODES, "--nodes")                     \
    X(ONLY, "--only")                       \
    X(OPENINGS, "--openings")               \
    X(OUT, "--out")                         \
    X(OWN_SPREAD, "--own-spread")           \
    X(PATTERNS_ONLY, "--patterns-only")     \
    X(PDN, "--pdn")                         \
    X(PIECES, "--pieces")                   \
    X(PLAIN, "--plain")                     \
    X(POPULATION, "--population")           \
    X(POSITIONS, "--positions")             \
    X(PRIOR, "--prior")                     \
    X(PROBES, "--probes")                   \
    X(PULL_PRIOR, "--pull-prior")           \
    X(RANDOM_PLIES, "--random-plies")       \
    X(RANDOM_WEIGHTS, "--random-weights")   \
    X(RATE, "--rate")                       \
    X(REL_STEP, "--rel-step")               \
    X(REPORT, "--report")                   \
    X(RESUME, "--resume")                   \
    X(ROUNDS, "--rounds")                   \
    X(SAVE_EVERY, "--save-every")           \
    X(SEARCH, "--search")                   \
    X(SECONDS, "--seconds")                 \
    X(SEED, "--seed")                       \
    X(SELECTION, "--selection")             \
    X(SET, "--set")                         \
    X(SET_A, "--set-a")                     \
    X(SET_B, "--set-b")                     \
    X(SIGMA, "--sigma")                     \
    X(SORT, "--sort")                       \
    X(SPREAD, "--spread")                   \
    X(SPRT, "--sprt")                       \
    X(START_PLIES, "--start-plies")         \
    X(STEP, "--step")                       \
    X(SUITE, "--suite")                     \
    X(SVG, "--svg")                         \
    X(SYMMETRIC, "--symmetric")             \
    X(TACTICS, "--tactics")                 \
    X(TC, "--tc")                           \
    X(THREADS, "--threads")                 \
    X(TIEBREAK, "--tiebreak")               \
    X(TIME, "--time")                       \
    X(TIMEOUT, "--timeout")                 \
    X(TOURNAMENT, "--tournament")           \
    X(VARIETY, "--variety")                 \
    X(VERBOSE, "--verbose")                 \
    X(WEIGHTS, "--weights")                 \
    X(WHITE, "--white")                     \
    X(WHITE_WEIGHTS, "--white-weights")     \
    X(WORKER_TIMEOUT, "--worker-timeout")   \
    X(WORKERS, "--workers")                 \
    X(YARDSTICK, "--yardstick")             \
    X(YARDSTICK_EVERY, "--yardstick-every") \
    X(YARDSTICK_GAMES, "--yardstick-games")
/* clang-format on */

typedef enum OptId {
    OPT_NONE, /* ends a table */
#define OPT_ID_(id, name) OPT_##id,
    OPT_NAMES(OPT_ID_)
#undef OPT_ID_
        OPT_NIDS
} OptId;

/* The option's name as typed ("--depth"). */
const char *opt_name(OptId id);

typedef struct Opt {
    OptId id;          /* OPT_DEPTH: its name is opt_name(id), "--depth" */
    const char *alias; /* another spelling shown in the help ("-j"), or NULL */
    const char *old;   /* old spellings still accepted, space-separated, or NULL */
    OptKind kind;
    const char *arg;  /* the value's name in the help ("MB"); OPT_CHOICE: the words */
    double lo, hi;    /* OPT_INT, OPT_REAL: the range (hi >= 9e18: no upper bound) */
    const char *def;  /* the default: a value ("64"), which the accessors return
                         for an option not given, or DESCRIBED("from the clock"),
                         which the help shows and the command implements. NULL:
                         none (flags, lists, OPT_OPTSTR) */
    const char *help; /* one sentence; the help wraps it */
} Opt;

/* A default that is not a value but says what happens (marked by a \1). */
#define DESCRIBED(text) "\1" text

/* The entry that ends a table. */
/* clang-format off */
#define OPTS_END {OPT_NONE, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL, NULL}
/* clang-format on */

#define OPTS_MAX 48    /* options of one command */
#define OPTS_ITEMS 256 /* values of OPT_LIST options, all together */
#define OPTS_ARGS 4096 /* positional arguments (the files of kingme pdn) */

typedef struct OptSpec {
    const char *args; /* the positional arguments in the usage line ("A.w B.w"), or NULL */
    int min_args, max_args;
    const char *about;  /* what the command does, after the usage line */
    const Opt *opts;    /* ends with OPTS_END (id OPT_NONE) */
    const char *footer; /* after the options (exit status, example), or NULL */
} OptSpec;

typedef struct OptValue {
    int count;        /* times given */
    int pos;          /* argv index of the last one (order of competing flags) */
    const char *text; /* the last value (OPT_OPTSTR without a value: NULL) */
    long long i;
    double x;
} OptValue;

struct CliCommand;

typedef struct Opts {
    const struct CliCommand *cmd;
    const char *name; /* the command's name as typed (tune or find) */
    int nargs;
    const char *args[OPTS_ARGS];
    OptValue v[OPTS_MAX];
    int nitems;
    const char *items[OPTS_ITEMS];
    int item_opt[OPTS_ITEMS]; /* the option each item belongs to */
} Opts;

/* Parse argv[1..argc-1] (argv[0] is the command's name) by the command's
 * table. Returns 0, or 2 after printing the usage error. */
int opts_parse(const struct CliCommand *cmd, int argc, char **argv, Opts *o);

/* The accessors name an option of the command's table by its id; one the
 * table does not have is a programming error (a message naming the command
 * and the option, then abort; tests/test_cli.c checks every command's uses
 * against its table). An option not given yields its default value, or 0 /
 * NULL / -1 (opt_choice) when the default is DESCRIBED. */
bool opt_given(const Opts *o, OptId id);
bool opt_flag(const Opts *o, OptId id);
long long opt_int(const Opts *o, OptId id);
double opt_real(const Opts *o, OptId id);
const char *opt_str(const Opts *o, OptId id);
int opt_choice(const Opts *o, OptId id); /* index of the word; default's when not given */
int opt_pos(const Opts *o, OptId id);    /* argv index of the last use, 0: not given */
/* The values of an OPT_LIST option in order: count, and the k-th. */
int opt_count(const Opts *o, OptId id);
const char *opt_item(const Opts *o, OptId id, int k);

/* The command's full help (`kingme help CMD`). */
void opts_print_help(const struct CliCommand *cmd, FILE *f);

/* Checks of a table for the tests: every option has a help line, a default
 * that is a valid value within range where it is one, no name twice. Returns
 * NULL or what is wrong (a static string). */
const char *opts_check_table(const struct CliCommand *cmd);

#endif
