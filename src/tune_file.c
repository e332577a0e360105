/* tune_file.c - population files (the format in tune.h): write, read,
 * parse, and the one-paragraph description of a session. */
#include "kingme/nn.h"
#include "kingme/patterns.h"
#include "kingme/textio.h"
#include "kingme/tune.h"
#include "kingme/weights.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- text helpers ---------------------------------------------------------------- */

/* Shortest of %.15g / %.17g that reads back as the same double, so a
 * resumed session uses exactly the controls it was given. */
static void fmt_double(double x, char buf[32])
{
    snprintf(buf, 32, "%.15g", x);
    if (strtod(buf, NULL) != x) snprintf(buf, 32, "%.17g", x);
}

static char *read_text(const char *path, char *err)
{
    static const KmReadOpts opts = {
        .max_bytes = 64u << 20,
        .cannot_open = "cannot open",
        .read_error = "read error",
        .too_large = "too large for a population file",
        .nul_byte = "binary data, not a population file",
    };
    return textio_read_text(path, &opts, NULL, err);
}

/* "algorithm learn, population 16, duels 0 (round robin), ...": the listed
 * controls the algorithm uses, the yardstick's aside, and the seed. */
static void describe_controls(KmBuf *b, const TuneControls *c)
{
    bool thesis = c->algorithm == TUNE_ALG_THESIS;
    for (int i = 0; i < TUNE_NCONTROLS; i++) {
        TuneControlWho who = tune_controls_info[i].who;
        if (who == TUNE_WHO_YARD || who == (thesis ? TUNE_WHO_LEARN : TUNE_WHO_THESIS)) continue;
        char v[40];
        tune_controls_text(c, i, v, sizeof v);
        textio_buf_printf(b, "%s%s %s%s", i ? ", " : "", tune_controls_info[i].option + 2, v,
                          i == TUNE_C_duels && c->duels == 0 ? " (round robin)" : "");
    }
    textio_buf_printf(b, ", seed %llu\n", (unsigned long long)c->seed);
}

char *tune_describe(const TuneSession *s)
{
    const TuneControls *c = &s->c;
    char lim[32];
    fmt_double(c->limit, lim);
    KmBuf b = {0};
    describe_controls(&b, c);
    if (c->nweights == TUNE_NWEIGHTS_PHASE)
        textio_buf_printf(
            &b,
            "vectors of %d weights: a phase, the opening's %d (the documents' 60 and the terms 61-%d) "
            "and the ending's %d\n",
            c->nweights, EVAL_NTERMS, EVAL_NTERMS, EVAL_NTERMS);
    else if (c->nweights != EVAL_NPARAMS)
        textio_buf_printf(&b, "vectors of %d weights: the documents' 60 and the terms 61-%d\n", c->nweights,
                          c->nweights);
    if (c->pat)
        textio_buf_printf(&b, "over the fixed pattern layer%s of %s (key %016llx); vectors at norm %d\n",
                          !c->net              ? ""
                          : c->net->max_pieces ? " and ending network"
                                               : " and network",
                          c->pat_file, (unsigned long long)tune_controls_layer_key(c->pat, c->net), c->norm);
    const char *unit = c->stop == TUNE_STOP_GENERATIONS ? "generation" : "second";
    textio_buf_printf(&b, "stop after %s %s%s; %d generation%s done, %.1f s of play, %lld game%s\n", lim,
                      unit, c->limit == 1 ? "" : "s", s->generation, s->generation == 1 ? "" : "s",
                      s->elapsed, s->games, s->games == 1 ? "" : "s");
    if (c->nyard) {
        if (c->yard_every == 1)
            textio_buf_printf(&b, "yardstick: every generation, %d games against each of", c->yard_games);
        else
            textio_buf_printf(&b, "yardstick: every %d generations and at the stop, %d games against each of",
                              c->yard_every, c->yard_games);
        for (int k = 0; k < c->nyard; k++) textio_buf_printf(&b, " %s", c->yard[k].name);
        textio_buf_printf(&b, "\n");
    }
    if (s->has_best && s->best_generation)
        textio_buf_printf(&b, "best so far: from generation %d, score %d of %d\n", s->best_generation,
                          s->best_score, tune_controls_max_score(c));
    else if (s->has_best) textio_buf_printf(&b, "best so far: carried over from the continued population\n");
    return textio_buf_done(&b);
}

/* ---- population files ------------------------------------------------------------ */

/* How many weights a yardstick's line carries: 148 with a phase, 74 with a
 * term 61-74, else the 60. */
static int yard_length(const Weights *w)
{
    return w->phased ? TUNE_NWEIGHTS_PHASE : weights_beyond_60(w) ? EVAL_NTERMS : EVAL_NPARAMS;
}

/* "KEY SCORE [STEP] W1 ... Wn"; step < 0: none. */
static void format_vector(KmBuf *b, const char *key, int score, double step, const Weights *w, int n)
{
    textio_buf_printf(b, "%s %d", key, score);
    if (step >= 0) {
        char st[32];
        fmt_double(step, st);
        textio_buf_printf(b, " %s", st);
    }
    for (int i = 0; i < n; i++) textio_buf_printf(b, " %d", eval_weights_at(w, i));
    textio_buf_printf(b, "\n");
}

char *tune_format(const TuneSession *s)
{
    const TuneControls *c = &s->c;
    char lim[32];
    fmt_double(c->limit, lim);
    KmBuf b = {0};
    textio_buf_printf(
        &b, "# kingme population file: a tuning session's controls, progress, random\n"
            "# generator state, best vector so far, and its last generation (score and\n"
            "# its step and its weights per individual: the 60 of docs/eval-params.md, then\n"
            "# with 'weights 74' the terms 61-74 of docs/file-formats.md; with 'weights 148' those 74\n"
            "# of the opening, then the 74 of the ending, the end. weights).\n"
            "# Go on with: kingme tune --resume FILE\n");
    textio_buf_printf(&b, "kingme-population %d\n", TUNE_FORMAT_VERSION);
    for (int i = 0; i < TUNE_NCONTROLS; i++) {
        char v[40];
        tune_controls_text(c, i, v, sizeof v);
        textio_buf_printf(&b, "%s %s\n", tune_controls_info[i].key, v);
        if (i == TUNE_C_algorithm)
            textio_buf_printf(&b, "weights %d\n", c->nweights); /* the algorithm's, first */
    }
    textio_buf_printf(&b, "stop %s %s\n", c->stop == TUNE_STOP_GENERATIONS ? "generations" : "seconds", lim);
    textio_buf_printf(&b, "seed %llu\n", (unsigned long long)c->seed);
    for (int k = 0; k < c->nyard; k++) {
        textio_buf_printf(&b, "yardstick %s", c->yard[k].name);
        int n = yard_length(&c->yard[k].w);
        for (int i = 0; i < n; i++) textio_buf_printf(&b, " %d", eval_weights_at(&c->yard[k].w, i));
        textio_buf_printf(&b, "\n");
    }
    for (int k = 0; k < c->nyard; k++)
        if (c->yard[k].w.pat)
            textio_buf_printf(&b, "yardstick_patterns %s %016llx %s\n", c->yard[k].name,
                              (unsigned long long)tune_controls_layer_key(c->yard[k].w.pat, c->yard[k].w.net),
                              c->yard[k].pat_file);
    if (c->pat)
        textio_buf_printf(&b, "patterns %016llx %s\n",
                          (unsigned long long)tune_controls_layer_key(c->pat, c->net), c->pat_file);
    else textio_buf_printf(&b, "patterns none\n");
    textio_buf_printf(&b, "norm %d\n", c->norm);
    textio_buf_printf(&b, "generation %d\nelapsed %.3f\ngames %lld\nrng %016llx\n", s->generation, s->elapsed,
                      s->games, (unsigned long long)s->rng);
    textio_buf_printf(&b, "best_generation %d\n", s->best_generation);
    if (s->has_best) format_vector(&b, "best", s->best_score, -1, &s->best, c->nweights);
    else textio_buf_printf(&b, "best none\n");
    for (int i = 0; i < c->population; i++)
        format_vector(&b, "individual", s->pop[i].score, s->pop[i].step, &s->pop[i].w, c->nweights);
    textio_buf_printf(&b, "end\n");
    return textio_buf_done(&b);
}

int tune_write(const TuneSession *s, const char *path, char *err)
{
    char *text = tune_format(s);
    if (!text) return km_fail(err, "%s: out of memory", path);
    int r = textio_write_atomic(path, text, strlen(text), err);
    free(text);
    return r;
}

/* The keys: the listed controls' (0 .. TUNE_NCONTROLS - 1), then these. */
enum {
    K_STOP = TUNE_NCONTROLS,
    K_SEED,
    K_GENERATION,
    K_ELAPSED,
    K_GAMES,
    K_RNG,
    K_BEST_GENERATION,
    K_BEST,
    K_WEIGHTS,
    K_PATTERNS,
    K_NORM,
    NKEYS
};
static const char *const other_keys[NKEYS - TUNE_NCONTROLS] = {
    "stop", "seed",    "generation", "elapsed", "games", "rng", "best_generation",
    "best", "weights", "patterns",   "norm",
};

static const char *key_name(int k)
{
    return k < TUNE_NCONTROLS ? tune_controls_info[k].key : other_keys[k - TUNE_NCONTROLS];
}

#define MAX_TOKENS (TUNE_NWEIGHTS_PHASE + 8)

typedef struct Parse {
    const char *where;
    int line;
    char *err;
    int nweights; /* the weights of a best or individual line: the 'weights' key's
                   * (found before the lines are parsed), else 60 */
} Parse;

static int perr(const Parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int perr(const Parse *p, const char *fmt, ...)
{
    char msg[KM_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return km_fail(p->err, "%s:%d: %s", p->where, p->line, msg);
}

static bool parse_u64(const char *t, int base, uint64_t *out)
{
    if (!t || !*t || *t == '-' || *t == '+') return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(t, &end, base);
    if (errno || *end) return false;
    *out = v;
    return true;
}

static bool parse_real(const char *t, double lo, double hi, double *out)
{
    if (!t || !*t) return false;
    char *end;
    errno = 0;
    double v = strtod(t, &end);
    if (errno || *end || !isfinite(v) || v < lo || v > hi) return false;
    *out = v;
    return true;
}

/* "KEY SCORE W1 ... Wn" (tok[0] is the key), n = ntok - 2, which the caller checked. */
static int parse_vector(const Parse *p, char **tok, int ntok, int *score, Weights *w)
{
    long long v;
    if (!textio_parse_ll(tok[1], 0, 1000000000, &v))
        return perr(p, "%s score '%s' is not a whole number from 0 up", tok[0], tok[1]);
    *score = (int)v;
    memset(w, 0, sizeof *w); /* the terms beyond n and the phase: none */
    for (int i = 0; i < ntok - 2; i++) {
        const char *t = tok[2 + i], *end = i < EVAL_NTERMS ? "" : "end.";
        const char *nm = eval_params[i % EVAL_NTERMS].name;
        if (!textio_parse_ll(t, INT64_MIN, INT64_MAX, &v))
            return perr(p, "weight %d (%s%s) '%s' is not a whole number", i + 1, end, nm, t);
        if (v < -32768 || v > 32767)
            return perr(p, "weight %d (%s%s) is %s, outside -32768..32767", i + 1, end, nm, t);
        *eval_weights_ref(w, i) = (int16_t)v;
    }
    if (ntok - 2 > EVAL_NTERMS) w->phased = 1; /* 148: the ending's too */
    return 0;
}

/* The first line: this kingme's version only (a file of another is one
 * line, not a read of what that version meant). */
static int parse_header(const Parse *p, char **tok, int ntok)
{
    long long v;
    if (strcmp(tok[0], "kingme-population") != 0 || ntok != 2)
        return perr(p, "not a kingme population file (the first line should be 'kingme-population %d')",
                    TUNE_FORMAT_VERSION);
    if (!textio_parse_ll(tok[1], 0, 1000000, &v) || v != TUNE_FORMAT_VERSION)
        return perr(p, "population file version %s, this kingme reads version %d only; start a new session",
                    tok[1], TUNE_FORMAT_VERSION);
    return 0;
}

static int parse_stop(const Parse *p, char **tok, TuneControls *c)
{
    long long n;
    double x;
    if (strcmp(tok[1], "generations") == 0) {
        c->stop = TUNE_STOP_GENERATIONS;
        if (!textio_parse_ll(tok[2], 1, 1000000000, &n))
            return perr(p, "stop generations '%s' is not a whole number from 1 to 1e9", tok[2]);
        c->limit = (double)n;
    } else if (strcmp(tok[1], "seconds") == 0) {
        c->stop = TUNE_STOP_SECONDS;
        if (!parse_real(tok[2], 1e-9, 1e9, &x))
            return perr(p, "stop seconds '%s' is not a number of seconds above 0", tok[2]);
        c->limit = x;
    } else {
        return perr(p, "stop is 'generations N' or 'seconds S', not '%s'", tok[1]);
    }
    return 0;
}

/* A listed control's "key value" line into c. */
static int parse_control(const Parse *p, int i, const char *v, TuneControls *c)
{
    const TuneControlInfo *t = &tune_controls_info[i];
    char what[96], why[KM_ERR_MAX];
    tune_controls_expect(i, what, sizeof what);
    double x = 0;
    long long n;
    if (t->kind == TUNE_KIND_CHOICE) {
        int k = tune_controls_choice(i, v);
        if (k < 0) return perr(p, "%s is %s, not '%s'", t->key, what, v);
        x = k;
    } else if (t->kind == TUNE_KIND_INT) {
        if (!textio_parse_ll(v, (long long)t->lo, (long long)t->hi, &n) ||
            !tune_controls_valid(i, (double)n, why))
            return perr(p, "%s '%s' is not %s", t->key, v, what);
        x = (double)n;
    } else if (!parse_real(v, t->lo, t->hi, &x)) {
        return perr(p, "%s '%s' is not %s", t->key, v, what);
    }
    tune_controls_set(c, i, x);
    return 0;
}

/* One "key value" line (k: its K_ index, not K_BEST) into t. */
static int parse_key(const Parse *p, int k, char **tok, TuneSession *t)
{
    const char *v = tok[1];
    if (k < TUNE_NCONTROLS) return parse_control(p, k, v, &t->c);
    long long n = 0;
    uint64_t u = 0;
    double x = 0;
    int r = 0;
    switch (k) {
    case K_STOP:
        r = parse_stop(p, tok, &t->c);
        break;
    case K_SEED:
        if (!parse_u64(v, 10, &u)) r = perr(p, "seed '%s' is not a whole number from 0 to 2^64-1", v);
        t->c.seed = u;
        break;
    case K_GENERATION:
        if (!textio_parse_ll(v, 0, 1000000000, &n))
            r = perr(p, "generation '%s' is not a whole number from 0", v);
        t->generation = (int)n;
        break;
    case K_ELAPSED:
        if (!parse_real(v, 0, 1e12, &x)) r = perr(p, "elapsed '%s' is not a number of seconds", v);
        t->elapsed = x;
        break;
    case K_GAMES:
        if (!textio_parse_ll(v, 0, INT64_MAX, &n)) r = perr(p, "games '%s' is not a whole number from 0", v);
        t->games = n;
        break;
    case K_RNG:
        if (strlen(v) > 16 || !parse_u64(v, 16, &u))
            r = perr(p, "rng '%s' is not a generator state (up to 16 hex digits)", v);
        t->rng = u;
        break;
    case K_BEST_GENERATION:
        if (!textio_parse_ll(v, 0, 1000000000, &n))
            r = perr(p, "best_generation '%s' is not a whole number from 0", v);
        t->best_generation = (int)n;
        break;
    case K_NORM:
        if (!textio_parse_ll(v, TUNE_NORM_MIN, TUNE_NORM_MAX, &n))
            r = perr(p, "norm '%s' is not a whole number from %d to %d", v, TUNE_NORM_MIN, TUNE_NORM_MAX);
        t->c.norm = (int)n;
        break;
    case K_WEIGHTS:
        if (!textio_parse_ll(v, 0, 1000, &n) ||
            (n != EVAL_NPARAMS && n != EVAL_NTERMS && n != TUNE_NWEIGHTS_PHASE))
            r = perr(p, "weights '%s': the vector length is %d or %d, or %d with a phase", v, EVAL_NPARAMS,
                     EVAL_NTERMS, TUNE_NWEIGHTS_PHASE);
        t->c.nweights = (int)n;
        break;
    }
    return r;
}

/* The most games one generation plays: two per pairing and ballot, and the
 * gladiator duel's (at most 2 * 1024 * 1023 * 16 + 1024, so that 1e9
 * generations of them fit a long long). */
static long long max_games(const TuneControls *c)
{
    long long n = c->population;
    long long pairs = (c->duels ? n * c->duels : n * (n - 1) / 2) * c->ballots;
    return 2 * pairs + (c->algorithm == TUNE_ALG_THESIS ? 2 : c->gladiator);
}

/* The whole file's checks once every line is read: every key present, as
 * many individuals as the population, consistent progress and controls (and
 * counters no greater than the session can have reached). */
static int check_parsed(Parse *p, const TuneSession *t, const int seen[NKEYS], int nind, bool header,
                        bool ended)
{
    if (!header) {
        p->line = p->line ? p->line : 1;
        return perr(p, "empty file, not a kingme population file");
    }
    if (!ended) return perr(p, "the file ends without 'end' (truncated?)");
    for (int k = 0; k < NKEYS; k++)
        if (!seen[k]) return perr(p, "missing '%s'", key_name(k));
    if (t->c.duels > t->c.population - 1) {
        p->line = seen[TUNE_C_duels];
        return perr(p, "duels %d: at most population - 1 = %d", t->c.duels, t->c.population - 1);
    }
    if (t->best_generation > t->generation) {
        p->line = seen[K_BEST_GENERATION];
        return perr(p, "best_generation %d is after generation %d", t->best_generation, t->generation);
    }
    if (!t->has_best && t->generation > 0) {
        /* a session that played a generation always has a best so far */
        p->line = seen[K_BEST];
        return perr(p, "best none, but %d generations are done", t->generation);
    }
    if (tune_controls_check(&t->c, p->err)) {
        char msg[KM_ERR_MAX];
        snprintf(msg, sizeof msg, "%s", p->err);
        p->line = seen[TUNE_C_population];
        return perr(p, "%s", msg);
    }
    if (nind != t->c.population)
        return perr(p, "%d individuals, but population is %d", nind, t->c.population);
    if (t->games > t->generation * max_games(&t->c)) {
        /* more than the session can have played (and adding the next
         * generation's games must not overflow) */
        p->line = seen[K_GAMES];
        return perr(p, "games %lld is more than %d generation%s can have played (at most %lld)", t->games,
                    t->generation, t->generation == 1 ? "" : "s", t->generation * max_games(&t->c));
    }
    return 0;
}

/* An "individual" line, appended to *ind (grown as needed). */
static int add_individual(const Parse *p, char **tok, int ntok, TuneIndividual **ind, int *nind, int *cap)
{
    if (*nind >= TUNE_MAX_POPULATION) return perr(p, "more than %d individuals", TUNE_MAX_POPULATION);
    if (*nind == *cap) {
        int c = *cap ? *cap * 2 : 64;
        TuneIndividual *x = realloc(*ind, (size_t)c * sizeof *x);
        if (!x) return km_fail(p->err, "%s: out of memory", p->where);
        *ind = x;
        *cap = c;
    }
    TuneIndividual *x = &(*ind)[(*nind)++];
    if (ntok != 3 + p->nweights)
        return perr(p, "'individual' needs a score, a step and %d weights, found %d numbers", p->nweights,
                    ntok - 1);
    if (!parse_real(tok[2], TUNE_STEP_MIN, TUNE_STEP_MAX, &x->step))
        return perr(p, "individual step '%s' is not a number from %g to %g", tok[2], TUNE_STEP_MIN,
                    TUNE_STEP_MAX);
    char *vt[2 + TUNE_NWEIGHTS_PHASE];
    vt[0] = tok[0];
    vt[1] = tok[1];
    for (int i = 0; i < p->nweights; i++) vt[2 + i] = tok[3 + i];
    return parse_vector(p, vt, 2 + p->nweights, &x->score, &x->w);
}

/* A "yardstick NAME W1 ... W60" line (or 74 weights, or 148: a phase). */
static int parse_yardstick(const Parse *p, char **tok, int ntok, TuneControls *c)
{
    if (c->nyard >= TUNE_MAX_YARDSTICKS) return perr(p, "more than %d yardsticks", TUNE_MAX_YARDSTICKS);
    if (ntok != 2 + EVAL_NPARAMS && ntok != 2 + EVAL_NTERMS && ntok != 2 + TUNE_NWEIGHTS_PHASE)
        return perr(p, "'yardstick' needs a name and %d or %d weights, or %d with a phase, found %d fields",
                    EVAL_NPARAMS, EVAL_NTERMS, TUNE_NWEIGHTS_PHASE, ntok - 1);
    if (strlen(tok[1]) >= TUNE_YARD_NAME_MAX || strchr(tok[1], ','))
        return perr(p, "yardstick name '%s': up to %d characters, no commas", tok[1], TUNE_YARD_NAME_MAX - 1);
    TuneYardstick *y = &c->yard[c->nyard];
    snprintf(y->name, sizeof y->name, "%s", tok[1]);
    /* the weights as in a vector line, with a dummy score */
    char *vt[2 + TUNE_NWEIGHTS_PHASE];
    char zero[] = "0";
    vt[0] = tok[0];
    vt[1] = zero;
    for (int i = 0; i < ntok - 2; i++) vt[2 + i] = tok[2 + i];
    int score;
    if (parse_vector(p, vt, ntok, &score, &y->w)) return -1;
    c->nyard++;
    return 0;
}

/* The pattern layer of the weights file at path ('default': the built-in
 * weights) into *out, and its network, if any, into *net; their key
 * (tune_controls_layer_key) must be `key`. what names the layer in messages ("the
 * session's pattern layer"). */
static int load_layer(const Parse *p, const char *what, const char *path, uint64_t key,
                      const EvalPatterns **out, const EvalNet **net)
{
    Weights w;
    char e[KM_ERR_MAX];
    if (strcmp(path, "default") == 0) weights_default(&w);
    else if (weights_read(&w, path, NULL, e)) return perr(p, "%s: %s", what, e);
    if (!w.pat)
        return perr(p, "%s: %s has no pattern layer (the session's had key %016llx)", what, path,
                    (unsigned long long)key);
    uint64_t now = tune_controls_layer_key(w.pat, w.net);
    if (now != key)
        return perr(
            p,
            "%s: the layer of %s has changed since the session began (key %016llx, recorded %016llx): "
            "put the file back, or start a new session",
            what, path, (unsigned long long)now, (unsigned long long)key);
    *out = w.pat;
    *net = w.net;
    return 0;
}

/* "KEY FILE" of a pattern layer (tok[0], tok[1]): the key and the path,
 * checked, then the layer loaded. */
static int parse_layer(const Parse *p, const char *what, char **tok, const EvalPatterns **pat,
                       const EvalNet **net, char *path)
{
    uint64_t key;
    if (strlen(tok[0]) != 16 || !parse_u64(tok[0], 16, &key))
        return perr(p, "%s: key '%s' is not 16 hex digits", what, tok[0]);
    if (strlen(tok[1]) >= TUNE_PATH_MAX)
        return perr(p, "%s: the file's path is longer than %d characters", what, TUNE_PATH_MAX - 1);
    snprintf(path, TUNE_PATH_MAX, "%s", tok[1]);
    return load_layer(p, what, path, key, pat, net);
}

/* A "yardstick_patterns NAME KEY FILE" line: the layer of a
 * reference, which may be named before or after it (resolved at the end). */
typedef struct YardLayers {
    int n;
    TuneYardstick y[TUNE_MAX_YARDSTICKS]; /* name, w.pat and pat_file */
    int line[TUNE_MAX_YARDSTICKS];
} YardLayers;

static int parse_yard_layer(const Parse *p, char **tok, int ntok, YardLayers *yl)
{
    if (ntok != 4) return perr(p, "'yardstick_patterns' needs a reference's name, a key and a file");
    for (int j = 0; j < yl->n; j++)
        if (strcmp(yl->y[j].name, tok[1]) == 0)
            return perr(p, "the yardstick '%s' has two pattern layers (first on line %d)", tok[1],
                        yl->line[j]);
    if (yl->n >= TUNE_MAX_YARDSTICKS) return perr(p, "more than %d yardsticks", TUNE_MAX_YARDSTICKS);
    if (strlen(tok[1]) >= TUNE_YARD_NAME_MAX) return perr(p, "no yardstick is named '%s'", tok[1]);
    TuneYardstick *y = &yl->y[yl->n];
    snprintf(y->name, sizeof y->name, "%s", tok[1]);
    char what[TUNE_YARD_NAME_MAX + 32];
    snprintf(what, sizeof what, "the pattern layer of yardstick %s", tok[1]);
    if (parse_layer(p, what, tok + 2, &y->w.pat, &y->w.net, y->pat_file)) return -1;
    yl->line[yl->n++] = p->line;
    return 0;
}

/* One line that is neither the header, 'end' nor an individual. */
static int parse_line(const Parse *p, char **tok, int ntok, int seen[NKEYS], TuneSession *t)
{
    if (strcmp(tok[0], "yardstick") == 0) return parse_yardstick(p, tok, ntok, &t->c);
    int k = 0;
    while (k < NKEYS && strcmp(tok[0], key_name(k)) != 0) k++;
    if (k == NKEYS) return perr(p, "unknown key '%s'", tok[0]);
    if (seen[k]) return perr(p, "'%s' given twice (first on line %d)", tok[0], seen[k]);
    seen[k] = p->line;
    if (k == K_BEST) {
        if (ntok == 2 && strcmp(tok[1], "none") == 0) {
            t->has_best = false;
            return 0;
        }
        if (ntok != 2 + p->nweights)
            return perr(p, "'best' needs a score and %d weights, found %d numbers", p->nweights, ntok - 1);
        int r = parse_vector(p, tok, ntok, &t->best_score, &t->best);
        t->has_best = r == 0;
        return r;
    }
    if (k == K_PATTERNS) {
        if (ntok == 2 && strcmp(tok[1], "none") == 0) return 0;
        if (ntok != 3) return perr(p, "'patterns' needs a key and a file, or 'none'");
        return parse_layer(p, "the session's pattern layer", tok + 1, &t->c.pat, &t->c.net, t->c.pat_file);
    }
    int want = k == K_STOP ? 3 : 2;
    if (ntok != want) return perr(p, "'%s' needs %s", tok[0], want == 3 ? "two values" : "one value");
    return parse_key(p, k, tok, t);
}

/* The value of the first 'weights N' line when it is a vector length, else
 * 60: how many weights the best and individual lines have (read before
 * them, as the keys come in any order; a bad or missing 'weights' line is
 * reported where it is, or at the end). */
static int prescan_nweights(const char *text)
{
    for (const char *q = text; *q;) {
        size_t len = strcspn(q, "\n");
        while (len && (*q == ' ' || *q == '\t')) q++, len--;
        if (len > 8 && strncmp(q, "weights", 7) == 0 && (q[7] == ' ' || q[7] == '\t')) {
            char v[16];
            const char *t = q + 8;
            while (*t == ' ' || *t == '\t') t++;
            size_t l = strcspn(t, " \t\r\n");
            snprintf(v, sizeof v, "%.*s", (int)(l < 15 ? l : 15), t);
            long long n;
            if (textio_parse_ll(v, 0, 1000, &n) && (n == EVAL_NTERMS || n == TUNE_NWEIGHTS_PHASE))
                return (int)n;
            return EVAL_NPARAMS;
        }
        q += len;
        if (*q) q++;
    }
    return EVAL_NPARAMS;
}

int tune_parse(TuneSession *s, const char *text, const char *where, char *err)
{
    text = textio_skip_bom(text); /* an editor's byte order mark is no key */
    memset(s, 0, sizeof *s);
    Parse p = {where, 0, err, prescan_nweights(text)};
    int seen[NKEYS] = {0}; /* line of each key, 0 = not yet */
    TuneSession t;
    memset(&t, 0, sizeof t);
    tune_controls_default(&t.c); /* every control is in the file; no yardstick but its lines */
    TuneIndividual *ind = NULL;
    int nind = 0, cap = 0;
    bool header = false, ended = false;
    YardLayers yl; /* the yardsticks' pattern layers, by name */
    yl.n = 0;
    char line[8192];
    int r = 0;
    for (const char *q = text; *q && r == 0;) {
        size_t len = strcspn(q, "\n");
        p.line++;
        if (len >= sizeof line) {
            r = perr(&p, "line too long");
            break;
        }
        memcpy(line, q, len);
        line[len] = '\0';
        q = q[len] ? q + len + 1 : q + len;
        char *tok[MAX_TOKENS + 1];
        int ntok = textio_split(line, tok, MAX_TOKENS);
        if (ntok == 0 || tok[0][0] == '#') continue;
        if (ntok > MAX_TOKENS) r = perr(&p, "too many fields");
        else if (ended) r = perr(&p, "'%s' after 'end'", tok[0]);
        else if (!header) r = parse_header(&p, tok, ntok), header = true;
        else if (strcmp(tok[0], "end") == 0)
            r = ntok != 1 ? perr(&p, "'end' takes no value") : 0, ended = true;
        else if (strcmp(tok[0], "individual") == 0) r = add_individual(&p, tok, ntok, &ind, &nind, &cap);
        else if (strcmp(tok[0], "yardstick_patterns") == 0) r = parse_yard_layer(&p, tok, ntok, &yl);
        else r = parse_line(&p, tok, ntok, seen, &t);
    }
    /* each yardstick layer to its reference */
    for (int j = 0; r == 0 && j < yl.n; j++) {
        int k = 0;
        while (k < t.c.nyard && strcmp(t.c.yard[k].name, yl.y[j].name) != 0) k++;
        p.line = yl.line[j];
        if (k == t.c.nyard) {
            r = perr(&p, "no yardstick is named '%s'", yl.y[j].name);
        } else {
            t.c.yard[k].w.pat = yl.y[j].w.pat;
            t.c.yard[k].w.net = yl.y[j].w.net;
            memcpy(t.c.yard[k].pat_file, yl.y[j].pat_file, TUNE_PATH_MAX);
        }
    }
    if (r == 0) r = check_parsed(&p, &t, seen, nind, header, ended);
    if (r) {
        free(ind);
        return -1;
    }
    for (int i = 0; i < nind; i++) tune_controls_carry_layer(&t.c, &ind[i].w); /* every vector carries it */
    if (t.has_best) tune_controls_carry_layer(&t.c, &t.best);
    t.pop = ind;
    *s = t;
    return 0;
}

int tune_read(TuneSession *s, const char *path, char *err)
{
    memset(s, 0, sizeof *s);
    char *text = read_text(path, err);
    if (!text) return -1;
    int r = tune_parse(s, text, path, err);
    free(text);
    return r;
}
