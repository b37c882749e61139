/* trace_manifests.h — the manifests a trace is read with: .nettrace events carry no field
 * descriptions, so a reader binds them to manifests (evgen_reader_options.manifests). Commands that
 * read traces (evgen dump, evgen convert) load them here from manifest files, or fall back to the
 * manifest shipped with evgen. */
#ifndef EVGEN_GEN_TRACE_MANIFESTS_H
#define EVGEN_GEN_TRACE_MANIFESTS_H

#include <stdbool.h>
#include <stddef.h>

#include "evgen/reader.h"
#include "model/diag.h"

/* The file name of the manifest shipped with evgen, under `<prefix>/share/evgen/manifest/`. */
#define EVGEN_DEFAULT_MANIFEST "gcevents.h"

/* Whether the file at `path` starts with the 8 bytes "Nettrace" (an EventPipe trace). False when
 * it cannot be read: the reader reports that when it opens the trace. */
bool evgen_is_nettrace(const char *path);

/* The path of the manifest shipped with evgen: `<directory of this executable>/../share/evgen/
 * manifest/gcevents.h` when evgen is installed, else the source tree's manifest/gcevents.h this
 * evgen was built from, if either exists. Returns a malloc'd path, or NULL when neither exists. */
char *evgen_default_manifest_path(void);

/* Loads the manifests a trace is to be read with into reader manifests (name: the manifest's
 * default name, evgen_default_name; metadata: evgen_model_metadata of its model):
 * - each of `paths` (n_paths of them) in order, read by the front end with `clang_args` (-I, -D:
 *   n_clang_args of them);
 * - with none given, for a trace that is a .nettrace file (`trace_path`, may be NULL), the manifest
 *   shipped with evgen (evgen_default_manifest_path); if it is not found, a warning says so and
 *   none is loaded (the trace's events are then read unbound);
 * - otherwise none.
 * Returns 0 with *out (a malloc'd array of *n_out manifests, NULL when there are none; free it with
 * evgen_trace_manifests_free) ready for evgen_reader_options.manifests; or -1 after reporting a
 * manifest's errors to `diags` (file:line:col), with *out NULL and *n_out 0. */
int evgen_trace_manifests_load(const char *const *paths, size_t n_paths, const char *trace_path,
                               const char *const *clang_args, size_t n_clang_args,
                               const evgen_reader_manifest ***out, size_t *n_out, evgen_diags *diags);

/* Frees what evgen_trace_manifests_load returned; NULL is allowed. */
void evgen_trace_manifests_free(const evgen_reader_manifest **manifests, size_t n);

#endif /* EVGEN_GEN_TRACE_MANIFESTS_H */
