/* Checks that an event named with a C++ keyword is refused. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
KNOWN_EVENT(delete, 2, TestProvider, 4, 0x1)

#include <evgen/manifest_end.h>
