/* context_reader.c — the reader side's part of the template context: for each event, the
 * accessors of every field it ever had (with the getter for its type) and its offset table, one
 * row per version and one slot per field, lowered from the model's per-version slots. */
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "util.h"

/* The C type an accessor returns, and the function that reads it (reader_access.h). */
static void scalar_access(evgen_kind kind, const char **type, const char **getter, const char **element_getter)
{
    *getter = "evgen_access_uint";
    *element_getter = "evgen_element_uint";
    switch (kind) {
    case EVGEN_KIND_U8: *type = "uint8_t"; return;
    case EVGEN_KIND_U16: *type = "uint16_t"; return;
    case EVGEN_KIND_U32: *type = "uint32_t"; return;
    case EVGEN_KIND_U64: *type = "uint64_t"; return;
    case EVGEN_KIND_BOOL8: *type = "int"; return;
    case EVGEN_KIND_BOOL32: *type = "uint32_t"; return;
    case EVGEN_KIND_PTR: *type = "uint64_t"; return;
    case EVGEN_KIND_I8:
    case EVGEN_KIND_I16:
    case EVGEN_KIND_I32:
    case EVGEN_KIND_I64:
        *type = kind == EVGEN_KIND_I8 ? "int8_t" : kind == EVGEN_KIND_I16 ? "int16_t" : kind == EVGEN_KIND_I32 ? "int32_t" : "int64_t";
        *getter = "evgen_access_int";
        *element_getter = "evgen_element_int";
        return;
    case EVGEN_KIND_F32:
    case EVGEN_KIND_F64:
        *type = kind == EVGEN_KIND_F32 ? "float" : "double";
        *getter = "evgen_access_f64";
        *element_getter = "evgen_element_f64";
        return;
    case EVGEN_KIND_GUID:
        *type = "evgen_guid";
        *getter = "evgen_access_guid";
        *element_getter = "evgen_element_guid";
        return;
    case EVGEN_KIND_UTF8Z:
        *type = "evgen_utf8_view";
        *getter = "evgen_access_utf8";
        return;
    case EVGEN_KIND_UTF16Z:
        *type = "evgen_utf16_view";
        *getter = "evgen_access_utf16";
        return;
    case EVGEN_KIND_STRUCT:
    case EVGEN_KIND_COUNT:
        break;
    }
    *type = "uint64_t";
}

static evgen_tvalue *field_accessors(const evgen_model *model, const evgen_field *f, size_t index)
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
    evgen_tv_map_set(m, "is_utf8", evgen_tv_bool(!f->is_array && f->type.kind == EVGEN_KIND_UTF8Z));
    evgen_tv_map_set(m, "is_utf16", evgen_tv_bool(!f->is_array && f->type.kind == EVGEN_KIND_UTF16Z));
    evgen_tv_map_set(m, "is_guid", evgen_tv_bool(!f->is_array && f->type.kind == EVGEN_KIND_GUID));
    evgen_tv_map_set(m, "is_float",
                     evgen_tv_bool(!f->is_array && (f->type.kind == EVGEN_KIND_F32 || f->type.kind == EVGEN_KIND_F64)));
    bool struct_elements = f->is_array && f->type.kind == EVGEN_KIND_STRUCT;
    evgen_tv_map_set(m, "scalar_elements", evgen_tv_bool(f->is_array && !struct_elements));
    evgen_tv_map_set(m, "guid_elements", evgen_tv_bool(f->is_array && f->type.kind == EVGEN_KIND_GUID));
    evgen_tv_map_set(m, "numeric_elements",
                     evgen_tv_bool(f->is_array && !struct_elements && f->type.kind != EVGEN_KIND_GUID));
    evgen_tvalue *members = evgen_tv_list();
    if (struct_elements) {
        const evgen_struct *st = &model->structs[f->type.struct_index];
        for (size_t i = 0; i < st->n_members; i++) {
            evgen_tvalue *mm = evgen_tv_map();
            const char *mtype, *mgetter, *melement;
            scalar_access(st->members[i].kind, &mtype, &mgetter, &melement);
            evgen_tv_map_set(mm, "name", evgen_tv_string(st->members[i].name));
            evgen_tv_map_set(mm, "index", evgen_tv_stringf("%zu", i));
            evgen_tv_map_set(mm, "type", evgen_tv_string(mtype));
            evgen_tv_map_set(mm, "element_getter", evgen_tv_string(melement));
            evgen_tv_map_set(mm, "is_guid", evgen_tv_bool(st->members[i].kind == EVGEN_KIND_GUID));
            evgen_tv_list_add(members, mm);
        }
    }
    evgen_tv_map_set(m, "members", members);
    return m;
}

/* The ordinal of slot `index` among the variable-length slots of a version. */
static int variable_ordinal(const evgen_version *ver, int index)
{
    int ordinal = 0;
    for (int i = 0; i < index; i++)
        if (ver->slots[i].size == 0)
            ordinal++;
    return ordinal;
}

static evgen_tvalue *access_row(const evgen_event *e, const evgen_version *ver)
{
    evgen_tvalue *row = evgen_tv_map();
    evgen_tv_map_set(row, "number", evgen_tv_stringf("%u", ver->version));
    evgen_tvalue *slots = evgen_tv_list();
    for (size_t k = 0; k < e->n_fields; k++) {
        const evgen_field *f = &e->fields[k];
        int at = -1;
        for (size_t i = 0; i < ver->n_slots && at < 0; i++)
            if (strcmp(ver->slots[i].field->name, f->name) == 0)
                at = (int)i;
        evgen_tvalue *slot = evgen_tv_map();
        evgen_tv_map_set(slot, "field", evgen_tv_string(f->name));
        if (at < 0) {
            evgen_tv_map_set(slot, "init", evgen_tv_string("{0, -1, 0, 0, 0, 0, 0}"));
        } else {
            const evgen_slot *s = &ver->slots[at];
            unsigned size = s->size == 0 ? 0xFFu : s->field->type.kind == EVGEN_KIND_PTR ? 0u : s->size;
            int after = s->after >= 0 ? variable_ordinal(ver, s->after) : -1;
            int own = s->size == 0 ? variable_ordinal(ver, at) : 0;
            evgen_tv_map_set(slot, "init", evgen_tv_stringf("{%u, %d, %u, %u, 1, %d, %d}", s->offset, after, size,
                                                            s->ptrs_before, own, at));
        }
        evgen_tv_list_add(slots, slot);
    }
    evgen_tv_map_set(row, "slots", slots);
    return row;
}

void evgen_add_reader_context(evgen_tvalue *event_map, const evgen_model *model, const evgen_event *e)
{
    evgen_tvalue *fields = evgen_tv_list();
    for (size_t k = 0; k < e->n_fields; k++)
        evgen_tv_list_add(fields, field_accessors(model, &e->fields[k], k));
    evgen_tv_map_set(event_map, "reader_fields", fields);
    evgen_tv_map_set(event_map, "n_fields", evgen_tv_stringf("%zu", e->n_fields));
    evgen_tv_map_set(event_map, "has_reader_fields", evgen_tv_bool(e->n_fields > 0));
    evgen_tvalue *rows = evgen_tv_list();
    for (size_t v = 0; v < e->n_versions; v++)
        evgen_tv_list_add(rows, access_row(e, &e->versions[v]));
    evgen_tv_map_set(event_map, "access_rows", rows);
}
