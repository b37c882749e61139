/* gcnames.h — the names of the GC enums of manifest/gcevents.h (GCReason, GCType, GCAllocationKind),
 * as the example programs print them. */
#ifndef EXAMPLE_GCNAMES_H
#define EXAMPLE_GCNAMES_H

#include <stdint.h>

/* A GCReason's name without its prefix ("AllocSmall"), or "Reason(N)" for a value the manifest
 * does not name, written into `buf` (at least 24 bytes). */
const char *gc_reason_name(uint32_t reason, char *buf, unsigned size);
/* A GCType's short name ("NonConcurrent", "Background", "Foreground") or "Type(N)". */
const char *gc_type_name(uint32_t type, char *buf, unsigned size);
/* The heap of a GCAllocationKind ("SOH", "LOH", "POH") or "Kind(N)". */
const char *gc_heap_name(uint32_t kind, char *buf, unsigned size);

#endif /* EXAMPLE_GCNAMES_H */
