/* compat.c — compares a lowered model with its lock file and reports, at the manifest location,
 * every change that would break an old trace or an old reader. */
#include "lock/compat.h"

#include <stdlib.h>
#include <string.h>

#include "model/util.h"

/* A field of the current event whose since differs from the lock's. */
struct moved_field {
    const char *name;
    unsigned from; /* the first locked version that holds it */
};

typedef struct compat_state {
    const evgen_model *model;
    const evgen_lock *lock;
    evgen_diags *diags;
    /* Locations already reported for the current event: one edit breaks every later version
     * too, and is reported once. */
    evgen_model_loc *reported;
    size_t n_reported;
    struct moved_field *moved; /* of the current event */
    size_t n_moved;
} compat_state;

static bool already_reported(compat_state *st, const evgen_model_loc *loc)
{
    for (size_t i = 0; i < st->n_reported; i++) {
        const evgen_model_loc *r = &st->reported[i];
        if (r->file == loc->file && r->line == loc->line && r->col == loc->col)
            return true;
    }
    *EVGEN_PUSH(st->reported, st->n_reported) = *loc;
    return false;
}

static unsigned latest_locked(const evgen_lock_event *le)
{
    unsigned v = 0;
    for (size_t i = 0; i < le->n_versions; i++)
        if (le->versions[i].version > v)
            v = le->versions[i].version;
    return v;
}

/* One locked version's fields or one manifest version's slots, as compared: the fields whose
 * `since` moved are left out of both, since their move is reported once, at its line, and would
 * otherwise be reported again as a removal or an insertion in every version it crosses. */
typedef struct field_list {
    const evgen_lock_field **locked;
    size_t n_locked;
    const evgen_model_field **fields;
    size_t n_fields;
} field_list;

static bool is_moved(const compat_state *st, const char *name)
{
    for (size_t i = 0; i < st->n_moved; i++)
        if (strcmp(st->moved[i].name, name) == 0)
            return true;
    return false;
}

static field_list compared_fields(const compat_state *st, const evgen_model_version *ver, const evgen_lock_version *lv)
{
    field_list fl = {NULL, 0, NULL, 0};
    for (size_t i = 0; i < lv->n_fields; i++)
        if (!is_moved(st, lv->fields[i].name))
            *EVGEN_PUSH(fl.locked, fl.n_locked) = &lv->fields[i];
    for (size_t i = 0; i < ver->n_slots; i++)
        if (!is_moved(st, ver->slots[i].field->name))
            *EVGEN_PUSH(fl.fields, fl.n_fields) = ver->slots[i].field;
    return fl;
}

static void free_field_list(field_list *fl)
{
    free(fl->locked);
    free(fl->fields);
}

static int locked_index(const field_list *fl, const char *name)
{
    for (size_t i = 0; i < fl->n_locked; i++)
        if (strcmp(fl->locked[i]->name, name) == 0)
            return (int)i;
    return -1;
}

static int field_index(const field_list *fl, const char *name)
{
    for (size_t i = 0; i < fl->n_fields; i++)
        if (strcmp(fl->fields[i]->name, name) == 0)
            return (int)i;
    return -1;
}

/* The EVENT_FIELD line behind a slot. A legacy version's slots are its EVENT_LEGACY_FIELD lines,
 * but a field is named (and renamed) on its EVENT_FIELD line: that is where the edit is. A legacy
 * line naming no field is its own edit. */
static const evgen_model_field *declared_field(const evgen_model_event *e, const evgen_model_field *f)
{
    int i = evgen_model_event_find_field(e, f->name);
    return i >= 0 ? &e->fields[i] : f;
}

static const evgen_model_field *legacy_line_naming(const evgen_model_event *e, const char *name)
{
    for (size_t i = 0; i < e->n_legacy_fields; i++)
        if (strcmp(e->legacy_fields[i].name, name) == 0)
            return &e->legacy_fields[i];
    return NULL;
}

/* What changed between two signatures of one field (see evgen_model_field_signature): an array's count
 * field, its element struct's size (stride) or members, or the type itself. */
static const char *type_change(const char *now, const char *locked)
{
    const char *count_now = strrchr(now, '['), *count_locked = strrchr(locked, '[');
    bool arrays = strncmp(now, "array<", 6) == 0 && strncmp(locked, "array<", 6) == 0 && count_now && count_locked;
    if (arrays && strcmp(count_now, count_locked) != 0)
        return "counted by another field";
    if (arrays && strncmp(now, "array<struct{", 13) == 0 && strncmp(locked, "array<struct{", 13) == 0) {
        const char *stride_now = strrchr(now, '/'), *stride_locked = strrchr(locked, '/');
        bool same_stride = stride_now && stride_locked && strcmp(stride_now, stride_locked) == 0;
        return same_stride ? "given another element struct layout" : "resized";
    }
    return "retyped";
}

static void report_added(compat_state *st, const evgen_model_event *e, const evgen_model_version *ver,
                         const evgen_lock_version *lv, const evgen_model_field *mf, unsigned next)
{
    if (already_reported(st, &mf->since_loc))
        return;
    evgen_error(st->diags, &mf->since_loc, EVGEN_D_COMPAT_FIELD,
                "field '%s' is added to version %u of '%s', which is locked", mf->name, ver->version, e->name);
    evgen_note(st->diags, &lv->loc, "version %u is frozen here; append the field with since = %u instead",
               ver->version, next);
}

static void report_removed(compat_state *st, const evgen_model_event *e, const evgen_model_version *ver,
                           const evgen_lock_field *lf, const evgen_model_loc *where, const char *place)
{
    if (already_reported(st, where))
        return;
    evgen_error(st->diags, where, EVGEN_D_COMPAT_FIELD, "field '%s' of locked version %u of '%s' was removed (%s)",
                lf->name, ver->version, e->name, place);
    evgen_note(st->diags, &lf->loc, "restore '%s' (%s); a shipped field is never removed", lf->name, lf->signature);
}

static void report_retyped(compat_state *st, const evgen_model_event *e, const evgen_model_version *ver,
                           const evgen_model_field *mf, const evgen_lock_field *lf, const char *sig, unsigned next)
{
    /* Another count field is an edit of the count argument; any other change, of the type's. */
    const char *change = type_change(sig, lf->signature);
    const evgen_model_loc *where = strcmp(change, "counted by another field") == 0 ? &mf->count_loc : &mf->type_loc;
    if (already_reported(st, where))
        return;
    evgen_error(st->diags, where, EVGEN_D_COMPAT_FIELD, "field '%s' of locked version %u of '%s' is %s: %s, locked as %s",
                mf->name, ver->version, e->name, change, sig, lf->signature);
    if (ver->legacy)
        evgen_note(st->diags, &lf->loc, "make the EVENT_LEGACY_FIELD lines of version %u match the lock",
                   ver->version);
    else
        evgen_note(st->diags, &lf->loc, "a shipped field keeps its type and size; add a new field with since = %u instead",
                   next);
}

/* Reported at the EVENT_FIELD line that carries the new name, even when the version compared is
 * a legacy one; a legacy line still naming the old field is pointed at by a note. */
static void report_renamed(compat_state *st, const evgen_model_event *e, const evgen_model_version *ver,
                           const evgen_model_field *mf, const evgen_lock_field *lf)
{
    const evgen_model_field *decl = declared_field(e, mf);
    if (already_reported(st, &decl->name_loc))
        return;
    evgen_error(st->diags, &decl->name_loc, EVGEN_D_COMPAT_FIELD,
                "field '%s' of locked version %u of '%s' is renamed to '%s'", lf->name, ver->version, e->name,
                mf->name);
    evgen_note(st->diags, &lf->loc, "readers bind fields by name: rename it back to '%s'", lf->name);
    const evgen_model_field *legacy = legacy_line_naming(e, lf->name);
    if (legacy)
        evgen_note(st->diags, &legacy->name_loc, "the legacy layout of version %u still names it '%s'",
                   legacy->since, lf->name);
}

/* The first difference between a locked version and the manifest's, classified by name first
 * (a field the lock has elsewhere was inserted, removed or reordered), then by position (the
 * same place under another name is a rename). */
static void report_difference(compat_state *st, const evgen_model_event *e, const evgen_model_version *ver,
                              const evgen_lock_version *lv, const field_list *fl, size_t i, unsigned next)
{
    const evgen_model_field *mf = i < fl->n_fields ? fl->fields[i] : NULL;
    const evgen_lock_field *lf = i < fl->n_locked ? fl->locked[i] : NULL;
    if (!lf) {
        report_added(st, e, ver, lv, mf, next);
        return;
    }
    if (!mf) {
        const evgen_model_loc *where = fl->n_fields ? &fl->fields[fl->n_fields - 1]->loc : &e->name_loc;
        report_removed(st, e, ver, lf, where, "it followed this line");
        return;
    }
    char *sig = evgen_model_field_signature(st->model, mf);
    int m_in_lock = locked_index(fl, mf->name);
    int l_in_model = field_index(fl, lf->name);
    if (strcmp(mf->name, lf->name) == 0) {
        report_retyped(st, e, ver, mf, lf, sig, next);
    } else if (m_in_lock < 0 && l_in_model > (int)i) {
        if (!already_reported(st, &mf->since_loc)) {
            evgen_error(st->diags, &mf->since_loc, EVGEN_D_COMPAT_FIELD,
                        "field '%s' is inserted before '%s' in locked version %u of '%s'", mf->name, lf->name,
                        ver->version, e->name);
            evgen_note(st->diags, &lv->loc, "fields are only appended: move '%s' to the end with since = %u",
                       mf->name, next);
        }
    } else if (m_in_lock < 0 && l_in_model < 0) {
        report_renamed(st, e, ver, mf, lf);
    } else if (m_in_lock >= 0 && l_in_model < 0) {
        report_removed(st, e, ver, lf, &mf->loc, "it stood before this line");
    } else if (!already_reported(st, &mf->name_loc)) {
        evgen_error(st->diags, &mf->name_loc, EVGEN_D_COMPAT_FIELD,
                    "field '%s' is moved in locked version %u of '%s': the lock has '%s' here", mf->name,
                    ver->version, e->name, lf->name);
        evgen_note(st->diags, &lf->loc, "restore the locked order");
    }
    free(sig);
}

static void compare_version(compat_state *st, const evgen_model_event *e, const evgen_model_version *ver,
                            const evgen_lock_event *le, const evgen_lock_version *lv)
{
    unsigned next = latest_locked(le) + 1;
    field_list fl = compared_fields(st, ver, lv);
    size_t n = fl.n_fields > fl.n_locked ? fl.n_fields : fl.n_locked;
    for (size_t i = 0; i < n; i++) {
        const evgen_model_field *mf = i < fl.n_fields ? fl.fields[i] : NULL;
        const evgen_lock_field *lf = i < fl.n_locked ? fl.locked[i] : NULL;
        if (mf && lf && strcmp(mf->name, lf->name) == 0) {
            char *sig = evgen_model_field_signature(st->model, mf);
            bool same = strcmp(sig, lf->signature) == 0;
            free(sig);
            if (same)
                continue;
        }
        report_difference(st, e, ver, lv, &fl, i, next);
        break; /* the first difference explains the rest of this version */
    }
    free_field_list(&fl);
}

/* The first locked version of an event that holds field `name`, with that field, or NULL. */
static const evgen_lock_field *first_locked_with(const evgen_lock_event *le, const char *name, unsigned *version)
{
    const evgen_lock_field *found = NULL;
    for (size_t v = 0; v < le->n_versions; v++) {
        const evgen_lock_version *lv = &le->versions[v];
        for (size_t i = 0; i < lv->n_fields && (!found || lv->version < *version); i++) {
            if (strcmp(lv->fields[i].name, name) == 0) {
                found = &lv->fields[i];
                *version = lv->version;
            }
        }
    }
    return found;
}

static const evgen_lock_version *locked_version(const evgen_lock_event *le, unsigned version)
{
    for (size_t v = 0; v < le->n_versions; v++)
        if (le->versions[v].version == version)
            return &le->versions[v];
    return NULL;
}

/* A field's since is the first version that holds it, so a shipped field whose since differs
 * from the first locked version holding it was moved to another version: version `from` shipped
 * with it (a move up) or version `since` shipped without it (a move down). Told by name, this is
 * reported at the since the user edited, whatever its place among the other fields. */
static void check_since_moves(compat_state *st, const evgen_model_event *e, const evgen_lock_event *le)
{
    st->n_moved = 0;
    for (size_t i = 0; i < e->n_fields; i++) {
        const evgen_model_field *f = &e->fields[i];
        unsigned from = 0;
        const evgen_lock_field *lf = first_locked_with(le, f->name, &from);
        if (!lf || f->since == from)
            continue;
        bool up = f->since > from;
        const evgen_lock_version *without = up ? NULL : locked_version(le, f->since);
        if (!up && !without)
            continue; /* into a version not locked yet: every shipped layout keeps it in place */
        struct moved_field *m = EVGEN_PUSH(st->moved, st->n_moved);
        m->name = f->name;
        m->from = from;
        evgen_error(st->diags, &f->since_loc, EVGEN_D_COMPAT_SINCE,
                    "field '%s' of '%s' is moved from version %u to version %u: locked version %u shipped %s it",
                    f->name, e->name, from, f->since, up ? from : f->since, up ? "with" : "without");
        if (up)
            evgen_note(st->diags, &lf->loc, "'%s' is locked here since version %u; restore since = %u", f->name, from,
                       from);
        else
            evgen_note(st->diags, &without->loc, "version %u is frozen here without '%s'; restore since = %u",
                       f->since, f->name, from);
    }
}

/* A locked version that disappeared because a field moved out of it is explained by the move. */
static bool emptied_by_move(const compat_state *st, unsigned version)
{
    for (size_t i = 0; i < st->n_moved; i++)
        if (st->moved[i].from == version)
            return true;
    return false;
}

static const evgen_model_event *find_by_id(const evgen_model *model, const char *provider, uint64_t id)
{
    for (size_t i = 0; i < model->n_events; i++) {
        const evgen_model_event *e = &model->events[i];
        if (e->id == id && strcmp(model->providers[e->provider_index].name, provider) == 0)
            return e;
    }
    return NULL;
}

static const evgen_lock_event *find_locked(const evgen_lock *lock, const char *name)
{
    for (size_t i = 0; i < lock->n_events; i++)
        if (strcmp(lock->events[i].name, name) == 0)
            return &lock->events[i];
    return NULL;
}

static void check_locked_event(compat_state *st, const evgen_lock_event *le)
{
    evgen_diags *d = st->diags;
    const evgen_model_event *e = evgen_model_find_event(st->model, le->name);
    if (!e) {
        const evgen_model_event *same_id = find_by_id(st->model, le->provider, le->id);
        if (same_id && !find_locked(st->lock, same_id->name)) {
            evgen_error(d, &same_id->name_loc, EVGEN_D_COMPAT_EVENT,
                        "locked event '%s' (id %llu) is renamed to '%s'", le->name, (unsigned long long)le->id,
                        same_id->name);
            evgen_note(d, &le->loc, "generated code and readers use the name: rename it back to '%s'", le->name);
        } else {
            evgen_error(d, &le->loc, EVGEN_D_COMPAT_EVENT,
                        "locked event '%s' (id %llu, provider %s) is missing from the manifest", le->name,
                        (unsigned long long)le->id, le->provider);
            evgen_note(d, NULL, "restore its KNOWN_EVENT and fields; a shipped event is never removed");
        }
        return;
    }
    const char *provider = st->model->providers[e->provider_index].name;
    if (e->id != le->id) {
        evgen_error(d, &e->id_loc, EVGEN_D_COMPAT_EVENT, "id of locked event '%s' changed from %llu to %llu", e->name,
                    (unsigned long long)le->id, (unsigned long long)e->id);
        evgen_note(d, &le->loc, "traces identify events by id: restore id %llu", (unsigned long long)le->id);
    }
    if (strcmp(provider, le->provider) != 0) {
        evgen_error(d, &e->provider_loc, EVGEN_D_COMPAT_EVENT, "provider of locked event '%s' changed from %s to %s",
                    e->name, le->provider, provider);
        evgen_note(d, &le->loc, "restore the provider");
    }
    st->n_reported = 0;
    check_since_moves(st, e, le);
    for (size_t v = 0; v < le->n_versions; v++) {
        const evgen_lock_version *lv = &le->versions[v];
        const evgen_model_version *ver = evgen_model_event_version(e, lv->version);
        if (!ver && emptied_by_move(st, lv->version))
            continue;
        if (!ver) {
            evgen_error(d, &e->name_loc, EVGEN_D_COMPAT_VERSION, "locked version %u of '%s' is missing (it has %u..%u)",
                        lv->version, e->name, e->first_version, e->latest_version);
            evgen_note(d, &lv->loc, "version %u is locked here; restore its fields", lv->version);
            continue;
        }
        compare_version(st, e, ver, le, lv);
    }
}

/* A legacy layout describes history: it must be locked (check), or belong to an event the lock
 * does not know yet (lock, which imports that history once). */
static bool is_locked(const evgen_lock_event *le, unsigned version)
{
    for (size_t i = 0; le && i < le->n_versions; i++)
        if (le->versions[i].version == version)
            return true;
    return false;
}

static void check_legacy_locked(compat_state *st, const evgen_model_event *e, evgen_compat_mode mode)
{
    const evgen_lock_event *le = find_locked(st->lock, e->name);
    if (!le && mode == EVGEN_COMPAT_LOCK)
        return;
    int last_legacy = -1;
    for (size_t v = 0; v < e->n_versions; v++) {
        const evgen_model_version *ver = &e->versions[v];
        if (!ver->legacy)
            continue;
        last_legacy = (int)ver->version;
        if (is_locked(le, ver->version))
            continue;
        const evgen_model_loc *where = ver->n_slots ? &ver->slots[0].field->since_loc : &e->name_loc;
        evgen_error(st->diags, where, EVGEN_D_COMPAT_LEGACY,
                    "legacy layout for version %u of '%s', which is not locked", ver->version, e->name);
        evgen_note(st->diags, NULL,
                   le ? "a legacy layout can only describe a version that already shipped; append new fields "
                        "instead"
                      : "a legacy layout can only describe a version that already shipped: run `evgen lock` to "
                        "import this event's history");
        return;
    }
    /* The break a legacy layout describes is the step to the next version: that version must
     * have shipped too, or declaring an old version legacy would let a new break through. */
    unsigned next = (unsigned)last_legacy + 1;
    if (last_legacy >= 0 && !is_locked(le, next)) {
        const evgen_model_version *ver = evgen_model_event_version(e, next);
        const evgen_model_loc *where = &e->name_loc;
        for (size_t i = 0; ver && i < ver->n_slots; i++) {
            if (ver->slots[i].field->since == next) {
                where = &ver->slots[i].field->since_loc;
                break;
            }
        }
        evgen_error(st->diags, where, EVGEN_D_COMPAT_LEGACY,
                    "version %u of '%s' follows a legacy layout but is not locked: it would be a new break", next,
                    e->name);
        evgen_note(st->diags, NULL,
                   "a legacy layout describes a change that already shipped: remove the EVENT_LEGACY_FIELD lines "
                   "of version %d and append new fields with since = %u",
                   last_legacy, latest_locked(le) + 1);
    }
}

int evgen_compat_check(const evgen_model *model, const evgen_lock *lock, evgen_compat_mode mode, evgen_diags *diags)
{
    compat_state st = {model, lock, diags, NULL, 0, NULL, 0};
    size_t errors_before = diags->n_errors;
    for (size_t i = 0; i < lock->n_events; i++)
        check_locked_event(&st, &lock->events[i]);
    for (size_t i = 0; i < model->n_events; i++)
        check_legacy_locked(&st, &model->events[i], mode);
    free(st.reported);
    free(st.moved);
    return diags->n_errors > errors_before ? -1 : 0;
}
