/* test_workers.c - games played by `kingme worker` processes: the line
 * protocol, and a coordinator whose results do not depend on which worker
 * (or local thread) played what, even when workers die or answer garbage. */
#include "kingme/egdb.h"
#include "kingme/egdb_build.h"
#include "kingme/match.h"
#include "kingme/nn.h"
#include "kingme/selfplay.h"
#include "kingme/textio.h"
#include "kingme/weights.h"
#include "kingme/worker.h"
#include "kingme/worker_proto.h"
#include "kingme/workers.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 16 games: 8 crossboard ballots, each with both colours, material.w against
 * the built-in default (its pattern layer and all) at depth 3 (random
 * tie-breaks, seeded per game). */
typedef struct Fixture {
    Weights a, b;
    Opening *op;
    int nop;
    MatchSettings set;
    MatchGameSpec specs[16];
} Fixture;

static bool fixture(Fixture *f)
{
    char err[KM_ERR_MAX];
    weights_default(&f->a);
    if (!f->a.pat || weights_read(&f->b, "weights/material.w", NULL, err) ||
        opening_list_crossboard(&f->op, &f->nop, err)) {
        CHECK_MSG(false, "%s", f->a.pat ? err : "the default has no pattern layer");
        return false;
    }
    referee_settings_default(&f->set);
    f->set.limits.depth = 3;
    for (int i = 0; i < 16; i++) {
        bool swap = i & 1;
        f->specs[i] = (MatchGameSpec){swap ? &f->b : &f->a,
                                      swap ? &f->a : &f->b,
                                      &f->op[(i / 2) * 17 % f->nop],
                                      referee_game_seed(99, (uint64_t)i),
                                      {0, 0}};
    }
    return true;
}

/* Hand the worker the files a job names, as the runner does: no answer. */
static void send_files(WorkerState *ws, const WprotoFiles *F, const uint64_t *need, int nneed)
{
    for (int i = 0; i < nneed; i++) {
        const WprotoFile *f = wproto_files_get(F, need[i]);
        CHECK(f != NULL);
        size_t len;
        char *text = f ? wproto_file_lines(f, &len) : NULL;
        for (char *p = text; p && *p;) {
            char *nl = strchr(p, '\n');
            *nl = '\0';
            char *ans = worker_handle_line(ws, p);
            CHECK_MSG(ans == NULL, "%s", ans);
            free(ans);
            p = nl + 1;
        }
        free(text);
    }
}

static bool same_games(const MatchOutcome *x, const MatchOutcome *y, int n)
{
    for (int i = 0; i < n; i++) {
        if (x[i].result != y[i].result || x[i].reason != y[i].reason || x[i].nply != y[i].nply) {
            CHECK_MSG(false, "game %d: %d/%d/%d against %d/%d/%d", i, x[i].result, x[i].reason, x[i].nply,
                      y[i].result, y[i].reason, y[i].nply);
            return false;
        }
        if (x[i].game.moves && y[i].game.moves &&
            wproto_moves_checksum(&x[i].game) != wproto_moves_checksum(&y[i].game)) {
            CHECK_MSG(false, "game %d: other moves", i);
            return false;
        }
    }
    return true;
}

TEST(workers_line_protocol)
{
    Fixture f;
    if (!fixture(&f)) return;
    WorkerState *ws = worker_state_new(NULL, NULL);
    WprotoFiles *F = wproto_files_new();
    char err[KM_ERR_MAX];
    uint64_t need[WPROTO_NEED_MAX];
    int nneed = 0;
    /* the default travels as two files: its named weights and its layer */
    char *job = wproto_job_line(F, 5, &f.set, &f.specs[5], true, need, &nneed);
    CHECK_INT(nneed, 3);
    /* a job before its files is refused */
    char *ans = worker_handle_line(ws, job);
    CHECK_MSG(ans && strncmp(ans, "error 5 unknown file ", 21) == 0, "%s", ans ? ans : "");
    free(ans);
    /* a file whose bytes do not match its hash */
    const WprotoFile *w0 = wproto_files_get(F, need[0]);
    char head[64];
    snprintf(head, sizeof head, "file %016llx %zu", (unsigned long long)(w0->hash ^ 1), w0->len);
    ans = worker_handle_line(ws, head);
    CHECK_MSG(ans == NULL, "%s", ans);
    size_t len;
    char *lines = wproto_file_lines(w0, &len);
    char *data = lines ? strchr(lines, '\n') + 1 : NULL;
    if (data) *strchr(data, '\n') = '\0';
    ans = data ? worker_handle_line(ws, data) : NULL;
    CHECK_MSG(ans && strstr(ans, "its bytes do not match its hash"), "%s", ans ? ans : "");
    free(ans);
    free(lines);
    send_files(ws, F, need, nneed);
    /* the worker's game is the coordinator's own */
    ans = worker_handle_line(ws, job);
    MatchOutcome mo;
    CHECK(referee_play_game(&f.set, &f.specs[5], &mo, NULL, err) == 0);
    char *want = wproto_result_line(5, &mo, true);
    CHECK_MSG(ans && want && strcmp(ans, want) == 0, "%s\nwant %s", ans ? ans : "", want ? want : "");
    free(want);
    game_free(&mo.game);
    free(ans);
    free(job);
    /* bad lines: one error line each */
    static const char sideways[] =
        "job 1 0123456789abcdef 0123456789abcdef depth 3 time 0 nodes 0 cap 0 hash 1 "
        "share 0 tiebreak sideways flags 15 seed 1 keep 0 fen B:W21:B1";
    static const char *const bad[] = {"job",       "job x 0 0",
                                      "bogus 1 2", "data 00",
                                      "file 12 3", "job 1 engine:7a 0123456789abcdef",
                                      sideways,    "file 0123456789abcdef 0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ans = worker_handle_line(ws, bad[i]);
        CHECK_MSG(ans && strncmp(ans, "error ", 6) == 0, "'%s' -> '%s'", bad[i], ans ? ans : "(none)");
        free(ans);
    }
    wproto_files_free(F);
    worker_state_free(ws);
    free(f.op);
}

/* The hello says what the worker has; a worker of another version, or
 * without the run's endgame database, is named in one line. */
TEST(workers_hello)
{
    char err[KM_ERR_MAX];
    WprotoHello h;
    WorkerState *ws = worker_state_new(NULL, NULL);
    char *hello = worker_hello(ws);
    CHECK_MSG(hello && strcmp(hello, "worker kingme " KINGME_VERSION " protocol 1 egdb none book none") == 0,
              "%s", hello ? hello : "");
    CHECK(hello && wproto_parse_hello(hello, &h, err) == 0 && h.version == 1 && h.egdb_pieces == 0 &&
          h.book == 0);
    free(hello);
    worker_state_free(ws);
    CHECK(wproto_parse_hello("worker kingme 0.1.0 protocol 1 2 3 4 5", &h, err) == -1);
    CHECK_MSG(
        strcmp(err, "speaks protocol 5, not 1: give it the coordinator's kingme (" KINGME_VERSION ")") == 0,
        "%s", err);
    /* a list longer than the words read: the first 15 words count, no more */
    CHECK(wproto_parse_hello("worker kingme 0.1.0 protocol 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", &h,
                             err) == -1);
    CHECK_MSG(
        strcmp(err, "speaks protocol 11, not 1: give it the coordinator's kingme (" KINGME_VERSION ")") == 0,
        "%s", err);
    CHECK(wproto_parse_hello("worker kingme 0.1.0 protocol 1 egdb 5-0123 book none", &h, err) == -1);
    CHECK(wproto_parse_hello("worker kingme 0.1.0 protocol 1 egdb 2:0123456789abcdef book none", &h, err) ==
          -1);
    CHECK(wproto_parse_hello("worker kingme 0.1.0 protocol 1 egdb 1:0123456789abcdef, book none", &h, err) ==
          -1);
    CHECK(wproto_parse_hello("hello", &h, err) == -1);
    CHECK(wproto_parse_hello("worker kingme 0.1.0 protocol 1 egdb 2:0123456789abcdef,fedcba9876543210 book "
                             "0123456789abcdef",
                             &h, err) == 0 &&
          h.egdb_pieces == 2 && h.egdb_digest[1] == 0x0123456789abcdefull &&
          h.egdb_digest[2] == 0xfedcba9876543210ull && h.book == 0x0123456789abcdefull);
    /* which runs that hello serves: up to 2 pieces, with its digests */
    CHECK_INT(wproto_egdb_serves(&h, "none", err), 0);
    CHECK_INT(wproto_egdb_serves(&h, "1-0123456789abcdef", err), 0);
    CHECK_INT(wproto_egdb_serves(&h, "2-fedcba9876543210", err), 0);
    CHECK_INT(wproto_egdb_serves(&h, "2-0123456789abcdef", err), -1);
    CHECK_MSG(strstr(err, "has other slices of up to 2 pieces than this run") == err, "%s", err);
    CHECK_INT(wproto_egdb_serves(&h, "3-0123456789abcdef", err), -1);
    CHECK_MSG(strstr(err, "has the endgame database up to 2 pieces, this run needs 3") == err, "%s", err);
    /* the runner: a run that fails at the hello, before any job */
    Fixture f;
    if (!fixture(&f)) return;
    char path[256];
    snprintf(path, sizeof path, "/tmp/kingme-workers-hello-%d.txt", (int)getpid());
    static const char *const files[2] = {
        "sh -c 'echo worker kingme 0.1.0 protocol 1 2 3 4 5; cat >/dev/null'\n",
        "sh -c 'echo worker kingme 0.1.0 protocol 1 egdb "
        "3:0000000000000000,0000000000000000,0000000000000000 "
        "book none; cat >/dev/null'\n"};
    static const char *const want[2] = {
        "worker 1 (sh -c 'echo worker kingme 0.1.0 protocol 1 2 3 4 5; cat >/de) speaks protocol 5, not 1: "
        "give it the coordinator's kingme",
        "has other slices of up to 3 pieces than this run: give it the same ones"};
    for (int r = 0; r < 2; r++) {
        FILE *fp = fopen(path, "w");
        if (!fp) break;
        fputs(files[r], fp);
        fclose(fp);
        WorkerSet *set = workers_from_file(path, err);
        CHECK_MSG(set != NULL, "%s", err);
        if (!set) break;
        /* a database this run uses (3 pieces), which the worker has not */
        MatchSettings s2 = f.set;
        Egdb *db = NULL;
        if (r == 1) {
            char dir[128];
            snprintf(dir, sizeof dir, "/tmp/kingme-workers-egdb-%d", (int)getpid());
            CHECK_MSG(egdb_build(dir, 3, 1, NULL, NULL, err) == 0, "%s", err);
            db = egdb_open(dir, 1, err);
            CHECK_MSG(db != NULL, "%s", err);
            s2.egdb = db;
        }
        MatchOutcome out[2];
        CHECK_INT(match_run_workers(set, &s2, f.specs, 2, 0, false, out, NULL, NULL, NULL, err), -1);
        CHECK_MSG(strstr(err, want[r]) != NULL, "%s", err);
        workers_free(set);
        egdb_close(db);
    }
    remove(path);
    free(f.op);
    char cmd[128], out[256];
    snprintf(cmd, sizeof cmd, "rm -rf /tmp/kingme-workers-egdb-%d", (int)getpid());
    test_run(cmd, out, sizeof out);
}

static int failures[8];
static void on_event(int worker, WorkerEventKind kind, const char *why, void *user)
{
    (void)why;
    (void)user;
    if (kind != WORKER_STARTED && worker < 8) failures[worker]++;
}

/* Play the fixture through a workers file holding lines; compare with -j 1. */
static void run_with(const char *lines, int threads)
{
    memset(failures, 0, sizeof failures);
    Fixture f;
    if (!fixture(&f)) return;
    char path[256], err[KM_ERR_MAX];
    snprintf(path, sizeof path, "/tmp/kingme-workers-%d.txt", (int)getpid());
    FILE *fp = fopen(path, "w");
    if (!fp) return;
    fputs(lines, fp);
    fclose(fp);
    MatchOutcome local[16], remote[16];
    CHECK(match_run(&f.set, f.specs, 16, 1, true, local, NULL, NULL, NULL, err) == 0);
    WorkerSet *ws = workers_from_file(path, err);
    CHECK_MSG(ws != NULL, "%s", err);
    if (ws) {
        workers_set_events(ws, on_event, NULL);
        workers_set_backoff(ws, 0.05);
        int rc = match_run_workers(ws, &f.set, f.specs, 16, threads, true, remote, NULL, NULL, NULL, err);
        CHECK_MSG(rc == 0, "%s", err);
        if (rc == 0) CHECK(same_games(local, remote, 16));
        /* a second run on the same (kept) workers */
        match_outcomes_free(remote, 16);
        rc = match_run_workers(ws, &f.set, f.specs, 16, threads, false, remote, NULL, NULL, NULL, err);
        CHECK_MSG(rc == 0, "%s", err);
        if (rc == 0) CHECK(same_games(local, remote, 16));
        workers_free(ws);
    }
    match_outcomes_free(local, 16);
    match_outcomes_free(remote, 16);
    remove(path);
    free(f.op);
}

TEST(workers_give_the_games_of_one_thread)
{
    char lines[1024];
    const char *k = test_kingme();
    /* three local workers */
    snprintf(lines, sizeof lines, "# three local workers\n%s worker\n\n%s worker\n%s worker\n", k, k, k);
    run_with(lines, 0);
    CHECK_INT(failures[0] + failures[1] + failures[2], 0);
    /* one that exits after its first game each time it starts (its second
     * job is lost with it), one that answers garbage, one good one and a
     * local thread */
    snprintf(lines, sizeof lines,
             "head -n 3 | %s worker\n"
             "sh -c 'echo worker kingme 0 protocol 1 egdb none book none; while read l; do echo garbage; "
             "done' 2>/dev/null\n"
             "%s worker\n",
             k, k);
    run_with(lines, 1);
    CHECK_MSG(failures[0] >= 1 && failures[1] >= 1 && failures[2] == 0, "failures %d %d %d", failures[0],
              failures[1], failures[2]);
}

TEST(workers_file_errors)
{
    char err[KM_ERR_MAX];
    CHECK(workers_from_file("/nonexistent/workers.txt", err) == NULL);
    CHECK_MSG(strstr(err, "/nonexistent/workers.txt") != NULL, "%s", err);
    char path[256];
    snprintf(path, sizeof path, "/tmp/kingme-workers-empty-%d.txt", (int)getpid());
    FILE *fp = fopen(path, "w");
    if (!fp) return;
    fputs("# nothing but comments\n\n", fp);
    fclose(fp);
    CHECK(workers_from_file(path, err) == NULL);
    CHECK_MSG(strstr(err, "no worker command") != NULL, "%s", err);
    /* every worker broken and no local thread: the run fails with a line */
    fp = fopen(path, "w");
    fputs("false\n", fp);
    fclose(fp);
    WorkerSet *ws = workers_from_file(path, err);
    CHECK(ws != NULL);
    if (ws) workers_set_backoff(ws, 0.01);
    Fixture f;
    if (ws && fixture(&f)) {
        MatchOutcome out[2];
        CHECK(match_run_workers(ws, &f.set, f.specs, 2, 0, false, out, NULL, NULL, NULL, err) == -1);
        CHECK_MSG(strstr(err, "every worker failed") != NULL, "%s", err);
        free(f.op);
    }
    workers_free(ws);
    remove(path);
}

/* The check: a tuning session with --workers gives the weights of
 * the same session with -j 1, also when one worker exits after its first
 * game each time and one answers garbage. */
TEST(workers_tune_session_same_weights)
{
    char dir[256], cmd[2048], path[512], err[KM_ERR_MAX];
    static char out[1 << 16];
    snprintf(dir, sizeof dir, "/tmp/kingme-tunew-%d", (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
    test_run(cmd, out, sizeof out);
    const char *k = test_kingme();
    const char *ctl = "--population 8 --depth 2 --generations 2 --seed 5 --yardstick none";
    snprintf(path, sizeof path, "%s/good.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "%s worker\n%s worker\n%s worker\n", k, k, k);
    fclose(f);
    snprintf(path, sizeof path, "%s/bad.txt", dir);
    f = fopen(path, "w");
    if (!f) return;
    fprintf(
        f,
        "head -n 3 | %s worker\nsh -c 'echo worker kingme 0 protocol 1 egdb none book none; while read l; do "
        "echo garbage; done' 2>/dev/null\n%s worker\n",
        k, k);
    fclose(f);
    static const char *const runs[3][2] = {
        {"one", "-j 1"}, {"good", "--workers DIR/good.txt"}, {"bad", "--workers DIR/bad.txt -j 1"}};
    Weights w[3];
    for (int r = 0; r < 3; r++) {
        char extra[512];
        const char *at = strstr(runs[r][1], "DIR");
        if (at) snprintf(extra, sizeof extra, "%.*s%s%s", (int)(at - runs[r][1]), runs[r][1], dir, at + 3);
        else snprintf(extra, sizeof extra, "%s", runs[r][1]);
        snprintf(cmd, sizeof cmd, "%s tune %s %s --dir %s --name %s", k, ctl, extra, dir, runs[r][0]);
        CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s\n%s", cmd, out);
        if (r == 2) CHECK_MSG(strstr(out, "kingme: worker 2 answered garbage") != NULL, "%s", out);
        snprintf(path, sizeof path, "%s/output/%s.w", dir, runs[r][0]);
        CHECK_MSG(weights_read(&w[r], path, NULL, err) == 0, "%s", err);
    }
    CHECK_MSG(memcmp(&w[0], &w[1], sizeof w[0]) == 0, "three workers: other weights than -j 1");
    CHECK_MSG(memcmp(&w[0], &w[2], sizeof w[0]) == 0, "failing workers: other weights than -j 1");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}

/* A worker that refuses every job: its reason, all of it, on the
 * coordinator's line; the games go to the good worker. */
TEST(workers_refusal_says_why)
{
    char dir[300], path[340], text[600], cmd[2048];
    static char out[1 << 16];
    const char *k = test_kingme();
    test_fresh_dir("wr", dir, sizeof dir, "refuse");
    snprintf(path, sizeof path, "%s/w.txt", dir);
    snprintf(text, sizeof text,
             "sh -c 'echo worker kingme 0 protocol 1 egdb none book none; while read l; do "
             "echo error 0 engine:x: no answer to hello within 30 s; done' 2>/dev/null\n%s worker\n",
             k);
    CHECK(test_put_file(path, text));
    snprintf(
        cmd, sizeof cmd,
        "%s match default weights/handset.w --no-book --games 4 --depth 2 --workers %s --out %s/m.pdn 2>&1",
        k, path, dir);
    CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s", out);
    CHECK_MSG(strstr(out,
                     "kingme: worker 1 refused a job: engine:x: no answer to hello within 30 s; its games go "
                     "to the others"),
              "%s", out);
    CHECK_MSG(strstr(out, "4 games in"), "%s", out);
    snprintf(path, sizeof path, "%s/m.pdn", dir);
    char *pdn = test_slurp(path);
    int events = 0;
    for (const char *p = pdn; p && (p = strstr(p, "[Event \"kingme match\"]")); p++) events++;
    CHECK_INT(events, 4);
    free(pdn);
    test_remove_dir(dir);
}

/* Vectors with the terms 61-74 and a phase against the default's pattern
 * layer, in games that use an endgame database (3 pieces): workers started
 * with the same database give the games of one local thread. */
TEST(workers_vectors_and_database)
{
    Fixture f;
    if (!fixture(&f)) return;
    char err[KM_ERR_MAX], path[256], dir[128], cmd[256], out[256];
    CHECK_INT(weights_read(&f.b, "weights/terms.w", NULL, err), 0);
    CHECK(f.b.phased);
    snprintf(dir, sizeof dir, "/tmp/kingme-workers-db-%d", (int)getpid());
    CHECK_MSG(egdb_build(dir, 3, 1, NULL, NULL, err) == 0, "%s", err);
    Egdb *db = egdb_open(dir, 1, err);
    CHECK_MSG(db != NULL, "%s", err);
    f.set.egdb = db;
    MatchOutcome local[16], remote[16];
    CHECK(match_run(&f.set, f.specs, 16, 1, true, local, NULL, NULL, NULL, err) == 0);
    const char *k = test_kingme();
    snprintf(path, sizeof path, "/tmp/kingme-workers-db-%d.txt", (int)getpid());
    FILE *fp = fopen(path, "w");
    if (fp) {
        fprintf(fp, "%s worker --egdb %s\n%s worker --egdb %s\n", k, dir, k, dir);
        fclose(fp);
        WorkerSet *ws = workers_from_file(path, err);
        CHECK_MSG(ws != NULL, "%s", err);
        if (ws) {
            int rc = match_run_workers(ws, &f.set, f.specs, 16, 0, true, remote, NULL, NULL, NULL, err);
            CHECK_MSG(rc == 0, "%s", err);
            if (rc == 0) CHECK(same_games(local, remote, 16));
            WorkerStats st;
            workers_stats(ws, &st);
            CHECK_INT((long long)st.results, 16);
            /* the named weights of each vector and the layer, once per worker */
            CHECK_MSG(st.files >= 3 && st.files <= 6, "%llu files sent", (unsigned long long)st.files);
            match_outcomes_free(remote, 16);
            workers_free(ws);
        }
    }
    match_outcomes_free(local, 16);
    egdb_close(db);
    remove(path);
    free(f.op);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}

/* --egdb-pieces N with --workers: the coordinator has 4 pieces and the run
 * needs 3; workers with 4 pieces (limited to 3 for the run) and with 3 (built
 * apart: the same slices) give the PDN of -j 1, which differs from that of
 * the 4 pieces; a run that needs 4 from a worker with 3 is refused with one
 * line naming the piece count. */
TEST(workers_egdb_pieces)
{
    char dir[] = "/tmp/kingme-wp-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *k = test_kingme();
    char cmd[4096], path[300], err[KM_ERR_MAX];
    static char out[8192];
    for (int p = 3; p <= 4; p++) {
        snprintf(path, sizeof path, "%s/db%d", dir, p);
        CHECK_MSG(test_db_at(path, p, err), "%s", err);
        snprintf(path, sizeof path, "%s/w%d.txt", dir, p);
        FILE *fp = fopen(path, "w");
        if (!fp) return;
        fprintf(fp, "%s worker --no-book --egdb %s/db%d\n%s worker --no-book --egdb %s/db%d\n", k, dir, p, k,
                dir, p);
        fclose(fp);
    }
    snprintf(path, sizeof path, "%s/op.pdn", dir);
    FILE *fp = fopen(path, "w");
    if (!fp) return;
    fputs("[FEN \"B:WK22,K23,30:B1,K10\"]\n*\n\n[FEN \"W:W21,K26:BK3,7,K14\"]\n*\n\n"
          "[FEN \"B:WK18,27:BK5,K6\"]\n*\n",
          fp);
    fclose(fp);
    /* 0: -j 1 with 3 pieces; 1: with 4; 2, 3: 3 pieces on workers with 4, with 3 */
    static const char *const how[4] = {"--egdb-pieces 3 -j 1", "-j 1", "--egdb-pieces 3 --workers %s/w4.txt",
                                       "--egdb-pieces 3 --workers %s/w3.txt"};
    for (int r = 0; r < 4; r++) {
        char h[400];
        snprintf(h, sizeof h, how[r], dir);
        snprintf(
            cmd, sizeof cmd,
            "%s match default weights/handset.w --no-book --openings %s/op.pdn --games 6 --depth 3 --seed 2 "
            "--egdb %s/db4 %s --out %s/%d.pdn 2>&1",
            k, dir, dir, h, dir, r);
        CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s\n%s", cmd, out);
    }
    snprintf(cmd, sizeof cmd, "cmp -s %s/0.pdn %s/1.pdn", dir, dir);
    CHECK_MSG(test_run(cmd, out, sizeof out) != 0,
              "3 pieces and 4 gave the same games: the test shows nothing");
    for (int r = 2; r < 4; r++) {
        snprintf(cmd, sizeof cmd, "cmp %s/0.pdn %s/%d.pdn", dir, dir, r);
        CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "workers %d: %s", r, out);
    }
    snprintf(cmd, sizeof cmd,
             "%s match default weights/handset.w --no-book --openings %s/op.pdn --games 6 --depth 3 --seed 2 "
             "--egdb %s/db4 --egdb-pieces 4 --workers %s/w3.txt --out %s/4.pdn 2>&1 | grep '^kingme: '",
             k, dir, dir, dir, dir);
    test_run(cmd, out, sizeof out);
    CHECK_MSG(strstr(out, "has the endgame database up to 3 pieces, this run needs 4: give it the slices") &&
                  strchr(out, '\n') == strrchr(out, '\n'),
              "%s", out);
    snprintf(cmd, sizeof cmd,
             "%s match default weights/handset.w --no-book --games 2 --depth 2 --egdb %s/db3 "
             "--egdb-pieces 4 -j 1 2>&1",
             k, dir);
    CHECK(test_run(cmd, out, sizeof out) != 0);
    CHECK_MSG(strstr(out, "kingme: --egdb-pieces 4: the endgame database in ") && strstr(out, "has 3 pieces"),
              "%s", out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}

/* kingme match with --workers, as a user runs it: an engine:COMMAND player
 * (started on the worker's side) against the in-process default with the
 * opening book (sent to workers that have none of their own: --no-book),
 * the PDN and the lines byte for byte those of -j 1. */
TEST(workers_match_command_engine_and_book)
{
    char dir[] = "/tmp/kingme-wm-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *k = test_kingme();
    char cmd[4096], out[8192], path[300], want[8192];
    snprintf(path, sizeof path, "%s/w.txt", dir);
    FILE *fp = fopen(path, "w");
    if (!fp) return;
    fprintf(fp, "%s worker --no-book\n%s worker --no-book\n", k, k);
    fclose(fp);
    for (int r = 0; r < 2; r++) {
        snprintf(cmd, sizeof cmd,
                 "%s match 'engine:%s engine --no-book' default --games 4 --depth 3 --seed 4 "
                 "--book weights/default.book %s%s --out %s/%d.pdn 2>&1 | grep -v '^depth 3, "
                 "\\|^workers:\\|game); "
                 "\\|games in\\|games written\\|^$'",
                 k, k, r ? "--workers " : "-j 1", r ? path : "", dir, r);
        test_run(cmd, r ? out : want, sizeof out);
    }
    CHECK_MSG(strstr(want, "opening book weights/default.book for B"), "%s", want);
    CHECK_MSG(strcmp(out, want) == 0, "with workers:\n%s\nwith -j 1:\n%s", out, want);
    snprintf(cmd, sizeof cmd, "cmp %s/0.pdn %s/1.pdn", dir, dir);
    CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s", out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}

/* The tuning session OPTS (no yardstick) with -j 1 and with the workers of
 * the file PATH, its files in DIR: each says EXPECT, and the two give the
 * same weights (read into w[0] and w[1]). */
static void tune_local_and_workers(const char *opts, const char *path, const char *dir, const char *expect,
                                   Weights w[2])
{
    char cmd[2048], wp[512], err[KM_ERR_MAX];
    static char out[1 << 16];
    for (int r = 0; r < 2; r++) {
        snprintf(cmd, sizeof cmd, "%s tune %s --yardstick none %s%s --dir %s --name r%d", test_kingme(), opts,
                 r ? "--workers " : "-j 1", r ? path : "", dir, r);
        CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s\n%s", cmd, out);
        CHECK_MSG(strstr(out, expect) != NULL, "%s", out);
        snprintf(wp, sizeof wp, "%s/output/r%d.w", dir, r);
        CHECK_MSG(weights_read(&w[r], wp, NULL, err) == 0, "%s", err);
    }
    CHECK_MSG(memcmp(&w[0], &w[1], sizeof w[0]) == 0, "workers: other weights than -j 1");
}

/* A short tuning session of 74 weights (an --include file with the terms
 * 61-74) gives the same weights with -j 1 and with local workers. */
TEST(workers_tune_session_74_weights)
{
    char dir[256], cmd[2048], path[512];
    static char out[1 << 16];
    snprintf(dir, sizeof dir, "/tmp/kingme-tunew74-%d", (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
    test_run(cmd, out, sizeof out);
    const char *k = test_kingme();
    snprintf(path, sizeof path, "%s/good.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "%s worker\n%s worker\n", k, k);
    fclose(f);
    Weights w[2];
    tune_local_and_workers(
        "--include weights/archive/terms-flat.w --population 8 --depth 2 --generations 2 --seed 74", path,
        dir, "vectors of 74 weights", w);
    int nonzero = 0;
    for (int i = EVAL_NPARAMS; i < EVAL_NTERMS; i++) nonzero += w[0].w[i] != 0;
    CHECK(nonzero > 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}

/* Tuning sessions that breed a phase, and the named weights over a fixed
 * pattern layer (the default's): -j 1 and workers give the same weights. */
TEST(workers_tune_phase_and_layer)
{
    char dir[256], cmd[2048], path[512];
    static char out[1 << 16];
    snprintf(dir, sizeof dir, "/tmp/kingme-tunewph-%d", (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
    test_run(cmd, out, sizeof out);
    const char *k = test_kingme();
    snprintf(path, sizeof path, "%s/good.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "%s worker\n%s worker\n", k, k);
    fclose(f);
    Weights w[2];
    tune_local_and_workers("--include weights/terms.w --population 8 --depth 2 --generations 2 --seed 148 "
                           "--gladiator 16",
                           path, dir, "vectors of 148 weights", w);
    CHECK(w[0].phased);
    char sub[300];
    snprintf(sub, sizeof sub, "%s/layer", dir);
    tune_local_and_workers("--include weights/default.w --population 8 --depth 2 --generations 1 --seed 7",
                           path, sub, "pattern layer and ending network", w);
    /* the default's ending network rides with its layer, on the workers too */
    CHECK(w[0].pat != NULL && w[0].net != NULL && w[0].net->max_pieces == 10);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}

/* ---- self-play games ---- */

static bool same_chunks(const char *a, const char *b, int n)
{
    for (int k = 0; k < n; k++) {
        char cmd[9000], out[256];
        snprintf(cmd, sizeof cmd, "cmp -s %s/sp-%06d.kmsp %s/sp-%06d.kmsp", a, k, b, k);
        if (test_run(cmd, out, sizeof out) != 0) {
            CHECK_MSG(false, "chunk %d of %s is not that of %s", k, b, a);
            return false;
        }
    }
    return true;
}

/* The worker's side: a selfplay line answered with the game's moves and
 * scores, which the coordinator replays into the positions selfplay_game
 * gives; a changed score, move or count is refused. */
TEST(workers_selfplay_line)
{
    char err[KM_ERR_MAX];
    SelfplayConfig c;
    selfplay_config_default(&c);
    CHECK(c.weights.pat != NULL); /* the default, its layer sent as a file */
    c.nodes = 300;
    c.random_plies = 4;
    c.seed = 5;
    c.hash_mb = 1;
    WorkerState *st = worker_state_new(NULL, NULL);
    CHECK_INT(selfplay_worker_kind(st), 0);
    WprotoFiles *F = wproto_files_new();
    uint64_t need[WPROTO_NEED_MAX];
    int nneed = 0;
    WprotoSelfplay j = {.n = 2,
                        .game = 4,
                        .seed = c.seed,
                        .nodes = c.nodes,
                        .random_plies = c.random_plies,
                        .margin = c.margin,
                        .max_plies = c.max_plies,
                        .hash_mb = c.hash_mb,
                        .egdb = "none"};
    CHECK_INT(wproto_files_vector(F, &c.weights, j.vector, need, &nneed), 0);
    CHECK_INT(nneed, 2);
    char *line = wproto_selfplay_line(&j);
    char *ans = line ? worker_handle_line(st, line) : NULL;
    CHECK_MSG(ans && strncmp(ans, "error 2 unknown file ", 21) == 0, "%s", ans ? ans : "");
    free(ans);
    send_files(st, F, need, nneed);
    wproto_files_free(F);
    ans = line ? worker_handle_line(st, line) : NULL;
    free(line);
    CHECK_MSG(ans && strncmp(ans, "played 2 ", 9) == 0, "%s", ans ? ans : "");
    SelfplayData local = {0}, remote = {0};
    CHECK_MSG(selfplay_game(&c, 4, &local, err) == 0, "%s", err);
    char **tok = malloc((WPROTO_LINE_MAX / 2 + 2) * sizeof *tok);
    char *copy = ans ? strdup(ans) : NULL;
    if (ans && tok && copy) {
        int nt = textio_split(copy, tok, WPROTO_LINE_MAX / 2);
        CHECK(nt > 5 + 2 * 20);
        CHECK_MSG(selfplay_take_played(&c, 4, tok, nt, &remote, err) == 0, "%s", err);
        CHECK_INT(remote.n, (long long)local.n);
        CHECK_INT(remote.games, 1);
        CHECK(memcmp(remote.wins, local.wins, sizeof local.wins) == 0);
        CHECK(selfplay_records_checksum(&remote, 0) == selfplay_records_checksum(&local, 0));
        /* the same words as another game's: its ballot makes the moves illegal */
        size_t n0 = remote.n;
        CHECK(selfplay_take_played(&c, 5, tok, nt, &remote, err) != 0);
        CHECK_INT(remote.n, (long long)n0);
        /* a score changed: the checksum */
        char *s1 = tok[6], plus[16];
        snprintf(plus, sizeof plus, "%d", atoi(s1) + 1);
        tok[6] = plus;
        CHECK(selfplay_take_played(&c, 4, tok, nt, &remote, err) != 0);
        CHECK_MSG(strstr(err, "the checksum does not match"), "%s", err);
        tok[6] = s1;
        /* a move that is not one */
        char *m5 = tok[5];
        tok[5] = "1-5";
        CHECK(selfplay_take_played(&c, 4, tok, nt, &remote, err) != 0);
        CHECK_MSG(strstr(err, "move 1 '1-5'"), "%s", err);
        tok[5] = m5;
        /* the game cut short (its count and its words agree) */
        char k2[16];
        snprintf(k2, sizeof k2, "%d", atoi(tok[3]) - 1);
        tok[3] = k2;
        CHECK(selfplay_take_played(&c, 4, tok, nt - 2, &remote, err) != 0);
        CHECK_MSG(strstr(err, "stops before its end"), "%s", err);
        CHECK_INT(remote.n, (long long)n0);
    }
    free(copy);
    free(tok);
    free(ans);
    selfplay_data_free(&local);
    selfplay_data_free(&remote);
    static const char unknown[] = "selfplay 1 2 0123456789abcdef seed 0000000000000005 nodes 300 random 4 "
                                  "margin 100 plies 250 hash 1 egdb none";
    static const char *const bad[] = {"selfplay", "selfplay 1 2 3", unknown};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ans = worker_handle_line(st, bad[i]);
        CHECK_MSG(ans && strncmp(ans, "error ", 6) == 0, "'%s' -> '%s'", bad[i], ans ? ans : "(none)");
        free(ans);
    }
    worker_state_free(st);
}

/* kingme selfplay --workers with the default (its pattern layer sent to the
 * workers): the chunk files are byte for byte those of -j 1, with two
 * workers alone, with one that exits after each first game and one that
 * answers garbage beside a local thread, and after a lost chunk played
 * again; a worker of an older protocol is refused with one line. */
#define SPW_OPTS "--games 6 --chunk 3 --nodes 300 --random-plies 4 --seed 5 --no-egdb --weights default"
TEST(workers_selfplay_same_chunks)
{
    char dir[] = "/tmp/kingme-spw-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *k = test_kingme();
    char cmd[4096], out[4096], path[300];
    snprintf(cmd, sizeof cmd, "%s selfplay " SPW_OPTS " -j 1 --out %s/a 2>/dev/null", k, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    static const char *const files[] = {
        "%s worker\n%s worker\n",
        "head -n 3 | %s worker\n"
        "sh -c 'echo worker kingme 0 protocol 1 egdb none book none; while read l; do echo garbage; done' "
        "2>/dev/null\n"
        "%s worker\n",
    };
    for (int r = 0; r < 2; r++) {
        snprintf(path, sizeof path, "%s/w%d.txt", dir, r);
        FILE *fp = fopen(path, "w");
        if (!fp) continue;
        fprintf(fp, files[r], k, k);
        fclose(fp);
        snprintf(cmd, sizeof cmd, "%s selfplay " SPW_OPTS " --workers %s%s --out %s/%c 2>&1", k, path,
                 r ? " -j 1" : "", dir, 'b' + r);
        CHECK_INT(test_run(cmd, out, sizeof out), 0);
        CHECK_MSG(strstr(out, r ? "3 workers and 1 local thread" : "2 workers (no local thread)"), "%s", out);
        CHECK_MSG(strstr(out, "selfplay: 6 games, ") != NULL, "%s", out);
        if (r) CHECK_MSG(strstr(out, "kingme: worker 2 answered garbage"), "%s", out);
        snprintf(cmd, sizeof cmd, "%s/a", dir);
        snprintf(path, sizeof path, "%s/%c", dir, 'b' + r);
        CHECK(same_chunks(cmd, path, 2));
    }
    /* a lost chunk is played again by the workers, the same */
    snprintf(path, sizeof path, "%s/b/sp-000001.kmsp", dir);
    CHECK(unlink(path) == 0);
    snprintf(cmd, sizeof cmd, "%s selfplay " SPW_OPTS " --workers %s/w0.txt --out %s/b 2>&1", k, dir, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "workers: 3 games from 2 workers"), "%s", out);
    snprintf(cmd, sizeof cmd, "%s/a", dir);
    snprintf(path, sizeof path, "%s/b", dir);
    CHECK(same_chunks(cmd, path, 2));
    /* a worker of an older protocol: one line, no file */
    snprintf(path, sizeof path, "%s/old.txt", dir);
    FILE *fp = fopen(path, "w");
    if (fp) {
        fputs("sh -c 'echo worker kingme 0.0.9 protocol 1 2 3 4 5; cat >/dev/null'\n", fp);
        fclose(fp);
    }
    snprintf(cmd, sizeof cmd, "%s selfplay " SPW_OPTS " --workers %s --out %s/d 2>&1", k, path, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    CHECK_MSG(strstr(out, ") speaks protocol 5, not 1: give it the coordinator's kingme"), "%s", out);
    snprintf(cmd, sizeof cmd, "ls %s/d", dir);
    test_run(cmd, out, sizeof out);
    CHECK_MSG(strstr(out, "kmsp") == NULL, "%s", out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}
