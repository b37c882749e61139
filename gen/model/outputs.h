/* outputs.h — the generator's side of evgen/files.h: text inputs read and outputs written by the
 * one rule of libevgen-reader's files.c, with its refusals reported as diagnostics
 * ("PATH: error: cannot write: a FIFO; evgen writes only regular files"). A command that writes
 * several files (gen, lock --traces) collects them in one evgen_outset and commits them together:
 * all are written, or none. */
#ifndef EVGEN_GEN_OUTPUTS_H
#define EVGEN_GEN_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>

#include "evgen/files.h"
#include "model/diag.h"

/* Reads a text input (a manifest, a lock file): a regular file of at most EVGEN_TEXT_INPUT_MAX
 * bytes, NUL-terminated (caller frees). NULL after reporting "PATH: error: cannot ...", except that
 * a file that does not exist is not reported when `missing` is not NULL: *missing is then set. */
char *evgen_read_input(const char *path, bool *missing, evgen_diags *diags);

/* The outputs of one command, and the files it read, which none of them may be. */
typedef struct evgen_outset {
    evgen_output *outputs;
    size_t count;
    char **names;             /* parallel to outputs: each path as given, for messages */
    bool *changed;            /* parallel to outputs: false when the file already held the text */
    const char **inputs;      /* borrowed paths */
    size_t n_inputs;
} evgen_outset;

void evgen_outset_init(evgen_outset *s);
/* An input of the command (the string must outlive the set; NULL is ignored). */
void evgen_outset_input(evgen_outset *s, const char *path);
/* Adds the output `path` holding `text`: checked, then written to its temporary file, unless the
 * file already holds exactly `text` (then it is left alone, not even touched). Returns 0, or -1
 * after reporting. */
int evgen_outset_add_text(evgen_outset *s, const char *path, const char *text, evgen_diags *diags);
/* Adds the output `path` for a writer of its own, which writes the temporary file by its name
 * (the returned output's tmp). NULL after reporting. The pointer lasts until the next add. */
evgen_output *evgen_outset_add(evgen_outset *s, const char *path, evgen_diags *diags);
/* Whether output `i` is (re)written, rather than left as it was. */
bool evgen_outset_changed(const evgen_outset *s, size_t i);
/* Renames every output into place, or none (evgen_outputs_commit). Returns 0, or -1 after
 * reporting. The temporary files are gone either way. */
int evgen_outset_commit(evgen_outset *s, evgen_diags *diags);
/* Removes every temporary file, and frees the set. Safe after a commit. */
void evgen_outset_free(evgen_outset *s);

#endif /* EVGEN_GEN_OUTPUTS_H */
