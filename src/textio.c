/* textio.c - growable strings, whole-file reads and atomic
 * file replacement for the library's file modules. See textio.h. */
#include "kingme/textio.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
                if (o->read_error) km_fail(err, "%s: %s", path, o->read_error);
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

int km_write_atomic(const char *path, const char *text, size_t len, char *err)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 5);
    if (!tmp) return km_fail(err, "%s: out of memory", path);
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp", 5);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        km_fail(err, "%s: cannot write: %s", tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    /* e: the errno of the first step that failed */
    errno = 0;
    bool ok = len == 0 || fwrite(text, 1, len, f) == len;
    ok = ok && fflush(f) == 0;
    ok = ok && fsync(fileno(f)) == 0;
    int e = ok ? 0 : errno;
    if (fclose(f) != 0 && ok) {
        ok = false;
        e = errno;
    }
    int r = 0;
    if (!ok) {
        r = km_fail(err, "%s: cannot write: %s", tmp, strerror(e ? e : EIO));
        remove(tmp);
    } else if (rename(tmp, path) != 0) {
        r = km_fail(err, "%s: cannot replace with %s: %s", path, tmp, strerror(errno));
        remove(tmp);
    }
    free(tmp);
    return r;
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
