/* gc_heap_stats_sum.h — what reader_bench's reads do with each event: every field of GCHeapStats,
 * through the generated accessors, summed (so that no load can be left out). */
#ifndef EVGEN_BENCH_GC_HEAP_STATS_SUM_H
#define EVGEN_BENCH_GC_HEAP_STATS_SUM_H

#include "gcevents_reader.h"

static inline uint64_t gc_heap_stats_sum(const evgen_event *ev)
{
    return GCHeapStats_GenerationSize0(ev) + GCHeapStats_TotalPromotedSize0(ev) + GCHeapStats_GenerationSize1(ev) +
           GCHeapStats_TotalPromotedSize1(ev) + GCHeapStats_GenerationSize2(ev) + GCHeapStats_TotalPromotedSize2(ev) +
           GCHeapStats_GenerationSize3(ev) + GCHeapStats_TotalPromotedSize3(ev) +
           GCHeapStats_FinalizationPromotedSize(ev) + GCHeapStats_FinalizationPromotedCount(ev) +
           GCHeapStats_PinnedObjectCount(ev) + GCHeapStats_SinkBlockCount(ev) + GCHeapStats_GCHandleCount(ev) +
           GCHeapStats_ClrInstanceID(ev) + GCHeapStats_GenerationSize4(ev) + GCHeapStats_TotalPromotedSize4(ev);
}

#endif /* EVGEN_BENCH_GC_HEAP_STATS_SUM_H */
