/* test_manifest.c — the descriptors of test_manifest.h, laid out as `evgen gen` would write
 * them; "testevents" registers itself at load, like generated code. */
#include "test_manifest.h"

#include <stddef.h>

uint8_t testevents_enabled[4];
uint8_t lateevents_enabled[1];

static const char *const test_providers[] = {"Test-Provider", "Other-Provider"};

static const evgen_enum_const_desc reason_consts[] = {{"AllocSmall", 0}, {"Induced", 1}, {"Negative", -5}};
static const evgen_enum_desc test_enums[] = {{sizeof(evgen_enum_desc), "Reason", reason_consts, 3}};

static const evgen_member_desc span_members[] = {
    {"Start", EVGEN_WIRE_U64, -1, offsetof(test_span, start)},
    {"Len", EVGEN_WIRE_U32, 0, offsetof(test_span, len)},
};
static const evgen_struct_desc test_structs[] = {
    {sizeof(evgen_struct_desc), "Span", sizeof(test_span), span_members, 2}};

static const evgen_field_desc heapstats_fields[] = {
    {"GenerationSize0", EVGEN_WIRE_U64, 0, -1, -1, -1},
    {"TotalPromotedSize0", EVGEN_WIRE_U64, 0, -1, -1, -1},
    {"GenerationSize1", EVGEN_WIRE_U64, 0, -1, -1, -1},
    {"TotalPromotedSize1", EVGEN_WIRE_U64, 0, -1, -1, -1},
    {"GenerationSize2", EVGEN_WIRE_U64, 0, -1, -1, -1},
    {"TotalPromotedSize2", EVGEN_WIRE_U64, 0, -1, -1, -1},
    {"GenerationSize3", EVGEN_WIRE_U64, 0, -1, -1, -1},
    {"TotalPromotedSize3", EVGEN_WIRE_U64, 0, -1, -1, -1},
    {"FinalizationPromotedSize", EVGEN_WIRE_U64, 0, -1, -1, -1},
    {"FinalizationPromotedCount", EVGEN_WIRE_U64, 0, -1, -1, -1},
    {"PinnedObjectCount", EVGEN_WIRE_U32, 0, -1, -1, -1},
    {"SinkBlockCount", EVGEN_WIRE_U32, 0, -1, -1, -1},
    {"GCHandleCount", EVGEN_WIRE_U32, 0, -1, -1, -1},
    {"ClrInstanceID", EVGEN_WIRE_U16, 0, -1, -1, -1},
    {"GenerationSize4", EVGEN_WIRE_U64, 0, -1, -1, -1},
    {"TotalPromotedSize4", EVGEN_WIRE_U64, 0, -1, -1, -1},
};
static const evgen_version_desc heapstats_versions[] = {
    {sizeof(evgen_version_desc), 1, 0, TEST_HEAPSTATS_V1_SIZE, heapstats_fields, 14, 0, 0, 0},
    {sizeof(evgen_version_desc), 2, 0, TEST_HEAPSTATS_V2_SIZE, heapstats_fields, 16, 0, 0, 0},
};

static const evgen_field_desc message_fields[] = {
    {"Seq", EVGEN_WIRE_U32, 0, -1, -1, -1},
    {"Text", EVGEN_WIRE_UTF16Z, 0, -1, -1, -1},
    {"Count", EVGEN_WIRE_U16, 0, -1, -1, -1},
    {"Values", EVGEN_WIRE_U32, EVGEN_FIELD_ARRAY, -1, -1, 2},
    {"NSpans", EVGEN_WIRE_U16, 0, -1, -1, -1},
    {"Spans", EVGEN_WIRE_STRUCT, EVGEN_FIELD_ARRAY, -1, 0, 4},
};
static const evgen_version_desc message_versions[] = {
    {sizeof(evgen_version_desc), 0, EVGEN_VERSION_VARIABLE, 0, message_fields, 6, 0, 0, 0},
};

static const evgen_field_desc tick_fields[] = {
    {"Thread", EVGEN_WIRE_U32, 0, -1, -1, -1},
    {"Seq", EVGEN_WIRE_U64, 0, -1, -1, -1},
};
static const evgen_version_desc tick_versions[] = {
    {sizeof(evgen_version_desc), 0, 0, TEST_TICK_SIZE, tick_fields, 2, 0, 0, 0},
};

static const evgen_field_desc marker_fields[] = {
    {"Seq", EVGEN_WIRE_U64, 0, -1, -1, -1},
    {"Reason", EVGEN_WIRE_I32, 0, 0, -1, -1},
};
static const evgen_version_desc marker_versions[] = {
    {sizeof(evgen_version_desc), 0, 0, TEST_MARKER_SIZE, marker_fields, 2, 0, 0, 0},
};

static const evgen_event_desc test_events[] = {
    {sizeof(evgen_event_desc), "HeapStats", 0, 4, 4, 0x1, heapstats_versions, 2, 0},
    {sizeof(evgen_event_desc), "Message", 0, 10, 5, 0x2, message_versions, 1, 2},
    {sizeof(evgen_event_desc), "Tick", 0, 11, 4, 0x4, tick_versions, 1, 3},
    {sizeof(evgen_event_desc), "Marker", 1, 1, 0, 0, marker_versions, 1, 4},
};

evgen_manifest_desc testevents_manifest = {
    sizeof(evgen_manifest_desc), EVGEN_RUNTIME_ABI, "testevents",
    test_providers, 2,
    test_events, 4, 5,
    test_enums, 1,
    test_structs, 1,
    testevents_enabled, 0, NULL, 0
};

static const char *const late_providers[] = {"Late-Provider"};
static const evgen_field_desc late_fields[] = {
    {"Value", EVGEN_WIRE_U64, 0, -1, -1, -1},
    {"Where", EVGEN_WIRE_PTR, 0, -1, -1, -1},
};
static const evgen_version_desc late_versions[] = {
    {sizeof(evgen_version_desc), 0, 0, (uint32_t)(8 + sizeof(void *)), late_fields, 2, 0, 0, 0},
};
static const evgen_event_desc late_events[] = {
    {sizeof(evgen_event_desc), "Late", 0, 1, 4, 0, late_versions, 1, 0},
};

evgen_manifest_desc lateevents_manifest = {
    sizeof(evgen_manifest_desc), EVGEN_RUNTIME_ABI, "lateevents",
    late_providers, 1,
    late_events, 1, 1,
    NULL, 0,
    NULL, 0,
    lateevents_enabled, 0, NULL, 0
};

__attribute__((constructor)) static void testevents_register_at_load(void)
{
    evgen_register_manifest(&testevents_manifest);
}
