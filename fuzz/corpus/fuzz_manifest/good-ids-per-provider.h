/* Checks that one id may be used by two providers, as CoreCLR's private provider reuses 5 and 6. */
#include <evgen/manifest.h>

EVENT_PROVIDER(PublicProvider, "Evgen-Test-Public")
EVENT_PROVIDER(PrivateProvider, "Evgen-Test-Private")

KNOWN_EVENT(GCCreateSegment, 5, PublicProvider, 4, 0x1)
EVENT_FIELD(GCCreateSegment, 0, uint64_t, Address)
KNOWN_EVENT(GCFreeSegment, 6, PublicProvider, 4, 0x1)
EVENT_FIELD(GCFreeSegment, 0, uint64_t, Address)

KNOWN_EVENT(PrvGCGlobalHeapHistory, 5, PrivateProvider, 4, 0x1)
EVENT_FIELD(PrvGCGlobalHeapHistory, 0, uint64_t, FinalYoungestDesired)
KNOWN_EVENT(PrvGCJoin, 6, PrivateProvider, 5, 0x1)
EVENT_FIELD(PrvGCJoin, 0, uint32_t, Heap)

#include <evgen/manifest_end.h>
