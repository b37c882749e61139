/* test_nettrace_examples.c — the example readers on the real .NET Core 3.0 trace: gcheapstats_report
 * and gclog print one row per GC, alloctick counts the allocation ticks, each figure checked
 * against what the reader itself counts in the trace (GCStart events and their generations, the
 * ticks and their type names), not against numbers written here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gcevents_reader.h"
#include "nettrace_writer.h"
#include "real_trace.h"
#include "test_support.h"

typedef struct fixture {
    char *dir, *path;
    uint64_t gcs, by_gen[3], ticks;
    uint32_t first_depth;
    char first_type_name[128];
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    *state = f;
    f->path = real_trace_unzip(&f->dir);
    if (!f->path)
        return 0;
    const evgen_reader_manifest *manifests[] = {&gcevents_reader_manifest};
    evgen_reader_options options = {manifests, 1};
    evgen_reader *rd = evgen_reader_open_with(f->path, &options, NULL);
    assert_non_null(rd);
    evgen_event ev;
    evgen_reader_rewind(rd, EVGEN_ORDER_TIME);
    while (evgen_reader_next(rd, &ev)) {
        if (GCStart_is(&ev)) {
            if (!f->gcs)
                f->first_depth = GCStart_Depth(&ev);
            f->gcs++;
            if (GCStart_Depth(&ev) < 3)
                f->by_gen[GCStart_Depth(&ev)]++;
        } else if (GCAllocationTick_is(&ev)) {
            if (!f->ticks)
                evgen_utf16_to_utf8(GCAllocationTick_TypeName(&ev), f->first_type_name, sizeof f->first_type_name);
            f->ticks++;
        }
    }
    evgen_reader_close(rd);
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    real_trace_remove(f->dir, f->path);
    free(f);
    return 0;
}

static size_t count_lines_starting(const char *text, const char *prefix)
{
    size_t n = 0, len = strlen(prefix);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        n += strncmp(p, prefix, len) == 0;
    return n;
}

static void test_report(void **state)
{
    fixture *f = *state;
    REAL_TRACE_NEEDED(f->path);
    assert_true(f->gcs > 0);
    const char *argv[] = {REPORT_EXE, f->path, NULL};
    char *out = NULL, *err = NULL;
    assert_int_equal(evgen_test_run(argv, NULL, &out, &err), 0);
    assert_string_equal(err, "");
    /* One row per GC: "   GC# Gen ..." then rows that start with the right-aligned number. */
    size_t rows = 0;
    for (const char *p = out; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        unsigned long number, gen;
        char type[32];
        if (sscanf(p, "%lu %lu %31s", &number, &gen, type) == 3 && strncmp(p, "  all", 5) != 0 &&
            (type[0] >= 'A' && type[0] <= 'Z')) {
            rows++;
            assert_int_equal(number, rows);
            if (rows == 1)
                assert_int_equal(gen, f->first_depth);
        }
    }
    assert_int_equal(rows, f->gcs);
    char *all = evgen_test_format("  all %8llu", (unsigned long long)f->gcs);
    assert_non_null(strstr(out, all));
    for (int g = 0; g < 3; g++) {
        char *line = evgen_test_format("  %d   %8llu", g, (unsigned long long)f->by_gen[g]);
        if (!strstr(out, line))
            fail_msg("no '%s' in the totals:\n%s", line, out);
        free(line);
    }
    free(all);
    free(out);
    free(err);
}

static void test_gclog(void **state)
{
    fixture *f = *state;
    REAL_TRACE_NEEDED(f->path);
    const char *argv[] = {GCLOG_EXE, f->path, NULL};
    char *out = NULL, *err = NULL;
    assert_int_equal(evgen_test_run(argv, NULL, &out, &err), 0);
    assert_int_equal(count_lines_starting(out, "GC #"), f->gcs);
    char *first = evgen_test_format("GC #1: gen%u ", f->first_depth);
    assert_int_equal(count_lines_starting(out, first), 1);
    char *last = evgen_test_format("%llu GCs\n", (unsigned long long)f->gcs);
    assert_non_null(strstr(out, last));
    free(first);
    free(last);
    free(out);
    free(err);
}

static void test_alloctick(void **state)
{
    fixture *f = *state;
    REAL_TRACE_NEEDED(f->path);
    const char *argv[] = {ALLOCTICK_EXE, f->path, NULL};
    char *out = NULL, *err = NULL;
    assert_int_equal(evgen_test_run(argv, NULL, &out, &err), 0);
    char *ticks = evgen_test_format("GCAllocationTick: %llu ticks", (unsigned long long)f->ticks);
    assert_non_null(strstr(out, ticks));
    assert_non_null(strstr(out, f->first_type_name));
    free(ticks);
    free(out);
    free(err);
}

/* Lost events (a sequence gap) are reported by the examples as a warning, after the results. */
static void test_lost_events_warning(void **state)
{
    (void)state;
    nt_writer *w = nt_writer_new(4, 1, 8, 0, 1000000, 7, 1);
    nt_metadata(w, 1, "Microsoft-Windows-DotNETRuntime", 1, "", 1, 2, 4, NULL, 0);
    uint8_t payload[26] = {1};
    nt_event e = {1, 1, 50, 50, 0, 0, 100, 0, NULL, payload, sizeof payload, NULL, 0};
    nt_write_event(w, &e);
    e.sequence = 4; /* 2 and 3 lost */
    e.timestamp = 200;
    payload[0] = 2;
    nt_write_event(w, &e);
    size_t size;
    uint8_t *data = nt_writer_finish(w, &size);
    char *dir = evgen_test_tempdir();
    char *path = evgen_test_format("%s/lost.nettrace", dir);
    assert_int_equal(nt_write_file(path, data, size), 0);
    const char *argv[] = {GCLOG_EXE, path, NULL};
    char *out = NULL, *err = NULL;
    evgen_test_run(argv, NULL, &out, &err);
    char *expected = evgen_test_format("gclog: warning: %s: 2 events were lost by the runtime", path);
    if (!strstr(err, expected))
        fail_msg("no '%s' in:\n%s", expected, err);
    free(expected);
    free(out);
    free(err);
    free(path);
    free(data);
    evgen_test_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lost_events_warning),
        cmocka_unit_test(test_report),
        cmocka_unit_test(test_gclog),
        cmocka_unit_test(test_alloctick),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
