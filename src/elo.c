/* elo.c - Elo statistics and the SPRT (elo.h). */
#include "kingme/elo.h"

#include <math.h>
#include <string.h>

double elo_from_score(double s)
{
    if (s <= 0) return -INFINITY;
    if (s >= 1) return INFINITY;
    return 400.0 * log10(s / (1.0 - s));
}

double elo_los(int wins, int losses)
{
    if (wins + losses == 0) return 0.5;
    return 0.5 * (1.0 + erf((double)(wins - losses) / sqrt(2.0 * (double)(wins + losses))));
}

void elo_stats(int wins, int draws, int losses, EloStats *out)
{
    memset(out, 0, sizeof *out);
    out->wins = wins;
    out->draws = draws;
    out->losses = losses;
    out->games = wins + draws + losses;
    out->los = elo_los(wins, losses);
    if (out->games == 0) return;
    double n = out->games, s = (wins + 0.5 * draws) / n;
    double var = (wins * (1 - s) * (1 - s) + draws * (0.5 - s) * (0.5 - s) + losses * s * s) / n;
    /* Wilson's score interval with the games' own variance: the normal
     * approximation s +- z sqrt(var / n) runs past 0 or 1 after few or
     * lopsided games (3-1: 0.75 +- 0.42, "+inf"), Wilson's stays inside
     * them and is the same for many games; only a perfect score reaches
     * +-inf. */
    double z = 1.959963984540054, z2 = z * z, den = 1 + z2 / n;
    double centre = (s + z2 / (2 * n)) / den, half = z * sqrt(var / n + z2 / (4 * n * n)) / den;
    out->score = s;
    out->elo = elo_from_score(s);
    out->elo_lo = elo_from_score(centre - half);
    out->elo_hi = elo_from_score(centre + half);
}

/* ---- SPRT -------------------------------------------------------------------- */

void elo_sprt_init(Sprt *s, double elo0, double elo1, double alpha, double beta)
{
    s->elo0 = elo0;
    s->elo1 = elo1;
    s->alpha = alpha;
    s->beta = beta;
    s->lower = log(beta / (1 - alpha));
    s->upper = log((1 - beta) / alpha);
}

static double expected_score(double elo) { return 1 / (1 + pow(10, -elo / 400)); }

double elo_sprt_llr(const Sprt *s, int wins, int draws, int losses)
{
    double n = (double)wins + draws + losses;
    if (n <= 0) return 0;
    double x = (wins + 0.5 * draws) / n;
    double var = (wins * (1 - x) * (1 - x) + draws * (0.5 - x) * (0.5 - x) + losses * x * x) / n;
    if (var <= 0) return 0;
    double s0 = expected_score(s->elo0), s1 = expected_score(s->elo1);
    return n * (s1 - s0) * (2 * x - s0 - s1) / (2 * var);
}

SprtDecision elo_sprt_decide(const Sprt *s, double llr)
{
    if (llr >= s->upper) return SPRT_H1;
    if (llr <= s->lower) return SPRT_H0;
    return SPRT_CONTINUE;
}
