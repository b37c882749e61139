/* backend.h — a back end of `evgen gen`: one generated file printed from a lowered model. The table
 * of back ends is backends.c; generate.c writes what each prints, all files or none. */
#ifndef EVGEN_GEN_BACKEND_H
#define EVGEN_GEN_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "backends/template.h"
#include "model/diag.h"
#include "model/model.h"

/* One generation, as every back end of it sees it. */
typedef struct evgen_backend_run {
    const evgen_model *model; /* lowered */
    const char *name;         /* NAME, the prefix of files and symbols */
    /* The value tree the code templates print (context.h): built by the first back end that needs
     * it (evgen_backend_context), shared by the others, freed with the run. */
    evgen_tvalue *context;
} evgen_backend_run;

typedef struct evgen_backend evgen_backend;
struct evgen_backend {
    const char *name;        /* for people: "runtime.h" */
    const char *file_suffix; /* its file is NAME + file_suffix in the output directory */
    bool tests_only;         /* a test harness: written only with --tests */
    bool sql_only;           /* the SQL schema: written only with --sql */
    bool needs_c_types;      /* needs the manifest's C types: not written from a lock (reader_only) */
    /* Prints the file: its text (the caller frees it), or NULL after reporting errors to `diags`.
     * It reads the model const and writes nothing. */
    char *(*emit)(const evgen_backend *self, evgen_backend_run *run, evgen_diags *diags);
    const void *data; /* the back end's own, for emit (a template back end: its template) */
};

/* Every back end, in the order their files are written and listed; the first one's file is the
 * depfile's target (generate.h). */
extern const evgen_backend *const evgen_backends[];
extern const size_t evgen_n_backends;

void evgen_backend_run_init(evgen_backend_run *run, const evgen_model *model, const char *name);
void evgen_backend_run_free(evgen_backend_run *run);
/* The run's template value tree, built on first use. */
const evgen_tvalue *evgen_backend_context(evgen_backend_run *run);

#endif /* EVGEN_GEN_BACKEND_H */
