/* engineproc.h - driving another engine process that speaks the kingme engine
 * protocol (docs/engine-protocol.md): start it with /bin/sh -c COMMAND on two
 * pipes, send lines, read lines with a deadline, and stop it without leaving
 * a zombie or a stray child behind. The child process alone (ProcChild) is
 * also how the worker coordinator (workers.h) starts its workers: kingme
 * starts other programs here only.
 *
 * A child runs in a process group of its own, so that killing it also
 * kills whatever its shell started (a script's `sleep`), and so that the
 * terminal's Ctrl-C reaches only kingme, which then stops its engines itself.
 * Writing to an engine that died gives an error, never SIGPIPE (the signal is
 * blocked and consumed around each write, on the calling thread only).
 *
 * The module's prefix is proc_ (engine_ is the engine protocol's own side,
 * engine.h). An EngineProc belongs to one thread. Library code: nothing is
 * printed. */
#ifndef KINGME_ENGINEPROC_H
#define KINGME_ENGINEPROC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define PROC_LINE_MAX 8192      /* a longer line from an engine is a protocol error */
#define PROC_START_TIMEOUT 30.0 /* seconds for hello and readyok */

/* A child process on two pipes. */
typedef struct ProcChild {
    pid_t pid;          /* 0: not running (or reaped) */
    int to_fd, from_fd; /* its stdin (we write; non-blocking), its stdout (we read); -1: closed */
    int wait_status;    /* once reaped: the waitpid status */
    bool reaped;
} ProcChild;

/* A ProcChild that is not running. */
#define PROC_CHILD_NONE     \
    {                       \
        0, -1, -1, 0, false \
    }

/* Start /bin/sh -c command. Returns 0, or -1 with a message (c is then not
 * running). */
int proc_spawn(ProcChild *c, const char *command, char *err);

/* Write n bytes to its stdin, waiting at most timeout seconds for room in
 * the pipe. Returns 0, or -1 with a message when it no longer reads. */
int proc_write(ProcChild *c, const char *buf, size_t n, double timeout, char *err);

/* Close its stdin, give it up to timeout seconds to exit, kill what is left
 * of its group, reap it and close its stdout. Safe when not running. */
void proc_reap(ProcChild *c, double timeout);

typedef struct EngineProc {
    ProcChild child; /* child.pid 0: not running (or reaped) */
    char buf[PROC_LINE_MAX];
    size_t len;   /* bytes in buf not yet returned as lines */
    bool eof;     /* its stdout is closed */
    char id[128]; /* the hello line after "hello " */
} EngineProc;

/* What proc_read_line returns. */
enum {
    PROC_LINE = 0,    /* a line (without its newline, CR dropped) */
    PROC_TIMEOUT = 1, /* nothing by the deadline */
    PROC_EOF = 2,     /* the engine closed its stdout (it exited or crashed) */
    PROC_STOPPED = 3, /* the stop flag became true */
    PROC_BAD = 4,     /* a line longer than PROC_LINE_MAX, or a NUL byte */
};

/* Start COMMAND and handshake: hello -> a line starting "hello " (lines
 * before it are ignored), then isready -> readyok, within PROC_START_TIMEOUT
 * each. option_lines (may be NULL): lines sent between the two, such as
 * "option hash 16"; an `error` answer to them is ignored. Returns 0, or -1
 * with a message in err ("the engine exited (status 127) before answering
 * hello"); the process is then gone. */
int proc_start(EngineProc *e, const char *command, const char *const *option_lines, char *err);

/* Send one line (a newline is added). Returns 0, or -1 with a message in err
 * when the engine no longer reads (it exited, or its pipe stays full until
 * timeout seconds from now). */
int proc_send(EngineProc *e, double timeout, char *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The next line, waiting until deadline (km_now() seconds); stop (may be
 * NULL) is checked every 20 ms. Returns one of PROC_LINE...PROC_BAD. line
 * receives up to len - 1 bytes of the line. */
int proc_read_line(EngineProc *e, double deadline, const atomic_bool *stop, char *line, size_t len);

/* Wait for a line equal to `want` (other lines are skipped), until deadline.
 * Returns PROC_LINE when it came, else the failing PROC_ code; the last
 * line skipped, if any, goes to last (may be NULL, lastlen bytes). */
int proc_expect(EngineProc *e, const char *want, double deadline, char *last, size_t lastlen);

/* Kill the engine's process group and reap it. Safe to call when not running. */
void proc_kill(EngineProc *e);

/* Ask the engine to quit (quit, then end of input), give it up to timeout
 * seconds to exit, then kill what is left of its group and reap it. */
void proc_quit(EngineProc *e, double timeout);

/* After proc_kill / proc_quit, or for a crashed engine (reaping it if
 * needed): "exited with status 3", "killed by signal 11". buf: 64 bytes. */
void proc_exit_text(EngineProc *e, char *buf, size_t len);

#endif
