/* Checks that strings are refused as array elements (they are variable-length). */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_ARRAY(Sample, 0, evgen_utf16z, Names, Count)

#include <evgen/manifest_end.h>
