/* analyze.c - kingme analyze FILE.pdn: every game of a PDN file (or one)
 * analysed move by move, written as annotated PDN, with a summary per side
 * on the screen and the score curve as SVG (analyze.h). */
#include "kingme/analyze.h"
#include "cli.h"
#include "kingme/egdb.h"
#include "kingme/pdn.h"
#include "kingme/svg.h"
#include "kingme/textio.h"
#include "kingme/weights.h"
#include "longrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct Progress {
    bool tty;
    int game, ngames;
} Progress;

static void on_progress(int k, int n, void *user)
{
    const Progress *p = user;
    if (!p->tty) return;
    fprintf(stderr, "\ranalysing game %d of %d: position %d of %d ", p->game, p->ngames, k, n);
    if (k == n) fputs("\r\033[K", stderr);
    fflush(stderr);
}

/* "games/x.pdn" -> "games/x-analysis.pdn" */
static char *default_out(const char *in)
{
    size_t n = strlen(in);
    if (n > 4 && strcmp(in + n - 4, ".pdn") == 0) n -= 4;
    char *s = malloc(n + 16);
    if (s) snprintf(s, n + 16, "%.*s-analysis.pdn", (int)n, in);
    return s;
}

static FILE *report;

/* Where the report goes: the standard output, or the standard error when
 * the annotated games are written to the standard output (--out -), so
 * that the PDN there is PDN alone. */
static FILE *report_stream(void) { return report ? report : stdout; }

int cli_analyze_game(Searcher *s, const Game *g, const SearchLimits *lim, const PdnTag *tags, int ntags,
                     const char *result, const char *how, KmBuf *pdn, KmBuf *svg, int index, int ngames,
                     const char *title)
{
    Progress pr = {isatty(2) != 0, index + 1, ngames};
    GameAnalysis a;
    char err[KM_ERR_MAX];
    if (analyze_game(s, g, lim, &a, on_progress, &pr, &cli_stop, err)) return cli_error("%s", err);
    if (pr.tty) fputs("\r\033[K", stderr);
    for (int side = 0; side < 2; side++) {
        const char *tag = side == KM_BLACK ? "Black" : "White", *name = NULL;
        for (int k = 0; k < ntags; k++)
            if (tags[k].name && !strcmp(tags[k].name, tag)) name = tags[k].value;
        char who[4 * 150 + 20], shown[4 * 150 + 1] = "";
        if (name) textio_escape(name, shown, sizeof shown); /* as any echoed text: no raw control byte */
        snprintf(who, sizeof who, "%s%s%.600s%s", tag, name ? " (" : "", shown, name ? ")" : "");
        char *sum = analyze_summary(&a, g, side, who);
        /* each line wrapped at 80 columns */
        for (char *line = sum; line && *line;) {
            char *nl = strchr(line, '\n');
            if (nl) *nl = '\0';
            cli_wrap(report_stream(), line, 4);
            line = nl ? nl + 1 : line + strlen(line);
        }
        free(sum);
    }
    if (a.stopped) fprintf(report_stream(), "  (stopped after %d of %d moves)\n", a.nply, g->nply);
    char *text = analyze_format_pdn(&a, g, tags, ntags, result, how);
    if (!text) pdn->oom = true;
    else textio_buf_str(pdn, text);
    free(text);
    if (svg) analyze_svg_chart(svg, &a, g, title, index);
    bool stopped = a.stopped;
    analyze_free(&a);
    return stopped ? 130 : 0;
}

static int run(const Opts *o)
{
    const char *path = o->args[0];
    if (opt_given(o, OPT_DEPTH) && opt_given(o, OPT_TIME))
        return cli_usage_error("analyze", "give --depth or --time, not both");
    SearchLimits lim;
    search_limits_default(&lim);
    lim.depth = (int)opt_int(o, OPT_DEPTH);
    lim.seconds = lim.depth ? 0 : opt_real(o, OPT_TIME);
    PdnGame *games;
    int n;
    char err[KM_ERR_MAX];
    if (pdn_read_file(path, &games, &n, err)) return cli_error("%s", err);
    int first = 0, last = n - 1;
    if (opt_given(o, OPT_GAME)) {
        long long k = opt_int(o, OPT_GAME);
        if (k > n) {
            pdn_free_games(games, n);
            return cli_error("%s: there is no game %lld (the file has %d game%s)", path, k, n,
                             n == 1 ? "" : "s");
        }
        first = last = (int)k - 1;
        if (games[first].error) {
            cli_error("%s", games[first].error);
            pdn_free_games(games, n);
            return 1;
        }
    }
    Weights w;
    Egdb *db = NULL;
    Searcher s;
    if (!cli_weights(opt_str(o, OPT_WEIGHTS), &w) || !cli_egdb_auto(o, &db)) {
        pdn_free_games(games, n);
        return 1;
    }
    if (search_init(&s, &w, (size_t)opt_int(o, OPT_HASH), 1, err) ||
        search_set_threads(&s, (int)opt_int(o, OPT_THREADS), err)) {
        pdn_free_games(games, n);
        egdb_close(db);
        return cli_error("%s", err);
    }
    search_set_egdb(&s, db);
    char *out = opt_given(o, OPT_OUT) ? strdup(opt_str(o, OPT_OUT)) : default_out(path);
    report = out && textio_is_stdout_name(out) ? stderr : stdout;
    const char *svg_path = opt_str(o, OPT_SVG);
    char lt[32], how[320];
    if (lim.depth) snprintf(lt, sizeof lt, "depth %d", lim.depth);
    else snprintf(lt, sizeof lt, "%g s", lim.seconds);
    const char *wp = opt_str(o, OPT_WEIGHTS);
    long long th = opt_int(o, OPT_THREADS);
    snprintf(how, sizeof how, "%s a position, %.200s weights%s, %lld thread%s", lt,
             strcmp(wp, "default") ? wp : "default", db ? ", endgame database" : "", th, th == 1 ? "" : "s");
    KmBuf pdn = {0}, svg = {0};
    int todo = 0;
    for (int i = first; i <= last; i++) todo += games[i].error == NULL;
    if (svg_path) analyze_svg_open(&svg, todo);
    cli_catch_sigint(true, "stopping: the moves analysed so far are written");
    int status = 0, done = 0, skipped = 0;
    for (int i = first; i <= last && status == 0; i++) {
        const PdnGame *pg = &games[i];
        if (pg->error) {
            fflush(report_stream());
            cli_error("%s (not analysed)", pg->error);
            skipped++;
            continue;
        }
        const char *bl = pdn_tag(pg, "Black"), *wh = pdn_tag(pg, "White");
        char head[1400], sb[4 * 150 + 1], sw[4 * 150 + 1];
        textio_escape(bl ? bl : "?", sb, sizeof sb);
        textio_escape(wh ? wh : "?", sw, sizeof sw);
        snprintf(head, sizeof head, "game %d: %.600s - %.600s, %s, %d plies", i + 1, sb, sw, pg->result,
                 pg->game.nply);
        cli_wrap(report_stream(), head, 4);
        fflush(report_stream());
        char title[400];
        snprintf(title, sizeof title, "game %d: %.150s - %.150s, %s", i + 1, bl ? bl : "?", wh ? wh : "?",
                 pg->result);
        search_clear(&s);
        status = cli_analyze_game(&s, &pg->game, &lim, pg->tags, pg->ntags, pg->result, how, &pdn,
                                  svg_path ? &svg : NULL, done, todo, title);
        done++;
    }
    cli_catch_sigint(false, NULL);
    if (svg_path) svg_close(&svg);
    size_t plen = pdn.len, slen = svg.len;
    char *ptext = textio_buf_done(&pdn), *stext = textio_buf_done(&svg);
    if (status == 1 || !out || !ptext || (svg_path && !stext)) {
        if (status != 1) cli_error("out of memory");
        status = 1;
    } else if (done) {
        if (textio_write_atomic(out, ptext, plen, err)) status = cli_error("%s", err);
        else fprintf(report_stream(), "%d annotated game%s written to %s\n", done, done == 1 ? "" : "s", out);
        if (svg_path && status != 1) {
            if (textio_write_atomic(svg_path, stext, slen, err)) status = cli_error("%s", err);
            else fprintf(report_stream(), "score curve%s written to %s\n", done == 1 ? "" : "s", svg_path);
        }
    }
    if (!done && status == 0) status = cli_error("%s: no game could be analysed (%d bad)", path, skipped);
    free(ptext);
    free(stext);
    free(out);
    search_free(&s);
    egdb_close(db);
    pdn_free_games(games, n);
    return status;
}

static const Opt options[] = {
    {OPT_GAME, NULL, NULL, OPT_INT, "N", 1, 1e9, DESCRIBED("every game"),
     "analyse game N of the file only (1 is the first)"},
    {OPT_TIME, NULL, NULL, OPT_REAL, "S", 0.01, 86400, "1", "seconds of search a position"},
    {OPT_DEPTH, NULL, NULL, OPT_INT, "D", 1, SEARCH_MAX_PLY - 2, DESCRIBED("none, --time is used"),
     "search D plies a position instead"},
    {OPT_WEIGHTS, NULL, NULL, OPT_STR, "FILE", 0, 0, "default", WEIGHTS_HELP},
    CLI_HASH_OPT("transposition table size (0: none)"),
    SEARCH_THREADS_OPT,
    CLI_EGDB_OPTS,
    {OPT_OUT, NULL, NULL, OPT_STR, "FILE", 0, 0, DESCRIBED("FILE-analysis.pdn beside the input"),
     "where the annotated games are written"},
    {OPT_SVG, NULL, NULL, OPT_STR, "FILE", 0, 0, DESCRIBED("none"),
     "write the score curve of each game (one under the other) as an SVG picture"},
    OPTS_END,
};

const CliCommand cmd_analyze = {
    "analyze",
    run,
    "analyse finished games: the mistakes, the best moves, the score curve",
    &(const OptSpec){
        "FILE.pdn",
        1,
        1,
        "Searches every position of each game (of --game N) with every legal move scored by the same "
        "search, and compares the move played with the best. Prints per side the moves, the average "
        "loss in men, the mistakes (? lost 0.4 men or more, ?? 1.0 or more, or a win or draw thrown "
        "away by the endgame database's verdict), the three largest and the move after which the "
        "side was lost for good; writes the games as PDN with the marks and a comment after every "
        "move (the scores before and after in men for Black, the best move and its line, the "
        "database's verdict), which kingme pdn and CheckerBoard read.",
        options,
        "Ctrl-C stops at once; the moves analysed so far are written, the last game marked as "
        "stopped (exit status 130).\nexample: kingme analyze tests/data/tinsley.pdn --game 5 --time 0.5 "
        "--svg game5.svg",
    },
};
