/* play_screen.c - what `kingme play` shows (the banner, the board with its
 * panel, the last move, the move list, error lines) and its game file. */
#include "kingme/book.h"
#include "kingme/egdb.h"
#include "play.h"

#include "kingme/bits.h"
#include "kingme/notation.h"
#include "kingme/pdn.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- small helpers ------------------------------------------------------------ */

const char *play_side_name(int side) { return side == KM_BLACK ? "Black" : "White"; }

int play_humans(const Play *P) { return !P->p[0].engine + !P->p[1].engine; }

/* "you" when one person plays, "Black"/"White" when two do. */
static const char *mover_name(const Play *P, int side)
{
    if (P->p[side].engine) return "kingme";
    return play_humans(P) == 1 ? "you" : play_side_name(side);
}

void play_clock_text(double seconds, char *buf, size_t len)
{
    if (seconds < 0) seconds = 0;
    int tenths = (int)(seconds * 10);
    snprintf(buf, len, "%d:%02d.%d", tenths / 600, tenths / 10 % 60, tenths % 10);
}

static void pieces_text(const Board *b, int side, char *buf, size_t len)
{
    int men = __builtin_popcount(board_men(b, side)), kings = __builtin_popcount(board_kings(b, side));
    if (kings)
        snprintf(buf, len, "%d %s, %d king%s", men, men == 1 ? "man" : "men", kings, kings == 1 ? "" : "s");
    else snprintf(buf, len, "%d %s", men, men == 1 ? "man" : "men");
}

int play_move_number(const Game *g, int ply) { return (ply + (g->start.stm == KM_WHITE)) / 2 + 1; }

/* ---- saving ------------------------------------------------------------------- */

static const char *result_now(const Play *P)
{
    if (P->adjudged != GAME_ONGOING) return game_result_text(P->adjudged);
    return game_result_text(P->g.result);
}

int play_save_game(const Play *P, const char *path, char *err)
{
    PdnTag tags[] = {
        {"Event", "kingme play"},
        {"Date", (char *)P->date},
        {"Black", (char *)P->p[KM_BLACK].name},
        {"White", (char *)P->p[KM_WHITE].name},
        {"Result", NULL},
    };
    return pdn_save_game(path, &P->g, tags, (int)(sizeof tags / sizeof tags[0]), result_now(P), false, err);
}

/* games/kingme-YYYYMMDD-HHMMSS.pdn, with -2, -3... when that name is taken. */
char *play_default_out(void)
{
    if (mkdir("games", 0777) != 0 && errno != EEXIST) {
        cli_error("cannot create games/: %s", strerror(errno));
        return NULL;
    }
    char stamp[32];
    cli_time_name(stamp, sizeof stamp, "%Y%m%d-%H%M%S");
    char *path = malloc(64);
    if (!path) return NULL;
    for (int n = 1; n < 1000; n++) {
        if (n == 1) snprintf(path, 64, "games/kingme-%s.pdn", stamp);
        else snprintf(path, 64, "games/kingme-%s-%d.pdn", stamp, n);
        if (access(path, F_OK) != 0) return path;
    }
    free(path);
    cli_error("games/: too many games saved this second");
    return NULL;
}

/* The first lines of the first screen: who plays whom, how to move. */
static void banner(const Play *P)
{
    const View *v = &P->v;
    char who[1024];
    if (play_humans(P) == 1) {
        int me = P->p[KM_BLACK].engine ? KM_WHITE : KM_BLACK;
        snprintf(who, sizeof who, "You play %s against %s.", play_side_name(me), P->p[me ^ 1].name);
    } else if (play_humans(P) == 2) {
        snprintf(who, sizeof who, "Black and White are both played here.");
    } else {
        snprintf(who, sizeof who, "%s (Black) against %s (White).", P->p[0].name, P->p[1].name);
    }
    /* the header fits 80 columns: the players on a line of their own when
     * the names are long */
    int head = (int)strlen("kingme " KINGME_VERSION "   ");
    printf("%skingme %s%s%s", view_sgr(v, VS_BOLD), KINGME_VERSION, view_sgr(v, VS_RESET),
           head + (int)strlen(who) <= CLI_WIDTH ? "   " : "\n");
    cli_wrap(stdout, who, 2);
    if (play_humans(P))
        printf("Type a move (11-15, 15x24, c3-d4) or its number; %shelp%s shows the commands.\n",
               view_sgr(v, VS_BOLD), view_sgr(v, VS_RESET));
    if (P->p[0].random || P->p[1].random)
        printf("The engine's weights are random, drawn from seed %" PRIu64 ".\n", P->seed);
}

void play_score_text(const Play *P, int32_t score, int side, int npieces, char *buf, size_t len)
{
    int viewer = play_humans(P) == 1 ? (P->p[KM_BLACK].engine ? KM_WHITE : KM_BLACK) : KM_BLACK;
    const char *who = play_humans(P) == 1 ? "you" : play_side_name(viewer);
    int32_t v = side == viewer ? score : -score;
    char num[64], how[96];
    snprintf(how, sizeof how, "kingme searching for %s, with %s's weights", play_side_name(side),
             play_side_name(side));
    const Weights *w = &P->p[side].w;
    int men = abs(w->phased ? phase_blend(w->w[EP_own_men], w->end[EP_own_men], npieces) : w->w[EP_own_men]);
    if (v >= SCORE_WIN_MIN || v <= -SCORE_WIN_MIN) {
        int plies = SCORE_WIN - (v > 0 ? v : -v);
        bool you = play_humans(P) == 1;
        snprintf(num, sizeof num, "%s %s in %d pl%s", who,
                 v > 0 ? (you ? "win" : "wins") : (you ? "lose" : "loses"), plies, plies == 1 ? "y" : "ies");
    } else if (v >= SCORE_DB_MIN || v <= -SCORE_DB_MIN) {
        bool you = play_humans(P) == 1;
        snprintf(num, sizeof num, "%s %s by the endgame database", who,
                 v > 0 ? (you ? "win" : "wins") : (you ? "lose" : "loses"));
    } else if (men) {
        snprintf(num, sizeof num, "%+.2f men for %s", (double)v / men, who);
    } else {
        snprintf(num, sizeof num, "%+d points for %s", (int)v, who);
    }
    snprintf(buf, len, "score %s (%s)", num, how);
}

void play_book_score_text(const Play *P, int32_t score, int side, char *buf, size_t len)
{
    int viewer = play_humans(P) == 1 ? (P->p[KM_BLACK].engine ? KM_WHITE : KM_BLACK) : KM_BLACK;
    const char *who = play_humans(P) == 1 ? "you" : play_side_name(viewer);
    int32_t v = side == viewer ? score : -score;
    const BookHeader *h = book_header(P->book);
    char num[64];
    if (v >= BOOK_SCORE_MAX || v <= -BOOK_SCORE_MAX)
        snprintf(num, sizeof num, "%s %s", who,
                 v > 0 ? (play_humans(P) == 1 ? "win" : "wins") : (play_humans(P) == 1 ? "lose" : "loses"));
    else snprintf(num, sizeof num, "%+.2f men for %s", (double)v / (h->man ? h->man : 1000), who);
    snprintf(buf, len, "score %s (the book's: kingme's search to depth %d for %s)", num, h->depth,
             play_side_name(side));
}

/* ---- drawing ------------------------------------------------------------------ */

/* The panel beside the board: the player at the top, the last moves, the
 * player at the bottom. */
void play_draw(Play *P)
{
    const Game *g = &P->g;
    const View *v = &P->v;
    if (P->clear) fputs("\033[H\033[2J", stdout);
    if (!P->drawn || P->clear) banner(P);
    P->drawn = true;

    char rows[VIEW_PANEL_ROWS][160];
    const char *panel[VIEW_PANEL_ROWS];
    for (int i = 0; i < VIEW_PANEL_ROWS; i++) {
        rows[i][0] = '\0';
        panel[i] = rows[i];
    }
    int top = v->black_bottom ? KM_WHITE : KM_BLACK;
    for (int k = 0; k < 2; k++) {
        int side = k == 0 ? top : top ^ 1;
        char pc[48], clk[24] = "";
        pieces_text(&g->cur, side, pc, sizeof pc);
        if (P->clock) {
            clk[0] = clk[1] = ' ';
            play_clock_text(P->left[side], clk + 2, sizeof clk - 2);
        }
        /* the panel's lines end at 80 columns: a long name is cut */
        char name[VIEW_PANEL_WIDTH + 1];
        const char *full = P->p[side].engine ? P->p[side].label : mover_name(P, side);
        int room = VIEW_PANEL_WIDTH - (int)strlen("White: , ") - (int)strlen(pc) - (int)strlen(clk);
        if ((int)strlen(full) <= room || room < 8) snprintf(name, sizeof name, "%s", full);
        else snprintf(name, sizeof name, "%.*s...", room - 3, full);
        snprintf(rows[k == 0 ? 0 : VIEW_PANEL_ROWS - 1], sizeof rows[0], "%s%s:%s %s, %s%s",
                 g->cur.stm == side && g->result == GAME_ONGOING ? view_sgr(v, VS_BOLD) : "",
                 play_side_name(side), view_sgr(v, VS_RESET), name, pc, clk);
    }
    /* the last moves, one numbered line per move pair */
    enum { HIST = VIEW_PANEL_ROWS - 3 };
    char hist[HIST][128];
    int nh = 0, first = 0;
    char cur[128] = "";
    for (int i = 0; i < g->nply; i++) {
        int stm = g->start.stm ^ (i & 1);
        char t[MOVE_TEXT_MAX];
        notation_move_to_text(&g->moves[i], t);
        if (stm == KM_BLACK || i == 0) {
            if (cur[0]) { /* line complete: keep the last HIST lines */
                snprintf(hist[nh % HIST], sizeof hist[0], "%s", cur);
                nh++;
            }
            if (stm == KM_BLACK) snprintf(cur, sizeof cur, "%3d. %s", play_move_number(g, i), t);
            else snprintf(cur, sizeof cur, "%3d. ...         %s", play_move_number(g, i), t);
        } else {
            size_t n = strlen(cur);
            snprintf(cur + n, sizeof cur - n, "%*s%s", n < 16 ? (int)(16 - n) : 1, "", t);
        }
    }
    if (cur[0]) {
        snprintf(hist[nh % HIST], sizeof hist[0], "%s", cur);
        nh++;
    }
    first = nh > HIST ? nh - HIST : 0;
    for (int i = first; i < nh; i++) snprintf(rows[2 + i - first], sizeof rows[0], "%s", hist[i % HIST]);
    if (nh == 0) snprintf(rows[2], sizeof rows[0], "%s", view_legend(v));

    const Move *last = g->nply ? &g->moves[g->nply - 1] : NULL;
    putchar('\n');
    view_board(stdout, v, &g->cur, last, panel);
    putchar('\n');
    if (last) {
        int side = g->cur.stm ^ 1;
        char t[MOVE_TEXT_MAX];
        notation_move_to_text(last, t);
        const EngineInfo *in = &P->info;
        if (P->p[side].engine && in->ply == g->nply - 1 && in->book) {
            char sc[200], pv[SCREEN_WIDTH - 16];
            play_book_score_text(P, in->score, side, sc, sizeof sc);
            notation_moves_to_text(in->pv, in->pv_len, pv, sizeof pv);
            printf("%s played %s%s%s   (kingme: opening book", play_side_name(side), view_sgr(v, VS_BOLD), t,
                   view_sgr(v, VS_RESET));
            if (in->choices > 1)
                printf(", one of %d moves within %.2f men", in->choices,
                       (double)P->book_margin /
                           (book_header(P->book)->man ? book_header(P->book)->man : 1000));
            printf(")\n  %s\n  book line: %s\n", sc, pv);
        } else if (P->p[side].engine && in->ply == g->nply - 1 && in->forced) {
            printf("%s played %s%s%s   (the only legal move)\n", play_side_name(side), view_sgr(v, VS_BOLD),
                   t, view_sgr(v, VS_RESET));
        } else if (P->p[side].engine && in->ply == g->nply - 1) {
            char sc[200], pv[SCREEN_WIDTH - 16];
            /* the position searched: this one with the pieces the move took */
            int npieces = bits_popcount32(board_occupied(&g->cur)) + bits_popcount32(last->captured);
            play_score_text(P, in->score, side, npieces, sc, sizeof sc);
            notation_moves_to_text(in->pv, in->pv_len, pv, sizeof pv);
            char ponder[48] = "";
            if (in->pondered > 0) snprintf(ponder, sizeof ponder, ", and %.1f s on your time", in->pondered);
            printf("%s played %s%s%s   (kingme: depth %d, %.1f s%s)\n", play_side_name(side),
                   view_sgr(v, VS_BOLD), t, view_sgr(v, VS_RESET), in->depth, in->seconds, ponder);
            printf("  %s\n  expected line: %s\n", sc, pv);
        } else {
            printf("%s played %s%s%s\n", play_side_name(side), view_sgr(v, VS_BOLD), t,
                   view_sgr(v, VS_RESET));
        }
    }
    if (P->note[0]) {
        printf("%s\n", P->note);
        P->note[0] = '\0';
    }
    if (P->egdb) { /* --egdb: what the database says of the position */
        int d, r = egdb_probe(P->egdb, &g->cur, &d);
        const char *who = play_side_name(g->cur.stm);
        if (r == EGDB_DRAW) printf("Endgame database: a draw.\n");
        else if (r != EGDB_UNKNOWN)
            printf("Endgame database: %s, to move, %s (%d pl%s to the next capture or man move).\n", who,
                   r == EGDB_WIN ? "wins" : "loses", d, d == 1 ? "y" : "ies");
    }
    P->need_draw = false;
}

void play_show_moves(const Play *P)
{
    MoveList ml;
    mg_moves(&P->g.cur, &ml);
    view_move_list(stdout, &ml, 2, SCREEN_WIDTH);
}

void play_say_error(const Play *P, const char *fmt, ...)
{
    char shown[8192];
    va_list ap;
    va_start(ap, fmt);
    cli_vshown(shown, sizeof shown, fmt, ap); /* what was typed, escaped */
    va_end(ap);
    printf("%s%s%s\n", view_sgr(&P->v, VS_ERROR), shown, view_sgr(&P->v, VS_RESET));
}

/* Write the game to its file; a failure is said, the game goes on. */
int play_autosave(const Play *P)
{
    char err[KM_ERR_MAX];
    if (P->out_stream) return 0; /* written once, at the end */
    if (play_save_game(P, P->out, err) == 0) return 0;
    play_say_error(P, "cannot save the game: %s", err);
    return -1;
}
