/* main.c - command dispatch and shared command-line helpers. */
#include "cli.h"
#include "kingme/textio.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern const CliCommand cmd_perft, cmd_moves;
extern const CliCommand cmd_pdn;
extern const CliCommand cmd_show, cmd_eval, cmd_bench;
extern const CliCommand cmd_search;
extern const CliCommand cmd_tune, cmd_find, cmd_match;
extern const CliCommand cmd_play;

/* The order of "kingme help": the user's three doors first. */
static const CliCommand *const commands[] = {
    &cmd_play, &cmd_tune, &cmd_find, &cmd_show,
    &cmd_search, &cmd_match, &cmd_eval,
    &cmd_perft, &cmd_moves, &cmd_pdn, &cmd_bench,
};
#define NCOMMANDS (int)(sizeof commands / sizeof commands[0])

int cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("kingme: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 1;
}

void cli_print_usage(const CliCommand *c, FILE *f) { fprintf(f, "usage: %s\n", c->usage); }

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "kingme %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    const CliCommand *c = cli_find(cmd);
    if (c) cli_print_usage(c, stderr);
    return 2;
}

bool cli_int(const char *s, long long lo, long long hi, long long *out)
{
    return km_parse_ll(s, lo, hi, out);
}

bool cli_double(const char *s, double lo, double hi, double *out)
{
    if (!s || !*s) return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !isfinite(v) || v < lo || v > hi) return false;
    *out = v;
    return true;
}

const char *cli_value(const char *cmd, int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        cli_usage_error(cmd, "%s needs a value", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

bool cli_board(const char *fen, Board *b)
{
    if (!fen) {
        board_init(b);
        return true;
    }
    char err[KM_ERR_MAX];
    if (board_from_fen(b, fen, err)) {
        cli_error("%s", err);
        return false;
    }
    return true;
}

bool cli_color_ok(int fd)
{
    const char *nc = getenv("NO_COLOR");
    if (nc && *nc) return false;
    const char *term = getenv("TERM");
    if (term && strcmp(term, "dumb") == 0) return false;
    return isatty(fd);
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
    for (int i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-8s %s\n", commands[i]->name, commands[i]->summary);
    fprintf(f, "  %-8s %s\n", "help", "this list, or the help of one command");
}

int main(int argc, char **argv)
{
    board_hash_init();
    if (argc < 2) {
        print_commands(stderr);
        return 2;
    }
    const char *name = argv[1];
    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        printf("kingme %s\n", KINGME_VERSION);
        return 0;
    }
    if (strcmp(name, "help") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        if (argc > 2) {
            const CliCommand *c = cli_find(argv[2]);
            if (!c) {
                cli_error("no command '%s'", argv[2]);
                print_commands(stderr);
                return 2;
            }
            printf("kingme %s - %s\n\nusage: %s\n", c->name, c->summary, c->usage);
            return 0;
        }
        print_commands(stdout);
        return 0;
    }
    const CliCommand *c = cli_find(name);
    if (!c) {
        cli_error("unknown command '%s'", name);
        print_commands(stderr);
        return 2;
    }
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("kingme %s - %s\n\nusage: %s\n", c->name, c->summary, c->usage);
            return 0;
        }
    return c->run(argc - 1, argv + 1);
}
