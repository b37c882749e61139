/* Checks that a field claiming to exist in a legacy version must be in its legacy layout. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Start, 1, TestProvider, 4, 0x1)
EVENT_LEGACY_FIELD(Start, 0, uint16_t, Flags)
EVENT_FIELD(Start, 0, uint32_t, Flags)
EVENT_FIELD(Start, 1, uint32_t, Depth)
EVENT_FIELD(Start, 0, uint64_t, Extra)

#include <evgen/manifest_end.h>
