/* test_book.c - the opening book: keys and move codes, the file (checked,
 * refused when truncated, corrupt or foreign), choosing a move, a tiny real
 * build checked against its own searches and the book's minimax, the same
 * book with any number of threads, on worker processes and after a resume
 * (also after kill -9),
 * and the book in kingme book, play, engine and match. */
#include "kingme/book.h"
#include "kingme/book_build.h"
#include "kingme/notation.h"
#include "kingme/search.h"
#include "kingme/textio.h"
#include "kingme/weights.h"
#include "kingme/worker.h"
#include "kingme/worker_proto.h"
#include "kingme/workers.h"
#include "test.h"

#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char tdir[64];

static void remove_tdir(void)
{
    if (!tdir[0]) return;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tdir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tdir);
}

/* A temporary folder for this run's files (removed at exit). */
static const char *dir(void)
{
    if (!tdir[0]) {
        snprintf(tdir, sizeof tdir, "/tmp/kingme-book-XXXXXX");
        if (!mkdtemp(tdir)) {
            tdir[0] = '\0';
            return "/tmp";
        }
        atexit(remove_tdir);
    }
    return tdir;
}

static int kingme(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int kingme(char *out, size_t len, const char *fmt, ...)
{
    char args[2048], cmd[3072];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "%s %s", test_kingme(), args);
    return test_run(cmd, out, len);
}

static Board after(const char *moves)
{
    Board b;
    board_init(&b);
    char buf[256], err[KM_ERR_MAX];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        Move m;
        if (notation_parse_move(&b, t, &m, err)) {
            test_fail(__FILE__, __LINE__, "%s: %s", t, err);
            break;
        }
        mg_make_move(&b, &m);
    }
    return b;
}

/* ---- keys and move codes ---- */

TEST(book_key_is_fixed)
{
    /* the formula is part of the file format: every book depends on it */
    Board b;
    board_init(&b);
    CHECK(book_key(&b) == 0x9d9f5bc150062fd3ull);
    b.stm = KM_WHITE;
    CHECK(book_key(&b) == 0x8e97aa176dcacc98ull);
    Board c = after("11-15"), d = after("11-15 23-19"), e = after("11-15 23-19 8-11");
    CHECK(book_key(&c) != book_key(&d) && book_key(&d) != book_key(&e) && book_key(&c) != book_key(&e));
}

TEST(book_move_codes_round_trip)
{
    /* every legal move of random positions, and of one where two capture
     * paths share their first and last squares */
    uint64_t rng = 7;
    int shared = 0, tried = 0;
    for (int n = 0; n < 20000 && (tried < 300 || !shared); n++) {
        Board b = {{0, 0}, 0, (int)(km_rng_next(&rng) & 1)};
        for (int k = 0; k < 10; k++) {
            int sq = (int)(km_rng_next(&rng) % 32), side = (int)(km_rng_next(&rng) % 2);
            uint32_t m = 1u << sq;
            if ((b.pieces[0] | b.pieces[1]) & m) continue;
            b.pieces[side] |= m;
            if (km_rng_next(&rng) % 3 == 0 || (m & km_promotion_row(side))) b.kings |= m;
        }
        MoveList ml;
        if (mg_moves(&b, &ml) == 0) continue;
        tried++;
        for (int i = 0; i < ml.count; i++) {
            int code = book_move_code(&b, &ml.moves[i]);
            Move back;
            CHECK(code >= 0 && book_move_decode(&b, code, &back) && mg_move_equal(&back, &ml.moves[i]));
            for (int j = 0; j < i; j++)
                if (ml.moves[j].from == ml.moves[i].from && ml.moves[j].to == ml.moves[i].to) shared++;
        }
        /* a code no move has */
        Move none;
        CHECK(!book_move_decode(&b, 31 | 31 << 5 | 63 << 10, &none));
    }
    CHECK(tried >= 300);
    CHECK_MSG(shared > 0, "no position with two moves of the same start and end was met");
    Board b = after("11-15");
    Move illegal = {0, 0, 1, 0, 0, {1}}; /* 1-2 is not a move */
    CHECK_INT(book_move_code(&b, &illegal), -1);
}

/* ---- the file ---- */

/* A small book: the start (its seven moves) and the position after 11-15. */
static uint8_t *small_book(size_t *len)
{
    static uint16_t c0[8], c1[8];
    static int16_t s0[8], s1[8];
    Board a = after(""), b = after("11-15");
    MoveList ml;
    mg_moves(&a, &ml);
    for (int i = 0; i < ml.count; i++)
        c0[i] = (uint16_t)book_move_code(&a, &ml.moves[i]), s0[i] = (int16_t)(10 * i - 30);
    int n0 = ml.count;
    mg_moves(&b, &ml);
    for (int i = 0; i < ml.count; i++)
        c1[i] = (uint16_t)book_move_code(&b, &ml.moves[i]), s1[i] = (int16_t)(-5 * i);
    BookOutPos pos[2] = {{book_key(&a), n0, c0, s0}, {book_key(&b), ml.count, c1, s1}};
    BookHeader h;
    memset(&h, 0, sizeof h);
    h.man = 1000;
    h.depth = 4;
    h.command = "kingme book build (a test)";
    char err[KM_ERR_MAX];
    uint8_t *bytes = book_encode(&h, pos, 2, len, err);
    CHECK_MSG(bytes != NULL, "%s", err);
    return bytes;
}

TEST(book_file_reads_back_and_probes)
{
    size_t len;
    uint8_t *bytes = small_book(&len);
    if (!bytes) return;
    char err[KM_ERR_MAX];
    Book *bk = book_from_bytes(bytes, len, "small.book", err);
    CHECK_MSG(bk != NULL, "%s", err);
    if (!bk) {
        free(bytes);
        return;
    }
    CHECK_INT(book_count(bk), 2);
    CHECK_STR(book_header(bk)->command, "kingme book build (a test)");
    Board a = after("");
    BookMove mv[MAX_MOVES];
    int n = book_moves(bk, &a, mv, MAX_MOVES);
    CHECK_INT(n, 7);
    /* best first: the generator's last move scored 30, the first -30 */
    MoveList ml;
    mg_moves(&a, &ml);
    CHECK(mg_move_equal(&mv[0].move, &ml.moves[6]) && mv[0].score == 30);
    CHECK(mg_move_equal(&mv[6].move, &ml.moves[0]) && mv[6].score == -30);
    for (int i = 1; i < n; i++) CHECK(mv[i - 1].score >= mv[i].score);
    Board b = after("11-15"), c = after("11-15 23-19");
    CHECK_INT(book_moves(bk, &b, mv, MAX_MOVES), 7);
    CHECK_INT(book_moves(bk, &c, mv, MAX_MOVES), 0);
    /* the key of the position after 11-15 with a man more: the key differs,
     * so it is not in the book */
    Board d = b;
    d.pieces[KM_WHITE] |= SQ(20) >> 1;
    CHECK_INT(book_moves(bk, &d, mv, MAX_MOVES), 0);
    book_close(bk);
    free(bytes);
}

TEST(book_file_refused_with_one_line)
{
    size_t len;
    uint8_t *bytes = small_book(&len);
    if (!bytes) return;
    char err[KM_ERR_MAX];
    /* every truncation */
    for (size_t n = 0; n < len; n++) {
        Book *bk = book_from_bytes(bytes, n, "t.book", err);
        CHECK_MSG(bk == NULL, "a book of %zu of its %zu bytes was read", n, len);
        book_close(bk);
        bool said =
            strstr(err, "t.book: truncated") || (n == 0 && strstr(err, "t.book: not a kingme opening book"));
        CHECK_MSG(said && !strchr(err, '\n'), "%zu bytes: %s", n, err);
    }
    /* a byte changed anywhere after the magic number */
    for (size_t at = 8; at < len; at++) {
        uint8_t *x = malloc(len);
        memcpy(x, bytes, len);
        x[at] ^= 0x10;
        Book *bk = book_from_bytes(x, len, "c.book", err);
        CHECK_MSG(bk == NULL, "byte %zu changed, the book was read", at);
        book_close(bk);
        free(x);
    }
    uint8_t *x = malloc(len + 1);
    memcpy(x, bytes, len);
    x[8] = 2; /* version 2 */
    CHECK(book_from_bytes(x, len, "v.book", err) == NULL);
    CHECK_STR(err, "v.book: format version 2, this kingme reads version 1");
    memcpy(x, bytes, len);
    x[len / 2 + 40] ^= 1;
    CHECK(book_from_bytes(x, len, "d.book", err) == NULL);
    CHECK_MSG(strstr(err, "d.book: corrupt data (checksum mismatch)") != NULL, "%s", err);
    memcpy(x, bytes, len);
    x[40] ^= 1;
    CHECK(book_from_bytes(x, len, "h.book", err) == NULL);
    CHECK_STR(err, "h.book: corrupt header (checksum mismatch)");
    memcpy(x, bytes, len);
    x[len] = 0;
    CHECK(book_from_bytes(x, len + 1, "l.book", err) == NULL);
    CHECK_STR(err, "l.book: corrupt (bytes after the end of the moves)");
    CHECK(book_from_bytes("[Event \"x\"]\n1. 11-15 *\n", 24, "f.book", err) == NULL);
    CHECK_STR(err, "f.book: not a kingme opening book");
    CHECK(book_open("tests/data/no-such.book", err) == NULL);
    CHECK_MSG(strstr(err, "tests/data/no-such.book: cannot open") != NULL, "%s", err);
    free(x);
    free(bytes);
}

TEST(book_choose_variety)
{
    size_t len;
    uint8_t *bytes = small_book(&len);
    if (!bytes) return;
    char err[KM_ERR_MAX];
    Book *bk = book_from_bytes(bytes, len, "small.book", err);
    free(bytes);
    if (!bk) return;
    Board a = after("");
    BookMove mv[MAX_MOVES], m;
    book_moves(bk, &a, mv, MAX_MOVES);
    uint64_t rng = 3;
    int choices;
    /* margin 0: always the best */
    for (int i = 0; i < 50; i++) {
        CHECK(book_choose(bk, &a, 0, &rng, &m, &choices) && mg_move_equal(&m.move, &mv[0].move));
        CHECK_INT(choices, 1);
    }
    /* margin 10: the best (weight 11) and the second, 10 below (weight 1) */
    int count[2] = {0, 0};
    for (int i = 0; i < 1200; i++) {
        CHECK(book_choose(bk, &a, 10, &rng, &m, &choices));
        CHECK_INT(choices, 2);
        count[mg_move_equal(&m.move, &mv[0].move) ? 0 : 1]++;
        CHECK(mg_move_equal(&m.move, &mv[0].move) || mg_move_equal(&m.move, &mv[1].move));
    }
    CHECK_MSG(count[1] > 40 && count[1] < 170, "the second move %d times in 1200 (expected about 100)",
              count[1]);
    CHECK_INT(book_margin(bk, 0.05), 50);
    Board c = after("11-15 23-19");
    CHECK(!book_choose(bk, &c, 10, &rng, &m, NULL));
    book_close(bk);
}

/* ---- a tiny real build ---- */

static void tiny_params(BookBuildParams *p, int target)
{
    book_build_params_default(p);
    p->depth = 4;
    p->target = target;
    p->start_plies = 4;
    p->ballot_plies = 1;
    p->batch = 32;
    p->hash_mb = 2;
}

/* Build (or go on with) path; the data checksum, 0 on failure. */
/* The tests' books are built with the default's named weights alone: the
 * worker processes of book_build_on_workers are sent no pattern layer. */
static uint32_t build(const char *path, int target, int threads, bool resume)
{
    Weights w;
    weights_default(&w);
    w.pat = NULL;
    char err[KM_ERR_MAX];
    BookBuild *bb;
    if (resume) {
        Book *bk = book_open(path, err);
        CHECK_MSG(bk != NULL, "%s", err);
        if (!bk) return 0;
        bb = book_build_resume(bk, &w, target, err);
        book_close(bk);
    } else {
        BookBuildParams p;
        tiny_params(&p, target);
        bb = book_build_new(&p, &w, "kingme book build (a test)", err);
    }
    CHECK_MSG(bb != NULL, "%s", err);
    if (!bb) return 0;
    book_build_set_save_every(bb, 0);
    int rc = book_build_run(bb, path, threads, NULL, NULL, NULL, NULL, err);
    CHECK_MSG(rc == 0, "%s", err);
    book_build_free(bb);
    Book *bk = book_open(path, err);
    CHECK_MSG(bk != NULL, "%s", err);
    uint32_t crc = bk ? book_header(bk)->data_crc : 0;
    book_close(bk);
    return crc;
}

static char tiny_path[128];

static Book *tiny_book(void)
{
    char err[KM_ERR_MAX];
    if (!tiny_path[0]) {
        snprintf(tiny_path, sizeof tiny_path, "%s/tiny.book", dir());
        if (!build(tiny_path, 260, 1, false)) return NULL;
    }
    Book *bk = book_open(tiny_path, err);
    CHECK_MSG(bk != NULL, "%s", err);
    return bk;
}

TEST(book_build_tiny_real_positions)
{
    Book *bk = tiny_book();
    if (!bk) return;
    const BookHeader *h = book_header(bk);
    CHECK(h->finished);
    CHECK(book_count(bk) >= 260);
    /* every root's main line is long enough */
    for (int r = 0; r < BOOK_ROOTS; r++) {
        Board b;
        char err[KM_ERR_MAX];
        CHECK(book_build_root(r, &b, err) == 0);
        BookCoverage c;
        CHECK(book_build_coverage(bk, &b, 100, 50, &c) == 0);
        CHECK_MSG(c.line >= (r ? 1 : 4), "root %d: main line %d", r, c.line);
        CHECK(c.positions >= 1);
    }
    /* each position's scores: a move into the book through a man move or
     * a capture scores minus that position's best, any other move what its
     * own search gives (a fresh table: the build cleared it for each
     * position); the first positions from the start, breadth first */
    Weights w;
    weights_default(&w);
    w.pat = NULL; /* as the tiny book was built */
    Searcher s;
    char err[KM_ERR_MAX];
    CHECK(search_init(&s, &w, 2, 1, err) == 0);
    Board queue[64];
    int head = 0, tail = 0, searched = 0, minimaxed = 0;
    queue[tail++] = after("");
    while (head < tail) {
        Board b = queue[head++];
        BookMove mv[MAX_MOVES];
        int n = book_moves(bk, &b, mv, MAX_MOVES);
        CHECK(n > 0);
        MoveList ml;
        CHECK_INT(mg_moves(&b, &ml), n); /* every legal move is scored */
        search_clear(&s);
        uint16_t codes[255];
        int16_t scores[255];
        CHECK_INT(book_build_score_position(&s, &b, h->depth, NULL, codes, scores), n);
        for (int i = 0; i < n; i++) {
            Board c = b;
            mg_make_move(&c, &mv[i].move);
            BookMove cm[MAX_MOVES];
            int k = book_moves(bk, &c, cm, MAX_MOVES);
            if (k && mg_move_resets_count(&b, &mv[i].move)) {
                CHECK_INT(mv[i].score, -cm[0].score);
                minimaxed++;
                if (tail < 64) queue[tail++] = c;
            } else {
                int code = book_move_code(&b, &mv[i].move), j = 0;
                while (j < n && codes[j] != code) j++;
                CHECK(j < n);
                if (j < n) CHECK_INT(mv[i].score, scores[j]);
                searched++;
            }
        }
    }
    CHECK(searched > 20 && minimaxed > 5);
    search_free(&s);
    book_close(bk);
}

TEST(book_build_same_with_threads_and_resume)
{
    Book *bk = tiny_book();
    if (!bk) return;
    uint32_t want = book_header(bk)->data_crc;
    book_close(bk);
    char path[160];
    snprintf(path, sizeof path, "%s/two.book", dir());
    CHECK(build(path, 260, 2, false) == want);
    /* a build to fewer positions is where one to more passes: going on
     * with a book of 120 to 400 gives the book built to 400 at once */
    snprintf(path, sizeof path, "%s/resumed.book", dir());
    CHECK(build(path, 120, 1, false) != 0);
    uint32_t more = build(path, 400, 2, true);
    char err[KM_ERR_MAX];
    Book *bk2 = book_open(path, err);
    CHECK(bk2 && book_count(bk2) >= 400);
    book_close(bk2);
    snprintf(path, sizeof path, "%s/400.book", dir());
    CHECK(more != 0 && build(path, 400, 1, false) == more);
}

/* The tiny book again on worker processes (`kingme worker`: one a
 * garbage-speaking shell, which fails and is dropped, its positions going
 * to the others) with one local thread beside them: the same book. */
TEST(book_build_on_workers)
{
    Book *bk = tiny_book();
    if (!bk) return;
    uint32_t want = book_header(bk)->data_crc;
    book_close(bk);
    char wfile[160], path[160], err[KM_ERR_MAX];
    snprintf(wfile, sizeof wfile, "%s/workers.txt", dir());
    snprintf(path, sizeof path, "%s/workers.book", dir());
    FILE *f = fopen(wfile, "w");
    CHECK(f != NULL);
    if (!f) return;
    fprintf(f, "%s worker\n%s worker\necho nonsense\n", test_kingme(), test_kingme());
    fclose(f);
    WorkerSet *ws = workers_from_file(wfile, err);
    CHECK_MSG(ws != NULL, "%s", err);
    if (!ws) return;
    workers_set_backoff(ws, 0.01);
    Weights w;
    weights_default(&w);
    w.pat = NULL; /* the tiny book's vector */
    BookBuildParams p;
    tiny_params(&p, 260);
    BookBuild *bb = book_build_new(&p, &w, "kingme book build (a test)", err);
    CHECK(bb != NULL);
    if (bb) {
        int rc = book_build_run(bb, path, 1, ws, NULL, NULL, NULL, err);
        CHECK_MSG(rc == 0, "%s", err);
        book_build_free(bb);
    }
    WorkerStats st;
    workers_stats(ws, &st);
    CHECK_MSG(st.results >= 20, "the workers scored %llu positions", (unsigned long long)st.results);
    /* the default with its pattern layer (sent to the workers as a file):
     * the book of one local thread */
    Weights full;
    weights_default(&full);
    CHECK(full.pat != NULL);
    uint32_t crc[2] = {0, 0};
    for (int r = 0; r < 2; r++) {
        char lp[200];
        snprintf(lp, sizeof lp, "%s/layer%d.book", dir(), r);
        BookBuildParams lpar;
        tiny_params(&lpar, 80);
        BookBuild *lb = book_build_new(&lpar, &full, "kingme book build (a test)", err);
        CHECK(lb != NULL);
        if (!lb) break;
        int rc = book_build_run(lb, lp, r ? 0 : 1, r ? ws : NULL, NULL, NULL, NULL, err);
        CHECK_MSG(rc == 0, "%s", err);
        book_build_free(lb);
        Book *b2 = book_open(lp, err);
        CHECK_MSG(b2 != NULL, "%s", err);
        if (b2) crc[r] = book_header(b2)->data_crc;
        book_close(b2);
    }
    CHECK(crc[0] != 0 && crc[0] == crc[1]);
    workers_free(ws);
    bk = book_open(path, err);
    CHECK_MSG(bk && book_header(bk)->data_crc == want, "%s", bk ? "another book" : err);
    book_close(bk);
    /* the lines themselves */
    WorkerState *wst = worker_state_new(NULL, NULL);
    CHECK_INT(book_build_worker_kind(wst), 0);
    char line[4096];
    char *ans = worker_handle_line(wst, "score 3 0000000000000001 depth 4 hash 1 fen B:W21-32:B1-12");
    CHECK_MSG(ans && strcmp(ans, "error 3 unknown file 0000000000000001") == 0, "%s", ans ? ans : "");
    free(ans);
    WprotoFiles *F = wproto_files_new();
    WprotoScore sj = {.n = 3, .depth = 4, .hash_mb = 1};
    uint64_t need[WPROTO_NEED_MAX];
    int nneed = 0;
    CHECK_INT(wproto_files_vector(F, &w, sj.vector, need, &nneed), 0);
    const WprotoFile *wf = wproto_files_get(F, need[0]);
    size_t len;
    char *text = wf ? wproto_file_lines(wf, &len) : NULL;
    for (char *q = text; q && *q;) {
        char *nl = strchr(q, '\n');
        *nl = '\0';
        ans = worker_handle_line(wst, q);
        CHECK_MSG(ans == NULL, "%s", ans);
        free(ans);
        q = nl + 1;
    }
    free(text);
    wproto_files_free(F);
    snprintf(line, sizeof line, "score 3 %s depth 4 hash 1 fen B:W21-32:B1-12", sj.vector);
    ans = worker_handle_line(wst, line);
    CHECK_MSG(ans && strncmp(ans, "scored 3 7 ", 11) == 0, "%s", ans ? ans : "");
    if (ans) {
        char *tok[64];
        int nt = textio_split(ans, tok, 63);
        Board b;
        board_init(&b);
        uint16_t codes[255];
        int16_t scores[255];
        CHECK_INT(wproto_parse_scored(tok, nt, &b, codes, scores, err), 7);
        nt = textio_split(strcpy(line, "scored 3 7 1 2"), tok, 63);
        CHECK_INT(wproto_parse_scored(tok, nt, &b, codes, scores, err), -1);
    }
    free(ans);
    worker_state_free(wst);
}

/* ---- the commands ---- */

static char out[1 << 16];

TEST(book_command_build_kill9_resume_info)
{
    char path[160], ref[160];
    snprintf(path, sizeof path, "%s/killed.book", dir());
    snprintf(ref, sizeof ref, "%s/ref.book", dir());
    const char *ctl = "--depth 5 --positions 400 --start-plies 4 --ballot-plies 1 --batch 16 --hash 2 -j 2";
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "exec %s book build %s --save-every 0 --out %s", test_kingme(), ctl, path);
    int from;
    pid_t pid = test_spawn(cmd, NULL, &from);
    CHECK(pid > 0);
    if (pid <= 0) return;
    /* not on a terminal, the build says "book: N/400, round 1, ..." on
     * standard error after its first round, once that round is saved */
    CHECK_MSG(test_wait_for(from, "\nbook: ", 120), "the build said nothing after its first round");
    CHECK(access(path, F_OK) == 0);
    kill(pid, SIGKILL);
    close(from);
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "the build ended before the kill");
    char err[KM_ERR_MAX];
    Book *bk = book_open(path, err);
    CHECK_MSG(bk != NULL, "%s", err);
    if (bk) CHECK_MSG(!book_header(bk)->finished, "the build finished before the kill: make it longer");
    book_close(bk);
    /* an existing book is not overwritten; --resume goes on */
    CHECK_INT(kingme(out, sizeof out, "book build %s --out %s", ctl, path), 1);
    CHECK_MSG(strstr(out, "exists: --resume goes on with it, --force starts again over it"), "%s", out);
    CHECK_INT(kingme(out, sizeof out, "book build --resume --depth 6 --out %s", path), 2);
    CHECK_INT(kingme(out, sizeof out, "book build --resume --out %s", path), 0);
    CHECK_INT(kingme(out, sizeof out, "book build %s --out %s", ctl, ref), 0);
    bk = book_open(path, err);
    Book *rk = book_open(ref, err);
    CHECK(bk && rk);
    if (bk && rk) {
        CHECK(book_header(bk)->finished);
        CHECK(book_header(bk)->data_crc == book_header(rk)->data_crc);
        char *semi = strstr(book_header(bk)->command, "; kingme book build --resume --out ");
        CHECK_MSG(semi && strncmp(book_header(bk)->command, "kingme book build --depth 5 ", 28) == 0, "%s",
                  book_header(bk)->command);
        const char *want =
            "kingme book build --depth 5 --positions 400 --start-plies 4 --ballot-plies 1 --batch 16 "
            "--hash 2 -j 2 --out ";
        CHECK_MSG(strncmp(book_header(rk)->command, want, strlen(want)) == 0, "%s", book_header(rk)->command);
    }
    book_close(bk);
    book_close(rk);
    /* info: the header, the command, a line per root */
    CHECK_INT(kingme(out, sizeof out, "book info --book %s", ref), 0);
    CHECK_MSG(strstr(out, "built by: kingme book build --depth 5"), "%s", out);
    CHECK_MSG(strstr(out, "\nstart ") && strstr(out, "\nballot 174 12-16 24-20 10-15 "), "%s", out);
    CHECK_MSG(strstr(out, "(the build's aim 1: all reach it)"), "%s", out);
    /* a truncated copy: one line, status 1 */
    char trunc[200];
    snprintf(trunc, sizeof trunc, "%s/trunc.book", dir());
    snprintf(cmd, sizeof cmd, "head -c 3000 %s > %s", ref, trunc);
    CHECK(system(cmd) == 0);
    CHECK_INT(kingme(out, sizeof out, "book info --book %s", trunc), 1);
    CHECK_MSG(strstr(out, "truncated (3000 bytes, the header says ") &&
                  strchr(out, '\n') == out + strlen(out) - 1,
              "%s", out);
    CHECK_INT(kingme(out, sizeof out, "book show --book %s", trunc), 1);
    CHECK_MSG(strstr(out, "truncated") && strchr(out, '\n') == out + strlen(out) - 1, "%s", out);
}

TEST(book_command_show_probe)
{
    Book *bk = tiny_book();
    if (!bk) return;
    book_close(bk);
    CHECK_INT(kingme(out, sizeof out, "book show --book %s", tiny_path), 0);
    CHECK_MSG(strstr(out, "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12: 7 moves"),
              "%s", out);
    CHECK_MSG(strstr(out, "into the book") && strstr(out, "main line ("), "%s", out);
    CHECK_INT(kingme(out, sizeof out, "book probe --book %s --moves '9-13 22-18 6-9'", tiny_path), 0);
    CHECK_MSG(strncmp(out, "book move ", 10) == 0, "%s", out);
    CHECK_INT(kingme(out, sizeof out, "book probe --book %s --fen 'W:WK4:BK29'", tiny_path), 0);
    CHECK_STR(out, "not in the book\n");
}

TEST(book_used_by_play_engine_match)
{
    Book *bk = tiny_book();
    if (!bk) return;
    Board a = after("");
    BookMove best;
    CHECK(book_choose(bk, &a, 0, NULL, &best, NULL));
    char t[MOVE_TEXT_MAX], want[256];
    notation_move_to_text(&best.move, t);
    /* play: the engine (Black) says its move came from the book */
    CHECK_INT(kingme(out, sizeof out,
                     "play --book %s --engine-first --depth 1 --seed 1 --book-variety 0 --no-color "
                     "--out /dev/null < /dev/null",
                     tiny_path),
              0);
    snprintf(want, sizeof want, "Black played %s   (kingme: opening book)", t);
    CHECK_MSG(strstr(out, want), "%s", out);
    CHECK_INT(kingme(out, sizeof out,
                     "play --book %s --no-book --engine-first --depth 1 --seed 1 --no-color "
                     "--out /dev/null < /dev/null",
                     tiny_path),
              0);
    CHECK_MSG(!strstr(out, "opening book") && strstr(out, "(kingme: depth 1"), "%s", out);
    /* a book named that cannot be read: one line, status 1 */
    char trunc[200], cmd[1024];
    snprintf(trunc, sizeof trunc, "%s/trunc2.book", dir());
    snprintf(cmd, sizeof cmd, "head -c 3000 %s > %s", tiny_path, trunc);
    CHECK(system(cmd) == 0);
    CHECK_INT(kingme(out, sizeof out, "play --book %s --depth 1 --out /dev/null < /dev/null", trunc), 1);
    CHECK_MSG(strstr(out, "truncated") && strchr(out, '\n') == out + strlen(out) - 1, "%s", out);
    CHECK_INT(kingme(out, sizeof out, "engine --book %s < /dev/null", trunc), 1);
    CHECK_MSG(strstr(out, "truncated"), "%s", out);
    /* engine: the book answers go, option book none turns it off */
    snprintf(cmd, sizeof cmd,
             "printf 'position start\\ngo depth 3\\noption book none\\ngo depth 1\\nquit\\n' | "
             "%s engine --book %s --no-egdb",
             test_kingme(), tiny_path);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    snprintf(want, sizeof want, "info book score %d pv %s\nbestmove %s\ninfo depth 1 ", (int)best.score, t,
             t);
    CHECK_MSG(strncmp(out, want, strlen(want)) == 0, "%s", out);
    snprintf(cmd, sizeof cmd,
             "printf 'option book %s\\nposition start\\ngo movetime 50\\nquit\\n' | %s engine --no-book",
             tiny_path, test_kingme());
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "info book score"), "%s", out);
    /* match: both in-process players follow the book's main line (4 plies
     * from the start) */
    char pdn[200];
    snprintf(pdn, sizeof pdn, "%s/m.pdn", dir());
    CHECK_INT(kingme(out, sizeof out,
                     "match default default --games 2 --depth 1 -j 1 --openings start --book %s "
                     "--out %s",
                     tiny_path, pdn),
              0);
    CHECK_MSG(strstr(out, "opening book ") && strstr(out, " for A and B\n"), "%s", out);
    char *games = test_slurp(pdn);
    CHECK(games != NULL);
    Board b = after("");
    BookMove mv[MAX_MOVES];
    char line[256] = "";
    int ply = 0;
    while (book_moves(bk, &b, mv, MAX_MOVES) && ply < 4) {
        notation_move_to_text(&mv[0].move, t);
        size_t k = strlen(line);
        if (ply % 2 == 0) snprintf(line + k, sizeof line - k, "%d. %s ", ply / 2 + 1, t);
        else snprintf(line + k, sizeof line - k, "%s ", t);
        mg_make_move(&b, &mv[0].move);
        ply++;
    }
    CHECK(ply == 4);
    CHECK_MSG(games && strstr(games, line), "the game does not start with %s:\n%.400s", line,
              games ? games : "");
    free(games);
    book_close(bk);
}
