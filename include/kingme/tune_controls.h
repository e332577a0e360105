/* tune_controls.h - the controls of a tuning session (tune.h), defined once.
 *
 * TUNE_CONTROL_LIST is the one list of the controls that are one number or
 * one word. The option table of `kingme tune`, the population file's keys,
 * the checks of their ranges, the two algorithms' defaults and the session's
 * description are generated from it, so a control has one name, one range
 * and one default everywhere.
 *   X(field, kind, key, option, arg, lo, hi, multiple, learn, thesis, who, help)
 * field: the TuneControls member. kind: INT (an int), REAL (a double) or
 * CHOICE (an enum or a bool whose values 0, 1, ... are the words of arg, in
 * order). key: the population file's key (and the description's word);
 * option: the command line's. arg: the value's name in the help (CHOICE: the
 * words, "learn|thesis"). lo..hi: the range (INT, REAL); multiple: an INT's
 * values are multiples of it (1: any). learn, thesis: the default of each
 * algorithm (CHOICE: a word). who: the algorithm that uses it (BOTH, LEARN,
 * THESIS: the other keeps it unused; YARD: both, described with the
 * yardstick). help: the help line.
 *
 * The controls outside the list, each with a shape of its own: the vector's
 * length (nweights), the stop (generations or seconds), the seed and the
 * yardstick's references. Library code: nothing is printed. */
#ifndef KINGME_TUNE_CONTROLS_H
#define KINGME_TUNE_CONTROLS_H

#include "kingme/eval.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TUNE_NWEIGHTS_PHASE \
    EVAL_NWEIGHTS_PHASE /* a vector with a phase: the 74 opening weights, then the 74 ending */
#define TUNE_MAX_POPULATION 1024
#define TUNE_MAX_YARDSTICKS 8
#define TUNE_YARD_NAME_MAX 64   /* a reference's name (its file name), no blanks */
#define TUNE_YARD_MAX_GAMES 288 /* per reference: each crossboard ballot with both colours */
#define TUNE_MAX_DEPTH 40
#define TUNE_MAX_BALLOTS 16     /* ballots per pairing */
#define TUNE_MAX_GLADIATOR 1024 /* games of the learn algorithm's gladiator test */
#define TUNE_NORM 16384         /* learn: every bred vector has this Euclidean norm (TuneControls.norm) */
#define TUNE_NORM_MIN 64        /* the least norm of a session over a pattern layer */
#define TUNE_NORM_MAX 32767
#define TUNE_PATH_MAX 1024  /* the path of a pattern layer's weights file, as recorded */
#define TUNE_STEP_MIN 0.001 /* learn: bounds of the self-adapting step (a fraction of TUNE_NORM) */
#define TUNE_STEP_MAX 0.5
#define TUNE_REL_STEP_MAX 2 /* learn: the largest relative step (rel_step) */

/* clang-format off */
#define TUNE_CONTROL_LIST(X)                                                                                      \
    X(algorithm, CHOICE, "algorithm", "--algorithm", "learn|thesis", 0, 0, 1, "learn", "thesis", BOTH,        \
      "learn: elitism, tournaments, Gaussian steps, paired ballots, a sequential gladiator test; thesis: the "    \
      "design documents' algorithm")                                                                            \
    X(population, INT, "population", "--population", "N", 4, TUNE_MAX_POPULATION, 1, 16, 32, BOTH,          \
      "individuals (thesis: a multiple of 4)")                                                                  \
    X(duels, INT, "duels", "--duels", "K", 0, TUNE_MAX_POPULATION - 1, 1, 0, 0, BOTH,                       \
      "opponents per individual (at most the population - 1); 0 = round robin")                                \
    X(ballots, INT, "ballots", "--ballots", "B", 1, TUNE_MAX_BALLOTS, 1, 2, 1, BOTH,                        \
      "openings per pairing, each played with both colours")                                                    \
    X(depth, INT, "depth", "--depth", "D", 1, TUNE_MAX_DEPTH, 1, 2, 4, BOTH, "search depth of every game")  \
    X(elite, INT, "elite", "--elite", "E", 0, TUNE_MAX_POPULATION, 1, 4, 4, LEARN,                          \
      "the best so far and the best-scoring vectors kept unchanged")                                            \
    X(tournament, INT, "tournament", "--tournament", "T", 1, TUNE_MAX_POPULATION, 1, 3, 3, LEARN,           \
      "a parent is the best of T drawn at random")                                                              \
    X(fresh, INT, "fresh", "--fresh", "F", 0, TUNE_MAX_POPULATION, 1, 1, 1, LEARN,                          \
      "new random vectors per generation")                                                                      \
    X(init, CHOICE, "init", "--init", "heavy|uniform", 0, 0, 1, "heavy", "heavy", LEARN,                    \
      "random vectors: heavy, each weight a standard normal cubed (most small, a few large); uniform, each "     \
      "over the whole 16-bit range")                                                                            \
    X(symmetric, CHOICE, "symmetric", "--symmetric", "no|yes", 0, 0, 1, "yes", "yes", LEARN,                \
      "every vector antisymmetric: each opponent weight the negative of the player's (opp_men = -own_men)")     \
    X(step, REAL, "step", "--step", "S", TUNE_STEP_MIN, TUNE_STEP_MAX, 1, 0.05, 0.05, LEARN,                \
      "the first Gaussian step, a fraction of the vectors' norm (16384; over a pattern layer, its file's); it "  \
      "then adapts")                                                                                            \
    X(rel_step, REAL, "rel_step", "--rel-step", "R", 0, TUNE_REL_STEP_MAX, 1, 0.5, 0.5, LEARN,             \
      "a Gaussian step also multiplies the weight by exp(R N(0,1)) (0: additive steps only)")                  \
    X(gauss, REAL, "gauss", "--gauss", "P", 0, 1, 1, 0.2, 0.2, LEARN,                                       \
      "chance of each weight of a child to take a Gaussian step")                                               \
    X(selection, REAL, "selection", "--selection", "F", 0, 1e9, 1, 10, 10, THESIS,                          \
      "roulette bonus drawn from [0, F] points (a win is 2)")                                                   \
    X(mutation, REAL, "mutation", "--mutation", "P", 0, 1, 1, 0.1, 0.1, BOTH,                               \
      "chance that a child gets one random weight")                                                             \
    X(gladiator, INT, "gladiator", "--gladiator", "G", 8, TUNE_MAX_GLADIATOR, 8, 64, 64, LEARN,             \
      "most games of the sequential test of a new best (a multiple of 8)")                                      \
    X(openings, CHOICE, "openings", "--openings", "ballots|start", 0, 0, 1, "ballots", "ballots", BOTH,     \
      "ballots: B distinct random crossboard ACF ballots per pairing; start: the initial position with random " \
      "tie-breaks")                                                                                             \
    X(yard_every, INT, "yardstick_every", "--yardstick-every", "K", 0, 1000000, 1, 5, 5, YARD,             \
      "measure the yardstick every K generations (0: only at the stop)")                                       \
    X(yard_games, INT, "yardstick_games", "--yardstick-games", "N", 2, TUNE_YARD_MAX_GAMES, 2, 64, 64, YARD, \
      "games against each reference: N/2 ballots spread over the deck, both colours, fixed seeds")
/* clang-format on */

/* TUNE_C_algorithm (0) ... : each listed control's index. */
enum {
#define TUNE_CONTROL_ENUM_(field, ...) TUNE_C_##field,
    TUNE_CONTROL_LIST(TUNE_CONTROL_ENUM_)
#undef TUNE_CONTROL_ENUM_
        TUNE_NCONTROLS
};

typedef enum TuneControlKind { TUNE_KIND_INT, TUNE_KIND_REAL, TUNE_KIND_CHOICE } TuneControlKind;
typedef enum TuneControlWho { TUNE_WHO_BOTH, TUNE_WHO_LEARN, TUNE_WHO_THESIS, TUNE_WHO_YARD } TuneControlWho;

/* One listed control, as the list gives it (defaults aside). */
typedef struct TuneControlInfo {
    const char *key, *option, *arg;
    TuneControlKind kind;
    double lo, hi;
    int multiple;
    TuneControlWho who;
    const char *help;
} TuneControlInfo;

extern const TuneControlInfo tune_controls_info[TUNE_NCONTROLS];

typedef enum TuneStopKind { TUNE_STOP_GENERATIONS = 0, TUNE_STOP_SECONDS = 1 } TuneStopKind;
/* The openings of the duels: a random crossboard ballot per pairing, or the initial position. */
typedef enum TuneOpenings { TUNE_OPENINGS_BALLOTS = 0, TUNE_OPENINGS_START = 1 } TuneOpenings;

/* learn: the first population and the fresh vectors: heavy tailed (a
 * standard normal cubed, x 4000, clamped to +-32767: most weights small, a
 * few large), or every weight uniform over -32768..32767 (the documents' way). */
typedef enum TuneInit { TUNE_INIT_HEAVY = 0, TUNE_INIT_UNIFORM = 1 } TuneInit;

/* learn: the default (tune.h); thesis: docs/tuning.md as written. */
typedef enum TuneAlgorithm { TUNE_ALG_LEARN = 0, TUNE_ALG_THESIS = 1 } TuneAlgorithm;

/* A reference vector of the yardstick, kept in the population file. */
typedef struct TuneYardstick {
    char name[TUNE_YARD_NAME_MAX];
    Weights w;
    char pat_file[TUNE_PATH_MAX]; /* with a pattern layer (w.pat): the file it came from, else "" */
} TuneYardstick;

/* What each control means is the help line of its entry in the list. */
typedef struct TuneControls {
    TuneAlgorithm algorithm;
    int nweights; /* the vector's length: EVAL_NPARAMS (the documents' 60, the
                   * default), EVAL_NTERMS (the 60 and the terms 61-74; the
                   * weights beyond it stay 0), or TUNE_NWEIGHTS_PHASE (148: the
                   * 74 of Weights.w, then the 74 of Weights.end; every vector
                   * has phased = 1, one norm over the 148, antisymmetric in
                   * each half) */
    int population;
    int duels; /* 0: a full round robin */
    int depth;
    double selection; /* thesis */
    double mutation;
    int ballots;
    int elite; /* learn: elite, tournament, fresh, step, gauss, gladiator, init,
                * symmetric, rel_step */
    int tournament;
    int fresh;
    double step; /* a fraction of TUNE_NORM */
    double gauss;
    int gladiator;
    TuneInit init;
    bool symmetric;
    double rel_step;
    TuneStopKind stop;
    double limit; /* generations (a whole number) or seconds of play */
    TuneOpenings openings;
    uint64_t seed;
    /* the yardstick: every yard_every generations (0: never) and at the stop,
     * the best so far plays yard_games games (an even number) against each
     * reference, at `depth`, from fixed ballots with fixed seeds */
    int yard_every;
    int yard_games;
    int nyard;
    TuneYardstick yard[TUNE_MAX_YARDSTICKS];
    /* learn: the Euclidean norm of every bred and random vector, and the
     * unit of the Gaussian steps: TUNE_NORM; over a pattern layer, the norm
     * of the named weights of the file the layer came from (the layer is in
     * that file's units, so scaling the named weights alone changes games) */
    int norm;
    /* the fixed pattern layer (patterns.h) that every vector of the session
     * carries, NULL for none, and the weights file it came from (as given,
     * no blanks): the population file records that path and the layer's
     * key, and reading it loads the file and checks the key. An ending
     * network of that file (net, NULL for none) rides with the layer: every
     * vector carries it too, and the key recorded covers both
     * (tune_controls_layer_key) */
    const struct EvalPatterns *pat;
    const struct EvalNet *net;
    char pat_file[TUNE_PATH_MAX];
} TuneControls;

/* The key a population file records for a pattern layer and the network
 * that rides with it: the layer's key, mixed with the network's when there
 * is one (so a file without a network keeps the key it always had). */
uint64_t tune_controls_layer_key(const struct EvalPatterns *pat, const struct EvalNet *net);

/* Give w the session's fixed pattern layer and the network that rides with
 * it (every vector of the session carries both). */
void tune_controls_carry_layer(const TuneControls *c, Weights *w);

/* The learn algorithm's defaults (the list's learn column), 60 weights; stop
 * after 100 generations; seed 1; no yardstick reference (the command adds
 * weights/material.w and weights/handset.w); norm TUNE_NORM, no pattern layer. */
void tune_controls_default(TuneControls *c);

/* The same with the list's thesis column (the documents' algorithm). */
void tune_controls_thesis(TuneControls *c);

/* A listed control's value as a double (a CHOICE: its word's number), and
 * setting it (v a value of the control's kind). */
double tune_controls_get(const TuneControls *c, int i);
void tune_controls_set(TuneControls *c, int i, double v);

/* The number of the word `word` of a CHOICE control, or -1. */
int tune_controls_choice(int i, const char *word);

/* Control i's value as the population file and the description write it
 * ("16", "0.05", "heavy"; a double in as few digits as read back the same). */
void tune_controls_text(const TuneControls *c, int i, char *buf, size_t len);

/* What a value of control i is, for messages: "a whole number from 4 to
 * 1024", "a multiple of 8 from 8 to 1024", "a chance from 0 to 1", "'learn'
 * or 'thesis'". */
void tune_controls_expect(int i, char *buf, size_t len);

/* Whether v is a value of control i (its kind, range and multiple); false
 * with "KEY V is not <expect>" in err. */
bool tune_controls_valid(int i, double v, char *err);

/* Whether the controls are usable; -1 with a message such as "population 6
 * is not a multiple of 4" in err (also: a pattern layer with the thesis
 * algorithm, or without the path of its file). */
int tune_controls_check(const TuneControls *c, char *err);

/* Whether path can be recorded as a pattern layer's file (not empty, at
 * most TUNE_PATH_MAX - 1 characters, no blanks); false with a message. */
bool tune_controls_layer_path_ok(const char *path, char *err);

/* The most points an individual can score in one generation. */
int tune_controls_max_score(const TuneControls *c);

#endif
