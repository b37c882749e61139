/* Checks that a legacy-only field of two types in two legacy versions is refused: it has one accessor. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Start, 2, TestProvider, 4, 0x1)
EVENT_LEGACY_FIELD(Start, 0, uint16_t, Depth)
EVENT_LEGACY_FIELD(Start, 1, uint32_t, Depth)
EVENT_FIELD(Start, 2, uint32_t, Count)

#include <evgen/manifest_end.h>
