/* test_patterns.c - the pattern layer (patterns.h): its geometry against the
 * board's coordinates, the evaluation's combined tables against the tables
 * as written, square by square, its symmetry, the weights file's tables, and
 * the search with a pattern layer. */
#include "kingme/eval.h"
#include "kingme/patterns.h"
#include "kingme/search.h"
#include "kingme/weights.h"
#include "refgen.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Each region is the 4 x 4 block of the board its name says: rows R..R+3 and
 * files C..C+3 counted from square 1's side (square 1 is b8, file b). */
TEST(patterns_region_geometry)
{
    for (int r = 0; r < PAT_NREGIONS; r++) {
        int sq[PAT_REGION_SQUARES];
        pat_region_squares(r, sq);
        int top = pat_tables[PAT_REGION_TABLE(r)].name[1] - '0',
            left = pat_tables[PAT_REGION_TABLE(r)].name[3] - '0';
        int k = 0;
        for (int row = top; row < top + 4; row++)
            for (int col = left; col < left + 4; col++) {
                int s = board_square_from_coord((char)('a' + col), (char)('8' - row));
                if (s)
                    CHECK_MSG(k < 8 && sq[k++] == s, "region %s: square %d",
                              pat_tables[PAT_REGION_TABLE(r)].name, s);
            }
        CHECK_INT(k, 8);
        /* one piece on each square gives its digit at its place */
        for (int j = 0; j < PAT_REGION_SQUARES; j++) {
            Board b = {{SQ(sq[j]), 0}, 0, KM_BLACK};
            int p3 = 1;
            for (int q = 0; q < j; q++) p3 *= 3;
            CHECK_INT(pat_region_index(&b, r), p3);
            Board w = {{0, SQ(sq[j])}, 0, KM_BLACK};
            CHECK_INT(pat_region_index(&w, r), 2 * p3);
        }
    }
    char t[9];
    pat_cell_text(1 + 2 * 3 + 2 * 2187, t);
    CHECK_STR(t, "xo.....o");
}

static void random_patterns(uint64_t *rng, EvalPatterns *p, int scale)
{
    for (int ph = 0; ph < 2; ph++)
        for (int t = 0; t < PAT_NTABLES; t++) {
            int16_t *c = pat_cells(p, t, ph);
            for (int i = 0; i < pat_tables[t].cells; i++)
                c[i] = (int16_t)((int)(km_rng_next(rng) % (uint64_t)(2 * scale + 1)) - scale);
        }
}

/* The combined tables the evaluation reads give, on random positions and
 * random weights at the largest magnitude allowed, what the tables as written
 * give feature by feature; the score is antisymmetric and the same for the
 * mirrored position; the fast region indices equal the plain ones. */
TEST(patterns_ready_tables_equal_the_written_ones)
{
    uint64_t rng = 77;
    EvalPatterns *p = pat_new();
    CHECK(p != NULL);
    if (!p) return;
    random_patterns(&rng, p, PAT_WEIGHT_MAX);
    pat_finish(p);
    RefRng rr = {99};
    int n = test_sanitized() ? 2000 : 20000, bad = 0;
    for (int k = 0; k < n && bad < 5; k++) {
        Board b;
        ref_random_board(&rr, &b);
        int32_t o, e, wo, we;
        pat_score(p, &b, &o, &e);
        pat_score_written(p, &b, KM_BLACK, &wo, &we);
        if (o != wo || e != we) {
            char fen[128];
            board_to_fen(&b, fen, sizeof fen);
            CHECK_MSG(0, "%s: ready %d/%d, written %d/%d", fen, o, e, wo, we);
            bad++;
        }
        pat_score_written(p, &b, KM_WHITE, &wo, &we);
        CHECK(wo == -o && we == -e);
        CHECK_INT(pat_eval(p, &b, KM_WHITE), -pat_eval(p, &b, KM_BLACK));
        Board m;
        board_mirror(&b, &m);
        CHECK_INT(pat_eval(p, &m, KM_WHITE), pat_eval(p, &b, KM_BLACK));
    }
    free(p);
}

/* A weights file with tables: written and read back to the same shared copy;
 * eval_score agrees with the named part plus pat_eval. */
TEST(patterns_weights_file_round_trip)
{
    uint64_t rng = 5;
    EvalPatterns *p = pat_new();
    CHECK(p != NULL);
    if (!p) return;
    random_patterns(&rng, p, 300);
    for (int i = 100; i < PAT_REGION_CELLS; i++) p->region[1][4][i] = 0; /* rows of zeros are left out */
    Weights w;
    weights_default(&w);
    w.pat = NULL; /* the default's named weights, without its own layer */
    Weights named = w;
    w.pat = pat_intern(p);
    CHECK(w.pat != NULL);
    char *text = weights_format(&w, "a test");
    CHECK(text && strstr(text, "\ntable end.r1c2\n0: ") && strstr(text, "\ntable man\n0: "));
    /* in end.r1c2 (cells 100 on zero) the row of 96 is written, 112 on not */
    const char *blk = text ? strstr(text, "\ntable end.r1c2\n") : NULL;
    const char *blk_end = blk ? strstr(blk + 1, "\ntable ") : NULL;
    const char *r96 = blk ? strstr(blk, "\n96: ") : NULL, *r112 = blk ? strstr(blk, "\n112: ") : NULL;
    CHECK(blk && r96 && (!blk_end || r96 < blk_end));
    CHECK(blk && (!r112 || (blk_end && r112 > blk_end)));
    Weights r;
    char err[KM_ERR_MAX];
    CHECK_MSG(text && weights_parse(&r, text, "t.w", NULL, err) == 0, "%s", err);
    CHECK(r.pat == w.pat); /* interned: the same weights, the same copy */
    CHECK(eval_weights_key(&r) == eval_weights_key(&w) && eval_weights_key(&r) != eval_weights_key(&named));
    static EvalTable t, tn; /* static: 5 KB each */
    eval_table_init(&t, &w);
    eval_table_init(&tn, &named);
    RefRng rr = {3};
    for (int k = 0; k < 2000; k++) {
        Board b;
        ref_random_board(&rr, &b);
        for (int side = 0; side < 2; side++) {
            int32_t v = eval_score(&b, side, &tn) + pat_eval(w.pat, &b, side);
            CHECK_INT(eval_score(&b, side, &t), v);
        }
    }
    free(text);
    /* a layer whose every cell is 0 adds nothing and is no layer, as
     * weights_format writes it (fuzz_weights found "table  man" read back
     * as other weights) */
    CHECK_MSG(weights_parse(&r, "own_men 1000\ntable man\n", "z.w", NULL, err) == 0, "%s", err);
    CHECK(r.pat == NULL && r.w[0] == 1000);
    CHECK_MSG(weights_parse(&r, "own_men 1000\ntable end.man\n0: 0 0 0\nopp_men -1000\n", "z.w", NULL, err) ==
                  0,
              "%s", err);
    CHECK(r.pat == NULL && r.w[2] == -1000);
    CHECK_MSG(weights_parse(&r, "own_men 1000\ntable man\n0: 0 0 5\n", "z.w", NULL, err) == 0, "%s", err);
    CHECK(r.pat != NULL);
}

TEST(patterns_weights_file_errors)
{
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"own_men 1000\ntable nope\n0: 1\n", "t.w:2: unknown table 'nope'"},
        {"own_men 1000\n0: 1 2\n", "t.w:2: cell values outside a table"},
        {"own_men 1000\ntable man\n30: 1 2 3\n", "t.w:3: table 'man' has cells 0..31 only"},
        {"own_men 1000\ntable r0c0\n0: 1 9000\n",
         "t.w:3: value 9000 in table 'r0c0' is out of range -6000..6000"},
        {"own_men 1000\ntable king\n0 1 2\n", "t.w:3: expected 'CELL: values' in table 'king'"},
        {"own_men 1000\ntable king\n0: 1 x2\n", "t.w:3: value 'x2' in table 'king' is not an integer"},
        {"own_men 1000\ntable king\n0: 1\ntable king\n",
         "t.w:4: duplicate table 'king' (first given on line 2)"},
        {"own_men 1000\ntable king\n0: 1\nown_men 5\n",
         "t.w:4: duplicate parameter 'own_men' (first given on line 1)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Weights w;
        char err[KM_ERR_MAX] = "";
        CHECK_MSG(weights_parse(&w, bad[i].text, "t.w", NULL, err) == -1, "accepted: %s", bad[i].text);
        CHECK_STR(err, bad[i].msg);
    }
    /* a table after the named weights, then named weights again: both read */
    Weights w;
    char err[KM_ERR_MAX];
    CHECK_MSG(weights_parse(&w, "own_men 1000\ntable king\n4: 7 -7\nopp_men -1000\n", "t.w", NULL, err) == 0,
              "%s", err);
    CHECK(w.pat && w.pat->king[0][4] == 7 && w.pat->king[0][5] == -7 && w.w[EP_opp_men] == -1000);
}

/* kingme eval lists each table's part and a total equal to the library's
 * evaluation; kingme show draws the square tables and sums up the regions. */
TEST(patterns_eval_and_show_commands)
{
    uint64_t rng = 11;
    EvalPatterns *p = pat_new();
    CHECK(p != NULL);
    if (!p) return;
    random_patterns(&rng, p, 200);
    Weights w;
    weights_default(&w);
    w.pat = pat_intern(p);
    char path[] = "/tmp/kingme-pat-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) return;
    close(fd);
    char err[KM_ERR_MAX];
    CHECK_MSG(weights_write(&w, path, "random tables", err) == 0, "%s", err);
    const char *fen = "B:W18,19,21,22,23,25,27,28,31,32:B1,2,3,4,9,10,11,K12,14,16";
    Board b;
    CHECK(board_from_fen(&b, fen, err) == 0);
    for (int side = 0; side < 2; side++) {
        char cmd[512], out[8192];
        snprintf(cmd, sizeof cmd, "%s eval --weights %s --fen '%s' --for %s", test_kingme(), path, fen,
                 side ? "white" : "black");
        CHECK_INT(test_run(cmd, out, sizeof out), 0);
        long total = 0, named = 0, pat = 0;
        const char *t = strstr(out, "\ntotal ");
        CHECK_MSG(t && sscanf(t, "\ntotal %ld (named %ld + patterns %ld)", &total, &named, &pat) == 3, "%s",
                  out);
        CHECK_INT(total, test_eval_score(&b, side, &w));
        CHECK_INT(pat, pat_eval(w.pat, &b, side));
        CHECK(strstr(out, "  r2c2 ") != NULL && strstr(out, "  king ") != NULL);
    }
    static char out[65536];
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s show %s --no-legend", test_kingme(), path);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "pattern layer: 17 tables in two phases, 196958 cells") != NULL, "%s", out);
    /* the man table's first row: a light square, then square 1's weight */
    char row[64];
    snprintf(row, sizeof row, "\n     .%4d   .%4d", w.pat->man[0][0], w.pat->man[0][1]);
    CHECK_MSG(strstr(out, row) != NULL, "no '%s' in\n%s", row + 1, out);
    CHECK(strstr(out, "\nr4c4   13122 ") != NULL);
    unlink(path);
}
