/* lockfile.h — the lock file: the frozen layout of every shipped event version (text, one line
 * per event, version and field, so that diffs read well). Format: docs/lockfile.md. */
#ifndef EVGEN_GEN_LOCKFILE_H
#define EVGEN_GEN_LOCKFILE_H

#include "model/diag.h"
#include "model/model.h"

typedef struct evgen_lock_field {
    char *name;
    char *signature; /* evgen_model_field_signature() of the field as it was locked */
    evgen_model_loc loc;
} evgen_lock_field;

typedef struct evgen_lock_version {
    unsigned version;
    bool legacy;
    evgen_lock_field *fields;
    size_t n_fields;
    evgen_model_loc loc;
} evgen_lock_version;

typedef struct evgen_lock_event {
    char *name;
    uint64_t id;
    char *provider; /* provider name, as in traces */
    evgen_lock_version *versions;
    size_t n_versions;
    evgen_model_loc loc;
} evgen_lock_event;

typedef struct evgen_lock {
    char *path;
    evgen_lock_event *events;
    size_t n_events;
} evgen_lock;

/* The default lock path for a manifest: gcevents.h -> gcevents.lock, beside it. Caller frees. */
char *evgen_lock_default_path(const char *manifest_path);

/* Parses lock text. `path` names it in diagnostics. Returns 0, or -1 after reporting errors. */
int evgen_lock_parse(const char *path, const char *text, evgen_lock *lock, evgen_diags *diags);
void evgen_lock_free(evgen_lock *lock);

/* Renders the lock text that freezes every version of every event of a lowered model. */
char *evgen_lock_render(const evgen_model *model);

#endif /* EVGEN_GEN_LOCKFILE_H */
