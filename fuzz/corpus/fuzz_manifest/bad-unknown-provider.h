/* Checks that an event naming an undeclared provider is refused at the provider argument. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
KNOWN_EVENT(Other, 2, TestProvidr, 4, 0x1)
EVENT_FIELD(Other, 0, uint32_t, Count)

#include <evgen/manifest_end.h>
