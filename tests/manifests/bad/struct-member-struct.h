/* Checks that a struct nested in an array element struct is refused. */
#include <evgen/manifest.h>

typedef struct Range {
    uint64_t Start;
    uint64_t End;
} Range;

typedef struct Segment {
    Range Bounds;
    uint32_t Flags;
} Segment;

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_ARRAY(Sample, 0, Segment, Segments, Count)

#include <evgen/manifest_end.h>
