/* worker_proto.h - the worker protocol's lines, written and read: what the
 * coordinator (workers.h) and `kingme worker` (worker.h) say to each other,
 * one line each way. Also what the tests and the fuzz targets check.
 *
 * The protocol (version 5; version 1 had 60 weights only, version 2 no phase,
 * version 3 no book positions, version 4 no self-play games):
 *   worker -> `worker kingme VERSION protocol 1 2 3 4 5` when it starts (the versions
 *              it speaks; a coordinator of version 1 looks for "protocol 1", one of
 *              version 2 for "protocol 1 2")
 *   coord  -> `weights ID W1 ... W60`   a vector, once per worker (ID: 16 hex digits)
 *          or `weights ID W1 ... W74`   (version 2) a vector with the terms 61-74,
 *              sent only when one of them is not 0, only to a worker that speaks 2
 *          or `weights ID W1 ... W148`  (version 3) a vector with a phase: the
 *              opening's 74, then the ending's (end.), only to a worker that speaks 3
 *   coord  -> `job N BLACK-ID WHITE-ID depth D time S nodes K cap C hash MB share 0|1
 *              tiebreak first|random flags F seed X keep 0|1 fen FEN [moves M1 M2 M3 ...]`
 *   worker -> `result N RESULT REASON PLIES CHECKSUM [moves M1 ...]`   (moves: when keep 1)
 *          or `error N MESSAGE` (a job it refused), `error - MESSAGE` (a line it could not read)
 *   coord  -> `score N ID depth D hash MB fen FEN`   (version 4) a position of an opening
 *              book to score (book_score_position: every legal move's position searched
 *              to depth D - 1 with vector ID, a table of MB cleared first)
 *   worker -> `scored N K CODE1 SCORE1 ... CODEK SCOREK`   its K legal moves' book codes
 *              and scores, in the generator's order
 *   coord  -> `selfplay N GAME ID seed X nodes K random R margin M plies P hash MB`
 *              (version 5) game number GAME of a self-play run (selfplay.h) with
 *              vector ID, seed X (16 hex digits), K nodes a move, R random plies
 *              within M, a draw at P plies, a table of MB
 *   worker -> `played N RESULT K CHECKSUM M1 S1 ... MK SK`   the game's K moves after
 *              its ballot, each with the score of the position it was played in;
 *              CHECKSUM: 16 hex digits, the FNV-1a 64 of the game's K records as a
 *              chunk file stores them (selfplay_records_checksum)
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
#include <stdint.h>

#define WPROTO_VERSION 5
#define WPROTO_LINE_MAX 65536

/* The ID of a weight vector: 16 hex digits of a hash of its values. */
uint64_t wproto_weights_id(const Weights *w);

/* How many weights a vector's weights line carries: 148 with a phase (the
 * opening's 74, then the ending's: protocol 3), 74 when a term 61-74 is not
 * 0 (protocol 2), else the 60. */
int wproto_vector_length(const Weights *w);

/* One ply's worth of checksum: a hash chain over from, to and the captured
 * pieces of each move, in order. */
uint64_t wproto_moves_checksum(const Game *g);

/* The weights a colour plays with in a game: the settings' side's, or the spec's. */
const Weights *wproto_spec_weights(const MatchSettings *set, const MatchGameSpec *spec, int colour);

/* The job line of spec under set, with the vectors' IDs (no newline). */
char *wproto_job_line(int n, const MatchSettings *set, const MatchGameSpec *spec, bool keep);

/* 16 lower-case hex digits. */
bool wproto_parse_hex64(const char *t, uint64_t *out);

/* A job line, decoded. */
typedef struct WprotoJob {
    int n;
    uint64_t black, white; /* the vectors' IDs */
    MatchSettings set;
    uint64_t seed;
    bool keep;
    Opening opening;
} WprotoJob;

/* A job line's words (tok[0] is "job") into j. Returns 0, or -1 with err. */
int wproto_parse_job(char **tok, int nt, WprotoJob *j, char *err);

/* A book position to score (version 4). */
typedef struct WprotoScore {
    int n;
    uint64_t weights; /* the vector's ID */
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

/* A self-play game to play (version 5). */
typedef struct WprotoSelfplay {
    int n, game;
    uint64_t weights; /* the vector's ID */
    uint64_t seed, nodes;
    int random_plies, margin, max_plies, hash_mb;
} WprotoSelfplay;

/* Its line (no newline), or NULL when out of memory. */
char *wproto_selfplay_line(const WprotoSelfplay *j);
/* A selfplay line's words (tok[0] is "selfplay") into j. Returns 0, or -1 with err. */
int wproto_parse_selfplay(char **tok, int nt, WprotoSelfplay *j, char *err);

#endif
