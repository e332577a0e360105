/* book.c - kingme book build | info | probe | show: the opening book
 * (include/kingme/book.h), and finding the book the playing commands use. */
#include "kingme/book.h"
#include "cli.h"
#include "kingme/book_build.h"
#include "kingme/datapath.h"
#include "kingme/game.h"
#include "kingme/notation.h"
#include "kingme/opening.h"
#include "kingme/textio.h"
#include "kingme/weights.h"
#include "kingme/workers.h"
#include "longrun.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- where the book is ------------------------------------------------------------ */

/* weights/default.book in the data folders (datapath.h): beside the
 * program in a checkout, PREFIX/share/kingme once installed. */
static bool book_beside_program(char *buf, size_t len) { return datapath_find(BOOK_FILE, false, buf, len); }

static const char *book_env(void)
{
    const char *env = getenv(BOOK_ENV);
    return env && *env ? env : NULL;
}

bool cli_book_path(const char *given, char *buf, size_t len)
{
    const char *env = book_env();
    if (given) snprintf(buf, len, "%s", given);
    else if (env && strcmp(env, "none") == 0) {
        cli_error("no opening book: %s is none; give --book FILE", BOOK_ENV);
        return false;
    } else if (env) snprintf(buf, len, "%s", env);
    else if (!book_beside_program(buf, len)) {
        cli_error("no opening book: give --book FILE");
        return false;
    }
    return true;
}

bool cli_book_auto(const Opts *o, Book **bk)
{
    *bk = NULL;
    if (opt_flag(o, OPT_NO_BOOK)) return true;
    const char *given = opt_str(o, OPT_BOOK), *env = book_env();
    char err[KM_ERR_MAX], path[4200];
    if (given || env) {
        const char *p = given ? given : env;
        if (strcmp(p, "none") == 0) return true;
        *bk = book_open(p, err);
        if (!*bk) cli_error("%s", err);
        return *bk != NULL;
    }
    struct stat st;
    if (!book_beside_program(path, sizeof path) || stat(path, &st) != 0) return true;
    *bk = book_open(path, err);
    if (!*bk) fprintf(stderr, "kingme: %s; going on without the opening book\n", err);
    return true;
}

/* ---- small helpers -------------------------------------------------------------- */

static void hms(double s, char *buf, size_t len)
{
    long t = (long)(s + 0.5);
    if (t >= 3600) snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

/* A score in men of the book ("+0.123", "win"). */
static void men_text(int32_t score, int32_t man, char *buf, size_t len)
{
    if (score >= BOOK_SCORE_MAX) snprintf(buf, len, "win");
    else if (score <= -BOOK_SCORE_MAX) snprintf(buf, len, "loss");
    else snprintf(buf, len, "%+.3f", (double)score / (double)(man ? man : 1000));
}

/* A variety or spread in men into evaluation units of a man. */
static int32_t men_units(double men, int32_t man) { return (int32_t)lround(men * man); }

static Book *open_book(const Opts *o)
{
    char path[4200], err[KM_ERR_MAX];
    if (!cli_book_path(opt_str(o, OPT_BOOK), path, sizeof path)) return NULL;
    Book *bk = book_open(path, err);
    if (!bk) cli_error("%s", err);
    return bk;
}

/* The position of --fen and --moves into b. */
static bool read_position(const Opts *o, Board *b)
{
    Board start;
    if (!cli_board(opt_str(o, OPT_FEN), &start)) return false;
    Game g;
    if (game_init(&g, &start)) return cli_error_false("out of memory");
    bool ok = !opt_given(o, OPT_MOVES) || cli_play_moves(&g, opt_str(o, OPT_MOVES));
    *b = g.cur;
    game_free(&g);
    return ok;
}

/* ---- build ---------------------------------------------------------------------- */

typedef struct BuildShow {
    bool tty;
    double last_line; /* not a terminal: a line after a round, at most every 10 s */
} BuildShow;

static void on_progress(const BookProgress *p, void *user)
{
    BuildShow *s = user;
    char el[32], left[32], line[160];
    hms(p->elapsed, el, sizeof el);
    snprintf(left, sizeof left, "?");
    double rate = p->elapsed > 0 ? p->run_done / p->elapsed : 0;
    if (rate > 0) hms(p->target > p->done ? (p->target - p->done) / rate : 0, left, sizeof left);
    snprintf(line, sizeof line, "book: %d/%d, round %d, %s elapsed, %s left", p->done, p->target,
             p->round + (p->round_end ? 0 : 1), el, left);
    if (p->short_roots) {
        size_t n = strlen(line);
        snprintf(line + n, sizeof line - n, ", %d short lines", p->short_roots);
    }
    if (s->tty) {
        fprintf(stderr, "\r%-79.79s", line);
        fflush(stderr);
    } else if (p->round_end && km_now() - s->last_line >= 10) {
        s->last_line = km_now();
        fprintf(stderr, "%.79s\n", line);
    }
}

static int cmd_build(const Opts *o)
{
    const char *out = opt_str(o, OPT_OUT);
    long long threads = cli_concurrency(o);
    char err[KM_ERR_MAX];
    Weights w;
    if (!cli_weights(opt_str(o, OPT_WEIGHTS), &w)) return 1;
    BookBuild *bb = NULL;
    struct stat st;
    bool exists = stat(out, &st) == 0;
    if (opt_flag(o, OPT_RESUME)) {
        static const OptId fixed[] = {OPT_DEPTH,      OPT_START_PLIES, OPT_BALLOT_PLIES, OPT_SPREAD,
                                      OPT_OWN_SPREAD, OPT_BATCH,       OPT_HASH};
        for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
            if (opt_given(o, fixed[i]))
                return cli_usage_error("book",
                                       "--resume goes on with the book's own settings: leave out %s "
                                       "(only --positions may change)",
                                       opt_name(fixed[i]));
        Book *bk = book_open(out, err);
        if (!bk) return cli_error("%s", err);
        bb = book_build_resume(bk, &w, opt_given(o, OPT_POSITIONS) ? (int)opt_int(o, OPT_POSITIONS) : 0, err);
        book_close(bk);
        if (!bb) return cli_error("%s", err);
        char command[4096];
        cli_command_text(command, sizeof command);
        if (book_build_add_command(bb, command)) {
            book_build_free(bb);
            return cli_error("out of memory");
        }
        printf("kingme book: going on with %s: %d positions scored\n", out, book_build_done(bb));
    } else {
        if (exists && !opt_flag(o, OPT_FORCE))
            return cli_error("%s exists: --resume goes on with it, --force starts again over it", out);
        BookBuildParams p;
        book_build_params_default(&p);
        int32_t man = abs(w.w[EP_own_men]) ? abs(w.w[EP_own_men]) : 1000;
        p.depth = (int)opt_int(o, OPT_DEPTH);
        p.target = (int)opt_int(o, OPT_POSITIONS);
        p.start_plies = (int)opt_int(o, OPT_START_PLIES);
        p.ballot_plies = (int)opt_int(o, OPT_BALLOT_PLIES);
        p.spread = men_units(opt_real(o, OPT_SPREAD), man);
        p.own_spread = men_units(opt_real(o, OPT_OWN_SPREAD), man);
        p.batch = (int)opt_int(o, OPT_BATCH);
        p.hash_mb = (int)opt_int(o, OPT_HASH);
        char command[4096];
        cli_command_text(command, sizeof command);
        bb = book_build_new(&p, &w, command, err);
        if (!bb) return cli_error("%s", err);
        char dir[4096];
        cli_dirname(out, dir, sizeof dir);
        if (!cli_make_dirs(dir)) {
            book_build_free(bb);
            return 1;
        }
        printf("kingme book: new book %s\n", out);
    }
    WorkerSet *ws = NULL;
    const BookBuildParams *p = book_build_params(bb);
    if (!cli_workers(o, &ws, &threads) || !cli_tables_fit(p->hash_mb, threads)) {
        workers_free(ws);
        book_build_free(bb);
        return 1;
    }
    char who[128];
    cli_threads_text(threads, ws, who, sizeof who);
    printf("%d positions (main lines: start %d plies, ballots %d), depth %d,\n"
           "  spread %.3f men (own %.3f), %d a round, %s\n",
           p->target, p->start_plies, p->ballot_plies, p->depth, p->spread / 1000.0, p->own_spread / 1000.0,
           p->batch, who);
    fflush(stdout);
    book_build_set_save_every(bb, opt_real(o, OPT_SAVE_EVERY));
    BuildShow show = {isatty(2) != 0, 0};
    cli_catch_sigint(true, "stopping: the book keeps the rounds finished");
    int rc = book_build_run(bb, out, (int)threads, ws, on_progress, &show, &cli_stop, err);
    cli_catch_sigint(false, NULL);
    if (show.tty) fprintf(stderr, "\r%-79s\r", "");
    workers_free(ws);
    int done = book_build_done(bb);
    book_build_free(bb);
    if (rc) return cli_error("%s", err);
    if (atomic_load(&cli_stop)) {
        printf("stopped: %d positions scored; go on with: kingme book build --resume --out %s\n", done, out);
        return 130;
    }
    Book *bk = book_open(out, err);
    if (!bk) return cli_error("%s", err);
    char el[32];
    hms(book_header(bk)->seconds, el, sizeof el);
    printf("book %s: %d positions, %u moves, %zu bytes, built in %s\n", out, book_count(bk),
           (unsigned)book_header(bk)->moves, book_header(bk)->bytes, el);
    book_close(bk);
    return 0;
}

/* ---- info ------------------------------------------------------------------------ */

static int cmd_info(const Opts *o)
{
    Book *bk = open_book(o);
    if (!bk) return 1;
    const BookHeader *h = book_header(bk);
    int32_t man = h->man ? h->man : 1000;
    int32_t margin = men_units(opt_real(o, OPT_MARGIN), man);
    char el[32], when[64];
    hms(h->seconds, el, sizeof el);
    time_t t = (time_t)h->written;
    struct tm tm;
    if (!localtime_r(&t, &tm) || !strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm))
        snprintf(when, sizeof when, "?");
    Weights def;
    weights_default(&def);
    bool is_default = book_weights_id(&def) == h->weights_id;
    printf("%s: %zu bytes, format version %u, checksums verified (data %08x)\n", book_path(bk), h->bytes,
           (unsigned)h->version, (unsigned)h->data_crc);
    /* the command as text a terminal shows as it is: an escape sequence in
     * a file could otherwise forge lines */
    size_t cap = 4 * strlen(h->command) + 1;
    char *shown = malloc(cap);
    if (!shown) {
        book_close(bk);
        return cli_error("out of memory");
    }
    textio_escape(h->command, shown, cap);
    printf("built by: %s\n", shown[0] ? shown : "(not recorded)");
    free(shown);
    printf("%s: %d positions (aim %d), %u moves, %s of building, written %s\n",
           h->finished ? "finished" : "unfinished", book_count(bk), h->target, (unsigned)h->moves, el, when);
    printf("search: depth %d (each move's position to %d), weights ID %016llx (%s)\n", h->depth, h->depth - 1,
           (unsigned long long)h->weights_id,
           is_default ? "the built-in default weights" : "not the built-in default");
    printf("expansion: main lines of %d plies (start) and %d (ballots), spread %.3f men (own %.3f), %d a "
           "round\n",
           h->start_plies, h->ballot_plies, (double)h->spread / man, (double)h->own_spread / man, h->batch);
    printf("coverage in plies: line, both sides play the book's best move; Black, White: that\n"
           "side plays its best book move, the other any move within %.3f men of its best\n",
           (double)margin / man);
    printf("%-30s %5s %6s %6s %10s\n", "root", "line", "Black", "White", "positions");
    int max = 99, shortest = max, shortest_at = 0, start_line = 0, short_ballots = 0, minside = max;
    double sum = 0;
    for (int r = 0; r < BOOK_ROOTS; r++) {
        Board b;
        char err[KM_ERR_MAX], name[64];
        if (book_build_root(r, &b, err)) {
            book_close(bk);
            return cli_error("%s", err);
        }
        BookCoverage c;
        if (book_build_coverage(bk, &b, margin, max, &c)) {
            book_close(bk);
            return cli_error("out of memory");
        }
        if (r == 0) {
            snprintf(name, sizeof name, "start");
            start_line = c.line;
        } else {
            snprintf(name, sizeof name, "ballot %d %s", r, opening_ballots[r - 1].moves);
            sum += c.line;
            if (c.line < shortest) shortest = c.line, shortest_at = r;
            if (c.line < h->ballot_plies) short_ballots++;
            int m = c.side[0] < c.side[1] ? c.side[0] : c.side[1];
            if (m < minside) minside = m;
        }
        printf("%-30s %5d %6d %6d %10d\n", name, c.line, c.side[KM_BLACK], c.side[KM_WHITE], c.positions);
    }
    printf("start: line %d plies (the build's aim %d)\n", start_line, h->start_plies);
    printf("ballots: line %d plies at the least (ballot %d), %.1f on average (the build's aim %d: %s); "
           "Black and White %d at the least\n",
           shortest, shortest_at, sum / (BOOK_ROOTS - 1), h->ballot_plies,
           short_ballots ? "not all reach it" : "all reach it", minside);
    book_close(bk);
    return 0;
}

/* ---- probe and show ------------------------------------------------------------------ */

static int cmd_probe(const Opts *o)
{
    Board b;
    if (!read_position(o, &b)) return 1;
    Book *bk = open_book(o);
    if (!bk) return 1;
    int32_t man = book_header(bk)->man;
    int32_t margin = book_margin(bk, opt_real(o, OPT_VARIETY));
    uint64_t rng = (uint64_t)opt_int(o, OPT_SEED);
    BookMove m;
    int choices;
    if (!book_choose(bk, &b, margin, &rng, &m, &choices)) {
        printf("not in the book\n");
    } else {
        char t[MOVE_TEXT_MAX], sc[32];
        notation_move_to_text(&m.move, t);
        men_text(m.score, man, sc, sizeof sc);
        printf("book move %s, score %s men for %s (%d move%s within %.3f men of the best)\n", t, sc,
               b.stm == KM_BLACK ? "Black" : "White", choices, choices == 1 ? "" : "s", (double)margin / man);
    }
    book_close(bk);
    return 0;
}

static int cmd_show(const Opts *o)
{
    Board b;
    if (!read_position(o, &b)) return 1;
    Book *bk = open_book(o);
    if (!bk) return 1;
    int32_t man = book_header(bk)->man;
    BookMove mv[MAX_MOVES];
    int n = book_moves(bk, &b, mv, MAX_MOVES);
    char fen[128];
    board_to_fen(&b, fen, sizeof fen);
    if (!n) {
        printf("%s: not in the book\n", fen);
        book_close(bk);
        return 0;
    }
    printf("%s: %d move%s, scores in men for %s (the side to move)\n", fen, n, n == 1 ? "" : "s",
           b.stm == KM_BLACK ? "Black" : "White");
    for (int i = 0; i < n; i++) {
        char t[MOVE_TEXT_MAX], sc[32];
        notation_move_to_text(&mv[i].move, t);
        men_text(mv[i].score, man, sc, sizeof sc);
        Board c = b;
        mg_make_move(&c, &mv[i].move);
        BookMove cm[MAX_MOVES];
        int k = book_moves(bk, &c, cm, MAX_MOVES);
        printf("  %-10s %7s  %s\n", t, sc, k ? "into the book" : "leaves the book");
    }
    /* the main line from here */
    char line[4096];
    size_t at = 0;
    Board c = b;
    int plies = 0;
    line[0] = '\0';
    while (plies < 60 && book_moves(bk, &c, mv, MAX_MOVES)) {
        char t[MOVE_TEXT_MAX];
        notation_move_to_text(&mv[0].move, t);
        at += (size_t)snprintf(line + at, sizeof line - at, " %s", t);
        mg_make_move(&c, &mv[0].move);
        plies++;
    }
    printf("main line (%d plies):%s\n", plies, line);
    book_close(bk);
    return 0;
}

static int run(const Opts *o)
{
    const char *sub = o->args[0];
    if (strcmp(sub, "build") == 0) return cmd_build(o);
    if (strcmp(sub, "info") == 0) return cmd_info(o);
    if (strcmp(sub, "probe") == 0) return cmd_probe(o);
    if (strcmp(sub, "show") == 0) return cmd_show(o);
    return cli_usage_error("book", "unknown subcommand '%s' (build, info, probe or show)", sub);
}

static const Opt options[] = {
    {OPT_BOOK, NULL, NULL, OPT_STR, "FILE", 0, 0,
     DESCRIBED("$KINGME_BOOK, else weights/default.book of the data folders"), "info, probe, show: the book"},
    {OPT_OUT, NULL, NULL, OPT_STR, "FILE", 0, 0, BOOK_FILE, "build: the book written (after every round)"},
    {OPT_POSITIONS, NULL, NULL, OPT_INT, "N", 1, 1e7, "6000", "build: positions to score in all"},
    {OPT_DEPTH, NULL, NULL, OPT_INT, "D", 2, SEARCH_MAX_PLY - 2, "18",
     "build: search depth of a position: each legal move's position is searched to D - 1"},
    {OPT_START_PLIES, NULL, NULL, OPT_INT, "N", 0, 100, "16",
     "build: the initial position's main line at least N plies"},
    {OPT_BALLOT_PLIES, NULL, NULL, OPT_INT, "N", 0, 100, "6",
     "build: each ballot's main line at least N plies"},
    {OPT_SPREAD, NULL, NULL, OPT_REAL, "MEN", 0, 100, "0.1",
     "build: a move of the book side's opponent that many men below its best costs one ply more to expand"},
    {OPT_OWN_SPREAD, NULL, NULL, OPT_REAL, "MEN", 0, 100, "0.02",
     "build: the same for the book side's own moves"},
    {OPT_BATCH, NULL, NULL, OPT_INT, "N", 1, 100000, "64", "build: positions scored a round"},
    {OPT_HASH, NULL, NULL, OPT_INT, "MB", 0, 65536, "32", "build: the table of each position's searches"},
    {OPT_WEIGHTS, NULL, NULL, OPT_STR, "FILE", 0, 0, "default", "build: " WEIGHTS_HELP},
    {OPT_CONCURRENCY, "-j", NULL, OPT_INT, "N", 1, 256, DESCRIBED("all cores"),
     "build: positions scored at once; the book does not depend on it"},
    WORKERS_OPTIONS,
    {OPT_RESUME, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL,
     "build: go on with the --out book, with its own settings (--positions may raise the aim)"},
    {OPT_FORCE, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL, "build: start again over an existing --out file"},
    {OPT_SAVE_EVERY, NULL, NULL, OPT_REAL, "S", 0, 1e6, "30",
     "build: write the book after a round when S seconds passed since it was last written (0: every round)"},
    {OPT_MARGIN, NULL, NULL, OPT_REAL, "MEN", 0, 100, "0.1",
     "info: the other side's moves within MEN of its best count as its replies"},
    {OPT_FEN, NULL, NULL, OPT_STR, "FEN", 0, 0, DESCRIBED("the initial position"),
     "probe, show: the position"},
    {OPT_MOVES, NULL, NULL, OPT_STR, "\"M1 M2 ...\"", 0, 0, DESCRIBED("none"),
     "probe, show: moves played from it"},
    {OPT_VARIETY, NULL, NULL, OPT_REAL, "MEN", 0, 100, "0",
     "probe: choose among the moves within MEN of the best, the better likelier (as play does)"},
    {OPT_SEED, NULL, NULL, OPT_INT, "N", 0, 9e18, "1", "probe: the seed of that choice"},
    OPTS_END,
};

const CliCommand cmd_book = {
    "book",
    run,
    "the opening book: build, info, probe, show",
    &(const OptSpec){
        "build|info|probe|show",
        1,
        1,
        "build: a book by kingme's own search from the initial position and the 174 ACF three-move "
        "ballots, by drop-out expansion (docs/book.md), written after every round; a build stopped "
        "(Ctrl-C, kill) goes on with --resume. "
        "info: the header, the command that built the book, and how far it reaches from each root. "
        "probe: the move the book plays in a position. "
        "show: a position's book moves with their scores, and the book's main line from it.",
        options,
        "example: kingme book build --positions 300 --depth 12 --out /tmp/small.book -j 2",
    },
};
