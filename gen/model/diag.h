/* diag.h — compiler-style diagnostics (file:line:col: error: message), collected in a list so
 * that the CLI prints them and tests inspect them. */
#ifndef EVGEN_GEN_DIAG_H
#define EVGEN_GEN_DIAG_H

#include <stdarg.h>
#include <stdio.h>

#include "model/model.h"

typedef enum evgen_diag_code {
#define EVGEN_DIAG(suffix, name, doc) EVGEN_D_##suffix,
#include "model/diag_codes.h"
#undef EVGEN_DIAG
    EVGEN_D_COUNT
} evgen_diag_code;

typedef enum evgen_severity { EVGEN_SEV_ERROR, EVGEN_SEV_WARNING, EVGEN_SEV_NOTE } evgen_severity;

typedef struct evgen_diagnostic {
    evgen_severity severity;
    evgen_diag_code code;
    char *file; /* NULL for a diagnostic without a location */
    unsigned line, col;
    char *message;
} evgen_diagnostic;

typedef struct evgen_diags {
    evgen_diagnostic *items;
    size_t count;
    size_t n_errors;
} evgen_diags;

void evgen_diags_init(evgen_diags *d);
void evgen_diags_free(evgen_diags *d);

const char *evgen_diag_code_name(evgen_diag_code code);
const char *evgen_diag_code_doc(evgen_diag_code code);

/* Reports at `loc` (loc may be NULL or have a NULL file: no location). */
void evgen_error(evgen_diags *d, const evgen_model_loc *loc, evgen_diag_code code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* evgen_error with the arguments as a va_list, for reporting functions of their own. */
void evgen_verror(evgen_diags *d, const evgen_model_loc *loc, evgen_diag_code code, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));
void evgen_warning(evgen_diags *d, const evgen_model_loc *loc, evgen_diag_code code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A note belongs to the error or warning reported just before it. */
void evgen_note(evgen_diags *d, const evgen_model_loc *loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Adds an already formatted diagnostic (clang's own). */
void evgen_diag_add(evgen_diags *d, evgen_severity sev, evgen_diag_code code, const char *file, unsigned line,
                    unsigned col, const char *message);

/* Prints every diagnostic: "file:line:col: error: message [code]" ("file: error: ..." at line 0:
 * the file as a whole). */
void evgen_diags_print(const evgen_diags *d, FILE *out);
/* Formats one diagnostic as it is printed (without newline). Caller frees. */
char *evgen_diag_format(const evgen_diagnostic *diag);

#endif /* EVGEN_GEN_DIAG_H */
