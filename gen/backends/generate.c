/* generate.c — `evgen gen`: the generated files, rendered from the embedded templates. */
#include "backends/generate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/context.h"
#include "backends/template.h"
#include "model/outputs.h"
#include "model/util.h"

/* The embedded templates (templates.c, generated at build time by embed.cmake). */
extern const char evgen_template_runtime_h[];
extern const char evgen_template_runtime_c[];
extern const char evgen_template_fire_all_c[];
extern const char evgen_template_reader_h[];
extern const char evgen_template_reader_c[];
extern const char evgen_template_read_all_c[];

typedef struct output {
    const char *template_name; /* as diagnostics name it */
    const char *template_text;
    const char *file_suffix;   /* appended to NAME */
    bool test;                 /* written only with --tests */
    bool runtime;              /* needs the manifest's C types: not from a lock */
} output;

static const output outputs[] = {
    {"gen/backends/templates/runtime.h.tmpl", evgen_template_runtime_h, "_runtime.h", false, true},
    {"gen/backends/templates/runtime.c.tmpl", evgen_template_runtime_c, "_runtime.c", false, true},
    {"gen/backends/templates/reader.h.tmpl", evgen_template_reader_h, "_reader.h", false, false},
    {"gen/backends/templates/reader.c.tmpl", evgen_template_reader_c, "_reader.c", false, false},
    {"gen/backends/templates/fire_all.c.tmpl", evgen_template_fire_all_c, "_fire_all.c", true, true},
    {"gen/backends/templates/read_all.c.tmpl", evgen_template_read_all_c, "_read_all.c", true, false},
};
#define N_OUTPUTS (sizeof outputs / sizeof outputs[0])

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
    char *target = evgen_xasprintf("%s/%s%s", options->out_dir, options->name, outputs[0].file_suffix);
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

int evgen_generate(const evgen_model *model, const evgen_generate_options *options, evgen_diags *diags)
{
    evgen_tvalue *context = evgen_build_context(model, options->name);
    char *rendered[N_OUTPUTS] = {NULL};
    int status = 0;
    for (size_t i = 0; i < N_OUTPUTS && status == 0; i++) {
        if ((outputs[i].test && !options->tests) || (outputs[i].runtime && options->reader_only))
            continue;
        evgen_template *t = evgen_template_parse(outputs[i].template_name, outputs[i].template_text, diags);
        rendered[i] = t ? evgen_template_render(t, context, diags) : NULL;
        if (!rendered[i])
            status = -1;
        evgen_template_free(t);
    }
    /* Every file into a temporary file beside it, the depfile too; then all renamed into place, or
     * on any error none (outputs.h): a generation that fails part-way leaves DIR as it was. */
    evgen_outset set;
    evgen_outset_init(&set);
    evgen_outset_input(&set, model->manifest_path); /* with --from-lock, the lock */
    evgen_outset_input(&set, options->lock_path);
    for (size_t i = 0; i < model->n_included_files; i++)
        evgen_outset_input(&set, model->included_files[i]);
    char **paths = evgen_xcalloc(N_OUTPUTS + 1, sizeof *paths);
    size_t n_paths = 0;
    for (size_t i = 0; i < N_OUTPUTS && status == 0; i++) {
        if (!rendered[i])
            continue;
        paths[n_paths] = evgen_xasprintf("%s/%s%s", options->out_dir, options->name, outputs[i].file_suffix);
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
    for (size_t i = 0; i < N_OUTPUTS; i++)
        free(rendered[i]);
    evgen_tv_free(context);
    return status;
}
