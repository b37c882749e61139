/* test_example_gclog.c — examples/gclog's library on scripted event sequences: each script is
 * fired with the generated FireEtw functions, on the threads it names (the test's thread, a
 * background GC thread, another user thread), into a memory session; read back in time order
 * with libevgen-reader; and fed to gclog with the script's own timestamps (so that pauses are
 * exact), after checking that the trace gives back the script's events in the script's order.
 * Each test asserts the exact log lines: a gen0 GC, a non-concurrent gen2, a background gen2 with
 * two foreground GCs inside it, old event versions without suspensions, and background GCs with
 * the private provider's phase events (on two BGC threads, as a server GC's two heaps), all of them
 * or some lost. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evgen/runtime.h"
#include "gcevents_reader.h"
#include "gcevents_runtime.h"
#include "gclog.h"
#include "script.h"
#include "table.h"
#include "worker.h"

typedef enum kind {
    TRIGGERED, SUSPEND, SUSPEND_END, START, START_V0, GLOBAL, END, END_V0, HEAPSTATS, HEAPSTATS_V1, RESTART_BEGIN,
    RESTART, BGC_PHASE, DRAIN_MARK, REVISIT, OVERFLOW, WAIT_BEGIN, WAIT_END
} kind;
enum { MAIN, BGC, USER2, BGC2, N_THREADS }; /* MAIN is the test's own thread; BGC2 a 2nd heap's BGC thread */

typedef struct step {
    uint32_t at_us; /* the timestamp given to the event when it is read back */
    int thread;
    kind kind;
    uint64_t v[10];
} step;

#define EV_TRIG(t, th, reason) {t, th, TRIGGERED, {reason}}
#define EV_SUSP(t, th, reason, count) {t, th, SUSPEND, {reason, count}}
#define EV_SUSP_END(t, th) {t, th, SUSPEND_END, {0}}
#define EV_START(t, th, n, gen, reason, type) {t, th, START, {n, gen, reason, type}}
#define EV_START_V0(t, th, n, reason) {t, th, START_V0, {n, reason}}
#define EV_GLOBAL(t, th, gen, mechanisms) {t, th, GLOBAL, {gen, mechanisms}}
#define EV_END(t, th, n, gen) {t, th, END, {n, gen}}
#define EV_END_V0(t, th, n, gen) {t, th, END_V0, {n, gen}}
/* sizes gen0, gen1, gen2, LOH, POH, then promoted bytes out of gen0 .. POH */
#define EV_HEAP(t, th, ...) {t, th, HEAPSTATS, {__VA_ARGS__}}
#define EV_HEAP_V1(t, th, ...) {t, th, HEAPSTATS_V1, {__VA_ARGS__}}
#define EV_RESTART_BEGIN(t, th) {t, th, RESTART_BEGIN, {0}}
#define EV_RESTART(t, th) {t, th, RESTART, {0}}
/* the private provider's BGC events: a phase event GCLOG_BGC_* (BGCBegin, BGC1stNonConEnd, ...) */
#define EV_BGC(t, th, which) {t, th, BGC_PHASE, {which}}
#define EV_DRAIN(t, th, objects) {t, th, DRAIN_MARK, {objects}}
#define EV_REVISIT(t, th, pages, objects) {t, th, REVISIT, {pages, objects}}
#define EV_OVERFLOW(t, th, min, max, objects) {t, th, OVERFLOW, {min, max, objects}}
#define EV_WAIT_BEGIN(t, th, reason) {t, th, WAIT_BEGIN, {reason}}
#define EV_WAIT_END(t, th, reason) {t, th, WAIT_END, {reason}}

enum { COMPACTING = GCLOG_MECHANISM_PROMOTION | GCLOG_MECHANISM_COMPACTION, SWEEPING = GCLOG_MECHANISM_PROMOTION };

/* FireEtw failures, counted on whichever thread fired (worker_run orders the accesses); a cmocka
 * assertion must not fail on another thread than the test's. */
static int fire_failures;

static uint32_t fire_bgc_phase(int which)
{
    switch (which) {
    case GCLOG_BGC_BEGIN: return FireEtwBGCBegin(1);
    case GCLOG_BGC_1ST_NONCON_END: return FireEtwBGC1stNonConEnd(1);
    case GCLOG_BGC_1ST_CON_END: return FireEtwBGC1stConEnd(1);
    case GCLOG_BGC_2ND_NONCON_BEGIN: return FireEtwBGC2ndNonConBegin(1);
    case GCLOG_BGC_2ND_NONCON_END: return FireEtwBGC2ndNonConEnd(1);
    case GCLOG_BGC_2ND_CON_BEGIN: return FireEtwBGC2ndConBegin(1);
    case GCLOG_BGC_1ST_SWEEP_END: return FireEtwBGC1stSweepEnd(0, 1);
    case GCLOG_BGC_2ND_CON_END: return FireEtwBGC2ndConEnd(1);
    case GCLOG_BGC_PLAN_END: return FireEtwBGCPlanEnd(1);
    case GCLOG_BGC_SWEEP_END: return FireEtwBGCSweepEnd(1);
    }
    return EVGEN_EMIT_OK + 1;
}

/* Whether `ev` is the phase event GCLOG_BGC_* `which`. */
static int is_bgc_phase(int which, const evgen_event *ev)
{
    switch (which) {
    case GCLOG_BGC_BEGIN: return BGCBegin_is(ev);
    case GCLOG_BGC_1ST_NONCON_END: return BGC1stNonConEnd_is(ev);
    case GCLOG_BGC_1ST_CON_END: return BGC1stConEnd_is(ev);
    case GCLOG_BGC_2ND_NONCON_BEGIN: return BGC2ndNonConBegin_is(ev);
    case GCLOG_BGC_2ND_NONCON_END: return BGC2ndNonConEnd_is(ev);
    case GCLOG_BGC_2ND_CON_BEGIN: return BGC2ndConBegin_is(ev);
    case GCLOG_BGC_1ST_SWEEP_END: return BGC1stSweepEnd_is(ev);
    case GCLOG_BGC_2ND_CON_END: return BGC2ndConEnd_is(ev);
    case GCLOG_BGC_PLAN_END: return BGCPlanEnd_is(ev);
    case GCLOG_BGC_SWEEP_END: return BGCSweepEnd_is(ev);
    }
    return 0;
}

static void fire(void *arg)
{
    const step *s = arg;
    const uint64_t *v = s->v;
    uint32_t rc = 0;
    switch (s->kind) {
    case TRIGGERED: rc = FireEtwGCTriggered((uint32_t)v[0], 1); break;
    case SUSPEND: rc = FireEtwGCSuspendEEBegin((uint32_t)v[0], (uint32_t)v[1], 1); break;
    case SUSPEND_END: rc = FireEtwGCSuspendEEEnd(1); break;
    case START: rc = FireEtwGCStart((uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2], (uint32_t)v[3], 1, 0); break;
    case START_V0: rc = FireEtwGCStart_V0((uint32_t)v[0], (uint32_t)v[1]); break;
    case GLOBAL:
        rc = FireEtwGCGlobalHeapHistory(6000000, 1, (uint32_t)v[0], 0, GCReason_AllocSmall, (uint32_t)v[1], 1,
                                        GCPauseMode_Interactive, 0, 0, 0, 0, NULL);
        break;
    case END: rc = FireEtwGCEnd((uint32_t)v[0], (uint32_t)v[1], 1); break;
    case END_V0: rc = FireEtwGCEnd_V0((uint32_t)v[0], (uint16_t)v[1]); break;
    case HEAPSTATS:
        rc = FireEtwGCHeapStats(v[0], v[5], v[1], v[6], v[2], v[7], v[3], v[8], 0, 0, 0, 0, 0, 1, v[4], v[9]);
        break;
    case HEAPSTATS_V1:
        rc = FireEtwGCHeapStats_V1(v[0], v[5], v[1], v[6], v[2], v[7], v[3], v[8], 0, 0, 0, 0, 0, 1);
        break;
    case RESTART_BEGIN: rc = FireEtwGCRestartEEBegin(1); break;
    case RESTART: rc = FireEtwGCRestartEEEnd(1); break;
    case BGC_PHASE: rc = fire_bgc_phase((int)v[0]); break;
    case DRAIN_MARK: rc = FireEtwBGCDrainMark(v[0], 1); break;
    case REVISIT: rc = FireEtwBGCRevisit(v[0], v[1], 0, 1); break;
    case OVERFLOW: rc = FireEtwBGCOverflow(v[0], v[1], v[2], 0, 1, 2); break;
    case WAIT_BEGIN: rc = FireEtwBGCAllocWaitBegin((uint32_t)v[0], 1); break;
    case WAIT_END: rc = FireEtwBGCAllocWaitEnd((uint32_t)v[0], 1); break;
    }
    fire_failures += rc != EVGEN_EMIT_OK;
}

static int matches(const step *s, const evgen_event *ev)
{
    kind k = s->kind;
    switch (k) {
    case TRIGGERED: return GCTriggered_is(ev);
    case SUSPEND: return GCSuspendEEBegin_is(ev);
    case SUSPEND_END: return GCSuspendEEEnd_is(ev);
    case START: return GCStart_is(ev) && ev->version == 2;
    case START_V0: return GCStart_is(ev) && ev->version == 0;
    case GLOBAL: return GCGlobalHeapHistory_is(ev);
    case END: return GCEnd_is(ev) && ev->version == 1;
    case END_V0: return GCEnd_is(ev) && ev->version == 0;
    case HEAPSTATS: return GCHeapStats_is(ev) && ev->version == 2;
    case HEAPSTATS_V1: return GCHeapStats_is(ev) && ev->version == 1;
    case RESTART_BEGIN: return GCRestartEEBegin_is(ev);
    case RESTART: return GCRestartEEEnd_is(ev);
    case BGC_PHASE: return is_bgc_phase((int)s->v[0], ev);
    case DRAIN_MARK: return BGCDrainMark_is(ev);
    case REVISIT: return BGCRevisit_is(ev);
    case OVERFLOW: return BGCOverflow_is(ev) && ev->version == 1;
    case WAIT_BEGIN: return BGCAllocWaitBegin_is(ev);
    case WAIT_END: return BGCAllocWaitEnd_is(ev);
    }
    return 0;
}

typedef struct script {
    const step *steps;
    size_t n;
} script;

static void play(void *arg)
{
    const script *sc = arg;
    worker *threads[N_THREADS] = {NULL};
    for (int t = 1; t < N_THREADS; t++)
        assert_non_null(threads[t] = worker_start());
    for (size_t i = 0; i < sc->n; i++) {
        if (sc->steps[i].thread == MAIN)
            fire((void *)&sc->steps[i]);
        else
            worker_run(threads[sc->steps[i].thread], fire, (void *)&sc->steps[i]);
    }
    for (int t = 1; t < N_THREADS; t++)
        worker_stop(threads[t]); /* their buffers go to the session as they exit */
    assert_int_equal(fire_failures, 0);
}

typedef struct result {
    char lines[16][1024];
    gclog_entry entries[16];
    size_t n_lines;
    size_t before_finish; /* entries handed out before gclog_finish */
    uint64_t thread_of[N_THREADS];
} result;

static void take(gclog *log, result *r)
{
    gclog_entry e;
    while (gclog_next(log, &e)) {
        assert_true(r->n_lines < 16);
        r->entries[r->n_lines] = e;
        int n = gclog_format(&e, r->lines[r->n_lines++], sizeof r->lines[0]);
        assert_true(n >= 0 && (size_t)n < sizeof r->lines[0]);
    }
}

static void run_script(const step *steps, size_t n, result *r)
{
    memset(r, 0, sizeof *r);
    script sc = {steps, n};
    size_t size = 0;
    uint8_t *data = script_record(play, &sc, &size);
    char *error = NULL;
    evgen_reader *reader = evgen_reader_open_memory(data, size, &error);
    if (!reader)
        fail_msg("cannot read the scripted trace: %s", error);
    assert_int_equal(evgen_reader_status(reader, NULL), EVGEN_READ_OK);
    gclog *log = gclog_new();
    assert_non_null(log);
    evgen_event ev;
    size_t i = 0;
    evgen_reader_rewind(reader, EVGEN_ORDER_TIME);
    while (evgen_reader_next(reader, &ev)) {
        assert_true(i < n);
        if (!matches(&steps[i], &ev))
            fail_msg("event %zu of the trace is %s v%u, not the script's step %zu", i, ev.info->name, ev.version, i);
        if (!r->thread_of[steps[i].thread])
            r->thread_of[steps[i].thread] = ev.thread_id;
        assert_int_equal(r->thread_of[steps[i].thread], ev.thread_id);
        evgen_event scripted = ev;
        scripted.timestamp_ns = (uint64_t)steps[i].at_us * 1000;
        assert_int_equal(gclog_feed(log, &scripted), 0);
        take(log, r);
        i++;
    }
    assert_int_equal(i, n);
    r->before_finish = r->n_lines;
    assert_int_equal(gclog_finish(log), 0);
    take(log, r);
    gclog_free(log);
    evgen_reader_close(reader);
    free(data);
    free(error);
}

/* gcheapstats_report's table of the script's GCs, in GC number order (a string to free). */
static char *report_of(const result *r)
{
    gclog_entry gcs[16];
    memcpy(gcs, r->entries, r->n_lines * sizeof gcs[0]);
    for (size_t i = 1; i < r->n_lines; i++) /* insertion sort by number */
        for (size_t j = i; j > 0 && gcs[j - 1].number > gcs[j].number; j--) {
            gclog_entry t = gcs[j];
            gcs[j] = gcs[j - 1];
            gcs[j - 1] = t;
        }
    FILE *f = tmpfile();
    assert_non_null(f);
    table_print(f, gcs, r->n_lines);
    long size = ftell(f);
    assert_true(size > 0);
    rewind(f);
    char *text = calloc(1, (size_t)size + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    return text;
}

static void assert_lines(const result *r, const char *const *expect, size_t n)
{
    for (size_t i = 0; i < r->n_lines && i < n; i++)
        assert_string_equal(r->lines[i], expect[i]);
    assert_int_equal(r->n_lines, n);
}

/* A gen0 GC: pause from the suspension's beginning to the restart's end. */
static void test_gen0(void **state)
{
    (void)state;
    static const step steps[] = {
        EV_TRIG(1000, MAIN, GCReason_AllocSmall),
        EV_SUSP(1010, MAIN, GCSuspendEEReason_SuspendForGC, 0),
        EV_SUSP_END(1050, MAIN),
        EV_START(1100, MAIN, 1, 0, GCReason_AllocSmall, GCType_NonConcurrentGC),
        EV_GLOBAL(1600, MAIN, 0, COMPACTING),
        EV_END(1700, MAIN, 1, 0),
        EV_HEAP(1710, MAIN, 0, 1500000, 0, 3000000, 250000, 1500000, 0, 0, 0, 0),
        EV_RESTART_BEGIN(1800, MAIN),
        EV_RESTART(1850, MAIN),
    };
    static const char *const expect[] = {
        "GC #1: gen0 NonConcurrent AllocSmall, at 1.100 ms, pause 0.840 ms, after (MB) gen0 0.000 gen1 1.500 "
        "gen2 0.000 LOH 3.000 POH 0.250, compacting",
    };
    result r;
    run_script(steps, sizeof steps / sizeof steps[0], &r);
    assert_lines(&r, expect, 1);
    assert_int_equal(r.before_finish, 1); /* handed out at its restart, not at the end of the trace */
}

/* A blocking gen2 that swept (GlobalMechanisms without 0x2). */
static void test_nonconcurrent_gen2(void **state)
{
    (void)state;
    static const step steps[] = {
        EV_TRIG(5000, MAIN, GCReason_Induced),
        EV_SUSP(5010, MAIN, GCSuspendEEReason_SuspendForGC, 1),
        EV_SUSP_END(5030, MAIN),
        EV_START(5100, MAIN, 2, 2, GCReason_Induced, GCType_NonConcurrentGC),
        EV_GLOBAL(7000, MAIN, 2, SWEEPING),
        EV_END(7100, MAIN, 2, 2),
        EV_HEAP(7110, MAIN, 0, 0, 4200000, 2100000, 250000, 300000, 700000, 3200000, 2100000, 250000),
        EV_RESTART_BEGIN(7200, MAIN),
        EV_RESTART(7260, MAIN),
    };
    static const char *const expect[] = {
        "GC #2: gen2 NonConcurrent Induced, at 5.100 ms, pause 2.250 ms, after (MB) gen0 0.000 gen1 0.000 "
        "gen2 4.200 LOH 2.100 POH 0.250, non-compacting",
    };
    result r;
    run_script(steps, sizeof steps / sizeof steps[0], &r);
    assert_lines(&r, expect, 1);
    assert_int_equal(r.before_finish, 1);
}

/* A background gen2 (#5) started by the user thread, run by its own thread, with a foreground gen0
 * (#6, the user thread) and a foreground gen1 (#7, another user thread) inside it. Its pause is
 * PerfView's: the suspend time of the suspension it started in (10010 to 10060 us; that suspension's
 * restart is the BGC thread's, which PerfView does not pair with the user thread's suspension) plus
 * its final mark's suspension (16000 to 16330 us), 50 + 330 us, and none of the foreground GCs'
 * (750 and 1020 us). */
static void test_background_with_foreground(void **state)
{
    (void)state;
    static const step steps[] = {
        EV_TRIG(10000, MAIN, GCReason_AllocSmall),
        EV_SUSP(10010, MAIN, GCSuspendEEReason_SuspendForGC, 4),
        EV_SUSP_END(10060, MAIN),
        EV_START(10100, MAIN, 5, 2, GCReason_AllocSmall, GCType_BackgroundGC),
        EV_RESTART_BEGIN(10400, BGC),
        EV_RESTART(10450, BGC),
        /* concurrent marking; a foreground gen0 */
        EV_TRIG(12000, MAIN, GCReason_AllocSmall),
        EV_SUSP(12010, MAIN, GCSuspendEEReason_SuspendForGC, 5),
        EV_SUSP_END(12050, MAIN),
        EV_START(12100, MAIN, 6, 0, GCReason_AllocSmall, GCType_ForegroundGC),
        EV_GLOBAL(12500, MAIN, 0, COMPACTING),
        EV_END(12600, MAIN, 6, 0),
        EV_HEAP(12610, MAIN, 0, 2000000, 9000000, 3000000, 250000, 2000000, 0, 0, 0, 0),
        EV_RESTART_BEGIN(12700, MAIN),
        EV_RESTART(12760, MAIN),
        /* a foreground gen1, triggered on another thread */
        EV_TRIG(14000, USER2, GCReason_AllocSmall),
        EV_SUSP(14010, USER2, GCSuspendEEReason_SuspendForGC, 6),
        EV_SUSP_END(14040, USER2),
        EV_START(14100, USER2, 7, 1, GCReason_AllocSmall, GCType_ForegroundGC),
        EV_GLOBAL(14800, USER2, 1, SWEEPING),
        EV_END(14900, USER2, 7, 1),
        EV_HEAP(14910, USER2, 0, 500000, 10500000, 3200000, 260000, 500000, 1500000, 0, 0, 0),
        EV_RESTART_BEGIN(15000, USER2),
        EV_RESTART(15030, USER2),
        /* the final mark, then the concurrent sweep and the end */
        EV_SUSP(16000, BGC, GCSuspendEEReason_SuspendForGCPrep, 7),
        EV_SUSP_END(16050, BGC),
        EV_RESTART_BEGIN(16300, BGC),
        EV_RESTART(16330, BGC),
        EV_GLOBAL(18000, BGC, 2, GCLOG_MECHANISM_CONCURRENT),
        EV_END(18100, BGC, 5, 2),
        EV_HEAP(18110, BGC, 1234567, 500000, 6000000, 2000000, 200000, 0, 0, 6000000, 2000000, 200000),
    };
    static const char *const expect[] = {
        "GC #6: gen0 Foreground AllocSmall, at 12.100 ms, pause 0.750 ms, after (MB) gen0 0.000 gen1 2.000 "
        "gen2 9.000 LOH 3.000 POH 0.250, compacting",
        "GC #7: gen1 Foreground AllocSmall, at 14.100 ms, pause 1.020 ms, after (MB) gen0 0.000 gen1 0.500 "
        "gen2 10.500 LOH 3.200 POH 0.260, non-compacting",
        "GC #5: gen2 Background AllocSmall, at 10.100 ms, pause 0.380 ms (final mark 0.330 ms), after (MB) gen0 1.235 "
        "gen1 0.500 gen2 6.000 LOH 2.000 POH 0.200, non-compacting",
    };
    result r;
    run_script(steps, sizeof steps / sizeof steps[0], &r);
    assert_lines(&r, expect, 3);
    assert_int_equal(r.before_finish, 3);
    char *report = report_of(&r); /* without BGC phase events, no phases in the report */
    assert_null(strstr(report, "Background GC phases"));
    free(report);
    /* three threads really wrote the trace */
    assert_true(r.thread_of[MAIN] != r.thread_of[BGC] && r.thread_of[MAIN] != r.thread_of[USER2] &&
                r.thread_of[BGC] != r.thread_of[USER2]);
}

/* Suspensions for other reasons are not the GC's (the EventPipe sample profiler suspends the
 * runtime for each sample, Reason SuspendOther): a profiler restart inside the GC (its suspension
 * began before the trace) neither ends the GC's pause nor starts one; the GC's pause runs from its
 * own thread's GCSuspendEEBegin to its own thread's GCRestartEEEnd, and a GC that starts inside
 * the profiler's suspension alone (no suspension for a GC) falls back to GCStart to GCEnd. */
static void test_other_suspensions_ignored(void **state)
{
    (void)state;
    static const step steps[] = {
        EV_SUSP(500, USER2, GCSuspendEEReason_SuspendOther, 0),
        EV_SUSP_END(520, USER2),
        EV_RESTART(600, USER2),
        EV_SUSP(1010, MAIN, GCSuspendEEReason_SuspendForGC, 0),
        EV_SUSP_END(1050, MAIN),
        EV_START(1100, MAIN, 1, 0, GCReason_AllocSmall, GCType_NonConcurrentGC),
        EV_RESTART(1300, USER2),
        EV_SUSP(1400, USER2, GCSuspendEEReason_SuspendOther, 0),
        EV_GLOBAL(1600, MAIN, 0, COMPACTING),
        EV_END(1700, MAIN, 1, 0),
        EV_HEAP(1710, MAIN, 0, 1500000, 0, 3000000, 250000, 1500000, 0, 0, 0, 0),
        EV_RESTART(1800, USER2),
        EV_RESTART_BEGIN(1840, MAIN),
        EV_RESTART(1850, MAIN),
        EV_SUSP(3000, USER2, GCSuspendEEReason_SuspendOther, 1),
        EV_START(3100, MAIN, 2, 0, GCReason_AllocSmall, GCType_NonConcurrentGC),
        EV_END(3500, MAIN, 2, 0),
        EV_HEAP(3510, MAIN, 0, 1600000, 0, 3000000, 250000, 100000, 0, 0, 0, 0),
        EV_RESTART(3600, USER2),
    };
    static const char *const expect[] = {
        "GC #1: gen0 NonConcurrent AllocSmall, at 1.100 ms, pause 0.840 ms, after (MB) gen0 0.000 gen1 1.500 "
        "gen2 0.000 LOH 3.000 POH 0.250, compacting",
        "GC #2: gen0 NonConcurrent AllocSmall, at 3.100 ms, pause 0.400 ms (GCStart to GCEnd), after (MB) gen0 0.000 "
        "gen1 1.600 gen2 0.000 LOH 3.000 POH 0.250, compaction ?",
    };
    result r;
    run_script(steps, sizeof steps / sizeof steps[0], &r);
    assert_lines(&r, expect, 2);
    assert_int_equal(r.before_finish, 2);
}

/* Old versions and no suspension events: GCStart v0 (no Depth, no Type: GCEnd v0's Depth),
 * GCHeapStats v1 (no POH), a pause from GCStart to GCEnd, a suspension for the debugger (ignored),
 * and a GC the trace ends inside of. */
static void test_old_versions_and_incomplete(void **state)
{
    (void)state;
    static const step steps[] = {
        EV_START_V0(1000, MAIN, 1, GCReason_Induced),
        EV_END_V0(1500, MAIN, 1, 1),
        EV_HEAP_V1(1510, MAIN, 0, 700000, 0, 1000000, 0, 300000, 0, 0, 0, 0),
        EV_SUSP(2000, MAIN, GCSuspendEEReason_SuspendForDebugger, 1),
        EV_RESTART(2500, MAIN),
        EV_TRIG(2990, MAIN, GCReason_AllocLarge),
        EV_START(3000, MAIN, 2, 0, GCReason_AllocLarge, GCType_NonConcurrentGC),
    };
    static const char *const expect[] = {
        "GC #1: gen1 NonConcurrent Induced, at 1.000 ms, pause 0.500 ms (GCStart to GCEnd), after (MB) gen0 0.000 "
        "gen1 0.700 gen2 0.000 LOH 1.000, compaction ?",
        "GC #2: gen0 NonConcurrent AllocLarge, at 3.000 ms, pause ?, after ?, compaction ?, incomplete (no GCEnd)",
    };
    result r;
    run_script(steps, sizeof steps / sizeof steps[0], &r);
    assert_lines(&r, expect, 2);
    assert_int_equal(r.before_finish, 1);
}

/* A background gen2 (#5) with every phase event of the private provider, fired by two BGC threads
 * (a server GC's two heaps: each fires its own), a foreground gen0 (#6) inside it that gets none of
 * them, and its counts. A phase runs from the first heap's event that begins it to the last heap's
 * that ends it: initial mark 10150 (BGCBegin) to 10320 (the 2nd BGC1stNonConEnd), concurrent mark to
 * 15900 (the last BGC1stConEnd), final mark 16060 to 16290, concurrent sweep 16340 to 17950 (its SOH
 * part to the last BGC1stSweepEnd, 17100). Alloc waits: USER2's 11300 to 11800, and MAIN's from
 * 16400, still waiting at the GCHeapStats (18110): 500 + 1710 us. Revisits before BGC2ndNonConBegin
 * are the concurrent mark's, after it the final mark's; the overflow rescanned [0x100000, 0x104000). */
static void test_background_phases(void **state)
{
    (void)state;
    static const step steps[] = {
        EV_TRIG(10000, MAIN, GCReason_AllocSmall),
        EV_SUSP(10010, MAIN, GCSuspendEEReason_SuspendForGC, 4),
        EV_SUSP_END(10060, MAIN),
        EV_START(10100, MAIN, 5, 2, GCReason_AllocSmall, GCType_BackgroundGC),
        EV_BGC(10150, BGC, GCLOG_BGC_BEGIN),
        EV_BGC(10160, BGC2, GCLOG_BGC_BEGIN),
        EV_BGC(10300, BGC, GCLOG_BGC_1ST_NONCON_END),
        EV_BGC(10320, BGC2, GCLOG_BGC_1ST_NONCON_END),
        EV_RESTART_BEGIN(10400, BGC),
        EV_RESTART(10450, BGC),
        /* concurrent marking */
        EV_REVISIT(11000, BGC, 10, 300),
        EV_REVISIT(11100, BGC2, 2, 40),
        EV_DRAIN(11200, BGC, 1500),
        EV_WAIT_BEGIN(11300, USER2, 6),
        EV_OVERFLOW(11500, BGC, 0x100000, 0x104000, 40),
        EV_WAIT_END(11800, USER2, 6),
        /* a foreground gen0 */
        EV_TRIG(12000, MAIN, GCReason_AllocSmall),
        EV_SUSP(12010, MAIN, GCSuspendEEReason_SuspendForGC, 5),
        EV_SUSP_END(12050, MAIN),
        EV_START(12100, MAIN, 6, 0, GCReason_AllocSmall, GCType_ForegroundGC),
        EV_GLOBAL(12500, MAIN, 0, COMPACTING),
        EV_END(12600, MAIN, 6, 0),
        EV_HEAP(12610, MAIN, 0, 2000000, 9000000, 3000000, 250000, 2000000, 0, 0, 0, 0),
        EV_RESTART_BEGIN(12700, MAIN),
        EV_RESTART(12760, MAIN),
        EV_BGC(15800, BGC2, GCLOG_BGC_1ST_CON_END),
        EV_BGC(15900, BGC, GCLOG_BGC_1ST_CON_END),
        /* the final mark */
        EV_SUSP(16000, BGC, GCSuspendEEReason_SuspendForGCPrep, 7),
        EV_SUSP_END(16050, BGC),
        EV_BGC(16060, BGC, GCLOG_BGC_2ND_NONCON_BEGIN),
        EV_BGC(16070, BGC2, GCLOG_BGC_2ND_NONCON_BEGIN),
        EV_REVISIT(16100, BGC, 3, 25),
        EV_BGC(16250, BGC, GCLOG_BGC_PLAN_END),
        EV_BGC(16280, BGC2, GCLOG_BGC_2ND_NONCON_END),
        EV_BGC(16290, BGC, GCLOG_BGC_2ND_NONCON_END),
        EV_RESTART_BEGIN(16300, BGC),
        EV_RESTART(16330, BGC),
        /* the concurrent sweep */
        EV_BGC(16340, BGC, GCLOG_BGC_2ND_CON_BEGIN),
        EV_BGC(16345, BGC2, GCLOG_BGC_2ND_CON_BEGIN),
        EV_WAIT_BEGIN(16400, MAIN, 7),
        EV_BGC(17000, BGC2, GCLOG_BGC_1ST_SWEEP_END),
        EV_BGC(17100, BGC, GCLOG_BGC_1ST_SWEEP_END),
        EV_BGC(17900, BGC, GCLOG_BGC_2ND_CON_END),
        EV_BGC(17920, BGC, GCLOG_BGC_SWEEP_END),
        EV_BGC(17950, BGC2, GCLOG_BGC_2ND_CON_END),
        EV_GLOBAL(18000, BGC, 2, GCLOG_MECHANISM_CONCURRENT),
        EV_END(18100, BGC, 5, 2),
        EV_HEAP(18110, BGC, 1234567, 500000, 6000000, 2000000, 200000, 0, 0, 6000000, 2000000, 200000),
        EV_WAIT_END(18200, MAIN, 7),
    };
    static const char *const expect[] = {
        "GC #6: gen0 Foreground AllocSmall, at 12.100 ms, pause 0.750 ms, after (MB) gen0 0.000 gen1 2.000 "
        "gen2 9.000 LOH 3.000 POH 0.250, compacting",
        "GC #5: gen2 Background AllocSmall, at 10.100 ms, pause 0.380 ms (final mark 0.330 ms), after (MB) gen0 1.235 "
        "gen1 0.500 gen2 6.000 LOH 2.000 POH 0.200, non-compacting; BGC phases (ms): initial mark 0.170, "
        "concurrent mark 5.580, final mark 0.230, concurrent sweep 1.610 (SOH 0.760), plan end at 16.250, "
        "sweep end at 17.920; alloc waits 2 (1 to its end) 2.210 ms; drain mark 1: 1500 objects; revisits: "
        "concurrent 2: 12 pages 340 objects, final 1: 3 pages 25 objects; overflows 1: 40 objects over 0.016 MB",
    };
    result r;
    run_script(steps, sizeof steps / sizeof steps[0], &r);
    assert_lines(&r, expect, 2);
    assert_int_equal(r.before_finish, 2);
    assert_true(r.thread_of[BGC] != r.thread_of[BGC2]);
    /* gcheapstats_report: a row per background GC after the totals */
    char *report = report_of(&r);
    const char *phases = strstr(report, "\nBackground GC phases (ms), from the private provider's BGC events\n"
                                        "   GC#  Initial mark  Concurrent mark  Final mark  Concurrent sweep  SOH sweep "
                                        " Alloc waits  Wait ms\n"
                                        "     5         0.170            5.580       0.230             1.610      0.760 "
                                        "           2    2.210\n"
                                        "Phases: ");
    if (!phases)
        fail_msg("no BGC phases in the report:\n%s", report);
    free(report);
}

/* Phase events lost: a phase whose events did not both come is `?`, never a difference with a
 * missing or a misplaced event. BGC #5 lost its BGCBegin, BGC1stConEnd and BGC2ndConEnd; an alloc
 * wait ends on a thread that never began one (ignored) and one never ends (counted to the
 * GCHeapStats); the events after the BGC completed belong to no GC. BGC #9 has no suspension and
 * the trace ends inside it: its BGC2ndNonConEnd came before the only BGC2ndNonConBegin (the
 * begin before it lost), and its open wait has no GCHeapStats to be timed to. */
static void test_background_phases_lost(void **state)
{
    (void)state;
    static const step steps[] = {
        EV_BGC(9000, BGC, GCLOG_BGC_1ST_NONCON_END), /* a BGC whose GCStart came before the trace */
        EV_WAIT_BEGIN(9100, USER2, 6),
        EV_TRIG(10000, MAIN, GCReason_AllocSmall),
        EV_SUSP(10010, MAIN, GCSuspendEEReason_SuspendForGC, 4),
        EV_SUSP_END(10060, MAIN),
        EV_START(10100, MAIN, 5, 2, GCReason_AllocSmall, GCType_BackgroundGC),
        EV_BGC(10300, BGC, GCLOG_BGC_1ST_NONCON_END),
        EV_RESTART_BEGIN(10400, BGC),
        EV_RESTART(10450, BGC),
        EV_WAIT_END(11000, USER2, 6),
        EV_WAIT_BEGIN(11500, MAIN, 8),
        EV_SUSP(16000, BGC, GCSuspendEEReason_SuspendForGCPrep, 7),
        EV_SUSP_END(16050, BGC),
        EV_BGC(16060, BGC, GCLOG_BGC_2ND_NONCON_BEGIN),
        EV_BGC(16290, BGC, GCLOG_BGC_2ND_NONCON_END),
        EV_RESTART_BEGIN(16300, BGC),
        EV_RESTART(16330, BGC),
        EV_BGC(16340, BGC, GCLOG_BGC_2ND_CON_BEGIN),
        EV_BGC(17100, BGC, GCLOG_BGC_1ST_SWEEP_END),
        EV_GLOBAL(18000, BGC, 2, GCLOG_MECHANISM_CONCURRENT),
        EV_END(18100, BGC, 5, 2),
        EV_HEAP(18110, BGC, 1234567, 500000, 6000000, 2000000, 200000, 0, 0, 6000000, 2000000, 200000),
        EV_BGC(18150, BGC, GCLOG_BGC_2ND_CON_END),
        EV_REVISIT(18160, BGC, 1, 1),
        EV_WAIT_END(18200, MAIN, 8),
        /* BGC #9 */
        EV_START(20000, MAIN, 9, 2, GCReason_AllocSmall, GCType_BackgroundGC),
        EV_BGC(20100, BGC, GCLOG_BGC_BEGIN),
        EV_REVISIT(20200, BGC, 5, 50),
        EV_BGC(20400, BGC, GCLOG_BGC_2ND_NONCON_END),
        EV_BGC(20500, BGC, GCLOG_BGC_2ND_NONCON_BEGIN),
        EV_REVISIT(20600, BGC, 1, 5),
        EV_WAIT_BEGIN(20700, USER2, 7),
    };
    static const char *const expect[] = {
        "GC #5: gen2 Background AllocSmall, at 10.100 ms, pause 0.380 ms (final mark 0.330 ms), after (MB) gen0 1.235 "
        "gen1 0.500 gen2 6.000 LOH 2.000 POH 0.200, non-compacting; BGC phases (ms): initial mark ?, "
        "concurrent mark ?, final mark 0.230, concurrent sweep ? (SOH 0.760); alloc waits 1 (1 to its end) 6.610 ms",
        "GC #9: gen2 Background AllocSmall, at 20.000 ms, pause ?, after ?, compaction ?, incomplete (no GCEnd); "
        "BGC phases (ms): initial mark ?, concurrent mark ?, final mark ?, concurrent sweep ?; alloc waits 1 "
        "(1 unfinished, untimed); revisits: concurrent 1: 5 pages 50 objects, final 1: 1 pages 5 objects",
    };
    result r;
    run_script(steps, sizeof steps / sizeof steps[0], &r);
    assert_lines(&r, expect, 2);
    assert_int_equal(r.before_finish, 1);
    char *report = report_of(&r);
    if (!strstr(report, "\n     5             -                -       0.230                 -      0.760 "
                        "           1    6.610\n"
                        "     9             -                -           -                 -          - "
                        "           1        -  incomplete\n"))
        fail_msg("the lost phases are not - in the report:\n%s", report);
    free(report);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gen0),
        cmocka_unit_test(test_nonconcurrent_gen2),
        cmocka_unit_test(test_background_with_foreground),
        cmocka_unit_test(test_other_suspensions_ignored),
        cmocka_unit_test(test_old_versions_and_incomplete),
        cmocka_unit_test(test_background_phases),
        cmocka_unit_test(test_background_phases_lost),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
