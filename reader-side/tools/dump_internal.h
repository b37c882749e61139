/* dump_internal.h — what dump.c shares with dump_pipeline.c: the dumper (the output, the JSON
 * writer, and the line heads, field keys and ops rendered once per version, read-only while
 * events are dumped) and the formatting of one event. Not installed. */
#ifndef EVGEN_READER_DUMP_INTERNAL_H
#define EVGEN_READER_DUMP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "dump_json.h"
#include "dump_out.h"

/* How the fields loop prints one field. `size` not 0: the common case, an unsigned integer of
 * `size` bytes at a fixed `offset` of the payload (no variable field before it), with no enum,
 * whose rendered key is at most 64 bytes (its buffer holds at least 128, zeroed: render_begin):
 * printed straight from the payload, with no plan applied and no field description read. 0:
 * anything else, through the plan and put_field. */
typedef struct dump_op {
    const char *key; /* the field's rendered prefix (prefix[serial][f]) */
    uint32_t key_len;
    uint32_t offset, end; /* end = offset + size: the payload must hold it */
    uint8_t size;
} dump_op;

typedef struct dumper {
    dump_buffer o;
    json_writer jw; /* JSON: every separator of an event line */
    evgen_reader *rd;
    int json;
    int stacks; /* --stacks */
    unsigned pointer_size;
    /* per version serial: the line head (text " Name_Vn"; JSON up to "fields":{) and each
     * field's prefix (text " Field="; JSON "Field":), rendered once; JSON's separators are the
     * writer's to place */
    char **head;
    size_t *head_len;
    char ***prefix;
    size_t **prefix_len;
    /* per version serial, per field: how the fields loop prints it (dump_op) */
    dump_op **ops;
    uint8_t *raw_type; /* per version serial: a raw type of evgen convert (printed as raw=) */
    uint32_t *raw_bound; /* per raw type's serial: the bound version it was read with + 1, or 0 */
    uint32_t *dynamic;   /* per serial of a GCDynamicEvent version: its Name and Data fields + 1 (16 bits each) */
    const char *names[64]; /* JSON: enum constant names of this event's fields */
    uint32_t name_fields[64];
    size_t n_names;
} dumper;

/* One event's line into d->o (dump.c). Reads the reader's tables, never changes them: several
 * dumpers with their own `o` and `jw` may format events of one reader at once, as long as no event
 * needs the reader's scratch (more variable fields than an evgen_event holds). */
void evgen_dump_event(dumper *d, const evgen_event *ev);

/* Events formatted on two cores, written in their order (dump_pipeline.c): NULL when not worth it
 * or not possible (one CPU, EVGEN_DUMP_THREADS=1, not .evtrace, a reader that needs its scratch,
 * no memory);
 * then the caller formats with evgen_dump_event. */
typedef struct dump_pipeline dump_pipeline;
dump_pipeline *evgen_dump_pipeline_start(dumper *d);
/* Takes what `ev`'s line needs (its pointers stay valid until the reader closes). Failures show in
 * d->o.error. */
void evgen_dump_pipeline_add(dump_pipeline *pl, const evgen_event *ev);
/* Formats and writes what is left, stops the helper thread, frees. */
void evgen_dump_pipeline_finish(dump_pipeline *pl);

#endif /* EVGEN_READER_DUMP_INTERNAL_H */
