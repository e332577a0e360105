/* play.c - kingme play: a game of draughts in a terminal, a person against the
 * engine (or two people, or two engines).
 *
 * The loop: draw the board, then either let the engine side search and play,
 * or read one line from the person and act on it: a move (numbers,
 * coordinates, or its number in the list) or a command. Anything that cannot
 * be done gets one line saying why and changes nothing. The game is written
 * as PDN after every move (atomically), so quitting, end of input, Ctrl-C or a
 * closed terminal never lose it. */
#include "cli.h"
#include "view.h"

#include "kingme/game.h"
#include "kingme/notation.h"
#include "kingme/pdn.h"
#include "kingme/search.h"
#include "kingme/weights.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_SECONDS 1.0   /* the engine's time a move when none is given */
#define DEFAULT_MAX_PLIES 400 /* cap of engine-against-engine games */
#define HASH_MB 64
#define LINE_KEEP 256         /* longer input lines are refused as a whole */
#define PV_SHOW 16            /* moves of the expected line kept (as many as fit are shown) */
#define SCREEN_WIDTH 78

typedef struct Player {
    bool engine;
    const char *wpath; /* weights file; NULL: built-in default or random */
    bool random;       /* weights drawn at random (--random-weights) */
    Weights w;
    char name[400];    /* for the PDN tags and the panel */
    Searcher *s;       /* engines only */
} Player;

/* What the engine said about its last move. */
typedef struct EngineInfo {
    int ply; /* the ply it played; -1: none */
    bool forced; /* it was the only legal move */
    int depth;
    int32_t score;
    double seconds;
    int pv_len;
    Move pv[PV_SHOW];
} EngineInfo;

typedef struct Play {
    Game g;
    Player p[2];
    View v;
    SearchLimits lim;
    char limit_text[32]; /* "1 s", "depth 6" */
    int max_plies;       /* 0: no cap */
    uint64_t seed;
    bool seed_given;
    bool tty_in, tty_out;
    bool clear;          /* redraw on a cleared screen (fancy mode) */
    bool need_draw;
    bool drawn;          /* the first screen is out */
    char *out;           /* the game's PDN file */
    char date[16];
    EngineInfo info;
    Searcher *hint;      /* made on the first hint */
    GameResult adjudged; /* resignation */
    const char *adjudged_why;
} Play;

/* ---- Ctrl-C: stop a search or the prompt, then save and leave ------------- */

static volatile sig_atomic_t interrupted;
static _Atomic(Searcher *) searching;

static void on_interrupt(int sig)
{
    (void)sig;
    interrupted = 1;
    Searcher *s = atomic_load(&searching);
    if (s) atomic_store(&s->stop, 1);
}

static void catch_interrupts(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: a read at the prompt returns at once */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

/* ---- small helpers ------------------------------------------------------------ */

static const char *side_name(int side) { return side == KM_BLACK ? "Black" : "White"; }

static int humans(const Play *P) { return !P->p[0].engine + !P->p[1].engine; }

/* "you" when one person plays, "Black"/"White" when two do. */
static const char *mover_name(const Play *P, int side)
{
    if (P->p[side].engine) return "kingme";
    return humans(P) == 1 ? "you" : side_name(side);
}

/* The moves of a line, as many as fit in len - 1 characters (then "..."). */
static void pv_text(const Move *pv, int n, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        char t[MOVE_TEXT_MAX];
        move_to_text(&pv[i], t);
        if (k + strlen(t) + 5 >= len) {
            snprintf(buf + k, len - k, " ...");
            return;
        }
        k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? " " : "", t);
    }
}

static void pieces_text(const Board *b, int side, char *buf, size_t len)
{
    int men = __builtin_popcount(board_men(b, side)), kings = __builtin_popcount(board_kings(b, side));
    if (kings)
        snprintf(buf, len, "%d %s, %d king%s", men, men == 1 ? "man" : "men", kings, kings == 1 ? "" : "s");
    else
        snprintf(buf, len, "%d %s", men, men == 1 ? "man" : "men");
}

static int move_number(const Game *g, int ply) { return (ply + (g->start.stm == KM_WHITE)) / 2 + 1; }

/* ---- saving ------------------------------------------------------------------- */

static const char *result_now(const Play *P)
{
    if (P->adjudged != GAME_ONGOING) return game_result_text(P->adjudged);
    return game_result_text(P->g.result);
}

static int save_game(const Play *P, const char *path, char *err)
{
    PdnTag tags[] = {
        {"Event", "kingme play"}, {"Date", (char *)P->date},
        {"Black", (char *)P->p[KM_BLACK].name}, {"White", (char *)P->p[KM_WHITE].name},
        {"Result", NULL},
    };
    return pdn_save_game(path, &P->g, tags, (int)(sizeof tags / sizeof tags[0]), result_now(P), false, err);
}

/* games/kingme-YYYYMMDD-HHMMSS.pdn, with -2, -3... when that name is taken. */
static char *default_out(void)
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
    printf("%skingme %s%s   ", view_sgr(v, VS_BOLD), KINGME_VERSION, view_sgr(v, VS_RESET));
    if (humans(P) == 1) {
        int me = P->p[KM_BLACK].engine ? KM_WHITE : KM_BLACK;
        printf("You play %s against %s.\n", side_name(me), P->p[me ^ 1].name);
    } else if (humans(P) == 2) {
        printf("Black and White are both played here.\n");
    } else {
        printf("%s (Black) against %s (White).\n", P->p[0].name, P->p[1].name);
    }
    if (humans(P))
        printf("Type a move (11-15, 15x24, c3-d4) or its number in the list; %shelp%s shows the commands.\n",
               view_sgr(v, VS_BOLD), view_sgr(v, VS_RESET));
    if (P->p[0].random || P->p[1].random)
        printf("The engine's weights are random, drawn from seed %" PRIu64 ".\n", P->seed);
}

/* ---- drawing ------------------------------------------------------------------ */

/* The panel beside the board: the player at the top, the last moves, the
 * player at the bottom. */
static void draw(Play *P)
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
        char pc[48];
        pieces_text(&g->cur, side, pc, sizeof pc);
        snprintf(rows[k == 0 ? 0 : VIEW_PANEL_ROWS - 1], sizeof rows[0], "%s%s:%s %.60s, %s",
                 g->cur.stm == side && g->result == GAME_ONGOING ? view_sgr(v, VS_BOLD) : "",
                 side_name(side), view_sgr(v, VS_RESET),
                 P->p[side].engine ? P->p[side].name : mover_name(P, side), pc);
    }
    /* the last moves, one numbered line per move pair */
    enum { HIST = VIEW_PANEL_ROWS - 3 };
    char hist[HIST][128];
    int nh = 0, first = 0;
    char cur[128] = "";
    for (int i = 0; i < g->nply; i++) {
        int stm = g->start.stm ^ (i & 1);
        char t[MOVE_TEXT_MAX];
        move_to_text(&g->moves[i], t);
        if (stm == KM_BLACK || i == 0) {
            if (cur[0]) { /* line complete: keep the last HIST lines */
                snprintf(hist[nh % HIST], sizeof hist[0], "%s", cur);
                nh++;
            }
            if (stm == KM_BLACK) snprintf(cur, sizeof cur, "%3d. %s", move_number(g, i), t);
            else snprintf(cur, sizeof cur, "%3d. ...         %s", move_number(g, i), t);
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
        move_to_text(last, t);
        const EngineInfo *in = &P->info;
        if (P->p[side].engine && in->ply == g->nply - 1 && in->forced) {
            printf("%s played %s%s%s   (the only legal move)\n", side_name(side), view_sgr(v, VS_BOLD), t,
                   view_sgr(v, VS_RESET));
        } else if (P->p[side].engine && in->ply == g->nply - 1) {
            char sc[32], pv[SCREEN_WIDTH - 16];
            search_score_text(in->score, sc, sizeof sc);
            pv_text(in->pv, in->pv_len, pv, sizeof pv);
            printf("%s played %s%s%s   (kingme: depth %d, score %s%s for %s, %.1f s)\n", side_name(side),
                   view_sgr(v, VS_BOLD), t, view_sgr(v, VS_RESET), in->depth,
                   in->score > 0 && in->score < SCORE_WIN_MIN ? "+" : "", sc, side_name(side), in->seconds);
            printf("  expected line: %s\n", pv);
        } else {
            printf("%s played %s%s%s\n", side_name(side), view_sgr(v, VS_BOLD), t, view_sgr(v, VS_RESET));
        }
    }
    P->need_draw = false;
}

static void show_moves(const Play *P)
{
    MoveList ml;
    gen_moves(&P->g.cur, &ml);
    view_move_list(stdout, &ml, 2, SCREEN_WIDTH);
}

static void say_error(const Play *P, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say_error(const Play *P, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(view_sgr(&P->v, VS_ERROR), stdout);
    vprintf(fmt, ap);
    fputs(view_sgr(&P->v, VS_RESET), stdout);
    putchar('\n');
    va_end(ap);
}

/* Write the game to its file; a failure is said, the game goes on. */
static int autosave(const Play *P)
{
    char err[KM_ERR_MAX];
    if (save_game(P, P->out, err) == 0) return 0;
    say_error(P, "cannot save the game: %s", err);
    return -1;
}

/* ---- the engine --------------------------------------------------------------- */

static void thinking(const Play *P, const char *who)
{
    if (!P->tty_out) return;
    printf("%s%s is thinking...%s", view_sgr(&P->v, VS_DIM), who, view_sgr(&P->v, VS_RESET));
    fflush(stdout);
}

static void thinking_done(const Play *P)
{
    if (P->tty_out) fputs("\r\033[K", stdout);
}

/* Search the current position with s. Returns 0, 1 when interrupted, -1 when
 * out of memory. */
static int run_search(Play *P, Searcher *s, SearchResult *r)
{
    atomic_store(&searching, s);
    int rc = search_run(s, &P->g.cur, P->g.keys, P->g.nply, game_quiet_plies(&P->g), &P->lim, r, NULL, NULL);
    atomic_store(&searching, NULL);
    if (rc) return -1;
    return interrupted ? 1 : 0;
}

static int engine_move(Play *P)
{
    int side = P->g.cur.stm;
    char who[32];
    snprintf(who, sizeof who, "kingme (%s)", side_name(side));
    thinking(P, who);
    SearchResult r;
    int rc = run_search(P, P->p[side].s, &r);
    thinking_done(P);
    if (rc) return rc;
    if (!r.has_move) return -1; /* cannot happen: the game would be over */
    EngineInfo *in = &P->info;
    in->ply = P->g.nply;
    in->forced = count_moves(&P->g.cur) == 1;
    in->depth = r.depth;
    in->score = r.score;
    in->seconds = r.seconds;
    in->pv_len = r.pv_len < PV_SHOW ? r.pv_len : PV_SHOW;
    memcpy(in->pv, r.pv, (size_t)in->pv_len * sizeof(Move));
    if (in->pv_len == 0 || !move_equal(&in->pv[0], &r.best)) { /* the line starts with the move */
        in->pv[0] = r.best;
        in->pv_len = 1;
    }
    return game_play(&P->g, &r.best) ? -1 : 0;
}

static int hint(Play *P)
{
    int side = P->g.cur.stm;
    char err[KM_ERR_MAX];
    MoveList ml;
    gen_moves(&P->g.cur, &ml);
    if (ml.count == 1) {
        char t[MOVE_TEXT_MAX];
        move_to_text(&ml.moves[0], t);
        printf("hint: %s%s%s, the only legal move\n", view_sgr(&P->v, VS_BOLD), t, view_sgr(&P->v, VS_RESET));
        return 0;
    }
    if (!P->hint) {
        P->hint = malloc(sizeof *P->hint);
        if (!P->hint || searcher_init(P->hint, &P->p[side].w, HASH_MB, P->seed ^ 0x68696E74ull, err)) {
            free(P->hint);
            P->hint = NULL;
            say_error(P, "no hint: out of memory");
            return 0;
        }
    } else {
        searcher_set_weights(P->hint, &P->p[side].w);
    }
    thinking(P, "kingme");
    SearchResult r;
    int rc = run_search(P, P->hint, &r);
    thinking_done(P);
    if (rc) return rc;
    char t[MOVE_TEXT_MAX], sc[32], pv[SCREEN_WIDTH - 16];
    move_to_text(&r.best, t);
    search_score_text(r.score, sc, sizeof sc);
    pv_text(r.pv, r.pv_len < PV_SHOW ? r.pv_len : PV_SHOW, pv, sizeof pv);
    int idx = 0;
    for (int i = 0; i < ml.count; i++)
        if (move_equal(&ml.moves[i], &r.best)) idx = i + 1;
    printf("hint: %s%s%s, number %d in the list   (kingme: depth %d, score %s%s for %s)\n",
           view_sgr(&P->v, VS_BOLD), t, view_sgr(&P->v, VS_RESET), idx, r.depth,
           r.score > 0 && r.score < SCORE_WIN_MIN ? "+" : "", sc, side_name(side));
    printf("  expected line: %s\n", pv);
    return 0;
}

/* ---- the person --------------------------------------------------------------- */

/* One line of input, whatever its length, read with fgets in chunks. The
 * first LINE_KEEP - 1 bytes are kept in buf; *total is the full length.
 * NUL bytes in the input become '?'. Returns 1 with a line, 0 at the end of
 * input, -1 when interrupted. */
static int read_line(char *buf, size_t size, size_t *total)
{
    size_t n = 0;
    bool any = false;
    *total = 0;
    buf[0] = '\0';
    for (;;) {
        char chunk[512];
        memset(chunk, 'x', sizeof chunk); /* the last NUL is the end of what fgets read */
        if (!fgets(chunk, sizeof chunk, stdin)) {
            if (interrupted) return -1;
            if (ferror(stdin) && errno == EINTR) {
                clearerr(stdin);
                continue;
            }
            return any ? 1 : 0;
        }
        any = true;
        size_t k = sizeof chunk - 1;
        while (k > 0 && chunk[k] != '\0') k--;
        bool eol = k > 0 && chunk[k - 1] == '\n';
        if (eol) k--;
        for (size_t i = 0; i < k; i++)
            if (chunk[i] == '\0') chunk[i] = '?';
        *total += k;
        size_t room = size - 1 - n;
        size_t c = k < room ? k : room;
        memcpy(buf + n, chunk, c);
        n += c;
        buf[n] = '\0';
        if (eol) return 1;
    }
}

static const char help_text[] =
    "Type a move and press Enter:\n"
    "  11-15         square numbers, as in the list (15x24x31 for a jump)\n"
    "  15x31         a multi-jump by its first and last squares, when only one fits\n"
    "  c3-d4         coordinates (files a-h from White's left, ranks 1-8 from White's side)\n"
    "  3             the third move of the list\n"
    "Commands:\n"
    "  moves         the legal moves, numbered\n"
    "  hint          the engine's suggestion (not played)\n"
    "  undo          take back your last move (and the engine's reply)\n"
    "  flip          turn the board round\n"
    "  board         draw the board again\n"
    "  fen           the position as FEN\n"
    "  save [FILE]   write the game as PDN (to FILE, else to the game's file)\n"
    "  resign        give up this game\n"
    "  quit          save the game and stop (as does Ctrl-D)\n";

enum { ACT_NONE, ACT_MOVED, ACT_QUIT, ACT_EOF, ACT_INTERRUPT, ACT_RESIGN, ACT_FAIL };

static bool all_digits(const char *s)
{
    if (!*s) return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s)) return false;
    return true;
}

static bool all_letters(const char *s)
{
    if (!*s) return false;
    for (; *s; s++)
        if (!isalpha((unsigned char)*s)) return false;
    return true;
}

/* Take back to the last position where a person was to move, at least one ply
 * back: the person's last move and the engine's reply. */
static void undo(Play *P)
{
    Game *g = &P->g;
    int k = g->nply - 1;
    while (k >= 0 && P->p[g->start.stm ^ (k & 1)].engine) k--;
    if (k < 0) {
        say_error(P, "nothing to undo: %s", g->nply ? "no move of yours to take back" : "no move played yet");
        return;
    }
    char list[256] = "";
    size_t len = 0;
    for (int i = k; i < g->nply && len + MOVE_TEXT_MAX + 8 < sizeof list; i++) {
        char t[MOVE_TEXT_MAX];
        move_to_text(&g->moves[i], t);
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i == k ? "" : i + 1 == g->nply ? " and " : ", ", t);
    }
    while (g->nply > k) game_undo(g);
    if (P->info.ply >= g->nply) P->info.ply = -1;
    printf("took back %s\n", list);
    P->need_draw = true;
}

static int command(Play *P, const char *cmd, const char *arg)
{
    char lc[16];
    size_t i = 0;
    for (; cmd[i] && i + 1 < sizeof lc; i++) lc[i] = (char)tolower((unsigned char)cmd[i]);
    lc[i] = '\0';
    bool takes_arg = strcmp(lc, "save") == 0;
    static const char *const known[] = {"help", "moves", "hint", "undo", "flip", "board", "fen",
                                        "save", "resign", "quit", "exit", "q"};
    bool found = false;
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
        if (strcmp(lc, known[k]) == 0) found = true;
    if (!found || strlen(cmd) >= sizeof lc) {
        say_error(P, "unknown command '%.40s%s' (type help for the commands)", cmd, strlen(cmd) > 40 ? "..." : "");
        return ACT_NONE;
    }
    if (*arg && !takes_arg && strcmp(lc, "help") != 0) {
        say_error(P, "'%s' takes nothing after it", lc);
        return ACT_NONE;
    }
    if (strcmp(lc, "help") == 0) {
        fputs(help_text, stdout);
    } else if (strcmp(lc, "moves") == 0) {
        show_moves(P);
    } else if (strcmp(lc, "hint") == 0) {
        int rc = hint(P);
        if (rc > 0) return ACT_INTERRUPT;
        if (rc < 0) return ACT_FAIL;
    } else if (strcmp(lc, "undo") == 0) {
        undo(P);
    } else if (strcmp(lc, "flip") == 0) {
        P->v.black_bottom = !P->v.black_bottom;
        P->need_draw = true;
    } else if (strcmp(lc, "board") == 0) {
        P->need_draw = true;
    } else if (strcmp(lc, "fen") == 0) {
        char fen[128];
        board_to_fen(&P->g.cur, fen, sizeof fen);
        printf("%s\n", fen);
    } else if (strcmp(lc, "save") == 0) {
        const char *path = *arg ? arg : P->out;
        char err[KM_ERR_MAX];
        if (save_game(P, path, err) == 0) printf("saved the game to %s\n", path);
        else say_error(P, "cannot save the game: %s", err);
    } else if (strcmp(lc, "resign") == 0) {
        return ACT_RESIGN;
    } else {
        return ACT_QUIT;
    }
    return ACT_NONE;
}

/* Read and act on one line at the person's prompt. */
static int human_turn(Play *P)
{
    const View *v = &P->v;
    printf("%s%s>%s ", view_sgr(v, VS_BOLD), side_name(P->g.cur.stm), view_sgr(v, VS_RESET));
    fflush(stdout);
    char line[LINE_KEEP];
    size_t total;
    int rc = read_line(line, sizeof line, &total);
    if (rc < 0) {
        putchar('\n');
        return ACT_INTERRUPT;
    }
    if (rc == 0) {
        puts(P->tty_in ? "" : "(end of input)");
        return ACT_EOF;
    }
    /* control characters (escape sequences of arrow keys...) are not input */
    for (char *c = line; *c; c++)
        if ((unsigned char)*c < 32 && *c != '\t') *c = '?';
    if (!P->tty_in) printf("%.60s%s\n", line, total > 60 ? "..." : ""); /* a readable transcript */
    if (total >= LINE_KEEP) {
        say_error(P, "that line is %zu characters long: it is not a move or a command", total);
        return ACT_NONE;
    }
    /* trim, then split off the first word */
    char *s = line;
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
    if (!*s) return ACT_NONE;
    char *arg = s, *sep = NULL;
    while (*arg && !isspace((unsigned char)*arg)) arg++;
    if (*arg) {
        sep = arg;
        *arg++ = '\0';
        while (isspace((unsigned char)*arg)) arg++;
    }
    if (all_letters(s)) return command(P, s, arg);
    if (sep) *sep = ' '; /* a move: the whole line again */

    MoveList ml;
    gen_moves(&P->g.cur, &ml);
    Move m;
    if (all_digits(s)) {
        long long k;
        if (!cli_int(s, 1, ml.count, &k)) {
            char only[MOVE_TEXT_MAX];
            move_to_text(&ml.moves[0], only);
            if (ml.count == 1)
                say_error(P, "there is no move %.12s%s in the list: the only move is 1) %s", s,
                          strlen(s) > 12 ? "..." : "", only);
            else
                say_error(P, "there is no move %.12s%s in the list: choose 1 to %d (moves shows them)", s,
                          strlen(s) > 12 ? "..." : "", ml.count);
            return ACT_NONE;
        }
        m = ml.moves[k - 1];
    } else {
        /* "11 - 15" is forgiven; the message quotes what was typed */
        char compact[LINE_KEEP], err[KM_ERR_MAX];
        const char *whole = s;
        size_t n = 0;
        for (const char *c = whole; *c; c++)
            if (!isspace((unsigned char)*c)) compact[n++] = *c;
        compact[n] = '\0';
        if (parse_move(&P->g.cur, compact, &m, err) && parse_move(&P->g.cur, whole, &m, err)) {
            say_error(P, "%s", err);
            return ACT_NONE;
        }
    }
    if (game_play(&P->g, &m)) return ACT_FAIL;
    return ACT_MOVED;
}

/* ---- setting up --------------------------------------------------------------- */

static void describe_engine(Play *P, int side)
{
    Player *pl = &P->p[side];
    char wl[320];
    if (pl->random) snprintf(wl, sizeof wl, "random weights, seed %" PRIu64, P->seed);
    else if (pl->wpath) snprintf(wl, sizeof wl, "%.300s", pl->wpath);
    else snprintf(wl, sizeof wl, "default weights");
    snprintf(pl->name, sizeof pl->name, "kingme (%s, %s)", P->limit_text, wl);
}

static bool player_kind(const char *v, bool *engine)
{
    if (strcmp(v, "human") == 0) *engine = false;
    else if (strcmp(v, "engine") == 0) *engine = true;
    else return false;
    return true;
}

/* Load the last game of a PDN file into P->g. */
static bool load_pdn(Play *P, const char *path)
{
    PdnGame *games;
    int n;
    char err[KM_ERR_MAX];
    if (pdn_read_file(path, &games, &n, err)) {
        cli_error("%s", err);
        return false;
    }
    const PdnGame *pg = &games[n - 1];
    bool ok = true;
    if (pg->error) {
        cli_error("%s", pg->error);
        ok = false;
    } else if (game_init(&P->g, &pg->game.start)) {
        cli_error("out of memory");
        ok = false;
    } else {
        for (int i = 0; i < pg->game.nply && ok; i++)
            if (game_play(&P->g, &pg->game.moves[i])) ok = false;
        if (!ok) {
            cli_error("out of memory");
            game_free(&P->g);
        } else if (P->g.result != GAME_ONGOING) {
            cli_error("%s: the last game is already over (%s, %s)", path, game_result_text(P->g.result),
                      game_reason_text(P->g.reason));
            game_free(&P->g);
            ok = false;
        }
    }
    pdn_free_games(games, n);
    return ok;
}

/* ---- the end ------------------------------------------------------------------ */

static void announce_result(const Play *P)
{
    const View *v = &P->v;
    const Game *g = &P->g;
    GameResult r = P->adjudged != GAME_ONGOING ? P->adjudged : g->result;
    char why[96];
    if (P->adjudged != GAME_ONGOING) snprintf(why, sizeof why, "%s", P->adjudged_why);
    else if (g->reason == REASON_NO_MOVES && g->cur.pieces[g->cur.stm] == 0)
        snprintf(why, sizeof why, "%s has no pieces left", side_name(g->cur.stm));
    else if (g->reason == REASON_NO_MOVES)
        snprintf(why, sizeof why, "%s is blocked: no legal move", side_name(g->cur.stm));
    else if (g->reason == REASON_REPETITION)
        snprintf(why, sizeof why, "the same position a third time");
    else if (g->reason == REASON_FORTY_MOVES)
        snprintf(why, sizeof why, "40 moves each with no man moved and nothing captured");
    else if (g->reason == REASON_PLY_CAP)
        snprintf(why, sizeof why, "the cap of %d plies reached", P->max_plies);
    else
        snprintf(why, sizeof why, "%s", game_reason_text(g->reason));
    const char *what = r == GAME_DRAW ? "Draw" : r == GAME_BLACK_WINS ? "Black wins" : "White wins";
    const char *verdict = "";
    if (humans(P) == 1 && r != GAME_DRAW) {
        int winner = r == GAME_BLACK_WINS ? KM_BLACK : KM_WHITE;
        verdict = P->p[winner].engine ? " kingme wins." : " You win!";
    }
    printf("\n%sGame over: %s, %s (%s).%s%s\n", view_sgr(v, VS_BOLD), what, game_result_text(r), why, verdict,
           view_sgr(v, VS_RESET));
}

static void print_random_weights(const Play *P)
{
    for (int side = 0; side < 2; side++) {
        const Player *pl = &P->p[side];
        if (!pl->engine || !pl->random) continue;
        char comment[160];
        snprintf(comment, sizeof comment,
                 "random weights of kingme (%s), drawn by kingme play --random-weights --seed %" PRIu64,
                 side_name(side), P->seed);
        char *text = weights_format(&pl->w, comment);
        if (!text) continue;
        printf("\nThe engine's weights (%s), in weights-file format:\n%s", side_name(side), text);
        free(text);
    }
}

/* ---- the command -------------------------------------------------------------- */

static int usage(const char *fmt, const char *a) { return cli_usage_error("play", fmt, a); }

static int run(int argc, char **argv)
{
    Play *P = calloc(1, sizeof *P);
    if (!P) return cli_error("out of memory");
    const char *fen = NULL, *pdn = NULL, *out = NULL, *wboth = NULL, *wside[2] = {NULL, NULL};
    bool kind_given[2] = {false, false}, engine_first = false, random = false, flip = false, no_color = false;
    bool force_color = false;
    bool depth_given = false, time_given = false;
    long long max_plies = -1;
    P->p[KM_BLACK].engine = false;
    P->p[KM_WHITE].engine = true;
    search_limits_default(&P->lim);
    P->lim.tiebreak = TIEBREAK_RANDOM;
    P->lim.seconds = DEFAULT_SECONDS;
    P->info.ply = -1;
    int status = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        long long n;
        double x;
        if (strcmp(a, "--black") == 0 || strcmp(a, "--white") == 0) {
            int side = a[2] == 'b' ? KM_BLACK : KM_WHITE;
            if (!(v = cli_value("play", argc, argv, &i))) { status = 2; goto done; }
            if (!player_kind(v, &P->p[side].engine)) { status = usage("'%s' is not 'human' or 'engine'", v); goto done; }
            kind_given[side] = true;
        } else if (strcmp(a, "--depth") == 0) {
            if (!(v = cli_value("play", argc, argv, &i))) { status = 2; goto done; }
            if (!cli_int(v, 1, SEARCH_MAX_PLY - 2, &n)) { status = usage("--depth '%s' is not a number from 1 to 126", v); goto done; }
            P->lim.depth = (int)n;
            P->lim.seconds = 0;
            depth_given = true;
        } else if (strcmp(a, "--time") == 0) {
            if (!(v = cli_value("play", argc, argv, &i))) { status = 2; goto done; }
            if (!cli_double(v, 0.01, 86400, &x)) { status = usage("--time '%s' is not a number of seconds (0.01 or more)", v); goto done; }
            P->lim.seconds = x;
            time_given = true;
        } else if (strcmp(a, "--weights") == 0) {
            if (!(wboth = cli_value("play", argc, argv, &i))) { status = 2; goto done; }
        } else if (strcmp(a, "--black-weights") == 0) {
            if (!(wside[KM_BLACK] = cli_value("play", argc, argv, &i))) { status = 2; goto done; }
        } else if (strcmp(a, "--white-weights") == 0) {
            if (!(wside[KM_WHITE] = cli_value("play", argc, argv, &i))) { status = 2; goto done; }
        } else if (strcmp(a, "--fen") == 0) {
            if (!(fen = cli_value("play", argc, argv, &i))) { status = 2; goto done; }
        } else if (strcmp(a, "--pdn") == 0) {
            if (!(pdn = cli_value("play", argc, argv, &i))) { status = 2; goto done; }
        } else if (strcmp(a, "--out") == 0) {
            if (!(out = cli_value("play", argc, argv, &i))) { status = 2; goto done; }
        } else if (strcmp(a, "--seed") == 0) {
            if (!(v = cli_value("play", argc, argv, &i))) { status = 2; goto done; }
            if (!cli_int(v, 0, INT64_MAX, &n)) { status = usage("--seed '%s' is not a non-negative number", v); goto done; }
            P->seed = (uint64_t)n;
            P->seed_given = true;
        } else if (strcmp(a, "--max-plies") == 0) {
            if (!(v = cli_value("play", argc, argv, &i))) { status = 2; goto done; }
            if (!cli_int(v, 0, 1000000, &max_plies)) { status = usage("--max-plies '%s' is not a number (0: no cap)", v); goto done; }
        } else if (strcmp(a, "--random-weights") == 0) {
            random = true;
        } else if (strcmp(a, "--engine-first") == 0) {
            engine_first = true;
        } else if (strcmp(a, "--flip") == 0) {
            flip = true;
        } else if (strcmp(a, "--no-color") == 0 || strcmp(a, "--no-colour") == 0) {
            no_color = true;
            force_color = false;
        } else if (strcmp(a, "--color") == 0 || strcmp(a, "--colour") == 0) {
            force_color = true;
            no_color = false;
        } else {
            status = usage("unknown argument '%s'", a);
            goto done;
        }
    }
    if (depth_given && time_given) { status = usage("%sgive --depth or --time, not both", ""); goto done; }
    if (fen && pdn) { status = usage("%sgive --fen or --pdn, not both", ""); goto done; }
    if (engine_first) {
        if (kind_given[0] || kind_given[1]) { status = usage("%s--engine-first is the same as --black engine --white human: give one or the other", ""); goto done; }
        P->p[KM_BLACK].engine = true;
        P->p[KM_WHITE].engine = false;
    }
    if (random && (wboth || wside[0] || wside[1])) { status = usage("%s--random-weights draws the engine's weights: leave out the weights files", ""); goto done; }
    if (random && !P->p[0].engine && !P->p[1].engine) { status = usage("%s--random-weights needs an engine to play", ""); goto done; }

    if (!P->seed_given) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        uint64_t x = (uint64_t)t.tv_sec * 1000003u ^ (uint64_t)t.tv_nsec ^ ((uint64_t)getpid() << 20);
        P->seed = km_rng_next(&x) >> 1; /* fits --seed, so the game can be drawn again */
    }
    if (P->lim.depth) snprintf(P->limit_text, sizeof P->limit_text, "depth %d", P->lim.depth);
    else snprintf(P->limit_text, sizeof P->limit_text, "%g s", P->lim.seconds);
    P->max_plies = max_plies >= 0 ? (int)max_plies : humans(P) == 0 ? DEFAULT_MAX_PLIES : 0;

    /* players: weights (every side: a person may ask for a hint), searchers */
    uint64_t wrng = P->seed ^ 0x77656967687473ull;
    for (int side = 0; side < 2; side++) {
        Player *pl = &P->p[side];
        pl->wpath = wside[side] ? wside[side] : wboth;
        if (random && pl->engine) {
            pl->random = true;
            for (int k = 0; k < EVAL_NPARAMS; k++) pl->w.w[k] = (int16_t)(uint16_t)(km_rng_next(&wrng) & 0xFFFF);
        } else if (!cli_weights(pl->wpath, &pl->w)) {
            status = 1;
            goto done;
        }
        if (pl->engine) {
            describe_engine(P, side);
            char err[KM_ERR_MAX];
            pl->s = malloc(sizeof *pl->s);
            if (!pl->s) { status = cli_error("out of memory"); goto done; }
            if (searcher_init(pl->s, &pl->w, HASH_MB, P->seed + (uint64_t)side * 0x9E3779B97F4A7C15ull, err)) {
                free(pl->s);
                pl->s = NULL;
                status = cli_error("%s", err);
                goto done;
            }
        } else {
            snprintf(pl->name, sizeof pl->name, "human");
        }
    }

    /* the position */
    if (pdn) {
        if (!load_pdn(P, pdn)) { status = 1; goto done; }
    } else {
        Board b;
        if (!cli_board(fen, &b)) { status = 1; goto done; }
        if (game_init(&P->g, &b)) { status = cli_error("out of memory"); goto done; }
    }

    /* the view: the person's own pieces at the bottom */
    P->tty_in = isatty(0);
    P->tty_out = isatty(1);
    P->v.fancy = force_color || (!no_color && cli_color_ok(1));
    const char *term = getenv("TERM"), *ct = getenv("COLORTERM");
    P->v.c256 = (term && strstr(term, "256")) || (ct && *ct);
    P->v.black_bottom = humans(P) == 1 && !P->p[KM_BLACK].engine;
    if (flip) P->v.black_bottom = !P->v.black_bottom;
    P->clear = P->v.fancy && P->tty_out;

    /* the game's file, written now so that a bad path shows at once */
    cli_time_name(P->date, sizeof P->date, "%Y.%m.%d");
    if (out) P->out = strdup(out);
    else P->out = default_out();
    if (!P->out) { status = 1; goto done; }
    {
        char err[KM_ERR_MAX];
        if (save_game(P, P->out, err)) {
            status = cli_error("%s", err);
            goto done;
        }
    }

    catch_interrupts();
    P->need_draw = true;

    enum { END_GAME, END_QUIT, END_EOF, END_INTERRUPT, END_FAIL } end = END_GAME;
    for (;;) {
        Game *g = &P->g;
        if (g->result != GAME_ONGOING) break;
        if (P->max_plies && g->nply >= P->max_plies) {
            g->result = GAME_DRAW;
            g->reason = REASON_PLY_CAP;
            break;
        }
        if (interrupted) { end = END_INTERRUPT; break; }
        int side = g->cur.stm;
        if (P->p[side].engine) {
            if (P->need_draw) draw(P);
            int rc = engine_move(P);
            if (rc > 0) { end = END_INTERRUPT; break; }
            if (rc < 0) { end = END_FAIL; break; }
            P->need_draw = true;
            if (humans(P)) autosave(P); /* (a file sync a move would slow engine games) */
            continue;
        }
        if (P->need_draw) {
            draw(P);
            int n = move_number(g, g->nply);
            printf("Move %d, %s to move%s. Legal moves:\n", n, side_name(side),
                   humans(P) == 1 ? " (you)" : "");
            show_moves(P);
        }
        int act = human_turn(P);
        if (act == ACT_MOVED) {
            P->need_draw = true;
            autosave(P);
        } else if (act == ACT_QUIT) { end = END_QUIT; break; }
        else if (act == ACT_EOF) { end = END_EOF; break; }
        else if (act == ACT_INTERRUPT) { end = END_INTERRUPT; break; }
        else if (act == ACT_FAIL) { end = END_FAIL; break; }
        else if (act == ACT_RESIGN) {
            P->adjudged = side == KM_BLACK ? GAME_WHITE_WINS : GAME_BLACK_WINS;
            P->adjudged_why = side == KM_BLACK ? "Black resigned" : "White resigned";
            break;
        }
    }

    if (end == END_GAME) {
        draw(P);
        announce_result(P);
    } else if (end == END_FAIL) {
        cli_error("out of memory");
    } else {
        printf("%s: the game is left unfinished.\n", end == END_QUIT ? "Quit" : end == END_EOF ? "End of input" : "Interrupted");
    }
    if (autosave(P) == 0) {
        printf("Game saved to %s\n", P->out);
        if (end != END_GAME) printf("Continue it with: kingme play --pdn %s\n", P->out);
    } else {
        status = 1;
    }
    print_random_weights(P);
    if (end == END_FAIL) status = 1;
    else if (end == END_INTERRUPT && status == 0) status = 130;

done:
    for (int side = 0; side < 2; side++)
        if (P->p[side].s) {
            searcher_free(P->p[side].s);
            free(P->p[side].s);
        }
    if (P->hint) {
        searcher_free(P->hint);
        free(P->hint);
    }
    if (P->g.moves) game_free(&P->g);
    free(P->out);
    free(P);
    return status;
}

const CliCommand cmd_play = {
    "play", run, "play a game against the engine in the terminal",
    "kingme play [--black human|engine] [--white human|engine]\n"
    "            [--depth D | --time S] [--weights F]\n"
    "            [--black-weights F] [--white-weights F]\n"
    "            [--fen FEN | --pdn FILE] [--flip] [--no-color | --color] [--seed N]\n"
    "            [--random-weights] [--engine-first] [--max-plies N] [--out FILE]\n"
    "  You play Black (your pieces at the bottom of the board), the engine White at\n"
    "  1 s a move. At the prompt type a move (11-15, 15x24x31, 15x31, c3-d4) or its\n"
    "  number in the list, or a command: help moves hint undo flip board fen\n"
    "  save [FILE] resign quit. The game is saved as PDN after every move and at\n"
    "  the end (also on quit, Ctrl-D, Ctrl-C) to games/kingme-DATE-TIME.pdn or to\n"
    "  --out FILE.\n"
    "  --black, --white   who plays each side (default: --black human\n"
    "                     --white engine); two engines play to the end alone\n"
    "  --depth D          the engine searches D plies a move\n"
    "  --time S           the engine's seconds a move (default 1)\n"
    "  --weights F        weights file of both sides (default: the built-in\n"
    "                     weights/default.w)\n"
    "  --black-weights F  of Black only\n"
    "  --white-weights F  of White only (a hint uses the weights of the side to move)\n"
    "  --fen FEN          start from this position\n"
    "  --pdn FILE         continue the last game of a PDN file\n"
    "  --flip             turn the board round\n"
    "  --no-color         plain ASCII (as when NO_COLOR is set or the output is\n"
    "                     not a terminal); --color: Unicode and colours even then\n"
    "  --seed N           seed of the engine's choice among equal moves and of\n"
    "                     --random-weights (default: from the clock)\n"
    "  --random-weights   the engine plays a random weight vector, printed at the end\n"
    "  --engine-first     the engine plays Black and moves first, you play White\n"
    "  --max-plies N      stop at N plies, scored a draw (default: 400 when two\n"
    "                     engines play, else none; 0: none)\n"
    "  --out FILE         where the game is saved\n"
    "  Exit status 0 (also after quit or end of input), 1 when the game cannot be\n"
    "  saved, 2 for a bad argument, 130 after Ctrl-C.",
};
