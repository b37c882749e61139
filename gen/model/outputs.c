/* outputs.c — the generator's text inputs and output files, by the rule of evgen/files.h, with
 * diagnostics at the file concerned ("PATH: error: ..."). */
#include "model/outputs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"

/* A problem with the file `path` as a whole: "PATH: error: MESSAGE". */
static void file_error(evgen_diags *diags, const char *path, const char *message)
{
    evgen_model_loc loc = {path, 0, 0};
    evgen_error(diags, &loc, EVGEN_D_IO, "%s", message ? message : "out of memory");
}

char *evgen_read_input(const char *path, bool *missing, evgen_diags *diags)
{
    char *error = NULL;
    char *text = evgen_input_read_text(path, NULL, &error);
    if (missing)
        *missing = !text && errno == ENOENT;
    if (!text && !(missing && *missing))
        file_error(diags, path, error);
    free(error);
    return text;
}

void evgen_outset_init(evgen_outset *s)
{
    memset(s, 0, sizeof *s);
}

void evgen_outset_input(evgen_outset *s, const char *path)
{
    if (!path)
        return;
    s->inputs = evgen_xrealloc(s->inputs, (s->n_inputs + 1) * sizeof *s->inputs);
    s->inputs[s->n_inputs++] = path;
}

/* Adds the output `path`, checked (outputs of the set included) but not created yet. */
static evgen_output *add_checked(evgen_outset *s, const char *path, evgen_diags *diags)
{
    evgen_output o;
    char *error = NULL;
    if (evgen_output_check(&o, path, s->inputs, s->n_inputs, &error) != 0) {
        file_error(diags, path, error);
        free(error);
        return NULL;
    }
    s->outputs = evgen_xrealloc(s->outputs, (s->count + 1) * sizeof *s->outputs);
    s->names = evgen_xrealloc(s->names, (s->count + 1) * sizeof *s->names);
    s->changed = evgen_xrealloc(s->changed, (s->count + 1) * sizeof *s->changed);
    s->outputs[s->count] = o;
    s->names[s->count] = evgen_xstrdup(path);
    s->changed[s->count] = false;
    s->count++;
    /* Two outputs of one command that are one file: the second is refused. */
    if (evgen_outputs_distinct(s->outputs, s->count, &error) != 0) {
        file_error(diags, path, error);
        free(error);
        s->count--;
        evgen_output_discard(&s->outputs[s->count]);
        free(s->names[s->count]);
        return NULL;
    }
    return &s->outputs[s->count - 1];
}

/* Creates the temporary file of the set's last output. */
static int create_last(evgen_outset *s, const char *path, evgen_diags *diags)
{
    char *error = NULL;
    if (evgen_output_create(&s->outputs[s->count - 1], &error) != 0) {
        file_error(diags, path, error);
        free(error);
        s->count--; /* released by evgen_output_create */
        free(s->names[s->count]);
        return -1;
    }
    s->changed[s->count - 1] = true;
    return 0;
}

evgen_output *evgen_outset_add(evgen_outset *s, const char *path, evgen_diags *diags)
{
    if (!add_checked(s, path, diags) || create_last(s, path, diags) != 0)
        return NULL;
    return &s->outputs[s->count - 1];
}

int evgen_outset_add_text(evgen_outset *s, const char *path, const char *text, evgen_diags *diags)
{
    evgen_output *o = add_checked(s, path, diags);
    if (!o)
        return -1;
    size_t size = strlen(text);
    /* A file that already holds the text is left alone, mtime and all (no temporary file either):
     * a build that regenerates recompiles nothing needlessly. */
    if (evgen_output_unchanged(o, text, size))
        return 0;
    if (create_last(s, path, diags) != 0)
        return -1;
    o = &s->outputs[s->count - 1];
    if (evgen_output_write(o, text, size) != 0) {
        char *message = evgen_xasprintf("cannot write '%s': %s", o->tmp, strerror(errno));
        file_error(diags, path, message);
        free(message);
        return -1; /* the set still holds it: evgen_outset_free removes its temporary file */
    }
    return 0;
}

bool evgen_outset_changed(const evgen_outset *s, size_t i)
{
    return i < s->count && s->changed[i];
}

int evgen_outset_commit(evgen_outset *s, evgen_diags *diags)
{
    size_t failed = 0;
    char *error = NULL;
    int rc = evgen_outputs_commit(s->outputs, s->count, &failed, &error);
    if (rc != 0)
        file_error(diags, s->names[failed], error);
    free(error);
    return rc;
}

void evgen_outset_free(evgen_outset *s)
{
    for (size_t i = 0; i < s->count; i++) {
        evgen_output_discard(&s->outputs[i]);
        free(s->names[i]);
    }
    free(s->outputs);
    free(s->names);
    free(s->changed);
    free(s->inputs);
    evgen_outset_init(s);
}
