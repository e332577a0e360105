/* timeman.h - the time manager: how long to think about one move on a game
 * clock, and when to stop early.
 *
 * Two limits per move: the soft one (no new iteration starts after it; it is
 * stretched when the best move keeps changing and shrunk when it is stable)
 * and the hard one (the search stops wherever it is). Both keep a margin for
 * what the clock sees but the search does not (process start-up of the reply,
 * pipes, the referee's own reading): the hard limit never exceeds the time
 * left minus that margin. */
#ifndef KINGME_TIMEMAN_H
#define KINGME_TIMEMAN_H

#include "kingme/search_params.h"

#include <stdbool.h>

/* The numbers of the time manager are search parameters (search_params.h:
 * tm_margin, tm_reserve, tm_horizon, the shares); these are their defaults.
 * tm_margin: seconds kept back on every move for communication and the like
 * (measured: see docs/engine-protocol.md); tm_margin_min: with a fixed time a
 * move, a tenth of the time is kept instead when that is less than
 * tm_margin, but never less than this; tm_reserve: seconds kept on a game
 * clock beyond two increments, never planned for (half the clock at most):
 * measured overruns on a loaded machine reached 90 ms; tm_horizon: moves
 * expected still to play when the clock does not say (sudden death). */
#define TM_MARGIN (search_params_defaults.tm_margin)
#define TM_MARGIN_MIN (search_params_defaults.tm_margin_min)
#define TM_RESERVE (search_params_defaults.tm_reserve)
#define TM_MOVES_HORIZON (search_params_defaults.tm_horizon)

typedef struct TimeBudget {
    double soft; /* seconds: start no iteration after this (before stability scaling) */
    double hard; /* seconds: stop the search here */
} TimeBudget;

/* The budget for one move: time_left and increment in seconds (time_left > 0),
 * movestogo the moves to play until the next time control (0: sudden death
 * with increment). */
void tm_budget(double time_left, double increment, int movestogo, TimeBudget *out);

/* The budget for a fixed time per move (go movetime, --time S): use it all,
 * less the margin (a tenth of the time when that is less, 1 ms at least). */
void tm_budget_fixed(double seconds, TimeBudget *out);

/* The soft limit scaled by how stable the best move has been: changes is the
 * number of iterations, among the last few, in which the best move changed. */
double tm_soft_scaled(const TimeBudget *b, int changes);

/* The same three with the parameters p (tm_budget and the others: the
 * defaults). */
void tm_budget_p(const SearchParams *p, double time_left, double increment, int movestogo, TimeBudget *out);
void tm_budget_fixed_p(const SearchParams *p, double seconds, TimeBudget *out);
double tm_soft_scaled_p(const SearchParams *p, const TimeBudget *b, int changes);

#endif
