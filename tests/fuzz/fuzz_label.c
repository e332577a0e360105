/* fuzz_label.c - label files (kingme label): the input, its checksum
 * (every byte but its own eight) made right first, is written as a label
 * file and read by label_read_file. A file it refuses says why in one line;
 * one it accepts holds as many labels as its header says, each a score
 * within 32000, an exact result or none, counted as the header counts
 * them. */
#include "fuzz.h"
#include "kingme/label.h"

#include <unistd.h>

static char path[64];

static void clean_up(void) { remove(path); }

static uint64_t fnv(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!path[0]) {
        snprintf(path, sizeof path, "/tmp/kingme-fuzz-lb-%d.kmlb", (int)getpid());
        atexit(clean_up);
    }
    uint8_t *p = malloc(size + 1);
    if (!p) abort();
    if (size) memcpy(p, data, size);
    if (size >= 64) {
        uint64_t h = fnv(fnv(0xcbf29ce484222325ull, p, 56), p + 64, size - 64);
        for (int k = 0; k < 8; k++) p[56 + k] = (uint8_t)(h >> 8 * k);
    }
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (size && fwrite(p, 1, size, f) != size) abort();
    fclose(f);
    LabelInfo info;
    int16_t *labels = NULL;
    size_t n = 0;
    char err[KM_ERR_MAX] = "";
    if (label_read_file(path, &info, &labels, &n, err)) {
        FUZZ_CHECK(err[0] && !strchr(err, '\n'), "a refusal is one line: '%s'", err);
        FUZZ_CHECK(labels == NULL, "a refused file gave labels");
    } else {
        FUZZ_CHECK(size == 64 + 2 * n, "%zu labels in %zu bytes", n, size);
        uint64_t exact = 0, searched = 0;
        for (size_t i = 0; i < n; i++) {
            int16_t v = labels[i];
            bool ex = v == LABEL_EXACT_WIN || v == LABEL_EXACT_DRAW || v == LABEL_EXACT_LOSS;
            FUZZ_CHECK(v == LABEL_NONE || ex || (v >= -32000 && v <= 32000), "label %zu is %d", i, v);
            exact += ex;
            searched += v != LABEL_NONE && !ex;
        }
        FUZZ_CHECK(exact == info.exact && searched == info.searched, "the counts disagree with the header");
    }
    free(labels);
    free(p);
    return 0;
}
