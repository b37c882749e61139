/* lock_model.h — a model rebuilt from a lock file (the layouts an old manifest froze). */
#ifndef EVGEN_GEN_LOCK_MODEL_H
#define EVGEN_GEN_LOCK_MODEL_H

#include "lock/lockfile.h"
#include "model/diag.h"
#include "model/model.h"

/* Builds and lowers a model whose events and versions are exactly the lock's. Returns 0, or -1
 * after reporting errors. */
int evgen_model_from_lock(const evgen_lock *lock, evgen_model *model, evgen_diags *diags);

#endif /* EVGEN_GEN_LOCK_MODEL_H */
