/* test_example_robust.c — the three example readers (gcheapstats_report, gclog, alloctick) on
 * traces that are not what they hope for: a trace with none of their events (an empty table, exit
 * 0), a truncated trace and a corrupt one (what was read, a warning with the byte offset, exit 1),
 * a file that is not a trace (exit 1), bad arguments (exit 2). */
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
#include "script.h"
#include "test_support.h"

typedef struct program {
    const char *exe;
    const char *empty_output; /* what a trace without its events prints, in full */
    const char *some_output;  /* what a simulated trace's output contains */
} program;

static const program programs[] = {
    {REPORT_EXE,
     "   GC# Gen  Type           Reason             Pause ms    Gen0 MB    Gen1 MB    Gen2 MB     LOH MB     POH MB "
     "Promoted bytes  Susp ms % paused  Alloc MB Alloc MB/s  Frag MB\n"
     "\n"
     "Totals (complete GCs)\n"
     "  Gen      GCs   Max pause ms  Mean pause ms  Total pause ms\n"
     "  all        0              -              -               -\n"
     "  0          0              -              -               -\n"
     "  1          0              -              -               -\n"
     "  2          0              -              -               -\n"
     "Peak sizes (MB): gen0 -  gen1 -  gen2 -  LOH -  POH -\n",
     "  NonConcurrent  AllocSmall "},
    {GCLOG_EXE, "0 GCs\n", ": gen0 NonConcurrent AllocSmall, at "},
    {ALLOCTICK_EXE,
     "GCAllocationTick: 0 ticks (one per ~100 KB allocated on a heap), estimated allocation 0.000 MB\n"
     "\n"
     "Heap        Ticks   Estimated MB       %\n"
     "SOH             0          0.000       -\n"
     "LOH             0          0.000       -\n"
     "POH             0          0.000       -\n"
     "\n"
     "Top 0 of 0 types by estimated allocation:\n"
     "     Ticks   Estimated MB       %     SOH MB     LOH MB     POH MB  Mean object  Type\n",
     "  System.String\n"},
};
enum { N_PROGRAMS = sizeof programs / sizeof programs[0] };

static char *dir;
static char simulated[4096];

static int setup(void **state)
{
    (void)state;
    dir = evgen_test_tempdir();
    snprintf(simulated, sizeof simulated, "%s/sim.evtrace", dir);
    /* ~1.3 MB: several 256-KiB blocks of each thread, so that a cut or a flip leaves some whole */
    const char *argv[] = {SIMULATE_EXE, "--all-events", simulated, "200", NULL};
    char *out = NULL, *err = NULL;
    int status = evgen_test_run(argv, NULL, &out, &err);
    free(out);
    free(err);
    return status;
}

static int teardown(void **state)
{
    (void)state;
    evgen_test_rmtree(dir);
    free(dir);
    return 0;
}

static int run(const char *exe, const char *path, char **out, char **err)
{
    const char *argv[] = {exe, path, NULL};
    return evgen_test_run(argv, NULL, out, err);
}

/* The whole simulated trace: exit 0, no warning. */
static void test_whole_trace(void **state)
{
    (void)state;
    for (int i = 0; i < N_PROGRAMS; i++) {
        char *out = NULL, *err = NULL;
        assert_int_equal(run(programs[i].exe, simulated, &out, &err), 0);
        assert_string_equal(err, "");
        assert_non_null(strstr(out, programs[i].some_output));
        free(out);
        free(err);
    }
}

static void other_events(void *arg)
{
    (void)arg;
    FireEtwGCCreateSegment(0x1c0000000u, 1u << 24, GCSegmentType_SmallObjectHeap, 1);
    FireEtwGCFinalizersBegin(1);
    FireEtwGCFinalizersEnd(3, 1);
}

/* None of their events: an empty table, exit 0. */
static void test_trace_without_their_events(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/other.evtrace", dir);
    size_t size = 0;
    uint8_t *data = script_record(other_events, NULL, &size);
    script_write_file(path, data, size);
    free(data);
    for (int i = 0; i < N_PROGRAMS; i++) {
        char *out = NULL, *err = NULL;
        assert_int_equal(run(programs[i].exe, path, &out, &err), 0);
        assert_string_equal(err, "");
        assert_string_equal(out, programs[i].empty_output);
        free(out);
        free(err);
    }
}

/* Output lines that hold what `needle` marks (GC rows, log lines, type rows). */
static size_t count_lines(const char *out, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(out, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* Each program on a damaged trace: exit 1, a warning with the offset (naming `damage` unless it
 * is NULL), and the part it could read. */
static void check_damaged(const char *path, const char *damage)
{
    for (int i = 0; i < N_PROGRAMS; i++) {
        char *out = NULL, *err = NULL, *whole = NULL, *whole_err = NULL;
        assert_int_equal(run(programs[i].exe, path, &out, &err), 1);
        if (!strstr(err, ": warning: ") || !strstr(err, ": offset ") || (damage && !strstr(err, damage)))
            fail_msg("%s on a %s trace warned:\n%s", programs[i].exe, damage, err);
        /* what was read is printed: some of it, not all */
        assert_int_equal(run(programs[i].exe, simulated, &whole, &whole_err), 0);
        const char *needle = i == 1 ? "GC #" : "\n";
        size_t got = count_lines(out, needle), all = count_lines(whole, needle);
        assert_true(count_lines(out, programs[i].some_output) > 0);
        assert_true(got > 0 && got <= all);
        free(out);
        free(err);
        free(whole);
        free(whole_err);
    }
}

static void test_truncated_trace(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/cut.evtrace", dir);
    script_cut_file(simulated, path, script_file_size(simulated) * 6 / 10);
    check_damaged(path, "truncated");

    /* fewer GCs than the whole trace holds */
    char *out = NULL, *err = NULL;
    assert_int_equal(run(GCLOG_EXE, path, &out, &err), 1);
    assert_null(strstr(out, "\n200 GCs\n"));
    free(out);
    free(err);
}

static void test_corrupt_trace(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/flip.evtrace", dir);
    script_flip_byte(simulated, path, script_file_size(simulated) / 2);
    check_damaged(path, NULL); /* "corrupt" as a rule; "truncated" if the flip hit a block's size */
}

static void test_not_a_trace(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/text.evtrace", dir);
    evgen_test_write(path, "this is not a trace\n");
    for (int i = 0; i < N_PROGRAMS; i++) {
        char *out = NULL, *err = NULL;
        assert_int_equal(run(programs[i].exe, path, &out, &err), 1);
        assert_non_null(strstr(err, "offset"));
        free(out);
        free(err);
        assert_int_equal(run(programs[i].exe, "/nonexistent/trace.evtrace", &out, &err), 1);
        free(out);
        free(err);
        const char *argv[] = {programs[i].exe, NULL};
        assert_int_equal(evgen_test_run(argv, NULL, &out, &err), 2);
        assert_non_null(strstr(err, "usage: "));
        free(out);
        free(err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_trace),
        cmocka_unit_test(test_trace_without_their_events),
        cmocka_unit_test(test_truncated_trace),
        cmocka_unit_test(test_corrupt_trace),
        cmocka_unit_test(test_not_a_trace),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
