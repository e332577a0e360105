/* tune_search.h - a genetic algorithm over the search's parameters
 * (search_params.h), by self-play against the defaults.
 *
 * What it breeds: the parameters the session tunes (all of the list but the
 * ProbCut margin's measurement and the assumed margin; the time manager's
 * only when the games are played on a game clock, the one budget where they
 * act), every individual with the same weights.
 *
 * One generation: every individual plays `games` games against the
 * yardstick, the default parameters (games/2 ballots, each with both
 * colours, the same ballots for every individual of the generation, drawn
 * afresh each generation), at a budget per move: a number of nodes
 * (deterministic, fair whatever the load), a fixed time, or a game clock.
 * Each individual keeps its record against the defaults (W/D/L) over every
 * generation it played, and is ranked by the lower end of the 95% interval
 * of the Elo of that record (elo.h): an individual lucky in one generation
 * has a wide interval and ranks low until its luck survives more games.
 * The next generation: the leader (below) and the `elite` - 1 best-ranked
 * others kept unchanged, and so played (and judged) again; the rest children of parents picked by tournament
 * (the best of `tournament` drawn), each parameter from either parent, then each tuned parameter mutated with
 * chance `mutation` (a switch flipped; a number moved by sigma x its default x N(0,1), a whole one by 1 at
 * least). The first population is the defaults and mutations of them.
 *
 * The leader (the best-ranked individual that has played two generations or
 * more) is not the result: tune_search_confirm plays it against the defaults
 * until an SPRT (elo0 0, elo1 `confirm_elo`, alpha = beta = 0.05) decides or
 * `confirm` games are played; only a leader the test accepts is the best.
 *
 * Determinism: every random choice comes from the session generator, in the
 * same order; each game's seed is a hash of the seed, the generation and
 * the game's index. With a node budget a session gives the same population
 * whatever the number of threads, and a session resumed from its file
 * continues exactly as if never stopped.
 *
 * The library prints nothing. */
#ifndef KINGME_TUNE_SEARCH_H
#define KINGME_TUNE_SEARCH_H

#include "kingme/eval.h"
#include "kingme/search_params.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define TS_FORMAT_VERSION 1
#define TS_MAGIC "kingme-search-population"
#define TS_MAX_POPULATION 256
#define TS_MAX_GAMES 288 /* per individual and generation: each crossboard ballot twice */
#define TS_HASH_MB 4     /* per player */

typedef enum TsBudget { TS_BUDGET_NODES = 0, TS_BUDGET_TIME = 1, TS_BUDGET_CLOCK = 2 } TsBudget;

typedef struct TsControls {
    int population; /* 4 .. TS_MAX_POPULATION */
    int elite;      /* kept unchanged, the leader first (1 .. population - 1) */
    int games;      /* per individual and generation, even, 2 .. TS_MAX_GAMES */
    int tournament; /* 1 .. population */
    double sigma;   /* a number's step: this fraction of its default (0 < sigma <= 4) */
    double mutation;
    TsBudget budget;
    uint64_t nodes;         /* TS_BUDGET_NODES: per move */
    double seconds;         /* TS_BUDGET_TIME: per move */
    double tc_base, tc_inc; /* TS_BUDGET_CLOCK: seconds for the game, added per move */
    int generations;        /* stop after this many (over all runs) */
    uint64_t seed;
    int confirm;        /* most games of the confirmation (even; 0: none) */
    double confirm_elo; /* its H1 */
    bool tuned[SEARCH_NPARAMS];
} TsControls;

/* 12 individuals, elite 4, 8 games, tournament 2, sigma 0.15, mutation
 * 0.3, 20000 nodes a move, 10 generations, seed 1, confirmation 400 games
 * against +10; tuned: ts_tuned_default. */
void ts_controls_default(TsControls *c);
/* Which parameters a session tunes by default for a budget. */
void ts_tuned_default(TsBudget budget, bool tuned[SEARCH_NPARAMS]);
/* Whether the controls are usable; -1 with a message. */
int ts_controls_check(const TsControls *c, char *err);

typedef struct TsIndividual {
    int id;         /* 0: the defaults; then in order of birth */
    int born;       /* the generation it was made for (1: the first) */
    int w, d, l;    /* against the defaults, over every generation it played */
    int gw, gd, gl; /* in the last generation (0 0 0: not played yet) */
    SearchParams p;
} TsIndividual;

/* Its rank: the lower end of its record's 95% Elo interval (-1e9 with no game). */
double ts_rank(const TsIndividual *x);

typedef struct TsSession {
    TsControls c;
    int generation;  /* generations completed */
    double elapsed;  /* wall seconds of play, over all runs */
    long long games; /* games played, over all runs */
    uint64_t rng;
    int next_id;
    TsIndividual *pop; /* c.population: the last generation played, with its records */
    /* the confirmation: none yet (confirmed_id -1), or the leader it
     * measured, its record and whether the test accepted it */
    int confirmed_id;
    int cw, cd, cl;
    bool accepted;
    SearchParams confirmed;
    /* the worker processes the games are shared with besides the local
     * threads (workers.h), or NULL; not part of the session's file */
    struct WorkerSet *workers;
} TsSession;

int ts_new(TsSession *s, const TsControls *c, char *err);
void ts_free(TsSession *s);
bool ts_finished(const TsSession *s);

/* The leader: the best-ranked individual with two generations played or
 * more (else the best-ranked), its index in pop. */
int ts_leader(const TsSession *s);

typedef struct TsGenStats {
    int generation; /* 1-based */
    int games;
    double seconds;
    TsIndividual leader; /* ts_leader after the games (before the next generation is bred) */
    double pop_score;    /* the population's mean score against the defaults (0..1) */
} TsGenStats;

/* progress: a game of the generation finished (done of total; never two at
 * a time). */
typedef void (*TsProgress)(int done, int total, void *user);

/* Play one generation (the current population's games) and breed the next
 * (the leader and the elite first, with their records; the children with
 * none).
 * Returns 0, 1 when stop became true (s unchanged), -1 with a message.
 * weights: every player's. threads: games at once. */
int ts_generation(TsSession *s, const Weights *weights, int threads, TsProgress cb, void *user,
                  const atomic_bool *stop, TsGenStats *st, char *err);

/* The confirmation of the leader (ts_leader) against the defaults: up to
 * c.confirm games in batches of 2 x threads ballots with both colours,
 * until the SPRT decides. Sets the session's confirmation. Returns 0, 1 when
 * stopped (nothing set), -1 with a message. */
int ts_confirm(TsSession *s, const Weights *weights, int threads, TsProgress cb, void *user,
               const atomic_bool *stop, char *err);

/* ---- the session file --------------------------------------------------------
 *   kingme-search-population 1
 *   population 12 / elite 4 / games 8 / tournament 2 / sigma 0.15 /
 *   mutation 0.3 / budget nodes 20000 (or: time 0.05, clock 10 0.1) /
 *   generations 10 / seed 1 / confirm 400 10
 *   tuned NAME NAME ...         the parameters bred
 *   params NAME NAME ...        the order of the values below (every parameter)
 *   generation 3 / elapsed 81.5 / games 288 / rng HEX / next_id 40
 *   confirmation none           or: confirmation ID W D L yes|no V1 ... VN
 *   individual ID BORN W D L GW GD GL V1 ... VN   (population times)
 *   end
 * '#' comments and blank lines ignored. */
char *ts_format(const TsSession *s);
int ts_parse(TsSession *s, const char *text, const char *where, char *err);
int ts_read(TsSession *s, const char *path, char *err);
int ts_write(const TsSession *s, const char *path, char *err);

#endif
