/* Checks that a legacy version naming one field twice is refused at the second name. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
KNOWN_EVENT(Start, 2, TestProvider, 4, 0x1)
EVENT_LEGACY_FIELD(Start, 0, uint32_t, Count)
EVENT_LEGACY_FIELD(Start, 0, uint16_t, Count)
EVENT_FIELD(Start, 0, uint32_t, Count)
EVENT_FIELD(Start, 1, uint32_t, Depth)

#include <evgen/manifest_end.h>
