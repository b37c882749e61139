/* Checks that a C syntax error in an enum is reported with clang's own message and location. */
#include <evgen/manifest.h>

typedef enum Kind {
    Kind_Small = 0
    Kind_Large = 1
} Kind;

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, Kind, Kind)

#include <evgen/manifest_end.h>
