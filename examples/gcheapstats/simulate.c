/* simulate.c — a small simulated garbage collector that traces itself with evgen: allocations
 * land in gen0, the large object heap (LOH) or the pinned object heap (POH); a full gen0 budget
 * triggers a GC (every 4th a gen1, every 16th a blocking gen2) that promotes survivors; each GC
 * emits GCTriggered, GCStart v2, GCEnd v1 and GCHeapStats v2 (with GenerationSize4, the POH),
 * and every 100 KB of allocation a GCAllocationTick v4, exactly as CoreCLR does.
 * Usage: gcheapstats_simulate [TRACE] [GCS]   (defaults: gcheapstats.evtrace, 40) */
#include <stdio.h>
#include <stdlib.h>

#include "evgen/runtime.h"
#include "gcevents_runtime.h"

typedef struct heap {
    uint64_t gen[5];      /* gen0, gen1, gen2, LOH, POH sizes in bytes */
    uint64_t promoted[4]; /* bytes promoted out of gen0..gen3 by the last GC */
    uint64_t since_tick;  /* bytes allocated since the last allocation tick */
    uint32_t gc_count;
    uint64_t rng;
} heap;

enum { GEN0_BUDGET = 6u << 20, TICK_BYTES = 100u * 1024 };

static uint64_t next_random(heap *h)
{
    h->rng ^= h->rng << 13;
    h->rng ^= h->rng >> 7;
    h->rng ^= h->rng << 17;
    return h->rng;
}

static const evgen_char16 type_byte_array[] = {'S', 'y', 's', 't', 'e', 'm', '.', 'B', 'y', 't', 'e', '[', ']', 0};
static const evgen_char16 type_object_array[] = {'S', 'y', 's', 't', 'e', 'm', '.', 'O', 'b', 'j', 'e', 'c', 't',
                                                  '[', ']', 0};

static void allocate(heap *h, uint64_t size, uint32_t kind)
{
    h->gen[kind == GCAllocationKind_Large ? 3 : kind == GCAllocationKind_Pinned ? 4 : 0] += size;
    h->since_tick += size;
    if (h->since_tick >= TICK_BYTES) {
        const evgen_char16 *type = kind == GCAllocationKind_Small ? type_object_array : type_byte_array;
        FIRE_EVENT(GCAllocationTick, (uint32_t)h->since_tick, kind, 1, h->since_tick, (const void *)0x7ff812340000u,
                   type, 0, (const void *)(uintptr_t)(0x1c000000u + h->gen[0]), size);
        h->since_tick = 0;
    }
}

/* Collects generations 0..condemned: a fraction survives into the next generation. */
static void collect(heap *h, uint32_t condemned, uint32_t reason)
{
    uint32_t depth = condemned;
    FIRE_EVENT(GCTriggered, reason, 1);
    FIRE_EVENT(GCStart, h->gc_count, depth, reason, GCType_NonConcurrentGC, 1, 0);
    for (uint32_t g = 0; g < 4; g++)
        h->promoted[g] = 0;
    for (int g = (int)condemned; g >= 0; g--) {
        uint64_t survive_percent = g == 0 ? 10 + next_random(h) % 15 : 40 + next_random(h) % 30;
        uint64_t survivors = h->gen[g] * survive_percent / 100;
        h->promoted[g] = survivors;
        h->gen[g] = 0;
        h->gen[g < 2 ? g + 1 : 2] += survivors;
    }
    if (condemned == 2) { /* a full GC sweeps the LOH and POH too */
        h->gen[3] = h->gen[3] * 70 / 100;
        h->gen[4] = h->gen[4] * 90 / 100;
    }
    FIRE_EVENT(GCEnd, h->gc_count, depth, 1);
    FIRE_EVENT(GCHeapStats, h->gen[0], h->promoted[0], h->gen[1], h->promoted[1], h->gen[2], h->promoted[2], h->gen[3],
               h->promoted[3], 0, 0, (uint32_t)(next_random(h) % 8), 0, 120, 1, h->gen[4], 0);
    h->gc_count++;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "gcheapstats.evtrace";
    long gcs = argc > 2 ? atol(argv[2]) : 40;
    evgen_session *session = evgen_session_open_file(path, NULL);
    if (!session) {
        perror(path);
        return 1;
    }
    evgen_session_enable(session, "Microsoft-Windows-DotNETRuntime", GCEventLevel_Verbose, GCEventKeyword_GC);
    heap h = {{0}, {0}, 0, 0, 0x9e3779b97f4a7c15ull};
    while ((long)h.gc_count < gcs) {
        uint64_t r = next_random(&h);
        uint64_t size = 24 + r % 4096;
        uint32_t kind = r % 97 == 0 ? GCAllocationKind_Large : r % 131 == 0 ? GCAllocationKind_Pinned
                                                                              : GCAllocationKind_Small;
        if (kind == GCAllocationKind_Large)
            size = 85000 + r % 400000;
        allocate(&h, size, kind);
        if (h.gen[0] >= GEN0_BUDGET) {
            uint32_t condemned = h.gc_count % 16 == 15 ? 2 : h.gc_count % 4 == 3 ? 1 : 0;
            collect(&h, condemned, GCReason_AllocSmall);
        }
    }
    evgen_session_totals totals;
    if (evgen_session_close(session, &totals, NULL, NULL) != 0) {
        perror("evgen_session_close");
        return 1;
    }
    printf("gcheapstats_simulate: %u GCs, %llu events written (%llu dropped) to %s, %llu bytes\n", h.gc_count,
           (unsigned long long)totals.written, (unsigned long long)totals.dropped, path,
           (unsigned long long)totals.bytes);
    printf("heap after the last GC: gen0 %llu, gen1 %llu, gen2 %llu, LOH %llu, POH %llu bytes\n",
           (unsigned long long)h.gen[0], (unsigned long long)h.gen[1], (unsigned long long)h.gen[2],
           (unsigned long long)h.gen[3], (unsigned long long)h.gen[4]);
    evgen_session_totals_free(&totals);
    return 0;
}
