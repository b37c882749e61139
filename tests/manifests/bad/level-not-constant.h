/* Checks that an event level that is not an integer constant expression is refused. */
#include <evgen/manifest.h>

extern int current_level;

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
KNOWN_EVENT(Other, 2, TestProvider, current_level, 0x1)

#include <evgen/manifest_end.h>
