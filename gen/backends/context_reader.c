/* context_reader.c — the reader side's part of the template context: for each event, the
 * accessors of every field it ever had, legacy-only ones included (with the getter for its type) and its offset table, one
 * row per version and one slot per field, lowered from the model's per-version slots; and the
 * manifest's metadata bytes (NAME_reader_manifest), as C initializer lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/context.h"
#include "backends/manifest_desc.h"
#include "model/util.h"

/* The C type an accessor returns, and the functions that read it (reader_access.h): the columns
 * read_type and access of evgen/wire_kinds.h. */
static void scalar_access(evgen_wire_kind kind, const char **type, const char **getter, const char **element_getter)
{
    static char getters[EVGEN_WIRE_KIND_LAST + 1][2][32];
    const evgen_wire_kind_info *info = evgen_wire_kind_info_of(kind);
    const char *access = info && info->access ? info->access : "uint";
    unsigned row = info ? kind : 0;
    snprintf(getters[row][0], sizeof getters[row][0], "evgen_access_%s", access);
    snprintf(getters[row][1], sizeof getters[row][1], "evgen_element_%s", access);
    *type = info && info->read_type ? info->read_type : "uint64_t";
    *getter = getters[row][0];
    *element_getter = getters[row][1];
}

/* The fixed-size loader of the fast path for a scalar kind (evgen_fixed_<fixed>), or NULL
 * (pointer-sized, GUID, strings, bool8: the table path). */
static const char *fixed_loader(evgen_wire_kind kind)
{
    static char loaders[EVGEN_WIRE_KIND_LAST + 1][32];
    const evgen_wire_kind_info *info = evgen_wire_kind_info_of(kind);
    if (!info || !info->fixed)
        return NULL;
    snprintf(loaders[kind], sizeof loaders[kind], "evgen_fixed_%s", info->fixed);
    return loaders[kind];
}

/* The slot of field `name` in a version, or NULL. */
static const evgen_model_slot *slot_named(const evgen_model_version *ver, const char *name)
{
    for (size_t i = 0; i < ver->n_slots; i++)
        if (strcmp(ver->slots[i].field->name, name) == 0)
            return &ver->slots[i];
    return NULL;
}

/* The first version from which `f` sits at one fixed offset (no variable field nor pointer before
 * it) with one kind in every version up to the latest, or -1 if even the latest does not. */
static int fixed_from(const evgen_model_event *e, const evgen_model_field *f)
{
    const evgen_model_slot *latest = slot_named(&e->versions[e->n_versions - 1], f->name);
    if (!latest || !latest->fixed_offset || !fixed_loader(latest->field->type.kind))
        return -1;
    int from = (int)e->n_versions - 1;
    while (from > 0) {
        const evgen_model_slot *s = slot_named(&e->versions[from - 1], f->name);
        if (!s || !s->fixed_offset || s->offset != latest->offset ||
            s->field->type.kind != latest->field->type.kind)
            break;
        from--;
    }
    return (int)e->versions[from].version;
}

static evgen_tvalue *field_accessors(const evgen_model *model, const evgen_model_event *e, const evgen_model_field *f,
                                     size_t index)
{
    evgen_tvalue *m = evgen_tv_map();
    const char *type, *getter, *element_getter;
    scalar_access(f->type.kind, &type, &getter, &element_getter);
    evgen_tv_map_set(m, "name", evgen_tv_string(f->name));
    evgen_tv_map_set(m, "index", evgen_tv_stringf("%zu", index));
    evgen_tv_map_set(m, "is_array", evgen_tv_bool(f->is_array));
    evgen_tv_map_set(m, "type", evgen_tv_string(type));
    evgen_tv_map_set(m, "getter", evgen_tv_string(getter));
    evgen_tv_map_set(m, "element_getter", evgen_tv_string(element_getter));
    evgen_tv_map_set(m, "is_utf8", evgen_tv_bool(!f->is_array && f->type.kind == EVGEN_WIRE_UTF8Z));
    evgen_tv_map_set(m, "is_utf16", evgen_tv_bool(!f->is_array && f->type.kind == EVGEN_WIRE_UTF16Z));
    evgen_tv_map_set(m, "is_guid", evgen_tv_bool(!f->is_array && f->type.kind == EVGEN_WIRE_GUID));
    evgen_tv_map_set(m, "is_float",
                     evgen_tv_bool(!f->is_array && (f->type.kind == EVGEN_WIRE_F32 || f->type.kind == EVGEN_WIRE_F64)));
    bool struct_elements = f->is_array && f->type.kind == EVGEN_WIRE_STRUCT;
    evgen_tv_map_set(m, "scalar_elements", evgen_tv_bool(f->is_array && !struct_elements));
    evgen_tv_map_set(m, "guid_elements", evgen_tv_bool(f->is_array && f->type.kind == EVGEN_WIRE_GUID));
    evgen_tv_map_set(m, "numeric_elements",
                     evgen_tv_bool(f->is_array && !struct_elements && f->type.kind != EVGEN_WIRE_GUID));
    evgen_tvalue *members = evgen_tv_list();
    if (struct_elements) {
        const evgen_model_struct *st = &model->structs[f->type.struct_index];
        for (size_t i = 0; i < st->n_members; i++) {
            evgen_tvalue *mm = evgen_tv_map();
            const char *mtype, *mgetter, *melement;
            scalar_access(st->members[i].kind, &mtype, &mgetter, &melement);
            evgen_tv_map_set(mm, "name", evgen_tv_string(st->members[i].name));
            evgen_tv_map_set(mm, "index", evgen_tv_stringf("%zu", i));
            evgen_tv_map_set(mm, "type", evgen_tv_string(mtype));
            evgen_tv_map_set(mm, "element_getter", evgen_tv_string(melement));
            evgen_tv_map_set(mm, "is_guid", evgen_tv_bool(st->members[i].kind == EVGEN_WIRE_GUID));
            /* A variable struct's string member: a view, digested by the read-all harness. */
            bool utf16 = st->members[i].kind == EVGEN_WIRE_UTF16Z;
            evgen_tv_map_set(mm, "is_string", evgen_tv_bool(utf16 || st->members[i].kind == EVGEN_WIRE_UTF8Z));
            evgen_tv_map_set(mm, "string_bytes", evgen_tv_string(utf16 ? "2 * (size_t)s.units" : "s.length"));
            evgen_tv_list_add(members, mm);
        }
    }
    evgen_tv_map_set(m, "members", members);
    int from = f->is_array ? -1 : fixed_from(e, f);
    evgen_tv_map_set(m, "fixed", evgen_tv_bool(from >= 0));
    if (from >= 0) {
        const evgen_model_slot *latest = slot_named(&e->versions[e->n_versions - 1], f->name);
        evgen_tv_map_set(m, "fixed_offset", evgen_tv_stringf("%uu", latest->offset));
        evgen_tv_map_set(m, "fixed_size", evgen_tv_stringf("%uu", latest->size));
        evgen_tv_map_set(m, "fixed_from", evgen_tv_stringf("%du", from));
        evgen_tv_map_set(m, "fixed_loader", evgen_tv_string(fixed_loader(latest->field->type.kind)));
    }
    return m;
}

static evgen_tvalue *access_row(const evgen_model_event *e, const evgen_model_version *ver)
{
    evgen_tvalue *row = evgen_tv_map();
    evgen_tv_map_set(row, "number", evgen_tv_stringf("%u", ver->version));
    evgen_tvalue *slots = evgen_tv_list();
    for (size_t k = 0; k < e->n_all_fields; k++) {
        const evgen_model_field *f = e->all_fields[k];
        int at = -1;
        for (size_t i = 0; i < ver->n_slots && at < 0; i++)
            if (strcmp(ver->slots[i].field->name, f->name) == 0)
                at = (int)i;
        evgen_tvalue *slot = evgen_tv_map();
        evgen_tv_map_set(slot, "field", evgen_tv_string(f->name));
        if (at < 0) {
            evgen_tv_map_set(slot, "init", evgen_tv_string("{0, -1, 0, 0, 0, 0, 0}"));
        } else {
            const evgen_model_slot *s = &ver->slots[at];
            unsigned size = s->size == 0 ? 0xFFu : s->field->type.kind == EVGEN_WIRE_PTR ? 0u : s->size;
            int after = (int)s->var_before - 1; /* the last variable slot before it, by number; -1: none */
            int own = s->size == 0 ? (int)s->var : 0;
            evgen_tv_map_set(slot, "init", evgen_tv_stringf("{%u, %d, %u, %u, 1, %d, %d}", s->offset, after, size,
                                                            s->ptrs_before, own, at));
        }
        evgen_tv_list_add(slots, slot);
    }
    evgen_tv_map_set(row, "slots", slots);
    return row;
}

void evgen_add_reader_context(evgen_tvalue *event_map, const evgen_model *model, const evgen_model_event *e)
{
    evgen_tvalue *fields = evgen_tv_list();
    for (size_t k = 0; k < e->n_all_fields; k++)
        evgen_tv_list_add(fields, field_accessors(model, e, e->all_fields[k], k));
    evgen_tv_map_set(event_map, "reader_fields", fields);
    evgen_tv_map_set(event_map, "n_fields", evgen_tv_stringf("%zu", e->n_all_fields));
    evgen_tv_map_set(event_map, "has_reader_fields", evgen_tv_bool(e->n_all_fields > 0));
    evgen_tvalue *rows = evgen_tv_list();
    for (size_t v = 0; v < e->n_versions; v++)
        evgen_tv_list_add(rows, access_row(e, &e->versions[v]));
    evgen_tv_map_set(event_map, "access_rows", rows);
}

/* Bytes per line of the metadata initializer. */
#define METADATA_BYTES_PER_LINE 16

void evgen_add_reader_manifest_context(evgen_tvalue *root, const evgen_model *model, const char *name)
{
    size_t size = 0;
    uint8_t *bytes = evgen_model_metadata(model, name, &size);
    evgen_tvalue *lines = evgen_tv_list();
    evgen_strbuf sb;
    evgen_sb_init(&sb);
    for (size_t i = 0; i < size; i += METADATA_BYTES_PER_LINE) {
        sb.len = 0;
        for (size_t k = i; k < size && k < i + METADATA_BYTES_PER_LINE; k++)
            evgen_sb_printf(&sb, "%s0x%02x,", k == i ? "" : " ", bytes[k]);
        evgen_tv_list_add(lines, evgen_tv_string(sb.data));
    }
    evgen_sb_free(&sb);
    free(bytes);
    evgen_tv_map_set(root, "metadata_lines", lines);
    evgen_tv_map_set(root, "metadata_size", evgen_tv_stringf("%zu", size));
}
