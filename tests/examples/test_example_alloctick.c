/* test_example_alloctick.c — examples/alloctick on a scripted trace: GCAllocationTick v4 ticks on
 * the three heaps (one type on all three), a type name outside ASCII (UTF-16 with a surrogate
 * pair), and older versions (v2: no ObjectSize; v1 and v0: no type name, 32-bit amount); the
 * library's per-type and per-heap totals, then the program's output with --top. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "alloctick.h"
#include "evgen/runtime.h"
#include "gcevents_runtime.h"
#include "script.h"
#include "test_support.h"

static const evgen_char16 string16[] = {'S', 'y', 's', 't', 'e', 'm', '.', 'S', 't', 'r', 'i', 'n', 'g', 0};
static const evgen_char16 bytes16[] = {'S', 'y', 's', 't', 'e', 'm', '.', 'B', 'y', 't', 'e', '[', ']', 0};
static const evgen_char16 order16[] = {'M', 'y', 'A', 'p', 'p', '.', 'O', 'r', 'd', 'e', 'r', 0};
/* "Café.Ünïcode`1[😀]": U+00E9, U+00DC, U+00EF and U+1F600 as the surrogate pair D83D DE00 */
static const evgen_char16 unicode16[] = {'C', 'a', 'f', 0xe9, '.', 0xdc, 'n', 0xef, 'c', 'o', 'd', 'e', '`', '1', '[',
                                         0xd83d, 0xde00, ']', 0};
static const char unicode8[] = "Caf\xc3\xa9.\xc3\x9cn\xc3\xaf" "code`1[\xf0\x9f\x98\x80]";

static void tick4(uint64_t amount, uint32_t kind, const evgen_char16 *type, uint64_t size)
{
    assert_int_equal(FireEtwGCAllocationTick_V4((uint32_t)amount, kind, 1, amount, (const void *)0x7ff800001000u, type,
                                                0, (const void *)0x1c0001000u, size),
                     EVGEN_EMIT_OK);
}

static void ticks(void *arg)
{
    (void)arg;
    tick4(102400, GCAllocationKind_Small, string16, 100);
    tick4(400000, GCAllocationKind_Large, bytes16, 400000);
    tick4(102400, GCAllocationKind_Small, string16, 200);
    tick4(110000, GCAllocationKind_Small, bytes16, 5000);
    tick4(105000, GCAllocationKind_Pinned, bytes16, 4096);
    tick4(102400, GCAllocationKind_Small, string16, 300);
    tick4(120000, GCAllocationKind_Small, unicode16, 64);
    assert_int_equal(FireEtwGCAllocationTick_V2(101000, GCAllocationKind_Small, 1, 101000,
                                                (const void *)0x7ff800002000u, order16, 0),
                     EVGEN_EMIT_OK);
    assert_int_equal(FireEtwGCAllocationTick_V1(100500, GCAllocationKind_Large, 1), EVGEN_EMIT_OK);
    assert_int_equal(FireEtwGCAllocationTick_V0(100100, GCAllocationKind_Small), EVGEN_EMIT_OK);
    /* not ticks: ignored */
    assert_int_equal(FireEtwGCTriggered(GCReason_AllocSmall, 1), EVGEN_EMIT_OK);
    assert_int_equal(FireEtwGCCreateSegment(0x1c0000000u, 1u << 20, GCSegmentType_SmallObjectHeap, 1), EVGEN_EMIT_OK);
}

static uint8_t *record(size_t *size)
{
    return script_record(ticks, NULL, size);
}

static void test_library_totals(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *data = record(&size);
    evgen_reader *reader = evgen_reader_open_memory(data, size, NULL);
    assert_non_null(reader);
    alloctick *a = alloctick_new();
    assert_non_null(a);
    evgen_event ev;
    evgen_reader_rewind(reader, EVGEN_ORDER_TIME);
    while (evgen_reader_next(reader, &ev))
        assert_int_equal(alloctick_feed(a, &ev), 0);

    alloctick_sum total = alloctick_total(a);
    assert_int_equal(total.ticks, 10);
    assert_int_equal(total.bytes, 1343800);
    alloctick_sum soh = alloctick_heap(a, ALLOCTICK_SOH), loh = alloctick_heap(a, ALLOCTICK_LOH),
                  poh = alloctick_heap(a, ALLOCTICK_POH), other = alloctick_heap(a, ALLOCTICK_OTHER);
    assert_int_equal(soh.ticks, 7);
    assert_int_equal(soh.bytes, 102400 * 3 + 110000 + 120000 + 101000 + 100100);
    assert_int_equal(loh.ticks, 2);
    assert_int_equal(loh.bytes, 400000 + 100500);
    assert_int_equal(poh.ticks, 1);
    assert_int_equal(poh.bytes, 105000);
    assert_int_equal(other.ticks, 0);

    size_t n = 0;
    const alloctick_type *t = alloctick_types(a, &n);
    assert_int_equal(n, 5);
    /* by estimated bytes */
    assert_string_equal(t[0].name, "System.Byte[]");
    assert_int_equal(t[0].total.ticks, 3);
    assert_int_equal(t[0].total.bytes, 615000);
    assert_int_equal(t[0].heap_bytes[ALLOCTICK_SOH], 110000);
    assert_int_equal(t[0].heap_bytes[ALLOCTICK_LOH], 400000);
    assert_int_equal(t[0].heap_bytes[ALLOCTICK_POH], 105000);
    assert_int_equal(t[0].sized_ticks, 3);
    assert_int_equal(t[0].object_bytes, 409096);
    assert_string_equal(t[1].name, "System.String");
    assert_int_equal(t[1].total.ticks, 3);
    assert_int_equal(t[1].total.bytes, 307200);
    assert_int_equal(t[1].object_bytes, 600);
    assert_string_equal(t[2].name, "(no type name)"); /* v0 and v1 */
    assert_int_equal(t[2].total.ticks, 2);
    assert_int_equal(t[2].total.bytes, 200600);
    assert_int_equal(t[2].heap_bytes[ALLOCTICK_SOH], 100100);
    assert_int_equal(t[2].heap_bytes[ALLOCTICK_LOH], 100500);
    assert_int_equal(t[2].sized_ticks, 0);
    assert_string_equal(t[3].name, unicode8);
    assert_int_equal(t[3].total.bytes, 120000);
    assert_string_equal(t[4].name, "MyApp.Order"); /* v2: no ObjectSize */
    assert_int_equal(t[4].total.bytes, 101000);
    assert_int_equal(t[4].sized_ticks, 0);

    alloctick_free(a);
    evgen_reader_close(reader);
    free(data);
}

static void test_program_output(void **state)
{
    (void)state;
    char *dir = evgen_test_tempdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/ticks.evtrace", dir);
    size_t size = 0;
    uint8_t *data = record(&size);
    script_write_file(path, data, size);
    free(data);
    const char *argv[] = {ALLOCTICK_EXE, path, "--top", "2", NULL};
    char *out = NULL, *err = NULL;
    assert_int_equal(evgen_test_run(argv, NULL, &out, &err), 0);
    assert_string_equal(err, "");
    assert_non_null(strstr(out, "GCAllocationTick: 10 ticks (one per ~100 KB allocated on a heap), "
                                "estimated allocation 1.344 MB\n"));
    assert_non_null(strstr(out, "\nSOH             7          0.738    54.9\n"));
    assert_non_null(strstr(out, "\nLOH             2          0.501    37.2\n"));
    assert_non_null(strstr(out, "\nPOH             1          0.105     7.8\n"));
    assert_null(strstr(out, "other"));
    assert_non_null(strstr(out, "\nTop 2 of 5 types by estimated allocation:\n"));
    char line[256];
    snprintf(line, sizeof line, "\n%10u %14s %7s %10s %10s %10s %12s  %s\n", 3, "0.615", "45.8", "0.110", "0.400",
             "0.105", "136365", "System.Byte[]");
    assert_non_null(strstr(out, line));
    snprintf(line, sizeof line, "\n%10u %14s %7s %10s %10s %10s %12s  %s\n", 3, "0.307", "22.9", "0.307", "0.000",
             "0.000", "200", "System.String");
    assert_non_null(strstr(out, line));
    assert_null(strstr(out, "MyApp.Order")); /* below the top 2 */
    free(out);
    free(err);

    /* --top 0: every type, the one without a size sample included */
    const char *all_argv[] = {ALLOCTICK_EXE, path, "--top", "0", NULL};
    assert_int_equal(evgen_test_run(all_argv, NULL, &out, &err), 0);
    assert_non_null(strstr(out, "Top 5 of 5 types"));
    snprintf(line, sizeof line, "%12s  %s\n", "-", "MyApp.Order");
    assert_non_null(strstr(out, line));
    assert_non_null(strstr(out, unicode8));
    free(out);
    free(err);

    const char *bad_argv[] = {ALLOCTICK_EXE, path, "--top", "x", NULL};
    assert_int_equal(evgen_test_run(bad_argv, NULL, &out, &err), 2);
    free(out);
    free(err);
    evgen_test_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_library_totals),
        cmocka_unit_test(test_program_output),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
