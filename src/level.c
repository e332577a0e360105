/* level.c - strength levels (level.h). */
#include "kingme/level.h"
#include "kingme/base.h"
#include "kingme/game.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The ladder: nodes of the deeper search, window and temperature in men.
 * Measured Elo of each level: docs/analysis.md. */
static const LevelSpec specs[LEVEL_FULL] = {
    {0, 0, 0}, /* unused */
    {0, 1.0, 0.50},      {300, 0.8, 0.35},     {1000, 0.6, 0.25},    {2500, 0.45, 0.17},   {6000, 0.32, 0.11},
    {15000, 0.22, 0.07}, {35000, 0.14, 0.045}, {70000, 0.08, 0.025}, {140000, 0.04, 0.01},
};

const LevelSpec *level_spec(int level)
{
    if (level < LEVEL_MIN) level = LEVEL_MIN;
    if (level > LEVEL_FULL - 1) level = LEVEL_FULL - 1;
    return &specs[level];
}

typedef struct Ctx {
    Searcher *s;
    uint64_t budget, prev_nodes, prev_cost; /* nodes before the last iteration, its cost */
} Ctx;

/* After each iteration of the deeper search: stop once the next would not
 * fit the budget (its cost guessed from the growth of the last). */
static void on_iteration(const SearchResult *r, void *user)
{
    Ctx *c = user;
    uint64_t last = r->nodes - c->prev_nodes;
    double growth = c->prev_cost ? (double)last / (double)c->prev_cost : 2.5;
    if (growth < 1.5) growth = 1.5;
    if (growth > 6) growth = 6;
    c->prev_nodes = r->nodes;
    c->prev_cost = last ? last : 1;
    if ((double)r->nodes + (double)last * growth > (double)c->budget) atomic_store(&c->s->stop, 1);
}

int level_search(Searcher *s, const Game *g, const SearchLimits *lim, int level, uint64_t *rng,
                 SearchResult *out, LevelInfo *info)
{
    const LevelSpec *sp = level_spec(level);
    SearchLimits l = *lim;
    l.multipv = SEARCH_ALL_MOVES;
    l.infinite = false;
    /* the caller's nodes, when set, only cap (a session's node budget) */
    uint64_t cap = lim->nodes;
    l.nodes = cap;
    /* the first of equal moves (the draw below chooses), and the searcher's
     * own settings back afterwards */
    SearchSwitches use = s->use, exact = s->use;
    int tiebreak = s->tiebreak;
    const struct Egdb *db = s->egdb;
    search_set_tiebreak(s, TIEBREAK_FIRST);
    if (level < LEVEL_DATABASE) search_set_egdb(s, NULL); /* endings by search, as a person plays them */
    /* 1. the safety search: exact (no reduction or pruning may hide a shot) */
    SearchLimits ls = l;
    search_switches_exact(&exact);
    search_set_switches(s, &exact);
    ls.depth = LEVEL_SAFE_DEPTH;
    int rc = search_game(s, g, &ls, out, NULL, NULL);
    search_set_switches(s, &use);
    if (rc) {
        search_set_tiebreak(s, tiebreak);
        search_set_egdb(s, db);
        return -1;
    }
    int nsafe = out->nlines;
    Move safe_move[MAX_MOVES];
    int32_t safe_score[MAX_MOVES];
    for (int k = 0; k < nsafe; k++) {
        safe_move[k] = out->lines[k].move;
        safe_score[k] = out->lines[k].score;
    }
    if (out->depth < LEVEL_SAFE_DEPTH) nsafe = 0; /* stopped early: nothing is ruled out */
    /* 2. the deeper search within the budget, a whole iteration at a time;
     * the node limit only catches an iteration far beyond it */
    if (sp->nodes) {
        Ctx c = {s, sp->nodes, 0, 0};
        if (l.depth > 0 && l.depth < LEVEL_SAFE_DEPTH) l.depth = LEVEL_SAFE_DEPTH;
        l.nodes = cap && cap < 4 * sp->nodes ? cap : 4 * sp->nodes;
        rc = search_game(s, g, &l, out, on_iteration, &c);
    }
    search_set_tiebreak(s, tiebreak);
    search_set_egdb(s, db);
    if (rc) return -1;
    LevelInfo in = {0, 0, 0, 0};
    if (!out->has_move || !out->nlines) {
        if (info) *info = in;
        return 0;
    }
    const SearchLine *L = out->lines;
    int n = out->nlines;
    int32_t best = L[0].score;
    in.best = best;
    double man = abs(s->weights.w[EP_own_men]);
    if (man < 1) man = 1;
    int32_t safe_best = -SCORE_INF;
    for (int k = 0; k < nsafe; k++)
        if (safe_score[k] > safe_best) safe_best = safe_score[k];
    double weight[MAX_MOVES];
    double sum = 0;
    for (int k = 0; k < n; k++) {
        weight[k] = 0;
        bool proven = best >= SCORE_DB_MIN || best <= -SCORE_DB_MIN || L[k].score <= -SCORE_DB_MIN;
        if (k > 0 && proven) continue; /* a won or lost game is played as the search plays it */
        bool safe = nsafe == 0;
        for (int j = 0; j < nsafe; j++)
            if (mg_move_equal(&safe_move[j], &L[k].move))
                safe = safe_score[j] >= safe_best - (int32_t)(LEVEL_SAFE_MARGIN * man);
        if (!safe) in.unsafe++;
        double behind = (double)(best - L[k].score) / man;
        if (k > 0 && (!safe || behind > sp->window)) continue;
        weight[k] = sp->temperature > 0 ? exp(-behind / sp->temperature) : (k == 0);
        sum += weight[k];
        in.candidates++;
    }
    int pick = 0;
    if (sum > 0 && in.candidates > 1) {
        double u = (double)(km_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0) * sum;
        for (pick = 0; pick < n - 1; pick++) {
            if (u < weight[pick]) break;
            u -= weight[pick];
        }
        while (pick > 0 && weight[pick] == 0) pick--;
    }
    in.rank = pick + 1;
    const SearchLine *ch = &L[pick];
    out->best = ch->move;
    out->score = ch->score;
    out->pv_len = ch->pv_len;
    memcpy(out->pv, ch->pv, (size_t)ch->pv_len * sizeof(Move));
    if (info) *info = in;
    return 0;
}
