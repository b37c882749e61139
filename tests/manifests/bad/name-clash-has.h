/* Checks that a field named has_X next to a field X is refused: both would generate E_has_X. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_FIELD(Sample, 0, uint32_t, has_Count)

#include <evgen/manifest_end.h>
