/* context.h — the model lowered into the value tree that the code templates print. */
#ifndef EVGEN_GEN_CONTEXT_H
#define EVGEN_GEN_CONTEXT_H

#include "backends/template.h"
#include "model/model.h"

/* Builds the context of a lowered model; `name` prefixes generated symbols (e.g. "gcevents").
 * The caller frees it with evgen_tv_free. */
evgen_tvalue *evgen_build_context(const evgen_model *model, const char *name);

/* Adds the reader side's keys of one event (context_reader.c). */
void evgen_add_reader_context(evgen_tvalue *event_map, const evgen_model *model, const evgen_model_event *event);
/* Adds the reader side's keys of the whole manifest (context_reader.c): `metadata_lines`, the
 * model's metadata block payload (evgen_model_metadata) as initializer lines of 16 bytes
 * ("0x1f, 0x00, ..."), and `metadata_size`, its length. */
void evgen_add_reader_manifest_context(evgen_tvalue *root, const evgen_model *model, const char *name);

#endif /* EVGEN_GEN_CONTEXT_H */
