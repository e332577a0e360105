/* test_slurm.c - the batch scripts under a real SLURM: a one-node cluster on
 * this machine (tools/slurm-cluster.sh), a tuning session submitted with
 * tools/slurm-tune.sh and a self-play run with tools/slurm-selfplay.sh, each
 * giving what the same run gives with -j 1. Skipped (one line) where SLURM is
 * not installed. */
#include "kingme/weights.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SLURM_DIR "/tmp/kingme-slurm"
#define TUNE_OPTS "--population 8 --depth 2 --generations 2 --seed 5 --yardstick none"
#define SP_OPTS "--games 8 --chunk 4 --nodes 300 --random-plies 4 --seed 9"

static char out[1 << 16];

/* Submit script with args; the job's id, or 0. */
static long submit(const char *env, const char *script, const char *args, const char *log)
{
    char cmd[16384];
    snprintf(cmd, sizeof cmd,
             "cd /tmp && env SLURM_CONF=" SLURM_DIR "/slurm.conf %s sbatch --parsable -N1 -n2 "
             "--ntasks-per-node=2 --time=5 --output=%s %s %s",
             env, log, script, args);
    int rc = test_run(cmd, out, sizeof out);
    long id = rc == 0 ? atol(out) : 0;
    CHECK_MSG(id > 0, "%s\n%s", cmd, out);
    return id;
}

/* Wait for job id to end (at most limit s): its state line, into state.
 * SLURM tells the end of a job to no process of the test (sbatch has
 * returned), so scontrol is asked every half second until the job has
 * left the running states, limit seconds of the wall clock at most (each
 * scontrol call bounded by a timeout too: a slurmctld that does not answer
 * cannot hold the test). */
static void wait_job(long id, double limit, char *state, size_t len)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd,
             "SLURM_CONF=" SLURM_DIR
             "/slurm.conf timeout 5 scontrol -o show job %ld | grep -o 'JobState=[A-Z_]* "
             "Reason=[^ ]* .*ExitCode=[0-9:]*' | sed 's/Reason.*ExitCode/ExitCode/'",
             id);
    snprintf(state, len, "(no state)");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if ((double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9 > limit) return;
        test_run(cmd, out, sizeof out);
        out[strcspn(out, "\n")] = '\0';
        snprintf(state, len, "%.200s", out);
        if (strstr(out, "JobState=") && !strstr(out, "PENDING") && !strstr(out, "RUNNING") &&
            !strstr(out, "CONFIGURING") && !strstr(out, "COMPLETING"))
            return;
        nanosleep(&(struct timespec){0, 500000000L}, NULL);
    }
}

TEST(slurm_tune_and_selfplay_as_j1)
{
    if (test_run("command -v slurmctld && command -v slurmd && command -v sbatch", out, sizeof out) != 0) {
        test_skip("SLURM is not installed (apt-get install -y slurm-wlm munge)");
        return;
    }
    if (test_sanitized()) {
        test_skip("not under the sanitizers (make test runs it)");
        return;
    }
    if (geteuid() != 0) {
        test_skip("the one-node cluster needs root to start its daemons");
        return;
    }
    char kingme[1200], tools[1200], dir[128], cmd[8192], env[2600], log[256], state[2][256];
    char cwd[1024];
    if (!getcwd(cwd, sizeof cwd)) {
        CHECK_MSG(false, "getcwd failed");
        return;
    }
    const char *k = test_kingme();
    if (k[0] == '/') snprintf(kingme, sizeof kingme, "%s", k);
    else snprintf(kingme, sizeof kingme, "%s/%s", cwd, k);
    snprintf(tools, sizeof tools, "%s/tools", cwd);
    /* the cluster: started here unless it is up (.ci/run starts it), and
     * then stopped at the end */
    bool started = test_run("tools/slurm-cluster.sh status " SLURM_DIR, out, sizeof out) != 0;
    if (started && test_run("timeout 120 tools/slurm-cluster.sh start " SLURM_DIR, out, sizeof out) != 0) {
        CHECK_MSG(false, "%s", out);
        return;
    }
    snprintf(dir, sizeof dir, "/tmp/kingme-slurm-test-%d", (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
    test_run(cmd, out, sizeof out);
    double t0 = (double)time(NULL);
    snprintf(env, sizeof env, "KINGME=%s KINGME_DIR=%s KINGME_EGDB=none", kingme, dir);
    snprintf(log, sizeof log, "%s/tune-%%j.log", dir);
    snprintf(cmd, sizeof cmd, "%s/slurm-tune.sh", tools);
    long tune = submit(env, cmd, TUNE_OPTS, log);
    snprintf(log, sizeof log, "%s/selfplay-%%j.log", dir);
    snprintf(cmd, sizeof cmd, "%s/slurm-selfplay.sh", tools);
    char args[512];
    snprintf(args, sizeof args, SP_OPTS " --out %s/sp-slurm", dir);
    long sp = submit(env, cmd, args, log);
    if (tune) wait_job(tune, 120, state[0], sizeof state[0]);
    if (sp) wait_job(sp, 120, state[1], sizeof state[1]);
    double elapsed = (double)time(NULL) - t0;
    CHECK_MSG(tune && strstr(state[0], "JobState=COMPLETED ExitCode=0:0"), "tune job %ld: %s", tune,
              state[0]);
    CHECK_MSG(sp && strstr(state[1], "JobState=COMPLETED ExitCode=0:0"), "selfplay job %ld: %s", sp,
              state[1]);
    /* the same runs on one local thread */
    snprintf(cmd, sizeof cmd, "%s tune " TUNE_OPTS " -j 1 --dir %s --name local", kingme, dir);
    CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s", out);
    snprintf(cmd, sizeof cmd, "%s selfplay " SP_OPTS " -j 1 --out %s/sp-local", kingme, dir);
    CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s", out);
    Weights w[2];
    char path[300], err[KM_ERR_MAX];
    snprintf(path, sizeof path, "%s/output/slurm-%ld.w", dir, tune);
    CHECK_MSG(weights_read(&w[0], path, NULL, err) == 0, "%s", err);
    snprintf(path, sizeof path, "%s/output/local.w", dir);
    CHECK_MSG(weights_read(&w[1], path, NULL, err) == 0, "%s", err);
    bool same_w = memcmp(&w[0], &w[1], sizeof w[0]) == 0;
    CHECK_MSG(same_w, "tune under SLURM: other weights than -j 1");
    snprintf(cmd, sizeof cmd,
             "cmp %s/sp-slurm/sp-000000.kmsp %s/sp-local/sp-000000.kmsp && cmp "
             "%s/sp-slurm/sp-000001.kmsp %s/sp-local/sp-000001.kmsp",
             dir, dir, dir, dir);
    bool same_sp = test_run(cmd, out, sizeof out) == 0;
    CHECK_MSG(same_sp, "selfplay under SLURM: other chunks than -j 1: %s", out);
    /* what a reader of the log needs: the job ids, the time, the comparison */
    printf("  slurm: tune job %ld and selfplay job %ld done in %.0f s; weights %s, chunks %s as -j 1\n", tune,
           sp, elapsed, same_w ? "the same" : "NOT the same", same_sp ? "the same" : "NOT the same");
    if (started) test_run("tools/slurm-cluster.sh stop " SLURM_DIR, out, sizeof out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}
