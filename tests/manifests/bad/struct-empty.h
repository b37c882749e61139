/* Checks that an array element struct without members is refused. */
#include <evgen/manifest.h>

typedef struct Nothing {
} Nothing;

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_ARRAY(Sample, 0, Nothing, Values, Count)

#include <evgen/manifest_end.h>
