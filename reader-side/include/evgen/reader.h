/* evgen/reader.h — libevgen-reader: opens a trace (memory-mapped, never read whole), validates
 * it, and iterates its events in file order or in time order, or dispatches them to handlers
 * (TraceEvent style). Two containers, told apart by their magic: evgen's own .evtrace, where
 * everything needed to decode an event comes from the trace's own metadata, and EventPipe's
 * .nettrace (V4, V5, V6: what .NET runtimes write), whose events are bound to the manifests given
 * at open by (provider name, event id) because the runtime describes none of their fields.
 * Generated readers (evgen gen) add typed, versioned accessors that work on both.
 *
 * Robustness: a corrupt block (bad magic, size, checksum, varint, record) is reported with its
 * byte offset and skipped, and reading goes on with the next good block; a truncated file yields
 * every complete block, then the status says where it was cut. Nothing reads out of bounds,
 * whatever the file holds.
 *
 * When validation happens (.evtrace): the open reads the file header and walks the block headers
 * (decoding metadata blocks); each events block's checksum and records are checked once, when an
 * iteration first enters it (time order: with every block before it in the file) — or before, by a
 * thread the reader starts to check blocks ahead on another core — and no event of a block is
 * returned before it checks out. evgen_reader_status, evgen_reader_problems and
 * evgen_reader_threads first finish validating the whole file, so that their answers are
 * complete: the same problems, in the same order, status and counts as if everything had been
 * checked at open, whenever they are asked; so does a time-order rewind when the end block's books
 * do not account for every event of the blocks the walk found. A damaged header found by the walk
 * makes the open check everything from there on at once.
 * (.nettrace files are checked whole at open.)
 *
 * Thread safety: a reader is used by one thread at a time; separate readers are independent (the
 * reader's own verifier thread only reads the file). */
#ifndef EVGEN_READER_H
#define EVGEN_READER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the trace's metadata, decoded ---------------------------------------------------------
 * Kinds are evgen_wire_kind numbers (docs/format.md): 1..4 uint8..uint64, 5..8 int8..int64,
 * 9 float32, 10 float64, 11 bool8, 12 bool32, 13 guid, 14 ptr, 15 utf8z, 16 utf16z, 17 struct. */

typedef struct evgen_trace_enum_const {
    const char *name;
    int64_t value;
} evgen_trace_enum_const;

typedef struct evgen_trace_enum {
    const char *name;
    const evgen_trace_enum_const *consts;
    uint32_t n_consts;
} evgen_trace_enum;

typedef struct evgen_trace_member {
    const char *name;
    uint8_t kind;       /* a fixed-size kind; in a variable struct also utf8z or utf16z */
    int32_t enum_index; /* into the manifest's enums, or -1 */
    uint32_t offset;    /* in an element, as the writer's compiler laid it out; in a variable
                           struct, bytes after the end of the last string member before it */
} evgen_trace_member;

typedef struct evgen_trace_struct {
    const char *name;
    uint32_t stride; /* 0 for a variable struct */
    const evgen_trace_member *members;
    uint32_t n_members;
    uint8_t variable; /* members back to back, strings among them: each element is walked
                         (docs/format.md, "variable struct") */
} evgen_trace_struct;

typedef struct evgen_trace_field {
    const char *name;
    uint8_t kind;         /* for an array, of the element */
    uint8_t is_array;
    int32_t enum_index;   /* into the manifest's enums, or -1 */
    int32_t struct_index; /* into the manifest's structs (kind 17), or -1 */
    int32_t count_field;  /* arrays: index of the count field in this version, or -1 */
} evgen_trace_field;

typedef struct evgen_trace_version {
    uint32_t version;
    uint32_t legacy; /* laid out by a legacy layout */
    const evgen_trace_field *fields;
    uint32_t n_fields;
    int64_t fixed_size;  /* payload size with the trace's pointer size, or -1 if variable */
    uint32_t n_variable; /* its variable-length fields (strings, arrays) */
    /* The version's level and keywords: its own when the manifest gives it some
     * (EVENT_VERSION_ATTRIBUTES; own_attributes 1), else its event's. */
    uint32_t own_attributes;
    uint8_t level;
    uint64_t keywords;
} evgen_trace_version;

typedef struct evgen_trace_manifest evgen_trace_manifest;

typedef struct evgen_trace_event_info {
    const char *name;
    const char *provider;
    uint32_t id;
    uint8_t level;
    uint64_t keywords;
    const evgen_trace_version *versions; /* in increasing version order */
    uint32_t n_versions;
    const evgen_trace_manifest *manifest;
    uint32_t index; /* the reader's number for this event, 0 .. evgen_reader_event_count() - 1 */
    /* .nettrace: 1 if no manifest given at open knows this event, so its fields are only those the
     * trace's own metadata describes (none, for runtime events): the rest of the payload is raw. */
    uint8_t unbound;
} evgen_trace_event_info;

struct evgen_trace_manifest {
    const char *name;
    const evgen_trace_enum *enums;
    uint32_t n_enums;
    const evgen_trace_struct *structs;
    uint32_t n_structs;
};

typedef enum evgen_container {
    EVGEN_CONTAINER_EVTRACE = 1, /* evgen's own (docs/format.md) */
    EVGEN_CONTAINER_NETTRACE = 2 /* EventPipe's, as .NET runtimes write it (docs/nettrace.md) */
} evgen_container;

typedef struct evgen_trace_header {
    uint16_t format_version;  /* of the container: .evtrace 1 or 2; .nettrace 4, 5 or 6 */
    uint8_t pointer_size;
    uint8_t clock_kind;       /* 1 CLOCK_MONOTONIC, 2 TSC */
    uint64_t clock_frequency; /* ticks per second */
    uint64_t start_ticks;
    uint64_t start_unix_ns;
    uint32_t process_id;
    uint8_t container;        /* evgen_container */
    uint32_t cpu_count;       /* .nettrace: the trace's NumberOfProcessors, or 0 */
} evgen_trace_header;

/* ---- events ---------------------------------------------------------------------------------- */

/* How many variable-length fields of one event the reader locates (strings, arrays). A field
 * after the 16th is absent to the accessors (evgen_event_field still finds it). */
#define EVGEN_EVENT_MAX_VARIABLE 16

typedef struct evgen_reader evgen_reader;

/* One event. Pointers stay valid until the reader is closed. */
typedef struct evgen_event {
    const evgen_trace_event_info *info;
    const evgen_trace_version *layout; /* the fields of this version, as the trace describes them */
    uint32_t version;
    uint32_t size;          /* payload bytes */
    const uint8_t *payload;
    uint64_t thread_id;
    uint64_t ticks;         /* the writer's clock */
    uint64_t timestamp_ns;  /* since the session opened, whatever the clock */
    uint64_t offset;        /* byte offset of the record in the file */
    uint8_t pointer_size;
    uint8_t n_variable;     /* entries of variable_end that are valid */
    /* End offset in the payload of the k-th variable-length field of this version, computed once
     * when the event is read; UINT32_MAX from the first one the payload does not hold whole. */
    uint32_t variable_end[EVGEN_EVENT_MAX_VARIABLE];
    const evgen_reader *reader;
    /* .nettrace only (0 / NULL in .evtrace): the stack the runtime captured with the event, as
     * stack_depth little-endian instruction pointers of pointer_size bytes (evgen_event_stack_ip);
     * the per-thread sequence number; the thread that wrote the event (thread_id is the one it
     * describes; they differ when one thread logs for another); the activity id (16 bytes; NULL when absent or all zero; V6: from the event's
     * label list). */
    const uint8_t *stack;
    uint32_t stack_depth;
    uint32_t sequence;
    uint64_t capture_thread_id;
    const uint8_t *activity_id;
    /* .evtrace: the stream of the event's block (docs/format.md): 0 for the thread's ordinary
     * events, k for one emitted while k emits of the thread were interrupted (a signal handler's).
     * 0 in .nettrace. */
    uint32_t stream;
} evgen_event;

/* The i-th instruction pointer of the event's stack (innermost first), or 0 past its depth. */
uint64_t evgen_event_stack_ip(const evgen_event *event, uint32_t i);

/* ---- opening --------------------------------------------------------------------------------- */

/* A manifest's description as a reader binds foreign events to it: a metadata block payload of
 * docs/format.md. Generated readers define one, NAME_reader_manifest (NAME_reader.h). */
typedef struct evgen_reader_manifest {
    const char *name;
    const uint8_t *metadata;
    size_t size;
} evgen_reader_manifest;

typedef struct evgen_reader_options {
    /* .nettrace: the manifests its events are bound to, by (provider name, event id), in this
     * order of preference; ignored for .evtrace, which describes its own events. */
    const evgen_reader_manifest *const *manifests;
    size_t n_manifests;
} evgen_reader_options;

/* Opens and validates a trace. On failure returns NULL and, if `error` is not NULL, a message
 * (caller frees) naming the byte offset of the problem ("not an evgen trace: bad magic at offset
 * 0"). Only a regular file is opened, without ever blocking (evgen/files.h): a FIFO, a device or a
 * directory fails at once ("cannot read: a FIFO; evgen reads only regular files"). A corrupt or
 * truncated body does not fail the open: see evgen_reader_problems. */
evgen_reader *evgen_reader_open(const char *path, char **error);
/* The same for a trace in memory; `data` must outlive the reader. */
evgen_reader *evgen_reader_open_memory(const void *data, size_t size, char **error);
/* The same with options (NULL: none); a manifest that does not decode fails the open. */
evgen_reader *evgen_reader_open_with(const char *path, const evgen_reader_options *options, char **error);
evgen_reader *evgen_reader_open_memory_with(const void *data, size_t size, const evgen_reader_options *options,
                                            char **error);
/* A reader of no trace: the events, versions, enums and structs of the manifests of `options`
 * (decoded as a .nettrace file's are bound to them) laid out for `pointer_size`-byte pointers (4
 * or 8), and no events to iterate. For tools that describe what traces of these manifests hold
 * (`evgen gen --sql`). NULL with `*error` set if a manifest does not decode. */
evgen_reader *evgen_reader_open_schema(const evgen_reader_options *options, unsigned pointer_size, char **error);
void evgen_reader_close(evgen_reader *reader);

const evgen_trace_header *evgen_reader_header(const evgen_reader *reader);
uint64_t evgen_reader_file_size(const evgen_reader *reader);

/* Every event the metadata defines, and lookup by name (provider NULL: any). */
size_t evgen_reader_event_count(const evgen_reader *reader);
const evgen_trace_event_info *evgen_reader_event_info(const evgen_reader *reader, size_t index);
const evgen_trace_event_info *evgen_reader_find_event(const evgen_reader *reader, const char *provider,
                                                      const char *name);

/* ---- iteration and dispatch ----------------------------------------------------------------- */

typedef enum evgen_order {
    EVGEN_ORDER_FILE = 0, /* as written: block by block, each block's events in emit order */
    EVGEN_ORDER_TIME = 1  /* by timestamp (ties: thread, then file order), a thread's streams merged;
                           * .nettrace: sorted within each sequence-point region, the order the format
                           * guarantees */
} evgen_order;

/* Starts (or restarts) an iteration. The default is EVGEN_ORDER_FILE from the start. */
void evgen_reader_rewind(evgen_reader *reader, evgen_order order);

/* What evgen_reader_next reads without calling the library: a run of records of one fixed-size
 * type in a block already verified, which the library lends (and takes back) in its own calls —
 * the rest of the block in file order, in time order the records of one chain that come before
 * every other chain's next one. The first member of every evgen_reader. Not for applications: it
 * is the library's to change, and code that inlined evgen_reader_next is rebuilt with it (a static
 * library). Why inline: framing a record is a few instructions, fewer than a call into the library
 * and the cursor's loads and stores around it, and the compiler drops the stores into the event
 * that the loop never reads. */
typedef struct evgen_reader_run {
    const uint8_t *p;     /* the next record's head */
    uint32_t left;        /* records the run may still return; 0: the library's call */
    uint32_t size;        /* their payload size */
    uint64_t ticks;       /* the previous record's */
    uint64_t ticks_limit; /* a record at or past it is the library's (time order: another chain's) */
    /* The reader's, set once at open. The clock (evgen_reader_run_ns): timestamp_ns is
     * (ticks - start_ticks) * ns_mul, divided by ns_div unless it is 0 (a whole number of
     * nanoseconds per tick: no division), while ticks - start_ticks <= ns_max_ticks. */
    uint64_t start_ticks, ns_mul, ns_div, ns_max_ticks;
    const uint8_t *data;  /* file offset 0 */
    uint8_t pointer_size;
    /* The run's, lent with it */
    const evgen_trace_event_info *info;
    const evgen_trace_version *layout;
    uint64_t thread_id;
    uint32_t version;
    uint32_t stream;
} evgen_reader_run;

/* evgen_reader_next's call into the library, for every record the run does not hold. */
int evgen_reader_next_record(evgen_reader *reader, evgen_event *event);

/* The run's and the library's (not for applications): `ticks` of the writer's clock as
 * nanoseconds since the session's start in *ns; 0 when there are too many ticks to multiply in 64
 * bits, which the library converts the longer way. */
static inline int evgen_reader_run_ns(const evgen_reader_run *run, uint64_t ticks, uint64_t *ns)
{
    *ns = 0;
    if (ticks <= run->start_ticks)
        return 1; /* a clock a little behind the session's start (another CPU's TSC) */
    uint64_t d = ticks - run->start_ticks;
    if (d > run->ns_max_ticks)
        return 0;
    *ns = d * run->ns_mul;
    if (run->ns_div) /* 0 rather than 1, so that the compiler cannot make the division unconditional */
        *ns /= run->ns_div;
    return 1;
}

/* The run's and the library's: the fields of a plain event, every .evtrace one (no stack, no
 * activity: .nettrace's). */
static inline void evgen_event_set_plain(evgen_event *event)
{
    event->stack = NULL;
    event->stack_depth = 0;
    event->sequence = 0;
    event->capture_thread_id = 0;
    event->activity_id = NULL;
}

/* How far ahead of the record being framed the iteration asks for the file's bytes (a prefetch,
 * one per record). A trace is read through 4 KiB pages, and the hardware's prefetcher stops at a
 * page's end: without it the loop waited at every page for the next one's translation and first
 * line, ~37 records of 111 bytes apart. Asking a page ahead made the loop over a verified 1-GB
 * trace 24-28% faster (8.9-9.1 against 11.1-12.3 ns per event; 1 KiB ahead less so, 8 KiB the
 * same) on the Zen 4 guest of 2026-11-29 (docs/performance-log.md, "Sixteenth round"). The address is
 * computed as an integer: it may lie past the mapping, which a prefetch never faults on. */
#define EVGEN_READER_PREFETCH_AHEAD 4096u

/* The reader's and bench/'s: asks for the bytes EVGEN_READER_PREFETCH_AHEAD past `p`. */
static inline void evgen_reader_prefetch_ahead(const uint8_t *p)
{
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch((const void *)((uintptr_t)p + EVGEN_READER_PREFETCH_AHEAD));
#else
    (void)p;
#endif
}

/* Fills `event` with the next event and returns 1, or returns 0 at the end. */
static inline int evgen_reader_next(evgen_reader *reader, evgen_event *event)
{
    evgen_reader_run *run = (evgen_reader_run *)(void *)reader;
    if (!run->left)
        return evgen_reader_next_record(reader, event);
    const uint8_t *p = run->p;
    evgen_reader_prefetch_ahead(p);
    uint64_t head = p[0];
    uint32_t n = 1;
    if (head >= 0x80) { /* .evtrace format 2's head: a time delta of 64 ns to 8 us takes two bytes */
        if (p[1] >= 0x80)
            return evgen_reader_next_record(reader, event);
        head = (head & 0x7fu) | (uint64_t)p[1] << 7;
        n = 2;
    }
    uint64_t ticks = run->ticks + (head >> 1), ns;
    if (!(head & 1u) || ticks >= run->ticks_limit || /* another type, or another chain's turn */
        !evgen_reader_run_ns(run, ticks, &ns))
        return evgen_reader_next_record(reader, event);
    event->info = run->info;
    event->layout = run->layout;
    event->version = run->version;
    event->size = run->size;
    event->payload = p + n;
    event->thread_id = run->thread_id;
    event->ticks = ticks;
    event->timestamp_ns = ns;
    event->offset = (uint64_t)(p - run->data);
    event->pointer_size = run->pointer_size;
    event->n_variable = 0;
    event->reader = reader;
    evgen_event_set_plain(event);
    event->stream = run->stream;
    run->p = p + n + run->size;
    run->ticks = ticks;
    run->left--;
    return 1;
}

typedef void (*evgen_event_handler)(const evgen_event *event, void *context);
/* Calls `handler` for every event named `event` of `provider` (either NULL: any). Handlers are
 * called in the order they were added. Returns 0, or -1 if the trace has no such event. */
int evgen_reader_on(evgen_reader *reader, const char *provider, const char *event, evgen_event_handler handler,
                    void *context);
/* Reads every event in `order` and dispatches it; returns the number of events read. */
uint64_t evgen_reader_process(evgen_reader *reader, evgen_order order);

/* ---- problems and totals --------------------------------------------------------------------- */

typedef enum evgen_read_status {
    EVGEN_READ_OK = 0,
    EVGEN_READ_CORRUPT = 1,  /* at least one block was skipped, or the end block's counts disagree
                              * with the events the blocks hold */
    EVGEN_READ_TRUNCATED = 2 /* the file ends inside a block, or without its end block */
} evgen_read_status;

typedef struct evgen_read_problem {
    uint64_t offset;     /* byte offset in the file */
    const char *message; /* e.g. "block checksum mismatch" */
} evgen_read_problem;

/* The worst status seen (TRUNCATED over CORRUPT over OK), the problems in file order (by offset;
 * those at one offset in the order they were found), and for a truncated file the offset where the
 * readable part ends. Complete when asked: the first call of these (or of evgen_reader_threads)
 * finishes validating the file (see "When validation happens" above). A .evtrace with an end block has a
 * problem at the end block's offset for each thread whose events found in the blocks are fewer
 * ("... 604 missing": a block was lost or skipped) or more than the end block counts written. */
evgen_read_status evgen_reader_status(const evgen_reader *reader, uint64_t *truncated_at);
const evgen_read_problem *evgen_reader_problems(const evgen_reader *reader, size_t *count);

typedef struct evgen_reader_thread {
    uint64_t thread_id;
    uint64_t events;  /* records read */
    uint64_t dropped; /* from the blocks' dropped counts; .nettrace: lost events (sequence number gaps) */
    uint64_t written_end, dropped_end, too_big_end; /* from the end block, if any (a reused id: summed) */
} evgen_reader_thread;

/* Per-thread counts, one entry per thread id (its streams and a reused id counted together; in a
 * .evtrace, in the order the threads' first blocks lie, then those only the end block names);
 * `has_end` says whether the end block was found. */
const evgen_reader_thread *evgen_reader_threads(const evgen_reader *reader, size_t *count, int *has_end);

/* ---- generic field access (no generated code) ------------------------------------------------ */

/* Locates field `index` of `event` (of event->layout): its offset and size in the payload.
 * Returns 1, or 0 if the payload does not hold it whole. */
int evgen_event_field(const evgen_event *event, uint32_t index, uint32_t *offset, uint32_t *size);

/* The bytes of the element of struct `st` at `p`, of which `avail` are readable, with
 * `pointer_size`-byte pointers: the stride, or for a variable struct its members' values walked
 * one by one. 0 if `avail` does not hold the element whole. */
uint32_t evgen_struct_element_size(const evgen_trace_struct *st, const uint8_t *p, uint32_t avail,
                                   unsigned pointer_size);

/* Member `member` of the element of `st` at `element` (`element_size` bytes, as
 * evgen_struct_element_size found them): 1 with its offset in the element and its size, or 0.
 * A variable struct's members are walked from the first. */
int evgen_struct_member(const evgen_trace_struct *st, const uint8_t *element, uint32_t element_size,
                        unsigned pointer_size, uint32_t member, uint32_t *offset, uint32_t *size);

/* Recomputes event->n_variable and event->variable_end from event->layout, payload, size and
 * pointer_size (the reader does it for every event it returns; this is for an event whose payload
 * was changed or cut by the caller). */
void evgen_event_locate_variable(evgen_event *event);

/* The name of `value` among the constants of `en`, or NULL if it has none. */
const char *evgen_trace_enum_name(const evgen_trace_enum *en, int64_t value);

/* A string field's text, bounded by the payload: UTF-8 bytes or UTF-16LE code units without
 * the terminator. */
typedef struct evgen_utf8_view {
    const char *data;
    uint32_t length; /* bytes */
} evgen_utf8_view;

typedef struct evgen_utf16_view {
    const uint8_t *data; /* little-endian code units, possibly unaligned */
    uint32_t units;
} evgen_utf16_view;

/* Converts UTF-16 to UTF-8 (unpaired surrogates become U+FFFD). Writes at most `capacity` bytes
 * including a terminating NUL, and returns the length the whole conversion needs (without NUL),
 * like snprintf. */
size_t evgen_utf16_to_utf8(evgen_utf16_view text, char *out, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_READER_H */
