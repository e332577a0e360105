/* longrun.h - what the long-running commands (tune, match) share: a stop
 * flag set by Ctrl-C, the default thread count, and mkdir -p. */
#ifndef KINGME_CLI_LONGRUN_H
#define KINGME_CLI_LONGRUN_H

#include <stdatomic.h>
#include <stdbool.h>

/* Set by the first Ctrl-C once cli_catch_sigint(true) is in force; a second
 * Ctrl-C exits at once (status 130). */
extern atomic_bool cli_stop;

/* Install (true) or restore (false) the SIGINT handler; installing clears
 * cli_stop. `what` ends the message printed at the first Ctrl-C ("stopping
 * after saving"). */
void cli_catch_sigint(bool on, const char *what);

/* All cores online (sysconf), 1..256. */
int cli_default_threads(void);

/* mkdir -p; prints the error and returns false on failure. */
bool cli_make_dirs(const char *path);

/* snprintf that reports truncation: false (and an error line) when buf is
 * too small. */
bool cli_path(char *buf, int len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The folder part of path ("." when none) into buf. */
void cli_dirname(const char *path, char *buf, int len);

#endif
