/* test_forward_compat.c — forward compatibility: a trace written today by the generated runtime
 * side of manifest/gcevents.h is read by the reader generated from the OLDEST lock snapshot of
 * tests/traces/gcevents (evgen gen --from-lock), every event that lock knew checked field by
 * field, and every event it did not know still iterated. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "compat_check.h"
#include "evgen/reader.h"
#include "evgen/runtime.h"
#include "roundtrip.h"

size_t gcevents_fire_all(void);
int gcoldest_read_all(const evgen_event *ev, evgen_read_value *values, int capacity);

static void test_todays_trace_reads_with_the_oldest_reader(void **state)
{
    (void)state;
    evgen_session *s = evgen_session_open_memory(NULL);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    size_t fired = gcevents_fire_all();
    uint8_t *trace = NULL;
    size_t size = 0;
    assert_int_equal(evgen_session_close(s, NULL, &trace, &size), 0);
    evgen_reader *r = evgen_reader_open_memory(trace, size, NULL);
    assert_non_null(r);
    evgen_event ev;
    size_t known = 0, unknown = 0;
    while (evgen_reader_next(r, &ev)) {
        if (compat_check_event(&ev, gcoldest_read_all) >= 0)
            known++;
        else
            unknown++;
    }
    printf("%zu events fired today: %zu read and checked by the oldest reader, %zu unknown to it\n", fired, known,
           unknown);
    assert_int_equal(known + unknown, fired);
    assert_true(known > 0);
    evgen_reader_close(r);
    free(trace);
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
        cmocka_unit_test(test_todays_trace_reads_with_the_oldest_reader),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
