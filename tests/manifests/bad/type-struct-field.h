/* Checks that a struct is refused as a plain field (structs are array elements only). */
#include <evgen/manifest.h>

typedef struct Range {
    uint64_t Start;
    uint64_t End;
} Range;

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_FIELD(Sample, 0, Range, Bounds)

#include <evgen/manifest_end.h>
