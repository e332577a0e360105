/* svg.c - pictures as SVG text (svg.h). */
#include "kingme/svg.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define FONT "DejaVu Sans, Verdana, Arial, sans-serif"

static const char *const palette[8] = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
};

const char *svg_color(int k) { return palette[(k % 8 + 8) % 8]; }

void svg_escape(KmBuf *b, const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    size_t n = strlen(text);
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        uint32_t cp;
        size_t len = textio_utf8_char(p + i, n - i, &cp);
        if (c == '&') textio_buf_str(b, "&amp;");
        else if (c == '<') textio_buf_str(b, "&lt;");
        else if (c == '>') textio_buf_str(b, "&gt;");
        else if (c == '"') textio_buf_str(b, "&quot;");
        else if (c == '\'') textio_buf_str(b, "&apos;");
        else if (c == '\t') textio_buf_str(b, " ");
        /* a character XML 1.0 allows, as it is: not a control, not U+FFFE
         * or U+FFFF (textio_utf8_char refuses surrogates, overlong forms and
         * what lies past U+10FFFF); any other byte as the text \xHH, the
         * escaping of kingme's terminal output (textio_escape) */
        else if (len && cp >= 0x20 && cp != 0x7F && !(cp >= 0x80 && cp < 0xA0) && cp != 0xFFFE &&
                 cp != 0xFFFF) {
            textio_buf_add(b, (const char *)p + i, len);
            i += len;
            continue;
        } else textio_buf_printf(b, "\\x%02X", c);
        i++;
    }
}

void svg_open(KmBuf *b, int width, int height, const char *title)
{
    textio_buf_printf(b,
                      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
                      "viewBox=\"0 0 %d %d\" font-family=\"%s\">\n<title>",
                      width, height, width, height, FONT);
    svg_escape(b, title ? title : "kingme");
    textio_buf_printf(b, "</title>\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
                      width, height);
}

void svg_close(KmBuf *b) { textio_buf_str(b, "</svg>\n"); }

void svg_rect(KmBuf *b, double x, double y, double w, double h, const char *fill, const char *stroke)
{
    textio_buf_printf(
        b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" stroke=\"%s\"/>\n", x, y,
        w < 0 ? 0 : w, h < 0 ? 0 : h, fill, stroke);
}

void svg_circle(KmBuf *b, double cx, double cy, double r, const char *fill, const char *stroke)
{
    textio_buf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" stroke=\"%s\"/>\n", cx, cy,
                      r, fill, stroke);
}

void svg_line(KmBuf *b, double x1, double y1, double x2, double y2, const char *stroke, double width)
{
    textio_buf_printf(
        b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.2g\"/>\n",
        x1, y1, x2, y2, stroke, width);
}

void svg_text(KmBuf *b, double x, double y, double size, const char *anchor, const char *color,
              const char *text)
{
    textio_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.3g\" text-anchor=\"%s\" fill=\"%s\">", x,
                      y, size, anchor, color);
    svg_escape(b, text);
    textio_buf_str(b, "</text>\n");
}

void svg_textf(KmBuf *b, double x, double y, double size, const char *anchor, const char *color,
               const char *fmt, ...)
{
    char t[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t, sizeof t, fmt, ap);
    va_end(ap);
    svg_text(b, x, y, size, anchor, color, t);
}

double svg_tick_step(double lo, double hi, int n)
{
    double span = hi - lo;
    if (!(span > 0) || n < 1) return 1;
    double raw = span / n, p = pow(10, floor(log10(raw))), f = raw / p;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

/* ---- charts -------------------------------------------------------------------- */

typedef struct Frame {
    double px, py, pw, ph; /* the plotting area */
    double x0, x1, y0, y1;
    bool clip;
} Frame;

static double fx(const Frame *f, double x) { return f->px + (x - f->x0) / (f->x1 - f->x0) * f->pw; }
static double fy(const Frame *f, double y)
{
    if (f->clip) y = y < f->y0 ? f->y0 : y > f->y1 ? f->y1 : y;
    return f->py + f->ph - (y - f->y0) / (f->y1 - f->y0) * f->ph;
}

static void widen(double v, double *lo, double *hi)
{
    if (!isfinite(v)) return;
    if (v < *lo) *lo = v;
    if (v > *hi) *hi = v;
}

/* The ranges of the data (and guide lines) where the chart does not fix them. */
static void ranges(const SvgChart *c, Frame *f)
{
    double xl = INFINITY, xh = -INFINITY, yl = INFINITY, yh = -INFINITY;
    for (int s = 0; s < c->nseries; s++) {
        const SvgSeries *r = &c->series[s];
        for (int i = 0; i < r->n; i++) {
            if (!isfinite(r->y[i])) continue;
            widen(r->x[i], &xl, &xh);
            widen(r->y[i], &yl, &yh);
            if (r->lo) widen(r->lo[i], &yl, &yh);
            if (r->hi) widen(r->hi[i], &yl, &yh);
        }
    }
    for (int k = 0; k < c->nhline; k++) widen(c->hline[k], &yl, &yh);
    if (c->x0 < c->x1) xl = c->x0, xh = c->x1;
    if (!(xl < xh)) {
        double m = isfinite(xl) ? xl : 0;
        xl = m - 1, xh = m + 1;
    }
    if (c->y0 < c->y1) {
        yl = c->y0, yh = c->y1;
    } else {
        if (!(yl < yh)) {
            double m = isfinite(yl) ? yl : 0;
            yl = m - 1, yh = m + 1;
        }
        double pad = (yh - yl) * 0.05;
        yl -= pad, yh += pad;
    }
    f->x0 = xl, f->x1 = xh, f->y0 = yl, f->y1 = yh;
}

static void tick_label(char *buf, size_t len, double v, double step)
{
    int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    if (dec > 6) dec = 6;
    if (fabs(v) < step * 1e-6) v = 0;
    if (fabs(v) >= 1e6) snprintf(buf, len, "%.3g", v);
    else snprintf(buf, len, "%.*f", dec, v);
}

static void axes(KmBuf *b, const SvgChart *c, const Frame *f)
{
    svg_rect(b, f->px, f->py, f->pw, f->ph, "#fbfbfb", "#888888");
    double ys = svg_tick_step(f->y0, f->y1, 6), xs = svg_tick_step(f->x0, f->x1, 8);
    char t[64];
    for (double v = ceil(f->y0 / ys - 1e-9) * ys; v <= f->y1 + ys * 1e-9; v += ys) {
        double y = fy(f, v);
        svg_line(b, f->px, y, f->px + f->pw, y, "#e4e4e4", 1);
        tick_label(t, sizeof t, v, ys);
        svg_text(b, f->px - 5, y + 4, 11, "end", "#333333", t);
    }
    for (double v = ceil(f->x0 / xs - 1e-9) * xs; v <= f->x1 + xs * 1e-9; v += xs) {
        double x = fx(f, v);
        svg_line(b, x, f->py + f->ph, x, f->py + f->ph + 4, "#888888", 1);
        tick_label(t, sizeof t, v, xs);
        svg_text(b, x, f->py + f->ph + 16, 11, "middle", "#333333", t);
    }
    if (f->y0 < 0 && f->y1 > 0) svg_line(b, f->px, fy(f, 0), f->px + f->pw, fy(f, 0), "#999999", 1);
    for (int k = 0; k < c->nhline; k++) {
        if (!isfinite(c->hline[k]) || c->hline[k] < f->y0 || c->hline[k] > f->y1) continue;
        double y = fy(f, c->hline[k]);
        textio_buf_printf(b,
                          "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#777777\" "
                          "stroke-width=\"1\" stroke-dasharray=\"4 3\"/>\n",
                          f->px, y, f->px + f->pw, y);
        /* the label at the left, above the line (below it for a line under zero) */
        if (c->hline_label && c->hline_label[k])
            svg_text(b, f->px + 4, c->hline[k] < 0 ? y + 11 : y - 3, 10, "start", "#555555",
                     c->hline_label[k]);
    }
    if (c->title) svg_text(b, f->px, f->py - 8, 13, "start", "#111111", c->title);
    if (c->xlabel) svg_text(b, f->px + f->pw / 2, f->py + f->ph + 32, 11, "middle", "#333333", c->xlabel);
    if (c->ylabel) {
        double x = f->px - 46, y = f->py + f->ph / 2;
        textio_buf_printf(
            b,
            "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\" fill=\"#333333\" "
            "transform=\"rotate(-90 %.1f %.1f)\">",
            x, y, x, y);
        svg_escape(b, c->ylabel);
        textio_buf_str(b, "</text>\n");
    }
}

/* The band of a series: one polygon per run of points with finite values. */
static void band(KmBuf *b, const Frame *f, const SvgSeries *r, const char *color)
{
    int i = 0;
    while (i < r->n) {
        while (i < r->n && !(isfinite(r->lo[i]) && isfinite(r->hi[i]) && isfinite(r->x[i]))) i++;
        int j = i;
        while (j < r->n && isfinite(r->lo[j]) && isfinite(r->hi[j]) && isfinite(r->x[j])) j++;
        if (j > i) {
            textio_buf_printf(b, "<polygon fill=\"%s\" fill-opacity=\"0.15\" stroke=\"none\" points=\"",
                              color);
            for (int k = i; k < j; k++) textio_buf_printf(b, "%.1f,%.1f ", fx(f, r->x[k]), fy(f, r->hi[k]));
            for (int k = j - 1; k >= i; k--)
                textio_buf_printf(b, "%.1f,%.1f ", fx(f, r->x[k]), fy(f, r->lo[k]));
            textio_buf_str(b, "\"/>\n");
        }
        i = j;
    }
}

static void series_path(KmBuf *b, const Frame *f, const SvgSeries *r, const char *color)
{
    textio_buf_printf(
        b, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" stroke-linejoin=\"round\" d=\"", color);
    bool pen = false;
    for (int i = 0; i < r->n; i++) {
        if (!isfinite(r->y[i]) || !isfinite(r->x[i])) {
            pen = false;
            continue;
        }
        double x = fx(f, r->x[i]), y = fy(f, r->y[i]);
        if (!pen) textio_buf_printf(b, "M%.1f %.1f", x, y);
        else if (r->steps) textio_buf_printf(b, " H%.1f V%.1f", x, y);
        else textio_buf_printf(b, " L%.1f %.1f", x, y);
        pen = true;
    }
    textio_buf_str(b, "\"/>\n");
}

void svg_chart(KmBuf *b, const SvgChart *c, double x, double y, double w, double h)
{
    Frame f = {x + 62, y + 28, w - 62 - 16, h - 28 - 42, 0, 0, 0, 0, c->y_clip};
    ranges(c, &f);
    axes(b, c, &f);
    /* the data, clipped to the plotting area */
    char id[32];
    snprintf(id, sizeof id, "clip%zu", b->len);
    textio_buf_printf(
        b, "<clipPath id=\"%s\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/></clipPath>\n",
        id, f.px, f.py, f.pw, f.ph);
    textio_buf_printf(b, "<g clip-path=\"url(#%s)\">\n", id);
    for (int s = 0; s < c->nseries; s++) {
        const SvgSeries *r = &c->series[s];
        if (r->lo && r->hi) band(b, &f, r, r->color ? r->color : svg_color(s));
    }
    for (int s = 0; s < c->nseries; s++) {
        const SvgSeries *r = &c->series[s];
        const char *col = r->color ? r->color : svg_color(s);
        if (!r->no_line) series_path(b, &f, r, col);
        for (int i = 0; i < r->n; i++) {
            if (!isfinite(r->y[i]) || !isfinite(r->x[i])) continue;
            bool marked = r->mark && r->mark[i] && r->mark[i][0];
            if (r->dots || marked)
                svg_circle(b, fx(&f, r->x[i]), fy(&f, r->y[i]), marked ? 3.5 : 2.2, col, "none");
        }
    }
    textio_buf_str(b, "</g>\n");
    /* the marks' labels, outside the clip so that they are never cut */
    for (int s = 0; s < c->nseries; s++) {
        const SvgSeries *r = &c->series[s];
        if (!r->mark) continue;
        for (int i = 0; i < r->n; i++) {
            if (!r->mark[i] || !r->mark[i][0] || !isfinite(r->y[i]) || !isfinite(r->x[i])) continue;
            double py = fy(&f, r->y[i]);
            bool above = py > f.py + 14;
            svg_text(b, fx(&f, r->x[i]), above ? py - 6 : py + 14, 10, "middle", "#111111", r->mark[i]);
        }
    }
    /* the legend, top right inside the plot */
    int named = 0;
    for (int s = 0; s < c->nseries; s++) named += c->series[s].name != NULL;
    if (named) {
        double lw = 0;
        for (int s = 0; s < c->nseries; s++)
            if (c->series[s].name) {
                double tw = 6.2 * (double)strlen(c->series[s].name);
                if (tw > lw) lw = tw;
            }
        double lx = f.px + f.pw - lw - 42, ly = f.py + 8; /* top right */
        textio_buf_printf(b,
                          "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#ffffff\" "
                          "fill-opacity=\"0.85\" stroke=\"#cccccc\"/>\n",
                          lx, ly, lw + 34, 16.0 * named + 6);
        int k = 0;
        for (int s = 0; s < c->nseries; s++) {
            const SvgSeries *r = &c->series[s];
            if (!r->name) continue;
            double yy = ly + 14 + 16.0 * k++;
            const char *col = r->color ? r->color : svg_color(s);
            if (r->no_line) svg_circle(b, lx + 15, yy - 4, 3.5, col, "none");
            else svg_line(b, lx + 6, yy - 4, lx + 24, yy - 4, col, 2.5);
            svg_text(b, lx + 28, yy, 11, "start", "#222222", r->name);
        }
    }
}
