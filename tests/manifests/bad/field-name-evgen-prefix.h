/* Checks that names starting with evgen_ are refused: they belong to generated code. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, evgen_payload)

#include <evgen/manifest_end.h>
