/* tune.h - self-play tuning with a genetic algorithm, and population files.
 * Two algorithms share the session, the files and the game playing:
 *
 * thesis, the design documents' "Find" program (docs/tuning.md). One
 * generation: every individual plays a double duel (one game with each
 * colour, from the same opening; `ballots` openings per pairing) against
 * every other one (duels == 0) or against `duels` opponents it draws at
 * random; a game scores 2 / 1 / 0. The generation's best then plays a double
 * duel with the best so far and takes its place if it scores at least as
 * much. The next generation (made at the start of the following one) is: the
 * children of the top half picked by roulette (score + a uniform bonus in
 * [0, selection]; distinct vectors first), crossed at one random cut and
 * mutated with probability `mutation`; the best quarter of those parents; a
 * quarter of fresh random vectors.
 *
 * learn, the default: the same duels with several ballots per pairing (less
 * noisy scores); the next generation is `elite` vectors kept unchanged (the
 * best so far, then the best-scoring distinct ones), `fresh` random vectors,
 * and children of parents picked by tournament (the best of `tournament`
 * drawn), made by uniform crossover (each weight from either parent) and
 * Gaussian steps (each weight with chance `gauss` is multiplied by
 * exp(rel_step N(0,1)), then moves by step x norm x N(0,1); the step is
 * the parents' geometric mean times exp(0.2 N(0,1)), so it adapts), plus the
 * documents' uniform replacement of one weight with chance `mutation`.
 * Random vectors follow `init`. With `symmetric`, every vector is made
 * antisymmetric (each opp_X weight minus own_X's; a bred vector's pair gets
 * the mean of own_X and -opp_X). Every bred vector is scaled to the Euclidean norm
 * TUNE_NORM: multiplying all weights by a positive constant changes no game,
 * so the scale is not left to drift.
 *
 * Over a pattern layer (TuneControls.pat): every vector carries the same
 * fixed layer and the GA breeds the named weights only. The layer is in the
 * units of its file (a man about 1000), so scaling the named weights changes
 * games: the norm (and the unit of the steps and of the mutation's range) is
 * then TuneControls.norm, the norm of that file's named weights, not
 * TUNE_NORM. The thesis algorithm, which draws unnormalised 16-bit vectors,
 * is refused over a layer. The gladiator test is sequential: the
 * generation's best plays the best so far in batches of 8 games (4 ballots,
 * both colours) until a GSPRT (Elo 0 against +30, alpha = beta = 0.05)
 * decides or `gladiator` games are played; then it takes the title only if
 * it scored more than half.
 *
 * Determinism: every random choice of the algorithm comes from one session
 * generator (TuneSession.rng), used on the calling thread only and always in
 * the same order: breeding (thesis: roulette bonuses, crossover cuts,
 * mutations, fresh vectors; learn: fresh vectors, then per child its parents,
 * crossover, step and mutations), then duel opponents, then the openings of
 * each pairing, then the gladiator duel's openings (all of them, whether
 * played or not). Each game's own seed is a hash of the session seed, the
 * generation and the game's index. The games are played with a fixed depth,
 * so a session gives the same population whatever the number of threads, and
 * a session resumed from its population file continues exactly as if never
 * stopped. The games of a generation (and of each gladiator batch) are a list
 * of independent jobs for match_run.
 *
 * The library prints nothing: progress goes to a callback. */
#ifndef KINGME_TUNE_H
#define KINGME_TUNE_H

#include "kingme/tune_controls.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define TUNE_FORMAT_VERSION 7
#define TUNE_HASH_MB 1 /* per player: small, so that clearing it per game is cheap */

/* One measurement of the yardstick. Elo values come from scores clamped to
 * [1/(2N), 1 - 1/(2N)] of N games, so that 0% and 100% stay finite. */
typedef struct TuneYardResult {
    int generation;  /* the generation after which it was measured */
    int nref, games; /* references; games in all */
    int wins[TUNE_MAX_YARDSTICKS], draws[TUNE_MAX_YARDSTICKS], losses[TUNE_MAX_YARDSTICKS];
    double score[TUNE_MAX_YARDSTICKS], ref_elo[TUNE_MAX_YARDSTICKS];
    double total_score; /* over all references' games */
    double elo;         /* Elo of total_score */
    double seconds;     /* wall time (not counted in the session's elapsed) */
} TuneYardResult;

/* Play the yardstick for w: the session's references, depth and yard_games.
 * The games (their openings and seeds) depend on nothing else, so results
 * are comparable across generations and sessions. Returns 0, 1 when stopped
 * (out incomplete), -1 with a message. */
int tune_yardstick(const TuneControls *c, const Weights *w, int threads, const atomic_bool *stop,
                   TuneYardResult *out, char *err);

/* The Elo of `score` out of n games, clamped as above. */
double tune_yard_elo(double score, int n);

typedef struct TuneIndividual {
    int score;   /* points in the last generation's duels (0 before it played) */
    double step; /* learn: its Gaussian step, a fraction of the session's norm */
    Weights w;
} TuneIndividual;

typedef struct TuneSession {
    TuneControls c;
    int generation;  /* generations completed */
    double elapsed;  /* wall seconds spent playing them, over all runs */
    long long games; /* games played, over all runs */
    uint64_t rng;    /* the session generator's state */
    bool has_best;
    int best_score;      /* the best so far's score in the generation it came from */
    int best_generation; /* that generation (0: carried over by tune_continue) */
    Weights best;
    bool yard_valid; /* yard_last holds the yardstick of yard_of (memory only) */
    Weights yard_of;
    TuneYardResult yard_last;
    TuneIndividual *pop;       /* c.population individuals: the last generation played,
                                * with its scores (or the first one, not yet played) */
    struct WorkerSet *workers; /* not NULL: the generations' games go to these worker
                                * processes too (memory only; the results do not change) */
} TuneSession;

/* A new session: c.population random individuals from c.seed. Returns 0, or
 * -1 with a message (bad controls, out of memory). */
int tune_new(TuneSession *s, const TuneControls *c, char *err);

/* A new session (generation 0, new controls c) whose first population is the
 * population of `from`, and whose best so far is from's. c->population must
 * equal from's. */
int tune_continue(TuneSession *s, const TuneSession *from, const TuneControls *c, char *err);

void tune_free(TuneSession *s);

/* Whether the stop condition is reached. */
bool tune_finished(const TuneSession *s);

typedef struct TuneGenStats {
    int generation; /* 1-based number of the generation just played */
    int games;      /* games played in it, the gladiator duel included */
    double seconds; /* its wall time */
    int best_index; /* the generation's best (first of equals) */
    int best_score;
    double mean_score;
    int max_score;      /* tune_controls_max_score */
    bool duel_played;   /* false for the first best so far or an identical vector */
    int duel_points[2]; /* gladiator duel: the generation's best, the best so far */
    int duel_games;     /* its games (2 for thesis; learn: until the sequential test decides) */
    double mean_step;   /* learn: the mean step of the generation played */
    bool best_changed;  /* the generation's best became the best so far */
    bool yard_played;   /* the yardstick was measured after this generation */
    TuneYardResult yard;
} TuneGenStats;

typedef enum TuneEventKind {
    TUNE_EVENT_GAME,       /* a game of the generation finished (from a worker thread,
                            * never two at a time) */
    TUNE_EVENT_GENERATION, /* a generation finished and the files are written (calling thread) */
} TuneEventKind;

typedef struct TuneEvent {
    TuneEventKind kind;
    int generation;             /* 1-based, the one being played */
    int done, total;            /* TUNE_EVENT_GAME: games finished / planned (total
                                 * counts the gladiator duel's 2 games once there
                                 * is a best so far) */
    const TuneGenStats *stats;  /* TUNE_EVENT_GENERATION */
    const TuneSession *session; /* TUNE_EVENT_GENERATION: the state just saved */
} TuneEvent;

typedef void (*TuneCallback)(const TuneEvent *e, void *user);

/* Play one generation on `threads` threads. Returns 0 when it is done (s
 * holds the new population, scores, best and generator state), 1 when stop
 * became true (s is unchanged: the partial generation is dropped), or -1 with
 * a message (s unchanged). */
int tune_generation(TuneSession *s, int threads, TuneCallback cb, void *user, const atomic_bool *stop,
                    TuneGenStats *st, char *err);

/* What tune_run keeps up to date; any path may be NULL. */
typedef struct TuneFiles {
    const char *pop_path;       /* the population file, rewritten (tmp + rename) */
    const char *csv_path;       /* the log, one line per generation */
    const char *weights_path;   /* the best so far as a weights file (tmp + rename) */
    const char *weights_header; /* comment lines put at the top of the weights file */
} TuneFiles;

/* The header line of the log; a session with yardsticks adds the columns
 * yard_games,yard_score,yard_elo and score_NAME,elo_NAME per reference
 * (scores in %, empty on generations without a measurement). */
#define TUNE_CSV_HEADER \
    "generation,elapsed_s,seconds,games,games_per_s,best_score,mean_score,max_score,duel,best_changed"

/* Run generations until the stop condition or the stop flag. Before the
 * first one the files are written (the population file exists from the
 * start) and log lines of generations beyond s->generation (left by a run
 * killed between writing the log and the population) are dropped; after each
 * generation the log line, the population file and the weights file are
 * written, then the callback gets TUNE_EVENT_GENERATION. Returns 0 when the
 * stop condition is reached, 1 when stopped by the flag (the files hold the
 * last completed generation), -1 with a message. */
int tune_run(TuneSession *s, const TuneFiles *files, int threads, TuneCallback cb, void *user,
             const atomic_bool *stop, char *err);

/* The controls and progress in a few lines ("population 32, duels 0 ..."),
 * for weights-file headers and reports. Returns a malloc'd string or NULL. */
char *tune_describe(const TuneSession *s);

/* ---- population files --------------------------------------------------------
 * Plain text, one item per line, '#' comments and blank lines ignored:
 *
 *   kingme-population 7             format version: this one only (a file of
 *                                   another version is refused in one line)
 *   algorithm learn                 learn or thesis
 *   weights 74                      the vector length, 60 or 74; or 148: the
 *                                   74 opening weights then the 74 ending ones
 *   population 32                   the controls ...
 *   duels 0
 *   depth 4
 *   selection 10
 *   mutation 0.1
 *   init heavy                      learn: heavy or uniform random vectors,
 *   symmetric yes                   antisymmetric vectors (yes or no),
 *   rel_step 0.5                    the relative step
 *   stop generations 100            or: stop seconds 3600
 *   openings ballots                or: openings start
 *   seed 12345
 *   yardstick_every 5               the yardstick's controls
 *   yardstick_games 64
 *   yardstick material.w W1 ... W60 one line per reference, 0..8: 60 or 74
 *                                   weights, whatever the session's, or 148 for
 *                                   a reference with a phase
 *   yardstick_patterns NAME KEY FILE the pattern layer of reference NAME: the
 *                                   weights file it came from and the layer's key
 *                                   (16 hex digits), one line per such reference
 *   patterns KEY FILE               the session's fixed pattern layer, or:
 *                                   patterns none. On reading, FILE (a path as
 *                                   given when the session began, relative to the
 *                                   working folder; 'default' the built-in weights)
 *                                   is read and its layer's key must be KEY.
 *   norm 16384                      the vectors' norm (learn)
 *   generation 5                    progress: generations completed,
 *   elapsed 61.25                   seconds of play,
 *   games 4970                      games played
 *   rng 1f2e3d4c5b6a7988            session generator state (hex)
 *   best_generation 3               where the best so far came from
 *   best 101 W1 ... WN              its score and N weights (N: 'weights'), or:
 *                                   best none
 *   individual 98 S W1 ... WN       one per individual: score, step, N weights
 *   ...
 *   end
 *
 * The keys may come in any order, each once; individual lines exactly
 * `population` times; 'end' last. */

/* Text of s in the format above (malloc'd, NULL when out of memory). */
char *tune_format(const TuneSession *s);

/* Parse text (where names it in messages). Returns 0, or -1 with
 * "WHERE:LINE: what" in err: not a population file, another version
 * ("population file version 5, this kingme reads version 7 only; start a
 * new session"), unknown key, duplicate,
 * bad number, weight out of range, population not a multiple of 4, wrong
 * number of individuals, missing field, truncated file; a pattern layer's
 * file that cannot be read, has no layer, or whose layer's key is not the
 * recorded one. Every vector gets the session's pattern layer. */
int tune_parse(TuneSession *s, const char *text, const char *where, char *err);

int tune_read(TuneSession *s, const char *path, char *err);

/* tune_format, then path.tmp and rename(). */
int tune_write(const TuneSession *s, const char *path, char *err);

#endif
