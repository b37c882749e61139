/* Checks that a provider name with a control character (it would break the lock file) is refused. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen\nTest")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)

#include <evgen/manifest_end.h>
