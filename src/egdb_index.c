/* egdb_index.c - slices and the index of a position within its slice. */
#include "egdb_impl.h"
#include "kingme/bits.h"

#include <pthread.h>
#include <stdio.h>

static uint32_t binom[33][33];  /* binom[n][k] = C(n, k) */
static uint8_t select8[256][8]; /* select8[byte][i]: the bit number of byte's i-th set bit */
/* unrank_k[r]: the k-subset of 0..31 of colex rank r (the r-th k-bit number
 * in increasing order). A colex rank does not depend on n, so one table per
 * k serves every slice: 4.6 MB for k up to 6, filled once. */
static uint32_t unrank1[32], unrank2[496], unrank3[4960], unrank4[35960], unrank5[201376], unrank6[906192];
static uint32_t *const unrank_tab[EGDB_MAX_PIECES + 1] = {NULL,    unrank1, unrank2, unrank3,
                                                          unrank4, unrank5, unrank6};
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void tables_fill(void)
{
    for (int n = 0; n <= 32; n++) {
        binom[n][0] = 1;
        for (int k = 1; k <= n; k++) binom[n][k] = binom[n - 1][k - 1] + (k <= n - 1 ? binom[n - 1][k] : 0);
    }
    for (int v = 0; v < 256; v++)
        for (int b = 0, i = 0; b < 8; b++)
            if (v >> b & 1) select8[v][i++] = (uint8_t)b;
    for (int k = 1; k <= EGDB_MAX_PIECES; k++) {
        uint32_t x = (1u << k) - 1; /* Gosper's hack: the next number with as many bits */
        for (uint32_t r = 0; r < binom[32][k]; r++) {
            unrank_tab[k][r] = x;
            uint32_t c = x & -x, t = x + c;
            x = t ? (((t ^ x) >> 2) / c) | t : 0;
        }
    }
}

void egdb_tables_init(void) { pthread_once(&tables_once, tables_fill); }

/* ---- slices ---- */

/* Build order within n pieces: by the number of men (bm + wm), fewest first,
 * since a crowning moves a position into the slice with one man fewer; then
 * by (bm, bk, wm) for a fixed order. */
int egdb_slice_count(int n)
{
    if (n < 1 || n > EGDB_MAX_PIECES) return 0;
    return (n + 3) * (n + 2) * (n + 1) / 6; /* compositions of n into 4 parts */
}

EgdbSlice egdb_slice_at(int n, int i)
{
    int k = 0;
    for (int men = 0; men <= n; men++)
        for (int bm = 0; bm <= men; bm++)
            for (int bk = 0; bk <= n - men; bk++) {
                EgdbSlice s = {bm, bk, men - bm, n - men - bk};
                if (k++ == i) return s;
            }
    return (EgdbSlice){0, 0, 0, 0};
}

EgdbSlice egdb_slice_of(const Board *b)
{
    return (EgdbSlice){bits_popcount32(board_men(b, KM_BLACK)), bits_popcount32(board_kings(b, KM_BLACK)),
                       bits_popcount32(board_men(b, KM_WHITE)), bits_popcount32(board_kings(b, KM_WHITE))};
}

void egdb_slice_name(EgdbSlice s, char *buf, size_t len)
{
    snprintf(buf, len, "b%dk%dw%dk%d.kdb", s.bm, s.bk, s.wm, s.wk);
}

void egdb_geom(EgdbSlice s, EgdbGeom *g)
{
    egdb_tables_init();
    g->s = s;
    g->nbm = binom[28][s.bm];
    g->nwm = binom[28][s.wm];
    g->nbk = binom[32 - s.bm - s.wm][s.bk];
    g->nwk = binom[32 - s.bm - s.wm - s.bk][s.wk];
    g->size = (uint64_t)g->nbm * g->nwm * g->nbk * g->nwk;
    g->mwm = UINT64_MAX / g->nwm + 1;
    g->mbk = UINT64_MAX / g->nbk + 1;
    g->mwk = UINT64_MAX / g->nwk + 1;
}

/* x / n for 32-bit x and n, m = 2^64 / n rounded up (0 for n = 1): exact
 * (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019),
 * and several times faster than a division. */
__extension__ typedef unsigned __int128 u128;
static inline uint32_t fast_div(uint32_t x, uint64_t m) { return m ? (uint32_t)(((u128)m * x) >> 64) : x; }

uint64_t egdb_slice_positions(EgdbSlice s)
{
    egdb_tables_init();
    /* Black men on 1-28, White men on 5-32: split by how many of each stand
     * on the shared squares 5-28 (24 of them). */
    uint64_t men = 0;
    for (int a = 0; a <= s.bm; a++)       /* black men on 1-4 */
        for (int c = 0; c <= s.wm; c++) { /* white men on 29-32 */
            int bmid = s.bm - a, wmid = s.wm - c;
            if (bmid + wmid > 24) continue;
            men += (uint64_t)binom[4][a] * binom[4][c] * binom[24][bmid] * binom[24 - bmid][wmid];
        }
    return men * binom[32 - s.bm - s.wm][s.bk] * binom[32 - s.bm - s.wm - s.bk][s.wk];
}

/* ---- index ---- */

static inline uint32_t comb_rank(uint32_t set)
{
    uint32_t r = 0;
    for (int i = 1; set; i++) r += binom[bits_poplsb32(&set)][i];
    return r;
}

/* r < C(n, k) names a subset of 0..n-1 whatever n is (colex order). */
static inline uint32_t comb_unrank(uint32_t r, int k) { return k ? unrank_tab[k][r] : 0; }

/* The squares of x as positions among the set bits of free. */
static inline uint32_t compress_bits(uint32_t x, uint32_t free)
{
    uint32_t out = 0;
    while (x) {
        int sq = bits_poplsb32(&x);
        out |= 1u << bits_popcount32(free & ((1u << sq) - 1));
    }
    return out;
}

/* The square of the p-th set bit of free (p counted from 0). */
static inline int select_bit(uint32_t free, int p)
{
    for (int byte = 0;; byte++, free >>= 8) {
        int c = bits_popcount32(free & 0xFF);
        if (p < c) return 8 * byte + select8[free & 0xFF][p];
        p -= c;
    }
}

static inline uint32_t expand_bits(uint32_t x, uint32_t free)
{
    uint32_t out = 0;
    while (x) out |= 1u << select_bit(free, bits_poplsb32(&x));
    return out;
}

uint64_t egdb_index(const EgdbGeom *g, const Board *b)
{
    uint32_t bmen = board_men(b, KM_BLACK), wmen = board_men(b, KM_WHITE);
    uint32_t bk = board_kings(b, KM_BLACK), wk = board_kings(b, KM_WHITE);
    uint32_t free = ~(bmen | wmen);
    uint64_t r = comb_rank(bmen);
    r = r * g->nwm + comb_rank(wmen >> 4);
    r = r * g->nbk + (g->s.bk ? comb_rank(compress_bits(bk, free)) : 0);
    r = r * g->nwk + (g->s.wk ? comb_rank(compress_bits(wk, free & ~bk)) : 0);
    return r;
}

bool egdb_unindex(const EgdbGeom *g, uint64_t idx64, Board *b)
{
    /* every slice of up to EGDB_MAX_PIECES has fewer than 2^32 indices */
    uint32_t idx = (uint32_t)idx64;
    uint32_t q = fast_div(idx, g->mwk), rwk = idx - q * g->nwk;
    idx = q;
    q = fast_div(idx, g->mbk);
    uint32_t rbk = idx - q * g->nbk;
    idx = q;
    uint32_t rbm = fast_div(idx, g->mwm), rwm = idx - rbm * g->nwm;
    const EgdbSlice s = g->s;
    uint32_t bmen = comb_unrank(rbm, s.bm);
    uint32_t wmen = comb_unrank(rwm, s.wm) << 4;
    if (bmen & wmen) return false;
    uint32_t free = ~(bmen | wmen);
    uint32_t bk = expand_bits(comb_unrank(rbk, s.bk), free);
    uint32_t wk = expand_bits(comb_unrank(rwk, s.wk), free & ~bk);
    b->pieces[KM_BLACK] = bmen | bk;
    b->pieces[KM_WHITE] = wmen | wk;
    b->kings = bk | wk;
    b->stm = KM_BLACK;
    return true;
}

/* ---- scanning a range of indices ---- */

static void scan_set_kings(EgdbScan *sc)
{
    sc->bk = expand_bits(comb_unrank(sc->rbk, sc->g->s.bk), sc->free);
    if (!sc->g->s.wk) return;
    uint32_t f = sc->free & ~sc->bk;
    for (int n = 0; f; n++) sc->wsq[n] = (uint8_t)bits_poplsb32(&f);
}

static void scan_set_men(EgdbScan *sc)
{
    sc->bmen = comb_unrank(sc->rbm, sc->g->s.bm);
    sc->wmen = comb_unrank(sc->rwm, sc->g->s.wm) << 4;
    sc->hole = (sc->bmen & sc->wmen) != 0;
    sc->free = ~(sc->bmen | sc->wmen);
    if (!sc->hole) scan_set_kings(sc);
}

void egdb_scan_start(EgdbScan *sc, const EgdbGeom *g, uint64_t lo, uint64_t hi)
{
    egdb_tables_init();
    sc->g = g;
    sc->idx = lo;
    sc->end = hi;
    if (lo >= hi) return;
    uint32_t idx = (uint32_t)lo;
    sc->rwk = idx % g->nwk;
    idx /= g->nwk;
    sc->rbk = idx % g->nbk;
    idx /= g->nbk;
    sc->rwm = idx % g->nwm;
    sc->rbm = idx / g->nwm;
    scan_set_men(sc);
}

bool egdb_scan_next(EgdbScan *sc, Board *b, bool *real)
{
    if (sc->idx >= sc->end) return false;
    const EgdbGeom *g = sc->g;
    *real = !sc->hole;
    if (!sc->hole) {
        uint32_t wk = 0, set = comb_unrank(sc->rwk, g->s.wk);
        while (set) wk |= 1u << sc->wsq[bits_poplsb32(&set)];
        b->pieces[KM_BLACK] = sc->bmen | sc->bk;
        b->pieces[KM_WHITE] = sc->wmen | wk;
        b->kings = sc->bk | wk;
        b->stm = KM_BLACK;
    }
    if (++sc->idx < sc->end && ++sc->rwk == g->nwk) {
        sc->rwk = 0;
        if (++sc->rbk == g->nbk) {
            sc->rbk = 0;
            if (++sc->rwm == g->nwm) {
                sc->rwm = 0;
                sc->rbm++;
            }
            scan_set_men(sc);
        } else if (!sc->hole) scan_set_kings(sc);
    }
    return true;
}

void egdb_random_position(int n, uint64_t *rng, Board *b)
{
    egdb_tables_init();
    uint64_t total = 0;
    for (int i = 0; i < egdb_slice_count(n); i++) {
        EgdbGeom g;
        egdb_geom(egdb_slice_at(n, i), &g);
        total += g.size;
    }
    for (;;) {
        uint64_t r = km_rng_next(rng) % total;
        for (int i = 0; i < egdb_slice_count(n); i++) {
            EgdbGeom g;
            egdb_geom(egdb_slice_at(n, i), &g);
            if (r >= g.size) {
                r -= g.size;
                continue;
            }
            if (!egdb_unindex(&g, r, b)) break;
            if (km_rng_next(rng) & 1) board_mirror(b, b); /* White to move */
            return;
        }
    }
}
