/* book.c - the opening book file: keys, move codes, reading and checking,
 * probing, choosing a move, encoding (book.h). */
#include "kingme/book.h"
#include "kingme/textio.h"
#include "kingme/weights.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER_FIXED 104 /* the header's fields before the command text */

struct Book {
    uint8_t *data; /* the whole file */
    size_t len;
    BookHeader h;
    int n;
    const uint8_t *keys, *counts, *moves;
    uint32_t *first; /* [n]: the index of each position's first move */
    char *path;
};

/* ---- keys, IDs, move codes ---------------------------------------------------- */

uint64_t book_key(const Board *b)
{
    uint64_t x = (uint64_t)b->pieces[KM_BLACK] | (uint64_t)b->pieces[KM_WHITE] << 32;
    uint64_t y = (uint64_t)b->kings << 1 | (uint64_t)(b->stm & 1);
    return km_mix64(km_mix64(x) ^ y ^ 0x6B696E676D65626Bull); /* "kingmebk" */
}

uint64_t book_weights_id(const Weights *w)
{
    char *text = weights_format(w, NULL);
    if (!text) return 0;
    uint64_t h = 0xCBF29CE484222325ull; /* FNV-1a, then mixed */
    for (const char *p = text; *p; p++) h = (h ^ (uint8_t)*p) * 0x100000001B3ull;
    free(text);
    return km_mix64(h);
}

int book_move_code(const Board *b, const Move *m)
{
    MoveList ml;
    mg_moves(b, &ml);
    int k = 0;
    for (int i = 0; i < ml.count; i++) {
        const Move *x = &ml.moves[i];
        if (x->from != m->from || x->to != m->to) continue;
        if (mg_move_equal(x, m)) return k < 64 ? m->from | m->to << 5 | k << 10 : -1;
        k++;
    }
    return -1;
}

bool book_move_decode(const Board *b, int code, Move *out)
{
    MoveList ml;
    mg_moves(b, &ml);
    int from = code & 31, to = code >> 5 & 31, k = code >> 10 & 63;
    for (int i = 0; i < ml.count; i++) {
        const Move *x = &ml.moves[i];
        if (x->from != from || x->to != to) continue;
        if (k-- == 0) {
            *out = *x;
            return true;
        }
    }
    return false;
}

/* The header's CRC: bytes 0 to H-1 with the CRC field read as zero. */
static uint32_t header_crc(const uint8_t *p, size_t hbytes)
{
    static const uint8_t zero[4];
    uint32_t c = textio_crc32(0, p, 96);
    c = textio_crc32(c, zero, 4);
    return textio_crc32(c, p + 100, hbytes - 100);
}

/* ---- reading -------------------------------------------------------------------- */

void book_close(Book *bk)
{
    if (!bk) return;
    free(bk->data);
    free(bk->first);
    free(bk->h.command);
    free(bk->path);
    free(bk);
}

static Book *fail(Book *bk, char *err, const char *fmt, const char *where, const char *what)
{
    km_fail(err, fmt, where, what);
    book_close(bk);
    return NULL;
}

/* The first field of h outside what a build can write (book_build's own
 * bounds, 0 allowed where a book made otherwise leaves a field out, and
 * times within a century), or NULL when all are in range. */
static const char *header_out_of_range(const BookHeader *h)
{
    if (h->man < 0 || h->man > 32767) return "a man's value";
    if (h->depth < 0 || h->depth > BOOK_DEPTH_MAX) return "the depth";
    if (h->target < 0 || h->target > 10000000) return "the positions aimed at";
    if (h->start_plies < 0 || h->start_plies > 100 || h->ballot_plies < 0 || h->ballot_plies > 100)
        return "the main lines' plies";
    if (h->spread < 0 || h->spread > 100 * 32767 || h->own_spread < 0 || h->own_spread > 100 * 32767)
        return "a spread";
    if (h->batch < 0 || h->batch > 100000) return "the batch";
    if (h->hash_mb < 0 || h->hash_mb > 65536) return "the table's size";
    if (!(h->seconds >= 0 && h->seconds <= 100 * 365.25 * 86400)) return "the building time";
    if (h->written < 0 || h->written > ((int64_t)1 << 40)) return "the time written";
    return NULL;
}

/* Parse and check bk->data (bk->len bytes). */
static Book *parse(Book *bk, const char *where, char *err)
{
    const uint8_t *p = bk->data;
    size_t n = bk->len;
    size_t ml = strlen(BOOK_MAGIC);
    if (n < ml || memcmp(p, BOOK_MAGIC, ml) != 0) {
        if (n < ml && n > 0 && memcmp(p, BOOK_MAGIC, n) == 0)
            return fail(bk, err, "%s: truncated (%s)", where, "it ends inside the magic number");
        return fail(bk, err, "%s: not a kingme opening book%s", where, "");
    }
    if (n < 16) return fail(bk, err, "%s: truncated (%s)", where, "it ends inside the header");
    uint32_t version = km_get32(p + 8);
    if (version != BOOK_VERSION) {
        km_fail(err, "%s: format version %u, this kingme reads version %d", where, (unsigned)version,
                BOOK_VERSION);
        book_close(bk);
        return NULL;
    }
    uint32_t hbytes = km_get32(p + 12);
    if (hbytes < HEADER_FIXED || hbytes % 8 || hbytes > HEADER_FIXED + BOOK_COMMAND_MAX + 8)
        return fail(bk, err, "%s: corrupt header (%s)", where, "its size");
    if (n < hbytes) return fail(bk, err, "%s: truncated (%s)", where, "it ends inside the header");
    if (km_get32(p + 96) != header_crc(p, hbytes))
        return fail(bk, err, "%s: corrupt header (%s)", where, "checksum mismatch");
    BookHeader *h = &bk->h;
    h->version = version;
    h->positions = km_get32(p + 16);
    h->moves = km_get32(p + 20);
    h->weights_id = km_get64(p + 24);
    h->man = (int32_t)km_get32(p + 32);
    h->depth = (int)km_get32(p + 36);
    h->target = (int)km_get32(p + 40);
    h->start_plies = (int)km_get32(p + 44);
    h->ballot_plies = (int)km_get32(p + 48);
    h->spread = (int32_t)km_get32(p + 52);
    h->own_spread = (int32_t)km_get32(p + 56);
    h->batch = (int)km_get32(p + 60);
    h->hash_mb = (int)km_get32(p + 64);
    h->finished = km_get32(p + 68) & 1;
    h->seconds = (double)km_get64(p + 72) / 1000.0;
    h->written = (int64_t)km_get64(p + 80);
    uint32_t clen = km_get32(p + 88);
    h->data_crc = km_get32(p + 92);
    h->bytes = n;
    if (HEADER_FIXED + (uint64_t)clen > hbytes || clen > BOOK_COMMAND_MAX)
        return fail(bk, err, "%s: corrupt header (%s)", where, "the command's length");
    if (memchr(p + HEADER_FIXED, '\0', clen))
        return fail(bk, err, "%s: corrupt header (%s)", where, "a NUL byte in the command");
    const char *bad = header_out_of_range(h);
    if (bad) return fail(bk, err, "%s: corrupt header (%s out of range)", where, bad);
    h->command = malloc(clen + 1);
    if (!h->command) return fail(bk, err, "%s: %s", where, "out of memory");
    memcpy(h->command, p + HEADER_FIXED, clen);
    h->command[clen] = '\0';
    uint64_t need = (uint64_t)hbytes + 9ull * h->positions + 4ull * h->moves;
    if (n < need) {
        char what[96];
        snprintf(what, sizeof what, "%zu bytes, the header says %llu", n, (unsigned long long)need);
        return fail(bk, err, "%s: truncated (%s)", where, what);
    }
    if (n > need) return fail(bk, err, "%s: corrupt (%s)", where, "bytes after the end of the moves");
    if (textio_crc32(0, p + hbytes, n - hbytes) != h->data_crc)
        return fail(bk, err, "%s: corrupt data (%s)", where, "checksum mismatch");
    bk->n = (int)h->positions;
    bk->keys = p + hbytes;
    bk->counts = bk->keys + 8 * (size_t)bk->n;
    bk->moves = bk->counts + bk->n;
    bk->first = malloc(((size_t)bk->n + 1) * sizeof *bk->first);
    if (!bk->first) return fail(bk, err, "%s: %s", where, "out of memory");
    uint64_t total = 0;
    for (int i = 0; i < bk->n; i++) {
        bk->first[i] = (uint32_t)total;
        if (bk->counts[i] == 0) return fail(bk, err, "%s: corrupt (%s)", where, "a position without moves");
        total += bk->counts[i];
        if (i && km_get64(bk->keys + 8 * (size_t)i) <= km_get64(bk->keys + 8 * (size_t)(i - 1)))
            return fail(bk, err, "%s: corrupt (%s)", where, "the keys are not in order");
    }
    bk->first[bk->n] = (uint32_t)total;
    if (total != h->moves)
        return fail(bk, err, "%s: corrupt (%s)", where, "the move counts disagree with the header");
    return bk;
}

Book *book_from_bytes(const void *bytes, size_t len, const char *where, char *err)
{
    Book *bk = calloc(1, sizeof *bk);
    if (!bk) {
        km_fail(err, "%s: out of memory", where);
        return NULL;
    }
    bk->data = malloc(len ? len : 1);
    bk->path = strdup(where);
    if (!bk->data || !bk->path) return fail(bk, err, "%s: %s", where, "out of memory");
    memcpy(bk->data, bytes, len);
    bk->len = len;
    return parse(bk, where, err);
}

Book *book_open(const char *path, char *err)
{
    KmReadOpts o = {.max_bytes = BOOK_MAX_BYTES, .too_large = "too large for an opening book"};
    size_t len;
    char *text = textio_read_text(path, &o, &len, err);
    if (!text) return NULL;
    Book *bk = calloc(1, sizeof *bk);
    if (!bk || !(bk->path = strdup(path))) {
        free(text);
        free(bk);
        km_fail(err, "%s: out of memory", path);
        return NULL;
    }
    bk->data = (uint8_t *)text;
    bk->len = len;
    return parse(bk, path, err);
}

const BookHeader *book_header(const Book *bk) { return &bk->h; }
const char *book_path(const Book *bk) { return bk->path; }
const uint8_t *book_bytes(const Book *bk, size_t *len)
{
    *len = bk->len;
    return bk->data;
}
int book_count(const Book *bk) { return bk->n; }

void book_entry_at(const Book *bk, int k, BookEntry *out)
{
    out->key = km_get64(bk->keys + 8 * (size_t)k);
    out->nmoves = bk->counts[k];
    out->moves = bk->moves + 4 * (size_t)bk->first[k];
}

int book_find_index(const Book *bk, uint64_t key)
{
    int lo = 0, hi = bk->n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        uint64_t k = km_get64(bk->keys + 8 * (size_t)mid);
        if (k == key) return mid;
        if (k < key) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

bool book_find(const Book *bk, uint64_t key, BookEntry *out)
{
    int k = book_find_index(bk, key);
    if (k < 0) return false;
    book_entry_at(bk, k, out);
    return true;
}

int book_moves(const Book *bk, const Board *b, BookMove *out, int max)
{
    BookEntry e;
    if (!bk || !book_find(bk, book_key(b), &e)) return 0;
    int n = 0;
    for (int i = 0; i < e.nmoves; i++) {
        Move m;
        if (!book_move_decode(b, book_entry_code(&e, i), &m)) return 0; /* another position's key */
        if (n < max) out[n++] = (BookMove){m, book_entry_score(&e, i)};
    }
    return n;
}

bool book_choose(const Book *bk, const Board *b, int32_t margin, uint64_t *rng, BookMove *out, int *choices)
{
    BookMove mv[MAX_MOVES];
    int n = book_moves(bk, b, mv, MAX_MOVES);
    if (n == 0) return false;
    if (margin < 0) margin = 0;
    int k = 1;
    uint64_t total = (uint64_t)margin + 1;
    while (k < n && mv[0].score - mv[k].score <= margin) {
        total += (uint64_t)(margin + 1 - (mv[0].score - mv[k].score));
        k++;
    }
    if (choices) *choices = k;
    int pick = 0;
    if (k > 1 && rng) {
        uint64_t r = km_rng_next(rng) % total;
        for (pick = 0; pick < k; pick++) {
            uint64_t w = (uint64_t)(margin + 1 - (mv[0].score - mv[pick].score));
            if (r < w) break;
            r -= w;
        }
    }
    *out = mv[pick];
    return true;
}

int32_t book_margin(const Book *bk, double men)
{
    double v = men * (bk ? bk->h.man : 1000);
    return v <= 0 ? 0 : v > 1e6 ? 1000000 : (int32_t)(v + 0.5);
}

/* ---- writing -------------------------------------------------------------------- */

typedef struct KeyIndex {
    uint64_t key;
    int index;
} KeyIndex;

static int by_key(const void *a, const void *b)
{
    uint64_t x = ((const KeyIndex *)a)->key, y = ((const KeyIndex *)b)->key;
    return x < y ? -1 : x > y;
}

uint8_t *book_encode(const BookHeader *h, const BookOutPos *pos, int n, size_t *len, char *err)
{
    size_t clen = h->command ? strlen(h->command) : 0;
    if (clen > BOOK_COMMAND_MAX) {
        km_fail(err, "the book's command text is %zu bytes (at most %d)", clen, BOOK_COMMAND_MAX);
        return NULL;
    }
    const char *bad = header_out_of_range(h);
    if (bad) {
        km_fail(err, "the book's header: %s out of range", bad);
        return NULL;
    }
    size_t hbytes = (HEADER_FIXED + clen + 7) / 8 * 8;
    uint64_t moves = 0;
    for (int i = 0; i < n; i++) {
        if (pos[i].nmoves < 1 || pos[i].nmoves > 255) {
            km_fail(err, "a position of the book has %d moves (1 to 255)", pos[i].nmoves);
            return NULL;
        }
        moves += (uint64_t)pos[i].nmoves;
    }
    size_t total = hbytes + 9 * (size_t)n + 4 * (size_t)moves;
    KeyIndex *order = malloc(((size_t)n + 1) * sizeof *order);
    uint8_t *p = calloc(1, total);
    if (!order || !p) {
        free(order);
        free(p);
        km_fail(err, "out of memory");
        return NULL;
    }
    for (int i = 0; i < n; i++) order[i] = (KeyIndex){pos[i].key, i};
    qsort(order, (size_t)n, sizeof *order, by_key);
    uint8_t *keys = p + hbytes, *counts = keys + 8 * (size_t)n, *mv = counts + n;
    for (int i = 0; i < n; i++) {
        const BookOutPos *q = &pos[order[i].index];
        if (i && q->key == order[i - 1].key) {
            free(order);
            free(p);
            km_fail(err, "the same position twice in the book");
            return NULL;
        }
        km_put64(keys + 8 * (size_t)i, q->key);
        counts[i] = (uint8_t)q->nmoves;
        /* best first, then by code: an insertion sort of a few moves */
        int idx[255];
        for (int k = 0; k < q->nmoves; k++) {
            int j = k;
            while (j > 0 && (q->scores[idx[j - 1]] < q->scores[k] ||
                             (q->scores[idx[j - 1]] == q->scores[k] && q->codes[idx[j - 1]] > q->codes[k]))) {
                idx[j] = idx[j - 1];
                j--;
            }
            idx[j] = k;
        }
        for (int k = 0; k < q->nmoves; k++) {
            mv[0] = (uint8_t)(q->codes[idx[k]] & 0xFF);
            mv[1] = (uint8_t)(q->codes[idx[k]] >> 8);
            uint16_t s = (uint16_t)q->scores[idx[k]];
            mv[2] = (uint8_t)(s & 0xFF);
            mv[3] = (uint8_t)(s >> 8);
            mv += 4;
        }
    }
    free(order);
    memcpy(p, BOOK_MAGIC, strlen(BOOK_MAGIC));
    km_put32(p + 8, BOOK_VERSION);
    km_put32(p + 12, (uint32_t)hbytes);
    km_put32(p + 16, (uint32_t)n);
    km_put32(p + 20, (uint32_t)moves);
    km_put64(p + 24, h->weights_id);
    km_put32(p + 32, (uint32_t)h->man);
    km_put32(p + 36, (uint32_t)h->depth);
    km_put32(p + 40, (uint32_t)h->target);
    km_put32(p + 44, (uint32_t)h->start_plies);
    km_put32(p + 48, (uint32_t)h->ballot_plies);
    km_put32(p + 52, (uint32_t)h->spread);
    km_put32(p + 56, (uint32_t)h->own_spread);
    km_put32(p + 60, (uint32_t)h->batch);
    km_put32(p + 64, (uint32_t)h->hash_mb);
    km_put32(p + 68, h->finished ? 1 : 0);
    km_put64(p + 72, (uint64_t)(h->seconds * 1000.0 + 0.5));
    km_put64(p + 80, (uint64_t)h->written);
    km_put32(p + 88, (uint32_t)clen);
    if (clen) memcpy(p + HEADER_FIXED, h->command, clen);
    km_put32(p + 92, textio_crc32(0, p + hbytes, total - hbytes));
    km_put32(p + 96, header_crc(p, hbytes));
    *len = total;
    return p;
}
