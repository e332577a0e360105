/* tt.h - the transposition table: what a search learnt about positions,
 * kept from one search to the next (an engine session keeps it for the whole
 * game). A Searcher refers to a table. The threads of one search share it
 * (search.h, search_set_threads), so every entry is written so that they
 * can (TTSlot below); different searches should not (their results would
 * mix).
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

/* One entry as the search sees it (tt_probe gives a copy). */
typedef struct TTEntry {
    uint64_t key;
    int32_t score;
    int8_t depth;
    uint8_t flag_gen; /* flag (2 bits) | generation << 2 */
    uint8_t move;     /* index in the generated move list (generation is deterministic) */
    uint8_t to;       /* that move's destination + 1, a cheap extra check */
} TTEntry;

/* One entry as it is stored: the data packed in one 64-bit word, and the key
 * xor-ed with it in the other (Hyatt and Mann's lockless table). Threads
 * sharing a table read and write each word whole (relaxed atomics: plain
 * moves on x86-64); an entry torn by two writers at once no longer matches
 * its key, so a probe never sees one writer's key with another's data. */
typedef struct TTSlot {
    uint64_t check; /* key ^ data */
    uint64_t data;  /* score (32 bits) | depth << 32 | flag_gen << 40 | move << 48 | to << 56 */
} TTSlot;

typedef struct TT {
    TTSlot *e;
    size_t mask; /* entries - 1 (a power of two, at least 1 bucket) */
    uint8_t gen; /* 0..63, advanced by tt_new_search */
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

static inline uint64_t tt_load_(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void tt_put_(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }

/* The packed data word of an entry, and back (the layout of TTSlot.data). */
static inline uint64_t tt_pack_(int32_t score, int depth, int flag_gen, int move, int to)
{
    return (uint64_t)(uint32_t)score | (uint64_t)(uint8_t)(int8_t)depth << 32 |
           (uint64_t)(uint8_t)flag_gen << 40 | (uint64_t)(uint8_t)move << 48 | (uint64_t)(uint8_t)to << 56;
}
static inline void tt_unpack_(uint64_t d, TTEntry *e)
{
    e->score = (int32_t)(uint32_t)d;
    e->depth = (int8_t)(uint8_t)(d >> 32);
    e->flag_gen = (uint8_t)(d >> 40);
    e->move = (uint8_t)(d >> 48);
    e->to = (uint8_t)(d >> 56);
}

/* The entry for key into *out: false when there is none. */
static inline bool tt_probe(const TT *t, uint64_t key, TTEntry *out)
{
    TTSlot *b = &t->e[(key & t->mask) & ~(size_t)1];
    for (int i = 0; i < 2; i++) {
        uint64_t d = tt_load_(&b[i].data);
        if ((tt_load_(&b[i].check) ^ d) != key) continue;
        tt_unpack_(d, out);
        if (tt_flag(out) == TT_NONE) continue;
        out->key = key;
        return true;
    }
    return false;
}

/* Store a result. Replacement: the slot already holding key; else slot 0 when
 * this result is at least as deep or slot 0 is from an earlier search; else
 * slot 1. */
static inline void tt_store(TT *t, uint64_t key, int32_t score, int depth, int flag, int move, int to)
{
    TTSlot *b = &t->e[(key & t->mask) & ~(size_t)1];
    uint64_t d0 = tt_load_(&b[0].data);
    TTEntry e0;
    tt_unpack_(d0, &e0);
    TTSlot *e;
    if ((tt_load_(&b[0].check) ^ d0) == key) e = &b[0];
    else if ((tt_load_(&b[1].check) ^ tt_load_(&b[1].data)) == key) e = &b[1];
    else if (depth >= e0.depth || (e0.flag_gen >> 2) != t->gen) e = &b[0];
    else e = &b[1];
    uint64_t d = tt_pack_(score, depth > 127 ? 127 : depth, flag | (t->gen << 2), move, to);
    tt_put_(&e->check, key ^ d);
    tt_put_(&e->data, d);
}

#endif
