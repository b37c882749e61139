/* test_cli.c — the evgen command line, run as a program: describe (text and JSON, read back
 * with json-c), lock and check in a scratch copy, exit codes, and no output on errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "test_support.h"

#define GCEVENTS EVGEN_SOURCE_DIR "/manifest/gcevents.h"

typedef struct run_result {
    int status;
    char *out;
    char *err;
} run_result;

static run_result evgen(const char *cwd, const char *a1, const char *a2, const char *a3, const char *a4)
{
    const char *argv[] = {EVGEN_EXE, a1, a2, a3, a4, NULL};
    run_result r;
    r.status = evgen_test_run(argv, cwd, &r.out, &r.err);
    return r;
}

static void free_result(run_result *r)
{
    free(r->out);
    free(r->err);
}

static void test_describe_text_shows_gcheapstats_v2(void **state)
{
    (void)state;
    run_result r = evgen(NULL, "describe", GCEVENTS, NULL, NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    const char *v2 = strstr(strstr(r.out, "event GCHeapStats "), "version 2: 110 bytes");
    assert_non_null(v2);
    assert_non_null(strstr(v2, "94         GenerationSize4"));
    assert_non_null(strstr(v2, "102        TotalPromotedSize4"));
    free_result(&r);
}

static json_object *get(json_object *obj, const char *key)
{
    json_object *v = NULL;
    if (!json_object_object_get_ex(obj, key, &v))
        fail_msg("missing key '%s' in %s", key, json_object_to_json_string(obj));
    return v;
}

static json_object *find_named(json_object *array, const char *name)
{
    for (size_t i = 0; i < json_object_array_length(array); i++) {
        json_object *item = json_object_array_get_idx(array, i);
        if (strcmp(json_object_get_string(get(item, "name")), name) == 0)
            return item;
    }
    fail_msg("no '%s'", name);
    return NULL;
}

static json_object *version_fields(json_object *event, int version)
{
    json_object *versions = get(event, "versions");
    for (size_t i = 0; i < json_object_array_length(versions); i++) {
        json_object *v = json_object_array_get_idx(versions, i);
        if (json_object_get_int(get(v, "version")) == version)
            return get(v, "fields");
    }
    fail_msg("no version %d", version);
    return NULL;
}

static json_object *version_of(json_object *event, int version)
{
    json_object *versions = get(event, "versions");
    for (size_t i = 0; i < json_object_array_length(versions); i++) {
        json_object *v = json_object_array_get_idx(versions, i);
        if (json_object_get_int(get(v, "version")) == version)
            return v;
    }
    fail_msg("no version %d", version);
    return NULL;
}

/* EVENT_VERSION_ATTRIBUTES: each version's level and keywords, its own or the event's. */
static void test_describe_json_shows_version_attributes(void **state)
{
    (void)state;
    run_result r = evgen(NULL, "describe", EVGEN_SOURCE_DIR "/tests/manifests/good/version-attributes.h", "--json",
                         NULL);
    assert_int_equal(r.status, 0);
    json_object *root = json_tokener_parse(r.out);
    assert_non_null(root);
    json_object *events = get(root, "events");
    json_object *create = find_named(events, "CreateThread");
    assert_int_equal(json_object_get_int64(get(create, "keywords")), 0x10001);
    json_object *v0 = version_of(create, 0), *v1 = version_of(create, 1);
    assert_int_equal(json_object_get_int(get(v0, "level")), 4);
    assert_int_equal(json_object_get_int64(get(v0, "keywords")), 0x1);
    assert_string_equal(json_object_get_string(get(v0, "keywords_hex")), "0x1");
    assert_true(json_object_get_boolean(get(v0, "own_attributes")));
    assert_int_equal(json_object_get_int64(get(v1, "keywords")), 0x10001);
    assert_false(json_object_get_boolean(get(v1, "own_attributes")));
    json_object *sweep = find_named(events, "Sweep");
    assert_int_equal(json_object_get_int(get(version_of(sweep, 0), "level")), 5);
    assert_int_equal(json_object_get_int64(get(version_of(sweep, 0), "keywords")), 0x4);
    assert_int_equal(json_object_get_int(get(version_of(sweep, 1), "level")), 4);
    assert_int_equal(json_object_get_int64(get(version_of(sweep, 1), "keywords")), 0x2);
    assert_int_equal(json_object_get_int(get(version_of(sweep, 2), "level")), 2);
    assert_string_equal(json_object_get_string(get(version_of(sweep, 2), "keywords_hex")), "0xa");
    json_object_put(root);
    free_result(&r);

    /* The text form shows own attributes only. */
    r = evgen(NULL, "describe", EVGEN_SOURCE_DIR "/tests/manifests/good/version-attributes.h", NULL, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "  version 0 (level=4 keywords=0x1): 0 bytes\n  version 1: 2 bytes\n"));
    free_result(&r);
}

static void test_describe_json_follows_the_documented_shape(void **state)
{
    (void)state;
    run_result r = evgen(NULL, "describe", GCEVENTS, "--json", NULL);
    assert_int_equal(r.status, 0);
    json_object *root = json_tokener_parse(r.out);
    assert_non_null(root);
    json_object *providers = get(root, "providers");
    assert_int_equal(json_object_array_length(providers), 2);
    assert_string_equal(json_object_get_string(get(json_object_array_get_idx(providers, 0), "name")),
                        "Microsoft-Windows-DotNETRuntime");
    json_object *events = get(root, "events");
    assert_int_equal(json_object_array_length(events), 78);

    json_object *heap = find_named(events, "GCHeapStats");
    assert_int_equal(json_object_get_int(get(heap, "id")), 4);
    assert_string_equal(json_object_get_string(get(heap, "provider")), "Microsoft-Windows-DotNETRuntime");
    assert_int_equal(json_object_get_int(get(heap, "level")), 4);
    assert_int_equal(json_object_get_int64(get(heap, "keywords")), 1);
    json_object *g4 = find_named(version_fields(heap, 2), "GenerationSize4");
    assert_string_equal(json_object_get_string(get(g4, "type")), "uint64");
    assert_int_equal(json_object_get_int(get(g4, "size")), 8);
    assert_int_equal(json_object_get_int(get(g4, "offset")), 94);
    assert_int_equal(json_object_get_int(get(g4, "since")), 2);
    assert_int_equal(json_object_get_int(get(find_named(version_fields(heap, 2), "TotalPromotedSize4"), "offset")),
                     102);

    /* A variable-length field and what follows it: sizes and offsets are null. */
    json_object *tick = find_named(events, "GCAllocationTick");
    json_object *name = find_named(version_fields(tick, 3), "TypeName");
    assert_true(json_object_is_type(get(name, "size"), json_type_null));
    assert_int_equal(json_object_get_int(get(name, "offset")), 26);
    json_object *heap_index = find_named(version_fields(tick, 3), "HeapIndex");
    assert_true(json_object_is_type(get(heap_index, "offset"), json_type_null));
    assert_string_equal(json_object_get_string(get(heap_index, "after_field")), "TypeName");
    /* Offsets after an evgen_ptr assume 8 bytes and say so. */
    json_object *type_id = find_named(version_fields(tick, 3), "TypeID");
    assert_true(json_object_get_boolean(get(type_id, "pointer_dependent")));
    json_object *kind = find_named(version_fields(tick, 3), "AllocationKind");
    assert_string_equal(json_object_get_string(get(kind, "enum")), "GCAllocationKind");

    /* The legacy version 0 of GCStart: Reason at 4; version 1 on: at 8. */
    json_object *start = find_named(events, "GCStart");
    assert_int_equal(json_object_get_int(get(find_named(version_fields(start, 0), "Reason"), "offset")), 4);
    assert_int_equal(json_object_get_int(get(find_named(version_fields(start, 1), "Reason"), "offset")), 8);
    json_object_put(root);
    free_result(&r);
}

static void test_lock_then_check_in_a_scratch_copy(void **state)
{
    (void)state;
    char *dir = evgen_test_tempdir();
    char *manifest = malloc(strlen(dir) + 32);
    sprintf(manifest, "%s/gcevents.h", dir);
    char *text = evgen_test_read(GCEVENTS);
    evgen_test_write(manifest, text);

    run_result r = evgen(dir, "check", "gcevents.h", NULL, NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "lock file 'gcevents.lock' does not exist"));
    free_result(&r);

    r = evgen(dir, "lock", "gcevents.h", NULL, NULL);
    assert_int_equal(r.status, 0);
    free_result(&r);
    char *lock = malloc(strlen(dir) + 32);
    sprintf(lock, "%s/gcevents.lock", dir);
    char *locked = evgen_test_read(lock);
    char *committed = evgen_test_read(EVGEN_SOURCE_DIR "/manifest/gcevents.lock");
    assert_non_null(locked);
    assert_string_equal(locked, committed); /* the committed lock is what evgen lock writes */

    r = evgen(dir, "check", "gcevents.h", NULL, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "matches"));
    free_result(&r);

    /* A breaking edit: check fails at the manifest line, and lock refuses to write. */
    char *broken = strdup(text);
    char *at = strstr(broken, "EVENT_FIELD(GCHeapStats, 2, uint64_t, GenerationSize4)");
    assert_non_null(at);
    memcpy(at, "EVENT_FIELD(GCHeapStats, 2, uint32_t, GenerationSize4)", 55);
    evgen_test_write(manifest, broken);
    r = evgen(dir, "check", "gcevents.h", NULL, NULL);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "gcevents.h:"));
    assert_non_null(strstr(r.err, ": error: field 'GenerationSize4' of locked version 2 of 'GCHeapStats' is retyped"));
    free_result(&r);
    r = evgen(dir, "lock", "--lock", "other.lock", "gcevents.h");
    assert_int_equal(r.status, 0); /* a new lock path starts a new history */
    free_result(&r);
    r = evgen(dir, "lock", "gcevents.h", NULL, NULL);
    assert_int_equal(r.status, 1);
    char *after = evgen_test_read(lock);
    assert_string_equal(after, committed); /* untouched */
    free_result(&r);

    evgen_test_rmtree(dir);
    free(after);
    free(broken);
    free(committed);
    free(locked);
    free(lock);
    free(text);
    free(manifest);
    free(dir);
}

static void test_errors_and_usage(void **state)
{
    (void)state;
    run_result r = evgen(NULL, "describe", "/nonexistent/manifest.h", NULL, NULL);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "cannot open manifest '/nonexistent/manifest.h'"));
    free_result(&r);

    r = evgen(NULL, "frobnicate", GCEVENTS, NULL, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "unknown command 'frobnicate'"));
    free_result(&r);

    r = evgen(NULL, "describe", GCEVENTS, "--bogus", NULL);
    assert_int_equal(r.status, 2);
    free_result(&r);

    r = evgen(NULL, "--version", NULL, NULL, NULL);
    assert_int_equal(r.status, 0);
    assert_true(strncmp(r.out, "evgen ", 6) == 0);
    free_result(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_describe_text_shows_gcheapstats_v2),
        cmocka_unit_test(test_describe_json_follows_the_documented_shape),
        cmocka_unit_test(test_describe_json_shows_version_attributes),
        cmocka_unit_test(test_lock_then_check_in_a_scratch_copy),
        cmocka_unit_test(test_errors_and_usage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
