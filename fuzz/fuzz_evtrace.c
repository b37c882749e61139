/* fuzz_evtrace.c — libFuzzer target: a .evtrace file (any bytes) read from memory in file and time
 * order, every field of every event through the generic field API and the generated gcevents
 * reader, and dumped as text and JSON lines (fuzz_trace.c). Seeds: fuzz/corpus/fuzz_evtrace. */
#include "fuzz.h"
#include "fuzz_trace.h"

int gcevents_read_all(const evgen_event *ev, evgen_read_value *values, int capacity);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    evgen_fuzz_read_trace(data, size, NULL, gcevents_read_all);
    return 0;
}
