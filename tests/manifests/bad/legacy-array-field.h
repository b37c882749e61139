/* Checks that a legacy layout cannot name an array field: legacy layouts hold scalars and strings. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Start, 1, TestProvider, 4, 0x1)
EVENT_LEGACY_FIELD(Start, 0, uint16_t, Count)
EVENT_LEGACY_FIELD(Start, 0, uint8_t, Data)
EVENT_FIELD(Start, 0, uint16_t, Count)
EVENT_ARRAY(Start, 1, uint8_t, Data, Count)
EVENT_FIELD(Start, 1, uint32_t, Flags)

#include <evgen/manifest_end.h>
