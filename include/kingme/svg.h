/* svg.h - pictures as SVG text, written by kingme itself: line charts with
 * axes, ticks, series, 95% bands and marked points, and the few shapes the
 * board picture needs. Everything is appended to a KmBuf (textio.h); the
 * caller writes it with textio_write_atomic. Library code: nothing is printed.
 *
 * The output is a standalone SVG 1.1 document (UTF-8, XML-escaped text)
 * that browsers, rsvg-convert and Inkscape render. */
#ifndef KINGME_SVG_H
#define KINGME_SVG_H

#include "kingme/textio.h"

#include <stdbool.h>

/* One line of a chart: n points (x[i], y[i]); a point whose y is NaN is a
 * gap. lo and hi (both or neither) draw a shaded band, a 95% interval say;
 * mark[i] (or NULL), a label drawn beside a dot at point i ("??"). */
typedef struct SvgSeries {
    const char *name;  /* in the legend (NULL: none) */
    const char *color; /* "#1f77b4"; NULL: the palette's next */
    int n;
    const double *x, *y;
    const double *lo, *hi;
    const char *const *mark;
    bool dots;    /* a dot at every point */
    bool steps;   /* y holds until the next x (a staircase) */
    bool no_line; /* the points only (dots, marks) */
} SvgSeries;

/* A chart: its axes' ranges (from the data when lo == hi), labels, and
 * horizontal guide lines (hline[k] at y, labelled hline_label[k]). */
typedef struct SvgChart {
    const char *title;
    const char *xlabel, *ylabel;
    double x0, x1, y0, y1;
    bool y_clip; /* y beyond [y0, y1] is drawn at the edge */
    int nseries;
    const SvgSeries *series;
    int nhline;
    const double *hline;
    const char *const *hline_label;
} SvgChart;

/* The document: width x height pixels, a white background, and title as
 * the document's <title>. */
void svg_open(KmBuf *b, int width, int height, const char *title);
void svg_close(KmBuf *b);

/* A chart in the box (x, y, w, h) of the document, axes and legend
 * included. */
void svg_chart(KmBuf *b, const SvgChart *c, double x, double y, double w, double h);

/* Shapes and text. fill/stroke: colours or "none"; anchor: "start",
 * "middle" or "end". Text is XML-escaped. */
void svg_rect(KmBuf *b, double x, double y, double w, double h, const char *fill, const char *stroke);
void svg_circle(KmBuf *b, double cx, double cy, double r, const char *fill, const char *stroke);
void svg_line(KmBuf *b, double x1, double y1, double x2, double y2, const char *stroke, double width);
void svg_text(KmBuf *b, double x, double y, double size, const char *anchor, const char *color,
              const char *text);
void svg_textf(KmBuf *b, double x, double y, double size, const char *anchor, const char *color,
               const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* Text made safe for XML: & < > " ' as entities, a tab as a space, the
 * characters XML 1.0 allows as they are (well-formed UTF-8 by textio_utf8_char,
 * not U+FFFE or U+FFFF), every other byte (controls, DEL, C1 controls,
 * bytes that are not UTF-8) as the text \xHH, as textio_escape shows it. */
void svg_escape(KmBuf *b, const char *text);

/* The palette's colour k (it repeats after 8). */
const char *svg_color(int k);

/* Round tick steps for a range: the first tick at or above lo, the step
 * (1, 2 or 5 times a power of ten) giving about n ticks. */
double svg_tick_step(double lo, double hi, int n);

#endif
