/* pdn.h - PDN (Portable Draughts Notation) games: read many, replay each
 * into a Game, write one back.
 *
 * Reading is lenient about layout and strict about moves: tag pairs, [FEN]
 * start positions, move numbers (1. 12...), full or short jump text (15x24x31,
 * 15x31), {comments}, nested (variations), ; line comments, % escape lines,
 * NAGs ($1, !, ?!), the results 1-0 0-1 1/2-1/2 * (and 2-0 0-2 1-1 0-0), CRLF,
 * LF and tabs. A game ends at its result or at the next tag section. Every
 * move is resolved against the position with notation_parse_move and played; a game
 * with a bad move (or a bad tag, comment...) gets an error message and
 * reading goes on with the next game. */
#ifndef KINGME_PDN_H
#define KINGME_PDN_H

#include "kingme/game.h"

#include <stdbool.h>

typedef struct PdnTag {
    char *name;  /* "Event" */
    char *value; /* unescaped: \" and \\ read as " and \; a tab or other control
                  * character (NUL too) as a space, as pdn_format_game writes it */
} PdnTag;

typedef struct PdnGame {
    PdnTag *tags; /* in file order */
    int ntags;
    Game game;    /* replayed moves (up to the first bad one); always initialised.
                   * game.result is what the rules say of the final position;
                   * what the file says is in result */
    char *result; /* the result token ending the game, else its [Result] tag
                   * (when it is a result), else "*" */
    int line;     /* 1-based line where the game starts */
    char *error;  /* NULL when the game replayed fine, else one line:
                   * "WHERE: game N (line L): move M (Black): <why>" */
} PdnGame;

/* Parse text holding up to PDN_MAX_GAMES games. where names the source in
 * messages (a file name). On success returns 0 with *games (malloc'd, free
 * with pdn_free_games) and *ngames >= 1; bad games are among them with their
 * error set. Returns -1 with a message in err (KM_ERR_MAX bytes) only when out
 * of memory, when the text holds no game ("WHERE: no games") or more than
 * PDN_MAX_GAMES ("WHERE:LINE: more than 100000 games (split the file)"). */
#define PDN_MAX_GAMES 100000
int pdn_parse(const char *text, const char *where, PdnGame **games, int *ngames, char *err);

/* The same for a file (the path names it in messages); also fails for a file
 * that cannot be read or is larger than PDN_FILE_MAX bytes (tests/data/
 * tinsley.pdn, 724 master games, is 343 kB: the limit holds some 140,000 such
 * games, more than PDN_MAX_GAMES). */
#define PDN_FILE_MAX (64u << 20)
#define PDN_FILE_MAX_TEXT "64 MiB"
int pdn_read_file(const char *path, PdnGame **games, int *ngames, char *err);

void pdn_free_games(PdnGame *games, int ngames);

/* Value of the first tag called name (case-sensitive), or NULL. */
const char *pdn_tag(const PdnGame *pg, const char *name);

/* The game as PDN text (malloc'd, NULL when out of memory): the tags in the
 * given order (values escaped; a [Result] tag is written with result, and
 * added when missing; any [FEN]/[SetUp] tag is dropped), then [FEN] when the
 * game did not start from the initial position, then numbered moves in full
 * path form, lines under 80 columns, and result. result NULL: the game's own
 * result by the rules (game_result_text). Ends with a blank line. */
char *pdn_format_game(const Game *g, const PdnTag *tags, int ntags, const char *result);

/* What is written after move i of a game: a move mark (a move strength
 * annotation: "?", "??", "!", "!?", "?!", at most 4 characters; NULL or ""
 * none) right after the move, and a comment in braces (NULL or "": none;
 * braces in it become parentheses; it is wrapped as the movetext is). */
typedef struct PdnNote {
    const char *mark;
    const char *comment;
} PdnNote;

/* pdn_format_game with a comment before the first move (before, NULL: none)
 * and notes[i] after move i (notes NULL: none). White's move after a
 * comment is numbered again ("12... 22-18"), as PGN writes it. */
char *pdn_format_notes(const Game *g, const PdnTag *tags, int ntags, const char *result, const char *before,
                       const PdnNote *notes);

/* Write text to path, or append it to what path holds (a missing file counts
 * as empty), through path.tmp and rename(), so an interrupted write never
 * leaves half a file. Returns 0, or -1 with a message in err. */
int pdn_save_text(const char *path, const char *text, bool append, char *err);

/* pdn_format_game + pdn_save_text. */
int pdn_save_game(const char *path, const Game *g, const PdnTag *tags, int ntags, const char *result,
                  bool append, char *err);

#endif
