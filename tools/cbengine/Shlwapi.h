/* Shlwapi.h - path helpers: PathAppend joins with Windows' backslash, as
 * the engines expect (they only build the name of a log file with it). */
#ifndef CBENGINE_SHLWAPI_H
#define CBENGINE_SHLWAPI_H

#include "windows.h"

static inline BOOL cbengine_path_append(char *path, const char *more)
{
    size_t n = strlen(path), m = strlen(more);
    if (n + 1 + m + 1 > MAX_PATH) return FALSE;
    if (n && path[n - 1] != '\\') path[n++] = '\\';
    memcpy(path + n, more, m + 1);
    return TRUE;
}
#define PathAppend(path, more) cbengine_path_append(path, more)
#define PathAppendA PathAppend

#endif
