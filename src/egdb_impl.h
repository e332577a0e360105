/* egdb_impl.h - what the endgame-database modules share (not public):
 * the slice index, the value codes, the file reader and writer. */
#ifndef KINGME_EGDB_IMPL_H
#define KINGME_EGDB_IMPL_H

#include "kingme/egdb.h"

#include <stdint.h>

/* A slice's index: black men (squares 1-28) as a combination of 28, white
 * men (5-32) likewise, then black kings among the squares the men leave free,
 * then white kings among those the black kings leave. Index = ((bm * Nwm +
 * wm) * Nbk + bk) * Nwk + wk, so kings vary fastest. Black and white men on
 * the same square make a hole: an index that is no position. */
typedef struct EgdbGeom {
    EgdbSlice s;
    uint32_t nbm, nwm, nbk, nwk;
    uint64_t size;          /* indices, holes included */
    uint64_t mwm, mbk, mwk; /* 2^64 / n rounded up, to divide by n by a multiplication */
} EgdbGeom;

void egdb_tables_init(void); /* idempotent, thread-safe */
void egdb_geom(EgdbSlice s, EgdbGeom *g);
/* b: a position of slice g->s (the side to move is ignored). */
uint64_t egdb_index(const EgdbGeom *g, const Board *b);
/* The position of idx with Black to move; false for a hole. */
bool egdb_unindex(const EgdbGeom *g, uint64_t idx, Board *b);
/* Every index of [lo, hi) in order, faster than egdb_unindex of each:
 *   EgdbScan sc; egdb_scan_start(&sc, g, lo, hi);
 *   Board b; bool real; for (uint64_t i = lo; egdb_scan_next(&sc, &b, &real); i++) ...
 * real is false for a hole (b is then not a position). */
typedef struct EgdbScan {
    const EgdbGeom *g;
    uint64_t idx, end;
    uint32_t rbm, rwm, rbk, rwk;
    bool hole;
    uint32_t bmen, wmen, free, bk;
    uint8_t wsq[32]; /* the squares white kings may take, in order */
} EgdbScan;
void egdb_scan_start(EgdbScan *sc, const EgdbGeom *g, uint64_t lo, uint64_t hi);
bool egdb_scan_next(EgdbScan *sc, Board *b, bool *real);
/* Dense number of a slice (each count 0..6). */
static inline int egdb_slice_id(EgdbSlice s) { return ((s.bm * 7 + s.bk) * 7 + s.wm) * 7 + s.wk; }
#define EGDB_NSLICE_IDS (7 * 7 * 7 * 7)
static inline EgdbSlice egdb_slice_mirror(EgdbSlice s) { return (EgdbSlice){s.wm, s.wk, s.bm, s.bk}; }

/* One byte per position, Black to move:
 *   0          draw
 *   2d-1       win, DTC d (1..125)
 *   2d+2       loss, DTC d (0..124)
 *   253        win, DTC at most EGDB_SHORT_DTC, not kept
 *   254        loss, DTC not kept
 *   255        no value: a hole, or White has no piece (Black has won)
 * Slices of at most EGDB_FULL_DTC_PIECES pieces keep every DTC (format
 * version 1). Larger ones (version 2) keep the DTC of the wins longer than
 * EGDB_SHORT_DTC only: 6-piece files with every DTC would take twice the
 * room. The others are found by a search of a few plies (egdb_dtc.c): a
 * short win's by looking for a conversion within k plies, k = 1, 2, ...; a
 * loss's as one more than the longest of its moves'. */
#define EGDB_CODE_DRAW 0
#define EGDB_CODE_WIN_SHORT 253
#define EGDB_CODE_LOSS_ANY 254
#define EGDB_CODE_NONE 255
#define EGDB_MAX_WIN_DTC 125
#define EGDB_MAX_LOSS_DTC 124
#define EGDB_SHORT_DTC 3
#define EGDB_FULL_DTC_PIECES 5
static inline uint8_t egdb_code_win(int d) { return (uint8_t)(2 * d - 1); }
static inline uint8_t egdb_code_loss(int d) { return (uint8_t)(2 * d + 2); }
static inline int egdb_code_value(uint8_t c)
{
    return c == EGDB_CODE_DRAW   ? EGDB_DRAW
           : c == EGDB_CODE_NONE ? EGDB_UNKNOWN
           : (c & 1)             ? EGDB_WIN
                                 : EGDB_LOSS;
}
/* Whether c carries its DTC (a draw counts 0). */
static inline bool egdb_code_has_dist(uint8_t c)
{
    return c != EGDB_CODE_WIN_SHORT && c != EGDB_CODE_LOSS_ANY;
}
/* The DTC of c; for the codes without one a bound: EGDB_SHORT_DTC for a
 * short win, 0 for a loss. */
static inline int egdb_code_dist(uint8_t c)
{
    return c == EGDB_CODE_DRAW || c == EGDB_CODE_NONE || c == EGDB_CODE_LOSS_ANY ? 0
           : c == EGDB_CODE_WIN_SHORT                                            ? EGDB_SHORT_DTC
           : (c & 1)                                                             ? (c + 1) / 2
                                                                                 : (c - 2) / 2;
}
/* The code a file stores for c: partial, one of version 2. */
static inline uint8_t egdb_code_stored(uint8_t c, bool partial)
{
    if (!partial || c == EGDB_CODE_DRAW || c == EGDB_CODE_NONE) return c;
    if (!(c & 1)) return EGDB_CODE_LOSS_ANY;
    return egdb_code_dist(c) <= EGDB_SHORT_DTC ? EGDB_CODE_WIN_SHORT : c;
}

/* Turn the board round and swap the colours (board_mirror, inlined). */
static inline uint32_t egdb_rev32(uint32_t x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
    return __builtin_bswap32(x);
}
static inline void egdb_mirror(const Board *in, Board *out)
{
    Board r;
    r.pieces[KM_BLACK] = egdb_rev32(in->pieces[KM_WHITE]);
    r.pieces[KM_WHITE] = egdb_rev32(in->pieces[KM_BLACK]);
    r.kings = egdb_rev32(in->kings);
    r.stm = 1 - in->stm;
    *out = r;
}

/* ---- probing (egdb_file.c; egdb_dtc.c above it: egdb_probe, the DTCs
 * the files leave out, egdb_best_move) ---- */
/* egdb_probe without the search for a DTC the file does not keep: *exact
 * says whether *dist is the DTC or the bound of egdb_code_dist. */
int egdb_probe_code(const Egdb *db, const Board *b, int *dist, bool *exact);

/* ---- files (egdb_file.c) ---- */
/* Write the codes of slice s (g->size bytes) to dir as its file, through a
 * temporary name. info gets the counts. */
int egdb_write_slice(const char *dir, const EgdbGeom *g, const uint8_t *codes, bool partial,
                     EgdbSliceInfo *info, char *err);
/* Read and verify a slice file and decode it whole (malloc'd, g->size bytes). */
int egdb_read_slice(const char *path, const EgdbGeom *g, uint8_t **codes, EgdbSliceInfo *info, char *err);
/* The counts of a decoded slice. */
void egdb_count_codes(const EgdbGeom *g, const uint8_t *codes, EgdbSliceInfo *info);

#endif
