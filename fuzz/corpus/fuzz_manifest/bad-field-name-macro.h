/* Checks that a field named like a macro is refused: generated code would expand the parameter name. */
#include <evgen/manifest.h>

#define Flags 0x1

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, Flags)
EVENT_FIELD(Sample, 0, uint32_t, Flags)

#include <evgen/manifest_end.h>
