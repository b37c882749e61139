/* Checks that an int member of an array element struct is refused at the member. */
#include <evgen/manifest.h>

typedef struct Segment {
    uint64_t Start;
    int Flags;
} Segment;

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_ARRAY(Sample, 0, Segment, Segments, Count)

#include <evgen/manifest_end.h>
