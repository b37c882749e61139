/* test_gen_emit.c — the generated FireEtw functions of manifest/gcevents.h, run: their payloads
 * equal bytes built independently of the generator — by hand for GCHeapStats v2, and for every
 * version of every event through roundtrip.c — and the trace tells each record's event and
 * version. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evgen/runtime.h"
#include "gcevents_runtime.h"
#include "roundtrip.h"
#include "test_support.h"
#include "rt_helpers.h"
#include "trace_parse.h"

size_t gcevents_fire_all(void);
size_t gcevents_fire_all_out_of_line(void); /* the same, compiled with EVGEN_FIRE_OUT_OF_LINE */
int disabled_build_fire(int *evaluations); /* disabled_tu.c, compiled with EVGEN_DISABLE */

/* ---- sessions ---------------------------------------------------------------------------- */

static evgen_session *open_memory(void)
{
    evgen_session *s = evgen_session_open_memory(NULL);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 5, ~0ull), 0);
    return s;
}

/* GCHeapStats version 2 with chosen values equals a byte vector written out by hand:
 * 13 fields of version 0 (92 bytes), ClrInstanceID at 92, GenerationSize4 at 94,
 * TotalPromotedSize4 at 102: 110 bytes. */
static void test_gcheapstats_v2_payload_is_the_hand_built_vector(void **state)
{
    (void)state;
    uint8_t want[110];
    size_t o = 0;
    for (uint64_t i = 1; i <= 10; i++) /* GenerationSize0 .. FinalizationPromotedCount */
        for (int k = 0; k < 8; k++)
            want[o++] = (uint8_t)((0x1100000000000000ull * i + i) >> (8 * k));
    for (uint32_t i = 11; i <= 13; i++) /* PinnedObjectCount, SinkBlockCount, GCHandleCount */
        for (int k = 0; k < 4; k++)
            want[o++] = (uint8_t)((0xA0000000u + i) >> (8 * k));
    want[o++] = 0x34; /* ClrInstanceID 0x1234 */
    want[o++] = 0x12;
    assert_int_equal(o, 94);
    for (int k = 0; k < 8; k++) /* GenerationSize4 */
        want[o++] = (uint8_t)(0x0123456789ABCDEFull >> (8 * k));
    for (int k = 0; k < 8; k++) /* TotalPromotedSize4 */
        want[o++] = (uint8_t)(0xFEDCBA9876543210ull >> (8 * k));
    assert_int_equal(o, 110);

    evgen_session *s = open_memory();
    uint64_t g[10];
    for (uint64_t i = 1; i <= 10; i++)
        g[i - 1] = 0x1100000000000000ull * i + i;
    uint32_t status = FireEtwGCHeapStats_V2(g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], 0xA000000Bu,
                                            0xA000000Cu, 0xA000000Du, 0x1234, 0x0123456789ABCDEFull,
                                            0xFEDCBA9876543210ull);
    assert_int_equal(status, EVGEN_EMIT_OK);
    rt_closed c;
    rt_close_and_parse(s, &c);
    assert_int_equal(c.totals.written, 1);
    assert_int_equal(c.records.n, 1);
    uint64_t version;
    const tp_event *e = rt_record_event(&c, &c.records.items[0], &version);
    assert_string_equal(e->name, "GCHeapStats");
    assert_int_equal(e->id, 4);
    assert_int_equal(version, 2);
    assert_int_equal(c.records.items[0].size, 110);
    assert_memory_equal(c.records.items[0].payload, want, 110);
    rt_closed_free(&c);
}

/* Every version of every event, fired by the generated harness, against the JSON layout. */
static void test_every_event_version_round_trips(void **state)
{
    (void)state;
    assert_int_equal(roundtrip_check("manifest/gcevents.h", gcevents_fire_all), 111);
}

/* The linker sends calls of FireEtwGCRestartEEEnd_V0's out-of-line definition (gcevents_runtime.c)
 * here (--wrap, tests/gen/CMakeLists.txt), where they are counted. */
uint32_t __real_FireEtwGCRestartEEEnd_V0(void);
uint32_t __wrap_FireEtwGCRestartEEEnd_V0(void);
static unsigned out_of_line_calls;

uint32_t __wrap_FireEtwGCRestartEEEnd_V0(void)
{
    out_of_line_calls++;
    return __real_FireEtwGCRestartEEEnd_V0();
}

/* Every version of every event again, through the out-of-line FireEtw functions (a file compiled
 * with EVGEN_FIRE_OUT_OF_LINE): the same payloads. The inline harness calls no out-of-line one. */
static void test_out_of_line_fire_etw_round_trips(void **state)
{
    (void)state;
    out_of_line_calls = 0;
    assert_int_equal(roundtrip_check("manifest/gcevents.h", gcevents_fire_all), 111);
    assert_int_equal(out_of_line_calls, 0);
    assert_int_equal(roundtrip_check("manifest/gcevents.h", gcevents_fire_all_out_of_line), 111);
    assert_int_equal(out_of_line_calls, 1);
}

/* Long strings and many array elements, and the NULL string. */
static void test_long_strings_and_large_arrays(void **state)
{
    (void)state;
    enum { LONG = 10000, MANY = 1000 };
    evgen_char16 *name = calloc(LONG + 1, sizeof *name);
    for (size_t i = 0; i < LONG; i++)
        name[i] = (evgen_char16)(0x4e00 + i % 512);
    GCLOHCompactInfo *values = calloc(MANY, sizeof *values);
    for (size_t i = 0; i < MANY; i++) {
        values[i].TimePlan = (uint32_t)i;
        values[i].TotalRefs = (evgen_ptr)(0x1000 + i);
    }
    evgen_session *s = open_memory();
    assert_int_equal(FireEtwGCAllocationTick_V4(1, 2, 3, 4, (const void *)5, name, 6, (const void *)7, 8), EVGEN_EMIT_OK);
    assert_int_equal(FireEtwGCLOHCompact_V0(9, MANY, values), EVGEN_EMIT_OK);
    assert_int_equal(FireEtwPinObjectAtGCTime_V0(NULL, NULL, 1, NULL, 2), EVGEN_EMIT_OK);
    rt_closed c;
    rt_close_and_parse(s, &c);
    assert_int_equal(c.records.n, 3);
    const tp_record *tick = &c.records.items[0];
    assert_int_equal(tick->size, 26 + 2 * (LONG + 1) + 4 + 8 + 8);
    assert_memory_equal(tick->payload + 26, name, 2 * (LONG + 1));
    const tp_record *compact = &c.records.items[1];
    assert_int_equal(compact->size, 4 + MANY * sizeof(GCLOHCompactInfo));
    assert_memory_equal(compact->payload + 4, values, MANY * sizeof(GCLOHCompactInfo));
    const tp_record *pin = &c.records.items[2];
    assert_int_equal(pin->size, 8 + 8 + 8 + 2 + 2); /* NULL TypeName: the empty string */
    assert_int_equal(pin->payload[24] | pin->payload[25], 0);
    rt_closed_free(&c);
    free(values);
    free(name);
}

static int evaluations;
static uint64_t counted(uint64_t v)
{
    evaluations++;
    return v;
}

/* FIRE_EVENT evaluates no argument while the event is disabled; an enabled event writes bytes. */
static void test_fire_event_and_enablement(void **state)
{
    (void)state;
    evgen_session *s = evgen_session_open_memory(NULL);
    assert_non_null(s);
    evaluations = 0;
    assert_false(EventEnabledGCHeapStats());
    FIRE_EVENT(GCHeapStats, counted(1), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, counted(2), 0);
    assert_int_equal(evaluations, 0);
    assert_int_equal(FireEtwGCHeapStats(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16), EVGEN_EMIT_DISABLED);

    /* Level 4 (Information) keeps GCAllocationTick (Verbose) off. */
    assert_int_equal(evgen_session_enable(s, "Microsoft-Windows-DotNETRuntime", 4, 0x1), 0);
    assert_true(EventEnabledGCHeapStats());
    assert_false(EventEnabledGCAllocationTick());
    assert_false(EventEnabledPinPlugAtGCTime()); /* the private provider */
    FIRE_EVENT(GCHeapStats, counted(1), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, counted(2), 0);
    assert_int_equal(evaluations, 2);
    /* The build with EVGEN_DISABLE records nothing and evaluates nothing, session or not. */
    int disabled_evaluations = 0;
    assert_int_equal(disabled_build_fire(&disabled_evaluations), EVGEN_EMIT_DISABLED);
    assert_int_equal(disabled_evaluations, 0);
    rt_closed c;
    rt_close_and_parse(s, &c);
    assert_int_equal(c.totals.written, 1);
    assert_int_equal(c.records.n, 1);
    assert_int_equal(c.records.items[0].size, 110);
    rt_closed_free(&c);
}

/* A payload over max_payload is refused and counted, never truncated. */
static void test_too_big_is_refused_and_counted(void **state)
{
    (void)state;
    enum { BIG = 70000 };
    uint8_t *data = calloc(1, BIG);
    static const evgen_char16 name[] = {'x', 0};
    evgen_session *s = open_memory();
    assert_int_equal(FireEtwGCDynamicEvent_V0(name, BIG, data, 1), EVGEN_EMIT_TOO_BIG);
    assert_int_equal(FireEtwGCDynamicEvent_V0(name, 100, data, 1), EVGEN_EMIT_OK);
    rt_closed c;
    rt_close_and_parse(s, &c);
    assert_int_equal(c.totals.too_big, 1);
    assert_int_equal(c.totals.written, 1);
    assert_int_equal(c.records.n, 1);
    assert_int_equal(c.records.items[0].size, 4 + 4 + 100 + 2);
    assert_int_equal(c.parsed.end_too_big, 1);
    rt_closed_free(&c);
    free(data);
}

static int teardown(void **state)
{
    (void)state;
    roundtrip_free();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gcheapstats_v2_payload_is_the_hand_built_vector),
        cmocka_unit_test(test_every_event_version_round_trips),
        cmocka_unit_test(test_out_of_line_fire_etw_round_trips),
        cmocka_unit_test(test_long_strings_and_large_arrays),
        cmocka_unit_test(test_fire_event_and_enablement),
        cmocka_unit_test(test_too_big_is_refused_and_counted),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
