/* play_turn.c - the moves of `kingme play`: the engine's search (and the
 * hint), and the person's line at the prompt, a move or a command. Ctrl-C
 * stops a search or the prompt. */
#include "play.h"

#include "kingme/analyze.h"
#include "kingme/bits.h"
#include "kingme/book.h"
#include "kingme/level.h"
#include "kingme/notation.h"
#include "kingme/pdn.h"
#include "kingme/svg.h"
#include "kingme/textio.h"
#include "longrun.h"

#include <ctype.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- Ctrl-C: stop a search or the prompt, then save and leave ------------- */

volatile sig_atomic_t play_interrupted;
static _Atomic(Searcher *) searching;

static void on_interrupt(int sig)
{
    (void)sig;
    play_interrupted = 1;
    Searcher *s = atomic_load(&searching);
    if (s) atomic_store(&s->stop, 1);
}

void play_catch_interrupts(void)
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
    search_set_egdb(s, P->egdb);
    SearchLimits lim = P->lim;
    int side = P->g.cur.stm;
    if (P->clock && s != P->hint) {
        lim.time_left = P->left[side] - (km_now() - P->turn_start);
        if (lim.time_left < 0.001) lim.time_left = 0.001;
        lim.increment = P->inc;
    }
    int rc;
    if (P->level < LEVEL_FULL && s != P->hint)
        rc = level_search(s, &P->g, &lim, P->level, &P->p[side].rng, r, NULL);
    else rc = search_game(s, &P->g, &lim, r, NULL, NULL);
    atomic_store(&searching, NULL);
    if (rc) return -1;
    return play_interrupted ? 1 : 0;
}

void play_clock_charge(Play *P, int side)
{
    double now = km_now();
    if (P->clock) {
        P->left[side] -= now - P->turn_start;
        if (P->left[side] < 0 && P->adjudged == GAME_ONGOING) {
            P->adjudged = side == KM_BLACK ? GAME_WHITE_WINS : GAME_BLACK_WINS;
            P->adjudged_why = side == KM_BLACK ? "Black lost on time" : "White lost on time";
        } else {
            P->left[side] += P->inc;
        }
    }
    P->turn_start = now;
}

/* The book's move, when the position is in it: into P->info, and played. */
static bool book_move(Play *P, int *rc)
{
    BookMove bm;
    int choices;
    if (!P->book || P->level < LEVEL_FULL || /* a weaker level plays its own openings */
        !book_choose(P->book, &P->g.cur, P->book_margin, &P->book_rng, &bm, &choices))
        return false;
    EngineInfo *in = &P->info;
    in->ply = P->g.nply;
    in->forced = mg_count_moves(&P->g.cur) == 1;
    in->book = true;
    in->choices = choices;
    in->score = bm.score;
    in->depth = 0;
    in->seconds = 0;
    /* the book's line: the move, then its best moves while there are some */
    Board b = P->g.cur;
    in->pv[0] = bm.move;
    in->pv_len = 1;
    mg_make_move(&b, &bm.move);
    BookMove next[MAX_MOVES];
    while (in->pv_len < PV_SHOW && book_moves(P->book, &b, next, MAX_MOVES)) {
        in->pv[in->pv_len++] = next[0].move;
        mg_make_move(&b, &next[0].move);
    }
    *rc = game_play(&P->g, &bm.move) ? -1 : 0;
    return true;
}

/* ---- thinking on the person's time ------------------------------------------ */

static void *ponder_main(void *arg)
{
    Ponder *pd = arg;
    pd->rc = search_game(pd->s, &pd->g, &pd->lim, &pd->r, NULL, NULL);
    return NULL;
}

void play_ponder_start(Play *P)
{
    Ponder *pd = &P->pd;
    const Game *g = &P->g;
    int eside = g->cur.stm ^ 1; /* the engine, waiting for the person's move */
    /* not with a fixed depth (the engine answers as fast as it can, and the
     * same seed replays the same game) nor a level (its budget is small) */
    if (!P->ponder || pd->running || P->lim.depth || P->level < LEVEL_FULL || play_humans(P) != 1 ||
        !P->p[eside].engine || P->info.ply != g->nply - 1 || P->info.pv_len < 2 || g->result != GAME_ONGOING)
        return;
    MoveList ml;
    mg_moves(&g->cur, &ml);
    bool legal = false;
    for (int i = 0; i < ml.count; i++) legal = legal || mg_move_equal(&ml.moves[i], &P->info.pv[1]);
    if (!legal || game_init(&pd->g, &g->start)) return;
    bool ok = true;
    for (int i = 0; i < g->nply && ok; i++) ok = game_play(&pd->g, &g->moves[i]) == 0;
    if (!ok || game_play(&pd->g, &P->info.pv[1]) || pd->g.result != GAME_ONGOING) {
        game_free(&pd->g);
        return;
    }
    pd->expected = P->info.pv[1];
    pd->ply = g->nply;
    pd->s = P->p[eside].s;
    pd->lim = P->lim;
    if (P->clock) {
        pd->lim.time_left = P->left[eside] > 0.001 ? P->left[eside] : 0.001;
        pd->lim.increment = P->inc;
    }
    pd->lim.ponder = true;
    pd->lim.ponderhit = &pd->hit_us;
    pd->lim.abort = &pd->stop;
    atomic_store(&pd->stop, false);
    atomic_store(&pd->hit_us, 0);
    pd->hit = false;
    pd->start = km_now();
    pd->hit_at = 0;
    if (pthread_create(&pd->th, NULL, ponder_main, pd)) {
        game_free(&pd->g);
        return;
    }
    pd->running = true;
    pd->tries++;
}

void play_ponder_moved(Play *P)
{
    Ponder *pd = &P->pd;
    if (!pd->running) return;
    const Game *g = &P->g;
    if (g->nply == pd->ply + 1 && mg_move_equal(&g->moves[pd->ply], &pd->expected)) {
        pd->hit = true;
        pd->hit_at = km_now();
        pd->hits++;
        long long us = (long long)(pd->hit_at * 1e6);
        atomic_store(&pd->hit_us, us > 0 ? us : 1);
    } else {
        atomic_store(&pd->stop, true);
    }
}

/* Wait for the ponder search; true with its result in pd->r when it was a hit. */
static bool ponder_join(Play *P)
{
    Ponder *pd = &P->pd;
    if (!pd->running) return false;
    if (!pd->hit) atomic_store(&pd->stop, true);
    pthread_join(pd->th, NULL);
    pd->running = false;
    game_free(&pd->g);
    return pd->hit && pd->rc == 0 && pd->r.has_move;
}

void play_ponder_stop(Play *P)
{
    P->pd.hit = false;
    ponder_join(P);
}

int play_engine_move(Play *P)
{
    int side = P->g.cur.stm;
    int brc;
    if (P->pd.running && P->book && P->level >= LEVEL_FULL) { /* the book answers: no ponder search needed */
        BookMove bm[MAX_MOVES];
        if (book_moves(P->book, &P->g.cur, bm, MAX_MOVES) > 0) play_ponder_stop(P);
    }
    if (book_move(P, &brc)) return brc;
    char who[32];
    snprintf(who, sizeof who, "kingme (%s)", play_side_name(side));
    thinking(P, who);
    SearchResult r;
    double pondered = 0;
    int rc = 0;
    atomic_store(&searching, P->p[side].s);
    if (ponder_join(P)) { /* the expected reply came: the ponder search's move */
        r = P->pd.r;
        pondered = P->pd.hit_at - P->pd.start;
        r.seconds -= pondered;
        if (r.seconds < 0) r.seconds = 0;
    } else {
        rc = run_search(P, P->p[side].s, &r);
    }
    atomic_store(&searching, NULL);
    thinking_done(P);
    if (rc) return rc;
    if (play_interrupted) return 1;
    if (!r.has_move) return -1; /* cannot happen: the game would be over */
    EngineInfo *in = &P->info;
    in->ply = P->g.nply;
    in->forced = mg_count_moves(&P->g.cur) == 1;
    in->book = false;
    in->depth = r.depth;
    in->score = r.score;
    in->seconds = r.seconds;
    in->pondered = pondered;
    in->pv_len = r.pv_len < PV_SHOW ? r.pv_len : PV_SHOW;
    memcpy(in->pv, r.pv, (size_t)in->pv_len * sizeof(Move));
    if (in->pv_len == 0 || !mg_move_equal(&in->pv[0], &r.best)) { /* the line starts with the move */
        in->pv[0] = r.best;
        in->pv_len = 1;
    }
    return game_play(&P->g, &r.best) ? -1 : 0;
}

static int hint(Play *P)
{
    int side = P->g.cur.stm;
    MoveList ml;
    mg_moves(&P->g.cur, &ml);
    if (ml.count == 1) {
        char t[MOVE_TEXT_MAX];
        notation_move_to_text(&ml.moves[0], t);
        printf("hint: %s%s%s, the only legal move\n", view_sgr(&P->v, VS_BOLD), t, view_sgr(&P->v, VS_RESET));
        return 0;
    }
    if (!P->hint) {
        char err[KM_ERR_MAX];
        P->hint = malloc(sizeof *P->hint);
        if (!P->hint || search_init(P->hint, &P->p[side].w, P->hash_mb, P->seed ^ 0x68696E74ull, err)) {
            free(P->hint);
            P->hint = NULL;
            play_say_error(P, "no hint: out of memory");
            return 0;
        }
    } else {
        search_set_weights(P->hint, &P->p[side].w);
    }
    thinking(P, "kingme");
    SearchResult r;
    int rc = run_search(P, P->hint, &r);
    thinking_done(P);
    if (rc) return rc;
    char t[MOVE_TEXT_MAX], sc[200], pv[SCREEN_WIDTH - 16];
    notation_move_to_text(&r.best, t);
    play_score_text(P, r.score, side, bits_popcount32(board_occupied(&P->g.cur)), sc, sizeof sc);
    notation_moves_to_text(r.pv, r.pv_len < PV_SHOW ? r.pv_len : PV_SHOW, pv, sizeof pv);
    int idx = 0;
    for (int i = 0; i < ml.count; i++)
        if (mg_move_equal(&ml.moves[i], &r.best)) idx = i + 1;
    printf("hint: %s%s%s, number %d in the list   (kingme: depth %d)\n", view_sgr(&P->v, VS_BOLD), t,
           view_sgr(&P->v, VS_RESET), idx, r.depth);
    printf("  %s\n  expected line: %s\n", sc, pv);
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
            if (play_interrupted) return -1;
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
        play_say_error(P, "nothing to undo: %s",
                       g->nply ? "no move of yours to take back" : "no move played yet");
        return;
    }
    char list[256] = "";
    size_t len = 0;
    for (int i = k; i < g->nply && len + MOVE_TEXT_MAX + 8 < sizeof list; i++) {
        char t[MOVE_TEXT_MAX];
        notation_move_to_text(&g->moves[i], t);
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                i == k             ? ""
                                : i + 1 == g->nply ? " and "
                                                   : ", ",
                                t);
    }
    while (g->nply > k) game_undo(g);
    if (P->info.ply >= g->nply) P->info.ply = -1;
    snprintf(P->note, sizeof P->note, "Took back %.140s.", list);
    P->need_draw = true;
}

static int command(Play *P, const char *cmd, const char *arg)
{
    char lc[16];
    size_t i = 0;
    for (; cmd[i] && i + 1 < sizeof lc; i++) lc[i] = (char)tolower((unsigned char)cmd[i]);
    lc[i] = '\0';
    bool takes_arg = strcmp(lc, "save") == 0;
    static const char *const known[] = {"help", "moves", "hint",   "undo", "flip", "board",
                                        "fen",  "save",  "resign", "quit", "exit", "q"};
    bool found = false;
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
        if (strcmp(lc, known[k]) == 0) found = true;
    if (!found || strlen(cmd) >= sizeof lc) {
        play_say_error(P, "unknown command '%.40s%s' (type help for the commands)", cmd,
                       strlen(cmd) > 40 ? "..." : "");
        return ACT_NONE;
    }
    if (*arg && !takes_arg && strcmp(lc, "help") != 0) {
        play_say_error(P, "'%s' takes nothing after it", lc);
        return ACT_NONE;
    }
    if (strcmp(lc, "help") == 0) {
        fputs(help_text, stdout);
    } else if (strcmp(lc, "moves") == 0) {
        play_show_moves(P);
    } else if (strcmp(lc, "hint") == 0) {
        play_ponder_stop(P); /* the hint's search has the cores (pondering starts again after) */
        int rc = hint(P);
        if (rc > 0) return ACT_INTERRUPT;
        if (rc < 0) return ACT_FAIL;
    } else if (strcmp(lc, "undo") == 0) {
        play_ponder_stop(P);
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
        if (play_save_game(P, path, err) == 0) printf("saved the game to %s\n", path);
        else play_say_error(P, "cannot save the game: %s", err);
    } else if (strcmp(lc, "resign") == 0) {
        return ACT_RESIGN;
    } else {
        return ACT_QUIT;
    }
    return ACT_NONE;
}

int play_human_turn(Play *P)
{
    const View *v = &P->v;
    printf("%s%s>%s ", view_sgr(v, VS_BOLD), play_side_name(P->g.cur.stm), view_sgr(v, VS_RESET));
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
    /* a line from Windows (CRLF) ends as any other */
    size_t len = strlen(line);
    if (len && line[len - 1] == '\r') {
        line[--len] = '\0';
        total--;
    }
    /* control characters (escape sequences of arrow keys...) are not input */
    for (char *c = line; *c; c++)
        if ((unsigned char)*c < 32 && *c != '\t') *c = '?';
    if (!P->tty_in) printf("%.60s%s\n", line, total > 60 ? "..." : ""); /* a readable transcript */
    if (total >= LINE_KEEP) {
        play_say_error(P, "that line is %zu characters long: it is not a move or a command", total);
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
    mg_moves(&P->g.cur, &ml);
    Move m;
    if (all_digits(s)) {
        long long k;
        if (!cli_int(s, 1, ml.count, &k)) {
            char only[MOVE_TEXT_MAX];
            notation_move_to_text(&ml.moves[0], only);
            if (ml.count == 1)
                play_say_error(P, "there is no move %.12s%s in the list: the only move is 1) %s", s,
                               strlen(s) > 12 ? "..." : "", only);
            else
                play_say_error(P, "there is no move %.12s%s in the list: choose 1 to %d (moves shows them)",
                               s, strlen(s) > 12 ? "..." : "", ml.count);
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
        if (notation_parse_move(&P->g.cur, compact, &m, err) &&
            notation_parse_move(&P->g.cur, whole, &m, err)) {
            play_say_error(P, "%s", err);
            return ACT_NONE;
        }
    }
    if (game_play(&P->g, &m)) return ACT_FAIL;
    return ACT_MOVED;
}

/* ---- the end: the analysis ---------------------------------------------------- */

/* "games/x.pdn" -> "games/x-analysis.pdn" (malloc'd) */
static char *analysis_path(const char *out)
{
    size_t n = strlen(out);
    if (n > 4 && strcmp(out + n - 4, ".pdn") == 0) n -= 4;
    char *s = malloc(n + 16);
    if (s) snprintf(s, n + 16, "%.*s-analysis.pdn", (int)n, out);
    return s;
}

int play_offer_analysis(Play *P, const char *result)
{
    if (play_humans(P) == 0 || P->g.nply == 0) return 0;
    SearchLimits lim = P->lim;
    if (P->clock || (lim.depth == 0 && lim.seconds > 1)) { /* a clock, or a slow engine: 1 s */
        lim.depth = 0;
        lim.seconds = 1;
    }
    char lt[32];
    if (lim.depth) snprintf(lt, sizeof lt, "depth %d", lim.depth);
    else snprintf(lt, sizeof lt, "%g s", lim.seconds);
    char offer[200];
    snprintf(offer, sizeof offer,
             "Type analyze for kingme's analysis of the game (its mistakes, the best moves; %s a position), "
             "or press Enter to leave.",
             lt);
    putchar('\n');
    cli_wrap(stdout, offer, 0);
    printf("> ");
    fflush(stdout);
    char line[LINE_KEEP];
    size_t total;
    int rc = read_line(line, sizeof line, &total);
    if (rc <= 0) {
        putchar('\n');
        return 0;
    }
    char *s = line;
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
    if (!P->tty_in) printf("%.60s\n", s);
    if (strcasecmp(s, "analyze") != 0 && strcasecmp(s, "analyse") != 0) return 0;
    /* the analysis searches with the weights of the engine side (of Black's
     * when two people played) */
    int eside = P->p[KM_WHITE].engine ? KM_WHITE : KM_BLACK;
    Searcher s2;
    char err[KM_ERR_MAX];
    if (search_init(&s2, &P->p[eside].w, P->hash_mb, 1, err)) return cli_error("%s", err);
    search_set_egdb(&s2, P->egdb);
    PdnTag tags[] = {
        {"Event", "kingme play"},
        {"Date", (char *)P->date},
        {"Black", (char *)P->p[KM_BLACK].name},
        {"White", (char *)P->p[KM_WHITE].name},
    };
    char how[160];
    snprintf(how, sizeof how, "%s a position, %s's weights%s", lt, play_side_name(eside),
             P->egdb ? ", endgame database" : "");
    KmBuf pdn = {0};
    cli_catch_sigint(true, "stopping the analysis");
    int st = cli_analyze_game(&s2, &P->g, &lim, tags, 4, result, how, &pdn, NULL, 0, 1, NULL);
    cli_catch_sigint(false, NULL);
    play_catch_interrupts();
    search_free(&s2);
    size_t len = pdn.len;
    char *text = textio_buf_done(&pdn);
    char *path = P->out_stream ? NULL : analysis_path(P->out);
    int status = st == 1 ? 1 : 0;
    if (!text) {
        status = cli_error("out of memory");
    } else if (path) {
        if (textio_write_atomic(path, text, len, err)) status = cli_error("%s", err);
        else printf("The annotated game is in %s (kingme pdn and CheckerBoard read it).\n", path);
    } else {
        fputs(text, stdout);
    }
    free(text);
    free(path);
    return status;
}
