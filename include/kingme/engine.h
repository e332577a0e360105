/* engine.h - the engine protocol (protocol 1): text lines that another
 * program sends to drive an engine session (session.h), one line at a time.
 *
 * The session keeps its transposition table, killers and history from move
 * to move, and knows the game (the moves of `position ... moves`), so that
 * repetitions and the forty-move rule are seen. `go` searches on the
 * session's thread, so that `stop`, `isready` and `quit` are answered at once
 * while it searches. Every answer is one line handed to the writer callback
 * (the command line's writes it to stdout and flushes it); the library
 * prints nothing itself. The protocol is described in
 * docs/engine-protocol.md. */
#ifndef KINGME_ENGINE_H
#define KINGME_ENGINE_H

#include "kingme/session.h"

#include <stdbool.h>
#include <stddef.h>

#define ENGINE_PROTOCOL 1
#define ENGINE_LINE_MAX 65536 /* longer command lines are refused */

/* Called with one answer line (no newline), possibly from the search
 * thread; calls are serialised. */
typedef void (*EngineWriter)(const char *line, void *user);

typedef struct Engine Engine;

/* The protocol over session s, which it owns from now on (engine_free frees
 * it, also when this fails). version: the program's version for `hello`.
 * Returns NULL with a message in err (KM_ERR_MAX bytes) when memory runs
 * out. */
Engine *engine_new(Session *s, const char *version, EngineWriter out, void *user, char *err);

/* Handle one command line (no newline; a trailing CR is ignored). Returns
 * false when the session is over (`quit`): the search, if any, has been
 * stopped and its bestmove written. */
bool engine_command(Engine *e, const char *line);

/* Stop any search (its bestmove is written), then free everything. */
void engine_free(Engine *e);

/* The words of a `position` command (tok[0] is "position"): `start` or
 * `fen FEN` (a FEN of one word or several, up to "moves"), then `moves M1
 * M2 ...`. The start position into *start and the index of the first move
 * into *first (n when there is none). 0, or -1 with the answer's text after
 * "error " in err ("position fen: the FEN is missing"). For programs that
 * speak the protocol in front of another engine (tools/cbengine). */
int engine_parse_position(char **tok, int n, Board *start, int *first, char *err);

#endif
