/* timeman.c - the time manager (timeman.h). */
#include "kingme/timeman.h"

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

void tm_budget_p(const SearchParams *p, double time_left, double increment, int movestogo, TimeBudget *out)
{
    /* a reserve that is never planned for: a couple of increments and a
     * little more (half the clock at most), so that a move that overruns
     * (a busy machine, a slow pipe) eats into the reserve, not the flag */
    double reserve = p->tm_reserve_incs * increment + p->tm_reserve;
    if (reserve > 0.5 * time_left) reserve = 0.5 * time_left;
    if (reserve < p->tm_margin) reserve = p->tm_margin;
    double usable = time_left - reserve;
    if (usable < 0) usable = 0;
    int horizon = movestogo > 0 ? movestogo : p->tm_horizon;
    if (movestogo > 0 && horizon > p->tm_horizon) horizon = p->tm_horizon;
    /* a fair share of what is left, plus most of the increment (it comes back
     * after the move) */
    double soft = usable / horizon + p->tm_inc_share * increment;
    /* never bet more than a part of the clock on one move: with movestogo 1
     * the whole usable time is the share */
    double cap = movestogo == 1 ? usable * p->tm_last_share + 0.5 * increment
                                : usable * p->tm_max_share + 0.5 * increment;
    /* and never more than half of what is really left, less the margin */
    double limit = 0.5 * (time_left - p->tm_margin);
    if (cap > limit) cap = limit;
    if (cap < 0.0005) cap = 0.0005;
    soft = clampd(soft, 0.0005, cap);
    double hard = clampd(soft * p->tm_hard, soft, cap);
    out->soft = soft;
    out->hard = hard;
}

void tm_budget_fixed_p(const SearchParams *p, double seconds, TimeBudget *out)
{
    /* the margin, or a tenth of a short time (at least tm_margin_min): the
     * reply takes well under a millisecond, and tm_margin whole left half
     * of a 20 ms move unused */
    double t = seconds - clampd(0.1 * seconds, p->tm_margin_min, p->tm_margin);
    if (t < seconds * 0.5) t = seconds * 0.5;
    out->soft = t;
    out->hard = t;
}

double tm_soft_scaled_p(const SearchParams *p, const TimeBudget *b, int changes)
{
    /* a stable best move: stop at 60% of the share; each recent change buys more */
    double f = p->tm_stable + p->tm_unstable * changes;
    if (f > p->tm_stretch) f = p->tm_stretch;
    double s = b->soft * f;
    return s > b->hard ? b->hard : s;
}

void tm_budget(double time_left, double increment, int movestogo, TimeBudget *out)
{
    tm_budget_p(&search_params_defaults, time_left, increment, movestogo, out);
}

void tm_budget_fixed(double seconds, TimeBudget *out)
{
    tm_budget_fixed_p(&search_params_defaults, seconds, out);
}

double tm_soft_scaled(const TimeBudget *b, int changes)
{
    return tm_soft_scaled_p(&search_params_defaults, b, changes);
}
