/* fuzz_gen.h — what the generator fuzz targets (fuzz_manifest, fuzz_lockfile) share: the back ends
 * of a lowered model run in memory, as `evgen gen`, `evgen lock` and `evgen describe` run them,
 * without writing a file. */
#ifndef EVGEN_FUZZ_GEN_H
#define EVGEN_FUZZ_GEN_H

#include <stdbool.h>

#include "model/model.h"

/* On a lowered model: describe (text, JSON), the lock text (which must parse back), and, for a
 * model of at most EVGEN_FUZZ_RENDER_MAX_EVENTS events, every back end of `evgen gen` (backend.h,
 * the test harnesses' too; reader_only: none that needs the C types, as `evgen gen --from-lock`),
 * each of which must print. The templates of a model the size of gcevents.h take most of a second
 * under the sanitizers: its mutants would run ten times less often, for code that small models
 * reach as well. */
#define EVGEN_FUZZ_RENDER_MAX_EVENTS 24

void evgen_fuzz_back_ends(const evgen_model *model, bool reader_only);

#endif /* EVGEN_FUZZ_GEN_H */
