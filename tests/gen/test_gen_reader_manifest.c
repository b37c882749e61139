/* test_gen_reader_manifest.c — NAME_reader_manifest, the metadata a generated reader carries for
 * .nettrace files: its bytes are the metadata block the generated runtime side writes into a trace
 * (found in a trace by its block headers alone), and evgen_manifest_metadata's bytes decode with
 * libevgen-reader into exactly the generated descriptors. Built once per manifest: NAME is its
 * generated prefix (gcevents, good_*), READER_H its generated reader header. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evgen/runtime_desc.h"
#include "reader_helpers.h"
#include READER_H

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define STR2(a) #a
#define STR(a) STR2(a)
#define READER_MANIFEST CAT(NAME, _reader_manifest)
#define MANIFEST_DESC CAT(NAME, _manifest)

extern evgen_manifest_desc MANIFEST_DESC;

enum { BLOCK_HEADER_SIZE = 48, BLOCK_METADATA = 1 };

/* A varint of docs/format.md at *p (below end); advances *p. */
static uint64_t varint(const uint8_t **p, const uint8_t *end)
{
    uint64_t v = 0;
    for (unsigned shift = 0; *p < end && shift < 64; shift += 7) {
        uint8_t b = *(*p)++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
    }
    fail_msg("bad varint");
    return 0;
}

/* A metadata payload's type base, and where what follows it (the name onwards) starts. */
static const uint8_t *after_type_base(const uint8_t *p, size_t size, uint64_t *type_base)
{
    const uint8_t *q = p;
    *type_base = varint(&q, p + size);
    return q;
}

/* Whether a metadata payload names the manifest `name`. */
static int names_manifest(const uint8_t *p, size_t size, const char *name)
{
    uint64_t base;
    const uint8_t *q = after_type_base(p, size, &base);
    uint64_t n = varint(&q, p + size);
    return n == strlen(name) && (size_t)(p + size - q) >= n && memcmp(q, name, n) == 0;
}

static void test_reader_manifest_is_what_the_runtime_writes(void **state)
{
    (void)state;
    assert_string_equal(READER_MANIFEST.name, STR(NAME));
    assert_non_null(READER_MANIFEST.metadata);
    assert_true(READER_MANIFEST.size > 2);
    uint64_t base;
    const uint8_t *ours = after_type_base(READER_MANIFEST.metadata, READER_MANIFEST.size, &base);
    assert_int_equal(base, 0);
    size_t our_size = READER_MANIFEST.size - (size_t)(ours - READER_MANIFEST.metadata);

    /* A trace of the generated runtime side: a session writes the metadata of every registered
     * manifest when it opens. */
    rh_trace trace;
    rh_close_session(rh_open_session(0), &trace);
    rh_block blocks[64];
    size_t n = rh_blocks(trace.data, trace.size, blocks, 64);
    assert_true(n > 0 && n <= 64);
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        if (blocks[i].type != BLOCK_METADATA)
            continue;
        const uint8_t *payload = trace.data + blocks[i].offset + BLOCK_HEADER_SIZE;
        size_t size = blocks[i].end - blocks[i].offset - BLOCK_HEADER_SIZE;
        if (!names_manifest(payload, size, STR(NAME)))
            continue;
        found++;
        /* Byte for byte, but for the type base, the process-wide number the runtime gave the
         * manifest's first type when it registered it. */
        uint64_t written_base;
        const uint8_t *rest = after_type_base(payload, size, &written_base);
        assert_int_equal(written_base, MANIFEST_DESC.type_base);
        assert_int_equal(size - (size_t)(rest - payload), our_size);
        assert_memory_equal(rest, ours, our_size);
    }
    assert_int_equal(found, 1);
    free(trace.data);
}

static void test_manifest_metadata_is_the_reader_manifest(void **state)
{
    (void)state;
    /* The generated descriptors at type base 0 encode to the bytes the generator put in the reader. */
    evgen_manifest_desc desc = MANIFEST_DESC;
    desc.type_base = 0;
    size_t size = 0;
    uint8_t *bytes = evgen_manifest_metadata(&desc, &size);
    assert_non_null(bytes);
    assert_int_equal(size, READER_MANIFEST.size);
    assert_memory_equal(bytes, READER_MANIFEST.metadata, size);
    free(bytes);

    /* As registered: the type base the runtime assigned. */
    bytes = evgen_manifest_metadata(&MANIFEST_DESC, &size);
    assert_non_null(bytes);
    uint64_t base;
    after_type_base(bytes, size, &base);
    assert_int_equal(base, MANIFEST_DESC.type_base);
    free(bytes);

    assert_null(evgen_manifest_metadata(NULL, &size));
    assert_int_equal(size, 0);
}

/* A descriptor of an array indexed by the size its first element declares (runtime_desc.h). */
#define DESC_AT(array, i) ((const void *)((const char *)(array) + (size_t)(i) * (array)[0].size))

/* evgen_manifest_metadata's bytes as the only metadata of a hand-made trace, decoded by the reader,
 * compared with the descriptors they were encoded from, name by name and number by number. */
static void test_manifest_metadata_decodes_with_the_reader(void **state)
{
    (void)state;
    evgen_manifest_desc desc = MANIFEST_DESC;
    desc.type_base = 0; /* the first metadata block of a trace starts at type 0 */
    size_t size = 0;
    uint8_t *bytes = evgen_manifest_metadata(&desc, &size);
    assert_non_null(bytes);
    rh_bytes file = {0}, payload = {0};
    rh_file_header(&file, 1, 1000000000u);
    rh_put(&payload, bytes, size);
    rh_append_block(&file, BLOCK_METADATA, 0, 0, 0, 0, 0, &payload);
    rh_end_block(&file, 0, NULL, NULL);
    free(bytes);

    char *error = NULL;
    const evgen_reader_manifest *manifests[] = {&READER_MANIFEST};
    evgen_reader_options options = {manifests, 1};
    evgen_reader *rd = evgen_reader_open_memory_with(file.data, file.len, &options, &error);
    if (!rd)
        fail_msg("cannot open: %s", error ? error : "?");
    size_t n_problems = 0;
    evgen_reader_problems(rd, &n_problems);
    assert_int_equal(n_problems, 0);

    assert_int_equal(evgen_reader_event_count(rd), desc.n_events);
    const evgen_trace_manifest *tm = NULL;
    for (uint32_t i = 0; i < desc.n_events; i++) {
        const evgen_event_desc *e = DESC_AT(desc.events, i);
        const evgen_trace_event_info *info = evgen_reader_find_event(rd, desc.providers[e->provider], e->name);
        assert_non_null(info);
        assert_string_equal(info->name, e->name);
        assert_int_equal(info->id, e->id);
        assert_int_equal(info->level, e->level);
        assert_int_equal(info->keywords, e->keywords);
        assert_int_equal(info->n_versions, e->n_versions);
        tm = info->manifest;
        for (uint32_t v = 0; v < e->n_versions; v++) {
            const evgen_version_desc *vd = DESC_AT(e->versions, v);
            const evgen_trace_version *tv = &info->versions[v];
            assert_int_equal(tv->version, vd->version);
            assert_int_equal(tv->legacy != 0, (vd->flags & EVGEN_VERSION_LEGACY) != 0);
            /* A version's own level and keywords, else the event's. */
            int own = (vd->flags & EVGEN_VERSION_ATTRIBUTES) != 0;
            assert_int_equal(tv->own_attributes != 0, own);
            assert_int_equal(tv->level, own ? vd->level : e->level);
            assert_int_equal(tv->keywords, own ? vd->keywords : e->keywords);
            /* The reader computes sizes from the field kinds alone (8-byte pointers here). */
            if (vd->flags & EVGEN_VERSION_VARIABLE)
                assert_int_equal(tv->fixed_size, -1);
            else
                assert_int_equal(tv->fixed_size, vd->fixed_size);
            assert_int_equal(tv->n_fields, vd->n_fields);
            for (uint32_t f = 0; f < vd->n_fields; f++) {
                const evgen_field_desc *fd = &vd->fields[f];
                const evgen_trace_field *tf = &tv->fields[f];
                assert_string_equal(tf->name, fd->name);
                assert_int_equal(tf->kind, fd->kind);
                assert_int_equal(tf->is_array != 0, (fd->flags & EVGEN_FIELD_ARRAY) != 0);
                assert_int_equal(tf->enum_index, fd->enum_index);
                assert_int_equal(tf->struct_index, fd->struct_index);
                if (fd->flags & EVGEN_FIELD_ARRAY)
                    assert_int_equal(tf->count_field, fd->count_field);
            }
        }
    }
    if (tm) {
        assert_string_equal(tm->name, desc.name);
        assert_int_equal(tm->n_enums, desc.n_enums);
        for (uint32_t i = 0; i < desc.n_enums; i++) {
            const evgen_enum_desc *en = DESC_AT(desc.enums, i);
            assert_string_equal(tm->enums[i].name, en->name);
            assert_int_equal(tm->enums[i].n_consts, en->n_consts);
            for (uint32_t k = 0; k < en->n_consts; k++) {
                assert_string_equal(tm->enums[i].consts[k].name, en->consts[k].name);
                assert_true(tm->enums[i].consts[k].value == en->consts[k].value);
            }
        }
        assert_int_equal(tm->n_structs, desc.n_structs);
        for (uint32_t i = 0; i < desc.n_structs; i++) {
            const evgen_struct_desc *st = DESC_AT(desc.structs, i);
            assert_string_equal(tm->structs[i].name, st->name);
            assert_int_equal(tm->structs[i].stride, st->stride);
            assert_int_equal(tm->structs[i].n_members, st->n_members);
            for (uint32_t k = 0; k < st->n_members; k++) {
                assert_string_equal(tm->structs[i].members[k].name, st->members[k].name);
                assert_int_equal(tm->structs[i].members[k].kind, st->members[k].kind);
                assert_int_equal(tm->structs[i].members[k].enum_index, st->members[k].enum_index);
                assert_int_equal(tm->structs[i].members[k].offset, st->members[k].offset);
            }
        }
    }
    evgen_reader_close(rd);
    rh_free(&payload);
    rh_free(&file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reader_manifest_is_what_the_runtime_writes),
        cmocka_unit_test(test_manifest_metadata_is_the_reader_manifest),
        cmocka_unit_test(test_manifest_metadata_decodes_with_the_reader),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
