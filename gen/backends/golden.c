/* golden.c — golden traces: `evgen lock --traces DIR` records, for every locked version no golden
 * trace of DIR holds yet (every version, when none is in today's container format), a new trace
 * with those event versions fired with the deterministic values of golden_values.h, written by
 * today's writer (libevgen-runtime) through descriptors built from the model. Golden traces are
 * committed and never rewritten; tests read them all. */
#include "backends/golden.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden_values.h"
#include "backends/manifest_desc.h"
#include "evgen/runtime.h"
#include "evgen/runtime_emit.h"
#include "model/util.h"

/* ---- payloads --------------------------------------------------------------------------- */

static void put_bytes(void *ctx, const void *p, size_t n)
{
    evgen_sb_putn(ctx, p, n);
}

/* The payload of one version, field by field, with the golden values. */
static void golden_payload(const evgen_model *model, const evgen_model_event *e, const evgen_model_version *ver,
                           evgen_strbuf *sb)
{
    uint32_t counts[256] = {0};
    for (size_t i = 0; i < ver->n_slots; i++) {
        const evgen_model_field *f = ver->slots[i].field;
        uint64_t v = evgen_golden_value(e->name, ver->version, f->name);
        bool is_count = false;
        for (size_t k = 0; k < ver->n_slots; k++)
            is_count = is_count || (ver->slots[k].field->is_array && strcmp(ver->slots[k].field->count_name, f->name) == 0);
        if (is_count && i < 256)
            v = counts[i] = evgen_golden_count(e->name, ver->version, f->name);
        if (f->is_array && f->type.kind == EVGEN_WIRE_STRUCT && model->structs[f->type.struct_index].variable) {
            /* A variable struct: each member of each element a golden scalar of its own. */
            const evgen_model_struct *st = &model->structs[f->type.struct_index];
            int c = evgen_model_version_find_slot(ver, f->count_name);
            uint32_t n = c >= 0 && c < 256 ? counts[c] : 0;
            for (uint32_t k = 0; k < n; k++)
                for (size_t m = 0; m < st->n_members; m++)
                    evgen_golden_scalar(st->members[m].kind, evgen_kind_size(st->members[m].kind),
                                        evgen_golden_member_value(v, k, (uint32_t)m), put_bytes, sb);
            continue;
        }
        if (f->is_array) {
            int c = evgen_model_version_find_slot(ver, f->count_name);
            unsigned elem = f->type.kind == EVGEN_WIRE_STRUCT ? model->structs[f->type.struct_index].size
                                                               : evgen_kind_size(f->type.kind);
            size_t n = (size_t)(c >= 0 && c < 256 ? counts[c] : 0) * elem;
            for (size_t k = 0; k < n; k++)
                evgen_sb_putc(sb, (char)evgen_golden_byte(v, k));
            continue;
        }
        evgen_golden_scalar(f->type.kind, evgen_kind_size(f->type.kind), v, put_bytes, sb);
    }
}

/* ---- which versions the golden traces hold ---------------------------------------------- */

static bool is_golden_file(const char *name, const char *prefix, unsigned *number)
{
    size_t n = strlen(prefix);
    unsigned k = 0;
    char tail[16];
    if (strncmp(name, prefix, n) != 0 || name[n] != '-' || sscanf(name + n + 1, "%u%15s", &k, tail) != 2 ||
        strcmp(tail, ".evtrace") != 0)
        return false;
    *number = k;
    return true;
}

int evgen_golden_record(const evgen_model *model, const char *name, const char *dir, evgen_outset *set,
                        unsigned *number, size_t *n_versions, evgen_diags *diags)
{
    *number = 0;
    *n_versions = 0;
    /* What the traces already there hold. */
    evgen_golden_set held = {NULL, 0, 0};
    unsigned last = 0;
    DIR *d = opendir(dir);
    if (!d) {
        evgen_error(diags, NULL, EVGEN_D_IO, "cannot open the golden trace directory '%s': %s", dir, strerror(errno));
        return -1;
    }
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) {
        unsigned k;
        if (!is_golden_file(entry->d_name, name, &k))
            continue;
        if (k > last)
            last = k;
        char *path = evgen_xasprintf("%s/%s", dir, entry->d_name);
        evgen_golden_list(path, &held);
        free(path);
    }
    closedir(d);

    /* Every version of the model that none holds; every version when none is in the container
     * format today's writer writes (a new format: the test then reads every version in it, as
     * traces will be written from now on, beside the older traces it keeps reading). */
    evgen_golden_set nothing = {NULL, 0, 0};
    const evgen_golden_set *lacking = held.newest_format >= EVGEN_WIRE_FORMAT_VERSION ? &held : &nothing;
    size_t n_missing = 0;
    for (size_t i = 0; i < model->n_events; i++)
        for (size_t v = 0; v < model->events[i].n_versions; v++)
            if (!evgen_golden_holds(lacking, model->events[i].name, model->events[i].versions[v].version))
                n_missing++;
    int status = 0;
    if (n_missing) {
        char *path = evgen_xasprintf("%s/%s-%04u.evtrace", dir, name, last + 1);
        evgen_output *out = evgen_outset_add(set, path, diags);
        status = out ? evgen_golden_write(model, name, out->tmp, lacking, diags) : -1;
        if (status == 0) {
            *number = last + 1;
            *n_versions = n_missing;
        }
        free(path);
    }
    evgen_golden_set_free(&held);
    return status;
}

/* Writes the versions `held` lacks into `path` (a temporary file of the caller's, renamed into place
 * with the other outputs of the command). */
int evgen_golden_write(const evgen_model *model, const char *name, const char *path, const evgen_golden_set *held,
                       evgen_diags *diags)
{
    /* The descriptors stay allocated: the runtime keeps a registered manifest for the life of
     * the process (it has no unregister), and evgen records golden traces once per run. */
    evgen_manifest_desc *desc = evgen_manifest_desc_build(model, name);
    evgen_register_manifest(desc);
    evgen_session *s = evgen_session_open_file(path, NULL);
    int status = 0;
    if (!s) {
        evgen_error(diags, NULL, EVGEN_D_IO, "cannot write the golden trace '%s': %s", path, strerror(errno));
        status = -1;
    } else {
        evgen_session_enable(s, NULL, 255, ~0ull);
        evgen_strbuf payload;
        evgen_sb_init(&payload);
        for (size_t i = 0; i < model->n_events && status == 0; i++) {
            const evgen_model_event *e = &model->events[i];
            for (size_t v = 0; v < e->n_versions && status == 0; v++) {
                const evgen_model_version *ver = &e->versions[v];
                if (evgen_golden_holds(held, e->name, ver->version))
                    continue;
                payload.len = 0;
                golden_payload(model, e, ver, &payload);
                evgen_emit em;
                uint8_t *p = evgen_emit_begin(&em, desc, desc->events[i].type_offset + (uint32_t)v,
                                              ver->variable_size, (uint32_t)payload.len,
                                              (const uint8_t *)&desc->enabled[i]);
                if (!p) {
                    evgen_error(diags, NULL, EVGEN_D_IO, "cannot write %s v%u into the golden trace (status %u)",
                                e->name, ver->version, em.status);
                    status = -1;
                    break;
                }
                if (payload.len)
                    memcpy(p, payload.data, payload.len);
                evgen_emit_commit(&em, p + payload.len);
            }
        }
        evgen_sb_free(&payload);
        if (evgen_session_close(s, NULL, NULL, NULL) != 0 && status == 0) {
            evgen_error(diags, NULL, EVGEN_D_IO, "cannot write the golden trace '%s': %s", path, strerror(errno));
            status = -1;
        }
    }
    return status;
}
