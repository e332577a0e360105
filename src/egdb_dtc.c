/* egdb_dtc.c - egdb_probe, one layer above the files (egdb_file.c, which
 * calls nothing here): the distances to conversion a file does not keep,
 * found by a short search over what it keeps, and what needs exact
 * distances: the database's move and the consistency check.
 *
 * For b of value v that has moves, DTC(b) <= j when
 *   v a win:  some move reaches a lost position and is a conversion (a
 *             capture, man move or crowning) or leaves a DTC <= j - 1;
 *   v a loss: j >= 1 and every move is a conversion or leaves a DTC <= j - 1.
 * A kept DTC answers at once, and so does a short win (DTC at most
 * EGDB_SHORT_DTC) for j >= EGDB_SHORT_DTC. The search therefore goes below a
 * position only through short wins and the losses between them, at most
 * EGDB_SHORT_DTC plies deep: a few hundred probes at most, most of them in
 * blocks the cache already holds. */
#include "egdb_impl.h"

/* A bound on that search when a move's clock runs: every probe counts, the
 * clock is read every 64, and past the deadline the search gives up (then
 * the caller searches the position as any other). deadline 0: none. */
typedef struct Budget {
    double deadline;
    unsigned probes;
    bool out;
} Budget;

static int probe_code(const Egdb *db, const Board *b, int *d, bool *exact, Budget *bu)
{
    if (bu && bu->deadline > 0 && (++bu->probes & 63) == 0 && km_now() >= bu->deadline) bu->out = true;
    return egdb_probe_code(db, b, d, exact);
}

static inline bool is_conversion(const Board *b, const Move *m)
{
    return m->captured || !(b->kings & (1u << m->from));
}

/* Whether DTC(b) <= j; v, d, exact: b's egdb_probe_code. bu (may be NULL):
 * the budget; once it is out the answer means nothing. */
static bool dtc_within(const Egdb *db, const Board *b, int v, int d, bool exact, int j, Budget *bu)
{
    if (bu && bu->out) return false;
    if (exact) return d <= j;
    if (v == EGDB_WIN && d <= j) return true; /* d: the bound of a short win */
    MoveList ml;
    int n = mg_moves(b, &ml);
    if (n == 0) return j >= 0; /* a loss without a move: DTC 0 */
    if (j <= 0) return false;
    for (int i = 0; i < n; i++) {
        const Move *m = &ml.moves[i];
        Board c = *b;
        mg_make_move(&c, m);
        int cd;
        bool cex;
        int cv = probe_code(db, &c, &cd, &cex, bu);
        if (v == EGDB_WIN) {
            if (cv == EGDB_LOSS && (is_conversion(b, m) || dtc_within(db, &c, cv, cd, cex, j - 1, bu)))
                return true;
        } else if (!is_conversion(b, m) && (cv != EGDB_WIN || !dtc_within(db, &c, cv, cd, cex, j - 1, bu)))
            return false;
    }
    return v != EGDB_WIN;
}

/* The DTC of b, of value v (EGDB_WIN or EGDB_LOSS) by egdb_probe_code with
 * d and exact, searching when the file does not keep it. bu (may be NULL):
 * the probes' budget. */
static int dtc_exact(const Egdb *db, const Board *b, int v, int d, bool exact, Budget *bu)
{
    if (exact || (v != EGDB_WIN && v != EGDB_LOSS)) return d;
    if (v == EGDB_WIN) {
        for (int k = 1; k < d; k++)
            if (dtc_within(db, b, v, d, exact, k, bu)) return k;
        return d;
    }
    /* a loss: one more than the longest of its moves' */
    MoveList ml;
    int n = mg_moves(b, &ml), longest = 0;
    if (n == 0) return 0;
    for (int i = 0; i < n; i++) {
        const Move *m = &ml.moves[i];
        if (is_conversion(b, m)) continue;
        Board c = *b;
        mg_make_move(&c, m);
        int cd;
        bool cex;
        int cv = probe_code(db, &c, &cd, &cex, bu);
        int key = dtc_exact(db, &c, cv, cd, cex, bu);
        if (key > longest) longest = key;
    }
    return longest + 1;
}

int egdb_probe(const Egdb *db, const Board *b, int *dist)
{
    int d;
    bool exact;
    int v = egdb_probe_code(db, b, &d, &exact);
    if (dist) *dist = exact || v == EGDB_UNKNOWN ? d : dtc_exact(db, b, v, d, exact, NULL);
    return v;
}

int egdb_best_move(const Egdb *db, const Board *b, Move *best, int *dist)
{
    return egdb_best_move_by(db, b, 0, best, dist);
}

int egdb_best_move_by(const Egdb *db, const Board *b, double deadline, Move *best, int *dist)
{
    Budget budget = {deadline, 0, false}, *bu = deadline > 0 ? &budget : NULL;
    int d;
    bool exact;
    int v = egdb_probe_code(db, b, &d, &exact);
    if (v != EGDB_UNKNOWN && !exact) d = dtc_exact(db, b, v, d, exact, bu);
    if (dist) *dist = d;
    if (v == EGDB_UNKNOWN || budget.out) return EGDB_UNKNOWN;
    /* the first move of least DTC that keeps a win, the first drawing move,
     * the first losing move of largest DTC: a win of DTC d has a move whose
     * DTC is d - 1 and none less, a loss one of d - 1 and none more */
    MoveList ml;
    int n = mg_moves(b, &ml);
    for (int i = 0; i < n; i++) {
        const Move *m = &ml.moves[i];
        Board c = *b;
        mg_make_move(&c, m);
        int cd;
        bool cex;
        int cv = probe_code(db, &c, &cd, &cex, bu);
        bool conv = is_conversion(b, m), pick;
        if (v == EGDB_WIN) pick = cv == EGDB_LOSS && (conv || dtc_within(db, &c, cv, cd, cex, d - 1, bu));
        else if (v == EGDB_DRAW) pick = cv == EGDB_DRAW;
        else pick = d <= 1 || (!conv && !dtc_within(db, &c, cv, cd, cex, d - 2, bu));
        if (budget.out) return EGDB_UNKNOWN;
        if (pick) {
            *best = *m;
            return v;
        }
    }
    return n ? EGDB_UNKNOWN : v;
}

bool egdb_consistent(const Egdb *db, const Board *b)
{
    int d;
    bool exact;
    int v = egdb_probe_code(db, b, &d, &exact);
    if (v == EGDB_UNKNOWN) return false;
    if (!b->pieces[b->stm] || !b->pieces[b->stm ^ 1]) return true; /* the game is over */
    MoveList ml;
    int n = mg_moves(b, &ml), lost = 0, drawn = 0, longest = -1;
    bool reached = false; /* a win: a move to a loss of DTC d - 1 (short win: at most d - 1) */
    for (int i = 0; i < n; i++) {
        const Move *m = &ml.moves[i];
        Board c = *b;
        mg_make_move(&c, m);
        int cd;
        bool cex;
        int cv = egdb_probe_code(db, &c, &cd, &cex);
        if (cv == EGDB_UNKNOWN) return false;
        bool conv = is_conversion(b, m);
        lost += cv == EGDB_LOSS;
        drawn += cv == EGDB_DRAW;
        if (v == EGDB_WIN && cv == EGDB_LOSS) {
            /* a kept DTC d: no move to a loss of DTC below d - 1 */
            if (exact && (conv ? d > 1 : dtc_within(db, &c, cv, cd, cex, d - 2, NULL))) return false;
            reached = reached || conv || dtc_within(db, &c, cv, cd, cex, d - 1, NULL);
        }
        if (v == EGDB_LOSS && exact && cv == EGDB_WIN) {
            int key = conv ? 0 : dtc_exact(db, &c, cv, cd, cex, NULL);
            if (key > longest) longest = key;
        }
    }
    if (v == EGDB_WIN) return lost > 0 && reached;
    if (v == EGDB_LOSS) return lost == 0 && drawn == 0 && (!exact || d == (n ? longest + 1 : 0));
    return lost == 0 && drawn > 0;
}
