/* test_workers.c - games played by `kingme worker` processes: the line
 * protocol, and a coordinator whose results do not depend on which worker
 * (or local thread) played what, even when workers die or answer garbage. */
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
 * the built-in default at depth 3 (random tie-breaks, seeded per game). */
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
    /* 60-weight vectors: protocol 1 workers must be able to play them */
    if (weights_read(&f->a, "weights/default-60.w", NULL, err) ||
        weights_read(&f->b, "weights/material.w", NULL, err) || openings_crossboard(&f->op, &f->nop, err)) {
        CHECK_MSG(false, "%s", err);
        return false;
    }
    match_settings_default(&f->set);
    f->set.limits.depth = 3;
    for (int i = 0; i < 16; i++) {
        bool swap = i & 1;
        f->specs[i] = (MatchGameSpec){swap ? &f->b : &f->a,
                                      swap ? &f->a : &f->b,
                                      &f->op[(i / 2) * 17 % f->nop],
                                      match_game_seed(99, (uint64_t)i),
                                      {0, 0}};
    }
    return true;
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
    WorkerState *ws = worker_state_new();
    char err[KM_ERR_MAX];
    /* a job before its vectors is refused */
    char *job = wproto_job_line(5, &f.set, &f.specs[5], true);
    char *ans = worker_handle_line(ws, job);
    CHECK_MSG(ans && strncmp(ans, "error 5 unknown vector ", 23) == 0, "%s", ans ? ans : "");
    free(ans);
    for (int k = 0; k < 2; k++) {
        const Weights *w = k ? &f.a : &f.b;
        char line[1024];
        int at = snprintf(line, sizeof line, "weights %016llx", (unsigned long long)wproto_weights_id(w));
        for (int i = 0; i < EVAL_NPARAMS; i++)
            at += snprintf(line + at, sizeof line - (size_t)at, " %d", w->w[i]);
        ans = worker_handle_line(ws, line);
        CHECK_MSG(ans == NULL, "%s", ans);
        free(ans);
        /* a vector whose ID does not match its values */
        line[8] = line[8] == '0' ? '1' : '0';
        ans = worker_handle_line(ws, line);
        CHECK_MSG(ans && strstr(ans, "does not match"), "%s", ans ? ans : "");
        free(ans);
    }
    /* the worker's game is the coordinator's own */
    ans = worker_handle_line(ws, job);
    MatchOutcome mo;
    CHECK(match_play_game(&f.set, &f.specs[5], &mo, NULL, err) == 0);
    Game g = mo.game;
    char want[128];
    snprintf(want, sizeof want, "result 5 %s %d %d %016llx moves ", game_result_text(g.result), (int)g.reason,
             g.nply, (unsigned long long)wproto_moves_checksum(&g));
    CHECK_MSG(ans && strncmp(ans, want, strlen(want)) == 0, "%s\nwant %s", ans ? ans : "", want);
    game_free(&g);
    free(ans);
    free(job);
    /* bad lines: one error line each */
    static const char sideways[] =
        "job 1 0123456789abcdef 0123456789abcdef depth 3 time 0 nodes 0 cap 0 hash 1 "
        "share 0 tiebreak sideways flags 15 seed 1 keep 0 fen B:W21:B1";
    static const char *const bad[] = {"job", "job x 0 0", "bogus 1 2", "weights 12 1 2", sideways};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ans = worker_handle_line(ws, bad[i]);
        CHECK_MSG(ans && strncmp(ans, "error ", 6) == 0, "'%s' -> '%s'", bad[i], ans ? ans : "(none)");
        free(ans);
    }
    worker_state_free(ws);
    free(f.op);
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
        int rc = workers_run(ws, &f.set, f.specs, 16, threads, true, remote, NULL, NULL, NULL, err);
        CHECK_MSG(rc == 0, "%s", err);
        if (rc == 0) CHECK(same_games(local, remote, 16));
        /* a second run on the same (kept) workers */
        match_outcomes_free(remote, 16);
        rc = workers_run(ws, &f.set, f.specs, 16, threads, false, remote, NULL, NULL, NULL, err);
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
             "sh -c 'echo worker kingme 0 protocol 1; while read l; do echo garbage; done' 2>/dev/null\n"
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
        CHECK(workers_run(ws, &f.set, f.specs, 2, 0, false, out, NULL, NULL, NULL, err) == -1);
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
    fprintf(f,
            "head -n 3 | %s worker\nsh -c 'echo worker kingme 0 protocol 1; while read l; do echo garbage; "
            "done' 2>/dev/null\n%s worker\n",
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

/* Protocol 2: vectors with the terms 61-74 travel (74 weights on the line,
 * an ID of their own) and give the games of one thread; a worker that speaks
 * protocol 1 only stops such a run with one message and plays none of its
 * games; so does one of protocol 2 when a vector has a phase (protocol 3). */
TEST(workers_74_weights)
{
    Fixture f;
    if (!fixture(&f)) return;
    char err[KM_ERR_MAX], path[256];
    CHECK_INT(weights_read(&f.b, "weights/archive/terms-flat.w", NULL, err), 0); /* against the default */
    Weights w60 = f.b;
    for (int i = EVAL_NPARAMS; i < EVAL_NTERMS; i++) w60.w[i] = 0;
    CHECK(wproto_weights_id(&w60) != wproto_weights_id(&f.b));
    /* the worker side: 74 values, the ID over them; 61 values refused */
    WorkerState *st = worker_state_new();
    char line[2048];
    int at = snprintf(line, sizeof line, "weights %016llx", (unsigned long long)wproto_weights_id(&f.b));
    for (int i = 0; i < EVAL_NTERMS; i++)
        at += snprintf(line + at, sizeof line - (size_t)at, " %d", f.b.w[i]);
    char *ans = worker_handle_line(st, line);
    CHECK_MSG(ans == NULL, "%s", ans);
    free(ans);
    ans = worker_handle_line(
        st, "weights 0123456789abcdef 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 "
            "22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 "
            "49 50 51 52 53 54 55 56 57 58 59 60 61");
    CHECK_MSG(ans && strcmp(ans, "error - a weights line is 'weights ID' and 60, 74 or 148 values") == 0,
              "%s", ans ? ans : "");
    free(ans);
    worker_state_free(st);

    MatchOutcome local[16], remote[16];
    CHECK(match_run(&f.set, f.specs, 16, 1, true, local, NULL, NULL, NULL, err) == 0);
    const char *k = test_kingme();
    snprintf(path, sizeof path, "/tmp/kingme-workers74-%d.txt", (int)getpid());
    for (int run = 0; run < 3; run++) {
        FILE *fp = fopen(path, "w");
        if (!fp) break;
        if (run == 0) fprintf(fp, "%s worker\n%s worker\n", k, k);
        else if (run == 1)
            fprintf(fp,
                    "%s worker 2>/dev/null\nsh -c 'echo worker kingme 0.0.9 protocol 1; cat >/dev/null'\n",
                    k);
        else
            fprintf(fp,
                    "%s worker 2>/dev/null\nsh -c 'echo worker kingme 0.1.0 protocol 1 2; cat >/dev/null'\n",
                    k);
        fclose(fp);
        WorkerSet *ws = workers_from_file(path, err);
        CHECK_MSG(ws != NULL, "%s", err);
        if (!ws) break;
        f.b.phased = run == 2;
        int rc = workers_run(ws, &f.set, f.specs, 16, 0, true, remote, NULL, NULL, NULL, err);
        if (run == 0) {
            CHECK_MSG(rc == 0, "%s", err);
            if (rc == 0) CHECK(same_games(local, remote, 16));
        } else if (run == 1) {
            CHECK_INT(rc, -1);
            CHECK_MSG(strstr(err,
                             "worker 2 (sh -c 'echo worker kingme 0.0.9 protocol 1; cat >/dev/null') speaks "
                             "protocol 1 (60 weights); this run's vectors have terms 61-74") == err,
                      "%s", err);
        } else {
            CHECK_INT(rc, -1);
            static const char head[] = "worker 2 (sh -c 'echo worker kingme 0.1.0 protocol 1 2;";
            CHECK_MSG(strncmp(err, head, strlen(head)) == 0 &&
                          strstr(err, ") speaks protocol 2 (no phase); this run's vectors have a phase (end. "
                                      "weights): give it a kingme that speaks protocol 3"),
                      "%s", err);
        }
        match_outcomes_free(remote, 16);
        workers_free(ws);
    }
    match_outcomes_free(local, 16);
    remove(path);
    free(f.op);
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

/* Protocol 3: a vector with a phase travels as 148 weights (the opening's
 * 74, then the ending's) with an ID of its own, the worker says it speaks 3,
 * the games are those of one local thread, and a tuning session that breeds
 * the phase gives the same weights with -j 1 and with workers. */
TEST(workers_phase)
{
    Fixture f;
    if (!fixture(&f)) return;
    char err[KM_ERR_MAX], path[256], cmd[2048];
    static char out[1 << 16];
    CHECK_INT(weights_read(&f.b, "weights/terms.w", NULL, err), 0); /* a phase, against default-60.w */
    CHECK(f.b.phased);
    Weights flat = f.b, other = f.b;
    flat.phased = 0;
    other.end[EP_opp_trade_lead]++;
    CHECK(wproto_weights_id(&flat) != wproto_weights_id(&f.b));
    CHECK(wproto_weights_id(&other) != wproto_weights_id(&f.b));
    /* the hello */
    const char *k = test_kingme();
    snprintf(cmd, sizeof cmd, "%s worker </dev/null", k);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strncmp(out, "worker kingme ", 14) == 0 && strstr(out, " protocol 1 2 3 4 5\n"), "%s", out);
    /* the worker side: 148 values, a job with them plays the local game */
    WorkerState *st = worker_state_new();
    char line[4096];
    int at = snprintf(line, sizeof line, "weights %016llx", (unsigned long long)wproto_weights_id(&f.b));
    for (int i = 0; i < 2 * EVAL_NTERMS; i++)
        at += snprintf(line + at, sizeof line - (size_t)at, " %d", weights_at(&f.b, i));
    char *ans = worker_handle_line(st, line);
    CHECK_MSG(ans == NULL, "%s", ans);
    free(ans);
    *strrchr(line, ' ') = '\0'; /* 147 values */
    ans = worker_handle_line(st, line);
    CHECK_MSG(ans && strcmp(ans, "error - a weights line is 'weights ID' and 60, 74 or 148 values") == 0,
              "%s", ans ? ans : "");
    free(ans);
    at = snprintf(line, sizeof line, "weights %016llx", (unsigned long long)wproto_weights_id(&f.a));
    for (int i = 0; i < EVAL_NPARAMS; i++)
        at += snprintf(line + at, sizeof line - (size_t)at, " %d", f.a.w[i]);
    ans = worker_handle_line(st, line);
    CHECK_MSG(ans == NULL, "%s", ans);
    free(ans);
    MatchOutcome local[16], remote[16];
    CHECK(match_run(&f.set, f.specs, 16, 1, true, local, NULL, NULL, NULL, err) == 0);
    char *job = wproto_job_line(3, &f.set, &f.specs[3], true);
    ans = job ? worker_handle_line(st, job) : NULL;
    char want[64];
    snprintf(want, sizeof want, "result 3 %s %d %d %016llx ", game_result_text(local[3].result),
             (int)local[3].reason, local[3].nply, (unsigned long long)wproto_moves_checksum(&local[3].game));
    CHECK_MSG(ans && strncmp(ans, want, strlen(want)) == 0, "%s, expected %s", ans ? ans : "", want);
    free(ans);
    free(job);
    worker_state_free(st);
    /* two worker processes: the same 16 games */
    snprintf(path, sizeof path, "/tmp/kingme-workers-phase-%d.txt", (int)getpid());
    FILE *fp = fopen(path, "w");
    if (fp) {
        fprintf(fp, "%s worker\n%s worker\n", k, k);
        fclose(fp);
        WorkerSet *ws = workers_from_file(path, err);
        CHECK_MSG(ws != NULL, "%s", err);
        if (ws) {
            int rc = workers_run(ws, &f.set, f.specs, 16, 0, true, remote, NULL, NULL, NULL, err);
            CHECK_MSG(rc == 0, "%s", err);
            if (rc == 0) CHECK(same_games(local, remote, 16));
            match_outcomes_free(remote, 16);
            workers_free(ws);
        }
    }
    match_outcomes_free(local, 16);
    free(f.op);

    /* a session breeding the phase: -j 1 and workers give the same weights */
    char dir[256];
    snprintf(dir, sizeof dir, "/tmp/kingme-tunewph-%d", (int)getpid());
    Weights w[2];
    tune_local_and_workers("--include weights/terms.w --population 8 --depth 2 --generations 2 --seed 148 "
                           "--gladiator 16",
                           path, dir, "vectors of 148 weights", w);
    CHECK(w[0].phased);
    remove(path);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}

/* ---- self-play games (protocol 5) ---- */

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
    c.weights.pat = NULL; /* workers are sent the named weights alone */
    c.nodes = 300;
    c.random_plies = 4;
    c.seed = 5;
    c.hash_mb = 1;
    WorkerState *st = worker_state_new();
    uint64_t id = wproto_weights_id(&c.weights);
    WprotoSelfplay j = {2, 4, id, c.seed, c.nodes, c.random_plies, c.margin, c.max_plies, c.hash_mb};
    char *line = wproto_selfplay_line(&j);
    char *ans = line ? worker_handle_line(st, line) : NULL;
    CHECK_MSG(ans && strncmp(ans, "error 2 unknown vector ", 23) == 0, "%s", ans ? ans : "");
    free(ans);
    char wl[2048];
    int at = snprintf(wl, sizeof wl, "weights %016llx", (unsigned long long)id);
    for (int i = 0, n = wproto_vector_length(&c.weights); i < n; i++)
        at += snprintf(wl + at, sizeof wl - (size_t)at, " %d", weights_at(&c.weights, i));
    ans = worker_handle_line(st, wl);
    CHECK_MSG(ans == NULL, "%s", ans);
    free(ans);
    ans = line ? worker_handle_line(st, line) : NULL;
    free(line);
    CHECK_MSG(ans && strncmp(ans, "played 2 ", 9) == 0, "%s", ans ? ans : "");
    SelfplayData local = {0}, remote = {0};
    CHECK_MSG(selfplay_game(&c, 4, &local, err) == 0, "%s", err);
    char **tok = malloc((WPROTO_LINE_MAX / 2 + 2) * sizeof *tok);
    char *copy = ans ? strdup(ans) : NULL;
    if (ans && tok && copy) {
        int nt = km_split(copy, tok, WPROTO_LINE_MAX / 2);
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
    static const char unknown[] = "selfplay 1 2 0123456789abcdef seed 5 nodes 300 random 4 margin 100 plies "
                                  "250 hash 1";
    static const char *const bad[] = {"selfplay", "selfplay 1 2 3", unknown};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ans = worker_handle_line(st, bad[i]);
        CHECK_MSG(ans && strncmp(ans, "error ", 6) == 0, "'%s' -> '%s'", bad[i], ans ? ans : "(none)");
        free(ans);
    }
    worker_state_free(st);
}

/* kingme selfplay --workers: the chunk files are byte for byte those of -j 1,
 * with two workers alone, with one that exits after each first game and one
 * that answers garbage beside a local thread, and after a lost chunk played
 * again; an older worker and a pattern layer are refused with one line. */
#define SPW_OPTS \
    "--games 6 --chunk 3 --nodes 300 --random-plies 4 --seed 5 --no-egdb --weights weights/named.w"
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
        "sh -c 'echo worker kingme 0 protocol 1 2 3 4 5; while read l; do echo garbage; done' 2>/dev/null\n"
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
    /* a worker of protocol 4 */
    snprintf(path, sizeof path, "%s/old.txt", dir);
    FILE *fp = fopen(path, "w");
    if (fp) {
        fputs("sh -c 'echo worker kingme 0.2.0 protocol 1 2 3 4; cat >/dev/null'\n", fp);
        fclose(fp);
    }
    snprintf(cmd, sizeof cmd, "%s selfplay " SPW_OPTS " --workers %s --out %s/d 2>&1", k, path, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    CHECK_MSG(
        strstr(out, "speaks protocol 4 (no self-play games): give it a kingme that speaks protocol 5\n"),
        "%s", out);
    /* a pattern layer, which the protocol does not carry */
    snprintf(path, sizeof path, "%s/pat.w", dir);
    fp = fopen(path, "w");
    if (fp) {
        fputs("own_men 1000\ntable man\n0: 1\n", fp);
        fclose(fp);
    }
    snprintf(cmd, sizeof cmd, "%s selfplay " SPW_OPTS " -w %s --workers %s/w0.txt --out %s/e 2>&1", k, path,
             dir, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 2);
    CHECK_MSG(strstr(out, "pat.w has a pattern layer, which workers cannot be sent; play on local threads"),
              "%s", out);
    snprintf(cmd, sizeof cmd, "test -e %s/e", dir);
    CHECK(test_run(cmd, out, sizeof out) != 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}
