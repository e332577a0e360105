/* egdb_build.h - building the endgame database (egdb.h): retrograde
 * analysis of every slice of up to N pieces, the slices of one step built
 * at once on the job runner's local threads (workers.h). A module of its
 * own above the runner: the runner reads the database's digest (egdb.h). */
#ifndef KINGME_EGDB_BUILD_H
#define KINGME_EGDB_BUILD_H

#include "kingme/egdb.h"

typedef struct EgdbProgress {
    EgdbSlice slice;
    int done, total;    /* slices finished (including those found on disk) / to do */
    const char *phase;  /* "moves", "values", "distances", "writing", "loaded" */
    int pass;           /* level of the distance pass */
    uint64_t positions; /* positions of the slice */
    double elapsed;     /* seconds since the build started */
    double eta;         /* estimated seconds left (<0: unknown) */
} EgdbProgress;
typedef void (*EgdbProgressFn)(const EgdbProgress *p, void *user);

/* Build every slice of at most pieces pieces into dir (created if missing).
 * Slices whose file is already there and sound are loaded, not rebuilt, so an
 * interrupted build resumes at the slice it was in. threads >= 1 slices are
 * built at once. progress (may be NULL) is called from the calling thread
 * about every quarter of a second and at the end of each step. Returns 0, or
 * -1 with err. */
int egdb_build(const char *dir, int pieces, int threads, EgdbProgressFn progress, void *user, char *err);

/* egdb_build, the slices of more than full_dtc_pieces pieces in version 2
 * (egdb_build: EGDB_FULL_DTC_PIECES; the tests try the format on fewer). */
int egdb_build_partial(const char *dir, int pieces, int full_dtc_pieces, int threads, EgdbProgressFn progress,
                       void *user, char *err);

#endif
