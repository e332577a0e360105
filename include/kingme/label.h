/* label.h - better targets for kingme fit (kingme label): the positions of
 * self-play games scored again, by a deeper search than the games' own and
 * by the endgame database wherever it knows them.
 *
 * A self-play game's positions carry the score of the search that played
 * the move (a few thousand nodes) and the game's result, which a single
 * mistake later in the game can make wrong. Labelling gives each chosen
 * position (quiet: no capture pending; more than min_pieces and at most
 * max_pieces pieces) a new label:
 *   - in the endgame database (at most its pieces): the database's result,
 *     exact;
 *   - otherwise the score of a search of `nodes` nodes with the database at
 *     its leaves; a score that the database proves (a win or a loss found
 *     through it, or by the rules) is an exact result too.
 * kingme fit --labels then takes an exact label as the position's target
 * (whatever the game's result and lambda) and a searched one in place of
 * the game's score.
 *
 * The labels of a chunk file DIR/sp-NNNNNN.kmsp are kept beside it in
 * DIR/lb-NNNNNN.kmlb, tied to the chunk by its positions' checksum, written
 * whole through the atomic writer: a run stopped goes on where it was (the
 * label files there for the same settings are checked and kept). A game's
 * positions are searched from its last to its first with one table (the
 * later positions' results help the earlier ones) cleared at the game's
 * start, so the labels depend on the game and the settings alone, not on the
 * number of threads. Library code: nothing here prints or exits. */
#ifndef KINGME_LABEL_H
#define KINGME_LABEL_H

#include "kingme/eval.h"
#include "kingme/selfplay.h"

#include <stdatomic.h>
#include <stdint.h>

struct Egdb;

/* A label: a searched score (within +-32000, for the side to move), or one
 * of these. */
#define LABEL_NONE INT16_MIN /* not labelled */
#define LABEL_EXACT_LOSS (-32767)
#define LABEL_EXACT_DRAW (-32766)
#define LABEL_EXACT_WIN 32767

typedef struct LabelConfig {
    uint64_t nodes;          /* the search's nodes a position */
    int min_pieces;          /* label positions with more pieces than this ... */
    int max_pieces;          /* ... and at most this many */
    int hash_mb;             /* each thread's table */
    Weights weights;         /* the searches' evaluation */
    const struct Egdb *egdb; /* NULL: none */
} LabelConfig;

void label_config_default(LabelConfig *c);

/* What identifies the settings in the label files (nodes, pieces, table,
 * weights, the database's pieces). */
uint64_t label_config_key(const LabelConfig *c);

/* The labels of the positions of one game, positions first .. end - 1 of d,
 * into out[0 .. end - first - 1]; s is a searcher made with c's weights and
 * table. exact, searched (may be NULL): incremented per label. 0, or -1
 * when out of memory. */
struct Searcher;
int label_game(struct Searcher *s, const LabelConfig *c, const SelfplayData *d, size_t first, size_t end,
               int16_t *out, int *exact, int *searched);

typedef struct LabelProgress {
    int chunks_done, chunks; /* chunks labelled (found on disk included) / in all */
    uint64_t positions;      /* positions labelled by this run */
    double elapsed, eta;     /* seconds; eta < 0: unknown */
} LabelProgress;
typedef void (*LabelProgressFn)(const LabelProgress *p, void *user);

typedef struct LabelTotals {
    uint64_t positions, exact, searched; /* over every chunk of the folder */
} LabelTotals;

/* Label every chunk of dir with `threads` threads, skipping those whose
 * label file is there for the same settings. progress (may be NULL) after
 * each chunk, from the calling thread; stop (may be NULL): end after the
 * positions in play (that chunk is not written). totals (may be NULL).
 * Returns 0, or -1 with err. */
int label_run(const LabelConfig *c, const char *dir, int threads, LabelProgressFn progress, void *user,
              const atomic_bool *stop, LabelTotals *totals, char *err);

/* What the label files of a folder say (label_apply_dir). */
typedef struct LabelInfo {
    uint64_t nodes;
    int min_pieces, max_pieces, egdb_pieces;
    uint64_t exact, searched;
} LabelInfo;

/* d holds, from position first on, the positions of dir's chunks as
 * selfplay_read_dir appended them: give each labelled position its label
 * (an exact one: the result, and no score; a searched one: the score).
 * Every chunk must have its label file, all made with the same settings.
 * info (may be NULL). Returns 0, or -1 with err (d unchanged). */
int label_apply_dir(const char *dir, SelfplayData *d, size_t first, LabelInfo *info, char *err);

/* One label file read whole and checked (its checksum; every label a score
 * within 32000, an exact result or none; the header's counts of each): its
 * labels (malloc'd) and what its header says. 0, or -1 with err. */
int label_read_file(const char *path, LabelInfo *info, int16_t **labels, size_t *n, char *err);

#endif
