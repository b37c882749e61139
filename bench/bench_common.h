/* bench_common.h — what every benchmark program needs: a monotonic clock in seconds and the
 * median of a set of runs. */
#ifndef EVGEN_BENCH_COMMON_H
#define EVGEN_BENCH_COMMON_H

#include <stdlib.h>
#include <time.h>

static inline double bench_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline int bench_compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts `v` and returns its median. */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_compare_double);
    return v[n / 2];
}

#endif /* EVGEN_BENCH_COMMON_H */
