/* Checks field names that generated code must not trip over: the names of its locals (p, em,
 * status, fired, payload), of array counts and GUID temporaries, and C library names. */
#include <evgen/manifest.h>

EVENT_PROVIDER(TestProvider, "Evgen-Test")
KNOWN_EVENT(Tricky, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Tricky, 0, uint32_t, p)
EVENT_FIELD(Tricky, 0, uint32_t, em)
EVENT_FIELD(Tricky, 0, uint32_t, status)
EVENT_FIELD(Tricky, 0, uint32_t, fired)
EVENT_FIELD(Tricky, 0, uint32_t, payload)
EVENT_FIELD(Tricky, 0, uint16_t, count)
EVENT_ARRAY(Tricky, 0, uint8_t, count_data, count)
EVENT_FIELD(Tricky, 0, evgen_guid, guid)
EVENT_FIELD(Tricky, 0, uint32_t, size)
EVENT_FIELD(Tricky, 0, uint32_t, memcpy)
EVENT_FIELD(Tricky, 0, uint32_t, strlen)
EVENT_FIELD(Tricky, 0, uint64_t, manifest)

#include <evgen/manifest_end.h>
