/* Checks that a shipped field given a later since is reported, with the lock beside the manifest,
 * at that since as a move naming both versions, not as the field-order error after it. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 1, uint32_t, Count)
EVENT_FIELD(Sample, 0, uint32_t, Size)
EVENT_FIELD(Sample, 1, uint16_t, ClrInstanceID)

#include <evgen/manifest_end.h>
