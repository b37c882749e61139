/* Checks that two events with the same name are refused at the second name. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)

KNOWN_EVENT(Sample, 2, TestProvider, 4, 0x1)

#include <evgen/manifest_end.h>
