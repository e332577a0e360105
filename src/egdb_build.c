/* egdb_build.c - retrograde analysis of the endgame slices.
 *
 * Slices are built in order of pieces, then of men, so that every capture
 * (one piece fewer) and every crowning (one man fewer) leads into a slice
 * already built. A slice and its mirror (colours swapped) are built
 * together, since White to move in one is Black to move in the other: only
 * Black to move is stored.
 *
 * Pass 1, values: every position's moves are generated once. A capture or a
 * crowning leads out of the pair, to a known value; the other moves are
 * counted. Positions decided at once (no move: lost; a move to a lost
 * position: won) are queued, and the queue is drained by generating
 * predecessors (un-moves of the side that just moved): a predecessor of a
 * lost position is won; a predecessor of a won position loses one of its
 * open moves, and when none is left (and no move out of the pair drew) it is
 * lost. What is never decided is a draw.
 *
 * Pass 2, distances to conversion (see egdb.h), by levels: level 0 holds the
 * positions without a move; level 1 the wins with a capture, man move or
 * crowning into a lost position, and the losses whose every move is one of
 * those; from a position decided at level t, its predecessors by a king move
 * are decided at t+1 (a won predecessor of a loss) or, when their last king
 * move has been decided, at one more than the longest (a lost predecessor of
 * wins). */
#include "kingme/egdb_build.h"
#include "egdb_impl.h"
#include "kingme/bits.h"
#include "kingme/textio.h"
#include "kingme/workers.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

enum { ST_OPEN = 0, ST_WIN = 1, ST_LOSS = 2, ST_DRAW = 3, ST_NONE = 4 };
#define DTC_UNSET 0xFF
#define MAX_LEVELS 256

typedef struct U32Vec {
    uint32_t *v;
    size_t n, cap;
} U32Vec;

static int vec_push(U32Vec *q, uint32_t x)
{
    if (q->n == q->cap) {
        size_t cap = q->cap ? q->cap * 2 : 4096;
        uint32_t *v = realloc(q->v, cap * sizeof *v);
        if (!v) return -1;
        q->v = v;
        q->cap = cap;
    }
    q->v[q->n++] = x;
    return 0;
}

typedef struct Pair Pair;

/* What the whole build shares. codes[id] are the finished slices (read-only
 * while a group of slices is being built). */
typedef struct BuildCtx {
    const char *dir;
    int full_dtc_pieces; /* slices of more pieces keep only some DTC */
    uint8_t *codes[EGDB_NSLICE_IDS];
    EgdbGeom geom[EGDB_NSLICE_IDS];
    /* progress of the threads building */
    pthread_mutex_t lock;
    EgdbProgress cur;                         /* last reported state of some thread */
    uint64_t positions_done, positions_total; /* of the pairs finished / to build */
    Pair *active;                             /* the group being built: its pairs' shares done */
    int nactive;
    int slices_done, slices_total;
    double start, build_start; /* the build; its first slice built (not loaded) */
    EgdbProgressFn progress;   /* may be NULL */
    void *user;
} BuildCtx;

/* A slice and its mirror (n = 1 when they are the same). */
struct Pair {
    int n;
    EgdbGeom g[2];
    int id[2];
    uint8_t *st[2], *cnt[2], *aux[2], *dtc[2];
    U32Vec queue;
    U32Vec level[MAX_LEVELS];
    double done; /* the share of the pair's work done (BuildCtx.lock), for the time left */
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The shares of a pair's work its steps take, measured on the 5-piece
 * build: the moves of every position, the values from the queue, the
 * moves again for the distances, the distances level by level, the file. */
#define SHARE_MOVES 0.30
#define SHARE_VALUES 0.25
#define SHARE_DSCAN 0.20
#define SHARE_LEVELS 0.15
#define SHARE_WRITE 0.10

/* A thread's state for the progress line: phase, level, and the share of
 * the pair done (from + part of the step's share). */
static void report(BuildCtx *c, Pair *p, const char *phase, int pass, double done)
{
    pthread_mutex_lock(&c->lock);
    c->cur.slice = p->g[0].s;
    c->cur.phase = phase;
    c->cur.pass = pass;
    c->cur.positions = p->g[0].size;
    p->done = done;
    pthread_mutex_unlock(&c->lock);
}

/* The share of a scan of member k done at index i, for report. */
static inline double scan_share(const Pair *p, int k, uint64_t i)
{
    uint64_t total = p->g[0].size + (p->n == 2 ? p->g[1].size : 0);
    return (double)((k ? p->g[0].size : 0) + i) / (double)total;
}
#define REPORT_EVERY ((uint64_t)1 << 20)

/* Which member of the pair holds slice id (-1: none). */
static inline int pair_member(const Pair *p, int id)
{
    return id == p->id[0] ? 0 : (p->n == 2 && id == p->id[1]) ? 1 : -1;
}

/* Value (ST_WIN / ST_LOSS / ST_DRAW) of a position with White to move that
 * lies outside the pair, for White: the stored value of its mirror. */
static inline int value_outside(const BuildCtx *c, const Board *q)
{
    Board m;
    egdb_mirror(q, &m);
    int id = egdb_slice_id(egdb_slice_of(&m));
    uint8_t code = c->codes[id][egdb_index(&c->geom[id], &m)];
    int v = egdb_code_value(code);
    return v == EGDB_WIN ? ST_WIN : v == EGDB_LOSS ? ST_LOSS : ST_DRAW;
}

/* Predecessors of b (Black to move) by a non-capturing, non-crowning move
 * of White (kings only when kings_only), as Black-to-move positions: the
 * mirrors of the positions with White to move before that move. */
static int predecessors(const Board *b, bool kings_only, Board *out)
{
    int n = 0;
    uint32_t empty = ~board_occupied(b);
    uint32_t w = kings_only ? board_kings(b, KM_WHITE) : b->pieces[KM_WHITE];
    while (w) {
        int t = bits_poplsb32(&w);
        uint32_t tm = 1u << t;
        bool king = (b->kings & tm) != 0;
        for (int d = 0; d < 4; d++) {
            if (!king && d >= 2) break; /* a White man came from a higher square: DL or DR */
            int f = mg_neighbour[t][d];
            if (f < 0 || !(empty & (1u << f))) continue;
            Board w0 = *b;
            uint32_t fm = 1u << f;
            w0.pieces[KM_WHITE] = (w0.pieces[KM_WHITE] & ~tm) | fm;
            if (king) w0.kings = (w0.kings & ~tm) | fm;
            w0.stm = KM_WHITE;
            egdb_mirror(&w0, &out[n++]);
        }
    }
    return n;
}

/* The predecessors of a batch of queued positions, as queue entries, with
 * their bytes prefetched: in the large slices nearly every one is a cache
 * miss, and asking for a batch at once overlaps the waits. */
#define PRED_BATCH 64
typedef struct PredBatch {
    int n;
    bool lost[PRED_BATCH];
    int from[PRED_BATCH + 1]; /* position q's predecessors: pred[from[q] .. from[q + 1]) */
    uint32_t pred[PRED_BATCH * 32];
} PredBatch;

static void pred_batch(const Pair *p, const uint32_t *entries, int n, bool kings_only, PredBatch *pb)
{
    Board pred[32];
    int total = 0;
    pb->n = n;
    for (int q = 0; q < n; q++) {
        uint32_t e = entries[q];
        int k = (int)(e >> 31), kk = p->n == 2 ? 1 - k : 0; /* the predecessors are in the mirror slice */
        Board b;
        egdb_unindex(&p->g[k], e & 0x7FFFFFFFu, &b);
        pb->lost[q] = p->st[k][e & 0x7FFFFFFFu] == ST_LOSS;
        pb->from[q] = total;
        int np = predecessors(&b, kings_only, pred);
        for (int j = 0; j < np; j++) {
            uint32_t i = (uint32_t)egdb_index(&p->g[kk], &pred[j]);
            __builtin_prefetch(&p->st[kk][i], 1);
            __builtin_prefetch(&p->cnt[kk][i], 1);
            if (kings_only) {
                __builtin_prefetch(&p->dtc[kk][i], 1);
                __builtin_prefetch(&p->aux[kk][i], 1);
            } else if (!pb->lost[q]) __builtin_prefetch(&p->aux[kk][i], 0);
            pb->pred[total++] = i | (uint32_t)kk << 31;
        }
    }
    pb->from[n] = total;
}

static int pair_alloc(Pair *p)
{
    for (int k = 0; k < p->n; k++) {
        size_t sz = (size_t)p->g[k].size;
        p->st[k] = malloc(sz);
        p->cnt[k] = malloc(sz);
        p->aux[k] = malloc(sz);
        p->dtc[k] = malloc(sz);
        if (!p->st[k] || !p->cnt[k] || !p->aux[k] || !p->dtc[k]) return -1;
    }
    return 0;
}

static void pair_free(Pair *p)
{
    for (int k = 0; k < p->n; k++) {
        free(p->st[k]);
        free(p->cnt[k]);
        free(p->aux[k]);
        free(p->dtc[k]);
        p->st[k] = p->cnt[k] = p->aux[k] = p->dtc[k] = NULL;
    }
    free(p->queue.v);
    p->queue = (U32Vec){0};
    for (int i = 0; i < MAX_LEVELS; i++) {
        free(p->level[i].v);
        p->level[i] = (U32Vec){0};
    }
}

static inline bool is_conversion(const Board *b, const Move *m)
{
    return m->captured || !(b->kings & (1u << m->from));
}

/* Pass 1: win / loss / draw. */
static int pass_values(BuildCtx *c, Pair *p)
{
    report(c, p, "moves", 0, 0);
    MoveList ml;
    for (int k = 0; k < p->n; k++) {
        const EgdbGeom *g = &p->g[k];
        EgdbScan sc;
        egdb_scan_start(&sc, g, 0, g->size);
        Board b;
        bool real;
        for (uint64_t i = 0; egdb_scan_next(&sc, &b, &real); i++) {
            if (i % REPORT_EVERY == 0) report(c, p, "moves", 0, SHARE_MOVES * scan_share(p, k, i));
            p->cnt[k][i] = 0;
            p->aux[k][i] = 0;
            if (!real || !b.pieces[KM_WHITE]) {
                p->st[k][i] = ST_NONE;
                continue;
            }
            int n = mg_moves(&b, &ml);
            bool win = false, draw = false;
            int open = 0;
            for (int j = 0; j < n && !win; j++) {
                const Move *m = &ml.moves[j];
                if (m->captured || mg_move_promotes(&b, m)) {
                    Board q = b;
                    mg_make_move(&q, m);
                    int v = value_outside(c, &q);
                    if (v == ST_LOSS) win = true;
                    else if (v == ST_DRAW) draw = true;
                } else open++;
            }
            uint8_t st = ST_OPEN;
            if (win) st = ST_WIN;
            else if (open == 0) st = draw ? ST_DRAW : ST_LOSS;
            p->st[k][i] = st;
            p->cnt[k][i] = (uint8_t)open;
            p->aux[k][i] = draw;
            if ((st == ST_WIN || st == ST_LOSS) && vec_push(&p->queue, (uint32_t)i | (uint32_t)k << 31))
                return -1;
        }
    }
    PredBatch pb;
    for (size_t qi = 0; qi < p->queue.n;) {
        if (qi % (REPORT_EVERY / 4) < PRED_BATCH)
            report(c, p, "values", 0, SHARE_MOVES + SHARE_VALUES * (double)qi / (double)p->queue.n);
        size_t qend = qi + PRED_BATCH < p->queue.n ? qi + PRED_BATCH : p->queue.n;
        pred_batch(p, p->queue.v + qi, (int)(qend - qi), false, &pb);
        for (int q = 0; q < pb.n; q++) {
            bool lost = pb.lost[q];
            for (int j = pb.from[q]; j < pb.from[q + 1]; j++) {
                int kk = (int)(pb.pred[j] >> 31);
                uint32_t i = pb.pred[j] & 0x7FFFFFFFu;
                if (p->st[kk][i] != ST_OPEN) continue;
                if (lost) {
                    p->st[kk][i] = ST_WIN;
                } else if (--p->cnt[kk][i] == 0 && !p->aux[kk][i]) {
                    p->st[kk][i] = ST_LOSS;
                } else continue;
                if (vec_push(&p->queue, pb.pred[j])) return -1;
            }
        }
        qi = qend;
    }
    free(p->queue.v);
    p->queue = (U32Vec){0};
    for (int k = 0; k < p->n; k++)
        for (uint64_t i = 0; i < p->g[k].size; i++)
            if (p->st[k][i] == ST_OPEN) p->st[k][i] = ST_DRAW;
    return 0;
}

/* Value for White of q (White to move), inside or outside the pair. */
static inline int value_any(const BuildCtx *c, const Pair *p, const Board *q)
{
    Board m;
    egdb_mirror(q, &m);
    int id = egdb_slice_id(egdb_slice_of(&m));
    int k = pair_member(p, id);
    if (k >= 0) return p->st[k][egdb_index(&p->g[k], &m)];
    int v = egdb_code_value(c->codes[id][egdb_index(&c->geom[id], &m)]);
    return v == EGDB_WIN ? ST_WIN : v == EGDB_LOSS ? ST_LOSS : ST_DRAW;
}

/* Pass 2: distances to conversion. */
static int pass_distances(BuildCtx *c, Pair *p, char *err)
{
    const double before = SHARE_MOVES + SHARE_VALUES;
    MoveList ml;
    uint64_t decided = 0, levelled = 0;
    for (int k = 0; k < p->n; k++) {
        const EgdbGeom *g = &p->g[k];
        EgdbScan sc;
        egdb_scan_start(&sc, g, 0, g->size);
        Board b;
        bool real;
        for (uint64_t i = 0; egdb_scan_next(&sc, &b, &real); i++) {
            if (i % REPORT_EVERY == 0)
                report(c, p, "distances", 0, before + SHARE_DSCAN * scan_share(p, k, i));
            p->dtc[k][i] = DTC_UNSET;
            uint8_t st = p->st[k][i];
            if (st != ST_WIN && st != ST_LOSS) continue;
            decided++;
            int n = mg_moves(&b, &ml);
            int level = -1;
            if (st == ST_WIN) {
                for (int j = 0; j < n; j++) {
                    const Move *m = &ml.moves[j];
                    if (!is_conversion(&b, m)) continue;
                    Board q = b;
                    mg_make_move(&q, m);
                    if (value_any(c, p, &q) == ST_LOSS) {
                        level = 1;
                        break;
                    }
                }
            } else {
                int kings = 0, conv = 0;
                for (int j = 0; j < n; j++) {
                    if (is_conversion(&b, &ml.moves[j])) conv = 1;
                    else kings++;
                }
                p->cnt[k][i] = (uint8_t)kings;
                p->aux[k][i] = (uint8_t)conv;
                if (kings == 0) level = n ? 1 : 0;
            }
            if (level >= 0) {
                p->dtc[k][i] = (uint8_t)level;
                if (vec_push(&p->level[level], (uint32_t)i | (uint32_t)k << 31)) return -1;
            }
        }
    }
    PredBatch pb;
    for (int t = 0; t < MAX_LEVELS; t++) {
        U32Vec *lv = &p->level[t];
        for (size_t qi = 0; qi < lv->n;) {
            if (qi % (REPORT_EVERY / 4) < PRED_BATCH)
                report(c, p, "distances", t,
                       before + SHARE_DSCAN + SHARE_LEVELS * (double)(levelled + qi) / (double)(decided + 1));
            size_t qend = qi + PRED_BATCH < lv->n ? qi + PRED_BATCH : lv->n;
            pred_batch(p, lv->v + qi, (int)(qend - qi), true, &pb);
            qi = qend;
            for (int q = 0; q < pb.n; q++) {
                bool lost = pb.lost[q];
                for (int j = pb.from[q]; j < pb.from[q + 1]; j++) {
                    int kk = (int)(pb.pred[j] >> 31);
                    uint32_t i = pb.pred[j] & 0x7FFFFFFFu;
                    if (p->dtc[kk][i] != DTC_UNSET) continue;
                    int level;
                    if (lost) {
                        if (p->st[kk][i] != ST_WIN) continue;
                        level = t + 1;
                    } else {
                        if (p->st[kk][i] != ST_LOSS || p->cnt[kk][i] == 0) continue;
                        if (p->aux[kk][i] < t + 1) p->aux[kk][i] = (uint8_t)(t + 1);
                        if (--p->cnt[kk][i]) continue;
                        level = p->aux[kk][i];
                    }
                    if (level >= MAX_LEVELS - 1) {
                        snprintf(err, KM_ERR_MAX, "distance to conversion above %d plies", MAX_LEVELS - 2);
                        return -2;
                    }
                    p->dtc[kk][i] = (uint8_t)level;
                    if (vec_push(&p->level[level], pb.pred[j])) return -1;
                }
            }
        }
        levelled += lv->n;
        free(lv->v);
        *lv = (U32Vec){0};
    }
    /* The codes, in place of the states. */
    for (int k = 0; k < p->n; k++)
        for (uint64_t i = 0; i < p->g[k].size; i++) {
            uint8_t st = p->st[k][i], d = p->dtc[k][i], code;
            if (st == ST_WIN || st == ST_LOSS) {
                int lim = st == ST_WIN ? EGDB_MAX_WIN_DTC : EGDB_MAX_LOSS_DTC;
                if (d == DTC_UNSET || d > lim) {
                    char name[16];
                    egdb_slice_name(p->g[k].s, name, sizeof name);
                    snprintf(err, KM_ERR_MAX, "%s: %s at index %llu", name,
                             d == DTC_UNSET ? "a decided position without a distance (a bug)"
                                            : "a distance to conversion too long for the format",
                             (unsigned long long)i);
                    return -2;
                }
                code = st == ST_WIN ? egdb_code_win(d) : egdb_code_loss(d);
            } else code = st == ST_DRAW ? EGDB_CODE_DRAW : EGDB_CODE_NONE;
            p->st[k][i] = code;
        }
    return 0;
}

/* ---- the driver ---- */

static int build_pair(BuildCtx *c, Pair *p, char *err)
{
    if (pair_alloc(p)) return km_fail(err, "out of memory building the slices");
    int rc = pass_values(c, p);
    if (rc == 0) rc = pass_distances(c, p, err);
    if (rc == -1) km_fail(err, "out of memory building the slices");
    if (rc) return -1;
    report(c, p, "writing", 0, 1 - SHARE_WRITE);
    for (int k = 0; k < p->n; k++) {
        EgdbSliceInfo info;
        const EgdbSlice *s = &p->g[k].s;
        bool partial = s->bm + s->bk + s->wm + s->wk > c->full_dtc_pieces;
        if (egdb_write_slice(c->dir, &p->g[k], p->st[k], partial, &info, err)) return -1;
    }
    return 0;
}

/* One step's pairs (every capture and crowning out of them leads to a
 * slice built before), a job each on the runner's local threads. */
typedef struct Group {
    BuildCtx *c;
    Pair *pairs;
} Group;

/* The runner's job i: build pair i, keep its codes, free its work arrays. */
static int build_job(void *ctx, int thread, int i, const atomic_bool *stop, char *err)
{
    (void)thread, (void)stop; /* a pair is not interrupted: its file is whole or absent */
    Group *gr = ctx;
    BuildCtx *c = gr->c;
    Pair *p = &gr->pairs[i];
    int rc = build_pair(c, p, err);
    pthread_mutex_lock(&c->lock);
    p->done = 0;
    if (rc == 0) {
        for (int k = 0; k < p->n; k++) c->positions_done += p->g[k].size;
        c->slices_done += p->n;
    }
    pthread_mutex_unlock(&c->lock);
    if (rc == 0)
        for (int k = 0; k < p->n; k++) {
            c->codes[p->id[k]] = p->st[k];
            p->st[k] = NULL;
        }
    pair_free(p);
    return rc;
}

static void progress_now(BuildCtx *c)
{
    if (!c->progress) return;
    pthread_mutex_lock(&c->lock);
    EgdbProgress pr = c->cur;
    pr.done = c->slices_done;
    pr.total = c->slices_total;
    pr.elapsed = now_s() - c->start;
    /* the time left in proportion to the positions left, counting the
     * share done of the pairs being built */
    double done = (double)c->positions_done;
    for (int i = 0; i < c->nactive; i++)
        done += c->active[i].done *
                (double)(c->active[i].g[0].size + (c->active[i].n == 2 ? c->active[i].g[1].size : 0));
    double building = c->build_start > 0 ? now_s() - c->build_start : 0;
    pr.eta = done > 0 && building > 1 ? building * ((double)c->positions_total - done) / done : -1;
    pthread_mutex_unlock(&c->lock);
    c->progress(&pr, c->user);
}

/* The runner's tick: the progress line, every quarter of a second. */
static void build_tick(void *user) { progress_now(user); }

/* The codes a file leaves out (egdb_file.c): positions where Black can
 * capture, from the slices below; White without a piece. */
static void fill_unstored(BuildCtx *c, int id)
{
    const EgdbGeom *g = &c->geom[id];
    uint8_t *codes = c->codes[id];
    MoveList ml;
    EgdbScan sc;
    egdb_scan_start(&sc, g, 0, g->size);
    Board b;
    bool real;
    for (uint64_t i = 0; egdb_scan_next(&sc, &b, &real); i++) {
        if (!real || !b.pieces[KM_WHITE]) {
            codes[i] = EGDB_CODE_NONE;
            continue;
        }
        if (!mg_can_capture(&b, KM_BLACK)) continue;
        int n = mg_captures(&b, &ml), v = ST_LOSS;
        for (int j = 0; j < n && v != ST_WIN; j++) {
            Board q = b;
            mg_make_move(&q, &ml.moves[j]);
            int cv = value_outside(c, &q);
            if (cv == ST_LOSS) v = ST_WIN;
            else if (cv == ST_DRAW) v = ST_DRAW;
        }
        codes[i] = v == ST_WIN ? egdb_code_win(1) : v == ST_LOSS ? egdb_code_loss(1) : EGDB_CODE_DRAW;
    }
}

static bool file_exists(const BuildCtx *c, EgdbSlice s)
{
    char name[16], path[4096];
    egdb_slice_name(s, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", c->dir, name);
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* Load the file of a slice already built (resuming), verified. */
static bool load_existing(BuildCtx *c, EgdbSlice s)
{
    char name[16], path[4096];
    egdb_slice_name(s, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", c->dir, name);
    if (!file_exists(c, s)) return false;
    int id = egdb_slice_id(s);
    uint8_t *codes;
    EgdbSliceInfo info;
    char err[KM_ERR_MAX];
    if (egdb_read_slice(path, &c->geom[id], &codes, &info, err)) return false;
    c->codes[id] = codes;
    fill_unstored(c, id);
    return true;
}

int egdb_build(const char *dir, int pieces, int threads, EgdbProgressFn progress, void *user, char *err)
{
    return egdb_build_partial(dir, pieces, EGDB_FULL_DTC_PIECES, threads, progress, user, err);
}

int egdb_build_partial(const char *dir, int pieces, int full_dtc_pieces, int threads, EgdbProgressFn progress,
                       void *user, char *err)
{
    if (pieces < 1 || pieces > EGDB_MAX_PIECES)
        return km_fail(err, "pieces must be 1 to %d, not %d", EGDB_MAX_PIECES, pieces);
    if (threads < 1) threads = 1;
    if (textio_make_dirs(dir, err)) return -1;
    egdb_tables_init();
    BuildCtx *c = calloc(1, sizeof *c);
    if (!c) return km_fail(err, "out of memory");
    c->dir = dir;
    c->full_dtc_pieces = full_dtc_pieces;
    c->progress = progress;
    c->user = user;
    pthread_mutex_init(&c->lock, NULL);
    c->start = now_s();
    /* the positions to build: those of the pairs whose files are not both
     * there (a file there that cannot be read adds its pair later) */
    bool *counted = calloc(EGDB_NSLICE_IDS, sizeof *counted);
    if (!counted) {
        pthread_mutex_destroy(&c->lock);
        free(c);
        return km_fail(err, "out of memory");
    }
    for (int n = 1; n <= pieces; n++)
        for (int i = 0; i < egdb_slice_count(n); i++) {
            EgdbSlice s = egdb_slice_at(n, i), m = egdb_slice_mirror(s);
            int id = egdb_slice_id(s);
            egdb_geom(s, &c->geom[id]);
            c->slices_total++;
            if (!(file_exists(c, s) && file_exists(c, m))) {
                counted[id] = true;
                c->positions_total += c->geom[id].size;
            }
        }
    int rc = 0;
    for (int n = 1; n <= pieces && rc == 0; n++) {
        int ns = egdb_slice_count(n);
        for (int men = 0; men <= n && rc == 0; men++) {
            Pair *pairs = calloc((size_t)ns, sizeof *pairs);
            if (!pairs) {
                rc = km_fail(err, "out of memory");
                break;
            }
            int np = 0;
            for (int i = 0; i < ns; i++) {
                EgdbSlice s = egdb_slice_at(n, i), m = egdb_slice_mirror(s);
                if (s.bm + s.wm != men) continue;
                int id = egdb_slice_id(s), mid = egdb_slice_id(m);
                if (mid < id) continue; /* the pair is listed under its first member */
                int nk = id == mid ? 1 : 2;
                /* resume: both files there and sound */
                bool have = load_existing(c, s) && (nk == 1 || load_existing(c, m));
                if (have) {
                    pthread_mutex_lock(&c->lock);
                    c->slices_done += nk;
                    c->cur.slice = s;
                    c->cur.phase = "loaded";
                    pthread_mutex_unlock(&c->lock);
                    progress_now(c);
                    continue;
                }
                free(c->codes[id]);
                c->codes[id] = NULL;
                Pair *p = &pairs[np++];
                p->n = nk;
                p->id[0] = id;
                p->id[1] = mid;
                p->g[0] = c->geom[id];
                p->g[1] = c->geom[mid];
                for (int k = 0; k < nk; k++)
                    if (!counted[p->id[k]]) c->positions_total += p->g[k].size;
            }
            if (np) {
                Group gr = {.c = c, .pairs = pairs};
                pthread_mutex_lock(&c->lock);
                c->active = pairs;
                c->nactive = np;
                if (c->build_start == 0) c->build_start = now_s();
                pthread_mutex_unlock(&c->lock);
                WorkersJobs jobs = {.n = np, .ctx = &gr, .play = build_job, .tick = build_tick, .user = c};
                rc = workers_run_jobs(NULL, &jobs, threads < np ? threads : np, NULL, err);
                progress_now(c);
                pthread_mutex_lock(&c->lock);
                c->active = NULL;
                c->nactive = 0;
                pthread_mutex_unlock(&c->lock);
            }
            free(pairs);
        }
    }
    for (int i = 0; i < EGDB_NSLICE_IDS; i++) free(c->codes[i]);
    free(counted);
    pthread_mutex_destroy(&c->lock);
    free(c);
    return rc;
}
