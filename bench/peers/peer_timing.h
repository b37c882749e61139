/* peer_timing.h — how every peer harness is timed and reported, so that the figures compare: wall
 * time from CLOCK_MONOTONIC, the process's CPU time from getrusage(RUSAGE_SELF) (user + system, all
 * its threads), and one line per measurement that bench/peers/run.sh parses:
 *   PEER <harness> events=<n> wall_ns=<ns> cpu_ns=<ns>
 * (totals over the run, not per event: run.sh divides, and measures the output's bytes itself).
 * The GCHeapStats v2 payload every harness records is bench/gc_heap_values.h's, as emit_bench's. */
#ifndef EVGEN_PEER_TIMING_H
#define EVGEN_PEER_TIMING_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "../gc_heap_values.h"

#define PEER_GC_HEAP_STATS_PAYLOAD_BYTES 110

typedef struct peer_mark {
    uint64_t wall_ns;
    uint64_t cpu_ns;
} peer_mark;

static inline uint64_t peer_monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline peer_mark peer_mark_now(void)
{
    struct rusage usage;
    peer_mark mark;
    getrusage(RUSAGE_SELF, &usage);
    mark.cpu_ns = ((uint64_t)usage.ru_utime.tv_sec + (uint64_t)usage.ru_stime.tv_sec) * 1000000000u +
                  ((uint64_t)usage.ru_utime.tv_usec + (uint64_t)usage.ru_stime.tv_usec) * 1000u;
    mark.wall_ns = peer_monotonic_ns();
    return mark;
}

/* Prints the PEER line of a measurement from `start` to `end`; `extra_cpu_ns` is CPU spent for the
 * process elsewhere (LTTng's consumer daemon), added to its own. */
static inline void peer_report(const char *harness, long events, peer_mark start, peer_mark end,
                               uint64_t extra_cpu_ns)
{
    printf("PEER %s events=%ld wall_ns=%llu cpu_ns=%llu\n", harness, events,
           (unsigned long long)(end.wall_ns - start.wall_ns),
           (unsigned long long)(end.cpu_ns - start.cpu_ns + extra_cpu_ns));
    fflush(stdout);
}

/* The event count argument, or exits with the usage. */
static inline long peer_events_arg(const char *text, const char *usage)
{
    char *end;
    long events = strtol(text, &end, 10);
    if (*end != '\0' || events < 1) {
        fprintf(stderr, "usage: %s\n", usage);
        exit(2);
    }
    return events;
}

#endif /* EVGEN_PEER_TIMING_H */
