/* test_files.c - how kingme writes and reads files: a regular file
 * is replaced whole, a symbolic link keeps pointing at the file it names, a
 * FIFO or device is written in place, "-" is standard output; directories,
 * empty and oversized input are refused with one line; a full or closed
 * standard output is reported. */
#include "kingme/board.h"
#include "kingme/pdn.h"
#include "kingme/textio.h"
#include "kingme/weights.h"
#include "test.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char out[1 << 16];

/* /tmp/kingme-files-PID-TAG */
static void tmp_name(char *buf, size_t len, const char *tag)
{
    snprintf(buf, len, "/tmp/kingme-files-%d-%s", (int)getpid(), tag);
}

static int kingme(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int kingme(const char *fmt, ...)
{
    char args[1024], cmd[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "{ %s %s; }", test_kingme(), args); /* test_run's 2>&1 after the group */
    return test_run(cmd, out, sizeof out);
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* The temporaries kingme's writer leaves beside path (NAME.XXXXXX.tmp in
 * its folder): none once a write has ended, whether it worked or not. */
static int temps_of(const char *path)
{
    char dir[300];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1, slash ? path : ".");
    const char *base = slash ? slash + 1 : path;
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    size_t blen = strlen(base) > 200 ? 200 : strlen(base);
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        n += len == blen + 11 && strncmp(e->d_name, base, blen) == 0 && e->d_name[blen] == '.' &&
             strcmp(e->d_name + len - 4, ".tmp") == 0;
    }
    closedir(d);
    return n;
}

TEST(files_write_replaces_a_regular_file_whole)
{
    char path[256], err[KM_ERR_MAX];
    tmp_name(path, sizeof path, "plain.txt");
    CHECK(test_put_file(path, "old text that is longer\n"));
    CHECK(chmod(path, 0640) == 0);
    CHECK_MSG(textio_write_atomic(path, "new\n", 4, err) == 0, "%s", err);
    char *t = test_slurp(path);
    CHECK(t && strcmp(t, "new\n") == 0);
    free(t);
    struct stat st;
    CHECK(stat(path, &st) == 0 && S_ISREG(st.st_mode));
    CHECK_INT(st.st_mode & 07777, 0640); /* the permissions are kept */
    CHECK_INT(temps_of(path), 0);
    /* a new file, and an empty text */
    remove(path);
    CHECK_MSG(textio_write_atomic(path, "", 0, err) == 0, "%s", err);
    CHECK(stat(path, &st) == 0 && st.st_size == 0);
    remove(path);
    /* refused: an empty name, a directory, a folder under a file; nothing left behind */
    CHECK_INT(textio_write_atomic("", "x", 1, err), -1);
    CHECK_STR(err, "an empty file name");
    CHECK_INT(textio_write_atomic("/tmp", "x", 1, err), -1);
    CHECK_STR(err, "/tmp: cannot write: is a directory");
    CHECK_INT(temps_of("/tmp"), 0);
    CHECK_INT(textio_write_atomic("Makefile/x.pdn", "x", 1, err), -1);
    CHECK_STR(err, "Makefile: cannot create the folder: Not a directory");
}

/* Writing to a symbolic link replaced the link with a regular file
 * and left the file it pointed to unchanged. */
TEST(files_write_through_a_symlink_updates_its_target)
{
    char dir[256], target[300], link[300], rel[300], dangling[300], err[KM_ERR_MAX];
    tmp_name(dir, sizeof dir, "linkdir");
    mkdir(dir, 0755);
    snprintf(target, sizeof target, "%s/target.pdn", dir);
    snprintf(link, sizeof link, "%s-link.pdn", dir); /* in /tmp, the target in a subdirectory */
    snprintf(rel, sizeof rel, "%s/rel.pdn", dir);
    snprintf(dangling, sizeof dangling, "%s/dangling.pdn", dir);
    CHECK(test_put_file(target, "old\n"));
    remove(link);
    CHECK(symlink(target, link) == 0);
    CHECK(symlink("target.pdn", rel) == 0); /* relative to the link's directory */
    CHECK_MSG(textio_write_atomic(link, "via link\n", 9, err) == 0, "%s", err);
    struct stat st;
    CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    char *t = test_slurp(target);
    CHECK_MSG(t && strcmp(t, "via link\n") == 0, "target holds '%s'", t ? t : "(nothing)");
    free(t);
    CHECK_MSG(textio_write_atomic(rel, "via relative link\n", 18, err) == 0, "%s", err);
    CHECK(lstat(rel, &st) == 0 && S_ISLNK(st.st_mode));
    t = test_slurp(target);
    CHECK(t && strcmp(t, "via relative link\n") == 0);
    free(t);
    /* a link to nothing is refused, and nothing is created */
    CHECK(symlink("missing.pdn", dangling) == 0);
    CHECK_INT(textio_write_atomic(dangling, "x", 1, err), -1);
    CHECK_MSG(strstr(err, "a symbolic link to a missing file") != NULL, "%s", err);
    char missing[300];
    snprintf(missing, sizeof missing, "%s/missing.pdn", dir);
    CHECK(!exists(missing));
    CHECK(lstat(dangling, &st) == 0 && S_ISLNK(st.st_mode));
    /* the command: play --out LINK */
    CHECK_INT(kingme("play --black engine --white engine --depth 1 --seed 1 --max-plies 4 --out %s", link),
              0);
    CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    t = test_slurp(target);
    CHECK_MSG(t && strstr(t, "[Event \"kingme play\"]"), "target holds '%s'", t ? t : "(nothing)");
    free(t);
    remove(link);
    remove(rel);
    remove(dangling);
    remove(target);
    rmdir(dir);
}

/* A FIFO (or a device) named as the output was replaced by a
 * regular file. It is written in place. */
TEST(files_write_to_a_fifo_in_place)
{
    char fifo[256], err[KM_ERR_MAX];
    tmp_name(fifo, sizeof fifo, "fifo");
    remove(fifo);
    CHECK(mkfifo(fifo, 0600) == 0);
    /* our own end open read-write, so the writer's open does not wait */
    int fd = open(fifo, O_RDWR | O_NONBLOCK);
    CHECK(fd >= 0);
    if (fd < 0) return;
    CHECK_MSG(textio_write_atomic(fifo, "through the pipe\n", 17, err) == 0, "%s", err);
    char buf[64] = "";
    ssize_t n = read(fd, buf, sizeof buf - 1);
    CHECK_INT(n, 17);
    if (n > 0) buf[n] = '\0';
    CHECK_STR(buf, "through the pipe\n");
    struct stat st;
    CHECK(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
    CHECK_INT(temps_of(fifo), 0);
    CHECK(textio_writes_in_place(fifo) && textio_writes_in_place("-") &&
          textio_writes_in_place("/dev/stdout"));
    CHECK(textio_writes_in_place("/dev/null") && !textio_writes_in_place("/tmp"));
    close(fd);
    /* a device: /dev/null stays the device (the write goes nowhere) */
    CHECK_MSG(textio_write_atomic("/dev/null", "x\n", 2, err) == 0, "%s", err);
    CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
    CHECK_INT(temps_of("/dev/null"), 0);
    /* and the commands: play and match into a FIFO read by cat */
    char got[256];
    tmp_name(got, sizeof got, "fifo-got");
    CHECK_INT(kingme("play --black engine --white engine --depth 1 --seed 1 --max-plies 4 --out %s"
                     " & cat %s > %s; wait $!",
                     fifo, fifo, got),
              0);
    CHECK(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
    char *t = test_slurp(got);
    CHECK_MSG(t && strstr(t, "[Event \"kingme play\"]") && strstr(t, "[Result \"1/2-1/2\"]"), "got '%s'",
              t ? t : "(nothing)");
    free(t);
    remove(got);
    remove(fifo);
}

/* "-" and /dev/stdout are the standard output: in order with what the
 * command prints, and a redirected file is not truncated or replaced. */
TEST(files_write_to_standard_output)
{
    char file[256];
    tmp_name(file, sizeof file, "stdout.txt");
    const char *names[] = {"-", "/dev/stdout"};
    for (int k = 0; k < 2; k++) {
        CHECK_INT(kingme("play --black engine --white engine --depth 1 --seed 1 --max-plies 4 --out %s > %s",
                         names[k], file),
                  0);
        struct stat st;
        CHECK(lstat(file, &st) == 0 && S_ISREG(st.st_mode));
        char *t = test_slurp(file);
        const char *board = t ? strstr(t, "Game over: ") : NULL;
        const char *pdn = t ? strstr(t, "[Event \"kingme play\"]") : NULL;
        const char *saved = t ? strstr(t, "Game saved to ") : NULL;
        CHECK_MSG(board && pdn && saved && pdn < saved, "%s: '%s'", names[k], t ? t : "(nothing)");
        /* the PDN as read back from the captured output */
        if (pdn) {
            PdnGame *g;
            int n;
            char err[KM_ERR_MAX];
            CHECK_MSG(pdn_parse(pdn, "stdout", &g, &n, err) == 0, "%s", err);
            if (n >= 1) {
                CHECK_INT(g[0].game.nply, 4);
                CHECK(g[0].error == NULL);
                pdn_free_games(g, n);
            }
        }
        free(t);
    }
    remove(file);
    CHECK(lstat("/dev/stdout", &(struct stat){0}) == 0);
}

/* `kingme moves > /dev/full` said nothing and exited 0; so did
 * every command, and play with stdout closed. */
TEST(files_stdout_write_errors_are_reported)
{
    const char *cmds[] = {"moves", "perft 3 --divide", "help", "show weights/default.w", "version",
                          "eval",  "search --depth 3"};
    for (size_t k = 0; k < sizeof cmds / sizeof *cmds; k++) {
        CHECK_INT(kingme("%s > /dev/full", cmds[k]), 1);
        CHECK_MSG(strcmp(out, "kingme: write error: No space left on device\n") == 0, "%s: '%s'", cmds[k],
                  out);
    }
    /* stdout closed */
    CHECK_INT(kingme("moves >&-"), 1);
    CHECK_MSG(strstr(out, "kingme: write error: ") != NULL && count_lines(out) == 1, "'%s'", out);
    char pdn[256], in[256];
    tmp_name(pdn, sizeof pdn, "closed.pdn");
    tmp_name(in, sizeof in, "closed.in");
    CHECK(test_put_file(in, "11-15\nquit\n"));
    CHECK_INT(kingme("play --depth 1 --seed 1 --out %s >&- < %s", pdn, in), 1);
    CHECK_MSG(strstr(out, "kingme: write error: ") != NULL && count_lines(out) == 1, "'%s'", out);
    /* the game is saved whole all the same, and nothing of the screen went into it */
    char *t = test_slurp(pdn);
    CHECK_MSG(t && strncmp(t, "[Event \"kingme play\"]", 21) == 0 && strstr(t, "1. 11-15"), "'%s'",
              t ? t : "(nothing)");
    free(t);
    remove(pdn);
    remove(in);
    /* a command that fails anyway keeps its own message and status, without
     * a second line about stdout */
    CHECK_INT(kingme("perft 0 > /dev/full"), 2);
    CHECK_INT(kingme("pdn tests/data/pdn_bad.pdn > /dev/full"), 1);
    CHECK_MSG(strstr(out, "write error") == NULL && strstr(out, "pdn_bad.pdn: game"), "%s", out);
}

/* `show DIR` said "read error" without the reason; a directory as
 * a PDN or population file is refused the same way. */
TEST(files_read_a_directory)
{
    CHECK_INT(kingme("show tests"), 1);
    CHECK_STR(out, "kingme: tests: cannot open: is a directory\n");
    CHECK_INT(kingme("pdn tests"), 1);
    CHECK_STR(out, "kingme: tests: cannot read: is a directory\n");
    Weights w;
    char err[KM_ERR_MAX];
    CHECK_INT(weights_read(&w, "tests/data", NULL, err), -1);
    CHECK_STR(err, "tests/data: cannot open: is a directory");
}

/* An empty weights file was all zeros, silently. */
TEST(files_empty_weights_file_refused)
{
    char path[256];
    tmp_name(path, sizeof path, "empty.w");
    CHECK(test_put_file(path, ""));
    CHECK_INT(kingme("show %s", path), 1);
    char want[400];
    snprintf(want, sizeof want, "kingme: %s: no parameters (the file is empty or holds only comments)\n",
             path);
    CHECK_STR(out, want);
    CHECK(test_put_file(path, "# a header and nothing else\n"));
    CHECK_INT(kingme("search --depth 1 --weights %s", path), 1);
    CHECK_STR(out, want);
    remove(path);
}

/* `kingme pdn /dev/zero` allocated until the memory was gone. PDN
 * input must be a regular file (a device is refused before it is read), of
 * at most PDN_FILE_MAX bytes and PDN_MAX_GAMES games. */
TEST(files_pdn_input_is_bounded)
{
    CHECK_INT(kingme("pdn /dev/zero"), 1);
    CHECK_STR(out, "kingme: /dev/zero: cannot read: a character device, not a regular file\n");
    PdnGame *g;
    int n;
    char err[KM_ERR_MAX];
    CHECK_INT(pdn_read_file("/dev/zero", &g, &n, err), -1);
    CHECK_STR(err, "/dev/zero: cannot read: a character device, not a regular file");
    /* a regular file beyond the bound: a sparse one, refused after reading
     * one byte more than the bound (not all of it) */
    char big[256];
    tmp_name(big, sizeof big, "big.pdn");
    CHECK(truncate(big, 0) == 0 || test_put_file(big, ""));
    CHECK(truncate(big, (off_t)4 << 30) == 0); /* 4 GiB of holes */
    CHECK_INT(kingme("pdn %s", big), 1);
    char too_large[400];
    snprintf(too_large, sizeof too_large, "kingme: %s: too large for a PDN file (more than 64 MiB)\n", big);
    CHECK_STR(out, too_large);
    remove(big);
}

/* PDN_MAX_GAMES games of one result each are read, one more is refused
 * with its line. */
TEST(files_pdn_game_count_is_bounded)
{
    if (test_sanitized()) {
        test_skip("some 450 MB at the limit: too large under the sanitizers");
        return;
    }
    PdnGame *g;
    int n;
    char err[KM_ERR_MAX];
    size_t len = (size_t)(PDN_MAX_GAMES + 1) * 2;
    char *text = malloc(len + 1);
    CHECK(text != NULL);
    if (!text) return;
    for (size_t i = 0; i < len; i += 2) memcpy(text + i, "*\n", 2);
    text[len] = '\0';
    CHECK_INT(pdn_parse(text, "many.pdn", &g, &n, err), -1);
    char want[128];
    snprintf(want, sizeof want, "many.pdn:%d: more than %d games (split the file)", PDN_MAX_GAMES + 1,
             PDN_MAX_GAMES);
    CHECK_STR(err, want);
    text[len - 2] = '\0';
    CHECK_MSG(pdn_parse(text, "many.pdn", &g, &n, err) == 0, "%s", err);
    CHECK_INT(n, PDN_MAX_GAMES);
    pdn_free_games(g, n);
    free(text);
}

/* `printf '11-15\r\nquit\r\n' | kingme play` said "'11-15?' is not
 * a move" and refused even quit. */
TEST(files_play_reads_crlf_input)
{
    char pdn[256], in[256];
    tmp_name(pdn, sizeof pdn, "crlf.pdn");
    tmp_name(in, sizeof in, "crlf.in");
    CHECK(test_put_file(in, "11-15\r\n\r\nmoves\r\nquit\r\n"));
    CHECK_INT(kingme("play --no-color --depth 1 --seed 1 --out %s < %s", pdn, in), 0);
    CHECK_MSG(strstr(out, "is not a move") == NULL &&
                  strstr(out, "Quit: the game is left unfinished.") != NULL,
              "%s", out);
    char *t = test_slurp(pdn);
    CHECK_MSG(t && strstr(t, "1. 11-15 "), "'%s'", t ? t : "(nothing)");
    free(t);
    /* a last line with CR and no LF */
    CHECK(test_put_file(in, "11-15\r\nquit\r"));
    CHECK_INT(kingme("play --no-color --depth 1 --seed 1 --out %s < %s", pdn, in), 0);
    CHECK_MSG(strstr(out, "Quit: the game is left unfinished.") != NULL, "%s", out);
    remove(in);
    remove(pdn);
}

/* `play --out ''` printed "kingme: : cannot replace with .tmp". */
TEST(files_empty_file_names_refused)
{
    CHECK_INT(kingme("play --out ''"), 2);
    CHECK_STR(out, "kingme play: --out '' is not a file name\nsee: kingme help play\n");
    CHECK_INT(kingme("play --out="), 2);
    CHECK_STR(out, "kingme play: --out '' is not a file name\nsee: kingme help play\n");
    CHECK_INT(kingme("search --depth 1 --weights ''"), 2);
    CHECK_STR(out, "kingme search: --weights '' is not a file name\nsee: kingme help search\n");
    CHECK_INT(kingme("tune --dir '' --resume no-such-session"), 2); /* (never a session in /) */
    CHECK_STR(out, "kingme tune: --dir '' is not a directory name\nsee: kingme help tune\n");
}

/* Engine-against-engine games of play were saved only at the start
 * and the end. Killed in the middle (SIGPIPE: its screen goes into a pipe
 * that `head` closes after some moves), the file has the moves played. */
TEST(files_play_engine_game_saved_after_every_move)
{
    char pdn[256];
    tmp_name(pdn, sizeof pdn, "killed.pdn");
    remove(pdn);
    /* (other tests may have left SIGPIPE ignored, which play would inherit) */
    void (*was)(int) = signal(SIGPIPE, SIG_DFL);
    kingme("play --no-color --black engine --white engine --depth 4 --seed 5 --out %s | head -c 6000 > "
           "/dev/null",
           pdn);
    signal(SIGPIPE, was);
    PdnGame *g;
    int n;
    char err[KM_ERR_MAX];
    CHECK_MSG(pdn_read_file(pdn, &g, &n, err) == 0, "%s", err);
    if (n >= 1) {
        CHECK_INT(n, 1);
        CHECK(g[0].error == NULL);
        CHECK_STR(g[0].result, "*"); /* unfinished */
        CHECK_MSG(g[0].game.nply >= 2, "%d plies saved", g[0].game.nply);
        pdn_free_games(g, n);
    }
    remove(pdn);
}

/* One rule for search, play and match: a search has one limit (depth, time,
 * nodes or a clock), two together are refused. */
TEST(files_one_search_limit)
{
    CHECK_INT(kingme("search --depth 3 --time 1"), 2);
    CHECK_STR(out, "kingme search: give one of --depth, --time and --nodes\nsee: kingme help search\n");
    CHECK_INT(kingme("search --nodes 100 --depth 3"), 2);
    CHECK_INT(kingme("play --depth 3 --time 1 < /dev/null"), 2);
    CHECK_MSG(strstr(out, "give --depth or --time, not both") != NULL, "%s", out);
    CHECK_INT(kingme("match --depth 3 --time 1 weights/default.w weights/handset.w"), 2);
    CHECK_MSG(strstr(out, "give one of --depth, --time, --nodes and --tc") != NULL, "%s", out);
    CHECK_INT(kingme("search --depth 2"), 0);
    CHECK(strstr(out, "bestmove ") != NULL);
}

/* Found by tests/fuzz/fuzz_pdn.c: a tag value with a tab or another control
 * character was read as it was but written with spaces, so a game did not
 * read back the same. Such characters now read as spaces. */
TEST(files_pdn_tag_control_characters_round_trip)
{
    const char text[] = "[Event \"a\tb\x15"
                        "c\"]\n[Site \"x\\\"y\"]\n1. 11-15 *\n";
    PdnGame *g, *h;
    int n, nh;
    char err[KM_ERR_MAX];
    CHECK_MSG(pdn_parse(text, "t.pdn", &g, &n, err) == 0, "%s", err);
    if (n != 1) return;
    CHECK_STR(pdn_tag(&g[0], "Event"), "a b c");
    CHECK_STR(pdn_tag(&g[0], "Site"), "x\"y");
    char *text_out = pdn_format_game(&g[0].game, g[0].tags, g[0].ntags, g[0].result);
    CHECK(text_out && pdn_parse(text_out, "out.pdn", &h, &nh, err) == 0);
    if (text_out && nh == 1) {
        CHECK_STR(pdn_tag(&h[0], "Event"), "a b c");
        CHECK_STR(pdn_tag(&h[0], "Site"), "x\"y");
        pdn_free_games(h, nh);
    }
    free(text_out);
    pdn_free_games(g, n);
}

/* ---- fault injection: writes that fail while tune and play save ----------------- */

/* Runs `sh -c "ulimit -f BLOCKS; CMD"`: every write beyond BLOCKS x 512
 * bytes of a file fails with EFBIG (File too large), as on a full disk,
 * without root or a small file system (kingme ignores the SIGXFSZ that
 * would otherwise kill it). */
static int kingme_limited(int blocks, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int kingme_limited(int blocks, const char *fmt, ...)
{
    char args[1024], cmd[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "{ ulimit -f %d; %s %s; }", blocks, test_kingme(), args);
    return test_run(cmd, out, sizeof out);
}

static bool same_file(const char *a, const char *b)
{
    char *x = test_slurp(a), *y = test_slurp(b);
    bool same = x && y && strcmp(x, y) == 0;
    free(x);
    free(y);
    return same;
}

static bool copy_file(const char *from, const char *to)
{
    char *t = test_slurp(from);
    bool ok = t && test_put_file(to, t);
    free(t);
    return ok;
}

TEST(files_tune_write_failure_keeps_the_saved_session)
{
    char dir[256], pop[300], csv[300], w[300], pop0[300], w0[300];
    tmp_name(dir, sizeof dir, "tune");
    snprintf(pop, sizeof pop, "%s/population/s.pop", dir);
    snprintf(csv, sizeof csv, "%s/population/s.csv", dir);
    snprintf(w, sizeof w, "%s/output/s.w", dir);
    snprintf(pop0, sizeof pop0, "%s/s.pop.saved", dir);
    snprintf(w0, sizeof w0, "%s/s.w.saved", dir);
    const char *controls = "--population 8 --depth 1 --seed 1 --yardstick none --name s";
    CHECK_INT(kingme("tune %s --generations 1 --dir %s", controls, dir), 0);
    CHECK(copy_file(pop, pop0) && copy_file(w, w0));
    /* the population file (3.5 kB) cannot be written within 5 blocks */
    CHECK_INT(kingme_limited(5, "tune --resume s --generations 3 --dir %s", dir), 1);
    CHECK_MSG(strstr(out, "s.pop: cannot write: File too large") != NULL, "%s", out);
    CHECK_MSG(same_file(pop, pop0), "the population file changed");
    CHECK_MSG(same_file(w, w0), "the weights file changed");
    CHECK_MSG(temps_of(pop) == 0, "a temporary file is left beside %s", pop);
    /* and the session goes on from it when writes work again */
    CHECK_INT(kingme("tune --resume s --generations 2 --dir %s", dir), 0);
    CHECK_MSG(strstr(out, "session s done: 2 generations") != NULL, "%s", out);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK_INT(system(cmd), 0);
}

TEST(files_play_write_failure_keeps_the_last_saved_game)
{
    char pdn[256], in[256];
    tmp_name(pdn, sizeof pdn, "limited.pdn");
    tmp_name(in, sizeof in, "limited.in");
    /* a person's game, saved after every move, grows past 512 bytes (the
     * engine's weights file has a long name, which its PDN tag repeats) */
    char wname[400], wlong[200];
    memset(wlong, 'w', 180);
    wlong[180] = '\0';
    tmp_name(wname, sizeof wname, wlong);
    CHECK(copy_file("weights/default.w", wname));
    CHECK(test_put_file(in, "1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\nquit\n"));
    CHECK_INT(
        kingme_limited(1, "play --no-color --depth 1 --seed 2 --weights %s --out %s < %s", wname, pdn, in),
        1);
    CHECK_MSG(strstr(out, "cannot save the game: ") && strstr(out, "File too large"), "%s", out);
    CHECK_INT(temps_of(pdn), 0);
    /* what is on disk is the last game that could be saved, whole */
    PdnGame *g;
    int n;
    char err[KM_ERR_MAX];
    CHECK_MSG(pdn_read_file(pdn, &g, &n, err) == 0, "%s", err);
    if (n >= 1) {
        CHECK_INT(n, 1);
        CHECK(g[0].error == NULL);
        CHECK_MSG(g[0].game.nply >= 2, "%d plies", g[0].game.nply);
        pdn_free_games(g, n);
    }
    struct stat st;
    CHECK(stat(pdn, &st) == 0 && st.st_size <= 512);
    /* an engine game too */
    CHECK_INT(
        kingme_limited(1, "play --no-color --black engine --white engine --depth 1 --seed 2 --out %s", pdn),
        1);
    CHECK_MSG(pdn_read_file(pdn, &g, &n, err) == 0, "%s", err);
    if (n >= 1) {
        CHECK(g[0].error == NULL && g[0].game.nply >= 2);
        pdn_free_games(g, n);
    }
    CHECK_INT(temps_of(pdn), 0);
    remove(in);
    remove(pdn);
    remove(wname);
}

/* `games 9223372036854775807` in a population file was accepted,
 * `tune --resume` overflowed s->games (UBSan) and the next resume refused
 * kingme's own file. Refused now with FILE:LINE. */
TEST(files_tune_resume_refuses_unreachable_counters)
{
    char dir[256], pop[300];
    tmp_name(dir, sizeof dir, "counters");
    snprintf(pop, sizeof pop, "%s/population/c.pop", dir);
    CHECK_INT(
        kingme("tune --population 8 --depth 1 --seed 1 --yardstick none --name c --generations 1 --dir %s",
               dir),
        0);
    char *t = test_slurp(pop);
    char *g = t ? strstr(t, "\ngames ") : NULL;
    CHECK(g != NULL);
    if (g) {
        int line = 2;
        for (char *p = t; p < g; p++) line += *p == '\n';
        size_t end = strcspn(g + 1, "\n");
        char edited[8192];
        snprintf(edited, sizeof edited, "%.*s\ngames 9223372036854775807%s", (int)(g - t), t, g + 1 + end);
        CHECK(test_put_file(pop, edited));
        CHECK_INT(kingme("tune --resume c --generations 2 --dir %s", dir), 1);
        char want[400];
        snprintf(want, sizeof want, "kingme: %s:%d: games 9223372036854775807 is more than 1 generation", pop,
                 line);
        CHECK_MSG(strncmp(out, want, strlen(want)) == 0 && count_lines(out) == 1, "'%s', expected '%s...'",
                  out, want);
    }
    free(t);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK_INT(system(cmd), 0);
}
