/* selfplay.c - kingme selfplay: training games for kingme fit. */
#include "kingme/selfplay.h"
#include "cli.h"
#include "kingme/egdb.h"
#include "kingme/workers.h"
#include "longrun.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* "1:02:03" or "2:03" */
static void clock_text(double s, char *buf, size_t len)
{
    long t = (long)(s + 0.5);
    if (t >= 3600) snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

typedef struct Show {
    bool tty;
    int games, chunk;
} Show;

static void on_progress(const SelfplayProgress *p, void *user)
{
    const Show *sh = user;
    char el[32], eta[32] = "?";
    clock_text(p->elapsed, el, sizeof el);
    if (p->eta >= 0) clock_text(p->eta, eta, sizeof eta);
    int done = p->chunks_done * sh->chunk > sh->games ? sh->games : p->chunks_done * sh->chunk;
    fprintf(stderr, "%sselfplay: %d of %d games, %llu positions, %s, ETA %s%s", sh->tty ? "\r" : "", done,
            sh->games, (unsigned long long)p->positions, el, eta, sh->tty ? "   " : "\n");
    fflush(stderr);
}

static int run(const Opts *o)
{
    SelfplayConfig c;
    selfplay_config_default(&c);
    c.games = (int)opt_int(o, OPT_GAMES);
    c.chunk = (int)opt_int(o, OPT_CHUNK);
    c.nodes = (uint64_t)opt_int(o, OPT_NODES);
    c.random_plies = (int)opt_int(o, OPT_RANDOM_PLIES);
    c.margin = (int)opt_int(o, OPT_MARGIN);
    c.max_plies = (int)opt_int(o, OPT_MAX_PLIES);
    c.hash_mb = (int)opt_int(o, OPT_HASH);
    c.seed = (uint64_t)opt_int(o, OPT_SEED);
    if (!cli_weights(opt_str(o, OPT_WEIGHTS), &c.weights)) return 1;
    bool workers = opt_given(o, OPT_WORKERS);
    if (workers && c.max_plies > SELFPLAY_WORKER_MAX_PLIES)
        return cli_usage_error("selfplay",
                               "with --workers, --max-plies is at most %d (a game travels on one line)",
                               SELFPLAY_WORKER_MAX_PLIES);
    /* the database beside the program by default (workers must hold the
     * same slices: one that does not stops the run with a line) */
    struct Egdb *db = NULL;
    if (!cli_egdb_auto(o, &db)) return 1;
    c.egdb = db;
    long long threads = cli_concurrency(o);
    WorkerSet *ws = NULL;
    if (!cli_workers(o, &ws, &threads) || !cli_tables_fit(c.hash_mb, threads)) {
        workers_free(ws);
        if (db) egdb_close(db);
        return 1;
    }
    const char *dir = opt_str(o, OPT_OUT);
    Show sh = {isatty(2) != 0, c.games, c.chunk};
    char who[128];
    cli_threads_text(threads, ws, who, sizeof who);
    fprintf(stderr, "selfplay: %d games into %s, %llu nodes a move, %d random plies, %s, seed %llu%s\n",
            c.games, dir, (unsigned long long)c.nodes, c.random_plies, who, (unsigned long long)c.seed,
            db ? ", with the endgame database" : "");
    cli_catch_sigint(true, "stopping after the games in play (their chunks are not saved)");
    char err[KM_ERR_MAX] = "";
    int rc = selfplay_run(&c, dir, (int)threads, ws, on_progress, &sh, &cli_stop, err);
    cli_catch_sigint(false, NULL);
    if (sh.tty) fputc('\n', stderr);
    if (ws) {
        WorkerStats st;
        workers_stats(ws, &st);
        fprintf(stderr, "workers: %llu games from %d worker%s, %llu failure%s\n",
                (unsigned long long)st.results, workers_count(ws), workers_count(ws) == 1 ? "" : "s",
                (unsigned long long)st.failures, st.failures == 1 ? "" : "s");
    }
    workers_free(ws);
    if (db) egdb_close(db);
    if (rc) return cli_error("%s", err);
    if (atomic_load(&cli_stop)) return cli_error("selfplay: stopped; run the same command again to go on");
    SelfplayData d = {0};
    if (selfplay_read_dir(dir, &d, err)) return cli_error("%s", err);
    printf("selfplay: %d games, %zu positions in %s (Black won %d, White %d, drawn %d)\n", d.games, d.n, dir,
           d.wins[0], d.wins[1], d.wins[2]);
    selfplay_data_free(&d);
    return 0;
}

static const Opt options[] = {
    {OPT_OUT, "-o", NULL, OPT_STR, "DIR", 0, 0, "selfplay", "the folder of the game files (sp-NNNNNN.kmsp)"},
    {OPT_GAMES, "-n", NULL, OPT_INT, "N", 1, 100000000, "1000", "games to play in all"},
    {OPT_NODES, NULL, NULL, OPT_INT, "N", 100, 1000000000, "20000", "the search's nodes a move"},
    {OPT_RANDOM_PLIES, NULL, NULL, OPT_INT, "N", 0, 100, "8",
     "after the ballot, this many plies drawn among the near-best moves"},
    {OPT_MARGIN, NULL, NULL, OPT_INT, "V", 0, 100000, "100",
     "near-best: within V of the best move's score (a man is about 1000)"},
    {OPT_MAX_PLIES, NULL, NULL, OPT_INT, "N", 10, 10000, "250", "a game this long is a draw"},
    {OPT_CHUNK, NULL, NULL, OPT_INT, "N", 1, 100000, "50", "games per file (the unit of resuming)"},
    CLI_SEED_OPT("the games follow from the seed (the same on any number of threads)"),
    {OPT_WEIGHTS, "-w", NULL, OPT_STR, "FILE", 0, 0, "default", WEIGHTS_HELP},
    CLI_HASH_OPT("each game's table (0: none)"),
    CLI_CONCURRENCY_OPT("games played at once"),
    WORKERS_OPTIONS,
    CLI_EGDB_OPTS,
    OPTS_END,
};

const CliCommand cmd_selfplay = {
    "selfplay",
    run,
    "training games for kingme fit (positions, scores, results)",
    &(const OptSpec){
        NULL,
        0,
        0,
        "Plays --games games of kingme against itself from the ACF ballots (a few random near-best "
        "moves after each for variety; then --nodes nodes a move) and keeps every position with the "
        "search's score and the game's result, in chunk files of --chunk games under --out. The games "
        "follow from --seed alone; a run stopped by Ctrl-C or a kill goes on where it was when run "
        "again with the same options (the chunks on disk are checked and kept). With --workers FILE the "
        "games are played by worker processes (`kingme worker`, docs/workers.md), one job a game, and "
        "the chunk files are byte for byte those of a run without them (the weights and their pattern "
        "layer are sent to the workers; a worker whose endgame database is not this run's stops it with a "
        "line); a game is then at most 4000 plies.",
        options,
        "example: kingme selfplay --games 200 --out sp --nodes 5000  ->  selfplay: 200 games, ...",
    },
};
