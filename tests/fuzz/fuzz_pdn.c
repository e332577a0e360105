/* fuzz_pdn.c - PDN: every game pdn_parse replays without error is written
 * by pdn_format_game and read back as one game with the same start, the same
 * moves, the same result and the same tags (FEN and Result are written from
 * the game itself, SetUp dropped). Games with an error are only required to have a
 * one-line message. */
#include "fuzz.h"
#include "kingme/pdn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    PdnGame *games;
    int n;
    char err[KM_ERR_MAX];
    if (pdn_parse(text, "f.pdn", &games, &n, err) != 0) {
        FUZZ_CHECK(err[0] != '\0' && !strchr(err, '\n'), "refused without one line of message");
        free(text);
        return 0;
    }
    FUZZ_CHECK(n >= 1, "%d games", n);
    for (int i = 0; i < n; i++) {
        const PdnGame *g = &games[i];
        if (g->error) {
            FUZZ_CHECK(!strchr(g->error, '\n'), "game %d: a message of several lines", i + 1);
            continue;
        }
        char *out = pdn_format_game(&g->game, g->tags, g->ntags, g->result);
        FUZZ_CHECK(out != NULL, "out of memory");
        PdnGame *back;
        int nb;
        FUZZ_CHECK(pdn_parse(out, "out.pdn", &back, &nb, err) == 0, "game %d written as\n%s\nrefused: %s",
                   i + 1, out, err);
        FUZZ_CHECK(nb == 1, "game %d written as\n%s\nreads as %d games", i + 1, out, nb);
        const PdnGame *h = &back[0];
        FUZZ_CHECK(h->error == NULL, "game %d written as\n%s\nreads with: %s", i + 1, out, h->error);
        FUZZ_CHECK(board_equal(&g->game.start, &h->game.start), "game %d: another start in\n%s", i + 1, out);
        FUZZ_CHECK(g->game.nply == h->game.nply, "game %d: %d plies, %d read back from\n%s", i + 1,
                   g->game.nply, h->game.nply, out);
        for (int k = 0; k < g->game.nply; k++)
            FUZZ_CHECK(mg_move_equal(&g->game.moves[k], &h->game.moves[k]), "game %d: ply %d differs in\n%s",
                       i + 1, k + 1, out);
        FUZZ_CHECK(strcmp(g->result, h->result) == 0, "game %d: result '%s' read back as '%s'", i + 1,
                   g->result, h->result);
        for (int t = 0; t < g->ntags; t++) {
            const char *name = g->tags[t].name;
            if (!strcmp(name, "FEN") || !strcmp(name, "SetUp") || !strcmp(name, "Result")) continue;
            const char *v = pdn_tag(h, name);
            FUZZ_CHECK(v != NULL, "game %d: tag '%s' lost in\n%s", i + 1, name, out);
            /* the first tag of that name: a repeated name reads back as its first value */
            FUZZ_CHECK(strcmp(v, pdn_tag(g, name)) == 0, "game %d: tag %s '%s' read back as '%s'", i + 1,
                       name, pdn_tag(g, name), v);
        }
        pdn_free_games(back, nb);
        free(out);
    }
    pdn_free_games(games, n);
    free(text);
    return 0;
}
