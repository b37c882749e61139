/* model.c — the model's storage: construction, lookup and the canonical type signatures. */
#include "model/model.h"

#include <stdlib.h>
#include <string.h>

#include "model/util.h"

const char *evgen_kind_name(evgen_wire_kind kind)
{
    const evgen_wire_kind_info *info = evgen_wire_kind_info_of(kind);
    return info ? info->spelling : "?";
}

unsigned evgen_kind_size(evgen_wire_kind kind)
{
    return evgen_wire_kind_size(kind, EVGEN_MODEL_POINTER_SIZE);
}

void evgen_model_init(evgen_model *model)
{
    memset(model, 0, sizeof *model);
}

static void free_field(evgen_model_field *f)
{
    free(f->name);
    free(f->type.c_spelling);
    free(f->count_name);
}

static void free_event(evgen_model_event *e)
{
    free(e->name);
    free(e->provider_symbol);
    for (size_t i = 0; i < e->n_fields; i++)
        free_field(&e->fields[i]);
    free(e->fields);
    for (size_t i = 0; i < e->n_legacy_fields; i++)
        free_field(&e->legacy_fields[i]);
    free(e->legacy_fields);
    free(e->explicit_versions);
    free(e->explicit_version_locs);
    free(e->attributes);
    for (size_t i = 0; i < e->n_versions; i++)
        free(e->versions[i].slots);
    free(e->versions);
    free(e->all_fields);
}

void evgen_model_free(evgen_model *model)
{
    free(model->manifest_path);
    for (size_t i = 0; i < model->n_included_files; i++)
        free(model->included_files[i]);
    free(model->included_files);
    for (size_t i = 0; i < model->n_providers; i++) {
        free(model->providers[i].symbol);
        free(model->providers[i].name);
    }
    free(model->providers);
    for (size_t i = 0; i < model->n_events; i++)
        free_event(&model->events[i]);
    free(model->events);
    for (size_t i = 0; i < model->n_enums; i++) {
        evgen_model_enum *en = &model->enums[i];
        for (size_t j = 0; j < en->n_consts; j++) {
            free(en->consts[j].name);
            free(en->consts[j].display_name);
        }
        free(en->consts);
        free(en->name);
    }
    free(model->enums);
    for (size_t i = 0; i < model->n_structs; i++) {
        evgen_model_struct *st = &model->structs[i];
        for (size_t j = 0; j < st->n_members; j++) {
            free(st->members[j].name);
            free(st->members[j].c_spelling);
        }
        free(st->members);
        free(st->name);
        free(st->c_type);
    }
    free(model->structs);
    for (size_t i = 0; i < model->n_file_pool; i++)
        free(model->file_pool[i]);
    free(model->file_pool);
    evgen_model_init(model);
}

const char *evgen_model_intern_file(evgen_model *model, const char *file)
{
    /* Few distinct files (the manifest and its headers): a linear search is enough, and the
     * most recent one is the likeliest. */
    for (size_t i = model->n_file_pool; i-- > 0;)
        if (strcmp(model->file_pool[i], file) == 0)
            return model->file_pool[i];
    char **slot = EVGEN_PUSH(model->file_pool, model->n_file_pool);
    *slot = evgen_xstrdup(file);
    return *slot;
}

const evgen_model_event *evgen_model_find_event(const evgen_model *model, const char *name)
{
    for (size_t i = 0; i < model->n_events; i++)
        if (strcmp(model->events[i].name, name) == 0)
            return &model->events[i];
    return NULL;
}

int evgen_model_event_find_field(const evgen_model_event *event, const char *name)
{
    for (size_t i = 0; i < event->n_fields; i++)
        if (strcmp(event->fields[i].name, name) == 0)
            return (int)i;
    return -1;
}

const evgen_model_version *evgen_model_event_version(const evgen_model_event *event, unsigned version)
{
    if (version < event->first_version || version > event->latest_version || !event->n_versions)
        return NULL;
    return &event->versions[version - event->first_version];
}

int evgen_model_version_find_slot(const evgen_model_version *version, const char *name)
{
    for (size_t i = 0; i < version->n_slots; i++)
        if (strcmp(version->slots[i].field->name, name) == 0)
            return (int)i;
    return -1;
}

unsigned evgen_model_type_size(const evgen_model *model, const evgen_model_type *type)
{
    (void)model;
    return evgen_kind_size(type->kind);
}

static void append_scalar_signature(evgen_strbuf *sb, evgen_wire_kind kind)
{
    evgen_sb_puts(sb, evgen_kind_name(kind));
}

char *evgen_model_field_signature(const evgen_model *model, const evgen_model_field *field)
{
    evgen_strbuf sb;
    evgen_sb_init(&sb);
    if (!field->is_array) {
        append_scalar_signature(&sb, field->type.kind);
        return evgen_sb_take(&sb);
    }
    evgen_sb_puts(&sb, "array<");
    if (field->type.kind == EVGEN_WIRE_STRUCT && field->type.struct_index >= 0) {
        const evgen_model_struct *st = &model->structs[field->type.struct_index];
        evgen_sb_puts(&sb, "struct{");
        for (size_t i = 0; i < st->n_members; i++) {
            const evgen_model_struct_member *m = &st->members[i];
            evgen_sb_printf(&sb, "%s%s:%s@%u", i ? "," : "", m->name, evgen_kind_name(m->kind), m->offset);
        }
        if (st->variable) /* no stride: members back to back, offsets after the last string */
            evgen_sb_puts(&sb, "}/var");
        else
            evgen_sb_printf(&sb, "}/%u", st->size);
    } else {
        append_scalar_signature(&sb, field->type.kind);
    }
    evgen_sb_printf(&sb, ">[%s]", field->count_name ? field->count_name : "?");
    return evgen_sb_take(&sb);
}
