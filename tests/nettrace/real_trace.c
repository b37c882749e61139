/* real_trace.c — the real trace and its baseline for the tests (real_trace.h). */
#include "real_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>

#include "evgen/reader.h"
#include "evgen/wire_bytes.h"
#include "evgen/wire_kinds.h"
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

/* XML's five entities and numeric character references, in place (values only shrink). */
static char *xml_unescape(char *s)
{
    static const struct {
        const char *entity, *text;
    } entities[] = {{"&quot;", "\""}, {"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&apos;", "'"}};
    char *w = s;
    for (const char *r = s; *r;) {
        int done = 0;
        for (size_t i = 0; i < sizeof entities / sizeof entities[0] && !done; i++) {
            size_t n = strlen(entities[i].entity);
            if (strncmp(r, entities[i].entity, n) == 0) {
                *w++ = entities[i].text[0];
                r += n;
                done = 1;
            }
        }
        if (!done && r[0] == '&' && r[1] == '#') {
            char *end;
            unsigned long cp = r[2] == 'x' ? strtoul(r + 3, &end, 16) : strtoul(r + 2, &end, 10);
            if (*end == ';' && cp < 0x80) { /* the baselines only escape ASCII this way */
                *w++ = (char)cp;
                r = end + 1;
                done = 1;
            }
        }
        if (!done)
            *w++ = *r++;
    }
    *w = '\0';
    return s;
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
        char *value = xml_unescape(dup_range(v, (size_t)(q - v)));
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
    return baseline_read_named(REAL_TRACE_NAME, count);
}

baseline_line *baseline_read_named(const char *name, size_t *count)
{
    char *path = evgen_test_format("%s%s.baseline.txt", TRACES, name);
    if (!evgen_test_exists(path)) {
        free(path);
        return NULL;
    }
    char *text = evgen_test_read(path);
    free(path);
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

/* ---- field values ------------------------------------------------------------------------------ */

static uint64_t mask(unsigned size)
{
    return size >= 8 ? ~(uint64_t)0 : (((uint64_t)1 << (8 * size)) - 1);
}

/* An integer as PerfView prints it: 0x hex, decimal with thousands separators, maybe negative. */
static int parse_number(const char *s, size_t len, uint64_t *out)
{
    char buf[64];
    size_t n = 0;
    for (size_t i = 0; i < len && n + 1 < sizeof buf; i++)
        if (s[i] != ',')
            buf[n++] = s[i];
    buf[n] = '\0';
    char *end;
    if (buf[0] == '0' && buf[1] == 'x')
        *out = strtoull(buf + 2, &end, 16);
    else if (buf[0] == '-' || (buf[0] >= '0' && buf[0] <= '9'))
        *out = (uint64_t)strtoll(buf, &end, 10);
    else
        return 0;
    return *end == '\0';
}

/* The value of an enum name, or of a ", "-separated list of flag names; 0 if a name is unknown. */
static int enum_value(const evgen_trace_enum *en, const char *text, uint64_t *out)
{
    *out = 0;
    const char *p = text;
    while (*p) {
        const char *e = strstr(p, ", ");
        size_t n = e ? (size_t)(e - p) : strlen(p);
        int found = 0;
        for (uint32_t i = 0; i < en->n_consts && !found; i++)
            if (strlen(en->consts[i].name) == n && memcmp(en->consts[i].name, p, n) == 0) {
                *out |= (uint64_t)en->consts[i].value;
                found = 1;
            }
        if (!found)
            return 0;
        p += n + (e ? 2 : 0);
    }
    return 1;
}

static int is_integer_kind(unsigned kind) /* integers, bools and pointers: compared as numbers */
{
    evgen_wire_class c = evgen_wire_kind_class(kind);
    return c == EVGEN_WIRE_CLASS_UNSIGNED || c == EVGEN_WIRE_CLASS_SIGNED || c == EVGEN_WIRE_CLASS_BOOL ||
           c == EVGEN_WIRE_CLASS_POINTER;
}

/* An array field against PerfView's "[a,b,c]" (integers), or a char array (UTF-16 units) against
 * the string PerfView makes of it. 1 compared, 0 not comparable. */
static int compare_array(const evgen_trace_field *fd, const uint8_t *p, uint32_t size, const baseline_attr *a,
                         const char *key, unsigned pointer_size)
{
    unsigned elem = evgen_wire_kind_size(fd->kind, pointer_size);
    if (!elem || !is_integer_kind(fd->kind))
        return 0;
    if (a->value[0] != '[') {
        if (fd->kind != 2)
            return 0;
        char text[512];
        evgen_utf16_to_utf8((evgen_utf16_view){p, size / 2}, text, sizeof text);
        if (strcmp(text, a->value) != 0)
            fail_msg("%s: %s is \"%s\" as characters, the baseline has \"%s\"", key, a->name, text, a->value);
        return 1;
    }
    const char *v = a->value + 1;
    uint32_t count = size / elem, i = 0;
    for (; *v && *v != ']'; i++) {
        size_t n = strcspn(v, ",]");
        uint64_t want;
        if (!parse_number(v, n, &want))
            fail_msg("%s: %s element %u of the baseline, '%.*s', is not a number", key, a->name, i, (int)n, v);
        if (i >= count)
            fail_msg("%s: %s has %u elements, the baseline more", key, a->name, count);
        uint64_t got = evgen_wire_load(p + (size_t)i * elem, elem);
        if ((got & mask(elem)) != (want & mask(elem)))
            fail_msg("%s: %s[%u] is 0x%llx, the baseline has %.*s", key, a->name, i, (unsigned long long)got, (int)n, v);
        v += n + (v[n] == ',');
    }
    if (i != count)
        fail_msg("%s: %s has %u elements, the baseline %u", key, a->name, count, i);
    return 1;
}

int baseline_compare_attr(const evgen_event *ev, const baseline_attr *a, const char *key)
{
    const evgen_trace_version *v = ev->layout;
    for (uint32_t i = 0; i < v->n_fields; i++) {
        const evgen_trace_field *fd = &v->fields[i];
        if (strcmp(fd->name, a->name) != 0)
            continue;
        uint32_t off, size;
        if (!evgen_event_field(ev, i, &off, &size))
            fail_msg("%s: field %s is not in the payload", key, a->name);
        const uint8_t *p = ev->payload + off;
        if (fd->is_array)
            return compare_array(fd, p, size, a, key, ev->pointer_size);
        if (fd->kind == 15 || fd->kind == 16) { /* utf8z, utf16z */
            char text[512];
            if (fd->kind == 16)
                evgen_utf16_to_utf8((evgen_utf16_view){p, size / 2 - 1}, text, sizeof text);
            else
                snprintf(text, sizeof text, "%.*s", (int)(size - 1), (const char *)p);
            if (strcmp(text, a->value) != 0)
                fail_msg("%s: %s is \"%s\", the baseline has \"%s\"", key, a->name, text, a->value);
            return 1;
        }
        if (fd->kind == 9 || fd->kind == 10) {
            double d;
            if (fd->kind == 9) {
                float x;
                memcpy(&x, p, 4);
                d = x;
            } else {
                memcpy(&d, p, 8);
            }
            double b = strtod(a->value, NULL);
            if (d - b > 1e-6 * (b < 0 ? -b : b) + 1e-9 || b - d > 1e-6 * (b < 0 ? -b : b) + 1e-9)
                fail_msg("%s: %s is %g, the baseline has %s", key, a->name, d, a->value);
            return 1;
        }
        if (!is_integer_kind(fd->kind))
            return 0;
        uint64_t got = evgen_wire_load(p, size), want = 0;
        if (!parse_number(a->value, strlen(a->value), &want)) {
            const evgen_trace_manifest *m = ev->info->manifest;
            if (fd->enum_index < 0 || (uint32_t)fd->enum_index >= m->n_enums)
                return 0; /* names of a value map the manifest keeps as a plain integer */
            if (!enum_value(&m->enums[fd->enum_index], a->value, &want))
                fail_msg("%s: %s is %llu, the baseline has '%s', which no enum name of the field gives", key,
                         a->name, (unsigned long long)got, a->value);
        }
        if ((got & mask(size)) != (want & mask(size)))
            fail_msg("%s: %s is 0x%llx, the baseline has %s", key, a->name, (unsigned long long)got, a->value);
        return 1;
    }
    return 0;
}
