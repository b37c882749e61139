/* names-b.h — see names-a.h: Evgen-Sql-A's Sample again, its Value a string (another family: a
 * column of its own) and its Width 64 bits (the same family, widened), and Evgen-Sql-B's own
 * Shared. */
#include <evgen/manifest.h>

EVENT_PROVIDER(ProviderA, "Evgen-Sql-A")
EVENT_PROVIDER(ProviderB, "Evgen-Sql-B")

KNOWN_EVENT(Sample, 1, ProviderA, 4, 0x1)
EVENT_FIELD(Sample, 0, evgen_utf8z, Value)
EVENT_FIELD(Sample, 0, uint64_t, Width)

KNOWN_EVENT(Shared, 2, ProviderB, 4, 0x1)
EVENT_FIELD(Shared, 0, uint64_t, Count)

#include <evgen/manifest_end.h>
