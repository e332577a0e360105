/* test_egdb.c - the endgame databases: counts, the index, a 4-piece build
 * (3 under the sanitizers) checked against a solver written only for these
 * tests, consistency on random positions, known endings, resuming, and
 * files refused. */
#include "../src/egdb_impl.h"
#include "kingme/bits.h"
#include "kingme/egdb.h"
#include "kingme/egdb_build.h"
#include "kingme/search.h"
#include "kingme/weights.h"
#include "test.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the database the tests use, built once for the whole run ---- */

static char db_dir[64];
static int db_built_pieces;
static Egdb *db_open_once;

static void close_db(void)
{
    if (db_open_once) egdb_close(db_open_once);
}

static int test_pieces(void) { return test_sanitized() ? 3 : 4; }

const char *test_db_dir(void)
{
    if (db_dir[0]) return db_dir;
    /* the first process of the run to need it builds it, the others wait on
     * the lock and then find it built; no test writes into it */
    char lock[300], mark[320], err[KM_ERR_MAX];
    snprintf(lock, sizeof lock, "%s/db.lock", test_shared_dir());
    int fd = open(lock, O_RDWR | O_CREAT, 0600);
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    if (fd < 0 || fcntl(fd, F_SETLKW, &fl) != 0) {
        test_fail(__FILE__, __LINE__, "cannot lock %s", lock);
        if (fd >= 0) close(fd);
        return NULL;
    }
    char dir[64];
    if (snprintf(dir, sizeof dir, "%.50s/db%d", test_shared_dir(), test_pieces()) >= (int)sizeof dir) {
        test_fail(__FILE__, __LINE__, "%s: too long a folder name", test_shared_dir());
        close(fd);
        return NULL;
    }
    snprintf(mark, sizeof mark, "%s.built", dir);
    bool ok = access(mark, F_OK) == 0;
    if (!ok) {
        ok = egdb_build(dir, test_pieces(), 2, NULL, NULL, err) == 0;
        if (!ok) test_fail(__FILE__, __LINE__, "build: %s", err);
        else ok = test_put_file(mark, "");
    }
    close(fd); /* and with it the lock */
    if (!ok) return NULL;
    snprintf(db_dir, sizeof db_dir, "%s", dir);
    db_built_pieces = test_pieces();
    return db_dir;
}

bool test_db_at(const char *path, int pieces, char *err)
{
    if (pieces == test_pieces() && test_db_dir()) {
        if (symlink(db_dir, path) == 0) return true;
        snprintf(err, KM_ERR_MAX, "cannot link %.100s to %s", path, db_dir);
        return false;
    }
    return egdb_build(path, pieces, 2, NULL, NULL, err) == 0;
}

const Egdb *test_db(void)
{
    if (db_open_once) return db_open_once;
    if (!test_db_dir()) return NULL;
    char err[KM_ERR_MAX];
    db_open_once = egdb_open(db_dir, 4, err);
    if (!db_open_once) test_fail(__FILE__, __LINE__, "open: %s", err);
    else atexit(close_db);
    return db_open_once;
}

/* ---- counts and the index ---- */

TEST(egdb_counts_match_the_published_tables)
{
    static const uint64_t published[7] = {0, 120, 6972, 261224, 7092774, 148688232, 2503611964ull};
    for (int n = 1; n <= 6; n++) {
        uint64_t t = 0;
        for (int i = 0; i < egdb_slice_count(n); i++) t += egdb_slice_positions(egdb_slice_at(n, i));
        CHECK_INT(t, published[n]);
    }
    CHECK_INT(egdb_slice_count(5), 56);
}

TEST(egdb_index_round_trips)
{
    EgdbSlice slices[] = {{1, 1, 1, 0}, {0, 2, 1, 0}, {2, 0, 1, 0}, {1, 0, 0, 2}};
    for (int k = 0; k < 4; k++) {
        EgdbGeom g;
        egdb_geom(slices[k], &g);
        uint64_t real = 0;
        for (uint64_t i = 0; i < g.size; i++) {
            Board b;
            if (!egdb_unindex(&g, i, &b)) continue;
            real++;
            EgdbSlice s = egdb_slice_of(&b);
            CHECK(s.bm == slices[k].bm && s.bk == slices[k].bk && s.wm == slices[k].wm &&
                  s.wk == slices[k].wk);
            CHECK(!(board_men(&b, KM_BLACK) & BLACK_PROMO_ROW) &&
                  !(board_men(&b, KM_WHITE) & WHITE_PROMO_ROW));
            if (egdb_index(&g, &b) != i) {
                CHECK_INT(egdb_index(&g, &b), i);
                break;
            }
        }
        CHECK_INT(real, egdb_slice_positions(slices[k]));
    }
}

TEST(egdb_scan_visits_the_indices_in_order)
{
    EgdbSlice slices[] = {{1, 1, 1, 0}, {0, 2, 1, 0}, {2, 0, 1, 0}, {1, 0, 0, 2}, {0, 0, 2, 2}, {0, 3, 0, 0}};
    for (int k = 0; k < 6; k++) {
        EgdbGeom g;
        egdb_geom(slices[k], &g);
        /* the whole slice, and a range starting in the middle of a row */
        uint64_t ranges[2][2] = {{0, g.size}, {g.size / 3 + 7, g.size - g.size / 5}};
        for (int r = 0; r < 2; r++) {
            EgdbScan sc;
            egdb_scan_start(&sc, &g, ranges[r][0], ranges[r][1]);
            Board b, u;
            bool real;
            uint64_t i = ranges[r][0], bad = 0;
            for (; egdb_scan_next(&sc, &b, &real); i++) {
                bool ureal = egdb_unindex(&g, i, &u);
                if (real != ureal || (real && (b.pieces[0] != u.pieces[0] || b.pieces[1] != u.pieces[1] ||
                                               b.kings != u.kings || b.stm != u.stm)))
                    bad++;
            }
            CHECK_INT(i, ranges[r][1]);
            CHECK_INT(bad, 0);
        }
    }
}

/* ---- an independent solver for at most 3 pieces ----
 * Every position is enumerated square by square into a hash table, then
 * values are found by plain forward iteration to a fixed point (won if a
 * move reaches a lost position, lost if every move reaches a won one, a
 * draw if never decided), and distances to conversion by passes in which a
 * position is decided only from positions decided in earlier passes. No
 * index, no un-moves: nothing shared with the builder but the move
 * generator. */

typedef struct SolvePos {
    uint32_t b, w, k;
    uint8_t stm, used, val, dtc; /* val: 0 open, EGDB_WIN / LOSS / DRAW; dtc 255 unknown */
} SolvePos;

#define SOLVE_BITS 21
static SolvePos *solve_tab;

static uint32_t solve_slot(const Board *b)
{
    uint64_t h =
        km_mix64(((uint64_t)b->pieces[0] << 32 | b->pieces[1]) ^ km_mix64(b->kings * 2u + (uint32_t)b->stm));
    uint32_t i = (uint32_t)(h >> (64 - SOLVE_BITS));
    for (;;) {
        SolvePos *p = &solve_tab[i];
        if (!p->used ||
            (p->b == b->pieces[0] && p->w == b->pieces[1] && p->k == b->kings && p->stm == b->stm))
            return i;
        i = (i + 1) & ((1u << SOLVE_BITS) - 1);
    }
}

static SolvePos *solve_get(const Board *b) { return &solve_tab[solve_slot(b)]; }

static int solve_enumerate(int n, int from, Board *b, int placed)
{
    if (placed == n) {
        int count = 0;
        for (int stm = 0; stm < 2; stm++) {
            Board c = *b;
            c.stm = stm;
            SolvePos *p = solve_get(&c);
            *p = (SolvePos){c.pieces[0], c.pieces[1], c.kings, (uint8_t)stm, 1, 0, 255};
            count++;
        }
        return count;
    }
    int count = 0;
    for (int sq = from; sq < 32; sq++) {
        uint32_t m = 1u << sq;
        for (int type = 0; type < 4; type++) { /* black man, white man, black king, white king */
            int side = type & 1;
            bool king = type >= 2;
            if (!king && (m & (side == KM_BLACK ? BLACK_PROMO_ROW : WHITE_PROMO_ROW))) continue;
            b->pieces[side] |= m;
            if (king) b->kings |= m;
            count += solve_enumerate(n, sq + 1, b, placed + 1);
            b->pieces[side] &= ~m;
            b->kings &= ~m;
        }
    }
    return count;
}

static void solve_board(const SolvePos *p, Board *b)
{
    b->pieces[0] = p->b;
    b->pieces[1] = p->w;
    b->kings = p->k;
    b->stm = p->stm;
}

/* Solve every position of 1 to 3 pieces; returns the number of positions. */
static long solve_all(void)
{
    solve_tab = calloc((size_t)1 << SOLVE_BITS, sizeof *solve_tab);
    if (!solve_tab) return 0;
    long total = 0;
    for (int n = 1; n <= 3; n++) {
        Board b = {{0, 0}, 0, 0};
        total += solve_enumerate(n, 0, &b, 0);
    }
    MoveList ml;
    /* values */
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 0; i < 1u << SOLVE_BITS; i++) {
            SolvePos *p = &solve_tab[i];
            if (!p->used || p->val) continue;
            Board b;
            solve_board(p, &b);
            if (!b.pieces[b.stm ^ 1]) {
                p->val = EGDB_WIN;
                changed = true;
                continue;
            }
            int n = mg_moves(&b, &ml), wins = 0;
            bool win = false;
            for (int j = 0; j < n && !win; j++) {
                Board c = b;
                mg_make_move(&c, &ml.moves[j]);
                int v = solve_get(&c)->val;
                win = v == EGDB_LOSS;
                wins += v == EGDB_WIN;
            }
            if (win || wins == n) {
                p->val = win ? EGDB_WIN : EGDB_LOSS;
                changed = true;
            }
        }
    }
    for (uint32_t i = 0; i < 1u << SOLVE_BITS; i++)
        if (solve_tab[i].used && !solve_tab[i].val) solve_tab[i].val = EGDB_DRAW;
    /* distances to conversion, pass t deciding from passes before it */
    for (int t = 0; t < 200; t++) {
        bool changed = false;
        for (uint32_t i = 0; i < 1u << SOLVE_BITS; i++) {
            SolvePos *p = &solve_tab[i];
            if (!p->used || p->dtc != 255 || p->val == EGDB_DRAW) continue;
            Board b;
            solve_board(p, &b);
            if (!b.pieces[b.stm ^ 1]) continue; /* already won: no distance */
            int n = mg_moves(&b, &ml);
            int best = -1;
            bool all = true;
            for (int j = 0; j < n; j++) {
                const Move *m = &ml.moves[j];
                bool conv = m->captured || !(b.kings & (1u << m->from));
                Board c = b;
                mg_make_move(&c, m);
                const SolvePos *q = solve_get(&c);
                int key = conv ? 0 : (q->dtc != 255 && q->dtc < t) ? q->dtc : -1;
                if (p->val == EGDB_WIN) {
                    if (q->val == EGDB_LOSS && key >= 0 && (best < 0 || key < best)) best = key;
                } else if (key < 0) {
                    all = false;
                } else if (key > best) {
                    best = key;
                }
            }
            if (p->val == EGDB_WIN ? best >= 0 : all) {
                p->dtc = (uint8_t)(n ? best + 1 : 0);
                changed = true;
            }
        }
        if (!changed && t > 2) break;
    }
    return total;
}

TEST(egdb_agrees_with_an_independent_solver_on_every_3_piece_position)
{
    const Egdb *db = test_db();
    if (!db) return;
    long total = solve_all();
    CHECK_INT(total, 2 * (120 + 6972 + 261224));
    long checked = 0, bad = 0, wins = 0, losses = 0, draws = 0;
    for (uint32_t i = 0; i < 1u << SOLVE_BITS && bad < 5; i++) {
        const SolvePos *p = &solve_tab[i];
        if (!p->used) continue;
        Board b;
        solve_board(p, &b);
        int d, v = egdb_probe(db, &b, &d);
        checked++;
        wins += p->val == EGDB_WIN;
        losses += p->val == EGDB_LOSS;
        draws += p->val == EGDB_DRAW;
        bool special = !b.pieces[b.stm ^ 1];
        if (v != p->val || (!special && p->val != EGDB_DRAW && d != p->dtc)) {
            char fen[128];
            board_to_fen(&b, fen, sizeof fen);
            test_fail(__FILE__, __LINE__, "%s: database %d dtc %d, solver %d dtc %d", fen, v, d, p->val,
                      p->dtc);
            bad++;
        }
    }
    CHECK_INT(checked, total);
    CHECK_INT(bad, 0);
    /* the solver found all three results in quantity */
    CHECK(wins > 100000 && losses > 50000 && draws > 10000);
    free(solve_tab);
    solve_tab = NULL;
}

/* ---- consistency of the built database ---- */

TEST(egdb_every_value_is_consistent_on_random_positions)
{
    const Egdb *db = test_db();
    if (!db) return;
    int per = test_sanitized() ? 5000 : 100000;
    uint64_t rng = 7;
    for (int n = 2; n <= db_built_pieces; n++) {
        int bad = 0, counts[4] = {0};
        for (int k = 0; k < per && bad < 5; k++) {
            Board b;
            egdb_random_position(n, &rng, &b);
            if (!b.pieces[b.stm ^ 1]) continue;
            int d, v = egdb_probe(db, &b, &d);
            counts[v]++;
            MoveList ml;
            int nm = mg_moves(&b, &ml), best = -1, loss_children = 0, draw_children = 0;
            for (int j = 0; j < nm; j++) {
                const Move *m = &ml.moves[j];
                Board c = b;
                mg_make_move(&c, m);
                int cd, cv = egdb_probe(db, &c, &cd);
                int key = m->captured || !(b.kings & (1u << m->from)) ? 0 : cd;
                if (cv == EGDB_LOSS) {
                    loss_children++;
                    if (v == EGDB_WIN && (best < 0 || key < best)) best = key;
                }
                if (cv == EGDB_DRAW) draw_children++;
                if (v == EGDB_LOSS && key > best) best = key;
            }
            bool ok;
            if (v == EGDB_WIN) ok = loss_children > 0 && d == best + 1;
            else if (v == EGDB_LOSS)
                ok = loss_children == 0 && draw_children == 0 && d == (nm ? best + 1 : 0);
            else ok = v == EGDB_DRAW && loss_children == 0 && draw_children > 0;
            if (!ok) {
                char fen[128];
                board_to_fen(&b, fen, sizeof fen);
                test_fail(__FILE__, __LINE__, "%s: value %d dtc %d, children: %d lost, %d drawn, best %d",
                          fen, v, d, loss_children, draw_children, best);
                bad++;
            }
        }
        CHECK_INT(bad, 0);
        CHECK(counts[EGDB_WIN] > 0 && counts[EGDB_LOSS] > 0 && counts[EGDB_DRAW] > 0);
        CHECK_INT(counts[EGDB_UNKNOWN], 0);
    }
}

/* ---- known endings ---- */

static int probe_fen(const Egdb *db, const char *fen, int *d)
{
    Board b;
    char err[KM_ERR_MAX];
    if (board_from_fen(&b, fen, err)) {
        test_fail(__FILE__, __LINE__, "%s: %s", fen, err);
        return -1;
    }
    return egdb_probe(db, &b, d);
}

TEST(egdb_known_endings)
{
    const Egdb *db = test_db();
    if (!db) return;
    int d;
    /* two kings beat one with Black to move, but for 34 positions where the
     * two are cornered and must give one up for the other (B:WK11:BK3,K4) */
    EgdbGeom g;
    egdb_geom((EgdbSlice){0, 2, 0, 1}, &g);
    long n = 0, won = 0, drawn = 0;
    for (uint64_t i = 0; i < g.size; i++) {
        Board b;
        if (!egdb_unindex(&g, i, &b)) continue;
        int v = egdb_probe(db, &b, NULL);
        n++;
        won += v == EGDB_WIN;
        drawn += v == EGDB_DRAW;
    }
    CHECK_INT(n, 14880);
    CHECK_INT(drawn, 34);
    CHECK_INT(won, n - drawn);
    CHECK_INT(probe_fen(db, "B:WK11:BK3,K4", &d), EGDB_DRAW);
    /* the lone king in the double corner: Black still wins, but it takes time */
    CHECK_INT(probe_fen(db, "B:WK32:BK1,K5", &d), EGDB_WIN);
    CHECK(d > 20);
    CHECK_INT(probe_fen(db, "W:WK32:BK1,K5", &d), EGDB_LOSS);
    /* one king against one king is a draw unless one is caught at once */
    CHECK_INT(probe_fen(db, "B:WK32:BK1", &d), EGDB_DRAW);
    CHECK_INT(probe_fen(db, "W:WK32:BK1", &d), EGDB_DRAW);
    /* a king in front of a man it can take: the side to move captures and wins */
    CHECK_INT(probe_fen(db, "B:W18:BK14", &d), EGDB_WIN);
    CHECK_INT(d, 1);
    /* no piece: lost; no move: lost */
    CHECK_INT(probe_fen(db, "B:WK18:B", &d), EGDB_LOSS);
    CHECK_INT(probe_fen(db, "B:W9,K14:B5", &d),
              EGDB_LOSS); /* 5 is blocked by 9, 9 cannot be jumped (14 behind) */
    CHECK_INT(d, 0);
    /* beyond the database */
    Board start;
    board_init(&start);
    CHECK_INT(egdb_probe(db, &start, &d), EGDB_UNKNOWN);
    CHECK_INT(egdb_probe(NULL, &start, &d), EGDB_UNKNOWN);
}

TEST(egdb_best_move_wins_within_the_forty_move_rule)
{
    const Egdb *db = test_db();
    if (!db) return;
    uint64_t rng = 99;
    int games = test_sanitized() ? 20 : 200, won = 0;
    for (int g = 0; g < games; g++) {
        Board b;
        do egdb_random_position(db_built_pieces, &rng, &b);
        while (egdb_probe(db, &b, NULL) != EGDB_WIN || !b.pieces[b.stm ^ 1]);
        int winner = b.stm, reversible = 0, maxreversible = 0;
        for (int ply = 0; ply < 1000; ply++) {
            Move m;
            MoveList ml;
            if (mg_moves(&b, &ml) == 0) break;
            int v = egdb_best_move(db, &b, &m, NULL);
            if (v != (b.stm == winner ? EGDB_WIN : EGDB_LOSS)) break;
            reversible = m.captured || !(b.kings & (1u << m.from)) ? 0 : reversible + 1;
            if (reversible > maxreversible) maxreversible = reversible;
            mg_make_move(&b, &m);
        }
        MoveList ml;
        won += b.stm != winner && mg_moves(&b, &ml) == 0 && maxreversible < 80;
    }
    CHECK_INT(won, games);
}

/* ---- the files that keep some distances only (version 2) ----
 * The 6-piece files keep the DTC of the wins longer than EGDB_SHORT_DTC
 * only, and a probe finds the others by a short search. The same format on
 * the 3-piece slices must answer every position as the full files do. */

static char part_dir[64];

static void remove_part_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", part_dir);
    if (part_dir[0] && system(cmd) != 0) fprintf(stderr, "could not remove %s\n", part_dir);
}

static uint32_t file_version(const char *dir, EgdbSlice s)
{
    char name[16], path[256];
    egdb_slice_name(s, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    unsigned char h[12] = {0};
    if (f) {
        if (fread(h, 1, sizeof h, f) != sizeof h) h[8] = 0;
        fclose(f);
    }
    return h[8] | (uint32_t)h[9] << 8;
}

static uint64_t dir_bytes(const char *dir, int n)
{
    uint64_t total = 0;
    for (int i = 0; i < egdb_slice_count(n); i++) {
        char name[16], path[256];
        egdb_slice_name(egdb_slice_at(n, i), name, sizeof name);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        struct stat sb;
        if (stat(path, &sb) == 0) total += (uint64_t)sb.st_size;
    }
    return total;
}

TEST(egdb_partial_files_answer_as_the_full_ones)
{
    const Egdb *full = test_db();
    if (!full) return;
    snprintf(part_dir, sizeof part_dir, "/tmp/kingme-egdb-part-XXXXXX");
    CHECK(mkdtemp(part_dir) != NULL);
    atexit(remove_part_dir);
    char err[KM_ERR_MAX];
    CHECK_MSG(egdb_build_partial(part_dir, 3, 2, 2, NULL, NULL, err) == 0, "%s", err);
    CHECK_INT(file_version(part_dir, (EgdbSlice){0, 2, 0, 1}), 2);
    CHECK_INT(file_version(part_dir, (EgdbSlice){0, 1, 0, 1}), 1);
    CHECK(dir_bytes(part_dir, 3) < dir_bytes(db_dir, 3));
    Egdb *part = egdb_open(part_dir, 4, err);
    CHECK_MSG(part != NULL, "%s", err);
    if (!part) return;
    /* every 3-piece position, either side to move */
    long n = 0, bad = 0, short_wins = 0, losses = 0;
    for (int si = 0; si < egdb_slice_count(3); si++) {
        EgdbGeom g;
        egdb_geom(egdb_slice_at(3, si), &g);
        for (uint64_t i = 0; i < g.size && bad < 5; i++) {
            Board b;
            if (!egdb_unindex(&g, i, &b)) continue;
            for (int side = 0; side < 2; side++, b.stm ^= 1) {
                int d1, d2, df, v1 = egdb_probe(full, &b, &d1), v2 = egdb_probe(part, &b, &d2);
                int vf = egdb_probe_fast(part, &b, &df);
                Move m1 = {0}, m2 = {0};
                int b1 = egdb_best_move(full, &b, &m1, NULL), b2 = egdb_best_move(part, &b, &m2, NULL);
                /* the fast probe: the kept distance, else the bound */
                bool one_colour = !b.pieces[0] || !b.pieces[1],
                     capture = !one_colour && mg_can_capture(&b, b.stm);
                bool short_win = v2 == EGDB_WIN && d2 <= EGDB_SHORT_DTC && !capture && !one_colour;
                bool loss = v2 == EGDB_LOSS && !capture && !one_colour;
                int fast_want = short_win ? EGDB_SHORT_DTC : loss ? 0 : d2;
                short_wins += short_win;
                losses += loss;
                n++;
                if (v1 != v2 || d1 != d2 || vf != v2 || df != fast_want || b1 != b2 || m1.from != m2.from ||
                    m1.to != m2.to || m1.captured != m2.captured || !egdb_consistent(part, &b)) {
                    char fen[128];
                    board_to_fen(&b, fen, sizeof fen);
                    test_fail(__FILE__, __LINE__, "%s: full %d dtc %d, partial %d dtc %d (fast %d dtc %d)",
                              fen, v1, d1, v2, d2, vf, df);
                    bad++;
                }
            }
        }
    }
    CHECK_INT(n, 2 * 261224);
    CHECK_INT(bad, 0);
    CHECK(short_wins > 10000 && losses > 10000);
    egdb_close(part);
}

/* The database's move at the root under a clock: the short search for the
 * distances partial files leave out gives up at its deadline (the position
 * is then searched as any other); before it, the move is the one without a
 * clock. At 6 pieces that search took up to 1.5 s of a 0.1 s move. */
TEST(egdb_root_move_keeps_to_the_clock)
{
    if (!part_dir[0] || !test_db()) {
        test_skip("no partial database (egdb_partial_files_answer_as_the_full_ones did not run)");
        return;
    }
    char err[KM_ERR_MAX];
    Egdb *part = egdb_open(part_dir, 4, err);
    CHECK_MSG(part != NULL, "%s", err);
    if (!part) return;
    long known = 0, gave_up = 0, same = 0;
    for (int si = 0; si < egdb_slice_count(3); si++) {
        EgdbGeom g;
        egdb_geom(egdb_slice_at(3, si), &g);
        for (uint64_t i = 0; i < g.size; i += 7) {
            Board b;
            if (!egdb_unindex(&g, i, &b)) continue;
            Move m0 = {0}, m1 = {0}, m2 = {0};
            int d0, d1, d2;
            int v0 = egdb_best_move(part, &b, &m0, &d0);
            int v1 = egdb_best_move_by(part, &b, km_now() + 3600, &m1, &d1); /* a deadline far away */
            int v2 = egdb_best_move_by(part, &b, 1, &m2, &d2);               /* one long past */
            CHECK(v1 == v0 && (v0 == EGDB_UNKNOWN || (d1 == d0 && mg_move_equal(&m1, &m0))));
            known += v0 == EGDB_WIN || v0 == EGDB_LOSS;
            if (v2 == EGDB_UNKNOWN && v0 != EGDB_UNKNOWN) gave_up++;
            else same += v2 == v0 && (v0 == EGDB_UNKNOWN || mg_move_equal(&m2, &m0));
        }
    }
    CHECK_MSG(gave_up > 0, "no search gave up past its deadline (%ld wins and losses)", known);
    CHECK_MSG(known > 1000 && same + gave_up > 0, "%ld known", known);
    egdb_close(part);
}

/* The independent check solves the sets again and finds what the database
 * holds; given a slice whose values were changed, it finds the change. */
TEST(egdb_independent_check_finds_a_wrong_value)
{
    const Egdb *db = test_db();
    if (!db) return;
    const char *fens[] = {"B:WK11:BK3,K4", "B:WK17:B7,K20", "W:WK17:B7,K20"};
    char err[KM_ERR_MAX];
    uint64_t total = 0;
    for (int k = 0; k < 3; k++) {
        Board b;
        CHECK(board_from_fen(&b, fens[k], err) == 0);
        EgdbCheck ck;
        CHECK_MSG(egdb_check_component(db, &b, 1000000, &ck, err) == 0, "%s", err);
        CHECK_MSG(ck.mismatches == 0, "%s: %llu positions differ", fens[k],
                  (unsigned long long)ck.mismatches);
        CHECK(ck.wins > 0 && ck.losses > 0 && ck.draws > 0);
        total += ck.positions;
    }
    CHECK(total > 10000);
    Board b;
    CHECK(board_from_fen(&b, fens[0], err) == 0);
    EgdbCheck ck;
    CHECK(egdb_check_component(db, &b, 100, &ck, err) == -1 && strstr(err, "more than 100 positions"));
    /* a copy of the database with one value changed: a draw of two kings
     * against one (the kings cornered) made a win */
    char dir[64], cmd[256];
    snprintf(dir, sizeof dir, "/tmp/kingme-egdb-wrong-XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    snprintf(cmd, sizeof cmd, "cp %s/*.kdb %s/", db_dir, dir);
    CHECK_INT(system(cmd), 0);
    EgdbGeom g;
    EgdbSlice s = {0, 2, 0, 1};
    egdb_geom(s, &g);
    char name[16], path[256];
    egdb_slice_name(s, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    uint8_t *codes;
    EgdbSliceInfo info;
    CHECK(egdb_read_slice(path, &g, &codes, &info, err) == 0);
    Board w;
    CHECK(board_from_fen(&w, "B:WK11:BK3,K4", err) == 0);
    uint64_t at = egdb_index(&g, &w);
    CHECK_INT(codes[at], EGDB_CODE_DRAW);
    codes[at] = egdb_code_win(5);
    CHECK(egdb_write_slice(dir, &g, codes, false, &info, err) == 0);
    free(codes);
    Egdb *wrong = egdb_open(dir, 4, err);
    CHECK_MSG(wrong != NULL, "%s", err);
    if (wrong) {
        CHECK(egdb_check_component(wrong, &w, 1000000, &ck, err) == 0);
        CHECK(ck.mismatches > 0);
        egdb_close(wrong);
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK_INT(system(cmd), 0);
}

/* ---- the 6-piece database, when it was built ----
 * Built in hours, so the tests build none: they check the one in
 * $KINGME_TEST_EGDB6, else egdb/ (where make egdb6 puts it), and are
 * skipped, with a line saying so, when it holds fewer than 6 pieces. */

TEST(egdb_six_pieces_when_built)
{
    const char *dir = getenv("KINGME_TEST_EGDB6");
    if (!dir || !*dir) dir = "egdb";
    char err[KM_ERR_MAX];
    Egdb *db = egdb_open(dir, 16, err);
    if (!db || egdb_pieces(db) < 6) {
        test_skip("no 6-piece database in %s (make egdb6, or KINGME_TEST_EGDB6=DIR)", dir);
        egdb_close(db);
        return;
    }
    /* random positions against their moves: values and distances, those
     * the files do not keep found by the probe's search */
    uint64_t rng = 6;
    int bad = 0;
    for (int k = 0; k < 1000 && bad < 5; k++) {
        Board b;
        egdb_random_position(6, &rng, &b);
        if (!egdb_consistent(db, &b)) {
            char fen[128];
            board_to_fen(&b, fen, sizeof fen);
            test_fail(__FILE__, __LINE__, "%s: value or distance disagrees with its moves'", fen);
            bad++;
        }
    }
    /* sets reached by king moves solved again by the independent solver */
    int sets = 0;
    uint64_t solved = 0;
    for (int tries = 0; sets < 3 && tries < 1000; tries++) {
        Board b;
        egdb_random_position(6, &rng, &b);
        if (!board_kings(&b, KM_BLACK) || !board_kings(&b, KM_WHITE) || mg_can_capture(&b, b.stm)) continue;
        EgdbCheck ck;
        if (egdb_check_component(db, &b, 200000, &ck, err)) continue; /* too large a set: another */
        sets++;
        solved += ck.positions;
        CHECK_INT(ck.mismatches, 0);
    }
    CHECK_INT(sets, 3);
    CHECK(solved > 100);
    /* won positions played out by the database on both sides: won, within
     * the forty-move rule */
    int games = 4, won = 0;
    for (int g = 0; g < games; g++) {
        Board b;
        do egdb_random_position(6, &rng, &b);
        while (egdb_probe(db, &b, NULL) != EGDB_WIN || !b.pieces[b.stm ^ 1]);
        int winner = b.stm, reversible = 0, maxreversible = 0;
        for (int ply = 0; ply < 1000; ply++) {
            Move m;
            MoveList ml;
            if (mg_moves(&b, &ml) == 0) break;
            int v = egdb_best_move(db, &b, &m, NULL);
            if (v != (b.stm == winner ? EGDB_WIN : EGDB_LOSS)) break;
            reversible = m.captured || !(b.kings & (1u << m.from)) ? 0 : reversible + 1;
            if (reversible > maxreversible) maxreversible = reversible;
            mg_make_move(&b, &m);
        }
        MoveList ml;
        won += b.stm != winner && mg_moves(&b, &ml) == 0 && maxreversible < 80;
    }
    CHECK_INT(won, games);
    egdb_close(db);
}

/* ---- threads ---- */

enum { MT_POS = 20000, MT_THREADS = 4 };
typedef struct MtJob {
    const Egdb *db;
    const Board *pos;
    const int *want;
    int start, bad;
} MtJob;

static void *mt_probe(void *arg)
{
    MtJob *j = arg;
    for (int round = 0; round < 3; round++)
        for (int k = 0; k < MT_POS; k++) {
            int i = (j->start + k * 7 + round * 131) % MT_POS, d;
            int v = egdb_probe(j->db, &j->pos[i], &d);
            if (v * 256 + d != j->want[i]) j->bad++;
        }
    return NULL;
}

TEST(egdb_probes_from_several_threads_agree)
{
    const Egdb *db = test_db();
    if (!db) return;
    Board *pos = malloc(MT_POS * sizeof *pos);
    int *want = malloc(MT_POS * sizeof *want);
    CHECK(pos && want);
    if (!pos || !want) return;
    uint64_t rng = 31;
    for (int i = 0; i < MT_POS; i++) {
        egdb_random_position(db_built_pieces, &rng, &pos[i]);
        int d, v = egdb_probe(db, &pos[i], &d);
        want[i] = v * 256 + d;
    }
    /* the test database's cache is small (4 MB), so the threads keep
     * evicting each other's blocks while they read */
    pthread_t t[MT_THREADS];
    MtJob jobs[MT_THREADS];
    for (int k = 0; k < MT_THREADS; k++) {
        jobs[k] = (MtJob){db, pos, want, k * 977, 0};
        CHECK(pthread_create(&t[k], NULL, mt_probe, &jobs[k]) == 0);
    }
    for (int k = 0; k < MT_THREADS; k++) {
        pthread_join(t[k], NULL);
        CHECK_INT(jobs[k].bad, 0);
    }
    free(pos);
    free(want);
}

/* ---- the search ---- */

TEST(egdb_agrees_with_the_searchs_proven_results)
{
    const Egdb *db = test_db();
    if (!db) return;
    Weights w;
    weights_default(&w);
    Searcher s;
    char err[KM_ERR_MAX];
    CHECK(search_init(&s, &w, 16, 1, err) == 0);
    SearchLimits lim;
    search_limits_default(&lim);
    lim.depth = test_sanitized() ? 9 : 13;
    search_set_tiebreak(&s, TIEBREAK_FIRST);
    uint64_t rng = 5;
    int proven = 0, tries = test_sanitized() ? 40 : 150;
    for (int k = 0; k < tries; k++) {
        Board b;
        do egdb_random_position(3 + k % (db_built_pieces - 2), &rng, &b);
        while (!b.pieces[b.stm ^ 1]);
        SearchResult r;
        search_set_egdb(&s, NULL);
        CHECK(search_run(&s, &b, NULL, 0, 0, &lim, &r, NULL, NULL) == 0);
        int d, v = egdb_probe(db, &b, &d);
        if (r.score >= SCORE_WIN_MIN || r.score <= -SCORE_WIN_MIN) {
            proven++;
            char fen[128];
            board_to_fen(&b, fen, sizeof fen);
            CHECK_MSG(v == (r.score > 0 ? EGDB_WIN : EGDB_LOSS), "%s: search %d, database %d", fen, r.score,
                      v);
        }
        /* with the database: its verdict at the root, a move that keeps it */
        search_set_egdb(&s, db);
        CHECK(search_run(&s, &b, NULL, 0, 0, &lim, &r, NULL, NULL) == 0);
        if (v == EGDB_WIN) CHECK(r.score >= SCORE_DB_MIN && r.score < SCORE_WIN_MIN);
        if (v == EGDB_LOSS && r.has_move) CHECK(r.score <= -SCORE_DB_MIN && r.score > -SCORE_WIN_MIN);
        if (!r.has_move) CHECK(v == EGDB_LOSS && d == 0 && r.score <= -SCORE_WIN_MIN);
        if (v == EGDB_DRAW) CHECK_INT(r.score, 0);
        if (r.has_move) {
            Board c = b;
            mg_make_move(&c, &r.best);
            int cv = egdb_probe(db, &c, NULL);
            CHECK(v == EGDB_WIN ? cv == EGDB_LOSS : v == EGDB_DRAW ? cv == EGDB_DRAW : cv == EGDB_WIN);
        }
    }
    CHECK(proven > tries / 10);
    /* two kings against one, a long win the search alone proves too */
    Board b;
    CHECK(board_from_fen(&b, "B:WK32:BK1,K5", err) == 0);
    search_set_egdb(&s, db);
    SearchResult r;
    CHECK(search_run(&s, &b, NULL, 0, 0, &lim, &r, NULL, NULL) == 0);
    char text[32];
    search_score_text(r.score, text, sizeof text);
    CHECK_STR(text, "db win");
    search_free(&s);
}

/* ---- files ---- */

static void copy_file(const char *from, const char *to, long keep, long flip)
{
    char *s = NULL;
    FILE *f = fopen(from, "rb");
    CHECK(f != NULL);
    if (!f) return;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    s = malloc((size_t)n);
    CHECK(s && fread(s, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    if (keep >= 0 && keep < n) n = keep;
    if (flip >= 0 && flip < n) s[flip] ^= 0x10;
    FILE *g = fopen(to, "wb");
    CHECK(g != NULL);
    if (g) {
        fwrite(s, 1, (size_t)n, g);
        fclose(g);
    }
    free(s);
}

static bool same_slice(EgdbSlice x, EgdbSlice y) { return memcmp(&x, &y, sizeof x) == 0; }

/* The slice bad_dir spoils. */
static EgdbSlice bad_slice(void) { return egdb_slice_at(2, 4); }

/* Make dir (a mkdtemp template) hold the 1- and 2-piece files of the test
 * database, bad_slice's file cut to keep bytes (-1: whole), with the byte
 * at flip changed (-1: none), or replaced by a foreign file. */
static void bad_dir(char *dir, long keep, long flip, bool foreign)
{
    CHECK(mkdtemp(dir) != NULL);
    for (int n = 1; n <= 2; n++)
        for (int i = 0; i < egdb_slice_count(n); i++) {
            char name[16], from[128], to[128];
            egdb_slice_name(egdb_slice_at(n, i), name, sizeof name);
            snprintf(from, sizeof from, "%s/%s", db_dir, name);
            snprintf(to, sizeof to, "%s/%s", dir, name);
            bool victim = same_slice(egdb_slice_at(n, i), bad_slice());
            copy_file(from, to, victim ? keep : -1, victim ? flip : -1);
            if (victim && foreign) {
                FILE *f = fopen(to, "w");
                if (f) {
                    fputs("# kingme weights\nown_men 1000\n", f);
                    fclose(f);
                }
            }
        }
}

/* bad_dir's error from egdb_open, and the command's line. */
static void bad_dir_error(long keep, long flip, bool foreign, char *err)
{
    char dir[64], cmd[512];
    snprintf(dir, sizeof dir, "/tmp/kingme-egdb-bad-XXXXXX");
    bad_dir(dir, keep, flip, foreign);
    Egdb *db = egdb_open(dir, 1, err);
    CHECK(db == NULL);
    egdb_close(db);
    /* the command says it in one line */
    char out[1024];
    snprintf(cmd, sizeof cmd, "%s egdb probe --fen 'B:WK32:BK1' --dir %s", test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    CHECK(strncmp(out, "kingme: ", 8) == 0 && strchr(out, '\n') == out + strlen(out) - 1);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK_INT(system(cmd), 0);
}

TEST(egdb_refuses_truncated_foreign_and_corrupt_files)
{
    if (!test_db()) return;
    char err[KM_ERR_MAX];
    bad_dir_error(300, -1, false, err);
    CHECK_MSG(strstr(err, "truncated") != NULL, "%s", err);
    bad_dir_error(40, -1, false, err);
    CHECK_MSG(strstr(err, "truncated") != NULL, "%s", err);
    bad_dir_error(-1, -1, true, err);
    CHECK_MSG(strstr(err, "not a kingme endgame database") != NULL, "%s", err);
    bad_dir_error(-1, 400, false, err);
    CHECK_MSG(strstr(err, "corrupt") != NULL, "%s", err);
    bad_dir_error(-1, 30, false, err); /* in the header */
    CHECK_MSG(strstr(err, "corrupt") != NULL, "%s", err);
    Egdb *none = egdb_open("/tmp/kingme-no-such-dir", 1, err);
    CHECK(none == NULL && strstr(err, "kingme-no-such-dir") != NULL);
}

TEST(egdb_background_open_answers_as_the_plain_one)
{
    const Egdb *db = test_db();
    if (!db) return;
    char err[KM_ERR_MAX];
    enum { N = 20000 };
    static Board pos[N];
    static int want[N];
    uint64_t rng = 77;
    for (int i = 0; i < N; i++) {
        egdb_random_position(1 + i % db_built_pieces, &rng, &pos[i]);
        int d, v = egdb_probe(db, &pos[i], &d);
        want[i] = v * 256 + d;
    }
    /* while the files load, a probe answers the value or unknown, never a
     * wrong value; once loaded, every value */
    Egdb *bg = egdb_open_background(db_dir, 4, err);
    CHECK_MSG(bg != NULL, "%s", err);
    if (!bg) return;
    int early_unknown = 0, early_wrong = 0;
    for (int i = 0; i < N; i++) {
        int d, v = egdb_probe(bg, &pos[i], &d);
        if (v == EGDB_UNKNOWN && want[i] / 256 != EGDB_UNKNOWN) early_unknown++;
        else if (v * 256 + d != want[i]) early_wrong++;
    }
    CHECK_INT(early_wrong, 0);
    CHECK_INT(egdb_wait(bg, err), 0);
    CHECK(egdb_loaded(bg));
    CHECK_INT(egdb_pieces(bg), egdb_pieces(db));
    CHECK(egdb_digest(bg) == egdb_digest(db));
    int wrong = 0;
    for (int i = 0; i < N; i++) {
        int d, v = egdb_probe(bg, &pos[i], &d);
        wrong += v * 256 + d != want[i];
    }
    CHECK_INT(wrong, 0);
    egdb_close(bg);
    /* closed while it loads: the thread ends, nothing leaks (the sanitizers) */
    for (int k = 0; k < 5; k++) {
        bg = egdb_open_background(db_dir, 1, err);
        CHECK(bg != NULL);
        egdb_close(bg);
    }
    /* a file whose data fail their checksum: egdb_open refuses the
     * database; in the background it is said by egdb_wait and
     * egdb_damage, its positions are unknown and the others answer */
    char dir[64], cmd[128];
    snprintf(dir, sizeof dir, "/tmp/kingme-egdb-bg-XXXXXX");
    bad_dir(dir, -1, 400, false);
    CHECK(egdb_open(dir, 1, err) == NULL && strstr(err, "corrupt data") != NULL);
    bg = egdb_open_background(dir, 1, err);
    CHECK_MSG(bg != NULL, "%s", err);
    if (bg) {
        CHECK_INT(egdb_wait(bg, err), -1);
        CHECK_MSG(strstr(err, "corrupt data (checksum mismatch)") != NULL, "%s", err);
        err[0] = '\0';
        CHECK_INT(egdb_damage(bg, err), -1);
        CHECK_MSG(strstr(err, "corrupt data") != NULL, "%s", err);
        int in_bad = 0, in_good = 0;
        rng = 5;
        for (int i = 0; i < 4000; i++) {
            Board b;
            egdb_random_position(2, &rng, &b);
            int d, v = egdb_probe(bg, &b, &d), w = egdb_probe(db, &b, &d);
            EgdbSlice s = egdb_slice_of(&b);
            EgdbSlice m = egdb_slice_mirror(s);
            bool bad = (b.stm == KM_BLACK ? same_slice(s, bad_slice()) : same_slice(m, bad_slice())) &&
                       !mg_can_capture(&b, b.stm);
            if (bad) {
                in_bad++;
                CHECK(v == EGDB_UNKNOWN);
            } else if (!mg_can_capture(&b, b.stm)) {
                in_good++;
                CHECK(v == w);
            }
        }
        CHECK(in_bad > 0 && in_good > 0);
        egdb_close(bg);
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK_INT(system(cmd), 0);
    /* a file whose header is bad is refused at once, as by egdb_open */
    snprintf(dir, sizeof dir, "/tmp/kingme-egdb-bg-XXXXXX");
    bad_dir(dir, 300, -1, false);
    CHECK(egdb_open_background(dir, 1, err) == NULL && strstr(err, "truncated") != NULL);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK_INT(system(cmd), 0);
}

TEST(egdb_build_resumes_and_is_deterministic)
{
    if (!test_db()) return;
    /* a copy of its own: the run's database is read by other tests meanwhile */
    char dir[128], name[16], path[160], cmd[512];
    test_fresh_dir("egdb", dir, sizeof dir, "resume");
    snprintf(cmd, sizeof cmd, "cp %s/*.kdb '%s'/", db_dir, dir);
    CHECK_INT(system(cmd), 0);
    EgdbSlice s = {1, 0, 1, 1};
    egdb_slice_name(s, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *before = test_slurp(path);
    struct stat sb0;
    CHECK(stat(path, &sb0) == 0);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s.keep' && rm '%s'", path, path, path);
    CHECK_INT(system(cmd), 0);
    /* another file: its modification time shows whether it was rebuilt */
    char other[160];
    egdb_slice_name((EgdbSlice){0, 1, 0, 2}, name, sizeof name);
    snprintf(other, sizeof other, "%s/%s", dir, name);
    struct stat so0, so1;
    CHECK(stat(other, &so0) == 0);
    char err[KM_ERR_MAX];
    CHECK_MSG(egdb_build(dir, 3, 1, NULL, NULL, err) == 0, "%s", err);
    CHECK(stat(other, &so1) == 0);
    CHECK(so0.st_mtime == so1.st_mtime && so0.st_ino == so1.st_ino);
    struct stat sb1;
    CHECK(stat(path, &sb1) == 0);
    CHECK_INT(sb1.st_size, sb0.st_size);
    char *after = test_slurp(path);
    CHECK(before && after && memcmp(before, after, (size_t)sb0.st_size) == 0);
    free(before);
    free(after);
    test_remove_dir(dir);
}

/* kingme egdb build's progress: on a terminal one line rewritten in place,
 * never wider than the terminal (it was padded to 100 columns); in a log a
 * line at each tenth of the slices. The terminal is a pseudo-terminal of 60
 * columns made by script(1). */
TEST(egdb_build_progress_fits_the_terminal)
{
    char dir[128], cmd[1024];
    static char out[1 << 16];
    snprintf(dir, sizeof dir, "/tmp/kingme-egdb-progress-%d", (int)getpid());
    snprintf(cmd, sizeof cmd,
             "rm -rf %s && script -qc 'stty cols 60; %s egdb build --pieces 2 --dir %s -j 1' /dev/null", dir,
             test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    int segments = 0;
    for (const char *p = out; *p;) {
        size_t n = strcspn(p, "\r\n");
        if (strstr(p, " slices, b") && strstr(p, " slices, b") < p + n) {
            CHECK_MSG(n < 60, "a progress line of %zu columns on a 60-column terminal: %.*s", n, (int)n, p);
            segments++;
        }
        p += n + (p[n] != '\0');
    }
    CHECK_MSG(segments >= 3 && strstr(out, "/14 slices, b0k0w0k1 ") && strstr(out, " left") &&
                  strstr(out, "built the 2-piece endgame database"),
              "%s", out);
    /* not a terminal: a line per tenth, each with the time elapsed and left */
    snprintf(cmd, sizeof cmd, "rm -rf %s && %s egdb build --pieces 2 --dir %s -j 1", dir, test_kingme(), dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "14/14 slices, ") && strstr(out, " elapsed, ") && !strchr(out, '\r'), "%s", out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK_INT(system(cmd), 0);
}

/* ---- files that are not what a slice should be (docs/reliability.md) ---- */

/* The 1- to 3-piece files of the test database copied into a fresh folder. */
static bool small_db(char *dir, size_t len)
{
    snprintf(dir, len, "/tmp/kingme-egdb-small-XXXXXX");
    if (!mkdtemp(dir)) return false;
    for (int n = 1; n <= 3; n++)
        for (int i = 0; i < egdb_slice_count(n); i++) {
            char name[16], from[128], to[128];
            egdb_slice_name(egdb_slice_at(n, i), name, sizeof name);
            snprintf(from, sizeof from, "%s/%s", db_dir, name);
            snprintf(to, sizeof to, "%s/%s", dir, name);
            copy_file(from, to, -1, -1);
        }
    return true;
}

static void remove_tree(const char *dir)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK_INT(system(cmd), 0);
}

/* `kingme ARGS` stopped after 20 s (a regression that waits on a FIFO fails
 * instead of hanging the tests); stdout and stderr in out. */
static int kingme_in(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int kingme_in(char *out, size_t len, const char *fmt, ...)
{
    char args[1024], cmd[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "{ timeout 20 %s %s; }", test_kingme(), args);
    return test_run(cmd, out, len);
}

/* A FIFO named like a slice hung egdb probe, search --egdb and engine (which
 * opens the folder at start); a link to /dev/zero was read until the memory
 * ran out. Only regular files are read, and none beyond the size its header
 * gives. */
TEST(egdb_refuses_fifos_devices_and_oversized_files)
{
    if (!test_db()) return;
    char dir[64], victim[128], out[4096], want[256];
    if (!small_db(dir, sizeof dir)) return;
    char name[16];
    egdb_slice_name((EgdbSlice){0, 1, 0, 2}, name, sizeof name);
    snprintf(victim, sizeof victim, "%s/%s", dir, name);
    CHECK(remove(victim) == 0 && mkfifo(victim, 0600) == 0);
    snprintf(want, sizeof want, "kingme: %s: cannot open: a FIFO, not a regular file\n", victim);
    CHECK_INT(kingme_in(out, sizeof out, "egdb probe --dir %s --fen B:WK30,K31:BK1", dir), 1);
    CHECK_STR(out, want);
    CHECK_INT(kingme_in(out, sizeof out, "search --egdb %s --depth 2", dir), 1);
    CHECK_STR(out, want);
    CHECK_INT(kingme_in(out, sizeof out, "engine --egdb %s < /dev/null", dir), 1);
    CHECK_STR(out, want);
    CHECK_INT(kingme_in(out, sizeof out, "egdb info --dir %s > /dev/null", dir), 1);
    CHECK_STR(out, want);
    /* a link to /dev/zero */
    CHECK(remove(victim) == 0 && symlink("/dev/zero", victim) == 0);
    CHECK_INT(kingme_in(out, sizeof out, "egdb probe --dir %s --fen B:WK30,K31:BK1", dir), 1);
    snprintf(want, sizeof want, "kingme: %s: cannot open: a character device, not a regular file\n", victim);
    CHECK_STR(out, want);
    /* a regular file of 4 GiB (holes after a sound header): refused by its
     * size, nothing of it read */
    CHECK(remove(victim) == 0);
    char from[128];
    snprintf(from, sizeof from, "%s/%s", db_dir, name);
    copy_file(from, victim, -1, -1);
    struct stat st;
    CHECK(stat(victim, &st) == 0 && truncate(victim, (off_t)4 << 30) == 0);
    char err[KM_ERR_MAX];
    Egdb *db = egdb_open(dir, 1, err);
    CHECK(db == NULL);
    snprintf(want, sizeof want, "%s: %llu bytes after the end of the data", victim,
             (unsigned long long)((4ull << 30) - (unsigned long long)st.st_size));
    CHECK_STR(err, want);
    remove_tree(dir);
}

static uint32_t test_crc32(const uint8_t *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xFFFFFFFFu;
}

static void put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Change a slice file as a damaged copy whose checksums were made again:
 * header_at/value set a header byte (or -1: none), data_bytes of the first
 * block's data set to 0xFF; then both CRC-32s recomputed. */
static void forge(const char *path, int header_at, uint8_t value, int data_bytes)
{
    char *s = NULL;
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (!f) return;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    s = malloc((size_t)n);
    CHECK(s && fread(s, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    if (!s) return;
    uint8_t *p = (uint8_t *)s;
    uint32_t nblocks = (uint32_t)p[64] | (uint32_t)p[65] << 8 | (uint32_t)p[66] << 16 | (uint32_t)p[67] << 24;
    size_t data_at = 88 + 256 + 13 + 4 * ((size_t)nblocks + 1);
    if (header_at >= 0) p[header_at] = value;
    for (int i = 0; i < data_bytes; i++) p[data_at + (size_t)i] = 0xFF;
    put_le32(p + 80, test_crc32(p + 88, (size_t)n - 88));
    put_le32(p + 84, test_crc32(p, 84));
    f = fopen(path, "wb");
    CHECK(f && fwrite(s, 1, (size_t)n, f) == (size_t)n);
    if (f) fclose(f);
    free(s);
}

/* egdb info said "checksums verified" of a slice file holding another slice
 * (probe refused it), and of a file whose damaged blocks had their checksums
 * made again, where probe printed "unknown ..., no legal move" with status 0:
 * a block that did not decode was taken for a position the database does
 * not hold. Now info checks the name and decodes every block, a block is
 * refused when it decodes to a code the slice cannot hold, and probe names
 * the damaged block or refuses a value its moves contradict. */
TEST(egdb_info_checks_what_probe_checks)
{
    if (!test_db()) return;
    char dir[64], path[128], other[128], out[4096], want[256], err[KM_ERR_MAX];
    if (!small_db(dir, sizeof dir)) return;
    snprintf(path, sizeof path, "%s/b0k2w0k1.kdb", dir);
    snprintf(other, sizeof other, "%s/b0k1w0k2.kdb", dir);
    const char *fen = "B:WK30:BK1,K2"; /* a position of b0k2w0k1 */
    CHECK_INT(kingme_in(out, sizeof out, "egdb probe --dir %s --fen %s", dir, fen), 0);
    CHECK_MSG(strncmp(out, "win for Black (to move), ", 25) == 0, "%s", out);
    char sound[4096];
    snprintf(sound, sizeof sound, "%s", out);

    /* another slice under this name */
    copy_file(other, path, -1, -1);
    snprintf(want, sizeof want, "kingme: %s: holds slice b0k1w0k2, not what its name says\n", path);
    CHECK_INT(kingme_in(out, sizeof out, "egdb info --dir %s > /dev/null", dir), 1);
    CHECK_STR(out, want);
    CHECK_INT(kingme_in(out, sizeof out, "egdb probe --dir %s --fen %s", dir, fen), 1);
    CHECK_STR(out, want);

    /* the first block's data damaged, the checksums made again */
    char from[128];
    snprintf(from, sizeof from, "%s/b0k2w0k1.kdb", db_dir);
    copy_file(from, path, -1, -1);
    forge(path, -1, 0, 8);
    snprintf(want, sizeof want, "kingme: %s: corrupt block 0\n", path);
    CHECK_INT(kingme_in(out, sizeof out, "egdb probe --dir %s --fen %s", dir, fen), 1);
    CHECK_STR(out, want);
    CHECK_INT(kingme_in(out, sizeof out, "egdb info --dir %s > /dev/null", dir), 1);
    CHECK_STR(out, want);
    EgdbSliceInfo info;
    CHECK_INT(egdb_file_info(path, &info, err), -1);
    snprintf(want, sizeof want, "%s: corrupt block 0", path);
    CHECK_STR(err, want);
    /* a search through it goes on without those positions, and says so */
    CHECK_INT(kingme_in(out, sizeof out, "search --egdb %s --depth 3 --fen %s", dir, fen), 0);
    CHECK_MSG(
        strstr(out, "corrupt block 0: the positions it holds were searched as if not in the database\n") &&
            strstr(out, "bestmove "),
        "%s", out);

    /* the header's longest win lowered to 1: the codes of longer wins are
     * then codes this slice cannot hold */
    copy_file(from, path, -1, -1);
    forge(path, 56, 1, 0);
    CHECK_INT(kingme_in(out, sizeof out, "egdb info --dir %s > /dev/null", dir), 1);
    CHECK_MSG(strstr(out, ": corrupt block ") != NULL, "%s", out);
    CHECK_INT(kingme_in(out, sizeof out, "egdb probe --dir %s --fen %s", dir, fen), 1);
    CHECK_MSG(strstr(out, ": corrupt block ") != NULL, "%s", out);

    /* a wrong value that decodes: the file is sound, the value is not; probe
     * checks the position against its moves, verify checks them all */
    EgdbGeom g;
    egdb_geom((EgdbSlice){0, 2, 0, 1}, &g);
    uint8_t *codes;
    CHECK_MSG(egdb_read_slice(from, &g, &codes, &info, err) == 0, "%s", err);
    Board b;
    CHECK(board_from_fen(&b, fen, err) == 0);
    uint64_t idx = egdb_index(&g, &b);
    CHECK(egdb_code_value(codes[idx]) == EGDB_WIN);
    codes[idx] = egdb_code_win(egdb_code_dist(codes[idx]) + 2); /* two plies too far */
    CHECK_MSG(egdb_write_slice(dir, &g, codes, false, &info, err) == 0, "%s", err);
    free(codes);
    CHECK_INT(kingme_in(out, sizeof out, "egdb info --dir %s > /dev/null", dir), 0);
    CHECK_INT(kingme_in(out, sizeof out, "egdb probe --dir %s --fen %s", dir, fen), 1);
    CHECK_STR(out, "kingme: the database's value of this position disagrees with its moves' (a damaged slice "
                   "file? kingme egdb verify checks the values)\n");
    CHECK(strcmp(out, sound) != 0);
    remove_tree(dir);
}

/* egdb_limit_pieces (CheckerBoard's Limit max pieces): the positions of
 * more pieces become unknown, the others stay; the limit only lowers. */
/* kingme egdb verify passes on the test's database: every position played
 * out is a game (a piece on each side), won as the database says. */
TEST(egdb_verify_command_passes)
{
    if (!test_db()) return;
    char cmd[512];
    static char out[4096];
    snprintf(cmd, sizeof cmd, "%s egdb verify --dir %s --check 2000 --games 200 2>&1", test_kingme(), db_dir);
    CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "%s", out);
    CHECK_MSG(strstr(out, "  won 200, within the forty-move rule 200\n") != NULL, "%s", out);
}

TEST(egdb_limit_pieces_lowers_what_is_probed)
{
    if (!test_db()) return;
    char err[KM_ERR_MAX];
    Egdb *db = egdb_open(db_dir, 1, err);
    CHECK_MSG(db != NULL, "%s", err);
    if (!db) return;
    Board three, two;
    CHECK(board_from_fen(&three, "B:WK30,K31:BK1", err) == 0);
    CHECK(board_from_fen(&two, "B:WK30:BK1", err) == 0);
    CHECK_INT(egdb_probe(db, &three, NULL), EGDB_LOSS);
    egdb_limit_pieces(db, 2);
    CHECK_INT(egdb_pieces(db), 2);
    CHECK_INT(egdb_probe(db, &three, NULL), EGDB_UNKNOWN);
    CHECK_INT(egdb_probe(db, &two, NULL), EGDB_DRAW);
    egdb_limit_pieces(db, 24); /* no raise: the database is opened again for that */
    egdb_limit_pieces(db, 0);  /* nor below one piece */
    CHECK_INT(egdb_pieces(db), 2);
    egdb_close(db);
}
