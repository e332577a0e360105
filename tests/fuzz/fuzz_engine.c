/* fuzz_engine.c - the engine protocol: the input's lines go to one session
 * (engine_command) until quit. Every answer is one line (no newline or CR,
 * not empty), there is never a bestmove without a go before it, and the
 * session always ends (engine_free stops any search). Lines naming files
 * (option weights: the weights target covers the reader) or a hash size are
 * left out, so that an input never reads a terminal or asks for gigabytes. */
#include "fuzz.h"
#include "kingme/base.h"
#include "kingme/engine.h"

typedef struct Seen {
    int lines, bestmoves;
    char bad[128];
} Seen;

static void writer(const char *line, void *user)
{
    Seen *s = user;
    s->lines++;
    if (!line[0] || strchr(line, '\n') || strchr(line, '\r')) snprintf(s->bad, sizeof s->bad, "%.100s", line);
    if (strncmp(line, "bestmove", 8) == 0) s->bestmoves++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    Seen seen = {0, 0, ""};
    char err[KM_ERR_MAX];
    Session *ss = session_new(1, err);
    FUZZ_CHECK(ss != NULL, "%s", err);
    Engine *e = engine_new(ss, "fuzz", writer, &seen, err);
    FUZZ_CHECK(e != NULL, "%s", err);
    int gos = 0;
    for (char *line = text; line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        const char *w = line;
        while (*w == ' ' || *w == '\t') w++;
        bool skip = strstr(line, "weights") || strstr(line, "hash");
        if (!skip) {
            if (strncmp(w, "go", 2) == 0) gos++;
            if (!engine_command(e, line)) break;
        }
        line = nl ? nl + 1 : NULL;
    }
    engine_free(e);
    FUZZ_CHECK(!seen.bad[0], "an answer that is not one line: '%s'", seen.bad);
    FUZZ_CHECK(seen.bestmoves <= gos, "%d bestmoves for %d go lines", seen.bestmoves, gos);
    free(text);
    return 0;
}
