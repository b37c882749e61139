/* Checks that a floating-point since is refused, not truncated. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_FIELD(Sample, 1.5, uint32_t, Flags)

#include <evgen/manifest_end.h>
