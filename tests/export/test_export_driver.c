/* test_export_driver.c — evgen_export's driver (evgen/export.h) with exporters of the test's own: the
 * output checked before anything is read, written whole or not at all (a directory new or empty, a
 * file never over an input), the traces opened and iterated in time order with every event, their
 * problems reported after the export; and `evgen export`'s usage errors. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "evgen/export.h"
#include "real_trace.h"
#include "test_support.h"

#define GOLDEN EVGEN_SOURCE_DIR "/tests/traces/gcevents/gcevents-0001.evtrace"

/* What the test exporters saw. */
static int calls;
static uint64_t events_seen;
static int time_ordered;

/* Counts every event of every trace, checking time order, then writes `events.txt` (a directory
 * exporter) or the count (a file exporter). */
static int count_events(evgen_export_run *run)
{
    calls++;
    events_seen = 0;
    time_ordered = 1;
    for (size_t i = 0; i < run->n_traces; i++) {
        evgen_event ev;
        uint64_t last = 0;
        evgen_export_rewind(run, i);
        while (evgen_export_next(run, i, &ev)) {
            time_ordered = time_ordered && ev.timestamp_ns >= last;
            last = ev.timestamp_ns;
            events_seen++;
        }
    }
    FILE *f = run->file;
    char *path = NULL;
    if (!f) {
        path = evgen_export_path(run, "events.txt");
        f = fopen(path, "w");
        assert_non_null(f);
    }
    fprintf(f, "%llu\n", (unsigned long long)events_seen);
    if (path) {
        fclose(f);
        free(path);
    }
    return 0;
}

/* Writes something, then fails. */
static int fail_midway(evgen_export_run *run)
{
    calls++;
    if (run->file) {
        fputs("half", run->file);
    } else {
        char *path = evgen_export_path(run, "half.txt");
        evgen_test_write(path, "half");
        free(path);
    }
    evgen_export_error(run, "the test exporter fails");
    return -1;
}

static const evgen_exporter dir_exporter = {"testdir", "a directory", "DIR", 1, 1, count_events};
static const evgen_exporter file_exporter = {"testfile", "a file", "FILE", 0, 0, count_events};
static const evgen_exporter dir_failing = {"testdir", "a directory", "DIR", 1, 0, fail_midway};
static const evgen_exporter file_failing = {"testfile", "a file", "FILE", 0, 0, fail_midway};

/* Runs evgen_export with its messages captured into *messages (caller frees). */
static int export(const evgen_exporter *e, const char *out, const char *const *traces, size_t n, char **messages)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *err = open_memstream(&buf, &size);
    assert_non_null(err);
    calls = 0;
    evgen_export_options options;
    evgen_export_options_init(&options);
    options.progress = 0;
    int rc = evgen_export(e, out, traces, n, &options, err);
    fclose(err);
    *messages = buf;
    return rc;
}

/* The entries of `dir` other than . and .., as a sorted-by-readdir count. */
static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* The golden trace's events, read directly. */
static uint64_t golden_events(void)
{
    evgen_reader *rd = evgen_reader_open(GOLDEN, NULL);
    assert_non_null(rd);
    evgen_event ev;
    uint64_t n = 0;
    while (evgen_reader_next(rd, &ev))
        n++;
    evgen_reader_close(rd);
    return n;
}

static void test_directory_output(void **state)
{
    (void)state;
    char *tmp = evgen_test_tempdir();
    char *out = evgen_test_format("%s/out", tmp);
    const char *traces[] = {GOLDEN, GOLDEN};
    char *msg;
    /* new: created whole, with every event of both traces in time order */
    assert_int_equal(export(&dir_exporter, out, traces, 2, &msg), 0);
    assert_string_equal(msg, "");
    free(msg);
    assert_int_equal(calls, 1);
    assert_true(time_ordered);
    assert_true(events_seen > 0);
    assert_int_equal(events_seen, 2 * golden_events());
    char *file = evgen_test_format("%s/events.txt", out);
    char *text = evgen_test_read(file);
    char *expected = evgen_test_format("%llu\n", (unsigned long long)events_seen);
    assert_string_equal(text, expected);
    free(text);
    free(expected);
    assert_int_equal(count_entries(tmp), 1); /* no temporary directory left beside it */
    struct stat st;
    assert_int_equal(stat(out, &st), 0);
    mode_t mask = umask(0);
    umask(mask);
    assert_int_equal(st.st_mode & 0777, 0777 & ~mask); /* a new directory's, not mkdtemp's 0700 */

    /* not empty: refused before anything is read, left as it was */
    assert_int_equal(export(&dir_exporter, out, traces, 1, &msg), 1);
    assert_non_null(strstr(msg, "not empty"));
    assert_true(strncmp(msg, out, strlen(out)) == 0);
    free(msg);
    assert_int_equal(calls, 0);
    assert_int_equal(count_entries(out), 1);

    /* an empty directory is replaced */
    evgen_test_rmtree(out);
    assert_int_equal(mkdir(out, 0755), 0);
    assert_int_equal(export(&dir_exporter, out, traces, 1, &msg), 0);
    free(msg);
    assert_true(evgen_test_exists(file));

    /* a regular file is not a directory to write */
    char *plain = evgen_test_format("%s/plain", tmp);
    evgen_test_write(plain, "keep");
    assert_int_equal(export(&dir_exporter, plain, traces, 1, &msg), 1);
    assert_non_null(strstr(msg, "not a directory"));
    free(msg);
    text = evgen_test_read(plain);
    assert_string_equal(text, "keep");
    free(text);

    /* a failing exporter leaves nothing behind */
    char *failed = evgen_test_format("%s/failed", tmp);
    assert_int_equal(export(&dir_failing, failed, traces, 1, &msg), 1);
    assert_non_null(strstr(msg, "the test exporter fails"));
    free(msg);
    assert_false(evgen_test_exists(failed));
    assert_int_equal(count_entries(tmp), 2); /* out and plain */

    evgen_test_rmtree(tmp);
    free(failed);
    free(plain);
    free(file);
    free(out);
    free(tmp);
}

static void test_file_output(void **state)
{
    (void)state;
    char *tmp = evgen_test_tempdir();
    char *out = evgen_test_format("%s/out.txt", tmp);
    const char *traces[] = {GOLDEN};
    char *msg;
    evgen_test_write(out, "old");
    /* a failing exporter leaves the old file as it was */
    assert_int_equal(export(&file_failing, out, traces, 1, &msg), 1);
    free(msg);
    char *text = evgen_test_read(out);
    assert_string_equal(text, "old");
    free(text);
    assert_int_equal(count_entries(tmp), 1);
    /* success replaces it */
    assert_int_equal(export(&file_exporter, out, traces, 1, &msg), 0);
    free(msg);
    text = evgen_test_read(out);
    char *expected = evgen_test_format("%llu\n", (unsigned long long)golden_events());
    assert_string_equal(text, expected);
    free(text);
    free(expected);
    /* never over an input */
    char *copy = evgen_test_format("%s/copy.evtrace", tmp);
    char *cp = evgen_test_format("cp %s %s", GOLDEN, copy);
    assert_int_equal(system(cp), 0);
    const char *self[] = {copy};
    assert_int_equal(export(&file_exporter, copy, self, 1, &msg), 1);
    assert_int_equal(calls, 0);
    free(msg);
    evgen_reader *still = evgen_reader_open(copy, NULL); /* the trace is untouched */
    assert_non_null(still);
    evgen_reader_close(still);
    evgen_test_rmtree(tmp);
    free(cp);
    free(copy);
    free(out);
    free(tmp);
}

static void test_unreadable_and_cut_traces(void **state)
{
    (void)state;
    char *tmp = evgen_test_tempdir();
    char *out = evgen_test_format("%s/out", tmp);
    char *missing = evgen_test_format("%s/missing.evtrace", tmp);
    const char *traces[] = {GOLDEN, missing};
    char *msg;
    /* a trace that cannot be opened: named, nothing created, the exporter never called */
    assert_int_equal(export(&dir_exporter, out, traces, 2, &msg), 1);
    assert_true(strncmp(msg, missing, strlen(missing)) == 0);
    free(msg);
    assert_int_equal(calls, 0);
    assert_int_equal(count_entries(tmp), 0);

    /* a cut trace (the real one, unbound: many blocks): exported as far as it reads, its problem
     * named with the offset after */
    char *real_dir = NULL;
    char *real = real_trace_unzip(&real_dir);
    REAL_TRACE_NEEDED(real);
    const char *whole_traces[] = {real};
    assert_int_equal(export(&dir_exporter, out, whole_traces, 1, &msg), 0);
    free(msg);
    uint64_t all = events_seen;
    evgen_test_rmtree(out);
    size_t size = 0;
    char *whole = NULL;
    FILE *f = fopen(real, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    whole = malloc(size);
    assert_int_equal(fread(whole, 1, size, f), size);
    fclose(f);
    char *cut = evgen_test_format("%s/cut.nettrace", tmp);
    f = fopen(cut, "wb");
    fwrite(whole, 1, size * 2 / 3, f);
    fclose(f);
    const char *cut_traces[] = {cut};
    assert_int_equal(export(&dir_exporter, out, cut_traces, 1, &msg), 1);
    assert_int_equal(calls, 1);
    assert_true(events_seen > all / 2 && events_seen < all);
    char *prefix = evgen_test_format("%s: offset ", cut);
    assert_true(strncmp(msg, prefix, strlen(prefix)) == 0);
    free(prefix);
    free(msg);
    real_trace_remove(real_dir, real);
    char *file = evgen_test_format("%s/events.txt", out);
    assert_true(evgen_test_exists(file));
    evgen_test_rmtree(tmp);
    free(file);
    free(cut);
    free(whole);
    free(missing);
    free(out);
    free(tmp);
}

/* `evgen export`'s usage errors: status 2, one line naming the problem. */
static void test_usage_errors(void **state)
{
    (void)state;
    static const struct {
        const char *args[4];
        const char *message;
    } cases[] = {
        {{GOLDEN, NULL}, "missing the format: --ctf DIR"},
        {{"--ctf", "x", NULL}, "missing the trace: evgen export --ctf DIR TRACE"},
        {{"--ctf", "x", "--sql", "y"}, "--ctf and --sql: one format at a time"},
        {{"--perfetto", "x.json", GOLDEN, GOLDEN}, "--perfetto exports one trace"},
        {{"--frob", NULL}, "unknown option '--frob'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *argv[8] = {EVGEN_EXE, "export"};
        for (size_t k = 0; k < 4 && cases[i].args[k]; k++)
            argv[2 + k] = cases[i].args[k];
        evgen_test_output r = evgen_test_capture(argv, NULL);
        assert_int_equal(r.status, 2);
        if (!strstr(r.err, cases[i].message))
            fail_msg("case %zu: '%s' lacks '%s'", i, r.err, cases[i].message);
        evgen_test_output_free(&r);
    }
    /* every exporter of the table is a --FORMAT of the help */
    const char *argv[] = {EVGEN_EXE, "export", "--help", NULL};
    evgen_test_output r = evgen_test_capture(argv, NULL);
    assert_int_equal(r.status, 0);
    for (const evgen_exporter *const *e = evgen_exporters; *e; e++) {
        char *option = evgen_test_format("\n  --%s %s ", (*e)->name, (*e)->out_name);
        assert_non_null(strstr(r.out, option));
        assert_true(evgen_exporter_find((*e)->name) == *e);
        free(option);
    }
    assert_null(evgen_exporter_find("nosuch"));
    evgen_test_output_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_directory_output),
        cmocka_unit_test(test_file_output),
        cmocka_unit_test(test_unreadable_and_cut_traces),
        cmocka_unit_test(test_usage_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
