/* engineproc.c - a child process on two pipes (start, write, stop and reap),
 * and an engine process over it: handshake, lines in and out with deadlines
 * (engineproc.h). */
#include "kingme/engineproc.h"
#include "kingme/base.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Pipes are made close-on-exec so that a child started by one thread never
 * inherits another child's pipe (it would then never see end of input).
 * pipe() and fcntl() are two steps, so creating pipes and forking share one
 * lock: a fork never happens between them. The only process-wide state here. */
static pthread_mutex_t spawn_lock = PTHREAD_MUTEX_INITIALIZER;

static int cloexec_pipe(int fd[2])
{
    if (pipe(fd)) return -1;
    if (fcntl(fd[0], F_SETFD, FD_CLOEXEC) || fcntl(fd[1], F_SETFD, FD_CLOEXEC)) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    return 0;
}

static void sleep_s(double s)
{
    struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&t, NULL);
}

/* Kill whatever is left of the group once the leader has exited or after
 * timeout seconds, then reap the leader. The leader is not reaped before the
 * group is killed, so its pid (the group id) cannot have been reused. */
void proc_reap(ProcChild *c, double timeout)
{
    if (c->to_fd >= 0) close(c->to_fd);
    c->to_fd = -1;
    if (c->pid > 0) {
        double end = km_now() + timeout;
        for (;;) {
            siginfo_t si;
            memset(&si, 0, sizeof si);
            if (waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid != 0) break;
            if (km_now() >= end) break;
            sleep_s(0.002);
        }
        kill(-c->pid, SIGKILL);
        kill(c->pid, SIGKILL); /* in case setpgid never happened */
        int st = 0;
        while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR) {
        }
        c->wait_status = st;
        c->reaped = true;
        c->pid = 0;
    }
    if (c->from_fd >= 0) close(c->from_fd);
    c->from_fd = -1;
}

void proc_kill(EngineProc *e) { proc_reap(&e->child, 0); }

void proc_quit(EngineProc *e, double timeout)
{
    if (e->child.pid > 0 && e->child.to_fd >= 0) {
        char err[KM_ERR_MAX];
        proc_send(e, 0.1, err, "quit");
    }
    proc_reap(&e->child, timeout);
}

void proc_exit_text(EngineProc *e, char *buf, size_t len)
{
    if (!e->child.reaped) proc_reap(&e->child, 0.5);
    int st = e->child.wait_status;
    if (WIFEXITED(st)) snprintf(buf, len, "exited with status %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st)) snprintf(buf, len, "killed by signal %d", WTERMSIG(st));
    else snprintf(buf, len, "stopped");
}

/* write() without SIGPIPE: the signal is blocked on this thread for the
 * call, and one it raised is consumed before unblocking. */
static ssize_t write_nosigpipe(int fd, const char *p, size_t n)
{
    sigset_t pipe_set, old, pending;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    sigemptyset(&pending);
    sigpending(&pending);
    bool was_pending = sigismember(&pending, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    ssize_t w = write(fd, p, n);
    int e = errno;
    if (w < 0 && e == EPIPE && !was_pending) {
        struct timespec zero = {0, 0};
        while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR) {
        }
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return w;
}

int proc_write(ProcChild *c, const char *buf, size_t n, double timeout, char *err)
{
    if (c->pid <= 0 || c->to_fd < 0) return km_fail(err, "the process is not running");
    double end = km_now() + timeout;
    while (n) {
        struct pollfd pf = {c->to_fd, POLLOUT, 0};
        double wait = end - km_now();
        int pr = poll(&pf, 1, wait > 0 ? (int)(wait * 1000) + 1 : 0);
        if (pr < 0 && errno == EINTR) continue;
        if (pr == 0) return km_fail(err, "the process does not read its input");
        if (pr < 0) return km_fail(err, "cannot write to the process: %s", strerror(errno));
        ssize_t w = write_nosigpipe(c->to_fd, buf, n);
        if (w < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return km_fail(
                err, errno == EPIPE ? "the process closed its input" : "cannot write to the process: %s",
                strerror(errno));
        }
        buf += w;
        n -= (size_t)w;
    }
    return 0;
}

int proc_send(EngineProc *e, double timeout, char *err, const char *fmt, ...)
{
    if (e->child.pid <= 0 || e->child.to_fd < 0) return km_fail(err, "the engine is not running");
    char stackbuf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(stackbuf, sizeof stackbuf - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return km_fail(err, "cannot format a command");
    char *line = stackbuf;
    if ((size_t)n >= sizeof stackbuf - 1) {
        if (!(line = malloc((size_t)n + 2))) return km_fail(err, "out of memory");
        va_start(ap, fmt);
        vsnprintf(line, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    line[n] = '\n';
    int r = proc_write(&e->child, line, (size_t)n + 1, timeout, err);
    if (line != stackbuf) free(line);
    return r;
}

/* A complete line at the start of buf: copy it out and drop it. */
static bool take_line(EngineProc *e, char *line, size_t len, int *code)
{
    char *nl = memchr(e->buf, '\n', e->len);
    if (!nl) {
        if (e->len == sizeof e->buf) {
            *code = PROC_BAD;
            e->len = 0;
            if (len) snprintf(line, len, "a line longer than %d bytes", PROC_LINE_MAX);
            return true;
        }
        return false;
    }
    size_t n = (size_t)(nl - e->buf), keep = n;
    if (keep && e->buf[keep - 1] == '\r') keep--;
    *code = memchr(e->buf, '\0', keep) ? PROC_BAD : PROC_LINE;
    if (len) {
        size_t c = keep < len - 1 ? keep : len - 1;
        memcpy(line, e->buf, c);
        line[c] = '\0';
        if (*code == PROC_BAD) snprintf(line, len, "a line with a NUL byte");
    }
    memmove(e->buf, nl + 1, e->len - n - 1);
    e->len -= n + 1;
    return true;
}

int proc_read_line(EngineProc *e, double deadline, const atomic_bool *stop, char *line, size_t len)
{
    if (len) line[0] = '\0';
    for (;;) {
        int code;
        if (take_line(e, line, len, &code)) return code;
        if (e->eof || e->child.from_fd < 0) return PROC_EOF;
        if (stop && atomic_load_explicit(stop, memory_order_relaxed)) return PROC_STOPPED;
        double wait = deadline - km_now();
        if (wait <= 0) return PROC_TIMEOUT;
        int ms = (int)(wait * 1000) + 1;
        if (stop && ms > 20) ms = 20;
        struct pollfd pf = {e->child.from_fd, POLLIN, 0};
        int pr = poll(&pf, 1, ms);
        if (pr < 0 && errno != EINTR) return PROC_EOF;
        if (pr <= 0) continue;
        ssize_t r = read(e->child.from_fd, e->buf + e->len, sizeof e->buf - e->len);
        if (r < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (r <= 0) {
            e->eof = true;
            continue; /* a last line without its newline is dropped */
        }
        e->len += (size_t)r;
    }
}

int proc_expect(EngineProc *e, const char *want, double deadline, char *last, size_t lastlen)
{
    char line[256];
    if (last && lastlen) last[0] = '\0';
    for (;;) {
        int c = proc_read_line(e, deadline, NULL, line, sizeof line);
        if (c == PROC_LINE && strcmp(line, want) == 0) return PROC_LINE;
        if (c != PROC_LINE && c != PROC_BAD) return c;
        if (last && lastlen) snprintf(last, lastlen, "%s", line);
    }
}

int proc_spawn(ProcChild *c, const char *command, char *err)
{
    *c = (ProcChild)PROC_CHILD_NONE;
    int in[2], out[2];
    pthread_mutex_lock(&spawn_lock);
    if (cloexec_pipe(in)) {
        pthread_mutex_unlock(&spawn_lock);
        return km_fail(err, "cannot create a pipe: %s", strerror(errno));
    }
    if (cloexec_pipe(out)) {
        int e0 = errno;
        close(in[0]);
        close(in[1]);
        pthread_mutex_unlock(&spawn_lock);
        return km_fail(err, "cannot create a pipe: %s", strerror(e0));
    }
    pid_t pid = fork();
    if (pid == 0) {
        /* the child: only async-signal-safe calls until exec */
        setpgid(0, 0);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGPIPE, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        if (dup2(in[0], STDIN_FILENO) < 0 || dup2(out[1], STDOUT_FILENO) < 0) _exit(127);
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    int fork_errno = errno;
    pthread_mutex_unlock(&spawn_lock);
    close(in[0]);
    close(out[1]);
    if (pid < 0) {
        close(in[1]);
        close(out[0]);
        return km_fail(err, "cannot start a process: %s", strerror(fork_errno));
    }
    setpgid(pid, pid); /* also here, so that a kill right after fork reaches the group */
    fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
    c->pid = pid;
    c->to_fd = in[1];
    c->from_fd = out[0];
    return 0;
}

/* A failed handshake: why, with the exit status when the engine is gone. */
static int start_failed(EngineProc *e, int code, const char *want, const char *last, char *err)
{
    char why[96];
    if (code == PROC_EOF) {
        proc_exit_text(e, why, sizeof why);
        km_fail(err, "the engine %s before answering %s", why, want);
    } else if (code == PROC_TIMEOUT) {
        km_fail(err, "no answer to %s within %.0f s%s%.60s%s", want, PROC_START_TIMEOUT,
                last && *last ? " (last line: '" : "", last ? last : "", last && *last ? "')" : "");
    } else {
        km_fail(err, "bad answer to %s: %.60s", want, last ? last : "");
    }
    proc_kill(e);
    return -1;
}

int proc_start(EngineProc *e, const char *command, const char *const *option_lines, char *err)
{
    memset(e, 0, sizeof *e);
    if (proc_spawn(&e->child, command, err)) return -1;
    char line[256], last[256] = "";
    if (proc_send(e, PROC_START_TIMEOUT, err, "hello")) return start_failed(e, PROC_EOF, "hello", NULL, err);
    double end = km_now() + PROC_START_TIMEOUT;
    for (;;) {
        int c = proc_read_line(e, end, NULL, line, sizeof line);
        if (c != PROC_LINE) return start_failed(e, c, "hello", c == PROC_BAD ? line : last, err);
        if (strncmp(line, "hello ", 6) == 0) {
            snprintf(e->id, sizeof e->id, "%.120s", line + 6);
            break;
        }
        snprintf(last, sizeof last, "%s", line);
    }
    for (int i = 0; option_lines && option_lines[i]; i++)
        if (proc_send(e, PROC_START_TIMEOUT, err, "%s", option_lines[i]))
            return start_failed(e, PROC_EOF, "isready", NULL, err);
    if (proc_send(e, PROC_START_TIMEOUT, err, "isready"))
        return start_failed(e, PROC_EOF, "isready", NULL, err);
    int c = proc_expect(e, "readyok", km_now() + PROC_START_TIMEOUT, last, sizeof last);
    if (c != PROC_LINE) return start_failed(e, c, "isready", last, err);
    return 0;
}
