/* Checks that giving one version its attributes twice is refused at the second line. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_FIELD(Sample, 1, uint16_t, ClrInstanceID)
EVENT_VERSION_ATTRIBUTES(Sample, 0, 4, 0x2)
EVENT_VERSION_ATTRIBUTES(Sample, 0, 5, 0x2)

#include <evgen/manifest_end.h>
