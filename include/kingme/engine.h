/* engine.h - the engine protocol (protocol 1): a persistent engine session
 * that another program drives one text line at a time.
 *
 * The session keeps its transposition table, killers and history from move
 * to move, and knows the game (the moves of `position ... moves`), so that
 * repetitions and the forty-move rule are seen. `go` searches on a thread of
 * its own, so that `stop`, `isready` and `quit` are answered at once while
 * it searches. Every answer is one line handed to the session's writer
 * callback (the command line's writes it to stdout and flushes it); the
 * library prints nothing itself. The protocol is described in
 * docs/engine-protocol.md. */
#ifndef KINGME_ENGINE_H
#define KINGME_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#define ENGINE_PROTOCOL 1
#define ENGINE_HASH_MB 16       /* default table size */
#define ENGINE_HASH_TEXT "16"
#define ENGINE_LINE_MAX 65536   /* longer command lines are refused */

/* Called with one answer line (no newline), possibly from the search
 * thread; calls are serialised by the session. */
typedef void (*EngineWriter)(const char *line, void *user);

typedef struct Engine Engine;

/* A new session with the built-in default weights and a table of hash_mb MB.
 * version: the program's version for `hello`. Returns NULL with a message in
 * err (KM_ERR_MAX bytes) when memory runs out. */
Engine *engine_new(size_t hash_mb, const char *version, EngineWriter out, void *user, char *err);

/* `option weights FILE` before the first command: 0, or -1 with a message. */
int engine_load_weights(Engine *e, const char *path, char *err);

/* `option egdb DIR`: open the endgame databases of dir (replacing any
 * open ones). 0, or -1 with a message. */
int engine_open_egdb(Engine *e, const char *dir, char *err);
/* The same with databases already open (the session owns db from now on). */
struct Egdb;
void engine_take_egdb(Engine *e, struct Egdb *db);

/* Handle one command line (no newline; a trailing CR is ignored). Returns
 * false when the session is over (`quit`): the search, if any, has been
 * stopped and its bestmove written. */
bool engine_command(Engine *e, const char *line);

/* Stop any search (its bestmove is written), then free everything. */
void engine_free(Engine *e);

#endif
