/* emit.c — evgen_emit_begin_slow and evgen_emit_copy: everything the inline fast path leaves out
 * (a thread's first emit, joining a session, a full or claimed buffer, no free buffer, a payload
 * too big, a nested emit beyond EVGEN_MAX_NESTING, a record for several sessions).
 *
 * All of it is async-signal-safe: no lock, no malloc; the system calls are gettid, mmap, futex,
 * pwrite (a full buffer written by its own thread: direct.c) and
 * sched_yield, and errno is kept. An emit *nested* in another of its thread (a signal handler that
 * interrupted an emit or a runtime call) never waits: where it would, it drops and counts. A top
 * emit may wait (EVGEN_WHEN_FULL_WAIT, or a flusher's claim) with its depth lowered, so nothing
 * waits for it meanwhile. */
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "internal.h"

/* How long an emit may wait for a buffer. */
enum {
    WAIT_NEVER,  /* nested in another emit or a runtime call: drop and count instead */
    WAIT_WRITER, /* a copy for another session: only for the writer to return a buffer, with depth
                  * kept raised (the record being copied lies in a stream a flusher would take) */
    WAIT_ANY     /* a top emit: for the writer, a flusher's claim, idle threads' buffers */
};

typedef struct reservation {
    const uint8_t *enabled; /* the event's enabled byte: read again after every wait */
    rt_thread *t;
    unsigned slot, level;
    int wait;
    const evgen_manifest_desc *manifest;
    uint32_t type, payload;
    int variable;
} reservation;

static uint32_t drop(const reservation *r, int in_stream)
{
    __atomic_fetch_add(&r->t->sess[r->slot].dropped, 1, __ATOMIC_RELAXED);
    if (in_stream) /* atomic: a flusher may be sealing the stream's block (a drop while it is claimed) */
        __atomic_fetch_add(&r->t->streams[r->slot][r->level].dropped_since_block, 1, __ATOMIC_RELAXED);
    return EVGEN_EMIT_DROPPED;
}

static void lower_depth(const reservation *r)
{
    __atomic_store_n(&r->t->pub.depth, r->level, __ATOMIC_RELEASE);
}

static void raise_depth(const reservation *r)
{
    __atomic_store_n(&r->t->pub.depth, r->level + 1, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* No buffer free in S. A top WAIT emit waits (depth lowered, S kept alive by `waiters`); when
 * nothing is on its way back from the writer, every buffer sits, partly filled, in threads that
 * may be idle for good: it takes them (under the lock, which no code of this thread holds, as
 * the thread is not inside the runtime). */
static void wait_for_buffer(const reservation *r, evgen_session *s)
{
    uint64_t since = s->adaptive ? evgen_clock_monotonic() : 0; /* what the writer adapts to */
    if (__atomic_fetch_add(&s->waiters, 1, __ATOMIC_ACQ_REL) != 0 && since)
        __atomic_store_n(&s->crowded, 1, __ATOMIC_RELAXED); /* another emitter waits too */
    evgen_rt_writer_nudge(s);
    lower_depth(r);
    uint32_t gen = __atomic_load_n(&evgen_rt.pool_gen, __ATOMIC_ACQUIRE);
    if (__atomic_load_n(&s->n_free, __ATOMIC_ACQUIRE) == 0 && __atomic_load_n(&s->state, __ATOMIC_ACQUIRE) == RT_OPEN) {
        if (__atomic_load_n(&s->n_inflight, __ATOMIC_ACQUIRE) == 0) {
            evgen_rt_lock();
            if (evgen_rt.slots[r->slot] == s && s->state == RT_OPEN)
                evgen_rt_flush_streams(s);
            evgen_rt_unlock();
        } else {
            evgen_rt_futex_wait(&evgen_rt.pool_gen, gen, 100);
        }
    }
    if (since)
        __atomic_fetch_add(&s->waited_ns, evgen_clock_monotonic() - since, __ATOMIC_RELAXED);
    __atomic_fetch_sub(&s->waiters, 1, __ATOMIC_ACQ_REL);
    raise_depth(r);
}

static void take_buffer(rt_thread *t, unsigned slot, unsigned level, rt_buffer *b)
{
    evgen_stream *st = &t->pub.streams[slot][level];
    rt_stream *rs = &t->streams[slot][level];
    b->base_ticks = st->last_ts; /* the block's first delta is relative to it */
    st->last_type = EVGEN_NO_TYPE; /* and its first record names its type */
    rs->block_first = st->written;
    st->end = b->data + EVGEN_WIRE_BLOCK_HEADER_SIZE + b->capacity;
    st->pos = b->data + EVGEN_WIRE_BLOCK_HEADER_SIZE;
    __atomic_store_n(&rs->buf, b, __ATOMIC_RELAXED);
}

/* The thread's depth is level + 1. Returns the stream with room for the record, or NULL with the
 * status. */
static evgen_stream *reserve(const reservation *r, uint32_t *status)
{
    rt_thread *t = r->t;
    for (;;) {
        evgen_session *s = __atomic_load_n(&evgen_rt.slots[r->slot], __ATOMIC_ACQUIRE);
        if (!s || __atomic_load_n(&s->state, __ATOMIC_ACQUIRE) != RT_OPEN ||
            !(__atomic_load_n(r->enabled, __ATOMIC_RELAXED) & (1u << r->slot))) {
            *status = EVGEN_EMIT_DISABLED;
            return NULL;
        }
        if (__atomic_load_n(&t->sess[r->slot].epoch, __ATOMIC_RELAXED) != s->epoch) {
            if (t->attaching) { /* interrupted a join: the thread has no place in S yet */
                __atomic_fetch_add(&evgen_rt.unattributed[r->slot], 1, __ATOMIC_RELAXED);
                *status = EVGEN_EMIT_DROPPED;
                return NULL;
            }
            t->attaching = 1;
            __atomic_signal_fence(__ATOMIC_SEQ_CST);
            /* Read again: a handler that interrupted this emit between the test above and
             * `attaching` may have joined S and recorded events; joining again would reset its
             * streams and lose them. From here on a handler finds `attaching` and drops. */
            if (__atomic_load_n(&t->sess[r->slot].epoch, __ATOMIC_RELAXED) != s->epoch)
                evgen_rt_thread_join(t, s);
            __atomic_signal_fence(__ATOMIC_SEQ_CST);
            t->attaching = 0;
        }
        evgen_stream *st = &t->pub.streams[r->slot][r->level];
        rt_stream *rs = &t->streams[r->slot][r->level];
        if (r->payload > st->max_payload) {
            __atomic_fetch_add(&t->sess[r->slot].too_big, 1, __ATOMIC_RELAXED);
            *status = EVGEN_EMIT_TOO_BIG;
            return NULL;
        }
        if (__atomic_load_n(&st->claimed, __ATOMIC_ACQUIRE)) {
            if (r->wait != WAIT_ANY) {
                *status = drop(r, 1);
                return NULL;
            }
            lower_depth(r);
            while (__atomic_load_n(&st->claimed, __ATOMIC_ACQUIRE) &&
                   __atomic_load_n(&evgen_rt.slots[r->slot], __ATOMIC_ACQUIRE) == s)
                sched_yield();
            raise_depth(r);
            continue;
        }
        if (__atomic_load_n(&s->error, __ATOMIC_RELAXED)) { /* a dead sink: the session records nothing */
            *status = drop(r, 1);
            return NULL;
        }
        if (rs->buf && (size_t)(st->end - st->pos) >= (size_t)r->payload + EVGEN_MAX_RECORD_HEADER)
            return st;
        if (rs->buf && r->wait == WAIT_ANY && evgen_rt_may_write_own(s, rs) && evgen_rt_placing_begin(s)) {
            rt_buffer *own = evgen_rt_write_own(s, t, r->level);
            evgen_rt_placing_end(s);
            if (own) {
                take_buffer(t, r->slot, r->level, own);
                return st;
            }
            continue; /* the sink failed: the session records nothing more */
        }
        if (rs->buf)
            evgen_rt_handoff(s, t, r->level);
        /* buffer_size >= max_payload + EVGEN_MAX_RECORD_HEADER: a fresh buffer always has room. */
        rt_buffer *b = evgen_rt_pool_take(s);
        if (b) {
            take_buffer(t, r->slot, r->level, b);
            return st;
        }
        if (s->opt.when_full == EVGEN_WHEN_FULL_DROP || r->wait == WAIT_NEVER ||
            (r->wait == WAIT_WRITER && __atomic_load_n(&s->n_inflight, __ATOMIC_ACQUIRE) == 0)) {
            *status = drop(r, 1);
            return NULL;
        }
        if (r->wait == WAIT_WRITER) {
            uint32_t gen = __atomic_load_n(&evgen_rt.pool_gen, __ATOMIC_ACQUIRE);
            __atomic_fetch_add(&s->waiters, 1, __ATOMIC_ACQ_REL);
            evgen_rt_writer_nudge(s);
            if (__atomic_load_n(&s->n_free, __ATOMIC_ACQUIRE) == 0)
                evgen_rt_futex_wait(&evgen_rt.pool_gen, gen, 100);
            __atomic_fetch_sub(&s->waiters, 1, __ATOMIC_ACQ_REL);
        } else {
            wait_for_buffer(r, s);
        }
    }
}

uint8_t *evgen_put_record_header_typed(uint8_t *p, uint32_t type, int64_t delta, int variable, uint32_t payload)
{
    return evgen_wire_put_record_header(p, 0, type, delta, variable, payload);
}

static uint8_t *record_header(const reservation *r, evgen_stream *st, uint64_t ts)
{
    return evgen_put_record_header(st->pos, st, r->manifest->type_base + r->type, r->variable, r->payload, ts);
}

uint8_t *evgen_emit_begin_slow(evgen_emit *em, const evgen_manifest_desc *manifest, uint32_t type, int variable,
                               uint32_t payload, const uint8_t *enabled)
{
    em->thread = NULL;
    em->status = EVGEN_EMIT_DISABLED;
    uint32_t sessions = __atomic_load_n(enabled, __ATOMIC_RELAXED);
    /* The writer's own events (from a callback) are not recorded: it would wait for itself. */
    if (!sessions || evgen_rt_in_writer())
        return NULL;
    int saved_errno = errno;
    rt_thread *t = (rt_thread *)evgen_thread_self;
    static __thread int making_state; /* a signal handler's emit interrupting evgen_rt_thread_new */
    if (!t) {
        if (!making_state) {
            making_state = 1;
            __atomic_signal_fence(__ATOMIC_SEQ_CST);
            /* A handler that interrupted this emit before making_state was set may have made the
             * state meanwhile (and emitted with it): use it rather than make a second one. */
            t = (rt_thread *)evgen_thread_self;
            if (!t)
                t = evgen_rt_thread_new();
            __atomic_signal_fence(__ATOMIC_SEQ_CST);
            making_state = 0;
        }
        if (!t) {
            for (uint32_t m = sessions & ((1u << EVGEN_MAX_SESSIONS) - 1); m; m &= m - 1)
                if (__atomic_load_n(&evgen_rt.slots[__builtin_ctz(m)], __ATOMIC_ACQUIRE))
                    __atomic_fetch_add(&evgen_rt.unattributed[__builtin_ctz(m)], 1, __ATOMIC_RELAXED);
            em->status = EVGEN_EMIT_DROPPED;
            errno = saved_errno;
            return NULL;
        }
    }
    uint32_t depth = __atomic_load_n(&t->pub.depth, __ATOMIC_RELAXED);
    reservation r = {enabled, t, 0, depth, depth == 0 && !t->pub.no_wait ? WAIT_ANY : WAIT_NEVER, manifest, type,
                     payload, variable};
    if (depth >= EVGEN_MAX_NESTING) {
        /* Depth > 0: a closing session waits for this thread, so S stays valid here. */
        for (uint32_t m = sessions & ((1u << EVGEN_MAX_SESSIONS) - 1); m; m &= m - 1) {
            r.slot = (unsigned)__builtin_ctz(m);
            evgen_session *s = __atomic_load_n(&evgen_rt.slots[r.slot], __ATOMIC_ACQUIRE);
            if (s && __atomic_load_n(&t->sess[r.slot].epoch, __ATOMIC_RELAXED) == s->epoch)
                drop(&r, 0);
        }
        em->status = EVGEN_EMIT_DROPPED;
        errno = saved_errno;
        return NULL;
    }
    raise_depth(&r);
    /* Read again with depth raised (runtime_emit.h says why). */
    sessions = __atomic_load_n(enabled, __ATOMIC_RELAXED);
    /* The first session that takes the record gets it here; the others get copies at commit. */
    uint32_t status = EVGEN_EMIT_DISABLED;
    for (uint32_t m = sessions & ((1u << EVGEN_MAX_SESSIONS) - 1); m; m &= m - 1) {
        r.slot = (unsigned)__builtin_ctz(m);
        uint32_t why;
        evgen_stream *st = reserve(&r, &why);
        if (!st) {
            if (status == EVGEN_EMIT_DISABLED)
                status = why;
            continue;
        }
        uint64_t ts = evgen_now(&t->pub, depth, st);
        uint8_t *p = record_header(&r, st, ts);
        em->thread = &t->pub;
        em->stream = st;
        em->depth = depth;
        em->status = EVGEN_EMIT_OK;
        em->more = m & (m - 1);
        em->type = type;
        em->ts = ts;
        em->manifest = manifest;
        em->payload = p;
        em->variable = variable;
        em->enabled = enabled;
        errno = saved_errno;
        return p;
    }
    lower_depth(&r);
    em->status = status;
    errno = saved_errno;
    return NULL;
}

void evgen_emit_copy(evgen_emit *em, const uint8_t *end)
{
    int saved_errno = errno;
    rt_thread *t = (rt_thread *)em->thread;
    uint32_t payload = (uint32_t)(end - em->payload);
    reservation r = {em->enabled, t, 0, em->depth, em->depth == 0 && !t->pub.no_wait ? WAIT_WRITER : WAIT_NEVER,
                     em->manifest, em->type, payload, em->variable};
    for (uint32_t m = em->more; m; m &= m - 1) {
        r.slot = (unsigned)__builtin_ctz(m);
        uint32_t why;
        evgen_stream *st = reserve(&r, &why);
        if (!st)
            continue;
        /* The first session's timestamp, unless this one counts in other units (raw TSC ticks
         * against nanoseconds): then its own clock's. */
        int same_units = (st->clock == EVGEN_STREAM_CLOCK_TSC) == (em->stream->clock == EVGEN_STREAM_CLOCK_TSC);
        uint8_t *p = record_header(&r, st, same_units ? em->ts : evgen_now(&t->pub, em->depth, st));
        memcpy(p, em->payload, payload);
        st->pos = p + payload;
        st->written++;
    }
    em->more = 0;
    errno = saved_errno;
}
