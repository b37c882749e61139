/* frontend_internal.h — what the front end's files share: its state while reading one
 * translation unit, macro invocations with argument positions, and type resolution. Only the
 * frontend_*.c files include this (and so libclang). */
#ifndef EVGEN_GEN_FRONTEND_INTERNAL_H
#define EVGEN_GEN_FRONTEND_INTERNAL_H

#include "frontend/libclang.h" /* libclang, loaded at the first parse */

#include "model/diag.h"
#include "model/model.h"

/* Where evgen's own headers (manifest.h, manifest_end.h, probe.h) live, as unsaved files. */
#define EVGEN_BUILTIN_DIR "/evgen-builtin"

#define EVGEN_MAX_ARGS 5

/* One invocation of a manifest macro, with the position of each argument. */
typedef struct evgen_macro_use {
    int macro; /* index into evgen_manifest_macros */
    const char *file; /* interned */
    unsigned offset;
    evgen_model_loc loc;
    evgen_model_loc args[EVGEN_MAX_ARGS];
    bool empty[EVGEN_MAX_ARGS]; /* nothing written between the commas */
    evgen_model_loc end;        /* the closing parenthesis */
    unsigned n_args;
} evgen_macro_use;

typedef struct evgen_macro_def {
    char *name;
    evgen_model_loc loc;
} evgen_macro_def;

typedef struct evgen_frontend_state {
    evgen_model *model;
    evgen_diags *diags;
    CXTranslationUnit tu;
    evgen_macro_use *uses;
    size_t n_uses;
    size_t next_use; /* probes come in source order: search from the last match */
    /* Every macro the manifest's translation unit defines, sorted by name (field names must
     * not be one: generated code uses them as parameter names). */
    struct evgen_macro_def *macros;
    size_t n_macros;
    /* USRs of registered enums and structs, parallel to model->enums / model->structs. */
    char **enum_usrs;
    char **struct_usrs;
} evgen_frontend_state;

/* The manifest macros and their parameters, as documented in manifest.h. */
typedef struct evgen_manifest_macro {
    const char *name;
    const char *params[EVGEN_MAX_ARGS];
    unsigned n_params;
} evgen_manifest_macro;
extern const evgen_manifest_macro evgen_manifest_macros[];
extern const size_t evgen_n_manifest_macros;

/* Locations (frontend_macros.c). */
evgen_model_loc evgen_fe_expansion_loc(evgen_frontend_state *st, CXSourceLocation where, unsigned *offset);
evgen_model_loc evgen_fe_file_loc(evgen_frontend_state *st, CXSourceLocation where);

/* Records every invocation of a manifest macro with its arguments' positions, and every macro
 * definition of the translation unit. */
void evgen_fe_collect_macro_uses(evgen_frontend_state *st);
/* The definition of macro `name` in the translation unit, or NULL. */
const evgen_macro_def *evgen_fe_find_macro(const evgen_frontend_state *st, const char *name);
void evgen_fe_free_macros(evgen_frontend_state *st);
/* The argument positions of the invocation that produced a probe at `loc` (expansion location
 * at file offset `offset`). Through a user's macro wrapping ours there is no such invocation:
 * every argument then points at `loc`, and false is returned. */
bool evgen_fe_argument_locs(evgen_frontend_state *st, evgen_model_loc loc, unsigned offset,
                            evgen_model_loc args[EVGEN_MAX_ARGS]);
/* Copies clang's diagnostics, with its notes, and with a note of ours where an error falls in a
 * manifest macro's argument. Returns the number of errors. */
size_t evgen_fe_report_clang_diagnostics(evgen_frontend_state *st);

/* Types (frontend_types.c). */
typedef enum evgen_type_use { EVGEN_USE_FIELD, EVGEN_USE_ARRAY_ELEMENT, EVGEN_USE_STRUCT_MEMBER } evgen_type_use;
/* Resolves a C type to a wire type, walking typedefs until an exact-width or evgen name; enums
 * and structs are registered in the model. Reports an error at `loc` and returns false when the
 * type is not allowed for `use`. */
bool evgen_fe_resolve_type(evgen_frontend_state *st, CXType t, evgen_type_use use, const evgen_model_loc *loc,
                           evgen_model_type *out);

#endif /* EVGEN_GEN_FRONTEND_INTERNAL_H */
