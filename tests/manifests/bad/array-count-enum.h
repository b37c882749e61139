/* Checks that an array whose count field has an enum type is refused at the count. */
#include <evgen/manifest.h>

typedef enum Kind {
    Kind_Small = 0,
    Kind_Large = 1
} Kind;

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, Kind, Size)
EVENT_ARRAY(Sample, 0, uint8_t, Data, Size)

#include <evgen/manifest_end.h>
