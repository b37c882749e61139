/* Checks that an array whose count field is newer than the array is refused at the count. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")

KNOWN_EVENT(Start, 2, TestProvider, 4, 0x1)
EVENT_LEGACY_FIELD(Start, 0, uint16_t, Flags)
EVENT_FIELD(Start, 0, uint32_t, Flags)
EVENT_FIELD(Start, 1, uint32_t, Size)
EVENT_ARRAY(Start, 0, uint8_t, Data, Size)

#include <evgen/manifest_end.h>
