/* Checks that two events of one provider with the same id are refused at the second id. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)

KNOWN_EVENT(Other, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Other, 0, uint32_t, Count)

#include <evgen/manifest_end.h>
