/* selfplay.h - training games: kingme plays itself at a fast, fixed setting
 * and keeps every position with the search's score and the game's result,
 * for `kingme fit` (the data of the evaluation's pattern layer).
 *
 * Games are numbered 0, 1, ...; game i depends only on the configuration and
 * i (its opening, its random choices and the searcher's seed all come from
 * seed and i), so a run gives the same games on any number of threads. They
 * are stored in chunk files of SelfplayConfig.chunk games each,
 * DIR/sp-NNNNNN.kmsp (NNNNNN: the chunk's number), each written whole through
 * the atomic writer: an interrupted run loses at most the chunks it was
 * playing, and a new run with the same configuration skips the chunks that
 * are there (after checking them).
 *
 * A game: a ballot drawn among the 174 ACF three-move ballots; then, for the
 * first random_plies plies, a move drawn uniformly among the moves whose score
 * (each move's own short search) is within margin of the best; then the
 * search's move, nodes nodes a move. A game ends by the rules (no move, a
 * third repetition, the forty-move rule), at max_plies (a draw), or when the
 * endgame database knows the position (its result). Library code: nothing
 * here prints or exits. */
#ifndef KINGME_SELFPLAY_H
#define KINGME_SELFPLAY_H

#include "kingme/board.h"
#include "kingme/eval.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct Egdb;

typedef struct SelfplayConfig {
    uint64_t seed;
    int games;               /* games in all, numbered 0 .. games - 1 */
    int chunk;               /* games per file */
    uint64_t nodes;          /* the search's nodes a move */
    int random_plies;        /* plies after the ballot chosen at random among near-best moves */
    int margin;              /* "near-best": within this many evaluation units */
    int max_plies;           /* a game this long is a draw */
    int hash_mb;             /* each thread's table */
    Weights weights;         /* both sides play these */
    const struct Egdb *egdb; /* NULL: none */
} SelfplayConfig;

void selfplay_config_default(SelfplayConfig *c);

/* A position of a game: the board, the search's score for the side to move
 * (SELFPLAY_NO_SCORE when the move was not searched), and the game's result
 * for the side to move: 0 loss, 1 draw, 2 win. */
#define SELFPLAY_NO_SCORE INT16_MIN
typedef struct SelfplayPos {
    Board b;
    int16_t score;
    uint8_t result;
    uint8_t ply; /* plies from the start position (255: 255 or more) */
} SelfplayPos;

/* A set of positions (one chunk, or everything read). */
typedef struct SelfplayData {
    SelfplayPos *pos;
    size_t n, cap;
    int games;
    int wins[3]; /* games won by Black, won by White, drawn */
} SelfplayData;

void selfplay_data_free(SelfplayData *d);

/* Play game number i of c with searcher-sized state of its own, appending its
 * positions to out. Returns 0, or -1 with err. */
int selfplay_game(const SelfplayConfig *c, int i, SelfplayData *out, char *err);

typedef struct SelfplayProgress {
    int chunks_done, chunks; /* chunks finished (found on disk included) / in all */
    int games_done;          /* games finished by this run */
    uint64_t positions;      /* positions in the chunks finished by this run */
    double elapsed, eta;     /* seconds; eta < 0: unknown */
} SelfplayProgress;
typedef void (*SelfplayProgressFn)(const SelfplayProgress *p, void *user);

/* Play every game of c into dir (created when missing) with `threads`
 * threads, skipping the chunks already there. progress (may be NULL) is called
 * after each chunk: from the calling thread, or with workers from the thread
 * that finished it (never two calls at once). stop (may be NULL): set to end
 * early (the chunks in play are not written). The games are the jobs of the
 * runner (workers.h), one job a game; workers (NULL: none): played by worker
 * processes too (threads may then be 0), and the chunk files are those of a
 * run without them (the weights and their pattern layer travel as files, a
 * worker whose endgame database differs from c->egdb's stops the run);
 * refused at once beyond SELFPLAY_WORKER_MAX_PLIES. Returns 0, or -1 with
 * err. */
struct WorkerSet;
int selfplay_run(const SelfplayConfig *c, const char *dir, int threads, struct WorkerSet *workers,
                 SelfplayProgressFn progress, void *user, const atomic_bool *stop, char *err);

/* The worker protocol's self-play games (worker_proto.h). A game
 * travels as the moves after its ballot, each with its score: its line is at
 * most some 60 KB below this many plies. */
#define SELFPLAY_WORKER_MAX_PLIES 4000
/* Play game i of c and give the worker's answer to job n, `played N RESULT K
 * CHECKSUM M1 S1 ... MK SK` (malloc'd), or NULL with err. s: a searcher made
 * with c's weights and table size, kept from game to game (the game does not
 * depend on what it searched before), or NULL for one of its own. */
struct Searcher;
char *selfplay_played_line(struct Searcher *s, const SelfplayConfig *c, int n, int i, char *err);
/* Such an answer's words (tok[0] "played") for game i of c: the moves
 * replayed from the game's ballot (each legal, none after the game's end, the
 * last one ending it), the result and the checksum checked; the game's
 * positions are appended to out as selfplay_game does. 0, or -1 with err
 * (out as it was). */
int selfplay_take_played(const SelfplayConfig *c, int i, char **tok, int nt, SelfplayData *out, char *err);
/* The worker's handler of the selfplay lines (worker.h): 0, or -1 when out
 * of memory. */
struct WorkerState;
int selfplay_worker_kind(struct WorkerState *ws);
/* The FNV-1a 64 of positions first .. d->n - 1 as a chunk file stores them. */
uint64_t selfplay_records_checksum(const SelfplayData *d, size_t first);

/* The most games a chunk file holds. */
#define SELFPLAY_CHUNK_MAX (1 << 20)

/* Append the positions of one chunk file to d. The file must have been made
 * by the same configuration when key is not 0 (selfplay_config_key), and hold
 * chunk number `number` when it is not negative. Every byte is checked (the
 * header is inside the checksum, the games and their results agree). Returns
 * 0, or -1 with err (truncated, foreign, corrupt, another configuration,
 * another chunk's copy; d as it was). */
int selfplay_read_chunk(const char *path, uint64_t key, long number, SelfplayData *d, char *err);

/* Append every chunk file of dir (sp-*.kmsp, in name order) to d: each must
 * hold the number its name says, and all the configuration of the first
 * (a folder holds one run's games). */
int selfplay_read_dir(const char *dir, SelfplayData *d, char *err);

/* The chunk files of dir (sp-*.kmsp) in name order: their paths (dir/name)
 * and the number each name says, malloc'd (selfplay_chunk_files_free).
 * Returns 0, or -1 with err (dir unreadable, no chunk in it, a name that is
 * not a chunk's). */
int selfplay_chunk_files(const char *dir, char ***paths, long **numbers, size_t *count, char *err);
void selfplay_chunk_files_free(char **paths, long *numbers, size_t count);

/* What identifies a configuration in its files: every setting a game
 * depends on (seed, nodes, random plies, margin, max plies, chunk size, the
 * table's size, the endgame database's pieces, the weights), so that a
 * resumed run never mixes two. */
uint64_t selfplay_config_key(const SelfplayConfig *c);

#endif
