/* game.h - a game record: start position, moves, repetition, the 40-move
 * rule and the result. */
#ifndef KINGME_GAME_H
#define KINGME_GAME_H

#include "kingme/movegen.h"

/* The forty-move rule (WCDF/ACF): 40 moves each (80 plies) in which no man
 * moved and nothing was captured is a draw. */
#define GAME_REVERSIBLE_LIMIT 80

typedef enum GameResult {
    GAME_ONGOING = 0,
    GAME_BLACK_WINS,
    GAME_WHITE_WINS,
    GAME_DRAW,
} GameResult;

typedef enum GameReason {
    REASON_NONE = 0,
    REASON_NO_MOVES,    /* the side to move has no legal move (or no pieces) */
    REASON_REPETITION,  /* the same position, same side to move, a third time */
    REASON_FORTY_MOVES, /* 80 plies without a capture or a man move */
    REASON_PLY_CAP,     /* an engine game reached its configured ply cap */
    REASON_ADJUDICATED, /* set by the caller (resignation, agreement, PDN result) */
} GameReason;

typedef struct Game {
    Board start;         /* the position the game started from */
    Board cur;           /* the position now */
    Move *moves;         /* moves played, nply of them */
    uint64_t *keys;      /* keys[i] = hash of the position before ply i; keys[nply] = now */
    uint8_t *reversible; /* reversible[i]: plies without a capture or man move before position i */
    int nply, cap;
    GameResult result;
    GameReason reason;
} Game;

/* Start a game from b (NULL: the initial position). Returns 0, or -1 when
 * out of memory. */
int game_init(Game *g, const Board *b);
void game_free(Game *g);

/* Play a legal move (it is not checked: callers resolve text with
 * notation_parse_move, or take moves from mg_moves). Updates the result.
 * Returns 0, or -1 when out of memory. */
int game_play(Game *g, const Move *m);

/* Take back the last ply (returns false at the start). */
bool game_undo(Game *g);

/* Plies since the last capture or man move (or the start): the forty-move
 * rule's count, and how far back a position can repeat. */
int game_reversible_plies(const Game *g);

/* How many times the current position occurred before (same side to move),
 * looking back only as far as the last capture or man move. */
int game_repetitions(const Game *g);

/* Recompute g->result / g->reason for the current position. */
void game_update_result(Game *g);

const char *game_result_text(GameResult r); /* "1-0", "0-1", "1/2-1/2", "*" */
const char *game_reason_text(GameReason r); /* "no legal moves", ... */

#endif
