/* show.c - kingme show FILE [FILE2] [--sort nr|weight|typical]: a weights
 * file as a table with each weight's priority class (the documents') and its
 * typical contribution (measured), or two files side by side. */
#include "cli.h"
#include "kingme/charts.h"
#include "kingme/nn.h"
#include "kingme/patterns.h"
#include "kingme/search_params.h"
#include "kingme/textio.h"
#include "kingme/weights.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Priority classes relative to the file's largest |weight| M:
 * |w| >= 2M/3 high, |w| >= M/3 medium, else low; 0 is unused. */
enum { CLS_HIGH_POS, CLS_MED_POS, CLS_LOW, CLS_MED_NEG, CLS_HIGH_NEG, CLS_UNUSED };
static const char *const class_name[] = {
    "high positive", "medium positive", "low", "medium negative", "high negative", "unused",
};
static const char *const class_short[] = {"high+", "medium+", "low", "medium-", "high-", "unused"};

/* One file: its weights, label, largest |weight| and unit of the typical
 * contributions (|own_men| when not 0: they are then in men). */
typedef struct Shown {
    const char *label;
    Weights w;
    int max_abs;
    double unit;
} Shown;

/* The rows: 0..EVAL_NTERMS-1 the terms' (opening) weights, EVAL_NTERMS + i the
 * ending weight of term i. Shown: the 60; the new terms when a file gives one
 * a weight or has a phase; the ending vector when a file has a phase. */
static int nrows;
/* the name column: 23 fits every name, 27 the ending vector's end.NAME too */
#define NAME_W (nrows > EVAL_NTERMS ? 27 : 23)
static int weight(const Shown *f, int k) { return eval_weights_at(&f->w, k); }
static int term(int k) { return k % EVAL_NTERMS; }
static const char *row_name(int k, char buf[48])
{
    snprintf(buf, 48, "%s%s", k < EVAL_NTERMS ? "" : "end.", eval_params[term(k)].name);
    return buf;
}
static int rows_needed(const Weights *w)
{
    if (w->phased) return 2 * EVAL_NTERMS;
    for (int i = EVAL_NPARAMS; i < EVAL_NTERMS; i++)
        if (w->w[i]) return EVAL_NTERMS;
    return EVAL_NPARAMS;
}

static int classify(int w, int m)
{
    int a = w < 0 ? -w : w;
    if (w == 0) return CLS_UNUSED;
    if (3 * a < m) return CLS_LOW; /* exact: no rounding of M/3 */
    if (3 * a >= 2 * m) return w > 0 ? CLS_HIGH_POS : CLS_HIGH_NEG;
    return w > 0 ? CLS_MED_POS : CLS_MED_NEG;
}

/* The typical contribution of weight i: mean value x weight over the
 * positions of Tinsley's games, in the file's unit. */
static double typical(const Shown *f, int k) { return weight(f, k) * cli_typical_value[term(k)] / f->unit; }

static bool load(const char *path, Shown *f)
{
    if (!cli_weights(path, &f->w)) return false;
    f->label = strcmp(path, "default") == 0 ? "default (the built-in weights/default.w)" : path;
    f->max_abs = 0;
    for (int k = 0; k < rows_needed(&f->w); k++) {
        int a = abs(weight(f, k));
        if (a > f->max_abs) f->max_abs = a;
    }
    int men = abs(f->w.w[EP_own_men]);
    f->unit = men ? men : 1;
    return true;
}

/* ---- order ------------------------------------------------------------------------ */

enum { SORT_NR, SORT_WEIGHT, SORT_TYPICAL };
static const Shown *sort_by; /* qsort has no context argument */
static int sort_key;

static int compare(const void *a, const void *b)
{
    int i = *(const int *)a, j = *(const int *)b;
    if (sort_key == SORT_WEIGHT && weight(sort_by, i) != weight(sort_by, j))
        return weight(sort_by, i) > weight(sort_by, j) ? -1 : 1;
    if (sort_key == SORT_TYPICAL) {
        double x = fabs(typical(sort_by, i)), y = fabs(typical(sort_by, j));
        if (x != y) return x > y ? -1 : 1;
    }
    return i - j;
}

/* ---- the notes under the table ------------------------------------------------------ */

static void print_unit(const char *label, const Shown *f)
{
    if (f->w.w[EP_own_men])
        printf("%styp: in men, 1 man = |own_men| = %d points\n", label, abs(f->w.w[EP_own_men]));
    else printf("%styp: in points (own_men is 0)\n", label);
}

static void print_thresholds(const char *label, int m)
{
    /* the smallest |w| in each class: ceil(2M/3), ceil(M/3) */
    printf("%sclasses relative to the largest |weight| %d: high |w| >= %d, medium |w| >= %d, low below, "
           "unused = 0\n",
           label, m, (2 * m + 2) / 3, (m + 2) / 3);
}

static void print_legend(void)
{
    printf("\n"
           "typ: the weight's typical contribution, value x weight averaged over all\n"
           "  the %d positions of Tinsley's %d games (for the side to move); values\n"
           "  are never negative, so it is the mean |value x weight| with the weight's sign.\n"
           "class: the design documents' priority class, from the weight alone.\n"
           "terms: player = the side the evaluation is for, opponent = the other side;\n"
           "  rows are counted from the owner's back rank: low 1-2, middle 4-5, high 6-8;\n"
           "  wall squares 4 5 12 13 20 21 28 29; corners 4 and 29; crowning row: where\n"
           "  men become kings; lone: no piece on any neighbour square. Patterns (Black's;\n"
           "  White's are the squares turned round, s -> 33-s): Triangle men on 1 2 6,\n"
           "  Oreo men on 2 3 7, Bridge men on 1 and 3, Dog a man on 28 held by an enemy\n"
           "  man on 32. Blockers: pieces with an own piece on a square one row ahead;\n"
           "  runs (block lines): 2 or more own pieces in a row on one diagonal.\n",
           cli_typical_positions, cli_typical_games);
    if (nrows > EVAL_NPARAMS)
        printf("  New terms (61-74) and the phase (end.NAME: the ending vector):\n"
               "  docs/file-formats.md.\n");
}

/* ---- the tables ----------------------------------------------------------------------- */

/* The typical contribution, 8 wide: "-" for an unused weight. */
static const char *typ_text(const Shown *f, int i, char buf[16])
{
    if (weight(f, i) == 0) snprintf(buf, 16, "%8s", "-");
    else snprintf(buf, 16, "%+8.3f", typical(f, i));
    return buf;
}

static void show_patterns(const Shown *f);
static void show_network(const Shown *f);

static void show_one(const Shown *f, const int *order)
{
    printf("%s\n", f->label);
    printf("%2s  %-*s  %6s  %-15s  %8s  %s\n", "nr", NAME_W, "name", "weight", "class", "typ", "description");
    for (int k = 0; k < nrows; k++) {
        int i = order[k];
        char t[16], nm[48];
        printf("%2d  %-*s  %6d  %-15s  %s  %s\n", eval_params[term(i)].nr, NAME_W, row_name(i, nm),
               weight(f, i), class_name[classify(weight(f, i), f->max_abs)], typ_text(f, i, t),
               eval_params[term(i)].desc);
    }
    print_thresholds("", f->max_abs);
    print_unit("", f);
    if (f->w.pat) show_patterns(f);
    if (f->w.net) show_network(f);
}

/* The network layer: its shape, size, checksum and typical output. */
static void show_network(const Shown *f)
{
    const EvalNet *n = f->w.net;
    Board b;
    char err[KM_ERR_MAX];
    double typ = 0, big = 0;
    int nb = 0;
    for (int i = 0; i < cli_bench_eval_npositions; i++)
        if (board_from_fen(&b, cli_bench_eval_positions[i], err) == 0) {
            double v = fabs((double)nn_eval(n, &b, b.stm));
            typ += v;
            if (v > big) big = v;
            nb++;
        }
    printf("\nnetwork: %d inputs a view x 2 views -> %d units -> %d -> 1, %ld weights, checksum %08x\n",
           NN_INPUTS, n->hidden, NN_L2, nn_nparams(n->hidden), (unsigned)n->crc);
    if (n->max_pieces)
        printf("  an ending network: asked only in positions of %d to %d pieces (0 elsewhere)\n",
               NN_ENDING_MIN_PIECES, n->max_pieces);
    printf("  its part of the score over the %d positions of bench --eval: mean |part| %.3f men, largest "
           "%.3f\n",
           nb, typ / (nb ? nb : 1) / f->unit, big / f->unit);
}

/* ---- the pattern layer ------------------------------------------------------------- */

/* A 32-cell table as a board in the player's own view (its back rank, squares
 * 1-4, at the top), the opening's beside the ending's, in points. */
static void show_square_table(const EvalPatterns *p, int t)
{
    printf("  %-34s  %s\n", pat_tables[t].name, "");
    printf("  %-34s  %s\n", "opening", "ending");
    for (int row = 0; row < 8; row++) {
        printf("  ");
        for (int ph = 0; ph < 2; ph++) {
            for (int col = 0; col < 8; col++) {
                bool dark = (row + col) % 2 == 1;
                if (!dark) printf("   .");
                else printf("%4d", pat_cells_const(p, t, ph)[4 * row + col / 2]);
            }
            printf(ph ? "\n" : "  ");
        }
    }
}

static void show_patterns(const Shown *f)
{
    const EvalPatterns *p = f->w.pat;
    int nonzero = 0, cells = 0;
    for (int ph = 0; ph < 2; ph++)
        for (int t = 0; t < PAT_NTABLES; t++)
            for (int i = 0; i < pat_tables[t].cells; i++, cells++)
                nonzero += pat_cells_const(p, t, ph)[i] != 0;
    printf("\npattern layer: %d tables in two phases, %d cells, %d not 0\n", PAT_NTABLES, cells, nonzero);
    show_square_table(p, PAT_MAN_TABLE);
    show_square_table(p, PAT_KING_TABLE);
    /* typical contribution: mean |part| over the bench --eval positions, both sides */
    Board b[64];
    int nb = 0;
    char err[KM_ERR_MAX];
    for (int i = 0; i < cli_bench_eval_npositions && nb < 64; i++)
        if (board_from_fen(&b[nb], cli_bench_eval_positions[i], err) == 0) nb++;
    printf("%-6s %5s %5s  %-20s  %-20s  %6s %6s\n", "table", "cells", "not 0", "largest (opening)",
           "largest (ending)", "typ", "typ.end");
    for (int t = 0; t < PAT_NTABLES; t++) {
        char big[2][32];
        int used = 0;
        for (int ph = 0; ph < 2; ph++) {
            const int16_t *c = pat_cells_const(p, t, ph);
            int at = 0;
            for (int i = 0; i < pat_tables[t].cells; i++) {
                used += c[i] != 0;
                if (abs(c[i]) > abs(c[at])) at = i;
            }
            char what[16];
            if (t >= 2) pat_cell_text(at, what);
            else snprintf(what, sizeof what, "on %d", at + 1);
            snprintf(big[ph], sizeof big[ph], "%+6d %s", c[at], what);
        }
        double typ[2] = {0, 0};
        for (int i = 0; i < nb; i++) {
            EvalFeatures ef;
            eval_features(&b[i], KM_BLACK, &ef);
            for (int side = 0; side < 2; side++)
                for (int ph = 0; ph < 2; ph++) typ[ph] += abs(pat_table_part(p, t, ph, &ef.pat, side));
        }
        for (int ph = 0; ph < 2; ph++) typ[ph] /= 2.0 * (nb ? nb : 1) * f->unit;
        printf("%-6s %5d %5d  %-20s  %-20s  %6.3f %6.3f\n", pat_tables[t].name, 2 * pat_tables[t].cells, used,
               big[0], big[1], typ[0], typ[1]);
    }
    printf("man, king: the weight of a player's man or king on each square, the player's\n"
           "  back rank (1-4) at the top. r<R>c<C>: the 4 x 4 region from row R (0: the\n"
           "  back rank) and column C; a cell's squares in order, x the player's piece,\n"
           "  o the opponent's, . empty. typ: the mean |contribution| of the table (its\n"
           "  player's cells minus the opponent's) over the %d positions of bench --eval, in\n"
           "  men (docs/evaluation.md).\n",
           nb);
}

static void show_two(const Shown f[2], const int *order)
{
    int ndiff = 0, nclass = 0, nflip = 0;
    printf("A = %s\nB = %s\n", f[0].label, f[1].label);
    printf("%2s  %-*s  %6s  %-7s  %8s  %6s  %-7s  %8s  %6s\n", "nr", NAME_W, "name", "A", "class", "typ", "B",
           "class", "typ", "B - A");
    for (int k = 0; k < nrows; k++) {
        int i = order[k], a = weight(&f[0], i), b = weight(&f[1], i);
        int ca = classify(a, f[0].max_abs), cb = classify(b, f[1].max_abs);
        bool flip = (a < 0 && b > 0) || (a > 0 && b < 0);
        ndiff += a != b;
        nclass += ca != cb;
        nflip += flip;
        char ta[16], tb[16], d[16], nm[48];
        if (a == b) snprintf(d, sizeof d, "%6s", "0");
        else snprintf(d, sizeof d, "%+6d", b - a);
        printf("%2d  %-*s  %6d  %-7s  %s  %6d  %-7s  %s  %s  %s%s\n", eval_params[term(i)].nr, NAME_W,
               row_name(i, nm), a, class_short[ca], typ_text(&f[0], i, ta), b, class_short[cb],
               typ_text(&f[1], i, tb), d, ca != cb ? "*" : " ", flip ? "!" : "");
    }
    print_thresholds("A: ", f[0].max_abs);
    print_thresholds("B: ", f[1].max_abs);
    print_unit("A: ", &f[0]);
    print_unit("B: ", &f[1]);
    printf("%d of %d weights differ; %d differ in class (marked *), %d change sign (marked !)\n", ndiff,
           nrows, nclass, nflip);
    for (int k = 0; k < 2; k++)
        if (f[k].w.pat || f[k].w.net)
            printf("%s has a %s (kingme show %s shows it)\n", k ? "B" : "A",
                   f[k].w.pat && f[k].w.net ? "pattern layer and a network"
                   : f[k].w.pat             ? "pattern layer"
                                            : "network",
                   f[k].label);
}

static int run(const Opts *o)
{
    if (opt_flag(o, OPT_SEARCH)) {
        if (o->nargs) return cli_usage_error("show", "--search takes no file (--set @FILE shows one)");
        SearchParams p;
        search_params_default(&p);
        if (!cli_search_params(o, OPT_SET, &p)) return 1;
        cli_print_search_params(&p, !opt_flag(o, OPT_NO_LEGEND));
        if (!opt_flag(o, OPT_NO_LEGEND))
            printf("* differs from the default; measured: the last match that measured the value "
                   "(docs/devlog.md)\n");
        return 0;
    }
    if (opt_count(o, OPT_SET)) return cli_usage_error("show", "--set goes with --search");
    if (o->nargs == 0) return cli_usage_error("show", "give a weights file (or --search)");
    Shown f[2];
    for (int k = 0; k < o->nargs; k++)
        if (!load(o->args[k], &f[k])) return 1;
    nrows = EVAL_NPARAMS;
    for (int k = 0; k < o->nargs; k++)
        if (rows_needed(&f[k].w) > nrows) nrows = rows_needed(&f[k].w);
    int order[2 * EVAL_NTERMS];
    for (int i = 0; i < nrows; i++) order[i] = i;
    sort_by = &f[0];
    sort_key = opt_choice(o, OPT_SORT);
    qsort(order, (size_t)nrows, sizeof order[0], compare);
    if (o->nargs == 1) show_one(&f[0], order);
    else show_two(f, order);
    if (!opt_flag(o, OPT_NO_LEGEND)) print_legend();
    const char *svg = opt_str(o, OPT_SVG);
    if (svg) {
        char title[512], err[KM_ERR_MAX];
        snprintf(title, sizeof title, "kingme show: %.480s", f[0].label);
        KmBuf b = {0};
        chart_weights(&b, title, &f[0].w, rows_needed(&f[0].w));
        size_t len = b.len;
        char *text = textio_buf_done(&b);
        if (!text) return cli_error("out of memory");
        int r = textio_write_atomic(svg, text, len, err);
        free(text);
        if (r) return cli_error("%s", err);
        if (!textio_is_stdout_name(svg)) printf("picture of %s written to %s\n", f[0].label, svg);
    }
    return 0;
}

static const Opt options[] = {
    {OPT_SORT, NULL, NULL, OPT_CHOICE, "nr|weight|typical", 0, 0, "nr",
     "the order of the rows: by number, by weight (largest first), or by typical contribution "
     "(largest |typ| first); with two files, of the first"},
    {OPT_NO_LEGEND, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL,
     "leave out the notes on the columns and the terms"},
    {OPT_SVG, NULL, NULL, OPT_STR, "OUT", 0, 0, DESCRIBED("none"),
     "also draw FILE as an SVG picture: the board with the weights of a man and of a king on each "
     "square (in men; opening and ending with a phase), and every weight as a bar"},
    {OPT_SEARCH, NULL, NULL, OPT_FLAG, NULL, 0, 0, NULL,
     "instead of a weights file, the search's and the time manager's parameters: name, value, default, "
     "range, what each does and what it last measured (--no-legend: not that)"},
    CLI_SET_OPT(OPT_SET, "the table shown (with --search)"),
    OPTS_END,
};

const CliCommand cmd_show = {
    "show",
    run,
    "show a weights file: each weight's class and typical contribution; or compare two",
    &(const OptSpec){
        "FILE [FILE2]",
        0,
        2,
        "One file: number, name, weight, the documents' priority class (high, medium or low, positive "
        "or negative, relative to the file's largest |weight|; unused for 0), the typical "
        "contribution in men (typ: the weight times the parameter's mean over the positions of "
        "Tinsley's games, divided by |own_men|), and a description of each of the 60 parameters "
        "(and of the new terms 61-74 when the file gives one a weight; with a phase, the ending "
        "vector's end.NAME rows as well). "
        "Two files: both side by side with the difference B - A; rows whose class differs are "
        "marked *, weights that change sign !, and the differences are counted. FILE may be "
        "'default', the built-in weights.",
        options,
        "example: kingme show weights/thesis.w default --sort typical",
    },
};
