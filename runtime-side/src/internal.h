/* internal.h — libevgen-runtime's private state (the runtime lock, sessions, thread states,
 * buffers) and the helpers its source files share. Not installed. */
#ifndef EVGEN_RUNTIME_INTERNAL_H
#define EVGEN_RUNTIME_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "evgen/runtime.h"
#include "evgen/runtime_desc.h"
#include "evgen/runtime_emit.h"
#include "evgen/wire_bytes.h"
#include "evgen/wire_format.h"

/* Cross-file helpers stay out of a shared object's dynamic symbol table. */
#define EVGEN_RT_HIDDEN __attribute__((visibility("hidden")))

typedef enum rt_sink_kind { RT_SINK_FILE, RT_SINK_MEMORY, RT_SINK_CALLBACK } rt_sink_kind;

/* One block on its way to the sink: a stream's buffer (pooled), or a metadata or end block. */
typedef struct rt_buffer {
    struct rt_buffer *next; /* the writer queue's link (atomic: an MPSC queue, writer.c) */
    uint8_t *data;     /* EVGEN_RT_BLOCK_HEADER_SIZE bytes of room for the header, then the payload */
    uint32_t capacity; /* payload bytes it holds */
    uint32_t size;     /* payload bytes filled */
    uint8_t type;      /* EVGEN_RT_BLOCK_*, or RT_BLOCK_FORGET */
    uint8_t pooled;    /* back to the session's pool once written; else free()d */
    uint8_t stream;    /* events: the nesting level of the stream that filled it */
    uint8_t framed;    /* its header (and crc) already written: by the emitter that sealed it */
    uint32_t taken;    /* pooled: 1 while a stream or the writer has it (atomic) */
    uint32_t sequence, event_count, dropped;
    uint64_t thread_id, base_ticks;
    uint64_t offset; /* file sink: where in the file the block goes, reserved when it was handed over
                      * (RT_UNPLACED: by the O_DIRECT writer when it takes it, writer_dio.c) */
    uint32_t *unplaced; /* RT_UNPLACED: its stream's rt_stream.unplaced, or NULL */
    uint32_t counted;   /* RT_UNPLACED: counted in its session's n_unplaced until placed */
    const evgen_manifest_desc *manifest; /* metadata and forget blocks: the manifest */
} rt_buffer;

/* Not a block of the trace: tells the callback sink to forget a manifest's types (unregistering). */
enum { RT_BLOCK_FORGET = 0x80 };

#define RT_UNPLACED UINT64_MAX

/* The runtime's part of a stream (evgen_stream): touched by the stream's owner (the emit at that
 * depth), or by a flusher while the owner is kept out (quiesce.c). */
typedef struct rt_stream {
    rt_buffer *buf;               /* the buffer pos points into, or NULL (atomic loads by flushers) */
    uint64_t block_first;         /* written when buf was taken: buf holds written - block_first records */
    uint64_t dropped_since_block; /* drops not reported in a block header yet; atomic (quiesce.c) */
    uint32_t sequence;            /* the stream's next events block */
    uint32_t unplaced; /* its blocks handed to the O_DIRECT writer that it has not placed (atomic) */
} rt_stream;

/* A thread's place in one session. */
typedef struct rt_thread_session {
    uint64_t epoch;   /* the session's epoch while the thread is attached, else 0 (release/acquire) */
    uint64_t serial;  /* attach order, for the end block */
    uint64_t dropped; /* atomic adds: an interrupting emit may count while the interrupted one does */
    uint64_t too_big;
} rt_thread_session;

/* A thread's state: mmap'd at its first emit (no malloc: the first emit may be in a signal
 * handler), recycled when the thread exits, never freed; every state ever made is on the
 * push-only list evgen_rt.threads, which flushers walk. */
typedef struct rt_thread {
    evgen_thread pub; /* first: evgen_thread_self points at it */
    rt_stream streams[EVGEN_MAX_SESSIONS][EVGEN_MAX_NESTING];
    rt_thread_session sess[EVGEN_MAX_SESSIONS];
    uint64_t tid;
    uint32_t in_use;    /* a live thread owns it (atomic; 0: free for the next new thread) */
    uint32_t attaching; /* joining a session: an emit interrupting that drops (and counts) */
    struct rt_thread *all_next;
} rt_thread;

/* An evgen_session_enable/disable call; for each provider the last rule naming it (or NULL,
 * every provider) decides. */
typedef struct rt_rule {
    char *provider; /* NULL: every provider */
    int on;
    uint8_t level;
    uint64_t keywords;
} rt_rule;

/* A trace type as the callback sink decodes it. */
typedef struct rt_type {
    const evgen_manifest_desc *manifest;
    const evgen_event_desc *event;
    const evgen_version_desc *version;
} rt_type;

/* A thread's totals, with the order of its first emit. */
typedef struct rt_totals {
    evgen_thread_totals t;
    uint64_t serial;
} rt_totals;

/* Events the sink never took, per thread id (the writer's own table). */
typedef struct rt_lost {
    uint64_t thread_id, events;
} rt_lost;

enum { RT_OPEN = 1, RT_CLOSING = 2 };

struct evgen_session {
    evgen_session_options opt;
    unsigned slot;  /* its bit in the enabled bytes */
    uint64_t epoch; /* unique per session in the process, never 0 */
    uint32_t state; /* RT_OPEN, RT_CLOSING (atomic) */
    rt_sink_kind sink;
    int fd;
    evgen_event_callback callback;
    void *context;
    uint64_t start_ticks, frequency;
    uint32_t stream_clock; /* how emits read the clock: EVGEN_STREAM_CLOCK_... (runtime_emit.h) */
    int emitters_write; /* a top emit writes its own full buffer (direct.c); an adaptive session's
                         * writer sets it when it hands the writing over (atomic) */
    int adaptive;       /* EVGEN_BLOCK_WRITER_ADAPTIVE: the O_DIRECT writer hands over to the emitters
                         * when they wait for the disk (writer_dio.c) */
    uint64_t waited_ns; /* adaptive: how long emitters have waited for a buffer (atomic adds) */
    uint32_t crowded;   /* adaptive: an emitter began to wait while another waited (atomic; the
                         * writer clears it) */
    uint32_t placing;   /* adaptive: threads that took emitters_write's word to place a block in the
                         * file themselves and have not finished with it (atomic; the writer takes
                         * the writing back only once none has: evgen_rt_placing_begin) */
    uint64_t own_write_ns; /* adaptive, handed over: wall time emitters spent in their own pwrites
                            * (atomic adds) */
    uint32_t n_unplaced; /* blocks queued RT_UNPLACED and not placed yet (atomic): the end block
                          * takes its place behind them (writer.c) */
    uint64_t file_end;  /* file sink: bytes of the file reserved so far (atomic, sink.c) */
    uint32_t block_span; /* file sink, emitters_write: full blocks end at multiples of it (a power of
                          * two; sink.c), 0 for none */
    uint32_t block_pad_max; /* the most padding one such block takes to get there */
    int prealloc;           /* file sink on ext4, blocks through the page cache: space is allocated
                             * ahead of them (atomic; prealloc.c) */
    uint64_t prealloc_end;  /* the file is allocated up to here (atomic; 0: never was) */

    /* The pool: lock-free (writer.c). */
    uint8_t *slab;      /* every pooled buffer's bytes */
    size_t slab_mapped; /* non-zero: the slab is evgen_rt_dio_slab's, this long */
    rt_buffer *buffers; /* opt.buffer_count of them */
    uint32_t n_free, n_inflight; /* free / queued or being written (atomic) */
    uint32_t waiters;            /* emitters waiting for a buffer (atomic): close waits for none */

    /* The writer queue: many producers, the writer consumes (writer.c). */
    rt_buffer *q_head; /* last pushed (atomic) */
    rt_buffer *q_tail; /* the writer's */
    rt_buffer stub;
    uint64_t queued, done; /* blocks handed to the writer / written by it (atomic) */
    uint32_t doorbell;     /* futex: a block was queued, or stop */
    uint32_t done_word;    /* futex: a block was written */
    uint32_t stopping;
    int error; /* the sink's first error (an errno value), 0 if none (atomic) */
    uint64_t error_offset; /* file sink: the place of the first block the sink failed to take (atomic
                            * minimum; UINT64_MAX: none): blocks placed before it are still written */
    pthread_t writer;
    struct rt_dio *dio; /* EVGEN_BLOCK_WRITER_DIRECT_IO file sessions: the writer's state (writer_dio.c) */
    int dio_fd;         /* the file opened with O_DIRECT, or -1 */
    uint32_t flush_req; /* a flush or close wants every block in the file now (atomic adds) */
    uint64_t q_bytes;   /* bytes of the blocks queued so far (atomic adds, O_DIRECT writer only) */
    uint64_t wake_at;   /* the O_DIRECT writer sleeps until q_bytes reaches it (UINT64_MAX: awake) */

    /* Under the runtime lock. */
    rt_rule *rules;
    size_t n_rules, cap_rules;
    rt_totals *exited; /* threads that exited during the session */
    size_t n_exited, cap_exited;
    evgen_thread_totals *totals; /* at close: every thread, in attach order */
    size_t n_totals;

    uint64_t bytes; /* bytes the sink took (atomic adds: the writer and, for a file, emitters) */

    /* The writer thread's own. */
    evgen_wire_buf memory;
    rt_type *types;
    size_t n_types;
    rt_lost *lost;
    size_t n_lost, cap_lost;
    uint64_t lost_total;
    uint64_t unattributed_at_close;
};

/* Process-wide state. `lock` is the runtime lock: the registry, the session slots, every
 * session's rules, flushes and closes take it. Emitting never does, except a WAIT emit that finds
 * every buffer idle in other threads (emit.c). */
typedef struct rt_state {
    pthread_mutex_t lock;
    evgen_manifest_desc *manifests, *last_manifest;
    uint32_t n_types;
    evgen_session *slots[EVGEN_MAX_SESSIONS]; /* open sessions (atomic loads by emitters) */
    uint32_t slots_taken;                     /* slots reserved by an open in progress or open */
    uint64_t last_epoch;
    uint64_t unattributed[EVGEN_MAX_SESSIONS]; /* drops by a thread interrupted while attaching (atomic) */
    uint64_t next_serial;                      /* atomic */
    uint32_t pool_gen;                         /* futex: a buffer came back, or a session is closing */
    rt_thread *threads;                        /* every thread state (atomic push) */
} rt_state;

EVGEN_RT_HIDDEN extern rt_state evgen_rt;

/* Futexes (Linux): a wait with a timeout as a safety net, a wake of every waiter. Both are
 * single system calls, so async-signal-safe. */
EVGEN_RT_HIDDEN void evgen_rt_futex_wait(uint32_t *word, uint32_t seen, long timeout_ms);
EVGEN_RT_HIDDEN void evgen_rt_futex_wake(uint32_t *word);

/* Marks the calling thread as inside the runtime (an emit interrupting it never waits) and takes
 * the lock; the other undoes both. */
EVGEN_RT_HIDDEN void evgen_rt_lock(void);
EVGEN_RT_HIDDEN void evgen_rt_unlock(void);

/* Descriptor arrays are indexed by the size their first element declares, so a descriptor that
 * grew in a later ABI still walks correctly. */
static inline const evgen_event_desc *evgen_rt_event(const evgen_manifest_desc *m, uint32_t i)
{
    return (const evgen_event_desc *)(const void *)((const char *)m->events + (size_t)i * m->events[0].size);
}

/* The manifest's enabled bytes: its events', then its versions' own. */
static inline uint32_t evgen_rt_n_enabled(const evgen_manifest_desc *m)
{
    return m->n_enabled ? m->n_enabled : m->n_events;
}

static inline const evgen_version_desc *evgen_rt_version(const evgen_event_desc *e, uint32_t i)
{
    return (const evgen_version_desc *)(const void *)((const char *)e->versions + (size_t)i * e->versions[0].size);
}

static inline const evgen_enum_desc *evgen_rt_enum(const evgen_manifest_desc *m, uint32_t i)
{
    return (const evgen_enum_desc *)(const void *)((const char *)m->enums + (size_t)i * m->enums[0].size);
}

static inline const evgen_struct_desc *evgen_rt_struct(const evgen_manifest_desc *m, uint32_t i)
{
    return (const evgen_struct_desc *)(const void *)((const char *)m->structs + (size_t)i * m->structs[0].size);
}

/* registry.c */
EVGEN_RT_HIDDEN int evgen_rt_type_event(const evgen_manifest_desc *m, uint32_t type, uint32_t *event,
                                        uint32_t *version);

/* session.c */
EVGEN_RT_HIDDEN int evgen_rt_session_is_open(const evgen_session *s);

/* enable.c */
EVGEN_RT_HIDDEN void evgen_rt_apply_rules(evgen_manifest_desc *m);
EVGEN_RT_HIDDEN void evgen_rt_apply_all(void);
EVGEN_RT_HIDDEN void evgen_rt_rules_free(evgen_session *s);

/* metadata.c */
EVGEN_RT_HIDDEN rt_buffer *evgen_rt_metadata_block(const evgen_manifest_desc *m);
EVGEN_RT_HIDDEN rt_buffer *evgen_rt_end_block(const evgen_session *s, uint64_t unattributed);
EVGEN_RT_HIDDEN rt_buffer *evgen_rt_block_new(uint8_t type, const evgen_wire_buf *payload);

/* clock.c */
EVGEN_RT_HIDDEN uint64_t evgen_rt_realtime_ns(void);
EVGEN_RT_HIDDEN int evgen_rt_tsc_frequency(uint64_t *frequency);
/* Whether EVGEN_CLOCK_MONOTONIC_TSC reads the counter here (else clock_gettime); decided once per
 * process, when a session first asks. The environment variable EVGEN_NO_TSC (not "0") says no. */
int evgen_rt_monotonic_tsc_usable(void);
/* Test hook (tests/runtime): the next session that asks decides again. */
void evgen_rt_monotonic_tsc_forget(void);
EVGEN_RT_HIDDEN uint64_t evgen_rt_now(const evgen_session *s);
EVGEN_RT_HIDDEN uint64_t evgen_rt_ticks_to_ns(const evgen_session *s, uint64_t ticks);

/* barrier.c */
EVGEN_RT_HIDDEN void evgen_rt_barrier_init(void);
EVGEN_RT_HIDDEN void evgen_rt_barrier(void);
/* Test hook (tests/runtime): 0 = choose at session open, 1 = membarrier private expedited,
 * 2 = membarrier global, 3 = the mprotect fallback. Returns -1 if the mode is unavailable. */
int evgen_rt_barrier_force(int mode);

/* quiesce.c */
EVGEN_RT_HIDDEN void evgen_rt_handoff(evgen_session *s, rt_thread *t, unsigned level);
/* Fills B, the buffer of T's stream at LEVEL in S, with its events block's fields (size, records,
 * sequence, drops), and returns its records; 0 if it holds none (then nothing moves on). */
EVGEN_RT_HIDDEN uint64_t evgen_rt_seal_events(evgen_session *s, rt_thread *t, unsigned level, rt_buffer *b);
EVGEN_RT_HIDDEN void evgen_rt_flush_streams(evgen_session *s);
EVGEN_RT_HIDDEN void evgen_rt_close_streams(evgen_session *s);

/* direct.c */
/* Writes the full buffer of T's stream at LEVEL in S to the file itself and returns it, empty, for
 * the stream to refill; NULL if the sink failed (the buffer went to the writer, the stream has none). */
EVGEN_RT_HIDDEN rt_buffer *evgen_rt_write_own(evgen_session *s, rt_thread *t, unsigned level);

/* thread.c */
EVGEN_RT_HIDDEN void evgen_rt_thread_key(void);
EVGEN_RT_HIDDEN rt_thread *evgen_rt_thread_new(void);
EVGEN_RT_HIDDEN void evgen_rt_thread_join(rt_thread *t, evgen_session *s);
EVGEN_RT_HIDDEN void evgen_rt_thread_totals(const evgen_session *s, const rt_thread *t, rt_totals *out);
EVGEN_RT_HIDDEN int evgen_rt_add_exited(evgen_session *s, const rt_totals *totals);
EVGEN_RT_HIDDEN void evgen_rt_thread_fork_child(void);

/* writer.c */
EVGEN_RT_HIDDEN int evgen_rt_writer_start(evgen_session *s);
EVGEN_RT_HIDDEN void evgen_rt_writer_stop(evgen_session *s);
EVGEN_RT_HIDDEN int evgen_rt_in_writer(void);
EVGEN_RT_HIDDEN void evgen_rt_queue_init(evgen_session *s);
EVGEN_RT_HIDDEN void evgen_rt_enqueue(evgen_session *s, rt_buffer *b);
/* The same for a block of stream RS: placed after the stream's blocks before it (writer_dio.c). */
EVGEN_RT_HIDDEN void evgen_rt_enqueue_stream(evgen_session *s, rt_buffer *b, rt_stream *rs);
/* Whether a thread may write its own full block of stream RS now (direct.c): the session says so
 * and the O_DIRECT writer has placed every block of the stream handed to it. */
static inline int evgen_rt_may_write_own(evgen_session *s, rt_stream *rs)
{
    return __atomic_load_n(&s->emitters_write, __ATOMIC_ACQUIRE) &&
           (!s->dio || __atomic_load_n(&rs->unplaced, __ATOMIC_ACQUIRE) == 0);
}
/* Whether the calling thread may place a block in the file itself (emitters_write) until
 * evgen_rt_placing_end; 0 and nothing to end if not. An adaptive session's writer may take the
 * writing back (writer.c): it clears emitters_write and waits for `placing` to fall to zero, so a
 * thread that read the word as set counts itself first (sequentially consistent on both sides: if
 * this thread saw the word set, the writer sees it counted). Async-signal-safe. */
static inline int evgen_rt_placing_begin(evgen_session *s)
{
    if (!s->adaptive)
        return __atomic_load_n(&s->emitters_write, __ATOMIC_ACQUIRE);
    __atomic_fetch_add(&s->placing, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&s->emitters_write, __ATOMIC_SEQ_CST))
        return 1;
    __atomic_fetch_sub(&s->placing, 1, __ATOMIC_RELEASE);
    return 0;
}
static inline void evgen_rt_placing_end(evgen_session *s)
{
    if (s->adaptive)
        __atomic_fetch_sub(&s->placing, 1, __ATOMIC_RELEASE);
}
/* The writers': B, taken off the queue, has its place (reserved now if RT_UNPLACED and RESERVE);
 * its stream's count of unplaced blocks goes down. */
EVGEN_RT_HIDDEN void evgen_rt_placed(evgen_session *s, rt_buffer *b, int reserve);
/* An emitter waits for a buffer: the O_DIRECT writer stops gathering (async-signal-safe). */
EVGEN_RT_HIDDEN void evgen_rt_writer_nudge(evgen_session *s);
/* The writer's: the oldest queued block, or NULL. */
EVGEN_RT_HIDDEN rt_buffer *evgen_rt_queue_pop(evgen_session *s);
EVGEN_RT_HIDDEN void evgen_rt_frame(rt_buffer *b);
EVGEN_RT_HIDDEN void evgen_rt_put_metadata(evgen_session *s, rt_buffer *b);
EVGEN_RT_HIDDEN void evgen_rt_wait_written(evgen_session *s);
EVGEN_RT_HIDDEN rt_buffer *evgen_rt_pool_take(evgen_session *s);
EVGEN_RT_HIDDEN void evgen_rt_pool_put(evgen_session *s, rt_buffer *b);

/* writer.c: what the writers share */
/* A block's events the sink never took, counted by thread (close subtracts them from `written`). */
EVGEN_RT_HIDDEN void evgen_rt_count_lost(evgen_session *s, const rt_buffer *b);
/* B is through with (written or lost): back to the pool, or freed. */
EVGEN_RT_HIDDEN void evgen_rt_release(evgen_session *s, rt_buffer *b);
/* One more block handed over is in the file, or lost: wakes whoever waits for it. */
EVGEN_RT_HIDDEN void evgen_rt_block_done(evgen_session *s);

/* writer_dio.c */
/* Sets up EVGEN_BLOCK_WRITER_DIRECT_IO for S, whose file `path` is open and holds the file header
 * `header`: opens it again with O_DIRECT when the file system can (else the writer gathers blocks
 * through the page cache). 0, or an errno value. */
EVGEN_RT_HIDDEN int evgen_rt_dio_open(evgen_session *s, const char *path, const uint8_t *header, size_t header_size);
/* The writer thread's loop for such a session, until it stops (0) or, adaptive, hands the writing
 * over to the emitters (1: writer.c's loop goes on). */
EVGEN_RT_HIDDEN int evgen_rt_dio_writer(evgen_session *s);
/* Adaptive, handed over (writer.c's loop): whether the emitters' burst is over, so that the
 * O_DIRECT writer should take the writing back; called often. */
EVGEN_RT_HIDDEN int evgen_rt_dio_burst_over(evgen_session *s);
/* writer.c's loop took B off the queue (the O_DIRECT writer keeps count of the bytes taken). */
EVGEN_RT_HIDDEN void evgen_rt_dio_popped(evgen_session *s, const rt_buffer *b);
/* The writing is back with the O_DIRECT writer: every byte before file_end is in the file, no other
 * thread places blocks; it goes on from file_end with UNPLACED (a list through `next`, in queue
 * order) before what it takes off the queue (evgen_rt_dio_writer next). */
EVGEN_RT_HIDDEN void evgen_rt_dio_take_back(evgen_session *s, rt_buffer *unplaced);
EVGEN_RT_HIDDEN void evgen_rt_dio_free(evgen_session *s);
/* The pool's memory for the O_DIRECT writer (huge pages where the system gives them), NULL if out
 * of memory; *mapped is what evgen_rt_dio_slab_free takes back. */
EVGEN_RT_HIDDEN uint8_t *evgen_rt_dio_slab(size_t bytes, size_t *mapped);
EVGEN_RT_HIDDEN void evgen_rt_dio_slab_free(uint8_t *slab, size_t mapped);
/* Test hook (tests/runtime): the O_DIRECT alignment to use (0: statx's; 1: none, the page cache). */
void evgen_rt_dio_force_align(uint32_t align);
/* Test hooks (tests/runtime): an adaptive session's writer hands the writing over at its first
 * look (non-zero) or as the emitters' waits say (0, the default); whether S's writer has. */
void evgen_rt_adaptive_force(int hand_over_at_once);
int evgen_rt_adaptive_handed_over(const evgen_session *s);
/* Test hook (tests/runtime): a handed-over adaptive session's writer takes the writing back at its
 * next look (non-zero) or when the page cache stops absorbing (0, the default). */
void evgen_rt_adaptive_force_back(int take_back_at_once);
/* Test hooks (tests/runtime): the hand-over held (writer_dio.c says how); whether it is held
 * before handing over; a function close calls between the streams' last blocks and the end block. */
void evgen_rt_adaptive_hold(int stage);
int evgen_rt_adaptive_holding(void);
void evgen_rt_before_end_block(void (*hook)(evgen_session *s));
/* Test hook (tests): the alignment an O_DIRECT session would write a file of DIR with, by the rule
 * evgen_rt_dio_open applies (a probe file made and removed); 1: through the page cache. */
uint32_t evgen_rt_dio_alignment_in(const char *dir);
/* The payload alignment its pool buffers need. */
#define EVGEN_RT_DIO_MAX_ALIGN 4096u

/* fork.c */
EVGEN_RT_HIDDEN void evgen_rt_fork_handlers(void);

/* prealloc.c: space allocated ahead of a file session's blocks (ext4). At open, once the file and
 * its header are there: turns it on where it applies (an adaptive session's writer calls it when it
 * hands over). At close, with every block written: frees what was allocated past the end (best
 * effort). */
EVGEN_RT_HIDDEN void evgen_rt_prealloc_open(evgen_session *s);
EVGEN_RT_HIDDEN void evgen_rt_prealloc_slow(evgen_session *s, uint64_t end);
EVGEN_RT_HIDDEN void evgen_rt_prealloc_close(evgen_session *s);
#define EVGEN_RT_PREALLOC_STEP_MAX (8u << 20) /* the largest step allocated at once */
/* The bytes up to END are reserved: allocates the next step when END comes within half a step of
 * the allocated end (async-signal-safe; here only the largest half, prealloc.c looks closer). */
static inline void evgen_rt_prealloc(evgen_session *s, uint64_t end)
{
    if (__atomic_load_n(&s->prealloc, __ATOMIC_RELAXED) &&
        end + EVGEN_RT_PREALLOC_STEP_MAX / 2 > __atomic_load_n(&s->prealloc_end, __ATOMIC_RELAXED))
        evgen_rt_prealloc_slow(s, end);
}

/* sink.c, sink_callback.c */
EVGEN_RT_HIDDEN uint64_t evgen_rt_sink_reserve(evgen_session *s, size_t n);
EVGEN_RT_HIDDEN int evgen_rt_sink_raw(evgen_session *s, uint64_t offset, const uint8_t *p, size_t n);
EVGEN_RT_HIDDEN void evgen_rt_sink_failed(evgen_session *s, uint64_t offset, int err);
EVGEN_RT_HIDDEN int evgen_rt_sink_write_now(evgen_session *s, rt_buffer *b);
EVGEN_RT_HIDDEN int evgen_rt_sink_write_full(evgen_session *s, rt_buffer *b);
EVGEN_RT_HIDDEN void evgen_rt_sink_span(evgen_session *s);
EVGEN_RT_HIDDEN int evgen_rt_sink_block(evgen_session *s, rt_buffer *b);
EVGEN_RT_HIDDEN int evgen_rt_callback_block(evgen_session *s, const rt_buffer *b);
/* pwrite(2) of all N bytes at OFFSET, partial writes and EINTR retried: 0 or the errno
 * (async-signal-safe). */
EVGEN_RT_HIDDEN int evgen_rt_write_all(int fd, uint64_t offset, const uint8_t *p, size_t n);
/* The test hook's error for N bytes at OFFSET of a file (evgen_rt_sink_fail_after), or 0. */
EVGEN_RT_HIDDEN int evgen_rt_sink_injected(uint64_t offset, size_t n);
/* Test hook (tests/runtime): the file sink fails with `err` past `bytes` (UINT64_MAX: never). */
void evgen_rt_sink_fail_after(uint64_t bytes, int err);

/* A field descriptor as the wire format sees it (evgen/wire_metadata.h): what metadata.c encodes
 * and registry.c checks by the format's rules. */
static inline evgen_wire_field evgen_rt_wire_field(const evgen_field_desc *fd)
{
    evgen_wire_field wf = {fd->name,        fd->kind,         (uint8_t)(fd->flags & EVGEN_FIELD_ARRAY ? EVGEN_WIRE_FIELD_IS_ARRAY : 0),
                           fd->enum_index, fd->struct_index, fd->count_field};
    return wf;
}

#endif /* EVGEN_RUNTIME_INTERNAL_H */
