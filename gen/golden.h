/* golden.h — golden traces: every locked event version, fired with the deterministic values of
 * golden_values.h by today's writer, recorded once and never rewritten. */
#ifndef EVGEN_GEN_GOLDEN_H
#define EVGEN_GEN_GOLDEN_H

#include "diag.h"
#include "golden_set.h"
#include "model.h"

/* Records in `dir` a new golden trace NAME-NNNN.evtrace (NNNN one past the highest there) holding
 * every version of the model that no golden trace of `dir` holds yet; nothing if none is missing.
 * `*number` receives NNNN, or 0 when nothing was written. Returns 0, or -1 after reporting errors
 * (nothing is left half-written). */
int evgen_golden_record(const evgen_model *model, const char *name, const char *dir, unsigned *number,
                        evgen_diags *diags);

/* Writes the versions `held` lacks into the trace `path`. */
int evgen_golden_write(const evgen_model *model, const char *name, const char *path, const evgen_golden_set *held,
                       evgen_diags *diags);

#endif /* EVGEN_GEN_GOLDEN_H */
