/* session.h - an engine session: everything a program that plays through
 * kingme keeps from one move to the next, whatever its front end (the text
 * engine protocol, engine.h; the CheckerBoard engine, src/cb/).
 *
 * A session owns the weights, the searcher with its transposition table and
 * threads, the endgame databases, the game so far (so that the search sees
 * repetitions and the forty-move rule) and the search options (exact or
 * selective, tie-break). A search runs on a thread of the session's own, so
 * that the front end stays free to stop it at once; one at a time.
 *
 * The session is driven from one thread (the front end's): every function
 * here except the callbacks is called from it. Library code: nothing is
 * printed. */
#ifndef KINGME_SESSION_H
#define KINGME_SESSION_H

#include "kingme/game.h"
#include "kingme/search.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SESSION_HASH_MB 16 /* default table size */
#define SESSION_HASH_TEXT "16"
#define SESSION_HASH_MAX 65536 /* MB */

typedef struct Session Session;
struct Egdb;

/* What one search is asked for: any mix of limits; none at all is a search
 * until stopped (as infinite). */
typedef struct SessionGo {
    int depth;        /* plies (0: no limit) */
    uint64_t nodes;   /* 0: no limit */
    double movetime;  /* seconds for this move, all of it used (0: none) */
    double time_left; /* a game clock: the side to move's time and increment in
                       * seconds (time_left > 0), the time manager decides */
    double increment;
    int movestogo; /* moves to the next time control (0: sudden death) */
    bool infinite; /* search until session_stop; the result waits for it too */
    double start;  /* km_now() when this move's time began (0: now) */
    int multipv;   /* > 1: the best N moves each with its line (SEARCH_ALL_MOVES: all) */
    bool ponder;   /* think on the opponent's time: no limit until session_ponderhit,
                    * then the limits above from the hit; the result waits for the
                    * hit (or session_stop) */
} SessionGo;

/* Called on the search thread: after each completed iteration, then once at
 * the end with the result (rc -1: out of memory). The session's game is not
 * changed while a search runs, so they may read session_game. */
typedef void (*SessionDone)(const SearchResult *r, int rc, void *user);

/* A session with the built-in default weights, a table of hash_mb MB, one
 * search thread, the selective search, the initial position. NULL with a
 * message in err (KM_ERR_MAX bytes) when memory runs out. */
Session *session_new(size_t hash_mb, char *err);
/* Stop any search (its done callback runs), then free everything. */
void session_free(Session *s);

/* ---- options: only while no search runs (session_busy false) ---- */
/* The weights of the file path; a name the session's finder knows (below)
 * is its file. 0, or -1 with a message (the weights then kept). */
int session_load_weights(Session *s, const char *path, char *err);
/* How session_load_weights finds a weights file given by name: a front
 * end's data folders (datapath_weights of the command line), true with the
 * file in out. NULL (the default, and in the CheckerBoard DLL): the path
 * as given. */
typedef bool (*SessionFindFn)(const char *name, char *out, size_t len);
void session_set_weights_finder(Session *s, SessionFindFn find);
const Weights *session_weights(const Session *s);
/* Open the endgame databases of dir, replacing any open ones. 0, or -1 with a
 * message (the open ones are then kept). The files' data load in the
 * background (egdb_open_background): a move searched meanwhile does
 * without them. */
int session_open_egdb(Session *s, const char *dir, char *err);
/* Wait until the database's files are in (egdb_open_background): 0, or -1
 * with err naming a file that failed, once (then 0: its positions are
 * unknown, the rest is used). */
int session_wait_egdb(Session *s, char *err);
/* Use db (NULL: none); the session owns it from now on. */
void session_take_egdb(Session *s, struct Egdb *db);
const struct Egdb *session_egdb(const Session *s);
/* The opening book (book.h): open the book file path, replacing any open
 * one. 0, or -1 with a message (the open one is then kept). */
int session_open_book(Session *s, const char *path, char *err);
/* Use bk (NULL: none); the session owns it from now on. */
struct Book;
void session_take_book(Session *s, struct Book *bk);
const struct Book *session_book(const Session *s);
/* Which book move is played: one within men of the book's best, the better
 * likelier, drawn by the session's seed (0, the default: the best). */
void session_set_book_variety(Session *s, double men);
double session_book_variety(const Session *s);
/* A new table of mb MB (0: none); what the old one knew is lost. 0, or -1
 * with a message (the old one is then kept). */
int session_set_hash(Session *s, size_t mb, char *err);
size_t session_hash_mb(const Session *s);
/* Search threads, 1 to SEARCH_MAX_THREADS. 0, or -1 with a message. */
int session_set_threads(Session *s, int n, char *err);
int session_threads(const Session *s);
/* A search parameter (search_params.h) by name and value text: 0, or -1
 * with "unknown search parameter 'x'" or "lmr_from '99' is not ..." (the
 * parameter is then unchanged). The next searches use it. */
int session_set_search_param(Session *s, const char *name, const char *value, char *err);
void session_set_seed(Session *s, uint64_t seed);    /* the search's tie-breaks and the book's choices */
void session_set_tiebreak(Session *s, int tiebreak); /* TIEBREAK_FIRST (default) or TIEBREAK_RANDOM */
/* The strength level (level.h): LEVEL_MIN .. LEVEL_FULL (the default, the
 * full engine). A level's draws follow the seed (session_set_seed). */
void session_set_level(Session *s, int level);
int session_level(const Session *s);
/* The exact search (no reduction or pruning) instead of the selective one. */
void session_set_exact(Session *s, bool exact);
bool session_exact(const Session *s);
/* Cap every search at nodes nodes (0: no cap), whatever it is asked for (an
 * infinite search still waits for session_stop to hand its result over), and
 * use the default ProbCut margin rather than measure one (about 0.6 M
 * nodes): a session whose every search is cheap, for fuzzing and tests. */
void session_set_node_budget(Session *s, uint64_t nodes);
/* Measure now what the first search would otherwise measure on its clock
 * (ProbCut's margin for the weights: about 0.6 M nodes, once per vector). */
void session_prepare(Session *s);

/* ---- the game ---- */
const Game *session_game(const Session *s);
/* The game from start (NULL: the initial position) through moves (text as
 * notation_parse_move_input takes it). 0, or -1 with "move 3 '11-16': ..." in err and
 * the game unchanged. */
int session_set_game(Session *s, const Board *start, const char *const *moves, int nmoves, char *err);
/* Start again from b (NULL: the initial position) with no history. 0, or -1
 * when out of memory (the game is then unchanged). */
int session_set_position(Session *s, const Board *b);
/* A new game: the initial position, and everything learnt forgotten. 0, or
 * -1 when out of memory. */
int session_new_game(Session *s);

/* ---- the book ---- */
/* The book's move in the game's current position (chosen with the
 * variety): true with *out, or false when there is no book, the position
 * is not in it, or the level is below the full engine's (a weaker level
 * plays its own openings). */
struct BookMove;
bool session_book_move(Session *s, struct BookMove *out);

/* ---- searching ---- */
/* Search the game's current position on the session's thread; report (may be
 * NULL) and done are called from it as SessionDone says. 0, or -1 with a
 * message when a search is already running or no thread can be started. */
int session_go(Session *s, const SessionGo *go, SearchReport report, SessionDone done, void *user, char *err);
/* Whether a search is running (its done callback has not returned). A search
 * that has ended is reaped here. */
bool session_busy(Session *s);
/* Wait up to seconds for the search to end by itself: true when none runs. */
bool session_wait(Session *s, double seconds);
/* Stop the search, if any, and wait until its done callback has returned
 * (an infinite search that already ended is let go). */
void session_stop(Session *s);
/* The ponder search's move was played: its limits start now (the search
 * goes on; a ponder search that already ended answers at once). Nothing
 * when no ponder search runs. */
void session_ponderhit(Session *s);
/* Ask the search, if any, to end now and return at once: its done callback
 * follows on its thread (any thread may call this). */
void session_halt(Session *s);

#endif
