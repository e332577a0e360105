/* referee.h - one engine-vs-engine game: the settings of a match, the two
 * players (weight vectors searched in this process, or engine processes
 * speaking the kingme engine protocol), the referee that plays the game and
 * gives it to the opponent of a player that forfeits, and the outcome.
 *
 * Determinism: a game depends only on its two weight vectors, its opening,
 * the search limits and its seed (when the limits are a depth, not a time). */
#ifndef KINGME_REFEREE_H
#define KINGME_REFEREE_H

#include "kingme/game.h"
#include "kingme/opening.h"
#include "kingme/search.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define MATCH_PLY_CAP 200 /* a game still going after this many plies is a draw */
#define MATCH_PLY_NONE                                                  \
    100000 /* a cap no game reaches: the forty-move rule ends each game \
            * within (24 captures + 168 man steps + 1) x 80 plies */
#define MATCH_HASH_MB                                       \
    4 /* default table per player: plenty for depth 10, and \
       * clearing it for every game stays cheap */
#define MATCH_TIMEOUT                                                            \
    60.0                /* an engine with no bestmove this long (beyond its time \
                         * per move, if any) under a depth or time limit has hung */
#define MATCH_GRACE 1.0 /* under a clock: no bestmove by the clock + this is a hang */

/* A side of a match: a weight vector searched in this process, or another
 * engine process speaking the kingme engine protocol. */
typedef struct MatchSide {
    const char *name;       /* for messages and the PDN tags */
    const Weights *weights; /* in process, when command is NULL */
    const char *command;    /* an engine process: run with /bin/sh -c COMMAND */
} MatchSide;

typedef struct MatchSettings {
    SearchLimits limits;     /* per move: depth, seconds or nodes */
    SearchSwitches use;      /* the in-process players' techniques */
    int tiebreak;            /* theirs and the engine processes' (option tiebreak) */
    const struct Egdb *egdb; /* the in-process players' endgame database (NULL: none) */
    double tc_base, tc_inc;  /* a game clock instead, when tc_base > 0: seconds for the
                              * game and seconds added after each move */
    double timeout;          /* depth / time limits: an engine hangs after its time per move
                              * + this (0: MATCH_TIMEOUT) */
    double grace;            /* clock: no bestmove by clock + grace is a hang (0: MATCH_GRACE) */
    int ply_cap;             /* 0: MATCH_PLY_CAP; MATCH_PLY_NONE: none; counts the opening's plies too */
    size_t hash_mb;          /* per player (or per game with share_table); 0: no table */
    bool share_table;        /* one table of hash_mb per game in progress, shared by its
                              * in-process players (keys never mix weight vectors or sides):
                              * half the memory, and one clearing per game instead of two */
    bool engine_hash;        /* also send `option hash hash_mb` to engine processes */
    const MatchSide *sides;  /* NULL: the games are between the weight vectors of the specs */
    int nsides;
    const struct Book *book; /* the opening book of the in-process sides of `sides` (NULL:
                              * none; engines have their own): while the position is in it,
                              * they play its move instead of searching */
    double book_variety;     /* a move within this many men of the book's best, drawn by the
                              * game's seed (0: the best) */

    /* with sides: the search parameters (search_params.h) of each in-process
     * side, nsides of them (NULL: every one the defaults) */
    const SearchParams *side_params;
} MatchSettings;

/* Defaults: no limit (the caller sets depth or seconds), every technique,
 * random tie-breaks, no database, MATCH_PLY_CAP, MATCH_HASH_MB, no clock, no
 * sides. */
void referee_settings_default(MatchSettings *s);

typedef struct MatchGameSpec {
    const Weights *black, *white; /* the players when the settings have no sides */
    const Opening *opening;       /* NULL: the initial position */
    uint64_t seed;                /* random tie-breaks of both players */
    int side[2];                  /* with sides: [KM_BLACK], [KM_WHITE] index the settings' sides */
} MatchGameSpec;

/* Why a game was forfeited. The referee (referee_play_game) gives the game to
 * the opponent of a player that does one of these. */
typedef enum MatchForfeit {
    FORFEIT_NONE = 0,
    FORFEIT_TIME,     /* its clock fell below zero */
    FORFEIT_ILLEGAL,  /* an illegal or unreadable move */
    FORFEIT_CRASH,    /* the engine exited or closed its output */
    FORFEIT_PROTOCOL, /* a line the protocol does not allow, an error answer */
    FORFEIT_HANG,     /* no answer within the clock + grace (or the timeout) */
    FORFEIT_COUNT
} MatchForfeit;

/* "time forfeit", "illegal move", "crash", "protocol error", "hang" ("" for none). */
const char *referee_forfeit_text(MatchForfeit f);

typedef struct MatchOutcome {
    GameResult result; /* GAME_ONGOING: not played (stopped before or during) */
    GameReason reason; /* REASON_ADJUDICATED for a forfeit */
    int nply;
    Game game; /* the whole game when keep_games, else all zero (but
                * always valid during the progress callback) */
    MatchForfeit forfeit;
    int forfeit_side;      /* KM_BLACK or KM_WHITE: who forfeited */
    char termination[160]; /* for the PDN Termination tag: game_reason_text, or
                            * "illegal move: White played '9-14'..." */
    double min_left[2];    /* per colour: the least time left on its clock after a
                            * move (before the increment); INFINITY without a clock */
    int min_left_ply[2];   /* the ply (1-based, opening included) of that move */
    int timed_moves[2];    /* per colour, under a clock: moves charged to it, */
    double time_used[2];   /* the seconds they took, */
    double end_left[2];    /* and its clock when the game ended */
} MatchOutcome;

/* Play one game into o (o->game is initialised here; free it with game_free
 * even on error). The result follows game.h's rules; at the ply cap the game
 * is a draw with REASON_PLY_CAP; a forfeit gives it to the other side. stop
 * (may be NULL) is checked between moves and while an engine thinks: a
 * stopped game is left GAME_ONGOING. Engine sides are started for this game
 * and stopped after it. Returns 0, or -1 with a message (out of memory, an
 * illegal opening, an engine that does not start). */
int referee_play_game(const MatchSettings *set, const MatchGameSpec *spec, MatchOutcome *o,
                      const atomic_bool *stop, char *err);

/* The seed of game `index` of a series seeded with `seed` (a mixing hash). */
uint64_t referee_game_seed(uint64_t seed, uint64_t index);

/* What one thread plays its games with, kept from game to game: a Searcher
 * per colour for the in-process players, and a process per engine side of
 * the settings (started by referee_players_new, so that an engine that cannot
 * start stops a match before any game; restarted before its next game when
 * it misbehaved). */
typedef struct MatchPlayers MatchPlayers;

/* Returns the players, or NULL with a message. */
MatchPlayers *referee_players_new(const MatchSettings *set, char *err);
/* Stops the engine processes and frees. NULL is fine. */
void referee_players_free(MatchPlayers *P);
/* As referee_play_game, on players made by referee_players_new with the same
 * settings (o->game is initialised here). */
int referee_players_play(MatchPlayers *P, const MatchSettings *set, const MatchGameSpec *spec,
                         MatchOutcome *o, const atomic_bool *stop, char *err);

#endif
