/* Checks that a field of type unsigned long long is refused, with uint64_t as the fix. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_FIELD(Sample, 0, unsigned long long, Value)

#include <evgen/manifest_end.h>
