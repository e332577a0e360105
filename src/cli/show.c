/* show.c - kingme show FILE [FILE2] [--sort weight]: a weights file as a table
 * with each weight's priority class, or two files side by side. */
#include "cli.h"
#include "kingme/weights.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Priority classes relative to the file's largest |weight| M:
 * |w| >= 2M/3 high, |w| >= M/3 medium, else low (0 included). */
enum { CLS_HIGH_POS, CLS_MED_POS, CLS_LOW, CLS_MED_NEG, CLS_HIGH_NEG };
static const char *const class_name[] = {
    "high positive", "medium positive", "low", "medium negative", "high negative",
};

static int max_abs(const Weights *w)
{
    int m = 0;
    for (int i = 0; i < EVAL_NPARAMS; i++) {
        int a = w->w[i] < 0 ? -w->w[i] : w->w[i];
        if (a > m) m = a;
    }
    return m;
}

static int classify(int w, int m)
{
    int a = w < 0 ? -w : w;
    if (m == 0 || 3 * a < m) return CLS_LOW; /* exact: no rounding of M/3 */
    if (3 * a >= 2 * m) return w > 0 ? CLS_HIGH_POS : CLS_HIGH_NEG;
    return w > 0 ? CLS_MED_POS : CLS_MED_NEG;
}

static void print_thresholds(const char *label, int m)
{
    /* the smallest |w| in each class: ceil(2M/3), ceil(M/3) */
    printf("%sclasses relative to the largest |weight| %d: high |w| >= %d, medium |w| >= %d, "
           "low below\n",
           label, m, (2 * m + 2) / 3, (m + 2) / 3);
}

static const Weights *sort_w; /* qsort has no context argument */
static int by_weight(const void *a, const void *b)
{
    int i = *(const int *)a, j = *(const int *)b;
    if (sort_w->w[i] != sort_w->w[j]) return sort_w->w[i] > sort_w->w[j] ? -1 : 1;
    return i - j;
}

static int run(const Opts *o)
{
    const char *files[2] = {o->args[0], o->args[1]};
    int nfiles = o->nargs;
    bool sort = opt_given(o, "--sort");
    Weights w[2] = {{{0}}};
    for (int k = 0; k < nfiles; k++)
        if (!cli_weights(files[k], &w[k])) return 1;

    int order[EVAL_NPARAMS];
    for (int i = 0; i < EVAL_NPARAMS; i++) order[i] = i;
    if (sort) {
        sort_w = &w[0];
        qsort(order, EVAL_NPARAMS, sizeof order[0], by_weight);
    }
    int m0 = max_abs(&w[0]);

    if (nfiles == 1) {
        printf("%s\n", files[0]);
        printf("%2s  %-23s  %-44s  %6s  %s\n", "nr", "name", "description", "weight", "class");
        for (int k = 0; k < EVAL_NPARAMS; k++) {
            int i = order[k];
            printf("%2d  %-23s  %-44s  %6d  %s\n", eval_params[i].nr, eval_params[i].name,
                   eval_params[i].desc, w[0].w[i], class_name[classify(w[0].w[i], m0)]);
        }
        print_thresholds("", m0);
        return 0;
    }

    int m1 = max_abs(&w[1]), ndiff = 0;
    printf("A = %s\nB = %s\n", files[0], files[1]);
    printf("%2s  %-23s  %6s  %-15s  %6s  %s\n", "nr", "name", "A", "class A", "B", "class B");
    for (int k = 0; k < EVAL_NPARAMS; k++) {
        int i = order[k];
        int ca = classify(w[0].w[i], m0), cb = classify(w[1].w[i], m1);
        ndiff += ca != cb;
        printf("%2d  %-23s  %6d  %-15s  %6d  ", eval_params[i].nr, eval_params[i].name,
               w[0].w[i], class_name[ca], w[1].w[i]);
        if (ca != cb)
            printf("%-15s  *\n", class_name[cb]);
        else
            printf("%s\n", class_name[cb]);
    }
    print_thresholds("A: ", m0);
    print_thresholds("B: ", m1);
    printf("%d of %d parameters differ in class (marked *)\n", ndiff, EVAL_NPARAMS);
    return 0;
}

static const Opt options[] = {
    {"--sort", NULL, NULL, OPT_CHOICE, "weight", 0, 0, DESCRIBED("by number"), "order by weight, largest first (of the first file)"},
    OPTS_END,
};

const CliCommand cmd_show = {
    "show", run, "show a weights file with each weight's priority class, or compare two",
    &(const OptSpec){
        "FILE [FILE2]", 1, 2,
        "One file: nr, name, description, weight and priority class of the 60 parameters. Classes "
        "are relative to the file's largest |weight| M: high (|w| >= 2M/3), medium (>= M/3), low; "
        "positive or negative. Two files: both weights and classes side by side, rows whose class "
        "differs marked '*', and how many differ.",
        options,
        "example: kingme show weights/thesis.w weights/default.w",
    },
};
