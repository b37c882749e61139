/* Checks that an array whose count field is itself an array is refused at the count. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_ARRAY(Sample, 0, uint8_t, Data, Count)
EVENT_ARRAY(Sample, 0, uint8_t, More, Data)

#include <evgen/manifest_end.h>
