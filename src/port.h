/* port.h - the few calls the library makes that Windows spells otherwise
 * (the CheckerBoard engine is the library built with mingw-w64): aligned
 * allocation, and the POSIX file calls of the file readers and the atomic
 * writer. On every other system these are the POSIX calls themselves.
 * Library-internal; included after the system headers.
 *
 * On Windows a file cannot be a symbolic link here, a replacement keeps no
 * permissions, _commit is fsync, and rename does not replace an existing
 * file: the CheckerBoard engine reads files and writes none. Every open()
 * of the library passes O_CLOEXEC: on Windows that is binary mode (no
 * CR-LF translation, no end of file at a Ctrl-Z byte: the endgame
 * database's magic holds one) and a handle no child inherits. The flags
 * Windows lacks (a FIFO, a terminal, a link) are 0, and fcntl fails, so
 * that textio_open_regular keeps the blocking mode it has anyway. */
#ifndef KINGME_PORT_H
#define KINGME_PORT_H

#include <stdlib.h>

#ifdef _WIN32
#include <direct.h>
#include <fcntl.h>
#include <io.h>
#include <malloc.h>
#include <stdio.h>
#include <sys/stat.h>

static inline void *km_aligned_alloc(size_t align, size_t bytes) { return _aligned_malloc(bytes, align); }
static inline void km_aligned_free(void *p) { _aligned_free(p); }

#define lstat(path, st) stat((path), (st))
#ifndef S_ISLNK
#define S_ISLNK(mode) 0
#endif
#define fsync(fd) _commit(fd)
#define fchmod(fd, mode) ((void)(fd), (void)(mode), 0)
#define realpath(path, resolved) _fullpath((resolved), (path), 0)

#ifdef O_CLOEXEC
#undef O_CLOEXEC
#endif
#define O_CLOEXEC (_O_BINARY | _O_NOINHERIT)
#define O_NONBLOCK 0
#define O_NOCTTY 0
#define O_NOFOLLOW 0
#define O_DIRECTORY 0
#define fcntl(...) (-1)
#ifndef S_ISSOCK
#define S_ISSOCK(mode) 0
#endif
#define mkdir(path, mode) _mkdir(path)
/* pread for a descriptor no other thread uses meanwhile */
static inline long long km_pread(int fd, void *buf, size_t n, long long at)
{
    if (_lseeki64(fd, at, SEEK_SET) < 0) return -1;
    return _read(fd, buf, n > 0x40000000u ? 0x40000000u : (unsigned)n);
}
#define pread(fd, buf, n, at) km_pread((fd), (buf), (n), (long long)(at))
#else
static inline void *km_aligned_alloc(size_t align, size_t bytes) { return aligned_alloc(align, bytes); }
static inline void km_aligned_free(void *p) { free(p); }
#endif

#endif
