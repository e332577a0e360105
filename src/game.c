/* game.c - game records and the end-of-game rules. */
#include "kingme/game.h"

#include <stdlib.h>
#include <string.h>

static int grow(Game *g)
{
    int cap = g->cap ? g->cap * 2 : 128;
    Move *m = realloc(g->moves, (size_t)cap * sizeof *m);
    if (!m) return -1;
    g->moves = m;
    uint64_t *k = realloc(g->keys, (size_t)(cap + 1) * sizeof *k);
    if (!k) return -1;
    g->keys = k;
    uint8_t *q = realloc(g->reversible, (size_t)(cap + 1));
    if (!q) return -1;
    g->reversible = q;
    g->cap = cap;
    return 0;
}

int game_init(Game *g, const Board *b)
{
    memset(g, 0, sizeof *g);
    board_hash_init();
    if (b) g->start = *b;
    else board_init(&g->start);
    g->cur = g->start;
    if (grow(g)) {
        game_free(g);
        return -1;
    }
    g->keys[0] = board_hash(&g->cur);
    g->reversible[0] = 0;
    game_update_result(g);
    return 0;
}

void game_free(Game *g)
{
    free(g->moves);
    free(g->keys);
    free(g->reversible);
    memset(g, 0, sizeof *g);
}

int game_play(Game *g, const Move *m)
{
    if (g->nply >= g->cap && grow(g)) return -1;
    /* the official forty-move rule: a capture or any move of an uncrowned man
     * restarts the count; both are irreversible, so they also end the
     * repetition window */
    bool reset = mg_move_resets_count(&g->cur, m);
    g->moves[g->nply] = *m;
    mg_make_move(&g->cur, m);
    g->nply++;
    g->keys[g->nply] = board_hash(&g->cur);
    int q = reset ? 0 : g->reversible[g->nply - 1] + 1;
    g->reversible[g->nply] = (uint8_t)(q > 255 ? 255 : q);
    game_update_result(g);
    return 0;
}

bool game_undo(Game *g)
{
    if (g->nply == 0) return false;
    g->nply--;
    g->cur = g->start;
    for (int i = 0; i < g->nply; i++) mg_make_move(&g->cur, &g->moves[i]);
    game_update_result(g);
    return true;
}

int game_reversible_plies(const Game *g) { return g->reversible[g->nply]; }

int game_repetitions(const Game *g)
{
    int n = 0;
    uint64_t k = g->keys[g->nply];
    /* positions with the same side to move are an even number of plies back;
     * a capture makes every earlier position unreachable */
    int q = g->reversible[g->nply];
    for (int i = g->nply - 2; i >= 0 && i >= g->nply - q; i -= 2)
        if (g->keys[i] == k) n++;
    return n;
}

void game_update_result(Game *g)
{
    g->result = GAME_ONGOING;
    g->reason = REASON_NONE;
    if (mg_count_moves(&g->cur) == 0) {
        g->result = g->cur.stm == KM_BLACK ? GAME_WHITE_WINS : GAME_BLACK_WINS;
        g->reason = REASON_NO_MOVES;
    } else if (game_repetitions(g) >= 2) {
        g->result = GAME_DRAW;
        g->reason = REASON_REPETITION;
    } else if (game_reversible_plies(g) >= GAME_REVERSIBLE_LIMIT) {
        g->result = GAME_DRAW;
        g->reason = REASON_FORTY_MOVES;
    }
}

const char *game_result_text(GameResult r)
{
    switch (r) {
    case GAME_BLACK_WINS:
        return "1-0";
    case GAME_WHITE_WINS:
        return "0-1";
    case GAME_DRAW:
        return "1/2-1/2";
    default:
        return "*";
    }
}

const char *game_reason_text(GameReason r)
{
    switch (r) {
    case REASON_NO_MOVES:
        return "no legal moves";
    case REASON_REPETITION:
        return "threefold repetition";
    case REASON_FORTY_MOVES:
        return "40 moves each without a capture or a man move";
    case REASON_PLY_CAP:
        return "ply cap reached";
    case REASON_ADJUDICATED:
        return "adjudicated";
    default:
        return "";
    }
}
