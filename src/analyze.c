/* analyze.c - a finished game analysed move by move (analyze.h). */
#include "kingme/analyze.h"
#include "kingme/egdb.h"
#include "kingme/notation.h"
#include "kingme/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double to_men(const GameAnalysis *a, int32_t v)
{
    if (v >= SCORE_DB_MIN) return ANALYZE_CAP;
    if (v <= -SCORE_DB_MIN) return -ANALYZE_CAP;
    double m = v / a->man;
    return m > ANALYZE_CAP ? ANALYZE_CAP : m < -ANALYZE_CAP ? -ANALYZE_CAP : m;
}

/* The database's value for the other side. */
static int db_other(int v) { return v == EGDB_WIN ? EGDB_LOSS : v == EGDB_LOSS ? EGDB_WIN : v; }

static void side_stats(GameAnalysis *a)
{
    for (int side = 0; side < 2; side++) {
        AnalyzeSide *st = &a->side[side];
        memset(st, 0, sizeof *st);
        st->worst[0] = st->worst[1] = st->worst[2] = -1;
        st->lost_at = -1;
    }
    for (int i = 0; i < a->nply; i++) {
        const AnalyzedPly *p = &a->ply[i];
        AnalyzeSide *st = &a->side[p->side];
        if (p->nmoves < 2) continue;
        st->moves++;
        st->total_loss += p->loss;
        st->mistakes += p->mark == MARK_MISTAKE;
        st->blunders += p->mark == MARK_BLUNDER;
        if (p->mark == MARK_NONE) continue;
        /* keep the three largest, largest first */
        for (int k = 0; k < 3; k++) {
            if (st->worst[k] >= 0 && a->ply[st->worst[k]].loss >= p->loss) continue;
            for (int m = 2; m > k; m--) st->worst[m] = st->worst[m - 1];
            st->worst[k] = i;
            break;
        }
    }
    /* lost: the earliest move of a side after which every position to the
     * end had it ANALYZE_LOST men or more behind */
    for (int side = 0; side < 2; side++) {
        bool behind_since = true; /* every position from j on */
        for (int j = a->nply; j >= 1; j--) {
            const AnalyzedPly *q = &a->ply[j];
            double v = q->side == side ? q->best_men : -q->best_men;
            behind_since = behind_since && v <= -ANALYZE_LOST;
            if (!behind_since) break;
            if (a->ply[j - 1].side == side) a->side[side].lost_at = j - 1;
        }
    }
}

/* Marks, men and the database's verdicts, once every position is searched. */
static void judge(GameAnalysis *a)
{
    for (int i = 0; i <= a->nply; i++) {
        AnalyzedPly *p = &a->ply[i];
        p->best_men = to_men(a, p->best);
        p->after = p->played;
        p->loss = 0;
        p->mark = MARK_NONE;
        if (i == a->nply) {
            p->after_men = p->best_men;
            continue;
        }
        int32_t next = -a->ply[i + 1].best; /* the next position's search, for this side */
        if (next > p->after) p->after = next;
        p->after_men = to_men(a, p->after);
        p->db_after = db_other(a->ply[i + 1].db_before);
        if (p->nmoves < 2) continue;
        p->loss = p->best_men - p->after_men;
        if (p->loss < 0) p->loss = 0;
        if (p->loss >= ANALYZE_BLUNDER) p->mark = MARK_BLUNDER;
        else if (p->loss >= ANALYZE_MISTAKE) p->mark = MARK_MISTAKE;
        int b = p->db_before, f = p->db_after;
        if (b != EGDB_UNKNOWN && f != EGDB_UNKNOWN) {
            if ((b == EGDB_WIN && f != EGDB_WIN) || (b == EGDB_DRAW && f == EGDB_LOSS))
                p->mark = MARK_BLUNDER;
            else if (b == f && p->loss < ANALYZE_BLUNDER) p->mark = MARK_NONE; /* the result is kept */
        }
    }
    side_stats(a);
}

int analyze_game(Searcher *s, const Game *g, const SearchLimits *lim, GameAnalysis *out,
                 AnalyzeProgress progress, void *user, const atomic_bool *stop, char *err)
{
    memset(out, 0, sizeof *out);
    out->nply = g->nply;
    out->ply = calloc((size_t)g->nply + 1, sizeof *out->ply);
    int men = abs(s->weights.w[EP_own_men]);
    out->man = men ? men : 1000;
    Game cur;
    if (!out->ply || game_init(&cur, &g->start)) {
        free(out->ply);
        out->ply = NULL;
        return km_fail(err, "out of memory");
    }
    SearchLimits l = *lim;
    l.multipv = SEARCH_ALL_MOVES;
    search_set_tiebreak(s, TIEBREAK_FIRST);
    l.abort = stop;
    out->min_depth = SEARCH_MAX_PLY;
    int prev_depth = 0, rc = 0;
    for (int i = 0; i <= g->nply; i++) {
        AnalyzedPly *p = &out->ply[i];
        p->side = cur.cur.stm;
        MoveList ml;
        p->nmoves = mg_moves(&cur.cur, &ml);
        p->db_before = s->egdb ? egdb_probe(s->egdb, &cur.cur, NULL) : EGDB_UNKNOWN;
        if (ml.count == 0 || cur.result != GAME_ONGOING) {
            /* decided by the rules: no move loses, a repetition or the
             * forty-move rule draws */
            p->best = p->played = ml.count == 0 ? -SCORE_WIN : 0;
        } else {
            SearchLimits pl = l;
            if (ml.count == 1) {
                pl.seconds = pl.time_left = pl.increment = 0;
                pl.nodes = 0;
                pl.depth = prev_depth > 0 ? prev_depth : 8;
            }
            SearchResult r;
            if (search_game(s, &cur, &pl, &r, NULL, NULL)) {
                rc = km_fail(err, "out of memory");
                break;
            }
            if (stop && atomic_load(stop)) { /* this position's search was cut short */
                out->stopped = true;
                out->nply = i;
                p->searched = false;
                /* no second opinion on the last move analysed */
                p->best = p->played = i > 0 ? -out->ply[i - 1].played : 0;
                break;
            }
            p->searched = true;
            p->depth = r.depth;
            if (ml.count > 1) prev_depth = r.depth;
            if (r.depth < out->min_depth) out->min_depth = r.depth;
            if (r.depth > out->max_depth) out->max_depth = r.depth;
            p->best = r.lines[0].score;
            p->best_move = r.lines[0].move;
            p->pv_len = r.lines[0].pv_len < ANALYZE_PV ? r.lines[0].pv_len : ANALYZE_PV;
            memcpy(p->pv, r.lines[0].pv, (size_t)p->pv_len * sizeof(Move));
            p->played = p->best;
            if (i < g->nply)
                for (int k = 0; k < r.nlines; k++)
                    if (mg_move_equal(&r.lines[k].move, &g->moves[i])) {
                        p->played = r.lines[k].score;
                        p->rank = k + 1;
                    }
        }
        if (progress) progress(i + 1, g->nply + 1, user);
        if (i < g->nply && game_play(&cur, &g->moves[i])) {
            rc = km_fail(err, "out of memory");
            break;
        }
    }
    game_free(&cur);
    if (rc) {
        analyze_free(out);
        return rc;
    }
    if (out->min_depth > out->max_depth) out->min_depth = out->max_depth;
    judge(out);
    return 0;
}

void analyze_free(GameAnalysis *a)
{
    free(a->ply);
    a->ply = NULL;
    a->nply = 0;
}

/* ---- text ------------------------------------------------------------------------ */

void analyze_score_text(const GameAnalysis *a, int32_t score, int side, char *buf, size_t len)
{
    if (score >= SCORE_DB_MIN || score <= -SCORE_DB_MIN) {
        bool black = (score > 0) == (side == KM_BLACK);
        snprintf(buf, len, "%s wins", black ? "Black" : "White");
        return;
    }
    double m = score / a->man * (side == KM_BLACK ? 1 : -1);
    if (fabs(m) < 0.005) m = 0;
    snprintf(buf, len, "%+.2f", m);
}

static const char *db_word(int v)
{
    return v == EGDB_WIN ? "win" : v == EGDB_LOSS ? "loss" : v == EGDB_DRAW ? "draw" : "?";
}

static int move_number(const Game *g, int ply) { return 1 + (ply + (g->start.stm == KM_WHITE)) / 2; }

/* "17. 9-14" or "17... 22-18" */
static void move_label(const Game *g, int ply, char *buf, size_t len)
{
    char mv[MOVE_TEXT_MAX];
    notation_move_to_text(&g->moves[ply], mv);
    bool black = ((ply + (g->start.stm == KM_WHITE)) & 1) == 0;
    snprintf(buf, len, "%d%s %s", move_number(g, ply), black ? "." : "...", mv);
}

static void line_text(const Move *pv, int n, KmBuf *b)
{
    char text[ANALYZE_PV * MOVE_TEXT_MAX];
    notation_moves_to_text(pv, n, text, sizeof text);
    textio_buf_str(b, text);
}

static const char *mark_text(AnalyzeMark m)
{
    return m == MARK_BLUNDER ? "??" : m == MARK_MISTAKE ? "?" : "";
}

char *analyze_summary(const GameAnalysis *a, const Game *g, int side, const char *who)
{
    const AnalyzeSide *st = &a->side[side];
    KmBuf b = {0};
    textio_buf_printf(
        &b,
        "%s: %d move%s with a choice, average loss %.2f men a move, %d mistake%s (?), %d blunder%s (?\?)\n",
        who, st->moves, st->moves == 1 ? "" : "s", st->moves ? st->total_loss / st->moves : 0.0, st->mistakes,
        st->mistakes == 1 ? "" : "s", st->blunders, st->blunders == 1 ? "" : "s");
    for (int k = 0; k < 3 && st->worst[k] >= 0; k++) {
        int i = st->worst[k];
        const AnalyzedPly *p = &a->ply[i];
        char lab[64], bm[MOVE_TEXT_MAX], s0[32], s1[32];
        move_label(g, i, lab, sizeof lab);
        notation_move_to_text(&p->best_move, bm);
        analyze_score_text(a, p->best, p->side, s0, sizeof s0);
        analyze_score_text(a, p->after, p->side, s1, sizeof s1);
        textio_buf_printf(&b, "  %s %s%s lost %.2f men (%s -> %s); %s was best", k ? "next:" : "worst:", lab,
                          mark_text(p->mark), p->loss, s0, s1, bm);
        if (p->db_before != EGDB_UNKNOWN && p->db_after != EGDB_UNKNOWN && p->db_before != p->db_after)
            textio_buf_printf(&b, "; database: %s -> %s", db_word(p->db_before), db_word(p->db_after));
        textio_buf_str(&b, "\n");
    }
    if (st->lost_at >= 0) {
        char lab[64], sc[32];
        int j = st->lost_at + 1;
        move_label(g, st->lost_at, lab, sizeof lab);
        analyze_score_text(a, a->ply[j].best, a->ply[j].side, sc, sizeof sc);
        textio_buf_printf(&b, "  lost after %s%s (%s for Black), %.1f men or more behind from then on\n", lab,
                          mark_text(a->ply[st->lost_at].mark), sc, ANALYZE_LOST);
    } else {
        textio_buf_printf(&b, "  never %.1f men behind for good\n", ANALYZE_LOST);
    }
    return textio_buf_done(&b);
}

/* The comment after ply i. */
static void ply_comment(const GameAnalysis *a, int i, KmBuf *b)
{
    const AnalyzedPly *p = &a->ply[i];
    char s0[32], s1[32];
    analyze_score_text(a, p->best, p->side, s0, sizeof s0);
    analyze_score_text(a, p->after, p->side, s1, sizeof s1);
    if (p->nmoves < 2) {
        textio_buf_printf(b, "only move, %s", s0);
    } else if (p->rank == 1) {
        textio_buf_printf(b, "%s, the best move; line ", s0);
        line_text(p->pv, p->pv_len, b);
    } else {
        char bm[MOVE_TEXT_MAX];
        notation_move_to_text(&p->best_move, bm);
        if (p->mark) textio_buf_printf(b, "%s ", mark_text(p->mark));
        textio_buf_printf(b, "%s -> %s", s0, s1);
        if (p->mark) textio_buf_printf(b, ", lost %.2f men", p->loss);
        textio_buf_printf(b, "; best %s: ", bm);
        line_text(p->pv, p->pv_len, b);
    }
    if (p->db_before != EGDB_UNKNOWN || p->db_after != EGDB_UNKNOWN) {
        if (p->db_before == p->db_after) textio_buf_printf(b, "; database: %s", db_word(p->db_before));
        else textio_buf_printf(b, "; database: %s -> %s", db_word(p->db_before), db_word(p->db_after));
    }
}

static const char *player_name(const PdnTag *tags, int ntags, const char *tag)
{
    for (int k = 0; k < ntags; k++)
        if (tags[k].name && tags[k].value && strcmp(tags[k].name, tag) == 0 && tags[k].value[0] &&
            strcmp(tags[k].value, "?") != 0)
            return tags[k].value;
    return NULL;
}

char *analyze_format_pdn(const GameAnalysis *a, const Game *g, const PdnTag *tags, int ntags,
                         const char *result, const char *how)
{
    KmBuf head = {0};
    textio_buf_printf(&head, "kingme analyze: %s", how);
    if (strncmp(how, "depth", 5) != 0)
        textio_buf_printf(&head, ", depth %d to %d", a->min_depth, a->max_depth);
    textio_buf_printf(
        &head,
        "; scores in men for Black (1 man = %.0f points), capped at +-%.0f; '?' a move that lost "
        "%.1f men or more against the best move, '?\?' %.1f or more, or one the endgame database "
        "shows to throw away a win or a draw",
        a->man, ANALYZE_CAP, ANALYZE_MISTAKE, ANALYZE_BLUNDER);
    if (a->stopped) textio_buf_printf(&head, "; stopped after %d moves", a->nply);
    char *before = textio_buf_done(&head);
    PdnNote *notes = calloc((size_t)g->nply + 1, sizeof *notes);
    char **texts = calloc((size_t)g->nply + 1, sizeof *texts);
    char *out = NULL;
    bool ok = before && notes && texts;
    for (int i = 0; ok && i < a->nply; i++) {
        KmBuf b = {0};
        ply_comment(a, i, &b);
        if (i == a->nply - 1) {
            /* the summaries after the last move (a reader that keeps one
             * comment a move keeps this one) */
            for (int side = 0; side < 2; side++) {
                const char *name = player_name(tags, ntags, side == KM_BLACK ? "Black" : "White");
                char who[200];
                snprintf(who, sizeof who, "%s%s%.160s%s", side == KM_BLACK ? "Black" : "White",
                         name ? " (" : "", name ? name : "", name ? ")" : "");
                char *sum = analyze_summary(a, g, side, who);
                if (sum) textio_buf_printf(&b, " || %s", sum);
                free(sum);
            }
        }
        texts[i] = textio_buf_done(&b);
        ok = texts[i] != NULL;
        notes[i].comment = texts[i];
        notes[i].mark = mark_text(a->ply[i].mark);
    }
    if (ok) {
        /* a stopped analysis writes the moves it reached, the game unfinished */
        Game part = *g;
        part.nply = a->nply;
        out = pdn_format_notes(&part, tags, ntags, a->stopped ? "*" : result, before, notes);
    }
    for (int i = 0; texts && i < g->nply; i++) free(texts[i]);
    free(texts);
    free(notes);
    free(before);
    return out;
}

/* ---- the curve -------------------------------------------------------------------- */

#define CHART_W 900
#define CHART_H 300

void analyze_svg_open(KmBuf *b, int ncharts)
{
    svg_open(b, CHART_W, CHART_H * (ncharts > 0 ? ncharts : 1), "kingme analyze: the score of the game");
}

void analyze_svg_chart(KmBuf *b, const GameAnalysis *a, const Game *g, const char *title, int k)
{
    int n = a->nply + 1;
    double *x = calloc((size_t)n * 3, sizeof *x);
    const char **mk = calloc((size_t)n * 2, sizeof *mk);
    char(*lab)[24] = calloc((size_t)n, sizeof *lab);
    if (!x || !mk || !lab) {
        free(x);
        free(mk);
        free(lab);
        b->oom = true;
        return;
    }
    double *y = x + n, *my = x + 2 * n;
    const char **mblack = mk, **mwhite = mk + n;
    for (int i = 0; i < n; i++) {
        const AnalyzedPly *p = &a->ply[i];
        x[i] = 1 + (i + (g->start.stm == KM_WHITE)) / 2.0;
        y[i] = p->side == KM_BLACK ? p->best_men : -p->best_men;
        my[i] = NAN;
    }
    /* a mistake shows where the score fell: at the position after it */
    for (int i = 0; i < a->nply; i++) {
        const AnalyzedPly *p = &a->ply[i];
        if (!p->mark) continue;
        char mv[MOVE_TEXT_MAX];
        notation_move_to_text(&g->moves[i], mv);
        snprintf(lab[i + 1], sizeof lab[0], "%.14s%s", mv, mark_text(p->mark));
        (p->side == KM_BLACK ? mblack : mwhite)[i + 1] = lab[i + 1];
        my[i + 1] = y[i + 1];
    }
    SvgSeries s[3] = {
        {"score for Black (men)", "#1f4e8c", n, x, y, NULL, NULL, NULL, false, false, false},
        {"Black's mistakes", "#111111", n, x, my, NULL, NULL, mblack, false, false, true},
        {"White's mistakes", "#c0392b", n, x, my, NULL, NULL, mwhite, false, false, true},
    };
    /* each mistake series shows only its side's points */
    double *yblack = malloc((size_t)n * 2 * sizeof *yblack);
    if (!yblack) {
        b->oom = true;
    } else {
        double *ywhite = yblack + n;
        for (int i = 0; i < n; i++) {
            yblack[i] = mblack[i] ? my[i] : NAN;
            ywhite[i] = mwhite[i] ? my[i] : NAN;
        }
        s[1].y = yblack;
        s[2].y = ywhite;
        double hl[2] = {ANALYZE_LOST, -ANALYZE_LOST};
        const char *hll[2] = {"Black far ahead", "White far ahead"};
        char xl[96];
        if (a->min_depth == a->max_depth) snprintf(xl, sizeof xl, "move (depth %d a position)", a->max_depth);
        else snprintf(xl, sizeof xl, "move (depth %d to %d a position)", a->min_depth, a->max_depth);
        SvgChart c = {title,
                      xl,
                      "men for Black",
                      x[0],
                      x[n - 1] > x[0] ? x[n - 1] : x[0] + 1,
                      -ANALYZE_CAP - 0.2,
                      ANALYZE_CAP + 0.2,
                      true,
                      3,
                      s,
                      2,
                      hl,
                      hll};
        svg_chart(b, &c, 0, (double)k * CHART_H, CHART_W, CHART_H);
        free(yblack);
    }
    free(x);
    free(mk);
    free(lab);
}
