/* tt.c - the transposition table (tt.h). */
#define _DEFAULT_SOURCE /* madvise */
#include "kingme/tt.h"
#include "kingme/base.h"
#include "kingme/memlimit.h"
#include "port.h"

#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <sys/mman.h>
#endif

#define TT_ALIGN (2u << 20) /* a huge page: the table is probed at random */

size_t tt_entries_for_mb(size_t mb)
{
    if (!mb) return 0;
    size_t n = 2;
    while (n * 2 * sizeof(TTSlot) <= mb * 1024 * 1024) n *= 2;
    return n;
}

int tt_init(TT *t, size_t mb, char *err)
{
    memset(t, 0, sizeof *t);
    size_t n = tt_entries_for_mb(mb);
    if (!n) return 0;
    /* refused before it is allocated: a table the memory cannot hold would
     * be allocated lazily, then swap or be killed while it is cleared */
    uint64_t have = memlimit_bytes() >> 20;
    if (have && (uint64_t)mb > have)
        return km_fail(err, "a %zu MB transposition table is more than the %llu MB of memory here", mb,
                       (unsigned long long)have);
    size_t bytes = n * sizeof(TTSlot);
    /* aligned to a huge page and (where the system has them) backed by huge
     * pages: nearly every probe misses the caches, and with 4 KB pages the
     * address translation misses too */
    size_t align = bytes >= TT_ALIGN ? TT_ALIGN : 64;
    t->e = km_aligned_alloc(align, bytes);
    if (!t->e) return km_fail(err, "cannot allocate a %zu MB transposition table", mb);
#ifdef MADV_HUGEPAGE
    if (align == TT_ALIGN) madvise(t->e, bytes, MADV_HUGEPAGE);
#endif
    memset(t->e, 0, bytes);
    t->mask = n - 1;
    return 0;
}

void tt_free(TT *t)
{
    km_aligned_free(t->e);
    memset(t, 0, sizeof *t);
}

void tt_clear(TT *t)
{
    if (t->e) memset(t->e, 0, (t->mask + 1) * sizeof(TTSlot));
    t->gen = 0;
}

void tt_new_search(TT *t) { t->gen = (uint8_t)((t->gen + 1) & 63); }
