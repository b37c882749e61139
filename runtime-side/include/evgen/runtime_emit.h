/* evgen/runtime_emit.h — the emit fast path that generated FireEtw functions inline: reserve a
 * record in the calling thread's buffer, store the fields, commit. No lock, no allocation, no
 * system call; everything else (first use on a thread, a full buffer, a claimed buffer, no
 * session) goes to evgen_emit_begin_slow() in the runtime library.
 *
 * Record layout (docs/format.md): varint type, zigzag varint timestamp delta, [varint size if the
 * type's payload is variable], payload. Compiles as C99 and C++11 with gcc and clang. */
#ifndef EVGEN_RUNTIME_EMIT_H
#define EVGEN_RUNTIME_EMIT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "evgen/runtime_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "evgen: the emit fast path stores fields little-endian with memcpy; port it to this byte order"
#endif

#define EVGEN_LIKELY(x) __builtin_expect(!!(x), 1)
#define EVGEN_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* What FireEtw functions return. */
#define EVGEN_EMIT_OK 0u
#define EVGEN_EMIT_DISABLED 1u /* no session records this event */
#define EVGEN_EMIT_DROPPED 2u  /* no buffer was free (EVGEN_WHEN_FULL_DROP); counted */
#define EVGEN_EMIT_TOO_BIG 3u  /* payload over the session's max_payload; counted */

/* The most bytes a record header takes: varint32 type + varint64 delta + varint32 size. */
#define EVGEN_MAX_RECORD_HEADER 20u

/* The part of a thread's state the fast path touches; the runtime owns the rest. */
typedef struct evgen_thread {
    uint8_t *pos;          /* next free byte of the thread's buffer (NULL: no buffer) */
    uint8_t *end;          /* end of the buffer */
    uint64_t last_ts;      /* timestamp of the thread's previous record */
    uint64_t written;      /* records committed in this session */
    uint32_t max_payload;  /* the session's limit */
    uint32_t busy;         /* 1 while inside an emit (read by a flusher) */
    uint32_t claimed;      /* set by a flusher: the next emit takes the slow path */
    uint32_t clock_is_tsc; /* the session's clock */
} evgen_thread;

/* The calling thread's state, NULL until its first emit. */
#if defined(__cplusplus) && __cplusplus >= 201103L
extern thread_local evgen_thread *evgen_thread_self;
#else
extern __thread evgen_thread *evgen_thread_self;
#endif

typedef struct evgen_emit {
    evgen_thread *thread;
    uint32_t status;
} evgen_emit;

/* Nanoseconds of CLOCK_MONOTONIC (out of line: strict C99 has no clock_gettime). */
uint64_t evgen_clock_monotonic(void);

/* Slow path: attaches the thread, hands a full buffer to the writer, waits or drops, counts.
 * Returns where the payload goes (the thread then is busy, commit with evgen_emit_commit), or
 * NULL with em->status set. */
uint8_t *evgen_emit_begin_slow(evgen_emit *em, const evgen_manifest_desc *manifest, uint32_t type, int variable,
                               uint32_t payload);

static inline uint64_t evgen_now(const evgen_thread *t)
{
#if defined(__x86_64__) || defined(__i386__)
    if (t->clock_is_tsc)
        return __builtin_ia32_rdtsc();
#else
    (void)t;
#endif
    return evgen_clock_monotonic();
}

static inline uint8_t *evgen_put_varint(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

/* Reserves a record of `type` (the manifest's type number) with `payload` bytes. */
static inline uint8_t *evgen_emit_begin(evgen_emit *em, const evgen_manifest_desc *manifest, uint32_t type,
                                        int variable, uint32_t payload)
{
    evgen_thread *t = evgen_thread_self;
    if (EVGEN_LIKELY(t != NULL)) {
        __atomic_store_n(&t->busy, 1, __ATOMIC_RELAXED);
        /* A compiler barrier only: a flusher makes the CPU barrier with membarrier(2). */
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        if (EVGEN_LIKELY(!__atomic_load_n(&t->claimed, __ATOMIC_ACQUIRE) && payload <= t->max_payload &&
                         (size_t)(t->end - t->pos) >= (size_t)payload + EVGEN_MAX_RECORD_HEADER)) {
            uint64_t ts = evgen_now(t);
            int64_t delta = (int64_t)(ts - t->last_ts);
            uint8_t *p = evgen_put_varint(t->pos, (uint64_t)manifest->type_base + type);
            p = evgen_put_varint(p, ((uint64_t)delta << 1) ^ (uint64_t)(delta >> 63)); /* zigzag */
            if (variable)
                p = evgen_put_varint(p, payload);
            t->last_ts = ts;
            em->thread = t;
            return p;
        }
        __atomic_store_n(&t->busy, 0, __ATOMIC_RELEASE);
    }
    return evgen_emit_begin_slow(em, manifest, type, variable, payload);
}

static inline uint32_t evgen_emit_commit(evgen_emit *em, uint8_t *end)
{
    evgen_thread *t = em->thread;
    t->pos = end;
    t->written++;
    __atomic_store_n(&t->busy, 0, __ATOMIC_RELEASE);
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

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_RUNTIME_EMIT_H */
