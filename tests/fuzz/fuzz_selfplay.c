/* fuzz_selfplay.c - self-play chunk files: the input, its checksum (every
 * byte but its own eight) made right first, is written as a chunk file and
 * read by selfplay_read_chunk. A chunk it refuses leaves the data as it was
 * and says why in one line; one it accepts holds what its header says (the
 * positions, games equal to their results, each position sound) and its
 * records encode back to the bytes read (selfplay_records_checksum against
 * the file's own). */
#include "fuzz.h"
#include "kingme/bits.h"
#include "kingme/movegen.h"
#include "kingme/selfplay.h"

#include <unistd.h>

static char path[64];

static void clean_up(void) { remove(path); }

static uint32_t get32(const uint8_t *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t fnv(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!path[0]) {
        snprintf(path, sizeof path, "/tmp/kingme-fuzz-sp-%d.kmsp", (int)getpid());
        atexit(clean_up);
    }
    uint8_t *p = malloc(size + 1);
    if (!p) abort();
    if (size) memcpy(p, data, size);
    if (size >= 48) {
        uint64_t h = fnv(fnv(0xcbf29ce484222325ull, p, 40), p + 48, size - 48);
        for (int k = 0; k < 8; k++) p[40 + k] = (uint8_t)(h >> 8 * k);
    }
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (size && fwrite(p, 1, size, f) != size) abort();
    fclose(f);
    /* some data already there: a refusal must leave it whole */
    SelfplayData d = {0};
    d.games = 3;
    d.wins[2] = 3;
    char err[KM_ERR_MAX];
    uint32_t number = size >= 20 ? get32(p + 16) : 0;
    int rc = selfplay_read_chunk(path, 0, size % 2 ? -1 : (long)number, &d, err);
    if (rc) {
        FUZZ_CHECK(d.n == 0 && d.games == 3 && d.wins[2] == 3, "a refused chunk changed the data");
        FUZZ_CHECK(err[0] && !strchr(err, '\n'), "a refusal is one line: '%s'", err);
    } else {
        FUZZ_CHECK(size >= 48 && d.n == get32(p + 24), "%zu positions, the header says %u", d.n,
                   size >= 48 ? get32(p + 24) : 0);
        FUZZ_CHECK(d.games == 3 + (int)get32(p + 20), "the games were not added");
        FUZZ_CHECK(d.wins[0] + d.wins[1] + d.wins[2] == d.games, "games and results disagree");
        for (size_t i = 0; i < d.n; i++) {
            const SelfplayPos *q = &d.pos[i];
            FUZZ_CHECK(!(q->b.pieces[0] & q->b.pieces[1]) && q->result <= 2, "position %zu is not sound", i);
            FUZZ_CHECK(bits_popcount32(q->b.pieces[0]) <= 12 && bits_popcount32(q->b.pieces[1]) <= 12,
                       "position %zu: more than 12 pieces a side", i);
        }
        FUZZ_CHECK(selfplay_records_checksum(&d, 0) == fnv(0xcbf29ce484222325ull, p + 48, size - 48),
                   "the positions do not encode back to the bytes read");
    }
    selfplay_data_free(&d);
    free(p);
    return 0;
}
