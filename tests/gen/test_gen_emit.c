/* test_gen_emit.c — the generated FireEtw functions of manifest/gcevents.h, run: their payloads
 * equal bytes built independently of the generator — by hand for GCHeapStats v2, and for every
 * version of every event from the layout `evgen describe --json` prints and values derived from
 * (event, version, field) — and the trace tells each record's event and version. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "evgen/runtime.h"
#include "gcevents_runtime.h"
#include "test_support.h"
#include "trace_parse.h"

size_t gcevents_fire_all(void);
int disabled_build_fire(int *evaluations); /* disabled_tu.c, compiled with EVGEN_DISABLE */

/* ---- values derived from (event, version, field) ---------------------------------------- */

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t hash_string(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

uint64_t evgen_test_value(const char *event, unsigned version, const char *field);
uint32_t evgen_test_count(const char *event, unsigned version, const char *field);
const char *evgen_test_utf8(const char *event, unsigned version, const char *field);
const evgen_char16 *evgen_test_utf16(const char *event, unsigned version, const char *field);
const void *evgen_test_array(const char *event, unsigned version, const char *field, uint32_t count,
                             size_t element_size);
void evgen_test_guid(evgen_guid *guid, const char *event, unsigned version, const char *field);

uint64_t evgen_test_value(const char *event, unsigned version, const char *field)
{
    return mix(hash_string(event) ^ mix(version + 1) ^ (hash_string(field) * 31));
}

/* Arrays get 0 to 3 elements. */
uint32_t evgen_test_count(const char *event, unsigned version, const char *field)
{
    return (uint32_t)(evgen_test_value(event, version, field) % 4);
}

/* Strings are empty, short or long (300 characters), by value. */
static size_t string_length(uint64_t v)
{
    return v % 3 == 0 ? 0 : v % 3 == 1 ? 5 : 300;
}

static uint16_t string_unit(uint64_t v, size_t i)
{
    static const uint16_t extra[] = {0x00e9, 0x4e2d, 0x0416}; /* é, 中, Ж: real UTF-16 */
    return i % 11 == 10 ? extra[(v + i) % 3] : (uint16_t)('a' + (v + i * 7) % 26);
}

#define RING 16
static void *ring[RING];
static size_t ring_next;

static void *ring_buffer(size_t size)
{
    size_t i = ring_next++ % RING;
    free(ring[i]);
    ring[i] = calloc(1, size ? size : 1);
    return ring[i];
}

const char *evgen_test_utf8(const char *event, unsigned version, const char *field)
{
    uint64_t v = evgen_test_value(event, version, field);
    size_t n = string_length(v);
    char *s = ring_buffer(n + 1);
    for (size_t i = 0; i < n; i++)
        s[i] = (char)('a' + (v + i * 7) % 26);
    return s;
}

const evgen_char16 *evgen_test_utf16(const char *event, unsigned version, const char *field)
{
    uint64_t v = evgen_test_value(event, version, field);
    size_t n = string_length(v);
    evgen_char16 *s = ring_buffer(2 * (n + 1));
    for (size_t i = 0; i < n; i++)
        s[i] = string_unit(v, i);
    return s;
}

static uint8_t array_byte(uint64_t v, size_t i)
{
    return (uint8_t)((v >> (8 * (i % 8))) ^ i);
}

const void *evgen_test_array(const char *event, unsigned version, const char *field, uint32_t count,
                             size_t element_size)
{
    uint64_t v = evgen_test_value(event, version, field);
    size_t n = (size_t)count * element_size;
    uint8_t *a = ring_buffer(n);
    for (size_t i = 0; i < n; i++)
        a[i] = array_byte(v, i);
    return a;
}

void evgen_test_guid(evgen_guid *guid, const char *event, unsigned version, const char *field)
{
    uint64_t v = evgen_test_value(event, version, field);
    uint8_t bytes[16];
    for (size_t i = 0; i < 16; i++)
        bytes[i] = array_byte(v, i + 3);
    memcpy(guid, bytes, 16);
}

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

static void put_le(bytes *b, uint64_t v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t byte = (uint8_t)(v >> (8 * i));
        put(b, &byte, 1);
    }
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

static size_t scalar_size(const char *type)
{
    static const struct {
        const char *name;
        size_t size;
    } sizes[] = {{"uint8", 1},  {"int8", 1},    {"bool8", 1},   {"uint16", 2},  {"int16", 2},
                 {"uint32", 4}, {"int32", 4},   {"bool32", 4},  {"float32", 4}, {"uint64", 8},
                 {"int64", 8},  {"float64", 8}, {"ptr", 8},     {"guid", 16}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(type, sizes[i].name) == 0)
            return sizes[i].size;
    return 0;
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

/* The payload a version must have, built field by field; checks the JSON's fixed offsets too. */
static bytes expected_payload(const char *event, unsigned version, json_object *fields)
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
            size_t n = (size_t)counts[count_index] * (size_t)json_object_get_int(get(f, "element_size"));
            for (size_t k = 0; k < n; k++) {
                uint8_t byte = array_byte(v, k);
                put(&b, &byte, 1);
            }
            fixed = false;
        } else if (strcmp(type, "utf8z") == 0 || strcmp(type, "utf16z") == 0) {
            size_t n = string_length(v), unit = type[3] == '8' ? 1 : 2;
            for (size_t k = 0; k < n; k++)
                put_le(&b, unit == 1 ? (uint64_t)('a' + (v + k * 7) % 26) : string_unit(v, k), unit);
            put_le(&b, 0, unit);
            fixed = false;
        } else if (strcmp(type, "float32") == 0) {
            float x = (float)(v % 1000000) / 4.0f;
            put(&b, &x, 4);
        } else if (strcmp(type, "float64") == 0) {
            double x = (double)(v % 1000000) / 4.0;
            put(&b, &x, 8);
        } else if (strcmp(type, "bool8") == 0 || strcmp(type, "bool32") == 0) {
            put_le(&b, v & 1, scalar_size(type));
        } else if (strcmp(type, "guid") == 0) {
            for (size_t k = 0; k < 16; k++) {
                uint8_t byte = array_byte(v, k + 3);
                put(&b, &byte, 1);
            }
        } else {
            size_t n = scalar_size(type);
            if (!n)
                fail_msg("%s v%u: unknown type %s", event, version, type);
            put_le(&b, v, n);
        }
    }
    return b;
}

/* ---- sessions ---------------------------------------------------------------------------- */

static evgen_session *open_memory(void)
{
    evgen_session *s = evgen_session_open_memory(NULL);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 5, ~0ull), 0);
    return s;
}

typedef struct closed {
    uint8_t *trace;
    size_t size;
    evgen_session_totals totals;
    tp_trace parsed;
    tp_records records;
} closed;

static void close_and_parse(evgen_session *s, closed *c)
{
    memset(c, 0, sizeof *c);
    assert_int_equal(evgen_session_close(s, &c->totals, &c->trace, &c->size), 0);
    if (tp_parse(c->trace, c->size, tp_collect, &c->records, &c->parsed) != 0)
        fail_msg("trace does not parse: %s", c->parsed.error);
}

static void free_closed(closed *c)
{
    tp_records_free(&c->records);
    tp_free(&c->parsed);
    evgen_session_totals_free(&c->totals);
    free(c->trace);
}

static const tp_event *record_event(const closed *c, const tp_record *r, uint64_t *version)
{
    const tp_type *t = &c->parsed.types[r->type];
    const tp_event *e = &c->parsed.manifests[t->manifest].events[t->event];
    *version = e->versions[t->version].version;
    return e;
}

/* GCHeapStats version 2 with chosen values equals a byte vector written out by hand:
 * 13 fields of version 0 (92 bytes), ClrInstanceID at 92, GenerationSize4 at 94,
 * TotalPromotedSize4 at 102: 110 bytes. */
static void test_gcheapstats_v2_payload_is_the_hand_built_vector(void **state)
{
    (void)state;
    uint8_t want[110];
    size_t o = 0;
    for (uint64_t i = 1; i <= 10; i++) /* GenerationSize0 .. FinalizationPromotedCount */
        for (int k = 0; k < 8; k++)
            want[o++] = (uint8_t)((0x1100000000000000ull * i + i) >> (8 * k));
    for (uint32_t i = 11; i <= 13; i++) /* PinnedObjectCount, SinkBlockCount, GCHandleCount */
        for (int k = 0; k < 4; k++)
            want[o++] = (uint8_t)((0xA0000000u + i) >> (8 * k));
    want[o++] = 0x34; /* ClrInstanceID 0x1234 */
    want[o++] = 0x12;
    assert_int_equal(o, 94);
    for (int k = 0; k < 8; k++) /* GenerationSize4 */
        want[o++] = (uint8_t)(0x0123456789ABCDEFull >> (8 * k));
    for (int k = 0; k < 8; k++) /* TotalPromotedSize4 */
        want[o++] = (uint8_t)(0xFEDCBA9876543210ull >> (8 * k));
    assert_int_equal(o, 110);

    evgen_session *s = open_memory();
    uint64_t g[10];
    for (uint64_t i = 1; i <= 10; i++)
        g[i - 1] = 0x1100000000000000ull * i + i;
    uint32_t status = FireEtwGCHeapStats_V2(g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], 0xA000000Bu,
                                            0xA000000Cu, 0xA000000Du, 0x1234, 0x0123456789ABCDEFull,
                                            0xFEDCBA9876543210ull);
    assert_int_equal(status, EVGEN_EMIT_OK);
    closed c;
    close_and_parse(s, &c);
    assert_int_equal(c.totals.written, 1);
    assert_int_equal(c.records.n, 1);
    uint64_t version;
    const tp_event *e = record_event(&c, &c.records.items[0], &version);
    assert_string_equal(e->name, "GCHeapStats");
    assert_int_equal(e->id, 4);
    assert_int_equal(version, 2);
    assert_int_equal(c.records.items[0].size, 110);
    assert_memory_equal(c.records.items[0].payload, want, 110);
    free_closed(&c);
}

/* Every version of every event, fired by the generated harness, against the JSON layout. */
static void test_every_event_version_round_trips(void **state)
{
    (void)state;
    const char *argv[] = {EVGEN_EXE, "describe", "manifest/gcevents.h", "--json", NULL};
    char *json = NULL;
    assert_int_equal(evgen_test_run(argv, EVGEN_SOURCE_DIR, &json, NULL), 0);
    json_object *root = json_tokener_parse(json);
    assert_non_null(root);

    evgen_session *s = open_memory();
    size_t fired = gcevents_fire_all();
    assert_int_equal(fired, 58);
    closed c;
    close_and_parse(s, &c);
    assert_int_equal(c.totals.written, 58);
    assert_int_equal(c.records.n, 58);

    json_object *events = get(root, "events");
    size_t checked = 0;
    for (size_t r = 0; r < c.records.n; r++) {
        uint64_t version;
        const tp_event *e = record_event(&c, &c.records.items[r], &version);
        json_object *fields = NULL;
        for (size_t i = 0; i < json_object_array_length(events) && !fields; i++) {
            json_object *je = json_object_array_get_idx(events, i);
            if (strcmp(get_str(je, "name"), e->name) != 0)
                continue;
            assert_int_equal(json_object_get_int(get(je, "id")), e->id);
            json_object *versions = get(je, "versions");
            for (size_t v = 0; v < json_object_array_length(versions); v++)
                if ((uint64_t)json_object_get_int(get(json_object_array_get_idx(versions, v), "version")) == version)
                    fields = get(json_object_array_get_idx(versions, v), "fields");
        }
        if (!fields)
            fail_msg("record %zu: %s v%llu is not in the describe JSON", r, e->name, (unsigned long long)version);
        bytes want = expected_payload(e->name, (unsigned)version, fields);
        const tp_record *rec = &c.records.items[r];
        if (rec->size != want.len || (want.len && memcmp(rec->payload, want.data, want.len) != 0))
            fail_msg("%s v%llu: payload of %u bytes differs from the %zu expected", e->name,
                     (unsigned long long)version, rec->size, want.len);
        free(want.data);
        checked++;
    }
    assert_int_equal(checked, 58);
    free_closed(&c);
    json_object_put(root);
    free(json);
}

/* Long strings and many array elements, and the NULL string. */
static void test_long_strings_and_large_arrays(void **state)
{
    (void)state;
    enum { LONG = 10000, MANY = 1000 };
    evgen_char16 *name = calloc(LONG + 1, sizeof *name);
    for (size_t i = 0; i < LONG; i++)
        name[i] = (evgen_char16)(0x4e00 + i % 512);
    GCLOHCompactInfo *values = calloc(MANY, sizeof *values);
    for (size_t i = 0; i < MANY; i++) {
        values[i].TimePlan = (uint32_t)i;
        values[i].TotalRefs = (evgen_ptr)(0x1000 + i);
    }
    evgen_session *s = open_memory();
    assert_int_equal(FireEtwGCAllocationTick_V4(1, 2, 3, 4, (const void *)5, name, 6, (const void *)7, 8), EVGEN_EMIT_OK);
    assert_int_equal(FireEtwGCLOHCompact_V0(9, MANY, values), EVGEN_EMIT_OK);
    assert_int_equal(FireEtwPinObjectAtGCTime_V0(NULL, NULL, 1, NULL, 2), EVGEN_EMIT_OK);
    closed c;
    close_and_parse(s, &c);
    assert_int_equal(c.records.n, 3);
    const tp_record *tick = &c.records.items[0];
    assert_int_equal(tick->size, 26 + 2 * (LONG + 1) + 4 + 8 + 8);
    assert_memory_equal(tick->payload + 26, name, 2 * (LONG + 1));
    const tp_record *compact = &c.records.items[1];
    assert_int_equal(compact->size, 4 + MANY * sizeof(GCLOHCompactInfo));
    assert_memory_equal(compact->payload + 4, values, MANY * sizeof(GCLOHCompactInfo));
    const tp_record *pin = &c.records.items[2];
    assert_int_equal(pin->size, 8 + 8 + 8 + 2 + 2); /* NULL TypeName: the empty string */
    assert_int_equal(pin->payload[24] | pin->payload[25], 0);
    free_closed(&c);
    free(values);
    free(name);
}

static int evaluations;
static uint64_t counted(uint64_t v)
{
    evaluations++;
    return v;
}

/* FIRE_EVENT evaluates no argument while the event is disabled; an enabled event writes bytes. */
static void test_fire_event_and_enablement(void **state)
{
    (void)state;
    evgen_session *s = evgen_session_open_memory(NULL);
    assert_non_null(s);
    evaluations = 0;
    assert_false(EventEnabledGCHeapStats());
    FIRE_EVENT(GCHeapStats, counted(1), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, counted(2), 0);
    assert_int_equal(evaluations, 0);
    assert_int_equal(FireEtwGCHeapStats(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16), EVGEN_EMIT_DISABLED);

    /* Level 4 (Information) keeps GCAllocationTick (Verbose) off. */
    assert_int_equal(evgen_session_enable(s, "Microsoft-Windows-DotNETRuntime", 4, 0x1), 0);
    assert_true(EventEnabledGCHeapStats());
    assert_false(EventEnabledGCAllocationTick());
    assert_false(EventEnabledPinPlugAtGCTime()); /* the private provider */
    FIRE_EVENT(GCHeapStats, counted(1), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, counted(2), 0);
    assert_int_equal(evaluations, 2);
    /* The build with EVGEN_DISABLE records nothing and evaluates nothing, session or not. */
    int disabled_evaluations = 0;
    assert_int_equal(disabled_build_fire(&disabled_evaluations), EVGEN_EMIT_DISABLED);
    assert_int_equal(disabled_evaluations, 0);
    closed c;
    close_and_parse(s, &c);
    assert_int_equal(c.totals.written, 1);
    assert_int_equal(c.records.n, 1);
    assert_int_equal(c.records.items[0].size, 110);
    free_closed(&c);
}

/* A payload over max_payload is refused and counted, never truncated. */
static void test_too_big_is_refused_and_counted(void **state)
{
    (void)state;
    enum { BIG = 70000 };
    uint8_t *data = calloc(1, BIG);
    static const evgen_char16 name[] = {'x', 0};
    evgen_session *s = open_memory();
    assert_int_equal(FireEtwGCDynamicEvent_V0(name, BIG, data, 1), EVGEN_EMIT_TOO_BIG);
    assert_int_equal(FireEtwGCDynamicEvent_V0(name, 100, data, 1), EVGEN_EMIT_OK);
    closed c;
    close_and_parse(s, &c);
    assert_int_equal(c.totals.too_big, 1);
    assert_int_equal(c.totals.written, 1);
    assert_int_equal(c.records.n, 1);
    assert_int_equal(c.records.items[0].size, 4 + 4 + 100 + 2);
    assert_int_equal(c.parsed.end_too_big, 1);
    free_closed(&c);
    free(data);
}

static int teardown(void **state)
{
    (void)state;
    for (size_t i = 0; i < RING; i++)
        free(ring[i]);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gcheapstats_v2_payload_is_the_hand_built_vector),
        cmocka_unit_test(test_every_event_version_round_trips),
        cmocka_unit_test(test_long_strings_and_large_arrays),
        cmocka_unit_test(test_fire_event_and_enablement),
        cmocka_unit_test(test_too_big_is_refused_and_counted),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
