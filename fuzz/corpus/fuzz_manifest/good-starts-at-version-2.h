/* Checks that an event may start at version 2 (like GCJoin, whose versions 0-1 live elsewhere). */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")

KNOWN_EVENT(Join, 203, TestProvider, 5, 0x1)
EVENT_FIELD(Join, 2, uint32_t, Heap)
EVENT_FIELD(Join, 2, uint16_t, ClrInstanceID)
EVENT_FIELD(Join, 3, uint32_t, JoinID)

#include <evgen/manifest_end.h>
