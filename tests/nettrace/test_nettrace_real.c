/* test_nettrace_real.c — the real .NET Core 3.0 trace of ../shared/reference/traces/, read through
 * manifest/gcevents.h: its header, both orders (same events, time order nondecreasing), no loss,
 * the generated accessors on the first AllocationTick, and the unbound sample events. Counts, first
 * events and field values of every kind against PerfView's baseline are test_nettrace_baselines'. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gcevents_reader.h"
#include "real_trace.h"
#include "test_support.h"

typedef struct fixture {
    char *dir, *path;
    evgen_reader *rd;
    baseline_line *baseline;
    size_t n_baseline;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->path = real_trace_unzip(&f->dir);
    f->baseline = baseline_read(&f->n_baseline);
    *state = f;
    if (!f->path || !f->baseline)
        return 0;
    const evgen_reader_manifest *manifests[] = {&gcevents_reader_manifest};
    evgen_reader_options options = {manifests, 1};
    char *error = NULL;
    f->rd = evgen_reader_open_with(f->path, &options, &error);
    if (!f->rd)
        fprintf(stderr, "cannot open %s: %s\n", f->path, error);
    free(error);
    return f->rd ? 0 : -1;
}

static int teardown(void **state)
{
    fixture *f = *state;
    evgen_reader_close(f->rd);
    if (f->baseline)
        baseline_free(f->baseline, f->n_baseline);
    real_trace_remove(f->dir, f->path);
    free(f);
    return 0;
}

/* The trace's header, and no problem. */
static void test_header(void **state)
{
    fixture *f = *state;
    REAL_TRACE_NEEDED(f->rd);
    const evgen_trace_header *h = evgen_reader_header(f->rd);
    assert_int_equal(h->container, EVGEN_CONTAINER_NETTRACE);
    assert_int_equal(h->format_version, 4);
    assert_int_equal(h->pointer_size, 8);
    assert_int_equal(h->process_id, 10064);
    assert_int_equal(h->cpu_count, 4);
    assert_int_equal(evgen_reader_status(f->rd, NULL), EVGEN_READ_OK);
    size_t n_problems = 99;
    evgen_reader_problems(f->rd, &n_problems);
    assert_int_equal(n_problems, 0);
}

/* File and time order give the same 105,540 events, time order with nondecreasing ticks; no
 * sequence gap (loss) on any thread; the end of stream is there. */
static void test_orders(void **state)
{
    fixture *f = *state;
    REAL_TRACE_NEEDED(f->rd);
    for (int order = 0; order < 2; order++) {
        uint64_t total = 0, last_ticks = 0;
        evgen_event ev;
        evgen_reader_rewind(f->rd, order ? EVGEN_ORDER_TIME : EVGEN_ORDER_FILE);
        while (evgen_reader_next(f->rd, &ev)) {
            total++;
            if (order) {
                assert_true(ev.ticks >= last_ticks);
                last_ticks = ev.ticks;
            }
        }
        assert_int_equal(total, 105540);
    }
    size_t n_threads;
    int has_end;
    const evgen_reader_thread *t = evgen_reader_threads(f->rd, &n_threads, &has_end);
    uint64_t lost = 0;
    for (size_t i = 0; i < n_threads; i++)
        lost += t[i].dropped;
    assert_int_equal(lost, 0);
    assert_true(has_end);
}

static void test_generated_accessors(void **state)
{
    fixture *f = *state;
    REAL_TRACE_NEEDED(f->rd);
    evgen_event ev;
    int found = 0;
    evgen_reader_rewind(f->rd, EVGEN_ORDER_TIME);
    while (!found && evgen_reader_next(f->rd, &ev))
        found = GCAllocationTick_is(&ev);
    assert_true(found);
    assert_int_equal(ev.version, 3);
    assert_int_equal(GCAllocationTick_AllocationAmount(&ev), 0x196A0);
    assert_int_equal(GCAllocationTick_AllocationAmount64(&ev), 104096);
    assert_int_equal(GCAllocationTick_ClrInstanceID(&ev), 3);
    assert_int_equal(GCAllocationTick_TypeID(&ev), 0x00007FFEA911EA28ull);
    assert_int_equal(GCAllocationTick_HeapIndex(&ev), 0);
    assert_true(GCAllocationTick_has_HeapIndex(&ev));
    assert_false(GCAllocationTick_has_ObjectSize(&ev)); /* version 4's field */
    char name[64];
    evgen_utf16_to_utf8(GCAllocationTick_TypeName(&ev), name, sizeof name);
    assert_string_equal(name, "System.Object[]");
    assert_int_equal(ev.thread_id, 6920);
    assert_non_null(ev.stack);
    assert_true(ev.stack_depth > 0);
    assert_int_not_equal(evgen_event_stack_ip(&ev, 0), 0);
    assert_int_equal(evgen_event_stack_ip(&ev, ev.stack_depth), 0);
}

/* Events the manifest does not know are iterated with the trace's metadata and raw payload. */
static void test_unbound_events(void **state)
{
    fixture *f = *state;
    REAL_TRACE_NEEDED(f->rd);
    const evgen_trace_event_info *sample = NULL;
    for (size_t i = 0; i < evgen_reader_event_count(f->rd); i++) {
        const evgen_trace_event_info *e = evgen_reader_event_info(f->rd, i);
        if (strcmp(e->provider, "Microsoft-DotNETCore-SampleProfiler") == 0)
            sample = e;
    }
    assert_non_null(sample);
    assert_true(sample->unbound);
    uint64_t n = 0;
    evgen_event ev;
    evgen_reader_rewind(f->rd, EVGEN_ORDER_FILE);
    while (evgen_reader_next(f->rd, &ev))
        if (ev.info == sample) {
            n++;
            assert_int_equal(ev.size, 4); /* the sample's kind: managed or external code */
        }
    size_t i;
    for (i = 0; i < f->n_baseline && strcmp(f->baseline[i].key, "Microsoft-DotNETCore-SampleProfiler/Thread/Sample");
         i++) {
    }
    assert_true(i < f->n_baseline);
    assert_int_equal(n, f->baseline[i].count);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header),
        cmocka_unit_test(test_orders),
        cmocka_unit_test(test_generated_accessors),
        cmocka_unit_test(test_unbound_events),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
