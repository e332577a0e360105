/* opts.h - the one option parser of every command.
 *
 * Each command describes its options in a table (OptSpec): name, shown
 * aliases, old spellings still accepted, kind, range, default and help line.
 * The same table parses the command line and writes the command's help, so
 * the help always lists every option with its default.
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

typedef struct Opt {
    const char *name;  /* "--depth" */
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
#define OPTS_END {NULL, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL, NULL}
/* clang-format on */

#define OPTS_MAX 48    /* options of one command */
#define OPTS_ITEMS 256 /* values of OPT_LIST options, all together */
#define OPTS_ARGS 4096 /* positional arguments (the files of kingme pdn) */

typedef struct OptSpec {
    const char *args; /* the positional arguments in the usage line ("A.w B.w"), or NULL */
    int min_args, max_args;
    const char *about;  /* what the command does, after the usage line */
    const Opt *opts;    /* ends with an entry whose name is NULL */
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

/* The accessors name an option of the table by its main name ("--depth");
 * any other name is a programming error (message and abort). An option not
 * given yields its default value, or 0 / NULL / -1 (opt_choice) when the
 * default is DESCRIBED. */
bool opt_given(const Opts *o, const char *name);
bool opt_flag(const Opts *o, const char *name);
long long opt_int(const Opts *o, const char *name);
double opt_real(const Opts *o, const char *name);
const char *opt_str(const Opts *o, const char *name);
int opt_choice(const Opts *o, const char *name); /* index of the word; default's when not given */
int opt_pos(const Opts *o, const char *name);    /* argv index of the last use, 0: not given */
/* The values of an OPT_LIST option in order: count, and the k-th. */
int opt_count(const Opts *o, const char *name);
const char *opt_item(const Opts *o, const char *name, int k);

/* The command's full help (`kingme help CMD`). */
void opts_print_help(const struct CliCommand *cmd, FILE *f);

/* Checks of a table for the tests: every option has a help line, a default
 * that is a valid value within range where it is one, no name twice. Returns
 * NULL or what is wrong (a static string). */
const char *opts_check_table(const struct CliCommand *cmd);

#endif
