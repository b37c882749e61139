/* Checks EVENT_VERSION for an empty version 0 and for a version bump with an unchanged payload. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")

KNOWN_EVENT(RestartEEEnd, 3, TestProvider, 4, 0x1)
EVENT_VERSION(RestartEEEnd, 0)
EVENT_FIELD(RestartEEEnd, 1, uint16_t, ClrInstanceID)
EVENT_VERSION(RestartEEEnd, 2)

#include <evgen/manifest_end.h>
