/* worker_proto.c - the worker protocol's lines (worker_proto.h). */
#include "kingme/worker_proto.h"
#include "kingme/book.h"
#include "kingme/notation.h"
#include "kingme/textio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t wproto_weights_id(const Weights *w)
{
    uint64_t h = 0x776F726B65727331ull;
    for (int i = 0; i < EVAL_NPARAMS; i++) h = km_mix64(h ^ (uint16_t)w->w[i] ^ ((uint64_t)i << 16));
    /* the terms 61-74 (protocol 2) where not 0: a 60-weight vector keeps its ID */
    for (int i = EVAL_NPARAMS; i < EVAL_NTERMS; i++)
        if (w->w[i]) h = km_mix64(h ^ (uint16_t)w->w[i] ^ ((uint64_t)i << 16));
    /* a phase (protocol 3): a mark, then the ending's 74 (numbered after the
     * opening's), so that a vector without one keeps its ID */
    if (w->phased) {
        h = km_mix64(h ^ 0x7068617365ull);
        for (int i = 0; i < EVAL_NTERMS; i++)
            h = km_mix64(h ^ (uint16_t)w->end[i] ^ ((uint64_t)(EVAL_NTERMS + i) << 16));
    }
    return h;
}

int wproto_vector_length(const Weights *w)
{
    if (w->phased) return EVAL_NWEIGHTS_PHASE;
    for (int i = EVAL_NPARAMS; i < EVAL_NTERMS; i++)
        if (w->w[i]) return EVAL_NTERMS;
    return EVAL_NPARAMS;
}

uint64_t wproto_moves_checksum(const Game *g)
{
    uint64_t h = 0x6D6F766573ull;
    for (int i = 0; i < g->nply; i++) {
        const Move *m = &g->moves[i];
        h = km_mix64(h ^ ((uint64_t)m->from | (uint64_t)m->to << 8 | (uint64_t)m->captured << 16));
    }
    return h;
}

/* The first four switches as bits (a job carries no others: the
 * coordinator sends only jobs whose other switches are on). */
static unsigned switch_flags(const SearchSwitches *w)
{
    return (unsigned)w->tt | (unsigned)w->quiescence << 1 | (unsigned)w->extensions << 2 |
           (unsigned)w->ordering << 3;
}

static void set_switch_flags(SearchSwitches *w, unsigned f)
{
    w->tt = f & 1;
    w->quiescence = (f >> 1) & 1;
    w->extensions = (f >> 2) & 1;
    w->ordering = (f >> 3) & 1;
}

const Weights *wproto_spec_weights(const MatchSettings *set, const MatchGameSpec *spec, int colour)
{
    if (set->sides) return set->sides[spec->side[colour]].weights;
    return colour == KM_BLACK ? spec->black : spec->white;
}

char *wproto_job_line(int n, const MatchSettings *set, const MatchGameSpec *spec, bool keep)
{
    KmBuf b = {0};
    const SearchLimits *l = &set->limits;
    char fen[128];
    Board start;
    if (spec->opening) start = spec->opening->start;
    else board_init(&start);
    board_to_fen(&start, fen, sizeof fen);
    km_buf_printf(&b,
                  "job %d %016llx %016llx depth %d time %.17g nodes %llu cap %d hash %zu share %d tiebreak "
                  "%s flags %u seed %llu keep %d fen %s",
                  n, (unsigned long long)wproto_weights_id(wproto_spec_weights(set, spec, KM_BLACK)),
                  (unsigned long long)wproto_weights_id(wproto_spec_weights(set, spec, KM_WHITE)), l->depth,
                  l->seconds, (unsigned long long)l->nodes, set->ply_cap, set->hash_mb,
                  set->share_table ? 1 : 0, set->tiebreak == TIEBREAK_FIRST ? "first" : "random",
                  switch_flags(&set->use), (unsigned long long)spec->seed, keep ? 1 : 0, fen);
    if (spec->opening && spec->opening->nply) {
        km_buf_str(&b, " moves");
        for (int i = 0; i < spec->opening->nply; i++) {
            char t[MOVE_TEXT_MAX];
            move_to_text(&spec->opening->moves[i], t);
            km_buf_printf(&b, " %s", t);
        }
    }
    return km_buf_done(&b);
}

bool wproto_parse_hex64(const char *t, uint64_t *out)
{
    if (strlen(t) != 16) return false;
    uint64_t v = 0;
    for (int i = 0; i < 16; i++) {
        char c = t[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0) return false;
        v = v << 4 | (uint64_t)d;
    }
    *out = v;
    return true;
}

static bool parse_u64(const char *t, uint64_t *out)
{
    if (!t || !*t || strlen(t) > 20) return false;
    uint64_t v = 0;
    for (const char *p = t; *p; p++) {
        if (*p < '0' || *p > '9') return false;
        uint64_t d = (uint64_t)(*p - '0');
        if (v > (UINT64_MAX - d) / 10) return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

int wproto_parse_job(char **tok, int nt, WprotoJob *j, char *err)
{
    long long v;
    uint64_t u;
    if (nt < 4) return km_fail(err, "a job needs N BLACK WHITE and its settings");
    if (!km_parse_ll(tok[1], 0, 1 << 30, &v)) return km_fail(err, "bad job number '%.20s'", tok[1]);
    j->n = (int)v;
    if (!wproto_parse_hex64(tok[2], &j->black) || !wproto_parse_hex64(tok[3], &j->white))
        return km_fail(err, "the vectors are 16 hex digits each");
    match_settings_default(&j->set);
    int i = 4;
    bool have_fen = false;
    static const char *const keys[] = {"depth", "time", "nodes", "cap", "hash", "tiebreak",
                                       "flags", "seed", "keep",  "fen", "share"};
    static const int order[] = {0, 1, 2, 3, 4, 10, 5, 6, 7, 8, 9};
    for (int kk = 0; kk < 11; kk++, i += 2) {
        int k = order[kk];
        if (i + 1 >= nt || strcmp(tok[i], keys[k]) != 0)
            return km_fail(err, "expected '%s' in the job", keys[k]);
        const char *t = tok[i + 1];
        switch (k) {
        case 0:
            if (!km_parse_ll(t, 0, SEARCH_MAX_PLY - 2, &v)) return km_fail(err, "bad depth '%.20s'", t);
            j->set.limits.depth = (int)v;
            break;
        case 1: {
            char *end;
            errno = 0;
            double x = strtod(t, &end);
            if (errno || *end || !(x >= 0 && x <= 1e6)) return km_fail(err, "bad time '%.20s'", t);
            j->set.limits.seconds = x;
            break;
        }
        case 2:
            if (!parse_u64(t, &u)) return km_fail(err, "bad nodes '%.20s'", t);
            j->set.limits.nodes = u;
            break;
        case 3:
            if (!km_parse_ll(t, 0, 100000, &v)) return km_fail(err, "bad cap '%.20s'", t);
            j->set.ply_cap = (int)v;
            break;
        case 4:
            if (!km_parse_ll(t, 0, 65536, &v)) return km_fail(err, "bad hash '%.20s'", t);
            j->set.hash_mb = (size_t)v;
            break;
        case 5:
            if (strcmp(t, "first") == 0) j->set.tiebreak = TIEBREAK_FIRST;
            else if (strcmp(t, "random") == 0) j->set.tiebreak = TIEBREAK_RANDOM;
            else return km_fail(err, "bad tiebreak '%.20s'", t);
            break;
        case 6:
            if (!km_parse_ll(t, 0, 15, &v)) return km_fail(err, "bad flags '%.20s'", t);
            set_switch_flags(&j->set.use, (unsigned)v);
            break;
        case 7:
            if (!parse_u64(t, &j->seed)) return km_fail(err, "bad seed '%.24s'", t);
            break;
        case 8:
            if (strcmp(t, "0") != 0 && strcmp(t, "1") != 0) return km_fail(err, "bad keep '%.20s'", t);
            j->keep = t[0] == '1';
            break;
        case 10:
            if (strcmp(t, "0") != 0 && strcmp(t, "1") != 0) return km_fail(err, "bad share '%.20s'", t);
            j->set.share_table = t[0] == '1';
            break;
        case 9: {
            char e2[KM_ERR_MAX];
            memset(&j->opening, 0, sizeof j->opening);
            if (board_from_fen(&j->opening.start, t, e2)) return km_fail(err, "bad fen: %s", e2);
            have_fen = true;
            break;
        }
        }
    }
    if (!have_fen) return km_fail(err, "the job has no fen");
    if (!j->set.limits.depth && j->set.limits.seconds <= 0 && !j->set.limits.nodes)
        return km_fail(err, "the job has no limit (depth, time or nodes)");
    snprintf(j->opening.name, sizeof j->opening.name, "job %d", j->n);
    if (i < nt) {
        if (strcmp(tok[i], "moves") != 0) return km_fail(err, "expected 'moves', not '%.20s'", tok[i]);
        Board b = j->opening.start;
        for (i++; i < nt; i++) {
            if (j->opening.nply == OPENING_MAX_PLY)
                return km_fail(err, "more than %d opening moves", OPENING_MAX_PLY);
            char e2[KM_ERR_MAX];
            Move m;
            if (parse_move(&b, tok[i], &m, e2)) return km_fail(err, "opening move '%.20s': %s", tok[i], e2);
            j->opening.moves[j->opening.nply++] = m;
            make_move(&b, &m);
        }
    }
    return 0;
}

/* ---- book positions (version 4) ---- */

char *wproto_score_line(const WprotoScore *j)
{
    char fen[128];
    board_to_fen(&j->b, fen, sizeof fen);
    KmBuf b = {0};
    km_buf_printf(&b, "score %d %016llx depth %d hash %d fen %s", j->n, (unsigned long long)j->weights,
                  j->depth, j->hash_mb, fen);
    return km_buf_done(&b);
}

int wproto_parse_score(char **tok, int nt, WprotoScore *j, char *err)
{
    long long v;
    if (nt != 9 || strcmp(tok[3], "depth") != 0 || strcmp(tok[5], "hash") != 0 || strcmp(tok[7], "fen") != 0)
        return km_fail(err, "a score line is 'score N ID depth D hash MB fen FEN'");
    if (!km_parse_ll(tok[1], 0, 1 << 30, &v)) return km_fail(err, "bad job number '%.20s'", tok[1]);
    j->n = (int)v;
    if (!wproto_parse_hex64(tok[2], &j->weights)) return km_fail(err, "the vector is 16 hex digits");
    if (!km_parse_ll(tok[4], 2, SEARCH_MAX_PLY - 2, &v)) return km_fail(err, "bad depth '%.20s'", tok[4]);
    j->depth = (int)v;
    if (!km_parse_ll(tok[6], 0, 65536, &v)) return km_fail(err, "bad hash '%.20s'", tok[6]);
    j->hash_mb = (int)v;
    char e2[KM_ERR_MAX];
    if (board_from_fen(&j->b, tok[8], e2)) return km_fail(err, "bad fen: %s", e2);
    return 0;
}

char *wproto_scored_line(int n, int k, const uint16_t *codes, const int16_t *scores)
{
    KmBuf b = {0};
    km_buf_printf(&b, "scored %d %d", n, k);
    for (int i = 0; i < k; i++) km_buf_printf(&b, " %u %d", (unsigned)codes[i], (int)scores[i]);
    return km_buf_done(&b);
}

int wproto_parse_scored(char **tok, int nt, const Board *b, uint16_t *codes, int16_t *scores, char *err)
{
    MoveList ml;
    gen_moves(b, &ml);
    int want = ml.count < 255 ? ml.count : 255;
    long long k, v;
    if (nt < 3 || !km_parse_ll(tok[2], 0, 255, &k) || k != want || nt != 3 + 2 * k)
        return km_fail(err, "a score of %d moves, not '%.20s'", want, nt > 2 ? tok[2] : "");
    for (int i = 0; i < k; i++) {
        const Move *m = &ml.moves[i];
        int same = 0;
        for (int j = 0; j < i; j++) same += ml.moves[j].from == m->from && ml.moves[j].to == m->to;
        long long want_code = m->from | m->to << 5 | same << 10;
        if (!km_parse_ll(tok[3 + 2 * i], 0, 65535, &v) || v != want_code)
            return km_fail(err, "move %d is not the position's move %d", i + 1, i + 1);
        codes[i] = (uint16_t)v;
        if (!km_parse_ll(tok[4 + 2 * i], -BOOK_SCORE_MAX, BOOK_SCORE_MAX, &v))
            return km_fail(err, "the score of move %d is not a number within %d", i + 1, BOOK_SCORE_MAX);
        scores[i] = (int16_t)v;
    }
    return (int)k;
}

/* ---- self-play games (version 5) ---- */

char *wproto_selfplay_line(const WprotoSelfplay *j)
{
    KmBuf b = {0};
    km_buf_printf(&b, "selfplay %d %d %016llx seed %016llx nodes %llu random %d margin %d plies %d hash %d",
                  j->n, j->game, (unsigned long long)j->weights, (unsigned long long)j->seed,
                  (unsigned long long)j->nodes, j->random_plies, j->margin, j->max_plies, j->hash_mb);
    return km_buf_done(&b);
}

int wproto_parse_selfplay(char **tok, int nt, WprotoSelfplay *j, char *err)
{
    static const char *const words[] = {"seed", "nodes", "random", "margin", "plies", "hash"};
    if (nt != 16) goto form;
    for (int k = 0; k < 6; k++)
        if (strcmp(tok[4 + 2 * k], words[k]) != 0) goto form;
    long long v;
    if (!km_parse_ll(tok[1], 0, 1 << 30, &v)) return km_fail(err, "bad job number '%.20s'", tok[1]);
    j->n = (int)v;
    if (!km_parse_ll(tok[2], 0, 1 << 30, &v)) return km_fail(err, "bad game number '%.20s'", tok[2]);
    j->game = (int)v;
    if (!wproto_parse_hex64(tok[3], &j->weights)) return km_fail(err, "the vector is 16 hex digits");
    if (!wproto_parse_hex64(tok[5], &j->seed)) return km_fail(err, "the seed is 16 hex digits");
    if (!km_parse_ll(tok[7], 1, 1000000000000LL, &v)) return km_fail(err, "bad nodes '%.20s'", tok[7]);
    j->nodes = (uint64_t)v;
    if (!km_parse_ll(tok[9], 0, 1000, &v)) return km_fail(err, "bad random plies '%.20s'", tok[9]);
    j->random_plies = (int)v;
    if (!km_parse_ll(tok[11], 0, 1000000, &v)) return km_fail(err, "bad margin '%.20s'", tok[11]);
    j->margin = (int)v;
    if (!km_parse_ll(tok[13], 1, 100000, &v)) return km_fail(err, "bad plies '%.20s'", tok[13]);
    j->max_plies = (int)v;
    if (!km_parse_ll(tok[15], 0, 65536, &v)) return km_fail(err, "bad hash '%.20s'", tok[15]);
    j->hash_mb = (int)v;
    return 0;
form:
    return km_fail(
        err, "a selfplay line is 'selfplay N GAME ID seed X nodes K random R margin M plies P hash MB'");
}
