/* trace_manifests.c — the manifests a trace is read with: manifest files parsed by the front end
 * into models whose metadata bytes become reader manifests, and the manifest shipped with evgen,
 * found beside the installed executable or in the source tree it was built from. */
#include "cli/trace_manifests.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/manifest_desc.h"
#include "cli/pipeline.h"
#include "evgen/files.h"
#include "model/util.h"

bool evgen_is_nettrace(const char *path)
{
    /* evgen/files.h: a FIFO or a device is not waited on; the reader then refuses it */
    int fd = path ? evgen_input_open(path, 0, NULL, NULL) : -1;
    if (fd < 0)
        return false;
    char magic[8];
    bool yes = read(fd, magic, sizeof magic) == (ssize_t)sizeof magic && memcmp(magic, "Nettrace", sizeof magic) == 0;
    close(fd);
    return yes;
}

/* This executable's path, from /proc/self/exe (Linux); NULL if it cannot be read. */
static char *self_path(void)
{
    size_t cap = 256;
    for (;;) {
        char *buf = evgen_xmalloc(cap);
        ssize_t n = readlink("/proc/self/exe", buf, cap);
        if (n < 0) {
            free(buf);
            return NULL;
        }
        if ((size_t)n < cap) {
            buf[n] = '\0';
            return buf;
        }
        free(buf);
        cap *= 2;
    }
}

/* `dir` joined with `relative` (EVGEN_BIN_TO_DATADIR, e.g. "../share"), each leading ".." taking
 * off one of dir's components so that diagnostics name the path without "bin/..". Caller frees. */
static char *join_up(char *dir, const char *relative)
{
    while (strncmp(relative, "../", 3) == 0 || strcmp(relative, "..") == 0) {
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir)
            break;
        *slash = '\0';
        relative += relative[2] ? 3 : 2;
    }
    return relative[0] ? evgen_xasprintf("%s/%s", dir, relative) : evgen_xstrdup(dir);
}

char *evgen_default_manifest_path(void)
{
    char *exe = self_path();
    char *slash = exe ? strrchr(exe, '/') : NULL;
    if (slash && slash != exe) {
        *slash = '\0';
        char *datadir = join_up(exe, EVGEN_BIN_TO_DATADIR);
        char *installed = evgen_xasprintf("%s/evgen/manifest/%s", datadir, EVGEN_DEFAULT_MANIFEST);
        free(datadir);
        if (access(installed, R_OK) == 0) {
            free(exe);
            return installed;
        }
        free(installed);
    }
    free(exe);
    char *source = evgen_xasprintf("%s/manifest/%s", EVGEN_SOURCE_DIR, EVGEN_DEFAULT_MANIFEST);
    if (access(source, R_OK) == 0)
        return source;
    free(source);
    return NULL;
}

/* One reader manifest in one allocation: the struct, then its name, then its metadata. */
static const evgen_reader_manifest *reader_manifest(const char *name, const uint8_t *metadata, size_t size)
{
    size_t name_size = strlen(name) + 1;
    evgen_reader_manifest *m = evgen_xmalloc(sizeof *m + name_size + size);
    char *name_copy = (char *)(m + 1);
    uint8_t *bytes = (uint8_t *)name_copy + name_size;
    memcpy(name_copy, name, name_size);
    memcpy(bytes, metadata, size);
    m->name = name_copy;
    m->metadata = bytes;
    m->size = size;
    return m;
}

/* Parses the manifest at `path` into a reader manifest; NULL after reporting its errors. */
static const evgen_reader_manifest *load_one(const char *path, const char *const *clang_args, size_t n_clang_args,
                                             evgen_diags *diags)
{
    evgen_frontend_options opts = {path, clang_args, n_clang_args, NULL, NULL};
    evgen_model model;
    evgen_model_init(&model);
    const evgen_reader_manifest *m = NULL;
    if (evgen_load_manifest(&opts, &model, diags) == 0) {
        char *name = evgen_default_name(path);
        size_t size = 0;
        uint8_t *metadata = evgen_model_metadata(&model, name, &size);
        m = reader_manifest(name, metadata, size);
        free(metadata);
        free(name);
    }
    evgen_model_free(&model);
    return m;
}

int evgen_trace_manifests_load(const char *const *paths, size_t n_paths, const char *trace_path,
                               const char *const *clang_args, size_t n_clang_args,
                               const evgen_reader_manifest ***out, size_t *n_out, evgen_diags *diags)
{
    *out = NULL;
    *n_out = 0;
    char *fallback = NULL;
    if (n_paths == 0) {
        if (!evgen_is_nettrace(trace_path))
            return 0;
        fallback = evgen_default_manifest_path();
        if (!fallback) {
            evgen_warning(diags, NULL, EVGEN_D_IO,
                          "'%s' is a .nettrace trace and evgen's manifest " EVGEN_DEFAULT_MANIFEST
                          " was found neither in its installation nor in its source tree '%s': its runtime "
                          "events are read unbound",
                          trace_path, EVGEN_SOURCE_DIR);
            evgen_note(diags, NULL, "give the manifest its events are bound to with --manifest FILE");
            return 0;
        }
        paths = (const char *const *)&fallback;
        n_paths = 1;
    }
    const evgen_reader_manifest **manifests = evgen_xcalloc(n_paths, sizeof *manifests);
    int status = 0;
    for (size_t i = 0; i < n_paths; i++) {
        manifests[i] = load_one(paths[i], clang_args, n_clang_args, diags);
        if (!manifests[i])
            status = -1; /* every manifest is still read: all their errors at once */
    }
    free(fallback);
    if (status != 0) {
        evgen_trace_manifests_free(manifests, n_paths);
        return -1;
    }
    *out = manifests;
    *n_out = n_paths;
    return 0;
}

void evgen_trace_manifests_free(const evgen_reader_manifest **manifests, size_t n)
{
    if (!manifests)
        return;
    for (size_t i = 0; i < n; i++)
        free((void *)manifests[i]); /* one allocation each (reader_manifest) */
    free(manifests);
}
