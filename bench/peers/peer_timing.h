/* peer_timing.h — how every peer harness is timed and reported, so that the figures compare: wall
 * time from CLOCK_MONOTONIC, the process's CPU time from getrusage(RUSAGE_SELF) (user + system, all
 * its threads), and one line per measurement that bench/peers/run.sh parses:
 *   PEER <harness> events=<n> wall_ns=<ns> cpu_ns=<ns>
 * (totals over the run, not per event: run.sh divides, and measures the output's bytes itself).
 * Also the GCHeapStats v2 payload every harness records, with values varying per event as in
 * bench/emit_bench.c. */
#ifndef EVGEN_PEER_TIMING_H
#define EVGEN_PEER_TIMING_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

/* The statistics a runtime passes with GCHeapStats, as they would lie in its heap: read from
 * memory at every event (volatile: loads, as a runtime's fields are), so that no harness's compiler
 * folds them into its serializer as constants, which a serializer inlined at the call site (evgen's,
 * LTTng's) or cloned for it (gcc's constant propagation) would otherwise make stores of immediates. */
static volatile struct peer_gc_heap {
    uint64_t sizes[9]; /* TotalPromotedSize0 ... FinalizationPromotedCount */
    uint32_t counts[3];
    uint16_t clr_instance_id;
    uint64_t total_promoted4;
} peer_gc_heap = {{1, 2, 3, 4, 5, 6, 7, 8, 9}, {10, 11, 12}, 13, 15};

/* The 16 fields of GCHeapStats version 2 (manifest/gcevents.h), 110 bytes when packed, for event
 * `i`: the two generation sizes vary with i, the rest is read from peer_gc_heap; as emit_bench.c. */
#define PEER_GC_HEAP_STATS_VALUES(i)                                                                   \
    (uint64_t)(i), peer_gc_heap.sizes[0], peer_gc_heap.sizes[1], peer_gc_heap.sizes[2], peer_gc_heap.sizes[3], \
        peer_gc_heap.sizes[4], peer_gc_heap.sizes[5], peer_gc_heap.sizes[6], peer_gc_heap.sizes[7],            \
        peer_gc_heap.sizes[8], peer_gc_heap.counts[0], peer_gc_heap.counts[1], peer_gc_heap.counts[2],         \
        peer_gc_heap.clr_instance_id, (uint64_t)(i), peer_gc_heap.total_promoted4
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
