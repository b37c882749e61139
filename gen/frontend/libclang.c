/* libclang.c — evgen_libclang_load (frontend/libclang.h): dlopen of the libclang the build found,
 * and dlsym of every function the front end calls, once per process. */
#include "frontend/libclang.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

#ifndef EVGEN_LIBCLANG_PATH
#error "EVGEN_LIBCLANG_PATH: the libclang shared library to load (gen/CMakeLists.txt)"
#endif

evgen_libclang_api evgen_libclang;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *load_error; /* NULL once loaded */
static char missing[160];

static void load(void)
{
    void *lib = dlopen(EVGEN_LIBCLANG_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        load_error = dlerror();
        return;
    }
    /* POSIX's way from dlsym's object pointer to a function pointer. */
#define EVGEN_LIBCLANG_RESOLVE(name)                                                                     \
    if (!(*(void **)(&evgen_libclang.name) = dlsym(lib, "clang_" #name)) && !load_error) {              \
        snprintf(missing, sizeof missing, "%s has no clang_%s", EVGEN_LIBCLANG_PATH, #name);              \
        load_error = missing;                                                                            \
    }
    EVGEN_LIBCLANG_FUNCTIONS(EVGEN_LIBCLANG_RESOLVE)
#undef EVGEN_LIBCLANG_RESOLVE
}

int evgen_libclang_load(const char **why)
{
    pthread_once(&once, load);
    *why = load_error;
    return load_error ? -1 : 0;
}
