/* Checks that an error in a header the manifest includes is reported in that header. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
#include "include/bad-type-field.h"

#include <evgen/manifest_end.h>
