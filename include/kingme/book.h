/* book.h - the opening book: a file of positions, each with its legal
 * moves scored by kingme's own deep search; read, probed and chosen from
 * here, built by book_build (book_build.h).
 *
 * The file (docs/book.md), all numbers little-endian:
 *
 *   offset size
 *    0      8   magic "KMBOOK\x1a\n"
 *    8      4   format version (1)
 *   12      4   header bytes H (a multiple of 8)
 *   16      4   positions N
 *   20      4   moves M (over all positions)
 *   24      8   weights ID of the build's weights (book_weights_id)
 *   32      4   a man in evaluation units (|own_men| of those weights)
 *   36      4   search depth of a position (its moves' positions: depth - 1)
 *   40      4   positions the build aims at (--positions)
 *   44      4   plies the start position's main line must reach
 *   48      4   plies each ballot's main line must reach
 *   52      4   opponent's spread, evaluation units (--spread)
 *   56      4   own spread, evaluation units (--own-spread)
 *   60      4   positions scored per round (--batch)
 *   64      4   table of each search, MB (--hash)
 *   68      4   flags: 1 = finished (the build reached its aim)
 *   72      8   seconds of building, over all runs, in milliseconds
 *   80      8   when the file was written (Unix time, seconds)
 *   88      4   length C of the command text
 *   92      4   CRC-32 of the data (bytes H to the end)
 *   96      4   CRC-32 of the header (bytes 0 to H-1, this field read as 0)
 *  100      4   0
 *  104      C   the command that built the book (UTF-8), then zeros to H
 *    H    8 N   the positions' keys (book_key), strictly increasing
 *  H+8N     N   each position's number of moves (1 to 255)
 *  H+9N   4 M   the moves, position by position, best first: a 16-bit move
 *               code (from square index, to square index, and which of the
 *               legal moves with that from and to: bits 0-4, 5-9, 10-15,
 *               the legal moves in the generator's order) and a 16-bit
 *               signed score for the side to move (evaluation units; the
 *               book's own minimax over its positions where the move leads
 *               into the book through a man move or capture; ±32000:
 *               decided)
 *
 * The file must be exactly that long: a truncated file is refused before
 * anything is read from it, and the two checksums catch the rest. The
 * header is bounded on write as on read: a command text of at most
 * BOOK_COMMAND_MAX bytes without a NUL, every number within what a build
 * can write (else "corrupt header (the depth out of range)").
 *
 * A probe finds the position by its key, then decodes each move against
 * the legal moves of the actual position: a book move is only ever played
 * when it is legal there, so a key that collided could give no illegal move.
 *
 * Library code: nothing is printed; errors are one line in err. */
#ifndef KINGME_BOOK_H
#define KINGME_BOOK_H

#include "kingme/eval.h"
#include "kingme/movegen.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BOOK_VERSION 1
#define BOOK_MAGIC "KMBOOK\x1a\n"
#define BOOK_FILE "weights/default.book" /* beside the program, where the repository ships it */
#define BOOK_ENV "KINGME_BOOK"           /* a book file, or "none" */
#define BOOK_SCORE_MAX 32000             /* scores are kept within +-this; at it: decided */
#define BOOK_MAX_BYTES (256u << 20)      /* a larger file is refused */
#define BOOK_COMMAND_MAX 65536           /* the header's command text: longest written and read */
#define BOOK_DEPTH_MAX 126               /* a build's deepest search (SEARCH_MAX_PLY - 2) */

/* The key of a position in the book: a fixed 64-bit mix of the three
 * bitboards and the side to move (docs/book.md gives the formula), so that
 * a book stays valid whatever the search's own hash keys become. */
uint64_t book_key(const Board *b);

/* The ID of a weight vector: a 64-bit hash of its text as a weights file
 * (weights_format), so the same weights give the same ID whatever the
 * struct's layout. 0 when memory runs out. */
uint64_t book_weights_id(const Weights *w);

/* A move's code in a position (see the format above), or -1 when m is not
 * a legal move of b. */
int book_move_code(const Board *b, const Move *m);
/* The legal move of b with that code: true, or false when there is none. */
bool book_move_decode(const Board *b, int code, Move *out);

/* What the header says. */
typedef struct BookHeader {
    uint32_t version, positions, moves;
    uint64_t weights_id;
    int32_t man;
    int depth, target, start_plies, ballot_plies;
    int32_t spread, own_spread;
    int batch, hash_mb;
    bool finished;
    double seconds;  /* of building */
    int64_t written; /* Unix time */
    uint32_t data_crc;
    char *command; /* malloc'd by book_open / book_build; NUL-terminated */
    size_t bytes;  /* the file's size */
} BookHeader;

/* One position of the book, as stored. */
typedef struct BookEntry {
    uint64_t key;
    int nmoves;
    const uint8_t *moves; /* nmoves x 4 bytes: code, score (little-endian) */
} BookEntry;

typedef struct Book Book;

/* Read and check a whole book file. Returns the book, or NULL with one line
 * in err: "PATH: not a kingme opening book", "PATH: truncated (...)",
 * "PATH: format version V, this kingme reads version 1", "PATH: corrupt
 * data (checksum mismatch)", ... */
Book *book_open(const char *path, char *err);
/* The same from bytes in memory (copied); where names them in messages. */
Book *book_from_bytes(const void *bytes, size_t len, const char *where, char *err);
void book_close(Book *bk);
const BookHeader *book_header(const Book *bk);
const char *book_path(const Book *bk);
/* The whole file as read (what workers are sent, named by its hash). */
const uint8_t *book_bytes(const Book *bk, size_t *len);

/* The stored positions in key order: the count, and the k-th. */
int book_count(const Book *bk);
void book_entry_at(const Book *bk, int k, BookEntry *out);
/* The stored entry of a key: true with *out, or false. */
bool book_find(const Book *bk, uint64_t key, BookEntry *out);
/* The index (0 to book_count - 1) of a key among the stored positions, or -1. */
int book_find_index(const Book *bk, uint64_t key);
/* Move i of an entry: its code and score. */
static inline int book_entry_code(const BookEntry *e, int i)
{
    return e->moves[4 * i] | e->moves[4 * i + 1] << 8;
}
static inline int32_t book_entry_score(const BookEntry *e, int i)
{
    return (int16_t)(uint16_t)(e->moves[4 * i + 2] | e->moves[4 * i + 3] << 8);
}

typedef struct BookMove {
    Move move;
    int32_t score; /* for the side to move at the position, evaluation units */
} BookMove;

/* The book's moves at b, best first, each a legal move of b: their number
 * (at most max), or 0 when b is not in the book (or a stored move is not
 * legal there: then the key belonged to another position). */
int book_moves(const Book *bk, const Board *b, BookMove *out, int max);

/* The move to play at b: false when b is not in the book. margin 0: the
 * best move (the first of equals). margin > 0 (evaluation units): one of
 * the moves scored within margin of the best, drawn with weight margin + 1
 * - (best - score), so the best is likeliest and one at the margin has
 * weight 1; *rng is the random state (km_rng_next). *choices, when not
 * NULL, gets how many moves were within the margin. */
bool book_choose(const Book *bk, const Board *b, int32_t margin, uint64_t *rng, BookMove *out, int *choices);

/* A variety in men (0.05) as evaluation units of the book: the man of its
 * header times men, rounded. */
int32_t book_margin(const Book *bk, double men);

/* ---- writing ---- */

/* One position to write: its key and its moves, in any order. */
typedef struct BookOutPos {
    uint64_t key;
    int nmoves;
    const uint16_t *codes;
    const int16_t *scores;
} BookOutPos;

/* The bytes of a book file of these positions (sorted here by key, each
 * one's moves by score, best first, then by code) and this header (its
 * version, counts and checksums are filled in). Returns a malloc'd buffer
 * and *len, or NULL with a message (out of memory, a position with no move
 * or more than 255, the same key twice). */
uint8_t *book_encode(const BookHeader *h, const BookOutPos *pos, int n, size_t *len, char *err);

#endif
