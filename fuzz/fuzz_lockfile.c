/* fuzz_lockfile.c — libFuzzer target: lock-file text (any bytes up to the first NUL) parsed
 * (gen/lock/lockfile.c), and what consumes a lock without a manifest: the model rebuilt from it
 * (gen/lock/lock_model.c, `evgen gen --from-lock`) with its checks and lowering, then that
 * model's back ends in memory: the reader side's templates, describe, the lock it renders, which
 * must parse back (fuzz_gen.c). Diagnostics are discarded. Seeds: fuzz/corpus/fuzz_lockfile. */
#include <stdlib.h>

#include "fuzz.h"
#include "fuzz_gen.h"
#include "lock/lock_model.h"
#include "lock/lockfile.h"
#include "model/diag.h"
#include "model/model.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = evgen_fuzz_text(data, size);
    evgen_diags diags;
    evgen_diags_init(&diags);
    evgen_lock lock;
    if (evgen_lock_parse("fuzz.lock", text, &lock, &diags) == 0) {
        evgen_model model;
        evgen_model_init(&model);
        if (evgen_model_from_lock(&lock, &model, &diags) == 0)
            evgen_fuzz_back_ends(&model, true);
        evgen_model_free(&model);
        evgen_lock_free(&lock);
    }
    for (size_t i = 0; i < diags.count; i++)
        free(evgen_diag_format(&diags.items[i]));
    evgen_diags_free(&diags);
    free(text);
    return 0;
}
