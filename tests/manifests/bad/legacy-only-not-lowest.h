/* Checks that a legacy-only field cannot make a version legacy above a version that is not. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Start, 2, TestProvider, 4, 0x1)
EVENT_FIELD(Start, 0, uint32_t, Count)
EVENT_LEGACY_FIELD(Start, 1, uint32_t, Count)
EVENT_LEGACY_FIELD(Start, 1, uint16_t, Removed)
EVENT_VERSION(Start, 2)

#include <evgen/manifest_end.h>
