/* test_xmacro.c — a manifest is plain C: this file uses no evgen code at all. It defines a few
 * of the X-macros and includes manifest/gcevents.h several times, as a runtime would. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

/* First inclusion: every macro is empty; only the types section takes effect. */
#include "gcevents.h"

/* The event ids as an enum. */
enum gc_event_id {
#define KNOWN_EVENT(name, id, provider, level, keywords) GcEventId_##name = (id),
#include "gcevents.h"
    GcEventId_end_
};

/* The providers' names. */
static const char *const provider_names[] = {
#define EVENT_PROVIDER(symbol, name) name,
#include "gcevents.h"
};

/* Every plain field, with the size C gives its type. */
typedef struct field_row {
    const char *event;
    int since;
    size_t size;
    const char *name;
} field_row;

static const field_row fields[] = {
#define EVENT_FIELD(event, since, type, name) {#event, (since), sizeof(type), #name},
#include "gcevents.h"
};

/* A C struct holding GCHeapStats' fields: the field types are real C types. */
typedef struct gc_heap_stats_fields {
#define EVENT_FIELD(event, since, type, name) type event##_##name;
#include "gcevents.h"
} gc_heap_stats_fields;

static void test_event_ids_from_known_event(void **state)
{
    (void)state;
    assert_int_equal(GcEventId_GCStart, 1);
    assert_int_equal(GcEventId_GCHeapStats, 4);
    assert_int_equal(GcEventId_GCAllocationTick, 10);
    assert_int_equal(GcEventId_PinPlugAtGCTime, 199);
    assert_int_equal(GcEventId_GCFitBucketInfo, 209);
}

static void test_providers(void **state)
{
    (void)state;
    assert_int_equal(sizeof provider_names / sizeof provider_names[0], 2);
    assert_string_equal(provider_names[0], "Microsoft-Windows-DotNETRuntime");
    assert_string_equal(provider_names[1], "Microsoft-Windows-DotNETRuntimePrivate");
}

/* The version-2 payload of GCHeapStats is the fields with since <= 2: 110 bytes, and
 * GenerationSize4 starts at 94, computed from nothing but sizeof. */
static void test_gcheapstats_layout_from_sizeof(void **state)
{
    (void)state;
    size_t offset = 0, generation_size4 = 0, n = 0;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        if (strcmp(fields[i].event, "GCHeapStats") != 0 || fields[i].since > 2)
            continue;
        if (strcmp(fields[i].name, "GenerationSize4") == 0)
            generation_size4 = offset;
        offset += fields[i].size;
        n++;
    }
    assert_int_equal(n, 16);
    assert_int_equal(generation_size4, 94);
    assert_int_equal(offset, 110);
    gc_heap_stats_fields s;
    s.GCHeapStats_GenerationSize4 = UINT64_MAX;
    assert_true(s.GCHeapStats_GenerationSize4 == UINT64_MAX);
    assert_int_equal(sizeof s.GCAllocationTick_TypeID, sizeof(void *)); /* evgen_ptr is pointer-sized */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_event_ids_from_known_event),
        cmocka_unit_test(test_providers),
        cmocka_unit_test(test_gcheapstats_layout_from_sizeof),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
