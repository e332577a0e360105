/* book_build.h - building the opening book (book_build.c): the roots and
 * how far a book reaches from them, drop-out expansion on threads or
 * worker processes, and the scoring of one position. Reading and playing
 * from a book is book.h's; this module builds on it and on the workers. */
#ifndef KINGME_BOOK_BUILD_H
#define KINGME_BOOK_BUILD_H

#include "kingme/book.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* ---- the roots and how far the book reaches from them (book_build.c) ---- */

/* The book's roots: 0 is the initial position, 1..174 the positions after
 * the ACF ballots' three moves (opening_ballots, opening.h), in number order.
 * BOOK_ROOTS of them. Returns 0, or -1 with a message (a broken ballot). */
#define BOOK_ROOTS 175
int book_build_root(int r, Board *out, char *err);

/* How far the book reaches from a position (docs/book.md):
 * - line: plies of the main line, both sides playing the book's best move
 *   (the first of equals) while the position is in the book;
 * - side[X]: plies until side X first has no book move, when X plays its
 *   best book move and the other side plays any of its book moves within
 *   margin of its best (any legal move where the position is not in the
 *   book);
 * - positions: positions of the book reachable from it through book moves
 *   (itself included when in the book).
 * Each is at most max_plies (200 at most; a game that ends counts as
 * reaching it).
 * Returns 0, or -1 when out of memory. */
typedef struct BookCoverage {
    int line, side[2], positions;
} BookCoverage;
int book_build_coverage(const Book *bk, const Board *root, int32_t margin, int max_plies, BookCoverage *out);

/* ---- building (book_build.c) ---- */

/* How a book is built (docs/book.md, "How it is built"): from the roots,
 * by drop-out expansion in rounds. A position is scored by searching the
 * position after each of its legal moves to depth - 1 (all of them, so
 * every move has its own exact score; one table for the position, cleared
 * first, so a position's scores depend on nothing else); a score then
 * follows the book's own minimax wherever a man move or capture leads to a
 * position of the book. Each round scores `batch` positions: first those
 * that end a root's main line while it is shorter than start_plies (the
 * initial position) or ballot_plies (a ballot), then the leaves (positions
 * not yet in the book, one move from one that is) of least expansion cost,
 * until at least `target` positions are scored (rounds are whole, so that a
 * build to N positions passes where a build to more does). A leaf's cost, for book side X, is
 * the least over the paths to it from a root of: 1000 a ply, plus for each
 * move on the path 1000 x (the mover's best score - the move's score) /
 * own_spread when X moved, / spread when the other side did (a
 * spread of 0: only the best moves); the leaf's cost is the lower of its
 * two. Ties go to the lower key, so a build depends only on its parameters
 * and weights: the same for any number of threads, and after a resume. */
typedef struct BookBuildParams {
    int depth;  /* search depth of a position (2 or more) */
    int target; /* positions to score (the roots' main lines may need more) */
    int start_plies, ballot_plies;
    int32_t spread, own_spread; /* evaluation units */
    int batch;                  /* positions a round */
    int hash_mb;                /* table of a position's searches */
} BookBuildParams;

void book_build_params_default(BookBuildParams *p);

typedef struct BookProgress {
    int done;        /* positions scored, over all runs (the round's so far too) */
    int target;      /* positions the build aims at (more while main lines are short) */
    int round;       /* rounds done, over all runs */
    int run_done;    /* positions scored by this run (its rounds finished or not) */
    double elapsed;  /* seconds of this run */
    double seconds;  /* seconds of building over all runs */
    int short_roots; /* roots whose main line is still too short */
    bool round_end;  /* a round just ended */
    bool saved;      /* and the file was written */
} BookProgress;

typedef void (*BookProgressFn)(const BookProgress *p, void *user);

typedef struct BookBuild BookBuild;
struct WorkerSet;

/* A new build with weights w; command is the text kept in the header. NULL
 * with a message for bad parameters or out of memory. */
BookBuild *book_build_new(const BookBuildParams *p, const Weights *w, const char *command, char *err);
/* A build continued from a book it wrote (its parameters and positions);
 * w must be the weights it was built with. target > 0 raises the aim. */
BookBuild *book_build_resume(const Book *bk, const Weights *w, int target, char *err);
void book_build_free(BookBuild *bb);
/* Append "; " and text to the command kept in the header (a resume's own
 * command after the first one's). The text stays within BOOK_COMMAND_MAX
 * bytes (the bound book_open reads): past it, the first command, "; ...; "
 * and this one are kept. 0, or -1 when out of memory. */
int book_build_add_command(BookBuild *bb, const char *text);
/* The command text the header will hold. */
const char *book_build_command(const BookBuild *bb);
/* Write the book after a round only when this many seconds passed since it
 * was last written (default 30; 0: after every round); it is always
 * written when the build ends or stops. */
void book_build_set_save_every(BookBuild *bb, double seconds);
const BookBuildParams *book_build_params(const BookBuild *bb);
int book_build_done(const BookBuild *bb); /* positions scored */

/* Build until the aim is reached or stop is set: the book is written to
 * path (atomically) after a round every so often (book_build_set_save_every),
 * when stopped and at the end, so that a kill loses at most the rounds since
 * (a round stopped is dropped whole, so that a resumed build is the same as
 * one never stopped). threads: positions scored at
 * once. workers: not NULL to score positions on worker processes too (the
 * threads then play beside them; 0 threads: none). Returns 0 (check stop),
 * or -1 with a message. */
int book_build_run(BookBuild *bb, const char *path, int threads, struct WorkerSet *workers, BookProgressFn fn,
                   void *user, const _Atomic(bool) *stop, char *err);

/* The worker's handler of the score lines (worker.h): 0, or -1 when out of
 * memory. */
struct WorkerState;
int book_build_worker_kind(struct WorkerState *ws);

/* Score the moves of one position as a build does (the worker's job): the
 * codes and scores (clamped to +-BOOK_SCORE_MAX) of every legal move, in
 * the generator's order; their number, or -1 when out of memory; 0 when
 * stopped. The searcher's table is cleared first, and its tie-break set
 * to the first move (the scores do not depend on it, the search's own
 * line does). */
struct Searcher;
int book_build_score_position(struct Searcher *s, const Board *b, int depth, const _Atomic(bool) *stop,
                              uint16_t *codes, int16_t *scores);

#endif
