/* evgen/runtime_emit.h — the emit fast path that generated FireEtw functions inline: reserve a
 * record in the calling thread's buffer, store the fields, commit. No lock, no allocation, no
 * system call; everything else (first use on a thread, a full buffer, a claimed buffer, no
 * session) goes to evgen_emit_begin_slow() in the runtime library.
 *
 * Records are framed by evgen/wire_format.h (docs/format.md). Compiles as C99 and C++11 with gcc
 * and clang.
 *
 * Every emit, slow path included, is async-signal-safe and reentrant (docs/signals.md). */
#ifndef EVGEN_RUNTIME_EMIT_H
#define EVGEN_RUNTIME_EMIT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "evgen/runtime_desc.h"
#include "evgen/wire_format.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "evgen: the emit fast path stores fields little-endian with memcpy; port it to this byte order"
#endif

#define EVGEN_LIKELY(x) __builtin_expect(!!(x), 1)
#define EVGEN_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* The fast path is inlined into every FireEtw function, and the generated FireEtw functions where
 * they are called, whatever the compiler's size heuristics say: called from the hundred or so
 * FireEtw functions of one generated file, gcc -O2 kept one out-of-line copy, and the call, with
 * its record of the emit passed through memory, cost 1.5-2.5 ns of a ~20-ns emit; a FireEtw
 * function called with its dozen arguments, ~12 ns of a ~75-ns GCHeapStats event written to a file
 * (bench/emit_bench, TSC clock; docs/performance-log.md). The cost is code: ~1.2 KB at each call site
 * of GCHeapStats (gcc 12 -O2, x86-64), ~0.85 KB for a three-field event. Define
 * EVGEN_EMIT_NO_FORCED_INLINE to let the compiler choose. The record header's writer in
 * evgen/wire_format.h, part of the same path, decides it for both (EVGEN_WIRE_EMIT_INLINE). */
#define EVGEN_EMIT_INLINE EVGEN_WIRE_EMIT_INLINE

/* What FireEtw functions return. */
#define EVGEN_EMIT_OK 0u
#define EVGEN_EMIT_DISABLED 1u /* no session records this event */
#define EVGEN_EMIT_DROPPED 2u  /* not recorded and counted: no buffer was free (EVGEN_WHEN_FULL_DROP, or an emit
                                * nested in another, which never waits), or the session's sink has failed */
#define EVGEN_EMIT_TOO_BIG 3u  /* payload over the session's max_payload; counted */

/* The most bytes a record header takes (evgen/wire_format.h). */
#define EVGEN_MAX_RECORD_HEADER EVGEN_WIRE_RECORD_HEADER_MAX
/* A stream's last_type before the first record of its buffer: no type is this large. */
#define EVGEN_NO_TYPE UINT32_MAX

/* Sessions open at once: one bit each in a manifest's `enabled` bytes. */
#define EVGEN_MAX_SESSIONS 8u
/* Emits of one thread in progress at once: an emit, a signal handler's emit interrupting it, and
 * two more levels of nested handlers. Each level fills a buffer of its own (a *stream*), so an
 * interrupting emit never touches the interrupted one's reservation. Deeper emits are dropped
 * and counted. */
#define EVGEN_MAX_NESTING 4u

/* One thread's buffer for one session at one nesting level: the part the fast path touches. */
typedef struct evgen_stream {
    uint8_t *pos;          /* next free byte of the buffer (NULL: no buffer) */
    uint8_t *end;          /* end of the buffer */
    uint64_t last_ts;      /* timestamp of the stream's previous record */
    uint64_t written;      /* records committed in this session */
    uint32_t claimed;      /* set by a flusher: the next emit takes the slow path */
    uint32_t max_payload;  /* the session's limit */
    uint32_t clock;        /* how the session's clock is read: EVGEN_STREAM_CLOCK_... */
    uint32_t last_type;    /* type of the buffer's previous record (EVGEN_NO_TYPE: none yet) */
} evgen_stream;

/* evgen_stream.clock */
#define EVGEN_STREAM_CLOCK_SYSTEM 0u        /* clock_gettime(CLOCK_MONOTONIC) */
#define EVGEN_STREAM_CLOCK_TSC 1u           /* the time-stamp counter's ticks (EVGEN_CLOCK_TSC) */
#define EVGEN_STREAM_CLOCK_MONOTONIC_TSC 2u /* CLOCK_MONOTONIC from the TSC (EVGEN_CLOCK_MONOTONIC_TSC) */

/* CLOCK_MONOTONIC read from the time-stamp counter (EVGEN_CLOCK_MONOTONIC_TSC): within `span`
 * ticks of the anchor, ns + (ticks since it * mult >> 32); past it, clock.c takes a new anchor
 * from clock_gettime. An anchor spans 1 ms at most, so the time it gives stays within a few tens of
 * ns of clock_gettime's (docs/performance.md). One per nesting level: an emit that interrupts another's
 * re-anchoring has its own. */
typedef struct evgen_clock_anchor {
    uint64_t tsc;  /* the counter at the anchor */
    uint64_t ns;   /* CLOCK_MONOTONIC at the anchor */
    uint64_t span; /* ticks the anchor is good for; 0: none */
    uint64_t mult; /* nanoseconds per tick, times 2^32 */
} evgen_clock_anchor;

/* A thread's state; the runtime keeps more after it. */
typedef struct evgen_thread {
    uint32_t depth;   /* emits of this thread in progress; a flusher waits while it covers a stream */
    uint32_t no_wait; /* non-zero while the thread is inside the runtime: an emit then never waits */
    evgen_stream streams[EVGEN_MAX_SESSIONS][EVGEN_MAX_NESTING];
    evgen_clock_anchor anchors[EVGEN_MAX_NESTING];
} evgen_thread;

/* The thread pointer's model. Initial-exec: one load from the thread pointer, in a shared object
 * too, where the compiler's default (general-dynamic) is a call to __tls_get_addr on every emit
 * (~2 ns of a ~20-ns emit, measured) and, the first time a thread of a dlopen'd object touches the
 * variable, an allocation, which an emit in a signal handler must not make. The cost: a shared
 * object built with it can be dlopen'd only while glibc's reserve of static TLS lasts (512 bytes by
 * default; this takes 8); past it dlopen fails and says why. Define EVGEN_TLS_DEFAULT_MODEL (for
 * every file that includes this header) to leave the model to the compiler. */
#if defined(EVGEN_TLS_DEFAULT_MODEL)
#define EVGEN_TLS_MODEL
#else
#define EVGEN_TLS_MODEL __attribute__((tls_model("initial-exec")))
#endif

/* The calling thread's state, NULL until its first emit. */
#if defined(__cplusplus) && __cplusplus >= 201103L
extern thread_local evgen_thread *evgen_thread_self EVGEN_TLS_MODEL;
#else
extern __thread evgen_thread *evgen_thread_self EVGEN_TLS_MODEL;
#endif

/* One emit between begin and commit. `more`: sessions still to receive a copy of the record. */
typedef struct evgen_emit {
    evgen_thread *thread;
    evgen_stream *stream;
    uint32_t depth; /* the thread's depth before this emit, restored by the commit */
    uint32_t status;
    uint32_t more;
    uint32_t type;
    uint64_t ts;
    const evgen_manifest_desc *manifest;
    const uint8_t *enabled;
    uint8_t *payload;
    int variable;
} evgen_emit;

/* Nanoseconds of CLOCK_MONOTONIC (out of line: strict C99 has no clock_gettime). */
uint64_t evgen_clock_monotonic(void);

/* Slow path: attaches the thread, hands a full buffer to the writer, waits or drops, counts.
 * Returns where the payload goes (commit with evgen_emit_commit), or NULL with em->status set.
 * `enabled`: the event's enabled byte. Async-signal-safe. */
uint8_t *evgen_emit_begin_slow(evgen_emit *em, const evgen_manifest_desc *manifest, uint32_t type, int variable,
                               uint32_t payload, const uint8_t *enabled);

/* Copies a committed record to the other sessions in em->more (out of line: rare). */
void evgen_emit_copy(evgen_emit *em, const uint8_t *end);

/* CLOCK_MONOTONIC from a new anchor for A, or from clock_gettime alone while none can be taken
 * (out of line: once per anchor's span). */
uint64_t evgen_clock_reanchor(evgen_clock_anchor *a);

/* The timestamp of an emit at nesting level DEPTH of thread T into stream ST. */
EVGEN_EMIT_INLINE uint64_t evgen_now(evgen_thread *t, uint32_t depth, const evgen_stream *st)
{
#if defined(__x86_64__) || defined(__i386__)
    if (st->clock != EVGEN_STREAM_CLOCK_SYSTEM) {
        uint64_t tsc = __builtin_ia32_rdtsc();
        if (st->clock == EVGEN_STREAM_CLOCK_TSC)
            return tsc;
        evgen_clock_anchor *a = &t->anchors[depth];
        uint64_t x = tsc - a->tsc;
        if (EVGEN_LIKELY(x < a->span))
            return a->ns + ((x * a->mult) >> 32);
        return evgen_clock_reanchor(a);
    }
#else
    (void)t;
    (void)depth;
    (void)st;
#endif
    return evgen_clock_monotonic();
}

/* A record header that names its type (out of line: once per buffer, and after a type change). */
uint8_t *evgen_put_record_header_typed(uint8_t *p, uint32_t type, int64_t delta, int variable, uint32_t payload);

/* The record header (evgen/wire_format.h), with the delta from the stream's previous record and
 * its type. The one place the fast and slow paths write it. A repeated type, the common case,
 * stays inline; the other form is a call, which keeps the fast path's registers free. */
EVGEN_EMIT_INLINE uint8_t *evgen_put_record_header(uint8_t *p, evgen_stream *st, uint32_t type, int variable,
                                               uint32_t payload, uint64_t ts)
{
    int64_t delta = (int64_t)(ts - st->last_ts);
    st->last_ts = ts;
    if (EVGEN_LIKELY(type == st->last_type && delta >= 0))
        return evgen_wire_put_record_header(p, 1, type, delta, variable, payload);
    st->last_type = type;
    return evgen_put_record_header_typed(p, type, delta, variable, payload);
}

EVGEN_EMIT_INLINE uint8_t *evgen_emit_begin(evgen_emit *em, const evgen_manifest_desc *manifest, uint32_t type,
                                        int variable, uint32_t payload, const uint8_t *enabled)
{
    evgen_thread *t = evgen_thread_self;
    if (EVGEN_LIKELY(t != NULL)) {
        uint32_t d = t->depth;
        if (EVGEN_LIKELY(d < EVGEN_MAX_NESTING)) {
            __atomic_store_n(&t->depth, d + 1, __ATOMIC_RELAXED);
            /* A compiler barrier only: a flusher makes the CPU barrier with membarrier(2). */
            __atomic_signal_fence(__ATOMIC_SEQ_CST);
            uint32_t sessions = __atomic_load_n(enabled, __ATOMIC_RELAXED);
            evgen_stream *st = &t->streams[__builtin_ctz(sessions | (1u << EVGEN_MAX_SESSIONS)) & (EVGEN_MAX_SESSIONS - 1)][d];
            if (EVGEN_LIKELY(sessions != 0 && !__atomic_load_n(&st->claimed, __ATOMIC_ACQUIRE) && payload <= st->max_payload &&
                             (size_t)(st->end - st->pos) >= (size_t)payload + EVGEN_MAX_RECORD_HEADER)) {
                uint64_t ts = evgen_now(t, d, st);
                uint8_t *p = evgen_put_record_header(st->pos, st, manifest->type_base + type, variable, payload, ts);
                em->thread = t;
                em->stream = st;
                em->depth = d;
                em->more = sessions & (sessions - 1); /* sessions != 0 here */
                if (EVGEN_UNLIKELY(em->more != 0)) {
                    em->type = type;
                    em->ts = ts;
                    em->manifest = manifest;
                    em->payload = p;
                    em->variable = variable;
                    em->enabled = enabled;
                }
                return p;
            }
            __atomic_store_n(&t->depth, d, __ATOMIC_RELEASE);
        }
    }
    /* The slow path fills a record of its own, copied into EM: EM's address never escapes, so the
     * compiler keeps the fast path's record in registers rather than on the stack. */
    evgen_emit slow;
    uint8_t *p = evgen_emit_begin_slow(&slow, manifest, type, variable, payload, enabled);
    *em = slow;
    return p;
}

EVGEN_EMIT_INLINE uint32_t evgen_emit_commit(evgen_emit *em, uint8_t *end)
{
    evgen_stream *st = em->stream;
    st->pos = end;
    st->written++;
    if (EVGEN_UNLIKELY(em->more != 0)) {
        evgen_emit copy = *em; /* (EM's address stays in this function: see evgen_emit_begin) */
        evgen_emit_copy(&copy, end);
    }
    /* Release: a flusher that reads the lower depth sees the record and pos. */
    __atomic_store_n(&em->thread->depth, em->depth, __ATOMIC_RELEASE);
    return EVGEN_EMIT_OK;
}

/* Field stores: little-endian, unaligned, each returns the next position. */
#define EVGEN_DEFINE_PUT(name, type)                              \
    static inline uint8_t *evgen_put_##name(uint8_t *p, type v)   \
    {                                                             \
        memcpy(p, &v, sizeof v);                                  \
        return p + sizeof v;                                      \
    }
EVGEN_DEFINE_PUT(u8, uint8_t)
EVGEN_DEFINE_PUT(u16, uint16_t)
EVGEN_DEFINE_PUT(u32, uint32_t)
EVGEN_DEFINE_PUT(u64, uint64_t)
EVGEN_DEFINE_PUT(i8, int8_t)
EVGEN_DEFINE_PUT(i16, int16_t)
EVGEN_DEFINE_PUT(i32, int32_t)
EVGEN_DEFINE_PUT(i64, int64_t)
EVGEN_DEFINE_PUT(f32, float)
EVGEN_DEFINE_PUT(f64, double)
#undef EVGEN_DEFINE_PUT

static inline uint8_t *evgen_put_bool8(uint8_t *p, int v)
{
    *p = v ? 1 : 0;
    return p + 1;
}

static inline uint8_t *evgen_put_bool32(uint8_t *p, uint32_t v)
{
    return evgen_put_u32(p, v);
}

static inline uint8_t *evgen_put_ptr(uint8_t *p, const void *v)
{
    uintptr_t u = (uintptr_t)v;
    memcpy(p, &u, sizeof u);
    return p + sizeof u;
}

static inline uint8_t *evgen_put_bytes(uint8_t *p, const void *src, size_t n)
{
    if (n)
        memcpy(p, src, n);
    return p + n;
}

/* GUIDs are passed as 16 bytes in their wire order (Data1..Data3 little-endian, Data4). */
static inline uint8_t *evgen_put_guid(uint8_t *p, const void *guid)
{
    if (guid)
        memcpy(p, guid, 16);
    else
        memset(p, 0, 16);
    return p + 16;
}

/* Strings: NULL is written as the empty string. */
static inline size_t evgen_utf8z_size(const char *s)
{
    return s ? strlen(s) + 1 : 1;
}

static inline uint8_t *evgen_put_utf8z(uint8_t *p, const char *s)
{
    return evgen_put_bytes(p, s ? s : "", evgen_utf8z_size(s));
}

/* The same with the size already known (from evgen_utf8z_size). */
static inline uint8_t *evgen_put_utf8z_sized(uint8_t *p, const char *s, size_t size)
{
    if (s)
        memcpy(p, s, size);
    else
        p[0] = 0;
    return p + size;
}

static inline size_t evgen_utf16z_size(const void *s)
{
    size_t n = 0;
    if (s) {
        const uint8_t *b = (const uint8_t *)s;
        while (b[2 * n] | b[2 * n + 1])
            n++;
    }
    return 2 * (n + 1);
}

static inline uint8_t *evgen_put_utf16z(uint8_t *p, const void *s, size_t size)
{
    if (s)
        memcpy(p, s, size);
    else
        p[0] = p[1] = 0;
    return p + size;
}

/* Strings stored within room bytes (room >= one unit): the string's units, as many as fit before
 * its terminator, then the terminator. A variable struct's store (generated) bounds each string so
 * that the record never outgrows what its size pass reserved, even if the caller changes a string in
 * between; an unchanged string is stored whole, as its size pass measured it. */
static inline uint8_t *evgen_put_utf8z_within(uint8_t *p, const char *s, size_t room)
{
    size_t n = 0;
    if (s) {
        const char *z = (const char *)memchr(s, 0, room - 1);
        n = z ? (size_t)(z - s) : room - 1;
        memcpy(p, s, n);
    }
    p[n] = 0;
    return p + n + 1;
}

static inline uint8_t *evgen_put_utf16z_within(uint8_t *p, const void *s, size_t room)
{
    size_t n = 0, max = room / 2 - 1;
    if (s) {
        const uint8_t *b = (const uint8_t *)s;
        while (n < max && (b[2 * n] | b[2 * n + 1]))
            n++;
        memcpy(p, s, 2 * n);
    }
    p[2 * n] = p[2 * n + 1] = 0;
    return p + 2 * (n + 1);
}

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_RUNTIME_EMIT_H */
