/* worker.c - `kingme worker`: vectors kept, jobs played, results answered
 * (worker.h). */
#include "kingme/worker.h"
#include "kingme/book.h"
#include "kingme/book_build.h"
#include "kingme/notation.h"
#include "kingme/selfplay.h"
#include "kingme/textio.h"
#include "kingme/worker_proto.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORKER_MAX_VECTORS 65536

typedef struct Kept {
    Searcher *s;
    uint64_t id;
    int hash;
} Kept;

struct WorkerState {
    uint64_t *ids;
    Weights *w;
    int n, cap;
    /* the search of the book positions, and that of the self-play games
     * (which nothing else touches, as on a local thread), kept while the
     * vector and the table size stay */
    Kept book, selfplay;
};

WorkerState *worker_state_new(void) { return calloc(1, sizeof(WorkerState)); }

void worker_state_free(WorkerState *ws)
{
    if (!ws) return;
    for (int k = 0; k < 2; k++) {
        Kept *kp = k ? &ws->selfplay : &ws->book;
        if (kp->s) searcher_free(kp->s);
        free(kp->s);
    }
    free(ws->ids);
    free(ws->w);
    free(ws);
}

static const Weights *find_vector(const WorkerState *ws, uint64_t id)
{
    for (int i = 0; i < ws->n; i++)
        if (ws->ids[i] == id) return &ws->w[i];
    return NULL;
}

static char *answer(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *answer(const char *fmt, ...)
{
    char buf[512], shown[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    km_escape(buf, shown, sizeof shown); /* what the line held, control bytes escaped: one line */
    return strdup(shown);
}

static char *handle_weights(WorkerState *ws, char **tok, int nt)
{
    uint64_t id;
    if ((nt != 2 + EVAL_NPARAMS && nt != 2 + EVAL_NTERMS && nt != 2 + EVAL_NWEIGHTS_PHASE) ||
        !wproto_parse_hex64(tok[1], &id))
        return answer("error - a weights line is 'weights ID' and %d, %d or %d values", EVAL_NPARAMS,
                      EVAL_NTERMS, EVAL_NWEIGHTS_PHASE);
    Weights w = {0};
    for (int i = 0; i < nt - 2; i++) {
        long long v;
        if (!km_parse_ll(tok[2 + i], -32768, 32767, &v))
            return answer("error - weight %d '%.20s' is not a number from -32768 to 32767", i + 1,
                          tok[2 + i]);
        *weights_ref(&w, i) = (int16_t)v;
    }
    w.phased = nt == 2 + EVAL_NWEIGHTS_PHASE;
    if (wproto_weights_id(&w) != id) return answer("error - the ID %s does not match the values", tok[1]);
    if (find_vector(ws, id)) return NULL;
    if (ws->n == WORKER_MAX_VECTORS) return answer("error - more than %d vectors", WORKER_MAX_VECTORS);
    if (ws->n == ws->cap) {
        int cap = ws->cap ? ws->cap * 2 : 64;
        uint64_t *ids = realloc(ws->ids, (size_t)cap * sizeof *ids);
        if (ids) ws->ids = ids;
        Weights *ww = ids ? realloc(ws->w, (size_t)cap * sizeof *ww) : NULL;
        if (!ww) return answer("error - out of memory");
        ws->w = ww;
        ws->cap = cap;
    }
    ws->ids[ws->n] = id;
    ws->w[ws->n++] = w;
    return NULL;
}

static char *handle_job(WorkerState *ws, char **tok, int nt)
{
    char err[KM_ERR_MAX];
    WprotoJob j;
    if (wproto_parse_job(tok, nt, &j, err)) return answer("error %s %s", nt > 1 ? tok[1] : "-", err);
    const Weights *b = find_vector(ws, j.black), *w = find_vector(ws, j.white);
    if (!b || !w) return answer("error %d unknown vector %s", j.n, !b ? tok[2] : tok[3]);
    MatchGameSpec spec = {b, w, &j.opening, j.seed, {0, 0}};
    MatchOutcome o;
    if (match_play_game(&j.set, &spec, &o, NULL, err)) {
        game_free(&o.game);
        return answer("error %d %s", j.n, err);
    }
    Game g = o.game;
    KmBuf out = {0};
    km_buf_printf(&out, "result %d %s %d %d %016llx", j.n, game_result_text(g.result), (int)g.reason, g.nply,
                  (unsigned long long)wproto_moves_checksum(&g));
    if (j.keep) {
        km_buf_str(&out, " moves");
        for (int i = 0; i < g.nply; i++) {
            char t[MOVE_TEXT_MAX];
            move_to_text(&g.moves[i], t);
            km_buf_printf(&out, " %s", t);
        }
    }
    game_free(&g);
    char *s = km_buf_done(&out);
    return s ? s : answer("error %d out of memory", j.n);
}

/* The kept searcher, made again when the vector or the table size changes;
 * NULL with err. */
static Searcher *searcher_for(Kept *kp, uint64_t id, const Weights *w, int hash_mb, char *err)
{
    if (!kp->s || kp->id != id || kp->hash != hash_mb) {
        if (kp->s) searcher_free(kp->s);
        else if (!(kp->s = malloc(sizeof *kp->s))) return km_fail(err, "out of memory"), NULL;
        if (searcher_init(kp->s, w, (size_t)hash_mb, 1, err)) {
            free(kp->s);
            kp->s = NULL;
            return NULL;
        }
        kp->id = id;
        kp->hash = hash_mb;
    }
    return kp->s;
}

/* A book position: every legal move's score (book_score_position), which
 * depends only on the position, the depth, the vector and the table size. */
static char *handle_score(WorkerState *ws, char **tok, int nt)
{
    char err[KM_ERR_MAX];
    WprotoScore j;
    if (wproto_parse_score(tok, nt, &j, err)) return answer("error %s %s", nt > 1 ? tok[1] : "-", err);
    const Weights *w = find_vector(ws, j.weights);
    if (!w) return answer("error %d unknown vector %s", j.n, tok[2]);
    Searcher *s = searcher_for(&ws->book, j.weights, w, j.hash_mb, err);
    if (!s) return answer("error %d %s", j.n, err);
    uint16_t codes[255];
    int16_t scores[255];
    int k = book_score_position(s, &j.b, j.depth, NULL, codes, scores);
    if (k < 0) return answer("error %d out of memory", j.n);
    char *r = wproto_scored_line(j.n, k, codes, scores);
    return r ? r : answer("error %d out of memory", j.n);
}

/* A self-play game (version 5): game number GAME of the run the line
 * describes, which depends only on it (selfplay.h). */
static char *handle_selfplay(WorkerState *ws, char **tok, int nt)
{
    char err[KM_ERR_MAX];
    WprotoSelfplay j;
    if (wproto_parse_selfplay(tok, nt, &j, err)) return answer("error %s %s", nt > 1 ? tok[1] : "-", err);
    const Weights *w = find_vector(ws, j.weights);
    if (!w) return answer("error %d unknown vector %s", j.n, tok[3]);
    if (j.max_plies > SELFPLAY_WORKER_MAX_PLIES)
        return answer("error %d a game of at most %d plies travels on one line", j.n,
                      SELFPLAY_WORKER_MAX_PLIES);
    SelfplayConfig c;
    selfplay_config_default(&c);
    c.seed = j.seed;
    c.games = j.game + 1;
    c.chunk = 1;
    c.nodes = j.nodes;
    c.random_plies = j.random_plies;
    c.margin = j.margin;
    c.max_plies = j.max_plies;
    c.hash_mb = j.hash_mb;
    c.weights = *w;
    Searcher *s = searcher_for(&ws->selfplay, j.weights, w, j.hash_mb, err);
    char *r = s ? selfplay_played_line(s, &c, j.n, j.game, err) : NULL;
    return r ? r : answer("error %d %s", j.n, err);
}

char *worker_handle_line(WorkerState *ws, const char *line)
{
    size_t len = strlen(line);
    if (len > WPROTO_LINE_MAX) return answer("error - the line is too long");
    char *copy = strdup(line);
    char **tok = malloc((WPROTO_LINE_MAX / 2 + 2) * sizeof *tok);
    if (!copy || !tok) {
        free(copy);
        free(tok);
        return answer("error - out of memory");
    }
    int nt = km_split(copy, tok, WPROTO_LINE_MAX / 2);
    char *r = NULL;
    if (nt == 0) r = NULL;
    else if (strcmp(tok[0], "weights") == 0) r = handle_weights(ws, tok, nt);
    else if (strcmp(tok[0], "job") == 0) r = handle_job(ws, tok, nt);
    else if (strcmp(tok[0], "score") == 0) r = handle_score(ws, tok, nt);
    else if (strcmp(tok[0], "selfplay") == 0) r = handle_selfplay(ws, tok, nt);
    else r = answer("error - unknown line '%.20s'", tok[0]);
    free(copy);
    free(tok);
    return r;
}
