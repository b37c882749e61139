/* compat.c — compares a lowered model with its lock file and reports, at the manifest location,
 * every change that would break an old trace or an old reader. */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

typedef struct compat_state {
    const evgen_model *model;
    const evgen_lock *lock;
    evgen_diags *diags;
    /* Locations already reported for the current event: one edit breaks every later version
     * too, and is reported once. */
    evgen_loc *reported;
    size_t n_reported;
} compat_state;

static bool already_reported(compat_state *st, const evgen_loc *loc)
{
    for (size_t i = 0; i < st->n_reported; i++) {
        const evgen_loc *r = &st->reported[i];
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

static int lock_index(const evgen_lock_version *lv, const char *name)
{
    for (size_t i = 0; i < lv->n_fields; i++)
        if (strcmp(lv->fields[i].name, name) == 0)
            return (int)i;
    return -1;
}

static int version_index(const evgen_version *ver, const char *name)
{
    for (size_t i = 0; i < ver->n_slots; i++)
        if (strcmp(ver->slots[i].field->name, name) == 0)
            return (int)i;
    return -1;
}

/* What changed between two signatures of one field (see evgen_field_signature): an array's count
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

static void compare_version(compat_state *st, const evgen_event *e, const evgen_version *ver,
                            const evgen_lock_event *le, const evgen_lock_version *lv)
{
    unsigned next = latest_locked(le) + 1;
    size_t n = ver->n_slots > lv->n_fields ? ver->n_slots : lv->n_fields;
    for (size_t i = 0; i < n; i++) {
        const evgen_field *mf = i < ver->n_slots ? ver->slots[i].field : NULL;
        const evgen_lock_field *lf = i < lv->n_fields ? &lv->fields[i] : NULL;
        char *sig = mf ? evgen_field_signature(st->model, mf) : NULL;
        bool same = mf && lf && strcmp(mf->name, lf->name) == 0 && strcmp(sig, lf->signature) == 0;
        if (same) {
            free(sig);
            continue;
        }
        evgen_diags *d = st->diags;
        if (!lf) {
            if (!already_reported(st, &mf->since_loc)) {
                evgen_error(d, &mf->since_loc, EVGEN_D_COMPAT_FIELD,
                            "field '%s' is added to version %u of '%s', which is locked", mf->name, ver->version,
                            e->name);
                evgen_note(d, &lv->loc, "version %u is frozen here; append the field with since = %u instead",
                           ver->version, next);
            }
        } else if (!mf) {
            const evgen_loc *where = ver->n_slots ? &ver->slots[ver->n_slots - 1].field->loc : &e->name_loc;
            if (!already_reported(st, where)) {
                evgen_error(d, where, EVGEN_D_COMPAT_FIELD,
                            "field '%s' of locked version %u of '%s' was removed (it followed this line)", lf->name,
                            ver->version, e->name);
                evgen_note(d, &lf->loc, "restore '%s' (%s); a shipped field is never removed", lf->name,
                           lf->signature);
            }
        } else if (strcmp(mf->name, lf->name) == 0) {
            if (!already_reported(st, &mf->type_loc)) {
                evgen_error(d, &mf->type_loc, EVGEN_D_COMPAT_FIELD,
                            "field '%s' of locked version %u of '%s' is %s: %s, locked as %s", mf->name, ver->version,
                            e->name, type_change(sig, lf->signature), sig, lf->signature);
                if (ver->legacy)
                    evgen_note(d, &lf->loc, "make the EVENT_LEGACY_FIELD lines of version %u match the lock",
                               ver->version);
                else
                    evgen_note(d, &lf->loc,
                               "a shipped field keeps its type and size; add a new field with since = %u instead",
                               next);
            }
        } else {
            int m_in_lock = lock_index(lv, mf->name);
            int l_in_model = version_index(ver, lf->name);
            if (m_in_lock < 0 && l_in_model > (int)i) {
                if (!already_reported(st, &mf->since_loc)) {
                    evgen_error(d, &mf->since_loc, EVGEN_D_COMPAT_FIELD,
                                "field '%s' is inserted before '%s' in locked version %u of '%s'", mf->name, lf->name,
                                ver->version, e->name);
                    evgen_note(d, &lv->loc, "fields are only appended: move '%s' to the end with since = %u",
                               mf->name, next);
                }
            } else if (m_in_lock < 0 && l_in_model < 0) {
                if (!already_reported(st, &mf->name_loc)) {
                    evgen_error(d, &mf->name_loc, EVGEN_D_COMPAT_FIELD,
                                "field '%s' of locked version %u of '%s' is renamed to '%s'", lf->name, ver->version,
                                e->name, mf->name);
                    evgen_note(d, &lf->loc, "readers bind fields by name: rename it back to '%s'", lf->name);
                }
            } else if (m_in_lock >= 0 && l_in_model < 0) {
                if (!already_reported(st, &mf->loc)) {
                    evgen_error(d, &mf->loc, EVGEN_D_COMPAT_FIELD,
                                "field '%s' of locked version %u of '%s' was removed (it stood before this line)",
                                lf->name, ver->version, e->name);
                    evgen_note(d, &lf->loc, "restore '%s' (%s); a shipped field is never removed", lf->name,
                               lf->signature);
                }
            } else {
                if (!already_reported(st, &mf->name_loc)) {
                    evgen_error(d, &mf->name_loc, EVGEN_D_COMPAT_FIELD,
                                "field '%s' is moved in locked version %u of '%s': the lock has '%s' here", mf->name,
                                ver->version, e->name, lf->name);
                    evgen_note(d, &lf->loc, "restore the locked order");
                }
            }
        }
        free(sig);
        return; /* the first difference explains the rest of this version */
    }
}

static const evgen_event *find_by_id(const evgen_model *model, const char *provider, uint64_t id)
{
    for (size_t i = 0; i < model->n_events; i++) {
        const evgen_event *e = &model->events[i];
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
    const evgen_event *e = evgen_model_find_event(st->model, le->name);
    if (!e) {
        const evgen_event *same_id = find_by_id(st->model, le->provider, le->id);
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
    for (size_t v = 0; v < le->n_versions; v++) {
        const evgen_lock_version *lv = &le->versions[v];
        const evgen_version *ver = evgen_event_version(e, lv->version);
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

static void check_legacy_locked(compat_state *st, const evgen_event *e, evgen_compat_mode mode)
{
    const evgen_lock_event *le = find_locked(st->lock, e->name);
    if (!le && mode == EVGEN_COMPAT_LOCK)
        return;
    int last_legacy = -1;
    for (size_t v = 0; v < e->n_versions; v++) {
        const evgen_version *ver = &e->versions[v];
        if (!ver->legacy)
            continue;
        last_legacy = (int)ver->version;
        if (is_locked(le, ver->version))
            continue;
        const evgen_loc *where = ver->n_slots ? &ver->slots[0].field->since_loc : &e->name_loc;
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
        const evgen_version *ver = evgen_event_version(e, next);
        const evgen_loc *where = &e->name_loc;
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
    compat_state st = {model, lock, diags, NULL, 0};
    size_t errors_before = diags->n_errors;
    for (size_t i = 0; i < lock->n_events; i++)
        check_locked_event(&st, &lock->events[i]);
    for (size_t i = 0; i < model->n_events; i++)
        check_legacy_locked(&st, &model->events[i], mode);
    free(st.reported);
    return diags->n_errors > errors_before ? -1 : 0;
}
