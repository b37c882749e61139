/* frontend.h — the libclang front end: compiles a manifest and fills the model's declarations.
 * This is the only part of evgen that knows libclang. */
#ifndef EVGEN_GEN_FRONTEND_H
#define EVGEN_GEN_FRONTEND_H

#include <stddef.h>

#include "model/diag.h"
#include "model/model.h"

typedef struct evgen_frontend_options {
    const char *manifest_path;
    /* Extra compiler arguments passed through as they are (-I, -D, -U, -isystem, --target). */
    const char *const *clang_args;
    size_t n_clang_args;
    /* Optional: the manifest's text, used instead of reading manifest_path (tests). */
    const char *manifest_text;
    /* Optional, for evgen_load_manifest (pipeline.h): the lock that explains history errors
     * (`--lock PATH`); NULL for the lock beside the manifest. */
    const char *lock_path;
} evgen_frontend_options;

/* Parses the manifest into `model` (declarations only; call evgen_model_check() next).
 * Returns 0, or -1 after reporting at least one error to `diags`. */
int evgen_frontend_parse(const evgen_frontend_options *opts, evgen_model *model, evgen_diags *diags);

/* The embedded copies of manifest/evgen/manifest.h and manifest_end.h that every manifest includes (builtin_headers.c,
 * generated at build time). */
extern const char evgen_builtin_manifest_h[];
extern const char evgen_builtin_manifest_end_h[];

#endif /* EVGEN_GEN_FRONTEND_H */
