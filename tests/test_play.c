/* test_play.c - `kingme play` driven through standard input: whole games,
 * every kind of bad entry, the commands, engine-against-engine games, and the
 * PDN it writes (replayed with `kingme pdn`). Output is not a terminal here,
 * so the board is plain ASCII and every line read is echoed after the prompt. */
#include "kingme/eval.h"
#include "kingme/phase.h"
#include "kingme/weights.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define INITIAL_FEN "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"

static char out[1 << 20];

/* A temp file name unique to this run: /tmp/kingme-play-PID-TAG */
static void tmp_name(char *buf, size_t len, const char *tag)
{
    snprintf(buf, len, "/tmp/kingme-play-%d-%s", (int)getpid(), tag);
}

/* Run `kingme play ARGS --out PDN` with INPUT on standard input (NULL: none,
 * /dev/null). Output (stdout and stderr) goes to `out`. Returns the status. */
static int play(const char *input, const char *args, const char *pdn)
{
    char in[256], cmd[2048];
    tmp_name(in, sizeof in, "input");
    if (input) {
        FILE *f = fopen(in, "wb");
        if (!f) return -1;
        fputs(input, f);
        fclose(f);
    }
    snprintf(cmd, sizeof cmd, "%s play --no-color %s --out %s < %s", test_kingme(), args, pdn,
             input ? in : "/dev/null");
    int rc = test_run(cmd, out, sizeof out);
    if (input) remove(in);
    return rc;
}

/* The n-th line of out that is a FEN (starts "B:" or "W:"), copied to buf. */
static bool nth_fen(int n, char *buf, size_t len)
{
    const char *p = out;
    for (;;) {
        if ((p[0] == 'B' || p[0] == 'W') && p[1] == ':') {
            if (n-- == 0) {
                size_t k = strcspn(p, "\n");
                if (k >= len) k = len - 1;
                memcpy(buf, p, k);
                buf[k] = '\0';
                return true;
            }
        }
        p = strchr(p, '\n');
        if (!p) return false;
        p++;
    }
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++) n++;
    return n;
}

/* `kingme pdn FILE` says the file replays: 1 game, PLIES moves, 0 errors. */
static void check_replays(const char *pdn, int plies)
{
    char cmd[512], res[1024], want[64];
    snprintf(cmd, sizeof cmd, "%s pdn %s", test_kingme(), pdn);
    int rc = test_run(cmd, res, sizeof res);
    CHECK_MSG(rc == 0, "kingme pdn %s: status %d: %s", pdn, rc, res);
    if (plies >= 0) {
        snprintf(want, sizeof want, "1 game, %d moves, 0 errors", plies);
        CHECK_MSG(strstr(res, want) != NULL, "kingme pdn: '%s', expected '%s'", res, want);
    } else {
        CHECK_MSG(strstr(res, " 0 errors") != NULL, "kingme pdn: '%s'", res);
    }
}

TEST(play_move_by_numbers)
{
    char pdn[256];
    tmp_name(pdn, sizeof pdn, "a.pdn");
    int rc = play("11-15\nquit\n", "--depth 2 --seed 1 --no-book", pdn);
    CHECK_INT(rc, 0);
    CHECK(strstr(out, "Black> 11-15\n") != NULL);
    CHECK(strstr(out, "Black played 11-15\n") != NULL);
    CHECK(strstr(out, "White played ") != NULL);   /* the engine replied */
    CHECK(strstr(out, "expected line: ") != NULL); /* with its line */
    CHECK(strstr(out, "Quit: the game is left unfinished.") != NULL);
    char *t = test_slurp(pdn);
    CHECK(t != NULL);
    if (t) {
        CHECK(strstr(t, "1. 11-15 ") != NULL);
        CHECK(strstr(t, "[Black \"human\"]") != NULL);
        CHECK(strstr(t, "[White \"kingme (depth 2, default weights)\"]") != NULL);
        CHECK(strstr(t, "[Event \"kingme play\"]") != NULL);
        CHECK(strstr(t, "[Date \"") != NULL);
        CHECK(strstr(t, "[Result \"*\"]") != NULL);
    }
    free(t);
    check_replays(pdn, 2);
    remove(pdn);
}

TEST(play_move_by_coordinates_and_list_number)
{
    char pdn[256];
    tmp_name(pdn, sizeof pdn, "b.pdn");
    /* f6-e5 is 11-15 */
    CHECK_INT(play("f6-e5\nquit\n", "--depth 1 --seed 1", pdn), 0);
    char *t = test_slurp(pdn);
    CHECK(t && strstr(t, "1. 11-15 "));
    free(t);
    /* a bare number picks from the list as printed */
    CHECK_INT(play("5\nquit\n", "--depth 1 --seed 1", pdn), 0);
    const char *item = strstr(out, " 5) ");
    CHECK(item != NULL);
    if (item) {
        char mv[16] = "", want[32];
        sscanf(item + 4, "%15s", mv);
        snprintf(want, sizeof want, "1. %s ", mv);
        t = test_slurp(pdn);
        CHECK_MSG(t && strstr(t, want), "list item 5 is '%s', not in the PDN", mv);
        snprintf(want, sizeof want, "Black played %s\n", mv);
        CHECK(strstr(out, want) != NULL);
        free(t);
    }
    remove(pdn);
}

TEST(play_short_capture_form)
{
    char pdn[256];
    tmp_name(pdn, sizeof pdn, "c.pdn");
    /* the only capture from 15 to 31 is 15x24x31 (it crowns the man) */
    CHECK_INT(play("15x31\nfen\nquit\n", "--depth 1 --seed 1 --fen B:W19,27,32:B15,1", pdn), 0);
    CHECK(strstr(out, "Black played 15x24x31") != NULL);
    char *t = test_slurp(pdn);
    CHECK(t && strstr(t, "[FEN \"B:W19,27,32:B1,15\"]") && strstr(t, "1. 15x24x31 "));
    free(t);
    check_replays(pdn, -1);
    remove(pdn);
}

TEST(play_bad_entries_change_nothing)
{
    char pdn[256], input[12000];
    tmp_name(pdn, sizeof pdn, "d.pdn");
    /* garbage, illegal moves, a number out of range, an unknown command,
     * undo at the start, a 10,000-character line, then the position */
    size_t n = (size_t)snprintf(input, sizeof input, "zz!!\n12-17\n21-17\n13-17\n99\ndance\nundo\nfen 3\n");
    memset(input + n, '7', 10000);
    n += 10000;
    snprintf(input + n, sizeof input - n, "\n\n   \nfen\nquit\n");
    CHECK_INT(play(input, "--depth 1 --seed 1", pdn), 0);
    /* each gets one line, then the prompt again */
    CHECK(strstr(out, "Black> zz!!\n'zz!!' is not a move (write 11-15, 15x24x31 or c3-d4)\nBlack> ") != NULL);
    CHECK(strstr(out, "Black> 12-17\n'12-17' is not a diagonal step\nBlack> ") != NULL);
    CHECK(strstr(out, "Black> 21-17\n'21-17': the piece on 21 is not Black's\nBlack> ") != NULL);
    CHECK(strstr(out, "Black> 13-17\n'13-17': there is no piece on 13\nBlack> ") != NULL);
    CHECK(strstr(out,
                 "Black> 99\nthere is no move 99 in the list: choose 1 to 7 (moves shows them)\nBlack> ") !=
          NULL);
    CHECK(strstr(out, "Black> dance\nunknown command 'dance' (type help for the commands)\nBlack> ") != NULL);
    CHECK(strstr(out, "Black> undo\nnothing to undo: no move played yet\nBlack> ") != NULL);
    CHECK(strstr(out, "Black> fen 3\n'fen' takes nothing after it\nBlack> ") != NULL);
    CHECK(strstr(out, "that line is 10000 characters long: it is not a move or a command\nBlack> ") != NULL);
    /* nothing was played */
    CHECK(strstr(out, "Black played") == NULL && strstr(out, "White played") == NULL);
    char fen[256];
    CHECK(nth_fen(0, fen, sizeof fen));
    CHECK_STR(fen, INITIAL_FEN);
    CHECK_INT(count(out, "Move 1, Black to move (you)"), 1); /* the board was drawn once */
    char *t = test_slurp(pdn);
    CHECK(t && !strstr(t, "1. ") && strstr(t, "[Result \"*\"]"));
    free(t);
    remove(pdn);
}

TEST(play_forced_capture_message)
{
    char pdn[256];
    tmp_name(pdn, sizeof pdn, "e.pdn");
    /* White to move must take 18x11 */
    CHECK_INT(play("22-17\n3\n",
                   "--black engine --white human --depth 1 --seed 1 "
                   "--fen W:W18,22:B15,3",
                   pdn),
              0);
    CHECK(strstr(out, "White> 22-17\n'22-17' is illegal: a capture is compulsory (18x11)\nWhite> ") != NULL);
    CHECK(strstr(out, "there is no move 3 in the list: the only move is 1) 18x11") != NULL);
    remove(pdn);
}

TEST(play_undo_restores_the_position)
{
    char pdn[256];
    tmp_name(pdn, sizeof pdn, "f.pdn");
    CHECK_INT(play("11-15\nfen\n1\nfen\nundo\nfen\nundo\nfen\nundo\nquit\n", "--depth 2 --seed 1", pdn), 0);
    char f0[256], f1[256], f2[256], f3[256];
    CHECK(nth_fen(0, f0, sizeof f0) && nth_fen(1, f1, sizeof f1) && nth_fen(2, f2, sizeof f2) &&
          nth_fen(3, f3, sizeof f3));
    CHECK(strcmp(f0, f1) != 0);
    CHECK_STR(f2, f0); /* the person's move and the reply taken back */
    CHECK_STR(f3, INITIAL_FEN);
    /* the confirmation comes under the board drawn again, where a terminal's
     * cleared screen still shows it */
    const char *u = strstr(out, "Black> undo\n");
    const char *board = u ? strstr(u, "     h  g  f  e  d  c  b  a\n") : NULL;
    const char *took = u ? strstr(u, "Took back ") : NULL;
    CHECK_MSG(u && board && took && board < took, "%s", out);
    CHECK(took && strncmp(took, "Took back ", 10) == 0 && strstr(took, " and ") < strchr(took, '\n'));
    CHECK(strstr(out, "Black> undo\nnothing to undo: no move played yet\n") != NULL);
    char *t = test_slurp(pdn);
    CHECK(t && !strstr(t, "1. ")); /* the file follows the game */
    free(t);
    remove(pdn);
}

TEST(play_hint_does_not_play)
{
    char pdn[256];
    tmp_name(pdn, sizeof pdn, "g.pdn");
    CHECK_INT(play("hint\nfen\nmoves\nhelp\nquit\n", "--depth 2 --seed 1", pdn), 0);
    const char *h = strstr(out, "hint: ");
    CHECK(h != NULL);
    if (h) {
        char mv[16] = "", item[32];
        sscanf(h + 6, "%15[0-9x-]", mv);
        snprintf(item, sizeof item, ") %s", mv);
        CHECK_MSG(mv[0] && strstr(out, item), "hint '%s' is not a listed move", mv);
    }
    char fen[256];
    CHECK(nth_fen(0, fen, sizeof fen));
    CHECK_STR(fen, INITIAL_FEN);
    CHECK_INT(count(out, "1) 9-13"), 2);       /* the list, and again for "moves" */
    CHECK(strstr(out, "save [FILE]") != NULL); /* help */
    CHECK(strstr(out, "Black played") == NULL && strstr(out, "White played") == NULL);
    remove(pdn);
}

TEST(play_save_and_continue)
{
    char pdn[256], copy[256], cmd[600];
    tmp_name(pdn, sizeof pdn, "h.pdn");
    tmp_name(copy, sizeof copy, "h-copy.pdn");
    snprintf(cmd, sizeof cmd, "11-15\nsave %s\nfen\n", copy);
    /* no quit: the end of input saves the game */
    CHECK_INT(play(cmd, "--depth 2 --seed 1", pdn), 0);
    char want[300];
    snprintf(want, sizeof want, "saved the game to %s\n", copy);
    CHECK(strstr(out, want) != NULL);
    CHECK(strstr(out, "End of input: the game is left unfinished.") != NULL);
    snprintf(want, sizeof want, "Game saved to %s\n", pdn);
    CHECK(strstr(out, want) != NULL);
    char fen[256];
    CHECK(nth_fen(0, fen, sizeof fen));
    char *a = test_slurp(pdn), *b = test_slurp(copy);
    CHECK(a && b && strstr(a, "1. 11-15 ") && strstr(b, "1. 11-15 "));
    free(a);
    free(b);
    check_replays(copy, 2);
    check_replays(pdn, 2);
    /* --pdn goes on from where the game stopped */
    char pdn2[256], args[600];
    tmp_name(pdn2, sizeof pdn2, "h2.pdn");
    snprintf(args, sizeof args, "--depth 2 --seed 1 --pdn %s", pdn);
    CHECK_INT(play("fen\n1\nquit\n", args, pdn2), 0);
    char fen2[256];
    CHECK(nth_fen(0, fen2, sizeof fen2));
    CHECK_STR(fen2, fen);
    CHECK(strstr(out, "Move 2, Black to move (you)") != NULL);
    a = test_slurp(pdn2);
    CHECK(a && strstr(a, "1. 11-15 ") && strstr(a, "2. "));
    free(a);
    check_replays(pdn2, 4);
    remove(pdn);
    remove(copy);
    remove(pdn2);
}

/* --pdn FILE --game N continues game N of a file; without --game the last. */
TEST(play_pdn_game_n)
{
    char src[256], pdn[256];
    tmp_name(src, sizeof src, "two.pdn");
    tmp_name(pdn, sizeof pdn, "two-out.pdn");
    FILE *f = fopen(src, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs("[Event \"one\"]\n\n1. 11-15 *\n\n[Event \"two\"]\n\n1. 9-13 22-18 *\n", f);
    fclose(f);
    char args[600];
    snprintf(args, sizeof args, "--white human --pdn %s --game 1", src);
    CHECK_INT(play("fen\nquit\n", args, pdn), 0);
    char fen[256];
    CHECK(nth_fen(0, fen, sizeof fen));
    CHECK_STR(fen, "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15");
    snprintf(args, sizeof args, "--depth 1 --seed 1 --pdn %s", src); /* the last: Black to move after 22-18 */
    CHECK_INT(play("fen\nquit\n", args, pdn), 0);
    CHECK(nth_fen(0, fen, sizeof fen));
    CHECK_STR(fen, "B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,13");
    snprintf(args, sizeof args, "--depth 1 --pdn %s --game 3", src);
    CHECK_INT(play(NULL, args, pdn), 1);
    CHECK_MSG(strstr(out, "there is no game 3 (the file has 2 games)") != NULL, "%s", out);
    CHECK_INT(play(NULL, "--depth 1 --game 2", pdn), 2);
    CHECK_STR(out, "kingme play: --game N picks a game of the --pdn file\nsee: kingme help play\n");
    remove(src);
    remove(pdn);
}

/* Every score says whose search and weights it is, and is for the same side
 * (the person's; Black's when no one or two people play), in men. */
TEST(play_scores_readable)
{
    char pdn[256];
    tmp_name(pdn, sizeof pdn, "sc.pdn");
    CHECK_INT(play("hint\n11-15\nquit\n", "--depth 4 --seed 1 --no-book", pdn), 0);
    CHECK_MSG(strstr(out, " men for you (kingme searching for Black, with Black's weights)\n") != NULL, "%s",
              out);
    CHECK_MSG(strstr(out, " men for you (kingme searching for White, with White's weights)\n") != NULL, "%s",
              out);
    CHECK_INT(play(NULL, "--black engine --white engine --depth 2 --seed 1 --max-plies 2 --no-book", pdn), 0);
    CHECK_MSG(strstr(out, " men for Black (kingme searching for White, with White's weights)\n") != NULL,
              "%s", out);
    /* the thesis weights: own_men is negative, a man is still |own_men| */
    CHECK_INT(play("11-15\nquit\n", "--depth 2 --seed 1 --white-weights weights/thesis.w --no-book", pdn), 0);
    CHECK_MSG(strstr(out, " men for you (kingme searching for White") != NULL, "%s",
              out); /* |own_men| 27848 */
    remove(pdn);
}

TEST(play_resign)
{
    char pdn[256];
    tmp_name(pdn, sizeof pdn, "i.pdn");
    CHECK_INT(play("11-15\nresign\n", "--depth 1 --seed 1", pdn), 0);
    CHECK(strstr(out, "Game over: White wins, 0-1 (Black resigned). kingme wins.") != NULL);
    char *t = test_slurp(pdn);
    CHECK(t && strstr(t, "[Result \"0-1\"]") && strstr(t, " 0-1"));
    free(t);
    /* a resigned game is over, as one the rules ended: --pdn refuses it */
    char pdn2[256], args[600], want[400];
    tmp_name(pdn2, sizeof pdn2, "i2.pdn");
    snprintf(args, sizeof args, "--depth 1 --pdn %s", pdn);
    CHECK_INT(play("fen\nquit\n", args, pdn2), 1);
    snprintf(want, sizeof want,
             "kingme: %s: game 1 is already over (0-1, by resignation, time or agreement)\n", pdn);
    CHECK_STR(out, want);
    remove(pdn);
    remove(pdn2);
}

/* The screen's men are the evaluation's men of that phase: with few pieces
 * the ending's own_men (1740 in the default), so the score is the search's
 * points over that, not over the opening's own_men (981), which would make
 * a man's worth read as 1.8 of them. The points come from `kingme search`
 * of the same position at the same depth. */
TEST(play_score_men_in_an_ending)
{
    char pdn[256], cmd[512];
    static char sout[8192];
    tmp_name(pdn, sizeof pdn, "men.pdn");
    CHECK_INT(
        play(NULL, "--black engine --white engine --depth 3 --seed 1 --max-plies 1 --fen B:W27:B6,10", pdn),
        0);
    const char *s = strstr(out, "  score +");
    double men = 0;
    CHECK_MSG(s && sscanf(s, "  score %lf men for Black", &men) == 1, "%s", out);
    snprintf(cmd, sizeof cmd, "%s search --fen B:W27:B6,10 --depth 3 --seed 1 | grep '^depth  3 '",
             test_kingme());
    CHECK_INT(test_run(cmd, sout, sizeof sout), 0);
    long points = 0;
    CHECK_MSG(sscanf(sout, "depth 3 score %ld", &points) == 1 && points > 0, "%s", sout);
    Weights w;
    weights_default(&w);
    double end_man = phase_blend(w.w[EP_own_men], w.end[EP_own_men], 3), open_man = w.w[EP_own_men];
    CHECK_MSG(end_man > 1.3 * open_man, "own_men %d, in an ending of 3 pieces %.0f", w.w[EP_own_men],
              end_man);
    CHECK_MSG(fabs(men - points / end_man) < 0.006,
              "%.2f men shown for %ld points (%.2f ending men, %.2f opening men)", men, points,
              points / end_man, points / open_man);
    remove(pdn);
}

/* After a game a person played, `analyze` at the last prompt prints the
 * summaries and writes NAME-analysis.pdn beside the game; Enter (or the
 * end of input) leaves without it. */
TEST(play_offers_the_analysis)
{
    char pdn[256], ana[300];
    tmp_name(pdn, sizeof pdn, "an.pdn");
    snprintf(ana, sizeof ana, "%.*s-analysis.pdn", (int)strlen(pdn) - 4, pdn);
    /* 9-14 22-18 12-16 18x9: White's second move is forced */
    CHECK_INT(play("9-14\n12-16\nresign\nanalyze\n", "--depth 3 --seed 1 --no-egdb --no-book", pdn), 0);
    CHECK_MSG(strstr(out, "Type analyze for kingme's analysis of the game") != NULL, "%s", out);
    CHECK(strstr(out, "Black (human): 2 moves with a choice") != NULL);
    CHECK(strstr(out, "White (kingme (depth 3, default weights)): 1 move with a choice") != NULL);
    char *t = test_slurp(ana);
    CHECK(t && strstr(t, "{kingme analyze: depth 3 a position, White's weights") && strstr(t, " 0-1"));
    free(t);
    remove(ana);
    CHECK_INT(play("11-15\nresign\n\n", "--depth 1 --seed 1 --no-egdb", pdn), 0);
    CHECK(strstr(out, "Type analyze") != NULL && strstr(out, "moves with a choice") == NULL);
    CHECK(access(ana, F_OK) != 0);
    remove(pdn);
}

TEST(play_engine_against_engine)
{
    char pdn[256];
    tmp_name(pdn, sizeof pdn, "j.pdn");
    CHECK_INT(play(NULL, "--black engine --white engine --depth 1 --seed 3 --weights weights/named.w", pdn),
              0);
    const char *over = strstr(out, "Game over: ");
    CHECK(over != NULL);
    CHECK(strstr(out, "> ") == NULL); /* never asked for input */
    char *t = test_slurp(pdn);
    CHECK(t != NULL);
    if (over && t) {
        const char *res = strstr(over, "1-0") ? "1-0" : strstr(over, "0-1") ? "0-1" : "1/2-1/2";
        char tag[64];
        snprintf(tag, sizeof tag, "[Result \"%s\"]", res);
        CHECK_MSG(strstr(t, tag) != NULL, "the PDN lacks %s", tag);
        CHECK(strstr(t, "[Black \"kingme (depth 1, weights/named.w)\"]") != NULL);
    }
    check_replays(pdn, -1);
    /* the same seed plays the same game; another seed (random choice among
     * equal moves, which the named weights without a pattern layer leave
     * plenty of at depth 1) another one */
    char *again = NULL, *other = NULL;
    CHECK_INT(play(NULL, "--black engine --white engine --depth 1 --seed 3 --weights weights/named.w", pdn),
              0);
    again = test_slurp(pdn);
    CHECK_INT(play(NULL, "--black engine --white engine --depth 1 --seed 4 --weights weights/named.w", pdn),
              0);
    other = test_slurp(pdn);
    CHECK(t && again && other);
    if (t && again && other) {
        const char *m1 = strstr(t, "1. "), *m2 = strstr(again, "1. "), *m3 = strstr(other, "1. ");
        CHECK(m1 && m2 && m3 && strcmp(m1, m2) == 0 && strcmp(m1, m3) != 0);
    }
    free(again);
    free(other);
    free(t);
    /* a ply cap ends it as a draw */
    CHECK_INT(play(NULL, "--black engine --white engine --depth 1 --seed 3 --max-plies 10", pdn), 0);
    CHECK(strstr(out, "Game over: Draw, 1/2-1/2 (the cap of 10 plies reached).") != NULL);
    check_replays(pdn, 10);
    remove(pdn);
}

TEST(play_game_to_the_end_from_a_position)
{
    char pdn[256];
    tmp_name(pdn, sizeof pdn, "k.pdn");
    /* Black's 15x22 takes White's last man */
    CHECK_INT(play("1\n", "--depth 1 --seed 1 --fen B:W18:B15", pdn), 0);
    CHECK(strstr(out, "Game over: Black wins, 1-0 (White has no pieces left). You win!") != NULL);
    char *t = test_slurp(pdn);
    CHECK(t && strstr(t, "[Result \"1-0\"]") && strstr(t, "1. 15x22 1-0"));
    free(t);
    /* a position that is over already: White's man on 5 is blocked by 1 */
    CHECK_INT(play(NULL, "--depth 1 --fen W:W5:B1", pdn), 0);
    CHECK(strstr(out, "Game over: Black wins, 1-0 (White is blocked: no legal move). You win!") != NULL);
    t = test_slurp(pdn);
    CHECK(t && strstr(t, "[FEN \"W:W5:B1\"]") && strstr(t, "[Result \"1-0\"]"));
    free(t);
    remove(pdn);
}

TEST(play_random_weights)
{
    char pdn[256];
    tmp_name(pdn, sizeof pdn, "l.pdn");
    CHECK_INT(play("quit\n", "--random-weights --seed 5 --depth 1", pdn), 0);
    const char *w = strstr(out, "The engine's weights (White), in weights-file format:\n");
    CHECK(w != NULL);
    CHECK(strstr(out, "kingme (depth 1, random weights, seed 5)") != NULL);
    char first[4096] = "";
    if (w) snprintf(first, sizeof first, "%s", w);
    CHECK(strstr(first, "own_men") != NULL);
    /* 60 parameters, each in range */
    int lines = 0;
    for (const char *p = strchr(first, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
        if (p[1] == '#') continue;
        char name[64];
        long v;
        if (sscanf(p + 1, "%63s %ld", name, &v) == 2) {
            lines++;
            CHECK(v >= -32768 && v <= 32767);
        }
    }
    CHECK_INT(lines, 60);
    /* the same seed draws the same vector; another seed another */
    CHECK_INT(play("quit\n", "--random-weights --seed 5 --depth 1", pdn), 0);
    w = strstr(out, "The engine's weights (White)");
    CHECK(w && strcmp(w, first) == 0);
    CHECK_INT(play("quit\n", "--random-weights --seed 6 --depth 1", pdn), 0);
    w = strstr(out, "The engine's weights (White)");
    CHECK(w && strcmp(w, first) != 0);
    /* the engine first: it plays Black, the person White, seen from White's side */
    CHECK_INT(play("quit\n", "--random-weights --engine-first --seed 5 --depth 1", pdn), 0);
    CHECK(strstr(out, "You play White against kingme") != NULL);
    CHECK(strstr(out, "The engine's weights (Black)") != NULL);
    CHECK(strstr(out, "Move 1, White to move (you)") != NULL);
    CHECK(strstr(out, "\n     a  b  c  d  e  f  g  h\n") != NULL);
    char *t = test_slurp(pdn);
    CHECK(t && strstr(t, "1. ") && strstr(t, "[White \"human\"]"));
    free(t);
    remove(pdn);
}

TEST(play_orientation_and_flip)
{
    char pdn[256];
    tmp_name(pdn, sizeof pdn, "m.pdn");
    /* the person's Black men at the bottom: rank 8 last, files h..a */
    CHECK_INT(play("flip\nquit\n", "--depth 1", pdn), 0);
    const char *black_bottom =
        "  8  b     b     b     b        Black: you, 12 men\n     h  g  f  e  d  c  b  a\n";
    const char *white_bottom = "  1  w     w     w     w        White: kingme, 12 men\n"
                               "     a  b  c  d  e  f  g  h\n";
    const char *a = strstr(out, black_bottom), *b = strstr(out, white_bottom);
    CHECK(a != NULL);
    CHECK(b != NULL && a && b > a);                                        /* flip turned it */
    CHECK(strstr(out, "  1     w     w     w     w     White: ") != NULL); /* square 32 top left */
    CHECK_INT(play("quit\n", "--depth 1 --flip", pdn), 0);
    CHECK(strstr(out, white_bottom) != NULL && strstr(out, black_bottom) == NULL);
    remove(pdn);
}

TEST(play_colour_board)
{
    char pdn[256], cmd[600];
    tmp_name(pdn, sizeof pdn, "o.pdn");
    /* forced colours: Unicode discs, escape sequences, no ASCII pieces */
    snprintf(cmd, sizeof cmd, "printf '11-15\\nquit\\n' | %s play --color --depth 1 --seed 1 --out %s",
             test_kingme(), pdn);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK(strstr(out, "\033[") != NULL);
    CHECK(strstr(out, "\u25CF") != NULL && strstr(out, "\u25CB") != NULL); /* black and white men */
    CHECK(strstr(out, "\033[H") == NULL);                                  /* no clearing into a pipe */
    CHECK(strstr(out, " b     b ") == NULL && strstr(out, "[b]") == NULL); /* no ASCII men */
    CHECK(strstr(out, "Black played") != NULL);
    /* NO_COLOR, or output to a pipe, gives ASCII */
    snprintf(cmd, sizeof cmd, "printf 'quit\\n' | NO_COLOR=1 %s play --depth 1 --out %s", test_kingme(), pdn);
    CHECK_INT(test_run(cmd, out, sizeof out), 0);
    CHECK(strchr(out, '\033') == NULL && strstr(out, "\u25CF") == NULL && strstr(out, " b     b ") != NULL);
    remove(pdn);
}

TEST(play_bad_options)
{
    char pdn[256];
    tmp_name(pdn, sizeof pdn, "n.pdn");
    CHECK_INT(play(NULL, "--black robot", pdn), 2);
    CHECK_STR(out, "kingme play: --black 'robot' is not human or engine\nsee: kingme help play\n");
    CHECK_INT(play(NULL, "--depth 0", pdn), 2);
    CHECK_INT(play(NULL, "--depth 2 --time 1", pdn), 2);
    CHECK_INT(play(NULL, "--random-weights --weights weights/default.w", pdn), 2);
    CHECK_INT(play(NULL, "--fen B:W33:B1", pdn), 1);
    CHECK_INT(play(NULL, "--weights /nonexistent/x.w", pdn), 1);
    CHECK_INT(play(NULL, "--pdn /nonexistent/x.pdn", pdn), 1);
    CHECK(access(pdn, F_OK) != 0); /* nothing written for a refused start */
    CHECK_INT(play("quit\n", "--depth 1", "Makefile/x.pdn"), 1);
    CHECK_MSG(strstr(out, "kingme: Makefile: cannot create the folder: Not a directory\n") != NULL, "%s",
              out);
    remove(pdn);
}

/* Every line of the screen fits 80 columns: the header, the board with its
 * panel (a long name is cut there, the header has it whole), the moves. */
TEST(play_screen_fits_80_columns)
{
    char pdn[256];
    tmp_name(pdn, sizeof pdn, "w80.pdn");
    CHECK_INT(play("11-15\nquit\n", "--tc 5+2 --white-weights weights/archive/terms-flat2.w", pdn), 0);
    CHECK(strstr(out, "You play Black against kingme (clock 5+2, weights/archive/terms-flat2.w).\n") != NULL);
    CHECK(strstr(out, "White: kingme (weights/archiv..., 12 men  5:0") != NULL);
    for (const char *p = out; *p;) {
        size_t n = strcspn(p, "\n");
        CHECK_MSG(n <= 80, "a line of %zu columns: %.*s", n, (int)n, p);
        p += n + (p[n] == '\n');
    }
    remove(pdn);
}

TEST(play_clock)
{
    char pdn[256], cmd[2048];
    tmp_name(pdn, sizeof pdn, "clock.pdn");
    /* two engines on a 3 s + 0.05 s clock, 16 plies (about 0.15 s a move,
     * far from the flag even on a loaded machine): the game ends at the cap,
     * each panel line shows its clock */
    CHECK_INT(play(NULL, "--black engine --white engine --tc 0.05+0.05 --seed 2 --max-plies 16", pdn), 0);
    CHECK_MSG(strstr(out, "Game over: ") != NULL && strstr(out, "lost on time") == NULL, "%s",
              strstr(out, "Game over: ") ? strstr(out, "Game over: ") : out);
    CHECK(strstr(out, "White: kingme, 12 men  0:03.0") != NULL);
    check_replays(pdn, -1);
    /* a person who takes 0.5 s against a 0.12 s clock (0.002 minutes) loses
     * on time with that move. The clock starts at the prompt, so the move
     * is typed half a second after the prompt is seen: that pause is the
     * person's slowness under test, not a wait for the program */
    snprintf(cmd, sizeof cmd, "exec %s play --no-color --tc 0.002+0 --out %s", test_kingme(), pdn);
    int to, from;
    pid_t pid = test_spawn(cmd, &to, &from);
    CHECK(pid > 0);
    if (pid > 0) {
        CHECK_MSG(test_wait_for(from, "Black> ", 60), "no prompt");
        nanosleep(&(struct timespec){0, 500000000}, NULL);
        CHECK(write(to, "11-15\n", 6) == 6);
        close(to);
        static char rest[1 << 16];
        size_t n = 0;
        ssize_t r;
        while (n + 1 < sizeof rest && (r = read(from, rest + n, sizeof rest - 1 - n)) > 0) n += (size_t)r;
        rest[n] = '\0';
        close(from);
        int st = 0;
        waitpid(pid, &st, 0);
        CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
        CHECK_MSG(strstr(rest, "Game over: White wins, 0-1 (Black lost on time). kingme wins."), "%s", rest);
    }
    /* --tc sets the time: not with --time or --depth; a bad clock */
    CHECK_INT(play(NULL, "--tc 5+2 --time 1", pdn), 2);
    CHECK_INT(play(NULL, "--tc five", pdn), 2);
    CHECK_MSG(strstr(out, "kingme play: --tc 'five' is not MINUTES+SECONDS") != NULL, "%s", out);
    remove(pdn);
}

/* ---- thinking on the person's time -------------------------------------------- */

#include <poll.h>

typedef struct Talk {
    pid_t pid;
    int to, from;
    char buf[1 << 16];
    size_t len;
} Talk;

static bool talk_open(Talk *t, const char *args)
{
    int in[2], from[2];
    memset(t, 0, sizeof *t);
    if (pipe(in) || pipe(from)) return false;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "exec %s play --no-color %s 2>&1", test_kingme(), args);
    t->pid = fork();
    if (t->pid < 0) return false;
    if (t->pid == 0) {
        dup2(in[0], 0);
        dup2(from[1], 1);
        close(in[0]), close(in[1]), close(from[0]), close(from[1]);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(from[1]);
    t->to = in[1];
    t->from = from[0];
    return true;
}

static void talk_send(Talk *t, const char *line)
{
    size_t n = strlen(line);
    if (write(t->to, line, n) != (ssize_t)n || write(t->to, "\n", 1) != 1)
        test_fail(__FILE__, __LINE__, "write");
}

/* Read until the output holds needle (searched from *at); the text after it
 * up to the end of its line into rest. */
static bool talk_until(Talk *t, size_t *at, const char *needle, char *rest, size_t cap, double secs)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double end = (double)ts.tv_sec + ts.tv_nsec / 1e9 + secs;
    for (;;) {
        t->buf[t->len] = '\0';
        char *hit = strstr(t->buf + *at, needle);
        if (hit) hit += strlen(needle);
        char *eol = hit ? strchr(hit - (needle[strlen(needle) - 1] == '\n'), '\n') : NULL;
        if (eol) {
            snprintf(rest, cap, "%.*s", eol > hit ? (int)(eol - hit) : 0, hit);
            *at = (size_t)(eol + 1 - t->buf);
            return true;
        }
        clock_gettime(CLOCK_MONOTONIC, &ts);
        double left = end - ((double)ts.tv_sec + ts.tv_nsec / 1e9);
        if (left <= 0 || t->len + 1 >= sizeof t->buf) return false;
        struct pollfd pf = {t->from, POLLIN, 0};
        if (poll(&pf, 1, (int)(left * 1000) + 1) <= 0) continue;
        ssize_t r = read(t->from, t->buf + t->len, sizeof t->buf - 1 - t->len);
        if (r <= 0) return false;
        t->len += (size_t)r;
    }
}

/* The engine's expected reply played: its next move says how long it
 * thought on the person's time; a different reply, or --no-ponder: it does
 * not. Under --depth it never ponders (the same seed replays the game). */
TEST(play_thinks_on_the_persons_time)
{
    char pdn[256];
    tmp_name(pdn, sizeof pdn, "ponder.pdn");
    for (int mode = 0; mode < 3; mode++) {
        Talk t;
        char args[512], rest[512];
        snprintf(args, sizeof args, "--time 0.05 --seed 1 --no-egdb --no-book --out %s%s", pdn,
                 mode == 2 ? " --no-ponder" : "");
        if (!talk_open(&t, args)) return;
        size_t at = 0;
        talk_send(&t, "11-15");
        /* mode 1 needs a reply other than the expected one: while the
         * person's only move is the expected one, it is played and the
         * engine moves again */
        bool done = false;
        for (int turn = 0; turn < 8 && !done; turn++) {
            CHECK(talk_until(&t, &at, "expected line: ", rest, sizeof rest, 20));
            char first[32], reply[32] = "", other[32] = "";
            CHECK_MSG(sscanf(rest, "%31s %31s", first, reply) == 2, "%s", rest);
            CHECK(talk_until(&t, &at, "  1) ", rest, sizeof rest, 20));
            /* the list: "a   2) b   3) c ..." */
            for (char *q = rest; *q && !other[0];) {
                char mv[32];
                if (sscanf(q, "%31s", mv) == 1 && strcmp(mv, reply) != 0)
                    snprintf(other, sizeof other, "%s", mv);
                q = strstr(q, ") ");
                if (!q) break;
                q += 2;
            }
            bool miss = mode == 1 && other[0];
            talk_send(&t, miss ? other : reply);
            CHECK(talk_until(&t, &at, "White played ", rest, sizeof rest, 20));
            if (mode == 1 && !miss) continue;
            bool pondered = strstr(rest, "on your time)") != NULL;
            CHECK_MSG(pondered == (mode == 0), "mode %d: %s (reply %s)", mode, rest, miss ? other : reply);
            done = true;
        }
        CHECK_MSG(done, "mode %d: no position with a choice", mode);
        talk_send(&t, "quit");
        close(t.to);
        while (talk_until(&t, &at, "\n", rest, sizeof rest, 10)) {
        }
        close(t.from);
        int st;
        waitpid(t.pid, &st, 0);
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    remove(pdn);
}
