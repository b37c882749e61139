/* manifest_desc.c — libevgen-runtime's descriptors built from a model, at generation time: golden
 * traces are written through them (golden.c), and the metadata of a model is encoded from them by
 * the runtime's own encoder, so the generated reader's NAME_reader_manifest holds exactly the bytes
 * the generated runtime side writes. */
#include "backends/manifest_desc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evgen/reader.h"
#include "model/diag.h"
#include "model/util.h"

/* The descriptors and every block they point to; the manifest first, so that the descriptor the
 * caller holds is the whole. */
typedef struct built {
    evgen_manifest_desc manifest;
    void **blocks;
    size_t n_blocks;
} built;

static void *keep(built *b, size_t size)
{
    void *p = evgen_xcalloc(1, size);
    *EVGEN_PUSH(b->blocks, b->n_blocks) = p;
    return p;
}

static void build_versions(built *b, const evgen_model_event *e, evgen_event_desc *ed)
{
    evgen_version_desc *vd = keep(b, (e->n_versions ? e->n_versions : 1) * sizeof *vd);
    for (size_t v = 0; v < e->n_versions; v++) {
        const evgen_model_version *ver = &e->versions[v];
        evgen_field_desc *fd = keep(b, (ver->n_slots ? ver->n_slots : 1) * sizeof *fd);
        for (size_t i = 0; i < ver->n_slots; i++) {
            const evgen_model_field *f = ver->slots[i].field;
            fd[i].name = f->name;
            fd[i].kind = (uint8_t)(f->type.kind);
            fd[i].flags = f->is_array ? EVGEN_FIELD_ARRAY : 0;
            fd[i].enum_index = (int16_t)f->type.enum_index;
            fd[i].struct_index = (int16_t)f->type.struct_index;
            fd[i].count_field = (int16_t)(f->is_array ? evgen_model_version_find_slot(ver, f->count_name) : -1);
        }
        vd[v].size = sizeof vd[v];
        vd[v].version = (uint16_t)ver->version;
        vd[v].flags = (uint16_t)((ver->legacy ? EVGEN_VERSION_LEGACY : 0) | (ver->variable_size ? EVGEN_VERSION_VARIABLE : 0) |
                                 (ver->own_attributes ? EVGEN_VERSION_ATTRIBUTES : 0));
        vd[v].fixed_size = ver->variable_size ? 0 : ver->fixed_size; /* 8-byte pointers: this host's */
        vd[v].fields = ver->n_slots ? fd : NULL;
        vd[v].n_fields = (uint32_t)ver->n_slots;
        vd[v].level = (uint8_t)ver->level;
        vd[v].keywords = ver->keywords;
        vd[v].enabled = (uint32_t)(ver->enabled_byte + 1);
    }
    ed->versions = vd;
    ed->n_versions = (uint32_t)e->n_versions;
}

evgen_manifest_desc *evgen_manifest_desc_build(const evgen_model *model, const char *name)
{
    built *b = evgen_xcalloc(1, sizeof *b);
    const char **providers = keep(b, (model->n_providers + 1) * sizeof *providers);
    for (size_t p = 0; p < model->n_providers; p++)
        providers[p] = model->providers[p].name;
    evgen_enum_desc *enums = keep(b, (model->n_enums + 1) * sizeof *enums);
    for (size_t i = 0; i < model->n_enums; i++) {
        const evgen_model_enum *en = &model->enums[i];
        evgen_enum_const_desc *c = keep(b, (en->n_consts + 1) * sizeof *c);
        for (size_t k = 0; k < en->n_consts; k++) {
            c[k].name = en->consts[k].display_name;
            c[k].value = en->consts[k].value;
        }
        enums[i] = (evgen_enum_desc){sizeof(evgen_enum_desc), en->name, c, (uint32_t)en->n_consts};
    }
    evgen_struct_desc *structs = keep(b, (model->n_structs + 1) * sizeof *structs);
    for (size_t i = 0; i < model->n_structs; i++) {
        const evgen_model_struct *st = &model->structs[i];
        evgen_member_desc *m = keep(b, (st->n_members + 1) * sizeof *m);
        for (size_t k = 0; k < st->n_members; k++)
            m[k] = (evgen_member_desc){st->members[k].name, (uint8_t)(st->members[k].kind),
                                       (int16_t)st->members[k].enum_index, st->members[k].offset};
        structs[i] = (evgen_struct_desc){sizeof(evgen_struct_desc), st->name, st->size, m, (uint32_t)st->n_members};
    }
    evgen_event_desc *events = keep(b, (model->n_events + 1) * sizeof *events);
    uint32_t types = 0;
    for (size_t i = 0; i < model->n_events; i++) {
        const evgen_model_event *e = &model->events[i];
        evgen_event_desc *ed = &events[i];
        ed->size = sizeof *ed;
        ed->name = e->name;
        ed->provider = (uint32_t)e->provider_index;
        ed->id = (uint32_t)e->id;
        ed->level = (uint8_t)e->level;
        ed->keywords = e->keywords;
        ed->type_offset = types;
        build_versions(b, e, ed);
        types += (uint32_t)e->n_versions;
    }
    uint8_t *enabled = keep(b, model->n_enabled + 1);
    char *copy = keep(b, strlen(name) + 1);
    memcpy(copy, name, strlen(name) + 1);
    b->manifest = (evgen_manifest_desc){sizeof(evgen_manifest_desc), EVGEN_RUNTIME_ABI, copy, providers,
                                        (uint32_t)model->n_providers, events, (uint32_t)model->n_events, types,
                                        enums, (uint32_t)model->n_enums, structs, (uint32_t)model->n_structs,
                                        enabled, 0, NULL, (uint32_t)model->n_enabled};
    return &b->manifest;
}

void evgen_manifest_desc_free(evgen_manifest_desc *desc)
{
    if (!desc)
        return;
    built *b = (built *)(void *)desc; /* the manifest is the first member */
    for (size_t i = 0; i < b->n_blocks; i++)
        free(b->blocks[i]);
    free(b->blocks);
    free(b);
}

uint8_t *evgen_model_metadata(const evgen_model *model, const char *name, size_t *size)
{
    evgen_manifest_desc *desc = evgen_manifest_desc_build(model, name);
    uint8_t *bytes = evgen_manifest_metadata(desc, size);
    evgen_manifest_desc_free(desc);
    if (!bytes) {
        fputs("evgen: fatal: out of memory\n", stderr);
        abort();
    }
    return bytes;
}

int evgen_model_metadata_check(const evgen_model *model, evgen_diags *diags)
{
    size_t size = 0;
    uint8_t *metadata = evgen_model_metadata(model, "check", &size);
    evgen_reader_manifest manifest = {"check", metadata, size};
    const evgen_reader_manifest *manifests[] = {&manifest};
    evgen_reader_options options = {manifests, 1};
    int rc = 0;
    for (unsigned pointer_size = 8; pointer_size >= 4 && rc == 0; pointer_size -= 4) {
        char *error = NULL;
        evgen_reader *schema = evgen_reader_open_schema(&options, pointer_size, &error);
        if (!schema) {
            evgen_model_loc at = {model->manifest_path, 0, 0};
            evgen_error(diags, &at, EVGEN_D_IO, "the layouts of these events cannot be described to a reader (%s)",
                        error ? error : "out of memory");
            rc = -1;
        }
        evgen_reader_close(schema);
        free(error);
    }
    free(metadata);
    return rc;
}
