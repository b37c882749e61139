/* fuzz_gen.c — the back ends of a lowered model run in memory for the generator fuzz targets. */
#include "fuzz_gen.h"

#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "backends/describe.h"
#include "backends/manifest_desc.h"
#include "fuzz.h"
#include "lock/lockfile.h"
#include "model/diag.h"

void evgen_fuzz_back_ends(const evgen_model *model, bool reader_only)
{
    FUZZ_CHECK(model->lowered);
    evgen_diags check;
    evgen_diags_init(&check);
    int describable = evgen_model_metadata_check(model, &check) == 0; /* what a generation checks first */
    evgen_diags_free(&check);
    if (!describable)
        return;
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
    evgen_backend_run run;
    evgen_backend_run_init(&run, model, "fuzz");
    for (size_t i = 0; i < evgen_n_backends; i++) {
        const evgen_backend *b = evgen_backends[i];
        if (reader_only && b->needs_c_types)
            continue;
        char *out = b->emit(b, &run, &diags);
        if (!out) {
            evgen_diags_print(&diags, stderr);
            FUZZ_CHECK(!"every back end prints a lowered model");
        }
        free(out);
    }
    evgen_backend_run_free(&run);
    evgen_diags_free(&diags);
}
