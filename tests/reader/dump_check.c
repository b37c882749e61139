/* dump_check.c — `evgen dump` of a fire-all trace checked value by value: every JSON field
 * (parsed back with json-c) and every text line (rendered here independently) against the values
 * tests/gen/roundtrip.c derives from (event, version, field), with the field types taken from
 * `evgen describe --json` — no code shared with the reader. */
#include "dump_check.h"
#include "evgen/wire_kinds.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "evgen/manifest.h" /* evgen_guid */
#include "reader_helpers.h"
#include "roundtrip.h"
#include "test_support.h"

/* The value functions the fire-all harness calls (tests/gen/roundtrip.c). */
uint64_t evgen_test_value(const char *event, unsigned version, const char *field);
uint32_t evgen_test_count(const char *event, unsigned version, const char *field);
const char *evgen_test_utf8(const char *event, unsigned version, const char *field);
const uint16_t *evgen_test_utf16(const char *event, unsigned version, const char *field);
const void *evgen_test_array(const char *event, unsigned version, const char *field, uint32_t count,
                             size_t element_size);
void evgen_test_guid(evgen_guid *guid, const char *event, unsigned version, const char *field);
uint64_t evgen_test_member(const char *event, unsigned version, const char *field, uint32_t element, size_t member);
const char *evgen_test_member_utf8(const char *event, unsigned version, const char *field, uint32_t element,
                                   size_t member);
const uint16_t *evgen_test_member_utf16(const char *event, unsigned version, const char *field, uint32_t element,
                                        size_t member);
void evgen_test_member_guid(evgen_guid *guid, const char *event, unsigned version, const char *field,
                            uint32_t element, size_t member);

static json_object *get(json_object *o, const char *key)
{
    json_object *v = NULL;
    return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static const char *get_str(json_object *o, const char *key)
{
    json_object *v = get(o, key);
    return v ? json_object_get_string(v) : "";
}

/* ---- a growable string -------------------------------------------------------------------- */

typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->len + (size_t)n + 1 > t->cap) {
        t->cap = (t->len + (size_t)n + 1) * 2;
        t->s = realloc(t->s, t->cap);
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

/* ---- expected values ---------------------------------------------------------------------- */

typedef struct scalar_type {
    unsigned size; /* ptr: 8, as the fire-all harness of this build stores it */
    int is_signed;
    evgen_wire_class cls;
} scalar_type;

/* A fixed-size kind by the spelling `evgen describe` gives it (the wire's kinds table), or NULL. */
static const scalar_type *scalar(const char *type)
{
    static scalar_type st;
    unsigned k = evgen_wire_kind_by_spelling(type, strlen(type));
    if (!evgen_wire_kind_is_fixed(k))
        return NULL;
    st = (scalar_type){evgen_wire_kind_size(k, 8), evgen_wire_kind_is_signed(k), evgen_wire_kind_class(k)};
    return &st;
}

static uint64_t load(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;)
        v = (v << 8) | p[i];
    return v;
}

static int64_t extend(uint64_t v, unsigned n)
{
    if (n < 8 && (v >> (8 * n - 1)) & 1)
        v |= ~(uint64_t)0 << (8 * n);
    return (int64_t)v;
}

static const char *enum_constant(json_object *describe, const char *enum_name, int64_t value)
{
    json_object *enums = get(describe, "enums");
    for (size_t i = 0; enums && i < json_object_array_length(enums); i++) {
        json_object *en = json_object_array_get_idx(enums, i);
        if (strcmp(get_str(en, "name"), enum_name) != 0)
            continue;
        json_object *values = get(en, "values");
        for (size_t k = 0; k < json_object_array_length(values); k++) {
            json_object *c = json_object_array_get_idx(values, k);
            if (json_object_get_int64(get(c, "value")) == value)
                return get_str(c, "name");
        }
    }
    return NULL;
}

static void guid_text(text *t, const uint8_t *g)
{
    add(t, "%08" PRIx32 "-%04x-%04x-%02x%02x-", (uint32_t)load(g, 4), (unsigned)load(g + 4, 2),
        (unsigned)load(g + 6, 2), g[8], g[9]);
    for (int i = 10; i < 16; i++)
        add(t, "%02x", g[i]);
}

/* UTF-16 units (the BMP only: the derived strings have no surrogates) as UTF-8. */
static void utf16_text(text *t, const uint16_t *u)
{
    for (; *u; u++) {
        unsigned c = *u;
        if (c < 0x80)
            add(t, "%c", c);
        else if (c < 0x800)
            add(t, "%c%c", 0xC0 | (c >> 6), 0x80 | (c & 0x3F));
        else
            add(t, "%c%c%c", 0xE0 | (c >> 12), 0x80 | ((c >> 6) & 0x3F), 0x80 | (c & 0x3F));
    }
}

/* A scalar from bytes: its JSON value checked, its text rendering appended. */
static void check_scalar_bytes(json_object *describe, const char *what, const char *type, const char *enum_name,
                               const uint8_t *p, json_object *got, text *t)
{
    const scalar_type *st = scalar(type);
    if (!st)
        fail_msg("%s: unknown type %s", what, type);
    char want_str[64];
    if (st->cls == EVGEN_WIRE_CLASS_FLOAT) {
        double d;
        if (st->size == 4) {
            float f;
            memcpy(&f, p, 4);
            d = f;
        } else {
            memcpy(&d, p, 8);
        }
        if (!json_object_is_type(got, json_type_double) && !json_object_is_type(got, json_type_int))
            fail_msg("%s: not a number", what);
        /* float32 with 9 digits, float64 with 17: each reads back as the same value of its type. */
        if (st->size == 4 ? (float)json_object_get_double(got) != (float)d : json_object_get_double(got) != d)
            fail_msg("%s: %.17g, %.17g fired", what, json_object_get_double(got), d);
        add(t, st->size == 4 ? "%.9g" : "%.17g", d);
    } else if (st->cls == EVGEN_WIRE_CLASS_BOOL) {
        /* 0 and 1 are false and true; another value (an array's raw bytes) stays a number. */
        uint64_t v = load(p, st->size);
        if (v > 1) {
            if (!json_object_is_type(got, json_type_int) || json_object_get_uint64(got) != v)
                fail_msg("%s: not the number %" PRIu64, what, v);
            add(t, "%" PRIu64, v);
        } else {
            if (!json_object_is_type(got, json_type_boolean) || json_object_get_boolean(got) != (v != 0))
                fail_msg("%s: not the boolean %d", what, (int)v);
            add(t, v ? "true" : "false");
        }
    } else if (st->cls == EVGEN_WIRE_CLASS_GUID) {
        text g = {0};
        guid_text(&g, p);
        if (!json_object_is_type(got, json_type_string) || strcmp(json_object_get_string(got), g.s) != 0)
            fail_msg("%s: %s, %s fired", what, json_object_get_string(got), g.s);
        add(t, "%s", g.s);
        free(g.s);
    } else if (st->cls == EVGEN_WIRE_CLASS_POINTER) {
        snprintf(want_str, sizeof want_str, "0x%" PRIx64, load(p, 8));
        if (!json_object_is_type(got, json_type_string) || strcmp(json_object_get_string(got), want_str) != 0)
            fail_msg("%s: %s, %s fired", what, json_object_get_string(got), want_str);
        add(t, "%s", want_str);
    } else {
        uint64_t u = load(p, st->size);
        int64_t s = extend(u, st->size);
        if (!json_object_is_type(got, json_type_int))
            fail_msg("%s: not an integer", what);
        /* Exact integers, unsigned ones beyond 2^63 too. */
        if (st->is_signed ? json_object_get_int64(got) != s : json_object_get_uint64(got) != u)
            fail_msg("%s: %s, %" PRIu64 " fired", what, json_object_to_json_string(got), u);
        if (st->is_signed)
            snprintf(want_str, sizeof want_str, "%" PRId64, s);
        else
            snprintf(want_str, sizeof want_str, "%" PRIu64, u);
        const char *constant = enum_name ? enum_constant(describe, enum_name, st->is_signed ? s : (int64_t)u) : NULL;
        if (constant)
            add(t, "%s(%s)", constant, want_str);
        else
            add(t, "%s", want_str);
    }
}

static json_object *struct_of(json_object *describe, const char *name)
{
    json_object *structs = get(describe, "structs");
    for (size_t i = 0; structs && i < json_object_array_length(structs); i++)
        if (strcmp(get_str(json_object_array_get_idx(structs, i), "name"), name) == 0)
            return json_object_array_get_idx(structs, i);
    fail_msg("no struct %s in the describe JSON", name);
    return NULL;
}

static bool is_count_field(json_object *fields, const char *name)
{
    for (size_t i = 0; i < json_object_array_length(fields); i++) {
        json_object *f = json_object_array_get_idx(fields, i);
        if (strcmp(get_str(f, "type"), "array") == 0 && strcmp(get_str(f, "count_field"), name) == 0)
            return true;
    }
    return false;
}

/* A scalar's bytes as the fire-all harness stores the value `v` (GUIDs: the caller's). */
static void scalar_bytes(const scalar_type *st, uint64_t v, uint8_t bytes[16])
{
    memset(bytes, 0, 16);
    if (st->cls == EVGEN_WIRE_CLASS_FLOAT && st->size == 4) {
        float x = (float)(v % 1000000) / 4.0f;
        memcpy(bytes, &x, 4);
    } else if (st->cls == EVGEN_WIRE_CLASS_FLOAT) {
        double x = (double)(v % 1000000) / 4.0;
        memcpy(bytes, &x, 8);
    } else if (st->cls == EVGEN_WIRE_CLASS_BOOL) {
        bytes[0] = (uint8_t)(v & 1);
    } else {
        for (unsigned k = 0; k < st->size && k < 16; k++)
            bytes[k] = (uint8_t)(v >> (8 * (k % 8)));
    }
}

/* An array of a variable struct (no element size): each member of each element against the value
 * the harness gave it (evgen_test_member*), strings as text, scalars by their bytes. */
static void check_variable_elements(json_object *describe, const char *event, unsigned version, json_object *f,
                                    json_object *got, const char *what, text *t)
{
    const char *name = get_str(f, "name");
    uint32_t count = evgen_test_count(event, version, get_str(f, "count_field"));
    json_object *members = get(struct_of(describe, get_str(f, "struct")), "members");
    if (!json_object_is_type(got, json_type_array) || json_object_array_length(got) != count)
        fail_msg("%s: not an array of %u", what, count);
    add(t, "[");
    for (uint32_t k = 0; k < count; k++) {
        json_object *item = json_object_array_get_idx(got, k);
        add(t, "%s{", k ? "," : "");
        for (size_t m = 0; m < json_object_array_length(members); m++) {
            json_object *mb = json_object_array_get_idx(members, m);
            const char *mtype = get_str(mb, "type");
            char member_what[400];
            snprintf(member_what, sizeof member_what, "%s[%u].%s", what, k, get_str(mb, "name"));
            json_object *value = get(item, get_str(mb, "name"));
            if (!value)
                fail_msg("%s: missing", member_what);
            add(t, "%s%s=", m ? "," : "", get_str(mb, "name"));
            if (strcmp(mtype, "utf8z") == 0 || strcmp(mtype, "utf16z") == 0) {
                text want = {0};
                add(&want, "%s", "");
                if (mtype[3] == '8')
                    add(&want, "%s", evgen_test_member_utf8(event, version, name, k, m));
                else
                    utf16_text(&want, evgen_test_member_utf16(event, version, name, k, m));
                if (!json_object_is_type(value, json_type_string) || strcmp(json_object_get_string(value), want.s) != 0)
                    fail_msg("%s: \"%s\", \"%s\" fired", member_what, json_object_get_string(value), want.s);
                add(t, "\"%s\"", want.s);
                free(want.s);
                continue;
            }
            /* The member's bytes as the harness stored them: its value, little-endian, as a field's. */
            uint64_t v = evgen_test_member(event, version, name, k, m);
            const scalar_type *st = scalar(mtype);
            if (!st)
                fail_msg("%s: unknown type %s", member_what, mtype);
            uint8_t bytes[16];
            scalar_bytes(st, v, bytes);
            if (st->cls == EVGEN_WIRE_CLASS_GUID)
                evgen_test_member_guid((evgen_guid *)(void *)bytes, event, version, name, k, m);
            check_scalar_bytes(describe, member_what, mtype, get(mb, "enum") ? get_str(mb, "enum") : NULL, bytes,
                               value, t);
        }
        add(t, "}");
    }
    add(t, "]");
}

/* One field of one event: the JSON value checked (and the enum name in "names"), the text
 * "Name=value" appended. */
static void check_field(json_object *describe, const char *event, unsigned version, json_object *fields, size_t i,
                        json_object *got_fields, json_object *got_names, text *t)
{
    json_object *f = json_object_array_get_idx(fields, i);
    const char *name = get_str(f, "name"), *type = get_str(f, "type");
    char what[256];
    snprintf(what, sizeof what, "%s v%u %s", event, version, name);
    json_object *got = get(got_fields, name);
    if (!got)
        fail_msg("%s: missing from the JSON", what);
    add(t, " %s=", name);
    uint64_t v = evgen_test_value(event, version, name);
    if (is_count_field(fields, name))
        v = evgen_test_count(event, version, name);
    if (strcmp(type, "utf8z") == 0 || strcmp(type, "utf16z") == 0) {
        text want = {0};
        add(&want, "%s", "");
        if (type[3] == '8')
            add(&want, "%s", evgen_test_utf8(event, version, name));
        else
            utf16_text(&want, evgen_test_utf16(event, version, name));
        if (!json_object_is_type(got, json_type_string) || strcmp(json_object_get_string(got), want.s) != 0)
            fail_msg("%s: \"%s\", \"%s\" fired", what, json_object_get_string(got), want.s);
        add(t, "\"%s\"", want.s);
        free(want.s);
        return;
    }
    if (strcmp(type, "array") == 0 && json_object_is_type(get(f, "element_size"), json_type_null)) {
        check_variable_elements(describe, event, version, f, got, what, t);
        return;
    }
    if (strcmp(type, "array") == 0) {
        uint32_t count = evgen_test_count(event, version, get_str(f, "count_field"));
        size_t elem = (size_t)json_object_get_int(get(f, "element_size"));
        const uint8_t *bytes = evgen_test_array(event, version, name, count, elem);
        const char *element = get_str(f, "element_type");
        if (!json_object_is_type(got, json_type_array) || json_object_array_length(got) != count)
            fail_msg("%s: not an array of %u", what, count);
        add(t, "[");
        for (uint32_t k = 0; k < count; k++) {
            json_object *item = json_object_array_get_idx(got, k);
            char item_what[300];
            snprintf(item_what, sizeof item_what, "%s[%u]", what, k);
            if (k)
                add(t, ",");
            if (strcmp(element, "struct") != 0) {
                check_scalar_bytes(describe, item_what, element, get(f, "enum") ? get_str(f, "enum") : NULL,
                                   bytes + k * elem, item, t);
                continue;
            }
            json_object *st = struct_of(describe, get_str(f, "struct"));
            json_object *members = get(st, "members");
            add(t, "{");
            for (size_t m = 0; m < json_object_array_length(members); m++) {
                json_object *mb = json_object_array_get_idx(members, m);
                char member_what[400];
                snprintf(member_what, sizeof member_what, "%s.%s", item_what, get_str(mb, "name"));
                json_object *value = get(item, get_str(mb, "name"));
                if (!value)
                    fail_msg("%s: missing", member_what);
                add(t, "%s%s=", m ? "," : "", get_str(mb, "name"));
                check_scalar_bytes(describe, member_what, get_str(mb, "type"),
                                   get(mb, "enum") ? get_str(mb, "enum") : NULL,
                                   bytes + k * elem + (size_t)json_object_get_int(get(mb, "offset")), value, t);
            }
            add(t, "}");
        }
        add(t, "]");
        return;
    }
    /* A scalar: the bytes the fire-all harness stored, built from the derived value. */
    uint8_t bytes[16];
    const scalar_type *st = scalar(type);
    if (!st)
        fail_msg("%s: unknown type %s", what, type);
    scalar_bytes(st, v, bytes);
    if (st->cls == EVGEN_WIRE_CLASS_GUID) {
        evgen_guid g;
        evgen_test_guid(&g, event, version, name);
        memcpy(bytes, &g, 16);
    }
    const char *enum_name = get(f, "enum") ? get_str(f, "enum") : NULL;
    check_scalar_bytes(describe, what, type, enum_name, bytes, got, t);
    if (enum_name) { /* JSON: the number in "fields", the constant's name in "names" */
        uint64_t u = load(bytes, st->size);
        const char *constant = enum_constant(describe, enum_name, st->is_signed ? extend(u, st->size) : (int64_t)u);
        json_object *got_name = get(got_names, name);
        if (constant ? !got_name || strcmp(json_object_get_string(got_name), constant) != 0 : got_name != NULL)
            fail_msg("%s: names says %s, the constant is %s", what, got_name ? json_object_get_string(got_name) : "-",
                     constant ? constant : "-");
    }
}

static json_object *describe_version(json_object *describe, const char *event, unsigned version, json_object **ev)
{
    json_object *events = get(describe, "events");
    for (size_t i = 0; i < json_object_array_length(events); i++) {
        json_object *e = json_object_array_get_idx(events, i);
        if (strcmp(get_str(e, "name"), event) != 0)
            continue;
        *ev = e;
        json_object *versions = get(e, "versions");
        for (size_t k = 0; k < json_object_array_length(versions); k++) {
            json_object *v = json_object_array_get_idx(versions, k);
            if ((unsigned)json_object_get_int(get(v, "version")) == version)
                return get(v, "fields");
        }
    }
    fail_msg("%s v%u is not in the describe JSON", event, version);
    return NULL;
}

size_t dump_check_values(const char *manifest_rel, size_t (*fire_all)(void))
{
    const char *describe_argv[] = {EVGEN_EXE, "describe", manifest_rel, "--json", NULL};
    char *json = NULL;
    assert_int_equal(evgen_test_run(describe_argv, EVGEN_SOURCE_DIR, &json, NULL), 0);
    json_object *describe = json_tokener_parse(json);
    assert_non_null(describe);

    rh_trace t;
    rh_record(fire_all, 0, &t);
    char *dir = evgen_test_tempdir();
    char *path = rh_write_file(dir, "fire_all.evtrace", t.data, t.size);

    const char *json_argv[] = {EVGEN_EXE, "dump", "--json", "--order", "file", path, NULL};
    const char *text_argv[] = {EVGEN_EXE, "dump", path, "--order=file", NULL};
    char *out = NULL, *err = NULL, *text_out = NULL, *text_err = NULL;
    assert_int_equal(rh_run(json_argv, &out, NULL, &err), 0);
    assert_string_equal(err, "");
    assert_int_equal(rh_run(text_argv, &text_out, NULL, &text_err), 0);
    assert_string_equal(text_err, "");

    size_t n = 0;
    char *line_save = NULL, *text_line = text_out;
    for (char *line = strtok_r(out, "\n", &line_save); line; line = strtok_r(NULL, "\n", &line_save), n++) {
        json_object *o = json_tokener_parse(line);
        if (!o || !json_object_is_type(o, json_type_object))
            fail_msg("line %zu is not a JSON object: %s", n + 1, line);
        const char *event = get_str(o, "event");
        unsigned version = (unsigned)json_object_get_int(get(o, "version"));
        json_object *ev = NULL;
        json_object *fields = describe_version(describe, event, version, &ev);
        assert_string_equal(get_str(o, "provider"), get_str(ev, "provider"));
        assert_int_equal(json_object_get_int64(get(o, "id")), json_object_get_int64(get(ev, "id")));
        assert_true(json_object_is_type(get(o, "timestamp_ns"), json_type_int));
        assert_true(json_object_is_type(get(o, "thread"), json_type_int));
        assert_null(get(o, "truncated"));
        json_object *got_fields = get(o, "fields");
        assert_non_null(got_fields);
        assert_int_equal(json_object_object_length(got_fields), json_object_array_length(fields));

        /* The text line: the same event, rendered independently here. */
        text want = {0};
        add(&want, "%" PRIu64 " %" PRIu64 " %s_V%u", json_object_get_uint64(get(o, "timestamp_ns")),
            json_object_get_uint64(get(o, "thread")), event, version);
        for (size_t i = 0; i < json_object_array_length(fields); i++)
            check_field(describe, event, version, fields, i, got_fields, get(o, "names"), &want);
        char *nl = strchr(text_line, '\n');
        assert_non_null(nl);
        *nl = '\0';
        if (strcmp(text_line, want.s) != 0)
            fail_msg("text line %zu:\n  got  %s\n  want %s", n + 1, text_line, want.s);
        text_line = nl + 1;
        free(want.s);
        json_object_put(o);
    }
    assert_string_equal(text_line, "");

    free(out);
    free(err);
    free(text_out);
    free(text_err);
    evgen_test_rmtree(dir);
    free(path);
    free(dir);
    free(t.data);
    json_object_put(describe);
    free(json);
    roundtrip_free();
    return n;
}
