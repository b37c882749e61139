/* pipeline.c — the generator's library entry points. */
#include "pipeline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model_check.h"
#include "util.h"

int evgen_load_manifest(const evgen_frontend_options *opts, evgen_model *model, evgen_diags *diags)
{
    if (evgen_frontend_parse(opts, model, diags) != 0)
        return -1;
    return evgen_model_check(model, diags);
}

int evgen_load_lock(const char *path, evgen_lock *lock, evgen_diags *diags)
{
    memset(lock, 0, sizeof *lock);
    char *text = evgen_read_file(path, NULL);
    if (!text) {
        if (errno == ENOENT)
            return 1;
        evgen_error(diags, NULL, EVGEN_D_IO, "cannot read lock file '%s': %s", path, strerror(errno));
        return -1;
    }
    int rc = evgen_lock_parse(path, text, lock, diags);
    free(text);
    return rc;
}
