/* Checks that a legacy-only field's generated names are checked like any field's. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Start, 2, TestProvider, 4, 0x1)
EVENT_LEGACY_FIELD(Start, 0, uint32_t, Count)
EVENT_LEGACY_FIELD(Start, 0, uint8_t, has_Count)
EVENT_FIELD(Start, 0, uint32_t, Count)
EVENT_VERSION(Start, 1)

#include <evgen/manifest_end.h>
