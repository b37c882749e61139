/* internal.h — libevgen-reader's private state: the decoded metadata with each version's lowered
 * layout, the type table, the index of good blocks, iteration cursors, and the helpers its
 * source files share. Not installed. */
#ifndef EVGEN_READER_INTERNAL_H
#define EVGEN_READER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "evgen/reader.h"

#define EVGEN_RD_FILE_HEADER_SIZE 48u
#define EVGEN_RD_BLOCK_HEADER_SIZE 48u
#define EVGEN_RD_FORMAT_VERSION 1u

enum { RD_BLOCK_METADATA = 1, RD_BLOCK_EVENTS = 2, RD_BLOCK_END = 3 };

/* Wire kinds (docs/format.md), as evgen_trace_field.kind holds them. */
enum {
    RD_U8 = 1, RD_U16, RD_U32, RD_U64, RD_I8, RD_I16, RD_I32, RD_I64, RD_F32, RD_F64, RD_BOOL8, RD_BOOL32,
    RD_GUID, RD_PTR, RD_UTF8Z, RD_UTF16Z, RD_STRUCT, RD_KIND_MAX = RD_STRUCT
};

/* ---- little-endian loads and varints ---------------------------------------------------- */

/* A little-endian integer of 1, 2, 4 or 8 bytes (others: 0). */
static inline uint64_t rd_load(const uint8_t *p, unsigned n)
{
    switch (n) {
    case 1:
        return p[0];
    case 2:
        return (uint64_t)p[0] | ((uint64_t)p[1] << 8);
    case 4:
        return (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) | ((uint64_t)p[3] << 24);
    case 8: {
        uint64_t lo = (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) | ((uint64_t)p[3] << 24);
        uint64_t hi = (uint64_t)p[4] | ((uint64_t)p[5] << 8) | ((uint64_t)p[6] << 16) | ((uint64_t)p[7] << 24);
        return lo | (hi << 32);
    }
    default:
        return 0;
    }
}

static inline uint16_t rd_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t rd_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline uint64_t rd_le64(const uint8_t *p)
{
    return (uint64_t)rd_le32(p) | ((uint64_t)rd_le32(p + 4) << 32);
}

/* Reads an unsigned LEB128 varint at *p, below `end`. Returns 0 and advances *p, or -1 if it runs
 * past `end`, is longer than 10 bytes or overflows 64 bits. */
static inline int rd_varint(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
    const uint8_t *q = *p;
    if (q < end && *q < 0x80) { /* the common case: one byte */
        *out = *q;
        *p = q + 1;
        return 0;
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < 10; i++) {
        if (q >= end)
            return -1;
        uint8_t b = *q++;
        if (i == 9 && b > 1)
            return -1; /* bits beyond 64 */
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            *out = v;
            *p = q;
            return 0;
        }
    }
    return -1;
}

static inline int64_t rd_unzigzag(uint64_t z)
{
    return (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
}

/* ---- an arena for everything the metadata decodes into ----------------------------------- */

typedef struct rd_arena_chunk rd_arena_chunk;
typedef struct rd_arena {
    rd_arena_chunk *head;
    size_t used, cap; /* in head */
} rd_arena;

void *evgen_rd_arena_alloc(rd_arena *a, size_t size); /* zeroed, 8-aligned; NULL if out of memory */
void evgen_rd_arena_free(rd_arena *a);

/* ---- metadata ---------------------------------------------------------------------------- */

/* A field, lowered: where it starts ("after variable field `after` - 1, plus `delta`", the
 * generated accessors' rule) and how its size is found. */
typedef enum rd_step {
    RD_STEP_FIXED,  /* `size` bytes */
    RD_STEP_UTF8Z,  /* up to and including a 0 byte */
    RD_STEP_UTF16Z, /* up to and including a 0 unit at an even distance from the start */
    RD_STEP_ARRAY   /* count (the value of field `count_field`) x `elem` bytes */
} rd_step;

typedef struct rd_field {
    uint32_t after;       /* variable fields before this one: it starts at the end of the last (0: payload start) */
    uint32_t var;         /* for a variable field, its number among the version's variable fields */
    uint64_t delta;       /* bytes from that point */
    uint64_t size;        /* RD_STEP_FIXED: bytes */
    uint64_t elem;        /* RD_STEP_ARRAY: element bytes */
    uint32_t count_field; /* RD_STEP_ARRAY: index of the count field */
    uint8_t count_kind;   /* RD_STEP_ARRAY: its wire kind (an integer) */
    uint8_t step;         /* rd_step */
} rd_field;

typedef struct rd_version {
    const evgen_trace_version *pub; /* in its event's versions[] */
    const evgen_trace_event_info *info;
    rd_field *plan;       /* pub->n_fields */
    uint32_t *var_fields; /* field index of each variable field */
    uint32_t serial;      /* 0 .. rd->n_versions - 1, across the trace */
} rd_version;

/* An event: the public info, then the lowered versions, parallel to info.versions. */
typedef struct rd_event {
    evgen_trace_event_info pub; /* first: evgen_event.info points here */
    rd_version *versions;
} rd_event;

/* A trace type number's meaning; `version` NULL: not defined (yet). */
typedef struct rd_type {
    const rd_version *version;
    uint32_t fixed_size; /* when the version is fixed-size */
    uint8_t variable;
} rd_type;

/* ---- blocks, threads, problems ------------------------------------------------------------ */

#define RD_NONE ((size_t)-1)

/* Streams of one thread (docs/format.md: events emitted while k emits of the thread were
 * interrupted, by a signal handler, go to stream k): an events block with a larger stream is
 * refused. */
#define EVGEN_RD_MAX_STREAMS 256u

typedef struct rd_block {
    uint64_t payload;     /* file offset of the payload */
    uint32_t size;        /* payload bytes */
    uint32_t count;       /* records */
    uint64_t base_ticks;
    size_t thread;        /* index into rd->threads */
    size_t chain;         /* index into rd->chains */
    size_t next;          /* the chain's next good events block, or RD_NONE */
} rd_block;

/* The good events blocks of one (thread, stream), in file order: one base_ticks/delta chain whose
 * records are in emit order, so in time order (what the time-order merge needs; the blocks of one
 * thread id are not, once a signal handler emits into a nested stream). */
typedef struct rd_chain {
    size_t thread;  /* index into rd->threads */
    uint32_t stream;
    size_t first_block, last_block;
    size_t next_of_thread; /* the thread's next chain, or RD_NONE */
} rd_chain;

typedef struct rd_thread {
    size_t first_chain; /* RD_NONE: none; then rd_chain.next_of_thread */
} rd_thread;

/* One record, decoded. */
typedef struct rd_record {
    const rd_version *version;
    const uint8_t *payload;
    uint32_t size;
    uint64_t ticks;
    uint64_t offset;
} rd_record;

/* A position in a sequence of blocks: every good block in file order, or one chain's. */
typedef struct rd_cursor {
    size_t pending;         /* the next block to enter, or RD_NONE */
    int by_chain;           /* follow rd_block.next rather than the file order */
    const uint8_t *p, *end; /* the rest of the current block's payload */
    uint32_t left;          /* records left in it */
    uint64_t ticks;
    uint64_t thread_id;
    uint32_t stream;
    rd_record next;         /* time order: the record it holds up */
} rd_cursor;

typedef struct rd_handler {
    char *provider, *event; /* NULL: any */
    evgen_event_handler fn;
    void *context;
} rd_handler;

struct evgen_reader {
    const uint8_t *data;
    size_t size;
    void *map; /* munmap on close, or NULL for a trace in memory */
    evgen_trace_header header;

    rd_arena arena;
    rd_event **events; /* by info->index */
    size_t n_events, cap_events;
    const evgen_trace_manifest **manifests;
    size_t n_manifests, cap_manifests;
    rd_type *types; /* by type number */
    size_t n_types, cap_types;
    rd_version **versions; /* by serial */
    size_t n_versions, cap_versions;
    uint32_t max_variable; /* the most variable fields of any version */
    uint32_t *scratch;     /* max_variable ends, for evgen_event_field past EVGEN_EVENT_MAX_VARIABLE */

    rd_block *blocks; /* good events blocks, in file order */
    size_t n_blocks, cap_blocks;
    evgen_reader_thread *threads;
    rd_thread *thread_chains; /* parallel to threads */
    size_t n_threads, cap_threads, cap_thread_chains;
    size_t *thread_hash; /* open addressing: thread index + 1, 0 empty */
    size_t hash_cap;
    rd_chain *chains; /* in the order of their first block */
    size_t n_chains, cap_chains;
    int has_end;
    uint64_t end_offset; /* of the end block read, when has_end (.evtrace) */

    evgen_read_problem *problems;
    size_t n_problems, cap_problems;
    evgen_read_status status;
    uint64_t truncated_at;
    uint64_t total_events;
    int oom; /* memory ran out during the scan: the open fails */

    /* iteration */
    evgen_order order;
    rd_cursor file_cursor;
    rd_cursor *cursors;  /* time order: one per chain */
    rd_cursor **heap;    /* time order: cursors holding a record, smallest first */
    size_t n_heap;

    rd_handler *handlers;
    size_t n_handlers, cap_handlers;

    struct rd_nettrace *nt; /* a .nettrace file: its index (nettrace.h); NULL for .evtrace */
    int binding;            /* manifests given at open are being decoded: they are not the file's */
};

/* Grows an array of `elem`-byte items to hold `need`; 0, or -1 if out of memory. */
int evgen_rd_grow(void **items, size_t *cap, size_t need, size_t elem);

/* A malloc'd formatted message (NULL if out of memory), for errors returned to the caller. */
char *evgen_rd_format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Records a problem (offset, printf-style message). Problems may be recorded out of file order
 * (a check that needs the whole file, a block read before the header that says it was cut):
 * evgen_rd_sort_problems puts them in order once the scan is done. */
void evgen_rd_problem(evgen_reader *rd, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Sorts the problems by offset, keeping the recording order of those at one offset (what
 * evgen_reader_problems promises). Sets rd->oom if memory runs out. */
void evgen_rd_sort_problems(evgen_reader *rd);

/* scan.c: scans the blocks from `offset` to the end of the file, once, at open. */
void evgen_rd_scan(evgen_reader *rd, uint64_t offset);

/* The index of thread `tid` in rd->threads, or RD_NONE. */
size_t evgen_rd_thread_find(const evgen_reader *rd, uint64_t tid);
/* The same, adding the thread if it is new; RD_NONE if out of memory. */
size_t evgen_rd_thread_index(evgen_reader *rd, uint64_t tid);

/* metadata.c: decodes a metadata block's payload into the reader's tables. Returns 0, -1 with
 * `why` describing the first problem, or -2 if memory ran out. */
int evgen_rd_metadata(evgen_reader *rd, const uint8_t *p, const uint8_t *end, char *why, size_t why_size);
/* Lowers a version the reader built itself rather than decoded (a .nettrace event's fields):
 * 0, or -1 if memory ran out. */
int evgen_rd_lower(evgen_reader *rd, const evgen_trace_manifest *m, evgen_trace_version *v, rd_version *rv);
/* Registers an event the reader built itself, with its lowered versions: 0, or -1. */
int evgen_rd_add_event(evgen_reader *rd, rd_event *e);
/* The size of one element of `kind` with this trace's pointers (0 for strings, structs). */
uint32_t evgen_rd_kind_size(const evgen_reader *rd, unsigned kind);

/* Reads the record at c->p (the cursor's block must be good, as the scan checked): 0, or -1 if
 * it does not decode (never for a block the scan accepted). */
int evgen_rd_decode(const evgen_reader *rd, rd_cursor *c, rd_record *out);
/* The type of number `type`, or NULL. */
static inline const rd_type *evgen_rd_type(const evgen_reader *rd, uint64_t type)
{
    return type < rd->n_types && rd->types[type].version ? &rd->types[type] : NULL;
}

/* field.c: the end offsets of the first `n` variable fields of a payload of `version`. */
void evgen_rd_variable_ends(const rd_version *version, const uint8_t *payload, uint32_t size, uint32_t *ends,
                            uint32_t n);
/* Fills `event` from a decoded record. */
void evgen_rd_fill_event(const evgen_reader *rd, const rd_record *r, uint64_t thread_id, evgen_event *event);
uint64_t evgen_rd_timestamp_ns(const evgen_reader *rd, uint64_t ticks);

/* The lowered version of an event the reader filled. */
static inline const rd_version *evgen_rd_version_of(const evgen_event *event)
{
    const rd_event *e = (const rd_event *)(const void *)event->info; /* pub is the first member */
    return &e->versions[event->layout - event->info->versions];
}

#endif /* EVGEN_READER_INTERNAL_H */
