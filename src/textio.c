/* textio.c - growable strings, whole-file reads and atomic
 * file replacement for the library's file modules. See textio.h. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "kingme/textio.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "port.h" /* after the system headers: it renames some of their calls on Windows */

/* ---- growable strings -------------------------------------------------------------- */

/* Room for need more bytes and the NUL; false (and oom set) when there is none. */
static bool buf_reserve(KmBuf *b, size_t need)
{
    if (b->oom) return false;
    if (need > SIZE_MAX - 1 - b->len) {
        b->oom = true;
        return false;
    }
    size_t want = b->len + need + 1;
    if (want <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < want) {
        if (cap > SIZE_MAX / 2) {
            cap = want;
            break;
        }
        cap *= 2;
    }
    char *p = realloc(b->s, cap);
    if (!p) {
        b->oom = true;
        return false;
    }
    b->s = p;
    b->cap = cap;
    return true;
}

void textio_buf_add(KmBuf *b, const char *s, size_t n)
{
    if (!buf_reserve(b, n)) return;
    if (n) memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void textio_buf_str(KmBuf *b, const char *s) { textio_buf_add(b, s, strlen(s)); }

void textio_buf_lines(KmBuf *b, const char *text, const char *prefix)
{
    size_t np = strlen(prefix), bare = np;
    while (bare && prefix[bare - 1] == ' ') bare--;
    for (const char *c = text; c && *c;) {
        const char *eol = strchr(c, '\n');
        size_t n = eol ? (size_t)(eol - c) : strlen(c);
        const char *next = eol ? eol + 1 : c + n;
        if (n && c[n - 1] == '\r') n--;
        textio_buf_add(b, prefix, n ? np : bare);
        textio_buf_add(b, c, n);
        textio_buf_add(b, "\n", 1);
        c = next;
    }
}

void textio_buf_printf(KmBuf *b, const char *fmt, ...)
{
    if (b->oom) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->oom = true;
        return;
    }
    if (!buf_reserve(b, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

char *textio_buf_done(KmBuf *b)
{
    if (!b->oom && !b->s) textio_buf_add(b, "", 0);
    if (b->oom) {
        free(b->s);
        b->s = NULL;
        return NULL;
    }
    return b->s;
}

/* ---- reading ----------------------------------------------------------------------- */

/* What a file that is not a regular one is, for the message. */
static const char *kind_of(mode_t m)
{
    return S_ISFIFO(m)   ? "a FIFO"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

int textio_open_regular(const char *path, const char *cannot_open, uint64_t *size, char *err)
{
    if (!cannot_open) cannot_open = "cannot open";
    /* O_NONBLOCK: opening a FIFO does not wait for a writer (it is refused
     * just below); O_NOCTTY: a terminal never becomes ours */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        km_fail(err, "%s: %s: %s", path, cannot_open, strerror(e));
        errno = e;
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        km_fail(err, "%s: %s: %s", path, cannot_open, strerror(e));
        errno = e;
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        if (S_ISDIR(st.st_mode)) km_fail(err, "%s: %s: is a directory", path, cannot_open);
        else km_fail(err, "%s: %s: %s, not a regular file", path, cannot_open, kind_of(st.st_mode));
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl != -1) (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    if (size) *size = (uint64_t)st.st_size;
    return fd;
}

/* read() until n bytes or the end of the file; the bytes read, or -1. */
static ssize_t read_full(int fd, void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

char *textio_read_text(const char *path, const KmReadOpts *opts, size_t *len, char *err)
{
    static const KmReadOpts plain = {0};
    const KmReadOpts *o = opts ? opts : &plain;
    const char *cannot_open = o->cannot_open ? o->cannot_open : "cannot open";
    uint64_t size;
    int fd = textio_open_regular(path, cannot_open, &size, err);
    if (fd < 0) {
        if (o->missing_ok && errno == ENOENT) {
            char *s = malloc(1);
            if (!s) {
                km_fail(err, "%s: out of memory", path);
                return NULL;
            }
            s[0] = '\0';
            if (len) *len = 0;
            return s;
        }
        return NULL;
    }
    /* Read at most max + 1 bytes: one more than allowed tells a file that is
     * too large (or has grown since it was measured). n <= max at the top of
     * the loop. */
    size_t max = o->max_bytes ? o->max_bytes : KM_READ_MAX;
    char *s = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (cap - n < 2) { /* room for one byte and the NUL */
            size_t ncap = cap ? (cap <= SIZE_MAX / 2 ? cap * 2 : SIZE_MAX) : 1 << 16;
            /* the file's size (and the NUL) at once when it is within the limit */
            if (!cap && size < max && size + 2 > ncap) ncap = (size_t)size + 2;
            char *t = ncap > cap ? realloc(s, ncap) : NULL;
            if (!t) {
                close(fd);
                free(s);
                km_fail(err, "%s: out of memory", path);
                return NULL;
            }
            s = t;
            cap = ncap;
        }
        size_t want = cap - n - 1;
        if (want > max + 1 - n) want = max + 1 - n;
        ssize_t r = read_full(fd, s + n, want);
        int e = errno;
        if (r < 0) {
            close(fd);
            free(s);
            if (o->read_error) km_fail(err, "%s: %s: %s", path, o->read_error, strerror(e ? e : EIO));
            else km_fail(err, "%s: %s: %s", path, cannot_open, strerror(e ? e : EIO));
            return NULL;
        }
        size_t got = (size_t)r;
        if (o->nul_byte) {
            size_t scan = got < max - n ? got : max - n; /* the bytes within the limit */
            if (memchr(s + n, '\0', scan)) {
                close(fd);
                free(s);
                km_fail(err, "%s: %s", path, o->nul_byte);
                return NULL;
            }
        }
        n += got;
        if (n > max) {
            close(fd);
            free(s);
            km_fail(err, "%s: %s", path, o->too_large ? o->too_large : "too large");
            return NULL;
        }
        if (got < want) break;
    }
    close(fd);
    s[n] = '\0';
    if (len) *len = n;
    return s;
}

const char *textio_skip_bom(const char *text)
{
    return strncmp(text, "\xEF\xBB\xBF", 3) == 0 ? text + 3 : text;
}

/* ---- showing untrusted text --------------------------------------------------------- */

size_t textio_utf8_char(const unsigned char *p, size_t n, uint32_t *cp)
{
    if (n == 0) return 0;
    unsigned c = p[0];
    if (c < 0x80) {
        if (cp) *cp = c;
        return 1;
    }
    size_t len = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? (c <= 0xEF ? 3 : 0) : c >= 0xC2 ? 2 : 0;
    if (!len || len > n) return 0;
    uint32_t v = len == 2 ? c & 0x1F : len == 3 ? c & 0x0F : c & 0x07;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        v = v << 6 | (p[i] & 0x3F);
    }
    static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < min[len] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0; /* overlong, surrogate */
    if (cp) *cp = v;
    return len;
}

/* The length of the character at p (at most n bytes) when a terminal shows
 * it as itself: printable ASCII, or well-formed UTF-8 other than the C1
 * controls, the byte order mark and the zero-width and direction-changing
 * characters (U+200B-U+200F, U+2028-U+202E, U+2060-U+2069), which hide or
 * reorder the text around them; else 0. */
static size_t char_shown(const unsigned char *p, size_t n)
{
    uint32_t cp;
    size_t len = textio_utf8_char(p, n, &cp);
    if (!len) return 0;
    if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || cp == 0xFEFF ||
        (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x2069))
        return 0;
    return len;
}

void textio_escape_n(const char *in, size_t n, char *out, size_t outlen)
{
    if (!outlen) return;
    size_t at = 0;
    const unsigned char *p = (const unsigned char *)in;
    for (size_t i = 0; i < n;) {
        size_t keep = char_shown(p + i, n - i);
        if (keep) { /* shown as it is */
            if (at + keep >= outlen) break;
            memcpy(out + at, p + i, keep);
            at += keep;
            i += keep;
        } else { /* one byte, as \xHH */
            if (at + 4 >= outlen) break;
            snprintf(out + at, 5, "\\x%02X", p[i]);
            at += 4;
            i++;
        }
    }
    out[at] = '\0';
}

void textio_escape(const char *in, char *out, size_t outlen) { textio_escape_n(in, strlen(in), out, outlen); }

/* ---- writing ----------------------------------------------------------------------- */

bool textio_is_stdout_name(const char *path)
{
    return strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0;
}

int textio_write_fd(int fd, const char *text, size_t len)
{
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, text + off, len - off);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) return errno ? errno : EIO;
        if (w == 0) return ENOSPC;
        off += (size_t)w;
    }
    return 0;
}

/* Write all of text to an open stream and flush it; the errno of a failure,
 * else 0. */
static int put_all(FILE *f, const char *text, size_t len)
{
    errno = 0;
    if (len && fwrite(text, 1, len, f) != len) return errno ? errno : EIO;
    if (fflush(f) != 0) return errno ? errno : EIO;
    return 0;
}

/* A device, FIFO or standard output: written where it is, never replaced. */
static int write_in_place(const char *path, const char *text, size_t len, char *err)
{
    if (textio_is_stdout_name(path)) {
        int e = put_all(stdout, text, len);
        if (e) return km_fail(err, "%s: cannot write: %s", path, strerror(e));
        return 0;
    }
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return km_fail(err, "%s: cannot write: %s", path, strerror(errno));
    int e = textio_write_fd(fd, text, len);
    if (close(fd) != 0 && !e) e = errno ? errno : EIO;
    if (e) return km_fail(err, "%s: cannot write: %s", path, strerror(e));
    return 0;
}

bool textio_writes_in_place(const char *path)
{
    if (textio_is_stdout_name(path)) return true;
    /* /dev/stderr, /dev/fd/N, /proc/self/fd/N are links to whatever the
     * descriptor is (possibly a regular file another program holds open):
     * never replace them */
    if (strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0) return true;
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* The folder part of path into buf ("." when it has none). */
static void dir_of(const char *path, char *buf, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(buf, len, ".");
    else if (slash == path) snprintf(buf, len, "/");
    else snprintf(buf, len, "%.*s", (int)(slash - path), path);
}

int textio_make_dirs(const char *dir, char *err)
{
    size_t n = strlen(dir);
    char *buf = malloc(n + 1);
    if (!buf) return km_fail(err, "%s: out of memory", dir);
    memcpy(buf, dir, n + 1);
    int r = 0;
    for (char *p = buf + 1;; p++) {
        if (*p != '/' && *p != '\0') continue;
        char c = *p;
        *p = '\0';
        struct stat st;
        if (p[-1] != '/' && mkdir(buf, 0777) != 0 &&
            !(errno == EEXIST && stat(buf, &st) == 0 && S_ISDIR(st.st_mode))) {
            r = km_fail(err, "%s: cannot create the folder: %s", buf,
                        strerror(errno == EEXIST ? ENOTDIR : errno));
            break;
        }
        *p = c;
        if (!c) break;
    }
    free(buf);
    return r;
}

/* The folders of path's folder, made when they are missing. */
static int make_parent(const char *path, char *err)
{
    size_t n = strlen(path) + 2;
    char *dir = malloc(n);
    if (!dir) return km_fail(err, "%s: out of memory", path);
    dir_of(path, dir, n);
    struct stat st;
    int r = stat(dir, &st) != 0   ? textio_make_dirs(dir, err)
            : S_ISDIR(st.st_mode) ? 0
                                  : km_fail(err, "%s: cannot create the folder: %s", dir, strerror(ENOTDIR));
    free(dir);
    return r;
}

/* A new file beside target, named TARGET.XXXXXX.tmp with six letters or
 * digits nobody can guess, created exclusively (O_EXCL: never an existing
 * file, never through a symbolic link planted under that name). The
 * descriptor, with the name in *tmp (malloc'd); -1 with errno set. */
static int create_temp(const char *target, char **tmp)
{
    static _Atomic unsigned long counter;
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    const char *slash = strrchr(target, '/');
    size_t dlen = slash ? (size_t)(slash - target) + 1 : 0, blen = strlen(target) - dlen;
    if (blen > 200) blen = 200; /* room for the suffix within a file name's 255 bytes */
    char *t = malloc(dlen + blen + 16);
    if (!t) {
        errno = ENOMEM;
        return -1;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t r = km_mix64((uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30 ^ (uint64_t)getpid() << 40 ^
                          (uint64_t)(uintptr_t)t);
    for (int attempt = 0; attempt < 100; attempt++) {
        uint64_t x = km_mix64(r ^ (uint64_t)++counter << 20 ^ (uint64_t)attempt);
        char suffix[7];
        for (int i = 0; i < 6; i++, x >>= 6) suffix[i] = letters[(x & 63) % 62];
        suffix[6] = '\0';
        snprintf(t, dlen + blen + 16, "%.*s%.*s.%s.tmp", (int)dlen, target, (int)blen, target + dlen, suffix);
        int fd = open(t, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0666);
        if (fd >= 0) {
            *tmp = t;
            return fd;
        }
        if (errno != EEXIST) break;
    }
    int e = errno;
    free(t);
    errno = e;
    return -1;
}

/* fsync the folder of path, so that a rename in it survives a power cut
 * (best effort: some file systems refuse it). */
static void sync_dir_of(const char *path)
{
    size_t n = strlen(path) + 2;
    char *dir = malloc(n);
    if (!dir) return;
    dir_of(path, dir, n);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

int textio_write_atomic(const char *path, const char *text, size_t len, char *err)
{
    if (!*path) return km_fail(err, "an empty file name");
    if (textio_writes_in_place(path)) return write_in_place(path, text, len, err);
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) return km_fail(err, "%s: cannot write: is a directory", path);
    /* A symbolic link: replace the file it points to, not the link. A
     * dangling link is refused (the file it names may be anywhere). */
    const char *target = path;
    char *resolved = NULL;
    struct stat lst;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        if (!exists) return km_fail(err, "%s: cannot write: a symbolic link to a missing file", path);
        resolved = realpath(path, NULL);
        if (!resolved) return km_fail(err, "%s: cannot resolve the symbolic link: %s", path, strerror(errno));
        target = resolved;
    } else if (!exists && make_parent(path, err)) {
        return -1;
    }
    char *tmp = NULL;
    int fd = create_temp(target, &tmp);
    if (fd < 0) {
        int e = errno;
        free(resolved);
        return km_fail(err, "%s: cannot write: %s", path, strerror(e));
    }
    /* the replacement keeps the permissions of the file it replaces */
    if (exists) (void)fchmod(fd, st.st_mode & 07777);
    /* e: the errno of the first step that failed */
    int e = textio_write_fd(fd, text, len);
    if (!e && fsync(fd) != 0) e = errno ? errno : EIO;
    if (close(fd) != 0 && !e) e = errno ? errno : EIO;
    int r = 0;
    if (!e && rename(tmp, target) != 0) e = errno;
    if (e) {
        r = km_fail(err, "%s: cannot write: %s", path, strerror(e));
        unlink(tmp);
    } else {
        sync_dir_of(target);
    }
    free(tmp);
    free(resolved);
    return r;
}

int textio_split(char *s, char **tok, int max)
{
    int n = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') s++;
        if (!*s) break;
        if (n == max) return max + 1;
        tok[n++] = s;
        while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n') s++;
        if (*s) *s++ = '\0';
    }
    return n;
}

int textio_open_append(const char *path, bool *created, char *err)
{
    if (created) *created = false;
    if (!*path) return km_fail(err, "an empty file name");
    for (int attempt = 0; attempt < 10; attempt++) {
        /* an existing file, or the file an existing link names */
        int fd = open(path, O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
        if (fd >= 0) return fd;
        if (errno != ENOENT && errno != ENOTDIR)
            return km_fail(err, "%s: cannot write: %s", path, strerror(errno));
        struct stat lst;
        if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
            return km_fail(err, "%s: cannot write: a symbolic link to a missing file", path);
        if (make_parent(path, err)) return -1;
        /* a new file: exclusively, so that a link planted meanwhile is not followed */
        fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0666);
        if (fd >= 0) {
            if (created) *created = true;
            return fd;
        }
        if (errno != EEXIST) return km_fail(err, "%s: cannot write: %s", path, strerror(errno));
    }
    return km_fail(err, "%s: cannot write: the name keeps changing", path);
}

bool textio_parse_ll(const char *t, long long lo, long long hi, long long *out)
{
    if (!t || !*t) return false;
    char *end;
    errno = 0;
    long long v = strtoll(t, &end, 10);
    if (errno || *end || v < lo || v > hi) return false;
    *out = v;
    return true;
}

/* ---- CRC-32 ------------------------------------------------------------------------ */

static uint32_t crc_table[256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_fill(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}

uint32_t textio_crc32(uint32_t crc, const void *p, size_t n)
{
    pthread_once(&crc_once, crc_fill);
    const uint8_t *b = p;
    uint32_t c = crc ^ 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) c = crc_table[(c ^ b[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}
