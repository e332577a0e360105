/* elo.h - the statistics of a match: the Elo difference of a score with its
 * 95% interval, the likelihood of superiority, and the sequential probability
 * ratio test. */
#ifndef KINGME_ELO_H
#define KINGME_ELO_H

typedef struct EloStats {
    int wins, draws, losses, games;
    double score;          /* (wins + draws / 2) / games, 0..1 */
    double elo;            /* Elo difference implied by score (+-INFINITY at 100% / 0%) */
    double elo_lo, elo_hi; /* 95% interval from the per-game score variance */
    double los;            /* likelihood of superiority, 0..1 */
} EloStats;

/* Elo difference for an expected score s (0..1): -400 log10(1/s - 1). */
double elo_from_score(double s);

/* Likelihood of superiority: Phi((W - L) / sqrt(W + L)); 0.5 when W + L == 0. */
double elo_los(int wins, int losses);

/* All of the above for W/D/L. The interval: Wilson's score interval at
 * z = 1.96 with the trinomial per-game variance v = (W (1-s)^2 + D (1/2-s)^2
 * + L s^2) / N, (s + z^2/2N +- z sqrt(v/N + z^2/4N^2)) / (1 + z^2/N), each
 * end converted to Elo: within 0..1 however lopsided the games, so only a
 * perfect score has an infinite end. With no games everything is 0 and
 * los 0.5. */
void elo_stats(int wins, int draws, int losses, EloStats *out);

/* ---- the sequential probability ratio test ----------------------------------
 * H0: the Elo difference is elo0, H1: it is elo1 (logistic Elo). The log-
 * likelihood ratio is the trinomial GSPRT approximation (Van den Bergh; the
 * one fishtest and fast-chess use for W/D/L counts):
 *   LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var)
 * where s = (W + D/2) / N, var = (W (1-s)^2 + D (1/2-s)^2 + L s^2) / N is the
 * per-game score variance and s0, s1 the expected scores 1 / (1 + 10^(-elo/400)).
 * It is 0 while var is 0 (no games, or all of them the same result). The test
 * accepts H1 when LLR >= log((1 - beta) / alpha) and H0 when LLR <=
 * log(beta / (1 - alpha)). */
typedef enum SprtDecision { SPRT_CONTINUE = 0, SPRT_H0, SPRT_H1 } SprtDecision;

typedef struct Sprt {
    double elo0, elo1, alpha, beta;
    double lower, upper; /* the LLR bounds */
} Sprt;

void elo_sprt_init(Sprt *s, double elo0, double elo1, double alpha, double beta);
double elo_sprt_llr(const Sprt *s, int wins, int draws, int losses);
SprtDecision elo_sprt_decide(const Sprt *s, double llr);

#endif
