/* evgen/dump.h — `evgen dump`: prints a trace's events one line each, as text or JSON lines,
 * decoded from the trace's own metadata alone (no generated code), or a summary (--stats).
 * docs/dump.md describes the command, the line formats and the exit statuses.
 *
 * Thread safety: evgen_dump uses its own reader; calls on different traces are independent. */
#ifndef EVGEN_DUMP_H
#define EVGEN_DUMP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evgen/reader.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct evgen_dump_options {
    uint32_t size;              /* sizeof(evgen_dump_options); set by evgen_dump_options_init */
    int json;                   /* JSON lines rather than text */
    int stats;                  /* a summary rather than the events */
    int order;                  /* an evgen_order of evgen/reader.h: EVGEN_ORDER_TIME (the default) or
                                 * EVGEN_ORDER_FILE (not included here: the generator, which runs
                                 * dump, has its own evgen_event) */
    const char *const *events;  /* keep only events of these names (n_events 0: every event) */
    size_t n_events;
    uint64_t from_ns, to_ns;    /* keep events with from_ns <= timestamp <= to_ns (since session start) */
    int progress;               /* default 1: a progress bar on `err` when it is a terminal, the output
                                 * is not, and the trace is at least 64 MiB */
    const evgen_reader_options *reader; /* how the trace is opened (NULL: no options): the manifests
                                         * a .nettrace file's events are bound to */
    int stacks;                 /* each event's stack (.nettrace), innermost first: "stack" in JSON,
                                 * stack=[...] at the end of a text line */
} evgen_dump_options;

void evgen_dump_options_init(evgen_dump_options *options);

/* Dumps the trace at `path` to the file descriptor `out` (written through a large buffer) with
 * `options` (NULL: defaults). Problems of the trace (corrupt blocks, truncation) go to `err` as
 * "PATH: offset N: message" lines after everything readable was dumped; a trace that cannot be
 * opened gives "PATH: message". Returns 0, or 1 if the trace has problems, cannot be opened, an
 * --event name is unknown, or writing failed. */
int evgen_dump(const char *path, const evgen_dump_options *options, int out, FILE *err);

/* `evgen dump` from its arguments (argv[0] is "dump"): parses them, prints usage errors to
 * stderr (status 2), and runs evgen_dump to stdout and stderr. Returns the exit status. */
int evgen_dump_main(int argc, char **argv);
/* The same, opening the trace with `reader` (NULL: no options). */
int evgen_dump_main_with(int argc, char **argv, const evgen_reader_options *reader);

/* The usage text of `evgen dump`. */
extern const char evgen_dump_usage[];

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_DUMP_H */
