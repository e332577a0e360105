/* tt.h - the transposition table: what a search learnt about positions,
 * kept from one search to the next (an engine session keeps it for the whole
 * game). A Searcher refers to a table; several searches must not use one
 * table at the same time (it has no locks).
 *
 * Entries are 16 bytes in buckets of two: slot 0 keeps the deepest result
 * (of the current search or one still of use), slot 1 the latest. Each entry
 * carries the table's generation when it was written, so that entries left
 * by earlier searches give way first (ageing across moves). Keys are the full
 * 64 bits: the caller mixes into them whatever must never be confused (the
 * weight vector and the side the scores are for). */
#ifndef KINGME_TT_H
#define KINGME_TT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { TT_NONE = 0, TT_EXACT = 1, TT_LOWER = 2, TT_UPPER = 3 };

typedef struct TTEntry {
    uint64_t key;
    int32_t score;
    int8_t depth;
    uint8_t flag_gen; /* flag (2 bits) | generation << 2 */
    uint8_t move;     /* index in the generated move list (generation is deterministic) */
    uint8_t to;       /* that move's destination + 1, a cheap extra check */
} TTEntry;

typedef struct TT {
    TTEntry *e;
    size_t mask;      /* entries - 1 (a power of two, at least 1 bucket) */
    uint8_t gen;      /* 0..63, advanced by tt_new_search */
} TT;

/* The largest power-of-two table that fits in mb megabytes (0: none). */
size_t tt_entries_for_mb(size_t mb);

/* Allocate a table of about mb megabytes (mb 0: an empty table, t->e NULL).
 * Returns 0, or -1 with a message in err (KM_ERR_MAX bytes). */
int tt_init(TT *t, size_t mb, char *err);
void tt_free(TT *t);
/* Forget everything (a new game). */
void tt_clear(TT *t);
/* A new search begins: entries written before become older. */
void tt_new_search(TT *t);

static inline bool tt_present(const TT *t) { return t && t->e; }
static inline int tt_flag(const TTEntry *e) { return e->flag_gen & 3; }

/* Ask for key's bucket to be brought into the cache (a probe follows). */
static inline void tt_prefetch(const TT *t, uint64_t key)
{
    if (t && t->e) __builtin_prefetch(&t->e[(key & t->mask) & ~(size_t)1]);
}

/* The entry for key, or NULL. */
static inline TTEntry *tt_probe(const TT *t, uint64_t key)
{
    TTEntry *b = &t->e[(key & t->mask) & ~(size_t)1];
    if (b[0].key == key && tt_flag(&b[0]) != TT_NONE) return &b[0];
    if (b[1].key == key && tt_flag(&b[1]) != TT_NONE) return &b[1];
    return NULL;
}

/* Store a result. Replacement: the slot already holding key; else slot 0 when
 * this result is at least as deep or slot 0 is from an earlier search; else
 * slot 1. */
static inline void tt_store(TT *t, uint64_t key, int32_t score, int depth, int flag, int move, int to)
{
    TTEntry *b = &t->e[(key & t->mask) & ~(size_t)1];
    TTEntry *e;
    if (b[0].key == key) e = &b[0];
    else if (b[1].key == key) e = &b[1];
    else if (depth >= b[0].depth || (b[0].flag_gen >> 2) != t->gen) e = &b[0];
    else e = &b[1];
    e->key = key;
    e->score = score;
    e->depth = (int8_t)(depth > 127 ? 127 : depth);
    e->flag_gen = (uint8_t)(flag | (t->gen << 2));
    e->move = (uint8_t)move;
    e->to = (uint8_t)to;
}

#endif
