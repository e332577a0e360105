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
    uint64_t size; /* indices, holes included */
} EgdbGeom;

void egdb_tables_init(void); /* idempotent, thread-safe */
void egdb_geom(EgdbSlice s, EgdbGeom *g);
/* b: a position of slice g->s (the side to move is ignored). */
uint64_t egdb_index(const EgdbGeom *g, const Board *b);
/* The position of idx with Black to move; false for a hole. */
bool egdb_unindex(const EgdbGeom *g, uint64_t idx, Board *b);
/* Dense number of a slice (each count 0..6). */
static inline int egdb_slice_id(EgdbSlice s) { return ((s.bm * 7 + s.bk) * 7 + s.wm) * 7 + s.wk; }
#define EGDB_NSLICE_IDS (7 * 7 * 7 * 7)
static inline EgdbSlice egdb_slice_mirror(EgdbSlice s) { return (EgdbSlice){s.wm, s.wk, s.bm, s.bk}; }

/* One byte per position, Black to move:
 *   0          draw
 *   2d-1       win, DTC d (1..127)
 *   2d+2       loss, DTC d (0..126)
 *   255        no value: a hole, or White has no piece (Black has won) */
#define EGDB_CODE_DRAW 0
#define EGDB_CODE_NONE 255
#define EGDB_MAX_WIN_DTC 127
#define EGDB_MAX_LOSS_DTC 126
static inline uint8_t egdb_code_win(int d) { return (uint8_t)(2 * d - 1); }
static inline uint8_t egdb_code_loss(int d) { return (uint8_t)(2 * d + 2); }
static inline int egdb_code_value(uint8_t c)
{
    return c == EGDB_CODE_DRAW ? EGDB_DRAW : c == EGDB_CODE_NONE ? EGDB_UNKNOWN : (c & 1) ? EGDB_WIN : EGDB_LOSS;
}
static inline int egdb_code_dist(uint8_t c)
{
    return c == EGDB_CODE_DRAW || c == EGDB_CODE_NONE ? 0 : (c & 1) ? (c + 1) / 2 : (c - 2) / 2;
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

/* ---- files (egdb_file.c) ---- */
/* Write the codes of slice s (g->size bytes) to dir as its file, through a
 * temporary name. info gets the counts. */
int egdb_write_slice(const char *dir, const EgdbGeom *g, const uint8_t *codes, EgdbSliceInfo *info,
                     char *err);
/* Read and verify a slice file and decode it whole (malloc'd, g->size bytes). */
int egdb_read_slice(const char *path, const EgdbGeom *g, uint8_t **codes, EgdbSliceInfo *info,
                    char *err);
/* The counts of a decoded slice. */
void egdb_count_codes(const EgdbGeom *g, const uint8_t *codes, EgdbSliceInfo *info);

#endif
