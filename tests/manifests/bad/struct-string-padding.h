/* Checks that a struct with a string member is refused when C pads it inside (it must be packed). */
#include <evgen/manifest.h>

typedef struct NamedValue {
    uint32_t Id;
    evgen_utf8z Name;
    uint64_t Value;
} NamedValue;

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_ARRAY(Sample, 0, NamedValue, Values, Count)

#include <evgen/manifest_end.h>
