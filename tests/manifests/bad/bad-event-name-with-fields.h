/* Checks that an event with a reserved name is reported once, not again at each of its fields. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(new, 1, TestProvider, 4, 0x1)
EVENT_FIELD(new, 0, uint32_t, Count)
EVENT_FIELD(new, 0, uint64_t, Size)

#include <evgen/manifest_end.h>
