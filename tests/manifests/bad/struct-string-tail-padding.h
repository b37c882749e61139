/* Checks that a struct with a string member is refused when C pads its end (it must be packed). */
#include <evgen/manifest.h>

typedef struct NamedId {
    evgen_utf16z Name;
    uint16_t Id;
} NamedId;

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_ARRAY(Sample, 0, NamedId, Values, Count)

#include <evgen/manifest_end.h>
