/* golden.h — golden traces: every locked event version, fired with the deterministic values of
 * golden_values.h by today's writer, recorded once and never rewritten. */
#ifndef EVGEN_GEN_GOLDEN_H
#define EVGEN_GEN_GOLDEN_H

#include "backends/golden_set.h"
#include "model/diag.h"
#include "model/model.h"
#include "model/outputs.h"

/* Prepares in `dir` a new golden trace NAME-NNNN.evtrace (NNNN one past the highest there) holding
 * every version of the model that no golden trace of `dir` holds yet, or every version when no
 * golden trace of `dir` is in the container format today's writer writes (EVGEN_WIRE_FORMAT_VERSION);
 * nothing if none is missing.
 * The trace is an output of `set`, written to its temporary file and renamed into place when the
 * caller commits the set with the command's other outputs. `*number` receives NNNN (0 when no
 * trace is needed) and `*n_versions` the event versions it holds. Returns 0, or -1 after reporting
 * errors. */
int evgen_golden_record(const evgen_model *model, const char *name, const char *dir, evgen_outset *set,
                        unsigned *number, size_t *n_versions, evgen_diags *diags);

/* Writes the versions `held` lacks into the trace `path`. */
int evgen_golden_write(const evgen_model *model, const char *name, const char *path, const evgen_golden_set *held,
                       evgen_diags *diags);

#endif /* EVGEN_GEN_GOLDEN_H */
