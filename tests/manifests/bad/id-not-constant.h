/* Checks that an event id that is not an integer constant expression is refused. */
#include <evgen/manifest.h>

extern int next_id;

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
KNOWN_EVENT(Other, next_id, TestProvider, 4, 0x1)

#include <evgen/manifest_end.h>
