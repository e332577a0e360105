/* cli.h - what the command-line front end shares: the command table, error
 * lines, and argument helpers. Only the front end prints and exits. */
#ifndef KINGME_CLI_H
#define KINGME_CLI_H

#include "kingme/board.h"

#include <stdbool.h>
#include <stdio.h>

#define KINGME_VERSION "0.1.0"

typedef struct CliCommand {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
    const char *summary;               /* one line for "kingme help" */
    const char *usage;                 /* full help for "kingme help NAME" */
} CliCommand;

/* "kingme: <message>" on stderr. Returns 1 (the exit status for a failure). */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "kingme CMD: <message>" and the command's usage on stderr. Returns 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Integer / real in [lo, hi]; false if s is not entirely such a number. */
bool cli_int(const char *s, long long lo, long long hi, long long *out);
bool cli_double(const char *s, double lo, double hi, double *out);

/* The value after a flag: argv[*i + 1], advancing *i; NULL (and an error
 * line) when it is missing. */
const char *cli_value(const char *cmd, int argc, char **argv, int *i);

/* FEN to board, or the initial position for NULL; prints the error. */
bool cli_board(const char *fen, Board *b);

/* Weights from path, or the built-in default (weights/default.w) for NULL;
 * prints the error ("kingme: FILE:LINE: ...") and returns false on failure. */
struct Weights;
bool cli_weights(const char *path, struct Weights *w);

/* The search benchmark (bench_search.c): its fixed positions to depth with
 * the given weights (NULL: default); ends "bench: N nodes, T s, X nps". */
int bench_search(int depth, const char *wpath, bool verbose);

/* strftime(fmt) of the local time now into buf ("session-%Y%m%d-%H%M%S"). */
void cli_time_name(char *buf, size_t len, const char *fmt);

/* True when stdout is a terminal and colours are allowed (NO_COLOR unset). */
bool cli_color_ok(int fd);

const CliCommand *cli_find(const char *name);
void cli_print_usage(const CliCommand *c, FILE *f);

#endif
