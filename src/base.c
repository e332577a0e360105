/* base.c - the message helper and the clocks.
 * See base.h. */
#include "kingme/base.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

int km_fail(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, KM_ERR_MAX, fmt, ap);
    va_end(ap);
    return -1;
}

bool km_fail_false(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, KM_ERR_MAX, fmt, ap);
    va_end(ap);
    return false;
}

void *km_fail_null(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, KM_ERR_MAX, fmt, ap);
    va_end(ap);
    return NULL;
}

double km_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

double km_cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
