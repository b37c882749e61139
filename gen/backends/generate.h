/* generate.h — `evgen gen`: prints the model with every back end of the table (backend.h) and
 * writes the generated files. */
#ifndef EVGEN_GEN_GENERATE_H
#define EVGEN_GEN_GENERATE_H

#include <stdbool.h>

#include "model/diag.h"
#include "model/model.h"

typedef struct evgen_generate_options {
    const char *out_dir; /* where the files go (must exist) */
    const char *name;    /* prefix of files and symbols: NAME_runtime.h, NAME_manifest, ... */
    bool quiet;          /* no "wrote"/"unchanged" lines on stdout */
    bool tests;          /* also the test harnesses (back ends tests_only): NAME_fire_all.c, ... */
    bool sql;            /* also the SQL schema (back ends sql_only): NAME.sql */
    const char *depfile; /* also a Make-style depfile here (NULL: none), for the build system */
    const char *lock_path; /* the lock file read by --lock (NULL: none): a prerequisite in the depfile */
    bool reader_only;    /* no back end that needs_c_types (a model rebuilt from a lock has none) */
} evgen_generate_options;

/* Writes the file of every back end (evgen_backends, in order) of a lowered model, and the
 * depfile. Each goes to a temporary file in its directory; once every one is written they are all
 * renamed into place, and on any error none is (outputs.h): a failed generation leaves the files
 * already there as they were. A file whose content did not change is not rewritten, so builds do
 * not recompile needlessly. No output may be an input (the manifest, a header it includes, the
 * lock) or anything but a regular file. Returns 0, or -1 after reporting errors. */
int evgen_generate(const evgen_model *model, const evgen_generate_options *options, evgen_diags *diags);

/* The depfile of a generation: the first back end's file (out_dir/NAME_runtime.h) as the target,
 * and as prerequisites the manifest, every file it includes (model->included_files: evgen's own
 * embedded headers are not among them) and the lock file, each once. Paths are made absolute
 * (the build tool that reads the depfile does not run in evgen's directory) and escaped for Make
 * and Ninja: space as "\ ", '#' as "\#", '$' as "$$". Caller frees. */
char *evgen_depfile_render(const evgen_model *model, const evgen_generate_options *options);

#endif /* EVGEN_GEN_GENERATE_H */
