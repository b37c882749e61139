/* Checks legacy-only fields: fields of old legacy versions that no later version holds (as
 * CoreCLR's private GCPerHeapHistory, whose version 2 dropped version 1's ClrInstanceID). */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")

/* Versions 1-2 only: v1 holds the legacy-only ClrInstanceID, v2 has no payload. */
KNOWN_EVENT(PerHeap, 4, TestProvider, 4, 0x1)
EVENT_LEGACY_FIELD(PerHeap, 1, uint16_t, ClrInstanceID)
EVENT_VERSION(PerHeap, 2)

/* v0 and v1 legacy: Old (a string) is in both, Gone in v1 only; v2 keeps Count and appends Size. */
KNOWN_EVENT(Mixed, 5, TestProvider, 4, 0x1)
EVENT_LEGACY_FIELD(Mixed, 0, uint32_t, Count)
EVENT_LEGACY_FIELD(Mixed, 0, evgen_utf16z, Old)
EVENT_LEGACY_FIELD(Mixed, 1, evgen_utf16z, Old)
EVENT_LEGACY_FIELD(Mixed, 1, uint32_t, Count)
EVENT_LEGACY_FIELD(Mixed, 1, uint64_t, Gone)
EVENT_FIELD(Mixed, 0, uint32_t, Count)
EVENT_FIELD(Mixed, 2, uint64_t, Size)

#include <evgen/manifest_end.h>
