/* generate.c — `evgen gen`: every back end of the table (backends.c) printed, and the files written
 * all or none, with the depfile. */
#include "backends/generate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/backend.h"
#include "backends/manifest_desc.h"
#include "model/outputs.h"
#include "model/util.h"

/* A path as the build tool must see it: absolute, without a leading "./". Caller frees. */
static char *absolute_path(const char *path)
{
    if (path[0] == '/')
        return evgen_xstrdup(path);
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    char *cwd = getcwd(NULL, 0);
    if (!cwd) /* cannot happen in practice; the relative path is the best left */
        return evgen_xstrdup(path);
    char *abs = evgen_xasprintf("%s/%s", cwd, path);
    free(cwd);
    return abs;
}

/* Appends a path escaped as GCC escapes depfile paths, which Make, Ninja and CMake read back. */
static void put_depfile_path(evgen_strbuf *sb, const char *path)
{
    for (const char *c = path; *c; c++) {
        if (*c == ' ' || *c == '#')
            evgen_sb_putc(sb, '\\');
        else if (*c == '$')
            evgen_sb_putc(sb, '$');
        evgen_sb_putc(sb, *c);
    }
}

char *evgen_depfile_render(const evgen_model *model, const evgen_generate_options *options)
{
    /* The prerequisites in order, each once: the manifest, what it includes, the lock. */
    size_t n_paths = model->n_included_files + 2, n = 0;
    char **deps = evgen_xcalloc(n_paths, sizeof *deps);
    for (size_t i = 0; i < n_paths; i++) {
        const char *p = i == 0                           ? model->manifest_path
                        : i <= model->n_included_files ? model->included_files[i - 1]
                                                       : options->lock_path;
        if (!p)
            continue;
        char *abs = absolute_path(p);
        bool seen = false;
        for (size_t j = 0; j < n && !seen; j++)
            seen = strcmp(deps[j], abs) == 0;
        if (seen)
            free(abs);
        else
            deps[n++] = abs;
    }
    evgen_strbuf sb;
    evgen_sb_init(&sb);
    char *target = evgen_xasprintf("%s/%s%s", options->out_dir, options->name, evgen_backends[0]->file_suffix);
    char *abs_target = absolute_path(target);
    put_depfile_path(&sb, abs_target);
    evgen_sb_putc(&sb, ':');
    for (size_t i = 0; i < n; i++) {
        evgen_sb_puts(&sb, " \\\n  ");
        put_depfile_path(&sb, deps[i]);
        free(deps[i]);
    }
    evgen_sb_putc(&sb, '\n');
    free(abs_target);
    free(target);
    free(deps);
    return evgen_sb_take(&sb);
}

/* Whether the back end writes its file in this generation. */
static bool wanted(const evgen_backend *b, const evgen_generate_options *options)
{
    return (!b->tests_only || options->tests) && (!b->sql_only || options->sql) &&
           (!b->needs_c_types || !options->reader_only);
}

int evgen_generate(const evgen_model *model, const evgen_generate_options *options, evgen_diags *diags)
{
    evgen_backend_run run;
    evgen_backend_run_init(&run, model, options->name);
    char **rendered = evgen_xcalloc(evgen_n_backends, sizeof *rendered);
    int status = evgen_model_metadata_check(model, diags);
    for (size_t i = 0; i < evgen_n_backends && status == 0; i++) {
        const evgen_backend *b = evgen_backends[i];
        if (!wanted(b, options))
            continue;
        rendered[i] = b->emit(b, &run, diags);
        if (!rendered[i])
            status = -1;
    }
    /* Every file into a temporary file beside it, the depfile too; then all renamed into place, or
     * on any error none (outputs.h): a generation that fails part-way leaves DIR as it was. */
    evgen_outset set;
    evgen_outset_init(&set);
    evgen_outset_input(&set, model->manifest_path); /* with --from-lock, the lock */
    evgen_outset_input(&set, options->lock_path);
    for (size_t i = 0; i < model->n_included_files; i++)
        evgen_outset_input(&set, model->included_files[i]);
    char **paths = evgen_xcalloc(evgen_n_backends + 1, sizeof *paths);
    size_t n_paths = 0;
    for (size_t i = 0; i < evgen_n_backends && status == 0; i++) {
        if (!rendered[i])
            continue;
        paths[n_paths] = evgen_xasprintf("%s/%s%s", options->out_dir, options->name, evgen_backends[i]->file_suffix);
        status = evgen_outset_add_text(&set, paths[n_paths++], rendered[i], diags);
    }
    if (status == 0 && options->depfile) {
        char *text = evgen_depfile_render(model, options);
        paths[n_paths++] = evgen_xstrdup(options->depfile);
        status = evgen_outset_add_text(&set, options->depfile, text, diags);
        free(text);
    }
    if (status == 0)
        status = evgen_outset_commit(&set, diags);
    for (size_t i = 0; i < n_paths; i++) {
        if (status == 0 && !options->quiet)
            printf("evgen gen: %s %s\n", evgen_outset_changed(&set, i) ? "wrote" : "unchanged", paths[i]);
        free(paths[i]);
    }
    free(paths);
    evgen_outset_free(&set);
    for (size_t i = 0; i < evgen_n_backends; i++)
        free(rendered[i]);
    free(rendered);
    evgen_backend_run_free(&run);
    return status;
}
