/* egdb_file.c - the slice files, and probing an opened database.
 *
 * One file per slice, DIR/bBMkBKwWMkWK.kdb, all numbers little-endian:
 *
 *   offset size
 *    0      8   magic "KMEGDB\x1a\n"
 *    8      4   format version: 1, every DTC kept; 2, some not kept (the
 *               codes 253 and 254 of egdb_impl.h): the 6-piece slices
 *   12      4   black men, black kings, white men, white kings (a byte each)
 *   16      8   index size (positions of the index, holes included)
 *   24      8   positions (as the published tables count them)
 *   32     24   wins, losses, draws (Black to move)
 *   56      4   largest win DTC, largest loss DTC (16 bits each)
 *   60      4   positions per block (B)
 *   64      4   number of blocks (ceil(index size / B))
 *   68      4   number of code symbols (S)
 *   72      8   bytes of block data (D)
 *   80      4   CRC-32 of everything after the header
 *   84      4   CRC-32 of bytes 0-83
 *   88      S   Huffman code length of each symbol (0: unused)
 *   88+S    4 * (blocks + 1)   start of each block in the data, then D
 *   ...     D   the blocks
 *
 * The file size must be exactly the sum, so a truncated file is refused
 * before anything is read from it, and the two checksums catch the rest.
 *
 * Compression. The value codes (egdb_impl.h) of a slice in index order
 * come in long runs (kings move fastest in the index, and a king a square
 * further rarely changes the value), over a small alphabet that is very
 * unevenly used. So each block is run-length coded (a literal code, then
 * run tokens repeating it: token j stands for 2^j to 2^(j+1)-1 repeats,
 * with j extra bits), and the tokens are Huffman coded with one canonical
 * code per slice (lengths at most 15). Positions whose value is never
 * asked (holes of the index, White without a piece) take the code before
 * them, which lengthens the runs; so do the positions where Black can
 * capture, which the probe resolves by trying the captures. Each block
 * starts on a byte, so it decodes alone, and blocks are small so that a probe
 * decodes little: with 1024 positions against 4096, the 5 pieces take 7% more
 * room (11.2 MB against 10.5) and a probe that must decode a block a third of
 * the time (1.1 us against 3.2). A reader takes any B up to 65536.
 * Deflate-like LZ coding would find the same runs but costs far more code;
 * an arithmetic coder would gain a little more at several times the
 * decoding time per probe. */
#include "egdb_impl.h"
#include "kingme/bits.h"
#include "kingme/textio.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "port.h" /* after the system headers: pread on Windows */

#define MAGIC "KMEGDB\x1a\n"
#define VERSION 1         /* every DTC kept */
#define VERSION_PARTIAL 2 /* the DTC of short wins and of losses left out */
#define HEADER_BYTES 88
#define BLOCK 1024      /* positions per block written (files say their own) */
#define MAX_BLOCK 65536 /* the most a file may say */
#define NRUN 13         /* run tokens: up to 2^13 - 1 repeats, more than a block */
#define NSYM (256 + NRUN)
#define MAXLEN 15

static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }
static uint32_t get16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }

/* ---- counting ---- */

void egdb_count_codes(const EgdbGeom *g, const uint8_t *codes, EgdbSliceInfo *info)
{
    memset(info, 0, sizeof *info);
    info->slice = g->s;
    info->positions = egdb_slice_positions(g->s);
    bool white_none = g->s.wm + g->s.wk == 0;
    EgdbScan sc;
    egdb_scan_start(&sc, g, 0, g->size);
    Board b;
    bool real;
    for (uint64_t i = 0; egdb_scan_next(&sc, &b, &real); i++) {
        if (!real) continue;
        if (white_none) {
            info->wins++;
            continue;
        }
        uint8_t c = codes[i];
        int v = egdb_code_value(c), d = egdb_code_dist(c);
        if (v == EGDB_WIN) {
            info->wins++;
            if (d > info->max_win_dtc) info->max_win_dtc = d;
        } else if (v == EGDB_LOSS) {
            info->losses++;
            if (d > info->max_loss_dtc) info->max_loss_dtc = d;
        } else info->draws++;
    }
}

/* ---- Huffman ---- */

/* Code lengths for freq (at most MAXLEN): plain Huffman, frequencies halved
 * until the longest code fits. */
static void huff_lengths(const uint64_t *freq_in, uint8_t *len)
{
    uint64_t freq[NSYM];
    memcpy(freq, freq_in, sizeof freq);
    for (;;) {
        /* nodes: leaves 0..NSYM-1, internal after; simple O(n^2) pairing */
        uint64_t w[2 * NSYM];
        int parent[2 * NSYM], alive[2 * NSYM], nn = 0, nlive = 0;
        for (int i = 0; i < NSYM; i++) {
            w[i] = freq[i];
            parent[i] = -1;
            alive[i] = freq[i] > 0;
            nlive += alive[i];
        }
        nn = NSYM;
        memset(len, 0, NSYM);
        if (nlive == 0) return;
        if (nlive == 1) {
            for (int i = 0; i < NSYM; i++)
                if (freq[i]) len[i] = 1;
            return;
        }
        while (nlive > 1) {
            int a = -1, b = -1;
            for (int i = 0; i < nn; i++) {
                if (!alive[i]) continue;
                if (a < 0 || w[i] < w[a]) b = a, a = i;
                else if (b < 0 || w[i] < w[b]) b = i;
            }
            alive[a] = alive[b] = 0;
            w[nn] = w[a] + w[b];
            parent[nn] = -1;
            alive[nn] = 1;
            parent[a] = parent[b] = nn;
            nn++;
            nlive--;
        }
        int maxl = 0;
        for (int i = 0; i < NSYM; i++) {
            if (!freq[i]) continue;
            int l = 0;
            for (int j = i; parent[j] >= 0; j = parent[j]) l++;
            len[i] = (uint8_t)l;
            if (l > maxl) maxl = l;
        }
        if (maxl <= MAXLEN) return;
        for (int i = 0; i < NSYM; i++)
            if (freq[i]) freq[i] = (freq[i] + 1) / 2;
    }
}

#define LUT_BITS 10 /* codes up to this long decode with one table look-up */
typedef struct HuffDec {
    uint16_t count[MAXLEN + 1];
    uint16_t sym[NSYM];
    uint16_t lut[1 << LUT_BITS]; /* symbol | length << 9, or 0: a longer code */
} HuffDec;

static void huff_enc_codes(const uint8_t *len, uint16_t *code);

/* Canonical codes: by length, then symbol. Returns false for lengths that
 * do not form a code (over-subscribed). */
static bool huff_dec_init(HuffDec *h, const uint8_t *len)
{
    memset(h->count, 0, sizeof h->count);
    for (int i = 0; i < NSYM; i++) {
        if (len[i] > MAXLEN) return false;
        h->count[len[i]]++;
    }
    h->count[0] = 0;
    int left = 1;
    for (int l = 1; l <= MAXLEN; l++) {
        left <<= 1;
        left -= h->count[l];
        if (left < 0) return false;
    }
    uint16_t offs[MAXLEN + 2];
    offs[1] = 0;
    for (int l = 1; l <= MAXLEN; l++) offs[l + 1] = (uint16_t)(offs[l] + h->count[l]);
    for (int i = 0; i < NSYM; i++)
        if (len[i]) h->sym[offs[len[i]]++] = (uint16_t)i;
    uint16_t code[NSYM] = {0};
    huff_enc_codes(len, code);
    memset(h->lut, 0, sizeof h->lut);
    for (int i = 0; i < NSYM; i++) {
        if (!len[i] || len[i] > LUT_BITS) continue;
        int shift = LUT_BITS - len[i];
        for (int k = 0; k < 1 << shift; k++) h->lut[(code[i] << shift) | k] = (uint16_t)(i | len[i] << 9);
    }
    return true;
}

static void huff_enc_codes(const uint8_t *len, uint16_t *code)
{
    uint16_t count[MAXLEN + 1] = {0}, next[MAXLEN + 2];
    for (int i = 0; i < NSYM; i++) count[len[i]]++;
    count[0] = 0;
    uint32_t c = 0;
    for (int l = 1; l <= MAXLEN; l++) {
        c = (c + count[l - 1]) << 1;
        next[l] = (uint16_t)c;
    }
    for (int i = 0; i < NSYM; i++)
        if (len[i]) code[i] = next[len[i]]++;
}

/* MSB-first bits from a block; reading past its end yields zeros, and
 * block_decode then refuses the block. */
typedef struct BitReader {
    const uint8_t *p, *end;
    uint64_t bits; /* the next bits, left-aligned */
    int n;         /* how many of them are real or padding */
    uint64_t used, avail;
} BitReader;

static inline void br_fill(BitReader *r)
{
    while (r->n <= 56) {
        uint64_t byte = r->p < r->end ? *r->p++ : 0;
        r->bits |= byte << (56 - r->n);
        r->n += 8;
    }
}

static inline uint32_t br_peek(BitReader *r, int k) { return k ? (uint32_t)(r->bits >> (64 - k)) : 0; }

static inline void br_skip(BitReader *r, int k)
{
    r->bits <<= k;
    r->n -= k;
    r->used += (uint64_t)k;
}

static inline int huff_decode(const HuffDec *h, BitReader *r)
{
    br_fill(r);
    uint16_t e = h->lut[br_peek(r, LUT_BITS)];
    if (e) {
        br_skip(r, e >> 9);
        return e & 0x1FF;
    }
    uint32_t v = br_peek(r, MAXLEN);
    int code = 0, first = 0, index = 0;
    for (int l = 1; l <= MAXLEN; l++) {
        code |= (int)((v >> (MAXLEN - l)) & 1);
        int count = h->count[l];
        if (code - count < first) {
            br_skip(r, l);
            return h->sym[index + (code - first)];
        }
        index += count;
        first += count;
        first <<= 1;
        code <<= 1;
    }
    return -1;
}

/* Decode one block: n codes into out. Returns false on bad data: bits that
 * are no code, a run longer than the block, more bits than the block has,
 * or a code the slice cannot hold (valid[c] false: 255, or a distance
 * beyond the header's largest), so that a damaged block whose checksum was
 * forged is refused rather than read as values. */
static bool block_decode(const HuffDec *h, const bool *valid, const uint8_t *p, const uint8_t *end, int n,
                         uint8_t *out)
{
    BitReader r = {p, end, 0, 0, 0, (uint64_t)(end - p) * 8};
    int i = 0, prev = -1;
    while (i < n) {
        int s = huff_decode(h, &r);
        if (s < 0) return false;
        if (s < 256) {
            if (!valid[s]) return false;
            out[i++] = (uint8_t)s;
            prev = s;
        } else {
            int j = s - 256;
            br_fill(&r);
            uint32_t run = (1u << j) + br_peek(&r, j);
            br_skip(&r, j);
            if (prev < 0 || run > (uint32_t)(n - i)) return false;
            memset(out + i, prev, run);
            i += (int)run;
        }
    }
    return r.used <= r.avail;
}

/* ---- writing ---- */

typedef struct Buf {
    uint8_t *p;
    size_t n, cap;
    uint32_t acc;
    int nacc;
    bool oom;
} Buf;

static void buf_byte(Buf *b, uint8_t v)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 65536;
        uint8_t *p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    b->p[b->n++] = v;
}

static void buf_bits(Buf *b, uint32_t v, int n)
{
    while (n--) {
        b->acc = b->acc << 1 | ((v >> n) & 1);
        if (++b->nacc == 8) {
            buf_byte(b, (uint8_t)b->acc);
            b->acc = 0;
            b->nacc = 0;
        }
    }
}

static void buf_flush(Buf *b)
{
    if (b->nacc) buf_bits(b, 0, 8 - b->nacc);
}

/* The tokens of block [lo, hi): calls emit(sym, extra, nextra). The codes
 * of positions never asked take the code before them. */
typedef void (*EmitFn)(void *ctx, int sym, uint32_t extra, int nextra);

static void tokenize(const EgdbGeom *g, const uint8_t *codes, uint64_t lo, uint64_t hi, EmitFn emit,
                     void *ctx)
{
    int prev = -1;
    uint64_t run = 0;
    bool white_none = g->s.wm + g->s.wk == 0;
    for (uint64_t i = lo; i <= hi; i++) {
        int c = -2;
        if (i < hi) {
            c = codes[i];
            if (c == EGDB_CODE_NONE || white_none) c = prev >= 0 ? prev : EGDB_CODE_DRAW;
        }
        if (c == prev) {
            run++;
            continue;
        }
        while (run) {
            int j = 31 - __builtin_clz((uint32_t)(run < (1u << NRUN) ? run : (1u << NRUN) - 1));
            uint32_t take = (1u << j);
            uint32_t extra = (uint32_t)(run - take);
            if (extra >= take) extra = take - 1;
            emit(ctx, 256 + j, extra, j);
            run -= take + extra;
        }
        if (c >= 0) emit(ctx, c, 0, 0);
        prev = c;
    }
}

static void emit_count(void *ctx, int sym, uint32_t extra, int nextra)
{
    (void)extra, (void)nextra;
    ((uint64_t *)ctx)[sym]++;
}

typedef struct EncCtx {
    Buf *b;
    const uint8_t *len;
    const uint16_t *code;
} EncCtx;

static void emit_code(void *ctx, int sym, uint32_t extra, int nextra)
{
    EncCtx *e = ctx;
    buf_bits(e->b, e->code[sym], e->len[sym]);
    if (nextra) buf_bits(e->b, extra, nextra);
}

int egdb_write_slice(const char *dir, const EgdbGeom *g, const uint8_t *codes, bool partial,
                     EgdbSliceInfo *info, char *err)
{
    char name[16], path[4096];
    egdb_slice_name(g->s, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    egdb_count_codes(g, codes, info);
    /* Positions where Black can capture are resolved by the probe (it tries
     * the captures), so their codes are never asked either. */
    uint8_t *masked = malloc((size_t)g->size + 1);
    if (!masked) return km_fail(err, "%s: out of memory compressing the slice", path);
    EgdbScan sc;
    egdb_scan_start(&sc, g, 0, g->size);
    Board pos;
    bool real;
    for (uint64_t i = 0; egdb_scan_next(&sc, &pos, &real); i++)
        masked[i] =
            real && !mg_can_capture(&pos, KM_BLACK) ? egdb_code_stored(codes[i], partial) : EGDB_CODE_NONE;
    codes = masked;

    uint32_t nblocks = (uint32_t)((g->size + BLOCK - 1) / BLOCK);
    uint64_t freq[NSYM] = {0};
    for (uint32_t k = 0; k < nblocks; k++) {
        uint64_t lo = (uint64_t)k * BLOCK, hi = lo + BLOCK < g->size ? lo + BLOCK : g->size;
        tokenize(g, codes, lo, hi, emit_count, freq);
    }
    uint8_t len[NSYM];
    uint16_t code[NSYM] = {0};
    huff_lengths(freq, len);
    huff_enc_codes(len, code);

    size_t index_at = HEADER_BYTES + NSYM, data_at = index_at + 4 * ((size_t)nblocks + 1);
    Buf b = {0};
    for (size_t i = 0; i < data_at; i++) buf_byte(&b, 0);
    EncCtx e = {&b, len, code};
    for (uint32_t k = 0; k < nblocks; k++) {
        if (!b.oom) km_put32(b.p + index_at + 4 * k, (uint32_t)(b.n - data_at));
        uint64_t lo = (uint64_t)k * BLOCK, hi = lo + BLOCK < g->size ? lo + BLOCK : g->size;
        tokenize(g, codes, lo, hi, emit_code, &e);
        buf_flush(&b);
    }
    free(masked);
    if (b.oom || b.n - data_at > 0xFFFFFFFFu) {
        free(b.p);
        return km_fail(err, "%s: out of memory compressing the slice", path);
    }
    uint8_t *h = b.p;
    km_put32(h + index_at + 4 * nblocks, (uint32_t)(b.n - data_at));
    memcpy(h + HEADER_BYTES, len, NSYM);
    memcpy(h, MAGIC, 8);
    km_put32(h + 8, partial ? VERSION_PARTIAL : VERSION);
    h[12] = (uint8_t)g->s.bm, h[13] = (uint8_t)g->s.bk, h[14] = (uint8_t)g->s.wm, h[15] = (uint8_t)g->s.wk;
    km_put64(h + 16, g->size);
    km_put64(h + 24, info->positions);
    km_put64(h + 32, info->wins);
    km_put64(h + 40, info->losses);
    km_put64(h + 48, info->draws);
    put16(h + 56, (uint32_t)info->max_win_dtc);
    put16(h + 58, (uint32_t)info->max_loss_dtc);
    km_put32(h + 60, BLOCK);
    km_put32(h + 64, nblocks);
    km_put32(h + 68, NSYM);
    km_put64(h + 72, b.n - data_at);
    km_put32(h + 80, textio_crc32(0, h + HEADER_BYTES, b.n - HEADER_BYTES));
    km_put32(h + 84, textio_crc32(0, h, 84));
    info->file_bytes = b.n;

    int r = textio_write_atomic(path, (const char *)b.p, b.n, err);
    free(b.p);
    return r;
}

/* ---- reading ---- */

/* One slice file: its header, read and checked when the database is opened,
 * and its data, in memory once loaded and verified (ready). */
typedef struct SliceFile {
    EgdbGeom g;
    EgdbSliceInfo info;
    HuffDec dec;
    bool valid[256]; /* the codes this slice may hold (block_decode) */
    uint8_t head[HEADER_BYTES];
    char *path;
    uint64_t need; /* the file's size, as its header gives it */
    uint8_t *file; /* the whole file, once loaded */
    const uint8_t *index, *data;
    uint32_t nblocks, block;
    atomic_bool ready; /* file, index, data and dec may be read */
} SliceFile;

/* What a loaded SliceFile holds (not the struct itself). */
static void slice_file_clear(SliceFile *sf)
{
    free(sf->file);
    free(sf->path);
}

static void slice_file_free(SliceFile *sf)
{
    if (!sf) return;
    slice_file_clear(sf);
    free(sf);
}

/* Read and check the header of path into sf. expect: the slice the name
 * promised (NULL: any). The file must be a regular file (a FIFO, a device
 * or a directory is refused before anything is read) of exactly the size
 * its header gives, which the slice's geometry bounds: nothing beyond that
 * is ever read or allocated. */
static int slice_head_load(const char *path, const EgdbSlice *expect, SliceFile *sf, char *err)
{
    uint64_t size;
    int fd = textio_open_regular(path, "cannot open", &size, err);
    if (fd < 0) return -1;
    uint8_t *h = sf->head;
    size_t n = size < HEADER_BYTES ? (size_t)size : HEADER_BYTES;
    ssize_t got = pread(fd, h, n, 0);
    int e = errno;
    close(fd);
    if (got < 0) return km_fail(err, "%s: read error: %s", path, strerror(e));
    n = (size_t)got;
    if (n < 8 || memcmp(h, MAGIC, 8) != 0) {
        if (n >= 6 && memcmp(h, MAGIC, 6) == 0 && n < 8)
            return km_fail(err, "%s: truncated (%zu bytes)", path, n);
        return km_fail(err, "%s: not a kingme endgame database file", path);
    }
    if (n < HEADER_BYTES) return km_fail(err, "%s: truncated (%zu bytes)", path, n);
    uint32_t version = km_get32(h + 8);
    if (version != VERSION && version != VERSION_PARTIAL)
        return km_fail(err, "%s: format version %u, this kingme reads versions %d and %d", path,
                       (unsigned)version, VERSION, VERSION_PARTIAL);
    if (km_get32(h + 84) != textio_crc32(0, h, 84))
        return km_fail(err, "%s: corrupt header (checksum mismatch)", path);
    EgdbSlice s = {h[12], h[13], h[14], h[15]};
    if (s.bm + s.bk + s.wm + s.wk > EGDB_MAX_PIECES || s.bm + s.bk + s.wm + s.wk == 0 ||
        (expect && memcmp(&s, expect, sizeof s) != 0))
        return km_fail(err, "%s: holds slice b%dk%dw%dk%d, not what its name says", path, s.bm, s.bk, s.wm,
                       s.wk);
    egdb_geom(s, &sf->g);
    uint32_t nblocks = km_get32(h + 64), block = km_get32(h + 60), nsym = km_get32(h + 68);
    uint64_t data = km_get64(h + 72);
    int max_win = (int)get16(h + 56), max_loss = (int)get16(h + 58);
    /* a code is at most 15 bits a position, a block padded to a byte */
    if (km_get64(h + 16) != sf->g.size || block == 0 || block > MAX_BLOCK || nsym != NSYM ||
        nblocks != (sf->g.size + block - 1) / block || km_get64(h + 24) != egdb_slice_positions(s) ||
        data > 2 * sf->g.size + nblocks || max_win > EGDB_MAX_WIN_DTC || max_loss > EGDB_MAX_LOSS_DTC)
        return km_fail(err, "%s: inconsistent header", path);
    uint64_t need = HEADER_BYTES + NSYM + 4 * ((uint64_t)nblocks + 1) + data;
    if (size < need) return km_fail(err, "%s: truncated (%llu bytes)", path, (unsigned long long)size);
    if (size > need)
        return km_fail(err, "%s: %llu bytes after the end of the data", path,
                       (unsigned long long)(size - need));
    sf->path = malloc(strlen(path) + 1);
    if (!sf->path) return km_fail(err, "%s: out of memory", path);
    strcpy(sf->path, path);
    sf->need = need;
    sf->nblocks = nblocks;
    sf->block = block;
    sf->valid[EGDB_CODE_DRAW] = true;
    for (int d = 1; d <= max_win; d++) sf->valid[egdb_code_win(d)] = true;
    for (int d = 0; d <= max_loss; d++) sf->valid[egdb_code_loss(d)] = true;
    if (version == VERSION_PARTIAL) sf->valid[EGDB_CODE_WIN_SHORT] = sf->valid[EGDB_CODE_LOSS_ANY] = true;
    sf->info.slice = s;
    sf->info.positions = km_get64(h + 24);
    sf->info.wins = km_get64(h + 32);
    sf->info.losses = km_get64(h + 40);
    sf->info.draws = km_get64(h + 48);
    sf->info.max_win_dtc = max_win;
    sf->info.max_loss_dtc = max_loss;
    sf->info.file_bytes = need;
    return 0;
}

/* Read the whole file of sf (its header checked by slice_head_load) and
 * verify it; then sf->ready. stop: when it turns true, the reading ends
 * early with -1 and no message (a database closed while it loads). */
#define LOAD_CHUNK (1u << 20)
static int slice_data_load(SliceFile *sf, const atomic_bool *stop, char *err)
{
    const char *path = sf->path;
    uint64_t size;
    int fd = textio_open_regular(path, "cannot open", &size, err);
    if (fd < 0) return -1;
    int r = -1;
    uint8_t *p = NULL;
    if (size != sf->need) {
        km_fail(err, "%s: changed since the database was opened", path);
        goto out;
    }
    p = malloc((size_t)sf->need);
    if (!p) {
        km_fail(err, "%s: out of memory reading the file", path);
        goto out;
    }
    uint32_t crc = 0;
    for (size_t at = 0; at < sf->need;) {
        if (stop && atomic_load(stop)) goto out;
        size_t want = sf->need - at < LOAD_CHUNK ? (size_t)(sf->need - at) : LOAD_CHUNK;
        ssize_t k = pread(fd, p + at, want, (off_t)at);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            km_fail(err, "%s: read error: %s", path, strerror(errno));
            goto out;
        }
        if (k == 0) { /* it shrank since it was measured */
            km_fail(err, "%s: truncated (%zu bytes)", path, at);
            goto out;
        }
        /* the checksum covers everything after the header */
        size_t from = at < HEADER_BYTES ? HEADER_BYTES : at, to = at + (size_t)k;
        if (to > from) crc = textio_crc32(crc, p + from, to - from);
        at += (size_t)k;
    }
    if (memcmp(p, sf->head, HEADER_BYTES) != 0) {
        km_fail(err, "%s: changed since the database was opened", path);
        goto out;
    }
    if (km_get32(p + 80) != crc) {
        km_fail(err, "%s: corrupt data (checksum mismatch)", path);
        goto out;
    }
    if (!huff_dec_init(&sf->dec, p + HEADER_BYTES)) {
        km_fail(err, "%s: corrupt code table", path);
        goto out;
    }
    const uint8_t *index = p + HEADER_BYTES + NSYM;
    uint64_t data = km_get64(p + 72);
    for (uint32_t k = 0; k < sf->nblocks; k++)
        if (km_get32(index + 4 * k) > km_get32(index + 4 * (k + 1)) || km_get32(index + 4 * (k + 1)) > data) {
            km_fail(err, "%s: corrupt block index", path);
            goto out;
        }
    sf->index = index;
    sf->data = index + 4 * ((size_t)sf->nblocks + 1);
    sf->file = p;
    p = NULL;
    atomic_store_explicit(&sf->ready, true, memory_order_release);
    r = 0;
out:
    close(fd);
    free(p);
    return r;
}

/* Parse and verify the whole file (slice_head_load, slice_data_load). */
static int slice_file_load(const char *path, const EgdbSlice *expect, SliceFile *sf, char *err)
{
    memset(sf, 0, sizeof *sf);
    atomic_init(&sf->ready, false);
    if (slice_head_load(path, expect, sf, err) || slice_data_load(sf, NULL, err)) {
        free(sf->path);
        free(sf->file);
        memset(sf, 0, sizeof *sf);
        return -1;
    }
    return 0;
}

static bool slice_block_decode(const SliceFile *sf, uint32_t k, uint8_t *out, int *n)
{
    uint64_t lo = (uint64_t)k * sf->block;
    uint64_t cnt = sf->g.size - lo < sf->block ? sf->g.size - lo : sf->block;
    *n = (int)cnt;
    return block_decode(&sf->dec, sf->valid, sf->data + km_get32(sf->index + 4 * k),
                        sf->data + km_get32(sf->index + 4 * (k + 1)), (int)cnt, out);
}

int egdb_read_slice(const char *path, const EgdbGeom *g, uint8_t **codes, EgdbSliceInfo *info, char *err)
{
    SliceFile sf;
    if (slice_file_load(path, &g->s, &sf, err)) return -1;
    uint8_t *out = malloc((size_t)g->size + 1);
    if (!out) {
        slice_file_clear(&sf);
        return km_fail(err, "%s: out of memory", path);
    }
    for (uint32_t k = 0; k < sf.nblocks; k++) {
        int n = 0;
        if (!slice_block_decode(&sf, k, out + (uint64_t)k * sf.block, &n)) {
            free(out);
            slice_file_clear(&sf);
            return km_fail(err, "%s: corrupt block %u", path, (unsigned)k);
        }
    }
    *info = sf.info;
    *codes = out;
    slice_file_clear(&sf);
    return 0;
}

static bool parse_name(const char *name, EgdbSlice *s);

int egdb_file_info(const char *path, EgdbSliceInfo *info, char *err)
{
    /* what the name promises, as egdb_open checks it */
    const char *slash = strrchr(path, '/');
    EgdbSlice named;
    bool has_name = parse_name(slash ? slash + 1 : path, &named);
    SliceFile sf;
    if (slice_file_load(path, has_name ? &named : NULL, &sf, err)) return -1;
    /* and every block, which a probe decodes only when it needs it */
    uint8_t *out = malloc(sf.block);
    if (!out) {
        slice_file_clear(&sf);
        return km_fail(err, "%s: out of memory", path);
    }
    int r = 0;
    for (uint32_t k = 0; k < sf.nblocks && !r; k++) {
        int n = 0;
        if (!slice_block_decode(&sf, k, out, &n)) r = km_fail(err, "%s: corrupt block %u", path, (unsigned)k);
    }
    free(out);
    slice_file_clear(&sf);
    if (!r) *info = sf.info;
    return r;
}

/* ---- an opened database ---- */

/* The shared cache of decoded blocks: direct-mapped, one lock per entry, so
 * that threads probing different blocks do not wait for each other. */
typedef struct CacheEntry {
    pthread_mutex_t lock;
    int32_t slice; /* -1: empty */
    uint32_t block;
    uint8_t *data; /* the largest block of the opened files */
} CacheEntry;

struct Egdb {
    SliceFile *slice[EGDB_NSLICE_IDS];
    int pieces;
    CacheEntry *cache;
    size_t ncache;
    uint8_t *cache_data;
    char *dir;
    /* the first block found damaged by a probe: slice id + 1 (0: none), block */
    atomic_int bad_slice;
    atomic_uint bad_block;
    /* loading in the background (egdb_open_background) */
    pthread_t loader;
    bool has_loader;
    int load_pieces;           /* the piece counts loaded: pieces at the open */
    atomic_bool stop;          /* egdb_close: the loader ends early */
    atomic_bool loaded;        /* the loader is done */
    char load_err[KM_ERR_MAX]; /* its first error ("": none), read once loaded */
};

static bool parse_name(const char *name, EgdbSlice *s)
{
    int a, b, c, d, used = 0;
    if (sscanf(name, "b%1dk%1dw%1dk%1d.kdb%n", &a, &b, &c, &d, &used) != 4 || name[used] != '\0')
        return false;
    *s = (EgdbSlice){a, b, c, d};
    char check[16];
    egdb_slice_name(*s, check, sizeof check);
    return strcmp(check, name) == 0 && a + b + c + d >= 1 && a + b + c + d <= EGDB_MAX_PIECES;
}

void egdb_close(Egdb *db)
{
    if (!db) return;
    if (db->has_loader) {
        atomic_store(&db->stop, true);
        pthread_join(db->loader, NULL);
    }
    for (int i = 0; i < EGDB_NSLICE_IDS; i++) slice_file_free(db->slice[i]);
    for (size_t i = 0; i < db->ncache; i++) pthread_mutex_destroy(&db->cache[i].lock);
    free(db->cache);
    free(db->cache_data);
    free(db->dir);
    free(db);
}

/* Load the data of every slice, the fewest pieces first (so that a search
 * that starts meanwhile has the small endings soonest). Every slice is
 * tried; the first error is kept in db->load_err. */
static void load_all(Egdb *db)
{
    db->load_err[0] = '\0';
    for (int n = 1; n <= db->load_pieces; n++)
        for (int i = 0; i < egdb_slice_count(n); i++) {
            SliceFile *sf = db->slice[egdb_slice_id(egdb_slice_at(n, i))];
            char err[KM_ERR_MAX];
            if (atomic_load(&db->stop)) return;
            if (slice_data_load(sf, &db->stop, err) && !atomic_load(&db->stop) && !db->load_err[0])
                snprintf(db->load_err, sizeof db->load_err, "%s", err);
        }
}

static void *loader_main(void *arg)
{
    Egdb *db = arg;
    load_all(db);
    atomic_store_explicit(&db->loaded, true, memory_order_release);
    return NULL;
}

/* Everything but the slices' data: the headers checked, the complete piece
 * counts found, the cache allocated. */
static Egdb *open_heads(const char *dir, size_t cache_mb, char *err)
{
    egdb_tables_init();
    DIR *d = opendir(dir);
    if (!d) {
        km_fail(err, "%s: cannot open the endgame database directory: %s", dir, strerror(errno));
        return NULL;
    }
    Egdb *db = calloc(1, sizeof *db);
    if (db) db->dir = malloc(strlen(dir) + 1);
    if (!db || !db->dir) {
        free(db);
        closedir(d);
        km_fail(err, "out of memory");
        return NULL;
    }
    strcpy(db->dir, dir);
    atomic_init(&db->bad_slice, 0);
    atomic_init(&db->bad_block, 0);
    atomic_init(&db->stop, false);
    atomic_init(&db->loaded, false);
    struct dirent *e;
    int found = 0;
    while ((e = readdir(d)) != NULL) {
        EgdbSlice s;
        if (!parse_name(e->d_name, &s)) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        SliceFile *sf = calloc(1, sizeof *sf);
        if (sf) atomic_init(&sf->ready, false);
        if (!sf || slice_head_load(path, &s, sf, err)) {
            if (!sf) km_fail(err, "out of memory");
            slice_file_free(sf);
            closedir(d);
            egdb_close(db);
            return NULL;
        }
        db->slice[egdb_slice_id(s)] = sf;
        found++;
    }
    closedir(d);
    if (!found) {
        km_fail(err, "%s: no endgame database files (b*k*w*k*.kdb)", dir);
        egdb_close(db);
        return NULL;
    }
    /* Only complete piece counts are used: a slice needs all smaller ones. */
    for (int n = 1; n <= EGDB_MAX_PIECES; n++) {
        bool all = true;
        for (int i = 0; i < egdb_slice_count(n); i++)
            all = all && db->slice[egdb_slice_id(egdb_slice_at(n, i))];
        if (!all) break;
        db->pieces = n;
    }
    for (int i = 0; i < EGDB_NSLICE_IDS; i++) {
        SliceFile *sf = db->slice[i];
        if (sf && sf->g.s.bm + sf->g.s.bk + sf->g.s.wm + sf->g.s.wk > db->pieces) {
            slice_file_free(sf);
            db->slice[i] = NULL;
        }
    }
    if (db->pieces == 0) {
        km_fail(err, "%s: the endgame database is incomplete (a 1-piece slice is missing)", dir);
        egdb_close(db);
        return NULL;
    }
    uint32_t block = 1;
    for (int i = 0; i < EGDB_NSLICE_IDS; i++)
        if (db->slice[i] && db->slice[i]->block > block) block = db->slice[i]->block;
    size_t entries = (cache_mb ? cache_mb : 16) * 1024 * 1024 / (sizeof(CacheEntry) + block);
    if (entries < 16) entries = 16;
    db->cache = malloc(entries * sizeof *db->cache);
    db->cache_data = malloc(entries * block);
    if (!db->cache || !db->cache_data) {
        free(db->cache);
        db->cache = NULL;
        km_fail(err, "out of memory");
        egdb_close(db);
        return NULL;
    }
    for (size_t i = 0; i < entries; i++) {
        pthread_mutex_init(&db->cache[i].lock, NULL);
        db->cache[i].slice = -1;
        db->cache[i].data = db->cache_data + i * block;
    }
    db->ncache = entries;
    db->load_pieces = db->pieces;
    return db;
}

Egdb *egdb_open(const char *dir, size_t cache_mb, char *err)
{
    Egdb *db = open_heads(dir, cache_mb, err);
    if (!db) return NULL;
    load_all(db);
    atomic_store(&db->loaded, true);
    if (db->load_err[0]) {
        km_fail(err, "%s", db->load_err);
        egdb_close(db);
        return NULL;
    }
    return db;
}

Egdb *egdb_open_background(const char *dir, size_t cache_mb, char *err)
{
    Egdb *db = open_heads(dir, cache_mb, err);
    if (!db) return NULL;
    if (pthread_create(&db->loader, NULL, loader_main, db) != 0) {
        /* no thread: load now, as egdb_open does, but keep the database */
        load_all(db);
        atomic_store(&db->loaded, true);
        return db;
    }
    db->has_loader = true;
    return db;
}

bool egdb_loaded(const Egdb *db)
{
    return !db || atomic_load_explicit(&((Egdb *)db)->loaded, memory_order_acquire);
}

int egdb_wait(Egdb *db, char *err)
{
    if (!db) return 0;
    if (db->has_loader) {
        pthread_join(db->loader, NULL);
        db->has_loader = false;
    }
    return db->load_err[0] ? km_fail(err, "%s", db->load_err) : 0;
}

int egdb_pieces(const Egdb *db) { return db ? db->pieces : 0; }

void egdb_limit_pieces(Egdb *db, int max)
{
    if (db && max >= 1 && max < db->pieces) db->pieces = max;
}

uint64_t egdb_digest(const Egdb *db) { return egdb_digest_pieces(db, EGDB_MAX_PIECES); }

uint64_t egdb_digest_pieces(const Egdb *db, int pieces)
{
    uint64_t h = 0x6567646264696765ull;
    for (int i = 0; db && i < EGDB_NSLICE_IDS; i++) {
        const SliceFile *sf = db->slice[i];
        if (!sf) continue;
        const EgdbSlice *s = &sf->g.s;
        if (s->bm + s->bk + s->wm + s->wk > pieces) continue;
        const EgdbSliceInfo *in = &sf->info;
        h = km_mix64(h ^ (uint64_t)i);
        h = km_mix64(h ^ in->positions);
        h = km_mix64(h ^ in->wins ^ in->losses << 20 ^ in->draws << 40);
        h = km_mix64(h ^ in->file_bytes ^ (uint64_t)(uint32_t)in->max_win_dtc << 40 ^
                     (uint64_t)(uint32_t)in->max_loss_dtc << 52);
    }
    return h;
}

int egdb_damage(const Egdb *db, char *err)
{
    if (db && egdb_loaded(db) && db->load_err[0]) return km_fail(err, "%s", db->load_err);
    int id = db ? atomic_load(&db->bad_slice) - 1 : -1;
    if (id < 0) return 0;
    char name[16];
    egdb_slice_name(db->slice[id]->g.s, name, sizeof name);
    return km_fail(err, "%s/%s: corrupt block %u", db->dir, name, (unsigned)atomic_load(&db->bad_block));
}

/* The stored code of b (Black to move, no capture for Black); -1 when the
 * slice is missing or its block does not decode. */
static int lookup(const Egdb *db, const Board *b)
{
    int id = egdb_slice_id(egdb_slice_of(b));
    const SliceFile *sf = db->slice[id];
    /* a slice still loading (egdb_open_background), or whose file failed */
    if (!sf || !atomic_load_explicit(&((SliceFile *)sf)->ready, memory_order_acquire)) return -1;
    uint64_t idx = egdb_index(&sf->g, b);
    uint32_t block = (uint32_t)(idx / sf->block), off = (uint32_t)(idx % sf->block);
    CacheEntry *ce = &db->cache[km_mix64((uint64_t)id << 32 | block) % db->ncache];
    pthread_mutex_lock(&ce->lock);
    int code;
    if (ce->slice != id || ce->block != block) {
        int n = 0;
        if (!slice_block_decode(sf, block, ce->data, &n)) {
            ce->slice = -1;
            pthread_mutex_unlock(&ce->lock);
            /* remembered for egdb_damage: the position is then unknown to
             * the search, and the commands that report values say why */
            int none = 0;
            if (atomic_compare_exchange_strong(&((Egdb *)db)->bad_slice, &none, id + 1))
                atomic_store(&((Egdb *)db)->bad_block, block);
            return -1;
        }
        ce->slice = id;
        ce->block = block;
    }
    code = ce->data[off];
    pthread_mutex_unlock(&ce->lock);
    return code;
}

int egdb_probe_code(const Egdb *db, const Board *b, int *dist, bool *exact)
{
    *dist = 0;
    *exact = true;
    if (!db) return EGDB_UNKNOWN;
    uint32_t occ = board_occupied(b);
    if (bits_popcount32(occ) > db->pieces) return EGDB_UNKNOWN;
    int s = b->stm;
    if (!b->pieces[s]) return EGDB_LOSS;
    if (!b->pieces[s ^ 1]) return EGDB_WIN;
    if (mg_can_capture(b, s)) {
        /* every move is a capture, every capture a conversion: DTC 1 */
        MoveList ml;
        int n = mg_captures(b, &ml), result = EGDB_LOSS, d;
        bool ex;
        for (int i = 0; i < n; i++) {
            Board c = *b;
            mg_make_move(&c, &ml.moves[i]);
            int v = egdb_probe_code(db, &c, &d, &ex);
            if (v == EGDB_LOSS) {
                result = EGDB_WIN;
                break;
            }
            if (v == EGDB_UNKNOWN) result = EGDB_UNKNOWN;
            else if (v == EGDB_DRAW && result == EGDB_LOSS) result = EGDB_DRAW;
        }
        if (result == EGDB_WIN || result == EGDB_LOSS) *dist = 1;
        return result;
    }
    Board m;
    if (s == KM_WHITE) egdb_mirror(b, &m);
    else m = *b;
    int code = lookup(db, &m);
    if (code < 0) return EGDB_UNKNOWN;
    *dist = egdb_code_dist((uint8_t)code);
    *exact = egdb_code_has_dist((uint8_t)code);
    return egdb_code_value((uint8_t)code);
}

int egdb_probe_fast(const Egdb *db, const Board *b, int *dist)
{
    bool exact;
    return egdb_probe_code(db, b, dist, &exact);
}
