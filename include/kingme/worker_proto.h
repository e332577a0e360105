/* worker_proto.h - the worker protocol's lines, written and read: what the
 * coordinator (workers.h) and `kingme worker` (worker.h) say to each other,
 * one line each way. Also what the tests and the fuzz targets check.
 *
 * The protocol (version 1; docs/workers.md has it line by line):
 *   worker -> `worker kingme VERSION protocol 1 egdb DIGESTS book HASH`  when it
 *              starts: its endgame database (`none`, or P:D1,...,DP: up to P
 *              pieces, Dn the 16 hex digits of the digest of its slices up to n
 *              pieces) and the opening book it found (`none`, or the hash of the
 *              file's bytes)
 *   coord  -> `file HASH SIZE`, then `data HEX` lines (up to WPROTO_CHUNK bytes
 *              each, as hex digits) until SIZE bytes: a file the jobs name by
 *              the hash of its bytes (weights, a pattern layer, a book), sent
 *              once per worker and checked; the worker answers only when it is
 *              not right (`error - file HASH: ...`)
 *   coord  -> `job N BLACK WHITE KEY VALUE ... fen FEN [moves M1 M2 ...]`  a game:
 *              each player a vector (ID: the hash of a weights file of its
 *              named weights, ID+LAYER with a pattern layer: the hash of a
 *              weights file holding the layer) or `engine:HEX:HEX` (an engine
 *              process, its command and its name as hex bytes); the keys: depth
 *              time nodes cap hash share tiebreak flags seed tc inc timeout grace
 *              ehash book variety egdb keep, each once, in any order
 *   worker -> `result N RESULT REASON PLIES CHECKSUM forfeit F SIDE clock L0 L1 P0 P1
 *              M0 M1 U0 U1 E0 E1 term HEX [moves M1 ...]`   (moves: when keep 1)
 *          or `error N MESSAGE` (a job it refused), `error - MESSAGE` (a line it
 *              could not read)
 *   coord  -> `score N VECTOR depth D hash MB fen FEN`   a position of an opening
 *              book to score (book_build_score_position)
 *   worker -> `scored N K CODE1 SCORE1 ... CODEK SCOREK`
 *   coord  -> `selfplay N GAME VECTOR seed X nodes K random R margin M plies P hash MB
 *              egdb DIGEST`   game number GAME of a self-play run (selfplay.h)
 *   worker -> `played N RESULT K CHECKSUM M1 S1 ... MK SK`
 * RESULT is 1-0, 0-1 or 1/2-1/2; REASON the GameReason number; CHECKSUM 16
 * hex digits of the game's moves (wproto_moves_checksum). A job carries
 * everything its game depends on, so the same job gives the same game on any
 * worker and on the coordinator's own threads: results never depend on who
 * played what. */
#ifndef KINGME_WORKER_PROTO_H
#define KINGME_WORKER_PROTO_H

#include "kingme/referee.h"
#include "kingme/weights.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WPROTO_VERSION 1
#define WPROTO_LINE_MAX 65536
#define WPROTO_CHUNK 16384       /* bytes of a file a data line carries */
#define WPROTO_REF_MAX 40        /* "ID+LAYER" and its NUL */
#define WPROTO_EGDB_PIECES_MAX 8 /* the most pieces a hello's database may say */
#define WPROTO_DIGEST_MAX 24     /* "none" or "P-" and 16 hex digits, and the NUL */
#define WPROTO_NEED_MAX 4        /* files one job names */

struct Book;
struct Egdb;

/* The hash that names a file: FNV-1a 64 of its bytes. */
uint64_t wproto_hash(const void *bytes, size_t len);

/* The ID of a weight vector's values (named weights, terms, phase; not the
 * layer): a cheap key for caches. */
uint64_t wproto_weights_id(const Weights *w);

/* One ply's worth of checksum: a hash chain over from, to and the captured
 * pieces of each move, in order. */
uint64_t wproto_moves_checksum(const Game *g);

/* The weights a colour plays with in a game: the settings' side's, or the
 * spec's (NULL: an engine side). */
const Weights *wproto_spec_weights(const MatchSettings *set, const MatchGameSpec *spec, int colour);

/* 16 lower-case hex digits. */
bool wproto_parse_hex64(const char *t, uint64_t *out);

/* The endgame database a run uses as the protocol says it: "none", or
 * "P-XXXXXXXXXXXXXXXX" (P: its pieces, egdb_pieces, after any limit; the
 * digest of its slices up to P pieces, egdb_digest_pieces). */
void wproto_egdb_digest(const struct Egdb *db, char out[WPROTO_DIGEST_MAX]);
struct WprotoHello;
/* Whether a worker that said hello h can serve a run that uses the database
 * want (wproto_egdb_digest): 0, or -1 with why ("has the endgame database
 * up to 3 pieces, this run needs 4: ...", with what to do). */
int wproto_egdb_serves(const struct WprotoHello *h, const char *want, char *why);
/* Parse a digest ("none": *pieces 0). 0, or -1 when it is none of those. */
int wproto_parse_egdb_digest(const char *t, int *pieces, uint64_t *digest);

/* The worker's hello (malloc'd, no newline). */
char *wproto_hello(const struct Egdb *db, const struct Book *book);
/* A hello's words into what it says: 0, or -1 with err (not a hello, or
 * another protocol version: "speaks protocol 5, not 1"). */
typedef struct WprotoHello {
    int version;
    int egdb_pieces;                                  /* 0: no database */
    uint64_t egdb_digest[WPROTO_EGDB_PIECES_MAX + 1]; /* [n]: of its slices up to n pieces */
    uint64_t book;                                    /* 0: none */
} WprotoHello;
int wproto_parse_hello(const char *line, WprotoHello *h, char *err);

/* ---- files: what the jobs name by hash ---- */

typedef struct WprotoFile {
    uint64_t hash;
    const uint8_t *bytes; /* owned by the table (or by the book it was taken from) */
    size_t len;
} WprotoFile;

/* The coordinator's files of a run: vectors made into weights files (the
 * named weights, and the layer apart, so that a tuning population sends its
 * layer once), the book. */
typedef struct WprotoFiles WprotoFiles;
WprotoFiles *wproto_files_new(void);
void wproto_files_free(WprotoFiles *F);
/* The file of a hash, or NULL. */
const WprotoFile *wproto_files_get(const WprotoFiles *F, uint64_t hash);
/* w's reference (ID or ID+LAYER) into ref, its files added to need[*nneed]
 * (room for 2). 0, or -1 when out of memory. */
int wproto_files_vector(WprotoFiles *F, const Weights *w, char ref[WPROTO_REF_MAX], uint64_t *need,
                        int *nneed);
/* The book's bytes as a file (not copied: the book outlives the run): its hash. */
uint64_t wproto_files_book(WprotoFiles *F, const struct Book *bk);

/* The lines that send a file: `file HASH SIZE` and its data lines, each
 * with its newline, into one malloc'd text (NULL when out of memory). */
char *wproto_file_lines(const WprotoFile *f, size_t *len);

/* ---- games ---- */

/* The job line of spec under set (no newline): the vectors as references,
 * the book's and the vectors' files added to need (room for
 * WPROTO_NEED_MAX). NULL when out of memory. */
char *wproto_job_line(WprotoFiles *F, int n, const MatchSettings *set, const MatchGameSpec *spec, bool keep,
                      uint64_t *need, int *nneed);

/* A job line, decoded. */
typedef struct WprotoJob {
    int n;
    char player[2][WPROTO_LINE_MAX / 4]; /* the reference of each colour, as sent */
    MatchSettings set;
    uint64_t book; /* 0: none */
    char egdb[WPROTO_DIGEST_MAX];
    uint64_t seed;
    bool keep;
    Opening opening;
    SearchParams par[2]; /* each colour's search parameters (pblack, pwhite) */
} WprotoJob;

/* A job line's words (tok[0] is "job") into j (large: allocate it). Returns
 * 0, or -1 with err. */
int wproto_parse_job(char **tok, int nt, WprotoJob *j, char *err);

/* An engine reference's command and name (malloc'd both): 0, or -1 when
 * ref is not `engine:HEX:HEX`. */
int wproto_engine_ref(const char *ref, char **command, char **name);

/* The result line of a game o played as job n (malloc'd; NULL when out of
 * memory). */
char *wproto_result_line(int n, const MatchOutcome *o, bool keep);
/* A result line's words (tok[0] is "result") for a game from opening op
 * (NULL: the initial position): the outcome, its game replayed and checked
 * against the checksum (o->game is set: free it). 0, or -1 with err. */
int wproto_parse_result(char **tok, int nt, const Opening *op, MatchOutcome *o, char *err);

/* ---- book positions ---- */

typedef struct WprotoScore {
    int n;
    char vector[WPROTO_REF_MAX];
    int depth, hash_mb;
    Board b;
} WprotoScore;

/* Its line (no newline), or NULL when out of memory. */
char *wproto_score_line(const WprotoScore *j);
/* A score line's words (tok[0] is "score") into j. Returns 0, or -1 with err. */
int wproto_parse_score(char **tok, int nt, WprotoScore *j, char *err);
/* The answer: `scored N K CODE SCORE ...` (malloc'd, NULL when out of memory). */
char *wproto_scored_line(int n, int k, const uint16_t *codes, const int16_t *scores);
/* An answer's words (tok[0] is "scored") for position b: the moves' count,
 * codes and scores, checked (every legal move of b once, in the generator's
 * order, scores within +-BOOK_SCORE_MAX). Returns the count, or -1 with err. */
int wproto_parse_scored(char **tok, int nt, const Board *b, uint16_t *codes, int16_t *scores, char *err);

/* ---- self-play games ---- */

typedef struct WprotoSelfplay {
    int n, game;
    char vector[WPROTO_REF_MAX];
    uint64_t seed, nodes;
    int random_plies, margin, max_plies, hash_mb;
    char egdb[WPROTO_DIGEST_MAX];
} WprotoSelfplay;

/* Its line (no newline), or NULL when out of memory. */
char *wproto_selfplay_line(const WprotoSelfplay *j);
/* A selfplay line's words (tok[0] is "selfplay") into j. Returns 0, or -1 with err. */
int wproto_parse_selfplay(char **tok, int nt, WprotoSelfplay *j, char *err);

#endif
