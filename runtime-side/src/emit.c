/* emit.c — evgen_emit_begin_slow: everything the inline fast path leaves out (first emit on a
 * thread, a full or claimed buffer, no session, a payload too big, no free buffer). */
#include "internal.h"

static void take_buffer(rt_thread *t, rt_buffer *b)
{
    t->buf = b;
    b->base_ticks = t->pub.last_ts; /* the block's first delta is relative to it */
    t->block_first = t->pub.written;
    t->pub.pos = b->data + EVGEN_RT_BLOCK_HEADER_SIZE;
    t->pub.end = t->pub.pos + b->capacity;
}

/* Under the lock. Returns 0 with T holding a buffer, or the status to return. */
static uint32_t get_buffer(evgen_session *s, rt_thread *t, const evgen_manifest_desc *m, uint32_t type)
{
    for (;;) {
        rt_buffer *b = evgen_rt_pool_take(s);
        if (b) {
            take_buffer(t, b);
            return EVGEN_EMIT_OK;
        }
        if (s->opt.when_full == EVGEN_WHEN_FULL_DROP) {
            s->totals[t->slot].dropped++;
            t->dropped_since_block++;
            return EVGEN_EMIT_DROPPED;
        }
        /* Nothing on its way back from the writer: every buffer sits, partly filled, in other
         * threads, which may be idle for good. Take them (they are written), or wait forever. */
        if (s->n_inflight == 0)
            evgen_rt_quiesce(s, t);
        if (s->n_free == 0) {
            evgen_rt.n_waiters++;
            evgen_rt_wait(&evgen_rt.buffer_cv);
            evgen_rt.n_waiters--;
        }
        /* The session may have closed meanwhile (which detached T), or the event been disabled. */
        if (t->session == NULL || evgen_rt.session != s || !evgen_rt_type_enabled(m, type))
            return EVGEN_EMIT_DISABLED;
    }
}

uint8_t *evgen_emit_begin_slow(evgen_emit *em, const evgen_manifest_desc *manifest, uint32_t type, int variable,
                               uint32_t payload)
{
    em->thread = NULL;
    em->status = EVGEN_EMIT_DISABLED;
    /* The writer thread frees the buffers; were it to wait for one, it would wait forever. */
    if (evgen_rt_in_writer())
        return NULL;
    pthread_mutex_lock(&evgen_rt.lock);
    evgen_session *s = evgen_rt.session;
    rt_thread *t;
    if (!s || !evgen_rt_type_enabled(manifest, type) || !(t = evgen_rt_thread_attach(s)))
        goto out;
    if (payload > s->opt.max_payload) {
        s->totals[t->slot].too_big++;
        em->status = EVGEN_EMIT_TOO_BIG;
        goto out;
    }
    /* buffer_size >= max_payload + EVGEN_MAX_RECORD_HEADER: a fresh buffer always has room. */
    if (t->buf && (size_t)(t->pub.end - t->pub.pos) < (size_t)payload + EVGEN_MAX_RECORD_HEADER)
        evgen_rt_handoff(s, t);
    if (!t->buf && (em->status = get_buffer(s, t, manifest, type)) != EVGEN_EMIT_OK)
        goto out;

    /* The record header, exactly as the fast path writes it. */
    uint64_t ts = evgen_now(&t->pub);
    int64_t delta = (int64_t)(ts - t->pub.last_ts);
    uint8_t *p = evgen_put_varint(t->pub.pos, (uint64_t)manifest->type_base + type);
    p = evgen_put_varint(p, ((uint64_t)delta << 1) ^ (uint64_t)(delta >> 63));
    if (variable)
        p = evgen_put_varint(p, payload);
    t->pub.last_ts = ts;
    /* Busy before the lock is released: a flusher (who takes the lock) then waits for the commit. */
    __atomic_store_n(&t->pub.busy, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&evgen_rt.lock);
    em->thread = &t->pub;
    em->status = EVGEN_EMIT_OK;
    return p;
out:
    pthread_mutex_unlock(&evgen_rt.lock);
    return NULL;
}
