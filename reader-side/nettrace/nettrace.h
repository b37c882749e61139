/* nettrace.h — libevgen-reader's private index of an EventPipe .nettrace file (docs/nettrace.md):
 * built in one pass at open (nettrace.c frames the blocks, nettrace_meta.c decodes and binds the
 * metadata), then iterated in file order or in time order (nettrace_order.c). Not installed. */
#ifndef EVGEN_READER_NETTRACE_H
#define EVGEN_READER_NETTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "format.h"

/* ---- bounded reads, shared by the .nettrace files: a cursor that turns bad, never overreads --- */

typedef struct rd_ncur {
    const uint8_t *p, *end;
    int bad; /* a read ran past `end`: every later read gives 0 */
} rd_ncur;

/* A little-endian integer of n bytes (1, 2, 4, 8). */
static inline uint64_t rd_nt_take(rd_ncur *c, unsigned n)
{
    if (c->bad || (size_t)(c->end - c->p) < n) {
        c->bad = 1;
        return 0;
    }
    uint64_t v = evgen_wire_load(c->p, n);
    c->p += n;
    return v;
}

static inline uint64_t rd_nt_take_varint(rd_ncur *c)
{
    uint64_t v = 0;
    if (c->bad || evgen_wire_get_varint(&c->p, c->end, &v) != 0)
        c->bad = 1;
    return v;
}

static inline void rd_nt_skip(rd_ncur *c, size_t n)
{
    if (c->bad || (size_t)(c->end - c->p) < n)
        c->bad = 1;
    else
        c->p += n;
}

/* A metadata id's meaning: the version its events are read with (bound to a manifest event, or
 * built from the trace's own description), and the version number the trace gave. */
typedef struct rd_nt_meta {
    const rd_version *version; /* NULL: the id is not defined */
    uint32_t trace_version;
} rd_nt_meta;

/* One event, located and with its header decoded. */
typedef struct rd_nt_event {
    uint64_t payload;           /* file offset */
    uint64_t offset;            /* file offset of its header */
    uint64_t ticks;
    uint64_t thread_id;
    uint64_t capture_thread_id;
    uint64_t activity;          /* file offset of the activity id, or 0 */
    uint32_t size;              /* payload bytes */
    uint32_t meta;              /* metadata id */
    uint32_t sequence;
    uint32_t stack;             /* index in rd_nettrace.stacks + 1, or 0: none */
} rd_nt_event;

typedef struct rd_nt_stack {
    uint64_t offset; /* of the first instruction pointer */
    uint32_t id;
    uint32_t depth;
} rd_nt_stack;

typedef struct rd_nt_label_list { /* V6: a label list's id and its activity id's file offset (0: none) */
    uint64_t activity;
    uint32_t id;
} rd_nt_label_list;

typedef struct rd_nt_sequence { /* a capture thread's last sequence number */
    uint32_t last;
    uint8_t seen;
} rd_nt_sequence;

typedef struct rd_nt_thread_ref { /* V6: a thread index and the OS thread it stands for */
    uint64_t index, os_thread_id;
} rd_nt_thread_ref;

typedef struct rd_nettrace {
    uint32_t version; /* 4, 5 or 6 */

    rd_nt_meta *metas; /* by metadata id */
    size_t n_metas, cap_metas;
    evgen_trace_manifest *own; /* the manifest of events only the trace describes */

    rd_nt_event *events; /* in file order */
    size_t n_events, cap_events;
    size_t *regions; /* the first event of each sequence-point region after the first */
    size_t n_regions, cap_regions;
    rd_nt_stack *stacks;
    size_t n_stacks, cap_stacks;
    size_t region_stacks; /* the first stack of the current region: ids resolve from there */
    rd_nt_label_list *labels;
    size_t n_labels, cap_labels;
    size_t region_labels; /* the first label list of the current region */
    rd_nt_thread_ref *thread_refs;
    size_t n_thread_refs, cap_thread_refs;
    struct rd_nt_sequence *sequences; /* by rd->threads index (capture threads) */
    size_t n_sequences, cap_sequences;

    uint32_t *time_order; /* event indexes sorted by time within each region, built on first use */
    size_t cursor;
} rd_nettrace;

/* The index of a reader of a .nettrace file. */
static inline rd_nettrace *evgen_rd_nt(const evgen_reader *rd)
{
    return (rd_nettrace *)rd->format;
}

/* The format's entry points (nettrace.c), for the table of formats. */
extern const evgen_rd_format_ops evgen_rd_nettrace_format;
/* .netperf (netperf.c): recognised, and refused with a message naming it. */
extern const evgen_rd_format_ops evgen_rd_netperf_format;

/* nettrace_meta.c: one metadata record of the trace, defining metadata id `id`. */
typedef struct rd_nt_meta_record {
    uint32_t id;
    const char *provider; /* UTF-8, in the reader's arena */
    const char *name;     /* "" if the trace gives none */
    uint32_t event_id;
    uint32_t version;
    uint32_t level;
    uint64_t keywords;
    evgen_trace_field *fields; /* the fields the trace describes, as far as evgen can express them */
    uint32_t n_fields;
} rd_nt_meta_record;
/* Binds a decoded record (found at file offset `offset`): 0, or -1 if memory ran out. */
int evgen_rd_nt_define(evgen_reader *rd, const rd_nt_meta_record *record, uint64_t offset);
/* Decodes the payload of a V4/V5 metadata event, or a V6 metadata row (after its size), into
 * `record`: 0, or -1 with `why` set. Strings and fields go in the reader's arena. */
int evgen_rd_nt_meta_v5(evgen_reader *rd, const uint8_t *p, const uint8_t *end, rd_nt_meta_record *record,
                        char *why, size_t why_size);
int evgen_rd_nt_meta_v6(evgen_reader *rd, const uint8_t *p, const uint8_t *end, rd_nt_meta_record *record,
                        char *why, size_t why_size);

/* nettrace_order.c: iteration. */
void evgen_rd_nt_rewind(evgen_reader *rd);
int evgen_rd_nt_next(evgen_reader *rd, evgen_event *event);

#endif /* EVGEN_READER_NETTRACE_H */
