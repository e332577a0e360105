/* analyze.h - a finished game analysed move by move: for every position
 * an all-moves search (every legal move with its exact score, so that the
 * move played and the best move are compared by the same search), the
 * endgame database's verdict where it knows, the mistakes marked by how
 * much they lost, a summary per side, and the result written as an
 * annotated PDN and a score curve (SVG). Library code: nothing printed.
 *
 * Scores are in men: the search's score divided by |own_men| of the
 * weights searched with, and held to +-ANALYZE_CAP (a proven or database
 * win counts +ANALYZE_CAP, a loss -ANALYZE_CAP), so that a move in a game
 * already won or lost is not a mistake for changing how much it is won by.
 * A move's loss is the best move's score less the score after it, for the
 * side that played it: ANALYZE_MISTAKE or more is '?', ANALYZE_BLUNDER or
 * more '??'. The score after a move is the better for its side of two
 * measures, the played move's score in the same search as the best move
 * and the search of the position after it, so that a move is marked only
 * when both say it lost (a shallow line misjudged by one search is not a
 * mistake of the player's).
 * A move the database knows to throw away a win or a draw is '??' whatever
 * its scores. */
#ifndef KINGME_ANALYZE_H
#define KINGME_ANALYZE_H

#include "kingme/game.h"
#include "kingme/pdn.h"
#include "kingme/search.h"
#include "kingme/textio.h"

#include <stdatomic.h>

#define ANALYZE_MISTAKE 0.4 /* men lost: '?' */
#define ANALYZE_BLUNDER 1.0 /* men lost: '??' (a man) */
#define ANALYZE_CAP 3.0     /* scores beyond +-3 men count as 3 */
#define ANALYZE_LOST 1.5    /* a side this far behind for the rest of the game was lost */
#define ANALYZE_PV 12       /* moves of the best line kept */

typedef enum AnalyzeMark { MARK_NONE = 0, MARK_MISTAKE, MARK_BLUNDER } AnalyzeMark;

/* One position of the game and the move played from it. */
typedef struct AnalyzedPly {
    int side;       /* the side to move (who played the move) */
    int nmoves;     /* its legal moves */
    int depth;      /* the search's completed depth */
    bool searched;  /* false at the end of a game decided by the rules */
    int32_t best;   /* the best move's score for the side to move (search units) */
    int32_t played; /* the played move's score, the same search */
    int32_t after;  /* the score after the move for its side: the better of played
                     * and the next position's best score (its search) */
    int rank;       /* the played move's place by score (1: best; 0: no move) */
    Move best_move;
    int pv_len; /* the best line, from this position */
    Move pv[ANALYZE_PV];
    double best_men, after_men; /* best and after in men, capped, for the side to move */
    double loss;                /* best_men - after_men, never below 0 (0 for a forced move) */
    int db_before, db_after;    /* the database's value of the position before and after
                                 * the move, for the side that moved (EGDB_UNKNOWN beyond it) */
    AnalyzeMark mark;
} AnalyzedPly;

typedef struct AnalyzeSide {
    int moves;         /* moves with a choice (forced ones are not counted) */
    double total_loss; /* men, over those moves */
    int mistakes, blunders;
    int worst[3]; /* plies of its three largest losses of ANALYZE_MISTAKE or more, -1 */
    int lost_at;  /* the ply of its move after which it stayed ANALYZE_LOST or more
                   * behind to the end, -1: never */
} AnalyzeSide;

typedef struct GameAnalysis {
    int nply;         /* moves of the game */
    AnalyzedPly *ply; /* nply + 1: the last is the final position (no move) */
    AnalyzeSide side[2];
    double man; /* search units per man */
    int min_depth, max_depth;
    bool stopped; /* the stop flag ended it early: ply holds what was done */
} GameAnalysis;

/* Called after each position (k of n, from 1). */
typedef void (*AnalyzeProgress)(int k, int n, void *user);

/* Analyse g with s (its weights, table, threads and database) under lim (a
 * depth or a time a position; multipv is set here, and s's tie-break becomes
 * TIEBREAK_FIRST). A position with one
 * legal move is searched to the depth of the position before it, not by
 * time (a forced move would be answered at depth 1). stop (may be NULL):
 * set from another thread or a signal handler to stop after the position
 * under way. Returns 0, or -1 with err (out of memory). */
int analyze_game(Searcher *s, const Game *g, const SearchLimits *lim, GameAnalysis *out,
                 AnalyzeProgress progress, void *user, const atomic_bool *stop, char *err);
void analyze_free(GameAnalysis *a);

/* A score for the side to move as men for Black ("+0.35", "Black wins",
 * "White wins"); side: the side whose score it is. */
void analyze_score_text(const GameAnalysis *a, int32_t score, int side, char *buf, size_t len);

/* The summary of one side, a few lines of text (malloc'd; NULL when out of
 * memory): its moves, average loss, mistakes, the three largest with the
 * move that was better, and the moment the game was lost. who: the side's
 * name ("Black (Tinsley)"). */
char *analyze_summary(const GameAnalysis *a, const Game *g, int side, const char *who);

/* The game as annotated PDN (malloc'd; NULL when out of memory): the tags,
 * a comment before the first move saying how it was analysed, and after
 * each move its mark ('?', '??') and a comment: the scores before and
 * after (in men, for Black), the best move and line when another was
 * better, the database's verdict where it knows; the summaries after the
 * last move. how: the settings ("1 s a position, default weights"). */
char *analyze_format_pdn(const GameAnalysis *a, const Game *g, const PdnTag *tags, int ntags,
                         const char *result, const char *how);

/* The score curve: the best score of each position in men for Black,
 * capped, against the move number, the mistakes marked; one chart per game,
 * in an SVG document of n charts (title[k] over the k-th). Appended to b. */
void analyze_svg_open(KmBuf *b, int ncharts);
void analyze_svg_chart(KmBuf *b, const GameAnalysis *a, const Game *g, const char *title, int k);

#endif
