/* formats.c — the trace formats libevgen-reader opens, in the order their probes are tried: the
 * one place that names them all, above the core (which only sees format.h) and the formats. */
#include "evtrace.h"
#include "format.h"
#include "nettrace.h"

const evgen_rd_format_ops *const evgen_rd_formats[] = {
    &evgen_rd_nettrace_format, /* "Nettrace" */
    &evgen_rd_netperf_format,  /* FastSerialization's header first: refused, named */
    &evgen_rd_evtrace_format,  /* anything else: "EVTRACE\0", or the error naming both */
    NULL,
};
