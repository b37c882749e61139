/* Checks that an unbalanced parenthesis in a #define used as an argument is reported by clang. */
#include <evgen/manifest.h>

#define SAMPLE_KEYWORDS (0x1 | 0x2

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, SAMPLE_KEYWORDS)
EVENT_FIELD(Sample, 0, uint32_t, Count)

#include <evgen/manifest_end.h>
