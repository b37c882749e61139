/* Checks that a manifest macro called with too many arguments is reported by clang. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_FIELD(Sample, 0, uint32_t, Size, Count)

#include <evgen/manifest_end.h>
