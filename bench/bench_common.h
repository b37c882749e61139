/* bench_common.h — what every benchmark program needs: a monotonic clock in seconds, the process's
 * CPU time, the median of a set of runs, and the arguments of the trace benchmarks. */
#ifndef EVGEN_BENCH_COMMON_H
#define EVGEN_BENCH_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static inline double bench_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* User + system time of every thread of the process, in seconds. */
static inline double bench_process_cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec / 1e6;
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

/* Where a benchmark writes its files: argv[index] if given, else $TMPDIR, else /tmp. */
static inline const char *bench_dir_arg(int argc, char **argv, int index)
{
    if (argc > index)
        return argv[index];
    return getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
}

/* The arguments of a benchmark that writes a trace: [EVENTS >= 1000] [RUNS 1..64] [DIR] (DIR defaults
 * to $TMPDIR, else /tmp). Returns 0, or prints the usage and returns 2, the exit status. */
static inline int bench_trace_args(int argc, char **argv, long default_events, long *events, int *runs,
                                   const char **dir)
{
    *events = argc > 1 ? atol(argv[1]) : default_events;
    *runs = argc > 2 ? atoi(argv[2]) : 5;
    *dir = bench_dir_arg(argc, argv, 3);
    if (*events < 1000 || *runs < 1 || *runs > 64) {
        fprintf(stderr, "usage: %s [EVENTS >= 1000] [RUNS 1..64] [DIR]\n", argv[0]);
        return 2;
    }
    return 0;
}

/* The arguments of a benchmark that writes MiB of bytes: [MIB >= 16] [RUNS 1..64] [DIR]; `mib_what`
 * names the size in the usage ("per run", "per thread"). Returns 0, or prints the usage and
 * returns 2, the exit status. */
static inline int bench_mib_args(int argc, char **argv, long default_mib, const char *mib_what, long *mib,
                                 int *runs, const char **dir)
{
    *mib = argc > 1 ? atol(argv[1]) : default_mib;
    *runs = argc > 2 ? atoi(argv[2]) : 5;
    *dir = bench_dir_arg(argc, argv, 3);
    if (*mib < 16 || *runs < 1 || *runs > 64) {
        fprintf(stderr, "usage: %s [MIB %s >= 16] [RUNS 1..64] [DIR]\n", argv[0], mib_what);
        return 2;
    }
    return 0;
}

/* For what a benchmark cannot go on without: prints WHAT and errno's message, exits 1. */
static inline void bench_die(const char *what)
{
    perror(what);
    exit(1);
}

#endif /* EVGEN_BENCH_COMMON_H */
