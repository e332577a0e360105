/* play.c - kingme play: a game of draughts in a terminal, a person against the
 * engine (or two people, or two engines).
 *
 * The loop: draw the board, then either let the engine side search and play,
 * or read one line from the person and act on it: a move (numbers,
 * coordinates, or its number in the list) or a command. Anything that cannot
 * be done gets one line saying why and changes nothing. The game is written
 * as PDN after every move (atomically), so quitting, end of input, Ctrl-C or a
 * closed terminal never lose it. */
#include "play.h"
#include "kingme/book.h"
#include "kingme/egdb.h"
#include "kingme/level.h"
#include "kingme/memlimit.h"

#include "kingme/pdn.h"
#include "kingme/textio.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- setting up --------------------------------------------------------------- */

static void describe_engine(Play *P, int side)
{
    Player *pl = &P->p[side];
    char wl[320];
    if (pl->random) snprintf(wl, sizeof wl, "random weights, seed %" PRIu64, P->seed);
    else if (pl->wpath && strcmp(pl->wpath, "default")) snprintf(wl, sizeof wl, "%.300s", pl->wpath);
    else snprintf(wl, sizeof wl, "default weights");
    snprintf(pl->name, sizeof pl->name, "kingme (%s, %s)", P->limit_text, wl);
    if (strcmp(wl, "default weights") == 0) snprintf(pl->label, sizeof pl->label, "kingme");
    else snprintf(pl->label, sizeof pl->label, "kingme (%.300s)", wl);
}

/* Game number `which` (1-based; 0: the last) of a PDN file into P->g. */
static bool load_pdn(Play *P, const char *path, long long which)
{
    PdnGame *games;
    int n;
    char err[KM_ERR_MAX];
    if (pdn_read_file(path, &games, &n, err)) {
        cli_error("%s", err);
        return false;
    }
    if (which > n) {
        cli_error("%s: there is no game %lld (the file has %d game%s)", path, which, n, n == 1 ? "" : "s");
        pdn_free_games(games, n);
        return false;
    }
    int k = which ? (int)which - 1 : n - 1;
    const PdnGame *pg = &games[k];
    bool ok = true;
    if (pg->error) {
        cli_error("%s", pg->error);
        ok = false;
    } else if (game_init(&P->g, &pg->game.start)) {
        cli_error("out of memory");
        ok = false;
    } else {
        for (int i = 0; i < pg->game.nply && ok; i++)
            if (game_play(&P->g, &pg->game.moves[i])) ok = false;
        if (!ok) {
            cli_error("out of memory");
            game_free(&P->g);
        } else if (P->g.result != GAME_ONGOING) {
            cli_error("%s: game %d is already over (%s, %s)", path, k + 1, game_result_text(P->g.result),
                      game_reason_text(P->g.reason));
            game_free(&P->g);
            ok = false;
        } else if (strcmp(pg->result, "*") != 0) {
            /* the moves leave it open, the file says it ended: a side
             * resigned, lost on time, or the players agreed */
            cli_error("%s: game %d is already over (%s, by resignation, time or agreement)", path, k + 1,
                      pg->result);
            game_free(&P->g);
            ok = false;
        }
    }
    pdn_free_games(games, n);
    return ok;
}

/* Who plays, how long the engine thinks, the seed: from the options into P.
 * Returns 0, or the usage error's status. */
static int read_options(const Opts *o, Play *P)
{
    P->p[KM_BLACK].engine = opt_choice(o, OPT_BLACK) == 1;
    P->p[KM_WHITE].engine = opt_choice(o, OPT_WHITE) == 1;
    if (opt_flag(o, OPT_ENGINE_FIRST)) {
        if (opt_given(o, OPT_BLACK) || opt_given(o, OPT_WHITE))
            return cli_usage_error(
                "play", "--engine-first is the same as --black engine --white human: give one or the other");
        P->p[KM_BLACK].engine = true;
        P->p[KM_WHITE].engine = false;
    }
    if (opt_given(o, OPT_DEPTH) && opt_given(o, OPT_TIME))
        return cli_usage_error("play", "give --depth or --time, not both");
    if (opt_given(o, OPT_TC) && (opt_given(o, OPT_DEPTH) || opt_given(o, OPT_TIME)))
        return cli_usage_error("play", "--tc sets the engine's time: leave out --depth and --time");
    if (opt_given(o, OPT_FEN) && opt_given(o, OPT_PDN))
        return cli_usage_error("play", "give --fen or --pdn, not both");
    if (opt_given(o, OPT_GAME) && !opt_given(o, OPT_PDN))
        return cli_usage_error("play", "--game N picks a game of the --pdn file");
    bool random = opt_flag(o, OPT_RANDOM_WEIGHTS);
    if (random &&
        (opt_given(o, OPT_WEIGHTS) || opt_given(o, OPT_BLACK_WEIGHTS) || opt_given(o, OPT_WHITE_WEIGHTS)))
        return cli_usage_error("play",
                               "--random-weights draws the engine's weights: leave out the weights files");
    if (random && !P->p[0].engine && !P->p[1].engine)
        return cli_usage_error("play", "--random-weights needs an engine to play");

    search_limits_default(&P->lim);
    P->lim.depth = (int)opt_int(o, OPT_DEPTH);
    P->lim.seconds = P->lim.depth ? 0 : opt_real(o, OPT_TIME);
    P->level = (int)opt_int(o, OPT_LEVEL);
    P->ponder = !opt_flag(o, OPT_NO_PONDER);
    char lv[24] = "";
    if (P->level < LEVEL_FULL) snprintf(lv, sizeof lv, "level %d, ", P->level);
    if (P->lim.depth) snprintf(P->limit_text, sizeof P->limit_text, "%sdepth %d", lv, P->lim.depth);
    else snprintf(P->limit_text, sizeof P->limit_text, "%s%g s", lv, P->lim.seconds);
    if (opt_given(o, OPT_TC)) {
        double base, inc;
        if (!cli_tc(o, &base, &inc)) return 2;
        P->clock = true;
        P->left[0] = P->left[1] = base;
        P->inc = inc;
        P->lim.seconds = 0;
        snprintf(P->limit_text, sizeof P->limit_text, "%sclock %g+%g", lv, base / 60, inc);
    }
    if (!cli_egdb_auto(o, &P->egdb)) return 1;
    if (!cli_book_auto(o, &P->book)) return 1;
    P->hash_mb = (size_t)opt_int(o, OPT_HASH);
    P->seed = (uint64_t)opt_int(o, OPT_SEED);
    P->book_rng = P->seed ^ 0x626F6F6Bull; /* "book" */
    P->book_margin = book_margin(P->book, opt_real(o, OPT_BOOK_VARIETY));
    P->max_plies = (int)opt_int(o, OPT_MAX_PLIES);
    return 0;
}

/* Every side's weights (a person may ask for a hint) and the engines'
 * searchers. Returns 0 or 1 after an error line. */
static int make_players(const Opts *o, Play *P)
{
    const char *wside[2] = {opt_str(o, OPT_BLACK_WEIGHTS), opt_str(o, OPT_WHITE_WEIGHTS)};
    bool random = opt_flag(o, OPT_RANDOM_WEIGHTS);
    /* a table for each engine, and one for a person's hints: all of them
     * must fit (each alone is checked when it is made) */
    uint64_t tables = (uint64_t)(P->p[0].engine + P->p[1].engine + (play_humans(P) > 0));
    uint64_t have = memlimit_bytes() >> 20;
    if (have && (uint64_t)P->hash_mb * tables > have)
        return cli_error("--hash %zu for %llu tables needs %llu MB, more than the %llu MB of memory here",
                         P->hash_mb, (unsigned long long)tables, (unsigned long long)(P->hash_mb * tables),
                         (unsigned long long)have);
    uint64_t wrng = P->seed ^ 0x77656967687473ull;
    for (int side = 0; side < 2; side++) {
        Player *pl = &P->p[side];
        pl->wpath = wside[side] ? wside[side] : opt_str(o, OPT_WEIGHTS);
        if (random && pl->engine) {
            pl->random = true;
            for (int k = 0; k < EVAL_NPARAMS; k++)
                pl->w.w[k] = (int16_t)(uint16_t)(km_rng_next(&wrng) & 0xFFFF);
        } else if (!cli_weights(pl->wpath, &pl->w)) {
            return 1;
        }
        if (!pl->engine) {
            snprintf(pl->name, sizeof pl->name, "human");
            continue;
        }
        describe_engine(P, side);
        pl->rng = km_mix64(P->seed ^ (0x6C6576656Cull + (uint64_t)side));
        char err[KM_ERR_MAX];
        pl->s = malloc(sizeof *pl->s);
        if (!pl->s) return cli_error("out of memory");
        if (search_init(pl->s, &pl->w, P->hash_mb, P->seed + (uint64_t)side * 0x9E3779B97F4A7C15ull, err)) {
            free(pl->s);
            pl->s = NULL;
            return cli_error("%s", err);
        }
        if (search_set_threads(pl->s, (int)opt_int(o, OPT_THREADS), err)) return cli_error("%s", err);
    }
    return 0;
}

/* The position, the view and the game's file (written now, so that a bad
 * path shows at once). Returns 0 or 1 after an error line. */
static int make_game(const Opts *o, Play *P)
{
    if (opt_given(o, OPT_PDN)) {
        if (!load_pdn(P, opt_str(o, OPT_PDN), opt_int(o, OPT_GAME))) return 1;
    } else {
        Board b;
        if (!cli_board(opt_str(o, OPT_FEN), &b)) return 1;
        if (game_init(&P->g, &b)) return cli_error("out of memory");
    }
    /* the view: the person's own pieces at the bottom */
    P->tty_in = isatty(0);
    P->tty_out = isatty(1);
    bool force_color = opt_pos(o, OPT_COLOR) > opt_pos(o, OPT_NO_COLOR); /* the last one given wins */
    bool no_color = opt_pos(o, OPT_NO_COLOR) > opt_pos(o, OPT_COLOR);
    P->v.fancy = force_color || (!no_color && cli_color_ok(1));
    const char *term = getenv("TERM"), *ct = getenv("COLORTERM");
    P->v.c256 = (term && strstr(term, "256")) || (ct && *ct);
    P->v.black_bottom = play_humans(P) == 1 && !P->p[KM_BLACK].engine;
    if (opt_flag(o, OPT_FLIP)) P->v.black_bottom = !P->v.black_bottom;
    P->clear = P->v.fancy && P->tty_out;

    cli_time_name(P->date, sizeof P->date, "%Y.%m.%d");
    P->out = opt_given(o, OPT_OUT) ? strdup(opt_str(o, OPT_OUT)) : play_default_out();
    if (!P->out) return 1;
    /* written now, so that a bad path shows at once (a stream only at the end) */
    P->out_stream = textio_writes_in_place(P->out);
    char err[KM_ERR_MAX];
    if (!P->out_stream && play_save_game(P, P->out, err)) return cli_error("%s", err);
    return 0;
}

enum End { END_GAME, END_QUIT, END_EOF, END_INTERRUPT, END_FAIL };

/* Moves until the game ends or is left. */
static enum End play_game(Play *P)
{
    P->turn_start = km_now();
    for (;;) {
        Game *g = &P->g;
        if (g->result != GAME_ONGOING) return END_GAME;
        if (P->max_plies && g->nply >= P->max_plies) {
            g->result = GAME_DRAW;
            g->reason = REASON_PLY_CAP;
            return END_GAME;
        }
        if (play_interrupted) return END_INTERRUPT;
        int side = g->cur.stm;
        if (P->p[side].engine) {
            if (P->need_draw) play_draw(P);
            int rc = play_engine_move(P);
            if (rc) return rc > 0 ? END_INTERRUPT : END_FAIL;
            play_clock_charge(P, side);
            if (P->adjudged != GAME_ONGOING) return END_GAME;
            P->need_draw = true;
            play_autosave(P); /* engines too: a crash or kill loses no move */
            continue;
        }
        if (P->need_draw) {
            play_draw(P);
            printf("Move %d, %s to move%s. Legal moves:\n", play_move_number(g, g->nply),
                   play_side_name(side), play_humans(P) == 1 ? " (you)" : "");
            play_show_moves(P);
        }
        play_ponder_start(P);
        switch (play_human_turn(P)) {
        case ACT_MOVED:
            play_ponder_moved(P); /* the engine's clock starts now */
            play_clock_charge(P, side);
            P->need_draw = true;
            play_autosave(P);
            if (P->adjudged != GAME_ONGOING) return END_GAME;
            break;
        case ACT_QUIT:
            return END_QUIT;
        case ACT_EOF:
            return END_EOF;
        case ACT_INTERRUPT:
            return END_INTERRUPT;
        case ACT_FAIL:
            return END_FAIL;
        case ACT_RESIGN:
            P->adjudged = side == KM_BLACK ? GAME_WHITE_WINS : GAME_BLACK_WINS;
            P->adjudged_why = side == KM_BLACK ? "Black resigned" : "White resigned";
            return END_GAME;
        default:
            break;
        }
    }
}

/* ---- the end ------------------------------------------------------------------ */

static void announce_result(const Play *P)
{
    const View *v = &P->v;
    const Game *g = &P->g;
    GameResult r = P->adjudged != GAME_ONGOING ? P->adjudged : g->result;
    char why[96];
    if (P->adjudged != GAME_ONGOING) snprintf(why, sizeof why, "%s", P->adjudged_why);
    else if (g->reason == REASON_NO_MOVES && g->cur.pieces[g->cur.stm] == 0)
        snprintf(why, sizeof why, "%s has no pieces left", play_side_name(g->cur.stm));
    else if (g->reason == REASON_NO_MOVES)
        snprintf(why, sizeof why, "%s is blocked: no legal move", play_side_name(g->cur.stm));
    else if (g->reason == REASON_REPETITION) snprintf(why, sizeof why, "the same position a third time");
    else if (g->reason == REASON_FORTY_MOVES)
        snprintf(why, sizeof why, "40 moves each with no man moved and nothing captured");
    else if (g->reason == REASON_PLY_CAP)
        snprintf(why, sizeof why, "the cap of %d plies reached", P->max_plies);
    else snprintf(why, sizeof why, "%s", game_reason_text(g->reason));
    const char *what = r == GAME_DRAW ? "Draw" : r == GAME_BLACK_WINS ? "Black wins" : "White wins";
    const char *verdict = "";
    if (play_humans(P) == 1 && r != GAME_DRAW) {
        int winner = r == GAME_BLACK_WINS ? KM_BLACK : KM_WHITE;
        verdict = P->p[winner].engine ? " kingme wins." : " You win!";
    }
    printf("\n%sGame over: %s, %s (%s).%s%s\n", view_sgr(v, VS_BOLD), what, game_result_text(r), why, verdict,
           view_sgr(v, VS_RESET));
}

static void print_random_weights(const Play *P)
{
    for (int side = 0; side < 2; side++) {
        const Player *pl = &P->p[side];
        if (!pl->engine || !pl->random) continue;
        char comment[160];
        snprintf(comment, sizeof comment,
                 "random weights of kingme (%s), drawn by kingme play --random-weights --seed %" PRIu64,
                 play_side_name(side), P->seed);
        char *text = weights_format(&pl->w, comment);
        if (!text) continue;
        printf("\nThe engine's weights (%s), in weights-file format:\n%s", play_side_name(side), text);
        free(text);
    }
}

/* ---- the command -------------------------------------------------------------- */

/* The result, the file, how to go on; the exit status. */
static int finish(Play *P, enum End end)
{
    int status = 0;
    if (end == END_GAME) {
        play_draw(P);
        announce_result(P);
    } else if (end == END_FAIL) {
        cli_error("out of memory");
    } else {
        printf("%s: the game is left unfinished.\n", end == END_QUIT  ? "Quit"
                                                     : end == END_EOF ? "End of input"
                                                                      : "Interrupted");
    }
    char err[KM_ERR_MAX];
    if (play_save_game(P, P->out, err) == 0) {
        printf("Game saved to %s\n", P->out);
        if (end != END_GAME) printf("Continue it with: kingme play --pdn %s\n", P->out);
    } else {
        play_say_error(P, "cannot save the game: %s", err);
        status = 1;
    }
    print_random_weights(P);
    if (end == END_GAME && status == 0) {
        GameResult r = P->adjudged != GAME_ONGOING ? P->adjudged : P->g.result;
        status = play_offer_analysis(P, game_result_text(r));
    }
    if (end == END_FAIL) status = 1;
    else if (end == END_INTERRUPT && status == 0) status = 130;
    return status;
}

static void free_play(Play *P)
{
    play_ponder_stop(P);
    for (int side = 0; side < 2; side++)
        if (P->p[side].s) {
            search_free(P->p[side].s);
            free(P->p[side].s);
        }
    if (P->hint) {
        search_free(P->hint);
        free(P->hint);
    }
    if (P->g.moves) game_free(&P->g);
    egdb_close(P->egdb);
    book_close(P->book);
    free(P->out);
    free(P);
}

static int run(const Opts *o)
{
    Play *P = calloc(1, sizeof *P);
    if (!P) return cli_error("out of memory");
    P->info.ply = -1;
    int status = read_options(o, P);
    if (!status) status = make_players(o, P);
    if (!status) status = make_game(o, P);
    if (!status) {
        play_catch_interrupts();
        P->need_draw = true;
        status = finish(P, play_game(P));
    }
    free_play(P);
    return status;
}

static const Opt options[] = {
    {OPT_BLACK, NULL, NULL, OPT_CHOICE, "human|engine", 0, 0, "human", "who plays Black"},
    {OPT_WHITE, NULL, NULL, OPT_CHOICE, "human|engine", 0, 0, "engine",
     "who plays White; two engines play to the end alone"},
    {OPT_ENGINE_FIRST, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL,
     "the engine plays Black and moves first, you play White"},
    {OPT_DEPTH, NULL, NULL, OPT_INT, "D", 1, SEARCH_MAX_PLY - 2, DESCRIBED("none, --time is used"),
     "the engine searches D plies a move"},
    {OPT_TIME, NULL, NULL, OPT_REAL, "S", 0.01, 86400, "1", "the engine's seconds a move"},
    {OPT_NO_PONDER, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL,
     "the engine does not think while you do (by default, under --time or --tc, it searches "
     "the reply it expects on your time, and answers deeper when that reply comes)"},
    {OPT_LEVEL, NULL, NULL, OPT_INT, "N", LEVEL_MIN, LEVEL_FULL, "10",
     "the engine's strength: 1 a beginner ... 9 a strong player, 10 the full engine (docs/analysis.md "
     "has the Elo of each); a level searches fewer nodes and draws among near-best moves, never an "
     "unsafe one, so that the same seed replays the same moves"},
    CLI_TC_OPT,
    {OPT_WEIGHTS, NULL, NULL, OPT_STR, "FILE", 0, 0, "default", WEIGHTS_HELP " (both sides)"},
    {OPT_BLACK_WEIGHTS, NULL, NULL, OPT_STR, "FILE", 0, 0, DESCRIBED("--weights"), "Black's weights only"},
    {OPT_WHITE_WEIGHTS, NULL, NULL, OPT_STR, "FILE", 0, 0, DESCRIBED("--weights"),
     "White's weights only (a hint uses the weights of the side to move)"},
    {OPT_RANDOM_WEIGHTS, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL,
     "the engine plays a random weight vector, printed at the end"},
    CLI_HASH_OPT("transposition table size of each engine (0: none)"),
    CLI_SEED_OPT("seed of the engine's choice among equal moves and of --random-weights"),
    {OPT_FEN, NULL, NULL, OPT_STR, "FEN", 0, 0, DESCRIBED("the initial position"),
     "start from this position"},
    {OPT_PDN, NULL, NULL, OPT_STR, "FILE", 0, 0, DESCRIBED("none"), "continue a game of this PDN file"},
    {OPT_GAME, NULL, NULL, OPT_INT, "N", 1, 1e9, DESCRIBED("the last game"),
     "which game of the --pdn file (1 is the first)"},
    CLI_MAX_PLIES_OPT,
    {OPT_OUT, NULL, NULL, OPT_STR, "FILE", 0, 0, DESCRIBED("games/kingme-YYYYMMDD-HHMMSS.pdn"),
     "where the game is saved (- for standard output, written at the end)"},
    SEARCH_THREADS_OPT,
    CLI_EGDB_OPTS,
    CLI_BOOK_OPTS,
    {OPT_BOOK_VARIETY, NULL, NULL, OPT_REAL, "MEN", 0, 100, "0.05",
     "the engine plays one of the book's moves within MEN of its best, the better likelier (0: always its "
     "best)"},
    {OPT_FLIP, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL, "turn the board round"},
    {OPT_NO_COLOR, NULL, "--no-colour", OPT_FLAG, NULL, 0, 0, NULL,
     "plain ASCII (as when NO_COLOR is set or the output is not a terminal)"},
    {OPT_COLOR, NULL, "--colour", OPT_FLAG, NULL, 0, 0, NULL,
     "Unicode and colours even then (the last of the two wins)"},
    OPTS_END,
};

const CliCommand cmd_play = {
    "play",
    run,
    "play a game against the engine in the terminal",
    &(const OptSpec){
        NULL,
        0,
        0,
        "You play Black (your pieces at the bottom of the board), the engine White at 1 s a move. At "
        "the prompt type a move (11-15, 15x24x31, 15x31, c3-d4) or its number in the list, or a "
        "command: help moves hint undo flip board fen save [FILE] resign quit. The game is saved as "
        "PDN after every move and at the end (also on quit, Ctrl-D, Ctrl-C).",
        options,
        "Exit status 0 (also after quit or end of input), 1 when the game cannot be saved, 2 for a "
        "bad argument, 130 after Ctrl-C.",
    },
};
