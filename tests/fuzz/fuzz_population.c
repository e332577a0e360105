/* fuzz_population.c - population files: whatever tune_parse accepts is
 * written by tune_format, read back, and written again as the same text; the
 * session read back plays on: its counters leave room for another
 * generation's games (a file once made s->games overflow). */
#include "fuzz.h"
#include "kingme/tune.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    TuneSession a, b;
    char err[KM_ERR_MAX];
    if (tune_parse(&a, text, "f.pop", err) == 0) {
        char *t1 = tune_format(&a);
        FUZZ_CHECK(t1 != NULL, "out of memory");
        FUZZ_CHECK(tune_parse(&b, t1, "out.pop", err) == 0, "written as\n%s\nrefused: %s", t1, err);
        char *t2 = tune_format(&b);
        FUZZ_CHECK(t2 && strcmp(t1, t2) == 0, "written as\n%s\nthen as\n%s", t1, t2 ? t2 : "(nothing)");
        FUZZ_CHECK(a.games >= 0 && a.games <= (long long)1e18 && a.generation >= 0,
                   "counters games %lld, generation %d", a.games, a.generation);
        free(t1);
        free(t2);
        tune_free(&a);
        tune_free(&b);
    } else {
        FUZZ_CHECK(strncmp(err, "f.pop", 5) == 0 && !strchr(err, '\n'), "message '%s'", err);
    }
    free(text);
    return 0;
}
