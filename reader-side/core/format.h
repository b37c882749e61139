/* format.h — how a trace format plugs into the reader's core: a table of entry points per format,
 * the one indirection between the public API and a format's code (one call per event read; field
 * access never goes through it). The core names no format: the list of formats is above both
 * (reader-side/formats.c). Not installed. */
#ifndef EVGEN_READER_FORMAT_H
#define EVGEN_READER_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"

typedef struct evgen_rd_format_ops {
    /* Does the file start like one of this format (its magic)? NULL: the format takes any file no
     * other one claims, and its open says why it is not a trace. */
    int (*probe)(const uint8_t *data, size_t size);
    /* Reads the file at rd->data into the core's tables and the format's own state (rd->format),
     * recording the problems of its body with evgen_rd_problem and setting rd->oom if memory runs
     * out. Returns 0, or -1 with `*why` set (malloc'd; NULL: out of memory) when the file cannot be
     * read at all. The core closes the reader either way. */
    int (*open)(evgen_reader *rd, const evgen_reader_options *options, char **why);
    /* Starts the iteration again, in rd->order (which it may set back to file order). */
    void (*rewind)(evgen_reader *rd);
    /* Fills `event` with the next event: 1, or 0 at the end. */
    int (*next)(evgen_reader *rd, evgen_event *event);
    /* Frees rd->format (which may be NULL, or half built by a failed open). */
    void (*close)(evgen_reader *rd);
    /* Finishes what the open left to do lazily (validation), so that the problems, the status and
     * the threads' counts are final; NULL: the open did everything. Called before each query of them. */
    void (*complete)(evgen_reader *rd);
    /* 1: every event `next` gives is what evgen_rd_fill_event makes of its record (no stack, no
     * activity), so that one can be rebuilt from its payload, layout, size, thread, time and stream
     * (tools/dump_pipeline.c); 0: the format fills more. */
    int fills_plain_events;
} evgen_rd_format_ops;

/* The formats, in the order their probes are tried, NULL-terminated; the last one has no probe. */
extern const evgen_rd_format_ops *const evgen_rd_formats[];

#endif /* EVGEN_READER_FORMAT_H */
