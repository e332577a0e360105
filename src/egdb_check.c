/* egdb_check.c - an independent check of the database on a sample: every
 * position that king moves reach from a given one (the men stay where they
 * are, both sides to move), solved again by plain forward iteration, and
 * compared with what the database says of each.
 *
 * The solver shares nothing with the builder but the move generator: no
 * index, no un-moves, no queues. The positions are found by following the
 * moves from the start into a hash table; a capture, man move or crowning
 * leaves the set, and the database gives the value of the position it
 * reaches (for that one value the check trusts the database, smaller or
 * with men elsewhere). Values are then iterated to a fixed point (won when a
 * move reaches a lost position, lost when every move reaches a won one, a
 * draw when never decided), and distances to conversion pass by pass, each
 * pass deciding only from what earlier passes decided. That is the solver
 * the tests hold the 3-piece database to, here on 6-piece positions the
 * database builds by another road. */
#include "egdb_impl.h"

#include <stdlib.h>
#include <string.h>

typedef struct CheckPos {
    uint32_t b, w, k;
    uint8_t stm, used;
    uint8_t val, dtc; /* val 0: open; dtc 255: unknown */
    uint32_t first;   /* its successors in the component: succ[first .. first + nsucc) */
    uint8_t nsucc;
    uint8_t nmoves;
    uint8_t exit_loss, exit_draw, exit_win; /* conversions reaching a lost, drawn, won position */
} CheckPos;

typedef struct CheckTable {
    CheckPos *pos;
    uint32_t mask, count;
} CheckTable;

static uint32_t slot_of(const CheckTable *t, const Board *b)
{
    uint64_t h =
        km_mix64(((uint64_t)b->pieces[0] << 32 | b->pieces[1]) ^ km_mix64(b->kings * 2u + (uint32_t)b->stm));
    uint32_t i = (uint32_t)h & t->mask;
    for (;;) {
        const CheckPos *p = &t->pos[i];
        if (!p->used ||
            (p->b == b->pieces[0] && p->w == b->pieces[1] && p->k == b->kings && p->stm == b->stm))
            return i;
        i = (i + 1) & t->mask;
    }
}

static void board_of(const CheckPos *p, Board *b)
{
    b->pieces[0] = p->b;
    b->pieces[1] = p->w;
    b->kings = p->k;
    b->stm = p->stm;
}

static inline bool conversion(const Board *b, const Move *m)
{
    return m->captured || !(b->kings & (1u << m->from));
}

int egdb_check_component(const Egdb *db, const Board *start, uint32_t max_positions, EgdbCheck *out,
                         char *err)
{
    memset(out, 0, sizeof *out);
    if (egdb_probe(db, start, NULL) == EGDB_UNKNOWN)
        return km_fail(err, "the position is beyond the database");
    uint32_t cap = 1024;
    while (cap < 2 * (uint64_t)max_positions) cap *= 2;
    CheckTable t = {calloc(cap, sizeof(CheckPos)), cap - 1, 0};
    uint32_t *order = malloc((size_t)max_positions * sizeof *order); /* slots in the order found */
    size_t succ_cap = 1 << 16, nsucc = 0;
    uint32_t *succ = malloc(succ_cap * sizeof *succ);
    int rc = 0;
    if (!t.pos || !order || !succ) {
        rc = km_fail(err, "out of memory");
        goto done;
    }
    /* the component, breadth first; each position's moves once */
    uint32_t s0 = slot_of(&t, start);
    t.pos[s0] = (CheckPos){.b = start->pieces[0],
                           .w = start->pieces[1],
                           .k = start->kings,
                           .stm = (uint8_t)start->stm,
                           .used = 1,
                           .dtc = 255};
    order[t.count++] = s0;
    for (uint32_t q = 0; q < t.count; q++) {
        CheckPos *p = &t.pos[order[q]];
        Board b;
        board_of(p, &b);
        MoveList ml;
        int n = mg_moves(&b, &ml);
        p->nmoves = (uint8_t)n;
        p->first = (uint32_t)nsucc;
        for (int i = 0; i < n; i++) {
            Board c = b;
            mg_make_move(&c, &ml.moves[i]);
            if (conversion(&b, &ml.moves[i])) {
                int v = egdb_probe(db, &c, NULL);
                if (v == EGDB_UNKNOWN) {
                    rc = km_fail(err, "a conversion leaves the database");
                    goto done;
                }
                p = &t.pos[order[q]];
                p->exit_loss += v == EGDB_LOSS;
                p->exit_draw += v == EGDB_DRAW;
                p->exit_win += v == EGDB_WIN;
                continue;
            }
            uint32_t s = slot_of(&t, &c);
            if (!t.pos[s].used) {
                if (t.count == max_positions) {
                    rc = km_fail(err, "more than %u positions", (unsigned)max_positions);
                    goto done;
                }
                t.pos[s] = (CheckPos){.b = c.pieces[0],
                                      .w = c.pieces[1],
                                      .k = c.kings,
                                      .stm = (uint8_t)c.stm,
                                      .used = 1,
                                      .dtc = 255};
                order[t.count++] = s;
            }
            if (nsucc == succ_cap) {
                uint32_t *m = realloc(succ, 2 * succ_cap * sizeof *succ);
                if (!m) {
                    rc = km_fail(err, "out of memory");
                    goto done;
                }
                succ = m;
                succ_cap *= 2;
            }
            succ[nsucc++] = s;
            p = &t.pos[order[q]];
            p->nsucc++;
        }
    }
    /* values, to a fixed point */
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t q = 0; q < t.count; q++) {
            CheckPos *p = &t.pos[order[q]];
            if (p->val) continue;
            bool win = p->exit_loss > 0;
            int wins = p->exit_win;
            for (int j = 0; j < p->nsucc && !win; j++) {
                int v = t.pos[succ[p->first + j]].val;
                win = v == EGDB_LOSS;
                wins += v == EGDB_WIN;
            }
            if (win || wins == p->nmoves) {
                p->val = win ? EGDB_WIN : EGDB_LOSS;
                changed = true;
            }
        }
    }
    /* distances, pass t deciding from the passes before it only */
    for (int pass = 0; pass < 250; pass++) {
        bool changed = false;
        for (uint32_t q = 0; q < t.count; q++) {
            CheckPos *p = &t.pos[order[q]];
            if (!p->val) p->val = EGDB_DRAW;
            if (p->dtc != 255 || p->val == EGDB_DRAW) continue;
            int best = -1;
            bool all = true;
            if (p->val == EGDB_WIN && p->exit_loss) best = 0;
            for (int j = 0; j < p->nsucc; j++) {
                const CheckPos *c = &t.pos[succ[p->first + j]];
                int key = c->dtc != 255 && c->dtc < pass ? c->dtc : -1;
                if (p->val == EGDB_WIN) {
                    if (c->val == EGDB_LOSS && key >= 0 && (best < 0 || key < best)) best = key;
                } else if (key < 0) all = false;
                else if (key > best) best = key;
            }
            if (p->val == EGDB_LOSS && p->nmoves > p->nsucc && best < 0) best = 0; /* conversions: 0 */
            if (p->val == EGDB_WIN ? best >= 0 : all) {
                p->dtc = (uint8_t)(p->nmoves ? best + 1 : 0);
                changed = true;
            }
        }
        if (!changed && pass > 2) break;
    }
    /* what the database says of each */
    for (uint32_t q = 0; q < t.count; q++) {
        const CheckPos *p = &t.pos[order[q]];
        Board b;
        board_of(p, &b);
        int d, v = egdb_probe(db, &b, &d);
        out->positions++;
        out->wins += p->val == EGDB_WIN;
        out->losses += p->val == EGDB_LOSS;
        out->draws += p->val == EGDB_DRAW;
        if (p->val != EGDB_DRAW && p->dtc > out->longest) out->longest = p->dtc;
        if (v != p->val || (v != EGDB_DRAW && d != p->dtc)) {
            if (!out->mismatches) {
                out->bad = b;
                out->bad_value = v;
                out->bad_dist = d;
                out->want_value = p->val;
                out->want_dist = p->dtc;
            }
            out->mismatches++;
        }
    }
done:
    free(t.pos);
    free(order);
    free(succ);
    return rc;
}
