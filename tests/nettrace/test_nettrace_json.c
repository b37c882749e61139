/* test_nettrace_json.c — every line `evgen dump --json` writes is a JSON object, checked with
 * json-c, for every real trace of ../shared/reference/traces/ (events the manifest binds, and
 * events only the trace's own metadata describes, with their undecoded tails) and for the same
 * traces after `evgen convert`. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "test_support.h"

#define TRACES EVGEN_SOURCE_DIR "/../shared/reference/traces"

/* Parses every line of `out` as one JSON object; returns the lines, and how many held "raw". */
static size_t check_lines(const char *what, char *out, size_t *with_raw)
{
    size_t lines = 0;
    *with_raw = 0;
    for (char *line = out, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        enum json_tokener_error jerr;
        json_object *o = json_tokener_parse_verbose(line, &jerr);
        if (!o || !json_object_is_type(o, json_type_object))
            fail_msg("%s: line %zu is not a JSON object (%s): %.200s", what, lines + 1, json_tokener_error_desc(jerr),
                     line);
        json_object *fields = NULL, *raw = NULL;
        if (json_object_object_get_ex(o, "fields", &fields) && json_object_object_get_ex(fields, "raw", &raw))
            (*with_raw)++;
        json_object_put(o);
        lines++;
    }
    return lines;
}

static size_t dump_and_check(const char *trace, size_t *with_raw)
{
    const char *argv[] = {EVGEN_EXE, "dump", "--json", trace, NULL};
    char *out = NULL;
    evgen_test_run(argv, NULL, &out, NULL); /* a trace with problems exits non-zero: its lines still count */
    assert_non_null(out);
    size_t lines = check_lines(trace, out, with_raw);
    free(out);
    return lines;
}

static void test_every_line_of_every_real_trace_is_json(void **state)
{
    (void)state;
    DIR *dir = opendir(TRACES);
    if (!dir) {
        fprintf(stderr, "../shared/reference/traces is not beside the checkout: skipped\n");
        skip();
    }
    size_t traces = 0;
    for (struct dirent *de; (de = readdir(dir));) {
        size_t n = strlen(de->d_name);
        if (n < 13 || strcmp(de->d_name + n - 13, ".nettrace.zip") != 0)
            continue;
        char *tmp = evgen_test_tempdir();
        char *zip = evgen_test_format("%s/%s", TRACES, de->d_name);
        const char *unzip[] = {CMAKE_EXE, "-E", "tar", "xf", zip, NULL};
        free(evgen_test_must_run(unzip, tmp));
        char *trace = evgen_test_format("%s/%.*s", tmp, (int)(n - 4), de->d_name);
        size_t raw = 0, lines = dump_and_check(trace, &raw);
        assert_true(lines > 0);
        /* The same events after `evgen convert`: dumped from the .evtrace it writes. */
        char *converted = evgen_test_format("%s/converted.evtrace", tmp);
        const char *convert[] = {EVGEN_EXE, "convert", trace, converted, NULL};
        free(evgen_test_must_run(convert, NULL));
        size_t raw_after = 0, lines_after = dump_and_check(converted, &raw_after);
        assert_int_equal(lines_after, lines);
        fprintf(stderr, "%s: %zu lines, %zu with an undecoded tail; after convert %zu lines\n", de->d_name, lines, raw,
                lines_after);
        free(converted);
        free(trace);
        free(zip);
        evgen_test_rmtree(tmp);
        free(tmp);
        traces++;
    }
    closedir(dir);
    assert_true(traces >= 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_line_of_every_real_trace_is_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
