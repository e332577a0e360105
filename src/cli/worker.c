/* worker.c - kingme worker: plays the games a coordinator (tune or match
 * with --workers) sends, one job line in, one result line out (worker.h). */
#include "kingme/worker.h"
#include "cli.h"
#include "kingme/worker_proto.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run(const Opts *o)
{
    (void)o;
    signal(SIGPIPE, SIG_IGN);
    WorkerState *ws = worker_state_new();
    char *line = malloc(WPROTO_LINE_MAX + 2);
    if (!ws || !line) {
        worker_state_free(ws);
        free(line);
        return cli_error("out of memory");
    }
    printf("worker kingme %s protocol", KINGME_VERSION); /* every version it speaks: 1 2 3 4 5 */
    for (int v = 1; v <= WPROTO_VERSION; v++) printf(" %d", v);
    printf("\n");
    bool write_ok = fflush(stdout) == 0;
    int c = 0;
    while (write_ok && c != EOF) {
        size_t n = 0;
        bool too_long = false;
        while ((c = getchar()) != EOF && c != '\n') {
            if (n < WPROTO_LINE_MAX) line[n++] = (char)c;
            else too_long = true;
        }
        line[n] = '\0';
        if (c == EOF && n == 0) break;
        char *ans = too_long ? strdup("error - the line is too long") : worker_handle_line(ws, line);
        if (ans) {
            write_ok = printf("%s\n", ans) >= 0 && fflush(stdout) == 0;
            free(ans);
        }
    }
    worker_state_free(ws);
    free(line);
    if (!write_ok) return cli_error("worker: write error on standard output: %s", strerror(errno));
    return 0;
}

static const Opt options[] = {OPTS_END};

const CliCommand cmd_worker = {
    "worker",
    run,
    "play the games and score the book positions a coordinator sends (--workers)",
    &(const OptSpec){
        NULL,
        0,
        0,
        "Reads job lines on stdin and answers each with a result line on stdout (the worker protocol "
        "in docs/workers.md). Started by `tune --workers FILE`, `match --workers FILE`, `book build "
        "--workers FILE` or `selfplay --workers FILE`, each line of FILE being a command that starts "
        "one worker: `ssh node3 kingme worker`, `srun -N1 -n1 kingme worker`, `./kingme worker`.",
        options,
        NULL,
    },
};
