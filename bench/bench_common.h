/* bench_common.h — what every benchmark program needs: a monotonic clock in seconds, the process's
 * CPU time, the median of a set of runs, the arguments of the trace benchmarks, and a line saying
 * where and when a benchmark ran. */
#ifndef EVGEN_BENCH_COMMON_H
#define EVGEN_BENCH_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

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

/* Copies the value of /proc/cpuinfo's first line that starts with KEY (its text after ": ", without
 * the newline) into OUT; leaves OUT as it is when there is none. */
static inline void bench_cpuinfo_value(const char *key, char *out, size_t size)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    size_t n = strlen(key);
    while (f && fgets(line, sizeof line, f)) {
        const char *colon = line + n + strspn(line + n, " \t"); /* "model" must not find "model name" */
        if (strncmp(line, key, n) == 0 && *colon == ':') {
            snprintf(out, size, "%s", colon[1] == ' ' ? colon + 2 : colon + 1);
            out[strcspn(out, "\n")] = 0;
            break;
        }
    }
    if (f)
        fclose(f);
}

/* One line for a benchmark's output to carry, taken when it starts (so that the load average is the
 * machine's before the benchmark's own): CPUs online, the CPU as the (virtual) machine shows it, the
 * load average, the UTC time. */
static inline void bench_describe_machine(char *out, size_t size)
{
    char name[128] = "unknown CPU", family[16] = "?", model[16] = "?", load[64] = "?", when[32] = "?";
    bench_cpuinfo_value("model name", name, sizeof name);
    bench_cpuinfo_value("cpu family", family, sizeof family);
    bench_cpuinfo_value("model", model, sizeof model);
    double one, five, fifteen;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f && fscanf(f, "%lf %lf %lf", &one, &five, &fifteen) == 3)
        snprintf(load, sizeof load, "%.2f %.2f %.2f", one, five, fifteen);
    if (f)
        fclose(f);
    time_t now = time(NULL);
    const struct tm *utc = gmtime(&now);
    if (utc)
        strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", utc);
    snprintf(out, size, "machine: %ld CPUs online, %s (family %s model %s); load average %s at %s",
             sysconf(_SC_NPROCESSORS_ONLN), name, family, model, load, when);
}

/* For what a benchmark cannot go on without: prints WHAT and errno's message, exits 1. */
static inline void bench_die(const char *what)
{
    perror(what);
    exit(1);
}

#endif /* EVGEN_BENCH_COMMON_H */
