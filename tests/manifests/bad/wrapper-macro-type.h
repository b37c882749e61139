/* Checks a bad type passed through a user macro wrapping EVENT_FIELD (reported at the wrapper's use). */
#include <evgen/manifest.h>

#define SAMPLE_FIELD(name, type) EVENT_FIELD(Sample, 0, type, name)

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
SAMPLE_FIELD(Flags, int)

#include <evgen/manifest_end.h>
