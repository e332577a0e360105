/* test_integrity.c - the files kingme writes and reads back are whole or
 * refused, every byte of input is accounted for, and every --workers job
 * kind runs from the command line: the book built on workers from the
 * command line, self-play chunks whose header, number and configuration
 * are checked, the book's header bounded on write as on read and shown
 * escaped, one escaping rule for what kingme echoes, the memory of a run
 * checked before it starts. (docs/reliability.md names each promise.) */
#include "kingme/base.h"
#include "kingme/book.h"
#include "kingme/book_build.h"
#include "kingme/memlimit.h"
#include "kingme/movegen.h"
#include "kingme/selfplay.h"
#include "kingme/textio.h"
#include "kingme/weights.h"
#include "test.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char out[1 << 16];

/* Runs `timeout 120 KINGME ARGS` in a shell; stdout and stderr into out. */
static int kingme(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int kingme(const char *fmt, ...)
{
    char args[3000], cmd[3200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "{ timeout 120 %s %s; }", test_kingme(), args);
    return test_run(cmd, out, sizeof out);
}

/* A workers file of two local `kingme worker` processes in dir. */
static void workers_file(const char *dir, char *path, size_t len)
{
    snprintf(path, len, "%s/workers.txt", dir);
    char text[1200];
    snprintf(text, sizeof text, "%s worker\n%s worker\n", test_kingme(), test_kingme());
    if (!test_put_file(path, text)) test_fail(__FILE__, __LINE__, "cannot write %s", path);
}

/* ---- every --workers job kind from the command line ---------------------------- */

/* workers are sent the named weights only (no pattern layer) */
#define BOOK_SMALL "--depth 4 --start-plies 2 --ballot-plies 1 --batch 8 --hash 1 --weights weights/named.w"

/* book build --workers aborted (SIGABRT: "no option --concurrency in the
 * table"), with -j 1 and with --resume too. The book built on workers is the
 * one built on one thread. */
TEST(integrity_book_build_on_workers_from_the_command_line)
{
    char dir[256], list[512];
    test_fresh_dir("int", dir, sizeof dir, "bookw");
    workers_file(dir, list, sizeof list);
    CHECK_INT(kingme("book build " BOOK_SMALL " --positions 40 -j 1 --out %s/one.book", dir), 0);
    CHECK_INT(kingme("book build " BOOK_SMALL " --positions 40 --workers %s --out %s/w.book", list, dir), 0);
    CHECK_MSG(strstr(out, ", 2 workers (no local thread)\n") && !strstr(out, "internal error"), "%s", out);
    CHECK_INT(kingme("book build " BOOK_SMALL " --positions 24 --workers %s -j 1 --out %s/r.book", list, dir),
              0);
    CHECK_INT(
        kingme(
            "book build --resume --positions 40 --weights weights/named.w --workers %s -j 1 --out %s/r.book",
            list, dir),
        0);
    CHECK_MSG(strstr(out, "going on with"), "%s", out);
    /* the old spelling of -j still reads */
    CHECK_INT(kingme("book build " BOOK_SMALL " --positions 40 -j 1 --force --out %s/t.book", dir), 0);
    char path[600], err[KM_ERR_MAX];
    uint32_t crc[4] = {0};
    static const char *const names[4] = {"one", "w", "r", "t"};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s.book", dir, names[i]);
        Book *bk = book_open(path, err);
        CHECK_MSG(bk != NULL, "%s", err);
        if (bk) crc[i] = book_header(bk)->data_crc;
        book_close(bk);
    }
    CHECK_MSG(crc[0] && crc[0] == crc[1] && crc[0] == crc[2] && crc[0] == crc[3],
              "other books: %08x %08x %08x %08x", crc[0], crc[1], crc[2], crc[3]);
    test_remove_dir(dir);
}

#define SP_SMALL \
    "--games 4 --chunk 2 --nodes 200 --random-plies 2 --seed 3 --no-egdb --weights weights/named.w"

/* selfplay --workers from the command line: the chunks of -j 1. */
TEST(integrity_selfplay_on_workers_from_the_command_line)
{
    char dir[256], list[512];
    test_fresh_dir("int", dir, sizeof dir, "spw");
    workers_file(dir, list, sizeof list);
    CHECK_INT(kingme("selfplay " SP_SMALL " -j 1 --out %s/one 2>/dev/null", dir), 0);
    CHECK_INT(kingme("selfplay " SP_SMALL " --workers %s --out %s/w 2>/dev/null", list, dir), 0);
    char cmd[1200];
    snprintf(cmd, sizeof cmd,
             "cmp %s/one/sp-000000.kmsp %s/w/sp-000000.kmsp && cmp %s/one/sp-000001.kmsp %s/w/sp-000001.kmsp",
             dir, dir, dir, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    test_remove_dir(dir);
}

/* ---- self-play chunks: whole or refused ------------------------------------------ */

/* Each setting a game depends on changes the configuration key; the table's
 * size did not (--hash 16, 1 and 0 give three different games). */
TEST(integrity_selfplay_key_holds_every_setting)
{
    SelfplayConfig base;
    selfplay_config_default(&base);
    uint64_t keys[12];
    int n = 0;
    keys[n++] = selfplay_config_key(&base);
    for (int k = 0; k < 9; k++) {
        SelfplayConfig c = base;
        switch (k) {
        case 0:
            c.seed++;
            break;
        case 1:
            c.nodes++;
            break;
        case 2:
            c.chunk++;
            break;
        case 3:
            c.random_plies++;
            break;
        case 4:
            c.margin++;
            break;
        case 5:
            c.max_plies++;
            break;
        case 6:
            c.hash_mb++;
            break;
        case 7:
            c.weights.w[0]++;
            break;
        case 8:
            c.egdb = test_db();
            break;
        }
        if (k == 8 && !c.egdb) continue;
        keys[n++] = selfplay_config_key(&c);
    }
    CHECK_INT(n, 10);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++) CHECK_MSG(keys[i] != keys[j], "settings %d and %d give one key", i, j);
    /* the games it played: another table, another chunk file */
    SelfplayConfig c = base;
    c.nodes = 3000;
    c.random_plies = 0;
    c.hash_mb = 0;
    SelfplayData d0 = {0}, d1 = {0};
    char err[KM_ERR_MAX];
    CHECK(selfplay_game(&c, 0, &d0, err) == 0);
    c.hash_mb = 1;
    CHECK(selfplay_game(&c, 0, &d1, err) == 0);
    bool same = d0.n == d1.n;
    for (size_t i = 0; same && i < d0.n; i++) same = d0.pos[i].score == d1.pos[i].score;
    CHECK_MSG(!same, "the table's size changes nothing: take it out of the key again?");
    selfplay_data_free(&d0);
    selfplay_data_free(&d1);
}

/* A chunk file's bytes: read whole; written back whole after a change, its
 * checksum (bytes 0-39 and the positions) made right again when fix. */
static uint8_t *chunk_bytes(const char *path, size_t *n)
{
    char err[KM_ERR_MAX];
    return (uint8_t *)textio_read_text(path, NULL, n, err);
}

static void chunk_put(const char *path, uint8_t *b, size_t n, bool fix)
{
    if (fix) {
        uint64_t h = 0xcbf29ce484222325ull;
        for (size_t i = 0; i < n; i++)
            if (i < 40 || i >= 48) h = (h ^ b[i]) * 0x100000001b3ull;
        for (int k = 0; k < 8; k++) b[40 + k] = (uint8_t)(h >> 8 * k);
    }
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b, 1, n, f) != n) test_fail(__FILE__, __LINE__, "cannot write %s", path);
    if (f) fclose(f);
}

static void put32le(uint8_t *p, uint32_t v)
{
    for (int k = 0; k < 4; k++) p[k] = (uint8_t)(v >> 8 * k);
}

TEST(integrity_selfplay_chunks_whole_or_refused)
{
    char dir[256], a0[400], a1[400];
    test_fresh_dir("int", dir, sizeof dir, "chunks");
    CHECK_INT(kingme("selfplay " SP_SMALL " -j 1 --hash 1 --out %s/a", dir), 0);
    snprintf(a0, sizeof a0, "%s/a/sp-000000.kmsp", dir);
    snprintf(a1, sizeof a1, "%s/a/sp-000001.kmsp", dir);
    /* a lost chunk resumed with another --hash: refused, nothing mixed */
    CHECK(unlink(a1) == 0);
    CHECK_INT(kingme("selfplay " SP_SMALL " -j 1 --hash 2 --out %s/a", dir), 1);
    CHECK_MSG(strstr(out, "sp-000000.kmsp: made by another configuration"), "%s", out);
    CHECK(access(a1, F_OK) != 0);
    CHECK_INT(kingme("selfplay " SP_SMALL " -j 1 --hash 1 --out %s/a", dir), 0);
    /* a chunk copied over another: its number is checked */
    size_t n0, n1;
    uint8_t *b0 = chunk_bytes(a0, &n0), *b1 = chunk_bytes(a1, &n1);
    CHECK(b0 && b1);
    if (!b0 || !b1) {
        free(b0), free(b1);
        return;
    }
    chunk_put(a1, b0, n0, false);
    CHECK_INT(kingme("selfplay " SP_SMALL " -j 1 --hash 1 --out %s/a", dir), 1);
    CHECK_MSG(strstr(out, "sp-000001.kmsp: holds chunk 0, not 1 (a copy of another chunk?)"), "%s", out);
    CHECK_INT(kingme("fit %s/a --epochs 1 --out %s/w.w", dir, dir), 1);
    CHECK_MSG(strstr(out, "sp-000001.kmsp: holds chunk 0, not 1"), "%s", out);
    /* a bit flipped in the header (Black's wins): the checksum holds it */
    uint8_t *c = malloc(n1);
    CHECK(c != NULL);
    if (c) {
        memcpy(c, b1, n1);
        c[28] ^= 1;
        chunk_put(a1, c, n1, false);
        CHECK_INT(kingme("fit %s/a --epochs 1 --out %s/w.w", dir, dir), 1);
        CHECK_MSG(strstr(out, "sp-000001.kmsp: checksum mismatch (the file is corrupt)"), "%s", out);
        /* a crafted count of games (checksum made right) overflowed an int */
        memcpy(c, b1, n1);
        put32le(c + 20, 0x7FFFFFFF);
        chunk_put(a1, c, n1, true);
        CHECK_INT(kingme("fit %s/a --epochs 1 --out %s/w.w", dir, dir), 1);
        CHECK_MSG(strstr(out, "sp-000001.kmsp: 2147483647 games, 2 results: not a chunk's games"), "%s", out);
        /* another configuration's chunk in the folder */
        memcpy(c, b1, n1);
        c[8] ^= 1;
        chunk_put(a1, c, n1, true);
        CHECK_INT(kingme("fit %s/a --epochs 1 --out %s/w.w", dir, dir), 1);
        CHECK_MSG(strstr(out, "sp-000001.kmsp: made by another configuration than sp-000000.kmsp"), "%s",
                  out);
        /* the file as it was reads again */
        chunk_put(a1, b1, n1, false);
        CHECK_INT(kingme("selfplay " SP_SMALL " -j 1 --hash 1 --out %s/a", dir), 0);
        CHECK_MSG(strstr(out, "selfplay: 4 games, "), "%s", out);
    }
    free(c);
    free(b0);
    free(b1);
    test_remove_dir(dir);
}

/* ---- the book's header: bounded on write as on read, shown escaped ---------------- */

/* A small valid header and one position (the initial one, one move). */
static uint8_t *small_book(const char *command, size_t *len, char *err)
{
    BookHeader h = {0};
    h.man = 1000, h.depth = 4, h.target = 1, h.batch = 1, h.hash_mb = 1, h.finished = true;
    h.command = (char *)command;
    Board b;
    board_init(&b);
    MoveList ml;
    mg_moves(&b, &ml);
    uint16_t code = (uint16_t)book_move_code(&b, &ml.moves[0]);
    int16_t score = 0;
    BookOutPos pos = {book_key(&b), 1, &code, &score};
    return book_encode(&h, &pos, 1, len, err);
}

/* Its header's depth set to v, the header's checksum made right. */
static void set_depth(uint8_t *p, uint32_t v)
{
    put32le(p + 36, v);
    uint32_t hbytes = p[12] | (uint32_t)p[13] << 8 | (uint32_t)p[14] << 16 | (uint32_t)p[15] << 24;
    static const uint8_t zero[4];
    uint32_t c = textio_crc32(0, p, 96);
    c = textio_crc32(c, zero, 4);
    put32le(p + 96, textio_crc32(c, p + 100, hbytes - 100));
}

TEST(integrity_book_header_bounded_and_shown_escaped)
{
    char err[KM_ERR_MAX], dir[256], path[400];
    test_fresh_dir("int", dir, sizeof dir, "bookh");
    /* every resume appended its command: past BOOK_COMMAND_MAX the first
     * command, "..." and the last are kept, and the book reads back */
    BookBuildParams p;
    book_build_params_default(&p);
    Weights w;
    weights_default(&w);
    BookBuild *bb = book_build_new(&p, &w, "kingme book build --first", err);
    CHECK_MSG(bb != NULL, "%s", err);
    if (bb) {
        char text[1000];
        memset(text, 'r', sizeof text - 1);
        text[sizeof text - 1] = '\0';
        memcpy(text, "kingme book build --resume", 26);
        for (int i = 0; i < 2000; i++) CHECK(book_build_add_command(bb, text) == 0);
        const char *c = book_build_command(bb);
        CHECK_MSG(strlen(c) <= BOOK_COMMAND_MAX, "%zu bytes", strlen(c));
        CHECK(strncmp(c, "kingme book build --first; ...; kingme book build --resume", 58) == 0);
        CHECK(strcmp(c + strlen(c) - 3, "rrr") == 0);
        size_t len;
        uint8_t *bytes = small_book(c, &len, err);
        CHECK_MSG(bytes != NULL, "%s", err);
        Book *bk = bytes ? book_from_bytes(bytes, len, "resumed", err) : NULL;
        CHECK_MSG(bk != NULL, "%s", err);
        book_close(bk);
        free(bytes);
        book_build_free(bb);
    }
    /* a longer text is refused by the writer, as the reader refuses it */
    char *huge = malloc(BOOK_COMMAND_MAX + 2);
    CHECK(huge != NULL);
    if (huge) {
        memset(huge, 'x', BOOK_COMMAND_MAX + 1);
        huge[BOOK_COMMAND_MAX + 1] = '\0';
        size_t len;
        CHECK(small_book(huge, &len, err) == NULL);
        CHECK_MSG(strstr(err, "command text is 65537 bytes (at most 65536)"), "%s", err);
        free(huge);
    }
    /* book info shows the command escaped: no line forged on a terminal */
    size_t len;
    uint8_t *bytes = small_book("kingme book build\r\033[2Kchecksums verified\n\x7F", &len, err);
    CHECK_MSG(bytes != NULL, "%s", err);
    if (!bytes) return;
    snprintf(path, sizeof path, "%s/esc.book", dir);
    CHECK(textio_write_atomic(path, (const char *)bytes, len, err) == 0);
    CHECK_INT(kingme("book info --book %s", path), 0);
    CHECK_MSG(strstr(out, "built by: kingme book build\\x0D\\x1B[2Kchecksums verified\\x0A\\x7F\n"), "%s",
              out);
    CHECK_MSG(!strchr(out, '\033') && !strchr(out, '\r') && !strchr(out, 0x7F), "%s", out);
    /* numbers out of range are refused at reading (a depth of INT_MIN overflowed) */
    set_depth(bytes, 0x80000000u);
    CHECK(textio_write_atomic(path, (const char *)bytes, len, err) == 0);
    CHECK_INT(kingme("book info --book %s", path), 1);
    char want[600];
    snprintf(want, sizeof want, "kingme: %s: corrupt header (the depth out of range)\n", path);
    CHECK_STR(out, want);
    set_depth(bytes, 4);
    CHECK(textio_write_atomic(path, (const char *)bytes, len, err) == 0);
    CHECK_INT(kingme("book info --book %s", path), 0);
    free(bytes);
    /* KINGME_BOOK=none: no book, not the default one */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "KINGME_BOOK=none %s book info", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    CHECK_MSG(strstr(out, "kingme: no opening book: KINGME_BOOK is none; give --book FILE\n") &&
                  !strstr(out, "\nbuilt by"),
              "%s", out);
    test_remove_dir(dir);
}

/* ---- every byte of input accounted for -------------------------------------------- */

/* A NUL in an engine line truncated it: "go depth 2\0 depth 40" searched
 * depth 2. The line is refused whole, with a line saying so. */
TEST(integrity_engine_refuses_a_nul_byte)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd,
             "printf 'go depth 2\\000 depth 40\\nisready\\nquit\\n' | %s engine --no-egdb --no-book",
             test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_STR(out, "error a NUL byte in the line (byte 11): the line is ignored\nreadyok\n");
}

/* PDN error lines showed bytes as '?', and an ESC in move text was read as
 * the start of a tag, a second game; a DEL in a tag reached analyze's
 * report raw. */
TEST(integrity_pdn_and_analyze_escape_what_they_echo)
{
    char dir[256], path[400];
    test_fresh_dir("int", dir, sizeof dir, "pdn");
    snprintf(path, sizeof path, "%s/g.pdn", dir);
    CHECK(test_put_file(path, "[Black \"Bl\x7F"
                              "ck\"]\n[White \"caf\xC3\xA9 \xFF\"]\n"
                              "1. 11-15 \033[31m 23-19 *\n"));
    CHECK_INT(kingme("pdn %s", path), 1);
    char want[600];
    snprintf(want, sizeof want,
             "kingme: %s: game 1 (line 3): '\\x1B[31m' is not a move, move number or result\n", path);
    CHECK_MSG(strstr(out, want), "%s", out);
    CHECK_MSG(strstr(out, "1 game,") || strstr(out, "1 game "), "%s", out);
    CHECK_MSG(!strchr(out, '\033'), "%s", out);
    snprintf(path, sizeof path, "%s/h.pdn", dir);
    CHECK(test_put_file(path, "[Black \"Bl\x7F"
                              "ck\"]\n[White \"caf\xC3\xA9 \xFF\"]\n1. 11-15 23-19 *\n"));
    CHECK_INT(kingme("pdn --verbose %s", path), 0);
    CHECK_MSG(strstr(out, "Bl\\x7Fck - caf\xC3\xA9 \\xFF,"), "%s", out);
    CHECK_INT(kingme("analyze %s --depth 1 --out %s/a.pdn --svg %s/a.svg", path, dir, dir), 0);
    CHECK_MSG(strstr(out, "game 1: Bl\\x7Fck - caf\xC3\xA9 \\xFF, *") && strstr(out, "Black (Bl\\x7Fck)") &&
                  !strchr(out, 0x7F),
              "%s", out);
    char svg[400], why[256];
    snprintf(svg, sizeof svg, "%s/a.svg", dir);
    char *t = test_slurp(svg);
    CHECK_MSG(t && test_xml_well_formed(t, "svg", why, sizeof why), "%s", t ? why : "no picture");
    free(t);
    /* a surrogate in a name: the picture stays XML */
    CHECK(test_put_file(path, "[Black \"s\xED\xA0\x80\"]\n[White \"w\xEF\xBF\xBF\"]\n1. 11-15 23-19 *\n"));
    CHECK_INT(kingme("analyze %s --depth 1 --out %s/a.pdn --svg %s/a.svg", path, dir, dir), 0);
    t = test_slurp(svg);
    CHECK_MSG(t && test_xml_well_formed(t, "svg", why, sizeof why), "%s", t ? why : "no picture");
    CHECK_MSG(t && strstr(t, "s\\xED\\xA0\\x80"), "%s", t ? t : "");
    free(t);
    /* --out -: the annotated games alone on the standard output */
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "{ { %s analyze %s --depth 1 --out -; } 2>/dev/null; }", test_kingme(), path);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(out[0] == '[' && !strstr(out, "game 1:") && !strstr(out, "written to"), "%s", out);
    test_remove_dir(dir);
}

/* ---- memory checked for the run, not per table -------------------------------------- */

TEST(integrity_memory_checked_for_the_whole_run)
{
    uint64_t have = memlimit_bytes() >> 20;
    if (!have) {
        test_skip("the memory here is not known");
        return;
    }
    long long half = (long long)(have * 6 / 10);
    if (half > 65536) {
        test_skip("more than 109 GB here: two tables of the largest --hash fit");
        return;
    }
    char dir[256];
    test_fresh_dir("int", dir, sizeof dir, "mem");
    char want[200];
    snprintf(want, sizeof want, "--hash %lld with -j 2 needs %lld MB of tables, more than the %llu MB", half,
             2 * half, (unsigned long long)have);
    CHECK_INT(kingme("book build --hash %lld -j 2 --out %s/b.book", half, dir), 1);
    CHECK_MSG(strstr(out, want), "%s", out);
    CHECK_INT(kingme("selfplay --hash %lld -j 2 --games 2 --no-egdb --out %s/sp", half, dir), 1);
    CHECK_MSG(strstr(out, want), "%s", out);
    CHECK(access(dir, F_OK) == 0);
    test_remove_dir(dir);
}

/* ---- fit with nothing held out ---------------------------------------------------------- */

TEST(integrity_fit_with_nothing_held_out)
{
    char dir[256];
    test_fresh_dir("int", dir, sizeof dir, "fit");
    CHECK_INT(kingme("selfplay " SP_SMALL " -j 1 --out %s/sp 2>/dev/null", dir), 0);
    CHECK_INT(kingme("fit %s/sp --epochs 2 --holdout 0 -j 1 --out %s/w.w 2>/dev/null", dir, dir), 0);
    CHECK_MSG(strstr(out, ", held out none; wrote ") && !strstr(out, "-1.0"), "%s", out);
    char w[400];
    snprintf(w, sizeof w, "%s/w.w", dir);
    char *t = test_slurp(w);
    CHECK_MSG(t && strstr(t, "; held out: none\n") && !strstr(t, "-1.0"), "%s", t ? t : "(no file)");
    free(t);
    test_remove_dir(dir);
}
