/* fuzz_weights.c - weights files: whatever weights_parse accepts is written
 * by weights_format (with its header comments) and read back as the same
 * 60 weights and the same header. */
#include "fuzz.h"
#include "kingme/weights.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    Weights a, b;
    char err[KM_ERR_MAX], *c1 = NULL, *c2 = NULL;
    if (weights_parse(&a, text, "f.w", &c1, err) == 0) {
        char *out = weights_format(&a, c1);
        FUZZ_CHECK(out != NULL, "out of memory");
        FUZZ_CHECK(weights_parse(&b, out, "out.w", &c2, err) == 0, "written as\n%s\nrefused: %s", out, err);
        FUZZ_CHECK(memcmp(&a, &b, sizeof a) == 0, "written as\n%s\nreads as other weights", out);
        FUZZ_CHECK(strcmp(c1, c2) == 0, "header '%s' read back as '%s'", c1, c2);
        free(out);
        free(c1);
        free(c2);
    } else {
        FUZZ_CHECK(strncmp(err, "f.w", 3) == 0 && !strchr(err, '\n'), "message '%s'", err);
    }
    free(text);
    return 0;
}
