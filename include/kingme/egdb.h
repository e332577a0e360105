/* egdb.h - endgame databases built by kingme: retrograde analysis, the file
 * format, and the probe the search makes.
 *
 * A slice is every position with given numbers of black men, black kings,
 * white men and white kings (men never on their own crowning row). Only Black
 * to move is stored: White to move is the same position turned round with the
 * colours swapped (board_mirror), which is Black to move in the mirrored slice.
 * The value is for the side to move under compulsory capture and no draw rule:
 * win, loss or draw; a side with no move (or no piece) has lost.
 *
 * With each win or loss the database keeps the distance to conversion (DTC):
 * the plies until the next irreversible move (a capture, a man move, a
 * crowning) or the end of the game, the winner hurrying and the loser
 * delaying, where the loser's own man move or capture also counts as the
 * conversion. The forty-move rule restarts its count at exactly those moves,
 * so a winner that always plays a winning move of least DTC wins within the
 * rule whenever every DTC is at most 80 (kingme egdb info shows the largest).
 *
 * Files: one per slice, DIR/bBMBKwWMWK.kdb (b2k1w0k1.kdb...), documented in
 * src/egdb_file.c. Library code: nothing here prints or exits. */
#ifndef KINGME_EGDB_H
#define KINGME_EGDB_H

#include "kingme/base.h"
#include "kingme/movegen.h"

#include <stdbool.h>
#include <stdint.h>

#define EGDB_MAX_PIECES 6      /* the builder and the index handle up to this */
#define EGDB_ENV "KINGME_EGDB" /* environment variable naming the directory */
#define EGDB_DEFAULT_DIR "egdb"

enum { EGDB_UNKNOWN = 0, EGDB_WIN = 1, EGDB_LOSS = 2, EGDB_DRAW = 3 };

typedef struct Egdb Egdb;

/* ---- slices ---- */
typedef struct EgdbSlice {
    int bm, bk, wm, wk; /* black men, black kings, white men, white kings */
} EgdbSlice;

/* Number of slices with exactly n pieces (both colours together). */
int egdb_slice_count(int n);
/* The i-th slice with n pieces, in build order (fewer men first). */
EgdbSlice egdb_slice_at(int n, int i);
/* The slice of b's pieces. */
EgdbSlice egdb_slice_of(const Board *b);
/* Positions of a slice counted as the published tables count them (Black's
 * men off 29-32, White's off 1-4, no side to move). */
uint64_t egdb_slice_positions(EgdbSlice s);
/* The file name of a slice ("b2k1w0k1.kdb"); buf needs 16 bytes. */
void egdb_slice_name(EgdbSlice s, char *buf, size_t len);

/* A position of n pieces drawn uniformly (holes of the index redrawn), either
 * side to move. */
void egdb_random_position(int n, uint64_t *rng, Board *b);

/* Building: egdb_build.h. */

/* ---- using ---- */
/* Open every slice file in dir. Returns NULL with err when dir holds no
 * database or a file is truncated, foreign or corrupt (checksums verified).
 * cache_mb: size of the shared cache of decoded blocks (0: a default). */
Egdb *egdb_open(const char *dir, size_t cache_mb, char *err);
/* The same, with the files' data read and verified by a thread of its own:
 * returns once the headers are checked (a missing, foreign, truncated or
 * incomplete file is refused now), so that a program can answer at once
 * and start its clock while the files load. Until a slice is in, its
 * positions probe as EGDB_UNKNOWN, which the search takes as it takes a
 * position beyond the database. A file whose data fails its checksum is
 * reported by egdb_wait and egdb_damage, and its positions stay unknown. */
Egdb *egdb_open_background(const char *dir, size_t cache_mb, char *err);
/* Whether every file is in (or failed): true for a database from egdb_open. */
bool egdb_loaded(const Egdb *db);
/* Wait until every file is in: 0, or -1 with err naming the first file
 * that failed. One thread at a time (the one that opened it). */
int egdb_wait(Egdb *db, char *err);
/* Also ends a loading thread (at once: between reads of 1 MB). */
void egdb_close(Egdb *db);
/* The most pieces for which every slice is present (0: none). */
int egdb_pieces(const Egdb *db);
/* Use the positions of at most max pieces only (a front end's "limit max
 * pieces"): egdb_pieces and every probe then stop there. Lowers the limit
 * only (max >= 1); reopen the database to raise it. */
void egdb_limit_pieces(Egdb *db, int max);
/* A digest of the slices db holds (which ones, their counts and sizes): two
 * databases with the same digest give the same probes. */
uint64_t egdb_digest(const Egdb *db);
/* The digest of its slices of at most pieces pieces (egdb_digest: of all),
 * whatever the limit: what a run limited to that many pieces probes. */
uint64_t egdb_digest_pieces(const Egdb *db, int pieces);
/* Blocks are decoded when a probe first needs them; one that does not decode
 * (a damaged file whose checksums were recomputed: kingme egdb info decodes
 * them all) makes its positions EGDB_UNKNOWN. 0 while no probe has met such
 * a block, else -1 with "DIR/SLICE.kdb: corrupt block K" in err (the first
 * one met). db may be NULL. */
int egdb_damage(const Egdb *db, char *err);

/* The value of b for the side to move: EGDB_WIN / EGDB_LOSS / EGDB_DRAW, or
 * EGDB_UNKNOWN when b is beyond the database (db may be NULL). *dist (may be
 * NULL) gets the DTC in plies of a win or loss, 0 for a draw. A pending
 * capture is resolved by trying the captures. The 6-piece files keep the
 * DTC of long wins only: the others are found by a search of a few plies
 * (a few hundred probes at most), which a NULL dist skips. Thread-safe: any
 * number of threads may probe one database. */
int egdb_probe(const Egdb *db, const Board *b, int *dist);
/* egdb_probe without that search, for the search's nodes: where the file
 * does not keep the DTC, *dist gets a bound instead (at most 3 for the
 * short wins, 0 for the losses of 6 pieces). */
int egdb_probe_fast(const Egdb *db, const Board *b, int *dist);

/* The best move of b by the database: a winning move of least DTC, a
 * drawing move, or the losing move of largest DTC. Returns the value of b
 * (EGDB_UNKNOWN and no move when b is beyond the database or has no move). */
int egdb_best_move(const Egdb *db, const Board *b, Move *best, int *dist);
/* The same within a move's clock: the short search that finds the distances
 * a file leaves out (6 pieces) gives up at deadline (km_now() seconds; 0:
 * none), and EGDB_UNKNOWN is returned, so that the caller searches instead.
 * With every distance kept (5 pieces) it never searches. */
int egdb_best_move_by(const Egdb *db, const Board *b, double deadline, Move *best, int *dist);

/* Whether b's value and DTC agree with those of its successors: a win has a
 * move to a loss and its DTC is one more than the least over such moves (a
 * capture, man move or crowning counting 0), a loss has only moves to wins
 * and its DTC is one more than the largest, a draw has a move to a draw and
 * none to a loss. False also when b is beyond the database. */
bool egdb_consistent(const Egdb *db, const Board *b);

/* An independent check (egdb_check.c): every position king moves reach from
 * start (the men where they are, both sides to move), solved again by forward
 * iteration with the database asked only where a capture, man move or
 * crowning leaves that set, and compared with egdb_probe. Returns 0 with the
 * counts in out, or -1 with err (start beyond the database, a set of more
 * than max_positions, out of memory). */
typedef struct EgdbCheck {
    uint64_t positions, wins, losses, draws; /* of the set, by the check's solver */
    int longest;                             /* its longest DTC */
    uint64_t mismatches;                     /* positions where the database says otherwise */
    Board bad;                               /* the first of them */
    int bad_value, bad_dist, want_value, want_dist;
} EgdbCheck;
int egdb_check_component(const Egdb *db, const Board *start, uint32_t max_positions, EgdbCheck *out,
                         char *err);

/* ---- the files ---- */
typedef struct EgdbSliceInfo {
    EgdbSlice slice;
    uint64_t positions;           /* as egdb_slice_positions */
    uint64_t wins, losses, draws; /* Black to move */
    int max_win_dtc, max_loss_dtc;
    uint64_t file_bytes;
} EgdbSliceInfo;

/* Read and verify one slice file as egdb_open does (a regular file, the
 * slice its name says when it is named like one, header, index, checksums),
 * and decode every block (each code within the header's distances). Returns
 * 0, or -1 with err ("DIR/b1k0w1k0.kdb: truncated (...)"). */
int egdb_file_info(const char *path, EgdbSliceInfo *info, char *err);

#endif
