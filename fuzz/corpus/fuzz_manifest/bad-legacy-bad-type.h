/* Checks that a legacy field's type goes through the same type checks as EVENT_FIELD. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
KNOWN_EVENT(Start, 2, TestProvider, 4, 0x1)
EVENT_LEGACY_FIELD(Start, 0, unsigned short, Count)
EVENT_FIELD(Start, 0, uint32_t, Count)
EVENT_FIELD(Start, 1, uint16_t, ClrInstanceID)

#include <evgen/manifest_end.h>
