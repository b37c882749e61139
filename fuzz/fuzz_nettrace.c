/* fuzz_nettrace.c — libFuzzer target: an EventPipe .nettrace file (any bytes) read from memory with
 * the gcevents manifest bound, as `evgen dump` binds it (evgen_reader_options.manifests: the
 * generated gcevents_reader_manifest, the same metadata block evgen_trace_manifests_load makes
 * of manifest/gcevents.h), then read and dumped as fuzz_evtrace does (fuzz_trace.c). Seeds:
 * fuzz/corpus/fuzz_nettrace. */
#include "fuzz.h"
#include "fuzz_trace.h"
#include "gcevents_reader.h"

int gcevents_read_all(const evgen_event *ev, evgen_read_value *values, int capacity);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const evgen_reader_manifest *const manifests[] = {&gcevents_reader_manifest};
    evgen_reader_options options = {manifests, 1};
    evgen_fuzz_read_trace(data, size, &options, gcevents_read_all);
    return 0;
}
