/* Checks that event keywords that are not an integer constant expression are refused. */
#include <evgen/manifest.h>

extern unsigned long long keyword_mask;

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
KNOWN_EVENT(Other, 2, TestProvider, 4, keyword_mask)

#include <evgen/manifest_end.h>
