/* Checks that a floating-point event id is refused, not truncated. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 2.9, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)

#include <evgen/manifest_end.h>
