/* Checks EVENT_VERSION_ATTRIBUTES: versions with their own level and keywords beside versions with
 * the event's (CoreCLR's GCCreateConcurrentThread: v0 keyword GC, v1 GC|Threading). */
#include <evgen/manifest.h>

#define TestKeyword_GC 0x1
#define TestKeyword_Threading 0x10000

EVENT_PROVIDER(TestProvider, "Evgen-Test")

KNOWN_EVENT(CreateThread, 11, TestProvider, 4, TestKeyword_GC | TestKeyword_Threading)
EVENT_VERSION(CreateThread, 0)
EVENT_VERSION_ATTRIBUTES(CreateThread, 0, 4, TestKeyword_GC)
EVENT_FIELD(CreateThread, 1, uint16_t, ClrInstanceID)

/* Own attributes that the event's do not cover: version 1 keeps a byte of its own. */
KNOWN_EVENT(Sweep, 12, TestProvider, 4, 0x2)
EVENT_FIELD(Sweep, 0, uint32_t, Count)
EVENT_FIELD(Sweep, 1, uint16_t, ClrInstanceID)
EVENT_FIELD(Sweep, 2, uint64_t, Bytes)
EVENT_VERSION_ATTRIBUTES(Sweep, 0, 5, 0x4)
EVENT_VERSION_ATTRIBUTES(Sweep, 2, 2, 0x2 | 0x8)

#include <evgen/manifest_end.h>
