/* Checks that a newer field inserted among older ones is blamed, not the older field after it. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_FIELD(Sample, 1, uint32_t, Inserted)
EVENT_FIELD(Sample, 0, uint32_t, Size)
EVENT_FIELD(Sample, 0, uint32_t, Flags)

#include <evgen/manifest_end.h>
