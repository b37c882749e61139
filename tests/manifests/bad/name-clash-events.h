/* Checks that event A_B's field C and event A's field B_C, both generating A_B_C, are refused. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(A_B, 1, TestProvider, 4, 0x1)
EVENT_FIELD(A_B, 0, uint32_t, C)
KNOWN_EVENT(A, 2, TestProvider, 4, 0x1)
EVENT_FIELD(A, 0, uint32_t, B_C)

#include <evgen/manifest_end.h>
