/* Checks that two providers with the same provider name are refused at the second name. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")

EVENT_PROVIDER(OtherProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)

#include <evgen/manifest_end.h>
