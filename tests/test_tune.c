/* test_tune.c - the genetic algorithm, population files, and `kingme tune`:
 * determinism across thread counts, resume, kill -9, malformed files. */
#include "kingme/patterns.h"
#include "kingme/tune.h"
#include "kingme/weights.h"
#include "test.h"

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The documents' algorithm, small. */
static void small_controls(TuneControls *c, int population, int depth)
{
    tune_controls_thesis(c);
    c->population = population;
    c->depth = depth;
    c->selection = 4;
    c->mutation = 0.5;
    c->limit = 2;
    c->seed = 42;
}

static bool same_session(const TuneSession *a, const TuneSession *b)
{
    if (a->generation != b->generation || a->rng != b->rng || a->has_best != b->has_best ||
        a->best_score != b->best_score || memcmp(&a->best, &b->best, sizeof a->best) != 0 ||
        a->c.population != b->c.population)
        return false;
    for (int i = 0; i < a->c.population; i++)
        if (a->pop[i].score != b->pop[i].score || a->pop[i].step != b->pop[i].step ||
            memcmp(&a->pop[i].w, &b->pop[i].w, sizeof a->pop[i].w) != 0)
            return false;
    return true;
}

/* One generation of a on one thread and of b on n threads: the same session. */
static void generation_both(TuneSession *a, TuneSession *b, int n, TuneGenStats *sa, TuneGenStats *sb)
{
    char err[KM_ERR_MAX];
    CHECK_MSG(tune_generation(a, 1, NULL, NULL, NULL, sa, err) == 0, "%s", err);
    CHECK_MSG(tune_generation(b, n, NULL, NULL, NULL, sb, err) == 0, "%s", err);
    CHECK(same_session(a, b));
}

/* Whether the first n weights are antisymmetric: each opp_X weight is minus own_X's. */
static bool antisymmetric(const Weights *w, int n)
{
    for (int i = 0; i < n; i++) {
        const char *name = eval_params[i].name;
        if (strncmp(name, "own_", 4) != 0) continue;
        int j = 0;
        while (j < n && !(strncmp(eval_params[j].name, "opp_", 4) == 0 &&
                          strcmp(eval_params[j].name + 4, name + 4) == 0))
            j++;
        if (j == n || w->w[j] != -w->w[i]) return false;
    }
    return true;
}

static char *edit_line(const char *text, const char *key, const char *with);

/* Is w equal to some individual of pop? */
static int find_vector(const TuneIndividual *pop, int n, const Weights *w)
{
    for (int i = 0; i < n; i++)
        if (memcmp(&pop[i].w, w, sizeof *w) == 0) return i;
    return -1;
}

TEST(tune_controls_and_new)
{
    TuneControls c;
    char err[KM_ERR_MAX];
    small_controls(&c, 8, 2);
    CHECK_INT(tune_controls_check(&c, err), 0);
    c.population = 6;
    CHECK_INT(tune_controls_check(&c, err), -1);
    CHECK_MSG(strstr(err, "multiple of 4") != NULL, "%s", err);
    c.population = 8;
    c.duels = 8;
    CHECK_INT(tune_controls_check(&c, err), -1);
    c.duels = 7;
    CHECK_INT(tune_controls_check(&c, err), 0);
    c.mutation = 1.5;
    CHECK_INT(tune_controls_check(&c, err), -1);
    c.mutation = 0.1;
    c.limit = 2.5;
    CHECK_INT(tune_controls_check(&c, err), -1);
    c.limit = 2;
    CHECK_INT(tune_controls_max_score(&c), 28);
    c.duels = 0;
    CHECK_INT(tune_controls_max_score(&c), 28);
    c.duels = 3;
    CHECK_INT(tune_controls_max_score(&c), 12);

    TuneSession a, b;
    small_controls(&c, 8, 2);
    CHECK_INT(tune_new(&a, &c, err), 0);
    CHECK_INT(tune_new(&b, &c, err), 0);
    CHECK(same_session(&a, &b));
    CHECK(!a.has_best && a.generation == 0 && !tune_finished(&a));
    for (int i = 1; i < 8; i++) CHECK(find_vector(a.pop, i, &a.pop[i].w) < 0); /* all distinct */
    tune_free(&b);
    c.seed = 43;
    CHECK_INT(tune_new(&b, &c, err), 0);
    CHECK(!same_session(&a, &b));
    tune_free(&a);
    tune_free(&b);
}

/* The same seed gives the same generations on 1 and 3 threads, and a
 * generation breeds as docs/tuning.md says. */
TEST(tune_generations_threads_and_breeding)
{
    TuneControls c;
    char err[KM_ERR_MAX];
    small_controls(&c, 8, test_sanitized() ? 1 : 2);
    c.selection = 0; /* parents: the top half by score */
    c.mutation = 0;  /* children: pure crossovers */
    TuneSession a, b;
    CHECK_INT(tune_new(&a, &c, err), 0);
    CHECK_INT(tune_new(&b, &c, err), 0);
    TuneGenStats sa, sb;
    generation_both(&a, &b, 3, &sa, &sb);
    CHECK_INT(sa.games, 56); /* round robin of 8: 28 pairs x 2; no gladiator duel yet */
    CHECK(sa.best_changed && !sa.duel_played && a.has_best);
    int sum = 0, best = 0;
    for (int i = 0; i < 8; i++) {
        sum += a.pop[i].score;
        if (a.pop[i].score > best) best = a.pop[i].score;
    }
    CHECK_INT(sum, 2 * 56); /* every game gives out 2 points in a round robin */
    CHECK_INT(sa.best_score, best);
    CHECK(memcmp(&a.best, &a.pop[sa.best_index].w, sizeof a.best) == 0);

    TuneIndividual prev[8];
    memcpy(prev, a.pop, sizeof prev);
    generation_both(&a, &b, 2, &sa, &sb);
    CHECK_INT(a.generation, 2);
    CHECK(tune_finished(&a));
    CHECK_INT(sa.games, sa.duel_played ? 58 : 56);
    /* children (0..3): every weight comes from the previous generation at the
     * same position, and each pair holds both parents' values */
    for (int k = 0; k < 4; k += 2) {
        int cut = -1;
        for (int i = 0; i < EVAL_NPARAMS; i++) {
            bool found = false;
            for (int p = 0; p < 8; p++) found |= prev[p].w.w[i] == a.pop[k].w.w[i];
            CHECK(found);
        }
        /* find the parents: the child agrees with one before the cut and the
         * other after it */
        for (int p = 0; p < 8 && cut < 0; p++)
            for (int q = 0; q < 8 && cut < 0; q++) {
                if (p == q) continue;
                for (int x = 1; x < EVAL_NPARAMS; x++) {
                    bool ok = true;
                    for (int i = 0; i < EVAL_NPARAMS && ok; i++) {
                        ok = a.pop[k].w.w[i] == (i < x ? prev[p].w.w[i] : prev[q].w.w[i]) &&
                             a.pop[k + 1].w.w[i] == (i < x ? prev[q].w.w[i] : prev[p].w.w[i]);
                    }
                    if (ok) {
                        cut = x;
                        /* both parents are in the top half by score */
                        int above_p = 0, above_q = 0;
                        for (int r = 0; r < 8; r++) {
                            above_p += prev[r].score > prev[p].score;
                            above_q += prev[r].score > prev[q].score;
                        }
                        CHECK(above_p < 4 && above_q < 4);
                        break;
                    }
                }
            }
        CHECK_MSG(cut > 0, "children %d and %d are not a one-point crossover of two parents", k, k + 1);
    }
    /* the best quarter of the parents (4..5): the two best scores */
    int top[2] = {-1, -1};
    for (int p = 0; p < 8; p++) {
        if (prev[p].score > top[0]) top[1] = top[0], top[0] = prev[p].score;
        else if (prev[p].score > top[1]) top[1] = prev[p].score;
    }
    for (int e = 4; e < 6; e++) {
        int i = find_vector(prev, 8, &a.pop[e].w);
        CHECK_MSG(i >= 0, "individual %d should be a parent", e);
        if (i >= 0) CHECK(prev[i].score >= top[1]);
    }
    /* fresh blood (6..7): new vectors */
    for (int e = 6; e < 8; e++) CHECK(find_vector(prev, 8, &a.pop[e].w) < 0);
    /* the best so far is a vector that played in a generation */
    CHECK(find_vector(prev, 8, &a.best) >= 0 || find_vector(a.pop, 8, &a.best) >= 0);
    tune_free(&a);
    tune_free(&b);
}

static double norm(const Weights *w)
{
    double sq = 0;
    for (int i = 0; i < EVAL_NPARAMS; i++) sq += (double)w->w[i] * w->w[i];
    return sqrt(sq);
}

/* The learn algorithm: the same on 1 and 3 threads; scores over B ballots;
 * the elite (best so far first), fresh vectors, children at the norm, steps
 * that move; the sequential gladiator test in batches of 8. */
TEST(tune_learn_generations)
{
    TuneControls c;
    char err[KM_ERR_MAX];
    tune_controls_default(&c);
    CHECK_INT(c.algorithm, TUNE_ALG_LEARN);
    c.population = 10; /* not a multiple of 4: only thesis needs one */
    c.depth = test_sanitized() ? 1 : 2;
    c.elite = 3;
    c.fresh = 2;
    c.gladiator = 24;
    c.gauss = 0.5;
    c.seed = 77;
    c.limit = 3;
    CHECK_MSG(tune_controls_check(&c, err) == 0, "%s", err);
    CHECK_INT(tune_controls_max_score(&c), 4 * 2 * 9);
    TuneSession a, b;
    CHECK_INT(tune_new(&a, &c, err), 0);
    CHECK_INT(tune_new(&b, &c, err), 0);
    for (int i = 0; i < 10; i++)
        CHECK_MSG(fabs(norm(&a.pop[i].w) - TUNE_NORM) < 8, "norm %.1f", norm(&a.pop[i].w));
    /* the defaults: heavy-tailed, antisymmetric first vectors (most weights
     * small: the median |weight| well below the uniform draw's) */
    CHECK(c.init == TUNE_INIT_HEAVY && c.symmetric && c.rel_step == 0.5);
    int small = 0;
    for (int i = 0; i < 10; i++) {
        CHECK(antisymmetric(&a.pop[i].w, EVAL_NPARAMS));
        for (int k = 0; k < EVAL_NPARAMS; k++) small += abs(a.pop[i].w.w[k]) < TUNE_NORM / 16;
    }
    CHECK_MSG(small > 10 * EVAL_NPARAMS / 2, "%d of %d weights below norm/16", small, 10 * EVAL_NPARAMS);
    TuneGenStats sa, sb;
    for (int g = 1; g <= 3; g++) {
        TuneIndividual prev[10];
        Weights prev_best = a.best;
        memcpy(prev, a.pop, sizeof prev);
        generation_both(&a, &b, 3, &sa, &sb);
        int ngames = 45 * 2 * 2; /* 45 pairings x 2 ballots x 2 colours */
        int sum = 0;
        for (int i = 0; i < 10; i++) sum += a.pop[i].score;
        CHECK_INT(sum, 2 * ngames);
        if (sa.duel_played) {
            CHECK(sa.duel_games % 8 == 0 && sa.duel_games >= 8 && sa.duel_games <= 24);
            CHECK_INT(sa.games, ngames + sa.duel_games);
            CHECK_INT(sa.duel_points[0] + sa.duel_points[1], 2 * sa.duel_games);
        } else {
            CHECK_INT(sa.games, ngames);
        }
        if (g == 1) continue;
        /* elite: the previous best so far first, then the best-scoring distinct vector */
        CHECK(memcmp(&a.pop[0].w, &prev_best, sizeof prev_best) == 0);
        int top = 0;
        for (int i = 1; i < 10; i++)
            if (prev[i].score > prev[top].score) top = i;
        CHECK(find_vector(a.pop, 3, &prev[top].w) >= 0);
        /* fresh (the last two): new; children: at the norm, with their own steps */
        for (int k = 8; k < 10; k++) CHECK(find_vector(prev, 10, &a.pop[k].w) < 0);
        bool stepped = false;
        for (int k = 3; k < 10; k++) {
            CHECK_MSG(fabs(norm(&a.pop[k].w) - TUNE_NORM) < 8, "child %d norm %.1f", k, norm(&a.pop[k].w));
            CHECK_MSG(antisymmetric(&a.pop[k].w, EVAL_NPARAMS), "child %d", k);
            CHECK(a.pop[k].step >= TUNE_STEP_MIN && a.pop[k].step <= TUNE_STEP_MAX);
            stepped |= k < 8 && a.pop[k].step != c.step;
        }
        CHECK(stepped);
    }
    /* the population file keeps the steps exactly */
    char *t = tune_format(&a);
    TuneSession r;
    int pr = tune_parse(&r, t, "l.pop", err);
    CHECK_MSG(pr == 0, "%s", err);
    if (pr == 0) {
        CHECK(same_session(&a, &r));
        CHECK(r.c.algorithm == TUNE_ALG_LEARN && r.c.elite == 3 && r.c.fresh == 2 && r.c.gladiator == 24 &&
              r.c.gauss == 0.5 && r.c.ballots == 2 && r.c.init == TUNE_INIT_HEAVY && r.c.symmetric &&
              r.c.rel_step == 0.5);
        for (int i = 0; i < 10; i++) CHECK(r.pop[i].step == a.pop[i].step);
        tune_free(&r);
    }
    free(t);
    /* the documents' choices: uniform over 16 bits, no symmetry (each weight
     * its own), and the steps never multiply */
    {
        TuneControls u = c;
        u.init = TUNE_INIT_UNIFORM, u.symmetric = false, u.rel_step = 0;
        TuneSession x;
        CHECK_INT(tune_new(&x, &u, err), 0);
        int asym = 0, big = 0;
        for (int i = 0; i < 10; i++) {
            asym += !antisymmetric(&x.pop[i].w, EVAL_NPARAMS);
            for (int k = 0; k < EVAL_NPARAMS; k++) big += abs(x.pop[i].w.w[k]) >= TUNE_NORM / 16;
        }
        CHECK_INT(asym, 10);
        CHECK_MSG(big > 10 * EVAL_NPARAMS / 2, "%d of %d weights at norm/16 or more", big, 10 * EVAL_NPARAMS);
        tune_free(&x);
        u.rel_step = 2.5;
        CHECK_INT(tune_controls_check(&u, err), -1);
        CHECK_MSG(strstr(err, "rel_step 2.5 is not a number from 0 to 2"), "%s", err);
    }
    /* bad learn controls */
    c.elite = 5, c.fresh = 4;
    CHECK_INT(tune_controls_check(&c, err), -1);
    CHECK_MSG(strstr(err, "fewer than 2 children"), "%s", err);
    c.elite = 3, c.fresh = 2, c.gladiator = 20;
    CHECK_INT(tune_controls_check(&c, err), -1);
    /* the learn-only controls do not bind a thesis session: a population of 4 */
    tune_controls_thesis(&c);
    c.population = 4;
    CHECK_MSG(tune_controls_check(&c, err) == 0, "%s", err);
    tune_free(&a);
    tune_free(&b);
}

/* --duels K: each individual's score counts its own 2K games. */
TEST(tune_duels)
{
    TuneControls c;
    char err[KM_ERR_MAX];
    small_controls(&c, 8, 1);
    c.duels = 2;
    TuneSession a;
    CHECK_INT(tune_new(&a, &c, err), 0);
    TuneGenStats st;
    CHECK_INT(tune_generation(&a, 2, NULL, NULL, NULL, &st, err), 0);
    CHECK_INT(st.games, 8 * 2 * 2);
    CHECK_INT(st.max_score, 8);
    for (int i = 0; i < 8; i++) CHECK(a.pop[i].score >= 0 && a.pop[i].score <= 8);
    tune_free(&a);
}

TEST(tune_population_file_roundtrip)
{
    TuneControls c;
    char err[KM_ERR_MAX];
    small_controls(&c, 8, 1);
    c.selection = 0.1234567890123456789; /* needs 17 digits to read back */
    c.stop = TUNE_STOP_SECONDS;
    c.limit = 12.5;
    c.openings = TUNE_OPENINGS_START;
    c.seed = 18446744073709551615ull;
    c.yard_every = 3;
    c.yard_games = 10;
    c.nyard = 2;
    snprintf(c.yard[0].name, sizeof c.yard[0].name, "material");
    snprintf(c.yard[1].name, sizeof c.yard[1].name, "hand-set.v2");
    for (int i = 0; i < EVAL_NPARAMS; i++)
        c.yard[0].w.w[i] = (int16_t)(i * 100 - 3000), c.yard[1].w.w[i] = (int16_t)-i;
    TuneSession a, b;
    CHECK_INT(tune_new(&a, &c, err), 0);
    a.pop[3].w.w[0] = -32768;
    a.pop[3].w.w[59] = 32767;
    char *t1 = tune_format(&a);
    CHECK_MSG(tune_parse(&b, t1, "x.pop", err) == 0, "%s", err);
    CHECK(same_session(&a, &b));
    CHECK(b.c.selection == c.selection && b.c.limit == 12.5 && b.c.stop == TUNE_STOP_SECONDS);
    CHECK(b.c.openings == TUNE_OPENINGS_START && b.c.seed == c.seed);
    CHECK(b.c.yard_every == 3 && b.c.yard_games == 10 && b.c.nyard == 2);
    CHECK(memcmp(b.c.yard, c.yard, 2 * sizeof *c.yard) == 0);
    char *t2 = tune_format(&b);
    CHECK_STR(t1, t2);
    free(t1);
    free(t2);
    tune_free(&b);
    TuneGenStats st;
    CHECK_INT(tune_generation(&a, 1, NULL, NULL, NULL, &st, err), 0);
    t1 = tune_format(&a);
    CHECK_MSG(tune_parse(&b, t1, "x.pop", err) == 0, "%s", err);
    CHECK(same_session(&a, &b));
    free(t1);
    tune_free(&a);
    tune_free(&b);
}

/* The yardstick: W + D + L = games, the same on any number of threads,
 * a reference beats a random vector, Elo stays finite at 0%. */
TEST(tune_yardstick_games)
{
    TuneControls c;
    char err[KM_ERR_MAX];
    small_controls(&c, 8, 2);
    c.yard_games = 12;
    c.nyard = 2;
    CHECK_MSG(weights_read(&c.yard[0].w, "weights/material.w", NULL, err) == 0, "%s", err);
    CHECK_MSG(weights_read(&c.yard[1].w, "weights/handset.w", NULL, err) == 0, "%s", err);
    snprintf(c.yard[0].name, sizeof c.yard[0].name, "material");
    snprintf(c.yard[1].name, sizeof c.yard[1].name, "handset");
    CHECK_INT(tune_controls_check(&c, err), 0);
    Weights bad;
    for (int i = 0; i < EVAL_NPARAMS; i++) bad.w[i] = 0;
    bad.w[EP_own_men] = -1000; /* wants to lose its men */
    bad.w[EP_opp_men] = 1000;
    TuneYardResult y1, y2, yh;
    CHECK_MSG(tune_yardstick(&c, &bad, 1, NULL, &y1, err) == 0, "%s", err);
    CHECK_MSG(tune_yardstick(&c, &bad, 2, NULL, &y2, err) == 0, "%s", err);
    CHECK(memcmp(y1.wins, y2.wins, sizeof y1.wins) == 0 &&
          memcmp(y1.losses, y2.losses, sizeof y1.losses) == 0);
    CHECK_INT(y1.games, 24);
    CHECK_INT(y1.nref, 2);
    for (int k = 0; k < 2; k++) CHECK_INT(y1.wins[k] + y1.draws[k] + y1.losses[k], 12);
    CHECK_MSG(y1.total_score < 0.2, "a man-hater scored %.3f", y1.total_score);
    CHECK(isfinite(y1.elo) && y1.elo < -200 && y1.elo >= tune_yard_elo(0, 24));
    CHECK(tune_yard_elo(0, 24) > -1000 && fabs(tune_yard_elo(1, 24) + tune_yard_elo(0, 24)) < 1e-9);
    /* the hand-set vector against material: better than a man-hater's score */
    CHECK_MSG(tune_yardstick(&c, &c.yard[1].w, 2, NULL, &yh, err) == 0, "%s", err);
    CHECK_MSG(yh.score[0] > y1.score[0] && yh.score[0] >= 0.5, "handset vs material %.3f", yh.score[0]);
    CHECK(fabs(yh.ref_elo[0] - tune_yard_elo(yh.score[0], 12)) < 1e-9);
}

/* Replace the first line starting with `key` by `with` (NULL: delete it). */
static char *edit_line(const char *text, const char *key, const char *with)
{
    size_t n = strlen(text) + (with ? strlen(with) : 0) + 2;
    char *out = malloc(n);
    const char *p = text;
    size_t k = strlen(key), o = 0;
    bool done = false;
    while (*p) {
        size_t len = strcspn(p, "\n");
        if (!done && strncmp(p, key, k) == 0) {
            done = true;
            if (with) o += (size_t)sprintf(out + o, "%s\n", with);
        } else {
            memcpy(out + o, p, len);
            o += len;
            out[o++] = '\n';
        }
        p += len + (p[len] ? 1 : 0);
    }
    out[o] = '\0';
    return out;
}

/* Line number of the first line starting with key. */
static int line_of(const char *text, const char *key)
{
    int line = 1;
    for (const char *p = text; *p; line++) {
        if (strncmp(p, key, strlen(key)) == 0) return line;
        p += strcspn(p, "\n");
        if (*p) p++;
    }
    return 0;
}

typedef struct BadCase {
    const char *key, *with; /* edit */
    const char *at;         /* the error's line: the line starting with this (after the edit) */
    const char *says;
} BadCase;

static const BadCase bad_cases[] = {
    {"depth", "colour 3", "colour", "unknown key 'colour'"},
    {"depth", "depth four", "depth", "depth 'four' is not a whole number"},
    {"mutation", "mutation 1.5", "mutation", "mutation '1.5' is not a chance"},
    {"population", "population 6", "population", "population 6 is not a multiple of 4"},
    {"individual", NULL, "end", "7 individuals, but population is 8"},
    {"seed", NULL, "end", "missing 'seed'"},
    {"end", NULL, NULL, "ends without 'end' (truncated?)"},
    {"duels", "duels 0\nduels 1", "duels 1", "'duels' given twice"},
    {"rng", "rng xyz", "rng", "rng 'xyz' is not a generator state"},
    {"stop", "stop forever 3", "stop", "stop is 'generations N' or 'seconds S'"},
    {"kingme-population", "kingme-population 9", "kingme-population",
     "population file version 9, this kingme reads version 7 only; start a new session"},
    {"elite", "elite x", "elite", "elite 'x' is not a whole number"},
    {"gladiator", "gladiator 12", "gladiator", "gladiator '12' is not a multiple of 8"},
    {"algorithm", "algorithm magic", "algorithm", "algorithm is 'learn' or 'thesis'"},
    {"yardstick_games", "yardstick_games 7", "yardstick_games", "yardstick_games '7' is not an even number"},
    {"yardstick_every", NULL, "end", "missing 'yardstick_every'"},
    {"yardstick ", "yardstick mat 1 2", "yardstick ", "'yardstick' needs a name and 60 or 74 weights"},
    {"kingme-population", "hello", "hello", "not a kingme population file"},
    {"best ", "best 3 1 2 3", "best ", "'best' needs a score and 60 weights"},
    {"end", "end\nindividual x", "individual x", "'individual' after 'end'"},
    /* counters beyond what the session can reach (this one was once
     * accepted and overflowed s->games on resume). 1 generation of a round
     * robin of 8: 28 pairs x 2 games + a gladiator duel of 2 = 58 at most. */
    {"games", "games 9223372036854775807", "games",
     "games 9223372036854775807 is more than 1 generation can have played (at most 58)"},
    {"games", "games 59", "games", "games 59 is more than 1 generation can have played (at most 58)"},
    {"init", "init gaussian", "init", "init is 'heavy' or 'uniform', not 'gaussian'"},
    {"symmetric", "symmetric maybe", "symmetric", "symmetric is 'no' or 'yes', not 'maybe'"},
    {"rel_step", "rel_step -1", "rel_step", "rel_step '-1' is not a number from 0 to 2"},
    {"rel_step", NULL, "end", "missing 'rel_step'"},
    {"norm", NULL, "end", "missing 'norm'"},
    {"patterns", NULL, "end", "missing 'patterns'"},
};

/* Each kind of damage is refused with FILE:LINE: and what. */
TEST(tune_population_file_errors)
{
    TuneControls c;
    char err[KM_ERR_MAX];
    small_controls(&c, 8, 1);
    c.nyard = 1;
    snprintf(c.yard[0].name, sizeof c.yard[0].name, "mat");
    weights_default(&c.yard[0].w);
    c.yard[0].w.pat = NULL; /* a yardstick's layer needs its file (pat_file) */
    TuneSession a, b;
    int made = tune_new(&a, &c, err);
    CHECK_MSG(made == 0, "%s", err);
    if (made) return; /* nothing below can run */
    TuneGenStats st;
    CHECK_INT(tune_generation(&a, 1, NULL, NULL, NULL, &st, err), 0);
    char *good = tune_format(&a);
    for (size_t i = 0; i < sizeof bad_cases / sizeof *bad_cases; i++) {
        const BadCase *bc = &bad_cases[i];
        char *t = edit_line(good, bc->key, bc->with);
        int line = bc->at ? line_of(t, bc->at) : line_of(t, "individual") + 7; /* the last line */
        char want[64];
        snprintf(want, sizeof want, "x.pop:%d: ", line);
        err[0] = '\0';
        CHECK_MSG(tune_parse(&b, t, "x.pop", err) == -1, "case %zu accepted", i);
        CHECK_MSG(strncmp(err, want, strlen(want)) == 0, "case %zu: '%s', expected it to start with '%s'", i,
                  err, want);
        CHECK_MSG(strstr(err, bc->says) != NULL, "case %zu: '%s', expected '%s'", i, err, bc->says);
        free(t);
    }
    /* a weight out of range, named */
    char *t = malloc(strlen(good) + 16);
    strcpy(t, good);
    char *ind = strstr(t, "\nindividual ");
    char *w5 = ind + 1;
    for (int k = 0; k < 7; k++) w5 = strchr(w5, ' ') + 1; /* "individual S STEP w1 w2 w3 w4 [w5]" */
    size_t wl = strcspn(w5, " ");
    memmove(w5 + 5, w5 + wl, strlen(w5 + wl) + 1);
    memcpy(w5, "40000", 5);
    CHECK_INT(tune_parse(&b, t, "x.pop", err), -1);
    CHECK_MSG(strstr(err, "weight 5 (own_men_edge) is 40000, outside -32768..32767") != NULL, "%s", err);
    free(t);
    CHECK_INT(tune_parse(&b, "", "x.pop", err), -1);
    CHECK_MSG(strstr(err, "x.pop:1: empty file") != NULL, "%s", err);
    CHECK_INT(tune_read(&b, "tests/data/no-such.pop", err), -1);
    CHECK(strstr(err, "tests/data/no-such.pop") != NULL);
    /* truncated in the middle of an individual line */
    t = malloc(strlen(good) + 1);
    strcpy(t, good);
    t[strlen(t) / 2] = '\0';
    CHECK_INT(tune_parse(&b, t, "x.pop", err), -1);
    free(t);
    CHECK_MSG(tune_parse(&b, good, "x.pop", err) == 0, "%s", err);
    tune_free(&b);
    free(good);
    tune_free(&a);
}

/* A session of 74 weights (the 60 and the terms 61-74): the new terms are
 * bred like the 60 (random, crossed, stepped, at the norm over all 74), the
 * same on 1 and 3 threads, and the population file (format 4, 'weights 74')
 * round-trips; a 60-weight session leaves them 0. */
TEST(tune_74_weights)
{
    TuneControls c;
    char err[KM_ERR_MAX];
    tune_controls_default(&c);
    CHECK_INT(c.nweights, EVAL_NPARAMS);
    c.population = 8;
    c.depth = 1;
    c.gauss = 0.5;
    c.gladiator = 16;
    c.seed = 74;
    c.limit = 2;
    c.nyard = 1;
    snprintf(c.yard[0].name, sizeof c.yard[0].name, "terms-flat");
    CHECK_INT(weights_read(&c.yard[0].w, "weights/archive/terms-flat.w", NULL, err), 0);
    TuneSession s60;
    CHECK_INT(tune_new(&s60, &c, err), 0);
    for (int i = 0; i < 8; i++)
        for (int j = EVAL_NPARAMS; j < EVAL_NTERMS; j++) CHECK_INT(s60.pop[i].w.w[j], 0);
    c.nweights = EVAL_NTERMS;
    TuneSession a, b;
    CHECK_INT(tune_new(&a, &c, err), 0);
    CHECK_INT(tune_new(&b, &c, err), 0);
    /* the new terms get random values like the 60 */
    int nonzero = 0;
    for (int i = 0; i < 8; i++)
        for (int j = EVAL_NPARAMS; j < EVAL_NTERMS; j++) nonzero += a.pop[i].w.w[j] != 0;
    CHECK(nonzero > 8 * 14 / 2);
    double sq = 0;
    for (int j = 0; j < EVAL_NTERMS; j++) sq += (double)a.pop[5].w.w[j] * a.pop[5].w.w[j];
    CHECK_MSG(fabs(sqrt(sq) - TUNE_NORM) < 8, "norm over 74: %.1f", sqrt(sq));
    TuneGenStats sa, sb;
    for (int g = 0; g < 2; g++) {
        TuneIndividual prev[8];
        memcpy(prev, a.pop, sizeof prev);
        generation_both(&a, &b, 3, &sa, &sb);
        if (g == 0) continue;
        /* a child's new terms come from its parents or moved by a step */
        bool moved = false;
        for (int k = 4; k < 7; k++)
            for (int j = EVAL_NPARAMS; j < EVAL_NTERMS; j++) {
                bool inherited = false;
                for (int p = 0; p < 8; p++) inherited |= prev[p].w.w[j] == a.pop[k].w.w[j];
                moved |= !inherited;
            }
        CHECK(moved);
    }
    char *t1 = tune_format(&a);
    CHECK(strstr(t1, "\nkingme-population 7\n") != NULL && strstr(t1, "\nweights 74\n") != NULL);
    CHECK(strstr(t1, "\nyardstick terms-flat 1000 1300 ") != NULL);
    TuneSession r;
    int pr = tune_parse(&r, t1, "x74.pop", err);
    CHECK_MSG(pr == 0, "%s", err);
    if (pr == 0) {
        CHECK(same_session(&a, &r));
        CHECK_INT(r.c.nweights, EVAL_NTERMS);
        CHECK(memcmp(&r.c.yard[0].w, &c.yard[0].w, sizeof c.yard[0].w) == 0);
        char *t2 = tune_format(&r);
        CHECK_STR(t1, t2);
        free(t2);
        tune_free(&r);
    }
    /* refused, with the line: a length that is neither, a 60-weight line in
     * a 74-weight file; a continuation of another length */
    static const char *const edits[][3] = {
        {"weights 74", "weights 75", "weights '75': the vector length is 60 or 74"},
        {"weights 74", "weights 60", "'best' needs a score and 60 weights, found 75 numbers"},
    };
    for (int k = 0; k < 2; k++) {
        char *t = edit_line(t1, edits[k][0], edits[k][1]);
        int line = line_of(t, k == 1 ? "best " : "weights");
        char want[64];
        snprintf(want, sizeof want, "x74.pop:%d: ", line);
        CHECK_INT(tune_parse(&r, t, "x74.pop", err), -1);
        CHECK_MSG(strncmp(err, want, strlen(want)) == 0 && strstr(err, edits[k][2]), "edit %d: '%s'", k, err);
        free(t);
    }
    c.nweights = 70;
    CHECK_INT(tune_controls_check(&c, err), -1);
    CHECK_MSG(strstr(err, "a vector of 70 weights") != NULL, "%s", err);
    c.nweights = EVAL_NPARAMS;
    CHECK_INT(tune_continue(&r, &a, &c, err), -1);
    CHECK_MSG(strstr(err, "vectors of 60 weights: the saved population's have 74") != NULL, "%s", err);
    free(t1);
    tune_free(&a);
    tune_free(&b);
    tune_free(&s60);
}

/* The Euclidean norm of the 148 weights: the opening's 74 and the ending's. */
static double norm148(const Weights *w)
{
    double sq = 0;
    for (int i = 0; i < EVAL_NTERMS; i++) sq += (double)w->w[i] * w->w[i] + (double)w->end[i] * w->end[i];
    return sqrt(sq);
}

/* Antisymmetric in both halves: opp_X = -own_X and end.opp_X = -end.own_X. */
static bool antisymmetric_phase(const Weights *w)
{
    Weights e;
    memset(&e, 0, sizeof e);
    memcpy(e.w, w->end, sizeof e.w);
    return antisymmetric(w, EVAL_NTERMS) && antisymmetric(&e, EVAL_NTERMS);
}

/* A session of 148 weights (a phase: the 74 of the opening, then the 74 of
 * the ending): every vector has phased = 1, one norm over the 148, both
 * halves antisymmetric; children differ in the ending half; the same on 1
 * and 3 threads; the population file (format 6, 'weights 148') round-trips,
 * with a yardstick that has a phase; a session resumed from its file after
 * one generation ends where a straight one does; the documents' algorithm
 * breeds the 148 too; malformed lines are refused with the line. */
TEST(tune_148_weights_phase)
{
    TuneControls c;
    char err[KM_ERR_MAX];
    tune_controls_default(&c);
    c.population = 8;
    c.depth = 1;
    c.gauss = 0.5;
    c.gladiator = 16;
    c.seed = 148;
    c.limit = 3;
    c.nyard = 1;
    snprintf(c.yard[0].name, sizeof c.yard[0].name, "terms");
    CHECK_INT(weights_read(&c.yard[0].w, "weights/terms.w", NULL, err), 0);
    CHECK(c.yard[0].w.phased);
    c.nweights = TUNE_NWEIGHTS_PHASE;
    CHECK_MSG(tune_controls_check(&c, err) == 0, "%s", err);
    TuneSession a, b;
    CHECK_INT(tune_new(&a, &c, err), 0);
    CHECK_INT(tune_new(&b, &c, err), 0);
    for (int i = 0; i < 8; i++) {
        const Weights *w = &a.pop[i].w;
        CHECK_INT(w->phased, 1);
        CHECK_MSG(fabs(norm148(w) - TUNE_NORM) < 8, "norm over 148: %.1f", norm148(w));
        CHECK_MSG(antisymmetric_phase(w), "individual %d", i);
        CHECK(memcmp(w->w, w->end, sizeof w->w) != 0); /* the ending drawn on its own */
    }
    TuneGenStats sa, sb;
    for (int g = 0; g < 2; g++) {
        TuneIndividual prev[8];
        memcpy(prev, a.pop, sizeof prev);
        generation_both(&a, &b, 3, &sa, &sb);
        if (g == 0) continue;
        /* the children (after the elite of 4, before the fresh one): phased,
         * at the norm, antisymmetric in both halves, ending weights bred */
        bool moved = false;
        for (int k = 4; k < 7; k++) {
            const Weights *w = &a.pop[k].w;
            CHECK_INT(w->phased, 1);
            CHECK_MSG(fabs(norm148(w) - TUNE_NORM) < 8, "child %d norm %.1f", k, norm148(w));
            CHECK_MSG(antisymmetric_phase(w), "child %d", k);
            CHECK(memcmp(w->w, w->end, sizeof w->w) != 0);
            for (int j = 0; j < EVAL_NTERMS; j++) {
                bool inherited = false;
                for (int p = 0; p < 8; p++) inherited |= prev[p].w.end[j] == w->end[j];
                moved |= !inherited;
            }
        }
        CHECK(moved);
    }
    for (int i = 0; i < 8; i++) CHECK_INT(a.pop[i].w.phased, 1);
    CHECK_INT(a.best.phased, 1);

    /* the file: the 148 on each line, the yardstick's phase kept */
    char *t1 = tune_format(&a);
    CHECK(strstr(t1, "\nkingme-population 7\n") != NULL && strstr(t1, "\nweights 148\n") != NULL);
    TuneSession r;
    int pr = tune_parse(&r, t1, "x148.pop", err);
    CHECK_MSG(pr == 0, "%s", err);
    if (pr == 0) {
        CHECK(same_session(&a, &r));
        CHECK_INT(r.c.nweights, TUNE_NWEIGHTS_PHASE);
        CHECK(memcmp(&r.c.yard[0].w, &c.yard[0].w, sizeof c.yard[0].w) == 0);
        char *t2 = tune_format(&r);
        CHECK_STR(t1, t2);
        free(t2);
        tune_free(&r);
    }
    /* resumed from the file after 1 generation: the same 3rd generation as
     * the straight session (a played 2; one more each) */
    {
        TuneSession x;
        CHECK_INT(tune_new(&x, &c, err), 0);
        CHECK_INT(tune_generation(&x, 1, NULL, NULL, NULL, &sa, err), 0);
        char *tx = tune_format(&x);
        tune_free(&x);
        pr = tune_parse(&x, tx, "x1.pop", err);
        CHECK_MSG(pr == 0, "%s", err);
        free(tx);
        if (pr == 0) {
            CHECK_INT(tune_generation(&x, 2, NULL, NULL, NULL, &sa, err), 0);
            CHECK_INT(tune_generation(&x, 1, NULL, NULL, NULL, &sa, err), 0);
            CHECK_INT(tune_generation(&a, 1, NULL, NULL, NULL, &sb, err), 0);
            CHECK(same_session(&a, &x));
            tune_free(&x);
        }
    }
    /* refused, with the line: a 148 file read as 74, a length that is none,
     * a line of 147 weights, an ending weight out of range (named end.) */
    static const char *const edits[][3] = {
        {"weights 148", "weights 74", "'best' needs a score and 74 weights, found 149 numbers"},
        {"weights 148", "weights 150", "weights '150': the vector length is 60 or 74, or 148 with a phase"},
    };
    for (int k = 0; k < 2; k++) {
        char *t = edit_line(t1, edits[k][0], edits[k][1]);
        int line = line_of(t, k == 0 ? "best " : "weights");
        char want[64];
        snprintf(want, sizeof want, "x148.pop:%d: ", line);
        CHECK_INT(tune_parse(&r, t, "x148.pop", err), -1);
        CHECK_MSG(strncmp(err, want, strlen(want)) == 0 && strstr(err, edits[k][2]), "edit %d: '%s'", k, err);
        free(t);
    }
    {
        /* the last individual without its last weight; then with end.opp_trade_lead 40000 */
        char *t = malloc(strlen(t1) + 16);
        strcpy(t, t1);
        char *last = strstr(t, "\nend\n"), *sp = last;
        while (sp[-1] != ' ') sp--;
        int line = line_of(t, "end") - 1;
        char *cut = malloc(strlen(t) + 1);
        memcpy(cut, t, (size_t)(sp - 1 - t));
        strcpy(cut + (sp - 1 - t), last);
        char want[64];
        snprintf(want, sizeof want, "x148.pop:%d: ", line);
        CHECK_INT(tune_parse(&r, cut, "x148.pop", err), -1);
        CHECK_MSG(strncmp(err, want, strlen(want)) == 0 &&
                      strstr(err, "'individual' needs a score, a step and 148 weights, found 149 numbers"),
                  "'%s'", err);
        free(cut);
        memmove(sp + 5, last, strlen(last) + 1);
        memcpy(sp, "40000", 5);
        CHECK_INT(tune_parse(&r, t, "x148.pop", err), -1);
        CHECK_MSG(strncmp(err, want, strlen(want)) == 0 &&
                      strstr(err, "weight 148 (end.opp_trade_lead) is 40000, outside -32768..32767"),
                  "'%s'", err);
        free(t);
    }
    TuneControls c74 = c;
    c74.nweights = EVAL_NTERMS;
    CHECK_INT(tune_continue(&r, &a, &c74, err), -1);
    CHECK_MSG(strstr(err, "vectors of 74 weights: the saved population's have 148") != NULL, "%s", err);
    free(t1);

    /* a session without a phase breeds none; with a phased yardstick its
     * file keeps the yardstick's 148 beside the 60 */
    {
        TuneControls c60 = c;
        c60.nweights = EVAL_NPARAMS;
        c60.nyard = 0;
        TuneSession x;
        CHECK_INT(tune_new(&x, &c60, err), 0);
        for (int i = 0; i < 8; i++) CHECK_INT(x.pop[i].w.phased, 0);
        x.c.nyard = 1;
        char *t = tune_format(&x);
        CHECK(strstr(t, "\nkingme-population 7\n") != NULL && strstr(t, "\nweights 60\n") != NULL);
        pr = tune_parse(&r, t, "y.pop", err);
        CHECK_MSG(pr == 0, "%s", err);
        if (pr == 0) {
            CHECK(memcmp(&r.c.yard[0].w, &c.yard[0].w, sizeof c.yard[0].w) == 0);
            tune_free(&r);
        }
        free(t);
        tune_free(&x);
    }
    /* the documents' algorithm over the 148: random, crossed at a cut in
     * either half, all phased */
    {
        TuneControls ct;
        small_controls(&ct, 8, 1);
        ct.nweights = TUNE_NWEIGHTS_PHASE;
        ct.limit = 2;
        TuneSession x;
        CHECK_INT(tune_new(&x, &ct, err), 0);
        for (int g = 0; g < 2; g++) CHECK_INT(tune_generation(&x, 2, NULL, NULL, NULL, &sa, err), 0);
        int ends = 0;
        for (int i = 0; i < 8; i++) {
            CHECK_INT(x.pop[i].w.phased, 1);
            for (int j = 0; j < EVAL_NTERMS; j++) ends += x.pop[i].w.end[j] != 0;
        }
        CHECK(ends > 8 * EVAL_NTERMS / 2);
        tune_free(&x);
    }
    tune_free(&a);
    tune_free(&b);
}

/* ---- the command ------------------------------------------------------------------ */

static char tdir[128];

static int kingme(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int kingme(char *out, size_t len, const char *fmt, ...)
{
    char args[2048], cmd[3072];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "%s %s", test_kingme(), args);
    return test_run(cmd, out, len);
}

static bool file_exists(const char *fmt, const char *name)
{
    char p[512];
    snprintf(p, sizeof p, fmt, tdir, name);
    return access(p, F_OK) == 0;
}

static int csv_lines(const char *name)
{
    char p[512], line[512];
    snprintf(p, sizeof p, "%s/population/%s.csv", tdir, name);
    FILE *f = fopen(p, "r");
    if (!f) return -1;
    int n = 0;
    while (fgets(line, sizeof line, f)) n++;
    fclose(f);
    return n;
}

static bool read_output(const char *name, Weights *w, char **comments)
{
    char p[512], err[KM_ERR_MAX];
    snprintf(p, sizeof p, "%s/output/%s.w", tdir, name);
    if (weights_read(w, p, comments, err)) {
        test_fail(__FILE__, __LINE__, "%s", err);
        return false;
    }
    return true;
}

static void rm_tdir(void)
{
    char cmd[256], out[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tdir);
    test_run(cmd, out, sizeof out);
}

TEST(tune_command_session_resume_threads)
{
    snprintf(tdir, sizeof tdir, "/tmp/kingme-tune-%d", (int)getpid());
    rm_tdir();
    static char out[65536];
    const char *ctl =
        "--algorithm thesis --population 8 --duels 0 --depth 2 --selection 4 --mutation 0.2 --seed 9";
    CHECK_INT(kingme(out, sizeof out, "tune %s --generations 2 -j 1 --dir %s --name a", ctl, tdir), 0);
    CHECK_MSG(strstr(out, "gen 1/2") && strstr(out, "gen 2/2"), "%s", out);
    CHECK_MSG(strstr(out, "score per generation"), "no chart: %s", out);
    /* the yardstick at the stop (default references), in the log and the report */
    CHECK_MSG(strstr(out, "gen 2/2") && strstr(strstr(out, "gen 2/2"), "\n  yardstick ") &&
                  strstr(out, " Elo: material ") && strstr(out, ", handset ") && strstr(out, " (128 games)"),
              "%s", out);
    /* every line fits 80 columns, the controls and the paths wrapped */
    for (const char *p = out; *p;) {
        size_t n = strcspn(p, "\n");
        CHECK_MSG(n <= 80, "a line of %zu columns: %.*s", n, (int)n, p);
        p += n + (p[n] == '\n');
    }
    CHECK_MSG(strstr(out, "yardstick: the best so far against material, handset (Elo"), "%s", out);
    CHECK_INT(kingme(out, sizeof out, "tune --report a --dir %s", tdir), 0);
    CHECK_MSG(strstr(out, "session a (") && strstr(out, "score per generation") &&
                  strstr(out, "yardstick: the best so far against material, handset (Elo"),
              "%s", out);
    CHECK_INT(kingme(out, sizeof out, "tune --report a --depth 3 --dir %s", tdir), 2);
    /* the yardstick as a picture: well-formed, one line per reference */
    CHECK_INT(kingme(out, sizeof out, "tune --report a --dir %s --svg %s/yard.svg", tdir, tdir), 0);
    CHECK_MSG(strstr(out, "picture of the yardstick written to"), "%s", out);
    {
        char p[300], why[256];
        snprintf(p, sizeof p, "%s/yard.svg", tdir);
        char *svg = test_slurp(p);
        CHECK_MSG(svg && test_xml_well_formed(svg, "svg", why, sizeof why), "%s", svg ? why : "no file");
        CHECK(svg && strstr(svg, ">material</text>") && strstr(svg, ">handset</text>"));
        free(svg);
    }
    CHECK_INT(kingme(out, sizeof out, "tune --generations 1 --svg %s/x.svg --dir %s", tdir, tdir), 2);
    CHECK_INT(kingme(out, sizeof out, "tune %s --generations 1 -j 1 --dir %s --name ny --yardstick none", ctl,
                     tdir),
              0);
    CHECK_MSG(!strstr(out, "yardstick"), "%s", out);
    /* one generation, in the singular */
    CHECK_MSG(strstr(out, "stop after 1 generation; 0 generations done") && !strstr(out, "1 generations"),
              "%s", out);
    CHECK_INT(
        kingme(out, sizeof out, "tune %s --generations 1 --dir %s --name nz --yardstick nosuch.w", ctl, tdir),
        1);
    CHECK(file_exists("%s/population/%s.pop", "a"));
    CHECK(!file_exists("%s/population/%s.pop.tmp", "a"));
    CHECK_INT(csv_lines("a"), 3);
    Weights wa, wb;
    char *comments = NULL;
    CHECK(read_output("a", &wa, &comments));
    CHECK_MSG(comments && strstr(comments, "made by kingme") && strstr(comments, "depth 2") &&
                  strstr(comments, "machine:"),
              "header: %s", comments ? comments : "(none)");
    free(comments);

    /* the same seed on 2 threads: the same weights */
    CHECK_INT(kingme(out, sizeof out, "tune %s --generations 2 -j 2 --dir %s --name b", ctl, tdir), 0);
    CHECK(read_output("b", &wb, NULL));
    CHECK(memcmp(&wa, &wb, sizeof wa) == 0);

    /* the learn algorithm with its default controls (heavy, symmetric,
     * relative steps): the same weights with -j 1 and -j 2 */
    {
        const char *lc = "--population 8 --depth 2 --elite 2 --gladiator 16 --seed 9 --yardstick none";
        CHECK_INT(kingme(out, sizeof out, "tune %s --generations 3 -j 1 --dir %s --name l1", lc, tdir), 0);
        CHECK_MSG(strstr(out, "algorithm learn, population 8"), "%s", out);
        CHECK_MSG(strstr(out, "init heavy, symmetric yes") && strstr(out, "rel-step 0.5"), "%s", out);
        CHECK_INT(kingme(out, sizeof out, "tune %s --generations 3 -j 2 --dir %s --name l2", lc, tdir), 0);
        Weights l1, l2;
        CHECK(read_output("l1", &l1, NULL) && read_output("l2", &l2, NULL));
        CHECK(memcmp(&l1, &l2, sizeof l1) == 0);
        CHECK(antisymmetric(&l1, EVAL_NPARAMS));
        /* and a resumed one ends where an uninterrupted one does */
        CHECK_INT(kingme(out, sizeof out, "tune %s --generations 2 -j 2 --dir %s --name l3", lc, tdir), 0);
        CHECK_INT(kingme(out, sizeof out, "tune --resume l3 --generations 3 -j 1 --dir %s", tdir), 0);
        CHECK(read_output("l3", &l2, NULL));
        CHECK(memcmp(&l1, &l2, sizeof l1) == 0);
    }

    /* find is the same command */
    CHECK_INT(kingme(out, sizeof out, "find %s --generations 2 -j 2 --dir %s --name f", ctl, tdir), 0);
    CHECK(read_output("f", &wb, NULL));
    CHECK(memcmp(&wa, &wb, sizeof wa) == 0);

    /* resume a finished session: nothing to do; with a new limit: a third generation */
    CHECK_INT(kingme(out, sizeof out, "tune --resume a --dir %s -j 2", tdir), 0);
    CHECK_MSG(strstr(out, "complete"), "%s", out);
    CHECK_INT(kingme(out, sizeof out, "tune --resume a --dir %s --generations 3 -j 2", tdir), 0);
    CHECK_MSG(strstr(out, "resuming session a at generation 2") && strstr(out, "gen 3/3"), "%s", out);
    CHECK_INT(csv_lines("a"), 4);
    /* ... the same as three generations in one go */
    CHECK_INT(kingme(out, sizeof out, "tune %s --generations 3 -j 1 --dir %s --name c", ctl, tdir), 0);
    CHECK(read_output("a", &wa, NULL) && read_output("c", &wb, NULL));
    CHECK(memcmp(&wa, &wb, sizeof wa) == 0);
    /* by file name, and the newest session when no name is given */
    CHECK_INT(kingme(out, sizeof out, "tune --resume %s/population/a.pop --generations 3", tdir), 0);
    CHECK_MSG(strstr(out, "session a is complete"), "%s", out);
    CHECK_INT(kingme(out, sizeof out, "tune --resume --dir %s", tdir), 0);
    CHECK_MSG(strstr(out, "session c is complete"), "%s", out);

    /* continue: a new session from a's population, new depth */
    CHECK_INT(kingme(out, sizeof out,
                     "tune --continue %s/population/a.pop --depth 1 --generations 1 --seed 3 "
                     "--dir %s --name d",
                     tdir, tdir),
              0);
    CHECK_MSG(strstr(out, "continuing the population"), "%s", out);
    CHECK(file_exists("%s/output/%s.w", "d"));
    CHECK_INT(kingme(out, sizeof out,
                     "tune --continue %s/population/a.pop --population 12 --generations 1 "
                     "--dir %s --name e",
                     tdir, tdir),
              2);

    /* refused: population not a multiple of 4, bad flags, an existing name */
    CHECK_INT(kingme(out, sizeof out,
                     "tune --algorithm thesis --population 6 --depth 2 --generations 1 --dir %s", tdir),
              2);
    CHECK_MSG(strstr(out, "population 6 is not a multiple of 4") && strstr(out, "\nsee: kingme help tune\n"),
              "%s", out);
    CHECK_INT(kingme(out, sizeof out, "tune --population 6 --depth 2 --generations 1 --dir %s", tdir), 2);
    CHECK_MSG(strstr(out, "elite 4 + fresh 1 leave fewer than 2 children in a population of 6"), "%s", out);
    const char *bad[] = {"--population 8",
                         "--generations 2 --seconds 5",
                         "--generations 0",
                         "--generations 1 --bogus",
                         "--generations 1 --mutation 2",
                         "--generations 1 -j 0",
                         "--generations 1 --duels 8 --population 8",
                         "--resume a --depth 3",
                         "--generations 1 --openings some",
                         "--generations 1 --name ../x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int st = kingme(out, sizeof out, "tune %s --dir %s", bad[i], tdir);
        CHECK_MSG(st == 2, "'%s' exit %d, expected 2: %s", bad[i], st, out);
    }
    CHECK_INT(kingme(out, sizeof out, "tune %s --generations 1 --dir %s --name a", ctl, tdir), 1);
    CHECK_MSG(strstr(out, "exists"), "%s", out);
    CHECK_INT(kingme(out, sizeof out, "tune --resume nosuch --dir %s", tdir), 1);
    rm_tdir();
}

/* --include with a phase (end. weights): the session breeds 148 weights;
 * an --include file without one joins with its ending equal to its opening;
 * a --yardstick file may have a phase; the output file has the end. lines;
 * -j 1 and -j 2 and a resumed session give the same population. */
TEST(tune_command_phase)
{
    snprintf(tdir, sizeof tdir, "/tmp/kingme-tune-phase-%d", (int)getpid());
    rm_tdir();
    static char out[65536];
    char err[KM_ERR_MAX];
    const char *ctl = "--include weights/terms.w --include weights/default-60.w --population 8 --depth 1 "
                      "--gladiator 16 --seed 16 --yardstick weights/terms.w --yardstick-games 8";
    CHECK_INT(kingme(out, sizeof out, "tune %s --generations 3 -j 1 --dir %s --name p1", ctl, tdir), 0);
    CHECK_MSG(strstr(out, "vectors of 148 weights: a phase"), "%s", out);
    CHECK_MSG(strstr(out, "Elo: terms "), "%s", out); /* the yardstick with a phase */
    CHECK_INT(kingme(out, sizeof out, "tune %s --generations 3 -j 2 --dir %s --name p2", ctl, tdir), 0);
    CHECK_INT(kingme(out, sizeof out, "tune %s --generations 1 -j 2 --dir %s --name p3", ctl, tdir), 0);
    CHECK_INT(kingme(out, sizeof out, "tune --resume p3 --generations 3 -j 1 --dir %s", tdir), 0);
    TuneSession s[3];
    char path[512];
    bool ok = true;
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/population/p%d.pop", tdir, k + 1);
        int r = tune_read(&s[k], path, err);
        CHECK_MSG(r == 0, "%s", err);
        ok &= r == 0;
    }
    if (!ok) return;
    CHECK_INT(s[0].c.nweights, TUNE_NWEIGHTS_PHASE);
    CHECK_INT(s[0].generation, 3);
    CHECK(same_session(&s[0], &s[1]));
    CHECK(same_session(&s[0], &s[2]));
    CHECK(s[0].c.nyard == 1 && s[0].c.yard[0].w.phased);
    Weights best, terms, d60;
    CHECK_INT(weights_read(&terms, "weights/terms.w", NULL, err), 0);
    CHECK_INT(weights_read(&d60, "weights/default-60.w", NULL, err), 0);
    memcpy(d60.end, d60.w, sizeof d60.end);
    d60.phased = 1;
    /* every vector phased; the bred ones (not the two files, kept as given) antisymmetric */
    for (int i = 0; i < 8; i++) {
        const Weights *w = &s[0].pop[i].w;
        CHECK(w->phased);
        bool given = memcmp(w, &terms, sizeof *w) == 0 || memcmp(w, &d60, sizeof *w) == 0;
        CHECK_MSG(given || antisymmetric_phase(w), "individual %d", i);
    }
    char *comments = NULL;
    CHECK(read_output("p1", &best, &comments));
    CHECK(memcmp(&best, &s[0].best, sizeof best) == 0);
    CHECK_MSG(comments && strstr(comments, "vectors of 148 weights"), "%s", comments ? comments : "");
    free(comments);
    /* the first population: the two files (default-60.w with end. = its 60) */
    CHECK_INT(kingme(out, sizeof out,
                     "tune %s --generations 1 -j 2 --dir %s --name p4 --population 4 --elite 1 "
                     "--fresh 1 --tournament 2",
                     ctl, tdir),
              0);
    snprintf(path, sizeof path, "%s/population/p4.pop", tdir);
    TuneSession p4;
    if (tune_read(&p4, path, err) == 0) {
        CHECK(memcmp(&p4.pop[0].w, &terms, sizeof terms) == 0);
        CHECK(memcmp(&p4.pop[1].w, &d60, sizeof d60) == 0);
        tune_free(&p4);
    } else {
        CHECK_MSG(false, "%s", err);
    }
    /* a session without a phased file breeds no phase */
    CHECK_INT(
        kingme(out, sizeof out,
               "tune --include weights/archive/terms-flat.w --population 4 --elite 1 --fresh 1 "
               "--tournament 2 --depth 1 --generations 1 --yardstick weights/terms.w --yardstick-games 2 "
               "-j 1 --dir %s --name q",
               tdir),
        0);
    CHECK_MSG(strstr(out, "vectors of 74 weights") && !strstr(out, "vectors of 148"), "%s", out);
    for (int k = 0; k < 3; k++) tune_free(&s[k]);
    rm_tdir();
}

/* Malformed population files through the command: one FILE:LINE: line, status 1. */
TEST(tune_command_bad_files)
{
    snprintf(tdir, sizeof tdir, "/tmp/kingme-tune-bad-%d", (int)getpid());
    rm_tdir();
    char cmd[512], out[8192], path[256];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/population", tdir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    TuneControls c;
    char err[KM_ERR_MAX];
    small_controls(&c, 8, 1);
    TuneSession a;
    CHECK_INT(tune_new(&a, &c, err), 0);
    char *good = tune_format(&a);
    tune_free(&a);
    for (size_t i = 0; i < sizeof bad_cases / sizeof *bad_cases; i++) {
        if (i != 0 && i != 3 && i != 4 && i != 6) continue; /* a few kinds are enough here */
        char *t = edit_line(good, bad_cases[i].key, bad_cases[i].with);
        snprintf(path, sizeof path, "%s/population/bad%zu.pop", tdir, i);
        FILE *f = fopen(path, "w");
        if (f) {
            fputs(t, f);
            fclose(f);
        }
        free(t);
        CHECK_INT(kingme(out, sizeof out, "tune --resume %s", path), 1);
        char want[300];
        snprintf(want, sizeof want, "kingme: %s:", path);
        CHECK_MSG(strstr(out, want) && strstr(out, bad_cases[i].says), "case %zu: %s", i, out);
        CHECK_INT(kingme(out, sizeof out, "tune --continue %s --generations 1 --dir %s", path, tdir), 1);
    }
    free(good);
    rm_tdir();
}

/* A population file of another version than the one written (an older
 * kingme's, or a newer one's) is refused in one line that says so, by the
 * reader and by tune --resume and --continue; nothing is read in part. */
TEST(tune_population_file_other_version_refused)
{
    TuneControls c;
    char err[KM_ERR_MAX];
    small_controls(&c, 8, 1);
    TuneSession a, b;
    CHECK_INT(tune_new(&a, &c, err), 0);
    char *good = tune_format(&a);
    tune_free(&a);
    CHECK_MSG(tune_parse(&b, good, "pop.kmp", err) == 0, "%s", err);
    tune_free(&b);
    int line = line_of(good, "kingme-population");
    CHECK(line > 1); /* after the comment lines */
    static const char *const others[] = {"1", "2", "3", "4", "5", "6", "8", "0", "07x"};
    for (size_t k = 0; k < sizeof others / sizeof *others; k++) {
        char with[64], want[160];
        snprintf(with, sizeof with, "kingme-population %s", others[k]);
        char *t = edit_line(good, "kingme-population", with);
        snprintf(
            want, sizeof want,
            "pop.kmp:%d: population file version %s, this kingme reads version 7 only; start a new session",
            line, others[k]);
        err[0] = '\0';
        CHECK_INT(tune_parse(&b, t, "pop.kmp", err), -1);
        CHECK_STR(err, want);
        free(t);
    }
    /* the command: one line, status 1, for --resume and --continue */
    snprintf(tdir, sizeof tdir, "/tmp/kingme-tune-version-%d", (int)getpid());
    rm_tdir();
    char cmd[512], out[8192], path[256];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/population", tdir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    char *old = edit_line(good, "kingme-population", "kingme-population 3");
    snprintf(path, sizeof path, "%s/population/old.pop", tdir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(old, f);
        fclose(f);
    }
    free(old);
    char want[512];
    snprintf(
        want, sizeof want,
        "kingme: %s:%d: population file version 3, this kingme reads version 7 only; start a new session\n",
        path, line);
    CHECK_INT(kingme(out, sizeof out, "tune --resume %s", path), 1);
    CHECK_STR(out, want);
    CHECK_INT(kingme(out, sizeof out, "tune --continue %s --generations 1 --dir %s", path, tdir), 1);
    CHECK_STR(out, want);
    free(good);
    rm_tdir();
}

/* kill -9 in the middle of a generation: the population file of the last
 * finished generation is intact, and resuming ends where an uninterrupted
 * session ends. */
TEST(tune_command_kill9_resume)
{
    snprintf(tdir, sizeof tdir, "/tmp/kingme-tune-kill-%d", (int)getpid());
    rm_tdir();
    static char out[65536];
    char ctl[256];
    snprintf(ctl, sizeof ctl,
             "--population %d --depth 2 --selection 4 --mutation 0.2 --seed 5 --generations 2 "
             "-j 2 --dir %s",
             test_sanitized() ? 8 : 16, tdir);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "exec %s tune %s --name k", test_kingme(), ctl);
    int from;
    pid_t pid = test_spawn(cmd, NULL, &from);
    CHECK(pid > 0);
    if (pid <= 0) return;
    char pop[256];
    snprintf(pop, sizeof pop, "%s/population/k.pop", tdir);
    /* "gen 1/2 best ..." comes once the first generation is saved: the kill
     * falls in the second */
    CHECK_MSG(test_wait_for(from, "gen 1/2 ", 120), "the session said nothing after its first generation");
    CHECK(access(pop, F_OK) == 0);
    kill(pid, SIGKILL);
    close(from);
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "the session ended before the kill");
    TuneSession s;
    char err[KM_ERR_MAX];
    CHECK_MSG(tune_read(&s, pop, err) == 0, "%s", err);
    CHECK_MSG(s.generation < 2, "the session finished before the kill (generation %d): make it longer",
              s.generation);
    tune_free(&s);
    CHECK_INT(kingme(out, sizeof out, "tune --resume k --dir %s", tdir), 0);
    CHECK_MSG(strstr(out, "gen 2/2"), "%s", out);
    CHECK_MSG(tune_read(&s, pop, err) == 0, "%s", err);
    CHECK_INT(s.generation, 2);
    tune_free(&s);
    CHECK_INT(csv_lines("k"), 3);
    CHECK_INT(kingme(out, sizeof out, "tune %s --name ref", ctl), 0);
    Weights a, b;
    CHECK(read_output("k", &a, NULL) && read_output("ref", &b, NULL));
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    rm_tdir();
}

/* A weights file with the named weights of weights/terms.w (a phase) and a
 * small random pattern layer (seed s: the man and king tables and two
 * regions, a quarter of their cells within -200..200), written to path;
 * the layer (interned) into *pat. */
static bool write_layer_file(const char *path, unsigned s, const EvalPatterns **pat)
{
    Weights w;
    char err[KM_ERR_MAX];
    if (weights_read(&w, "weights/terms.w", NULL, err))
        return test_fail(__FILE__, __LINE__, "%s", err), false;
    EvalPatterns *p = pat_new();
    if (!p) return false;
    static const int tables[] = {PAT_MAN_TABLE, PAT_KING_TABLE, PAT_REGION_TABLE(0), PAT_REGION_TABLE(7)};
    for (int ph = 0; ph < 2; ph++)
        for (int k = 0; k < 4; k++) {
            int16_t *c = pat_cells(p, tables[k], ph);
            for (int i = 0; i < pat_tables[tables[k]].cells; i++) {
                s = s * 1103515245u + 12345u;
                if ((s >> 16) % 4 == 0) c[i] = (int16_t)((int)((s >> 8) % 401) - 200);
            }
        }
    w.pat = pat_intern(p);
    *pat = w.pat;
    if (!w.pat || weights_write(&w, path, "a random pattern layer", err))
        return test_fail(__FILE__, __LINE__, "%s", w.pat ? err : "out of memory"), false;
    return true;
}

/* --include a file with a pattern layer: the session breeds the 148 named
 * weights over that fixed layer, which every individual, the best and the
 * output file carry; the bred vectors stay at the norm of the file's named
 * weights; the population file (format 7) names the layer's file and key,
 * and a resumed session ends where an uninterrupted one does; a changed,
 * missing or layerless file is refused on resume; two different layers,
 * --workers and the thesis algorithm are refused at the start. */
TEST(tune_command_pattern_layer)
{
    snprintf(tdir, sizeof tdir, "/tmp/kingme-tune-pat-%d", (int)getpid());
    rm_tdir();
    static char out[65536];
    char err[KM_ERR_MAX], lp[256], lp2[256], cmd[1200];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", tdir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    snprintf(lp, sizeof lp, "%s/layer.w", tdir);
    snprintf(lp2, sizeof lp2, "%s/layer2.w", tdir);
    const EvalPatterns *pat, *pat2;
    if (!write_layer_file(lp, 1, &pat) || !write_layer_file(lp2, 2, &pat2)) return;
    CHECK(pat != pat2 && pat->key != pat2->key);
    Weights file;
    CHECK_INT(weights_read(&file, lp, NULL, err), 0);
    CHECK(file.pat == pat && file.phased);
    int norm = (int)lround(norm148(&file));

    char ctl[512];
    snprintf(ctl, sizeof ctl,
             "--include %s --population 4 --elite 1 --fresh 1 --tournament 2 --depth 2 "
             "--gladiator 16 --seed 11 --yardstick none --dir %s",
             lp, tdir);
    CHECK_INT(kingme(out, sizeof out, "tune %s --generations 2 -j 1 --name p1", ctl), 0);
    CHECK_MSG(strstr(out, "over the fixed pattern layer of") && strstr(out, "vectors of 148 weights"), "%s",
              out);
    CHECK_INT(kingme(out, sizeof out, "tune %s --generations 1 -j 2 --name p2", ctl), 0);
    CHECK_INT(kingme(out, sizeof out, "tune --resume p2 --generations 2 -j 2 --dir %s", tdir), 0);
    TuneSession s[2];
    char path[512];
    bool ok = true;
    for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof path, "%s/population/p%d.pop", tdir, k + 1);
        int r = tune_read(&s[k], path, err);
        CHECK_MSG(r == 0, "%s", err);
        ok &= r == 0;
    }
    if (!ok) return;
    CHECK(s[0].c.pat == pat && s[0].c.norm == norm && s[0].c.nweights == TUNE_NWEIGHTS_PHASE);
    CHECK_INT(s[0].generation, 2);
    CHECK(same_session(&s[0], &s[1])); /* resumed = uninterrupted */
    /* every individual and the best carry the layer; the bred ones (after
     * the elite of one) at the file's norm, antisymmetric */
    for (int i = 0; i < 4; i++) {
        CHECK_MSG(s[0].pop[i].w.pat == pat, "individual %d", i);
        if (i == 0) continue;
        CHECK_MSG(fabs(norm148(&s[0].pop[i].w) - norm) < 8, "individual %d: norm %.1f, the file's %d", i,
                  norm148(&s[0].pop[i].w), norm);
        CHECK_MSG(antisymmetric_phase(&s[0].pop[i].w), "individual %d", i);
    }
    CHECK(s[0].has_best && s[0].best.pat == pat);
    Weights best;
    CHECK(read_output("p1", &best, NULL));
    CHECK(best.pat == pat && memcmp(&best, &s[0].best, sizeof best) == 0);
    /* the file: format 7, the layer's key and file, the norm */
    snprintf(path, sizeof path, "%s/population/p1.pop", tdir);
    char *text = test_slurp(path), want[600];
    snprintf(want, sizeof want, "\npatterns %016llx %s\n", (unsigned long long)pat->key, lp);
    CHECK_MSG(text && strstr(text, "\nkingme-population 7\n") && strstr(text, want), "%s", text ? text : "");
    snprintf(want, sizeof want, "\nnorm %d\n", norm);
    CHECK(text && strstr(text, want));
    /* the first population: the file as given, then random vectors with the layer */
    {
        TuneSession g0;
        TuneControls c = s[0].c;
        c.stop = TUNE_STOP_GENERATIONS, c.limit = 1;
        CHECK_INT(tune_new(&g0, &c, err), 0);
        for (int i = 0; i < 4; i++) {
            CHECK(g0.pop[i].w.pat == pat && g0.pop[i].w.phased);
            CHECK(fabs(norm148(&g0.pop[i].w) - norm) < 8);
        }
        /* --continue keeps the layer and the norm; another layer is refused */
        TuneSession cs;
        CHECK_INT(tune_continue(&cs, &s[0], &c, err), 0);
        CHECK(cs.c.pat == pat && cs.pop[3].w.pat == pat);
        tune_free(&cs);
        c.pat = pat2;
        CHECK_INT(tune_continue(&cs, &s[0], &c, err), -1);
        tune_free(&g0);
    }
    /* read back: refused edits, with their line */
    if (text) {
        static const char *const edits[][4] = {
            /* the line, its edit, the error's line, what it says */
            {"patterns ", "patterns 12ab x.w", "patterns ", "key '12ab' is not 16 hex digits"},
            {"norm ", "norm 10", "norm ", "norm '10' is not a whole number from 64 to 32767"},
            {"algorithm", "algorithm thesis", "population ", "the thesis algorithm breeds 16-bit vectors"},
        };
        for (int k = 0; k < 3; k++) {
            char *t = edit_line(text, edits[k][0], edits[k][1]);
            int line = line_of(t, edits[k][2]);
            snprintf(want, sizeof want, "p.pop:%d: ", line);
            TuneSession r;
            CHECK_INT(tune_parse(&r, t, "p.pop", err), -1);
            CHECK_MSG(strncmp(err, want, strlen(want)) == 0 && strstr(err, edits[k][3]), "edit %d: '%s'", k,
                      err);
            free(t);
        }
    }
    free(text);
    /* the layer's file changed, missing, without a layer: resume refused */
    snprintf(cmd, sizeof cmd, "mv %s %s.kept && cp %s %s", lp, lp, lp2, lp);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_INT(kingme(out, sizeof out, "tune --resume p2 --generations 3 --dir %s", tdir), 1);
    CHECK_MSG(strstr(out, "p2.pop:") && strstr(out, "has changed since the session began"), "%s", out);
    CHECK_INT(kingme(out, sizeof out, "tune --continue p2 --generations 1 --dir %s --name p3", tdir), 1);
    snprintf(cmd, sizeof cmd, "rm %s", lp);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_INT(kingme(out, sizeof out, "tune --resume p2 --generations 3 --dir %s", tdir), 1);
    CHECK_MSG(strstr(out, "p2.pop:") && strstr(out, "cannot open"), "%s", out);
    snprintf(cmd, sizeof cmd, "cp weights/terms.w %s", lp);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_INT(kingme(out, sizeof out, "tune --resume p2 --generations 3 --dir %s", tdir), 1);
    CHECK_MSG(strstr(out, "has no pattern layer"), "%s", out);
    snprintf(cmd, sizeof cmd, "mv %s.kept %s", lp, lp);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    /* refused at the start, one usage line each */
    CHECK_INT(kingme(out, sizeof out, "tune %s --include %s --generations 1 --name x", ctl, lp2), 2);
    CHECK_MSG(strstr(out, "its pattern layer is not the one of"), "%s", out);
    CHECK_INT(kingme(out, sizeof out, "tune %s --generations 1 --name x --algorithm thesis", ctl), 2);
    CHECK_MSG(strstr(out, "the thesis algorithm breeds 16-bit vectors"), "%s", out);
    CHECK(!file_exists("%s/population/%s.pop", "x"));
    /* a file without a layer joins the session with it */
    CHECK_INT(
        kingme(out, sizeof out, "tune %s --include weights/default-60.w --generations 1 -j 2 --name q", ctl),
        0);
    snprintf(path, sizeof path, "%s/population/q.pop", tdir);
    TuneSession q;
    if (tune_read(&q, path, err) == 0) {
        Weights d60;
        CHECK_INT(weights_read(&d60, "weights/default-60.w", NULL, err), 0);
        CHECK(memcmp(&q.pop[0].w, &file, sizeof file) == 0); /* as given */
        CHECK(q.pop[1].w.pat == pat && memcmp(q.pop[1].w.w, d60.w, sizeof d60.w) == 0);
        tune_free(&q);
    } else {
        CHECK_MSG(false, "%s", err);
    }
    for (int k = 0; k < 2; k++) tune_free(&s[k]);
    rm_tdir();
}

/* A session without a pattern layer: 'patterns none' and the norm 16384,
 * in the one version written. */
TEST(tune_no_layer_file)
{
    TuneControls c;
    char err[KM_ERR_MAX];
    tune_controls_default(&c);
    c.population = 6;
    c.elite = 2;
    c.seed = 3;
    CHECK_INT(c.norm, TUNE_NORM);
    CHECK(c.pat == NULL);
    TuneSession a;
    CHECK_INT(tune_new(&a, &c, err), 0);
    char *t = tune_format(&a);
    CHECK_MSG(t && strstr(t, "\nkingme-population 7\n") && strstr(t, "\npatterns none\n") &&
                  strstr(t, "\nnorm 16384\n"),
              "%s", t ? t : "");
    for (int i = 0; i < 6; i++) CHECK(a.pop[i].w.pat == NULL && fabs(norm(&a.pop[i].w) - TUNE_NORM) < 8);
    free(t);
    tune_free(&a);
}

/* a pattern layer's path as the population file records it: one token of
 * at most TUNE_PATH_MAX - 1 characters; each refusal is one line saying why */
TEST(tune_layer_path_refusals)
{
    char err[KM_ERR_MAX] = "";
    CHECK(tune_controls_layer_path_ok("weights/pat.w", err));
    CHECK(!tune_controls_layer_path_ok("", err));
    CHECK_MSG(strstr(err, "without the path") != NULL, "%s", err);
    CHECK(!tune_controls_layer_path_ok("my weights.w", err));
    CHECK_MSG(strstr(err, "'my weights.w'") && strstr(err, "cannot hold blanks"), "%s", err);
    char long_path[TUNE_PATH_MAX + 8];
    memset(long_path, 'a', sizeof long_path - 1);
    long_path[sizeof long_path - 1] = '\0';
    CHECK(!tune_controls_layer_path_ok(long_path, err));
    CHECK_MSG(strstr(err, "at most") && !strchr(err, '\n'), "%s", err);
}
