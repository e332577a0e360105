/* search_params.h - the search's and the time manager's parameters, defined
 * once.
 *
 * SEARCH_PARAM_LIST is the one list of the numbers that decide how the search
 * spends its nodes and the clock its time: the selective techniques' switches
 * (0 off, 1 on) and thresholds, the aspiration window, the late-move
 * reductions' formula, ProbCut's margin measurement, and the time manager's
 * shares. The SearchParams struct, its defaults, the names that `--set`,
 * `option NAME VALUE` and parameters files use, the checks of their ranges,
 * `kingme show --search` and the search tuning's genome are generated from it.
 *   X(field, kind, default, lo, hi, measured, help)
 * kind: INT (an int) or REAL (a double); lo..hi the range (a switch: 0..1);
 * measured: what the value was last measured at in games (docs/devlog.md has
 * the tables), "not measured" otherwise.
 *
 * The four switches that define the tree itself (the table, quiescence,
 * forced-move extension, move ordering) are not here: they are the
 * SearchSwitches of search.h, which --exact and the documents' plain search
 * turn off; a selective technique acts when its SearchSwitches member and its
 * switch here are both on. Base layer: no dependency. */
#ifndef KINGME_SEARCH_PARAMS_H
#define KINGME_SEARCH_PARAMS_H

#include <stdbool.h>
#include <stddef.h>

/* The match that measured the time manager's shares bred together (one
 * note for the three parameters the leader moved most). */
#define TM_BRED_NOTE                                                                                      \
    "tune-search's leader (max share 0.451, horizon 42, hard 4.59, unstable 0.236, stretch 1.77): -14.5 " \
    "(-31.1 .. +2.7), 192 games at 1.2 s + 0.005 s, 9525719, 2026-12-04"

/* The two guards on ProbCut's measured margin, measured together. */
#define PROBCUT_GUARD_NOTE                                                                                  \
    "neither guard acts on the default weights, whose measured margin is 277 (from the start to depth 15, " \
    "the same tree with the floor at 1 or 277 and the ceiling at 277 or 100000; a floor of 278 or a "       \
    "ceiling of 276 changes it), 3f2945e, 2026-12-05; a guard for other weights"

/* clang-format off */
#define SEARCH_PARAM_LIST(X)                                                                                  \
    X(lmr, INT, 1, 0, 1,                                                                                      \
      "+21 (-8 .. +50), 200 games at 0.05 s, 1ebbd6e, 2026-11-22",                                            \
      "late-move reductions of quiet moves (0 off, 1 on), re-searched at full depth when they beat alpha")    \
    X(lmr_from, INT, 3, 1, 63,                                                                                \
      "2 instead of 3: -3.0 (-15.5 .. +9.4); 4: -3.9 (-16.3 .. +8.5); 800 games each at 0.02 s, 3840261, "    \
      "2026-12-02",                                                                                           \
      "the first move (counting from 0) that may be reduced")                                                 \
    X(lmr_depth, INT, 3, 2, 63,                                                                               \
      "2 instead of 3: +6.1 (-12.8 .. +24.9), 400 games at 0.02 s, dc29987, 2026-11-29; -0.9 (-13.2 .. "     \
      "+11.4), 800 more, 3840261, 2026-12-02",                                                                \
      "the shallowest node whose moves are reduced")                                                          \
    X(lmr_base, REAL, 0.5, 0, 4,                                                                              \
      "1 instead of 0.5: +6.9 (-12.3 .. +26.1), 400 games at 0.02 s, dc29987, 2026-11-29; 0: +0.9",          \
      "reduction = lmr_base + ln(depth) ln(move number) / lmr_div plies, rounded down")                      \
    X(lmr_div, REAL, 3.0, 0.25, 20,                                                                           \
      "4 instead of 3: +6.1 (-6.5 .. +18.7), 800 games at 0.02 s, e65840d, 2026-12-01; 2: +0.0 "              \
      "(-21.3 .. +21.3), 400 games, c77d593, 2026-11-22; 3.5: -10.0 (-21.1 .. +1.2), 800 games at "           \
      "0.02 s, 3f2945e, 2026-12-05; 4 at 0.1 s: -11.3 (-26.2 .. +3.7), 400 games, 89a6980, 2026-12-05",       \
      "the divisor of the reduction's logarithms (larger: gentler)")                                          \
    X(lmr_threat, INT, 0, 0, 1,                                                                               \
      "1 instead of 0: +13.5 (+1.4 .. +25.5), 800 games at 0.02 s, but -2.2 (-13.0 .. +8.6), 800 games "      \
      "at 0.1 s; 2e93e55 and 9567243, 2026-12-05",                                                            \
      "late-move reductions also at a node where the opponent threatens a capture")                           \
    X(probcut, INT, 1, 0, 1, "+52, 88 games at 0.05 s, c13c743, 2026-11-22",                                  \
      "ProbCut (0 off, 1 on): a shallow search far above beta cuts a null-window node")                      \
    X(probcut_depth, INT, 5, 3, 63,                                                                           \
      "6 instead of 5, with four other changes: -11.3, 166dabd, 2026-11-25; 4: -14.3 (-28.2 .. -0.5), 800 "   \
      "games at 0.02 s, 3840261, 2026-12-02",                                                                 \
      "the shallowest node ProbCut is tried at")                                                              \
    X(probcut_max_depth, INT, 10, 2, 63,                                                                      \
      "+53 against no limit, 400 games at 0.1 s, cdae4c3, 2026-11-26 (+6.9 at 0.02 s); 12 instead of 10: "    \
      "+3.5 (-11.8 .. +18.7), 400 games at 0.1 s, 3840261, 2026-12-02",                                       \
      "the deepest node ProbCut is tried at (a deep node's shallow search misjudges more often)")             \
    X(probcut_div, INT, 2, 2, 8,                                                                              \
      "3 instead of 2: -9.6 (-28.8 .. +9.8), 400 games at 0.02 s, dc29987, 2026-11-29",                       \
      "ProbCut's shallow search goes depth / probcut_div plies")                                               \
    X(probcut_pieces, INT, 6, 0, 24,                                                                          \
      "+17.4 (-6.2 .. +41.1) against 8, 400 games at 0.02 s, 3c6c2a9, 2026-11-25; 4: -5.2",                   \
      "no ProbCut in endings of this many pieces or fewer")                                                  \
    X(probcut_margin, INT, 100, 1, 5000, "80 instead of 100: -20 (-59 .. +18), 120 games (table)",            \
      "ProbCut's margin in evaluation units until it is measured for the weights (a man is about 1000)")     \
    X(probcut_scale, INT, 150, 10, 1000,                                                                      \
      "measured margin against 100: +50, 400 games at 0.02 s, 4f2a05a, 2026-11-25; 130 instead of 150: "      \
      "+5.2 (-6.7 .. +17.1), 800 games at 0.02 s, e65840d, 2026-12-01; 170: -4.8 (-16.6 .. +7.1), 800 "       \
      "games at 0.02 s, 3f2945e, 2026-12-05",                                                                 \
      "the measured margin: this percentage of the median gap between exact searches to two depths")         \
    X(probcut_measure_depth, INT, 6, 2, 10,                                                                   \
      "8 instead of 6: -13.5 (-26.0 .. -1.0); 4: -3.5 (-15.9 .. +9.0); 800 games each at 0.02 s, 5a72e5f, "    \
      "2026-11-29",                                                                                           \
      "the margin's measurement compares exact searches to this depth and to half of it")                    \
    X(probcut_margin_min, INT, 20, 1, 5000, PROBCUT_GUARD_NOTE, "the least measured margin")                  \
    X(probcut_margin_max, INT, 5000, 1, 100000, PROBCUT_GUARD_NOTE, "the largest measured margin")            \
    X(etc, INT, 1, 0, 1,                                                                                      \
      "0: the search without it -5.6 (-17.1 .. +5.8), 800 games at 0.1 s, and +5.2 (-6.2 .. +16.6), 800 "    \
      "games at 0.02 s, 8fb252a, 2026-11-27",                                                                 \
      "enhanced transposition cutoffs (0 off, 1 on): a child the table knows bad enough for the opponent "  \
      "cuts the node")                                                                                        \
    X(etc_depth, INT, 6, 1, 63,                                                                               \
      "6 instead of 4: +10.6 (+2.4 .. +18.9), 1600 games (+12.2 at 0.02 s, +9.1 at 0.1 s), dc29987, "          \
      "2026-11-29; 8 instead of 4: -0.9, 400 games at 0.02 s; 5 instead of 6: -4.8 (-16.6 .. +7.1), 800 "     \
      "games at 0.02 s, 3f2945e, 2026-12-04",                                                                 \
      "the shallowest node the enhanced cutoffs are tried at")                                               \
    X(futility, INT, 1, 0, 1, "+11.3 (-10.6 .. +33.2), 400 games at 0.02 s, d8bd843, 2026-11-26",             \
      "futility pruning (0 off, 1 on): a quiet null-window node near the leaves whose static evaluation "   \
      "is far below alpha fails low")                                                                         \
    X(futility_depth, INT, 2, 1, 10,                                                                          \
      "3 instead of 2: -12.6 (-24.7 .. -0.4), 800 games at 0.02 s, 9567243, 2026-12-05; -39 (-89 .. +9), "    \
      "80 games (table)",                                                                                     \
      "the deepest node futility pruning is tried at")                                                       \
    X(futility_margin, INT, 200, 0, 5000,                                                                     \
      "150 instead of 200: +3.0 (-8.4 .. +14.5), 800 games at 0.02 s, e65840d, 2026-12-01 (+5.2, 400 "        \
      "games, ca8c8da, 2026-11-23); 250: -2.2 (-14.4 .. +10.1), 800 games at 0.02 s, 3f2945e, 2026-12-05",    \
      "futility's margin per ply of depth, in evaluation units")                                             \
    X(futility_pieces, INT, 6, 0, 24,                                                                         \
      "with probcut_pieces: +17.4 (above); 4 alone: -5.6 (-17.1 .. +5.8), 800 games at 0.02 s, 9567243, "     \
      "2026-12-05",                                                                                           \
      "no futility pruning in endings of this many pieces or fewer")                                         \
    X(singular, INT, 1, 0, 1,                                                                                 \
      "on, from depth 6, with multi-cut: against 28b9e83, 800 games, +26.5 (+13.9 .. +39.3) at 0.02 s and "    \
      "+8.7 (-1.9 .. +19.3) at 0.1 s, b17ca1b with the three set, 2026-11-28; from depth 8 alone: +7.2 "        \
      "(-1.7 .. +16.2), 1200 games",                                                                          \
      "singular extensions (0 off, 1 on): the table's move, when every other move fails low at half the "     \
      "depth below the table's score less singular_margin a ply, is searched one ply deeper")                 \
    X(singular_depth, INT, 6, 4, 63,                                                                          \
      "from 6, against no extension: +18.3 (+2.5 .. +33.8), 400 games at 200000 nodes, b17ca1b, "               \
      "2026-11-28; from 4: +7.2, 240 games; from 5: -3.5 (-15.5 .. +8.6), 800 games at 0.02 s, 5a72e5f, "     \
      "2026-11-29; from 7: -4.8 (-17.0 .. +7.5), 800 games at 0.02 s, 3840261, 2026-12-02",                  \
      "the shallowest node singular extensions are tried at")                                                 \
    X(singular_margin, INT, 50, 0, 5000,                                                                      \
      "20 instead of 50: -6.9 (-22.7 .. +8.9), 400 games at 200000 nodes, b6a46a5, 2026-11-28; 80: -2.2 "    \
      "(-13.8 .. +9.5), 800 games at 0.02 s, 174c230, 2026-12-04",                                            \
      "the margin below the table's score, a ply of depth, that every other move must fail low under")        \
    X(singular_multicut, INT, 1, 0, 1,                                                                        \
      "+13.0 (-1.8 .. +27.7) against singular extensions alone, 400 games at 200000 nodes, b17ca1b with "      \
      "the switch, 2026-11-28",                                                                               \
      "multi-cut (0 off, 1 on): when a rival of the table's move also holds the singular search's bound and "  \
      "that bound is at least beta, the node is cut there")                                                   \
    X(singular_tt_slack, INT, 3, 0, 20,                                                                       \
      "2 instead of 3: -6.1 (-18.5 .. +6.4), 800 games at 0.02 s; 4: -6.1 (-18.5 .. +6.4), 800 games; "       \
      "5a72e5f, 2026-11-29",                                                                                  \
      "how many plies shallower than the node the table's entry may be for singular extensions")              \
    X(singular_verify_div, INT, 3, 1, 8,                                                                      \
      "3 instead of 2: +7.2 (-1.7 .. +16.0), 1600 games at 0.02 s, 00a0a64, 2026-11-29; 4: +11.3 "            \
      "(-0.9 .. +23.5), 800 games at 0.02 s, but against 28b9e83 +17.0 at 0.1 s and +15.2 at 0.02 s, "        \
      "800 games each, where 3 had +21.3 and +29.6 on the same games, e65840d, 2026-12-01",                   \
      "the other moves' searches go (depth - 1) / singular_verify_div plies")                                  \
    X(singular_max_ply, INT, 2, 1, 8,                                                                         \
      "3 instead of 2: +1.3 (-7.4 .. +10.0), 1600 games at 0.02 s, 5a72e5f, 2026-11-29",                        \
      "no singular extension at or beyond this many times the iteration's depth in plies")                    \
    X(aspiration, INT, 60, 1, 100000,                                                                         \
      "the ProbCut margin (252) instead of 60: +5.2 (-16.5 .. +26.9), 400 games, d8bd843, 2026-11-26; 40: "   \
      "-2.6 (-15.4 .. +10.2), 800 games at 0.02 s, 5a72e5f, 2026-11-29; 80: -1.7 (-14.1 .. +10.7), 800 "      \
      "games at 0.02 s, 3f2945e, 2026-12-05",                                                                 \
      "the root's aspiration window around the last iteration's score, in evaluation units")                 \
    X(aspiration_depth, INT, 5, 1, 63,                                                                        \
      "3 instead of 5: -5.6 (-17.3 .. +6.0), 800 games at 0.02 s, 5a72e5f, 2026-11-29",                        \
      "the first iteration searched with a window")                                                           \
    X(tm_margin, REAL, 0.010, 0, 1, "not measured (the pipes' delay: docs/engine-protocol.md)",               \
      "seconds kept back on every move for what the clock sees but the search does not")                     \
    X(tm_margin_min, REAL, 0.001, 0, 1, "not measured",                                                       \
      "a fixed time a move keeps a tenth of itself when less than tm_margin, but at least this")             \
    X(tm_reserve, REAL, 0.100, 0, 60, "not measured (overruns of 90 ms on a loaded machine)",                 \
      "seconds of a game clock, beyond tm_reserve_incs increments, never planned for (half the clock at "      \
      "most)")                                                                                                \
    X(tm_reserve_incs, REAL, 2.0, 0, 20, "not measured",                                                      \
      "increments of a game clock never planned for, beside tm_reserve")                                      \
    X(tm_horizon, INT, 28, 1, 200,                                                                            \
      "20 instead of 28: -0.9 (-11.3 .. +9.6), 800 games at 1.2 s + 0.005 s, 9525719, 2026-12-02",             \
      "the moves still to play when the clock does not say (sudden death)")                                  \
    X(tm_inc_share, REAL, 0.6, 0, 1,                                                                          \
      "bred with the other tm_* by tune-search at 1.2 s + 0.005 s, 9525719, 2026-12-04: the leader kept "     \
      "0.6",                                                                                                  \
      "the part of the increment added to a move's share")                                                    \
    X(tm_max_share, REAL, 0.35, 0.01, 1, TM_BRED_NOTE,                                                        \
      "the most of the usable clock one move may plan for")                                                   \
    X(tm_last_share, REAL, 0.9, 0.01, 1, "not measured",                                                      \
      "the same for the last move before the control (movestogo 1)")                                          \
    X(tm_hard, REAL, 3.0, 1, 20, TM_BRED_NOTE,                                                                \
      "the hard limit: this many times the share")                                                            \
    X(tm_stable, REAL, 0.6, 0.05, 4,                                                                          \
      "0.8 instead of 0.6: -1.7 (-12.5 .. +9.0), 800 games at 1.2 s + 0.005 s, 9525719, 2026-12-02",           \
      "the part of the share searched when the best move has not changed in the last iterations")            \
    X(tm_unstable, REAL, 0.35, 0, 4,                                                                          \
      "0.6 instead of 0.35: +1.1 (-6.2 .. +8.3), 1600 games at 1.2 s + 0.005 s, 9525719, 2026-12-02/04",       \
      "the part added for each of the last three iterations that changed the best move")                     \
    X(tm_stretch, REAL, 2.0, 0.05, 10, TM_BRED_NOTE,                                                          \
      "the most parts of the share a move is stretched to")
/* clang-format on */

/* SP_lmr (0) ... : each parameter's index. */
enum {
#define SEARCH_PARAM_ENUM_(field, ...) SP_##field,
    SEARCH_PARAM_LIST(SEARCH_PARAM_ENUM_)
#undef SEARCH_PARAM_ENUM_
        SEARCH_NPARAMS
};

#define SEARCH_PARAM_TYPE_INT int
#define SEARCH_PARAM_TYPE_REAL double

typedef struct SearchParams {
#define SEARCH_PARAM_FIELD_(field, kind, ...) SEARCH_PARAM_TYPE_##kind field;
    SEARCH_PARAM_LIST(SEARCH_PARAM_FIELD_)
#undef SEARCH_PARAM_FIELD_
} SearchParams;

typedef enum SearchParamKind { SEARCH_PARAM_INT, SEARCH_PARAM_REAL } SearchParamKind;

/* One parameter as the list gives it. */
typedef struct SearchParamInfo {
    const char *name;
    SearchParamKind kind;
    double def, lo, hi;
    const char *measured, *help;
} SearchParamInfo;

extern const SearchParamInfo search_params_info[SEARCH_NPARAMS];

/* The defaults (the list's column). */
void search_params_default(SearchParams *p);
/* The defaults, shared read-only. */
extern const SearchParams search_params_defaults;

/* Parameter i's value as a double, and setting it (an INT rounded). */
double search_params_get(const SearchParams *p, int i);
void search_params_set(SearchParams *p, int i, double v);

/* The index of the parameter called name, or -1. */
int search_params_find(const char *name);

/* Parameter i's value as text: "3", "0.35" (as few digits as read back the same). */
void search_params_text(const SearchParams *p, int i, char *buf, size_t len);
/* Its default or range bound v as the same text. */
void search_params_value_text(int i, double v, char *buf, size_t len);

/* Set "NAME=VALUE" (or NAME and VALUE apart: search_params_set_text) in p;
 * -1 with "unknown search parameter 'x'" or "lmr_from 70 is not a whole
 * number from 1 to 63" in err (KM_ERR_MAX bytes), p unchanged. */
int search_params_assign(SearchParams *p, const char *assignment, char *err);
int search_params_set_text(SearchParams *p, const char *name, const char *value, char *err);

/* Whether every parameter equals its default. */
bool search_params_are_default(const SearchParams *p);
bool search_params_equal(const SearchParams *a, const SearchParams *b);

/* ---- parameters files --------------------------------------------------------
 * Plain text: a first line `kingme-search-params 1`, then `NAME VALUE` lines
 * in any order, each name once ('#' comments and blank lines ignored); a
 * parameter not named keeps its default. */
#define SEARCH_PARAMS_MAGIC "kingme-search-params"
#define SEARCH_PARAMS_VERSION 1

/* Parse text (where names it in messages) into p (defaults first). Returns 0,
 * or -1 with "WHERE:LINE: what" in err (not a parameters file, unknown
 * parameter, duplicate, bad or out-of-range value). */
int search_params_parse(SearchParams *p, const char *text, const char *where, char *err);
int search_params_read(SearchParams *p, const char *path, char *err);
/* The file's text: the magic line, the comment lines of header (each line
 * prefixed "# "; may be NULL), then every parameter (malloc'd, NULL when out
 * of memory). */
char *search_params_format(const SearchParams *p, const char *header);
/* search_params_format through the atomic writer. */
int search_params_write(const SearchParams *p, const char *header, const char *path, char *err);

#endif
