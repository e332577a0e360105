/* timeman.c - the time manager (timeman.h). */
#include "kingme/timeman.h"

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

void tm_budget(double time_left, double increment, int movestogo, TimeBudget *out)
{
    double usable = time_left - TM_MARGIN;
    if (usable < 0.001) usable = 0.001;
    int horizon = movestogo > 0 ? movestogo : TM_MOVES_HORIZON;
    if (movestogo > 0 && horizon > TM_MOVES_HORIZON) horizon = TM_MOVES_HORIZON;
    /* a fair share of what is left, plus most of the increment (it comes back
     * after the move) */
    double soft = usable / horizon + 0.8 * increment;
    /* never bet more than a part of the clock on one move: with movestogo 1
     * the whole remaining time is the share, less a safety part */
    double cap = movestogo == 1 ? usable * 0.9 : usable * 0.35 + 0.5 * increment;
    if (cap > usable * 0.9) cap = usable * 0.9;
    soft = clampd(soft, 0.0005, cap);
    double hard = clampd(soft * 3.0, soft, cap);
    out->soft = soft;
    out->hard = hard;
}

void tm_budget_fixed(double seconds, TimeBudget *out)
{
    double t = seconds - TM_MARGIN;
    if (t < seconds * 0.5) t = seconds * 0.5;
    out->soft = t;
    out->hard = t;
}

double tm_soft_scaled(const TimeBudget *b, int changes)
{
    /* a stable best move: stop at 60% of the share; each recent change buys more */
    double f = 0.6 + 0.35 * changes;
    if (f > 2.0) f = 2.0;
    double s = b->soft * f;
    return s > b->hard ? b->hard : s;
}
