/* Checks that a C syntax error is reported with clang's own message and location. */
#include <evgen/manifest.h>

typedef struct Point {
    uint32_t X;
    uint32_t Y;
} Point

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)

#include <evgen/manifest_end.h>
