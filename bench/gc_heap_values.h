/* gc_heap_values.h — the values the emitting benchmarks pass with their events (bench/emit_bench.c
 * and every harness of bench/peers/), so that all of them record the same payloads. */
#ifndef EVGEN_BENCH_GC_HEAP_VALUES_H
#define EVGEN_BENCH_GC_HEAP_VALUES_H

#include <stdint.h>

/* The statistics a runtime passes, as they would lie in its heap: read from memory at every event
 * (volatile: loads, as a runtime's fields are), so that no harness's compiler folds them into its
 * serializer as constants, which a serializer inlined at the call site (evgen's, LTTng's) or cloned
 * for it (gcc's constant propagation) would otherwise make stores of immediates. */
static volatile struct bench_gc_heap {
    uint64_t sizes[9]; /* GCHeapStats' TotalPromotedSize0 ... FinalizationPromotedCount */
    uint32_t counts[3];
    uint16_t clr_instance_id;
    uint64_t total_promoted4;
    uint32_t suspend_reason; /* GCSuspendEEBegin's Reason (emit_bench's 10-byte event) */
} bench_gc_heap = {{1, 2, 3, 4, 5, 6, 7, 8, 9}, {10, 11, 12}, 13, 15, 1};

/* The 16 fields of GCHeapStats version 2 (manifest/gcevents.h), 110 bytes when packed, for event
 * `i`: the two generation sizes vary with i, the rest is read from bench_gc_heap. */
#define BENCH_GC_HEAP_STATS_VALUES(i)                                                                  \
    (uint64_t)(i), bench_gc_heap.sizes[0], bench_gc_heap.sizes[1], bench_gc_heap.sizes[2],             \
        bench_gc_heap.sizes[3], bench_gc_heap.sizes[4], bench_gc_heap.sizes[5], bench_gc_heap.sizes[6], \
        bench_gc_heap.sizes[7], bench_gc_heap.sizes[8], bench_gc_heap.counts[0], bench_gc_heap.counts[1], \
        bench_gc_heap.counts[2], bench_gc_heap.clr_instance_id, (uint64_t)(i), bench_gc_heap.total_promoted4

#endif /* EVGEN_BENCH_GC_HEAP_VALUES_H */
