/* fuzz_manifest.c — libFuzzer target: manifest text (any bytes up to the first NUL) compiled by the
 * libclang front end in process as an unsaved file (evgen_load_manifest: front end, rules,
 * lowering, and the lock beside the manifest explaining history errors), then, when it loads:
 * - the compatibility check against the shipped manifest/gcevents.lock (the manifest's path is
 *   manifest/gcevents.h, so mutants of it are checked as `evgen check` checks edits), and against
 *   its own lock, which it must pass;
 * - the model rebuilt from its own lock (`evgen gen --from-lock`), which must load;
 * - every back end in memory (fuzz_gen.c);
 * - its trace metadata bound by the .nettrace reader to a small trace holding one event of each
 *   of its events, read and dumped (fuzz_trace.c): the binding must accept what evgen encodes.
 * libclang makes each run slow (tens of milliseconds). Diagnostics are discarded.
 * Seeds: fuzz/corpus/fuzz_manifest. */
#include <stdlib.h>
#include <string.h>

#include "backends/manifest_desc.h"
#include "cli/pipeline.h"
#include "fuzz.h"
#include "fuzz_gen.h"
#include "fuzz_trace.h"
#include "lock/compat.h"
#include "lock/lock_model.h"
#include "lock/lockfile.h"
#include "model/diag.h"
#include "model/model.h"
#include "nettrace_writer.h"

#ifndef EVGEN_SOURCE_DIR
#error "EVGEN_SOURCE_DIR: the source tree, for manifest/gcevents.lock and the manifests' include files"
#endif

static const char manifest_path[] = EVGEN_SOURCE_DIR "/manifest/gcevents.h";
static const char *const clang_args[] = {"-I", EVGEN_SOURCE_DIR "/tests/manifests/good"};
static evgen_lock shipped_lock;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    evgen_diags diags;
    evgen_diags_init(&diags);
    FUZZ_CHECK(evgen_load_lock(EVGEN_SOURCE_DIR "/manifest/gcevents.lock", &shipped_lock, &diags) == 0);
    evgen_diags_free(&diags);
    return 0;
}

/* A V5 trace with one event of each event of `model` (its newest version; a fixed-size payload of
 * that size, else 64 bytes), for events whose provider name the writer can encode. */
static uint8_t *trace_of(const evgen_model *model, size_t *size)
{
    nt_writer *w = nt_writer_new(5, 1, 8, 1000, 1000000, 42, 2);
    uint8_t payload[256];
    for (size_t i = 0; i < sizeof payload; i++)
        payload[i] = (uint8_t)(i % 7 == 6 ? 0 : i * 37 + 11);
    for (size_t i = 0; i < model->n_events && i < 1000; i++) {
        const evgen_model_event *e = &model->events[i];
        const char *provider = model->providers[e->provider_index].name;
        bool ascii = true;
        for (const char *c = provider; *c; c++)
            ascii = ascii && (unsigned char)*c >= 0x20 && (unsigned char)*c < 0x7f;
        if (!ascii || !e->n_versions)
            continue;
        const evgen_model_version *v = &e->versions[e->n_versions - 1];
        nt_metadata(w, (uint32_t)i + 1, provider, (uint32_t)e->id, e->name, 0, v->version, 0, NULL, 0);
        nt_event ev;
        memset(&ev, 0, sizeof ev);
        ev.metadata_id = (uint32_t)i + 1;
        ev.sequence = (uint32_t)i + 1;
        ev.thread_id = 7;
        ev.capture_thread_id = 7;
        ev.timestamp = 1000 + i;
        ev.payload = payload;
        ev.payload_size = !v->variable_size && v->fixed_size <= sizeof payload ? v->fixed_size : 64;
        nt_write_event(w, &ev);
    }
    return nt_writer_finish(w, size);
}

/* What the commands do with a manifest that loaded. */
static void use_model(const evgen_model *model)
{
    evgen_diags diags;
    evgen_diags_init(&diags);
    evgen_compat_check(model, &shipped_lock, EVGEN_COMPAT_CHECK, &diags);
    evgen_compat_check(model, &shipped_lock, EVGEN_COMPAT_LOCK, &diags);
    evgen_diags_free(&diags);

    /* `evgen lock` then `evgen check`: a manifest matches the lock it renders */
    evgen_diags_init(&diags);
    char *own_text = evgen_lock_render(model);
    evgen_lock own;
    FUZZ_CHECK(evgen_lock_parse("own.lock", own_text, &own, &diags) == 0);
    if (evgen_compat_check(model, &own, EVGEN_COMPAT_CHECK, &diags) != 0) {
        evgen_diags_print(&diags, stderr);
        FUZZ_CHECK(!"a manifest passes the check against its own lock");
    }
    evgen_model from_lock;
    evgen_model_init(&from_lock);
    if (evgen_model_from_lock(&own, &from_lock, &diags) != 0) {
        evgen_diags_print(&diags, stderr);
        FUZZ_CHECK(!"the model of a manifest's own lock loads");
    }
    evgen_fuzz_back_ends(&from_lock, true);
    evgen_model_free(&from_lock);
    evgen_lock_free(&own);
    free(own_text);
    evgen_diags_free(&diags);

    evgen_fuzz_back_ends(model, false);
    evgen_manifest_desc_free(evgen_manifest_desc_build(model, "fuzz"));

    size_t metadata_size = 0, trace_size = 0;
    uint8_t *metadata = evgen_model_metadata(model, "fuzz", &metadata_size);
    evgen_reader_manifest manifest = {"fuzz", metadata, metadata_size};
    const evgen_reader_manifest *manifests[] = {&manifest};
    evgen_reader_options options = {manifests, 1};
    uint8_t *trace = trace_of(model, &trace_size);
    char *error = NULL;
    evgen_reader *rd = evgen_reader_open_memory_with(trace, trace_size, &options, &error);
    if (!rd)
        fprintf(stderr, "%s\n", error ? error : "?");
    FUZZ_CHECK(rd != NULL); /* the manifest's metadata decodes */
    evgen_reader_close(rd);
    evgen_fuzz_read_trace(trace, trace_size, &options, NULL);
    free(trace);
    free(metadata);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = evgen_fuzz_text(data, size);
    evgen_frontend_options opts = {manifest_path, clang_args, 2, text, NULL};
    evgen_model model;
    evgen_model_init(&model);
    evgen_diags diags;
    evgen_diags_init(&diags);
    if (evgen_load_manifest(&opts, &model, &diags) == 0)
        use_model(&model);
    for (size_t i = 0; i < diags.count; i++)
        free(evgen_diag_format(&diags.items[i]));
    evgen_model_free(&model);
    evgen_diags_free(&diags);
    free(text);
    return 0;
}
