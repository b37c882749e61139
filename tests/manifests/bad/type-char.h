/* Checks that plain char is refused, suggesting int8_t, uint8_t or evgen_utf8z. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_FIELD(Sample, 0, char, Letter)

#include <evgen/manifest_end.h>
