/* model_check.h — the manifest's rules and the lowering of events into per-version layouts. */
#ifndef EVGEN_GEN_MODEL_CHECK_H
#define EVGEN_GEN_MODEL_CHECK_H

#include "diag.h"
#include "model.h"

/* Checks the declarations (duplicates, unknown providers, field order, version gaps, array
 * counts, legacy layouts) and lowers every event into its versions' slots.
 * Returns 0, or -1 after reporting errors; the model is lowered only on success. */
int evgen_model_check(evgen_model *model, evgen_diags *diags);

#endif /* EVGEN_GEN_MODEL_CHECK_H */
