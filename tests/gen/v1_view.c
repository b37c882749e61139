/* v1_view.c — reads events through the reader generated from gcevents_v1.h, a copy of
 * manifest/gcevents.h made at build time without GCHeapStats version 2 and without GCTriggered:
 * the reader of an older manifest, for the versions-both-ways tests. */
#include "gcv1_reader.h"
#include "evgen/compat_test.h"

int gcv1_read_all(const evgen_event *ev, evgen_read_value *values, int capacity);

int gcv1_read_heapstats(const evgen_event *ev, uint64_t *gen0, uint64_t *gen3, uint16_t *clr_instance);
int gcv1_knows_event(const evgen_event *ev);

/* Returns the number of fields this reader found (it knows 14: versions 0 and 1). */
int gcv1_read_heapstats(const evgen_event *ev, uint64_t *gen0, uint64_t *gen3, uint16_t *clr_instance)
{
    if (!GCHeapStats_is(ev))
        return -1;
    *gen0 = GCHeapStats_GenerationSize0(ev);
    *gen3 = GCHeapStats_GenerationSize3(ev);
    *clr_instance = GCHeapStats_ClrInstanceID(ev);
    return GCHeapStats_has_GenerationSize0(ev) + GCHeapStats_has_TotalPromotedSize0(ev) +
           GCHeapStats_has_GenerationSize1(ev) + GCHeapStats_has_TotalPromotedSize1(ev) +
           GCHeapStats_has_GenerationSize2(ev) + GCHeapStats_has_TotalPromotedSize2(ev) +
           GCHeapStats_has_GenerationSize3(ev) + GCHeapStats_has_TotalPromotedSize3(ev) +
           GCHeapStats_has_FinalizationPromotedSize(ev) + GCHeapStats_has_FinalizationPromotedCount(ev) +
           GCHeapStats_has_PinnedObjectCount(ev) + GCHeapStats_has_SinkBlockCount(ev) +
           GCHeapStats_has_GCHandleCount(ev) + GCHeapStats_has_ClrInstanceID(ev);
}

/* Whether the older manifest has this event at all (it lacks GCTriggered). */
int gcv1_knows_event(const evgen_event *ev)
{
    evgen_read_value values[64];
    return gcv1_read_all(ev, values, 64) >= 0;
}
