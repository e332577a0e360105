/* opening.c - the ballots' texts and the openings of a match (opening.h). */
#include "kingme/opening.h"
#include "kingme/notation.h"
#include "kingme/pdn.h"
#include "kingme/textio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- ballots ----------------------------------------------------------------- */

const char *opening_ballot_status_text(BallotStatus s)
{
    switch (s) {
    case BALLOT_CROSSBOARD:
        return "crossboard";
    case BALLOT_MAILPLAY:
        return "mailplay";
    default:
        return "barred";
    }
}

void opening_ballot_line(const Ballot *b, char *buf, size_t len)
{
    snprintf(buf, len, "%d\t%s%s\t%s%s%s", b->number, opening_ballot_status_text(b->status),
             b->ctd ? ",ctd" : "", b->moves, b->name[0] ? "\t" : "", b->name);
}

/* ---- openings ------------------------------------------------------------------ */

void opening_start(Opening *o)
{
    memset(o, 0, sizeof *o);
    board_init(&o->start);
    snprintf(o->name, sizeof o->name, "start");
}

int opening_from_ballot(Opening *o, const Ballot *b, char *err)
{
    opening_start(o);
    o->ballot = b->number;
    snprintf(o->name, sizeof o->name, "ballot %d (%s)", b->number, b->moves);
    Board cur = o->start;
    char text[8 * OPENING_MAX_PLY], *tok[OPENING_MAX_PLY];
    int n = strlen(b->moves) < sizeof text ? textio_split(strcpy(text, b->moves), tok, OPENING_MAX_PLY) : -1;
    if (n < 0 || n > OPENING_MAX_PLY) return km_fail(err, "ballot %d: bad moves '%s'", b->number, b->moves);
    for (; o->nply < n; o->nply++) {
        char why[KM_ERR_MAX];
        if (notation_parse_move(&cur, tok[o->nply], &o->moves[o->nply], why))
            return km_fail(err, "ballot %d: %s", b->number, why);
        mg_make_move(&cur, &o->moves[o->nply]);
    }
    return 0;
}

int opening_list_crossboard(Opening **out, int *n, char *err)
{
    *out = NULL;
    *n = 0;
    Opening *o = malloc(BALLOT_COUNT * sizeof *o);
    if (!o) return km_fail(err, "out of memory");
    int k = 0;
    for (int i = 0; i < BALLOT_COUNT; i++) {
        if (opening_ballots[i].status != BALLOT_CROSSBOARD) continue;
        if (opening_from_ballot(&o[k], &opening_ballots[i], err)) {
            free(o);
            return -1;
        }
        k++;
    }
    *out = o;
    *n = k;
    return 0;
}

int opening_list_from_pdn(const char *path, Opening **out, int *n, char *err)
{
    *out = NULL;
    *n = 0;
    PdnGame *games;
    int ng;
    if (pdn_read_file(path, &games, &ng, err)) return -1;
    Opening *o = malloc((size_t)ng * sizeof *o);
    if (!o) {
        pdn_free_games(games, ng);
        return km_fail(err, "%s: out of memory", path);
    }
    int r = 0;
    for (int i = 0; i < ng && r == 0; i++) {
        const PdnGame *pg = &games[i];
        const Game *g = &pg->game;
        if (pg->error) {
            r = km_fail(err, "%s", pg->error);
        } else if (g->nply > OPENING_MAX_PLY) {
            r = km_fail(err, "%s: game %d (line %d) has %d plies; an opening may have at most %d", path,
                        i + 1, pg->line, g->nply, OPENING_MAX_PLY);
        } else if (g->result != GAME_ONGOING) {
            r = km_fail(err, "%s: game %d (line %d) is already over after its moves (%s)", path, i + 1,
                        pg->line, game_reason_text(g->reason));
        } else {
            memset(&o[i], 0, sizeof o[i]);
            o[i].start = g->start;
            o[i].nply = g->nply;
            memcpy(o[i].moves, g->moves, (size_t)g->nply * sizeof *g->moves);
            snprintf(o[i].name, sizeof o[i].name, "game %d (line %d)", i + 1, pg->line);
        }
    }
    pdn_free_games(games, ng);
    if (r) {
        free(o);
        return -1;
    }
    *out = o;
    *n = ng;
    return 0;
}
