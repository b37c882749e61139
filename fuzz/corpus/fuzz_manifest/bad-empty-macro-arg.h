/* Checks that an empty macro argument (a missing event id) is reported by clang. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, , TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)

#include <evgen/manifest_end.h>
