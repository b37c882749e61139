/* ctf.c — the ctf exporter (evgen/export.h): not written yet. */
#include "evgen/export.h"

static int write_ctf(evgen_export_run *run)
{
    evgen_export_error(run, "the ctf export is not implemented yet");
    return -1;
}

const evgen_exporter evgen_exporter_ctf = {
    .name = "ctf",
    .summary = "a CTF 1.8 trace: TSDL metadata, a stream per thread (babeltrace2, Trace Compass)",
    .out_name = "DIR",
    .out_is_directory = 1,
    .several_traces = 0,
    .write = write_ctf,
};
