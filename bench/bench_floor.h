/* bench_floor.h — the floor every emitting benchmark sets evgen against (bench/emit_bench.c,
 * bench/burst_bench.c, bench/peers/peer_floor.c): per event a timestamp and the payload stored with
 * memcpy into a 64 KiB buffer, fwritten to the file when full; the file closed at the end. The
 * least any tracer must do for the same events, defined here once. */
#ifndef EVGEN_BENCH_FLOOR_H
#define EVGEN_BENCH_FLOOR_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

typedef struct bench_floor {
    FILE *file;
    size_t used;
    unsigned char buffer[65536];
} bench_floor;

/* The floor's clock: CLOCK_MONOTONIC in nanoseconds (clock_gettime, as a tracer's timestamp). */
static inline uint64_t bench_floor_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One event: timestamp TS and SIZE bytes of PAYLOAD into the buffer, the buffer written first if
 * they do not fit. */
static inline void bench_floor_event(bench_floor *fl, uint64_t ts, const void *payload, size_t size)
{
    if (fl->used + sizeof ts + size > sizeof fl->buffer) {
        fwrite(fl->buffer, 1, fl->used, fl->file);
        fl->used = 0;
    }
    memcpy(fl->buffer + fl->used, &ts, sizeof ts);
    memcpy(fl->buffer + fl->used + sizeof ts, payload, size);
    fl->used += sizeof ts + size;
}

/* The buffer's rest written and the file closed: 0, or EOF (errno set). */
static inline int bench_floor_close(bench_floor *fl)
{
    fwrite(fl->buffer, 1, fl->used, fl->file);
    fl->used = 0;
    return fclose(fl->file);
}

#endif /* EVGEN_BENCH_FLOOR_H */
