/* test_frontend.c — the libclang front end and the lowering, fed manifests held in strings:
 * what the C compiler resolves (typedefs, enums, #defines, -D, includes, struct layout) must
 * land in the model, with offsets, versions and locations right. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/pipeline.h"
#include "model/util.h"
#include "test_support.h"

#define MEMORY_MANIFEST "/virtual/test_manifest.h"

typedef struct loaded {
    evgen_model model;
    evgen_diags diags;
    int rc;
} loaded;

static loaded *load(const char *text, const char *const *args, size_t n_args)
{
    loaded *l = evgen_xcalloc(1, sizeof *l);
    evgen_frontend_options opts = {MEMORY_MANIFEST, args, n_args, text, NULL};
    evgen_model_init(&l->model);
    evgen_diags_init(&l->diags);
    l->rc = evgen_load_manifest(&opts, &l->model, &l->diags);
    if (l->rc != 0)
        evgen_diags_print(&l->diags, stderr);
    return l;
}

static void unload(loaded *l)
{
    evgen_model_free(&l->model);
    evgen_diags_free(&l->diags);
    free(l);
}

static const evgen_model_slot *slot(const evgen_model *m, const char *event, unsigned version, size_t index)
{
    const evgen_model_event *e = evgen_model_find_event(m, event);
    assert_non_null(e);
    const evgen_model_version *v = evgen_model_event_version(e, version);
    assert_non_null(v);
    assert_true(index < v->n_slots);
    return &v->slots[index];
}

static void test_constants_enums_and_typedefs_are_resolved_by_the_compiler(void **state)
{
    (void)state;
    const char *text = "#include <evgen/manifest.h>\n"
                       "#ifndef T_TYPES\n#define T_TYPES\n"
                       "#define BASE_ID 40\n"
                       "enum { LevelInfo = 4 };\n"
                       "typedef uint32_t Count32;\n"
                       "typedef Count32 Count32Again;\n"
                       "typedef enum Color { Color_Red = 1, Color_Green = 2 } Color;\n"
                       "typedef enum Mixed { First = 0, Mixed_Second = 1 } Mixed;\n"
                       "#endif\n"
                       "EVENT_PROVIDER(P, \"Test-Provider\")\n"
                       "KNOWN_EVENT(E, BASE_ID + 2, P, LevelInfo, (1ull << 40) | 0x3)\n"
                       "EVENT_FIELD(E, 0, Count32Again, A)\n"
                       "EVENT_FIELD(E, 0, Color, C)\n"
                       "EVENT_FIELD(E, 0, Mixed, M)\n"
                       "EVENT_FIELD(E, 0, bool, B)\n"
                       "EVENT_FIELD(E, 0, double, D)\n"
                       "#include <evgen/manifest_end.h>\n";
    loaded *l = load(text, NULL, 0);
    assert_int_equal(l->rc, 0);
    const evgen_model_event *e = evgen_model_find_event(&l->model, "E");
    assert_int_equal(e->id, 42);
    assert_int_equal(e->level, 4);
    assert_true(e->keywords == ((1ull << 40) | 3));
    assert_string_equal(l->model.providers[e->provider_index].name, "Test-Provider");
    assert_int_equal(slot(&l->model, "E", 0, 0)->field->type.kind, EVGEN_WIRE_U32);
    const evgen_model_field *c = slot(&l->model, "E", 0, 1)->field;
    assert_int_equal(c->type.kind, EVGEN_WIRE_U32);
    assert_true(c->type.enum_index >= 0);
    const evgen_model_enum *color = &l->model.enums[c->type.enum_index];
    assert_string_equal(color->name, "Color");
    assert_int_equal(color->n_consts, 2);
    assert_string_equal(color->consts[0].display_name, "Red"); /* prefix stripped */
    assert_string_equal(color->consts[1].name, "Color_Green");
    assert_int_equal(color->consts[1].value, 2);
    /* Not every constant has the prefix: names are kept whole. */
    const evgen_model_enum *mixed = &l->model.enums[slot(&l->model, "E", 0, 2)->field->type.enum_index];
    assert_string_equal(mixed->consts[1].display_name, "Mixed_Second");
    assert_int_equal(slot(&l->model, "E", 0, 3)->field->type.kind, EVGEN_WIRE_BOOL8);
    assert_int_equal(slot(&l->model, "E", 0, 3)->offset, 12);
    assert_int_equal(slot(&l->model, "E", 0, 4)->offset, 13);
    assert_int_equal(evgen_model_event_version(e, 0)->fixed_size, 21);
    unload(l);
}

static void test_offsets_after_variable_length_fields_and_pointers(void **state)
{
    (void)state;
    const char *text = "#include <evgen/manifest.h>\n"
                       "EVENT_PROVIDER(P, \"P\")\n"
                       "KNOWN_EVENT(E, 1, P, 4, 1)\n"
                       "EVENT_FIELD(E, 0, uint16_t, Count)\n"
                       "EVENT_FIELD(E, 0, evgen_ptr, Where)\n"
                       "EVENT_FIELD(E, 0, evgen_utf16z, Name)\n"
                       "EVENT_FIELD(E, 0, evgen_ptr, After1)\n"
                       "EVENT_FIELD(E, 0, uint32_t, After2)\n"
                       "EVENT_ARRAY(E, 0, uint64_t, Values, Count)\n"
                       "EVENT_FIELD(E, 0, evgen_guid, Id)\n"
                       "#include <evgen/manifest_end.h>\n";
    loaded *l = load(text, NULL, 0);
    assert_int_equal(l->rc, 0);
    const evgen_model_version *v = evgen_model_event_version(evgen_model_find_event(&l->model, "E"), 0);
    assert_true(v->variable_size);
    assert_true(v->pointer_dependent);
    assert_int_equal(v->slots[1].offset, 2);
    assert_int_equal(v->slots[2].offset, 10); /* after an 8-byte pointer */
    assert_int_equal(v->slots[2].ptrs_before, 1);
    assert_int_equal(v->slots[3].after, 2); /* after Name */
    assert_int_equal(v->slots[3].offset, 0);
    assert_int_equal(v->slots[4].after, 2);
    assert_int_equal(v->slots[4].offset, 8);
    assert_int_equal(v->slots[4].ptrs_before, 1);
    assert_int_equal(v->slots[5].size, 0);
    assert_int_equal(v->slots[5].field->count_index, 0);
    assert_int_equal(v->slots[6].after, 5); /* after Values */
    assert_int_equal(v->slots[6].size, 16);
    unload(l);
}

static void test_versions_first_explicit_and_legacy(void **state)
{
    (void)state;
    const char *text = "#include <evgen/manifest.h>\n"
                       "EVENT_PROVIDER(P, \"P\")\n"
                       "KNOWN_EVENT(Late, 1, P, 4, 1)\n"
                       "EVENT_FIELD(Late, 3, uint32_t, A)\n"
                       "KNOWN_EVENT(Empty0, 2, P, 4, 1)\n"
                       "EVENT_VERSION(Empty0, 0)\n"
                       "EVENT_FIELD(Empty0, 1, uint16_t, Id)\n"
                       "EVENT_VERSION(Empty0, 2)\n"
                       "KNOWN_EVENT(Old, 3, P, 4, 1)\n"
                       "EVENT_LEGACY_FIELD(Old, 0, uint32_t, Count)\n"
                       "EVENT_LEGACY_FIELD(Old, 0, uint16_t, Depth)\n"
                       "EVENT_FIELD(Old, 0, uint32_t, Count)\n"
                       "EVENT_FIELD(Old, 1, uint32_t, Inserted)\n"
                       "EVENT_FIELD(Old, 0, uint32_t, Depth)\n"
                       "EVENT_FIELD(Old, 2, uint64_t, Appended)\n"
                       "KNOWN_EVENT(NoFields, 4, P, 4, 1)\n"
                       "#include <evgen/manifest_end.h>\n";
    loaded *l = load(text, NULL, 0);
    assert_int_equal(l->rc, 0);
    const evgen_model_event *late = evgen_model_find_event(&l->model, "Late");
    assert_int_equal(late->first_version, 3);
    assert_int_equal(late->latest_version, 3);
    assert_null(evgen_model_event_version(late, 2));
    const evgen_model_event *empty = evgen_model_find_event(&l->model, "Empty0");
    assert_int_equal(empty->first_version, 0);
    assert_int_equal(empty->latest_version, 2);
    assert_int_equal(evgen_model_event_version(empty, 0)->n_slots, 0);
    assert_int_equal(evgen_model_event_version(empty, 2)->n_slots, 1);
    const evgen_model_event *old = evgen_model_find_event(&l->model, "Old");
    const evgen_model_version *v0 = evgen_model_event_version(old, 0);
    assert_true(v0->legacy);
    assert_int_equal(v0->fixed_size, 6);
    assert_int_equal(v0->slots[1].field->type.kind, EVGEN_WIRE_U16);
    const evgen_model_version *v1 = evgen_model_event_version(old, 1);
    assert_false(v1->legacy);
    assert_string_equal(v1->slots[1].field->name, "Inserted");
    assert_int_equal(v1->slots[2].offset, 8);
    assert_int_equal(evgen_model_event_version(old, 2)->fixed_size, 20);
    const evgen_model_event *none = evgen_model_find_event(&l->model, "NoFields");
    assert_int_equal(none->n_versions, 1);
    assert_int_equal(none->versions[0].fixed_size, 0);
    unload(l);
}

/* EVENT_VERSION_ATTRIBUTES: constant expressions evaluated by clang, defaults from the event, and
 * the runtime's enabled bytes: one per event, then one per version with its own attributes, and
 * one the other versions share only when an own attribute reaches a session the event's do not. */
static void test_version_attributes_and_enabled_bytes(void **state)
{
    (void)state;
    const char *text = "#include <evgen/manifest.h>\n"
                       "#define KW_GC 0x1\n"
                       "#define KW_THREADING 0x10000\n"
                       "EVENT_PROVIDER(P, \"P\")\n"
                       "KNOWN_EVENT(Plain, 1, P, 4, KW_GC)\n"
                       "EVENT_FIELD(Plain, 1, uint16_t, Id)\n"
                       "KNOWN_EVENT(Covered, 2, P, 4, KW_GC | KW_THREADING)\n"
                       "EVENT_VERSION(Covered, 0)\n"
                       "EVENT_VERSION_ATTRIBUTES(Covered, 0, 2 + 2, KW_GC)\n"
                       "EVENT_FIELD(Covered, 1, uint16_t, Id)\n"
                       "KNOWN_EVENT(Wider, 3, P, 4, KW_GC)\n"
                       "EVENT_FIELD(Wider, 0, uint32_t, A)\n"
                       "EVENT_FIELD(Wider, 1, uint32_t, B)\n"
                       "EVENT_FIELD(Wider, 2, uint32_t, C)\n"
                       "EVENT_VERSION_ATTRIBUTES(Wider, 2, 2, KW_GC)\n"
                       "KNOWN_EVENT(AnyKeyword, 4, P, 4, 0)\n"
                       "EVENT_FIELD(AnyKeyword, 0, uint32_t, A)\n"
                       "EVENT_FIELD(AnyKeyword, 1, uint32_t, B)\n"
                       "EVENT_VERSION_ATTRIBUTES(AnyKeyword, 1, 4, KW_THREADING)\n"
                       "#include <evgen/manifest_end.h>\n";
    loaded *l = load(text, NULL, 0);
    assert_int_equal(l->rc, 0);
    const evgen_model *m = &l->model;
    const evgen_model_event *plain = evgen_model_find_event(m, "Plain");
    assert_false(plain->versions[0].own_attributes);
    assert_int_equal(plain->versions[0].keywords, 0x1);
    assert_int_equal(plain->versions[0].enabled_byte, -1);
    const evgen_model_event *covered = evgen_model_find_event(m, "Covered");
    const evgen_model_version *c0 = evgen_model_event_version(covered, 0), *c1 = evgen_model_event_version(covered, 1);
    assert_true(c0->own_attributes);
    assert_int_equal(c0->level, 4);
    assert_int_equal(c0->keywords, 0x1);
    assert_int_equal(c0->enabled_byte, 4); /* the first byte after the 4 events' */
    assert_false(c1->own_attributes);
    assert_int_equal(c1->keywords, 0x10001);
    assert_int_equal(c1->enabled_byte, -1); /* v0's GC is under the event's GC|Threading */
    /* Level 2 (Error) reaches a session at level 2 or 3 that the event's 4 does not: v0 and v1 share
     * a byte, set from the event's attributes. (A higher level, 5, would reach fewer sessions.) */
    const evgen_model_event *wider = evgen_model_find_event(m, "Wider");
    assert_int_equal(evgen_model_event_version(wider, 2)->enabled_byte, 5);
    assert_int_equal(evgen_model_event_version(wider, 0)->enabled_byte, 6);
    assert_int_equal(evgen_model_event_version(wider, 1)->enabled_byte, 6);
    /* Keywords 0 match every session's mask: a version with a keyword does not reach further. */
    const evgen_model_event *any = evgen_model_find_event(m, "AnyKeyword");
    assert_int_equal(evgen_model_event_version(any, 1)->enabled_byte, 7);
    assert_int_equal(evgen_model_event_version(any, 0)->enabled_byte, -1);
    assert_int_equal(m->n_enabled, 8);
    unload(l);
}

static void test_struct_elements_are_laid_out_as_the_compiler_does(void **state)
{
    (void)state;
    const char *text = "#include <evgen/manifest.h>\n"
                       "#ifndef T_TYPES\n#define T_TYPES\n"
                       "typedef struct Pair { uint8_t Tag; uint64_t Value; uint16_t Tail; } Pair;\n"
                       "#endif\n"
                       "EVENT_PROVIDER(P, \"P\")\n"
                       "KNOWN_EVENT(E, 1, P, 4, 1)\n"
                       "EVENT_FIELD(E, 0, uint32_t, N)\n"
                       "EVENT_ARRAY(E, 0, Pair, Pairs, N)\n"
                       "#include <evgen/manifest_end.h>\n";
    loaded *l = load(text, NULL, 0);
    assert_int_equal(l->rc, 0);
    assert_int_equal(l->model.n_structs, 1);
    const evgen_model_struct *st = &l->model.structs[0];
    assert_string_equal(st->name, "Pair");
    assert_int_equal(st->size, 24);
    assert_int_equal(st->n_members, 3);
    assert_int_equal(st->members[1].offset, 8);
    assert_int_equal(st->members[2].offset, 16);
    char *sig = evgen_model_field_signature(&l->model, slot(&l->model, "E", 0, 1)->field);
    assert_string_equal(sig, "array<struct{Tag:uint8@0,Value:uint64@8,Tail:uint16@16}/24>[N]");
    free(sig);
    unload(l);
}

static void test_defines_and_include_paths_pass_through(void **state)
{
    (void)state;
    char *dir = evgen_test_tempdir();
    char *header = evgen_xasprintf("%s/ids.h", dir);
    evgen_test_write(header, "#define HEAP_EVENT_ID 77\n");
    char *include = evgen_xasprintf("-I%s", dir);
    const char *args[] = {include, "-DWITH_EXTRA=1"};
    const char *text = "#include <evgen/manifest.h>\n"
                       "#include \"ids.h\"\n"
                       "EVENT_PROVIDER(P, \"P\")\n"
                       "KNOWN_EVENT(E, HEAP_EVENT_ID, P, 4, 1)\n"
                       "EVENT_FIELD(E, 0, uint32_t, A)\n"
                       "#if WITH_EXTRA\n"
                       "EVENT_FIELD(E, 1, uint32_t, Extra)\n"
                       "#endif\n"
                       "#include <evgen/manifest_end.h>\n";
    loaded *l = load(text, args, 2);
    assert_int_equal(l->rc, 0);
    const evgen_model_event *e = evgen_model_find_event(&l->model, "E");
    assert_int_equal(e->id, 77);
    assert_int_equal(e->latest_version, 1);
    /* The depfile list names the included header, and not evgen's own builtin headers. */
    bool found = false;
    for (size_t i = 0; i < l->model.n_included_files; i++) {
        found = found || strcmp(l->model.included_files[i], header) == 0;
        assert_null(strstr(l->model.included_files[i], "evgen-builtin"));
    }
    assert_true(found);
    unload(l);
    l = load(text, args, 1); /* without -DWITH_EXTRA */
    assert_int_equal(l->rc, 0);
    assert_int_equal(evgen_model_find_event(&l->model, "E")->latest_version, 0);
    unload(l);
    evgen_test_rmtree(dir);
    free(include);
    free(header);
    free(dir);
}

static void test_locations_point_at_arguments(void **state)
{
    (void)state;
    const char *text = "#include <evgen/manifest.h>\n"
                       "EVENT_PROVIDER(P, \"P\")\n"
                       "KNOWN_EVENT(E, 1, P, 4, 1)\n"
                       "EVENT_FIELD(E,   0,  uint32_t,    Alpha)\n"
                       "#define MY_FIELD(e, n) EVENT_FIELD(e, 0, uint64_t, n)\n"
                       "MY_FIELD(E, Wrapped)\n"
                       "#include <evgen/manifest_end.h>\n";
    loaded *l = load(text, NULL, 0);
    assert_int_equal(l->rc, 0);
    const evgen_model_field *alpha = slot(&l->model, "E", 0, 0)->field;
    assert_string_equal(alpha->loc.file, MEMORY_MANIFEST);
    assert_int_equal(alpha->loc.line, 4);
    assert_int_equal(alpha->loc.col, 1);
    assert_int_equal(alpha->since_loc.col, 18);
    assert_int_equal(alpha->type_loc.col, 22);
    assert_int_equal(alpha->name_loc.col, 35);
    /* Through a user's own macro, the invocation's line still identifies it. */
    const evgen_model_field *wrapped = slot(&l->model, "E", 0, 1)->field;
    assert_int_equal(wrapped->loc.line, 6);
    assert_int_equal(wrapped->name_loc.line, 6);
    unload(l);
}

static void test_errors_do_not_lower_the_model(void **state)
{
    (void)state;
    const char *text = "#include <evgen/manifest.h>\n"
                       "EVENT_PROVIDER(P, \"P\")\n"
                       "KNOWN_EVENT(E, 1, P, 4, 1)\n"
                       "EVENT_FIELD(E, 0, unsigned, A)\n"
                       "#include <evgen/manifest_end.h>\n";
    loaded *l = load(text, NULL, 0);
    assert_int_equal(l->rc, -1);
    assert_int_equal(l->diags.n_errors, 1);
    assert_false(l->model.lowered);
    assert_int_equal(l->diags.items[0].line, 4);
    assert_int_equal(l->diags.items[0].col, 19);
    assert_non_null(strstr(l->diags.items[0].message, "platform-dependent"));
    assert_int_equal(l->diags.items[1].severity, EVGEN_SEV_NOTE);
    assert_non_null(strstr(l->diags.items[1].message, "uint32_t"));
    unload(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constants_enums_and_typedefs_are_resolved_by_the_compiler),
        cmocka_unit_test(test_offsets_after_variable_length_fields_and_pointers),
        cmocka_unit_test(test_versions_first_explicit_and_legacy),
        cmocka_unit_test(test_struct_elements_are_laid_out_as_the_compiler_does),
        cmocka_unit_test(test_defines_and_include_paths_pass_through),
        cmocka_unit_test(test_locations_point_at_arguments),
        cmocka_unit_test(test_errors_do_not_lower_the_model),
        cmocka_unit_test(test_version_attributes_and_enabled_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
