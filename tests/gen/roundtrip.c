/* roundtrip.c — the generic round trip of generated code: values derived from (event, version,
 * field) for the fire-all harness, the payload each version must have built from the layout of
 * `evgen describe --json` alone, and the check of every record of a trace against it. */
#include "roundtrip.h"

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

#include "evgen/wire_kinds.h"
#include "golden_values.h"
#include "evgen/compat_test.h"
#include "evgen/runtime.h"
#include "test_support.h"
#include "trace_parse.h"

#include "evgen/manifest.h" /* evgen_guid */

/* The values the fire-all harnesses fire: evgen_test_* of libevgen-compat (compat/src/fire_values.c). */

/* ---- expected payloads, from the JSON layout --------------------------------------------- */

typedef struct bytes {
    uint8_t *data;
    size_t len, cap;
} bytes;

static void put(bytes *b, const void *p, size_t n)
{
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2 + 64;
        b->data = realloc(b->data, b->cap);
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static json_object *get(json_object *o, const char *key)
{
    json_object *v = NULL;
    return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static const char *get_str(json_object *o, const char *key)
{
    json_object *v = get(o, key);
    return v ? json_object_get_string(v) : "";
}

static void put_bytes(void *ctx, const void *p, size_t n)
{
    put(ctx, p, n);
}

/* Is `name` the count field of an array of this version? */
static json_object *array_counted_by(json_object *fields, const char *name)
{
    for (size_t i = 0; i < json_object_array_length(fields); i++) {
        json_object *f = json_object_array_get_idx(fields, i);
        if (strcmp(get_str(f, "type"), "array") == 0 && strcmp(get_str(f, "count_field"), name) == 0)
            return f;
    }
    return NULL;
}

/* The `structs` entry named `name`. */
static json_object *struct_named(json_object *describe, const char *name)
{
    json_object *structs = get(describe, "structs");
    for (size_t i = 0; structs && i < json_object_array_length(structs); i++)
        if (strcmp(get_str(json_object_array_get_idx(structs, i), "name"), name) == 0)
            return json_object_array_get_idx(structs, i);
    fail_msg("no struct %s in the describe JSON", name);
    return NULL;
}

/* The elements of an array of a variable struct: each member of each element the golden scalar
 * of its kind, back to back (docs/format.md). */
static void put_variable_elements(bytes *b, json_object *st, uint64_t v, uint64_t count)
{
    json_object *members = get(st, "members");
    for (uint32_t k = 0; k < count; k++)
        for (size_t m = 0; m < json_object_array_length(members); m++) {
            const char *type = get_str(json_object_array_get_idx(members, m), "type");
            unsigned kind = evgen_wire_kind_by_spelling(type, strlen(type));
            evgen_golden_scalar(kind, evgen_wire_kind_size(kind, 8), evgen_golden_member_value(v, k, (uint32_t)m),
                                put_bytes, b);
        }
}

/* The payload a version must have, built field by field; checks the JSON's fixed offsets too. */
static bytes expected_payload(json_object *describe, const char *event, unsigned version, json_object *fields)
{
    bytes b = {NULL, 0, 0};
    uint64_t counts[64] = {0};
    bool fixed = true;
    for (size_t i = 0; i < json_object_array_length(fields); i++) {
        json_object *f = json_object_array_get_idx(fields, i);
        const char *name = get_str(f, "name"), *type = get_str(f, "type");
        json_object *offset = get(f, "offset");
        if (fixed && offset && !json_object_is_type(offset, json_type_null) &&
            (size_t)json_object_get_int(offset) != b.len)
            fail_msg("%s v%u: JSON puts %s at %d, the payload has it at %zu", event, version, name,
                     json_object_get_int(offset), b.len);
        uint64_t v = evgen_test_value(event, version, name);
        if (array_counted_by(fields, name))
            v = counts[i] = evgen_test_count(event, version, name);
        if (strcmp(type, "array") == 0) {
            size_t count_index = 0;
            for (size_t k = 0; k < i; k++)
                if (strcmp(get_str(json_object_array_get_idx(fields, k), "name"), get_str(f, "count_field")) == 0)
                    count_index = k;
            json_object *element_size = get(f, "element_size");
            if (json_object_is_type(element_size, json_type_null)) {
                put_variable_elements(&b, struct_named(describe, get_str(f, "struct")), v, counts[count_index]);
                fixed = false;
                continue;
            }
            size_t n = (size_t)counts[count_index] * (size_t)json_object_get_int(element_size);
            for (size_t k = 0; k < n; k++) {
                uint8_t byte = evgen_golden_byte(v, k);
                put(&b, &byte, 1);
            }
            fixed = false;
        } else {
            /* A scalar or string of the kind `evgen describe` names (the wire's kinds table), with
             * its golden bytes (compat/golden: the bytes golden traces hold for it). */
            unsigned kind = evgen_wire_kind_by_spelling(type, strlen(type));
            if (!kind || kind == EVGEN_WIRE_STRUCT)
                fail_msg("%s v%u: unknown type %s", event, version, type);
            evgen_golden_scalar(kind, evgen_wire_kind_size(kind, 8), v, put_bytes, &b);
            fixed = fixed && evgen_wire_kind_is_fixed(kind);
        }
    }
    return b;
}

/* ---- the round trip ---------------------------------------------------------------------- */

static const tp_event *record_event(const tp_trace *t, const tp_record *r, uint64_t *version)
{
    const tp_type *type = &t->types[r->type];
    const tp_event *e = &t->manifests[type->manifest].events[type->event];
    *version = e->versions[type->version].version;
    return e;
}

size_t roundtrip_check(const char *manifest_rel, size_t (*fire_all)(void))
{
    const char *argv[] = {EVGEN_EXE, "describe", manifest_rel, "--json", NULL};
    char *json = NULL;
    assert_int_equal(evgen_test_run(argv, EVGEN_SOURCE_DIR, &json, NULL), 0);
    json_object *root = json_tokener_parse(json);
    assert_non_null(root);
    json_object *events = get(root, "events");
    size_t n_versions = 0;
    for (size_t i = 0; i < json_object_array_length(events); i++)
        n_versions += json_object_array_length(get(json_object_array_get_idx(events, i), "versions"));

    evgen_session *s = evgen_session_open_memory(NULL);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    size_t fired = fire_all();
    assert_int_equal(fired, n_versions);
    evgen_session_totals totals;
    uint8_t *trace = NULL;
    size_t size = 0;
    assert_int_equal(evgen_session_close(s, &totals, &trace, &size), 0);
    assert_int_equal(totals.written, n_versions);
    tp_trace parsed;
    tp_records records = {NULL, 0, 0};
    if (tp_parse(trace, size, tp_collect, &records, &parsed) != 0)
        fail_msg("trace does not parse: %s", parsed.error);
    assert_int_equal(records.n, n_versions);

    for (size_t r = 0; r < records.n; r++) {
        uint64_t version;
        const tp_event *e = record_event(&parsed, &records.items[r], &version);
        json_object *fields = NULL;
        for (size_t i = 0; i < json_object_array_length(events) && !fields; i++) {
            json_object *je = json_object_array_get_idx(events, i);
            if (strcmp(get_str(je, "name"), e->name) != 0)
                continue;
            assert_int_equal(json_object_get_int64(get(je, "id")), e->id);
            json_object *versions = get(je, "versions");
            for (size_t v = 0; v < json_object_array_length(versions); v++)
                if ((uint64_t)json_object_get_int(get(json_object_array_get_idx(versions, v), "version")) == version)
                    fields = get(json_object_array_get_idx(versions, v), "fields");
        }
        if (!fields)
            fail_msg("record %zu: %s v%llu is not in the describe JSON", r, e->name, (unsigned long long)version);
        bytes want = expected_payload(root, e->name, (unsigned)version, fields);
        const tp_record *rec = &records.items[r];
        if (rec->size != want.len || (want.len && memcmp(rec->payload, want.data, want.len) != 0)) {
            size_t at = 0;
            while (at < rec->size && at < want.len && rec->payload[at] == want.data[at])
                at++;
            fail_msg("%s v%llu: payload of %u bytes differs from the %zu expected, from byte %zu", e->name,
                     (unsigned long long)version, rec->size, want.len, at);
        }
        free(want.data);
    }
    tp_records_free(&records);
    tp_free(&parsed);
    evgen_session_totals_free(&totals);
    free(trace);
    json_object_put(root);
    free(json);
    return n_versions;
}

void roundtrip_free(void)
{
    evgen_compat_fire_values_free();
}
