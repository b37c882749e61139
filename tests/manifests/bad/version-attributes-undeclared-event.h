/* Checks that EVENT_VERSION_ATTRIBUTES for an undeclared event is refused at the event name. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_VERSION_ATTRIBUTES(Sampel, 0, 4, 0x2)

#include <evgen/manifest_end.h>
