/* textio.c - growable strings, whole-file reads and atomic
 * file replacement for the library's file modules. See textio.h. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "kingme/textio.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

void km_buf_add(KmBuf *b, const char *s, size_t n)
{
    if (!buf_reserve(b, n)) return;
    if (n) memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void km_buf_str(KmBuf *b, const char *s) { km_buf_add(b, s, strlen(s)); }

void km_buf_printf(KmBuf *b, const char *fmt, ...)
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

char *km_buf_done(KmBuf *b)
{
    if (!b->oom && !b->s) km_buf_add(b, "", 0);
    if (b->oom) {
        free(b->s);
        b->s = NULL;
        return NULL;
    }
    return b->s;
}

/* ---- reading ----------------------------------------------------------------------- */

char *km_read_text(const char *path, const KmReadOpts *opts, size_t *len, char *err)
{
    static const KmReadOpts plain = {0};
    const KmReadOpts *o = opts ? opts : &plain;
    const char *cannot_open = o->cannot_open ? o->cannot_open : "cannot open";
    FILE *f = fopen(path, "rb");
    if (!f) {
        int e = errno;
        if (o->missing_ok && e == ENOENT) {
            char *s = malloc(1);
            if (!s) {
                km_fail(err, "%s: out of memory", path);
                return NULL;
            }
            s[0] = '\0';
            if (len) *len = 0;
            return s;
        }
        km_fail(err, "%s: %s: %s", path, cannot_open, strerror(e));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        km_fail(err, "%s: %s: is a directory", path, cannot_open);
        return NULL;
    }
    /* Read at most max + 1 bytes: one more than allowed tells a file that is
     * too large. n <= max at the top of the loop. */
    size_t max = o->max_bytes ? o->max_bytes : SIZE_MAX - 2;
    char *s = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (cap - n < 2) { /* room for one byte and the NUL */
            size_t ncap = cap ? (cap <= SIZE_MAX / 2 ? cap * 2 : SIZE_MAX) : 1 << 16;
            char *t = ncap > cap ? realloc(s, ncap) : NULL;
            if (!t) {
                fclose(f);
                free(s);
                km_fail(err, "%s: out of memory", path);
                return NULL;
            }
            s = t;
            cap = ncap;
        }
        size_t want = cap - n - 1;
        if (want > max + 1 - n) want = max + 1 - n;
        size_t got = fread(s + n, 1, want, f);
        int e = errno;
        if (o->nul_byte) {
            size_t scan = got < max - n ? got : max - n; /* the bytes within the limit */
            if (memchr(s + n, '\0', scan)) {
                fclose(f);
                free(s);
                km_fail(err, "%s: %s", path, o->nul_byte);
                return NULL;
            }
        }
        n += got;
        if (n > max) {
            fclose(f);
            free(s);
            km_fail(err, "%s: %s", path, o->too_large ? o->too_large : "too large");
            return NULL;
        }
        if (got < want) {
            if (ferror(f)) {
                fclose(f);
                free(s);
                if (o->read_error) km_fail(err, "%s: %s: %s", path, o->read_error, strerror(e ? e : EIO));
                else km_fail(err, "%s: %s: %s", path, cannot_open, strerror(e ? e : EIO));
                return NULL;
            }
            break;
        }
    }
    fclose(f);
    s[n] = '\0';
    if (len) *len = n;
    return s;
}

/* ---- writing ----------------------------------------------------------------------- */

bool km_is_stdout_name(const char *path)
{
    return strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0;
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
    if (km_is_stdout_name(path)) {
        int e = put_all(stdout, text, len);
        if (e) return km_fail(err, "%s: cannot write: %s", path, strerror(e));
        return 0;
    }
    FILE *f = fopen(path, "wb");
    if (!f) return km_fail(err, "%s: cannot write: %s", path, strerror(errno));
    int e = put_all(f, text, len);
    if (fclose(f) != 0 && !e) e = errno ? errno : EIO;
    if (e) return km_fail(err, "%s: cannot write: %s", path, strerror(e));
    return 0;
}

bool km_writes_in_place(const char *path)
{
    if (km_is_stdout_name(path)) return true;
    /* /dev/stderr, /dev/fd/N, /proc/self/fd/N are links to whatever the
     * descriptor is (possibly a regular file another program holds open):
     * never replace them */
    if (strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0) return true;
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

int km_write_atomic(const char *path, const char *text, size_t len, char *err)
{
    if (!*path) return km_fail(err, "an empty file name");
    if (km_writes_in_place(path)) return write_in_place(path, text, len, err);
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
    }
    size_t plen = strlen(target);
    char *tmp = malloc(plen + 5);
    if (!tmp) {
        free(resolved);
        return km_fail(err, "%s: out of memory", path);
    }
    memcpy(tmp, target, plen);
    memcpy(tmp + plen, ".tmp", 5);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        km_fail(err, "%s: cannot write: %s", tmp, strerror(errno));
        free(tmp);
        free(resolved);
        return -1;
    }
    /* the replacement keeps the permissions of the file it replaces */
    if (exists) (void)fchmod(fileno(f), st.st_mode & 07777);
    /* e: the errno of the first step that failed */
    int e = put_all(f, text, len);
    if (!e && fsync(fileno(f)) != 0) e = errno ? errno : EIO;
    if (fclose(f) != 0 && !e) e = errno ? errno : EIO;
    int r = 0;
    if (e) {
        r = km_fail(err, "%s: cannot write: %s", tmp, strerror(e));
        remove(tmp);
    } else if (rename(tmp, target) != 0) {
        r = km_fail(err, "%s: cannot replace with %s: %s", target, tmp, strerror(errno));
        remove(tmp);
    }
    free(tmp);
    free(resolved);
    return r;
}

int km_split(char *s, char **tok, int max)
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

bool km_parse_ll(const char *t, long long lo, long long hi, long long *out)
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

uint32_t km_crc32(uint32_t crc, const void *p, size_t n)
{
    pthread_once(&crc_once, crc_fill);
    const uint8_t *b = p;
    uint32_t c = crc ^ 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) c = crc_table[(c ^ b[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}
