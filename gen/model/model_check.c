/* model_check.c — the manifest's rules, checked on the declarations the front end produced, and
 * the lowering of every event into per-version layouts (slots with offsets). */
#include <stdlib.h>
#include <string.h>

#include "model/model_check.h"

#include "evgen/wire_layout.h"
#include "model/util.h"

static void check_providers(evgen_model *model, evgen_diags *diags)
{
    for (size_t i = 0; i < model->n_providers; i++) {
        const evgen_model_provider *p = &model->providers[i];
        for (size_t j = 0; j < i; j++) {
            const evgen_model_provider *q = &model->providers[j];
            if (strcmp(p->symbol, q->symbol) == 0) {
                evgen_error(diags, &p->symbol_loc, EVGEN_D_DUP_PROVIDER, "duplicate provider symbol '%s'", p->symbol);
                evgen_note(diags, &q->symbol_loc, "'%s' was first declared here", q->symbol);
                break;
            }
            if (strcmp(p->name, q->name) == 0) {
                evgen_error(diags, &p->name_loc, EVGEN_D_DUP_PROVIDER, "duplicate provider name \"%s\"", p->name);
                evgen_note(diags, &q->name_loc, "provider '%s' already has this name", q->symbol);
                break;
            }
        }
    }
}

static void check_event_identity(evgen_model *model, evgen_diags *diags)
{
    for (size_t i = 0; i < model->n_events; i++) {
        evgen_model_event *e = &model->events[i];
        for (size_t p = 0; p < model->n_providers; p++)
            if (strcmp(model->providers[p].symbol, e->provider_symbol) == 0)
                e->provider_index = (int)p;
        if (e->provider_index < 0) {
            evgen_error(diags, &e->provider_loc, EVGEN_D_UNKNOWN_PROVIDER, "unknown provider '%s' for event '%s'",
                        e->provider_symbol, e->name);
            if (model->n_providers)
                evgen_note(diags, &model->providers[0].symbol_loc, "declared providers include '%s'",
                           model->providers[0].symbol);
            else
                evgen_note(diags, NULL, "declare it with EVENT_PROVIDER(%s, \"Provider-Name\")", e->provider_symbol);
        }
        for (size_t j = 0; j < i; j++) {
            const evgen_model_event *o = &model->events[j];
            if (strcmp(o->name, e->name) == 0) {
                evgen_error(diags, &e->name_loc, EVGEN_D_DUP_EVENT_NAME, "duplicate event name '%s'", e->name);
                evgen_note(diags, &o->name_loc, "'%s' was first declared here", o->name);
                break;
            }
            if (o->id == e->id && e->provider_index >= 0 && o->provider_index == e->provider_index) {
                evgen_error(diags, &e->id_loc, EVGEN_D_DUP_EVENT_ID,
                            "event id %llu of '%s' is already used by '%s' in provider '%s'",
                            (unsigned long long)e->id, e->name, o->name, e->provider_symbol);
                evgen_note(diags, &o->id_loc, "'%s' was declared with id %llu here", o->name,
                           (unsigned long long)o->id);
                break;
            }
        }
    }
}

/* A small set of versions (0..255). */
typedef struct version_set {
    bool has[256];
} version_set;

static bool check_duplicate_fields(const evgen_model_field *fields, size_t n, evgen_diags *diags, const char *event,
                                   const char *what)
{
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < i; j++) {
            bool same_scope = what == NULL || fields[i].since == fields[j].since;
            if (same_scope && strcmp(fields[i].name, fields[j].name) == 0) {
                evgen_error(diags, &fields[i].name_loc, EVGEN_D_DUP_FIELD, "duplicate field name '%s' in %s'%s'",
                            fields[i].name, what ? what : "event ", event);
                evgen_note(diags, &fields[j].name_loc, "'%s' was first declared here", fields[j].name);
                ok = false;
                break;
            }
        }
    }
    return ok;
}

static bool check_arrays(evgen_model_event *e, evgen_diags *diags)
{
    bool ok = true;
    for (size_t i = 0; i < e->n_fields; i++) {
        evgen_model_field *f = &e->fields[i];
        if (!f->is_array)
            continue;
        int j = evgen_model_event_find_field(e, f->count_name);
        if (j < 0) {
            evgen_error(diags, &f->count_loc, EVGEN_D_BAD_COUNT, "count field '%s' of array '%s' is not a field of '%s'",
                        f->count_name, f->name, e->name);
            evgen_note(diags, NULL, "declare an integer field '%s' before the array", f->count_name);
            ok = false;
            continue;
        }
        const evgen_model_field *c = &e->fields[j];
        if ((size_t)j > i) {
            evgen_error(diags, &f->count_loc, EVGEN_D_BAD_COUNT, "count field '%s' of array '%s' comes after the array",
                        f->count_name, f->name);
            evgen_note(diags, &c->name_loc, "'%s' is declared here; an array's count must be an earlier field",
                       c->name);
            ok = false;
        } else if (c->is_array) {
            evgen_error(diags, &f->count_loc, EVGEN_D_BAD_COUNT,
                        "count field '%s' of array '%s' is itself an array; an array count must be an integer field",
                        f->count_name, f->name);
            evgen_note(diags, &c->name_loc, "'%s' is declared here", c->name);
            ok = false;
        } else if (!evgen_wire_kind_is_integer(c->type.kind) || c->type.enum_index >= 0) {
            evgen_error(diags, &f->count_loc, EVGEN_D_BAD_COUNT,
                        "count field '%s' of array '%s' has type '%s'; an array count must be an integer field",
                        f->count_name, f->name, c->type.c_spelling);
            evgen_note(diags, &c->type_loc, "'%s' is declared here", c->name);
            ok = false;
        } else if (c->since > f->since) {
            evgen_error(diags, &f->count_loc, EVGEN_D_BAD_COUNT,
                        "count field '%s' (since %u) is newer than array '%s' (since %u)", f->count_name, c->since,
                        f->name, f->since);
            evgen_note(diags, &c->since_loc, "'%s' is introduced here", c->name);
            ok = false;
        } else {
            f->count_index = j;
        }
    }
    return ok;
}

/* The first legacy line of `e` named `name`, or NULL. */
static const evgen_model_field *first_legacy_line(const evgen_model_event *e, const char *name)
{
    for (size_t i = 0; i < e->n_legacy_fields; i++)
        if (strcmp(e->legacy_fields[i].name, name) == 0)
            return &e->legacy_fields[i];
    return NULL;
}

/* Legacy layouts: the lowest versions of the event, each naming fields declared by EVENT_FIELD or
 * legacy-only fields (named by no EVENT_FIELD: they existed in old versions only, as the private
 * GCPerHeapHistory's ClrInstanceID in version 1, which version 2 dropped). A legacy-only field has
 * one accessor, so one wire type in every legacy version that holds it. */
static bool check_legacy(evgen_model_event *e, evgen_diags *diags, const version_set *legacy, unsigned first,
                         unsigned latest, int *last_legacy)
{
    bool ok = check_duplicate_fields(e->legacy_fields, e->n_legacy_fields, diags, e->name, "legacy version of ");
    *last_legacy = -1;
    for (size_t i = 0; i < e->n_legacy_fields; i++) {
        const evgen_model_field *lf = &e->legacy_fields[i];
        if ((int)lf->since > *last_legacy)
            *last_legacy = (int)lf->since;
        int j = evgen_model_event_find_field(e, lf->name);
        const evgen_model_field *earliest = first_legacy_line(e, lf->name);
        if (lf->is_array || (j >= 0 && e->fields[j].is_array)) { /* a lock's legacy line may say array<...> */
            evgen_error(diags, &lf->name_loc, EVGEN_D_BAD_LEGACY, "legacy field '%s' of '%s' is an array", lf->name,
                        e->name);
            evgen_note(diags, NULL, "legacy layouts hold scalars and strings only");
            ok = false;
        } else if (j < 0 && earliest->type.kind != lf->type.kind) {
            evgen_error(diags, &lf->type_loc, EVGEN_D_BAD_LEGACY,
                        "legacy-only field '%s' of '%s' is %s in version %u but %s in version %u", lf->name, e->name,
                        evgen_kind_name(lf->type.kind), lf->since, evgen_kind_name(earliest->type.kind), earliest->since);
            evgen_note(diags, &earliest->type_loc,
                       "a field that no EVENT_FIELD declares has one accessor, so one type in every legacy version");
            ok = false;
        } else if (j < 0) {
            continue; /* a legacy-only field */
        } else if (e->fields[j].since > lf->since) {
            evgen_error(diags, &lf->name_loc, EVGEN_D_BAD_LEGACY,
                        "legacy field '%s' is in version %u, but EVENT_FIELD says it was introduced in version %u",
                        lf->name, lf->since, e->fields[j].since);
            evgen_note(diags, &e->fields[j].since_loc, "give it since = %u here", lf->since);
            ok = false;
        }
    }
    if (*last_legacy < 0)
        return ok;
    if ((unsigned)*last_legacy >= latest) {
        const evgen_model_field *lf = &e->legacy_fields[e->n_legacy_fields - 1];
        evgen_error(diags, &lf->since_loc, EVGEN_D_BAD_LEGACY,
                    "legacy layout for version %d of '%s', its latest version; legacy layouts describe old versions "
                    "only",
                    *last_legacy, e->name);
        return false;
    }
    /* Every field that claims to exist in a legacy version must be in its layout. */
    for (size_t i = 0; i < e->n_fields; i++) {
        const evgen_model_field *f = &e->fields[i];
        for (unsigned v = f->since; ok && (int)v <= *last_legacy; v++) {
            bool listed = false;
            for (size_t j = 0; j < e->n_legacy_fields && !listed; j++)
                listed = e->legacy_fields[j].since == v && strcmp(e->legacy_fields[j].name, f->name) == 0;
            if (listed || !legacy->has[v])
                continue;
            if (f->is_array) {
                evgen_error(diags, &f->since_loc, EVGEN_D_BAD_LEGACY,
                            "array '%s' (since %u) would be part of legacy version %u of '%s'", f->name, f->since, v,
                            e->name);
                evgen_note(diags, NULL, "legacy layouts hold scalars and strings only; give it since = %d",
                           *last_legacy + 1);
                ok = false;
                continue;
            }
            evgen_error(diags, &f->since_loc, EVGEN_D_BAD_LEGACY,
                        "field '%s' (since %u) is missing from the legacy layout of version %u of '%s'", f->name,
                        f->since, v, e->name);
            evgen_note(diags, NULL,
                       "add EVENT_LEGACY_FIELD(%s, %u, type, %s) where it stood in version %u, or give it since = %d",
                       e->name, v, f->name, v, *last_legacy + 1);
            ok = false;
        }
    }
    for (unsigned v = first; v <= (unsigned)*last_legacy; v++) {
        if (!legacy->has[v]) {
            const evgen_model_field *lf = &e->legacy_fields[0];
            evgen_error(diags, &lf->since_loc, EVGEN_D_BAD_LEGACY,
                        "version %u of '%s' has no legacy layout, but version %d has one", v, e->name, *last_legacy);
            evgen_note(diags, NULL, "legacy versions are the lowest versions of an event, with no gap");
            return false;
        }
    }
    return ok;
}

/* Fields are appended only: `since` never decreases. Versions up to the last legacy one are laid
 * out by their legacy lines, so the rule applies from the version after it. */
static unsigned effective_since(const evgen_model_field *f, unsigned floor)
{
    return f->since > floor ? f->since : floor;
}

/* Whether the fields, without the one at `skip`, are in non-decreasing effective since. */
static bool sorted_without(const evgen_model_event *e, size_t skip, unsigned floor)
{
    unsigned last = 0;
    for (size_t i = 0; i < e->n_fields; i++) {
        if (i == skip)
            continue;
        unsigned eff = effective_since(&e->fields[i], floor);
        if (eff < last)
            return false;
        last = eff;
    }
    return true;
}

/* Fields are appended only: `since` never decreases. Versions up to the last legacy one are laid
 * out by their legacy lines, so the rule applies from the version after it. Of the two fields out
 * of order, the one blamed is the one whose removal restores the order — a newer field inserted
 * among older ones, or an older-looking field appended after newer ones — the later one if both. */
static bool check_order(const evgen_model_event *e, evgen_diags *diags, int last_legacy)
{
    unsigned floor = (unsigned)(last_legacy + 1);
    for (size_t i = 1; i < e->n_fields; i++) {
        const evgen_model_field *prev = &e->fields[i - 1], *f = &e->fields[i];
        if (effective_since(f, floor) >= effective_since(prev, floor))
            continue;
        bool blame_prev = !sorted_without(e, i, floor) && sorted_without(e, i - 1, floor);
        const evgen_model_field *culprit = blame_prev ? prev : f, *other = blame_prev ? f : prev;
        if (blame_prev)
            evgen_error(diags, &culprit->since_loc, EVGEN_D_FIELD_INSERTED,
                        "field '%s' (since %u) comes before '%s' (since %u): fields are only appended", culprit->name,
                        culprit->since, other->name, other->since);
        else
            evgen_error(diags, &culprit->since_loc, EVGEN_D_FIELD_INSERTED,
                        "field '%s' (since %u) comes after '%s' (since %u): fields are only appended", culprit->name,
                        culprit->since, other->name, other->since);
        evgen_note(diags, &other->since_loc, "'%s' is declared here with since = %u", other->name, other->since);
        if (e->latest_version < 255)
            evgen_note(diags, &culprit->since_loc, "to add '%s' to '%s', move it to the end with since = %u",
                       culprit->name, e->name, e->latest_version + 1);
        return false;
    }
    return true;
}

static void collect_versions(const evgen_model_event *e, version_set *all, version_set *legacy)
{
    memset(all, 0, sizeof *all);
    memset(legacy, 0, sizeof *legacy);
    for (size_t i = 0; i < e->n_fields; i++)
        all->has[e->fields[i].since] = true;
    for (size_t i = 0; i < e->n_legacy_fields; i++) {
        all->has[e->legacy_fields[i].since] = true;
        legacy->has[e->legacy_fields[i].since] = true;
    }
    for (size_t i = 0; i < e->n_explicit_versions; i++)
        all->has[e->explicit_versions[i]] = true;
}

static bool check_gaps(const evgen_model_event *e, evgen_diags *diags, const version_set *all)
{
    for (unsigned v = e->first_version + 1; v <= e->latest_version; v++) {
        if (all->has[v])
            continue;
        /* Point at what introduces the version after the gap: the first field, else the first
         * EVENT_VERSION, beyond it. */
        const evgen_model_loc *where = NULL;
        for (size_t i = 0; i < e->n_fields && !where; i++)
            if (e->fields[i].since > v)
                where = &e->fields[i].since_loc;
        for (size_t i = 0; i < e->n_explicit_versions && !where; i++)
            if (e->explicit_versions[i] > v)
                where = &e->explicit_version_locs[i];
        if (!where)
            where = &e->loc;
        evgen_error(diags, where, EVGEN_D_VERSION_GAP, "version gap in '%s': nothing introduces version %u", e->name, v);
        evgen_note(diags, NULL,
                   "give the first field of the new version since = %u, or declare EVENT_VERSION(%s, %u) for a "
                   "version with an unchanged payload",
                   v, e->name, v);
        return false;
    }
    return true;
}

/* EVENT_VERSION_ATTRIBUTES lines: each names a version the event has, once. */
static bool check_attributes(const evgen_model_event *e, evgen_diags *diags)
{
    bool ok = true;
    for (size_t i = 0; i < e->n_attributes; i++) {
        const evgen_model_version_attributes *a = &e->attributes[i];
        if (a->version < e->first_version || a->version > e->latest_version) {
            evgen_error(diags, &a->version_loc, EVGEN_D_BAD_ATTRIBUTES,
                        "attributes for version %u of '%s', which has versions %u to %u", a->version, e->name,
                        e->first_version, e->latest_version);
            evgen_note(diags, NULL,
                       "EVENT_VERSION_ATTRIBUTES gives an existing version its own level and keywords; declare the "
                       "version with a field or EVENT_VERSION(%s, %u)",
                       e->name, a->version);
            ok = false;
            continue;
        }
        for (size_t j = 0; j < i; j++) {
            if (e->attributes[j].version == a->version) {
                evgen_error(diags, &a->version_loc, EVGEN_D_BAD_ATTRIBUTES,
                            "version %u of '%s' already has its attributes", a->version, e->name);
                evgen_note(diags, &e->attributes[j].version_loc, "they were given here");
                ok = false;
                break;
            }
        }
    }
    return ok;
}

/* Places field `f` in `ver` by the wire's layout rule (evgen/wire_layout.h), 8-byte pointers. */
static void add_slot(evgen_model_version *ver, const evgen_model_field *f, evgen_wire_layout *layout)
{
    evgen_wire_slot w = evgen_wire_layout_add(layout, f->type.kind, f->is_array);
    evgen_model_slot *s = EVGEN_PUSH(ver->slots, ver->n_slots);
    s->field = f;
    s->after = w.anchor;
    s->offset = (unsigned)w.delta;
    s->ptrs_before = w.ptrs_before;
    s->size = (unsigned)w.size;
    s->var_before = w.var_before;
    s->var = w.var;
    s->fixed_offset = evgen_wire_slot_is_fixed_offset(&w);
}

/* The event's fields with an accessor: its EVENT_FIELD lines, then its legacy-only fields. */
static void collect_all_fields(evgen_model_event *e)
{
    e->n_all_fields = 0;
    e->all_fields = evgen_xcalloc(e->n_fields + e->n_legacy_fields + 1, sizeof *e->all_fields);
    for (size_t i = 0; i < e->n_fields; i++)
        e->all_fields[e->n_all_fields++] = &e->fields[i];
    for (size_t i = 0; i < e->n_legacy_fields; i++) {
        const evgen_model_field *lf = &e->legacy_fields[i];
        if (evgen_model_event_find_field(e, lf->name) < 0 && first_legacy_line(e, lf->name) == lf)
            e->all_fields[e->n_all_fields++] = lf;
    }
}

static void lower_event(const evgen_model *model, evgen_model_event *e, const version_set *legacy)
{
    collect_all_fields(e);
    e->n_versions = e->latest_version - e->first_version + 1;
    e->versions = evgen_xcalloc(e->n_versions, sizeof *e->versions);
    for (unsigned v = e->first_version; v <= e->latest_version; v++) {
        evgen_model_version *ver = &e->versions[v - e->first_version];
        ver->version = v;
        ver->legacy = legacy->has[v];
        ver->level = e->level;
        ver->keywords = e->keywords;
        for (size_t i = 0; i < e->n_attributes; i++) {
            if (e->attributes[i].version == v) {
                ver->own_attributes = true;
                ver->level = e->attributes[i].level;
                ver->keywords = e->attributes[i].keywords;
            }
        }
        evgen_wire_layout layout;
        evgen_wire_layout_init(&layout, EVGEN_MODEL_POINTER_SIZE);
        if (ver->legacy) {
            for (size_t i = 0; i < e->n_legacy_fields; i++)
                if (e->legacy_fields[i].since == v)
                    add_slot(ver, &e->legacy_fields[i], &layout);
        } else {
            for (size_t i = 0; i < e->n_fields; i++) {
                const evgen_model_field *f = &e->fields[i];
                if (f->since > v)
                    continue;
                add_slot(ver, f, &layout);
                if (f->is_array && f->type.struct_index >= 0 && model->structs[f->type.struct_index].pointer_dependent)
                    ver->pointer_dependent = true;
            }
        }
        int64_t fixed = evgen_wire_layout_fixed_size(&layout);
        ver->variable_size = fixed < 0;
        ver->fixed_size = fixed < 0 ? 0 : (unsigned)fixed;
        ver->pointer_dependent = ver->pointer_dependent || layout.pointer_dependent;
    }
}

/* Whether every session rule (level <= rule level, keywords 0 or sharing a bit with the rule's)
 * that records what has level `level` and keywords `keywords` also records what has the event's. */
static bool covered_by_event(const evgen_model_event *e, uint64_t level, uint64_t keywords)
{
    return e->level <= level && (e->keywords == 0 || (keywords != 0 && (keywords & ~e->keywords) == 0));
}

/* The runtime's enabled bytes: one per event, set while a session records some version of it;
 * then one per version with attributes of its own, and one that the other versions of such an
 * event share, unless every own attribute is covered by the event's (then the event's byte is
 * exactly theirs: CoreCLR's GCCreateConcurrentThread v0, GC, under the event's GC|Threading). */
static void number_enabled_bytes(evgen_model *model)
{
    size_t next = model->n_events;
    for (size_t i = 0; i < model->n_events; i++) {
        evgen_model_event *e = &model->events[i];
        bool covered = true;
        for (size_t v = 0; v < e->n_versions; v++) {
            evgen_model_version *ver = &e->versions[v];
            ver->enabled_byte = -1;
            if (!ver->own_attributes)
                continue;
            ver->enabled_byte = (int)next++;
            covered = covered && covered_by_event(e, ver->level, ver->keywords);
        }
        if (covered)
            continue;
        int shared = -1;
        for (size_t v = 0; v < e->n_versions; v++) {
            evgen_model_version *ver = &e->versions[v];
            if (ver->own_attributes)
                continue;
            if (shared < 0)
                shared = (int)next++;
            ver->enabled_byte = shared;
        }
    }
    model->n_enabled = next;
}

/* Every C identifier the back ends generate from the manifest's names, with what it is for.
 * Names are checked unique here, once, so that no generated file can fail to compile. */
typedef struct generated_name {
    char *name;
    char *what;
    const evgen_model_loc *loc;
    size_t order; /* declaration order, to report the later of two */
} generated_name;

static void add_name(generated_name **names, size_t *n, const evgen_model_loc *loc, char *name, char *what)
{
    generated_name *g = EVGEN_PUSH(*names, *n);
    g->name = name;
    g->what = what;
    g->loc = loc;
    g->order = *n - 1;
}

static int compare_names(const void *a, const void *b)
{
    const generated_name *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->order > y->order) - (x->order < y->order);
}

static void check_generated_names(const evgen_model *model, evgen_diags *diags)
{
    generated_name *names = NULL;
    size_t n = 0;
    for (size_t i = 0; i < model->n_events; i++) {
        const evgen_model_event *e = &model->events[i];
        add_name(&names, &n, &e->name_loc, evgen_xasprintf("EventEnabled%s", e->name),
                 evgen_xasprintf("the enabled check of event '%s'", e->name));
        add_name(&names, &n, &e->name_loc, evgen_xasprintf("FireEtw%s", e->name),
                 evgen_xasprintf("the writer of event '%s'", e->name));
        for (size_t v = 0; v < e->n_versions; v++)
            add_name(&names, &n, &e->name_loc, evgen_xasprintf("FireEtw%s_V%u", e->name, e->versions[v].version),
                     evgen_xasprintf("the writer of version %u of '%s'", e->versions[v].version, e->name));
        add_name(&names, &n, &e->name_loc, evgen_xasprintf("%s_is", e->name),
                 evgen_xasprintf("the identity test of event '%s'", e->name));
        for (size_t f = 0; f < e->n_all_fields; f++) {
            const evgen_model_field *fd = e->all_fields[f];
            if (fd->is_array) {
                static const char *const suffixes[] = {"count", "element", "at"};
                for (size_t k = 0; k < 3; k++)
                    add_name(&names, &n, &fd->name_loc, evgen_xasprintf("%s_%s_%s", e->name, fd->name, suffixes[k]),
                             evgen_xasprintf("the %s accessor of array '%s' of '%s'", suffixes[k], fd->name, e->name));
                if (fd->type.kind == EVGEN_WIRE_STRUCT && fd->type.struct_index >= 0) {
                    const evgen_model_struct *st = &model->structs[fd->type.struct_index];
                    for (size_t m = 0; m < st->n_members; m++)
                        add_name(&names, &n, &fd->name_loc,
                                 evgen_xasprintf("%s_%s_%s", e->name, fd->name, st->members[m].name),
                                 evgen_xasprintf("the accessor of member '%s' of array '%s' of '%s'",
                                                 st->members[m].name, fd->name, e->name));
                }
            } else {
                add_name(&names, &n, &fd->name_loc, evgen_xasprintf("%s_%s", e->name, fd->name),
                         evgen_xasprintf("the accessor of field '%s' of '%s'", fd->name, e->name));
            }
            add_name(&names, &n, &fd->name_loc, evgen_xasprintf("%s_has_%s", e->name, fd->name),
                     evgen_xasprintf("the presence test of field '%s' of '%s'", fd->name, e->name));
        }
    }
    if (n) /* a model without events (a lock that froze none) has no names, and names is NULL */
        qsort(names, n, sizeof *names, compare_names);
    for (size_t i = 1; i < n; i++) {
        if (strcmp(names[i].name, names[i - 1].name) != 0)
            continue;
        evgen_error(diags, names[i].loc, EVGEN_D_NAME_CLASH, "generated name '%s' is both %s and %s", names[i].name,
                    names[i].what, names[i - 1].what);
        evgen_note(diags, names[i - 1].loc, "the other one comes from here; rename one of them");
    }
    for (size_t i = 0; i < n; i++) {
        free(names[i].name);
        free(names[i].what);
    }
    free(names);
}

/* A variable struct on the wire: no stride, each member's offset the payload layout rule's
 * applied to one element (docs/format.md), with the model's 8-byte pointers; a string's size
 * is its own. The front end has checked that the C struct is packed. */
static void lower_structs(evgen_model *model)
{
    for (size_t i = 0; i < model->n_structs; i++) {
        evgen_model_struct *st = &model->structs[i];
        if (!st->variable)
            continue;
        evgen_wire_layout layout;
        evgen_wire_layout_init(&layout, EVGEN_MODEL_POINTER_SIZE);
        for (size_t k = 0; k < st->n_members; k++) {
            evgen_wire_slot w = evgen_wire_layout_add(&layout, st->members[k].kind, 0);
            st->members[k].offset = (unsigned)w.delta;
            st->members[k].size = (unsigned)w.size;
        }
        st->size = 0;
    }
}

int evgen_model_check(evgen_model *model, evgen_diags *diags)
{
    size_t errors_before = diags->n_errors;
    lower_structs(model);
    check_providers(model, diags);
    check_event_identity(model, diags);
    for (size_t i = 0; i < model->n_events; i++) {
        evgen_model_event *e = &model->events[i];
        version_set all, legacy;
        collect_versions(e, &all, &legacy);
        e->first_version = 0;
        e->latest_version = 0;
        bool any = false;
        for (unsigned v = 0; v < 256; v++) {
            if (!all.has[v])
                continue;
            if (!any)
                e->first_version = v;
            e->latest_version = v;
            any = true;
        }
        bool ok = check_duplicate_fields(e->fields, e->n_fields, diags, e->name, NULL);
        int last_legacy = -1;
        ok = check_legacy(e, diags, &legacy, e->first_version, e->latest_version, &last_legacy) && ok;
        ok = ok && check_order(e, diags, last_legacy);
        ok = ok && check_gaps(e, diags, &all);
        ok = ok && check_attributes(e, diags);
        ok = check_arrays(e, diags) && ok;
        if (ok)
            lower_event(model, e, &legacy);
    }
    if (diags->n_errors == errors_before) {
        check_generated_names(model, diags);
        number_enabled_bytes(model);
    }
    model->lowered = diags->n_errors == errors_before;
    return model->lowered ? 0 : -1;
}

void evgen_model_lower_for_lock(evgen_model *model)
{
    for (size_t i = 0; i < model->n_events; i++) {
        evgen_model_event *e = &model->events[i];
        if (e->versions || e->latest_version < e->first_version)
            continue;
        version_set all, legacy;
        collect_versions(e, &all, &legacy);
        lower_event(model, e, &legacy);
    }
    number_enabled_bytes(model);
}
