/* fuzz_book.c - opening book files: the input, its two CRC-32 checksums
 * made right first (else nearly every input would stop there), is read by
 * book_from_bytes. A book it accepts must hold what its header says (the
 * counts, keys in order, each found at its index), and must be written
 * again by book_encode (the header is bounded on write as on read: what a
 * reader takes, the writer takes), read back to the same positions and
 * moves, and encoded once more to the very same bytes. */
#include "fuzz.h"
#include "kingme/book.h"
#include "kingme/textio.h"

static uint32_t get32(const uint8_t *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* The checksums of a file whose header size is within it. */
static void fix_checksums(uint8_t *p, size_t n)
{
    if (n < 104) return;
    uint32_t h = get32(p + 12);
    if (h < 104 || h > n) return;
    put32(p + 92, textio_crc32(0, p + h, n - h));
    static const uint8_t zero[4];
    uint32_t c = textio_crc32(0, p, 96);
    c = textio_crc32(c, zero, 4);
    put32(p + 96, textio_crc32(c, p + 100, h - 100));
}

/* The bytes book_encode makes of bk; NULL when it refuses them. */
static uint8_t *encode(const Book *bk, size_t *len, char *err)
{
    int n = book_count(bk);
    BookOutPos *pos = calloc((size_t)n + 1, sizeof *pos);
    uint16_t *codes = calloc((size_t)book_header(bk)->moves + 1, sizeof *codes);
    int16_t *scores = calloc((size_t)book_header(bk)->moves + 1, sizeof *scores);
    if (!pos || !codes || !scores) abort();
    size_t at = 0;
    for (int k = 0; k < n; k++) {
        BookEntry e;
        book_entry_at(bk, k, &e);
        pos[k] = (BookOutPos){e.key, e.nmoves, codes + at, scores + at};
        for (int i = 0; i < e.nmoves; i++, at++) {
            codes[at] = (uint16_t)book_entry_code(&e, i);
            scores[at] = (int16_t)book_entry_score(&e, i);
        }
    }
    uint8_t *out = book_encode(book_header(bk), pos, n, len, err);
    free(pos);
    free(codes);
    free(scores);
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *p = malloc(size ? size : 1);
    if (!p) abort();
    if (size) memcpy(p, data, size);
    fix_checksums(p, size);
    char err[KM_ERR_MAX];
    Book *bk = book_from_bytes(p, size, "fuzz", err);
    free(p);
    if (!bk) {
        FUZZ_CHECK(err[0] && !strchr(err, '\n'), "a refusal is one line: '%s'", err);
        return 0;
    }
    const BookHeader *h = book_header(bk);
    int n = book_count(bk);
    FUZZ_CHECK((uint32_t)n == h->positions, "%d positions, the header says %u", n, (unsigned)h->positions);
    FUZZ_CHECK(strlen(h->command) <= BOOK_COMMAND_MAX, "a command of %zu bytes", strlen(h->command));
    uint64_t moves = 0;
    for (int k = 0; k < n; k++) {
        BookEntry e;
        book_entry_at(bk, k, &e);
        FUZZ_CHECK(e.nmoves >= 1 && e.nmoves <= 255, "position %d: %d moves", k, e.nmoves);
        FUZZ_CHECK(book_find_index(bk, e.key) == k, "position %d is not found at its index", k);
        moves += (uint64_t)e.nmoves;
    }
    FUZZ_CHECK(moves == h->moves, "%llu moves, the header says %u", (unsigned long long)moves,
               (unsigned)h->moves);
    size_t len1, len2;
    uint8_t *b1 = encode(bk, &len1, err);
    FUZZ_CHECK(b1 != NULL, "a book read is not written again: %s", err);
    Book *again = book_from_bytes(b1, len1, "again", err);
    FUZZ_CHECK(again != NULL, "a book written is not read back: %s", err);
    FUZZ_CHECK(book_count(again) == n, "%d positions read back, not %d", book_count(again), n);
    for (int k = 0; k < n; k++) {
        BookEntry a, b;
        book_entry_at(bk, k, &a);
        book_entry_at(again, k, &b);
        FUZZ_CHECK(a.key == b.key && a.nmoves == b.nmoves, "position %d changed", k);
        /* the same moves, best first now */
        for (int i = 0; i < a.nmoves; i++) {
            int found = 0;
            for (int j = 0; j < b.nmoves && !found; j++)
                found = book_entry_code(&a, i) == book_entry_code(&b, j) &&
                        book_entry_score(&a, i) == book_entry_score(&b, j);
            FUZZ_CHECK(found, "position %d lost move %d", k, i);
            if (i) FUZZ_CHECK(book_entry_score(&b, i - 1) >= book_entry_score(&b, i), "not best first");
        }
    }
    FUZZ_CHECK(strcmp(book_header(again)->command, h->command) == 0, "the command changed");
    uint8_t *b2 = encode(again, &len2, err);
    FUZZ_CHECK(b2 && len2 == len1 && memcmp(b1, b2, len1) == 0, "encoding twice gives other bytes");
    free(b1);
    free(b2);
    book_close(again);
    book_close(bk);
    return 0;
}
