/* backends.c — the table of `evgen gen`'s back ends, one row each, in the order their files are
 * written. A new back end is a file of backends/ defining `const evgen_backend evgen_backend_ID`
 * (backend.h) and one row here; neither generate.c nor the other back ends change. */
#include "backends/backend.h"

#include "backends/context.h"

/* X(ID): evgen_backend_ID. */
#define EVGEN_BACKENDS(X) \
    X(runtime_h)          \
    X(runtime_c)          \
    X(reader_h)           \
    X(reader_c)           \
    X(fire_all_c)         \
    X(read_all_c)         \
    X(sql)

#define EVGEN_BACKEND_DECLARE(id) extern const evgen_backend evgen_backend_##id;
EVGEN_BACKENDS(EVGEN_BACKEND_DECLARE)
#undef EVGEN_BACKEND_DECLARE

const evgen_backend *const evgen_backends[] = {
#define EVGEN_BACKEND_ROW(id) &evgen_backend_##id,
    EVGEN_BACKENDS(EVGEN_BACKEND_ROW)
#undef EVGEN_BACKEND_ROW
};
const size_t evgen_n_backends = sizeof evgen_backends / sizeof evgen_backends[0];

void evgen_backend_run_init(evgen_backend_run *run, const evgen_model *model, const char *name)
{
    run->model = model;
    run->name = name;
    run->context = NULL;
}

void evgen_backend_run_free(evgen_backend_run *run)
{
    evgen_tv_free(run->context);
    run->context = NULL;
}

const evgen_tvalue *evgen_backend_context(evgen_backend_run *run)
{
    if (!run->context)
        run->context = evgen_build_context(run->model, run->name);
    return run->context;
}
