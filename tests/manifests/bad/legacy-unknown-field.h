/* Checks that a misspelt legacy field is still refused: Cause names no EVENT_FIELD, so it is a
 * legacy-only field, but Reason (since 0) is then missing from the legacy layout of version 0. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
KNOWN_EVENT(Start, 2, TestProvider, 4, 0x1)
EVENT_LEGACY_FIELD(Start, 0, uint32_t, Count)
EVENT_LEGACY_FIELD(Start, 0, uint32_t, Cause)
EVENT_FIELD(Start, 0, uint32_t, Count)
EVENT_FIELD(Start, 1, uint32_t, Depth)
EVENT_FIELD(Start, 0, uint32_t, Reason)

#include <evgen/manifest_end.h>
