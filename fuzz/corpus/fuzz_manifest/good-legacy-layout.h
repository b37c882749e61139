/* Checks a legacy layout: version 0 of Start had Reason where version 1 inserted Depth (as GCStart). */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")

KNOWN_EVENT(Start, 1, TestProvider, 4, 0x1)
EVENT_LEGACY_FIELD(Start, 0, uint32_t, Count)
EVENT_LEGACY_FIELD(Start, 0, uint32_t, Reason)
EVENT_FIELD(Start, 0, uint32_t, Count)
EVENT_FIELD(Start, 1, uint32_t, Depth)
EVENT_FIELD(Start, 0, uint32_t, Reason)
EVENT_FIELD(Start, 1, uint16_t, ClrInstanceID)
EVENT_FIELD(Start, 2, uint64_t, ClientSequenceNumber)

KNOWN_EVENT(SuspendBegin, 9, TestProvider, 4, 0x1)
EVENT_LEGACY_FIELD(SuspendBegin, 0, uint16_t, Reason)
EVENT_FIELD(SuspendBegin, 0, uint32_t, Reason)
EVENT_FIELD(SuspendBegin, 1, uint32_t, Count)

#include <evgen/manifest_end.h>
