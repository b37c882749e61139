/* Checks that a union is refused as an array element. */
#include <evgen/manifest.h>

typedef union Scalar {
    uint32_t AsInt;
    float AsFloat;
} Scalar;

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_ARRAY(Sample, 0, Scalar, Values, Count)

#include <evgen/manifest_end.h>
