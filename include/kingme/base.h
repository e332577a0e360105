/* base.h - what every module shares: the error-message size, the message
 * helper, the random generator, the monotonic clock and the promotion rows.
 *
 * Library code: nothing here prints or exits. */
#ifndef KINGME_BASE_H
#define KINGME_BASE_H

#include <stdbool.h>
#include <stdint.h>

#define KINGME_VERSION "0.1.0" /* the program's, the engine protocol's and the CheckerBoard engine's */

#define KM_ERR_MAX 256 /* size of every error-message buffer (err arguments) */

/* Format a message into err (KM_ERR_MAX bytes, truncated) and return -1, so
 * that `return km_fail(err, "...", ...);` ends a failing function. */
int km_fail(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same message, for the functions that fail with false or with NULL:
 * `return km_fail_false(err, "...", ...);`, `return km_fail_null(err, ...);` */
bool km_fail_false(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void *km_fail_null(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The sides. Black moves first, from squares 1-12 towards 32. */
enum { KM_BLACK = 0, KM_WHITE = 1 };

/* The rows where a side's men are crowned. */
#define BLACK_PROMO_ROW 0xF0000000u /* 29-32: Black men are crowned here */
#define WHITE_PROMO_ROW 0x0000000Fu /* 1-4: White men are crowned here */

/* The mask of the row where side's men are crowned. */
static inline uint32_t km_promotion_row(int side)
{
    return side == KM_BLACK ? BLACK_PROMO_ROW : WHITE_PROMO_ROW;
}

/* The splitmix64 finaliser: a bijective 64-bit mix (Stafford's variant 13). */
static inline uint64_t km_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* splitmix64 (Steele, Lea and Flood 2014): the next number of the sequence
 * whose state is *state. Any start value is fine, 0 included. */
static inline uint64_t km_rng_next(uint64_t *state) { return km_mix64(*state += 0x9E3779B97F4A7C15ull); }

/* Little-endian integers in a byte buffer (the binary files' layout). */
static inline void km_put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}
static inline void km_put64(uint8_t *p, uint64_t v)
{
    km_put32(p, (uint32_t)v), km_put32(p + 4, (uint32_t)(v >> 32));
}
static inline uint32_t km_get32(const uint8_t *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t km_get64(const uint8_t *p) { return km_get32(p) | (uint64_t)km_get32(p + 4) << 32; }

/* Seconds on the monotonic clock (CLOCK_MONOTONIC), for measuring intervals. */
double km_now(void);

/* CPU seconds of the calling thread (CLOCK_THREAD_CPUTIME_ID): what a
 * measurement on a shared machine counts, where wall time is not its own. */
double km_cpu_now(void);

#endif
