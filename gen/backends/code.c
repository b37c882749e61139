/* code.c — the C code back ends: each renders one embedded template (templates/NAME.tmpl) with the
 * model's value tree (context.c), the runtime side, the reader side and their test harnesses. */
#include "backends/backend.h"

/* The embedded templates (templates.c, generated at build time by embed.cmake). */
extern const char evgen_template_runtime_h[];
extern const char evgen_template_runtime_c[];
extern const char evgen_template_fire_all_c[];
extern const char evgen_template_reader_h[];
extern const char evgen_template_reader_c[];
extern const char evgen_template_read_all_c[];

typedef struct template_file {
    const char *path; /* as diagnostics name it */
    const char *text;
} template_file;

static char *emit_template(const evgen_backend *self, evgen_backend_run *run, evgen_diags *diags)
{
    const template_file *file = self->data;
    evgen_template *t = evgen_template_parse(file->path, file->text, diags);
    char *text = t ? evgen_template_render(t, evgen_backend_context(run), diags) : NULL;
    evgen_template_free(t);
    return text;
}

/* ID (evgen_backend_ID), the template (templates/NAME.tmpl) and the name of the back end, the suffix
 * of the generated file, tests_only, needs_c_types. */
#define TEMPLATE_BACKEND(id, name_, suffix, tests_only_, needs_c_types_)                          \
    static const template_file template_##id = {"gen/backends/templates/" name_ ".tmpl",         \
                                                evgen_template_##id};                            \
    const evgen_backend evgen_backend_##id = {.name = name_,                                     \
                                              .file_suffix = suffix,                             \
                                              .tests_only = tests_only_,                         \
                                              .needs_c_types = needs_c_types_,                   \
                                              .emit = emit_template,                             \
                                              .data = &template_##id};

TEMPLATE_BACKEND(runtime_h, "runtime.h", "_runtime.h", false, true)
TEMPLATE_BACKEND(runtime_c, "runtime.c", "_runtime.c", false, true)
TEMPLATE_BACKEND(reader_h, "reader.h", "_reader.h", false, false)
TEMPLATE_BACKEND(reader_c, "reader.c", "_reader.c", false, false)
TEMPLATE_BACKEND(fire_all_c, "fire_all.c", "_fire_all.c", true, true)
TEMPLATE_BACKEND(read_all_c, "read_all.c", "_read_all.c", true, false)
