/* main.c - command dispatch, help and version. */
#include "cli.h"
#include "kingme/datapath.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern const CliCommand cmd_perft, cmd_moves;
extern const CliCommand cmd_pdn;
extern const CliCommand cmd_show, cmd_eval, cmd_bench;
extern const CliCommand cmd_search;
extern const CliCommand cmd_tune, cmd_find, cmd_match, cmd_tune_search;
extern const CliCommand cmd_play;
extern const CliCommand cmd_help, cmd_version;
extern const CliCommand cmd_engine, cmd_worker;
extern const CliCommand cmd_egdb;
extern const CliCommand cmd_analyze;
extern const CliCommand cmd_book;
extern const CliCommand cmd_selfplay, cmd_label, cmd_fit;

/* The order of "kingme help": the user's three doors first. */
static const CliCommand *const commands[] = {
    &cmd_play,   &cmd_analyze, &cmd_tune,  &cmd_tune_search, &cmd_find,   &cmd_show,
    &cmd_search, &cmd_engine,  &cmd_match, &cmd_eval,        &cmd_worker, &cmd_perft,
    &cmd_moves,  &cmd_pdn,     &cmd_bench, &cmd_egdb,        &cmd_book,   &cmd_selfplay,
    &cmd_label,  &cmd_fit,     &cmd_help,  &cmd_version,
};
#define NCOMMANDS (int)(sizeof commands / sizeof commands[0])

const CliCommand *const *cli_commands(int *n)
{
    *n = NCOMMANDS;
    return commands;
}

const CliCommand *cli_find(const char *name)
{
    for (int i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i]->name, name) == 0) return commands[i];
    return NULL;
}

static void print_commands(FILE *f)
{
    fprintf(f, "usage: kingme COMMAND [ARGS]   (kingme help COMMAND for details)\n\ncommands:\n");
    for (int i = 0; i < NCOMMANDS; i++) { /* 80 columns: a long summary wraps under itself */
        char line[512];
        snprintf(line, sizeof line, "  %-8s %s", commands[i]->name, commands[i]->summary);
        cli_wrap(f, line, 11);
    }
}

/* ---- help and version ---------------------------------------------------------- */

/* A command's option table is checked whenever it is used, so a mistake in
 * one shows in the first test that runs the command. */
static bool table_ok(const CliCommand *c)
{
    const char *bad = opts_check_table(c);
    if (bad) fprintf(stderr, "kingme %s: internal error in the option table: %s\n", c->name, bad);
    return !bad;
}

static int run_help(const Opts *o)
{
    if (opt_flag(o, OPT_MAN)) {
        if (o->nargs) return cli_usage_error("help", "--man takes no command");
        cli_man_page(stdout);
        return 0;
    }
    if (opt_given(o, OPT_COMPLETION)) {
        if (o->nargs) return cli_usage_error("help", "--completion takes no command");
        return cli_completion(stdout, opt_str(o, OPT_COMPLETION));
    }
    if (o->nargs == 0) {
        print_commands(stdout);
        return 0;
    }
    const CliCommand *c = cli_find(o->args[0]);
    if (!c) return cli_error("no command '%s' (kingme help lists the commands)", o->args[0]) * 2;
    if (!table_ok(c)) return 70;
    opts_print_help(c, stdout);
    return 0;
}

const CliCommand cmd_help = {
    "help",
    run_help,
    "this list, or the help of one command",
    &(const OptSpec){
        "[COMMAND]",
        0,
        1,
        "Without a command: the list of commands. With one: its usage, what it does, and every "
        "option with its default. `kingme COMMAND --help` shows the same.",
        (const Opt[]){
            {OPT_MAN, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL,
             "the manual page (troff: man -l FILE), written from these same tables; make builds "
             "kingme.1 with it"},
            {OPT_COMPLETION, NULL, NULL, OPT_CHOICE, "bash|zsh", 0, 0, DESCRIBED("none"),
             "the shell completion of every command and option for bash or zsh, written from these "
             "same tables; make builds and installs both"},
            OPTS_END,
        },
        "A bad command line prints one line saying what is wrong and where to look (see: kingme "
        "help COMMAND), with exit status 2.",
    },
};

static int run_version(const Opts *o)
{
    (void)o;
    cli_version_report(stdout);
    return 0;
}

const CliCommand cmd_version = {
    "version",
    run_version,
    "what a bug report needs: version, commit, build, and the data found (also kingme --version)",
    &(const OptSpec){NULL, 0, 0,
                     "The version, the commit it was built from, the build's date and compiler, where the "
                     "program is, the data folders it searches (KINGME_DATA, beside the program, the "
                     "install prefix, the user's data folder), and what it found there: the opening book, "
                     "the endgame database's pieces and the named weights files.",
                     NULL, NULL},
};
/* A descriptor 0, 1 or 2 that the caller closed is opened on /dev/null the
 * wrong way round (1 and 2 read-only, 0 write-only), so that writing to a
 * closed stdout fails (and is reported) instead of the next file opened
 * taking descriptor 1 and receiving what was meant for the terminal. */
static void hold_std_fds(void)
{
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
            int r = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
            if (r >= 0 && r != fd) close(r); /* cannot happen: the lowest free one */
        }
}

/* Everything a command printed must have reached stdout: one line and status
 * 1 when it did not (a full disk, a closed stdout). A command that failed
 * already said why (the engine and worker commands say when their stdout
 * goes away): its status stands, without a second line. */
static int check_stdout(int status)
{
    errno = 0;
    bool failed = fflush(stdout) != 0;
    int e = errno;
    failed = ferror(stdout) || failed;
    if (!failed || status != 0) return status;
    /* a write that failed while the command was still printing (a long
     * output fills the buffer) left no errno here: write once more to learn
     * why (the output is lost already) */
    if (!e) {
        clearerr(stdout);
        errno = 0;
        if (fputc('\n', stdout) == EOF || fflush(stdout) != 0) e = errno;
    }
    if (e) cli_error("write error: %s", strerror(e));
    else cli_error("write error on standard output");
    return 1;
}

static int dispatch(int argc, char **argv);

int main(int argc, char **argv)
{
    hold_std_fds();
#ifdef SIGXFSZ
    /* a file size limit (ulimit -f) makes a write fail with EFBIG, as a full
     * disk does, instead of killing kingme in the middle of a file: every
     * writer then says so on one line and keeps what it wrote whole */
    signal(SIGXFSZ, SIG_IGN);
#endif
    return check_stdout(dispatch(argc, argv));
}

static int dispatch(int argc, char **argv)
{
    cli_set_command_line(argc, argv);
    datapath_set_argv0(argc > 0 ? argv[0] : NULL);
    board_hash_init();
    if (argc < 2) {
        print_commands(stderr);
        return 2;
    }
    const char *name = argv[1];
    if (strcmp(name, "--version") == 0) name = "version";
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) name = "help";
    const CliCommand *c = cli_find(name);
    if (!c) return cli_error("unknown command '%s' (kingme help lists the commands)", name) * 2;
    if (!table_ok(c)) return 70;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) break;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            opts_print_help(c, stdout);
            return 0;
        }
    }
    Opts *o = malloc(sizeof *o);
    if (!o) return cli_error("out of memory");
    int status = opts_parse(c, argc - 1, argv + 1, o);
    if (status == 0) status = c->run(o);
    free(o);
    return status;
}
