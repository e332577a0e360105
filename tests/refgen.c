/* refgen.c - the reference move generator (see refgen.h).
 *
 * Written for clarity, not speed: every rule of docs/rules.md is one visible test
 * below, on an 8x8 array. */
#include "refgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- geometry ---------------------------------------------------------------
 * From the diagram: squares 1-4 are on the top row (rank 8), on the columns
 * b, d, f, h; squares 5-8 on the next row, on a, c, e, g; and so on. So the
 * row of square n is (n-1)/4, and its column is 2*((n-1)%4), plus one on the
 * even rows (0, 2, 4, 6). A cell (row, col) is dark when row+col is odd. */

bool ref_square_rc(int sq, int *row, int *col)
{
    *row = *col = -1;
    if (sq < 1 || sq > 32) return false;
    int r = (sq - 1) / 4;
    *row = r;
    *col = 2 * ((sq - 1) % 4) + (r % 2 == 0 ? 1 : 0);
    return true;
}

int ref_rc_square(int row, int col)
{
    if (row < 0 || row > 7 || col < 0 || col > 7) return 0;
    if ((row + col) % 2 == 0) return 0;
    return row * 4 + col / 2 + 1;
}

static bool inside(int row, int col) { return row >= 0 && row < 8 && col >= 0 && col < 8; }

static int colour_of(char c)
{
    if (c == RC_BLACK_MAN || c == RC_BLACK_KING) return KM_BLACK;
    if (c == RC_WHITE_MAN || c == RC_WHITE_KING) return KM_WHITE;
    return -1;
}

static bool is_king(char c) { return c == RC_BLACK_KING || c == RC_WHITE_KING; }

/* The row where a man of side is crowned: Black men go down to row 7 (29-32),
 * White men up to row 0 (1-4). */
static int crown_row(int side) { return side == KM_BLACK ? 7 : 0; }

/* The row direction a man of side moves in. */
static int forward(int side) { return side == KM_BLACK ? 1 : -1; }

/* ---- conversion ---------------------------------------------------------- */

void ref_from_board(const Board *b, RefPos *p)
{
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++) p->cell[r][c] = (r + c) % 2 ? RC_EMPTY : ' ';
    for (int sq = 1; sq <= 32; sq++) {
        int r, c;
        ref_square_rc(sq, &r, &c);
        bool black = (b->pieces[KM_BLACK] >> (sq - 1)) & 1;
        bool white = (b->pieces[KM_WHITE] >> (sq - 1)) & 1;
        bool king = (b->kings >> (sq - 1)) & 1;
        if (black) p->cell[r][c] = king ? RC_BLACK_KING : RC_BLACK_MAN;
        else if (white) p->cell[r][c] = king ? RC_WHITE_KING : RC_WHITE_MAN;
    }
    p->stm = b->stm;
}

void ref_to_board(const RefPos *p, Board *b)
{
    b->pieces[0] = b->pieces[1] = 0;
    b->kings = 0;
    for (int sq = 1; sq <= 32; sq++) {
        int r, c;
        ref_square_rc(sq, &r, &c);
        char x = p->cell[r][c];
        int side = colour_of(x);
        if (side < 0) continue;
        b->pieces[side] |= 1u << (sq - 1);
        if (is_king(x)) b->kings |= 1u << (sq - 1);
    }
    b->stm = p->stm;
}

/* ---- generation ------------------------------------------------------------ */

typedef struct Search {
    char cell[8][8];  /* the position, with the moving piece lifted off */
    bool taken[8][8]; /* pieces jumped so far (still on the board) */
    int side;         /* the mover's colour */
    bool king;        /* the mover is a king */
    RefMove cur;      /* the move being built */
    RefMoves *out;
} Search;

static void record(Search *s, int njumps)
{
    RefMoves *o = s->out;
    if (o->count < REF_MAX_MOVES) {
        RefMove *m = &o->moves[o->count];
        *m = s->cur;
        m->njumps = njumps;
        m->ncaptured = 0;
        /* The captured set, read off the board in square order. */
        for (int sq = 1; sq <= 32; sq++) {
            int r, c;
            ref_square_rc(sq, &r, &c);
            if (s->taken[r][c]) m->captured[m->ncaptured++] = sq;
        }
        o->stored = o->count + 1;
    }
    o->count++;
}

/* The piece stands (virtually) on (row, col) after depth jumps. */
static void jump_from(Search *s, int row, int col, int depth)
{
    bool jumped = false;
    for (int dr = -1; dr <= 1; dr += 2) {
        /* men only forward; kings both ways */
        if (!s->king && dr != forward(s->side)) continue;
        for (int dc = -1; dc <= 1; dc += 2) {
            int orow = row + dr, ocol = col + dc;         /* the piece jumped over */
            int lrow = row + 2 * dr, lcol = col + 2 * dc; /* the landing cell */
            if (!inside(lrow, lcol)) continue;
            int victim = colour_of(s->cell[orow][ocol]);
            if (victim < 0 || victim == s->side) continue; /* not an enemy */
            if (s->taken[orow][ocol]) continue;            /* never jumped twice */
            /* Jumped pieces stay until the move ends, so only a truly empty
             * cell will do (the start cell was emptied when the piece left). */
            if (s->cell[lrow][lcol] != RC_EMPTY) continue;
            jumped = true;
            s->taken[orow][ocol] = true;
            s->cur.path[depth] = ref_rc_square(lrow, lcol);
            if (!s->king && lrow == crown_row(s->side))
                record(s, depth + 1); /* crowned: the move ends here */
            else jump_from(s, lrow, lcol, depth + 1);
            s->taken[orow][ocol] = false;
        }
    }
    if (!jumped && depth > 0) record(s, depth); /* the sequence is finished */
}

/* All capture sequences of side; returns how many. */
static int gen_jumps(const RefPos *p, int side, RefMoves *out)
{
    int before = out->count;
    for (int sq = 1; sq <= 32; sq++) {
        int r, c;
        ref_square_rc(sq, &r, &c);
        char piece = p->cell[r][c];
        if (colour_of(piece) != side) continue;
        Search s;
        memcpy(s.cell, p->cell, sizeof s.cell);
        memset(s.taken, 0, sizeof s.taken);
        s.cell[r][c] = RC_EMPTY; /* the mover's start square is empty while it jumps */
        s.side = side;
        s.king = is_king(piece);
        memset(&s.cur, 0, sizeof s.cur);
        s.cur.from = sq;
        s.out = out;
        jump_from(&s, r, c, 0);
    }
    return out->count - before;
}

int ref_gen(const RefPos *p, RefMoves *out)
{
    out->count = out->stored = 0;
    int side = p->stm;
    if (gen_jumps(p, side, out) > 0) return out->count; /* capturing is compulsory */
    for (int sq = 1; sq <= 32; sq++) {
        int r, c;
        ref_square_rc(sq, &r, &c);
        char piece = p->cell[r][c];
        if (colour_of(piece) != side) continue;
        for (int dr = -1; dr <= 1; dr += 2) {
            if (!is_king(piece) && dr != forward(side)) continue;
            for (int dc = -1; dc <= 1; dc += 2) {
                int tr = r + dr, tc = c + dc;
                if (!inside(tr, tc) || p->cell[tr][tc] != RC_EMPTY) continue;
                if (out->count < REF_MAX_MOVES) {
                    RefMove *m = &out->moves[out->count];
                    memset(m, 0, sizeof *m);
                    m->from = sq;
                    m->path[0] = ref_rc_square(tr, tc);
                    out->stored = out->count + 1;
                }
                out->count++;
            }
        }
    }
    return out->count;
}

bool ref_can_capture(const RefPos *p, int side)
{
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++) {
            char piece = p->cell[r][c];
            if (colour_of(piece) != side) continue;
            for (int dr = -1; dr <= 1; dr += 2)
                for (int dc = -1; dc <= 1; dc += 2) {
                    if (!is_king(piece) && dr != forward(side)) continue;
                    int orow = r + dr, ocol = c + dc, lrow = r + 2 * dr, lcol = c + 2 * dc;
                    if (!inside(lrow, lcol)) continue;
                    int victim = colour_of(p->cell[orow][ocol]);
                    if (victim >= 0 && victim != side && p->cell[lrow][lcol] == RC_EMPTY) return true;
                }
        }
    return false;
}

void ref_make(RefPos *p, const RefMove *m)
{
    int fr, fc, tr, tc;
    if (!ref_square_rc(m->from, &fr, &fc) || !ref_square_rc(ref_move_to(m), &tr, &tc))
        return; /* not a move */
    char piece = p->cell[fr][fc];
    int side = colour_of(piece);
    p->cell[fr][fc] = RC_EMPTY;
    for (int i = 0; i < m->ncaptured; i++) { /* removed only now, at the end */
        int r, c;
        if (ref_square_rc(m->captured[i], &r, &c)) p->cell[r][c] = RC_EMPTY;
    }
    if (!is_king(piece) && tr == crown_row(side)) piece = side == KM_BLACK ? RC_BLACK_KING : RC_WHITE_KING;
    p->cell[tr][tc] = piece;
    p->stm = 1 - p->stm;
}

void ref_move_text(const RefMove *m, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "%d", m->from);
    if (m->njumps == 0) {
        snprintf(buf + n, n < len ? len - n : 0, "-%d", m->path[0]);
        return;
    }
    for (int i = 0; i < m->njumps; i++)
        n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "x%d", m->path[i]);
}

static uint64_t perft_rec(const RefPos *p, int depth, RefMoves *pool)
{
    int n = ref_gen(p, pool);
    if (depth == 1) return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < pool->stored; i++) {
        RefPos q = *p;
        ref_make(&q, &pool->moves[i]);
        total += perft_rec(&q, depth - 1, pool + 1);
    }
    return total;
}

uint64_t ref_perft(const RefPos *p, int depth)
{
    if (depth <= 0) return 1;
    RefMoves *pool = malloc((size_t)depth * sizeof *pool);
    if (!pool) return 0;
    uint64_t n = perft_rec(p, depth, pool);
    free(pool);
    return n;
}

/* ---- random helpers ---------------------------------------------------------- */

uint64_t ref_rand(RefRng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int ref_rand_below(RefRng *r, int n) { return (int)(ref_rand(r) % (uint64_t)n); }

void ref_random_board(RefRng *r, Board *b)
{
    static const int king_percent[] = {0, 10, 30, 60, 100};
    int kp = king_percent[ref_rand_below(r, 5)];
    b->pieces[0] = b->pieces[1] = 0;
    b->kings = 0;
    for (int side = 0; side < 2; side++) {
        /* half the time a full or nearly full side, else anything from 1 */
        int n = ref_rand_below(r, 2) ? 9 + ref_rand_below(r, 4) : 1 + ref_rand_below(r, 12);
        for (int k = 0; k < n; k++) {
            int sq;
            do sq = 1 + ref_rand_below(r, 32);
            while (((b->pieces[0] | b->pieces[1]) >> (sq - 1)) & 1);
            int row = (sq - 1) / 4;
            bool king = ref_rand_below(r, 100) < kp;
            if (row == (side == KM_BLACK ? 7 : 0)) king = true; /* a man there would be crowned */
            b->pieces[side] |= 1u << (sq - 1);
            if (king) b->kings |= 1u << (sq - 1);
        }
    }
    b->stm = ref_rand_below(r, 2) ? KM_WHITE : KM_BLACK;
}

void ref_random_jumpy_board(RefRng *r, Board *b)
{
    /* A jump keeps the row parity and the parity of row/2 + col/2, so these
     * split the dark squares into four classes of eight; a piece only ever
     * lands in its own class, and only jumps pieces on the other row parity. */
    int rowpar = ref_rand_below(r, 2), half = ref_rand_below(r, 2);
    int mover = ref_rand_below(r, 2);
    b->pieces[0] = b->pieces[1] = 0;
    b->kings = 0;
    int nown = 1 + ref_rand_below(r, 3), nopp = 4 + ref_rand_below(r, 9);
    for (int k = 0; k < nown + nopp; k++) {
        int side = k < nown ? mover : 1 - mover, sq, row, col;
        for (;;) {
            sq = 1 + ref_rand_below(r, 32);
            ref_square_rc(sq, &row, &col);
            if (((b->pieces[0] | b->pieces[1]) >> (sq - 1)) & 1) continue;
            if (side == mover && (row % 2 != rowpar || ((row / 2 + col / 2) % 2) != half)) continue;
            if (side != mover && row % 2 == rowpar) continue;
            break;
        }
        bool king = side == mover ? ref_rand_below(r, 4) != 0 : ref_rand_below(r, 3) == 0;
        if (row == (side == KM_BLACK ? 7 : 0)) king = true;
        b->pieces[side] |= 1u << (sq - 1);
        if (king) b->kings |= 1u << (sq - 1);
    }
    b->stm = mover;
}

void ref_stream_init(RefStream *s, uint64_t seed)
{
    s->rng.s = seed;
    s->left = 0;
    s->games = 0;
    s->buf = malloc(sizeof *s->buf);
}

void ref_stream_free(RefStream *s)
{
    free(s->buf);
    s->buf = NULL;
}

void ref_stream_next(RefStream *s, Board *out)
{
    if (s->left <= 0) {
        int mode = s->games++ % 8;
        if (mode == 0) {
            board_init(&s->b);
            s->left = 200;
        } else if (mode <= 3) {
            ref_random_board(&s->rng, &s->b);
            s->left = 1 + ref_rand_below(&s->rng, 30);
        } else {
            ref_random_jumpy_board(&s->rng, &s->b);
            s->left = 1 + ref_rand_below(&s->rng, 10);
        }
    }
    *out = s->b;
    if (!s->buf) {
        s->left = 0;
        return;
    }
    RefPos p;
    ref_from_board(&s->b, &p);
    ref_gen(&p, s->buf);
    if (s->buf->stored == 0) { /* game over: start another next time */
        s->left = 0;
        return;
    }
    ref_make(&p, &s->buf->moves[ref_rand_below(&s->rng, s->buf->stored)]);
    ref_to_board(&p, &s->b);
    s->left--;
}
