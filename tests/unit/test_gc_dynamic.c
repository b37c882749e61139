/* test_gc_dynamic.c — the GCDynamicEvent payload decoder (evgen/gc_dynamic.h): each known Name on
 * a payload built byte by byte here (the oracle), Names in UTF-16 and UTF-8 in any ASCII case,
 * unknown Names and Versions, extra bytes, and every truncation, each cut copied into a buffer of
 * its exact size so that a read past it is caught by the sanitizers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evgen/gc_dynamic.h"

typedef struct bytes {
    uint8_t b[64];
    size_t n;
} bytes;

static void put(bytes *p, uint64_t v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p->b[p->n++] = (uint8_t)(v >> (8 * i));
}

static void put_f32(bytes *p, float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    put(p, bits, 4);
}

/* A UTF-16LE copy of an ASCII name, in a buffer of its exact size. */
static evgen_utf16_view utf16(const char *ascii, uint8_t **owned)
{
    size_t n = strlen(ascii);
    uint8_t *units = malloc(2 * n + 1);
    for (size_t i = 0; i < n; i++) {
        units[2 * i] = (uint8_t)ascii[i];
        units[2 * i + 1] = 0;
    }
    *owned = units;
    evgen_utf16_view v = {units, (uint32_t)n};
    return v;
}

static bytes committed_usage(void)
{
    bytes p = {{0}, 0};
    put(&p, 1, 2);
    put(&p, 0x1111222233334444ull, 8);
    put(&p, 2, 8);
    put(&p, 3, 8);
    put(&p, 4, 8);
    put(&p, 0xfedcba9876543210ull, 8);
    return p;
}

static bytes heap_count_tuning(void)
{
    bytes p = {{0}, 0};
    put(&p, 1, 2);
    put(&p, 12, 2);
    put(&p, 4242, 8);
    put_f32(&p, 1.5f);
    put_f32(&p, 2.25f);
    put_f32(&p, -3.0f);
    put_f32(&p, 0.125f);
    put_f32(&p, 100.0f);
    put_f32(&p, -0.5f);
    return p;
}

static bytes heap_count_sample(void)
{
    bytes p = {{0}, 0};
    put(&p, 1, 2);
    put(&p, 77, 8);
    put(&p, 123456, 8);
    put(&p, 789, 8);
    put(&p, 5, 8);
    return p;
}

static void test_committed_usage(void **state)
{
    (void)state;
    bytes p = committed_usage();
    uint8_t *name_units;
    evgen_utf16_view name = utf16("CommittedUsage", &name_units);
    evgen_gc_dynamic d;
    assert_int_equal(evgen_gc_dynamic_decode(name, p.b, p.n, &d), EVGEN_GC_DYNAMIC_OK);
    assert_string_equal(d.name, "CommittedUsage");
    assert_int_equal(d.version, 1);
    assert_int_equal(d.layout_size, 42);
    assert_int_equal(d.extra, 0);
    assert_int_equal(d.n_fields, 6);
    static const char *const names[] = {"Version", "TotalCommittedInUse", "TotalCommittedInGlobalDecommit",
                                        "TotalCommittedInFree", "TotalCommittedInGlobalFree",
                                        "TotalBookkeepingCommitted"};
    static const uint64_t values[] = {1, 0x1111222233334444ull, 2, 3, 4, 0xfedcba9876543210ull};
    for (size_t i = 0; i < 6; i++) {
        assert_string_equal(d.fields[i].name, names[i]);
        assert_int_equal(d.fields[i].kind, i == 0 ? EVGEN_GC_DYNAMIC_U16 : EVGEN_GC_DYNAMIC_U64);
        assert_true(d.fields[i].u == values[i]);
    }
    free(name_units);
}

static void test_heap_count_tuning(void **state)
{
    (void)state;
    bytes p = heap_count_tuning();
    evgen_gc_dynamic d;
    assert_int_equal(evgen_gc_dynamic_decode_utf8("HeapCountTuning", p.b, p.n, &d), EVGEN_GC_DYNAMIC_OK);
    assert_int_equal(d.layout_size, 36);
    assert_int_equal(d.n_fields, 9);
    assert_int_equal(evgen_gc_dynamic_find(&d, "NewHeapCount")->u, 12);
    assert_int_equal(evgen_gc_dynamic_find(&d, "GCIndex")->u, 4242);
    static const char *const floats[] = {"MedianThroughputCostPercent", "SmoothedMedianThroughputCostPercent",
                                         "ThroughputCostPercentReductionPerStepUp",
                                         "ThroughputCostPercentIncreasePerStepDown",
                                         "SpaceCostPercentIncreasePerStepUp", "SpaceCostPercentDecreasePerStepDown"};
    static const float values[] = {1.5f, 2.25f, -3.0f, 0.125f, 100.0f, -0.5f};
    for (size_t i = 0; i < 6; i++) {
        const evgen_gc_dynamic_field *f = evgen_gc_dynamic_find(&d, floats[i]);
        assert_non_null(f);
        assert_int_equal(f->kind, EVGEN_GC_DYNAMIC_F32);
        assert_true(f->f == values[i]);
    }
    assert_null(evgen_gc_dynamic_find(&d, "NoSuchField"));
}

static void test_heap_count_sample_and_name_case(void **state)
{
    (void)state;
    bytes p = heap_count_sample();
    uint8_t *name_units;
    evgen_utf16_view name = utf16("heapCOUNTsample", &name_units);
    evgen_gc_dynamic d;
    assert_int_equal(evgen_gc_dynamic_decode(name, p.b, p.n, &d), EVGEN_GC_DYNAMIC_OK);
    assert_string_equal(d.name, "HeapCountSample");
    assert_int_equal(d.layout_size, 34);
    assert_int_equal(d.n_fields, 5);
    assert_int_equal(evgen_gc_dynamic_find(&d, "GCIndex")->u, 77);
    assert_int_equal(evgen_gc_dynamic_find(&d, "ElapsedTimeBetweenGCs")->u, 123456);
    assert_int_equal(evgen_gc_dynamic_find(&d, "GCPauseTime")->u, 789);
    assert_int_equal(evgen_gc_dynamic_find(&d, "MslWaitTime")->u, 5);
    assert_int_equal(evgen_gc_dynamic_decode_utf8("HEAPCOUNTSAMPLE", p.b, p.n, &d), EVGEN_GC_DYNAMIC_OK);
    free(name_units);
}

static void test_unknown_names(void **state)
{
    (void)state;
    bytes p = heap_count_sample();
    evgen_gc_dynamic d;
    static const char *const names[] = {"", "HeapCount", "HeapCountSampleX", "SizeAdaptationSample", "Heap\x80"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        assert_int_equal(evgen_gc_dynamic_decode_utf8(names[i], p.b, p.n, &d), EVGEN_GC_DYNAMIC_UNKNOWN_NAME);
        assert_null(d.name);
        assert_int_equal(d.n_fields, 0);
        assert_int_equal(d.layout_size, 0);
        uint8_t *units;
        assert_int_equal(evgen_gc_dynamic_decode(utf16(names[i], &units), p.b, p.n, &d), EVGEN_GC_DYNAMIC_UNKNOWN_NAME);
        free(units);
    }
    assert_int_equal(evgen_gc_dynamic_decode_utf8(NULL, p.b, p.n, &d), EVGEN_GC_DYNAMIC_UNKNOWN_NAME);
    /* a non-ASCII unit whose low byte is an ASCII letter does not match */
    uint8_t wide[] = {'H', 0x01, 'e', 0, 'a', 0, 'p', 0, 'C', 0, 'o', 0, 'u', 0, 'n', 0, 't', 0,
                      'S', 0, 'a', 0, 'm', 0, 'p', 0, 'l', 0, 'e', 0};
    evgen_utf16_view v = {wide, 15};
    assert_int_equal(evgen_gc_dynamic_decode(v, p.b, p.n, &d), EVGEN_GC_DYNAMIC_UNKNOWN_NAME);
    assert_string_equal(evgen_gc_dynamic_status_name(EVGEN_GC_DYNAMIC_UNKNOWN_NAME), "unknown name");
}

static void test_unknown_version_and_extra_bytes(void **state)
{
    (void)state;
    bytes p = committed_usage();
    p.b[0] = 2; /* Version 2 */
    evgen_gc_dynamic d;
    assert_int_equal(evgen_gc_dynamic_decode_utf8("CommittedUsage", p.b, p.n, &d), EVGEN_GC_DYNAMIC_UNKNOWN_VERSION);
    assert_int_equal(d.n_fields, 1);
    assert_int_equal(d.fields[0].u, 2);
    assert_string_equal(evgen_gc_dynamic_status_name(EVGEN_GC_DYNAMIC_UNKNOWN_VERSION), "unknown version");

    bytes longer = heap_count_sample();
    put(&longer, 0xabcdef, 8); /* a later runtime's field */
    assert_int_equal(evgen_gc_dynamic_decode_utf8("HeapCountSample", longer.b, longer.n, &d), EVGEN_GC_DYNAMIC_OK);
    assert_int_equal(d.n_fields, 5);
    assert_int_equal(d.extra, 8);
    assert_string_equal(evgen_gc_dynamic_status_name(EVGEN_GC_DYNAMIC_OK), "ok");
}

/* Every cut of every payload, in a buffer of exactly that size: the fields wholly inside decoded,
 * nothing else, status truncated. */
static void test_every_truncation(void **state)
{
    (void)state;
    static const char *const names[] = {"CommittedUsage", "HeapCountTuning", "HeapCountSample"};
    bytes (*const make[])(void) = {committed_usage, heap_count_tuning, heap_count_sample};
    for (size_t k = 0; k < 3; k++) {
        bytes p = make[k]();
        evgen_gc_dynamic whole;
        assert_int_equal(evgen_gc_dynamic_decode_utf8(names[k], p.b, p.n, &whole), EVGEN_GC_DYNAMIC_OK);
        for (size_t cut = 0; cut < p.n; cut++) {
            uint8_t *exact = malloc(cut ? cut : 1);
            memcpy(exact, p.b, cut);
            evgen_gc_dynamic d;
            assert_int_equal(evgen_gc_dynamic_decode_utf8(names[k], cut ? exact : NULL, cut, &d),
                             EVGEN_GC_DYNAMIC_TRUNCATED);
            assert_string_equal(d.name, names[k]);
            size_t end = 0, expect = 0;
            for (size_t i = 0; i < whole.n_fields; i++) {
                evgen_gc_dynamic_kind kind = whole.fields[i].kind;
                end += kind == EVGEN_GC_DYNAMIC_U16 ? 2 : kind == EVGEN_GC_DYNAMIC_F32 ? 4 : 8;
                if (end <= cut)
                    expect++;
            }
            assert_int_equal(d.n_fields, expect);
            for (size_t i = 0; i < d.n_fields; i++) {
                assert_string_equal(d.fields[i].name, whole.fields[i].name);
                assert_true(d.fields[i].u == whole.fields[i].u);
            }
            free(exact);
        }
    }
    assert_string_equal(evgen_gc_dynamic_status_name(EVGEN_GC_DYNAMIC_TRUNCATED), "truncated");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_committed_usage),
        cmocka_unit_test(test_heap_count_tuning),
        cmocka_unit_test(test_heap_count_sample_and_name_case),
        cmocka_unit_test(test_unknown_names),
        cmocka_unit_test(test_unknown_version_and_extra_bytes),
        cmocka_unit_test(test_every_truncation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
