/* context.c — lowers the model into the value tree the code templates print: names, C types,
 * size expressions and the store of each field, computed once here so that the templates only
 * print, and so that the runtime side, the reader side and the trace metadata read the same list. */
#include "backends/context.h"

#include <stdlib.h>
#include <string.h>

#include "model/util.h"

static evgen_tvalue *str(const char *s)
{
    return evgen_tv_string(s);
}

static void set(evgen_tvalue *map, const char *key, evgen_tvalue *value)
{
    evgen_tv_map_set(map, key, value);
}

/* The row of evgen/wire_kinds.h the code of a kind is printed from; the model only holds kinds. */
static const evgen_wire_kind_info *kind_info(evgen_wire_kind kind)
{
    static const evgen_wire_kind_info none = {0};
    const evgen_wire_kind_info *info = evgen_wire_kind_info_of(kind);
    return info ? info : &none;
}

/* The enumerator generated descriptors name a kind by. */
static const char *wire_kind_enum(evgen_wire_kind kind)
{
    static const char *const enumerators[] = {
        "0", /* codes start at 1 */
#define EVGEN_WIRE_ENUMERATOR(NAME, ...) "EVGEN_WIRE_" #NAME,
        EVGEN_WIRE_KINDS(EVGEN_WIRE_ENUMERATOR)
#undef EVGEN_WIRE_ENUMERATOR
    };
    return evgen_wire_kind_valid(kind) ? enumerators[kind] : "0";
}

/* The C type a FireEtw parameter takes for a scalar of this kind. Enums travel as their wire
 * integer, so C++ callers need no casts. */
static const char *param_c_type(evgen_wire_kind kind)
{
    return kind_info(kind)->param ? kind_info(kind)->param : "void";
}

/* The evgen_put_<suffix> that stores a scalar of this kind (runtime_emit.h). */
static const char *put_suffix(evgen_wire_kind kind)
{
    return kind_info(kind)->store ? kind_info(kind)->store : "bytes";
}

/* The C expression for the size of one array element. */
static char *element_size_expr(const evgen_model *model, const evgen_model_field *f)
{
    if (f->type.kind == EVGEN_WIRE_STRUCT)
        return evgen_xasprintf("sizeof(%s)", model->structs[f->type.struct_index].c_type);
    if (evgen_wire_kind_class(f->type.kind) == EVGEN_WIRE_CLASS_POINTER)
        return evgen_xstrdup("sizeof(void *)");
    return evgen_xasprintf("%u", evgen_kind_size(f->type.kind));
}

/* An array parameter: a pointer to its first element, typed so the caller's array fits (pointer
 * elements are pointer-sized, as the runtime has them). */
static char *element_param_type(const evgen_model *model, const evgen_model_field *f)
{
    if (f->type.kind == EVGEN_WIRE_STRUCT)
        return evgen_xasprintf("const %s *", model->structs[f->type.struct_index].c_type);
    const char *elem = kind_info(f->type.kind)->elem;
    return evgen_xasprintf("const %s *", elem ? elem : param_c_type(f->type.kind));
}

/* The argument the generated test harness passes for a field: a value derived from (event,
 * version, field) by functions the test supplies, in the parameter's type. */
static evgen_tvalue *test_value_expr(const evgen_model *model, const evgen_model_event *e,
                                     const evgen_model_version *ver, const evgen_model_field *f, bool is_count)
{
    char *args = evgen_xasprintf("\"%s\", %u, \"%s\"", e->name, ver->version, f->name);
    evgen_tvalue *v = NULL;
    if (is_count) {
        v = evgen_tv_stringf("(%s)evgen_count_%s", param_c_type(f->type.kind), f->name);
    } else if (f->is_array && f->type.kind == EVGEN_WIRE_STRUCT && model->structs[f->type.struct_index].variable) {
        v = evgen_tv_stringf("evgen_elements_%s", f->name);
    } else if (f->is_array) {
        char *elem = element_size_expr(model, f);
        char *type = element_param_type(model, f);
        v = evgen_tv_stringf("(%s)evgen_test_array(%s, evgen_count_%s, %s)", type, args, f->count_name, elem);
        free(type);
        free(elem);
    } else {
        const char *param = param_c_type(f->type.kind);
        switch (evgen_wire_kind_class(f->type.kind)) {
        case EVGEN_WIRE_CLASS_FLOAT:
            v = evgen_tv_stringf("(%s)(evgen_test_value(%s) %% 1000000) / 4.0%s", param, args,
                                 evgen_kind_size(f->type.kind) == 4 ? "f" : "");
            break;
        case EVGEN_WIRE_CLASS_BOOL: v = evgen_tv_stringf("(%s)(evgen_test_value(%s) & 1)", param, args); break;
        case EVGEN_WIRE_CLASS_GUID: v = evgen_tv_stringf("&evgen_guid_%s", f->name); break;
        case EVGEN_WIRE_CLASS_POINTER: v = evgen_tv_stringf("(%s)(uintptr_t)evgen_test_value(%s)", param, args); break;
        case EVGEN_WIRE_CLASS_UTF8: v = evgen_tv_stringf("evgen_test_utf8(%s)", args); break;
        case EVGEN_WIRE_CLASS_UTF16: v = evgen_tv_stringf("evgen_test_utf16(%s)", args); break;
        case EVGEN_WIRE_CLASS_UNSIGNED:
        case EVGEN_WIRE_CLASS_SIGNED:
        case EVGEN_WIRE_CLASS_STRUCT: v = evgen_tv_stringf("(%s)evgen_test_value(%s)", param, args); break;
        }
    }
    free(args);
    return v;
}

/* The test harness's elements of a variable struct array: one assignment per member of element
 * evgen_i of evgen_elements_<Field>, from functions the test supplies. */
static evgen_tvalue *test_members(const evgen_model_event *e, const evgen_model_version *ver,
                                  const evgen_model_field *f, const evgen_model_struct *st)
{
    evgen_tvalue *list = evgen_tv_list();
    for (size_t k = 0; k < st->n_members; k++) {
        const evgen_model_struct_member *mb = &st->members[k];
        char *args = evgen_xasprintf("\"%s\", %u, \"%s\", evgen_i, %zu", e->name, ver->version, f->name, k);
        char *lhs = evgen_xasprintf("evgen_elements_%s[evgen_i].%s", f->name, mb->name);
        const char *c = mb->c_spelling;
        evgen_tvalue *v = NULL;
        switch (evgen_wire_kind_class(mb->kind)) {
        case EVGEN_WIRE_CLASS_FLOAT:
            v = evgen_tv_stringf("%s = (%s)(evgen_test_member(%s) %% 1000000) / 4.0%s", lhs, c, args,
                                 evgen_kind_size(mb->kind) == 4 ? "f" : "");
            break;
        case EVGEN_WIRE_CLASS_BOOL: v = evgen_tv_stringf("%s = (%s)(evgen_test_member(%s) & 1)", lhs, c, args); break;
        case EVGEN_WIRE_CLASS_GUID: v = evgen_tv_stringf("evgen_test_member_guid(&%s, %s)", lhs, args); break;
        case EVGEN_WIRE_CLASS_POINTER:
            v = evgen_tv_stringf("%s = (%s)(uintptr_t)evgen_test_member(%s)", lhs, c, args);
            break;
        case EVGEN_WIRE_CLASS_UTF8: v = evgen_tv_stringf("%s = evgen_test_member_utf8(%s)", lhs, args); break;
        case EVGEN_WIRE_CLASS_UTF16:
            v = evgen_tv_stringf("%s = (%s)evgen_test_member_utf16(%s)", lhs, c, args);
            break;
        case EVGEN_WIRE_CLASS_UNSIGNED:
        case EVGEN_WIRE_CLASS_SIGNED:
        case EVGEN_WIRE_CLASS_STRUCT: v = evgen_tv_stringf("%s = (%s)evgen_test_member(%s)", lhs, c, args); break;
        }
        evgen_tv_list_add(list, v);
        free(lhs);
        free(args);
    }
    return list;
}

static evgen_tvalue *field_context(const evgen_model *model, const evgen_model_event *e, const evgen_model_version *ver,
                                   size_t index)
{
    const evgen_model_slot *slot = &ver->slots[index];
    const evgen_model_field *f = slot->field;
    evgen_tvalue *m = evgen_tv_map();
    set(m, "name", str(f->name));
    set(m, "index", evgen_tv_stringf("%zu", index));
    set(m, "kind", str(wire_kind_enum(f->type.kind)));
    set(m, "wire_type", str(evgen_kind_name(f->type.kind)));
    set(m, "c_spelling", str(f->type.c_spelling));
    set(m, "is_array", evgen_tv_bool(f->is_array));
    set(m, "is_string", evgen_tv_bool(f->type.kind == EVGEN_WIRE_UTF8Z || f->type.kind == EVGEN_WIRE_UTF16Z));
    set(m, "is_variable", evgen_tv_bool(slot->size == 0));
    set(m, "enum_index", evgen_tv_stringf("%d", f->type.enum_index));
    set(m, "struct_index", evgen_tv_stringf("%d", f->type.struct_index));
    set(m, "put", str(put_suffix(f->type.kind)));
    set(m, "size_function", str(f->type.kind == EVGEN_WIRE_UTF8Z ? "evgen_utf8z_size" : "evgen_utf16z_size"));
    /* The offset as a comment for people: fixed, or after a variable-length field. */
    if (slot->after < 0)
        set(m, "offset_comment", evgen_tv_stringf("%u%s", slot->offset, slot->ptrs_before ? " (8-byte pointers)" : ""));
    else
        set(m, "offset_comment", evgen_tv_stringf("%s+%u", ver->slots[slot->after].field->name, slot->offset));
    int count_index = -1;
    const evgen_model_struct *vstruct = f->is_array && f->type.kind == EVGEN_WIRE_STRUCT &&
                                                model->structs[f->type.struct_index].variable
                                            ? &model->structs[f->type.struct_index]
                                            : NULL;
    set(m, "is_var_array", evgen_tv_bool(vstruct != NULL));
    if (f->is_array) {
        count_index = evgen_model_version_find_slot(ver, f->count_name);
        set(m, "count_name", str(f->count_name));
        if (vstruct) { /* elements sized and stored one by one (a negative count stores none) */
            set(m, "element_struct", evgen_tv_stringf("%d", f->type.struct_index));
            set(m, "struct_c_type", str(vstruct->c_type));
            set(m, "count_expr", evgen_tv_stringf("(%s > 0 ? (size_t)%s : 0)", f->count_name, f->count_name));
            set(m, "test_members", test_members(e, ver, f, vstruct));
        } else {
            char *elem = element_size_expr(model, f);
            set(m, "element_size", str(elem));
            free(elem);
        }
    }
    set(m, "count_index", evgen_tv_stringf("%d", count_index));
    /* The parameter as declared: "const char *Name", "uint64_t Size". */
    char *type = f->is_array ? element_param_type(model, f) : evgen_xstrdup(param_c_type(f->type.kind));
    set(m, "param_type", str(type));
    set(m, "param", evgen_tv_stringf("%s%s%s", type, type[strlen(type) - 1] == '*' ? "" : " ", f->name));
    free(type);
    set(m, "flags", str(f->is_array ? "EVGEN_FIELD_ARRAY" : "0"));
    set(m, "is_guid", evgen_tv_bool(!f->is_array && f->type.kind == EVGEN_WIRE_GUID));
    bool is_count = false;
    for (size_t i = 0; i < ver->n_slots; i++)
        is_count = is_count || (ver->slots[i].field->is_array && strcmp(ver->slots[i].field->count_name, f->name) == 0);
    set(m, "is_count", evgen_tv_bool(is_count));
    set(m, "test_value", test_value_expr(model, e, ver, f, is_count));
    return m;
}

/* size = constant bytes + pointers * sizeof(void *) + every variable-length part. */
static evgen_tvalue *size_expr(const evgen_model_version *ver)
{
    unsigned constant = 0, pointers = 0;
    evgen_strbuf sb;
    evgen_sb_init(&sb);
    for (size_t i = 0; i < ver->n_slots; i++) {
        const evgen_model_field *f = ver->slots[i].field;
        if (f->is_array || ver->slots[i].size == 0)
            continue;
        if (f->type.kind == EVGEN_WIRE_PTR)
            pointers++;
        else
            constant += ver->slots[i].size;
    }
    evgen_sb_printf(&sb, "%u", constant);
    if (pointers)
        evgen_sb_printf(&sb, " + %u * sizeof(void *)", pointers);
    for (size_t i = 0; i < ver->n_slots; i++) {
        const evgen_model_field *f = ver->slots[i].field;
        if (f->is_array || ver->slots[i].size == 0)
            evgen_sb_printf(&sb, " + evgen_size_%s", f->name);
    }
    evgen_tvalue *v = evgen_tv_string(sb.data);
    evgen_sb_free(&sb);
    return v;
}

static evgen_tvalue *version_context(const evgen_model *model, const evgen_model_event *e, size_t event_index,
                                     const evgen_model_version *ver, unsigned type)
{
    evgen_tvalue *m = evgen_tv_map();
    set(m, "number", evgen_tv_stringf("%u", ver->version));
    set(m, "type", evgen_tv_stringf("%u", type));
    set(m, "legacy", evgen_tv_bool(ver->legacy));
    set(m, "variable", evgen_tv_bool(ver->variable_size));
    set(m, "variable_int", str(ver->variable_size ? "1" : "0"));
    const char *flag_names[3] = {ver->legacy ? "EVGEN_VERSION_LEGACY" : NULL,
                                 ver->variable_size ? "EVGEN_VERSION_VARIABLE" : NULL,
                                 ver->own_attributes ? "EVGEN_VERSION_ATTRIBUTES" : NULL};
    evgen_strbuf flags;
    evgen_sb_init(&flags);
    for (size_t i = 0; i < 3; i++)
        if (flag_names[i])
            evgen_sb_printf(&flags, "%s%s", flags.len ? " | " : "", flag_names[i]);
    set(m, "flags", str(flags.len ? flags.data : "0"));
    evgen_sb_free(&flags);
    set(m, "level", evgen_tv_stringf("%llu", (unsigned long long)ver->level));
    set(m, "keywords", evgen_tv_stringf("0x%llxull", (unsigned long long)ver->keywords));
    set(m, "keywords_hex", evgen_tv_stringf("0x%llx", (unsigned long long)ver->keywords));
    set(m, "own_attributes", evgen_tv_bool(ver->own_attributes));
    /* The enabled byte its FireEtw checks: the event's, or one of its own (model.h). */
    set(m, "enabled_index", evgen_tv_stringf("%d", ver->enabled_byte >= 0 ? ver->enabled_byte : (int)event_index));
    set(m, "enabled_desc", evgen_tv_stringf("%d", ver->enabled_byte + 1));
    set(m, "size_expr", size_expr(ver));
    set(m, "fixed_size_expr", ver->variable_size ? str("0") : size_expr(ver));
    set(m, "has_fields", evgen_tv_bool(ver->n_slots > 0));
    set(m, "fields_count", evgen_tv_stringf("%zu", ver->n_slots));
    set(m, "function", evgen_tv_stringf("FireEtw%s_V%u", e->name, ver->version));
    set(m, "size_comment", ver->variable_size ? str("variable size")
                                              : evgen_tv_stringf("%u bytes%s", ver->fixed_size,
                                                                 ver->pointer_dependent ? " with 8-byte pointers" : ""));
    evgen_tvalue *fields = evgen_tv_list();
    for (size_t i = 0; i < ver->n_slots; i++)
        evgen_tv_list_add(fields, field_context(model, e, ver, i));
    set(m, "fields", fields);
    return m;
}

static evgen_tvalue *event_context(const evgen_model *model, const evgen_model_event *e, size_t index, unsigned *type)
{
    evgen_tvalue *m = evgen_tv_map();
    set(m, "name", str(e->name));
    set(m, "index", evgen_tv_stringf("%zu", index));
    set(m, "id", evgen_tv_stringf("%llu", (unsigned long long)e->id));
    set(m, "level", evgen_tv_stringf("%llu", (unsigned long long)e->level));
    set(m, "keywords", evgen_tv_stringf("0x%llxull", (unsigned long long)e->keywords));
    set(m, "provider_index", evgen_tv_stringf("%d", e->provider_index));
    set(m, "provider_name", str(model->providers[e->provider_index].name));
    set(m, "type_offset", evgen_tv_stringf("%u", *type));
    set(m, "n_versions", evgen_tv_stringf("%zu", e->n_versions));
    set(m, "first_version", evgen_tv_stringf("%u", e->first_version));
    set(m, "latest_version", evgen_tv_stringf("%u", e->latest_version));
    evgen_tvalue *versions = evgen_tv_list();
    for (size_t v = 0; v < e->n_versions; v++) {
        evgen_tvalue *vc = version_context(model, e, index, &e->versions[v], *type);
        if (v + 1 == e->n_versions)
            set(m, "latest", version_context(model, e, index, &e->versions[v], *type));
        evgen_tv_list_add(versions, vc);
        (*type)++;
    }
    set(m, "versions", versions);
    evgen_add_reader_context(m, model, e);
    return m;
}

static evgen_tvalue *enum_context(const evgen_model_enum *en, size_t index)
{
    evgen_tvalue *m = evgen_tv_map();
    set(m, "name", str(en->name));
    set(m, "index", evgen_tv_stringf("%zu", index));
    set(m, "n_consts", evgen_tv_stringf("%zu", en->n_consts));
    evgen_tvalue *consts = evgen_tv_list();
    for (size_t i = 0; i < en->n_consts; i++) {
        evgen_tvalue *c = evgen_tv_map();
        set(c, "name", str(en->consts[i].display_name));
        set(c, "c_name", str(en->consts[i].name));
        set(c, "value", en->consts[i].value < 0 ? evgen_tv_stringf("(%lld - 1)", (long long)en->consts[i].value + 1)
                                                : evgen_tv_stringf("%lld", (long long)en->consts[i].value));
        evgen_tv_list_add(consts, c);
    }
    set(m, "consts", consts);
    return m;
}

/* A variable struct's element, member by member (evgen_e points to it): the expression of one
 * member's wire size, and the store of it at evgen_p. NULL strings are empty, as for fields. */
static char *member_size_expr(const evgen_model_struct_member *mb)
{
    switch (evgen_wire_kind_class(mb->kind)) {
    case EVGEN_WIRE_CLASS_UTF8: return evgen_xasprintf("evgen_utf8z_size(evgen_e->%s)", mb->name);
    case EVGEN_WIRE_CLASS_UTF16: return evgen_xasprintf("evgen_utf16z_size(evgen_e->%s)", mb->name);
    case EVGEN_WIRE_CLASS_POINTER: return evgen_xstrdup("sizeof(void *)");
    case EVGEN_WIRE_CLASS_UNSIGNED:
    case EVGEN_WIRE_CLASS_SIGNED:
    case EVGEN_WIRE_CLASS_FLOAT:
    case EVGEN_WIRE_CLASS_BOOL:
    case EVGEN_WIRE_CLASS_GUID:
    case EVGEN_WIRE_CLASS_STRUCT: break;
    }
    return evgen_xasprintf("%u", evgen_kind_size(mb->kind));
}

/* The fewest bytes a member takes on the wire: a string's terminator alone. */
static char *member_min_size_expr(const evgen_model_struct_member *mb)
{
    switch (evgen_wire_kind_class(mb->kind)) {
    case EVGEN_WIRE_CLASS_UTF8: return evgen_xstrdup("1");
    case EVGEN_WIRE_CLASS_UTF16: return evgen_xstrdup("2");
    case EVGEN_WIRE_CLASS_UNSIGNED:
    case EVGEN_WIRE_CLASS_SIGNED:
    case EVGEN_WIRE_CLASS_FLOAT:
    case EVGEN_WIRE_CLASS_BOOL:
    case EVGEN_WIRE_CLASS_GUID:
    case EVGEN_WIRE_CLASS_POINTER:
    case EVGEN_WIRE_CLASS_STRUCT: break;
    }
    return member_size_expr(mb);
}

/* The fewest bytes of members from..n_members-1 of a struct, as a C expression. */
static char *members_min_size_expr(const evgen_model_struct *st, size_t from)
{
    char *sum = evgen_xstrdup("0");
    for (size_t k = from; k < st->n_members; k++) {
        char *one = member_min_size_expr(&st->members[k]);
        char *next = evgen_xasprintf("%s + %s", sum, one);
        free(one);
        free(sum);
        sum = next;
    }
    return sum;
}

/* A string member is stored within what is left before evgen_limit, less the fewest bytes the members
 * after it need (after): never past the space its size pass reserved (runtime_emit.h). */
static char *member_put_expr(const evgen_model_struct_member *mb, const char *after)
{
    const char *n = mb->name;
    switch (evgen_wire_kind_class(mb->kind)) {
    case EVGEN_WIRE_CLASS_UTF8:
        return evgen_xasprintf("evgen_put_utf8z_within(evgen_p, evgen_e->%s, (size_t)(evgen_limit - evgen_p) - (%s))",
                               n, after);
    case EVGEN_WIRE_CLASS_UTF16:
        return evgen_xasprintf(
            "evgen_put_utf16z_within(evgen_p, evgen_e->%s, (size_t)(evgen_limit - evgen_p) - (%s))", n, after);
    case EVGEN_WIRE_CLASS_POINTER: return evgen_xasprintf("evgen_put_ptr(evgen_p, (const void *)evgen_e->%s)", n);
    case EVGEN_WIRE_CLASS_GUID: return evgen_xasprintf("evgen_put_guid(evgen_p, &evgen_e->%s)", n);
    case EVGEN_WIRE_CLASS_UNSIGNED:
    case EVGEN_WIRE_CLASS_SIGNED:
    case EVGEN_WIRE_CLASS_FLOAT:
    case EVGEN_WIRE_CLASS_BOOL:
    case EVGEN_WIRE_CLASS_STRUCT: break;
    }
    return evgen_xasprintf("evgen_put_%s(evgen_p, evgen_e->%s)", put_suffix(mb->kind), n);
}

static evgen_tvalue *struct_context(const evgen_model_struct *st, size_t index)
{
    evgen_tvalue *m = evgen_tv_map();
    set(m, "name", str(st->name));
    set(m, "c_type", str(st->c_type));
    set(m, "index", evgen_tv_stringf("%zu", index));
    set(m, "n_members", evgen_tv_stringf("%zu", st->n_members));
    set(m, "variable", evgen_tv_bool(st->variable));
    /* A variable struct has no stride; the runtime lays its members out for its own pointers. */
    set(m, "stride", st->variable ? str("0 /* variable */") : evgen_tv_stringf("sizeof(%s)", st->c_type));
    evgen_tvalue *members = evgen_tv_list();
    for (size_t i = 0; i < st->n_members; i++) {
        const evgen_model_struct_member *mb = &st->members[i];
        evgen_tvalue *mm = evgen_tv_map();
        set(mm, "name", str(mb->name));
        set(mm, "kind", str(wire_kind_enum(mb->kind)));
        set(mm, "enum_index", evgen_tv_stringf("%d", mb->enum_index));
        set(mm, "offset", st->variable ? evgen_tv_stringf("%u", mb->offset)
                                       : evgen_tv_stringf("offsetof(%s, %s)", st->c_type, mb->name));
        char *after = members_min_size_expr(st, i + 1);
        char *size = member_size_expr(mb), *put = member_put_expr(mb, after);
        set(mm, "size_expr", str(size));
        set(mm, "put", str(put));
        free(after);
        free(size);
        free(put);
        evgen_tv_list_add(members, mm);
    }
    set(m, "members", members);
    char *min_size = members_min_size_expr(st, 0);
    set(m, "min_size", str(min_size));
    free(min_size);
    return m;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

evgen_tvalue *evgen_build_context(const evgen_model *model, const char *name)
{
    evgen_tvalue *root = evgen_tv_map();
    set(root, "banner",
        evgen_tv_stringf("Generated by" " evgen %s from %s. DO NOT EDIT.", EVGEN_PROJECT_VERSION, model->manifest_path));
    set(root, "name", str(name));
    set(root, "manifest_path", str(model->manifest_path));
    set(root, "manifest_include", str(base_name(model->manifest_path)));
    evgen_tvalue *providers = evgen_tv_list();
    for (size_t p = 0; p < model->n_providers; p++) {
        evgen_tvalue *pm = evgen_tv_map();
        set(pm, "name", str(model->providers[p].name));
        set(pm, "symbol", str(model->providers[p].symbol));
        evgen_tv_list_add(providers, pm);
    }
    set(root, "providers", providers);
    set(root, "n_providers", evgen_tv_stringf("%zu", model->n_providers));
    evgen_tvalue *enums = evgen_tv_list();
    for (size_t i = 0; i < model->n_enums; i++)
        evgen_tv_list_add(enums, enum_context(&model->enums[i], i));
    set(root, "enums", enums);
    set(root, "n_enums", evgen_tv_stringf("%zu", model->n_enums));
    evgen_tvalue *structs = evgen_tv_list();
    for (size_t i = 0; i < model->n_structs; i++)
        evgen_tv_list_add(structs, struct_context(&model->structs[i], i));
    set(root, "structs", structs);
    set(root, "n_structs", evgen_tv_stringf("%zu", model->n_structs));
    evgen_tvalue *events = evgen_tv_list();
    unsigned type = 0;
    for (size_t i = 0; i < model->n_events; i++)
        evgen_tv_list_add(events, event_context(model, &model->events[i], i, &type));
    set(root, "events", events);
    set(root, "n_events", evgen_tv_stringf("%zu", model->n_events));
    /* C has no empty arrays: storage for at least one event. */
    set(root, "n_events_storage", evgen_tv_stringf("%zu", model->n_events ? model->n_events : 1));
    set(root, "n_enabled", evgen_tv_stringf("%zu", model->n_enabled));
    set(root, "n_enabled_storage", evgen_tv_stringf("%zu", model->n_enabled ? model->n_enabled : 1));
    set(root, "n_types", evgen_tv_stringf("%u", type));
    evgen_add_reader_manifest_context(root, model, name);
    return root;
}
