/* fuzz_engine.c - the engine protocol: the input's lines go to one session
 * (engine_command) until quit. Every answer is one line of text that shows
 * as it is (not empty, no newline, CR or other control byte), there is never
 * a bestmove without a go before it, and the session always ends (a stop
 * ends any search). Lines naming files (option weights, egdb, book: the
 * weights and egdb targets cover those readers) or a hash size are left
 * out, so that an input never reads a terminal or asks for gigabytes.
 *
 * Speed: every search is capped at FUZZ_NODES nodes (session_set_node_budget,
 * which also keeps ProbCut's margin from being measured), and one session
 * serves every input: engine_new's allocations (the table, the searcher)
 * cost more than most inputs, so after each input the session is put back
 * as engine_new leaves it (stop; every option an input can change: seed,
 * tiebreak, search, threads, level; newgame: the table, killers, history
 * and game). So the target runs thousands of inputs a second. */
#include "fuzz.h"
#include "kingme/base.h"
#include "kingme/engine.h"
#include "kingme/session.h"

#define FUZZ_NODES 200

typedef struct Seen {
    int lines, bestmoves;
    char bad[128];
} Seen;

static Seen *current; /* where the session's answers are counted */

static void writer(const char *line, void *user)
{
    (void)user;
    Seen *s = current;
    s->lines++;
    bool control = false;
    for (const char *p = line; *p; p++) control = control || (unsigned char)*p < 0x20 || *p == 0x7F;
    if (!line[0] || control) snprintf(s->bad, sizeof s->bad, "%.100s", line);
    if (strncmp(line, "bestmove", 8) == 0) s->bestmoves++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Engine *e;
    char *text = fuzz_text(data, size);
    Seen seen = {0, 0, ""}, reset = {0, 0, ""};
    current = &seen;
    if (!e) {
        char err[KM_ERR_MAX];
        Session *ss = session_new(1, err);
        FUZZ_CHECK(ss != NULL, "%s", err);
        session_set_node_budget(ss, FUZZ_NODES);
        e = engine_new(ss, "fuzz", writer, NULL, err);
        FUZZ_CHECK(e != NULL, "%s", err);
    }
    int gos = 0;
    for (char *line = text; line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        const char *w = line;
        while (*w == ' ' || *w == '\t' || *w == '\r') w++; /* the blanks textio_split skips */
        bool skip =
            strstr(line, "weights") || strstr(line, "egdb") || strstr(line, "book") || strstr(line, "hash");
        if (!skip) {
            if (strncmp(w, "go", 2) == 0) gos++;
            if (!engine_command(e, line)) break;
        }
        line = nl ? nl + 1 : NULL;
    }
    engine_command(e, "stop"); /* the last search's bestmove is this input's */
    FUZZ_CHECK(!seen.bad[0], "an answer that is not one line of shown text: '%s'", seen.bad);
    FUZZ_CHECK(seen.bestmoves <= gos, "%d bestmoves for %d go lines", seen.bestmoves, gos);
    /* back to the session engine_new made: no answer expected */
    current = &reset;
    static const char *const fresh[] = {"option seed 1", "option tiebreak first", "option search selective",
                                        "option threads 1", "option level 10"};
    for (size_t i = 0; i < sizeof fresh / sizeof *fresh; i++) engine_command(e, fresh[i]);
    /* only a search changes the table, killers and history: without one the
     * game alone is new (newgame clears a megabyte) */
    engine_command(e, gos ? "newgame" : "position start");
    FUZZ_CHECK(reset.lines == 0, "the reset answered '%s'", reset.bad[0] ? reset.bad : "something");
    free(text);
    return 0;
}
