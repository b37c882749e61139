/* Checks that a since that is not an integer constant expression is refused. */
#include <evgen/manifest.h>

extern int current_version;

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_FIELD(Sample, current_version, uint32_t, Flags)

#include <evgen/manifest_end.h>
