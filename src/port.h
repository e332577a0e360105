/* port.h - the few calls the library makes that Windows spells otherwise
 * (the CheckerBoard engine is the library built with mingw-w64): aligned
 * allocation, and the POSIX file calls of the atomic writer. On every other
 * system these are the POSIX calls themselves. Library-internal.
 *
 * On Windows a file cannot be a symbolic link here, a replacement keeps no
 * permissions, _commit is fsync, and rename does not replace an existing
 * file: the CheckerBoard engine reads files and writes none. */
#ifndef KINGME_PORT_H
#define KINGME_PORT_H

#include <stdlib.h>

#ifdef _WIN32
#include <io.h>
#include <malloc.h>
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
#else
static inline void *km_aligned_alloc(size_t align, size_t bytes) { return aligned_alloc(align, bytes); }
static inline void km_aligned_free(void *p) { free(p); }
#endif

#endif
