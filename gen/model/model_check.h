/* model_check.h — the manifest's rules and the lowering of events into per-version layouts. */
#ifndef EVGEN_GEN_MODEL_CHECK_H
#define EVGEN_GEN_MODEL_CHECK_H

#include "model/diag.h"
#include "model/model.h"

/* Checks the declarations (duplicates, unknown providers, field order, version gaps, array
 * counts, legacy layouts) and lowers every event into its versions' slots.
 * Returns 0, or -1 after reporting errors; the model is lowered only on success. */
int evgen_model_check(evgen_model *model, evgen_diags *diags);

/* After evgen_model_check failed on history rules only (field order, version gaps, array
 * counts, legacy layouts), lowers the events it left unlowered as declared — version N holds
 * the fields with since <= N in declaration order — so that the lock comparison can tell which
 * edit broke them and name it at its line. The model stays unlowered (model->lowered false):
 * only evgen_compat_check may read these layouts. */
void evgen_model_lower_for_lock(evgen_model *model);

#endif /* EVGEN_GEN_MODEL_CHECK_H */
