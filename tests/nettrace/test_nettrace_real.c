/* test_nettrace_real.c — the real .NET Core 3.0 trace of ../shared/reference/traces/, read through
 * manifest/gcevents.h, against PerfView TraceEvent's baseline for it: for every GC event kind the
 * baseline lists, the count; for the first event of each kind in time order, its time, thread and
 * every field value the baseline prints; and the generated accessors on the first AllocationTick. */
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

/* PerfView's names of the GC event kinds, and the manifest events each counts. */
typedef struct gc_kind {
    const char *key;
    const char *events[2];
} gc_kind;

static const gc_kind gc_kinds[] = {
    {"Microsoft-Windows-DotNETRuntime/GC", {"IncreaseMemoryPressure", "DecreaseMemoryPressure"}},
    {"Microsoft-Windows-DotNETRuntime/GC/AllocationTick", {"GCAllocationTick"}},
    {"Microsoft-Windows-DotNETRuntime/GC/BulkMovedObjectRanges", {"GCBulkMovedObjectRanges"}},
    {"Microsoft-Windows-DotNETRuntime/GC/FinalizersStart", {"GCFinalizersBegin"}},
    {"Microsoft-Windows-DotNETRuntime/GC/FinalizersStop", {"GCFinalizersEnd"}},
    {"Microsoft-Windows-DotNETRuntime/GC/GenerationRange", {"GCGenerationRange"}},
    {"Microsoft-Windows-DotNETRuntime/GC/GlobalHeapHistory", {"GCGlobalHeapHistory"}},
    {"Microsoft-Windows-DotNETRuntime/GC/HeapStats", {"GCHeapStats"}},
    {"Microsoft-Windows-DotNETRuntime/GC/MarkWithType", {"GCMarkWithType"}},
    {"Microsoft-Windows-DotNETRuntime/GC/PerHeapHistory", {"GCPerHeapHistory"}},
    {"Microsoft-Windows-DotNETRuntime/GC/PinObjectAtGCTime", {"PinObjectAtGCTime"}},
    {"Microsoft-Windows-DotNETRuntime/GC/RestartEEStart", {"GCRestartEEBegin"}},
    {"Microsoft-Windows-DotNETRuntime/GC/RestartEEStop", {"GCRestartEEEnd"}},
    {"Microsoft-Windows-DotNETRuntime/GC/Start", {"GCStart"}},
    {"Microsoft-Windows-DotNETRuntime/GC/Stop", {"GCEnd"}},
    {"Microsoft-Windows-DotNETRuntime/GC/SuspendEEStart", {"GCSuspendEEBegin"}},
    {"Microsoft-Windows-DotNETRuntime/GC/SuspendEEStop", {"GCSuspendEEEnd"}},
    {"Microsoft-Windows-DotNETRuntime/GC/Triggered", {"GCTriggered"}},
    {"Microsoft-Windows-DotNETRuntimePrivate/GC/PinPlugAtGCTime", {"PinPlugAtGCTime"}},
};
#define N_KINDS (sizeof gc_kinds / sizeof gc_kinds[0])

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

static const gc_kind *kind_of_key(const char *key)
{
    for (size_t i = 0; i < N_KINDS; i++)
        if (strcmp(gc_kinds[i].key, key) == 0)
            return &gc_kinds[i];
    return NULL;
}

static int in_kind(const gc_kind *k, const evgen_event *ev)
{
    if (ev->info->unbound)
        return 0;
    for (int i = 0; i < 2 && k->events[i]; i++)
        if (strcmp(ev->info->name, k->events[i]) == 0)
            return 1;
    return 0;
}

/* Every GC line of the baseline names a kind this test knows, and the trace's header. */
static void test_header_and_kinds(void **state)
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
    size_t gc_lines = 0;
    for (size_t i = 0; i < f->n_baseline; i++) {
        const char *key = f->baseline[i].key;
        if (strstr(key, "/GC/") || strcmp(key, "Microsoft-Windows-DotNETRuntime/GC") == 0) {
            if (!kind_of_key(key))
                fail_msg("the baseline's GC event kind %s is not known to this test", key);
            gc_lines++;
        }
    }
    assert_int_equal(gc_lines, N_KINDS);
}

/* Per kind: the count, in file order and in time order, equals the baseline's; the total of every
 * event (GC or not) too. */
static void test_counts(void **state)
{
    fixture *f = *state;
    REAL_TRACE_NEEDED(f->rd);
    /* The baseline leaves out a kind or two it cannot name: every kind it lists is in the trace. */
    uint64_t baseline_total = 0;
    for (size_t i = 0; i < f->n_baseline; i++)
        baseline_total += f->baseline[i].count;
    for (int order = 0; order < 2; order++) {
        uint64_t counts[N_KINDS] = {0}, total = 0, last_ticks = 0;
        evgen_event ev;
        evgen_reader_rewind(f->rd, order ? EVGEN_ORDER_TIME : EVGEN_ORDER_FILE);
        while (evgen_reader_next(f->rd, &ev)) {
            total++;
            if (order) {
                assert_true(ev.ticks >= last_ticks);
                last_ticks = ev.ticks;
            }
            for (size_t k = 0; k < N_KINDS; k++)
                counts[k] += in_kind(&gc_kinds[k], &ev);
        }
        assert_true(total >= baseline_total);
        for (size_t i = 0; i < f->n_baseline; i++) {
            const gc_kind *k = kind_of_key(f->baseline[i].key);
            if (!k)
                continue;
            if (counts[k - gc_kinds] != f->baseline[i].count)
                fail_msg("%s: %llu events, the baseline has %llu", k->key,
                         (unsigned long long)counts[k - gc_kinds], (unsigned long long)f->baseline[i].count);
        }
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

/* The first event of each GC kind in time order: time (ms, 4 decimals), thread, fields. */
static void test_first_events(void **state)
{
    fixture *f = *state;
    REAL_TRACE_NEEDED(f->rd);
    int seen[N_KINDS] = {0};
    size_t compared = 0;
    evgen_event ev;
    evgen_reader_rewind(f->rd, EVGEN_ORDER_TIME);
    while (evgen_reader_next(f->rd, &ev)) {
        for (size_t k = 0; k < N_KINDS; k++) {
            if (seen[k] || !in_kind(&gc_kinds[k], &ev))
                continue;
            seen[k] = 1;
            const baseline_line *l = NULL;
            for (size_t i = 0; i < f->n_baseline && !l; i++)
                if (strcmp(f->baseline[i].key, gc_kinds[k].key) == 0)
                    l = &f->baseline[i];
            assert_non_null(l);
            char ours[32], theirs[32];
            snprintf(ours, sizeof ours, "%.4f", (double)ev.timestamp_ns / 1e6);
            snprintf(theirs, sizeof theirs, "%.4f", l->msec);
            if (strcmp(ours, theirs) != 0)
                fail_msg("%s: first at %s ms, the baseline says %s", l->key, ours, theirs);
            assert_int_equal(ev.thread_id, l->tid);
            size_t here = 0;
            for (size_t a = 0; a < l->n_attrs; a++)
                here += (size_t)baseline_compare_attr(&ev, &l->attrs[a], l->key);
            /* Every attribute the baseline prints for an event with fields has a field of its name,
             * except the arrays' elements, printed as child elements. */
            if (l->n_attrs && !here)
                fail_msg("%s: none of the baseline's %zu attributes compared", l->key, l->n_attrs);
            compared += here;
        }
    }
    for (size_t k = 0; k < N_KINDS; k++)
        if (!seen[k])
            fail_msg("no %s event", gc_kinds[k].key);
    printf("%zu field values compared with the baseline\n", compared);
    assert_true(compared >= 60);
}

/* The generated accessors, on the first allocation tick: the example values. */
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
        cmocka_unit_test(test_header_and_kinds),
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_first_events),
        cmocka_unit_test(test_generated_accessors),
        cmocka_unit_test(test_unbound_events),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
