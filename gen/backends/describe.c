/* describe.c — `evgen describe`: the lowered model as text for people and as JSON for tools.
 * The JSON shape is documented in docs/describe-json.md and is stable. */
#include "backends/describe.h"

#include <stdlib.h>

#include "model/util.h"

static const char *slot_base_name(const evgen_model_version *ver, const evgen_model_slot *s)
{
    return s->after >= 0 ? ver->slots[s->after].field->name : NULL;
}

static void text_type(evgen_strbuf *sb, const evgen_model *model, const evgen_model_field *f)
{
    if (f->is_array) {
        if (f->type.kind == EVGEN_WIRE_STRUCT && model->structs[f->type.struct_index].variable)
            evgen_sb_printf(sb, "%s[%s] (variable elements)", f->type.c_spelling, f->count_name);
        else if (f->type.kind == EVGEN_WIRE_STRUCT)
            evgen_sb_printf(sb, "%s[%s] (stride %u)", f->type.c_spelling, f->count_name,
                            model->structs[f->type.struct_index].size);
        else
            evgen_sb_printf(sb, "%s[%s]", f->type.c_spelling, f->count_name);
        return;
    }
    evgen_sb_puts(sb, f->type.c_spelling);
    if (f->type.enum_index >= 0)
        evgen_sb_printf(sb, " (enum, %s)", evgen_kind_name(f->type.kind));
}

char *evgen_describe_text(const evgen_model *model)
{
    evgen_strbuf sb;
    evgen_sb_init(&sb);
    evgen_sb_printf(&sb, "manifest %s: %zu providers, %zu events\n", model->manifest_path, model->n_providers,
                    model->n_events);
    for (size_t p = 0; p < model->n_providers; p++)
        evgen_sb_printf(&sb, "provider %s \"%s\"\n", model->providers[p].symbol, model->providers[p].name);
    for (size_t i = 0; i < model->n_events; i++) {
        const evgen_model_event *e = &model->events[i];
        evgen_sb_printf(&sb, "\nevent %s id=%llu provider=%s level=%llu keywords=0x%llx versions=%u..%u\n", e->name,
                        (unsigned long long)e->id, e->provider_symbol, (unsigned long long)e->level,
                        (unsigned long long)e->keywords, e->first_version, e->latest_version);
        for (size_t v = 0; v < e->n_versions; v++) {
            const evgen_model_version *ver = &e->versions[v];
            evgen_sb_printf(&sb, "  version %u%s", ver->version, ver->legacy ? " (legacy layout)" : "");
            if (ver->own_attributes)
                evgen_sb_printf(&sb, " (level=%llu keywords=0x%llx)", (unsigned long long)ver->level,
                                (unsigned long long)ver->keywords);
            evgen_sb_puts(&sb, ": ");
            if (ver->variable_size)
                evgen_sb_puts(&sb, "variable size");
            else
                evgen_sb_printf(&sb, "%u bytes", ver->fixed_size);
            evgen_sb_printf(&sb, "%s\n", ver->pointer_dependent ? " (with 8-byte pointers)" : "");
            for (size_t s = 0; s < ver->n_slots; s++) {
                const evgen_model_slot *slot = &ver->slots[s];
                const char *base = slot_base_name(ver, slot);
                char *offset = base ? evgen_xasprintf("%s+%u", base, slot->offset)
                                    : evgen_xasprintf("%u", slot->offset);
                evgen_sb_printf(&sb, "    %-10s %-32s ", offset, slot->field->name);
                free(offset);
                text_type(&sb, model, slot->field);
                if (slot->size)
                    evgen_sb_printf(&sb, ", %u bytes", slot->size);
                else
                    evgen_sb_puts(&sb, ", variable");
                evgen_sb_printf(&sb, ", since %u\n", ver->legacy ? ver->version : slot->field->since);
            }
        }
    }
    return evgen_sb_take(&sb);
}

static void json_enum(evgen_strbuf *sb, const evgen_model_enum *en)
{
    evgen_sb_puts(sb, "{\"name\":");
    evgen_sb_json_string(sb, en->name);
    evgen_sb_puts(sb, ",\"values\":[");
    for (size_t i = 0; i < en->n_consts; i++) {
        evgen_sb_puts(sb, i ? ",{\"name\":" : "{\"name\":");
        evgen_sb_json_string(sb, en->consts[i].display_name);
        evgen_sb_puts(sb, ",\"c_name\":");
        evgen_sb_json_string(sb, en->consts[i].name);
        evgen_sb_printf(sb, ",\"value\":%lld}", (long long)en->consts[i].value);
    }
    evgen_sb_puts(sb, "]}");
}

static void json_struct(evgen_strbuf *sb, const evgen_model *model, const evgen_model_struct *st)
{
    evgen_sb_puts(sb, "{\"name\":");
    evgen_sb_json_string(sb, st->name);
    if (st->variable) /* no stride: each element its members back to back */
        evgen_sb_puts(sb, ",\"size\":null,\"variable\":true");
    else
        evgen_sb_printf(sb, ",\"size\":%u", st->size);
    evgen_sb_printf(sb, ",\"align\":%u,\"pointer_dependent\":%s,\"members\":[", st->align,
                    st->pointer_dependent ? "true" : "false");
    for (size_t i = 0; i < st->n_members; i++) {
        const evgen_model_struct_member *m = &st->members[i];
        evgen_sb_puts(sb, i ? ",{\"name\":" : "{\"name\":");
        evgen_sb_json_string(sb, m->name);
        evgen_sb_printf(sb, ",\"type\":\"%s\"", evgen_kind_name(m->kind));
        if (m->size)
            evgen_sb_printf(sb, ",\"size\":%u", m->size);
        else
            evgen_sb_puts(sb, ",\"size\":null");
        evgen_sb_printf(sb, ",\"offset\":%u", m->offset);
        if (m->enum_index >= 0) {
            evgen_sb_puts(sb, ",\"enum\":");
            evgen_sb_json_string(sb, model->enums[m->enum_index].name);
        }
        evgen_sb_putc(sb, '}');
    }
    evgen_sb_puts(sb, "]}");
}

static void json_slot(evgen_strbuf *sb, const evgen_model *model, const evgen_model_version *ver,
                      const evgen_model_slot *s, bool legacy)
{
    const evgen_model_field *f = s->field;
    evgen_sb_puts(sb, "{\"name\":");
    evgen_sb_json_string(sb, f->name);
    evgen_sb_printf(sb, ",\"type\":\"%s\"", f->is_array ? "array" : evgen_kind_name(f->type.kind));
    evgen_sb_puts(sb, ",\"c_type\":");
    evgen_sb_json_string(sb, f->type.c_spelling);
    if (s->size)
        evgen_sb_printf(sb, ",\"size\":%u", s->size);
    else
        evgen_sb_puts(sb, ",\"size\":null");
    if (s->after < 0)
        evgen_sb_printf(sb, ",\"offset\":%u", s->offset);
    else {
        evgen_sb_puts(sb, ",\"offset\":null,\"after_field\":");
        evgen_sb_json_string(sb, ver->slots[s->after].field->name);
        evgen_sb_printf(sb, ",\"offset_after\":%u", s->offset);
    }
    evgen_sb_printf(sb, ",\"since\":%u", legacy ? ver->version : f->since);
    if (s->ptrs_before > 0 || f->type.kind == EVGEN_WIRE_PTR)
        evgen_sb_printf(sb, ",\"pointer_dependent\":true,\"pointers_before\":%u", s->ptrs_before);
    if (f->type.enum_index >= 0) {
        evgen_sb_puts(sb, ",\"enum\":");
        evgen_sb_json_string(sb, model->enums[f->type.enum_index].name);
    }
    if (f->is_array) {
        evgen_sb_printf(sb, ",\"element_type\":\"%s\"", evgen_kind_name(f->type.kind));
        evgen_sb_puts(sb, ",\"count_field\":");
        evgen_sb_json_string(sb, f->count_name);
        if (f->type.kind == EVGEN_WIRE_STRUCT) {
            const evgen_model_struct *st = &model->structs[f->type.struct_index];
            evgen_sb_puts(sb, ",\"struct\":");
            evgen_sb_json_string(sb, st->name);
            if (st->variable)
                evgen_sb_puts(sb, ",\"element_size\":null");
            else
                evgen_sb_printf(sb, ",\"element_size\":%u", st->size);
        } else {
            evgen_sb_printf(sb, ",\"element_size\":%u", evgen_kind_size(f->type.kind));
        }
    }
    evgen_sb_putc(sb, '}');
}

char *evgen_describe_json(const evgen_model *model)
{
    evgen_strbuf sb;
    evgen_sb_init(&sb);
    evgen_sb_puts(&sb, "{\"evgen_describe\":1,\"manifest\":");
    evgen_sb_json_string(&sb, model->manifest_path);
    evgen_sb_puts(&sb, ",\n\"providers\":[");
    for (size_t p = 0; p < model->n_providers; p++) {
        evgen_sb_puts(&sb, p ? ",\n {\"symbol\":" : "\n {\"symbol\":");
        evgen_sb_json_string(&sb, model->providers[p].symbol);
        evgen_sb_puts(&sb, ",\"name\":");
        evgen_sb_json_string(&sb, model->providers[p].name);
        evgen_sb_putc(&sb, '}');
    }
    evgen_sb_puts(&sb, "],\n\"enums\":[");
    for (size_t i = 0; i < model->n_enums; i++) {
        evgen_sb_puts(&sb, i ? ",\n " : "\n ");
        json_enum(&sb, &model->enums[i]);
    }
    evgen_sb_puts(&sb, "],\n\"structs\":[");
    for (size_t i = 0; i < model->n_structs; i++) {
        evgen_sb_puts(&sb, i ? ",\n " : "\n ");
        json_struct(&sb, model, &model->structs[i]);
    }
    evgen_sb_puts(&sb, "],\n\"events\":[");
    for (size_t i = 0; i < model->n_events; i++) {
        const evgen_model_event *e = &model->events[i];
        evgen_sb_puts(&sb, i ? ",\n {\"name\":" : "\n {\"name\":");
        evgen_sb_json_string(&sb, e->name);
        evgen_sb_printf(&sb, ",\"id\":%llu,\"provider\":", (unsigned long long)e->id);
        evgen_sb_json_string(&sb, e->provider_index >= 0 ? model->providers[e->provider_index].name : "");
        /* keywords_hex: exact for every 64-bit mask, where double-based JSON parsers round. */
        evgen_sb_printf(&sb,
                        ",\"level\":%llu,\"keywords\":%llu,\"keywords_hex\":\"0x%llx\",\"first_version\":%u,"
                        "\"latest_version\":%u",
                        (unsigned long long)e->level, (unsigned long long)e->keywords,
                        (unsigned long long)e->keywords, e->first_version, e->latest_version);
        evgen_sb_puts(&sb, ",\"versions\":[");
        for (size_t v = 0; v < e->n_versions; v++) {
            const evgen_model_version *ver = &e->versions[v];
            evgen_sb_printf(&sb, "%s\n  {\"version\":%u,\"legacy\":%s,", v ? "," : "", ver->version,
                            ver->legacy ? "true" : "false");
            /* The version's own (EVENT_VERSION_ATTRIBUTES), else the event's. */
            evgen_sb_printf(&sb, "\"level\":%llu,\"keywords\":%llu,\"keywords_hex\":\"0x%llx\",\"own_attributes\":%s,",
                            (unsigned long long)ver->level, (unsigned long long)ver->keywords,
                            (unsigned long long)ver->keywords, ver->own_attributes ? "true" : "false");
            if (ver->variable_size)
                evgen_sb_puts(&sb, "\"size\":null");
            else
                evgen_sb_printf(&sb, "\"size\":%u", ver->fixed_size);
            evgen_sb_printf(&sb, ",\"pointer_dependent\":%s,\"fields\":[", ver->pointer_dependent ? "true" : "false");
            for (size_t s = 0; s < ver->n_slots; s++) {
                evgen_sb_puts(&sb, s ? ",\n   " : "\n   ");
                json_slot(&sb, model, ver, &ver->slots[s], ver->legacy);
            }
            evgen_sb_puts(&sb, "]}");
        }
        evgen_sb_puts(&sb, "]}");
    }
    evgen_sb_puts(&sb, "]}\n");
    return evgen_sb_take(&sb);
}
