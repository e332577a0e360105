/* label.c - self-play positions scored again (label.h).
 *
 * A label file, little-endian:
 *   0  "KMLB"     4  format version (u32, 1)     8  the settings' key (u64)
 *   16 the chunk's positions' checksum (u64, selfplay_records_checksum)
 *   24 nodes (u64)   32 positions (u32)   36 min pieces, max pieces, the
 *   database's pieces (3 x u32)   48 exact labels, searched labels (2 x u32)
 *   56 FNV-1a 64 of every other byte of the file
 *   64 a label per position (i16, label.h). */
#include "kingme/label.h"
#include "kingme/bits.h"
#include "kingme/egdb.h"
#include "kingme/movegen.h"
#include "kingme/search.h"
#include "kingme/textio.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAGIC "KMLB"
#define HEADER_BYTES 64
#define FORMAT_VERSION 1

void label_config_default(LabelConfig *c)
{
    memset(c, 0, sizeof *c);
    c->nodes = 100000;
    c->min_pieces = 5;
    c->max_pieces = 10;
    c->hash_mb = 16;
}

uint64_t label_config_key(const LabelConfig *c)
{
    uint64_t h = km_mix64(0x6c6162656c73ull ^ c->nodes);
    h = km_mix64(h ^ 0x100000000ull ^ (uint64_t)(uint32_t)c->min_pieces);
    h = km_mix64(h ^ 0x200000000ull ^ (uint64_t)(uint32_t)c->max_pieces);
    h = km_mix64(h ^ 0x300000000ull ^ (uint64_t)(uint32_t)c->hash_mb);
    h = km_mix64(h ^ 0x400000000ull ^ (uint64_t)(c->egdb ? egdb_pieces(c->egdb) : 0));
    return km_mix64(h ^ eval_weights_key(&c->weights));
}

/* ---- one game ---------------------------------------------------------------- */

static int16_t label_of(Searcher *s, const LabelConfig *c, const Board *b, const SearchLimits *l, int *exact,
                        int *searched)
{
    int pieces = bits_popcount32(board_occupied(b));
    if (pieces <= c->min_pieces || pieces > c->max_pieces || mg_can_capture(b, b->stm)) return LABEL_NONE;
    if (c->egdb && pieces <= egdb_pieces(c->egdb)) {
        int v = egdb_probe(c->egdb, b, NULL);
        if (v != EGDB_UNKNOWN) {
            if (exact) ++*exact;
            return v == EGDB_WIN ? LABEL_EXACT_WIN : v == EGDB_LOSS ? LABEL_EXACT_LOSS : LABEL_EXACT_DRAW;
        }
    }
    SearchResult r;
    if (search_run(s, b, NULL, 0, 0, l, &r, NULL, NULL)) return INT16_MAX - 1; /* out of memory */
    if (!r.has_move || r.score <= -SCORE_DB_MIN || r.score >= SCORE_DB_MIN) {
        if (exact) ++*exact;
        return !r.has_move || r.score < 0 ? LABEL_EXACT_LOSS : LABEL_EXACT_WIN;
    }
    if (searched) ++*searched;
    return (int16_t)(r.score > 32000 ? 32000 : r.score < -32000 ? -32000 : r.score);
}

int label_game(Searcher *s, const LabelConfig *c, const SelfplayData *d, size_t first, size_t end,
               int16_t *out, int *exact, int *searched)
{
    search_clear(s);
    search_seed(s, km_mix64(0x6c6162656cull ^ selfplay_records_checksum(d, first) ^ (uint64_t)(end - first)));
    search_set_egdb(s, c->egdb);
    SearchLimits l;
    search_limits_default(&l);
    l.nodes = c->nodes;
    /* from the game's end: the table carries what the later positions found */
    for (size_t k = end; k-- > first;) {
        int16_t v = label_of(s, c, &d->pos[k].b, &l, exact, searched);
        if (v == INT16_MAX - 1) return -1;
        out[k - first] = v;
    }
    return 0;
}

/* ---- the files ---------------------------------------------------------------- */

static uint64_t file_checksum(const uint8_t *buf, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        if (i < 56 || i >= 64) h = (h ^ buf[i]) * 0x100000001b3ull;
    return h;
}

/* DIR/lb-NNNNNN.kmlb beside DIR/sp-NNNNNN.kmsp */
static void label_path(const char *chunk_path, char *out, size_t len)
{
    snprintf(out, len, "%s", chunk_path);
    char *slash = strrchr(out, '/');
    char *name = slash ? slash + 1 : out;
    size_t nl = strlen(name);
    if (nl >= 9 && strncmp(name, "sp-", 3) == 0) {
        memcpy(name, "lb-", 3);
        memcpy(name + nl - 5, ".kmlb", 5);
    }
}

typedef struct LabelFile {
    uint64_t key, sum, nodes;
    uint32_t n, minp, maxp, dbp, exact, searched;
    int16_t *labels;
} LabelFile;

static bool exact_label(int16_t v)
{
    return v == LABEL_EXACT_WIN || v == LABEL_EXACT_DRAW || v == LABEL_EXACT_LOSS;
}

/* The labels of a file's bytes, each checked, and the header's counts of
 * each kind against them. 0, or -1 with err. */
static int take_labels(const char *path, const uint8_t *buf, LabelFile *f, char *err)
{
    uint32_t ex = 0, se = 0;
    for (uint32_t i = 0; i < f->n; i++) {
        int16_t v = (int16_t)(uint16_t)(buf[64 + 2 * i] | buf[65 + 2 * i] << 8);
        if (v != LABEL_NONE && !exact_label(v) && (v < -32000 || v > 32000))
            return km_fail(err, "%s: label %u is %d, not a score within 32000 (a corrupt file)", path, i + 1,
                           v);
        ex += exact_label(v);
        se += v != LABEL_NONE && !exact_label(v);
        f->labels[i] = v;
    }
    if (ex != f->exact || se != f->searched)
        return km_fail(err, "%s: %u exact and %u searched labels, the header says %u and %u (a corrupt file)",
                       path, ex, se, f->exact, f->searched);
    return 0;
}

/* Read a label file whole; 0, or -1 with err (f->labels NULL). */
static int read_labels(const char *path, LabelFile *f, char *err)
{
    static const KmReadOpts opts = {.max_bytes = (size_t)1 << 30, .too_large = "too large for a label file"};
    size_t n;
    uint8_t *buf = (uint8_t *)textio_read_text(path, &opts, &n, err);
    if (!buf) return -1;
    int rc = -1;
    if (n < HEADER_BYTES || memcmp(buf, MAGIC, 4) != 0) km_fail(err, "%s: not a kingme label file", path);
    else if (km_get32(buf + 4) != FORMAT_VERSION)
        km_fail(err, "%s: label format version %u (this kingme reads %d; label the games again)", path,
                km_get32(buf + 4), FORMAT_VERSION);
    else if (n != HEADER_BYTES + 2 * (size_t)km_get32(buf + 32))
        km_fail(err, "%s: truncated or padded (%zu bytes, %u labels)", path, n, km_get32(buf + 32));
    else if (km_get64(buf + 56) != file_checksum(buf, n))
        km_fail(err, "%s: checksum mismatch (the file is corrupt)", path);
    else if (!(f->labels = malloc(2 * (size_t)km_get32(buf + 32) + 2)))
        km_fail(err, "%s: out of memory", path);
    else {
        f->key = km_get64(buf + 8);
        f->sum = km_get64(buf + 16);
        f->nodes = km_get64(buf + 24);
        f->n = km_get32(buf + 32);
        f->minp = km_get32(buf + 36);
        f->maxp = km_get32(buf + 40);
        f->dbp = km_get32(buf + 44);
        f->exact = km_get32(buf + 48);
        f->searched = km_get32(buf + 52);
        rc = take_labels(path, buf, f, err);
        if (rc) {
            free(f->labels);
            f->labels = NULL;
        }
    }
    free(buf);
    return rc;
}

static int write_labels(const char *path, const LabelConfig *c, uint64_t sum, const int16_t *labels, size_t n,
                        uint32_t exact, uint32_t searched, char *err)
{
    size_t len = HEADER_BYTES + 2 * n;
    uint8_t *buf = calloc(1, len);
    if (!buf) return km_fail(err, "%s: out of memory", path);
    memcpy(buf, MAGIC, 4);
    km_put32(buf + 4, FORMAT_VERSION);
    km_put64(buf + 8, label_config_key(c));
    km_put64(buf + 16, sum);
    km_put64(buf + 24, c->nodes);
    km_put32(buf + 32, (uint32_t)n);
    km_put32(buf + 36, (uint32_t)c->min_pieces);
    km_put32(buf + 40, (uint32_t)c->max_pieces);
    km_put32(buf + 44, (uint32_t)(c->egdb ? egdb_pieces(c->egdb) : 0));
    km_put32(buf + 48, exact);
    km_put32(buf + 52, searched);
    for (size_t i = 0; i < n; i++) {
        buf[64 + 2 * i] = (uint8_t)((uint16_t)labels[i] & 0xFF);
        buf[65 + 2 * i] = (uint8_t)((uint16_t)labels[i] >> 8);
    }
    km_put64(buf + 56, file_checksum(buf, len));
    int rc = textio_write_atomic(path, (const char *)buf, len, err);
    free(buf);
    return rc;
}

/* ---- a folder ------------------------------------------------------------------ */

/* The games of a chunk: start[g] .. start[g + 1] - 1 (a game starts where
 * the ply count does not grow). */
static size_t *game_starts(const SelfplayData *d, size_t *ngames)
{
    size_t *st = malloc((d->n + 1) * sizeof *st), g = 0;
    if (!st) return NULL;
    for (size_t i = 0; i < d->n; i++)
        if (i == 0 || d->pos[i].ply <= d->pos[i - 1].ply) st[g++] = i;
    st[g] = d->n;
    *ngames = g;
    return st;
}

typedef struct Job {
    const LabelConfig *c;
    const SelfplayData *d;
    const size_t *start;
    size_t ngames;
    int16_t *labels;
    atomic_size_t next;
    atomic_int exact, searched;
    atomic_bool failed;
    const atomic_bool *stop;
    Searcher *s;
} Job;

typedef struct Thread {
    Job *job;
    int id;
} Thread;

static void *label_thread(void *arg)
{
    Thread *t = arg;
    Job *j = t->job;
    for (;;) {
        if (atomic_load(&j->failed) || (j->stop && atomic_load(j->stop))) break;
        size_t g = atomic_fetch_add(&j->next, 1);
        if (g >= j->ngames) break;
        int ex = 0, se = 0;
        if (label_game(&j->s[t->id], j->c, j->d, j->start[g], j->start[g + 1], j->labels + j->start[g], &ex,
                       &se)) {
            atomic_store(&j->failed, true);
            break;
        }
        atomic_fetch_add(&j->exact, ex);
        atomic_fetch_add(&j->searched, se);
    }
    return NULL;
}

/* Label one chunk's positions with the searchers s[0 .. threads - 1]. 1
 * when stopped, 0, or -1 with err. */
static int label_chunk(const LabelConfig *c, const SelfplayData *d, Searcher *s, int threads, int16_t *labels,
                       uint32_t *exact, uint32_t *searched, const atomic_bool *stop, char *err)
{
    size_t ngames;
    size_t *start = game_starts(d, &ngames);
    if (!start) return km_fail(err, "out of memory");
    Job j = {.c = c, .d = d, .start = start, .ngames = ngames, .labels = labels, .stop = stop, .s = s};
    atomic_init(&j.next, 0);
    atomic_init(&j.exact, 0);
    atomic_init(&j.searched, 0);
    atomic_init(&j.failed, false);
    pthread_t tid[64];
    Thread th[64];
    int started = 0;
    for (int t = 1; t < threads; t++) {
        th[t] = (Thread){&j, t};
        if (pthread_create(&tid[t], NULL, label_thread, &th[t]) != 0) break;
        started = t;
    }
    th[0] = (Thread){&j, 0};
    label_thread(&th[0]);
    for (int t = 1; t <= started; t++) pthread_join(tid[t], NULL);
    free(start);
    if (atomic_load(&j.failed)) return km_fail(err, "out of memory");
    if (stop && atomic_load(stop)) return 1;
    *exact = (uint32_t)atomic_load(&j.exact);
    *searched = (uint32_t)atomic_load(&j.searched);
    return 0;
}

int label_run(const LabelConfig *c, const char *dir, int threads, LabelProgressFn progress, void *user,
              const atomic_bool *stop, LabelTotals *totals, char *err)
{
    if (threads < 1) threads = 1;
    if (threads > 64) threads = 64;
    if (totals) memset(totals, 0, sizeof *totals);
    char **paths;
    long *numbers;
    size_t n;
    if (selfplay_chunk_files(dir, &paths, &numbers, &n, err)) return -1;
    Searcher *s = calloc((size_t)threads, sizeof *s);
    int made = 0, rc = 0;
    if (!s) rc = km_fail(err, "out of memory");
    for (; rc == 0 && made < threads; made++)
        if (search_init(&s[made], &c->weights, (size_t)c->hash_mb, 1, err)) rc = -1;
    if (rc) made--;
    uint64_t key = label_config_key(c), positions = 0;
    double t0 = km_now();
    int done = 0, found = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        SelfplayData d = {0};
        if (selfplay_read_chunk(paths[i], 0, numbers[i], &d, err)) {
            rc = -1;
            break;
        }
        uint64_t sum = selfplay_records_checksum(&d, 0);
        char lp[4096];
        label_path(paths[i], lp, sizeof lp);
        LabelFile f = {0};
        char e2[KM_ERR_MAX];
        uint32_t exact = 0, searched = 0;
        if (read_labels(lp, &f, e2) == 0 && f.key == key && f.sum == sum && f.n == d.n) {
            found++; /* labelled before, with these settings */
            exact = f.exact, searched = f.searched;
        } else {
            int16_t *labels = malloc((d.n ? d.n : 1) * sizeof *labels);
            int r = labels ? label_chunk(c, &d, s, threads, labels, &exact, &searched, stop, err)
                           : km_fail(err, "out of memory");
            if (r == 0) r = write_labels(lp, c, sum, labels, d.n, exact, searched, err);
            free(labels);
            if (r) {
                rc = r < 0 ? -1 : 0;
                selfplay_data_free(&d);
                free(f.labels);
                break;
            }
            done++;
            positions += exact + searched;
        }
        free(f.labels);
        if (totals) totals->positions += d.n, totals->exact += exact, totals->searched += searched;
        selfplay_data_free(&d);
        if (progress) {
            LabelProgress p = {found + done, (int)n, positions, km_now() - t0, -1};
            if (done) p.eta = p.elapsed / done * (double)(n - (size_t)(found + done));
            progress(&p, user);
        }
    }
    for (int t = 0; t < made; t++) search_free(&s[t]);
    free(s);
    selfplay_chunk_files_free(paths, numbers, n);
    return rc;
}

int label_apply_dir(const char *dir, SelfplayData *d, size_t first, LabelInfo *info, char *err)
{
    char **paths;
    long *numbers;
    size_t n;
    if (selfplay_chunk_files(dir, &paths, &numbers, &n, err)) return -1;
    LabelInfo in = {0};
    int16_t *all = malloc((d->n - first + 1) * sizeof *all);
    size_t at = 0;
    int rc = all ? 0 : km_fail(err, "out of memory");
    uint64_t key = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        SelfplayData c = {0};
        LabelFile f = {0};
        char lp[4096];
        label_path(paths[i], lp, sizeof lp);
        if (selfplay_read_chunk(paths[i], 0, numbers[i], &c, err)) rc = -1;
        else if (access(lp, F_OK) != 0)
            rc = km_fail(err, "%s: no labels for %s (kingme label %s)", lp, paths[i], dir);
        else if (read_labels(lp, &f, err)) rc = -1;
        else if (f.sum != selfplay_records_checksum(&c, 0) || f.n != c.n)
            rc = km_fail(err, "%s: the labels of other games than %s's (label them again)", lp, paths[i]);
        else if (i > 0 && f.key != key)
            rc = km_fail(err, "%s: labelled with other settings than the folder's first chunk", lp);
        else if (at + c.n > d->n - first) rc = km_fail(err, "%s: more positions than were read", paths[i]);
        else {
            key = f.key;
            in.nodes = f.nodes, in.min_pieces = (int)f.minp, in.max_pieces = (int)f.maxp,
            in.egdb_pieces = (int)f.dbp;
            in.exact += f.exact, in.searched += f.searched;
            memcpy(all + at, f.labels, c.n * sizeof *all);
            at += c.n;
        }
        free(f.labels);
        selfplay_data_free(&c);
    }
    if (rc == 0 && at != d->n - first) rc = km_fail(err, "%s: fewer positions than were read", dir);
    if (rc == 0) {
        for (size_t k = 0; k < at; k++) {
            SelfplayPos *p = &d->pos[first + k];
            int16_t v = all[k];
            if (v == LABEL_NONE) continue;
            if (exact_label(v)) {
                p->result = v == LABEL_EXACT_WIN ? 2 : v == LABEL_EXACT_DRAW ? 1 : 0;
                p->score = SELFPLAY_NO_SCORE;
            } else {
                p->score = v;
            }
        }
        if (info) *info = in;
    }
    free(all);
    selfplay_chunk_files_free(paths, numbers, n);
    return rc;
}

int label_read_file(const char *path, LabelInfo *info, int16_t **labels, size_t *n, char *err)
{
    LabelFile f = {0};
    if (read_labels(path, &f, err)) return -1;
    *info = (LabelInfo){.nodes = f.nodes,
                        .min_pieces = (int)f.minp,
                        .max_pieces = (int)f.maxp,
                        .egdb_pieces = (int)f.dbp,
                        .exact = f.exact,
                        .searched = f.searched};
    *labels = f.labels;
    *n = f.n;
    return 0;
}
