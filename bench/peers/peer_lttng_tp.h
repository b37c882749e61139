/* peer_lttng_tp.h — the LTTng-UST tracepoint provider of bench/peers/: provider evgen_peer, event
 * GCHeapStats with the 16 fields of GCHeapStats v2 as integer fields (ctf_integer, spelled
 * lttng_ust_field_integer since LTTng-UST 2.13). A tracepoint takes at most 10 arguments, so the
 * values come in a struct, as LTTng's documentation advises for wide events. */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER evgen_peer

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./peer_lttng_tp.h"

#if !defined(PEER_LTTNG_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define PEER_LTTNG_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

#ifndef PEER_GC_HEAP_STATS_STRUCT
#define PEER_GC_HEAP_STATS_STRUCT
struct peer_gc_heap_stats {
    uint64_t GenerationSize0, TotalPromotedSize0, GenerationSize1, TotalPromotedSize1;
    uint64_t GenerationSize2, TotalPromotedSize2, GenerationSize3, TotalPromotedSize3;
    uint64_t FinalizationPromotedSize, FinalizationPromotedCount;
    uint32_t PinnedObjectCount, SinkBlockCount, GCHandleCount;
    uint16_t ClrInstanceID;
    uint64_t GenerationSize4, TotalPromotedSize4;
};
#endif

LTTNG_UST_TRACEPOINT_EVENT(
    evgen_peer, GCHeapStats,
    LTTNG_UST_TP_ARGS(const struct peer_gc_heap_stats *, s),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(uint64_t, GenerationSize0, s->GenerationSize0)
        lttng_ust_field_integer(uint64_t, TotalPromotedSize0, s->TotalPromotedSize0)
        lttng_ust_field_integer(uint64_t, GenerationSize1, s->GenerationSize1)
        lttng_ust_field_integer(uint64_t, TotalPromotedSize1, s->TotalPromotedSize1)
        lttng_ust_field_integer(uint64_t, GenerationSize2, s->GenerationSize2)
        lttng_ust_field_integer(uint64_t, TotalPromotedSize2, s->TotalPromotedSize2)
        lttng_ust_field_integer(uint64_t, GenerationSize3, s->GenerationSize3)
        lttng_ust_field_integer(uint64_t, TotalPromotedSize3, s->TotalPromotedSize3)
        lttng_ust_field_integer(uint64_t, FinalizationPromotedSize, s->FinalizationPromotedSize)
        lttng_ust_field_integer(uint64_t, FinalizationPromotedCount, s->FinalizationPromotedCount)
        lttng_ust_field_integer(uint32_t, PinnedObjectCount, s->PinnedObjectCount)
        lttng_ust_field_integer(uint32_t, SinkBlockCount, s->SinkBlockCount)
        lttng_ust_field_integer(uint32_t, GCHandleCount, s->GCHandleCount)
        lttng_ust_field_integer(uint16_t, ClrInstanceID, s->ClrInstanceID)
        lttng_ust_field_integer(uint64_t, GenerationSize4, s->GenerationSize4)
        lttng_ust_field_integer(uint64_t, TotalPromotedSize4, s->TotalPromotedSize4)
    )
)

#endif /* PEER_LTTNG_TP_H */

#include <lttng/tracepoint-event.h>
