/* label.c - kingme label: self-play positions scored again for kingme fit. */
#include "kingme/label.h"
#include "cli.h"
#include "kingme/egdb.h"
#include "longrun.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct Show {
    bool tty;
    const char *dir;
} Show;

static void on_progress(const LabelProgress *p, void *user)
{
    const Show *sh = user;
    char eta[32] = "?";
    if (p->eta >= 0) snprintf(eta, sizeof eta, "%.0f s", p->eta);
    fprintf(stderr, "%slabel: %s: %d of %d chunks, %llu positions labelled, %.0f s, ETA %s%s",
            sh->tty ? "\r" : "", sh->dir, p->chunks_done, p->chunks, (unsigned long long)p->positions,
            p->elapsed, eta, sh->tty ? "   " : "\n");
    fflush(stderr);
}

static int run(const Opts *o)
{
    LabelConfig c;
    label_config_default(&c);
    c.nodes = (uint64_t)opt_int(o, OPT_NODES);
    c.min_pieces = (int)opt_int(o, OPT_MIN_PIECES);
    c.max_pieces = (int)opt_int(o, OPT_MAX_PIECES);
    c.hash_mb = (int)opt_int(o, OPT_HASH);
    if (c.max_pieces <= c.min_pieces)
        return cli_usage_error("label", "--max-pieces %d leaves no position above --min-pieces %d",
                               c.max_pieces, c.min_pieces);
    if (!cli_weights(opt_str(o, OPT_WEIGHTS), &c.weights)) return 1;
    struct Egdb *db = NULL;
    if (!cli_egdb_auto(o, &db)) return 1;
    c.egdb = db;
    long long threads = cli_concurrency(o);
    if (!cli_tables_fit(c.hash_mb, threads)) {
        if (db) egdb_close(db);
        return 1;
    }
    cli_catch_sigint(true, "stopping after the games in play (their chunk is not saved)");
    char err[KM_ERR_MAX] = "";
    int rc = 0;
    for (int i = 0; rc == 0 && i < o->nargs && !atomic_load(&cli_stop); i++) {
        const char *dir = o->args[i];
        fprintf(stderr, "label: %s: positions of %d to %d pieces, %llu nodes each, %lld thread%s%s\n", dir,
                c.min_pieces + 1, c.max_pieces, (unsigned long long)c.nodes, threads, threads == 1 ? "" : "s",
                db ? ", with the endgame database" : "");
        Show sh = {isatty(2) != 0, dir};
        LabelTotals t;
        rc = label_run(&c, dir, (int)threads, on_progress, &sh, &cli_stop, &t, err);
        if (sh.tty) fputc('\n', stderr);
        if (rc == 0 && !atomic_load(&cli_stop))
            printf("label: %s: %llu positions, %llu labelled exactly, %llu by search\n", dir,
                   (unsigned long long)t.positions, (unsigned long long)t.exact,
                   (unsigned long long)t.searched);
    }
    cli_catch_sigint(false, NULL);
    if (db) egdb_close(db);
    if (rc) return cli_error("%s", err);
    if (atomic_load(&cli_stop)) return cli_error("label: stopped; run the same command again to go on");
    return 0;
}

static const Opt options[] = {
    {OPT_NODES, NULL, NULL, OPT_INT, "N", 100, 1000000000, "100000", "the search's nodes a position"},
    {OPT_MIN_PIECES, NULL, NULL, OPT_INT, "N", 0, 24, "5",
     "label positions with more pieces than this (the fit's --min-pieces)"},
    {OPT_MAX_PIECES, NULL, NULL, OPT_INT, "N", 1, 24, "10", "label positions with at most this many pieces"},
    {OPT_WEIGHTS, "-w", NULL, OPT_STR, "FILE", 0, 0, "default", WEIGHTS_HELP},
    CLI_HASH_OPT("each thread's table (0: none)"),
    CLI_CONCURRENCY_OPT("games labelled at once"),
    CLI_EGDB_OPTS,
    OPTS_END,
};

const CliCommand cmd_label = {
    "label",
    run,
    "score self-play positions again for kingme fit (search, endgame database)",
    &(const OptSpec){
        "DIR...",
        1,
        1000,
        "Gives the quiet positions (no capture pending) of kingme selfplay's folders that have more than "
        "--min-pieces and at most --max-pieces pieces a better label than the games' own: the endgame "
        "database's result where it knows the position (exact), else the score of a search of --nodes "
        "nodes with the database at its leaves (exact when it proves a win or a loss). The labels of "
        "DIR/sp-NNNNNN.kmsp go to DIR/lb-NNNNNN.kmlb; kingme fit --labels uses them. A game's positions "
        "are searched from its last, with one table, so the labels do not depend on -j; a run stopped by "
        "Ctrl-C goes on where it was when run again (the label files there are checked and kept).",
        options,
        "example: kingme label sp --max-pieces 10 --nodes 100000 --egdb egdb6  ->  label: sp: ...",
    },
};
