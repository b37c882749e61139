/* alloctick.h — sampled allocations from GCAllocationTick events, summarised per type and per
 * heap, upscaled to an estimate of the bytes allocated.
 *
 * The sampling (CoreCLR gc.cpp, etw_allocation_running_amount): the allocator keeps one running
 * count of the bytes allocated on the small object heap and one for the large and pinned object
 * heaps together; when one passes 100 KB (etw_allocation_tick), a GCAllocationTick reports that
 * count (AllocationAmount, AllocationAmount64 from version 2), the heap (AllocationKind: Small,
 * Large, Pinned) and the object being allocated at that moment (TypeName from version 2,
 * ObjectSize from version 4), and the count starts again from zero.
 *
 * The upscaling, PerfView's ("GC Heap Alloc Ignore Free (Coarse Sampling)" weighs each tick by its
 * amount): a type's estimated allocation is the sum of the AllocationAmount64 of the ticks that
 * name it (AllocationAmount for versions 0 and 1). An object is named with a probability
 * proportional to its size, so a type's share of the ticks tends to its share of the bytes; and
 * the amounts of all ticks add up to every byte allocated but the last < 100 KB per heap. The
 * alternative, ticks x 100 KB, undercounts the large object heap, where a single 400 KB array
 * makes one tick of 400 KB. Versions 0 and 1 name no type: their ticks count under
 * "(no type name)". */
#ifndef EXAMPLE_ALLOCTICK_H
#define EXAMPLE_ALLOCTICK_H

#include <stddef.h>
#include <stdint.h>

#include "evgen/reader.h"

/* Heaps, from AllocationKind: Small, Large, Pinned; any other value counts as "other". */
enum { ALLOCTICK_SOH, ALLOCTICK_LOH, ALLOCTICK_POH, ALLOCTICK_OTHER, ALLOCTICK_HEAPS };

typedef struct alloctick_sum {
    uint64_t ticks;
    uint64_t bytes; /* estimated: the sum of the ticks' amounts */
} alloctick_sum;

typedef struct alloctick_type {
    const char *name;                        /* UTF-8 */
    alloctick_sum total;
    uint64_t heap_bytes[ALLOCTICK_HEAPS];    /* the estimate, split by heap */
    uint64_t sized_ticks, object_bytes;      /* ticks with ObjectSize (version 4) and its sum */
} alloctick_type;

typedef struct alloctick alloctick;

alloctick *alloctick_new(void); /* NULL if out of memory */
void alloctick_free(alloctick *a);

/* Counts `ev` if it is a GCAllocationTick (of any version). Returns 0, or -1 if out of memory. */
int alloctick_feed(alloctick *a, const evgen_event *ev);

/* Totals over every tick, and per heap (ALLOCTICK_SOH ..). */
alloctick_sum alloctick_total(const alloctick *a);
alloctick_sum alloctick_heap(const alloctick *a, int heap);

/* The types, by estimated bytes (largest first; ties by name). Valid until the next feed. */
const alloctick_type *alloctick_types(alloctick *a, size_t *count);

#endif /* EXAMPLE_ALLOCTICK_H */
