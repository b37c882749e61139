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

/* Cross-file helpers stay out of a shared object's dynamic symbol table. */
#define EVGEN_RT_HIDDEN __attribute__((visibility("hidden")))

#define EVGEN_RT_FILE_HEADER_SIZE 48u
#define EVGEN_RT_BLOCK_HEADER_SIZE 48u
#define EVGEN_RT_FORMAT_VERSION 1u

enum { EVGEN_RT_BLOCK_METADATA = 1, EVGEN_RT_BLOCK_EVENTS = 2, EVGEN_RT_BLOCK_END = 3 };

typedef enum rt_sink_kind { RT_SINK_FILE, RT_SINK_MEMORY, RT_SINK_CALLBACK } rt_sink_kind;

/* A growable byte string with the trace's encodings (metadata, end block, memory sink). */
typedef struct rt_bytes {
    uint8_t *data;
    size_t len, cap;
    int failed; /* an allocation failed: the content is incomplete */
} rt_bytes;

EVGEN_RT_HIDDEN int evgen_rt_bytes_reserve(rt_bytes *b, size_t n);
EVGEN_RT_HIDDEN void evgen_rt_bytes_raw(rt_bytes *b, const void *p, size_t n);
EVGEN_RT_HIDDEN void evgen_rt_bytes_varint(rt_bytes *b, uint64_t v);
EVGEN_RT_HIDDEN void evgen_rt_bytes_zigzag(rt_bytes *b, int64_t v);
EVGEN_RT_HIDDEN void evgen_rt_bytes_string(rt_bytes *b, const char *s);
EVGEN_RT_HIDDEN void evgen_rt_bytes_free(rt_bytes *b);

/* One block on its way to the sink: a thread's buffer (pooled), or a metadata or end block. */
typedef struct rt_buffer {
    struct rt_buffer *next;
    uint8_t *data;     /* EVGEN_RT_BLOCK_HEADER_SIZE bytes of room for the header, then the payload */
    uint32_t capacity; /* payload bytes it holds */
    uint32_t size;     /* payload bytes filled */
    uint8_t type;      /* EVGEN_RT_BLOCK_* */
    uint8_t pooled;    /* back to the session's pool once written; else free()d */
    uint32_t sequence, event_count, dropped;
    uint64_t thread_id, base_ticks;
    const evgen_manifest_desc *manifest; /* metadata blocks: the manifest they describe */
} rt_buffer;

/* A thread's state. It lives as long as its thread (freed by a pthread key destructor), so
 * evgen_thread_self never dangles; it is attached to at most one session at a time. */
typedef struct rt_thread {
    evgen_thread pub; /* first: evgen_thread_self points at it */
    /* Everything below is under the runtime lock. */
    evgen_session *session; /* attached to, or NULL */
    struct rt_thread *next; /* in session->threads */
    rt_buffer *buf;         /* the buffer pub.pos points into, or NULL */
    uint64_t block_first;   /* pub.written when buf was taken: buf holds written - block_first records */
    uint64_t tid;
    uint32_t sequence;            /* the thread's next events block */
    uint64_t dropped_since_block; /* drops not reported in a block header yet */
    size_t slot;                  /* this thread's entry in session->totals */
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

struct evgen_session {
    evgen_session_options opt;
    rt_sink_kind sink;
    int fd;
    evgen_event_callback callback;
    void *context;
    uint64_t start_ticks, frequency;
    int clock_is_tsc;

    /* Under the runtime lock. */
    uint8_t *slab;       /* every pooled buffer's bytes */
    rt_buffer *buffers;  /* opt.buffer_count of them */
    rt_buffer *free_list;
    uint32_t n_free, n_inflight; /* pooled buffers free / queued or being written */
    rt_buffer *queue_head, *queue_tail;
    uint64_t queued, done; /* blocks handed to the writer / written by it */
    int stopping;
    unsigned n_flushers; /* flush calls waiting for the writer: close waits for them to leave */
    int error; /* the sink's first error (an errno value), 0 if none */
    pthread_t writer;
    pthread_cond_t queue_cv; /* the writer waits for blocks */
    pthread_cond_t done_cv;  /* flush waits for the writer */
    rt_thread *threads;      /* attached threads */
    evgen_thread_totals *totals; /* every thread attached during the session, in attach order */
    size_t n_totals, cap_totals;
    rt_rule *rules;
    size_t n_rules, cap_rules;

    /* The writer thread's own. */
    uint64_t bytes;
    rt_bytes memory;
    rt_type *types;
    size_t n_types;
};

/* Process-wide state. `lock` is the runtime lock: registry, current session, every session's
 * pool, queue and thread list, and the slow path all take it. */
typedef struct rt_state {
    pthread_mutex_t lock;
    pthread_cond_t buffer_cv; /* a pooled buffer came back, or the session closed */
    unsigned n_waiters;       /* threads waiting on buffer_cv */
    evgen_manifest_desc *manifests, *last_manifest;
    uint32_t n_types;
    evgen_session *session;
    int opening;
} rt_state;

EVGEN_RT_HIDDEN extern rt_state evgen_rt;

/* pthread_cond_wait under the runtime lock, with cancellation held off: a thread cancelled there
 * would leave holding the lock, and every emitting thread would stop with it. */
static inline void evgen_rt_wait(pthread_cond_t *cv)
{
    int old;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
    pthread_cond_wait(cv, &evgen_rt.lock);
    pthread_setcancelstate(old, NULL);
}

/* Descriptor arrays are indexed by the size their first element declares, so a descriptor that
 * grew in a later ABI still walks correctly. */
static inline const evgen_event_desc *evgen_rt_event(const evgen_manifest_desc *m, uint32_t i)
{
    return (const evgen_event_desc *)(const void *)((const char *)m->events + (size_t)i * m->events[0].size);
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
EVGEN_RT_HIDDEN int evgen_rt_type_enabled(const evgen_manifest_desc *m, uint32_t type);

/* enable.c */
EVGEN_RT_HIDDEN void evgen_rt_apply_rules(const evgen_session *s, evgen_manifest_desc *m);
EVGEN_RT_HIDDEN void evgen_rt_disable_all(void);
EVGEN_RT_HIDDEN void evgen_rt_rules_free(evgen_session *s);

/* metadata.c */
EVGEN_RT_HIDDEN rt_buffer *evgen_rt_metadata_block(const evgen_manifest_desc *m);
EVGEN_RT_HIDDEN rt_buffer *evgen_rt_end_block(const evgen_session *s);
EVGEN_RT_HIDDEN rt_buffer *evgen_rt_block_new(uint8_t type, const rt_bytes *payload);

/* clock.c */
EVGEN_RT_HIDDEN uint64_t evgen_rt_realtime_ns(void);
EVGEN_RT_HIDDEN int evgen_rt_tsc_frequency(uint64_t *frequency);
EVGEN_RT_HIDDEN uint64_t evgen_rt_now(const evgen_session *s);
EVGEN_RT_HIDDEN uint64_t evgen_rt_ticks_to_ns(const evgen_session *s, uint64_t ticks);

/* barrier.c */
EVGEN_RT_HIDDEN void evgen_rt_barrier_init(void);
EVGEN_RT_HIDDEN void evgen_rt_barrier(void);
/* Test hook (tests/runtime): 0 = choose at session open, 1 = membarrier private expedited,
 * 2 = membarrier global, 3 = the mprotect fallback. Returns -1 if the mode is unavailable. */
int evgen_rt_barrier_force(int mode);

/* quiesce.c */
EVGEN_RT_HIDDEN void evgen_rt_handoff(evgen_session *s, rt_thread *t);
EVGEN_RT_HIDDEN void evgen_rt_quiesce(evgen_session *s, const rt_thread *except);

/* thread.c */
EVGEN_RT_HIDDEN rt_thread *evgen_rt_thread_attach(evgen_session *s);
EVGEN_RT_HIDDEN void evgen_rt_thread_detach(evgen_session *s, rt_thread *t);
EVGEN_RT_HIDDEN void evgen_rt_thread_forget(void);

/* writer.c */
EVGEN_RT_HIDDEN int evgen_rt_writer_start(evgen_session *s);
EVGEN_RT_HIDDEN void evgen_rt_writer_stop(evgen_session *s);
EVGEN_RT_HIDDEN int evgen_rt_in_writer(void);
EVGEN_RT_HIDDEN void evgen_rt_enqueue(evgen_session *s, rt_buffer *b);
EVGEN_RT_HIDDEN rt_buffer *evgen_rt_pool_take(evgen_session *s);
EVGEN_RT_HIDDEN void evgen_rt_pool_put(evgen_session *s, rt_buffer *b);

/* fork.c */
EVGEN_RT_HIDDEN void evgen_rt_fork_handlers(void);

/* sink.c, sink_callback.c */
EVGEN_RT_HIDDEN int evgen_rt_sink_raw(evgen_session *s, const uint8_t *p, size_t n);
EVGEN_RT_HIDDEN int evgen_rt_sink_block(evgen_session *s, rt_buffer *b);
EVGEN_RT_HIDDEN int evgen_rt_callback_block(evgen_session *s, const rt_buffer *b);

/* Little-endian stores for headers. */
static inline void evgen_rt_le16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void evgen_rt_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline void evgen_rt_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

#endif /* EVGEN_RUNTIME_INTERNAL_H */
