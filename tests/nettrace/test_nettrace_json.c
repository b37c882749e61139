/* test_nettrace_json.c — every line `evgen dump --json` writes is a JSON object, checked with
 * json-c, for every real trace of ../shared/reference/traces/ (events the manifest binds, and
 * events only the trace's own metadata describes, with their undecoded tails) and for the same
 * traces after `evgen convert`, where an undecoded payload (convert's raw type) prints as before. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "real_trace.h"
#include "test_support.h"

#define TRACES EVGEN_SOURCE_DIR "/../shared/reference/traces"

/* The events whose only member is an undecoded payload, as "event raw-hex" strings. */
typedef struct raw_list {
    char **items;
    size_t n, cap;
} raw_list;

static int by_string(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Parses every line of `out` as one JSON object; returns the lines, and how many held "raw"; the
 * events that are nothing but "raw" go to `raws`. */
static size_t check_lines(const char *what, char *out, size_t *with_raw, raw_list *raws)
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
        if (json_object_object_get_ex(o, "fields", &fields) && json_object_object_get_ex(fields, "raw", &raw)) {
            (*with_raw)++;
            json_object *event = NULL;
            if (json_object_object_length(fields) == 1 && json_object_object_get_ex(o, "event", &event)) {
                if (raws->n == raws->cap) {
                    raws->cap = raws->cap ? 2 * raws->cap : 1024;
                    raws->items = realloc(raws->items, raws->cap * sizeof *raws->items);
                }
                raws->items[raws->n++] =
                    evgen_test_format("%s %s", json_object_get_string(event), json_object_get_string(raw));
            }
        }
        json_object_put(o);
        lines++;
    }
    return lines;
}

static size_t dump_and_check(const char *trace, size_t *with_raw, raw_list *raws)
{
    const char *argv[] = {EVGEN_EXE, "dump", "--json", trace, NULL};
    char *out = NULL;
    evgen_test_run(argv, NULL, &out, NULL); /* a trace with problems exits non-zero: its lines still count */
    assert_non_null(out);
    size_t lines = check_lines(trace, out, with_raw, raws);
    qsort(raws->items, raws->n, sizeof *raws->items, by_string);
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
        char *tmp = NULL, *name = evgen_test_format("%.*s", (int)(n - 4), de->d_name);
        char *trace = real_trace_unzip_named(name, &tmp);
        assert_non_null(trace);
        raw_list before = {0}, after = {0};
        size_t raw = 0, lines = dump_and_check(trace, &raw, &before);
        assert_true(lines > 0);
        /* The same events after `evgen convert`: dumped from the .evtrace it writes. */
        char *converted = evgen_test_format("%s/converted.evtrace", tmp);
        const char *convert[] = {EVGEN_EXE, "convert", trace, converted, NULL};
        free(evgen_test_must_run(convert, NULL));
        size_t raw_after = 0, lines_after = dump_and_check(converted, &raw_after, &after);
        assert_int_equal(lines_after, lines);
        /* An undecoded payload prints the same before and after convert (its raw type). */
        assert_int_equal(after.n, before.n);
        for (size_t i = 0; i < before.n; i++) {
            if (strcmp(before.items[i], after.items[i]) != 0)
                fail_msg("%s: %.120s before convert, %.120s after", de->d_name, before.items[i], after.items[i]);
            free(before.items[i]);
            free(after.items[i]);
        }
        free(before.items);
        free(after.items);
        fprintf(stderr, "%s: %zu lines, %zu with an undecoded tail (%zu only that, the same after convert); after "
                "convert %zu lines\n", de->d_name, lines, raw, before.n, lines_after);
        free(converted);
        free(name);
        real_trace_remove(tmp, trace);
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
