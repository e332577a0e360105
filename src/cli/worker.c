/* worker.c - kingme worker: does the jobs a coordinator (tune, match,
 * selfplay or book build with --workers) sends, one line in, one line out
 * (worker.h). */
#include "kingme/worker.h"
#include "cli.h"
#include "kingme/book.h"
#include "kingme/book_build.h"
#include "kingme/egdb.h"
#include "kingme/selfplay.h"
#include "kingme/worker_proto.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run(const Opts *o)
{
    signal(SIGPIPE, SIG_IGN);
    /* the database and the book found here, said in the hello: a run that
     * uses another database is refused by the coordinator, a book of the
     * same bytes is not sent */
    Egdb *db = NULL;
    Book *bk = NULL;
    if (!cli_egdb_auto(o, &db)) return 1;
    if (!cli_book_auto(o, &bk)) {
        egdb_close(db);
        return 1;
    }
    WorkerState *ws = worker_state_new(db, bk);
    char *line = malloc(WPROTO_LINE_MAX + 2);
    char *hello = ws ? worker_hello(ws) : NULL;
    int rc = 0;
    if (!ws || !line || !hello || selfplay_worker_kind(ws) || book_build_worker_kind(ws)) {
        rc = cli_error("out of memory");
        goto done;
    }
    printf("%s\n", hello);
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
    if (!write_ok) rc = cli_error("worker: write error on standard output: %s", strerror(errno));
done:
    free(hello);
    worker_state_free(ws);
    free(line);
    book_close(bk);
    egdb_close(db);
    return rc;
}

static const Opt options[] = {
    CLI_EGDB_OPTS,
    CLI_BOOK_OPTS,
    OPTS_END,
};

const CliCommand cmd_worker = {
    "worker",
    run,
    "do the jobs a coordinator sends: games, book positions, self-play games (--workers)",
    &(const OptSpec){
        NULL,
        0,
        0,
        "Reads job lines on stdin and answers each with a result line on stdout (the worker protocol "
        "in docs/workers.md). Started by `tune --workers FILE`, `match --workers FILE`, `book build "
        "--workers FILE` or `selfplay --workers FILE`, each line of FILE being a command that starts "
        "one worker: `ssh node3 kingme worker`, `srun -N1 -n1 kingme worker`, `./kingme worker`. Its "
        "first line says which endgame database and opening book it found (as play and match find "
        "them): a run that uses the database needs the same slices here; the book and the weights are "
        "sent by the coordinator when they are not here.",
        options,
        NULL,
    },
};
