/* egdb.c - kingme egdb build | probe | info | verify | bench: the endgame
 * databases (include/kingme/egdb.h). */
#include "kingme/egdb.h"
#include "cli.h"
#include "kingme/bits.h"
#include "kingme/datapath.h"
#include "kingme/egdb_build.h"
#include "kingme/notation.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* KINGME_EGDB when it is set and not empty (NULL otherwise), and whether it
 * names a directory (false for "none": no database). */
static const char *egdb_env(bool *names_dir)
{
    const char *env = getenv(EGDB_ENV);
    if (!env || !*env) env = NULL;
    *names_dir = env && strcmp(env, "none") != 0;
    return env;
}

const char *cli_egdb_dir(const char *given)
{
    bool dir;
    const char *env = egdb_env(&dir);
    return given ? given : dir ? env : EGDB_DEFAULT_DIR;
}

/* --egdb-pieces N: the database limited to N pieces; one of fewer, or
 * none, is an error line (false). */
static bool egdb_limit(const Opts *o, Egdb **db, const char *dir)
{
    if (!opt_given(o, OPT_EGDB_PIECES) || opt_given(o, OPT_NO_EGDB)) return true;
    int n = (int)opt_int(o, OPT_EGDB_PIECES);
    if (!*db) return cli_error_false("--egdb-pieces %d: no endgame database (--egdb DIR)", n);
    if (egdb_pieces(*db) < n) {
        cli_error("--egdb-pieces %d: the endgame database in %s has %d pieces", n, dir, egdb_pieces(*db));
        egdb_close(*db);
        *db = NULL;
        return false;
    }
    egdb_limit_pieces(*db, n);
    return true;
}

/* egdb_open, or with background egdb_open_background (the engine) */
static Egdb *open_dir(const char *dir, bool background, char *err)
{
    return background ? egdb_open_background(dir, 0, err) : egdb_open(dir, 0, err);
}

/* --egdb DIR, else $KINGME_EGDB (cli_egdb). */
static bool egdb_asked(const Opts *o, Egdb **db, bool background)
{
    *db = NULL;
    bool env_dir;
    const char *env = egdb_env(&env_dir);
    const char *dir = opt_given(o, OPT_EGDB) ? cli_egdb_dir(opt_str(o, OPT_EGDB)) : env_dir ? env : NULL;
    if (!dir) return egdb_limit(o, db, "");
    char err[KM_ERR_MAX];
    *db = open_dir(dir, background, err);
    if (!*db) cli_error("%s", err);
    return *db != NULL && egdb_limit(o, db, dir);
}

bool cli_egdb(const Opts *o, Egdb **db) { return egdb_asked(o, db, false); }

/* The folder egdb in the data folders (datapath.h): beside the program in a
 * checkout (where make builds it), PREFIX/share/kingme once installed, the
 * user's data folder for a database the user builds. */
static bool egdb_beside_program(char *buf, size_t len)
{
    return datapath_find(EGDB_DEFAULT_DIR, true, buf, len);
}

/* cli_egdb_auto, the files read in the background or not */
static bool egdb_auto(const Opts *o, Egdb **db, bool background)
{
    *db = NULL;
    if (opt_given(o, OPT_NO_EGDB)) return true;
    bool env_dir;
    if (opt_given(o, OPT_EGDB) || egdb_env(&env_dir))
        return egdb_asked(o, db, background); /* KINGME_EGDB=none: none */
    char dir[4200];
    struct stat st;
    if (!egdb_beside_program(dir, sizeof dir) || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return egdb_limit(o, db, "");
    char err[KM_ERR_MAX];
    *db = open_dir(dir, background, err);
    if (!*db) cli_error("%s; going on without the endgame database", err);
    return egdb_limit(o, db, dir);
}

bool cli_egdb_auto(const Opts *o, Egdb **db) { return egdb_auto(o, db, false); }

bool cli_egdb_auto_background(const Opts *o, Egdb **db) { return egdb_auto(o, db, true); }

static const char *value_name(int v)
{
    return v == EGDB_WIN ? "win" : v == EGDB_LOSS ? "loss" : v == EGDB_DRAW ? "draw" : "unknown";
}

static void hms(double s, char *buf, size_t len)
{
    long t = (long)(s + 0.5);
    if (t >= 3600) snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

/* ---- build ---- */

typedef struct BuildShow {
    bool tty;
    int width;     /* the terminal's columns, less one: the line never wraps */
    int last_step; /* not a terminal: the last tenth of the slices said */
} BuildShow;

static void show_progress(const EgdbProgress *p, void *user)
{
    BuildShow *s = user;
    char name[16], el[32], left[32], line[200];
    egdb_slice_name(p->slice, name, sizeof name);
    *strrchr(name, '.') = '\0';
    hms(p->elapsed, el, sizeof el);
    if (p->eta >= 0) hms(p->eta, left, sizeof left);
    else snprintf(left, sizeof left, "?");
    /* at most 70 columns: "209/209 slices, b2k1w2k1 distances 120, 1:29:54 elapsed, 12:02:03 left" */
    char step[32];
    if (p->pass > 0) snprintf(step, sizeof step, "%s %d", p->phase, p->pass);
    else snprintf(step, sizeof step, "%s", p->phase);
    snprintf(line, sizeof line, "%d/%d slices, %s %s, %s elapsed, %s left", p->done, p->total, name, step, el,
             left);
    if (s->tty) { /* one line rewritten in place, as wide as the terminal allows */
        fprintf(stderr, "\r%-*.*s", s->width, s->width, line);
        fflush(stderr);
    } else if (p->total > 0 && p->done * 10 / p->total != s->last_step) { /* a log: each tenth */
        s->last_step = p->done * 10 / p->total;
        fprintf(stderr, "%d/%d slices, %s elapsed, %s left\n", p->done, p->total, el, left);
    }
}

static int cmd_build(const Opts *o)
{
    long long pieces = opt_int(o, OPT_PIECES), threads = cli_concurrency(o);
    if (!pieces) return cli_usage_error("egdb", "build needs --pieces N");
    const char *dir = cli_egdb_dir(opt_str(o, OPT_DIR));
    BuildShow show = {isatty(2) != 0, cli_term_width(2) - 1, -1};
    char err[KM_ERR_MAX];
    double t0 = km_now();
    int rc = egdb_build(dir, (int)pieces, (int)threads, show_progress, &show, err);
    if (show.tty) fprintf(stderr, "\r%*s\r", show.width, "");
    if (rc) return cli_error("%s", err);
    char el[32];
    hms(km_now() - t0, el, sizeof el);
    printf("built the %lld-piece endgame database in %s (%s)\n", pieces, dir, el);
    return 0;
}

/* ---- info ---- */

static int cmd_info(const Opts *o)
{
    const char *dir = cli_egdb_dir(opt_str(o, OPT_DIR));
    int status = 0, files = 0;
    for (int n = 1; n <= EGDB_MAX_PIECES; n++)
        for (int i = 0; i < egdb_slice_count(n); i++) {
            char name[16], path[4096];
            egdb_slice_name(egdb_slice_at(n, i), name, sizeof name);
            snprintf(path, sizeof path, "%s/%s", dir, name);
            struct stat sb;
            files += stat(path, &sb) == 0;
        }
    if (!files) return cli_error("%s: no endgame database files (b*k*w*k*.kdb)", dir);
    printf("%-10s %14s %14s %14s %14s %6s %6s %11s\n", "slice", "positions", "wins", "losses", "draws",
           "dtc-w", "dtc-l", "bytes");
    for (int n = 1; n <= EGDB_MAX_PIECES; n++) {
        uint64_t pos = 0, w = 0, l = 0, d = 0, bytes = 0;
        int present = 0, maxw = 0, maxl = 0;
        for (int i = 0; i < egdb_slice_count(n); i++) {
            EgdbSlice s = egdb_slice_at(n, i);
            char name[16], path[4096];
            egdb_slice_name(s, name, sizeof name);
            snprintf(path, sizeof path, "%s/%s", dir, name);
            struct stat sb;
            if (stat(path, &sb) != 0) continue;
            EgdbSliceInfo in;
            char err[KM_ERR_MAX];
            if (egdb_file_info(path, &in, err)) {
                cli_error("%s", err);
                status = 1;
                continue;
            }
            present++;
            *strrchr(name, '.') = '\0';
            printf("%-10s %14llu %14llu %14llu %14llu %6d %6d %11llu\n", name,
                   (unsigned long long)in.positions, (unsigned long long)in.wins,
                   (unsigned long long)in.losses, (unsigned long long)in.draws, in.max_win_dtc,
                   in.max_loss_dtc, (unsigned long long)in.file_bytes);
            pos += in.positions;
            w += in.wins;
            l += in.losses;
            d += in.draws;
            bytes += in.file_bytes;
            if (in.max_win_dtc > maxw) maxw = in.max_win_dtc;
            if (in.max_loss_dtc > maxl) maxl = in.max_loss_dtc;
        }
        if (!present) continue;
        char label[32];
        snprintf(label, sizeof label, "%d pieces", n);
        printf("%-10s %14llu %14llu %14llu %14llu %6d %6d %11llu", label, (unsigned long long)pos,
               (unsigned long long)w, (unsigned long long)l, (unsigned long long)d, maxw, maxl,
               (unsigned long long)bytes);
        if (present < egdb_slice_count(n)) printf("  (%d of %d slices)", present, egdb_slice_count(n));
        printf("\n");
    }
    if (!status) printf("checksums verified\n");
    return status;
}

/* ---- probe ---- */

static Egdb *open_db(const char *dir)
{
    char err[KM_ERR_MAX];
    Egdb *db = egdb_open(cli_egdb_dir(dir), 0, err);
    if (!db) cli_error("%s", err);
    return db;
}

static int cmd_probe(const Opts *o)
{
    Board b;
    if (!cli_board(opt_str(o, OPT_FEN), &b)) return 1;
    Egdb *db = open_db(opt_str(o, OPT_DIR));
    if (!db) return 1;
    int pieces = bits_popcount32(board_occupied(&b));
    if (pieces > egdb_pieces(db)) {
        egdb_close(db);
        return cli_error("the position has %d pieces, the database at most %d", pieces, egdb_pieces(db));
    }
    Move m;
    int dist;
    int v = egdb_best_move(db, &b, &m, &dist);
    /* the answer is given only when it agrees with the position's moves: a
     * damaged block is named, any other disagreement said */
    bool consistent = v != EGDB_UNKNOWN && egdb_consistent(db, &b);
    char err[KM_ERR_MAX];
    if (egdb_damage(db, err) || !consistent) {
        if (consistent || !egdb_damage(db, err))
            snprintf(err, sizeof err,
                     "the database's value of this position disagrees with its moves' (a damaged "
                     "slice file? kingme egdb verify checks the values)");
        egdb_close(db);
        return cli_error("%s", err);
    }
    const char *side = b.stm == KM_BLACK ? "Black" : "White";
    if (v == EGDB_DRAW) printf("draw (%s to move)", side);
    else
        printf("%s for %s (to move), %d %s to conversion", value_name(v), side, dist,
               dist == 1 ? "ply" : "plies");
    MoveList ml;
    if (mg_moves(&b, &ml) > 0) {
        char t[MOVE_TEXT_MAX];
        notation_move_to_text(&m, t);
        printf(", best move %s\n", t);
    } else printf(", no legal move\n");
    egdb_close(db);
    return 0;
}

/* ---- verify: play won positions out ---- */

static int cmd_verify(const Opts *o)
{
    long long games = opt_int(o, OPT_GAMES), pieces = opt_int(o, OPT_PIECES), seed = opt_int(o, OPT_SEED);
    Egdb *db = open_db(opt_str(o, OPT_DIR));
    if (!db) return 1;
    if (!pieces) pieces = egdb_pieces(db);
    if (pieces > egdb_pieces(db)) {
        egdb_close(db);
        return cli_error("the database has at most %d pieces", egdb_pieces(db));
    }
    uint64_t rng = (uint64_t)seed;
    /* every value against its successors' on random positions */
    long checks = opt_int(o, OPT_CHECK), inconsistent = 0;
    uint64_t crng = (uint64_t)seed ^ 0x636865636Bull; /* its own stream: the games do not depend on it */
    for (int n = 1; n <= pieces && checks; n++) {
        long bad = 0;
        for (long k = 0; k < checks; k++) {
            Board b;
            egdb_random_position(n, &crng, &b);
            if (!egdb_consistent(db, &b)) {
                if (bad++ < 3) {
                    char fen[128];
                    board_to_fen(&b, fen, sizeof fen);
                    fprintf(stderr, "kingme: %s: the value or distance disagrees with the moves'\n", fen);
                }
            }
        }
        printf("%ld random %d-piece positions: %ld inconsistent\n", checks, n, bad);
        inconsistent += bad;
    }
    /* the independent check: sets of positions solved again */
    long sets = opt_int(o, OPT_INDEPENDENT);
    uint64_t irng = (uint64_t)seed ^ 0x696E646570ull, solved = 0, differ = 0, iw = 0, il = 0, id = 0;
    int ilongest = 0;
    for (long k = 0; k < sets;) {
        Board b;
        egdb_random_position((int)pieces, &irng, &b);
        if (!board_kings(&b, KM_BLACK) || !board_kings(&b, KM_WHITE) || mg_can_capture(&b, b.stm)) continue;
        EgdbCheck ck;
        char err[KM_ERR_MAX];
        if (egdb_check_component(db, &b, 4000000, &ck, err)) continue; /* too large a set: another */
        k++;
        solved += ck.positions;
        differ += ck.mismatches;
        iw += ck.wins, il += ck.losses, id += ck.draws;
        if (ck.longest > ilongest) ilongest = ck.longest;
        if (ck.mismatches) {
            char fen[128];
            board_to_fen(&ck.bad, fen, sizeof fen);
            fprintf(stderr, "kingme: %s: the database says %s in %d, solved again %s in %d\n", fen,
                    value_name(ck.bad_value), ck.bad_dist, value_name(ck.want_value), ck.want_dist);
        }
    }
    if (sets) {
        printf("%ld sets of %lld-piece positions reached by king moves, solved again by forward iteration:\n",
               sets, pieces);
        printf("  %llu positions (%llu won, %llu lost, %llu drawn, longest DTC %d): %llu differ\n",
               (unsigned long long)solved, (unsigned long long)iw, (unsigned long long)il,
               (unsigned long long)id, ilongest, (unsigned long long)differ);
    }
    long won = 0, within = 0, total_plies = 0, longest_game = 0, longest_gap = 0;
    for (long g = 0; g < games; g++) {
        Board b;
        int d;
        do egdb_random_position((int)pieces, &rng, &b); /* a game: a piece on each side */
        while (!b.pieces[KM_BLACK] || !b.pieces[KM_WHITE] || egdb_probe(db, &b, &d) != EGDB_WIN);
        int winner = b.stm, reversible = 0, maxreversible = 0, ply = 0;
        bool ok = true;
        for (;;) {
            Move m;
            int v = egdb_best_move(db, &b, &m, &d);
            MoveList ml;
            if (mg_moves(&b, &ml) == 0) break; /* the side to move has lost */
            if (v != (b.stm == winner ? EGDB_WIN : EGDB_LOSS)) {
                ok = false;
                break;
            }
            bool conv = m.captured || !(b.kings & (1u << m.from));
            mg_make_move(&b, &m);
            ply++;
            reversible = conv ? 0 : reversible + 1;
            if (reversible > maxreversible) maxreversible = reversible;
            if (ply > 2000) {
                ok = false;
                break;
            }
        }
        if (ok && b.stm != winner) {
            won++;
            if (maxreversible < 80) within++;
        } else {
            char fen[128];
            board_to_fen(&b, fen, sizeof fen);
            fprintf(stderr, "kingme: game %ld not won as the database says (at %s)\n", g + 1, fen);
        }
        total_plies += ply;
        if (ply > longest_game) longest_game = ply;
        if (maxreversible > longest_gap) longest_gap = maxreversible;
    }
    printf("%lld won %lld-piece positions played out by the database on both sides:\n", games, pieces);
    printf("  won %ld, within the forty-move rule %ld\n", won, within);
    printf("  plies to the end: average %.1f, longest %ld; longest run without a man move or capture %ld\n",
           (double)total_plies / (double)games, longest_game, longest_gap);
    egdb_close(db);
    return within == games && inconsistent == 0 && differ == 0 ? 0 : 1;
}

/* ---- bench: probe speed ---- */

static int cmd_bench(const Opts *o)
{
    long long probes = opt_int(o, OPT_PROBES);
    Egdb *db = open_db(opt_str(o, OPT_DIR));
    if (!db) return 1;
    int n = egdb_pieces(db);
    /* positions without a capture pending, so each probe is one lookup */
    enum { NPOS = 1 << 16 };
    Board *pos = malloc(NPOS * sizeof *pos);
    if (!pos) {
        egdb_close(db);
        return cli_error("out of memory");
    }
    uint64_t rng = 12345;
    for (int i = 0; i < NPOS; i++) {
        do egdb_random_position(n, &rng, &pos[i]);
        while (mg_can_capture(&pos[i], pos[i].stm));
    }
    long sink = 0;
    /* uncached: random positions over the whole database, each block decoded
     * (the cache is warmed on other positions first, so its pages exist) */
    int nu = probes < NPOS ? (int)probes : NPOS;
    for (int i = nu; i < NPOS; i++) sink += egdb_probe(db, &pos[i], NULL);
    double t0 = km_cpu_now();
    for (int i = 0; i < nu / 2; i++) sink += egdb_probe(db, &pos[i], NULL);
    double tu = km_cpu_now() - t0;
    nu /= 2;
    /* cached: the same 256 positions again and again */
    t0 = km_cpu_now();
    for (long long i = 0; i < probes; i++) sink += egdb_probe(db, &pos[i & 255], NULL);
    double tc = km_cpu_now() - t0;
    printf("%d-piece database: uncached %.0f ns per probe (%d random positions), "
           "cached %.0f ns per probe (%lld probes), CPU time%s\n",
           n, tu * 1e9 / nu, nu, tc * 1e9 / (double)probes, probes, sink == -1 ? "" : "");
    free(pos);
    egdb_close(db);
    return 0;
}

static int run(const Opts *o)
{
    const char *sub = o->args[0];
    if (strcmp(sub, "build") == 0) return cmd_build(o);
    if (strcmp(sub, "info") == 0) return cmd_info(o);
    if (strcmp(sub, "probe") == 0) return cmd_probe(o);
    if (strcmp(sub, "verify") == 0) return cmd_verify(o);
    if (strcmp(sub, "bench") == 0) return cmd_bench(o);
    return cli_usage_error("egdb", "unknown subcommand '%s' (build, probe, info, verify or bench)", sub);
}

static const Opt options[] = {
    {OPT_DIR, "--egdb", NULL, OPT_STR, "DIR", 0, 0, DESCRIBED("$KINGME_EGDB, else egdb/"),
     "the database directory"},
    {OPT_PIECES, NULL, NULL, OPT_INT, "N", 1, EGDB_MAX_PIECES,
     DESCRIBED("build: none; verify: the database's"),
     "build: every position of at most N pieces; verify: positions of N pieces"},
    CLI_CONCURRENCY_OPT("build: slices built at once"),
    {OPT_FEN, NULL, NULL, OPT_STR, "FEN", 0, 0, DESCRIBED("the initial position"), "probe: the position"},
    {OPT_GAMES, NULL, NULL, OPT_INT, "N", 1, 1000000, "200", "verify: won positions played out"},
    CLI_SEED_OPT("verify: the seed that draws them"),
    {OPT_CHECK, NULL, NULL, OPT_INT, "N", 0, 1e9, "100000",
     "verify: first checks the value and distance of N random positions of each piece count "
     "against their moves'"},
    {OPT_INDEPENDENT, NULL, NULL, OPT_INT, "N", 0, 1e6, "10",
     "verify: then takes N random positions with a king on each side, and solves again every "
     "position their king moves reach (at most 4 million), by forward iteration"},
    {OPT_PROBES, NULL, NULL, OPT_INT, "N", 1000, 1e9, "1000000", "bench: cached probes timed"},
    OPTS_END,
};

const CliCommand cmd_egdb = {
    "egdb",
    run,
    "endgame databases: build, probe, info, verify, bench",
    &(const OptSpec){
        "build|probe|info|verify|bench",
        1,
        1,
        "build: every position of at most --pieces pieces, by retrograde analysis, into DIR; an "
        "interrupted build resumes at the slice it was in. "
        "probe: win, loss or draw for the side to move, the plies to the next capture or man move "
        "(the distance to conversion, DTC) and the best move. "
        "info: every slice's positions, wins, losses and draws (Black to move), the longest DTC of a "
        "win and of a loss, the file size; verifies the checksums. "
        "verify: checks --check random positions of each piece count against their moves, solves "
        "again the positions king moves reach from --independent random ones, then plays --games won "
        "positions out with the database on both sides and checks each is won within the forty-move "
        "rule. "
        "bench: nanoseconds per probe, uncached and cached.",
        options,
        "example: kingme egdb build --pieces 5 -j 2  (about 1.5 minutes, 11 MB in egdb/; --pieces 6 "
        "adds the 6 pieces: 16 minutes of CPU, 85 MB, 4.4 GiB of memory)",
    },
};
