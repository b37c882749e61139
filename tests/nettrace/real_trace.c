/* real_trace.c — the real trace and its baseline for the tests (real_trace.h). */
#include "real_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>

#include "test_support.h"

#define TRACES EVGEN_SOURCE_DIR "/../shared/reference/traces/"

char *real_trace_unzip_named(const char *name, char **dir)
{
    char *zip = evgen_test_format("%s%s.zip", TRACES, name);
    if (!evgen_test_exists(zip)) {
        free(zip);
        return NULL;
    }
    *dir = evgen_test_tempdir();
    const char *argv[] = {CMAKE_EXE, "-E", "tar", "xf", zip, NULL};
    free(evgen_test_must_run(argv, *dir));
    free(zip);
    char *path = evgen_test_format("%s/%s", *dir, name);
    assert_true(evgen_test_exists(path));
    return path;
}

char *real_trace_unzip(char **dir)
{
    return real_trace_unzip_named(REAL_TRACE_NAME, dir);
}

void real_trace_remove(char *dir, char *path)
{
    if (dir)
        evgen_test_rmtree(dir);
    free(dir);
    free(path);
}

static char *dup_range(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    assert_non_null(d);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static int is_header_attr(const char *name)
{
    static const char *const skip[] = {"MSec", "PID", "PName", "TID", "EventName", "ProviderName",
                                       "FormattedMessage", "Type"};
    for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
        if (strcmp(name, skip[i]) == 0)
            return 1;
    return 0;
}

/* The attributes of the first XML element of `xml`: name="value" pairs up to '>' . */
static void parse_attrs(baseline_line *l, const char *xml)
{
    const char *p = strstr(xml, "<Event ");
    assert_non_null(p);
    p += 7;
    size_t cap = 8;
    l->attrs = calloc(cap, sizeof *l->attrs);
    while (*p && *p != '>' && !(p[0] == '/' && p[1] == '>')) {
        while (*p == ' ')
            p++;
        const char *eq = strchr(p, '=');
        if (!eq)
            break;
        char *name = dup_range(p, (size_t)(eq - p));
        const char *v = eq + 1;
        while (*v == ' ') /* PerfView right-aligns MSec: MSec=    "17.9124" */
            v++;
        assert_true(*v == '"');
        v++;
        const char *q = strchr(v, '"');
        assert_non_null(q);
        char *value = dup_range(v, (size_t)(q - v));
        p = q + 1;
        if (strcmp(name, "MSec") == 0) {
            l->msec = strtod(value, NULL);
        } else if (strcmp(name, "TID") == 0) {
            l->tid = strtoull(value, NULL, 10);
        }
        /* "Type" is an attribute of some GC events too: keep it unless it is the sample's. */
        if (is_header_attr(name) && !(strcmp(name, "Type") == 0 && strstr(l->key, "/GC/"))) {
            free(name);
            free(value);
            continue;
        }
        if (l->n_attrs == cap) {
            cap *= 2;
            l->attrs = realloc(l->attrs, cap * sizeof *l->attrs);
            assert_non_null(l->attrs);
        }
        l->attrs[l->n_attrs].name = name;
        l->attrs[l->n_attrs++].value = value;
    }
}

baseline_line *baseline_read(size_t *count)
{
    const char *path = TRACES REAL_TRACE_NAME ".baseline.txt";
    if (!evgen_test_exists(path))
        return NULL;
    char *text = evgen_test_read(path);
    assert_non_null(text);
    size_t cap = 64, n = 0;
    baseline_line *lines = calloc(cap, sizeof *lines);
    char *line = text;
    if ((unsigned char)line[0] == 0xEF && (unsigned char)line[1] == 0xBB && (unsigned char)line[2] == 0xBF)
        line += 3; /* a UTF-8 byte order mark */
    while (line && *line) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char *c1 = strstr(line, ", ");
        if (c1) {
            if (n == cap) {
                cap *= 2;
                lines = realloc(lines, cap * sizeof *lines);
            }
            baseline_line *l = &lines[n++];
            memset(l, 0, sizeof *l);
            l->key = dup_range(line, (size_t)(c1 - line));
            l->count = strtoull(c1 + 2, NULL, 10);
            parse_attrs(l, c1);
        }
        line = next;
    }
    free(text);
    *count = n;
    return lines;
}

void baseline_free(baseline_line *lines, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        for (size_t k = 0; k < lines[i].n_attrs; k++) {
            free(lines[i].attrs[k].name);
            free(lines[i].attrs[k].value);
        }
        free(lines[i].attrs);
        free(lines[i].key);
    }
    free(lines);
}
