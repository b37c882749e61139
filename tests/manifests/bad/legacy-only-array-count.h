/* Checks that an array cannot be counted by a legacy-only field: no modern version holds it. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Start, 2, TestProvider, 4, 0x1)
EVENT_LEGACY_FIELD(Start, 0, uint16_t, Count)
EVENT_ARRAY(Start, 1, uint8_t, Data, Count)

#include <evgen/manifest_end.h>
