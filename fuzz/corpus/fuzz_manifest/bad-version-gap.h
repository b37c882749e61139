/* Checks that a version nothing introduces (1, between 0 and 2) is refused. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_FIELD(Sample, 2, uint64_t, Size)

#include <evgen/manifest_end.h>
