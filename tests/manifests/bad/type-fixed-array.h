/* Checks that a fixed-size array type (through a typedef) is refused, pointing to EVENT_ARRAY. */
#include <evgen/manifest.h>

typedef uint8_t Digest[16];

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_FIELD(Sample, 0, Digest, Hash)

#include <evgen/manifest_end.h>
