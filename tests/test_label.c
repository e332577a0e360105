/* test_label.c - kingme label: self-play positions scored again, by the
 * endgame database where it knows them and by a deeper search elsewhere; the
 * same labels on any number of threads, a chunk labelled before kept, a
 * corrupt or foreign label file refused, and kingme fit --labels taking an
 * exact label as the target. */
#include "kingme/bits.h"
#include "kingme/egdb.h"
#include "kingme/label.h"
#include "kingme/movegen.h"
#include "kingme/selfplay.h"
#include "kingme/weights.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool same_file(const char *a, const char *b)
{
    char cmd[1100], out[256];
    snprintf(cmd, sizeof cmd, "cmp -s %s %s", a, b);
    return test_run(cmd, out, sizeof out) == 0;
}

/* Games to label: played to their end (no database ends them), so that
 * their last positions are small endings the test database knows. */
static bool play_games(const char *dir)
{
    char cmd[1200], out[4096];
    snprintf(cmd, sizeof cmd,
             "%s selfplay --games 6 --chunk 3 --nodes 400 --random-plies 4 --seed 3 --no-egdb -j 2 --out %s "
             "2>/dev/null",
             test_kingme(), dir);
    return test_run(cmd, out, sizeof out) == 0;
}

TEST(label_positions_and_files)
{
    const Egdb *db = test_db();
    if (!db) return;
    char dir[256], a[300], b[300], path[400], path2[400], cmd[1200], out[4096];
    test_fresh_dir("label", dir, sizeof dir, "files");
    snprintf(a, sizeof a, "%s/games/a", dir); /* selfplay makes the missing folders */
    snprintf(b, sizeof b, "%s/b", dir);
    CHECK(play_games(a));
    snprintf(cmd, sizeof cmd, "cp -r %s %s", a, b);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);

    LabelConfig c;
    label_config_default(&c);
    c.nodes = 3000;
    c.min_pieces = 2;
    c.max_pieces = 8;
    c.hash_mb = 1;
    weights_default(&c.weights);
    c.egdb = db;
    char err[KM_ERR_MAX] = "";
    LabelTotals ta, tb;
    CHECK_MSG(label_run(&c, a, 2, NULL, NULL, NULL, &ta, err) == 0, "%s", err);
    CHECK_MSG(label_run(&c, b, 1, NULL, NULL, NULL, &tb, err) == 0, "%s", err);
    /* the same labels on two threads and one */
    for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof path, "%s/lb-00000%d.kmlb", a, k);
        snprintf(path2, sizeof path2, "%s/lb-00000%d.kmlb", b, k);
        CHECK_MSG(same_file(path, path2), "chunk %d: two threads and one labelled differently", k);
    }
    CHECK(ta.exact == tb.exact && ta.searched == tb.searched && ta.positions == tb.positions);
    CHECK(ta.exact > 0 && ta.searched > 0);

    /* each position as label.h says: the database's result where it knows
     * it, no label outside the pieces or with a capture pending */
    SelfplayData d = {0}, l = {0};
    CHECK_MSG(selfplay_read_dir(a, &d, err) == 0, "%s", err);
    CHECK_MSG(selfplay_read_dir(a, &l, err) == 0, "%s", err);
    LabelInfo info;
    CHECK_MSG(label_apply_dir(a, &l, 0, &info, err) == 0, "%s", err);
    CHECK(info.exact == ta.exact && info.searched == ta.searched && info.nodes == 3000);
    CHECK(info.min_pieces == 2 && info.max_pieces == 8 && info.egdb_pieces == egdb_pieces(db));
    int in_db = 0, changed = 0;
    for (size_t i = 0; i < d.n; i++) {
        const Board *bd = &d.pos[i].b;
        int pieces = bits_popcount32(board_occupied(bd));
        bool chosen = pieces > 2 && pieces <= 8 && !mg_can_capture(bd, bd->stm);
        if (!chosen) {
            CHECK(l.pos[i].score == d.pos[i].score && l.pos[i].result == d.pos[i].result);
            continue;
        }
        if (pieces <= egdb_pieces(db)) {
            int v = egdb_probe(db, bd, NULL);
            CHECK(v != EGDB_UNKNOWN);
            CHECK_INT(l.pos[i].score, SELFPLAY_NO_SCORE);
            CHECK_INT(l.pos[i].result, v == EGDB_WIN ? 2 : v == EGDB_DRAW ? 1 : 0);
            in_db++;
        } else if (l.pos[i].score == SELFPLAY_NO_SCORE) {
            CHECK(l.pos[i].result == 0 || l.pos[i].result == 2); /* a proven win or loss */
        } else {
            CHECK(l.pos[i].score >= -32000 && l.pos[i].score <= 32000);
            CHECK(l.pos[i].result == d.pos[i].result);
        }
        changed += l.pos[i].score != d.pos[i].score || l.pos[i].result != d.pos[i].result;
    }
    CHECK(in_db > 0 && changed > 0);
    selfplay_data_free(&d);
    selfplay_data_free(&l);

    /* labelled before with the same settings: kept (the file is not
     * written again); other settings: labelled again */
    snprintf(path, sizeof path, "%s/lb-000000.kmlb", a);
    snprintf(cmd, sizeof cmd, "touch -d 2001-01-01 %s", path);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(label_run(&c, a, 2, NULL, NULL, NULL, &ta, err) == 0, "%s", err);
    snprintf(cmd, sizeof cmd, "test %s -ot %s/sp-000000.kmsp", path, a);
    CHECK_MSG(test_run(cmd, out, sizeof out) == 0, "a chunk labelled before was labelled again");
    c.nodes = 2000;
    CHECK_MSG(label_run(&c, a, 2, NULL, NULL, NULL, &ta, err) == 0, "%s", err);
    CHECK_MSG(test_run(cmd, out, sizeof out) != 0, "other settings did not label again");

    /* the command line: a corrupt label file, another chunk's, none */
    const char *k = test_kingme();
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (f) {
        fseek(f, 70, SEEK_SET);
        fputc(0x55, f);
        fclose(f);
    }
    snprintf(cmd, sizeof cmd, "%s fit %s --labels --epochs 2 --out %s/w.w", k, a, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    CHECK_MSG(strstr(out, "lb-000000.kmlb: checksum mismatch (the file is corrupt)"), "%s", out);
    snprintf(cmd, sizeof cmd, "cp %s/lb-000001.kmlb %s", a, path);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    snprintf(cmd, sizeof cmd, "%s fit %s --labels --epochs 2 --out %s/w.w", k, a, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    CHECK_MSG(strstr(out, "lb-000000.kmlb: the labels of other games than"), "%s", out);
    CHECK(unlink(path) == 0);
    CHECK_INT(test_run(cmd, out, sizeof out), 1);
    CHECK_MSG(strstr(out, "lb-000000.kmlb: no labels for"), "%s", out);
    CHECK(access(dir, F_OK) == 0);
    snprintf(cmd, sizeof cmd, "%s label %s --max-pieces 4 --min-pieces 5", k, a);
    CHECK_INT(test_run(cmd, out, sizeof out), 2);
    CHECK_MSG(strstr(out, "--max-pieces 4 leaves no position above --min-pieces 5"), "%s", out);

    /* kingme label and kingme fit --labels --pull-prior on the other copy:
     * the fit reads the labels and says so in the weights file */
    snprintf(cmd, sizeof cmd, "%s label %s --nodes 500 --max-pieces 12 --no-egdb -j 2 2>/dev/null", k, b);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "label: ") && strstr(out, " by search"), "%s", out);
    snprintf(cmd, sizeof cmd, "%s fit %s --labels --pull-prior --epochs 3 -j 2 --out %s/w.w 2>&1", k, b, dir);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK_MSG(strstr(out, "labels of the positions of 6 to 12 pieces"), "%s", out);
    snprintf(path, sizeof path, "%s/w.w", dir);
    char *w = test_slurp(path);
    CHECK(w && strstr(w, " --labels --pull-prior"));
    free(w);
    test_remove_dir(dir);
}
