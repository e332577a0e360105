/* patterns.c - the pattern layer's tables (patterns.h): their geometry, the
 * combined tables the evaluation reads, and the process-wide set of shared
 * copies.
 *
 * Geometry: square n is bit n-1, row (n-1)/4, and the playable squares of a
 * row are its four bits in column order (board.c, board_square_from_coord). A 4 x 4
 * region whose left column is even holds two squares of each of its rows at
 * the same two bit positions of the row, so its eight bits are the bits of
 * 0x3333 shifted by 4 x row + column / 2; pat_gather_ packs them into a byte
 * in increasing square order. */
#include "kingme/patterns.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define REGION_(r, c)                   \
    {                                   \
        "r" #r "c" #c, PAT_REGION_CELLS \
    }
const PatTableInfo pat_tables[PAT_NTABLES] = {
    {"man", 32},   {"king", 32},  REGION_(0, 0), REGION_(0, 2), REGION_(0, 4), REGION_(1, 0),
    REGION_(1, 2), REGION_(1, 4), REGION_(2, 0), REGION_(2, 2), REGION_(2, 4), REGION_(3, 0),
    REGION_(3, 2), REGION_(3, 4), REGION_(4, 0), REGION_(4, 2), REGION_(4, 4),
};
#undef REGION_

/* Region r: top row r / 3, left column 2 (r % 3). */
#define REGION_ROW(r) ((r) / 3)
#define REGION_COL(r) (2 * ((r) % 3))
const uint8_t pat_region_shift[PAT_NREGIONS] = {0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 16, 17, 18};

/* pat_base3[m]: the bits of m as base-3 digits (sum of 3^j over the set bits j). */
#define B3_1(m) (((m)&1) + ((m) >> 1 & 1) * 3 + ((m) >> 2 & 1) * 9 + ((m) >> 3 & 1) * 27)
#define B3(m) (B3_1((m)&15) + 81 * B3_1((m) >> 4))
#define B3_4(m) B3(m), B3(m + 1), B3(m + 2), B3(m + 3)
#define B3_16(m) B3_4(m), B3_4(m + 4), B3_4(m + 8), B3_4(m + 12)
#define B3_64(m) B3_16(m), B3_16(m + 16), B3_16(m + 32), B3_16(m + 48)
const uint16_t pat_base3[256] = {B3_64(0), B3_64(64), B3_64(128), B3_64(192)};
#undef B3_64
#undef B3_16
#undef B3_4
#undef B3
#undef B3_1

#define D_(m, j) (((m) >> (j)&1) + 2 * ((m) >> (4 + (j)) & 1))
#define LANE_(m, k) ((uint64_t)(D_(m, k) + 3 * D_(m, (k) + 1)) << 16 * (k))
#define RC(m) (LANE_(m, 0) | LANE_(m, 1) | LANE_(m, 2))
#define RC4(m) RC(m), RC(m + 1), RC(m + 2), RC(m + 3)
#define RC16(m) RC4(m), RC4(m + 4), RC4(m + 8), RC4(m + 12)
#define RC64(m) RC16(m), RC16(m + 16), RC16(m + 32), RC16(m + 48)
const uint64_t pat_rowcode[256] = {RC64(0), RC64(64), RC64(128), RC64(192)};
#undef RC64
#undef RC16
#undef RC4
#undef RC
#undef LANE_
#undef D_

int pat_table_find(const char *name, size_t n)
{
    for (int t = 0; t < PAT_NTABLES; t++)
        if (strlen(pat_tables[t].name) == n && memcmp(pat_tables[t].name, name, n) == 0) return t;
    return -1;
}

void pat_region_squares(int r, int sq[PAT_REGION_SQUARES])
{
    int k = 0;
    for (int row = REGION_ROW(r); row < REGION_ROW(r) + 4; row++)
        for (int i = REGION_COL(r) / 2; i < REGION_COL(r) / 2 + 2; i++) sq[k++] = 4 * row + i + 1;
}

int16_t *pat_cells(EvalPatterns *p, int t, int ph)
{
    return t == PAT_MAN_TABLE ? p->man[ph] : t == PAT_KING_TABLE ? p->king[ph] : p->region[ph][t - 2];
}

const int16_t *pat_cells_const(const EvalPatterns *p, int t, int ph)
{
    return pat_cells((EvalPatterns *)p, t, ph);
}

EvalPatterns *pat_new(void) { return calloc(1, sizeof(EvalPatterns)); }

/* The cell of the same squares seen from the other side: the region turned
 * round (r -> PAT_NREGIONS - 1 - r), its squares in reverse order, the
 * colours swapped. */
static int turned_cell(int cell)
{
    int d[PAT_REGION_SQUARES], out = 0;
    for (int j = 0; j < PAT_REGION_SQUARES; j++, cell /= 3) d[j] = cell % 3;
    for (int j = PAT_REGION_SQUARES - 1; j >= 0; j--)
        out = out * 3 + (d[PAT_REGION_SQUARES - 1 - j] ? 3 - d[PAT_REGION_SQUARES - 1 - j] : 0);
    return out;
}

/* The region each square's man weight is folded into: the covering region
 * with the fewest squares so far (at most 3 each; PAT_WEIGHT_MAX relies on it). */
static int home_region[32];
static pthread_once_t geometry_once = PTHREAD_ONCE_INIT;
static void geometry_init(void)
{
    int homes[PAT_NREGIONS] = {0};
    for (int s = 1; s <= 32; s++) {
        int best = -1;
        for (int r = 0; r < PAT_NREGIONS; r++) {
            int sq[PAT_REGION_SQUARES];
            pat_region_squares(r, sq);
            for (int j = 0; j < PAT_REGION_SQUARES; j++)
                if (sq[j] == s && (best < 0 || homes[r] < homes[best])) best = r;
        }
        home_region[s - 1] = best;
        homes[best]++;
    }
}

/* The digit of square s in a cell of region r (-1 when r does not hold s). */
static int digit_of(int r, int cell, int s)
{
    int sq[PAT_REGION_SQUARES];
    pat_region_squares(r, sq);
    for (int j = 0; j < PAT_REGION_SQUARES; j++, cell /= 3)
        if (sq[j] == s) return cell % 3;
    return -1;
}

void pat_finish(EvalPatterns *p)
{
    pthread_once(&geometry_once, geometry_init);
    uint64_t h = 0x7061747465726E73ull;
    for (int ph = 0; ph < 2; ph++)
        for (int t = 0; t < PAT_NTABLES; t++) {
            const int16_t *c = pat_cells(p, t, ph);
            for (int i = 0; i < pat_tables[t].cells; i++)
                if (c[i])
                    h = km_mix64(h ^ (uint16_t)c[i] ^ ((uint64_t)i << 16) ^ ((uint64_t)(t * 2 + ph) << 40));
        }
    p->key = h;
    for (int r = 0; r < PAT_NREGIONS; r++) {
        int turned = PAT_NREGIONS - 1 - r;
        int sq[PAT_REGION_SQUARES], homes[PAT_REGION_SQUARES], nh = 0;
        pat_region_squares(r, sq);
        for (int j = 0; j < PAT_REGION_SQUARES; j++)
            if (home_region[sq[j] - 1] == r) homes[nh++] = sq[j];
        for (int cell = 0; cell < PAT_REGION_CELLS; cell++) {
            int tc = turned_cell(cell);
            int32_t v[2];
            for (int ph = 0; ph < 2; ph++) {
                v[ph] = p->region[ph][r][cell] - p->region[ph][turned][tc];
                for (int k = 0; k < nh; k++) {
                    int d = digit_of(r, cell, homes[k]);
                    if (d == 1) v[ph] += p->man[ph][homes[k] - 1];
                    if (d == 2) v[ph] -= p->man[ph][32 - homes[k]];
                }
            }
            p->ready[r][cell] = (uint16_t)(int16_t)v[0] | (uint32_t)(uint16_t)(int16_t)v[1] << 16;
        }
    }
    /* a king is counted by its region as a piece, and by the man table as a
     * man (folded in): the king table's ready weight takes the man's out */
    for (int ph = 0; ph < 2; ph++)
        for (int s = 0; s < 32; s++) {
            p->ready_king[KM_BLACK][ph][s] = p->king[ph][s] - p->man[ph][s];
            p->ready_king[KM_WHITE][ph][s] = -(p->king[ph][31 - s] - p->man[ph][31 - s]);
        }
}

static uint32_t turn32(uint32_t x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
    x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
    return (x >> 16) | (x << 16);
}

void pat_features(const Board *b, PatFeatures *f)
{
    for (int c = 0; c < 2; c++) {
        /* the board from c's own view: White's turned round */
        Board v = *b;
        if (c == KM_WHITE) {
            v.pieces[KM_BLACK] = turn32(b->pieces[KM_WHITE]);
            v.pieces[KM_WHITE] = turn32(b->pieces[KM_BLACK]);
            v.kings = turn32(b->kings);
        }
        for (int r = 0; r < PAT_NREGIONS; r++) f->region[c][r] = (uint16_t)pat_region_index(&v, r);
        uint32_t men = v.pieces[KM_BLACK] & ~v.kings, kings = v.pieces[KM_BLACK] & v.kings;
        f->nmen[c] = f->nkings[c] = 0;
        while (men) f->men[c][f->nmen[c]++] = (uint8_t)(__builtin_ctz(men) + 1), men &= men - 1;
        while (kings) f->kings[c][f->nkings[c]++] = (uint8_t)(__builtin_ctz(kings) + 1), kings &= kings - 1;
    }
}

int32_t pat_table_part(const EvalPatterns *p, int t, int ph, const PatFeatures *f, int side)
{
    const int16_t *c = pat_cells_const(p, t, ph);
    int32_t v = 0;
    for (int k = 0; k < 2; k++) {
        int colour = k ? side ^ 1 : side;
        int32_t x = 0;
        if (t == PAT_MAN_TABLE)
            for (int i = 0; i < f->nmen[colour]; i++) x += c[f->men[colour][i] - 1];
        else if (t == PAT_KING_TABLE)
            for (int i = 0; i < f->nkings[colour]; i++) x += c[f->kings[colour][i] - 1];
        else x = c[f->region[colour][t - 2]];
        v += k ? -x : x;
    }
    return v;
}

void pat_score_written(const EvalPatterns *p, const Board *b, int side, int32_t *open, int32_t *end)
{
    PatFeatures f;
    pat_features(b, &f);
    for (int ph = 0; ph < 2; ph++) {
        int32_t s = 0;
        for (int t = 0; t < PAT_NTABLES; t++) s += pat_table_part(p, t, ph, &f, side);
        *(ph ? end : open) = s;
    }
}

void pat_cell_text(int cell, char buf[9])
{
    for (int j = 0; j < PAT_REGION_SQUARES; j++, cell /= 3) buf[j] = ".xo"[cell % 3];
    buf[PAT_REGION_SQUARES] = '\0';
}

/* ---- shared copies ------------------------------------------------------ */

static pthread_mutex_t interned_lock = PTHREAD_MUTEX_INITIALIZER;
static struct Interned {
    EvalPatterns *p;
    struct Interned *next;
} * interned;

static bool same_weights(const EvalPatterns *a, const EvalPatterns *b)
{
    return memcmp(a->man, b->man, sizeof a->man) == 0 && memcmp(a->king, b->king, sizeof a->king) == 0 &&
           memcmp(a->region, b->region, sizeof a->region) == 0;
}

const EvalPatterns *pat_intern(EvalPatterns *p)
{
    if (!p) return NULL;
    pat_finish(p);
    pthread_mutex_lock(&interned_lock);
    for (struct Interned *i = interned; i; i = i->next)
        if (i->p->key == p->key && same_weights(i->p, p)) {
            pthread_mutex_unlock(&interned_lock);
            free(p);
            return i->p;
        }
    struct Interned *n = malloc(sizeof *n);
    if (!n) {
        pthread_mutex_unlock(&interned_lock);
        free(p);
        return NULL;
    }
    n->p = p;
    n->next = interned;
    interned = n;
    pthread_mutex_unlock(&interned_lock);
    return p;
}
