/* evgen/export.h — `evgen export`: a trace (or several) written for the tools users already read
 * traces with. Each format is one exporter, a row of the table below, driven by the trace's own
 * decoded metadata (evgen/reader.h) and never by a layout of its own:
 *   ctf       a CTF 1.8 trace directory (TSDL `metadata`, one data stream per thread) for
 *             babeltrace2 and Trace Compass (docs/export-ctf.md);
 *   perfetto  a Chrome JSON trace-event file the Perfetto UI opens: every event an instant on its
 *             thread's track, GCs as slices, heap sizes and allocations as counters
 *             (docs/export-perfetto.md);
 *   sql       a directory of CSV files PostgreSQL's COPY loads (and DuckDB, ClickHouse, BigQuery
 *             read), with the DDL and a load script; several traces, one trace id each
 *             (docs/fleet.md).
 * The driver (evgen_export) owns what every exporter shares: opening the traces with the
 * manifests .nettrace events are bound to, the output written whole or not at all, the trace's
 * problems reported after everything readable was exported, and the progress bar.
 *
 * Thread safety: each call opens its own readers; calls on different outputs are independent. */
#ifndef EVGEN_EXPORT_H
#define EVGEN_EXPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evgen/reader.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct evgen_exporter evgen_exporter;
typedef struct evgen_export_run evgen_export_run;

/* One output format. */
struct evgen_exporter {
    const char *name;    /* "ctf": the option --ctf of `evgen export` */
    const char *summary; /* one line for --help: "a CTF 1.8 trace directory (babeltrace2, Trace Compass)" */
    const char *out_name; /* how --help names the output: "DIR", "FILE.json" */
    uint8_t out_is_directory; /* the output is a directory, created whole (else one file) */
    uint8_t several_traces;   /* takes TRACE... (else exactly one) */
    /* Writes the export of run->traces into the output (see evgen_export_run). Returns 0, or -1
     * after reporting the reason with evgen_export_error (the driver then removes the output). The
     * traces' own problems are not failures: the driver reports them. */
    int (*write)(evgen_export_run *run);
};

/* Every exporter, NULL-terminated, in the order --help lists them. */
extern const evgen_exporter *const evgen_exporters[];
/* The exporter named `name`, or NULL. */
const evgen_exporter *evgen_exporter_find(const char *name);

typedef struct evgen_export_options {
    uint32_t size;    /* sizeof(evgen_export_options); set by evgen_export_options_init */
    int progress;     /* default 1: a progress bar on `err` when it is a terminal and the inputs hold at
                       * least 64 MiB */
    const evgen_reader_options *reader; /* how traces are opened (NULL: no options): the manifests
                                         * .nettrace events are bound to */
    const char *const *also_read;       /* files the caller read (manifests): never an output */
    size_t n_also_read;
} evgen_export_options;

void evgen_export_options_init(evgen_export_options *options);

/* Exports traces `traces[0..n_traces)` with `exporter` to `out`.
 *
 * `out` is checked before anything is read (evgen/files.h's rule): a file output may be new or
 * replace a regular file, never an input; a directory output must not exist or be an empty
 * directory. Everything is written under a temporary name beside `out` and renamed over it when
 * complete, so `out` is either left as it was or is a whole export. Returns 0, or 1 with messages
 * on `err`:
 * - `out` is refused: "OUT: cannot write: ..."; nothing is read or created;
 * - a trace cannot be opened: "TRACE: message"; nothing is created;
 * - a trace has problems (corrupt blocks, truncation): every event the reader reads is exported and
 *   `out` written, then one "TRACE: offset N: message" line per problem;
 * - the exporter failed, or writing did: "OUT: message"; `out` is not created. */
int evgen_export(const evgen_exporter *exporter, const char *out, const char *const *traces, size_t n_traces,
                 const evgen_export_options *options, FILE *err);

/* ---- for exporters ----------------------------------------------------------------------------- */

struct evgen_export_run {
    const evgen_exporter *exporter;
    const char *out;      /* the output as the user named it, for messages */
    /* Where to write: for a directory exporter, the temporary directory (write files into it with
     * evgen_export_path); for a file exporter, the temporary file, open for writing. */
    const char *dir;
    FILE *file;
    size_t n_traces;
    const char *const *trace_paths;
    evgen_reader *const *readers; /* open, one per trace, rewound to file order */
    FILE *err;
    void *driver; /* the driver's own (progress) */
};

/* `dir`/`name` in a malloc'd string (NULL if out of memory). */
char *evgen_export_path(const evgen_export_run *run, const char *name);

/* Reports why the export failed: "OUT: message" on run->err. */
void evgen_export_error(const evgen_export_run *run, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Iterates trace `index` in time order, calling evgen_export_progress itself: evgen_reader_next with
 * the progress bar kept. Call evgen_export_rewind first. */
void evgen_export_rewind(evgen_export_run *run, size_t index);
int evgen_export_next(evgen_export_run *run, size_t index, evgen_event *event);

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_EXPORT_H */
