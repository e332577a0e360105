/* bits.h - small inline bit helpers shared by every module. */
#ifndef KINGME_BITS_H
#define KINGME_BITS_H

#include <stdint.h>

static inline int bits_popcount32(uint32_t x) { return __builtin_popcount(x); }
static inline int bits_lsb32(uint32_t x) { return __builtin_ctz(x); }
/* Index of the lowest set bit, which is then cleared. x must be non-zero. */
static inline int bits_poplsb32(uint32_t *x)
{
    int i = __builtin_ctz(*x);
    *x &= *x - 1;
    return i;
}

#endif
