/* Checks that an array whose count field comes after it is refused at the count. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_ARRAY(Sample, 0, uint8_t, Data, Size)
EVENT_FIELD(Sample, 0, uint32_t, Size)

#include <evgen/manifest_end.h>
