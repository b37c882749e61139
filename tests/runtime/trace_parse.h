/* trace_parse.h — an independent .evtrace parser for the runtime tests, written from
 * docs/format.md alone: validates the header and every block's crc, decodes metadata, records
 * (payload sizes checked against the field layout) and the end block, and finds a torn tail. */
#ifndef EVGEN_TRACE_PARSE_H
#define EVGEN_TRACE_PARSE_H

#include <stddef.h>
#include <stdint.h>

typedef struct tp_field {
    char *name;
    uint64_t kind, flags, enum_plus1, struct_plus1, count_plus1;
} tp_field;

typedef struct tp_version {
    uint64_t version, flags;
    uint64_t level, keywords; /* the version's own (flags bit 1), else its event's */
    tp_field *fields;
    size_t n_fields;
} tp_version;

typedef struct tp_event {
    char *name;
    uint64_t provider, id, level, keywords;
    tp_version *versions;
    size_t n_versions;
} tp_event;

typedef struct tp_enum_const {
    char *name;
    int64_t value;
} tp_enum_const;

typedef struct tp_enum {
    char *name;
    tp_enum_const *consts;
    size_t n_consts;
} tp_enum;

typedef struct tp_member {
    char *name;
    uint64_t kind, offset, enum_plus1;
} tp_member;

typedef struct tp_struct {
    char *name;
    uint64_t stride;
    tp_member *members;
    size_t n_members;
} tp_struct;

typedef struct tp_manifest {
    uint64_t first_type;
    char *name;
    char **providers;
    size_t n_providers;
    tp_enum *enums;
    size_t n_enums;
    tp_struct *structs;
    size_t n_structs;
    tp_event *events;
    size_t n_events;
} tp_manifest;

typedef struct tp_type {
    size_t manifest, event, version;
    int variable;
    uint64_t fixed_size;
} tp_type;

typedef struct tp_record {
    uint64_t thread_id;
    uint32_t block_sequence;
    uint64_t type;
    uint64_t ticks;
    const uint8_t *payload;
    uint32_t size;
    uint32_t stream; /* the nesting level of the emit (0: not inside another emit of the thread) */
} tp_record;

typedef struct tp_thread_end {
    uint64_t thread_id, written, dropped, too_big;
} tp_thread_end;

typedef struct tp_trace {
    /* header */
    uint16_t format_version, header_size;
    uint8_t pointer_size, clock_kind;
    uint64_t clock_frequency, start_ticks, start_unix_ns;
    uint32_t process_id;
    /* metadata */
    tp_manifest *manifests;
    size_t n_manifests;
    tp_type *types;
    size_t n_types;
    /* blocks */
    size_t n_blocks[4]; /* by type */
    uint64_t n_records;
    uint64_t dropped_in_blocks; /* sum of the events blocks' dropped fields */
    int has_end;
    tp_thread_end *end_threads;
    size_t n_end_threads;
    uint64_t end_written, end_dropped, end_too_big;
    /* a torn tail: an incomplete block at the end (a process that died) */
    int torn;
    size_t torn_offset;
    /* the first error: corruption, bad order, bad encoding */
    char error[256];
} tp_trace;

typedef void (*tp_record_fn)(const tp_record *r, void *context);

/* Parses `data`; records go to `fn` (may be NULL) in file order. Returns 0, or -1 with
 * out->error set. A torn tail is not an error (out->torn says it). Free with tp_free. */
int tp_parse(const uint8_t *data, size_t size, tp_record_fn fn, void *context, tp_trace *out);
void tp_free(tp_trace *t);

/* CRC-32C (Castagnoli), written from the spec, bit by bit, independent of the runtime's. */
uint32_t tp_crc32(uint32_t crc, const uint8_t *p, size_t n);

/* Convenience: every record, collected (payloads point into the parsed data). */
typedef struct tp_records {
    tp_record *items;
    size_t n, cap;
} tp_records;
void tp_collect(const tp_record *r, void *context); /* context: tp_records * */
void tp_records_free(tp_records *r);

/* Reads a whole file (NULL if it cannot); *size receives its length. */
uint8_t *tp_read_file(const char *path, size_t *size);

#endif /* EVGEN_TRACE_PARSE_H */
