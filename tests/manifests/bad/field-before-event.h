/* Checks that a field placed before its KNOWN_EVENT line is refused. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
EVENT_FIELD(Later, 0, uint32_t, Count)

KNOWN_EVENT(Later, 2, TestProvider, 4, 0x1)

#include <evgen/manifest_end.h>
