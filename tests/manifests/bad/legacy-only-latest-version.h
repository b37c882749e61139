/* Checks that a legacy-only field in the latest version, which is not legacy, is refused. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Start, 2, TestProvider, 4, 0x1)
EVENT_FIELD(Start, 0, uint32_t, Count)
EVENT_LEGACY_FIELD(Start, 1, uint32_t, Count)
EVENT_LEGACY_FIELD(Start, 1, uint16_t, Removed)

#include <evgen/manifest_end.h>
