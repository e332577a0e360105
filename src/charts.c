/* charts.c - the pictures of kingme's commands (charts.h). */
#include "kingme/charts.h"
#include "kingme/board.h"
#include "kingme/elo.h"
#include "kingme/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 900

static double score_of_elo(double e) { return 1 / (1 + pow(10, -e / 400)); }

/* ---- a match ------------------------------------------------------------------ */

void chart_match(KmBuf *b, const char *title, const uint8_t *points, int n, int total, const double *sprt)
{
    int panels = sprt ? 3 : 2;
    const int PH = 250;
    svg_open(b, WIDTH, 36 + PH * panels, title);
    svg_text(b, 12, 22, 14, "start", "#111111", title);
    int m = n > 0 ? n : 0;
    double *v = calloc((size_t)(m + 1) * 7, sizeof *v);
    if (!v) {
        b->oom = true;
        svg_close(b);
        return;
    }
    double *x = v, *sc = v + (m + 1), *slo = sc + (m + 1), *shi = slo + (m + 1), *el = shi + (m + 1),
           *elo = el + (m + 1), *ehi = elo + (m + 1);
    Sprt test;
    if (sprt) elo_sprt_init(&test, sprt[0], sprt[1], 0.05, 0.05);
    double *llr = sprt ? calloc((size_t)m + 1, sizeof *llr) : NULL;
    int w = 0, d = 0, l = 0;
    double e_lo = -100, e_hi = 100;
    for (int i = 0; i < m; i++) {
        w += points[i] == 2;
        d += points[i] == 1;
        l += points[i] == 0;
        EloStats st;
        elo_stats(w, d, l, &st);
        x[i] = i + 1;
        sc[i] = 100 * st.score;
        /* the score's interval is the Elo interval mapped back */
        slo[i] = isfinite(st.elo_lo) ? 100 * score_of_elo(st.elo_lo) : st.elo_lo < 0 ? 0 : 100;
        shi[i] = isfinite(st.elo_hi) ? 100 * score_of_elo(st.elo_hi) : st.elo_hi < 0 ? 0 : 100;
        el[i] = isfinite(st.elo) ? st.elo : st.elo > 0 ? 1e4 : -1e4;
        elo[i] = isfinite(st.elo_lo) ? st.elo_lo : st.elo_lo > 0 ? 1e4 : -1e4;
        ehi[i] = isfinite(st.elo_hi) ? st.elo_hi : st.elo_hi > 0 ? 1e4 : -1e4;
        if (llr) llr[i] = elo_sprt_llr(&test, w, d, l);
        if (i == m - 1) {
            /* the Elo panel is scaled to the interval at the end */
            if (isfinite(st.elo_lo) && st.elo_lo - 50 < e_lo) e_lo = st.elo_lo - 50;
            if (isfinite(st.elo_hi) && st.elo_hi + 50 > e_hi) e_hi = st.elo_hi + 50;
            if (isfinite(st.elo) && st.elo - 50 < e_lo) e_lo = st.elo - 50;
            if (isfinite(st.elo) && st.elo + 50 > e_hi) e_hi = st.elo + 50;
        }
    }
    if (e_lo < -800) e_lo = -800;
    if (e_hi > 800) e_hi = 800;
    double xmax = total > m ? total : m > 0 ? m : 1;
    char t1[160], t2[160];
    EloStats fin;
    elo_stats(w, d, l, &fin);
    snprintf(t1, sizeof t1, "A's score after each game, with its 95%% interval: +%d =%d -%d of %d, %.1f%%", w,
             d, l, m, 100 * fin.score);
    SvgSeries s1 = {"score %", "#1f4e8c", m, x, sc, slo, shi, NULL, false, false, false};
    double half = 50;
    const char *half_label = "50%";
    SvgChart c1 = {t1, "games", "A's score (%)", 0, xmax, 0, 100, true, 1, &s1, 1, &half, &half_label};
    svg_chart(b, &c1, 0, 30, WIDTH, PH);
    if (isfinite(fin.elo))
        snprintf(t2, sizeof t2, "Elo difference A - B with its 95%% interval: %+.1f (%+.1f .. %+.1f)",
                 fin.elo, fin.elo_lo, fin.elo_hi);
    else
        snprintf(t2, sizeof t2, "Elo difference A - B with its 95%% interval (%s so far)",
                 m ? "no finite estimate" : "no game");
    SvgSeries s2 = {"Elo", "#c0392b", m, x, el, elo, ehi, NULL, false, false, false};
    SvgChart c2 = {t2, "games", "Elo (A - B)", 0, xmax, e_lo, e_hi, true, 1, &s2, 0, NULL, NULL};
    svg_chart(b, &c2, 0, 30 + PH, WIDTH, PH);
    if (sprt && llr) {
        double bounds[2] = {test.lower, test.upper};
        char hl0[48], hl1[48], t3[160];
        snprintf(hl0, sizeof hl0, "H0 (Elo %g) accepted below", sprt[0]);
        snprintf(hl1, sizeof hl1, "H1 (Elo %g) accepted above", sprt[1]);
        const char *hls[2] = {hl0, hl1};
        snprintf(t3, sizeof t3, "SPRT: the log-likelihood ratio of H1 against H0 after each game");
        SvgSeries s3 = {"LLR", "#2ca02c", m, x, llr, NULL, NULL, NULL, false, false, false};
        SvgChart c3 = {t3, "games", "LLR", 0,      xmax, test.lower - 0.5, test.upper + 0.5, true,
                       1,  &s3,     2,     bounds, hls};
        svg_chart(b, &c3, 0, 30 + 2 * PH, WIDTH, PH);
    }
    free(llr);
    free(v);
    svg_close(b);
}

/* ---- a tuning session's yardstick --------------------------------------------- */

void chart_yardstick(KmBuf *b, const char *title, const ChartYard *y)
{
    const int PH = 300;
    svg_open(b, WIDTH, 36 + 2 * PH, title);
    svg_text(b, 12, 22, 14, "start", "#111111", title);
    int n = y->npoints, r = y->nref;
    double *v = calloc((size_t)(n > 0 ? n : 1) * (size_t)(3 * (r > 0 ? r : 1) + 2), sizeof *v);
    SvgSeries *s = calloc((size_t)(r > 0 ? r : 1), sizeof *s);
    if (!v || !s) {
        free(v);
        free(s);
        b->oom = true;
        svg_close(b);
        return;
    }
    /* time in minutes or hours, whichever reads better */
    double tmax = n ? y->seconds[n - 1] : 0;
    double tunit = tmax > 3 * 3600 ? 3600 : 60;
    double *xt = v, *xg = v + n;
    for (int k = 0; k < n; k++) {
        xt[k] = y->seconds[k] / tunit;
        xg[k] = y->games[k];
    }
    int ng = y->games_per_ref > 0 ? y->games_per_ref : 1;
    double clampl = 1.0 / (2 * ng), clamph = 1 - clampl;
    for (int j = 0; j < r; j++) {
        double *e = v + 2 * n + (size_t)3 * j * n, *lo = e + n, *hi = lo + n;
        for (int k = 0; k < n; k++) {
            double sc = y->score[j][k];
            if (!isfinite(sc)) {
                e[k] = lo[k] = hi[k] = NAN;
                continue;
            }
            double c = sc < clampl ? clampl : sc > clamph ? clamph : sc;
            double margin = 1.959963984540054 * sqrt(c * (1 - c) / ng);
            double a = c - margin < clampl ? clampl : c - margin,
                   z = c + margin > clamph ? clamph : c + margin;
            e[k] = elo_from_score(c);
            lo[k] = elo_from_score(a);
            hi[k] = elo_from_score(z);
        }
        s[j] = (SvgSeries){y->names[j], NULL, n, xt, e, lo, hi, NULL, n < 40, false, false};
    }
    char xl[64], ta[200], tb[200];
    snprintf(xl, sizeof xl, "time played (%s)", tunit == 3600 ? "hours" : "minutes");
    snprintf(ta, sizeof ta, "the best so far against each reference, Elo with 95%% intervals (%d games each)",
             ng);
    snprintf(tb, sizeof tb, "the same against the games the session had played");
    double zero = 0;
    const char *zl = "even";
    SvgChart c1 = {ta, xl, "Elo", 0, 0, 0, 0, true, r, s, 1, &zero, &zl};
    svg_chart(b, &c1, 0, 30, WIDTH, PH);
    for (int j = 0; j < r; j++) s[j].x = xg;
    SvgChart c2 = {tb, "games played", "Elo", 0, 0, 0, 0, true, r, s, 1, &zero, &zl};
    svg_chart(b, &c2, 0, 30 + PH, WIDTH, PH);
    free(s);
    free(v);
    svg_close(b);
}

/* ---- a weights file ------------------------------------------------------------- */

/* The terms that depend on where a lone man or king stands. */
static const int MAN_TERMS[] = {EP_own_men,           EP_own_men_edge,   EP_own_promotion_distance,
                                EP_own_men_low,       EP_own_men_middle, EP_own_men_high,
                                EP_own_man_in_corner, EP_own_back_men,   EP_own_men_centre};
static const int KING_TERMS[] = {EP_own_kings,        EP_own_kings_edge,         EP_own_kings_low,
                                 EP_own_kings_middle, EP_own_kings_high,         EP_own_king_in_corner,
                                 EP_own_kings_centre, EP_own_kings_double_corner};

double chart_square_weight(const Weights *w, int sq, bool king, bool ending)
{
    Board bd = {{0, 0}, 0, KM_BLACK};
    uint32_t m = 1u << (sq - 1);
    bd.pieces[KM_BLACK] = m;
    if (king) bd.kings = m;
    EvalFeatures ef;
    eval_features(&bd, KM_BLACK, &ef);
    const int *f = ef.term;
    const int *terms = king ? KING_TERMS : MAN_TERMS;
    int nt =
        king ? (int)(sizeof KING_TERMS / sizeof *KING_TERMS) : (int)(sizeof MAN_TERMS / sizeof *MAN_TERMS);
    double sum = 0;
    for (int k = 0; k < nt; k++)
        sum += (double)f[terms[k]] * (ending && w->phased ? w->end[terms[k]] : w->w[terms[k]]);
    return sum;
}

/* A colour from blue (lo) through white to red (hi); v relative to [lo, hi]. */
static void heat(double v, double lo, double hi, char *buf, size_t len)
{
    double mid = (lo + hi) / 2, half = (hi - lo) / 2;
    double t = half > 0 ? (v - mid) / half : 0;
    if (t > 1) t = 1;
    if (t < -1) t = -1;
    int r = 255, g = 255, bl = 255;
    if (t > 0) {
        g = (int)(255 - 140 * t);
        bl = (int)(255 - 200 * t);
    } else {
        r = (int)(255 + 200 * t);
        g = (int)(255 + 120 * t);
    }
    snprintf(buf, len, "#%02x%02x%02x", r, g, bl);
}

static void board(KmBuf *b, const Weights *w, bool king, bool ending, double unit, double x0, double y0,
                  const char *caption)
{
    const double SQ = 32;
    double v[33], lo = INFINITY, hi = -INFINITY;
    int last = king ? 32 : 28; /* a man of Black's on 29-32 is a king */
    for (int sq = 1; sq <= last; sq++) {
        v[sq] = chart_square_weight(w, sq, king, ending) / unit;
        if (v[sq] < lo) lo = v[sq];
        if (v[sq] > hi) hi = v[sq];
    }
    svg_text(b, x0, y0 - 6, 12, "start", "#111111", caption);
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++) {
            double x = x0 + c * SQ, y = y0 + r * SQ;
            bool dark = (r + c) % 2 == 1;
            if (!dark) {
                svg_rect(b, x, y, SQ, SQ, "#f3ead7", "none");
                continue;
            }
            int sq = 4 * r + c / 2 + 1;
            if (sq > last) {
                svg_rect(b, x, y, SQ, SQ, "#d9d9d9", "#777777");
                svg_textf(b, x + 3, y + 10, 8, "start", "#555555", "%d", sq);
                svg_text(b, x + SQ / 2, y + 24, 8, "middle", "#666666", "crowns");
                continue;
            }
            char col[16];
            heat(v[sq], lo, hi, col, sizeof col);
            svg_rect(b, x, y, SQ, SQ, col, "#777777");
            svg_textf(b, x + 3, y + 10, 8, "start", "#555555", "%d", sq);
            svg_textf(b, x + SQ / 2, y + 24, 9.5, "middle", "#111111", "%.2f", v[sq]);
        }
    svg_rect(b, x0, y0, 8 * SQ, 8 * SQ, "none", "#333333");
    svg_textf(b, x0, y0 + 8 * SQ + 14, 10, "start", "#444444", "from %.2f (blue) to %.2f (red) men", lo, hi);
}

void chart_weights(KmBuf *b, const char *title, const Weights *w, int nrows)
{
    bool phased = w->phased != 0;
    double unit = abs(w->w[EP_own_men]) ? abs(w->w[EP_own_men]) : 1;
    const double ROW = 12, BOARD = 8 * 32 + 40;
    int board_rows = phased ? 2 : 1;
    double top = 60, bars_top = top + board_rows * (BOARD + 10) + 40;
    int height = (int)(bars_top + nrows * ROW + 40);
    svg_open(b, WIDTH, height, title);
    svg_text(b, 12, 22, 14, "start", "#111111", title);
    svg_textf(
        b, 12, 40, 11, "start", "#444444",
        "A piece of the player's on each square (Black's view, Black at the top): the weights that depend on "
        "where it stands, in men (1 man = |own_men| = %.0f)",
        unit);
    for (int k = 0; k < board_rows; k++) {
        bool end = k == 1;
        char cap[96];
        snprintf(cap, sizeof cap, "a man%s", phased ? (end ? ", ending weights" : ", opening weights") : "");
        board(b, w, false, end, unit, 40, top + k * (BOARD + 10) + 14, cap);
        snprintf(cap, sizeof cap, "a king%s", phased ? (end ? ", ending weights" : ", opening weights") : "");
        board(b, w, true, end, unit, 40 + 8 * 32 + 80, top + k * (BOARD + 10) + 14, cap);
    }
    /* the bars: every weight against the largest |weight| */
    double maxw = 1;
    for (int i = 0; i < nrows; i++) {
        double a = fabs((double)eval_weights_at(w, i));
        if (a > maxw) maxw = a;
    }
    svg_textf(b, 12, bars_top - 14, 13, "start", "#111111",
              "every weight (the rows of kingme show), against the largest |weight| %.0f", maxw);
    double axis = 560, half = 250;
    svg_line(b, axis, bars_top - 4, axis, bars_top + nrows * ROW, "#888888", 1);
    for (int i = 0; i < nrows; i++) {
        int term = i % EVAL_NTERMS;
        double y = bars_top + i * ROW;
        int wv = eval_weights_at(w, i);
        double len = half * fabs((double)wv) / maxw;
        if (i % 2 == 0) svg_rect(b, 10, y, WIDTH - 20, ROW, "#f6f6f6", "none");
        svg_textf(b, 14, y + 9.5, 9, "start", "#222222", "%2d %s%s", eval_params[term].nr,
                  i >= EVAL_NTERMS ? "end." : "", eval_params[term].name);
        if (wv)
            svg_rect(b, wv > 0 ? axis : axis - len, y + 2, len, ROW - 4, wv > 0 ? "#3a8f3a" : "#c0392b",
                     "none");
        svg_textf(b, wv >= 0 ? axis + len + 4 : axis - len - 4, y + 9.5, 8.5, wv >= 0 ? "start" : "end",
                  "#333333", "%d", wv);
    }
    svg_close(b);
}
