/* match.c - openings, engine-vs-engine games, the game pool, Elo statistics. */
#include "kingme/match.h"
#include "kingme/workers.h"
#include "kingme/engineproc.h"
#include "kingme/notation.h"
#include "kingme/pdn.h"
#include "kingme/textio.h"
#include "kingme/tt.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- ballots ----------------------------------------------------------------- */

const char *ballot_status_text(BallotStatus s)
{
    switch (s) {
    case BALLOT_CROSSBOARD: return "crossboard";
    case BALLOT_MAILPLAY: return "mailplay";
    default: return "barred";
    }
}

void ballot_line(const Ballot *b, char *buf, size_t len)
{
    snprintf(buf, len, "%d\t%s%s\t%s%s%s", b->number, ballot_status_text(b->status),
             b->ctd ? ",ctd" : "", b->moves, b->name[0] ? "\t" : "", b->name);
}

/* ---- openings ------------------------------------------------------------------ */

void opening_start(Opening *o)
{
    memset(o, 0, sizeof *o);
    board_init(&o->start);
    snprintf(o->name, sizeof o->name, "start");
}

int opening_from_ballot(Opening *o, const Ballot *b, char *err)
{
    opening_start(o);
    o->ballot = b->number;
    snprintf(o->name, sizeof o->name, "ballot %d (%s)", b->number, b->moves);
    Board cur = o->start;
    const char *p = b->moves;
    while (*p) {
        while (*p == ' ') p++;
        if (!*p) break;
        char text[MOVE_TEXT_MAX];
        size_t n = strcspn(p, " ");
        if (n >= sizeof text || o->nply >= OPENING_MAX_PLY)
            return km_fail(err, "ballot %d: bad moves '%s'", b->number, b->moves);
        memcpy(text, p, n);
        text[n] = '\0';
        p += n;
        char why[KM_ERR_MAX];
        if (parse_move(&cur, text, &o->moves[o->nply], why))
            return km_fail(err, "ballot %d: %s", b->number, why);
        make_move(&cur, &o->moves[o->nply]);
        o->nply++;
    }
    return 0;
}

int openings_crossboard(Opening **out, int *n, char *err)
{
    *out = NULL;
    *n = 0;
    Opening *o = malloc(BALLOT_COUNT * sizeof *o);
    if (!o) return km_fail(err, "out of memory");
    int k = 0;
    for (int i = 0; i < BALLOT_COUNT; i++) {
        if (km_ballots[i].status != BALLOT_CROSSBOARD) continue;
        if (opening_from_ballot(&o[k], &km_ballots[i], err)) {
            free(o);
            return -1;
        }
        k++;
    }
    *out = o;
    *n = k;
    return 0;
}

int openings_from_pdn(const char *path, Opening **out, int *n, char *err)
{
    *out = NULL;
    *n = 0;
    PdnGame *games;
    int ng;
    if (pdn_read_file(path, &games, &ng, err)) return -1;
    Opening *o = malloc((size_t)ng * sizeof *o);
    if (!o) {
        pdn_free_games(games, ng);
        return km_fail(err, "%s: out of memory", path);
    }
    int r = 0;
    for (int i = 0; i < ng && r == 0; i++) {
        const PdnGame *pg = &games[i];
        const Game *g = &pg->game;
        if (pg->error) {
            r = km_fail(err, "%s", pg->error);
        } else if (g->nply > OPENING_MAX_PLY) {
            r = km_fail(err, "%s: game %d (line %d) has %d plies; an opening may have at most %d", path,
                        i + 1, pg->line, g->nply, OPENING_MAX_PLY);
        } else if (g->result != GAME_ONGOING) {
            r = km_fail(err, "%s: game %d (line %d) is already over after its moves (%s)", path, i + 1,
                        pg->line, game_reason_text(g->reason));
        } else {
            memset(&o[i], 0, sizeof o[i]);
            o[i].start = g->start;
            o[i].nply = g->nply;
            memcpy(o[i].moves, g->moves, (size_t)g->nply * sizeof *g->moves);
            snprintf(o[i].name, sizeof o[i].name, "game %d (line %d)", i + 1, pg->line);
        }
    }
    pdn_free_games(games, ng);
    if (r) {
        free(o);
        return -1;
    }
    *out = o;
    *n = ng;
    return 0;
}

/* ---- one game ------------------------------------------------------------------ */

void match_settings_default(MatchSettings *s)
{
    memset(s, 0, sizeof *s);
    search_limits_default(&s->limits);
    s->ply_cap = MATCH_PLY_CAP;
    s->hash_mb = MATCH_HASH_MB;
}

const char *match_forfeit_text(MatchForfeit f)
{
    switch (f) {
    case FORFEIT_TIME: return "time forfeit";
    case FORFEIT_ILLEGAL: return "illegal move";
    case FORFEIT_CRASH: return "crash";
    case FORFEIT_PROTOCOL: return "protocol error";
    case FORFEIT_HANG: return "hang";
    default: return "";
    }
}

uint64_t match_game_seed(uint64_t seed, uint64_t index)
{
    return km_mix64(km_mix64(seed + 0x9E3779B97F4A7C15ull) ^ (index * 0xD1B54A32D192ED03ull + 1));
}

static bool stopped(const atomic_bool *stop)
{
    return stop && atomic_load_explicit(stop, memory_order_relaxed);
}

/* What one thread plays with: a Searcher per colour for the in-process
 * players, and a process per engine side of the settings. */
typedef struct Players {
    Searcher s[2];
    TT shared;          /* with share_table: the table of both Searchers */
    bool shared_dirty;  /* written since it was allocated (calloc: zero until then) */
    int nsides;
    EngineProc *eng;    /* [nsides]; pid 0 when not running (or not an engine side) */
    bool *restart;      /* [nsides]: misbehaved, kill and restart before the next game */
} Players;

static const char *const colour_name[2] = {"Black", "White"};

static int engine_boot(const MatchSettings *set, int side, EngineProc *e, char *err)
{
    /* the tie-break of the in-process players (random by default, made
     * reproducible by the seed sent before each game), and --hash if given */
    char hash[48];
    const char *opts[3] = {NULL, NULL, NULL};
    int k = 0;
    opts[k++] = set->limits.tiebreak == TIEBREAK_FIRST ? "option tiebreak first" : "option tiebreak random";
    if (set->engine_hash) {
        snprintf(hash, sizeof hash, "option hash %zu", set->hash_mb);
        opts[k++] = hash;
    }
    char why[KM_ERR_MAX];
    if (proc_start(e, set->sides[side].command, opts, why))
        return km_fail(err, "%s: %s", set->sides[side].name, why);
    return 0;
}

static void players_free(Players *P)
{
    for (int i = 0; i < P->nsides; i++)
        if (P->eng[i].pid > 0) proc_quit(&P->eng[i], 1.0);
    free(P->eng);
    free(P->restart);
    searcher_free(&P->s[0]);
    searcher_free(&P->s[1]);
    tt_free(&P->shared);
}

/* The Searchers, and a process for each engine side (started now, so that an
 * engine that cannot start stops the match before any game). */
static int players_init(Players *P, const MatchSettings *set, char *err)
{
    memset(P, 0, sizeof *P);
    Weights zero;
    memset(&zero, 0, sizeof zero);
    size_t mb = set->hash_mb; /* no table when every side is an engine process */
    bool inprocess = !set->sides;
    for (int i = 0; set->sides && i < set->nsides; i++) inprocess |= !set->sides[i].command;
    if (!inprocess) mb = 0;
    if (set->share_table && tt_init(&P->shared, mb, err)) return -1;
    size_t own = set->share_table ? 0 : mb;
    if (searcher_init(&P->s[0], &zero, own, 0, err)) {
        tt_free(&P->shared);
        return -1;
    }
    if (searcher_init(&P->s[1], &zero, own, 0, err)) {
        searcher_free(&P->s[0]);
        tt_free(&P->shared);
        return -1;
    }
    if (set->share_table && P->shared.e) {
        searcher_set_table(&P->s[0], &P->shared);
        searcher_set_table(&P->s[1], &P->shared);
    }
    int n = set->sides ? set->nsides : 0;
    P->eng = calloc((size_t)(n ? n : 1), sizeof *P->eng);
    P->restart = calloc((size_t)(n ? n : 1), sizeof *P->restart);
    if (!P->eng || !P->restart) {
        players_free(P);
        return km_fail(err, "out of memory");
    }
    P->nsides = n;
    for (int i = 0; i < n; i++) {
        P->eng[i].to_fd = P->eng[i].from_fd = -1;
        if (set->sides[i].command && engine_boot(set, i, &P->eng[i], err)) {
            players_free(P);
            return -1;
        }
    }
    return 0;
}

/* The game in progress, as the referee sees it. */
typedef struct Referee {
    const MatchSettings *set;
    const MatchGameSpec *spec;
    Players *P;
    MatchOutcome *o;
    Game *g;
    int side[2];          /* side index per colour, -1 without sides */
    double left[2];       /* clocks, seconds */
    const atomic_bool *stop;
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
    snprintf(o->termination, sizeof o->termination, "%s: %s %s", match_forfeit_text(why), colour_name[colour],
             detail);
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
    if (R->P->restart[side] || e->pid <= 0) {
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
        km_buf_str(&b, "position start");
    } else {
        char fen[128];
        board_to_fen(&g->start, fen, sizeof fen);
        km_buf_printf(&b, "position fen %s", fen);
    }
    if (g->nply) km_buf_str(&b, " moves");
    for (int i = 0; i < g->nply; i++) {
        char t[MOVE_TEXT_MAX];
        move_to_text(&g->moves[i], t);
        km_buf_printf(&b, " %s", t);
    }
    char *pos = km_buf_done(&b);
    if (!pos) return -1;
    char go[160];
    if (set->tc_base > 0) {
        long long inc = llround(set->tc_inc * 1000);
        snprintf(go, sizeof go, "go btime %lld wtime %lld binc %lld winc %lld",
                 (long long)floor(R->left[KM_BLACK] * 1000), (long long)floor(R->left[KM_WHITE] * 1000), inc, inc);
    } else if (set->limits.seconds > 0) {
        snprintf(go, sizeof go, "go movetime %lld", llround(set->limits.seconds * 1000));
    } else if (set->limits.depth > 0) {
        snprintf(go, sizeof go, "go depth %d", set->limits.depth);
    } else {
        snprintf(go, sizeof go, "go nodes %llu", (unsigned long long)set->limits.nodes);
    }
    if (set->tc_base <= 0 && set->limits.nodes && (set->limits.depth > 0 || set->limits.seconds > 0))
        snprintf(go + strlen(go), sizeof go - strlen(go), " nodes %llu", (unsigned long long)set->limits.nodes);
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
        if (parse_move(&g->cur, mv, m, why)) {
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
static int play_with(Players *P, const MatchSettings *set, const MatchGameSpec *spec, MatchOutcome *o,
                     const atomic_bool *stop, char *err)
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
    Referee R = {set, spec, P, o, g, {-1, -1}, {set->tc_base, set->tc_base}, stop};
    uint64_t seeds[2] = {spec->seed, km_mix64(spec->seed ^ 0x5768697465ull)};
    for (int c = 0; c < 2; c++) {
        const Weights *w = c == KM_BLACK ? spec->black : spec->white;
        if (set->sides) {
            R.side[c] = spec->side[c];
            w = set->sides[R.side[c]].weights;
        }
        if (is_engine(&R, c)) continue;
        searcher_set_weights(&P->s[c], w);
        searcher_seed(&P->s[c], seeds[c]);
        if (P->shared.e) {
            /* killers and history here, the shared table once below */
            searcher_set_table(&P->s[c], NULL);
            searcher_clear(&P->s[c]);
            searcher_set_table(&P->s[c], &P->shared);
        } else {
            searcher_clear(&P->s[c]);
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

int match_play_game(const MatchSettings *set, const MatchGameSpec *spec, MatchOutcome *o,
                    const atomic_bool *stop, char *err)
{
    memset(o, 0, sizeof *o);
    Players P;
    if (players_init(&P, set, err)) return -1;
    int r = play_with(&P, set, spec, o, stop, err);
    players_free(&P);
    return r;
}

/* ---- the pool ------------------------------------------------------------------ */

/* Shared between the workers: the job index (atomic), the failure flag
 * (atomic), and under the lock the done count, the callback and the first
 * error. Each outcome slot is written by the one worker that took the job. */
typedef struct Pool {
    const MatchSettings *set;
    const MatchGameSpec *specs;
    int n;
    bool keep;
    MatchOutcome *out;
    MatchProgress progress;
    void *user;
    const atomic_bool *stop;
    atomic_int next;
    atomic_bool failed;
    pthread_mutex_t lock;
    int done;
    char err[KM_ERR_MAX];
} Pool;

static void pool_fail(Pool *p, const char *msg)
{
    pthread_mutex_lock(&p->lock);
    if (!atomic_load(&p->failed)) snprintf(p->err, sizeof p->err, "%s", msg);
    atomic_store(&p->failed, true);
    pthread_mutex_unlock(&p->lock);
}

/* One thread's games, on the players made for it. */
typedef struct WorkerArg {
    Pool *pool;
    Players *players;
} WorkerArg;

static void *worker(void *arg)
{
    WorkerArg *wa = arg;
    Pool *p = wa->pool;
    Players *P = wa->players;
    char err[KM_ERR_MAX];
    while (!stopped(p->stop) && !atomic_load(&p->failed)) {
        int i = atomic_fetch_add(&p->next, 1);
        if (i >= p->n) break;
        MatchOutcome *o = &p->out[i];
        if (play_with(P, p->set, &p->specs[i], o, p->stop, err)) {
            game_free(&o->game);
            memset(&o->game, 0, sizeof o->game);
            o->result = GAME_ONGOING;
            pool_fail(p, err);
            break;
        }
        if (o->result != GAME_ONGOING) {
            pthread_mutex_lock(&p->lock);
            p->done++;
            if (p->progress) p->progress(p->done, p->n, i, o, p->user);
            pthread_mutex_unlock(&p->lock);
        }
        if (!p->keep || o->result == GAME_ONGOING) {
            game_free(&o->game);
            memset(&o->game, 0, sizeof o->game);
        }
    }
    return NULL;
}

int match_run(const MatchSettings *set, const MatchGameSpec *specs, int n, int threads,
              bool keep_games, MatchOutcome *out, MatchProgress progress, void *user,
              const atomic_bool *stop, char *err)
{
    if (set->workers) {
        MatchSettings local = *set; /* the local threads play as without workers */
        local.workers = NULL;
        return workers_run(set->workers, &local, specs, n, threads, keep_games, out, progress, user, stop, err);
    }
    memset(out, 0, (size_t)(n > 0 ? n : 0) * sizeof *out);
    if (n <= 0) return 0;
    Pool p = {.set = set, .specs = specs, .n = n, .keep = keep_games, .out = out,
              .progress = progress, .user = user, .stop = stop};
    atomic_init(&p.next, 0);
    atomic_init(&p.failed, false);
    if (threads > n) threads = n;
    if (threads < 1) threads = 1;
    /* every thread's players first, one after the other on this thread: an
     * engine that cannot start stops the match with one message */
    Players *players = malloc((size_t)threads * sizeof *players);
    WorkerArg *args = malloc((size_t)threads * sizeof *args);
    pthread_t *tid = malloc((size_t)threads * sizeof *tid);
    if (!players || !args || !tid) {
        free(players);
        free(args);
        free(tid);
        return km_fail(err, "out of memory");
    }
    int made = 0;
    for (; made < threads; made++) {
        if (players_init(&players[made], set, err)) break;
        args[made] = (WorkerArg){&p, &players[made]};
    }
    int r = 0;
    if (made < threads) {
        r = -1;
    } else if (pthread_mutex_init(&p.lock, NULL)) {
        r = km_fail(err, "cannot create a mutex");
    } else {
        if (threads == 1) {
            worker(&args[0]);
        } else {
            int started = 0;
            for (; started < threads; started++)
                if (pthread_create(&tid[started], NULL, worker, &args[started])) {
                    /* the threads already running finish the jobs */
                    if (started == 0) pool_fail(&p, "cannot start a thread");
                    break;
                }
            for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
        }
        pthread_mutex_destroy(&p.lock);
        if (atomic_load(&p.failed)) r = km_fail(err, "%s", p.err);
    }
    for (int t = 0; t < made; t++) players_free(&players[t]);
    free(players);
    free(args);
    free(tid);
    return r;
}

void match_outcomes_free(MatchOutcome *out, int n)
{
    for (int i = 0; out && i < n; i++)
        if (out[i].game.moves) game_free(&out[i].game);
}

/* The smaller of the physical memory and a cgroup limit (v2, then v1). */
uint64_t match_memory_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t lim = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
    static const char *const files[] = {"/sys/fs/cgroup/memory.max",
                                        "/sys/fs/cgroup/memory/memory.limit_in_bytes"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        FILE *f = fopen(files[i], "r");
        if (!f) continue;
        unsigned long long v;
        if (fscanf(f, "%llu", &v) == 1 && v > 0 && (lim == 0 || v < lim)) lim = v;
        fclose(f);
    }
    return lim;
}

/* ---- statistics ---------------------------------------------------------------- */

double elo_from_score(double s)
{
    if (s <= 0) return -INFINITY;
    if (s >= 1) return INFINITY;
    return 400.0 * log10(s / (1.0 - s));
}

double elo_los(int wins, int losses)
{
    if (wins + losses == 0) return 0.5;
    return 0.5 * (1.0 + erf((double)(wins - losses) / sqrt(2.0 * (double)(wins + losses))));
}

void elo_stats(int wins, int draws, int losses, EloStats *out)
{
    memset(out, 0, sizeof *out);
    out->wins = wins;
    out->draws = draws;
    out->losses = losses;
    out->games = wins + draws + losses;
    out->los = elo_los(wins, losses);
    if (out->games == 0) return;
    double n = out->games, s = (wins + 0.5 * draws) / n;
    double var = (wins * (1 - s) * (1 - s) + draws * (0.5 - s) * (0.5 - s) + losses * s * s) / n;
    double margin = 1.959963984540054 * sqrt(var / n);
    out->score = s;
    out->elo = elo_from_score(s);
    out->elo_lo = elo_from_score(s - margin);
    out->elo_hi = elo_from_score(s + margin);
}

/* ---- SPRT ---------------------------------------------------------------------- */

void sprt_init(Sprt *s, double elo0, double elo1, double alpha, double beta)
{
    s->elo0 = elo0;
    s->elo1 = elo1;
    s->alpha = alpha;
    s->beta = beta;
    s->lower = log(beta / (1 - alpha));
    s->upper = log((1 - beta) / alpha);
}

static double expected_score(double elo) { return 1 / (1 + pow(10, -elo / 400)); }

double sprt_llr(const Sprt *s, int wins, int draws, int losses)
{
    double n = (double)wins + draws + losses;
    if (n <= 0) return 0;
    double x = (wins + 0.5 * draws) / n;
    double var = (wins * (1 - x) * (1 - x) + draws * (0.5 - x) * (0.5 - x) + losses * x * x) / n;
    if (var <= 0) return 0;
    double s0 = expected_score(s->elo0), s1 = expected_score(s->elo1);
    return n * (s1 - s0) * (2 * x - s0 - s1) / (2 * var);
}

SprtDecision sprt_decide(const Sprt *s, double llr)
{
    if (llr >= s->upper) return SPRT_H1;
    if (llr <= s->lower) return SPRT_H0;
    return SPRT_CONTINUE;
}
