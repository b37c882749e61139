/* perfetto.c — the perfetto exporter (evgen/export.h): not written yet. */
#include "evgen/export.h"

static int write_perfetto(evgen_export_run *run)
{
    evgen_export_error(run, "the perfetto export is not implemented yet");
    return -1;
}

const evgen_exporter evgen_exporter_perfetto = {
    .name = "perfetto",
    .summary = "Chrome JSON trace events the Perfetto UI opens: events, GC slices, heap counters",
    .out_name = "FILE.json",
    .out_is_directory = 0,
    .several_traces = 0,
    .write = write_perfetto,
};
