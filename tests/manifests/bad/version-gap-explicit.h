/* Checks that an EVENT_VERSION beyond the fields' versions leaves a gap that is refused. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_VERSION(Sample, 2)

#include <evgen/manifest_end.h>
