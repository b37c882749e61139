/* compat.h — `evgen check`: the manifest against its lock file. */
#ifndef EVGEN_GEN_COMPAT_H
#define EVGEN_GEN_COMPAT_H

#include "lock/lockfile.h"
#include "model/diag.h"
#include "model/model.h"

typedef enum evgen_compat_mode {
    EVGEN_COMPAT_CHECK, /* evgen check / gen --lock: every legacy layout must be locked */
    EVGEN_COMPAT_LOCK   /* evgen lock: an event new to the lock may bring its legacy history */
} evgen_compat_mode;

/* Reports every change to a locked event, version or field. Returns 0, or -1 after errors. */
int evgen_compat_check(const evgen_model *model, const evgen_lock *lock, evgen_compat_mode mode,
                       evgen_diags *diags);

#endif /* EVGEN_GEN_COMPAT_H */
