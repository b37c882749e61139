/* gcnames.c — names of the GC enums, tied to manifest/gcevents.h's constants so that a renumbering
 * there cannot go unnoticed here. */
#include "gcnames.h"

#include <stdio.h>

#include "gcevents.h"

static const char *const reasons[] = {
    [GCReason_AllocSmall] = "AllocSmall",
    [GCReason_Induced] = "Induced",
    [GCReason_LowMemory] = "LowMemory",
    [GCReason_Empty] = "Empty",
    [GCReason_AllocLarge] = "AllocLarge",
    [GCReason_OutOfSpaceSOH] = "OutOfSpaceSOH",
    [GCReason_OutOfSpaceLOH] = "OutOfSpaceLOH",
    [GCReason_InducedNotForced] = "InducedNotForced",
    [GCReason_Internal] = "Internal",
    [GCReason_InducedLowMemory] = "InducedLowMemory",
    [GCReason_InducedCompacting] = "InducedCompacting",
    [GCReason_LowMemoryHost] = "LowMemoryHost",
    [GCReason_PMFullGC] = "PMFullGC",
    [GCReason_LowMemoryHostBlocking] = "LowMemoryHostBlocking",
};

static const char *const types[] = {
    [GCType_NonConcurrentGC] = "NonConcurrent",
    [GCType_BackgroundGC] = "Background",
    [GCType_ForegroundGC] = "Foreground",
};

static const char *const heaps[] = {
    [GCAllocationKind_Small] = "SOH",
    [GCAllocationKind_Large] = "LOH",
    [GCAllocationKind_Pinned] = "POH",
};

static const char *lookup(const char *const *names, uint32_t n, uint32_t value, const char *what, char *buf,
                          unsigned size)
{
    if (value < n && names[value])
        return names[value];
    snprintf(buf, size, "%s(%u)", what, value);
    return buf;
}

const char *gc_reason_name(uint32_t reason, char *buf, unsigned size)
{
    return lookup(reasons, sizeof reasons / sizeof reasons[0], reason, "Reason", buf, size);
}

const char *gc_type_name(uint32_t type, char *buf, unsigned size)
{
    return lookup(types, sizeof types / sizeof types[0], type, "Type", buf, size);
}

const char *gc_heap_name(uint32_t kind, char *buf, unsigned size)
{
    return lookup(heaps, sizeof heaps / sizeof heaps[0], kind, "Kind", buf, size);
}
