/* textio.h - small text helpers shared by the library's file modules
 * (weights, pdn, tune, match, egdb): a growable string, whole numbers,
 * reading a whole file with a bound, the one writer of kingme's files
 * (replacing a file atomically, or appending to one), and showing untrusted
 * text in a message (km_fail is in base.h).
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
 * is set, later calls do nothing, and textio_buf_done frees s and returns NULL. */
typedef struct KmBuf {
    char *s;
    size_t len, cap; /* len excludes the NUL */
    bool oom;
} KmBuf;

void textio_buf_add(KmBuf *b, const char *s, size_t n);
void textio_buf_str(KmBuf *b, const char *s); /* textio_buf_add of strlen(s) bytes */
void textio_buf_printf(KmBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Each line of text (the last one may lack its '\n'; a '\r' before the
 * '\n' is dropped) as prefix, the line, '\n'; an empty line gets the prefix
 * without its trailing blanks ("# " gives "#"). text may be NULL. */
void textio_buf_lines(KmBuf *b, const char *text, const char *prefix);

/* The string, to free() (an empty buffer gives ""), or NULL when memory ran
 * out (the buffer is then freed). Either way b must not be used again. */
char *textio_buf_done(KmBuf *b);

/* What textio_read_text reads when KmReadOpts.max_bytes is 0: every read is bounded. */
#define KM_READ_MAX ((size_t)64 << 20)

/* How textio_read_text reads a file and words its messages ("PATH: ..."). A zero
 * KmReadOpts reads any regular file of up to KM_READ_MAX bytes, NUL bytes
 * included. */
typedef struct KmReadOpts {
    size_t max_bytes;        /* more than this is refused (too_large); 0: KM_READ_MAX */
    bool missing_ok;         /* a missing file (ENOENT) reads as "" */
    const char *cannot_open; /* "PATH: <cannot_open>: <strerror>"; NULL: "cannot open" */
    const char *read_error;  /* "PATH: <read_error>: <strerror>"; NULL: as cannot_open */
    const char *too_large;   /* "PATH: <too_large>"; NULL: "too large" */
    const char *nul_byte;    /* NUL bytes refused with "PATH: <nul_byte>"; NULL: allowed */
} KmReadOpts;

/* Open path for reading when it is a regular file (a link to one included):
 * a FIFO, a device, a socket or a directory is refused at once, never waited
 * on or read ("PATH: <cannot_open>: a FIFO, not a regular file", "PATH:
 * <cannot_open>: is a directory"; cannot_open NULL: "cannot open"). Returns
 * the descriptor (close-on-exec) and the file's size in *size (when not
 * NULL), or -1 with the message in err and errno set (ENOENT for a missing
 * file). */
int textio_open_regular(const char *path, const char *cannot_open, uint64_t *size, char *err);

/* The whole file as a malloc'd NUL-terminated string (*len, when len is not
 * NULL, gets its length without the NUL), or NULL with a message in err: the
 * ones of opts and textio_open_regular, or "PATH: out of memory". opts NULL: a
 * zero KmReadOpts. When the file is both too large and holds a NUL byte,
 * the first of the two in file order is reported (a NUL byte within the
 * first max_bytes first). */
char *textio_read_text(const char *path, const KmReadOpts *opts, size_t *len, char *err);

/* Split s in place into words at blanks (spaces, tabs, CR, LF): tok[i]
 * points at word i, NUL-terminated. Returns the count: at most max, or max + 1
 * when there are more words (tok then holds the first max). */
int textio_split(char *s, char **tok, int max);

/* text past a UTF-8 byte order mark (EF BB BF) at its start, if it has one:
 * the text readers (weights, population, PDN) accept one and ignore it. */
const char *textio_skip_bom(const char *text);

/* The one UTF-8 validator: the length (1 to 4) of the well-formed character
 * at p (at most n bytes), its code point in *cp (may be NULL); 0 for a byte
 * that starts none: a stray continuation byte, a sequence cut short, an
 * overlong form, a surrogate (U+D800-U+DFFF), above U+10FFFF. The text
 * escaper below and the SVG writer (svg_escape) both judge text by it. */
size_t textio_utf8_char(const unsigned char *p, size_t n, uint32_t *cp);

/* The one escaping rule of everything kingme echoes (error lines of the
 * command line, the engine protocol and PDN, a book's command text, the
 * names in analyze's report): in as it can be shown on a terminal, into
 * out (outlen bytes, always NUL-terminated, cut at a whole character):
 * printable ASCII and well-formed UTF-8 as they are; control bytes (escape
 * sequences, bells, line ends, DEL), bytes that are not UTF-8, C1 controls,
 * the byte order mark and the invisible or direction-changing characters
 * each as \xHH, one per byte. textio_escape_n takes n bytes, NUL bytes
 * included (as \x00). An out of 4 x the input's bytes + 1 always holds it
 * whole. */
void textio_escape(const char *in, char *out, size_t outlen);
void textio_escape_n(const char *in, size_t n, char *out, size_t outlen);

/* A whole decimal integer in [lo, hi]: false if t is empty, has anything
 * else, or is out of range. */
bool textio_parse_ll(const char *t, long long lo, long long hi, long long *out);

/* The one writer of kingme's files. Write len bytes of text to the file
 * path names, so that an interrupted write never leaves half a file where a
 * whole one was, and nobody else's file is written through a planted link:
 * - a regular file (or a new one) is replaced: a new file beside it,
 *   TARGET.XXXXXX.tmp (six random letters; created with O_EXCL and
 *   O_NOFOLLOW, so never an existing file or a link planted there), is
 *   written, fsync'ed, closed and renamed over PATH (keeping PATH's
 *   permissions), then the folder is fsync'ed;
 * - a symbolic link to a file replaces the file it points to (the temporary
 *   beside that file), so the link stays and its target changes; a link to
 *   a missing file is refused;
 * - a path in a missing folder makes the folder (and its parents);
 * - "-" and "/dev/stdout" are the standard output stream (written and
 *   flushed), and a device, a FIFO or any path under /dev/ or /proc/ is
 *   written in place (opened, written, closed), never replaced;
 * - a directory and an empty name are refused.
 * Returns 0, or -1 with a message in err ("PATH: cannot write: <strerror>",
 * "PATH: cannot write: is a directory", "PATH: cannot write: a symbolic link
 * to a missing file", "DIR: cannot create the folder: <strerror>", ...); the
 * temporary is removed on failure (a kill at the wrong moment may leave
 * one). */
int textio_write_atomic(const char *path, const char *text, size_t len, char *err);

/* A file to append to, by the same rules as textio_write_atomic: an existing
 * file, or the file an existing link names, is opened to append; a missing
 * one is created (exclusively: never through a link planted meanwhile),
 * its missing folders too; a link to a missing file is refused. Returns the
 * descriptor (O_APPEND, close-on-exec; *created says whether the file is
 * new), or -1 with a message in err. "-" is not standard output here. */
int textio_open_append(const char *path, bool *created, char *err);

/* write() all of text to fd (retrying short writes and EINTR): 0, or the
 * errno of the failure (ENOSPC for a write that wrote nothing). */
int textio_write_fd(int fd, const char *text, size_t len);

/* mkdir -p: dir and its missing parents (0777 less the umask). 0, or -1
 * with "DIR: cannot create the folder: <strerror>" in err. */
int textio_make_dirs(const char *dir, char *err);

/* True when textio_write_atomic writes path in place rather than replacing it
 * (standard output, a device, a FIFO, a path under /dev/ or /proc/). */
bool textio_writes_in_place(const char *path);

/* "-" or "/dev/stdout": the names of the standard output. */
bool textio_is_stdout_name(const char *path);

/* CRC-32 (IEEE 802.3, reflected: the one of zlib, zip and PNG): the CRC of
 * n more bytes after those whose CRC is crc (0 to start), as zlib's crc32.
 * Thread-safe. */
uint32_t textio_crc32(uint32_t crc, const void *p, size_t n);

#endif
