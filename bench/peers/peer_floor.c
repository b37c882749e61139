/* peer_floor.c — the floor the peers are measured against, as in bench/emit_bench.c: per event a
 * CLOCK_MONOTONIC timestamp and the 110-byte GCHeapStats v2 payload stored with memcpy into a 64 KiB
 * buffer, fwritten to FILE when full; timed until the file is closed.
 * Usage: peer_floor EVENTS FILE */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "../bench_floor.h"
#include "peer_timing.h"

typedef struct gc_heap_stats_packed {
    unsigned char bytes[PEER_GC_HEAP_STATS_PAYLOAD_BYTES];
} gc_heap_stats_packed;

/* Packs the 16 fields without padding, as a tracer's serializer does. */
static void pack(gc_heap_stats_packed *out, uint64_t g0, uint64_t p0, uint64_t g1, uint64_t p1, uint64_t g2,
                 uint64_t p2, uint64_t g3, uint64_t p3, uint64_t fin_size, uint64_t fin_count, uint32_t pinned,
                 uint32_t sink, uint32_t handles, uint16_t clr, uint64_t g4, uint64_t p4)
{
    unsigned char *at = out->bytes;
    const uint64_t u64s[10] = {g0, p0, g1, p1, g2, p2, g3, p3, fin_size, fin_count};
    const uint32_t u32s[3] = {pinned, sink, handles};
    memcpy(at, u64s, sizeof u64s);
    memcpy(at + 80, u32s, sizeof u32s);
    memcpy(at + 92, &clr, 2);
    memcpy(at + 94, &g4, 8);
    memcpy(at + 102, &p4, 8);
}

int main(int argc, char **argv)
{
    static const char usage[] = "peer_floor EVENTS FILE";
    if (argc != 3) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    long events = peer_events_arg(argv[1], usage);
    static bench_floor fl;
    if (!(fl.file = fopen(argv[2], "wb"))) {
        perror(argv[2]);
        return 1;
    }
    peer_mark start = peer_mark_now();
    for (long i = 0; i < events; i++) {
        gc_heap_stats_packed payload;
        uint64_t ts = bench_floor_clock();
        pack(&payload, BENCH_GC_HEAP_STATS_VALUES(i));
        bench_floor_event(&fl, ts, &payload, sizeof payload);
    }
    if (bench_floor_close(&fl) != 0) {
        perror(argv[2]);
        return 1;
    }
    peer_report("floor", events, start, peer_mark_now(), 0);
    return 0;
}
