/* Checks that a field inserted before a newer one (since decreases) is refused at its since. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_FIELD(Sample, 1, uint16_t, ClrInstanceID)
EVENT_FIELD(Sample, 0, uint64_t, Size)

#include <evgen/manifest_end.h>
