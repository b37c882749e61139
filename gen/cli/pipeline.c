/* pipeline.c — the generator's library entry points. */
#include "cli/pipeline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_check.h"
#include "model/outputs.h"
#include "model/util.h"

/* The rules that guard an event's history without a lock: a since changed on a shipped field
 * breaks them too, but only the lock knows which line was edited and what it said before. */
static bool history_errors_only(const evgen_diags *d)
{
    for (size_t i = 0; i < d->count; i++) {
        if (d->items[i].severity != EVGEN_SEV_ERROR)
            continue;
        switch (d->items[i].code) {
        case EVGEN_D_FIELD_INSERTED:
        case EVGEN_D_VERSION_GAP:
        case EVGEN_D_BAD_COUNT:
        case EVGEN_D_BAD_LEGACY:
            continue;
        default:
            return false;
        }
    }
    return d->n_errors > 0;
}

/* When the lock (`lock_path`, else the one beside the manifest) explains the history errors (the
 * edit broke a shipped version), its diagnostics replace them: they point at the edited line and
 * say what it was.
 * Errors the lock does not explain (an event or version not yet locked) stay as they are. */
static void explain_with_lock(evgen_model *model, const char *lock_path, evgen_diags *found)
{
    char *path = lock_path ? evgen_xstrdup(lock_path) : evgen_lock_default_path(model->manifest_path);
    evgen_lock lock;
    evgen_diags lock_diags, compat;
    evgen_diags_init(&lock_diags);
    evgen_diags_init(&compat);
    if (evgen_load_lock(path, &lock, &lock_diags) == 0) {
        evgen_model_lower_for_lock(model);
        evgen_compat_check(model, &lock, EVGEN_COMPAT_CHECK, &compat);
        evgen_lock_free(&lock);
    }
    if (compat.n_errors > 0) {
        evgen_diags_free(found);
        *found = compat;
    } else {
        evgen_diags_free(&compat);
    }
    evgen_diags_free(&lock_diags);
    free(path);
}

static void append_diags(evgen_diags *to, const evgen_diags *from)
{
    for (size_t i = 0; i < from->count; i++) {
        const evgen_diagnostic *d = &from->items[i];
        evgen_diag_add(to, d->severity, d->code, d->file, d->line, d->col, d->message);
    }
}

int evgen_load_manifest(const evgen_frontend_options *opts, evgen_model *model, evgen_diags *diags)
{
    if (evgen_frontend_parse(opts, model, diags) != 0)
        return -1;
    evgen_diags found;
    evgen_diags_init(&found);
    int rc = evgen_model_check(model, &found);
    if (rc != 0 && history_errors_only(&found) && model->manifest_path)
        explain_with_lock(model, opts->lock_path, &found);
    append_diags(diags, &found);
    evgen_diags_free(&found);
    return rc;
}

int evgen_load_lock(const char *path, evgen_lock *lock, evgen_diags *diags)
{
    memset(lock, 0, sizeof *lock);
    bool missing = false;
    char *text = evgen_read_input(path, &missing, diags);
    if (!text)
        return missing ? 1 : -1;
    int rc = evgen_lock_parse(path, text, lock, diags);
    free(text);
    return rc;
}
