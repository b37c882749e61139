/* Checks that a legacy layout for version 1 while version 0 has none is refused. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
KNOWN_EVENT(Start, 2, TestProvider, 4, 0x1)
EVENT_LEGACY_FIELD(Start, 1, uint32_t, Count)
EVENT_LEGACY_FIELD(Start, 1, uint16_t, Depth)
EVENT_FIELD(Start, 0, uint32_t, Count)
EVENT_FIELD(Start, 1, uint32_t, Depth)
EVENT_FIELD(Start, 2, uint16_t, ClrInstanceID)

#include <evgen/manifest_end.h>
