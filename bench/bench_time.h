/* ember benches in C: the clock and the sort their medians share. */
#ifndef EMBER_BENCH_TIME_H
#define EMBER_BENCH_TIME_H

#include <time.h>

static inline double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* qsort's comparison of doubles, ascending */
static inline int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#endif
