/* ShlObj.h - the shell's folder lookup, which always fails here: the
 * engines use it only to place a log file (windows.h says why). */
#ifndef CBENGINE_SHLOBJ_H
#define CBENGINE_SHLOBJ_H

#include "windows.h"

#define CSIDL_PERSONAL 0x0005
#define CSIDL_APPDATA 0x001a
#define SHGFP_TYPE_CURRENT 0

/* no folder: path is left empty and E_FAIL returned */
#define SHGetFolderPath(hwnd, csidl, token, flags, path) \
    ((void)(hwnd), (void)(csidl), (void)(token), (void)(flags), (path)[0] = '\0', E_FAIL)
#define SHGetFolderPathA SHGetFolderPath

#endif
