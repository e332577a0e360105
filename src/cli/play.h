/* play.h - what the files of `kingme play` share: the game being played,
 * its players and screen. play.c sets up and runs the game, play_screen.c
 * draws it and saves it, play_turn.c makes the moves (the engine's search,
 * the person's input). */
#ifndef KINGME_CLI_PLAY_H
#define KINGME_CLI_PLAY_H

#include "cli.h"
#include "view.h"

#include "kingme/game.h"
#include "kingme/search.h"
#include "kingme/weights.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define LINE_KEEP 256 /* longer input lines are refused as a whole */
#define PV_SHOW 16    /* moves of the expected line kept (as many as fit are shown) */
#define SCREEN_WIDTH 78

typedef struct Player {
    bool engine;
    const char *wpath; /* weights file; NULL: built-in default or random */
    bool random;       /* weights drawn at random (--random-weights) */
    Weights w;
    char name[400];  /* for the PDN tags and the header: "kingme (1 s, default weights)" */
    char label[320]; /* beside the board, where the limit (the same for both) is left
                      * out: "kingme", "kingme (weights/x.w)" */
    Searcher *s;     /* engines only */
    uint64_t rng;    /* the level's draws (from --seed) */
} Player;

/* What the engine said about its last move. */
typedef struct EngineInfo {
    int ply;     /* the ply it played; -1: none */
    bool forced; /* it was the only legal move */
    bool book;   /* it came from the opening book (score: the book's; pv: the book's line) */
    int choices; /* book moves within the variety margin */
    int depth;
    int32_t score;
    double seconds;
    double pondered; /* seconds it thought on the person's time before (0: none) */
    int pv_len;
    Move pv[PV_SHOW];
} EngineInfo;

/* Thinking on the person's time: while the person thinks, the engine
 * searches the position after the reply it expects; when that reply comes
 * the search goes on with the move's limits from then (a hit), otherwise it
 * is stopped and the engine searches as usual. */
typedef struct Ponder {
    bool running; /* a thread was started and not yet joined */
    bool hit;     /* the expected reply came */
    pthread_t th;
    Searcher *s; /* the engine's searcher (the main thread leaves it alone) */
    Game g;      /* the game with the expected reply played */
    Move expected;
    int ply; /* the ply of the expected reply */
    SearchLimits lim;
    SearchResult r;
    int rc;
    atomic_bool stop;
    atomic_llong hit_us;
    double start, hit_at;
    int tries, hits; /* ponder searches, and the replies that came as expected */
} Ponder;

typedef struct Play {
    Game g;
    Player p[2];
    View v;
    SearchLimits lim;
    int level;   /* the engines' strength level (LEVEL_FULL: the full engine) */
    bool ponder; /* think on the person's time (not --no-ponder) */
    Ponder pd;
    char limit_text[64]; /* "1 s", "depth 6", "level 3, 1 s" */
    int max_plies;       /* 0: no cap */
    uint64_t seed;
    size_t hash_mb; /* each searcher's table */
    bool tty_in, tty_out;
    bool clear; /* redraw on a cleared screen (fancy mode) */
    bool need_draw;
    bool drawn;      /* the first screen is out */
    char *out;       /* the game's PDN file */
    bool out_stream; /* it is written in place (stdout, a FIFO, a device):
                      * once, at the end, as a stream cannot be rewritten */
    char date[16];
    EngineInfo info;
    Searcher *hint;      /* made on the first hint */
    bool clock;          /* --tc M+I: a game clock for both sides */
    double left[2], inc; /* seconds left on each clock, increment */
    double turn_start;   /* when the side to move's clock started */
    GameResult adjudged; /* resignation, loss on time */
    const char *adjudged_why;
    struct Egdb *egdb;   /* --egdb: the endgame database (NULL: none), set on every searcher */
    char note[280];      /* said under the next board drawn ("took back 11-15"), so
                          * that a cleared screen does not wipe it; then emptied */
    struct Book *book;   /* the opening book (NULL: none) */
    int32_t book_margin; /* --book-variety in the book's evaluation units */
    uint64_t book_rng;   /* its choices (from --seed) */
} Play;

/* ---- play_screen.c: text, the screen, the game's file ---- */

const char *play_side_name(int side);
int play_humans(const Play *P); /* people playing: 0, 1 or 2 */
int play_move_number(const Game *g, int ply);
/* The moves of a line, as many as fit in len - 1 characters (then "..."). */
/* A search's score as the screen says it: "-0.08 men for you (kingme
 * searching for White, with White's weights)". The number is always for the
 * same side, the person's when one person plays, else Black's, so that the
 * engine's scores and the hints can be compared; it is in men (the score
 * divided by |own_men| of the weights searched with, with a phase the
 * opening's and the ending's blended for the npieces of the position
 * searched, as the evaluation blends them). */
void play_score_text(const Play *P, int32_t score, int side, int npieces, char *buf, size_t len);
/* The same for a book move's score (the book's search, in its men). */
void play_book_score_text(const Play *P, int32_t score, int side, char *buf, size_t len);
void play_draw(Play *P);             /* the banner (first time), the board, the last move */
void play_show_moves(const Play *P); /* the numbered legal moves */
void play_say_error(const Play *P, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int play_save_game(const Play *P, const char *path, char *err);
int play_autosave(const Play *P); /* a failure is said; -1 */
char *play_default_out(void);     /* games/kingme-YYYYMMDD-HHMMSS.pdn, malloc'd; NULL after an error line */

/* ---- play_turn.c: the moves ---- */

extern volatile sig_atomic_t play_interrupted; /* Ctrl-C, SIGTERM, SIGHUP */
void play_catch_interrupts(void);
/* Charge the side that just moved (with --tc): the time since its turn
 * began, less nothing, plus the increment; a clock below zero loses the
 * game on time (P->adjudged). Starts the next side's turn. */
void play_clock_charge(Play *P, int side);
/* "4:58.2" */
void play_clock_text(double seconds, char *buf, size_t len);
/* The engine's move: 0, 1 when interrupted, -1 when out of memory. */
int play_engine_move(Play *P);
/* Pondering: start thinking on the person's time (when an engine plays the
 * other side, the engine's last line has a reply, and none runs); after
 * the person's move, tell the search whether it was the expected one (it
 * goes on, or stops; play_engine_move takes its result); stop it (undo,
 * hint, the end of the game). */
void play_ponder_start(Play *P);
void play_ponder_moved(Play *P);
void play_ponder_stop(Play *P);
enum { ACT_NONE, ACT_MOVED, ACT_QUIT, ACT_EOF, ACT_INTERRUPT, ACT_RESIGN, ACT_FAIL };
/* Read and act on one line at the person's prompt: an ACT_ value. */
int play_human_turn(Play *P);
/* At the end of a game a person played: offer the analysis, and on
 * `analyze` print it and write the annotated game beside the game's file
 * (NAME-analysis.pdn). The exit status's part: 0, or 1 after an error. */
int play_offer_analysis(Play *P, const char *result);

#endif
