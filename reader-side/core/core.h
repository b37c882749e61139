/* core.h — the reader's core, what both trace formats share: the reader handle, the decoded
 * metadata with each version's lowered layout, threads, problems, and the helpers over them.
 * A format keeps its own state behind rd->format and plugs in through format.h. Not installed. */
#ifndef EVGEN_READER_CORE_H
#define EVGEN_READER_CORE_H

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "evgen/reader.h"
#include "evgen/wire_bytes.h"
#include "evgen/wire_kinds.h" /* evgen_trace_field.kind holds an evgen_wire_kind */

/* ---- threads ----------------------------------------------------------------------------- */

/* pthread_create for a helper that should run at once on another CPU than the caller's (placed
 * there, then free to move: thread_beside.c says why); 0 or pthread_create's error. */
int evgen_rd_thread_start_beside(pthread_t *thread, void *(*start)(void *), void *arg);

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
    RD_STEP_ARRAY,  /* count (the value of field `count_field`) x `elem` bytes */
    RD_STEP_VAR_ARRAY /* count elements of the variable struct `vstruct`, walked member by member */
} rd_step;

typedef struct rd_field {
    uint32_t after;       /* variable fields before this one: it starts at the end of the last (0: payload start) */
    uint32_t var;         /* for a variable field, its number among the version's variable fields */
    uint64_t delta;       /* bytes from that point */
    uint64_t size;        /* RD_STEP_FIXED: bytes */
    uint64_t elem;        /* RD_STEP_ARRAY: element bytes */
    uint32_t count_field; /* RD_STEP_ARRAY, RD_STEP_VAR_ARRAY: index of the count field */
    uint8_t count_kind;   /* RD_STEP_ARRAY, RD_STEP_VAR_ARRAY: its wire kind (an integer) */
    const evgen_trace_struct *vstruct; /* RD_STEP_VAR_ARRAY: the element struct */
    uint8_t pointer_size; /* RD_STEP_VAR_ARRAY: the trace's, for pointer members */
    uint8_t step;         /* rd_step */
} rd_field;

/* Where the field planned by `pl` lies in a payload of `size` bytes whose variable fields end at
 * `ends` (UINT32_MAX: not whole): 1 with *offset and *len, or 0 if the payload does not hold it
 * whole. The one application of a lowered plan, for evgen_event_field and dump's inner loop. */
static inline int evgen_rd_locate(const rd_field *pl, const uint32_t *ends, uint32_t size, uint32_t *offset,
                                  uint32_t *len)
{
    uint32_t base = pl->after ? ends[pl->after - 1] : 0;
    if (base == UINT32_MAX)
        return 0;
    uint64_t start = (uint64_t)base + pl->delta;
    if (start > size)
        return 0;
    if (pl->step == RD_STEP_FIXED) {
        if (pl->size > size - start)
            return 0;
        *len = (uint32_t)pl->size;
    } else {
        if (ends[pl->var] == UINT32_MAX)
            return 0;
        *len = ends[pl->var] - (uint32_t)start;
    }
    *offset = (uint32_t)start;
    return 1;
}

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

/* ---- threads, problems, the handle ------------------------------------------------------------ */

#define RD_NONE ((size_t)-1)

/* One record, decoded. */
typedef struct rd_record {
    const rd_version *version;
    const uint8_t *payload;
    uint32_t size;
    uint64_t ticks;
    uint64_t offset;
} rd_record;

typedef struct rd_handler {
    char *provider, *event; /* NULL: any */
    evgen_event_handler fn;
    void *context;
} rd_handler;

struct evgen_rd_format_ops; /* format.h */

struct evgen_reader {
    /* First: evgen_reader_next's inline part (reader.h), lent by the format; its clock (1e9 /
     * header.clock_frequency in lowest terms) and the file set at open, once. */
    evgen_reader_run run;
    const uint8_t *data;
    size_t size;
    void *map; /* munmap on close, or NULL for a trace in memory */
    int fd;    /* the mapped file during the open (the walk reads headers with pread), else -1 */
    evgen_trace_header header;
    const struct evgen_rd_format_ops *format_ops; /* the file's format */
    void *format; /* its state: evtrace.h's rd_evtrace, nettrace.h's rd_nettrace */

    rd_arena arena;
    rd_event **events; /* by info->index */
    size_t n_events, cap_events;
    const evgen_trace_manifest **manifests;
    size_t n_manifests, cap_manifests;
    rd_version **versions; /* by serial */
    size_t n_versions, cap_versions;
    uint32_t max_variable; /* the most variable fields of any version */
    uint32_t *scratch;     /* max_variable ends, for evgen_event_field past EVGEN_EVENT_MAX_VARIABLE */

    evgen_reader_thread *threads;
    size_t n_threads, cap_threads;
    size_t *thread_hash; /* open addressing: thread index + 1, 0 empty */
    size_t hash_cap;
    int has_end; /* the file's end block (.evtrace), its end of stream (.nettrace) */

    evgen_read_problem *problems;
    size_t n_problems, cap_problems;
    evgen_read_status status;
    uint64_t truncated_at;
    uint64_t total_events;
    int oom; /* memory ran out during the scan: the open fails */

    evgen_order order; /* of the iteration */
    rd_handler *handlers;
    size_t n_handlers, cap_handlers;
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
void evgen_rd_vproblem(evgen_reader *rd, uint64_t offset, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
/* Sorts the problems by offset, keeping the recording order of those at one offset (what
 * evgen_reader_problems promises). Sets rd->oom if memory runs out. */
void evgen_rd_sort_problems(evgen_reader *rd);

/* The index of thread `tid` in rd->threads, or RD_NONE. */
size_t evgen_rd_thread_find(const evgen_reader *rd, uint64_t tid);
/* The same, adding the thread if it is new; RD_NONE if out of memory. */
size_t evgen_rd_thread_index(evgen_reader *rd, uint64_t tid);

/* A metadata payload (docs/format.md) decoded into the reader's arena, not registered yet. */
typedef struct rd_metadata {
    evgen_trace_manifest *manifest;
    rd_event **events;
    uint32_t n_events;
    uint64_t first_type; /* the number the trace gives the first event's first version */
    uint64_t n_types;    /* the versions of all its events, numbered on from first_type */
} rd_metadata;

/* metadata.c: decodes a metadata payload, every descriptor checked and each version lowered.
 * `bound`: the manifest is given at open to bind another format's events to, laid out again for
 * the trace's pointers. Returns 0, -1 with `why` describing the first problem, or -2 if memory
 * ran out. */
int evgen_rd_metadata_decode(evgen_reader *rd, const uint8_t *p, const uint8_t *end, int bound, rd_metadata *out,
                             char *why, size_t why_size);
/* 1 if the manifests bound to this trace are read with their structs laid out again for its
 * pointers: their bytes (the generator's) lay them out for 8-byte pointers, so a trace with 4-byte
 * ones reads a struct with a pointer member by the wire's natural layout. Their decoded tables are
 * then what the trace holds, and their bytes are not. */
int evgen_rd_bound_laid_out_again(const evgen_reader *rd);
/* Registers a decoded manifest and its events: 0, or -1 if memory ran out. */
int evgen_rd_metadata_add(evgen_reader *rd, const rd_metadata *md);
/* Decodes the manifests of `options` (bound: their events are the ones foreign records bind to)
 * into the reader's events: 0, or -1 with `error` set (malloc'd). */
int evgen_rd_load_manifests(evgen_reader *rd, const evgen_reader_options *options, char **error);
/* Lowers a version the reader built itself rather than decoded (a .nettrace event's fields):
 * 0, or -1 if memory ran out. */
int evgen_rd_lower(evgen_reader *rd, const evgen_trace_manifest *m, evgen_trace_version *v, rd_version *rv);
/* Registers an event the reader built itself, with its lowered versions: 0, or -1. */
int evgen_rd_add_event(evgen_reader *rd, rd_event *e);
/* The size of one element of `kind` with this trace's pointers (0 for strings, structs). */
uint32_t evgen_rd_kind_size(const evgen_reader *rd, unsigned kind);

/* field.c: the end offsets of the first `n` variable fields of a payload of `version`. */
void evgen_rd_variable_ends(const rd_version *version, const uint8_t *payload, uint32_t size, uint32_t *ends,
                            uint32_t n);
/* Sets the run's clock (rd->run: start_ticks, ns_mul, ns_div, ns_max_ticks) and file (data,
 * pointer_size) from the header; after a format's open. */
void evgen_rd_clock_init(evgen_reader *rd);
/* Nanoseconds since the session's start of `d` ticks, too many to multiply in 64 bits. */
uint64_t evgen_rd_timestamp_ns_scaled(const evgen_reader *rd, uint64_t d);

/* The writer's clock `ticks` as nanoseconds since the session's start. Inline, as fill_event: the
 * iterators run them once per event. */
static inline uint64_t evgen_rd_timestamp_ns(const evgen_reader *rd, uint64_t ticks)
{
    uint64_t ns;
    if (evgen_reader_run_ns(&rd->run, ticks, &ns))
        return ns;
    return evgen_rd_timestamp_ns_scaled(rd, ticks - rd->header.start_ticks);
}

/* Fills `event` from a decoded record. */
static inline void evgen_rd_fill_event(const evgen_reader *rd, const rd_record *r, uint64_t thread_id,
                                       evgen_event *ev)
{
    const rd_version *v = r->version;
    const evgen_trace_version *layout = v->pub;
    ev->info = v->info;
    ev->layout = layout;
    ev->version = layout->version;
    ev->size = r->size;
    ev->payload = r->payload;
    ev->thread_id = thread_id;
    ev->ticks = r->ticks;
    ev->timestamp_ns = evgen_rd_timestamp_ns(rd, r->ticks);
    ev->offset = r->offset;
    ev->pointer_size = rd->header.pointer_size;
    uint32_t n = layout->n_variable < EVGEN_EVENT_MAX_VARIABLE ? layout->n_variable : EVGEN_EVENT_MAX_VARIABLE;
    ev->n_variable = (uint8_t)n;
    if (n)
        evgen_rd_variable_ends(v, r->payload, r->size, ev->variable_end, n);
    ev->reader = rd;
    evgen_event_set_plain(ev);
    ev->stream = 0;
}

/* The lowered version of an event the reader filled. */
static inline const rd_version *evgen_rd_version_of(const evgen_event *event)
{
    const rd_event *e = (const rd_event *)(const void *)event->info; /* pub is the first member */
    return &e->versions[event->layout - event->info->versions];
}

#endif /* EVGEN_READER_CORE_H */
