/* lock_model.c — a model rebuilt from a lock file: the layouts an old version of a manifest froze,
 * so that `evgen gen --from-lock` can generate the reader that version of the manifest had, and
 * tests can read today's traces with it (forward compatibility). Level and keywords are not
 * locked and come back as 0; enums come back as their wire integers. */
#include "lock/lock_model.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_check.h"
#include "model/util.h"

#include "evgen/wire_layout.h"

/* The kind a lock spells `name` (`uint32`), or -1. */
static int kind_named(const char *name, size_t len)
{
    unsigned kind = evgen_wire_kind_by_spelling(name, len);
    return kind ? (int)kind : -1;
}

/* The manifest type that declares a kind (the `decl` column of evgen/wire_kinds.h). */
static const char *c_type_of(evgen_wire_kind kind)
{
    const evgen_wire_kind_info *info = evgen_wire_kind_info_of(kind);
    return info ? info->decl : "?";
}

static void free_members(evgen_model_struct *st)
{
    for (size_t i = 0; i < st->n_members; i++) {
        free(st->members[i].name);
        free(st->members[i].c_spelling);
    }
    free(st->members);
}

/* The unsigned decimal that is exactly [s, end), at most UINT32_MAX: true and *out, or false. */
static bool parse_u32(const char *s, const char *end, unsigned *out)
{
    unsigned long long v = 0;
    if (s >= end)
        return false;
    for (; s < end; s++) {
        if (*s < '0' || *s > '9')
            return false;
        v = v * 10 + (unsigned)(*s - '0');
        if (v > UINT32_MAX)
            return false;
    }
    *out = (unsigned)v;
    return true;
}

/* "struct{A:uint32@0,B:ptr@8}/16": a struct of the model (reused when an identical one exists).
 * Its members are scalars, or strings in a variable struct (/var); never structs. */
static int parse_struct(evgen_model *model, const char *sig, size_t len)
{
    const char *open = memchr(sig, '{', len), *close = memchr(sig, '}', len);
    if (!open || !close || close < open || close + 1 >= sig + len || close[1] != '/')
        return -1;
    evgen_model_struct st;
    memset(&st, 0, sizeof st);
    const char *sig_end = sig + len;
    st.variable = sig_end - (close + 2) == 3 && memcmp(close + 2, "var", 3) == 0;
    if (!st.variable && !parse_u32(close + 2, sig_end, &st.size))
        return -1;
    st.align = 1;
    const char *p = open + 1;
    while (p < close) {
        const char *colon = memchr(p, ':', (size_t)(close - p)), *at = memchr(p, '@', (size_t)(close - p));
        const char *end = memchr(p, ',', (size_t)(close - p));
        if (!end)
            end = close;
        if (!colon || !at || colon > at || at > end)
            break;
        int kind = kind_named(colon + 1, (size_t)(at - colon - 1));
        unsigned offset;
        if (kind < 0 || kind == EVGEN_WIRE_STRUCT || !parse_u32(at + 1, end, &offset))
            break;
        char *name = evgen_xstrndup(p, (size_t)(colon - p));
        if (!evgen_valid_name(name)) { /* a member name is part of generated names */
            free(name);
            free_members(&st);
            return -1;
        }
        evgen_model_struct_member *m = EVGEN_PUSH(st.members, st.n_members);
        m->name = name;
        m->kind = (evgen_wire_kind)kind;
        m->offset = offset;
        m->size = evgen_kind_size(m->kind); /* 0 for a string (variable structs only) */
        /* a fixed struct's member inside its element (a trace's metadata must say so too) */
        m->enum_index = -1;
        m->c_spelling = evgen_xstrdup(c_type_of(m->kind));
        if (!st.variable && !evgen_wire_member_fits(m->size, m->offset, st.size)) {
            free_members(&st);
            return -1;
        }
        if (m->kind == EVGEN_WIRE_PTR)
            st.pointer_dependent = true;
        p = end + 1;
    }
    /* What a trace's metadata must hold of a struct (the reader's decoder refuses the rest): every
     * member understood, at least one, a fixed struct's size, a variable struct's string. */
    bool has_string = false;
    for (size_t i = 0; i < st.n_members; i++)
        has_string = has_string || st.members[i].size == 0;
    if (p < close || st.n_members == 0 || (st.variable ? !has_string : st.size == 0)) {
        free_members(&st);
        return -1;
    }
    size_t index = model->n_structs;
    st.name = evgen_xasprintf("LockedStruct%zu", index);
    st.c_type = evgen_xstrdup(st.name);
    *EVGEN_PUSH(model->structs, model->n_structs) = st;
    return (int)index;
}

/* Fills a field's type from its lock signature; returns 0 or -1. */
static int parse_signature(evgen_model *model, const char *sig, evgen_model_field *f)
{
    f->type.enum_index = -1;
    f->type.struct_index = -1;
    f->count_index = -1;
    if (strncmp(sig, "array<", 6) == 0) {
        const char *gt = strrchr(sig, '>'), *lb = strrchr(sig, '['), *rb = strrchr(sig, ']');
        if (!gt || !lb || !rb || lb < gt || rb < lb || rb[1] != '\0')
            return -1;
        f->is_array = true;
        f->count_name = evgen_xstrndup(lb + 1, (size_t)(rb - lb - 1));
        const char *elem = sig + 6;
        size_t len = (size_t)(gt - elem);
        if (strncmp(elem, "struct{", 7) == 0) {
            f->type.kind = EVGEN_WIRE_STRUCT;
            f->type.struct_index = parse_struct(model, elem, len);
            if (f->type.struct_index < 0)
                return -1;
        } else {
            int kind = kind_named(elem, len);
            /* a struct element is spelled struct{...}; a string has no size to step by */
            if (kind < 0 || kind == EVGEN_WIRE_STRUCT || evgen_wire_kind_is_string((unsigned)kind))
                return -1;
            f->type.kind = (evgen_wire_kind)kind;
        }
    } else {
        int kind = kind_named(sig, strlen(sig));
        if (kind < 0 || kind == EVGEN_WIRE_STRUCT)
            return -1;
        f->type.kind = (evgen_wire_kind)kind;
    }
    f->type.c_spelling = evgen_xstrdup(f->type.kind == EVGEN_WIRE_STRUCT ? model->structs[f->type.struct_index].name
                                                                          : c_type_of(f->type.kind));
    return 0;
}

static int provider_index(evgen_model *model, const char *name)
{
    for (size_t p = 0; p < model->n_providers; p++)
        if (strcmp(model->providers[p].name, name) == 0)
            return (int)p;
    evgen_model_provider *p = EVGEN_PUSH(model->providers, model->n_providers);
    p->name = evgen_xstrdup(name);
    p->symbol = evgen_xasprintf("LockedProvider%zu", model->n_providers - 1);
    return (int)model->n_providers - 1;
}

static int add_field(evgen_model *model, evgen_model_field **fields, size_t *n, const evgen_lock_field *lf,
                     unsigned since, evgen_model_loc loc, evgen_diags *diags)
{
    evgen_model_field *f = EVGEN_PUSH(*fields, *n);
    f->name = evgen_xstrdup(lf->name);
    f->since = since;
    evgen_model_loc at = {loc.file, lf->loc.line, lf->loc.col}; /* the field's line, for every check */
    f->loc = f->since_loc = f->type_loc = f->name_loc = f->count_loc = at;
    /* The lock's words may be quoted, but a name becomes part of generated C names */
    if (!evgen_valid_name(lf->name)) {
        evgen_error(diags, &at, EVGEN_D_LOCK_SYNTAX, "field name '%s' is not a C identifier", lf->name);
        return -1;
    }
    if (parse_signature(model, lf->signature, f) != 0) {
        evgen_error(diags, &at, EVGEN_D_LOCK_SYNTAX, "cannot read the type signature '%s' of field '%s'",
                    lf->signature, lf->name);
        return -1;
    }
    return 0;
}

/* The version of `le` that first has a field named `name` (legacy versions included). */
static unsigned first_version_with(const evgen_lock_event *le, const char *name)
{
    unsigned first = ~0u;
    for (size_t v = 0; v < le->n_versions; v++)
        for (size_t i = 0; i < le->versions[v].n_fields; i++)
            if (strcmp(le->versions[v].fields[i].name, name) == 0 && le->versions[v].version < first)
                first = le->versions[v].version;
    return first;
}

int evgen_model_from_lock(const evgen_lock *lock, evgen_model *model, evgen_diags *diags)
{
    size_t errors_before = diags->n_errors;
    model->manifest_path = evgen_xstrdup(lock->path);
    for (size_t i = 0; i < lock->n_events; i++) {
        const evgen_lock_event *le = &lock->events[i];
        evgen_model_loc loc = {evgen_model_intern_file(model, lock->path), le->loc.line, le->loc.col};
        evgen_model_event *e = EVGEN_PUSH(model->events, model->n_events);
        e->name = evgen_xstrdup(le->name);
        e->id = le->id;
        e->provider_index = provider_index(model, le->provider);
        e->provider_symbol = evgen_xstrdup(model->providers[e->provider_index].symbol);
        e->loc = e->name_loc = e->id_loc = e->provider_loc = e->level_loc = e->keywords_loc = loc;
        if (!evgen_valid_name(le->name))
            evgen_error(diags, &loc, EVGEN_D_LOCK_SYNTAX, "event name '%s' is not a C identifier", le->name);
        if (!le->n_versions)
            continue;
        /* The newest version's fields, in order, are the event's fields; legacy versions keep
         * their own layouts; a version without fields is declared explicitly. */
        const evgen_lock_version *latest = &le->versions[le->n_versions - 1];
        for (size_t k = 0; k < latest->n_fields; k++)
            add_field(model, &e->fields, &e->n_fields, &latest->fields[k],
                      first_version_with(le, latest->fields[k].name), loc, diags);
        for (size_t v = 0; v < le->n_versions; v++) {
            const evgen_lock_version *lv = &le->versions[v];
            if (lv->legacy)
                for (size_t k = 0; k < lv->n_fields; k++)
                    add_field(model, &e->legacy_fields, &e->n_legacy_fields, &lv->fields[k], lv->version, loc, diags);
            size_t n = e->n_explicit_versions;
            *EVGEN_PUSH(e->explicit_versions, e->n_explicit_versions) = lv->version;
            e->explicit_version_locs = evgen_xrealloc(e->explicit_version_locs, (n + 1) * sizeof(evgen_model_loc));
            e->explicit_version_locs[n] = loc;
        }
    }
    if (diags->n_errors > errors_before)
        return -1;
    /* provider_symbol is resolved by name in the checks: give each its provider's symbol. */
    return evgen_model_check(model, diags);
}
