/* Checks that an event named X_V1 clashes with version 1 of event X (both FireEtwX_V1). */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Heap, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Heap, 0, uint32_t, Count)
EVENT_FIELD(Heap, 1, uint16_t, ClrInstanceID)
KNOWN_EVENT(Heap_V1, 2, TestProvider, 4, 0x1)

#include <evgen/manifest_end.h>
