/* test_example_real_gc.c — gcheapstats_report and gclog on the real traces of
 * ../shared/reference/traces/, against figures this test derives on its own from the events:
 * `evgen dump --json` gives the suspension and GC events, parsed with json-c, and a small
 * restatement of PerfView's pause rule here (keyed by thread, not the examples' state machine)
 * gives each GC's pause and suspend time; the report's rows, totals and % time paused and gclog's
 * lines must equal them to 0.001 ms, and each GC's allocation since the previous GC and its
 * fragmentation (from the GCPerHeapHistory events, else the allocation ticks) the report's to 0.001
 * MB. The .NET Core 3.0 trace is also checked against TraceEvent's
 * baseline (event counts, the first GC's start and sizes). The oracle knows blocking GCs only: it
 * fails if a trace has a background GC (none of these has). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "real_trace.h"
#include "test_support.h"

enum { MAX_GCS = 1024, MAX_THREADS = 64, SUSPEND_FOR_GC = 1, BACKGROUND = 1 };

enum { GENS = 5, LOH = 3 };

typedef struct oracle_gc {
    uint32_t number, generation;
    uint64_t thread, start_ns, pause_begin_ns, suspend_ns, pause_ns;
    int restarted;
    /* from its GCPerHeapHistory events, summed over the heaps */
    int histories;
    double space_before[GENS], size_after[GENS], fragmentation;
    /* allocation ticks up to its GCHeapStats, since the previous one */
    double ticks;
} oracle_gc;

/* A thread's suspension for a GC, open from its GCSuspendEEBegin to its GCRestartEEEnd. */
typedef struct suspension {
    uint64_t thread, begin_ns, end_ns;
    int open, has_end;
} suspension;

typedef struct oracle {
    oracle_gc gcs[MAX_GCS];
    size_t n;
    suspension threads[MAX_THREADS];
    size_t n_threads;
    uint64_t suspends_for_gc, suspends_other, suspend_ends, restarts, heap_stats, last_heap_stats_ns;
    uint64_t first_gen1_size; /* GenerationSize1 of the first GCHeapStats */
    double ticks;             /* allocation tick amounts since the last GCHeapStats */
} oracle;

static suspension *thread_of(oracle *o, uint64_t thread)
{
    for (size_t i = 0; i < o->n_threads; i++)
        if (o->threads[i].thread == thread)
            return &o->threads[i];
    assert_true(o->n_threads < MAX_THREADS);
    suspension *s = &o->threads[o->n_threads++];
    memset(s, 0, sizeof *s);
    s->thread = thread;
    return s;
}

static uint64_t field_u64(json_object *fields, const char *name)
{
    json_object *v = NULL;
    if (!json_object_object_get_ex(fields, name, &v))
        fail_msg("no field %s", name);
    if (json_object_is_type(v, json_type_string)) /* pointer-sized fields are hex strings */
        return strtoull(json_object_get_string(v), NULL, 0);
    return (uint64_t)json_object_get_int64(v);
}

static void on_event(oracle *o, const char *name, uint64_t ts, uint64_t thread, json_object *fields)
{
    if (strcmp(name, "GCSuspendEEBegin") == 0) {
        if (field_u64(fields, "Reason") != SUSPEND_FOR_GC) {
            o->suspends_other++;
            return;
        }
        o->suspends_for_gc++;
        suspension *s = thread_of(o, thread);
        s->open = 1;
        s->has_end = 0;
        s->begin_ns = ts;
    } else if (strcmp(name, "GCSuspendEEEnd") == 0) {
        o->suspend_ends++;
        suspension *s = thread_of(o, thread);
        if (s->open && !s->has_end) {
            s->has_end = 1;
            s->end_ns = ts;
        }
    } else if (strcmp(name, "GCStart") == 0) {
        uint32_t number = (uint32_t)field_u64(fields, "Count");
        if (o->n > 0 && o->gcs[o->n - 1].number == number)
            return;
        if (field_u64(fields, "Type") == BACKGROUND)
            fail_msg("GC #%u is a background GC: this test's oracle knows blocking GCs only", number);
        const suspension *in = NULL;
        for (size_t i = 0; i < o->n_threads; i++)
            if (o->threads[i].open) {
                if (in)
                    fail_msg("GC #%u starts in two suspensions for a GC", number);
                in = &o->threads[i];
            }
        if (!in)
            fail_msg("GC #%u starts outside any suspension for a GC", number);
        assert_true(o->n < MAX_GCS);
        oracle_gc *g = &o->gcs[o->n++];
        memset(g, 0, sizeof *g);
        g->number = number;
        g->generation = (uint32_t)field_u64(fields, "Depth");
        g->thread = in->thread;
        g->start_ns = ts;
        g->pause_begin_ns = in->begin_ns;
        g->suspend_ns = (in->has_end ? in->end_ns : ts) - in->begin_ns;
    } else if (strcmp(name, "GCRestartEEEnd") == 0) {
        o->restarts++;
        suspension *s = thread_of(o, thread);
        if (!s->open)
            return; /* a restart by a thread that did not suspend for a GC */
        s->open = 0;
        for (size_t i = 0; i < o->n; i++)
            if (o->gcs[i].thread == thread && !o->gcs[i].restarted) {
                o->gcs[i].restarted = 1;
                o->gcs[i].pause_ns = ts - o->gcs[i].pause_begin_ns;
            }
    } else if (strcmp(name, "GCHeapStats") == 0) {
        if (!o->heap_stats++)
            o->first_gen1_size = field_u64(fields, "GenerationSize1");
        o->last_heap_stats_ns = ts;
        if (o->n > 0)
            o->gcs[o->n - 1].ticks = o->ticks;
        o->ticks = 0;
    } else if (strcmp(name, "GCAllocationTick") == 0) {
        o->ticks += (double)field_u64(fields, "AllocationAmount64");
    } else if (strcmp(name, "GCPerHeapHistory") == 0 && o->n > 0) {
        oracle_gc *g = &o->gcs[o->n - 1];
        json_object *values = NULL;
        assert_true(json_object_object_get_ex(fields, "Values", &values));
        g->histories++;
        for (size_t k = 0; k < json_object_array_length(values) && k < GENS; k++) {
            json_object *v = json_object_array_get_idx(values, k);
            double free_after = (double)(field_u64(v, "FreeListAfter") + field_u64(v, "FreeObjAfter"));
            g->fragmentation += free_after;
            g->size_after[k] += (double)field_u64(v, "SizeAfter") - free_after;
            g->space_before[k] += (double)field_u64(v, "SizeBefore") - (double)field_u64(v, "FreeListBefore") -
                                  (double)field_u64(v, "FreeObjBefore");
        }
    }
}

static void derive(const char *trace, oracle *o)
{
    memset(o, 0, sizeof *o);
    const char *argv[] = {EVGEN_EXE, "dump", trace, "--json", "--event", "GCSuspendEEBegin", "--event",
                          "GCSuspendEEEnd", "--event", "GCRestartEEEnd", "--event", "GCStart", "--event", "GCHeapStats",
                          "--event", "GCPerHeapHistory", "--event", "GCAllocationTick", NULL};
    char *out = NULL, *err = NULL;
    int status = evgen_test_run(argv, NULL, &out, &err);
    if (status != 0)
        fail_msg("evgen dump exited %d: %s", status, err);
    char *save = NULL;
    for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        json_object *ev = json_tokener_parse(line);
        json_object *name = NULL, *ts = NULL, *thread = NULL, *fields = NULL;
        if (!ev || !json_object_object_get_ex(ev, "event", &name) ||
            !json_object_object_get_ex(ev, "timestamp_ns", &ts) || !json_object_object_get_ex(ev, "thread", &thread) ||
            !json_object_object_get_ex(ev, "fields", &fields))
            fail_msg("not an event: %.200s", line);
        on_event(o, json_object_get_string(name), (uint64_t)json_object_get_int64(ts),
                 (uint64_t)json_object_get_int64(thread), fields);
        json_object_put(ev);
    }
    free(out);
    free(err);
}

/* ns as the examples print ms: three decimals, rounded to nearest. */
static const char *ms3(uint64_t ns, char *buf, size_t size)
{
    uint64_t t = (ns + 500) / 1000;
    snprintf(buf, size, "%llu.%03llu", (unsigned long long)(t / 1000), (unsigned long long)(t % 1000));
    return buf;
}

static char *run_ok(const char *exe, const char *trace)
{
    const char *argv[] = {exe, trace, NULL};
    char *out = NULL, *err = NULL;
    int status = evgen_test_run(argv, NULL, &out, &err);
    if (status != 0)
        fail_msg("%s exited %d: %s", exe, status, err);
    assert_string_equal(err, "");
    free(err);
    return out;
}

static void assert_near(const char *printed, double expect, double tolerance, const char *what, unsigned number)
{
    double value = strtod(printed, NULL);
    if (value < expect - tolerance || value > expect + tolerance)
        fail_msg("GC #%u: %s %s, expected %.4f", number, what, printed, expect);
}

/* PerfView's allocation since the previous GC (gen0 and LOH: object space before minus the
 * previous GC's object size after, when both have heap histories; else the ticks) and the
 * fragmentation after the GC, against the report's columns. */
static void check_derived(const oracle *o, size_t i, const char *alloc, const char *frag)
{
    const oracle_gc *g = &o->gcs[i];
    double expect = g->ticks;
    if (i > 0 && g->histories && o->gcs[i - 1].histories) {
        const oracle_gc *prev = &o->gcs[i - 1];
        double loh_prev = prev->size_after[LOH];
        if (loh_prev == 0 && prev->generation < 1)
            loh_prev = prev->space_before[LOH];
        expect = g->space_before[0] - prev->size_after[0] + g->space_before[LOH] - loh_prev;
    }
    assert_near(alloc, expect / 1e6, 0.0015, "Alloc MB", g->number);
    if (g->histories)
        assert_near(frag, g->fragmentation / 1e6, 0.0015, "Frag MB", g->number);
    else
        assert_string_equal(frag, "-");
}

static void check_report(const char *trace, const oracle *o)
{
    char *out = run_ok(REPORT_EXE, trace);
    char expect[64];
    size_t rows = 0;
    uint64_t total = 0, max = 0;
    char *save = NULL;
    for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        unsigned number;
        char col[15][32];
        if (sscanf(line, "%u %31s %31s %31s %31s %31s %31s %31s %31s %31s %31s %31s %31s %31s %31s %31s", &number,
                   col[0], col[1], col[2], col[3], col[4], col[5], col[6], col[7], col[8], col[9], col[10], col[11],
                   col[12], col[13], col[14]) == 16) {
            assert_true(rows < o->n);
            const oracle_gc *g = &o->gcs[rows++];
            assert_int_equal(number, g->number); /* every GC once, in number order */
            assert_true(g->restarted);
            assert_string_equal(col[3], ms3(g->pause_ns, expect, sizeof expect));   /* Pause ms */
            assert_string_equal(col[10], ms3(g->suspend_ns, expect, sizeof expect)); /* Susp ms */
            assert_null(strstr(line, "incomplete"));
            if (number == o->gcs[0].number && o->first_gen1_size) {
                snprintf(expect, sizeof expect, "%llu.%03llu", (unsigned long long)(o->first_gen1_size + 500) / 1000000,
                         (unsigned long long)((o->first_gen1_size + 500) / 1000 % 1000));
                assert_string_equal(col[5], expect); /* Gen1 MB: the first GCHeapStats */
            }
            check_derived(o, rows - 1, col[12], col[14]);
            total += g->pause_ns;
            max = g->pause_ns > max ? g->pause_ns : max;
        } else if (strncmp(line, "  all ", 6) == 0) {
            unsigned count;
            char max_s[32], mean_s[32], total_s[32];
            assert_int_equal(sscanf(line, "  all %u %31s %31s %31s", &count, max_s, mean_s, total_s), 4);
            assert_int_equal(count, o->n);
            if (o->n) {
                assert_string_equal(max_s, ms3(max, expect, sizeof expect));
                assert_string_equal(mean_s, ms3(total / o->n, expect, sizeof expect));
                assert_string_equal(total_s, ms3(total, expect, sizeof expect));
            } else
                assert_string_equal(max_s, "-");
        } else if (strncmp(line, "Time paused: ", 13) == 0) {
            double percent = strtod(line + 13, NULL);
            double expect_percent =
                (double)total * 100.0 / (double)(o->last_heap_stats_ns - o->gcs[0].pause_begin_ns);
            if (percent < expect_percent - 0.0006 || percent > expect_percent + 0.0006)
                fail_msg("time paused %.4f%%, expected %.4f%%", percent, expect_percent);
        }
        assert_null(strstr(line, "outside any suspension")); /* no GC falls back to GCStart..GCEnd */
    }
    assert_int_equal(rows, o->n);
    free(out);
}

static void check_gclog(const char *trace, const oracle *o, double first_start_ms)
{
    char *out = run_ok(GCLOG_EXE, trace);
    char expect[64];
    size_t lines = 0;
    int count_seen = 0;
    char *save = NULL;
    for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        unsigned number;
        if (sscanf(line, "GC #%u:", &number) == 1) {
            /* blocking GCs complete in start order */
            assert_true(lines < o->n);
            const oracle_gc *g = &o->gcs[lines++];
            assert_int_equal(number, g->number);
            const char *pause = strstr(line, ", pause ");
            assert_non_null(pause);
            char value[32], after[8];
            assert_int_equal(sscanf(pause, ", pause %31s ms%7s", value, after), 2);
            assert_string_equal(value, ms3(g->pause_ns, expect, sizeof expect));
            assert_string_equal(after, ","); /* not "(GCStart to GCEnd)" */
            if (lines == 1 && first_start_ms > 0) {
                const char *at = strstr(line, ", at ");
                assert_non_null(at);
                double ms = strtod(at + 5, NULL);
                if (ms < first_start_ms - 0.001 || ms > first_start_ms + 0.001)
                    fail_msg("GC #%u at %.4f ms, TraceEvent's baseline says %.4f", number, ms, first_start_ms);
            }
        } else {
            unsigned long count;
            assert_int_equal(sscanf(line, "%lu GCs", &count), 1);
            assert_int_equal(count, o->n);
            count_seen = 1;
        }
    }
    assert_int_equal(lines, o->n);
    assert_true(count_seen);
    free(out);
}

static const baseline_line *baseline_find(const baseline_line *lines, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(lines[i].key, key) == 0)
            return &lines[i];
    fail_msg("the baseline has no %s", key);
    return NULL;
}

/* The 3.0 trace: 478 blocking GCs inside 5475 suspensions of the sample profiler. */
static void test_dotnetcore30(void **state)
{
    (void)state;
    char *dir = NULL;
    char *trace = real_trace_unzip(&dir);
    REAL_TRACE_NEEDED(trace);
    static oracle o;
    derive(trace, &o);
    assert_true(o.n > 0 && o.suspends_other > 0);

    size_t n_lines = 0;
    baseline_line *lines = baseline_read(&n_lines);
    assert_non_null(lines);
    const baseline_line *start = baseline_find(lines, n_lines, "Microsoft-Windows-DotNETRuntime/GC/Start");
    assert_int_equal(start->count, o.n);
    assert_int_equal(baseline_find(lines, n_lines, "Microsoft-Windows-DotNETRuntime/GC/SuspendEEStart")->count,
                     o.suspends_for_gc + o.suspends_other);
    assert_int_equal(baseline_find(lines, n_lines, "Microsoft-Windows-DotNETRuntime/GC/SuspendEEStop")->count,
                     o.suspend_ends);
    assert_int_equal(baseline_find(lines, n_lines, "Microsoft-Windows-DotNETRuntime/GC/RestartEEStop")->count,
                     o.restarts);
    assert_int_equal(baseline_find(lines, n_lines, "Microsoft-Windows-DotNETRuntime/GC/HeapStats")->count,
                     o.heap_stats);

    check_report(trace, &o);
    check_gclog(trace, &o, start->msec);
    baseline_free(lines, n_lines);
    real_trace_remove(dir, trace);
}

/* Traces without GCs: the .NET 5 sample profiler's (5564 suspensions, none for a GC) and the .NET 5
 * EventSource one (no GC events at all). */
static void no_gcs(const char *name, int expect_suspensions)
{
    char *dir = NULL;
    char *trace = real_trace_unzip_named(name, &dir);
    REAL_TRACE_NEEDED(trace);
    static oracle o;
    derive(trace, &o);
    assert_int_equal(o.n, 0);
    assert_int_equal(o.suspends_other > 0, expect_suspensions);
    check_report(trace, &o);
    check_gclog(trace, &o, 0);
    real_trace_remove(dir, trace);
}

static void test_dotnet5_sample_profiler(void **state)
{
    (void)state;
    no_gcs("dotnet5-osx-sampleprofiler-single-thread.nettrace", 1);
}

static void test_dotnetcore50_arraytypes(void **state)
{
    (void)state;
    no_gcs("eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace", 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dotnetcore30),
        cmocka_unit_test(test_dotnet5_sample_profiler),
        cmocka_unit_test(test_dotnetcore50_arraytypes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
