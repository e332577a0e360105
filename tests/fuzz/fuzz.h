/* fuzz.h - what the libFuzzer targets of tests/fuzz share. Each target
 * checks an invariant (a round trip, a count), not only that nothing
 * crashes: FUZZ_CHECK aborts with a message, which libFuzzer reports as a
 * crash with the input that caused it. Build and run: make fuzz. */
#ifndef KINGME_FUZZ_H
#define KINGME_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_CHECK(cond, ...)                                                             \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: FUZZ_CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fputc('\n', stderr);                                                          \
            abort();                                                                      \
        }                                                                                 \
    } while (0)

/* The input as a malloc'd NUL-terminated string (a NUL inside ends it early,
 * as for the library's text readers). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s) abort();
    if (size) memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
