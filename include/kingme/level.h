/* level.h - strength levels: from a beginner (1) to the full engine
 * (LEVEL_FULL). A level below the full engine plays in two steps:
 *
 * 1. every legal move is searched LEVEL_SAFE_DEPTH plies (and the captures
 *    after them) with its exact score, by the exact search (no reduction or
 *    pruning may hide a sacrifice): the moves that score more than
 *    LEVEL_SAFE_MARGIN men below the best are unsafe, those that hang a
 *    piece to a shot or miss a shot a beginner would see;
 * 2. every legal move is searched again, deeper, within the level's node
 *    budget (a whole iteration at a time), and the move is drawn among the
 *    safe ones scoring within the level's window of the best, each with a
 *    weight exp(-(best - score) / temperature): the lower the level, the
 *    fewer nodes, the wider the window and the higher the temperature, so
 *    that a low level loses by small inaccuracies that add up, as a person
 *    does, never by a move a beginner would not play. The deeper search's
 *    best move is always a candidate; a proven or database win or loss is
 *    played as the search plays it.
 *
 * The levels below LEVEL_DATABASE play without the endgame database (a
 * person plays endings by what they know, not by table); the two strongest
 * and the full engine with it. The draw uses the
 * caller's random state, so that the same seed replays the same moves (with
 * one search thread). Library code: nothing printed. */
#ifndef KINGME_LEVEL_H
#define KINGME_LEVEL_H

#include "kingme/search.h"

#define LEVEL_MIN 1
#define LEVEL_FULL 10         /* the full engine: no budget, no draw */
#define LEVEL_SAFE_DEPTH 4    /* plies of the safety search (a shot is 3) */
#define LEVEL_SAFE_MARGIN 0.5 /* men: a move this much below the best is unsafe */
#define LEVEL_DATABASE 8      /* the lowest level that plays by the endgame database */

typedef struct LevelSpec {
    uint64_t nodes;     /* the deeper search's budget (0: the safety search only) */
    double window;      /* men: candidates score at most this far below the best */
    double temperature; /* men: the draw's temperature */
} LevelSpec;

/* The spec of a level (LEVEL_MIN .. LEVEL_FULL - 1). */
const LevelSpec *level_spec(int level);

/* What a level search did, beside the result. */
typedef struct LevelInfo {
    int candidates; /* moves it drew among */
    int unsafe;     /* moves the safety search ruled out */
    int rank;       /* the chosen move's place by score (1: the best) */
    int32_t best;   /* the best move's score (the chosen one's is the result's) */
} LevelInfo;

struct Game;

/* Choose a move for g's position at level (LEVEL_MIN .. LEVEL_FULL - 1)
 * under lim (its depth, time or clock still bound the search; multipv and
 * nodes are the level's, its nodes a cap on both searches when set), drawing
 * with *rng. out is the chosen move's: best,
 * score, line (pv), and the search's depth and nodes. info may be NULL.
 * Returns 0, or -1 when out of memory. */
int level_search(Searcher *s, const struct Game *g, const SearchLimits *lim, int level, uint64_t *rng,
                 SearchResult *out, LevelInfo *info);

#endif
