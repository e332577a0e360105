/* referee.c - one game between two players, refereed (referee.h). */
#include "kingme/referee.h"
#include "kingme/book.h"
#include "kingme/engineproc.h"
#include "kingme/notation.h"
#include "kingme/textio.h"
#include "kingme/tt.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- one game ------------------------------------------------------------------ */

void referee_settings_default(MatchSettings *s)
{
    memset(s, 0, sizeof *s);
    search_limits_default(&s->limits);
    search_switches_default(&s->use);
    s->tiebreak = TIEBREAK_RANDOM;
    s->ply_cap = MATCH_PLY_CAP;
    s->hash_mb = MATCH_HASH_MB;
}

const char *referee_forfeit_text(MatchForfeit f)
{
    switch (f) {
    case FORFEIT_TIME:
        return "time forfeit";
    case FORFEIT_ILLEGAL:
        return "illegal move";
    case FORFEIT_CRASH:
        return "crash";
    case FORFEIT_PROTOCOL:
        return "protocol error";
    case FORFEIT_HANG:
        return "hang";
    default:
        return "";
    }
}

uint64_t referee_game_seed(uint64_t seed, uint64_t index)
{
    return km_mix64(km_mix64(seed + 0x9E3779B97F4A7C15ull) ^ (index * 0xD1B54A32D192ED03ull + 1));
}

static bool stopped(const atomic_bool *stop)
{
    return stop && atomic_load_explicit(stop, memory_order_relaxed);
}

/* What one thread plays with: a Searcher per colour for the in-process
 * players, and a process per engine side of the settings. */
struct MatchPlayers {
    Searcher s[2];
    TT shared;         /* with share_table: the table of both Searchers */
    bool shared_dirty; /* written since it was allocated (calloc: zero until then) */
    int nsides;
    EngineProc *eng; /* [nsides]; child.pid 0 when not running (or not an engine side) */
    bool *restart;   /* [nsides]: misbehaved, kill and restart before the next game */
};

static const char *const colour_name[2] = {"Black", "White"};

static int engine_boot(const MatchSettings *set, int side, EngineProc *e, char *err)
{
    /* the tie-break of the in-process players (random by default, made
     * reproducible by the seed sent before each game), and --hash if given */
    char hash[48];
    const char *opts[3] = {NULL, NULL, NULL};
    int k = 0;
    opts[k++] = set->tiebreak == TIEBREAK_FIRST ? "option tiebreak first" : "option tiebreak random";
    if (set->engine_hash) {
        snprintf(hash, sizeof hash, "option hash %zu", set->hash_mb);
        opts[k++] = hash;
    }
    char why[KM_ERR_MAX];
    if (proc_start(e, set->sides[side].command, opts, why))
        return km_fail(err, "%s: %s", set->sides[side].name, why);
    return 0;
}

void referee_players_free(MatchPlayers *P)
{
    if (!P) return;
    for (int i = 0; i < P->nsides; i++)
        if (P->eng[i].child.pid > 0) proc_quit(&P->eng[i], 1.0);
    free(P->eng);
    free(P->restart);
    search_free(&P->s[0]);
    search_free(&P->s[1]);
    tt_free(&P->shared);
    free(P);
}

/* The Searchers, and a process for each engine side (started now, so that an
 * engine that cannot start stops the match before any game). */
MatchPlayers *referee_players_new(const MatchSettings *set, char *err)
{
    MatchPlayers *P = calloc(1, sizeof *P);
    if (!P) {
        km_fail(err, "out of memory");
        return NULL;
    }
    Weights zero;
    memset(&zero, 0, sizeof zero);
    size_t mb = set->hash_mb; /* no table when every side is an engine process */
    bool inprocess = !set->sides;
    for (int i = 0; set->sides && i < set->nsides; i++) inprocess |= !set->sides[i].command;
    if (!inprocess) mb = 0;
    if (set->share_table && tt_init(&P->shared, mb, err)) {
        free(P);
        return NULL;
    }
    size_t own = set->share_table ? 0 : mb;
    if (search_init(&P->s[0], &zero, own, 0, err)) {
        tt_free(&P->shared);
        free(P);
        return NULL;
    }
    if (search_init(&P->s[1], &zero, own, 0, err)) {
        search_free(&P->s[0]);
        tt_free(&P->shared);
        free(P);
        return NULL;
    }
    if (set->share_table && P->shared.e) {
        search_set_table(&P->s[0], &P->shared);
        search_set_table(&P->s[1], &P->shared);
    }
    int n = set->sides ? set->nsides : 0;
    P->eng = calloc((size_t)(n ? n : 1), sizeof *P->eng);
    P->restart = calloc((size_t)(n ? n : 1), sizeof *P->restart);
    if (!P->eng || !P->restart) {
        referee_players_free(P);
        km_fail(err, "out of memory");
        return NULL;
    }
    P->nsides = n;
    for (int i = 0; i < n; i++) {
        P->eng[i].child = (ProcChild)PROC_CHILD_NONE;
        if (set->sides[i].command && engine_boot(set, i, &P->eng[i], err)) {
            referee_players_free(P);
            return NULL;
        }
    }
    return P;
}

/* The game in progress, as the referee sees it. */
typedef struct Referee {
    const MatchSettings *set;
    const MatchGameSpec *spec;
    MatchPlayers *P;
    MatchOutcome *o;
    Game *g;
    int side[2];    /* side index per colour, -1 without sides */
    double left[2]; /* clocks, seconds */
    const atomic_bool *stop;
    uint64_t book_rng[2]; /* per colour: the choices among book moves */
} Referee;

static bool is_engine(const Referee *R, int colour)
{
    return R->side[colour] >= 0 && R->set->sides[R->side[colour]].command;
}

static EngineProc *engine_of(Referee *R, int colour) { return &R->P->eng[R->side[colour]]; }

/* Give the game to the other colour. */
static void forfeit(Referee *R, int colour, MatchForfeit why, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void forfeit(Referee *R, int colour, MatchForfeit why, const char *fmt, ...)
{
    MatchOutcome *o = R->o;
    o->forfeit = why;
    o->forfeit_side = colour;
    R->g->result = colour == KM_BLACK ? GAME_WHITE_WINS : GAME_BLACK_WINS;
    R->g->reason = REASON_ADJUDICATED;
    char detail[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    snprintf(o->termination, sizeof o->termination, "%s: %s %s", referee_forfeit_text(why),
             colour_name[colour], detail);
    if (is_engine(R, colour)) R->P->restart[R->side[colour]] = true;
}

/* An engine that failed to read, write or answer: the forfeit that fits. */
static void engine_failed(Referee *R, int colour, int code, const char *line, const char *doing)
{
    EngineProc *e = engine_of(R, colour);
    char why[64];
    switch (code) {
    case PROC_EOF:
        proc_exit_text(e, why, sizeof why);
        forfeit(R, colour, FORFEIT_CRASH, "%s (%s)", doing, why);
        break;
    case PROC_TIMEOUT:
        forfeit(R, colour, FORFEIT_HANG, "%s", doing);
        break;
    default:
        forfeit(R, colour, FORFEIT_PROTOCOL, "%s: '%.60s'", doing, line);
        break;
    }
}

/* A new game for an engine: restart it if it misbehaved, then option seed,
 * newgame and isready -> readyok. Returns -1 when the engine cannot be
 * restarted (the match cannot go on), 1 when it forfeited, 0 when ready. */
static int engine_new_game(Referee *R, int colour, uint64_t seed, char *err)
{
    int side = R->side[colour];
    EngineProc *e = engine_of(R, colour);
    if (R->P->restart[side] || e->child.pid <= 0) {
        proc_kill(e);
        if (engine_boot(R->set, side, e, err)) return -1;
        R->P->restart[side] = false;
    }
    char why[KM_ERR_MAX];
    if (proc_send(e, PROC_START_TIMEOUT, why, "option seed %llu", (unsigned long long)(seed >> 1)) ||
        proc_send(e, PROC_START_TIMEOUT, why, "newgame") ||
        proc_send(e, PROC_START_TIMEOUT, why, "isready")) {
        engine_failed(R, colour, PROC_EOF, "", "before the game");
        return 1;
    }
    char last[128];
    int c = proc_expect(e, "readyok", km_now() + PROC_START_TIMEOUT, last, sizeof last);
    if (c != PROC_LINE) {
        engine_failed(R, colour, c, last, "did not answer isready");
        return 1;
    }
    return 0;
}

/* After a stop: let a thinking engine answer `stop`, or restart it later. */
static void engine_abort(Referee *R, int colour)
{
    EngineProc *e = engine_of(R, colour);
    char why[KM_ERR_MAX], line[256];
    if (proc_send(e, 0.5, why, "stop") == 0) {
        double end = km_now() + 1.0;
        for (;;) {
            int c = proc_read_line(e, end, NULL, line, sizeof line);
            if (c != PROC_LINE) break;
            if (strncmp(line, "bestmove", 8) == 0) return;
        }
    }
    R->P->restart[R->side[colour]] = true;
}

/* Charge a move's time to the mover's clock: a forfeit (true) when it ran
 * out, else the increment is added. */
static bool clock_charge(Referee *R, int colour, double elapsed)
{
    const MatchSettings *set = R->set;
    if (set->tc_base <= 0) return false;
    MatchOutcome *o = R->o;
    double had = R->left[colour];
    R->left[colour] -= elapsed;
    o->timed_moves[colour]++;
    o->time_used[colour] += elapsed;
    if (R->left[colour] < o->min_left[colour]) {
        o->min_left[colour] = R->left[colour];
        o->min_left_ply[colour] = R->g->nply + 1;
    }
    if (R->left[colour] < 0) {
        forfeit(R, colour, FORFEIT_TIME, "took %.3f s with %.3f s left", elapsed, had);
        return true;
    }
    R->left[colour] += set->tc_inc;
    return false;
}

/* The move of an engine: position, go, then info lines until bestmove.
 * Returns 0 with *m and *elapsed, 1 when it forfeited, 2 when stopped,
 * -1 out of memory. */
static int engine_move(Referee *R, int colour, Move *m, double *elapsed)
{
    const MatchSettings *set = R->set;
    Game *g = R->g;
    EngineProc *e = engine_of(R, colour);
    KmBuf b = {0};
    Board init;
    board_init(&init);
    if (board_equal(&g->start, &init)) {
        textio_buf_str(&b, "position start");
    } else {
        char fen[128];
        board_to_fen(&g->start, fen, sizeof fen);
        textio_buf_printf(&b, "position fen %s", fen);
    }
    if (g->nply) textio_buf_str(&b, " moves");
    for (int i = 0; i < g->nply; i++) {
        char t[MOVE_TEXT_MAX];
        notation_move_to_text(&g->moves[i], t);
        textio_buf_printf(&b, " %s", t);
    }
    char *pos = textio_buf_done(&b);
    if (!pos) return -1;
    char go[160];
    if (set->tc_base > 0) {
        long long inc = llround(set->tc_inc * 1000);
        snprintf(go, sizeof go, "go btime %lld wtime %lld binc %lld winc %lld",
                 (long long)floor(R->left[KM_BLACK] * 1000), (long long)floor(R->left[KM_WHITE] * 1000), inc,
                 inc);
    } else if (set->limits.seconds > 0) {
        snprintf(go, sizeof go, "go movetime %lld", llround(set->limits.seconds * 1000));
    } else if (set->limits.depth > 0) {
        snprintf(go, sizeof go, "go depth %d", set->limits.depth);
    } else {
        snprintf(go, sizeof go, "go nodes %llu", (unsigned long long)set->limits.nodes);
    }
    if (set->tc_base <= 0 && set->limits.nodes && (set->limits.depth > 0 || set->limits.seconds > 0))
        snprintf(go + strlen(go), sizeof go - strlen(go), " nodes %llu",
                 (unsigned long long)set->limits.nodes);
    char why[KM_ERR_MAX];
    int sent = proc_send(e, 1.0, why, "%s", pos);
    free(pos);
    double t0 = km_now();
    if (sent || proc_send(e, 1.0, why, "%s", go)) {
        engine_failed(R, colour, PROC_EOF, "", "at its move");
        return 1;
    }
    double limit = set->tc_base > 0 ? R->left[colour] + (set->grace > 0 ? set->grace : MATCH_GRACE)
                                    : set->limits.seconds + (set->timeout > 0 ? set->timeout : MATCH_TIMEOUT);
    char line[PROC_LINE_MAX];
    for (;;) {
        int c = proc_read_line(e, t0 + limit, R->stop, line, sizeof line);
        double t1 = km_now();
        if (c == PROC_STOPPED) {
            engine_abort(R, colour);
            return 2;
        }
        if (c == PROC_TIMEOUT) {
            forfeit(R, colour, FORFEIT_HANG, "sent no bestmove within %.1f s", limit);
            return 1;
        }
        if (c != PROC_LINE) {
            engine_failed(R, colour, c, line, "at its move");
            return 1;
        }
        if (line[0] == '\0' || strcmp(line, "info") == 0 || strncmp(line, "info ", 5) == 0) continue;
        if (strncmp(line, "bestmove ", 9) != 0) {
            forfeit(R, colour, FORFEIT_PROTOCOL, "sent '%.60s' instead of info or bestmove", line);
            return 1;
        }
        *elapsed = t1 - t0;
        if (clock_charge(R, colour, *elapsed)) return 1;
        /* the move is the first word (anything after it, such as a ponder
         * move, is ignored) */
        const char *text = line + 9;
        while (*text == ' ' || *text == '\t') text++;
        size_t n = strcspn(text, " \t");
        char mv[64];
        snprintf(mv, sizeof mv, "%.*s", (int)(n < 60 ? n : 60), text);
        if (strcmp(mv, "none") == 0) {
            forfeit(R, colour, FORFEIT_ILLEGAL, "said 'bestmove none' but has a legal move");
            return 1;
        }
        if (notation_parse_move(&g->cur, mv, m, why)) {
            forfeit(R, colour, FORFEIT_ILLEGAL, "played '%s': %s", mv, why);
            return 1;
        }
        return 0;
    }
}

/* The move of an in-process player, through search_game (under a clock its
 * time manager decides; a stop request ends the search at once). Returns 0
 * with *m and *elapsed, 2 when stopped, -1 with a message. */
static int inprocess_move(Referee *R, int colour, Move *m, double *elapsed, char *err)
{
    const Book *bk = R->side[colour] >= 0 ? R->set->book : NULL;
    BookMove bm;
    if (bk &&
        book_choose(bk, &R->g->cur, book_margin(bk, R->set->book_variety), &R->book_rng[colour], &bm, NULL)) {
        *m = bm.move;
        *elapsed = 0;
        return 0;
    }
    SearchLimits lim = R->set->limits;
    if (R->set->tc_base > 0) {
        lim.depth = 0;
        lim.seconds = 0;
        lim.time_left = R->left[colour];
        lim.increment = R->set->tc_inc;
        if (lim.time_left <= 0) lim.time_left = 1e-6;
    }
    lim.abort = R->stop;
    SearchResult r;
    double t0 = km_now();
    if (search_game(&R->P->s[colour], R->g, &lim, &r, NULL, NULL)) return km_fail(err, "out of memory");
    *elapsed = km_now() - t0;
    if (stopped(R->stop)) return 2;
    if (!r.has_move) return km_fail(err, "internal error: the search found no move in a game still going");
    *m = r.best;
    return 0;
}

/* One game on the thread's players. Fills o (its game too). */
int referee_players_play(MatchPlayers *P, const MatchSettings *set, const MatchGameSpec *spec,
                         MatchOutcome *o, const atomic_bool *stop, char *err)
{
    Game *g = &o->game;
    o->result = GAME_ONGOING;
    o->reason = REASON_NONE;
    o->nply = 0;
    o->forfeit = FORFEIT_NONE;
    o->forfeit_side = 0;
    o->termination[0] = '\0';
    o->min_left[0] = o->min_left[1] = INFINITY;
    o->min_left_ply[0] = o->min_left_ply[1] = 0;
    o->timed_moves[0] = o->timed_moves[1] = 0;
    o->time_used[0] = o->time_used[1] = 0;
    const Opening *op = spec->opening;
    if (game_init(g, op ? &op->start : NULL)) return km_fail(err, "out of memory");
    for (int i = 0; op && i < op->nply; i++) {
        if (g->result != GAME_ONGOING)
            return km_fail(err, "opening %s: the game is over before its last move", op->name);
        if (game_play(g, &op->moves[i])) return km_fail(err, "out of memory");
    }
    Referee R = {set, spec, P, o, g, {-1, -1}, {set->tc_base, set->tc_base}, stop, {0, 0}};
    uint64_t seeds[2] = {spec->seed, km_mix64(spec->seed ^ 0x5768697465ull)};
    R.book_rng[0] = seeds[0] ^ 0x626F6F6Bull; /* "book" */
    R.book_rng[1] = seeds[1] ^ 0x626F6F6Bull;
    for (int c = 0; c < 2; c++) {
        const Weights *w = c == KM_BLACK ? spec->black : spec->white;
        const SearchParams *par = &search_params_defaults;
        if (set->sides) {
            R.side[c] = spec->side[c];
            w = set->sides[R.side[c]].weights;
            if (set->side_params) par = &set->side_params[R.side[c]];
        }
        if (is_engine(&R, c)) continue;
        search_set_params(&P->s[c], par);
        search_set_weights(&P->s[c], w);
        search_seed(&P->s[c], seeds[c]);
        search_set_switches(&P->s[c], &set->use);
        search_set_tiebreak(&P->s[c], set->tiebreak);
        search_set_egdb(&P->s[c], set->egdb);
        if (P->shared.e) {
            /* killers and history here, the shared table once below */
            search_set_table(&P->s[c], NULL);
            search_clear(&P->s[c]);
            search_set_table(&P->s[c], &P->shared);
        } else {
            search_clear(&P->s[c]);
        }
    }
    if (P->shared.e) {
        /* a fresh table needs no clearing, and untouched pages cost no memory */
        if (P->shared_dirty) tt_clear(&P->shared);
        P->shared_dirty = true;
    }
    for (int c = 0; c < 2 && g->result == GAME_ONGOING; c++) {
        if (!is_engine(&R, c)) continue;
        int r = engine_new_game(&R, c, seeds[c], err);
        if (r < 0) return -1;
    }
    int cap = set->ply_cap > 0 ? set->ply_cap : MATCH_PLY_CAP;
    while (g->result == GAME_ONGOING) {
        if (g->nply >= cap) {
            g->result = GAME_DRAW;
            g->reason = REASON_PLY_CAP;
            break;
        }
        if (stopped(stop)) break;
        int c = g->cur.stm;
        Move m;
        double elapsed = 0;
        if (is_engine(&R, c)) {
            int r = engine_move(&R, c, &m, &elapsed);
            if (r < 0) return km_fail(err, "out of memory");
            if (r == 2) break;
            if (r == 1) break; /* forfeited */
        } else {
            int r = inprocess_move(&R, c, &m, &elapsed, err);
            if (r < 0) return -1;
            if (r == 2) break;
            if (clock_charge(&R, c, elapsed)) break;
        }
        if (game_play(g, &m)) return km_fail(err, "out of memory");
    }
    if (g->result == GAME_ONGOING && stopped(stop)) {
        /* stopped: left unfinished */
    } else if (o->forfeit == FORFEIT_NONE) {
        snprintf(o->termination, sizeof o->termination, "%s", game_reason_text(g->reason));
    }
    o->result = g->result;
    o->reason = g->reason;
    o->nply = g->nply;
    o->end_left[0] = R.left[0];
    o->end_left[1] = R.left[1];
    return 0;
}

int referee_play_game(const MatchSettings *set, const MatchGameSpec *spec, MatchOutcome *o,
                      const atomic_bool *stop, char *err)
{
    memset(o, 0, sizeof *o);
    MatchPlayers *P = referee_players_new(set, err);
    if (!P) return -1;
    int r = referee_players_play(P, set, spec, o, stop, err);
    referee_players_free(P);
    return r;
}
