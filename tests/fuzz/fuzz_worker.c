/* fuzz_worker.c - the worker protocol, both sides' readers: the input's
 * lines go to one worker (worker_handle_line), except the lines that would
 * run a search (job, score, selfplay), which only their parsers read; every
 * line is also read as a hello and as a game's result. Every answer is one
 * error line of text (no newline or other control byte); a selfplay or score
 * line that parses writes back to a line that parses to the same job; a
 * file's data lines either fill it (checked against its hash) or are
 * refused. One worker serves every input: the files it keeps are bounded. */
#include "fuzz.h"
#include "kingme/book_build.h"
#include "kingme/selfplay.h"
#include "kingme/textio.h"
#include "kingme/worker.h"
#include "kingme/worker_proto.h"

static char **tok;

static int split(char *copy, const char *line)
{
    strcpy(copy, line);
    return textio_split(copy, tok, WPROTO_LINE_MAX / 2);
}

static void round_trip_selfplay(const char *line, char *copy)
{
    char err[KM_ERR_MAX];
    WprotoSelfplay a, b;
    memset(&a, 0, sizeof a); /* the strings' bytes after their NUL compare too */
    memset(&b, 0, sizeof b);
    int nt = split(copy, line);
    if (nt < 1 || strcmp(tok[0], "selfplay") != 0 || wproto_parse_selfplay(tok, nt, &a, err)) return;
    char *again = wproto_selfplay_line(&a);
    FUZZ_CHECK(again != NULL, "out of memory");
    nt = split(copy, again);
    FUZZ_CHECK(wproto_parse_selfplay(tok, nt, &b, err) == 0, "%s: %s", again, err);
    FUZZ_CHECK(memcmp(&a, &b, sizeof a) == 0, "%s: another job", again);
    free(again);
}

static void round_trip_score(const char *line, char *copy)
{
    char err[KM_ERR_MAX];
    WprotoScore a, b;
    int nt = split(copy, line);
    if (nt < 1 || strcmp(tok[0], "score") != 0 || wproto_parse_score(tok, nt, &a, err)) return;
    char *again = wproto_score_line(&a);
    FUZZ_CHECK(again != NULL, "out of memory");
    nt = split(copy, again);
    FUZZ_CHECK(wproto_parse_score(tok, nt, &b, err) == 0, "%s: %s", again, err);
    FUZZ_CHECK(a.n == b.n && a.depth == b.depth && a.hash_mb == b.hash_mb &&
                   strcmp(a.vector, b.vector) == 0 && memcmp(&a.b, &b.b, sizeof a.b) == 0,
               "%s: another position", again);
    free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static WorkerState *ws;
    static WprotoJob *job;
    static char *copy;
    if (!ws) {
        ws = worker_state_new(NULL, NULL);
        FUZZ_CHECK(ws && selfplay_worker_kind(ws) == 0 && book_build_worker_kind(ws) == 0, "out of memory");
        tok = malloc((WPROTO_LINE_MAX / 2 + 2) * sizeof *tok);
        job = malloc(sizeof *job);
        copy = malloc(WPROTO_LINE_MAX + 1);
        FUZZ_CHECK(tok && job && copy, "out of memory");
    }
    if (size > WPROTO_LINE_MAX) return 0;
    char *text = fuzz_text(data, size), err[KM_ERR_MAX];
    for (char *line = text; line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        int nt = split(copy, line);
        bool runs =
            nt > 0 && (!strcmp(tok[0], "job") || !strcmp(tok[0], "score") || !strcmp(tok[0], "selfplay"));
        if (nt > 0 && !strcmp(tok[0], "job")) wproto_parse_job(tok, nt, job, err);
        round_trip_selfplay(line, copy);
        round_trip_score(line, copy);
        WprotoHello h;
        wproto_parse_hello(line, &h, err);
        nt = split(copy, line);
        MatchOutcome o;
        if (nt > 0 && !strcmp(tok[0], "result") && wproto_parse_result(tok, nt, NULL, &o, err) == 0)
            game_free(&o.game);
        if (!runs) {
            char *ans = worker_handle_line(ws, line);
            if (ans) {
                FUZZ_CHECK(strncmp(ans, "error ", 6) == 0, "'%.60s' answered '%.100s'", line, ans);
                for (const char *p = ans; *p; p++)
                    FUZZ_CHECK((unsigned char)*p >= 0x20 && *p != 0x7F, "a control byte in '%.100s'", ans);
                free(ans);
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    return 0;
}
