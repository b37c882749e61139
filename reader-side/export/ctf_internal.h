/* ctf_internal.h — what the files of the ctf exporter share (docs/export-ctf.md): field names as
 * TSDL spells them (ctf_names.c), the event classes and which one an event is written with
 * (ctf_classes.c), an event's fields in their CTF layout (ctf_event.c), the data streams and their
 * packets (ctf_stream.c), the TSDL metadata (ctf_metadata.c), and the export's state (ctf.c).
 * Not installed. */
#ifndef EVGEN_EXPORT_CTF_INTERNAL_H
#define EVGEN_EXPORT_CTF_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core.h"
#include "evgen/export.h"
#include "evgen/wire_bytes.h"
#include "evgen/wire_kinds.h"

/* A packet holds events up to this many bytes, header and context included; an event that does not
 * fit an empty packet gets a packet of its own, as large as it needs. */
#define CTF_PACKET_LIMIT (64u * 1024u)
/* The packet header (magic, uuid, stream_id, stream_instance_id) and context (timestamp_begin,
 * timestamp_end, content_size, packet_size, packet_seq_num, events_discarded, thread_id, stream)
 * in bytes, and the event header (id, timestamp). */
#define CTF_PACKET_HEADER_SIZE 32u
#define CTF_PACKET_CONTEXT_SIZE 60u
#define CTF_EVENT_HEADER_SIZE 12u
#define CTF_MAGIC 0xC1FC1FC1u

/* ---- names (ctf_names.c) ----------------------------------------------------------------------- */

/* The member names of one TSDL struct, as babeltrace2 shows them, each claimed once. */
typedef struct ctf_names {
    char **shown;
    size_t n, cap;
    int oom;
} ctf_names;

/* Claims a member for `name` (a manifest's or a trace's: any bytes): the name babeltrace2 shows is
 * `name` with every byte outside [A-Za-z0-9_] replaced by '_' ("field" if empty), made unique in
 * `names` by a suffix _2, _3...; its TSDL spelling, returned (malloc'd; NULL if out of memory), has
 * one more '_' in front when the shown name starts with '_' or a digit or is a TSDL keyword or one
 * of the metadata's type names: babeltrace2 drops one leading '_' of a field name. */
char *ctf_names_claim(ctf_names *names, const char *name);
void ctf_names_free(ctf_names *names);

/* Writes `s` as a TSDL string literal: quoted, '"' and '\' escaped, control bytes as '?'. */
void ctf_put_literal(FILE *f, const char *s);

/* ---- classes (ctf_classes.c) --------------------------------------------------------------------- */

/* One CTF event class: the first `n_fields` fields of `version`, then, with `raw`, the payload's
 * bytes past them as a byte sequence. Classes 0 .. rd->n_versions - 1 are the versions' own (every
 * field, nothing past them), numbered by serial; the others are made when an event needs one. */
typedef struct ctf_class {
    const rd_version *version;
    uint32_t n_fields;
    uint8_t raw;
    uint8_t used;         /* an event was written with it */
    int32_t truncated_at; /* a cut payload's class: the field it ends in (the first absent one), or -1 */
} ctf_class;

typedef struct ctf_version_plan {
    uint8_t raw_type;    /* a raw type of evgen convert: its payload is its Raw field */
    uint32_t bound;      /* a raw type: the serial + 1 of the version its payload is read with, or 0 */
    uint32_t n_fields;   /* the fields its events show: the version's; 0 for a raw type */
    uint32_t tail_class; /* the class of its payloads with bytes past every field: id + 1, or 0 */
    uint32_t *cut_class; /* per field: the class of payloads that end in it, id + 1 (NULL until one) */
} ctf_version_plan;

typedef struct ctf_classes {
    const evgen_reader *rd;
    ctf_class *items; /* by id */
    size_t n, cap;
    ctf_version_plan *plans; /* by serial */
    uint8_t *qualified;      /* by event index: named "<provider>:<name>_V<n>" (another provider's event
                              * that is shown has its name) */
    int oom;
} ctf_classes;

int ctf_classes_init(ctf_classes *c, const evgen_reader *rd);
void ctf_classes_free(ctf_classes *c);
/* The class of an event of `v` (shown with plans[serial].n_fields fields) whose payload holds its
 * first `whole` fields whole and then `rest` more bytes: its id, or -1 if memory ran out. */
long ctf_class_for(ctf_classes *c, const rd_version *v, uint32_t whole, uint32_t rest);
/* Is class `id` in the metadata: a version's own class (but a raw type's, unless used) or a
 * class an event used? */
int ctf_class_listed(const ctf_classes *c, size_t id);

/* ---- an event's fields (ctf_event.c) ------------------------------------------------------------- */

/* Does field `f` of `v` (an array) carry a length of its own before it? babeltrace2 takes only an
 * unsigned integer field as a sequence's length, so a signed count field gets one. */
static inline int ctf_field_has_own_length(const evgen_trace_version *v, uint32_t f)
{
    const evgen_trace_field *fd = &v->fields[f];
    return fd->is_array && fd->count_field >= 0 && (uint32_t)fd->count_field < f &&
           evgen_wire_kind_class(v->fields[fd->count_field].kind) != EVGEN_WIRE_CLASS_UNSIGNED;
}

/* Appends field `f` of event `ev` (located at `off`, `size` bytes of its payload) in its CTF layout:
 * integers, floats, bools and pointers as they are (little endian), GUIDs as text, strings as UTF-8
 * with a 0 byte, arrays' elements one after the other (after a uint32 length of their own when
 * ctf_field_has_own_length), struct elements member by member without padding. */
void ctf_event_put_field(evgen_wire_buf *out, const evgen_event *ev, uint32_t f, uint32_t off, uint32_t size);
/* Appends bytes as a raw field: a uint32 length, then the bytes. */
void ctf_event_put_raw(evgen_wire_buf *out, const uint8_t *p, uint32_t n);

/* ---- data streams (ctf_stream.c) ----------------------------------------------------------------- */

/* One data stream file: the events of one thread's stream (.evtrace nesting level), in time order. */
typedef struct ctf_stream {
    uint64_t thread_id;
    uint32_t nested;       /* .evtrace stream: 0, or the nesting level */
    uint64_t instance;     /* stream_instance_id */
    char *path;
    evgen_wire_buf body;   /* the events of the open packet */
    uint64_t begin, end;   /* the open packet's first and last timestamps */
    uint64_t last;         /* the last timestamp written */
    uint64_t packets;      /* written */
    uint64_t events;       /* in the open packet */
    uint64_t discarded;    /* the thread's lost events, carried by the stream's last packet */
} ctf_stream;

typedef struct ctf_streams {
    evgen_export_run *run;
    uint8_t uuid[16];
    ctf_stream *items;
    size_t n, cap;
    size_t *hash; /* open addressing on (thread, nested): index + 1, 0 empty */
    size_t hash_cap;
    uint64_t next_instance; /* for nested streams, after the threads' numbers */
    uint64_t max_ticks;     /* the latest timestamp babeltrace2 holds (ctf_clock_max_ticks) */
    uint64_t clamped;       /* events written at their predecessor's time (the thread's clock went back) */
    uint64_t beyond;        /* events written at max_ticks (their timestamp was past it) */
} ctf_streams;

void ctf_streams_init(ctf_streams *s, evgen_export_run *run, const uint8_t uuid[16]);
/* The stream of (thread, nested), made if new (its number: the thread's index in the reader's
 * threads; nested streams numbered after all threads): NULL if memory ran out. */
ctf_stream *ctf_stream_of(ctf_streams *s, const evgen_reader *rd, uint64_t thread_id, uint32_t nested);
/* Appends one event (class `id`, `ticks`, `fields` bytes) to its stream, writing the open packet
 * first when it would not fit. 0, or -1 after reporting the error. */
int ctf_stream_event(ctf_streams *s, ctf_stream *st, uint32_t id, uint64_t ticks, const uint8_t *fields,
                     size_t n);
/* Writes every stream's open packet, and for a thread with lost events a last packet whose
 * events_discarded counts them all (after one with 0, so that babeltrace2 reports them). A thread
 * with losses and no events gets a stream of its own, at `start_ticks`. 0, or -1 after reporting. */
int ctf_streams_finish(ctf_streams *s, const evgen_reader *rd);
void ctf_streams_free(ctf_streams *s);

/* ---- metadata (ctf_metadata.c) ------------------------------------------------------------------- */

/* The clock class's offset from the Unix epoch, so that `ticks` are at start_unix_ns +
 * (ticks - start_ticks) * 1e9 / frequency: offset_s seconds (negative when start_ticks is more
 * seconds than the epoch is behind start_unix_ns) plus offset cycles, 0 <= offset < frequency.
 * 0, or -1 if babeltrace2 could not hold it (offset_s * 1e9 beyond 64 signed bits: 292 years). */
int ctf_clock_offset(const evgen_trace_header *h, int64_t *offset_s, uint64_t *offset);
/* The latest timestamp babeltrace2 converts to nanoseconds from the origin with that offset (the
 * sum in 64 signed bits, about the year 2262), a second or two to spare. */
uint64_t ctf_clock_max_ticks(const evgen_trace_header *h, int64_t offset_s);

typedef struct ctf_metadata_in {
    const evgen_reader *rd;
    const ctf_classes *classes;
    const char *trace_name; /* the trace's file name, without its directory */
    const uint8_t *uuid;
    int64_t offset_s;
    uint64_t offset;
} ctf_metadata_in;

/* Writes the TSDL metadata. 0, or -1 if memory ran out (write errors: the stream's). */
int ctf_metadata_write(FILE *f, const ctf_metadata_in *in);

#endif /* EVGEN_EXPORT_CTF_INTERNAL_H */
