/* pipeline.h — the generator as a library: load a manifest into a checked, lowered model, and
 * compare it with a lock file. The CLI (main.c) and the tests sit on top of these. */
#ifndef EVGEN_GEN_PIPELINE_H
#define EVGEN_GEN_PIPELINE_H

#include "frontend/frontend.h"
#include "lock/compat.h"
#include "lock/lockfile.h"
#include "model/diag.h"
#include "model/model.h"

#define EVGEN_VERSION_STRING EVGEN_PROJECT_VERSION

/* Front end + rules + lowering. Returns 0, or -1 after reporting errors (model then partial).
 * When the only errors break an event's history (field order, version gaps, array counts, legacy
 * layouts) and the lock (opts->lock_path, else the one beside the manifest) says which shipped
 * field was edited, the lock's diagnostics are reported instead: at the edited line, naming the
 * change (a since moved, a field renamed). */
int evgen_load_manifest(const evgen_frontend_options *opts, evgen_model *model, evgen_diags *diags);

/* Reads and parses the lock file at `path`. Returns 0; -1 after reporting errors; 1 if the file
 * does not exist (nothing reported: the caller decides whether that is an error). */
int evgen_load_lock(const char *path, evgen_lock *lock, evgen_diags *diags);

#endif /* EVGEN_GEN_PIPELINE_H */
