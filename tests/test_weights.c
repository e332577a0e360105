/* test_weights.c - weights files: parsing, every error with its file:line
 * message, write/read round trip, and the shipped files (weights/). */
#include "kingme/weights.h"
#include "test.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern const char weights_default_text[];

static bool weights_equal(const Weights *a, const Weights *b)
{
    return memcmp(a, b, sizeof *a) == 0; /* every term, the ending vector, the phase */
}

TEST(weights_parse_format)
{
    const char *text = "# head one\n"
                       "#\n"
                       "#   head three, indented\n"
                       "\n"
                       "own_men 1000\n"
                       "opp_men\t-1000   # a trailing comment\r\n"
                       "   own_kings +1300\r\n"
                       "# a comment after the header is not part of it\n"
                       "\n"
                       "opp_longest_block_line -32768\n"
                       "own_promotion_row_empty 32767"; /* no final newline */
    Weights w;
    memset(&w, 0x55, sizeof w);
    char *comments = NULL, err[KM_ERR_MAX] = "";
    CHECK_INT(weights_parse(&w, text, "t.w", &comments, err), 0);
    CHECK_STR(err, "");
    CHECK_INT(w.w[0], 1000);
    CHECK_INT(w.w[2], -1000);
    CHECK_INT(w.w[1], 1300);
    CHECK_INT(w.w[59], -32768);
    CHECK_INT(w.w[22], 32767);
    int nonzero = 0;
    for (int i = 0; i < EVAL_NPARAMS; i++) nonzero += w.w[i] != 0;
    CHECK_INT(nonzero, 5); /* parameters not listed are 0 */
    CHECK(comments != NULL);
    if (comments) CHECK_STR(comments, "head one\n\n  head three, indented\n");
    free(comments);

    /* empty text and comments only are refused (they once read as all
     * zeros, silently); nothing is written */
    Weights before = w;
    comments = (char *)"untouched";
    CHECK_INT(weights_parse(&w, "", "t.w", &comments, err), -1);
    CHECK_STR(err, "t.w: no parameters (the file is empty or holds only comments)");
    CHECK_INT(weights_parse(&w, "# only\r\n\n  \n", "t.w", &comments, err), -1);
    CHECK_STR(err, "t.w: no parameters (the file is empty or holds only comments)");
    CHECK(weights_equal(&w, &before));
    CHECK_STR(comments, "untouched");
    /* one parameter is enough; the others are 0 */
    CHECK_INT(weights_parse(&w, "# only\nopp_men -7\n", "t.w", &comments, err), 0);
    CHECK_STR(comments, "only\n");
    free(comments);
    for (int i = 0; i < EVAL_NPARAMS; i++) CHECK_INT(w.w[i], i == 2 ? -7 : 0); /* opp_men is number 3 */
    /* comments may be NULL */
    CHECK_INT(weights_parse(&w, "own_men 5\n", "t.w", NULL, err), 0);
    CHECK_INT(w.w[0], 5);
}

/* Each malformed line, with the exact message. */
TEST(weights_parse_errors)
{
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"own_men 1000\nown_mem 5\n", "x.w:2: unknown parameter 'own_mem'"},
        {"Own_men 5\n", "x.w:1: unknown parameter 'Own_men'"},
        {"1\town_men\t5\n", "x.w:1: unknown parameter '1'"},
        {"own_men 1\n\n# c\nown_men 2\n", "x.w:4: duplicate parameter 'own_men' (first given on line 1)"},
        {"own_men 32768\n", "x.w:1: value 32768 of 'own_men' is out of range -32768..32767"},
        {"opp_dog -32769\n", "x.w:1: value -32769 of 'opp_dog' is out of range -32768..32767"},
        {"opp_dog 99999999999999999999999\n",
         "x.w:1: value 99999999999999999999999 of 'opp_dog' is out of range -32768..32767"},
        {"own_men 12x\n", "x.w:1: value '12x' of 'own_men' is not an integer"},
        {"own_men 1.5\n", "x.w:1: value '1.5' of 'own_men' is not an integer"},
        {"own_men -\n", "x.w:1: value '-' of 'own_men' is not an integer"},
        {"own_men 0x10\n", "x.w:1: value '0x10' of 'own_men' is not an integer"},
        {"own_men\n", "x.w:1: missing value for 'own_men'"},
        {"own_men   \r\n", "x.w:1: missing value for 'own_men'"},
        {"own_men # 12\n", "x.w:1: missing value for 'own_men'"},
        {"own_men 12 13\n", "x.w:1: unexpected '13' after the value of 'own_men'"},
        {"\r\n\r\nown_men 1 2 3\r\n", "x.w:3: unexpected '2 3' after the value of 'own_men'"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        Weights w, before;
        memset(&w, 0x33, sizeof w);
        before = w;
        char err[KM_ERR_MAX] = "", *comments = (char *)"untouched";
        CHECK_INT(weights_parse(&w, cases[k].text, "x.w", &comments, err), -1);
        CHECK_STR(err, cases[k].msg);
        CHECK(weights_equal(&w, &before)); /* nothing written on failure */
        CHECK_STR(comments, "untouched");
    }
}

static void temp_path(char *buf, size_t len, const char *tag)
{
    snprintf(buf, len, "/tmp/kingme-test-weights-%d-%s.w", (int)getpid(), tag);
}

TEST(weights_write_read_round_trip)
{
    char path[128], tmp[160];
    temp_path(path, sizeof path, "rt");
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    Weights w = {0};
    uint32_t x = 2463534242u;
    for (int i = 0; i < EVAL_NPARAMS; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        w.w[i] = (int16_t)(x & 0xffff);
    }
    w.w[0] = -32768, w.w[1] = 32767, w.w[2] = 0;
    char err[KM_ERR_MAX] = "";
    CHECK_INT(weights_write(&w, path, "made by a test\n\n  indented # with a hash\nlast", err), 0);
    CHECK_STR(err, "");
    CHECK(access(tmp, F_OK) != 0); /* renamed, not left behind */
    Weights r;
    char *comments = NULL;
    CHECK_INT(weights_read(&r, path, &comments, err), 0);
    CHECK(weights_equal(&w, &r));
    CHECK(comments && strcmp(comments, "made by a test\n\n  indented # with a hash\nlast\n") == 0);

    /* and once more: the file is stable */
    char *text1 = weights_format(&r, comments), *text2 = NULL;
    CHECK_INT(weights_write(&r, path, comments, err), 0);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (f) {
        static char buf[8192];
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = '\0';
        fclose(f);
        text2 = buf;
        CHECK(text1 && strcmp(text1, text2) == 0);
        const char *head = "# made by a test\n#\n#   indented # with a hash\n# last\nown_men ";
        CHECK(strncmp(buf, head, strlen(head)) == 0);
    }
    free(text1);
    free(comments);

    /* no comments at all */
    CHECK_INT(weights_write(&w, path, NULL, err), 0);
    CHECK_INT(weights_read(&r, path, &comments, err), 0);
    CHECK_STR(comments, "");
    free(comments);
    remove(path);
}

TEST(weights_format_lists_every_parameter)
{
    Weights w = {0};
    w.w[3] = -1300;
    char *t = weights_format(&w, "x");
    CHECK(t != NULL);
    if (!t) return;
    int lines = 0;
    for (const char *p = t; *p; p++) lines += *p == '\n';
    CHECK_INT(lines, 61);
    CHECK(strstr(t, "\nopp_kings ") != NULL && strstr(t, " -1300\n") != NULL);
    CHECK(strstr(t, "\nopp_longest_block_line ") != NULL);
    Weights r;
    char err[KM_ERR_MAX];
    CHECK_INT(weights_parse(&r, t, "f", NULL, err), 0);
    CHECK(weights_equal(&w, &r));
    free(t);
}

/* The header: each comment line after "# ", an empty one "#" alone, a CR
 * before the LF dropped, a last line without its LF ended; read back the
 * same lines. */
TEST(weights_format_comment_lines)
{
    Weights w = {0};
    char *t = weights_format(&w, "first\n\r\nthird\r\nlast");
    CHECK(t != NULL);
    if (!t) return;
    const char *head = "# first\n#\n# third\n# last\n";
    CHECK(strncmp(t, head, strlen(head)) == 0 && t[strlen(head)] != '#');
    Weights r;
    char *comments = NULL, err[KM_ERR_MAX];
    CHECK_INT(weights_parse(&r, t, "f", &comments, err), 0);
    const char *lines = "first\n\nthird\nlast";
    CHECK(comments && strncmp(comments, lines, strlen(lines)) == 0);
    free(comments);
    free(t);
}

/* The new terms and the phase: written only when used, read back the same;
 * "end." names turn the phase on; their errors name the line. */
TEST(weights_new_terms_and_phase)
{
    char err[KM_ERR_MAX];
    Weights w = {0}, r;
    w.w[EP_own_men] = 1000;
    w.w[EP_own_runaway_men] = 250;
    char *t = weights_format(&w, NULL);
    CHECK(t != NULL);
    if (!t) return;
    int lines = 0;
    for (const char *p = t; *p; p++) lines += *p == '\n';
    CHECK_INT(lines, EVAL_NTERMS); /* the 60 and the 14 new terms, no ending vector */
    CHECK(strstr(t, "\nown_runaway_men            250\n") != NULL);
    CHECK(strstr(t, "end.") == NULL);
    CHECK_INT(weights_parse(&r, t, "f", NULL, err), 0);
    CHECK(weights_equal(&w, &r));
    CHECK_INT(r.phased, 0);
    free(t);

    /* a phase: every weight twice */
    w.phased = 1;
    w.end[EP_own_men] = 1200;
    w.end[EP_opp_trade_lead] = -7;
    t = weights_format(&w, NULL);
    CHECK(t != NULL);
    if (!t) return;
    lines = 0;
    for (const char *p = t; *p; p++) lines += *p == '\n';
    CHECK_INT(lines, 2 * EVAL_NTERMS);
    CHECK(strstr(t, "\nend.own_men                   1200\n") != NULL);
    CHECK_INT(weights_parse(&r, t, "f", NULL, err), 0);
    CHECK(weights_equal(&w, &r));
    free(t);

    /* one end. line is enough for a phase; the others are 0 */
    CHECK_INT(weights_parse(&r, "own_men 1000\nend.own_men 900\n", "f", NULL, err), 0);
    CHECK_INT(r.phased, 1);
    CHECK_INT(r.w[EP_own_men], 1000);
    CHECK_INT(r.end[EP_own_men], 900);
    CHECK_INT(r.end[EP_opp_men], 0);
    /* a file of the 60 alone: no phase, the new terms 0 */
    CHECK_INT(weights_read(&r, "weights/thesis.w", NULL, err), 0);
    CHECK_INT(r.phased, 0);
    for (int i = EVAL_NPARAMS; i < EVAL_NTERMS; i++) CHECK_INT(r.w[i], 0);

    CHECK_INT(weights_parse(&r, "own_men 1\nend.own_men 2\nend.own_men 3\n", "f", NULL, err), -1);
    CHECK_STR(err, "f:3: duplicate parameter 'end.own_men' (first given on line 2)");
    CHECK_INT(weights_parse(&r, "own_men 1\nend.bogus 2\n", "f", NULL, err), -1);
    CHECK_STR(err, "f:2: unknown parameter 'end.bogus'");
    CHECK_INT(weights_parse(&r, "own_men 1\nend. 2\n", "f", NULL, err), -1);
    CHECK_STR(err, "f:2: unknown parameter 'end.'");
    CHECK_INT(weights_parse(&r, "own_sole_kings 1\nown_sole_kings 2\n", "f", NULL, err), -1);
    CHECK_STR(err, "f:2: duplicate parameter 'own_sole_kings' (first given on line 1)");
}

/* weights_beyond_60: what makes the tuner breed more than the 60 (the
 * terms 61-74, or a phase: test_tune.c has the sessions). */
TEST(weights_beyond_60_terms_or_phase)
{
    char err[KM_ERR_MAX];
    Weights w;
    CHECK_INT(weights_read(&w, "weights/default-60.w", NULL, err), 0);
    CHECK(!weights_beyond_60(&w));
    w.w[EP_opp_trade_lead] = -1;
    CHECK(weights_beyond_60(&w));
    w.w[EP_opp_trade_lead] = 0;
    w.phased = 1;
    CHECK(weights_beyond_60(&w));
    CHECK_INT(weights_read(&w, "weights/terms.w", NULL, err), 0);
    CHECK(weights_beyond_60(&w));
}

TEST(weights_file_errors)
{
    Weights w;
    weights_default(&w); /* a failed read leaves w as it was: written below */
    char err[KM_ERR_MAX] = "";
    CHECK_INT(weights_read(&w, "tests/data/no-such-weights.w", NULL, err), -1);
    CHECK_STR(err, "tests/data/no-such-weights.w: cannot open: No such file or directory");
    /* a malformed file names itself and the line */
    char path[128];
    temp_path(path, sizeof path, "bad");
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs("# header\r\nown_men 1000\r\nopp_men -1000\r\nopp_men 5\r\n", f);
    fclose(f);
    CHECK_INT(weights_read(&w, path, NULL, err), -1);
    char want[256];
    snprintf(want, sizeof want, "%s:4: duplicate parameter 'opp_men' (first given on line 3)", path);
    CHECK_STR(err, want);
    remove(path);
    /* a folder that cannot be made: the temporary file cannot be made */
    CHECK_INT(weights_write(&w, "Makefile/x.w", NULL, err), -1);
    CHECK_STR(err, "Makefile: cannot create the folder: Not a directory");
}

TEST(weights_default_is_compiled_in)
{
    Weights parsed, file, def;
    char err[KM_ERR_MAX] = "";
    CHECK_INT(weights_parse(&parsed, weights_default_text, "built-in", NULL, err), 0);
    CHECK_STR(err, "");
    CHECK_INT(weights_read(&file, "weights/default.w", NULL, err), 0);
    weights_default(&def);
    CHECK(weights_equal(&parsed, &file));
    CHECK(weights_equal(&def, &file));
    /* a sensible vector: a man is worth something, a king more */
    CHECK(def.w[0] > 0 && def.w[1] > def.w[0] && def.w[2] < 0 && def.w[3] < def.w[2]);
}

/* weights/thesis.w holds the published vector: compare with the documents'
 * file (tests/data/thesis-weights.txt, "nr<TAB>name<TAB>value"). */
TEST(weights_thesis_file_is_the_published_vector)
{
    FILE *f = fopen("tests/data/thesis-weights.txt", "r");
    CHECK_MSG(f != NULL, "cannot open tests/data/thesis-weights.txt");
    if (!f) return;
    Weights pub = {0};
    char line[256];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        int nr, v;
        char name[64];
        if (line[0] == '#' || sscanf(line, "%d\t%63s\t%d", &nr, name, &v) != 3) continue;
        CHECK(nr >= 1 && nr <= EVAL_NPARAMS);
        if (nr < 1 || nr > EVAL_NPARAMS) continue;
        CHECK_STR(name, eval_params[nr - 1].name); /* the spec's names and numbers */
        pub.w[nr - 1] = (int16_t)v;
        n++;
    }
    fclose(f);
    CHECK_INT(n, 29);
    Weights th;
    char err[KM_ERR_MAX], *comments = NULL;
    CHECK_INT(weights_read(&th, "weights/thesis.w", &comments, err), 0);
    CHECK(weights_equal(&th, &pub));
    CHECK(comments && strstr(comments, "Table 4.2") != NULL);
    free(comments);
    CHECK_INT(th.w[42 - 1], -32651); /* own_king_in_corner, spot check */

    Weights mat;
    CHECK_INT(weights_read(&mat, "weights/material.w", NULL, err), 0);
    CHECK_INT(mat.w[0], 1000);
    CHECK_INT(mat.w[1], 1300);
    CHECK_INT(mat.w[2], -1000);
    CHECK_INT(mat.w[3], -1300);
    for (int i = 4; i < EVAL_NPARAMS; i++) CHECK_INT(mat.w[i], 0);
}
