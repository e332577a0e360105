/* datapath.h - where kingme's data is: the opening book, the named weights
 * files and the endgame database, whether kingme runs from its checkout or
 * installed (make install), from any folder.
 *
 * Every data folder has the checkout's layout: weights/NAME.w (the named
 * weights), weights/default.book (the book), egdb/ (the database). They are
 * looked for in this order:
 *   1. $KINGME_DATA, when set and not empty;
 *   2. the folder of the program itself when it holds weights/ or egdb/
 *      (the checkout, for ./kingme): its
 *      path from /proc/self/exe where that exists, else from argv[0]
 *      (a path, or the name looked up in $PATH) made absolute by realpath,
 *      so that systems without /proc (macOS, the BSDs) find it too; and
 *      beside it ../share/kingme (PREFIX/bin/kingme beside
 *      PREFIX/share/kingme: an install moved elsewhere, or run from a
 *      packager's DESTDIR, finds its data);
 *   3. the install prefix's share/kingme (KINGME_DATADIR, compiled in from
 *      the Makefile's PREFIX);
 *   4. the user's own, for the databases the user builds:
 *      $XDG_DATA_HOME/kingme, else ~/.local/share/kingme.
 * A folder that does not exist is skipped. Library code: nothing printed;
 * POSIX (not in the CheckerBoard DLL, which looks beside itself). */
#ifndef KINGME_DATAPATH_H
#define KINGME_DATAPATH_H

#include <stdbool.h>
#include <stddef.h>

#define DATA_ENV "KINGME_DATA" /* a data folder searched first */
#define DATA_DIRS_MAX 5
#define DATA_PATH_MAX 4096

/* The program's argv[0], for systems without /proc (main gives it first). */
void datapath_set_argv0(const char *argv0);

/* The absolute path of the running program into out: /proc/self/exe, else
 * datapath_exe_from_argv0 of the argv[0] given. false when neither works. */
bool datapath_exe(char *out, size_t len);

/* The program's path from argv0 alone: a name holding a '/' made absolute,
 * else the first executable file of that name in the folders of path (a
 * $PATH: colon-separated, an empty entry is the current folder); then
 * realpath (symbolic links resolved). false when it cannot be found. */
bool datapath_exe_from_argv0(const char *argv0, const char *path, char *out, size_t len);

/* The data folders that exist, in the order above, each absolute or as
 * given in $KINGME_DATA; why[i] (may be NULL) names where each came from
 * ("KINGME_DATA", "beside the program", "the program's ../share/kingme",
 * "the install prefix", "the user's data"). Returns how many. */
int datapath_dirs(char dirs[DATA_DIRS_MAX][DATA_PATH_MAX], const char *why[DATA_DIRS_MAX]);

/* The first data folder holding rel (a file, or a folder when dir is true),
 * as DIR/rel into out: true, or false when none holds it. */
bool datapath_find(const char *rel, bool dir, char *out, size_t len);

/* A weights file named by name: name itself when it is a file; else, for a
 * name without '/', weights/NAME.w then weights/NAME in the data folders
 * (`material`, `material.w`); for a relative path, that path in the data
 * folders (weights/material.w from any folder). true with the file in out;
 * false (out: name) when none is found. */
bool datapath_weights(const char *name, char *out, size_t len);

/* The user's data folder ($XDG_DATA_HOME/kingme, else ~/.local/share/kingme)
 * into out, whether it exists or not; false without $HOME. */
bool datapath_user_dir(char *out, size_t len);

/* The install prefix's data folder compiled in (PREFIX/share/kingme). */
const char *datapath_install_dir(void);

#endif
