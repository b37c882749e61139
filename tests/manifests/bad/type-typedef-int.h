/* Checks that a typedef of int declared in the manifest is refused, naming the typedef. */
#include <evgen/manifest.h>

typedef int HeapNumber;

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Sample, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Count)
EVENT_FIELD(Sample, 0, HeapNumber, Heap)

#include <evgen/manifest_end.h>
