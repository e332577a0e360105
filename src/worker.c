/* worker.c - `kingme worker`: files kept, vectors made of them, games
 * played, the other job kinds' lines handed to their handlers (worker.h). */
#include "kingme/worker.h"
#include "kingme/book.h"
#include "kingme/egdb.h"
#include "kingme/match.h"
#include "kingme/textio.h"
#include "kingme/worker_proto.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORKER_MAX_VECTORS 65536
#define WORKER_MAX_FILES 65536
#define WORKER_MAX_BYTES ((size_t)1 << 30) /* every file kept, in all */
#define WORKER_MAX_KINDS 8

typedef struct Stored {
    uint64_t hash;
    char *bytes; /* NUL-terminated */
    size_t len;
    Book *book; /* made of it when a job named it as a book */
} Stored;

typedef struct Vec {
    char ref[WPROTO_REF_MAX];
    Weights w;
} Vec;

typedef struct Kind {
    char word[16];
    WorkerKindFn fn;
    void *data;
    void (*free_data)(void *);
} Kind;

struct WorkerState {
    Egdb *db; /* limited to the pieces of the run's jobs (worker_egdb) */
    const Book *book;
    uint64_t book_hash;
    Stored *files;
    int nfiles, capfiles;
    size_t bytes;
    /* the file being received */
    uint64_t in_hash;
    char *in;
    size_t in_len, in_size, in_cap; /* grown as its data lines come, not at its file line */
    Vec **vecs;                     /* each apart: the pointers given out stay valid */
    int nvecs, capvecs;
    Kind kinds[WORKER_MAX_KINDS];
    int nkinds;
    /* the players of games between vectors, kept from game to game as a
     * local thread keeps them, while the table size and its sharing stay */
    MatchPlayers *players;
    size_t players_hash;
    bool players_share;
};

WorkerState *worker_state_new(Egdb *db, const Book *book)
{
    WorkerState *ws = calloc(1, sizeof *ws);
    if (!ws) return NULL;
    ws->db = db;
    ws->book = book;
    if (book) {
        size_t len;
        const uint8_t *p = book_bytes(book, &len);
        ws->book_hash = wproto_hash(p, len);
    }
    return ws;
}

void worker_state_free(WorkerState *ws)
{
    if (!ws) return;
    for (int k = 0; k < ws->nkinds; k++)
        if (ws->kinds[k].free_data) ws->kinds[k].free_data(ws->kinds[k].data);
    referee_players_free(ws->players);
    for (int i = 0; i < ws->nfiles; i++) {
        free(ws->files[i].bytes);
        book_close(ws->files[i].book);
    }
    free(ws->files);
    free(ws->in);
    for (int i = 0; i < ws->nvecs; i++) free(ws->vecs[i]);
    free(ws->vecs);
    free(ws);
}

char *worker_hello(const WorkerState *ws) { return wproto_hello(ws->db, ws->book); }

int worker_register(WorkerState *ws, const char *word, WorkerKindFn fn, void *data, void (*free_data)(void *))
{
    if (ws->nkinds == WORKER_MAX_KINDS || strlen(word) >= sizeof ws->kinds[0].word) {
        if (free_data) free_data(data);
        return -1;
    }
    Kind *k = &ws->kinds[ws->nkinds++];
    snprintf(k->word, sizeof k->word, "%s", word);
    k->fn = fn;
    k->data = data;
    k->free_data = free_data;
    return 0;
}

char *worker_answer(const char *fmt, ...)
{
    char buf[512], shown[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    textio_escape(buf, shown, sizeof shown); /* what the line held, control bytes escaped: one line */
    return strdup(shown);
}

static Stored *find_file(WorkerState *ws, uint64_t hash)
{
    for (int i = 0; i < ws->nfiles; i++)
        if (ws->files[i].hash == hash) return &ws->files[i];
    return NULL;
}

/* ---- files ---- */

static char *file_error(WorkerState *ws, const char *fmt, const char *what)
{
    char *r = worker_answer(fmt, (unsigned long long)ws->in_hash, what);
    free(ws->in);
    ws->in = NULL;
    ws->in_size = ws->in_len = 0;
    return r;
}

static char *handle_file(WorkerState *ws, char **tok, int nt)
{
    if (ws->in) return file_error(ws, "error - file %016llx: %s", "a new file before its last bytes");
    long long size;
    if (nt != 3 || !wproto_parse_hex64(tok[1], &ws->in_hash) || !textio_parse_ll(tok[2], 0, 1LL << 30, &size))
        return worker_answer("error - a file line is 'file HASH SIZE'");
    if (size == 0) return worker_answer("error - file %016llx: empty", (unsigned long long)ws->in_hash);
    if (ws->bytes + (size_t)size > WORKER_MAX_BYTES || ws->nfiles == WORKER_MAX_FILES)
        return worker_answer("error - file %016llx: more than %zu bytes of files",
                             (unsigned long long)ws->in_hash, WORKER_MAX_BYTES);
    free(ws->in);
    ws->in_cap = (size_t)size < 65536 ? (size_t)size : 65536;
    ws->in = malloc(ws->in_cap + 1);
    if (!ws->in) return worker_answer("error - out of memory");
    ws->in_size = (size_t)size;
    ws->in_len = 0;
    return NULL;
}

static char *handle_data(WorkerState *ws, char **tok, int nt)
{
    if (!ws->in) return worker_answer("error - a data line outside a file");
    size_t n = nt == 2 ? strlen(tok[1]) : 1;
    if (nt != 2 || n % 2 || n / 2 > ws->in_size - ws->in_len)
        return file_error(ws, "error - file %016llx: %s", "a data line beyond its size, or not hex digits");
    if (ws->in_len + n / 2 > ws->in_cap) {
        size_t cap = ws->in_cap * 2 > ws->in_len + n / 2 ? ws->in_cap * 2 : ws->in_len + n / 2;
        if (cap > ws->in_size) cap = ws->in_size;
        char *grown = realloc(ws->in, cap + 1);
        if (!grown) return file_error(ws, "error - file %016llx: %s", "out of memory");
        ws->in = grown;
        ws->in_cap = cap;
    }
    for (size_t i = 0; i < n; i += 2) {
        int v = 0;
        for (int k = 0; k < 2; k++) {
            char c = tok[1][i + (size_t)k];
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (d < 0)
                return file_error(ws, "error - file %016llx: %s", "a data line of other than hex digits");
            v = v << 4 | d;
        }
        ws->in[ws->in_len++] = (char)v;
    }
    if (ws->in_len < ws->in_size) return NULL;
    if (wproto_hash(ws->in, ws->in_len) != ws->in_hash)
        return file_error(ws, "error - file %016llx: %s", "its bytes do not match its hash");
    ws->in[ws->in_len] = '\0';
    if (find_file(ws, ws->in_hash)) { /* sent twice: the same bytes */
        free(ws->in);
        ws->in = NULL;
        ws->in_len = ws->in_size = 0;
        return NULL;
    }
    if (ws->nfiles == ws->capfiles) {
        int cap = ws->capfiles ? 2 * ws->capfiles : 16;
        Stored *s = realloc(ws->files, (size_t)cap * sizeof *s);
        if (!s) return file_error(ws, "error - file %016llx: %s", "out of memory");
        ws->files = s;
        ws->capfiles = cap;
    }
    ws->files[ws->nfiles++] = (Stored){ws->in_hash, ws->in, ws->in_len, NULL};
    ws->bytes += ws->in_len;
    ws->in = NULL;
    ws->in_len = ws->in_size = 0;
    return NULL;
}

/* ---- what the jobs name ---- */

static const char *file_text(WorkerState *ws, uint64_t hash, char *err)
{
    Stored *s = find_file(ws, hash);
    if (!s) return km_fail_null(err, "unknown file %016llx", (unsigned long long)hash);
    if (strlen(s->bytes) != s->len)
        return km_fail_null(err, "file %016llx is not text", (unsigned long long)hash);
    return s->bytes;
}

struct WorkerKept {
    Searcher s;
    bool made;
    const Weights *w;
    int hash;
};

WorkerKept *worker_kept_new(void) { return calloc(1, sizeof(WorkerKept)); }

void worker_kept_free(void *kept)
{
    WorkerKept *k = kept;
    if (k && k->made) search_free(&k->s);
    free(k);
}

Searcher *worker_kept_searcher(WorkerKept *k, const Weights *w, int hash_mb, char *err)
{
    if (!k->made || k->w != w || k->hash != hash_mb) {
        if (k->made) search_free(&k->s);
        k->made = false;
        if (search_init(&k->s, w, (size_t)hash_mb, 1, err)) return NULL;
        k->made = true;
        k->w = w;
        k->hash = hash_mb;
    }
    return &k->s;
}

const Weights *worker_vector(WorkerState *ws, const char *ref, char *err)
{
    for (int i = ws->nvecs - 1; i >= 0; i--)
        if (strcmp(ws->vecs[i]->ref, ref) == 0) return &ws->vecs[i]->w;
    uint64_t named, layer = 0;
    char head[17];
    snprintf(head, sizeof head, "%.16s", ref);
    if (!wproto_parse_hex64(head, &named) ||
        (ref[16] && (ref[16] != '+' || !wproto_parse_hex64(ref + 17, &layer))))
        return km_fail_null(err, "the vector '%.40s' is not ID or ID+LAYER", ref);
    if (ws->nvecs == WORKER_MAX_VECTORS) return km_fail_null(err, "more than %d vectors", WORKER_MAX_VECTORS);
    char where[40], e2[KM_ERR_MAX];
    Vec v;
    memset(&v, 0, sizeof v);
    snprintf(v.ref, sizeof v.ref, "%s", ref);
    const char *text = file_text(ws, named, err);
    if (!text) return NULL;
    snprintf(where, sizeof where, "file %016llx", (unsigned long long)named);
    if (weights_parse(&v.w, text, where, NULL, e2)) return km_fail_null(err, "%s", e2);
    if (v.w.pat) return km_fail_null(err, "%s holds a pattern layer: its vector is ID+LAYER", where);
    if (layer) {
        Weights l;
        memset(&l, 0, sizeof l);
        if (!(text = file_text(ws, layer, err))) return NULL;
        snprintf(where, sizeof where, "file %016llx", (unsigned long long)layer);
        if (weights_parse(&l, text, where, NULL, e2)) return km_fail_null(err, "%s", e2);
        v.w.pat = l.pat;
    }
    if (ws->nvecs == ws->capvecs) {
        int cap = ws->capvecs ? 2 * ws->capvecs : 16;
        Vec **nv = realloc(ws->vecs, (size_t)cap * sizeof *nv);
        if (!nv) return km_fail_null(err, "out of memory");
        ws->vecs = nv;
        ws->capvecs = cap;
    }
    Vec *keep = malloc(sizeof *keep);
    if (!keep) return km_fail_null(err, "out of memory");
    *keep = v;
    ws->vecs[ws->nvecs++] = keep;
    return &keep->w;
}

const Book *worker_book(WorkerState *ws, uint64_t hash, char *err)
{
    if (ws->book && hash == ws->book_hash) return ws->book;
    Stored *s = find_file(ws, hash);
    if (!s) return km_fail_null(err, "unknown book %016llx", (unsigned long long)hash);
    if (!s->book) {
        char where[40];
        snprintf(where, sizeof where, "book %016llx", (unsigned long long)hash);
        s->book = book_from_bytes(s->bytes, s->len, where, err);
    }
    return s->book;
}

const Egdb *worker_egdb(const WorkerState *ws, const char *digest, char *err)
{
    err[0] = '\0';
    int p;
    uint64_t d;
    if (wproto_parse_egdb_digest(digest, &p, &d)) return km_fail_null(err, "bad egdb '%.30s'", digest);
    if (p == 0) return NULL;
    int have = ws->db ? egdb_pieces(ws->db) : 0;
    if (have < p)
        return km_fail_null(
            err, "this worker's endgame database has %d pieces, the run needs %d: give it the slices", have,
            p);
    if (egdb_digest_pieces(ws->db, p) != d)
        return km_fail_null(
            err, "this worker's slices of up to %d pieces are not the run's: give it the same slices", p);
    /* the run's pieces only, so that it probes as the coordinator does (a
     * limit is never raised: a worker serves the runs of one coordinator) */
    egdb_limit_pieces(ws->db, p);
    return ws->db;
}

/* ---- games ---- */

static char *handle_job(WorkerState *ws, char **tok, int nt)
{
    char err[KM_ERR_MAX];
    WprotoJob *j = malloc(sizeof *j);
    if (!j) return worker_answer("error %s out of memory", nt > 1 ? tok[1] : "-");
    char *r = NULL, *cmd[2] = {NULL, NULL}, *name[2] = {NULL, NULL};
    if (wproto_parse_job(tok, nt, j, err)) {
        r = worker_answer("error %s %s", nt > 1 ? tok[1] : "-", err);
        goto out;
    }
    MatchSide sides[2];
    for (int c = 0; c < 2; c++) {
        sides[c] = (MatchSide){c ? "White" : "Black", NULL, NULL};
        if (wproto_engine_ref(j->player[c], &cmd[c], &name[c]) == 0) {
            sides[c].command = cmd[c];
            sides[c].name = name[c];
        } else if (!(sides[c].weights = worker_vector(ws, j->player[c], err))) {
            r = worker_answer("error %d %s", j->n, err);
            goto out;
        }
    }
    j->set.sides = sides;
    j->set.nsides = 2;
    j->set.side_params = j->par; /* by colour: the game's spec below puts side c on colour c */
    if (j->book && !(j->set.book = worker_book(ws, j->book, err))) {
        r = worker_answer("error %d %s", j->n, err);
        goto out;
    }
    j->set.egdb = worker_egdb(ws, j->egdb, err);
    if (err[0]) {
        r = worker_answer("error %d %s", j->n, err);
        goto out;
    }
    MatchGameSpec spec = {NULL, NULL, &j->opening, j->seed, {0, 1}};
    MatchOutcome o;
    int rc;
    if (cmd[0] || cmd[1]) { /* engines: started for this game, stopped after it */
        rc = referee_play_game(&j->set, &spec, &o, NULL, err);
    } else {
        if (ws->players && (ws->players_hash != j->set.hash_mb || ws->players_share != j->set.share_table)) {
            referee_players_free(ws->players);
            ws->players = NULL;
        }
        if (!ws->players && (ws->players = referee_players_new(&j->set, err))) {
            ws->players_hash = j->set.hash_mb;
            ws->players_share = j->set.share_table;
        }
        rc = ws->players ? referee_players_play(ws->players, &j->set, &spec, &o, NULL, err) : -1;
        if (!ws->players) memset(&o, 0, sizeof o);
    }
    if (rc) {
        game_free(&o.game);
        r = worker_answer("error %d %s", j->n, err);
        goto out;
    }
    r = wproto_result_line(j->n, &o, j->keep);
    game_free(&o.game);
    if (!r) r = worker_answer("error %d out of memory", j->n);
out:
    for (int c = 0; c < 2; c++) {
        free(cmd[c]);
        free(name[c]);
    }
    free(j);
    return r;
}

char *worker_handle_line(WorkerState *ws, const char *line)
{
    size_t len = strlen(line);
    if (len > WPROTO_LINE_MAX) return worker_answer("error - the line is too long");
    char *copy = strdup(line);
    char **tok = malloc((WPROTO_LINE_MAX / 2 + 2) * sizeof *tok);
    if (!copy || !tok) {
        free(copy);
        free(tok);
        return worker_answer("error - out of memory");
    }
    int nt = textio_split(copy, tok, WPROTO_LINE_MAX / 2);
    char *r = NULL;
    if (nt == 0) r = NULL;
    else if (strcmp(tok[0], "data") == 0) r = handle_data(ws, tok, nt);
    else if (ws->in) r = file_error(ws, "error - file %016llx: %s", "another line before its last bytes");
    else if (strcmp(tok[0], "file") == 0) r = handle_file(ws, tok, nt);
    else if (strcmp(tok[0], "job") == 0) r = handle_job(ws, tok, nt);
    else {
        int k = 0;
        while (k < ws->nkinds && strcmp(tok[0], ws->kinds[k].word) != 0) k++;
        if (k < ws->nkinds) r = ws->kinds[k].fn(ws, ws->kinds[k].data, tok, nt);
        else r = worker_answer("error - unknown line '%.20s'", tok[0]);
    }
    free(copy);
    free(tok);
    return r;
}
