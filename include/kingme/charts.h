/* charts.h - the pictures of kingme's commands, as SVG documents (svg.h)
 * appended to a KmBuf: a match as its games come in, a tuning session's
 * yardstick, and a weights file (the board with the weights of a piece on
 * each square, and every named weight as a bar). Library code: nothing is
 * printed or written; the commands write the text with textio_write_atomic. */
#ifndef KINGME_CHARTS_H
#define KINGME_CHARTS_H

#include "kingme/eval.h"
#include "kingme/textio.h"

#include <stdint.h>

/* A match: points[i] is A's score in game i in the order the games ended (2
 * a win, 1 a draw, 0 a loss), n of them so far of total. Three panels over
 * the games played: A's running score in % with its 95% interval, the Elo
 * difference with its interval, and with an SPRT (sprt: {elo0, elo1}, NULL:
 * none) the log-likelihood ratio between its bounds. */
void chart_match(KmBuf *b, const char *title, const uint8_t *points, int n, int total, const double *sprt);

/* A tuning session's yardstick: nref references, each measured npoints
 * times; for measurement k, the session's elapsed seconds and games so far
 * (x axes), and each reference's score (0..1) over games_per_ref games.
 * Two panels, the Elo of the best-so-far against time and against games,
 * one line per reference with its 95% interval (from the score, taking the
 * per-game variance as s(1 - s): no draw counts are in the log, so the
 * interval is at most that wide). */
typedef struct ChartYard {
    int nref, npoints;
    const char *const *names;   /* nref */
    const double *seconds;      /* npoints */
    const double *games;        /* npoints */
    const double *const *score; /* [ref][point], NAN: not measured */
    int games_per_ref;
} ChartYard;
void chart_yardstick(KmBuf *b, const char *title, const ChartYard *y);

/* A weights file: boards (the man's and the king's weights summed for a
 * piece of the player's on each square, in men, opening and ending when the
 * vector has a phase) and a bar for each of the first nrows weights (rows
 * as kingme show numbers them: EVAL_NTERMS + i is the ending weight of term
 * i). */
void chart_weights(KmBuf *b, const char *title, const Weights *w, int nrows);

/* The square weight the board shows: the sum of the terms that depend on
 * where a lone piece of the player stands (material, wall, rows, promotion
 * distance, corner, centre, back rank, double corner), for a man (king
 * false) or a king of Black's on square sq (1..32), with the opening
 * (ending: false) or ending weights. In weight units. */
double chart_square_weight(const Weights *w, int sq, bool king, bool ending);

#endif
