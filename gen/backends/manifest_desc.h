/* manifest_desc.h — a model as libevgen-runtime's descriptors (evgen/runtime_desc.h): what golden
 * traces are written through, and what the trace metadata of a model is encoded from. */
#ifndef EVGEN_GEN_MANIFEST_DESC_H
#define EVGEN_GEN_MANIFEST_DESC_H

#include <stddef.h>
#include <stdint.h>

#include "evgen/runtime_desc.h"
#include "model/diag.h"
#include "model/model.h"

/* The descriptors of a lowered model, as the generated NAME_runtime.c would define them on this
 * host (8-byte pointers; struct strides and offsets as the front end's target laid them out), with
 * `name` (copied) as the manifest's name and type_base 0. Every event is disabled. The descriptors
 * point at the model's strings: the model must outlive them. Free with evgen_manifest_desc_free
 * (never after registering them: the runtime keeps a registered manifest for the process's life).
 * Out of memory aborts (util.h). */
evgen_manifest_desc *evgen_manifest_desc_build(const evgen_model *model, const char *name);

/* Frees what evgen_manifest_desc_build returned; NULL is allowed. */
void evgen_manifest_desc_free(evgen_manifest_desc *desc);

/* The metadata block payload of a model (docs/format.md) with type base 0: the bytes a trace
 * written by the model's generated runtime side holds for it, as evgen_manifest_metadata encodes
 * them. Returns a malloc'd buffer the caller frees, its length in *size. Out of memory aborts. */
uint8_t *evgen_model_metadata(const evgen_model *model, const char *name, size_t *size);

/* Whether the model's trace metadata decodes as a reader decodes a trace's (8- and 4-byte
 * pointers): 0, or -1 with an error naming the model's input. What a generation checks before it
 * writes anything: the model's checks refuse, with a line, what is known not to decode (a lock
 * may describe anything), and this refuses the rest, rather than generating a runtime side whose
 * traces no reader reads, or failing in a back end that describes the model through the reader. */
int evgen_model_metadata_check(const evgen_model *model, evgen_diags *diags);

#endif /* EVGEN_GEN_MANIFEST_DESC_H */
