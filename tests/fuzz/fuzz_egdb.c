/* fuzz_egdb.c - the endgame database's slice files: the input is written as
 * a slice file (its two CRC-32 checksums made right first, else nearly every
 * input would stop there) and read with egdb_file_info and egdb_read_slice.
 * A file that decodes whole is written again by egdb_write_slice and must
 * decode to the same values and counts: a round trip through the encoder. */
#include "../../src/egdb_impl.h"
#include "fuzz.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

static uint32_t crc32(const uint8_t *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = c & 1 ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    }
    return ~c;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static char dir[64], dir2[64];

/* The scratch files go when the fuzzer exits. */
static void remove_dir(const char *d)
{
    DIR *h = opendir(d);
    if (h) {
        struct dirent *e;
        char p[400];
        while ((e = readdir(h)))
            if (e->d_name[0] != '.') {
                snprintf(p, sizeof p, "%s/%s", d, e->d_name);
                remove(p);
            }
        closedir(h);
    }
    rmdir(d);
}

static void clean_up(void)
{
    remove_dir(dir2);
    remove_dir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/kingme-fuzz-egdb-%d", (int)getpid());
        snprintf(dir2, sizeof dir2, "%s/again", dir);
        mkdir(dir, 0700);
        mkdir(dir2, 0700);
        atexit(clean_up);
    }
    uint8_t *f = malloc(size ? size : 1);
    if (!f) abort();
    if (size) memcpy(f, data, size);
    if (size >= 88) {
        put32(f + 80, crc32(f + 88, size - 88));
        put32(f + 84, crc32(f, 84));
    }
    /* the name must match the slice the header names */
    EgdbSlice s = {size >= 16 ? f[12] : 1, size >= 16 ? f[13] : 0, size >= 16 ? f[14] : 1,
                   size >= 16 ? f[15] : 0};
    bool named = s.bm <= 6 && s.bk <= 6 && s.wm <= 6 && s.wk <= 6 && s.bm + s.bk + s.wm + s.wk >= 1 &&
                 s.bm + s.bk + s.wm + s.wk <= EGDB_MAX_PIECES;
    if (!named) s = (EgdbSlice){1, 0, 1, 0};
    char name[16], path[128], path2[128], err[KM_ERR_MAX];
    egdb_slice_name(s, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(path2, sizeof path2, "%s/%s", dir2, name);
    FILE *fp = fopen(path, "wb");
    FUZZ_CHECK(fp && fwrite(f, 1, size, fp) == size && fclose(fp) == 0, "cannot write %s", path);
    EgdbSliceInfo info, info2, info3;
    if (egdb_file_info(path, &info, err) == 0) {
        FUZZ_CHECK(info.file_bytes == size, "%llu bytes for %zu", (unsigned long long)info.file_bytes, size);
        EgdbGeom g;
        egdb_geom(s, &g);
        uint8_t *c1 = NULL, *c2 = NULL, *c3 = NULL;
        /* (a header may claim a huge slice with one huge block: not decoded) */
        if (g.size <= (1u << 22) && egdb_read_slice(path, &g, &c1, &info2, err) == 0) {
            /* the writer normalises what the probe never asks (holes...), so
             * the round trip is checked from the second writing on */
            FUZZ_CHECK(egdb_write_slice(dir2, &g, c1, false, &info3, err) == 0, "%s", err);
            FUZZ_CHECK(egdb_read_slice(path2, &g, &c2, &info2, err) == 0, "written again: %s", err);
            FUZZ_CHECK(egdb_write_slice(dir2, &g, c2, false, &info3, err) == 0, "%s", err);
            FUZZ_CHECK(egdb_read_slice(path2, &g, &c3, &info, err) == 0, "written a third time: %s", err);
            FUZZ_CHECK(memcmp(c2, c3, g.size) == 0, "the values change when written again");
            FUZZ_CHECK(info.wins == info3.wins && info.losses == info3.losses && info.draws == info3.draws,
                       "the counts change when read back");
            free(c1);
            free(c2);
            free(c3);
        } else if (g.size <= (1u << 22)) {
            FUZZ_CHECK(!strchr(err, '\n'), "message '%s'", err);
        }
    } else {
        FUZZ_CHECK(err[0] && !strchr(err, '\n'), "message '%s'", err);
    }
    free(f);
    return 0;
}
