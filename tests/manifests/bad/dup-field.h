/* Checks that two fields of one event with the same name are refused at the second name. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_FIELD(Sample, 0, uint64_t, Size)
EVENT_FIELD(Sample, 1, uint32_t, Count)

#include <evgen/manifest_end.h>
