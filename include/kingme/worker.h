/* worker.h - the worker's side of the worker protocol (worker_proto.h): what
 * `kingme worker` does with each line a coordinator sends it. */
#ifndef KINGME_WORKER_H
#define KINGME_WORKER_H

/* Handle one line as `kingme worker` does; answer (when there is one) is a
 * malloc'd line without newline, or NULL. The state keeps the vectors seen. */
typedef struct WorkerState WorkerState;
WorkerState *worker_state_new(void);
void worker_state_free(WorkerState *ws);
char *worker_handle_line(WorkerState *ws, const char *line);

#endif
