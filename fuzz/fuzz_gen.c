/* fuzz_gen.c — the back ends of a lowered model run in memory for the generator fuzz targets. */
#include "fuzz_gen.h"

#include <stdlib.h>
#include <string.h>

#include "backends/context.h"
#include "backends/describe.h"
#include "backends/template.h"
#include "fuzz.h"
#include "lock/lockfile.h"
#include "model/diag.h"

/* The embedded templates (gen/templates.c, generated at build time). */
extern const char evgen_template_runtime_h[];
extern const char evgen_template_runtime_c[];
extern const char evgen_template_fire_all_c[];
extern const char evgen_template_reader_h[];
extern const char evgen_template_reader_c[];
extern const char evgen_template_read_all_c[];

static const struct {
    const char *name;
    const char *text;
    bool runtime; /* needs the manifest's C types: not from a lock */
} templates[] = {
    {"runtime.h.tmpl", evgen_template_runtime_h, true},   {"runtime.c.tmpl", evgen_template_runtime_c, true},
    {"fire_all.c.tmpl", evgen_template_fire_all_c, true}, {"reader.h.tmpl", evgen_template_reader_h, false},
    {"reader.c.tmpl", evgen_template_reader_c, false},    {"read_all.c.tmpl", evgen_template_read_all_c, false},
};

void evgen_fuzz_back_ends(const evgen_model *model, bool reader_only)
{
    FUZZ_CHECK(model->lowered);
    free(evgen_describe_text(model));
    free(evgen_describe_json(model));

    evgen_diags diags;
    evgen_diags_init(&diags);
    char *lock_text = evgen_lock_render(model);
    evgen_lock lock;
    if (evgen_lock_parse("fuzz.lock", lock_text, &lock, &diags) != 0) {
        evgen_diags_print(&diags, stderr);
        FUZZ_CHECK(!"the lock evgen renders parses back");
    }
    evgen_lock_free(&lock);
    free(lock_text);

    if (model->n_events > EVGEN_FUZZ_RENDER_MAX_EVENTS) {
        evgen_diags_free(&diags);
        return;
    }
    evgen_tvalue *context = evgen_build_context(model, "fuzz");
    for (size_t i = 0; i < sizeof templates / sizeof templates[0]; i++) {
        if (reader_only && templates[i].runtime)
            continue;
        evgen_template *t = evgen_template_parse(templates[i].name, templates[i].text, &diags);
        FUZZ_CHECK(t != NULL);
        char *out = evgen_template_render(t, context, &diags);
        if (!out) {
            evgen_diags_print(&diags, stderr);
            FUZZ_CHECK(!"every template renders a lowered model");
        }
        free(out);
        evgen_template_free(t);
    }
    evgen_tv_free(context);
    evgen_diags_free(&diags);
}
