/* windows.h - the little of <windows.h> a CheckerBoard engine's source
 * needs (simplech.c, cb_interface.h), for compiling it unchanged on a POSIX
 * system as an opponent linked into cbengine.c (tools/opponents.sh). No
 * Windows behaviour is emulated: the calling conventions are empty, the
 * types are the sizes the engines expect, the few system calls of their
 * DLL set-up and logging fail harmlessly (ShlObj.h, Shlwapi.h).
 *
 * One deliberate difference: clock() is the wall clock (CLOCK_MONOTONIC in
 * CLOCKS_PER_SEC ticks), not the process's processor time, because kingme's
 * referee and kingme's own search measure wall time: on a busy machine an
 * engine timing itself by processor time would think longer than its
 * opponent. */
#ifndef CBENGINE_WINDOWS_H
#define CBENGINE_WINDOWS_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WINAPI
#define CALLBACK
#define APIENTRY

typedef int BOOL;
typedef int INT;
typedef unsigned int UINT;
typedef uint32_t DWORD;
typedef void *HANDLE;
typedef void *HINSTANCE;
typedef void *HMODULE;
typedef void *HWND;
typedef void *LPVOID;
typedef long HRESULT;

#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif
#define MAX_PATH 260

#define DLL_PROCESS_DETACH 0
#define DLL_PROCESS_ATTACH 1
#define DLL_THREAD_ATTACH 2
#define DLL_THREAD_DETACH 3

#define SUCCEEDED(hr) ((HRESULT)(hr) >= 0)
#define FAILED(hr) ((HRESULT)(hr) < 0)
#define E_FAIL ((HRESULT)0x80004005L)

/* no folders are made: the engines only make them for a log file */
#define CreateDirectory(path, attributes) ((void)(path), (void)(attributes), FALSE)
#define CreateDirectoryA CreateDirectory

/* the old name of CLOCKS_PER_SEC */
#define CLK_TCK CLOCKS_PER_SEC

/* clock(): the wall clock (see above) */
static inline clock_t cbengine_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (clock_t)ts.tv_sec * CLOCKS_PER_SEC + (clock_t)(ts.tv_nsec / (1000000000 / CLOCKS_PER_SEC));
}
#define clock() cbengine_clock()

#ifdef __cplusplus
/* Windows' min and max (the engines are C++: overloads rather than macros,
 * which would break a standard header included later) */
template <class T> static inline T min(T a, T b) { return b < a ? b : a; }
template <class T> static inline T max(T a, T b) { return a < b ? b : a; }
#endif

#endif
