/* textio.h - small text helpers shared by the library's file modules
 * (weights, pdn, tune, match): a growable string, whole numbers, reading a
 * whole text file and replacing a file atomically (km_fail is in base.h).
 *
 * Library code: nothing is printed, nothing exits; every allocation is
 * checked. Messages go to err, a buffer of KM_ERR_MAX bytes (kingme/base.h). */
#ifndef KINGME_TEXTIO_H
#define KINGME_TEXTIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kingme/base.h" /* KM_ERR_MAX, km_fail */


/* A growable NUL-terminated string. Start from KmBuf b = {0}. After the first
 * add or printf, s is allocated (possibly ""), unless memory ran out: then oom
 * is set, later calls do nothing, and km_buf_done frees s and returns NULL. */
typedef struct KmBuf {
    char *s;
    size_t len, cap; /* len excludes the NUL */
    bool oom;
} KmBuf;

void km_buf_add(KmBuf *b, const char *s, size_t n);
void km_buf_str(KmBuf *b, const char *s); /* km_buf_add of strlen(s) bytes */
void km_buf_printf(KmBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The string, to free() (an empty buffer gives ""), or NULL when memory ran
 * out (the buffer is then freed). Either way b must not be used again. */
char *km_buf_done(KmBuf *b);

/* How km_read_text reads a file and words its messages ("PATH: ..."). A zero
 * KmReadOpts reads any file of any size, NUL bytes included. */
typedef struct KmReadOpts {
    size_t max_bytes;        /* more than this is refused (too_large); 0: no limit */
    bool missing_ok;         /* a missing file (ENOENT) reads as "" */
    const char *cannot_open; /* "PATH: <cannot_open>: <strerror>"; NULL: "cannot open" */
    const char *read_error;  /* "PATH: <read_error>: <strerror>"; NULL: as cannot_open */
    const char *too_large;   /* "PATH: <too_large>"; NULL: "too large" */
    const char *nul_byte;    /* NUL bytes refused with "PATH: <nul_byte>"; NULL: allowed */
} KmReadOpts;

/* The whole file as a malloc'd NUL-terminated string (*len, when len is not
 * NULL, gets its length without the NUL), or NULL with a message in err: the
 * ones of opts, "PATH: <cannot_open>: is a directory" or "PATH: out of memory".
 * opts NULL: a zero KmReadOpts. When the file is both too large and holds a
 * NUL byte, the first of the two in file order is reported (a NUL byte within
 * the first max_bytes first). */
char *km_read_text(const char *path, const KmReadOpts *opts, size_t *len, char *err);

/* Split s in place into words at blanks (spaces, tabs, CR, LF): tok[i]
 * points at word i, NUL-terminated. Returns the count: at most max, or max + 1
 * when there are more words (tok then holds the first max). */
int km_split(char *s, char **tok, int max);

/* A whole decimal integer in [lo, hi]: false if t is empty, has anything
 * else, or is out of range. */
bool km_parse_ll(const char *t, long long lo, long long hi, long long *out);

/* Write len bytes of text to the file path names, so that an interrupted
 * write never leaves half a file where a whole one was:
 * - a regular file (or a new one) is replaced: PATH.tmp is written, flushed,
 *   fsync'ed, closed and renamed over PATH (keeping PATH's permissions);
 * - a symbolic link to a file replaces the file it points to (PATH.tmp beside
 *   that file), so the link stays and its target changes; a link to a missing
 *   file is refused;
 * - "-" and "/dev/stdout" are the standard output stream (written and
 *   flushed), and a device, a FIFO or any path under /dev/ or /proc/ is
 *   written in place (opened, written, closed), never replaced;
 * - a directory and an empty name are refused.
 * Returns 0, or -1 with a message in err ("PATH.tmp: cannot write:
 * <strerror>", "PATH: cannot replace with PATH.tmp: <strerror>", "PATH:
 * cannot write: is a directory", "PATH: out of memory", ...); PATH.tmp is
 * removed on failure. */
int km_write_atomic(const char *path, const char *text, size_t len, char *err);

/* True when km_write_atomic writes path in place rather than replacing it
 * (standard output, a device, a FIFO, a path under /dev/ or /proc/). */
bool km_writes_in_place(const char *path);

/* "-" or "/dev/stdout": the names of the standard output. */
bool km_is_stdout_name(const char *path);

/* CRC-32 (IEEE 802.3, reflected: the one of zlib, zip and PNG): the CRC of
 * n more bytes after those whose CRC is crc (0 to start), as zlib's crc32.
 * Thread-safe. */
uint32_t km_crc32(uint32_t crc, const void *p, size_t n);

#endif
