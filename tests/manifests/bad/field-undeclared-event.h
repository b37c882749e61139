/* Checks that a field of an event no KNOWN_EVENT declares is refused at the event name. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_FIELD(Sampel, 1, uint32_t, Flags)

#include <evgen/manifest_end.h>
