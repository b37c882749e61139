/* names-a.h — with names-b.h, the SQL export's naming and merging rules (docs/fleet.md, "Names" and
 * "Types"), exported together by tests/export/sql/test_sql.py: fields named like the leading
 * columns and raw, fields equal once lower-cased, an event name two providers share, and the fields
 * names-b.h gives another kind. */
#include <evgen/manifest.h>

EVENT_PROVIDER(ProviderA, "Evgen-Sql-A")

KNOWN_EVENT(Sample, 1, ProviderA, 4, 0x1)
EVENT_FIELD(Sample, 0, uint32_t, Value)
EVENT_FIELD(Sample, 0, uint16_t, Width)
EVENT_FIELD(Sample, 0, uint16_t, seq)
EVENT_FIELD(Sample, 0, uint8_t, Raw)
EVENT_FIELD(Sample, 0, uint32_t, Mode)
EVENT_FIELD(Sample, 0, uint32_t, MODE)

KNOWN_EVENT(Shared, 2, ProviderA, 4, 0x1)
EVENT_FIELD(Shared, 0, uint32_t, Count)

#include <evgen/manifest_end.h>
