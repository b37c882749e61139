/* Checks that a bit-field in an array element struct is refused at the member. */
#include <evgen/manifest.h>

typedef struct Packed {
    uint32_t Kind : 4;
    uint32_t Size;
} Packed;

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_ARRAY(Sample, 0, Packed, Values, Count)

#include <evgen/manifest_end.h>
