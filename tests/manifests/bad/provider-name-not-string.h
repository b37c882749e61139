/* Checks that a provider name written without quotes is refused. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, Evgen_Test)

KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)

#include <evgen/manifest_end.h>
