/* generate.c — `evgen gen`: the generated files, rendered from the embedded templates. */
#include "generate.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "template.h"
#include "util.h"

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
} output;

static const output outputs[] = {
    {"gen/templates/runtime.h.tmpl", evgen_template_runtime_h, "_runtime.h", false},
    {"gen/templates/runtime.c.tmpl", evgen_template_runtime_c, "_runtime.c", false},
    {"gen/templates/reader.h.tmpl", evgen_template_reader_h, "_reader.h", false},
    {"gen/templates/reader.c.tmpl", evgen_template_reader_c, "_reader.c", false},
    {"gen/templates/fire_all.c.tmpl", evgen_template_fire_all_c, "_fire_all.c", true},
    {"gen/templates/read_all.c.tmpl", evgen_template_read_all_c, "_read_all.c", true},
};
#define N_OUTPUTS (sizeof outputs / sizeof outputs[0])

char *evgen_default_name(const char *manifest_path)
{
    const char *slash = strrchr(manifest_path, '/');
    const char *base = slash ? slash + 1 : manifest_path;
    const char *dot = strrchr(base, '.');
    char *name = evgen_xstrndup(base, dot ? (size_t)(dot - base) : strlen(base));
    /* It prefixes C identifiers: "gc-events.h" gives "gc_events". */
    for (char *c = name; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_')
            *c = '_';
    if (!name[0] || isdigit((unsigned char)name[0])) {
        char *prefixed = evgen_xasprintf("_%s", name);
        free(name);
        name = prefixed;
    }
    return name;
}

bool evgen_valid_name(const char *name)
{
    bool ok = name[0] && (isalpha((unsigned char)name[0]) || name[0] == '_');
    for (const char *c = name; ok && *c; c++)
        ok = isalnum((unsigned char)*c) || *c == '_';
    return ok;
}

int evgen_generate(const evgen_model *model, const evgen_generate_options *options, evgen_diags *diags)
{
    evgen_tvalue *context = evgen_build_context(model, options->name);
    char *rendered[N_OUTPUTS] = {NULL};
    int status = 0;
    for (size_t i = 0; i < N_OUTPUTS && status == 0; i++) {
        if (outputs[i].test && !options->tests)
            continue;
        evgen_template *t = evgen_template_parse(outputs[i].template_name, outputs[i].template_text, diags);
        rendered[i] = t ? evgen_template_render(t, context, diags) : NULL;
        if (!rendered[i])
            status = -1;
        evgen_template_free(t);
    }
    for (size_t i = 0; i < N_OUTPUTS && status == 0; i++) {
        if (!rendered[i])
            continue;
        char *path = evgen_xasprintf("%s/%s%s", options->out_dir, options->name, outputs[i].file_suffix);
        char *old = evgen_read_file(path, NULL);
        bool same = old && strcmp(old, rendered[i]) == 0;
        if (!same && evgen_write_file_atomic(path, rendered[i], strlen(rendered[i])) != 0) {
            evgen_error(diags, NULL, EVGEN_D_IO, "cannot write '%s': %s", path, strerror(errno));
            status = -1;
        } else if (!options->quiet) {
            printf("evgen gen: %s %s\n", same ? "unchanged" : "wrote", path);
        }
        free(old);
        free(path);
    }
    for (size_t i = 0; i < N_OUTPUTS; i++)
        free(rendered[i]);
    evgen_tv_free(context);
    return status;
}
