/* memlimit.h - the memory this process may use, which bounds the
 * transposition tables (search, play, engine, match). Above textio (it reads
 * /proc and the cgroup's files with a bound), below everything that
 * allocates a table. */
#ifndef KINGME_MEMLIMIT_H
#define KINGME_MEMLIMIT_H

#include <stdint.h>

/* The memory this process may use, in bytes: the physical memory, or less
 * when the process's cgroup (v2 memory.max, v1 memory.limit_in_bytes) allows
 * less; 0 when unknown. Transposition tables are bounded by it. */
uint64_t memlimit_bytes(void);

#endif
