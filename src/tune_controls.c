/* tune_controls.c - the controls of a tuning session: the listed controls'
 * table, defaults and checks (tune_controls.h). */
#include "kingme/tune_controls.h"
#include "kingme/nn.h"
#include "kingme/opening.h"
#include "kingme/patterns.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TUNE_KIND_(kind) TUNE_KIND_##kind
#define TUNE_WHO_(who) TUNE_WHO_##who

const TuneControlInfo tune_controls_info[TUNE_NCONTROLS] = {
#define TUNE_CONTROL_INFO_(field, kind, key, option, arg, lo, hi, multiple, learn, thesis, who, help) \
    {key, option, arg, TUNE_KIND_(kind), lo, hi, multiple, TUNE_WHO_(who), help},
    TUNE_CONTROL_LIST(TUNE_CONTROL_INFO_)
#undef TUNE_CONTROL_INFO_
};

double tune_controls_get(const TuneControls *c, int i)
{
    switch (i) {
#define TUNE_CONTROL_GET_(field, ...) \
    case TUNE_C_##field:              \
        return (double)c->field;
        TUNE_CONTROL_LIST(TUNE_CONTROL_GET_)
#undef TUNE_CONTROL_GET_
    }
    return 0;
}

/* A double into a control of each kind. */
#define TUNE_FROM_INT(v) ((int)(v))
#define TUNE_FROM_REAL(v) (v)
#define TUNE_FROM_CHOICE(v) ((int)(v))

void tune_controls_set(TuneControls *c, int i, double v)
{
    switch (i) {
#define TUNE_CONTROL_SET_(field, kind, ...) \
    case TUNE_C_##field:                    \
        c->field = TUNE_FROM_##kind(v);     \
        break;
        TUNE_CONTROL_LIST(TUNE_CONTROL_SET_)
#undef TUNE_CONTROL_SET_
    }
}

/* Word k of "a|b|c" as a pointer and length; false past the last. */
static bool word_at(const char *words, int k, const char **w, size_t *n)
{
    for (; k > 0; k--) {
        words = strchr(words, '|');
        if (!words) return false;
        words++;
    }
    *w = words;
    *n = strcspn(words, "|");
    return true;
}

/* Word k of a CHOICE control into buf (len bytes; "" past the last). */
static void tune_control_word(int i, int k, char *buf, size_t len)
{
    const char *w;
    size_t n;
    if (!word_at(tune_controls_info[i].arg, k, &w, &n)) n = 0;
    snprintf(buf, len, "%.*s", (int)n, n ? w : "");
}

int tune_controls_choice(int i, const char *word)
{
    const char *w;
    size_t n;
    for (int k = 0; word_at(tune_controls_info[i].arg, k, &w, &n); k++)
        if (strlen(word) == n && strncmp(word, w, n) == 0) return k;
    return -1;
}

void tune_controls_expect(int i, char *buf, size_t len)
{
    const TuneControlInfo *t = &tune_controls_info[i];
    if (t->kind == TUNE_KIND_CHOICE) {
        size_t at = 0;
        char word[32];
        for (int k = 0; tune_control_word(i, k, word, sizeof word), word[0] && at < len; k++)
            at += (size_t)snprintf(buf + at, len - at, "%s'%s'", k ? " or " : "", word);
    } else if (t->kind == TUNE_KIND_REAL) {
        if (t->lo == 0 && t->hi == 1) snprintf(buf, len, "a chance from 0 to 1");
        else snprintf(buf, len, "a number from %.15g to %.15g", t->lo, t->hi);
    } else if (t->multiple == 2) {
        snprintf(buf, len, "an even number from %.15g to %.15g", t->lo, t->hi);
    } else if (t->multiple > 1) {
        snprintf(buf, len, "a multiple of %d from %.15g to %.15g", t->multiple, t->lo, t->hi);
    } else {
        snprintf(buf, len, "a whole number from %.15g to %.15g", t->lo, t->hi);
    }
}

bool tune_controls_valid(int i, double v, char *err)
{
    const TuneControlInfo *t = &tune_controls_info[i];
    char what[96];
    if (t->kind == TUNE_KIND_CHOICE) {
        char word[32] = "";
        if (v >= 0 && v < 16 && v == floor(v)) tune_control_word(i, (int)v, word, sizeof word);
        if (word[0]) return true;
        tune_controls_expect(i, what, sizeof what);
        km_fail(err, "%s is %s, not %g", t->key, what, v);
        return false;
    }
    bool ok = v >= t->lo && v <= t->hi;
    if (t->kind == TUNE_KIND_INT) ok = ok && v == floor(v) && fmod(v, t->multiple) == 0;
    if (ok) return true;
    tune_controls_expect(i, what, sizeof what);
    km_fail(err, "%s %.15g is not %s", t->key, v, what);
    return false;
}

void tune_controls_text(const TuneControls *c, int i, char *buf, size_t len)
{
    double v = tune_controls_get(c, i);
    switch (tune_controls_info[i].kind) {
    case TUNE_KIND_INT:
        snprintf(buf, len, "%.0f", v);
        break;
    case TUNE_KIND_CHOICE:
        tune_control_word(i, (int)v, buf, len);
        break;
    case TUNE_KIND_REAL:
        /* the shortest that reads back as the same double, so that a resumed
         * session uses exactly the controls it was given */
        snprintf(buf, len, "%.15g", v);
        if (strtod(buf, NULL) != v) snprintf(buf, len, "%.17g", v);
        break;
    }
}

/* A listed control's default (a CHOICE's: the number of its word). */
#define TUNE_DEFAULT_INT(i, v) (v)
#define TUNE_DEFAULT_REAL(i, v) (v)
#define TUNE_DEFAULT_CHOICE(i, v) tune_controls_choice(i, v)

static void defaults(TuneControls *c, bool thesis)
{
    memset(c, 0, sizeof *c);
#define TUNE_CONTROL_DEFAULT_(field, kind, key, option, arg, lo, hi, multiple, learn, thesis_, who, help) \
    tune_controls_set(c, TUNE_C_##field,                                                                  \
                      thesis ? TUNE_DEFAULT_##kind(TUNE_C_##field, thesis_)                               \
                             : TUNE_DEFAULT_##kind(TUNE_C_##field, learn));
    TUNE_CONTROL_LIST(TUNE_CONTROL_DEFAULT_)
#undef TUNE_CONTROL_DEFAULT_
    c->stop = TUNE_STOP_GENERATIONS;
    c->limit = 100;
    c->seed = 1;
    c->nyard = 0;
    c->nweights = EVAL_NPARAMS;
    c->norm = TUNE_NORM;
}

void tune_controls_default(TuneControls *c) { defaults(c, false); }

void tune_controls_thesis(TuneControls *c) { defaults(c, true); }

int tune_controls_check(const TuneControls *c, char *err)
{
    if (c->nweights != EVAL_NPARAMS && c->nweights != EVAL_NTERMS && c->nweights != TUNE_NWEIGHTS_PHASE)
        return km_fail(
            err,
            "a vector of %d weights: the tuner breeds %d (the documents' parameters), %d (with the "
            "terms 61-%d) or %d (with a phase)",
            c->nweights, EVAL_NPARAMS, EVAL_NTERMS, EVAL_NTERMS, TUNE_NWEIGHTS_PHASE);
    /* every listed control within its range (the learn-only ones too: a
     * thesis session keeps them unused) */
    for (int i = 0; i < TUNE_NCONTROLS; i++)
        if (!tune_controls_valid(i, tune_controls_get(c, i), err)) return -1;
    /* what the list cannot say: one control bounded by another */
    bool thesis = c->algorithm == TUNE_ALG_THESIS;
    if (thesis && c->population % 4)
        return km_fail(err,
                       "population %d is not a multiple of 4 (the next generation is half "
                       "children, a quarter parents, a quarter fresh)",
                       c->population);
    if (c->openings == TUNE_OPENINGS_BALLOTS && c->ballots > BALLOT_CROSSBOARD_COUNT)
        return km_fail(err, "ballots %d: there are %d", c->ballots, BALLOT_CROSSBOARD_COUNT);
    if (!thesis && c->elite + c->fresh > c->population - 2)
        return km_fail(err, "elite %d + fresh %d leave fewer than 2 children in a population of %d", c->elite,
                       c->fresh, c->population);
    if (!thesis && c->tournament > c->population)
        return km_fail(err, "tournament %d is outside 1..population (%d)", c->tournament, c->population);
    if (c->duels > c->population - 1)
        return km_fail(err, "duels %d: 0 (round robin) up to population - 1 = %d opponents", c->duels,
                       c->population - 1);
    if (c->stop == TUNE_STOP_GENERATIONS) {
        if (!(c->limit >= 1 && c->limit <= 1e9 && c->limit == floor(c->limit)))
            return km_fail(err, "generations %g is not a whole number from 1 to 1e9", c->limit);
    } else if (c->stop == TUNE_STOP_SECONDS) {
        if (!(c->limit > 0 && c->limit <= 1e9)) return km_fail(err, "seconds %g is outside 0..1e9", c->limit);
    } else {
        return km_fail(err, "unknown stop condition");
    }
    if (c->nyard < 0 || c->nyard > TUNE_MAX_YARDSTICKS)
        return km_fail(err, "%d yardsticks: at most %d", c->nyard, TUNE_MAX_YARDSTICKS);
    for (int k = 0; k < c->nyard; k++) {
        const char *nm = c->yard[k].name;
        if (!nm[0] || strlen(nm) >= TUNE_YARD_NAME_MAX || strpbrk(nm, " \t\r\n,"))
            return km_fail(err, "yardstick name '%s': 1 to %d characters, no blanks or commas", nm,
                           TUNE_YARD_NAME_MAX - 1);
        if (c->yard[k].w.pat && !tune_controls_layer_path_ok(c->yard[k].pat_file, err)) return -1;
    }
    if (c->norm < TUNE_NORM_MIN || c->norm > TUNE_NORM_MAX)
        return km_fail(err, "norm %d is outside %d..%d", c->norm, TUNE_NORM_MIN, TUNE_NORM_MAX);
    if (c->pat && thesis)
        return km_fail(err, "the thesis algorithm breeds 16-bit vectors without a norm, which would swamp a "
                            "pattern layer: use --algorithm learn");
    if (c->pat && !tune_controls_layer_path_ok(c->pat_file, err)) return -1;
    return 0;
}

bool tune_controls_layer_path_ok(const char *path, char *err)
{
    size_t n = strlen(path);
    if (n == 0) return km_fail_false(err, "a pattern layer without the path of its weights file");
    if (n >= TUNE_PATH_MAX)
        return km_fail_false(
            err, "%.60s...: a pattern layer's file is recorded by its path, at most %d characters", path,
            TUNE_PATH_MAX - 1);
    if (strpbrk(path, " \t\r\n"))
        return km_fail_false(
            err, "'%s': a pattern layer's file is recorded by its path, which cannot hold blanks", path);
    return true;
}

int tune_controls_max_score(const TuneControls *c)
{
    return 4 * c->ballots * (c->duels ? c->duels : c->population - 1);
}

uint64_t tune_controls_layer_key(const struct EvalPatterns *pat, const struct EvalNet *net)
{
    uint64_t k = pat ? pat->key : 0;
    return net ? km_mix64(k ^ net->key ^ 0x4E6574776F726Bull) : k;
}

void tune_controls_carry_layer(const TuneControls *c, Weights *w)
{
    w->pat = c->pat;
    w->net = c->net;
}
