/* Checks that a field of type int is refused as platform-dependent, with int32_t as the fix. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_FIELD(Sample, 0, int, Value)

#include <evgen/manifest_end.h>
