/* board.c - positions, FEN, mirroring, Zobrist keys. */
#include "kingme/board.h"
#include "kingme/bits.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

void board_init(Board *b)
{
    b->pieces[KM_BLACK] = 0x00000FFFu; /* 1-12 */
    b->pieces[KM_WHITE] = 0xFFF00000u; /* 21-32 */
    b->kings = 0;
    b->stm = KM_BLACK;
}

/* ---- FEN ---------------------------------------------------------------- */

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    return p;
}

static int read_square(const char **pp, int *out, const char *fen, char *err)
{
    const char *p = *pp;
    if (!isdigit((unsigned char)*p)) {
        snprintf(err, KM_ERR_MAX, "bad FEN '%s': expected a square number at column %d", fen,
                 (int)(p - fen) + 1);
        return -1;
    }
    int v = 0;
    while (isdigit((unsigned char)*p) && v < 1000) v = v * 10 + (*p++ - '0');
    if (v < 1 || v > 32) {
        snprintf(err, KM_ERR_MAX, "bad FEN '%s': square %d is not between 1 and 32", fen, v);
        return -1;
    }
    *out = v;
    *pp = p;
    return 0;
}

int board_from_fen(Board *b, const char *fen, char *err)
{
    Board r = {{0, 0}, 0, KM_BLACK};
    const char *p = skip_ws(fen);
    if (*p == '"') p++;
    char c = (char)toupper((unsigned char)*p);
    if (c != 'B' && c != 'W') {
        snprintf(err, KM_ERR_MAX, "bad FEN '%s': must start with the side to move, B or W", fen);
        return -1;
    }
    r.stm = c == 'B' ? KM_BLACK : KM_WHITE;
    p = skip_ws(p + 1);
    int seen[2] = {0, 0};
    while (*p == ':') {
        p = skip_ws(p + 1);
        c = (char)toupper((unsigned char)*p);
        if (c != 'B' && c != 'W') {
            snprintf(err, KM_ERR_MAX, "bad FEN '%s': expected B or W after ':' at column %d", fen,
                     (int)(p - fen) + 1);
            return -1;
        }
        int side = c == 'B' ? KM_BLACK : KM_WHITE;
        if (seen[side]++) {
            snprintf(err, KM_ERR_MAX, "bad FEN '%s': the %s pieces are given twice", fen,
                     side == KM_BLACK ? "Black" : "White");
            return -1;
        }
        p = skip_ws(p + 1);
        while (*p && *p != ':' && *p != '.' && *p != '"') {
            bool king = false;
            if (*p == 'K' || *p == 'k') {
                king = true;
                p = skip_ws(p + 1);
            }
            int lo, hi;
            if (read_square(&p, &lo, fen, err)) return -1;
            hi = lo;
            p = skip_ws(p);
            if (*p == '-') {
                p = skip_ws(p + 1);
                if (read_square(&p, &hi, fen, err)) return -1;
                if (hi < lo) {
                    snprintf(err, KM_ERR_MAX, "bad FEN '%s': range %d-%d runs backwards", fen, lo, hi);
                    return -1;
                }
                p = skip_ws(p);
            }
            for (int s = lo; s <= hi; s++) {
                if ((r.pieces[0] | r.pieces[1]) & SQ(s)) {
                    snprintf(err, KM_ERR_MAX, "bad FEN '%s': square %d is given twice", fen, s);
                    return -1;
                }
                r.pieces[side] |= SQ(s);
                if (king) r.kings |= SQ(s);
            }
            if (*p == ',') {
                p = skip_ws(p + 1);
                if (*p == ':' || *p == '\0' || *p == '.') {
                    snprintf(err, KM_ERR_MAX, "bad FEN '%s': a square is missing after ','", fen);
                    return -1;
                }
            } else if (*p && *p != ':' && *p != '.' && *p != '"') {
                snprintf(err, KM_ERR_MAX, "bad FEN '%s': unexpected '%c' at column %d", fen, *p,
                         (int)(p - fen) + 1);
                return -1;
            }
        }
    }
    if (*p == '"') p++;
    if (*p == '.') p++;
    p = skip_ws(p);
    if (*p) {
        snprintf(err, KM_ERR_MAX, "bad FEN '%s': unexpected '%c' at column %d", fen, *p, (int)(p - fen) + 1);
        return -1;
    }
    if (!seen[0] && !seen[1]) {
        snprintf(err, KM_ERR_MAX, "bad FEN '%s': no pieces are given (expected e.g. B:W21-32:B1-12)", fen);
        return -1;
    }
    for (int side = 0; side < 2; side++) {
        const char *name = side == KM_BLACK ? "Black" : "White";
        if (bits_popcount32(r.pieces[side]) > 12) {
            snprintf(err, KM_ERR_MAX, "bad FEN '%s': %s has %d pieces (at most 12)", fen, name,
                     bits_popcount32(r.pieces[side]));
            return -1;
        }
        uint32_t promo = km_promotion_row(side);
        uint32_t bad = r.pieces[side] & ~r.kings & promo;
        if (bad) {
            snprintf(err, KM_ERR_MAX,
                     "bad FEN '%s': %s man on square %d, its promotion row (it would be a king)", fen, name,
                     bits_lsb32(bad) + 1);
            return -1;
        }
    }
    *b = r;
    return 0;
}

void board_to_fen(const Board *b, char *buf, size_t len)
{
    size_t n = 0;
    n += (size_t)snprintf(buf + n, len > n ? len - n : 0, "%c", b->stm == KM_BLACK ? 'B' : 'W');
    static const int order[2] = {KM_WHITE, KM_BLACK};
    for (int k = 0; k < 2; k++) {
        int side = order[k];
        n += (size_t)snprintf(buf + n, len > n ? len - n : 0, ":%c", side == KM_BLACK ? 'B' : 'W');
        uint32_t x = b->pieces[side];
        bool first = true;
        while (x) {
            int i = bits_poplsb32(&x);
            n += (size_t)snprintf(buf + n, len > n ? len - n : 0, "%s%s%d", first ? "" : ",",
                                  (b->kings >> i) & 1 ? "K" : "", i + 1);
            first = false;
        }
    }
}

static uint32_t reverse32(uint32_t x)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++) r |= ((x >> i) & 1u) << (31 - i);
    return r;
}

void board_mirror(const Board *in, Board *out)
{
    Board r;
    r.pieces[KM_BLACK] = reverse32(in->pieces[KM_WHITE]);
    r.pieces[KM_WHITE] = reverse32(in->pieces[KM_BLACK]);
    r.kings = reverse32(in->kings);
    r.stm = 1 - in->stm;
    *out = r;
}

/* ---- Zobrist -------------------------------------------------------------- */

uint64_t board_zobrist[4][32];
uint64_t board_zobrist_side;
static pthread_once_t zobrist_once = PTHREAD_ONCE_INIT;

static void zobrist_fill(void)
{
    uint64_t s = 0x6B696E676D65ull; /* "kingme" */
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 32; i++) board_zobrist[k][i] = km_rng_next(&s);
    board_zobrist_side = km_rng_next(&s);
}

void board_hash_init(void) { pthread_once(&zobrist_once, zobrist_fill); }

uint64_t board_hash(const Board *b)
{
    uint64_t h = b->stm == KM_WHITE ? board_zobrist_side : 0;
    for (int side = 0; side < 2; side++) {
        uint32_t x = b->pieces[side];
        while (x) {
            int i = bits_poplsb32(&x);
            h ^= board_zobrist[side + ((b->kings >> i) & 1 ? 2 : 0)][i];
        }
    }
    return h;
}

/* ---- coordinates ------------------------------------------------------------ */

int board_square_from_coord(char file, char rank)
{
    int col = tolower((unsigned char)file) - 'a';
    int r = rank - '1';
    if (col < 0 || col > 7 || r < 0 || r > 7) return 0;
    int row = 7 - r;                    /* row 0 is rank 8 */
    if ((row + col) % 2 == 0) return 0; /* light square */
    return row * 4 + col / 2 + 1;
}
