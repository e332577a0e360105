/* worker_proto.c - the worker protocol's lines (worker_proto.h). */
#include "kingme/worker_proto.h"
#include "kingme/book.h"
#include "kingme/egdb.h"
#include "kingme/nn.h"
#include "kingme/notation.h"
#include "kingme/textio.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t wproto_hash(const void *bytes, size_t len)
{
    const uint8_t *p = bytes;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

uint64_t wproto_weights_id(const Weights *w)
{
    uint64_t h = 0x776F726B65727331ull;
    for (int i = 0; i < EVAL_NTERMS; i++) h = km_mix64(h ^ (uint16_t)w->w[i] ^ ((uint64_t)i << 16));
    if (w->phased) {
        h = km_mix64(h ^ 0x7068617365ull);
        for (int i = 0; i < EVAL_NTERMS; i++)
            h = km_mix64(h ^ (uint16_t)w->end[i] ^ ((uint64_t)(EVAL_NTERMS + i) << 16));
    }
    if (w->net) h = km_mix64(h ^ 0x6E6574ull ^ (uint64_t)nn_crc(w->net) << 24 ^ (uint64_t)w->net->hidden);
    return h;
}

uint64_t wproto_moves_checksum(const Game *g)
{
    uint64_t h = 0x6D6F766573ull;
    for (int i = 0; i < g->nply; i++) {
        const Move *m = &g->moves[i];
        h = km_mix64(h ^ ((uint64_t)m->from | (uint64_t)m->to << 8 | (uint64_t)m->captured << 16));
    }
    return h;
}

static unsigned switch_flags(const SearchSwitches *w)
{
    return (unsigned)w->tt | (unsigned)w->quiescence << 1 | (unsigned)w->extensions << 2 |
           (unsigned)w->ordering << 3 | (unsigned)w->lmr << 4 | (unsigned)w->probcut << 5 |
           (unsigned)w->etc << 6 | (unsigned)w->futility << 7 | (unsigned)w->singular << 8;
}

static void set_switch_flags(SearchSwitches *w, unsigned f)
{
    w->tt = f & 1;
    w->quiescence = (f >> 1) & 1;
    w->extensions = (f >> 2) & 1;
    w->ordering = (f >> 3) & 1;
    w->lmr = (f >> 4) & 1;
    w->probcut = (f >> 5) & 1;
    w->etc = (f >> 6) & 1;
    w->futility = (f >> 7) & 1;
    w->singular = (f >> 8) & 1;
}

const Weights *wproto_spec_weights(const MatchSettings *set, const MatchGameSpec *spec, int colour)
{
    if (set->sides) return set->sides[spec->side[colour]].weights;
    return colour == KM_BLACK ? spec->black : spec->white;
}

bool wproto_parse_hex64(const char *t, uint64_t *out)
{
    if (strlen(t) != 16) return false;
    uint64_t v = 0;
    for (int i = 0; i < 16; i++) {
        char c = t[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0) return false;
        v = v << 4 | (uint64_t)d;
    }
    *out = v;
    return true;
}

static bool parse_u64(const char *t, uint64_t *out)
{
    if (!t || !*t || strlen(t) > 20) return false;
    uint64_t v = 0;
    for (const char *p = t; *p; p++) {
        if (*p < '0' || *p > '9') return false;
        uint64_t d = (uint64_t)(*p - '0');
        if (v > (UINT64_MAX - d) / 10) return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

static bool parse_real(const char *t, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(t, &end);
    if (errno || end == t || *end || !(x >= lo && x <= hi)) return false;
    *out = x;
    return true;
}

static void hex_bytes(KmBuf *b, const void *p, size_t n)
{
    static const char digit[] = "0123456789abcdef";
    char chunk[512];
    const uint8_t *q = p;
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        chunk[at++] = digit[q[i] >> 4];
        chunk[at++] = digit[q[i] & 15];
        if (at == sizeof chunk) {
            textio_buf_add(b, chunk, at);
            at = 0;
        }
    }
    textio_buf_add(b, chunk, at);
}

/* hex digits into bytes (malloc'd, NUL-terminated); NULL when not hex */
static char *unhex(const char *t, size_t *len)
{
    size_t n = strlen(t);
    if (n % 2) return NULL;
    char *out = malloc(n / 2 + 1);
    if (!out) return NULL;
    for (size_t i = 0; i < n / 2; i++) {
        int v = 0;
        for (int k = 0; k < 2; k++) {
            char c = t[2 * i + (size_t)k];
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (d < 0) {
                free(out);
                return NULL;
            }
            v = v << 4 | d;
        }
        out[i] = (char)v;
    }
    out[n / 2] = '\0';
    if (len) *len = n / 2;
    return out;
}

/* ---- the hello ---- */

void wproto_egdb_digest(const Egdb *db, char out[WPROTO_DIGEST_MAX])
{
    if (!db) snprintf(out, WPROTO_DIGEST_MAX, "none");
    else
        snprintf(out, WPROTO_DIGEST_MAX, "%d-%016llx", egdb_pieces(db),
                 (unsigned long long)egdb_digest_pieces(db, egdb_pieces(db)));
}

int wproto_parse_egdb_digest(const char *t, int *pieces, uint64_t *digest)
{
    *pieces = 0;
    *digest = 0;
    if (strcmp(t, "none") == 0) return 0;
    if (strlen(t) != 18 || t[0] < '1' || t[0] > '0' + WPROTO_EGDB_PIECES_MAX || t[1] != '-' ||
        !wproto_parse_hex64(t + 2, digest))
        return -1;
    *pieces = t[0] - '0';
    return 0;
}

int wproto_egdb_serves(const WprotoHello *h, const char *want, char *why)
{
    int p;
    uint64_t d;
    if (!want || wproto_parse_egdb_digest(want, &p, &d)) return 0; /* none */
    if (p == 0) return 0;
    if (h->egdb_pieces < p) {
        if (!h->egdb_pieces)
            return km_fail(
                why,
                "has no endgame database, this run uses %d pieces: give it the slices (kingme worker "
                "--egdb DIR), or play without them (--no-egdb)",
                p);
        return km_fail(
            why,
            "has the endgame database up to %d pieces, this run needs %d: give it the slices (kingme "
            "worker --egdb DIR), or use %d (--egdb-pieces %d)",
            h->egdb_pieces, p, h->egdb_pieces, h->egdb_pieces);
    }
    if (h->egdb_digest[p] != d)
        return km_fail(
            why,
            "has other slices of up to %d pieces than this run: give it the same ones (kingme worker "
            "--egdb DIR)",
            p);
    return 0;
}

char *wproto_hello(const Egdb *db, const Book *book)
{
    char bh[24] = "none";
    if (book) {
        size_t len;
        const uint8_t *p = book_bytes(book, &len);
        snprintf(bh, sizeof bh, "%016llx", (unsigned long long)wproto_hash(p, len));
    }
    KmBuf b = {0};
    textio_buf_printf(&b, "worker kingme %s protocol %d egdb ", KINGME_VERSION, WPROTO_VERSION);
    int np = db ? egdb_pieces(db) : 0;
    if (np > WPROTO_EGDB_PIECES_MAX) np = WPROTO_EGDB_PIECES_MAX;
    if (np) textio_buf_printf(&b, "%d:", np);
    else textio_buf_printf(&b, "none");
    for (int n = 1; n <= np; n++)
        textio_buf_printf(&b, "%s%016llx", n > 1 ? "," : "", (unsigned long long)egdb_digest_pieces(db, n));
    textio_buf_printf(&b, " book %s", bh);
    return textio_buf_done(&b);
}

/* A hello's database: "none" or "P:D1,...,DP". */
static bool parse_hello_egdb(const char *t, WprotoHello *h)
{
    h->egdb_pieces = 0;
    memset(h->egdb_digest, 0, sizeof h->egdb_digest);
    if (strcmp(t, "none") == 0) return true;
    if (t[0] < '1' || t[0] > '0' + WPROTO_EGDB_PIECES_MAX || t[1] != ':') return false;
    int np = t[0] - '0';
    const char *q = t + 2;
    for (int n = 1; n <= np; n++) {
        char hex[17];
        if (strlen(q) < 16) return false;
        memcpy(hex, q, 16);
        hex[16] = '\0';
        if (!wproto_parse_hex64(hex, &h->egdb_digest[n])) return false;
        q += 16;
        if (*q != (n < np ? ',' : '\0')) return false;
        if (n < np) q++;
    }
    h->egdb_pieces = np;
    return true;
}

static bool digest_ok(const char *t)
{
    if (strcmp(t, "none") == 0) return true;
    uint64_t h;
    return strlen(t) >= 18 && strlen(t) < WPROTO_DIGEST_MAX && t[0] >= '1' && t[0] <= '9' && t[1] == '-' &&
           wproto_parse_hex64(t + 2, &h);
}

int wproto_parse_hello(const char *line, WprotoHello *h, char *err)
{
    char copy[256];
    char *tok[16];
    if (strncmp(line, "worker kingme ", 14) != 0) return km_fail(err, "did not say hello: '%.60s'", line);
    snprintf(copy, sizeof copy, "%s", line);
    int nt = textio_split(copy, tok, 15);
    if (nt > 15) nt = 15; /* more words: tok holds the first 15, and a hello has 9 */
    long long v;
    if (nt < 5 || strcmp(tok[3], "protocol") != 0 || !textio_parse_ll(tok[4], 0, 1000000, &v))
        return km_fail(err, "did not say hello: '%.60s'", line);
    h->version = (int)v;
    /* an older kingme lists its versions: "protocol 1 2 3 4 5" */
    if (v != WPROTO_VERSION || (nt > 5 && strcmp(tok[5], "egdb") != 0)) {
        int last = (int)v;
        for (int i = 5; i < nt && textio_parse_ll(tok[i], 0, 1000000, &v); i++) last = (int)v;
        h->version = last;
        return km_fail(err, "speaks protocol %d, not %d: give it the coordinator's kingme (%s)", last,
                       WPROTO_VERSION, KINGME_VERSION);
    }
    if (nt != 9 || strcmp(tok[5], "egdb") != 0 || strcmp(tok[7], "book") != 0 || !parse_hello_egdb(tok[6], h))
        return km_fail(err, "did not say hello: '%.60s'", line);
    h->book = 0;
    if (strcmp(tok[8], "none") != 0 && !wproto_parse_hex64(tok[8], &h->book))
        return km_fail(err, "did not say hello: '%.60s'", line);
    return 0;
}

/* ---- files ---- */

typedef struct VecEntry {
    uint64_t id;
    const void *pat, *net; /* the shared layer and network (the named file carries the network) */
    char ref[WPROTO_REF_MAX];
    uint64_t named, layer; /* layer 0: none */
} VecEntry;

struct WprotoFiles {
    WprotoFile *f;
    bool *owned;
    int n, cap;
    VecEntry *v;
    int nv, capv;
};

WprotoFiles *wproto_files_new(void) { return calloc(1, sizeof(WprotoFiles)); }

void wproto_files_free(WprotoFiles *F)
{
    if (!F) return;
    for (int i = 0; i < F->n; i++)
        if (F->owned[i]) free((void *)F->f[i].bytes);
    free(F->f);
    free(F->owned);
    free(F->v);
    free(F);
}

const WprotoFile *wproto_files_get(const WprotoFiles *F, uint64_t hash)
{
    for (int i = 0; F && i < F->n; i++)
        if (F->f[i].hash == hash) return &F->f[i];
    return NULL;
}

/* Add bytes (taken over when owned); the hash, or 0 when out of memory. */
static uint64_t files_add(WprotoFiles *F, const uint8_t *bytes, size_t len, bool owned)
{
    uint64_t h = wproto_hash(bytes, len);
    if (wproto_files_get(F, h)) {
        if (owned) free((void *)bytes);
        return h;
    }
    if (F->n == F->cap) {
        int cap = F->cap ? 2 * F->cap : 16;
        WprotoFile *f = realloc(F->f, (size_t)cap * sizeof *f);
        if (f) F->f = f;
        bool *o = f ? realloc(F->owned, (size_t)cap * sizeof *o) : NULL;
        if (!o) {
            if (owned) free((void *)bytes);
            return 0;
        }
        F->owned = o;
        F->cap = cap;
    }
    F->f[F->n] = (WprotoFile){h, bytes, len};
    F->owned[F->n++] = owned;
    return h;
}

int wproto_files_vector(WprotoFiles *F, const Weights *w, char ref[WPROTO_REF_MAX], uint64_t *need,
                        int *nneed)
{
    uint64_t id = wproto_weights_id(w);
    VecEntry *e = NULL;
    for (int i = F->nv - 1; i >= 0 && !e; i--)
        if (F->v[i].id == id && F->v[i].pat == (const void *)w->pat && F->v[i].net == (const void *)w->net)
            e = &F->v[i];
    if (!e) {
        if (F->nv == F->capv) {
            int cap = F->capv ? 2 * F->capv : 16;
            VecEntry *v = realloc(F->v, (size_t)cap * sizeof *v);
            if (!v) return -1;
            F->v = v;
            F->capv = cap;
        }
        VecEntry ne = {id, w->pat, w->net, "", 0, 0};
        Weights named = *w;
        named.pat = NULL;
        char *text = weights_format(&named, NULL);
        if (!text || !(ne.named = files_add(F, (const uint8_t *)text, strlen(text), true))) return -1;
        if (w->pat) {
            /* the layer in a file of its own: the vectors of a population share it */
            Weights z;
            memset(&z, 0, sizeof z);
            z.pat = w->pat;
            text = weights_format(&z, NULL);
            if (!text || !(ne.layer = files_add(F, (const uint8_t *)text, strlen(text), true))) return -1;
            snprintf(ne.ref, sizeof ne.ref, "%016llx+%016llx", (unsigned long long)ne.named,
                     (unsigned long long)ne.layer);
        } else {
            snprintf(ne.ref, sizeof ne.ref, "%016llx", (unsigned long long)ne.named);
        }
        F->v[F->nv++] = ne;
        e = &F->v[F->nv - 1];
    }
    memcpy(ref, e->ref, WPROTO_REF_MAX);
    for (int k = 0; k < 2; k++) {
        uint64_t h = k ? e->layer : e->named;
        bool have = h == 0;
        for (int j = 0; j < *nneed && !have; j++) have = need[j] == h;
        if (!have) need[(*nneed)++] = h;
    }
    return 0;
}

uint64_t wproto_files_book(WprotoFiles *F, const Book *bk)
{
    size_t len;
    const uint8_t *p = book_bytes(bk, &len);
    return files_add(F, p, len, false);
}

char *wproto_file_lines(const WprotoFile *f, size_t *len)
{
    KmBuf b = {0};
    textio_buf_printf(&b, "file %016llx %zu\n", (unsigned long long)f->hash, f->len);
    for (size_t at = 0; at < f->len; at += WPROTO_CHUNK) {
        size_t n = f->len - at < WPROTO_CHUNK ? f->len - at : WPROTO_CHUNK;
        textio_buf_str(&b, "data ");
        hex_bytes(&b, f->bytes + at, n);
        textio_buf_add(&b, "\n", 1);
    }
    *len = b.len;
    return textio_buf_done(&b);
}

/* ---- games ---- */

static void engine_ref(KmBuf *b, const MatchSide *side)
{
    textio_buf_str(b, " engine:");
    hex_bytes(b, side->command, strlen(side->command));
    textio_buf_str(b, ":");
    const char *name = side->name ? side->name : "engine";
    hex_bytes(b, name, strlen(name));
}

char *wproto_job_line(WprotoFiles *F, int n, const MatchSettings *set, const MatchGameSpec *spec, bool keep,
                      uint64_t *need, int *nneed)
{
    KmBuf b = {0};
    const SearchLimits *l = &set->limits;
    char fen[128], dg[WPROTO_DIGEST_MAX];
    Board start;
    if (spec->opening) start = spec->opening->start;
    else board_init(&start);
    board_to_fen(&start, fen, sizeof fen);
    textio_buf_printf(&b, "job %d", n);
    for (int c = 0; c < 2; c++) {
        const Weights *w = wproto_spec_weights(set, spec, c);
        if (!w) {
            engine_ref(&b, &set->sides[spec->side[c]]);
            continue;
        }
        char ref[WPROTO_REF_MAX];
        if (wproto_files_vector(F, w, ref, need, nneed)) {
            free(textio_buf_done(&b));
            return NULL;
        }
        textio_buf_printf(&b, " %s", ref);
    }
    uint64_t book = 0;
    if (set->book && set->sides) {
        book = wproto_files_book(F, set->book);
        if (!book) {
            free(textio_buf_done(&b));
            return NULL;
        }
        need[(*nneed)++] = book;
    }
    wproto_egdb_digest(set->egdb, dg);
    textio_buf_printf(
        &b,
        " depth %d time %.17g nodes %llu cap %d hash %zu share %d tiebreak %s flags %u seed %llu"
        " tc %.17g inc %.17g timeout %.17g grace %.17g ehash %d book %016llx variety %.17g egdb %s"
        " keep %d",
        l->depth, l->seconds, (unsigned long long)l->nodes, set->ply_cap, set->hash_mb,
        set->share_table ? 1 : 0, set->tiebreak == TIEBREAK_FIRST ? "first" : "random",
        switch_flags(&set->use), (unsigned long long)spec->seed, set->tc_base, set->tc_inc, set->timeout,
        set->grace, set->engine_hash ? 1 : 0, (unsigned long long)book, set->book_variety, dg, keep ? 1 : 0);
    /* each colour's search parameters that differ from the defaults, or - */
    for (int c = 0; c < 2; c++) {
        const SearchParams *par = set->side_params ? &set->side_params[spec->side[c]] : NULL;
        textio_buf_printf(&b, " %s ", c ? "pwhite" : "pblack");
        int listed = 0;
        for (int i = 0; par && i < SEARCH_NPARAMS; i++) {
            char v[40], d[40];
            search_params_text(par, i, v, sizeof v);
            search_params_text(&search_params_defaults, i, d, sizeof d);
            if (strcmp(v, d) != 0)
                textio_buf_printf(&b, "%s%s=%s", listed++ ? "," : "", search_params_info[i].name, v);
        }
        if (!listed) textio_buf_str(&b, "-");
    }
    textio_buf_printf(&b, " fen %s", fen);

    if (spec->opening && spec->opening->nply) {
        textio_buf_str(&b, " moves");
        for (int i = 0; i < spec->opening->nply; i++) {
            char t[MOVE_TEXT_MAX];
            notation_move_to_text(&spec->opening->moves[i], t);
            textio_buf_printf(&b, " %s", t);
        }
    }
    return textio_buf_done(&b);
}

static bool ref_ok(const char *t)
{
    uint64_t h;
    char *c, *n;
    if (strncmp(t, "engine:", 7) == 0) {
        if (wproto_engine_ref(t, &c, &n)) return false;
        free(c);
        free(n);
        return true;
    }
    size_t len = strlen(t);
    if (len == 16) return wproto_parse_hex64(t, &h);
    char a[17];
    if (len != 33 || t[16] != '+') return false;
    memcpy(a, t, 16);
    a[16] = '\0';
    return wproto_parse_hex64(a, &h) && wproto_parse_hex64(t + 17, &h);
}

int wproto_engine_ref(const char *ref, char **command, char **name)
{
    *command = *name = NULL;
    if (strncmp(ref, "engine:", 7) != 0) return -1;
    const char *colon = strchr(ref + 7, ':');
    if (!colon || colon == ref + 7) return -1;
    char part[WPROTO_LINE_MAX / 4];
    size_t n = (size_t)(colon - (ref + 7));
    if (n >= sizeof part) return -1;
    memcpy(part, ref + 7, n);
    part[n] = '\0';
    size_t len;
    *command = unhex(part, &len);
    *name = unhex(colon + 1, NULL);
    if (!*command || !*name || len != strlen(*command) || !**command) {
        free(*command);
        free(*name);
        *command = *name = NULL;
        return -1;
    }
    return 0;
}

/* A colour's search parameters: "-" (the defaults) or NAME=VALUE,... */
static bool parse_params(const char *t, SearchParams *p, char *err)
{
    if (strcmp(t, "-") == 0) return true;
    char buf[WPROTO_LINE_MAX / 4];
    if (strlen(t) >= sizeof buf) {
        km_fail(err, "the search parameters are too long");
        return false;
    }
    snprintf(buf, sizeof buf, "%s", t);
    for (char *s = buf, *next; s; s = next) {
        next = strchr(s, ',');
        if (next) *next++ = '\0';
        char e2[KM_ERR_MAX];
        if (search_params_assign(p, s, e2)) {
            km_fail(err, "search parameter '%.40s': %s", s, e2);
            return false;
        }
    }
    return true;
}

int wproto_parse_job(char **tok, int nt, WprotoJob *j, char *err)
{
    static const char *const keys[] = {"depth", "time",    "nodes", "cap",  "hash",    "share", "tiebreak",
                                       "flags", "seed",    "tc",    "inc",  "timeout", "grace", "ehash",
                                       "book",  "variety", "egdb",  "keep", "pblack",  "pwhite"};
    enum { NKEYS = sizeof keys / sizeof keys[0] };
    long long v = 0;
    uint64_t u = 0;
    if (nt < 4) return km_fail(err, "a job needs N BLACK WHITE and its settings");
    if (!textio_parse_ll(tok[1], 0, 1 << 30, &v)) return km_fail(err, "bad job number '%.20s'", tok[1]);
    j->n = (int)v;
    for (int c = 0; c < 2; c++) {
        if (strlen(tok[2 + c]) >= sizeof j->player[c] || !ref_ok(tok[2 + c]))
            return km_fail(err, "the %s player '%.40s' is not a vector (ID or ID+LAYER) nor engine:HEX:HEX",
                           c ? "white" : "black", tok[2 + c]);
        snprintf(j->player[c], sizeof j->player[c], "%s", tok[2 + c]);
    }
    referee_settings_default(&j->set);
    search_params_default(&j->par[0]);
    search_params_default(&j->par[1]);
    bool seen[NKEYS] = {false};
    int i = 4;
    for (; i + 1 < nt && strcmp(tok[i], "fen") != 0; i += 2) {
        int k = 0;
        while (k < NKEYS && strcmp(tok[i], keys[k]) != 0) k++;
        if (k == NKEYS) return km_fail(err, "unknown key '%.20s' in the job", tok[i]);
        if (seen[k]) return km_fail(err, "'%s' twice in the job", keys[k]);
        seen[k] = true;
        const char *t = tok[i + 1];
        bool ok = true;
        switch (k) {
        case 0:
            ok = textio_parse_ll(t, 0, SEARCH_MAX_PLY - 2, &v), j->set.limits.depth = (int)v;
            break;
        case 1:
            ok = parse_real(t, 0, 1e6, &j->set.limits.seconds);
            break;
        case 2:
            ok = parse_u64(t, &u), j->set.limits.nodes = u;
            break;
        case 3:
            ok = textio_parse_ll(t, 0, MATCH_PLY_NONE, &v), j->set.ply_cap = (int)v;
            break;
        case 4:
            ok = textio_parse_ll(t, 0, 65536, &v), j->set.hash_mb = (size_t)v;
            break;
        case 5:
        case 13:
        case 17:
            ok = strcmp(t, "0") == 0 || strcmp(t, "1") == 0;
            if (k == 5) j->set.share_table = t[0] == '1';
            else if (k == 13) j->set.engine_hash = t[0] == '1';
            else j->keep = t[0] == '1';
            break;
        case 6:
            if (strcmp(t, "first") == 0) j->set.tiebreak = TIEBREAK_FIRST;
            else if (strcmp(t, "random") == 0) j->set.tiebreak = TIEBREAK_RANDOM;
            else ok = false;
            break;
        case 7:
            ok = textio_parse_ll(t, 0, 511, &v), set_switch_flags(&j->set.use, (unsigned)v);
            break;
        case 8:
            ok = parse_u64(t, &j->seed);
            break;
        case 9:
            ok = parse_real(t, 0, 1e7, &j->set.tc_base);
            break;
        case 10:
            ok = parse_real(t, 0, 1e6, &j->set.tc_inc);
            break;
        case 11:
            ok = parse_real(t, 0, 1e7, &j->set.timeout);
            break;
        case 12:
            ok = parse_real(t, 0, 1e6, &j->set.grace);
            break;
        case 14:
            ok = wproto_parse_hex64(t, &j->book);
            break;
        case 15:
            ok = parse_real(t, 0, 1e6, &j->set.book_variety);
            break;
        case 16:
            ok = digest_ok(t);
            if (ok) snprintf(j->egdb, sizeof j->egdb, "%s", t);
            break;
        case 18:
        case 19:
            if (!parse_params(t, &j->par[k - 18], err)) return -1;
            break;
        }
        if (!ok) return km_fail(err, "bad %s '%.20s'", keys[k], t);
    }
    for (int k = 0; k < NKEYS; k++)
        if (!seen[k]) return km_fail(err, "expected '%s' in the job", keys[k]);
    if (i + 1 >= nt || strcmp(tok[i], "fen") != 0) return km_fail(err, "the job has no fen");
    char e2[KM_ERR_MAX];
    memset(&j->opening, 0, sizeof j->opening);
    if (board_from_fen(&j->opening.start, tok[i + 1], e2)) return km_fail(err, "bad fen: %s", e2);
    if (!j->set.limits.depth && j->set.limits.seconds <= 0 && !j->set.limits.nodes && j->set.tc_base <= 0)
        return km_fail(err, "the job has no limit (depth, time, nodes or a clock)");
    snprintf(j->opening.name, sizeof j->opening.name, "job %d", j->n);
    i += 2;
    if (i < nt) {
        if (strcmp(tok[i], "moves") != 0) return km_fail(err, "expected 'moves', not '%.20s'", tok[i]);
        Board b = j->opening.start;
        for (i++; i < nt; i++) {
            if (j->opening.nply == OPENING_MAX_PLY)
                return km_fail(err, "more than %d opening moves", OPENING_MAX_PLY);
            Move m;
            if (notation_parse_move(&b, tok[i], &m, e2))
                return km_fail(err, "opening move '%.20s': %s", tok[i], e2);
            j->opening.moves[j->opening.nply++] = m;
            mg_make_move(&b, &m);
        }
    }
    return 0;
}

char *wproto_result_line(int n, const MatchOutcome *o, bool keep)
{
    const Game *g = &o->game;
    KmBuf b = {0};
    textio_buf_printf(&b, "result %d %s %d %d %016llx forfeit %d %d clock", n, game_result_text(g->result),
                      (int)g->reason, g->nply, (unsigned long long)wproto_moves_checksum(g), (int)o->forfeit,
                      o->forfeit_side);
    for (int c = 0; c < 2; c++) textio_buf_printf(&b, " %.17g", o->min_left[c]);
    for (int c = 0; c < 2; c++) textio_buf_printf(&b, " %d", o->min_left_ply[c]);
    for (int c = 0; c < 2; c++) textio_buf_printf(&b, " %d", o->timed_moves[c]);
    for (int c = 0; c < 2; c++) textio_buf_printf(&b, " %.17g", o->time_used[c]);
    for (int c = 0; c < 2; c++) textio_buf_printf(&b, " %.17g", o->end_left[c]);
    textio_buf_str(&b, " term ");
    if (o->termination[0]) hex_bytes(&b, o->termination, strlen(o->termination));
    else textio_buf_str(&b, "-");
    if (keep) {
        textio_buf_str(&b, " moves");
        for (int i = 0; i < g->nply; i++) {
            char t[MOVE_TEXT_MAX];
            notation_move_to_text(&g->moves[i], t);
            textio_buf_printf(&b, " %s", t);
        }
    }
    return textio_buf_done(&b);
}

int wproto_parse_result(char **tok, int nt, const Opening *op, MatchOutcome *o, char *err)
{
    long long reason, nply, f, side, v;
    uint64_t sum;
    memset(o, 0, sizeof *o);
    enum { HEAD = 21 }; /* result N RES REASON PLIES SUM forfeit F S clock (10) term T */
    if (nt < HEAD + 1 || !textio_parse_ll(tok[3], 0, 100, &reason) ||
        !textio_parse_ll(tok[4], 0, 100000, &nply) || !wproto_parse_hex64(tok[5], &sum) ||
        strcmp(tok[6], "forfeit") != 0 || !textio_parse_ll(tok[7], 0, FORFEIT_COUNT - 1, &f) ||
        !textio_parse_ll(tok[8], 0, 1, &side) || strcmp(tok[9], "clock") != 0 || strcmp(tok[20], "term") != 0)
        return km_fail(err, "not a 'result N RESULT REASON PLIES CHECKSUM forfeit ...' line");
    GameResult res = strcmp(tok[2], "1-0") == 0       ? GAME_BLACK_WINS
                     : strcmp(tok[2], "0-1") == 0     ? GAME_WHITE_WINS
                     : strcmp(tok[2], "1/2-1/2") == 0 ? GAME_DRAW
                                                      : GAME_ONGOING;
    if (res == GAME_ONGOING) return km_fail(err, "a result for a game it was not playing");
    for (int c = 0; c < 2; c++) {
        double x;
        if (!parse_real(tok[10 + c], -1e9, INFINITY, &o->min_left[c]) ||
            !textio_parse_ll(tok[12 + c], 0, 100000, &v) || (o->min_left_ply[c] = (int)v, false) ||
            !textio_parse_ll(tok[14 + c], 0, 100000, &v) || (o->timed_moves[c] = (int)v, false) ||
            !parse_real(tok[16 + c], 0, 1e9, &o->time_used[c]) || !parse_real(tok[18 + c], -1e9, 1e9, &x))
            return km_fail(err, "a result whose clock figures are not numbers");
        o->end_left[c] = x;
    }
    if (strcmp(tok[21], "-") != 0) {
        size_t len;
        char *t = unhex(tok[21], &len);
        if (!t || len >= sizeof o->termination || strlen(t) != len) {
            free(t);
            return km_fail(err, "a result whose termination is not hex text");
        }
        memcpy(o->termination, t, len + 1);
        free(t);
    }
    if (nt != HEAD + 2 + nply || strcmp(tok[HEAD + 1], "moves") != 0)
        return km_fail(err, "a result without its %lld moves", nply);
    Game g;
    if (game_init(&g, op ? &op->start : NULL)) return km_fail(err, "out of memory");
    char e2[KM_ERR_MAX];
    for (int i = 0; i < nply; i++) {
        Move m;
        if (notation_parse_move(&g.cur, tok[HEAD + 2 + i], &m, e2) || game_play(&g, &m)) {
            game_free(&g);
            return km_fail(err, "an illegal move: %.100s", e2);
        }
    }
    if (wproto_moves_checksum(&g) != sum) {
        game_free(&g);
        return km_fail(err, "a checksum that does not match its moves");
    }
    g.result = res;
    g.reason = (GameReason)reason;
    o->result = res;
    o->reason = (GameReason)reason;
    o->nply = (int)nply;
    o->forfeit = (MatchForfeit)f;
    o->forfeit_side = (int)side;
    if (!o->termination[0]) snprintf(o->termination, sizeof o->termination, "%s", game_reason_text(g.reason));
    o->game = g;
    return 0;
}

/* ---- book positions ---- */

char *wproto_score_line(const WprotoScore *j)
{
    char fen[128];
    board_to_fen(&j->b, fen, sizeof fen);
    KmBuf b = {0};
    textio_buf_printf(&b, "score %d %s depth %d hash %d fen %s", j->n, j->vector, j->depth, j->hash_mb, fen);
    return textio_buf_done(&b);
}

int wproto_parse_score(char **tok, int nt, WprotoScore *j, char *err)
{
    long long v;
    if (nt != 9 || strcmp(tok[3], "depth") != 0 || strcmp(tok[5], "hash") != 0 || strcmp(tok[7], "fen") != 0)
        return km_fail(err, "a score line is 'score N VECTOR depth D hash MB fen FEN'");
    if (!textio_parse_ll(tok[1], 0, 1 << 30, &v)) return km_fail(err, "bad job number '%.20s'", tok[1]);
    j->n = (int)v;
    if (strncmp(tok[2], "engine:", 7) == 0 || !ref_ok(tok[2]))
        return km_fail(err, "the vector is ID or ID+LAYER (16 hex digits each)");
    snprintf(j->vector, sizeof j->vector, "%s", tok[2]);
    if (!textio_parse_ll(tok[4], 2, SEARCH_MAX_PLY - 2, &v)) return km_fail(err, "bad depth '%.20s'", tok[4]);
    j->depth = (int)v;
    if (!textio_parse_ll(tok[6], 0, 65536, &v)) return km_fail(err, "bad hash '%.20s'", tok[6]);
    j->hash_mb = (int)v;
    char e2[KM_ERR_MAX];
    if (board_from_fen(&j->b, tok[8], e2)) return km_fail(err, "bad fen: %s", e2);
    return 0;
}

char *wproto_scored_line(int n, int k, const uint16_t *codes, const int16_t *scores)
{
    KmBuf b = {0};
    textio_buf_printf(&b, "scored %d %d", n, k);
    for (int i = 0; i < k; i++) textio_buf_printf(&b, " %u %d", (unsigned)codes[i], (int)scores[i]);
    return textio_buf_done(&b);
}

int wproto_parse_scored(char **tok, int nt, const Board *b, uint16_t *codes, int16_t *scores, char *err)
{
    MoveList ml;
    mg_moves(b, &ml);
    int want = ml.count < 255 ? ml.count : 255;
    long long k, v;
    if (nt < 3 || !textio_parse_ll(tok[2], 0, 255, &k) || k != want || nt != 3 + 2 * k)
        return km_fail(err, "a score of %d moves, not '%.20s'", want, nt > 2 ? tok[2] : "");
    for (int i = 0; i < k; i++) {
        const Move *m = &ml.moves[i];
        int same = 0;
        for (int j = 0; j < i; j++) same += ml.moves[j].from == m->from && ml.moves[j].to == m->to;
        long long want_code = m->from | m->to << 5 | same << 10;
        if (!textio_parse_ll(tok[3 + 2 * i], 0, 65535, &v) || v != want_code)
            return km_fail(err, "move %d is not the position's move %d", i + 1, i + 1);
        codes[i] = (uint16_t)v;
        if (!textio_parse_ll(tok[4 + 2 * i], -BOOK_SCORE_MAX, BOOK_SCORE_MAX, &v))
            return km_fail(err, "the score of move %d is not a number within %d", i + 1, BOOK_SCORE_MAX);
        scores[i] = (int16_t)v;
    }
    return (int)k;
}

/* ---- self-play games ---- */

char *wproto_selfplay_line(const WprotoSelfplay *j)
{
    KmBuf b = {0};
    textio_buf_printf(
        &b, "selfplay %d %d %s seed %016llx nodes %llu random %d margin %d plies %d hash %d egdb %s", j->n,
        j->game, j->vector, (unsigned long long)j->seed, (unsigned long long)j->nodes, j->random_plies,
        j->margin, j->max_plies, j->hash_mb, j->egdb);
    return textio_buf_done(&b);
}

int wproto_parse_selfplay(char **tok, int nt, WprotoSelfplay *j, char *err)
{
    static const char *const words[] = {"seed", "nodes", "random", "margin", "plies", "hash", "egdb"};
    if (nt != 18) goto form;
    for (int k = 0; k < 7; k++)
        if (strcmp(tok[4 + 2 * k], words[k]) != 0) goto form;
    long long v;
    if (!textio_parse_ll(tok[1], 0, 1 << 30, &v)) return km_fail(err, "bad job number '%.20s'", tok[1]);
    j->n = (int)v;
    if (!textio_parse_ll(tok[2], 0, 1 << 30, &v)) return km_fail(err, "bad game number '%.20s'", tok[2]);
    j->game = (int)v;
    if (strncmp(tok[3], "engine:", 7) == 0 || !ref_ok(tok[3]))
        return km_fail(err, "the vector is ID or ID+LAYER (16 hex digits each)");
    snprintf(j->vector, sizeof j->vector, "%s", tok[3]);
    if (!wproto_parse_hex64(tok[5], &j->seed)) return km_fail(err, "the seed is 16 hex digits");
    if (!textio_parse_ll(tok[7], 1, 1000000000000LL, &v)) return km_fail(err, "bad nodes '%.20s'", tok[7]);
    j->nodes = (uint64_t)v;
    if (!textio_parse_ll(tok[9], 0, 1000, &v)) return km_fail(err, "bad random plies '%.20s'", tok[9]);
    j->random_plies = (int)v;
    if (!textio_parse_ll(tok[11], 0, 1000000, &v)) return km_fail(err, "bad margin '%.20s'", tok[11]);
    j->margin = (int)v;
    if (!textio_parse_ll(tok[13], 1, 100000, &v)) return km_fail(err, "bad plies '%.20s'", tok[13]);
    j->max_plies = (int)v;
    if (!textio_parse_ll(tok[15], 0, 65536, &v)) return km_fail(err, "bad hash '%.20s'", tok[15]);
    j->hash_mb = (int)v;
    if (!digest_ok(tok[17])) return km_fail(err, "bad egdb '%.30s'", tok[17]);
    snprintf(j->egdb, sizeof j->egdb, "%s", tok[17]);
    return 0;
form:
    return km_fail(err, "a selfplay line is 'selfplay N GAME VECTOR seed X nodes K random R margin M plies P "
                        "hash MB egdb DIGEST'");
}
