/* memlimit.c - the memory this process may use: the physical memory, or the
 * limit of its cgroup when that is lower. See memlimit.h. */
#include "kingme/memlimit.h"
#include "kingme/textio.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#include <unistd.h>
#endif

/* The number a cgroup file holds ("max": none), or 0. */
static uint64_t cgroup_value(const char *path)
{
    static const KmReadOpts opts = {.max_bytes = 256};
    char err[KM_ERR_MAX];
    char *t = textio_read_text(path, &opts, NULL, err);
    if (!t) return 0;
    char *end;
    unsigned long long v = strtoull(t, &end, 10);
    bool number = end != t && (*end == '\n' || *end == '\0');
    free(t);
    return number ? (uint64_t)v : 0;
}

static uint64_t memory_limit;
static pthread_once_t memory_once = PTHREAD_ONCE_INIT;

/* The machine's physical memory in bytes, or 0 when unknown. */
static uint64_t physical_memory(void)
{
#ifdef _WIN32 /* the CheckerBoard engine */
    MEMORYSTATUSEX m;
    m.dwLength = sizeof m;
    return GlobalMemoryStatusEx(&m) ? (uint64_t)m.ullTotalPhys : 0;
#else
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
#endif
}

static void find_memory_limit(void)
{
    uint64_t lim = physical_memory();
    /* the cgroup this process is in (v2 "0::/PATH", v1 "N:memory:/PATH"),
     * then the roots */
    char paths[4][4200];
    int n = 0;
    static const KmReadOpts opts = {.max_bytes = 1 << 16};
    char err[KM_ERR_MAX];
    char *self = textio_read_text("/proc/self/cgroup", &opts, NULL, err);
    for (char *line = self; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        if (strncmp(line, "0::", 3) == 0 && n < 2)
            snprintf(paths[n++], sizeof paths[0], "/sys/fs/cgroup%s/memory.max", line + 3);
        const char *m = strstr(line, ":memory:");
        if (m && n < 2)
            snprintf(paths[n++], sizeof paths[0], "/sys/fs/cgroup/memory%s/memory.limit_in_bytes", m + 8);
        line = nl ? nl + 1 : NULL;
    }
    free(self);
    snprintf(paths[n++], sizeof paths[0], "/sys/fs/cgroup/memory.max");
    snprintf(paths[n++], sizeof paths[0], "/sys/fs/cgroup/memory/memory.limit_in_bytes");
    for (int i = 0; i < n; i++) {
        uint64_t v = cgroup_value(paths[i]);
        if (v > 0 && (lim == 0 || v < lim)) lim = v;
    }
    memory_limit = lim;
}

/* measured once: a table is made for every game of a match */
uint64_t memlimit_bytes(void)
{
    pthread_once(&memory_once, find_memory_limit);
    return memory_limit;
}
