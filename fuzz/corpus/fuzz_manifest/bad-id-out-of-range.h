/* Checks that an event id above 32 bits is refused as out of range. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
KNOWN_EVENT(Other, 0x100000000, TestProvider, 4, 0x1)

#include <evgen/manifest_end.h>
