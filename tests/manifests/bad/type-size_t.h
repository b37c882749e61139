/* Checks that a field of type size_t (a typedef of a builtin type) is refused with its own name. */
#include <evgen/manifest.h>

#include <stddef.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_FIELD(Sample, 0, size_t, Length)

#include <evgen/manifest_end.h>
