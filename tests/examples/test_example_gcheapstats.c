/* test_example_gcheapstats.c — examples/gcheapstats end to end: the simulated GC writes a trace and
 * prints each GC's figures (--verbose); gcheapstats_report reads the trace back: one row per GC
 * whose numbers equal the simulation's, totals that agree with the rows, and an SVG chart that is
 * well-formed XML with one polyline per size. Also GCHeapStats versions 0 and 1 (no POH: "-"). */
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
#include "xml_check.h"

enum { MAX_GCS = 64 };

typedef struct sim_gc {
    unsigned number, gen;
    char type[32], reason[32];
    unsigned long long size[5], promoted;
} sim_gc;

typedef struct row {
    unsigned number;
    char gen[8], type[32], reason[32], pause[32], mb[5][32], promoted[32];
} row;

static const char *mb3(unsigned long long bytes, char *buf, size_t size)
{
    unsigned long long t = (bytes + 500) / 1000;
    snprintf(buf, size, "%llu.%03llu", t / 1000, t % 1000);
    return buf;
}

/* Copies the line at `p` into `buf` (without its newline); returns the next line or NULL. */
static const char *next_line(const char *p, char *buf, size_t size)
{
    const char *end = strchr(p, '\n');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    snprintf(buf, size, "%.*s", (int)n, p);
    return end ? end + 1 : NULL;
}

/* The simulation's --verbose lines, by GC number. */
static size_t parse_simulation(const char *out, sim_gc *gcs)
{
    size_t n = 0;
    char line[512];
    for (const char *p = out; p && *p;) {
        p = next_line(p, line, sizeof line);
        sim_gc g;
        if (sscanf(line, "gc %u gen%u %31s %31[^:]: gen0 %llu gen1 %llu gen2 %llu LOH %llu POH %llu promoted %llu",
                   &g.number, &g.gen, g.type, g.reason, &g.size[0], &g.size[1], &g.size[2], &g.size[3], &g.size[4],
                   &g.promoted) == 10) {
            assert_true(g.number >= 1 && g.number <= MAX_GCS);
            gcs[g.number - 1] = g;
            n++;
        }
    }
    return n;
}

/* The report's table rows (lines of 11 columns starting with a GC number). */
static size_t parse_rows(const char *out, row *rows)
{
    size_t n = 0;
    char line[512];
    for (const char *p = out; p && *p;) {
        p = next_line(p, line, sizeof line);
        row r;
        if (sscanf(line, "%u %7s %31s %31s %31s %31s %31s %31s %31s %31s %31s", &r.number, r.gen, r.type, r.reason,
                   r.pause, r.mb[0], r.mb[1], r.mb[2], r.mb[3], r.mb[4], r.promoted) == 11) {
            assert_true(n < MAX_GCS);
            rows[n++] = r;
        }
    }
    return n;
}

static char *run(const char *const argv[], int expect_status, char **err_out)
{
    char *out = NULL, *err = NULL;
    int status = evgen_test_run(argv, NULL, &out, &err);
    if (status != expect_status)
        fail_msg("%s exited %d, expected %d; stderr:\n%s", argv[0], status, expect_status, err);
    if (err_out)
        *err_out = err;
    else
        free(err);
    return out;
}

static void check_svg(const char *path, size_t expect_polylines, size_t points_each)
{
    char *svg = evgen_test_read(path);
    assert_non_null(svg);
    xml_counts c;
    char error[256];
    if (xml_check(svg, &c, error, sizeof error) != 0)
        fail_msg("%s is not well-formed XML: %s", path, error);
    assert_string_equal(c.root, "svg");
    assert_int_equal(c.polylines, expect_polylines);
    assert_true(c.lines >= 4 && c.texts >= 6); /* axes, ticks, legend, labels */
    assert_non_null(strstr(svg, ">GC number</text>"));
    assert_non_null(strstr(svg, "Size after the GC (MB)"));
    const char *names[] = {">gen0<", ">gen1<", ">gen2<", ">LOH<", ">POH<"};
    for (size_t i = 0; i < expect_polylines; i++)
        assert_non_null(strstr(svg, names[i]));
    /* every polyline has a point per GC */
    for (const char *p = strstr(svg, "<polyline"); p; p = strstr(p + 1, "<polyline")) {
        const char *points = strstr(p, "points=\"") + 8, *end = strchr(points, '"');
        size_t n = 1;
        for (const char *q = points; q < end; q++)
            n += *q == ' ';
        assert_int_equal(n, points_each);
    }
    free(svg);
}

static void simulate_and_report(int all_events, unsigned n_gcs)
{
    char *dir = evgen_test_tempdir();
    char trace[4096], svg[4096], count[16];
    snprintf(trace, sizeof trace, "%s/gc.evtrace", dir);
    snprintf(svg, sizeof svg, "%s/gc.svg", dir);
    snprintf(count, sizeof count, "%u", n_gcs);
    const char *sim_argv[6] = {SIMULATE_EXE, "--verbose"};
    int argc = 2;
    if (all_events)
        sim_argv[argc++] = "--all-events";
    sim_argv[argc++] = trace;
    sim_argv[argc++] = count;
    sim_argv[argc] = NULL;
    char *sim_out = run(sim_argv, 0, NULL);
    static sim_gc gcs[MAX_GCS];
    memset(gcs, 0, sizeof gcs);
    assert_int_equal(parse_simulation(sim_out, gcs), n_gcs);

    const char *report_argv[] = {REPORT_EXE, trace, "--svg", svg, NULL};
    char *out = run(report_argv, 0, NULL);
    static row rows[MAX_GCS];
    assert_int_equal(parse_rows(out, rows), n_gcs);

    unsigned per_gen[3] = {0, 0, 0};
    unsigned long long peak[5] = {0};
    for (unsigned i = 0; i < n_gcs; i++) {
        const row *r = &rows[i];
        const sim_gc *g = &gcs[i];
        char expect[32];
        assert_int_equal(r->number, i + 1); /* in GC number order, every GC once */
        assert_int_equal(g->number, i + 1);
        snprintf(expect, sizeof expect, "%u", g->gen);
        assert_string_equal(r->gen, expect);
        assert_string_equal(r->type, g->type);
        assert_string_equal(r->reason, g->reason);
        for (int k = 0; k < 5; k++) {
            assert_string_equal(r->mb[k], mb3(g->size[k], expect, sizeof expect));
            if (g->size[k] > peak[k])
                peak[k] = g->size[k];
        }
        snprintf(expect, sizeof expect, "%llu", g->promoted);
        assert_string_equal(r->promoted, expect);
        per_gen[g->gen]++;
        /* a pause for every GC but, without suspension events, a background one */
        if (strcmp(g->type, "Background") == 0 && !all_events)
            assert_string_equal(r->pause, "-");
        else
            assert_true(strtod(r->pause, NULL) > 0);
    }
    /* the trace holds the simulation's last heap */
    const sim_gc *last = &gcs[n_gcs - 1];
    char heap_line[256];
    snprintf(heap_line, sizeof heap_line, "heap after the last GC: gen0 %llu, gen1 %llu, gen2 %llu, LOH %llu, POH %llu",
             last->size[0], last->size[1], last->size[2], last->size[3], last->size[4]);
    if (strcmp(last->type, "Foreground") != 0) /* a background GC inside which it ran ends later */
        assert_non_null(strstr(sim_out, heap_line));

    /* totals: GCs per generation, peak sizes */
    char line[256], mb[5][32];
    snprintf(line, sizeof line, "  all   %6u", n_gcs);
    assert_non_null(strstr(out, line));
    for (int g = 0; g < 3; g++) {
        snprintf(line, sizeof line, "\n  %-5d %6u ", g, per_gen[g]);
        assert_non_null(strstr(out, line));
    }
    for (int k = 0; k < 5; k++)
        mb3(peak[k], mb[k], sizeof mb[k]);
    snprintf(line, sizeof line, "Peak sizes (MB): gen0 %s  gen1 %s  gen2 %s  LOH %s  POH %s", mb[0], mb[1], mb[2],
             mb[3], mb[4]);
    assert_non_null(strstr(out, line));

    check_svg(svg, 5, n_gcs);
    free(sim_out);
    free(out);
    evgen_test_rmtree(dir);
    free(dir);
}

/* 40 GCs: gen0, gen1, a blocking gen2 (#16) and a background gen2 (#32) with foreground GCs. */
static void test_report_matches_simulation(void **state)
{
    (void)state;
    simulate_and_report(0, 40);
}

/* The same with suspensions: every GC's pause is known, the background GC's included. */
static void test_report_with_suspensions(void **state)
{
    (void)state;
    simulate_and_report(1, 36);
}

/* GCHeapStats of versions 0 and 1 have no POH: the report prints "-" and charts four sizes. */
static void old_heap_stats(void *arg)
{
    (void)arg;
    FireEtwGCTriggered(GCReason_AllocSmall, 1);
    FireEtwGCStart_V1(1, 0, GCReason_AllocSmall, GCType_NonConcurrentGC, 1);
    FireEtwGCEnd_V1(1, 0, 1);
    FireEtwGCHeapStats_V1(0, 1000000, 1000000, 0, 0, 0, 2500000, 0, 0, 0, 0, 0, 10, 1);
    FireEtwGCStart_V0(2, GCReason_Induced);
    FireEtwGCEnd_V0(2, 1);
    FireEtwGCHeapStats_V0(0, 500000, 1200000, 300000, 300000, 0, 2500000, 0, 0, 0, 0, 0, 10);
}

static void test_report_old_heap_stats(void **state)
{
    (void)state;
    char *dir = evgen_test_tempdir();
    char trace[4096], svg[4096];
    snprintf(trace, sizeof trace, "%s/old.evtrace", dir);
    snprintf(svg, sizeof svg, "%s/old.svg", dir);
    size_t size = 0;
    uint8_t *data = script_record(old_heap_stats, NULL, &size);
    script_write_file(trace, data, size);
    free(data);
    const char *argv[] = {REPORT_EXE, trace, "--svg", svg, NULL};
    char *out = run(argv, 0, NULL);
    static row rows[MAX_GCS];
    assert_int_equal(parse_rows(out, rows), 2);
    assert_string_equal(rows[0].gen, "0");
    assert_string_equal(rows[0].mb[1], "1.000");
    assert_string_equal(rows[0].mb[3], "2.500");
    assert_string_equal(rows[0].mb[4], "-");
    assert_string_equal(rows[0].promoted, "1000000");
    assert_string_equal(rows[1].gen, "1"); /* GCStart v0 has no Depth: GCEnd's */
    assert_string_equal(rows[1].type, "NonConcurrent");
    assert_string_equal(rows[1].reason, "Induced");
    assert_string_equal(rows[1].mb[2], "0.300");
    assert_string_equal(rows[1].mb[4], "-");
    assert_string_equal(rows[1].promoted, "800000");
    assert_non_null(strstr(out, "LOH 2.500  POH -\n"));
    check_svg(svg, 4, 2);
    free(out);
    evgen_test_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report_matches_simulation),
        cmocka_unit_test(test_report_with_suspensions),
        cmocka_unit_test(test_report_old_heap_stats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
