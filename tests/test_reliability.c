/* test_reliability.c - what docs/reliability.md promises, each promise
 * against the command that could break it: no write follows a link planted
 * at a temporary name, a link to a missing file is refused by every writer,
 * every writer makes missing folders, a FIFO or a device is refused where a
 * file is read (never waited on), a match on a full disk counts only the
 * games it kept, error lines show control bytes escaped, a byte order mark
 * is accepted, transposition tables are bounded by the memory, the headers
 * say who plays with --workers, and an engine session keeps to a node
 * budget. The endgame database's files are tested in test_egdb.c. */
#include "kingme/base.h"
#include "kingme/egdb.h"
#include "kingme/engine.h"
#include "kingme/memlimit.h"
#include "kingme/pdn.h"
#include "kingme/session.h"
#include "kingme/textio.h"
#include "kingme/tt.h"
#include "kingme/tune.h"
#include "kingme/weights.h"
#include "test.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char out[1 << 16];

/* Runs `KINGME ARGS` in a shell; stdout and stderr into out. */
static int kingme(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int kingme(const char *fmt, ...)
{
    char args[2048], cmd[2200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "{ %s %s; }", test_kingme(), args);
    return test_run(cmd, out, sizeof out);
}

static bool is_link(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

static bool is_regular(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool holds(const char *path, const char *text)
{
    char *t = test_slurp(path);
    bool same = t && strcmp(t, text) == 0;
    free(t);
    return same;
}

/* The writer's temporaries in dir (NAME.XXXXXX.tmp): none once a write
 * has ended. */
static int temps_in(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *s = e->d_name;
        size_t len = strlen(s);
        bool temp = len > 11 && strcmp(s + len - 4, ".tmp") == 0 && s[len - 11] == '.';
        for (size_t i = len - 10; temp && i < len - 4; i++)
            temp =
                (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9');
        n += temp;
    }
    closedir(d);
    return n;
}

/* As kingme(), stopped after 20 s: a regression that waits on a FIFO fails
 * the test instead of hanging the tests. */
static int kingme_timed(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int kingme_timed(const char *fmt, ...)
{
    char args[2048], cmd[2200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "{ timeout 20 %s %s; }", test_kingme(), args);
    return test_run(cmd, out, sizeof out);
}

/* ---- writing ------------------------------------------------------------------- */

/* A link planted at the name the writer once used (NAME.tmp) made kingme
 * write through it: the file it named was overwritten. The temporary is now
 * made exclusively under a name nobody can plant in advance. */
TEST(reliability_a_planted_temporary_link_is_not_followed)
{
    char dir[256], victim[512], target[512], link[600], err[KM_ERR_MAX];
    test_fresh_dir("rel", dir, sizeof dir, "planted");
    snprintf(victim, sizeof victim, "%s/victim", dir);
    snprintf(target, sizeof target, "%s/out.pdn", dir);
    snprintf(link, sizeof link, "%s.tmp", target);
    CHECK(test_put_file(victim, "precious\n"));
    CHECK(symlink(victim, link) == 0);
    CHECK_MSG(textio_write_atomic(target, "new text\n", 9, err) == 0, "%s", err);
    CHECK(holds(victim, "precious\n"));
    CHECK(is_regular(target) && holds(target, "new text\n"));
    CHECK(is_link(link)); /* left as it was */
    CHECK_INT(temps_in(dir), 0);

    /* play --out: the game goes to the file, not through the link */
    CHECK_INT(
        kingme("play --no-color --black engine --white engine --depth 1 --seed 1 --max-plies 4 --out %s",
               target),
        0);
    CHECK(holds(victim, "precious\n"));
    char *t = test_slurp(target);
    CHECK_MSG(t && strncmp(t, "[Event \"kingme play\"]", 21) == 0, "%s", t ? t : "(nothing)");
    free(t);

    /* tune: the population file (NAME.pop.tmp planted) */
    char tdir[512], pdir[640], pop[768], pop_link[800];
    snprintf(tdir, sizeof tdir, "%s/t", dir);
    snprintf(pdir, sizeof pdir, "%s/population", tdir);
    snprintf(pop, sizeof pop, "%s/s.pop", pdir);
    snprintf(pop_link, sizeof pop_link, "%s.tmp", pop);
    CHECK(mkdir(tdir, 0777) == 0 && mkdir(pdir, 0777) == 0);
    CHECK(symlink(victim, pop_link) == 0);
    CHECK_INT(kingme("tune --generations 1 --population 4 --depth 1 --ballots 1 --gladiator 8 --elite 1 "
                     "--yardstick none --seed 1 -j 1 --dir %s --name s",
                     tdir),
              0);
    CHECK(holds(victim, "precious\n"));
    CHECK(is_regular(pop));
    TuneSession s;
    CHECK_MSG(tune_read(&s, pop, err) == 0, "%s", err);
    tune_free(&s);
    CHECK_INT(temps_in(pdir), 0);

    /* egdb build: a slice file (SLICE.kdb.tmp planted) */
    char db[512], slice[32], slice_link[640];
    snprintf(db, sizeof db, "%s/db", dir);
    CHECK(mkdir(db, 0777) == 0);
    egdb_slice_name(egdb_slice_at(1, 0), slice, sizeof slice);
    snprintf(slice_link, sizeof slice_link, "%s/%s.tmp", db, slice);
    CHECK(symlink(victim, slice_link) == 0);
    CHECK_INT(kingme("egdb build --pieces 1 --dir %s 2>/dev/null", db), 0);
    CHECK(holds(victim, "precious\n"));
    CHECK_INT(kingme("egdb info --dir %s", db), 0);
    CHECK_INT(temps_in(db), 0);
    test_remove_dir(dir);
}

/* match --out through a link to a missing file created the file the link
 * named; every writer now refuses such a link, as play did. */
TEST(reliability_a_link_to_a_missing_file_is_refused_by_every_writer)
{
    char dir[256], link[512], missing[512], err[KM_ERR_MAX];
    test_fresh_dir("rel", dir, sizeof dir, "dangling");
    snprintf(link, sizeof link, "%s/out.pdn", dir);
    snprintf(missing, sizeof missing, "%s/elsewhere/created.pdn", dir);
    CHECK(symlink(missing, link) == 0);
    CHECK_INT(kingme("match weights/material.w weights/material.w --games 2 --depth 1 -j 1 --out %s", link),
              1);
    char want[600];
    snprintf(want, sizeof want, "kingme: %s: cannot write: a symbolic link to a missing file\n", link);
    CHECK_STR(out, want);
    CHECK(access(missing, F_OK) != 0);
    CHECK_INT(kingme("play --no-color --black engine --white engine --depth 1 --max-plies 2 --out %s", link),
              1);
    CHECK_MSG(strstr(out, "a symbolic link to a missing file"), "%s", out);
    CHECK(access(missing, F_OK) != 0);
    /* the library's two writers */
    CHECK_INT(textio_write_atomic(link, "x", 1, err), -1);
    CHECK_INT(textio_open_append(link, NULL, err), -1);
    CHECK_MSG(strstr(err, "a symbolic link to a missing file"), "%s", err);
    CHECK(access(missing, F_OK) != 0 && is_link(link));
    test_remove_dir(dir);
}

TEST(reliability_appending_follows_the_writer_rules)
{
    char dir[256], path[512], target[512], link[512], err[KM_ERR_MAX];
    test_fresh_dir("rel", dir, sizeof dir, "append");
    /* a new file in folders that do not exist yet */
    snprintf(path, sizeof path, "%s/a/b/log.csv", dir);
    bool created = false;
    int fd = textio_open_append(path, &created, err);
    CHECK_MSG(fd >= 0, "%s", err);
    CHECK(created);
    CHECK_INT(textio_write_fd(fd, "one\n", 4), 0);
    close(fd);
    fd = textio_open_append(path, &created, err);
    CHECK(fd >= 0 && !created);
    CHECK_INT(textio_write_fd(fd, "two\n", 4), 0);
    close(fd);
    CHECK(holds(path, "one\ntwo\n"));
    /* a link to an existing file: the file it names grows, the link stays */
    snprintf(target, sizeof target, "%s/target.csv", dir);
    snprintf(link, sizeof link, "%s/link.csv", dir);
    CHECK(test_put_file(target, "old\n"));
    CHECK(symlink(target, link) == 0);
    fd = textio_open_append(link, &created, err);
    CHECK(fd >= 0 && !created);
    CHECK_INT(textio_write_fd(fd, "new\n", 4), 0);
    close(fd);
    CHECK(holds(target, "old\nnew\n") && is_link(link));
    /* a folder that cannot be made */
    CHECK_INT(textio_open_append("Makefile/x.csv", NULL, err), -1);
    CHECK_STR(err, "Makefile: cannot create the folder: Not a directory");
    test_remove_dir(dir);
}

/* play --out into a missing folder failed while match made the folder: every
 * writer now makes it. */
TEST(reliability_every_writer_makes_missing_folders)
{
    char dir[256], path[512], err[KM_ERR_MAX];
    test_fresh_dir("rel", dir, sizeof dir, "folders");
    CHECK_INT(kingme("play --no-color --black engine --white engine --depth 1 --seed 1 --max-plies 2 --out "
                     "%s/p/q/game.pdn",
                     dir),
              0);
    snprintf(path, sizeof path, "%s/p/q/game.pdn", dir);
    CHECK(is_regular(path));
    CHECK_INT(
        kingme("match weights/material.w weights/material.w --games 2 --depth 1 -j 1 --out %s/m/n/m.pdn",
               dir),
        0);
    snprintf(path, sizeof path, "%s/m/n/m.pdn", dir);
    CHECK(is_regular(path));
    Weights w;
    weights_default(&w);
    snprintf(path, sizeof path, "%s/w/x/y.w", dir);
    CHECK_MSG(weights_write(&w, path, NULL, err) == 0, "%s", err);
    CHECK(is_regular(path));
    test_remove_dir(dir);
}

/* ---- reading --------------------------------------------------------------------- */

/* A FIFO where a file is read was waited on for ever (and /dev/zero was read
 * until the memory ran out): both are refused at once with one line. */
TEST(reliability_a_fifo_or_a_device_is_refused_where_a_file_is_read)
{
    char dir[256], fifo[512], err[KM_ERR_MAX];
    test_fresh_dir("rel", dir, sizeof dir, "fifo");
    snprintf(fifo, sizeof fifo, "%s/in", dir);
    CHECK(mkfifo(fifo, 0600) == 0);
    char want[600];
    CHECK_INT(kingme_timed("show %s", fifo), 1);
    snprintf(want, sizeof want, "kingme: %s: cannot open: a FIFO, not a regular file\n", fifo);
    CHECK_STR(out, want);
    CHECK_INT(kingme_timed("pdn %s", fifo), 1);
    snprintf(want, sizeof want, "kingme: %s: cannot read: a FIFO, not a regular file\n", fifo);
    CHECK_STR(out, want);
    CHECK_INT(kingme_timed("tune --report %s", fifo), 1);
    CHECK_MSG(strstr(out, "a FIFO, not a regular file"), "%s", out);
    CHECK_INT(
        kingme_timed("match weights/material.w weights/material.w --games 2 --workers %s --out %s/m.pdn",
                     fifo, dir),
        1);
    CHECK_MSG(strstr(out, "a FIFO, not a regular file"), "%s", out);
    Weights w;
    CHECK_INT(weights_read(&w, "/dev/zero", NULL, err), -1);
    CHECK_STR(err, "/dev/zero: cannot open: a character device, not a regular file");
    char *t = textio_read_text(fifo, NULL, NULL, err);
    CHECK(t == NULL);
    snprintf(want, sizeof want, "%s: cannot open: a FIFO, not a regular file", fifo);
    CHECK_STR(err, want);
    /* a missing file may read as empty when asked; a FIFO may not */
    static const KmReadOpts missing_ok = {.missing_ok = true};
    char missing[512];
    snprintf(missing, sizeof missing, "%s/none", dir);
    t = textio_read_text(missing, &missing_ok, NULL, err);
    CHECK(t && !*t);
    free(t);
    CHECK(textio_read_text(fifo, &missing_ok, NULL, err) == NULL);
    test_remove_dir(dir);
}

/* A UTF-8 byte order mark at the start of a weights, population or PDN file
 * (as some editors write) showed as part of the first word; it is ignored. */
TEST(reliability_a_byte_order_mark_is_accepted)
{
    char err[KM_ERR_MAX];
    char *plain = test_slurp("weights/handset.w");
    CHECK(plain != NULL);
    if (!plain) return;
    size_t n = strlen(plain);
    char *bom = malloc(n + 4);
    CHECK(bom != NULL);
    if (!bom) return;
    memcpy(bom, "\xEF\xBB\xBF", 3);
    memcpy(bom + 3, plain, n + 1);
    Weights a, b;
    CHECK_MSG(weights_parse(&a, plain, "plain", NULL, err) == 0, "%s", err);
    CHECK_MSG(weights_parse(&b, bom, "bom", NULL, err) == 0, "%s", err);
    CHECK(memcmp(a.w, b.w, sizeof a.w) == 0);
    free(bom);
    free(plain);

    PdnGame *g;
    int ng;
    CHECK_MSG(pdn_parse("\xEF\xBB\xBF[Event \"x\"]\n1. 11-15 23-19 *\n", "bom.pdn", &g, &ng, err) == 0, "%s",
              err);
    if (ng == 1) {
        CHECK(g[0].error == NULL);
        CHECK_STR(pdn_tag(&g[0], "Event"), "x");
        CHECK_INT(g[0].game.nply, 2);
    }
    CHECK_INT(ng, 1);
    pdn_free_games(g, ng);

    char *pop = test_slurp("tests/fuzz/corpus/population/p4.pop");
    CHECK(pop != NULL);
    if (!pop) return;
    n = strlen(pop);
    char *pbom = malloc(n + 4);
    CHECK(pbom != NULL);
    if (pbom) {
        memcpy(pbom, "\xEF\xBB\xBF", 3);
        memcpy(pbom + 3, pop, n + 1);
        TuneSession s1, s2;
        CHECK_MSG(tune_parse(&s1, pop, "plain", err) == 0, "%s", err);
        CHECK_MSG(tune_parse(&s2, pbom, "bom", err) == 0, "%s", err);
        CHECK_INT(s1.generation, s2.generation);
        CHECK_INT(s1.c.population, s2.c.population);
        tune_free(&s1);
        tune_free(&s2);
    }
    free(pbom);
    free(pop);
    /* the command: no stray bytes before the first word */
    char path[256];
    snprintf(path, sizeof path, "/tmp/kingme-rel-%d-bom.w", (int)getpid());
    CHECK(test_put_file(path, "\xEF\xBB\xBFown_men 100\n"));
    CHECK_INT(kingme("show %s", path), 0);
    CHECK_MSG(strstr(out, " 1  own_men ") != NULL, "%s", out);
    remove(path);
}

/* ---- a full disk ----------------------------------------------------------------- */

/* The match counted a game it could not write ("15 of 100 games played", the
 * file holding 14). ulimit -f makes every write beyond a size fail, as a
 * full disk does. */
TEST(reliability_a_match_on_a_full_disk_counts_only_the_games_it_kept)
{
    char dir[256], pdn[512], cmd[1200];
    test_fresh_dir("rel", dir, sizeof dir, "full");
    snprintf(pdn, sizeof pdn, "%s/m.pdn", dir);
    /* 4 blocks of 512 bytes: a few games of 500-1000 bytes fit */
    snprintf(cmd, sizeof cmd,
             "{ ulimit -f 4; %s match weights/default.w weights/material.w --games 40 --depth 2 -j 2 "
             "--out %s; }",
             test_kingme(), pdn);
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    CHECK_MSG(strstr(out, "cannot write: File too large"), "%s", out);
    int played = -1, total = 0;
    const char *st = strstr(out, "stopped: ");
    CHECK_MSG(st && sscanf(st, "stopped: %d of %d games played", &played, &total) == 2, "%s", out);
    PdnGame *g;
    int n = 0;
    char err[KM_ERR_MAX];
    CHECK_MSG(pdn_read_file(pdn, &g, &n, err) == 0, "%s", err);
    CHECK_MSG(n == played && n > 0, "%d games in the file, %d counted", n, played);
    for (int i = 0; i < n; i++) CHECK(g[i].error == NULL);
    pdn_free_games(g, n);
    /* the tally is of those games: A's wins, draws and losses add up to them */
    int w = -1, d = -1, l = -1;
    const char *a = strstr(out, "A: ");
    CHECK_MSG(a && sscanf(a, "A: %d %*[a-z], %d %*[a-z], %d", &w, &d, &l) == 3, "%s", out);
    CHECK_INT(w + d + l, played);
    test_remove_dir(dir);
}

/* ---- what is shown --------------------------------------------------------------- */

TEST(reliability_error_lines_show_control_bytes_escaped)
{
    char shown[64];
    textio_escape("a\033[31mb\a\r\nc\x7f", shown, sizeof shown);
    CHECK_STR(shown, "a\\x1B[31mb\\x07\\x0D\\x0Ac\\x7F");
    /* UTF-8 text stays; bytes that are not UTF-8, C1 controls, the byte
     * order mark and direction overrides do not */
    textio_escape("caf\xC3\xA9 \xE2\x99\x9B", shown, sizeof shown);
    CHECK_STR(shown, "caf\xC3\xA9 \xE2\x99\x9B");
    textio_escape("\xFF\xC3", shown, sizeof shown);
    CHECK_STR(shown, "\\xFF\\xC3");
    textio_escape("\xC2\x9B"
                  "1m",
                  shown, sizeof shown);
    CHECK_STR(shown, "\\xC2\\x9B1m");
    textio_escape("\xEF\xBB\xBFown_men", shown, sizeof shown);
    CHECK_STR(shown, "\\xEF\\xBB\\xBFown_men");
    textio_escape("x\xE2\x80\xAEy", shown, sizeof shown);
    CHECK_STR(shown, "x\\xE2\\x80\\xAEy");
    /* cut at a whole piece */
    char small[7];
    textio_escape("ab\033cd", small, sizeof small);
    CHECK_STR(small, "ab\\x1B");

    /* the command line's error lines */
    CHECK_INT(kingme("show \"$(printf 'x\\033[31mRED\\a.w')\""), 1);
    CHECK_STR(out, "kingme: x\\x1B[31mRED\\x07.w: cannot open: No such file or directory\n");
    CHECK_INT(kingme("search --depth 1 --fen \"$(printf 'B:W\\033]0;t\\a')\""), 1);
    CHECK_STR(out, "kingme: bad FEN 'B:W\\x1B]0;t\\x07': expected a square number at column 4\n");
    /* the engine's error answers */
    CHECK_INT(kingme("engine --no-egdb < tests/data/engine_control_bytes.txt"), 0);
    CHECK_STR(out, "error unknown command 'unknown\\x1B[31mRED\\x07'\n");
    /* and the worker's */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "printf 'job \\033[31m\\a x\\n' | %s worker", test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "\nerror \\x1B[31m\\x07 a job needs ") && !strchr(out, '\033'), "%s", out);
    /* play's prompt shows what was typed without its control bytes */
    CHECK_INT(kingme("play --no-color --depth 1 --out - < tests/data/engine_control_bytes.txt | grep RED"),
              0);
    CHECK_MSG(strstr(out, "RED") && !strchr(out, '\033') && !strchr(out, '\a'), "%s", out);
}

/* ---- memory ---------------------------------------------------------------------- */

/* match refused tables larger than the memory; engine, search and play
 * allocated them (a table the memory cannot hold is allocated lazily, then
 * swaps or is killed while it is cleared). */
TEST(reliability_transposition_tables_are_bounded_by_the_memory)
{
    uint64_t have = memlimit_bytes() >> 20;
    CHECK(have > 0);
    TT t;
    char err[KM_ERR_MAX], want[KM_ERR_MAX];
    CHECK_INT(tt_init(&t, (size_t)have + 1, err), -1);
    snprintf(want, sizeof want, "a %llu MB transposition table is more than the %llu MB of memory here",
             (unsigned long long)have + 1, (unsigned long long)have);
    CHECK_STR(err, want);
    CHECK_INT(tt_init(&t, 1, err), 0);
    tt_free(&t);
    /* the commands (--hash goes up to 65536 MB: on a machine with more
     * memory only the library's check above can be made) */
    if (have >= 65536) return;
    unsigned long long mb = have + 1, half = have / 2 + 1;
    CHECK_INT(kingme("search --depth 1 --hash %llu", mb), 1);
    CHECK_MSG(strstr(out, "MB of memory here") && strchr(out, '\n') == out + strlen(out) - 1, "%s", out);
    CHECK_INT(kingme("engine --no-egdb --hash %llu < /dev/null", mb), 1);
    CHECK_MSG(strstr(out, "MB of memory here"), "%s", out);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "printf 'option hash %llu\\nisready\\n' | %s engine --no-egdb --hash 1", mb,
             test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strncmp(out, "error option hash: a ", 21) == 0 && strstr(out, "MB of memory here\nreadyok\n"),
              "%s", out);
    /* play: each table fits, the two engines' tables together do not */
    CHECK_INT(
        kingme("play --no-color --no-egdb --black engine --white engine --depth 1 --max-plies 2 --hash %llu "
               "--out -",
               half),
        1);
    CHECK_MSG(strstr(out, "for 2 tables needs") && strstr(out, "MB of memory here"), "%s", out);
}

/* ---- who plays ------------------------------------------------------------------- */

/* With --workers and no -j the games are played by the workers only, yet
 * match's header said "2 threads" and tune's "threads 0". */
TEST(reliability_headers_say_who_plays_with_workers)
{
    char dir[256], list[512];
    test_fresh_dir("rel", dir, sizeof dir, "workers");
    snprintf(list, sizeof list, "%s/workers.txt", dir);
    char text[1200];
    snprintf(text, sizeof text, "%s worker\n%s worker\n", test_kingme(), test_kingme());
    CHECK(test_put_file(list, text));
    CHECK_INT(
        kingme("match weights/material.w weights/material.w --games 2 --depth 1 --workers %s --out %s/m.pdn",
               list, dir),
        0);
    CHECK_MSG(strstr(out, ", 2 workers (no local thread), seed 1\n"), "%s", out);
    CHECK_INT(
        kingme("match weights/material.w weights/material.w --games 2 --depth 1 --workers %s -j 1 --out "
               "%s/m.pdn",
               list, dir),
        0);
    CHECK_MSG(strstr(out, ", 2 workers and 1 local thread, seed 1\n"), "%s", out);
    CHECK_INT(kingme("tune --generations 1 --population 4 --depth 1 --ballots 1 --gladiator 8 --elite 1 "
                     "--yardstick none --seed 1 --workers %s --dir %s/t --name s",
                     list, dir),
              0);
    CHECK_MSG(strstr(out, "\n2 workers (no local thread); files"), "%s", out);
    char w[512];
    snprintf(w, sizeof w, "%s/t/output/s.w", dir);
    char *t = test_slurp(w);
    CHECK_MSG(t && strstr(t, "games played by 2 workers (no local thread)\n"), "%s", t ? t : "(no file)");
    free(t);
    test_remove_dir(dir);
}

/* ---- a session's node budget ------------------------------------------------------ */

typedef struct Lines {
    int n, bestmoves;
    uint64_t max_nodes;
} Lines;

static void take(const char *line, void *user)
{
    Lines *l = user;
    l->n++;
    l->bestmoves += strncmp(line, "bestmove ", 9) == 0;
    unsigned long long nodes;
    const char *at = strstr(line, " nodes ");
    if (at && sscanf(at, " nodes %llu", &nodes) == 1 && nodes > l->max_nodes) l->max_nodes = nodes;
}

/* What lets the engine's fuzz target run thousands of inputs a second: a
 * session whose every search stops within its node budget (checked every
 * 1024 nodes), whatever the go asks, and does not measure ProbCut's margin. */
TEST(reliability_a_session_keeps_to_its_node_budget)
{
    char err[KM_ERR_MAX];
    Session *ss = session_new(1, err);
    CHECK_MSG(ss != NULL, "%s", err);
    if (!ss) return;
    session_set_node_budget(ss, 1000);
    Lines l = {0, 0, 0};
    Engine *e = engine_new(ss, "test", take, &l, err);
    CHECK_MSG(e != NULL, "%s", err);
    if (!e) return;
    const char *gos[] = {"go depth 40", "go movetime 600000", "go wtime 600000 btime 600000",
                         "go nodes 5000"};
    for (size_t i = 0; i < sizeof gos / sizeof *gos; i++) {
        l.max_nodes = 0;
        l.bestmoves = 0;
        engine_command(e, "position start");
        engine_command(e, gos[i]);
        engine_command(e, "isready"); /* answered at once, the search going on */
        CHECK(session_wait(ss, 60));  /* it ends by itself, within its budget */
        engine_command(e, "stop");
        CHECK_MSG(l.bestmoves == 1, "%s: %d bestmoves", gos[i], l.bestmoves);
        CHECK_MSG(l.max_nodes > 0 && l.max_nodes <= 1000 + 1024, "%s: %llu nodes", gos[i],
                  (unsigned long long)l.max_nodes);
    }
    /* a strength level's searches too (the strongest below the full engine
     * has a budget of its own of 800,000 nodes) */
    engine_command(e, "option level 9");
    l.bestmoves = 0;
    l.max_nodes = 0;
    engine_command(e, "go movetime 600000");
    CHECK(session_wait(ss, 60));
    engine_command(e, "stop");
    CHECK_INT(l.bestmoves, 1);
    CHECK_MSG(l.max_nodes > 0 && l.max_nodes <= 1000 + 1024, "level 9: %llu nodes",
              (unsigned long long)l.max_nodes);
    engine_free(e);
}
