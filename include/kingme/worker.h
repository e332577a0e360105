/* worker.h - the worker's side of the worker protocol (worker_proto.h): what
 * `kingme worker` does with each line a coordinator sends it.
 *
 * The state keeps the files the coordinator sent (by hash), the vectors made
 * of them, its own endgame database and opening book. It plays games itself
 * (`job`, match.h); the other job kinds register a handler for their line's
 * first word (selfplay_worker_kind, book_build_worker_kind), so that this
 * module knows nothing of them. */
#ifndef KINGME_WORKER_H
#define KINGME_WORKER_H

#include "kingme/weights.h"

#include <stdint.h>

struct Egdb;
struct Book;

typedef struct WorkerState WorkerState;

/* db, book: what the worker found on its machine (NULL: none), said in its
 * hello and used when a job names them (by digest, by hash). db is limited
 * to the pieces a job's digest says (egdb_limit_pieces). */
WorkerState *worker_state_new(struct Egdb *db, const struct Book *book);
void worker_state_free(WorkerState *ws);

/* The hello the worker says first (malloc'd, no newline). */
char *worker_hello(const WorkerState *ws);

/* Handle one line as `kingme worker` does; answer (when there is one) is a
 * malloc'd line without newline, or NULL. */
char *worker_handle_line(WorkerState *ws, const char *line);

/* A job kind: the handler of lines whose first word is `word` (tok[0]);
 * it answers one line (malloc'd; worker_answer makes error lines). data is
 * the kind's own (kept between jobs: a searcher), freed with free_data. */
typedef char *(*WorkerKindFn)(WorkerState *ws, void *data, char **tok, int nt);
int worker_register(WorkerState *ws, const char *word, WorkerKindFn fn, void *data,
                    void (*free_data)(void *));

/* For the handlers: the vector of a reference (ID or ID+LAYER, made of the
 * files sent), the book of a hash (sent, or the worker's own), the endgame
 * database of a digest ("none": NULL without err; fewer pieces or other
 * slices up to its pieces than the worker's: NULL with err; else the
 * worker's, limited to the digest's pieces). NULL with err when unknown. */
const Weights *worker_vector(WorkerState *ws, const char *ref, char *err);
const struct Book *worker_book(WorkerState *ws, uint64_t hash, char *err);
const struct Egdb *worker_egdb(const WorkerState *ws, const char *digest, char *err);

/* A job kind's searcher, kept from one job to the next while the vector and
 * the table size stay (the jobs' results do not depend on what it searched
 * before: the searcher is cleared for each). worker_kept_new allocates one
 * for worker_register's data (free it with worker_kept_free);
 * worker_kept_searcher returns its searcher for w and hash_mb, made again
 * when either changed, or NULL with err. */
typedef struct WorkerKept WorkerKept;
WorkerKept *worker_kept_new(void);
void worker_kept_free(void *kept);
struct Searcher *worker_kept_searcher(WorkerKept *k, const Weights *w, int hash_mb, char *err);

/* A line (malloc'd, control bytes escaped: one line). */
char *worker_answer(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
