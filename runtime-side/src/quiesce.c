/* quiesce.c — taking buffers away from threads that may be emitting (flush, close, and a WAIT
 * emit that finds every buffer idle in other threads), without a lock on the emit path.
 *
 * A stream is in use while its thread's depth is above the stream's level (runtime_emit.h raises
 * depth before it touches a stream and lowers it, with release, after the commit). The protocol,
 * under the runtime lock:
 *   1. for every stream to take: claimed = 1;
 *   2. one process-wide barrier (barrier.c: membarrier(2));
 *   3. for each: wait while its thread's depth > its level (acquire), take the partial buffer and
 *      give the stream a fresh state (no buffer), then claimed = 0 (release).
 *
 * Why it is enough. The emitter does: depth = d + 1; compiler barrier; load claimed. The flusher
 * does: claimed = 1; barrier; load depth. Stores followed by loads of the other variable on two
 * threads is the store-buffering pattern, which needs a full fence on both sides; membarrier
 * supplies the emitter's fence on the flusher's behalf: when it returns, every thread of the
 * process has executed a full memory barrier (or been switched out, which implies one) at some
 * point P of its instruction stream after the flusher's claimed = 1 was globally visible. For an
 * emit at level d:
 *   - if its load of claimed is after P, it reads 1 and takes the slow path, which never touches
 *     the stream while it is claimed (it waits with depth lowered, or drops and counts: the one
 *     word it shares with the flusher, the stream's drops since its last block, is atomic);
 *   - if the load is before P, its depth store precedes P, so the flusher sees depth > d (or the
 *     lower value of that emit's commit, or of a later emit, which sees the claim) and waits for
 *     depth <= d. The commit stores pos and then depth with release; the flusher's acquire load
 *     makes the record bytes and pos visible before it reads them.
 * A signal handler's emit that interrupts an emit at level d runs at level d + 1 and returns
 * before the interrupted one continues, so depth only ever returns to d when level d's emit is
 * done. The slow path lowers depth only where the stream's state is whole (emit.c).
 *
 * Close (evgen_rt_close_streams) needs more than flush: no emit may touch the session after it,
 * so it claims every stream of every attached thread, and waits for every thread's depth to reach
 * 0 — after the session left its slot, an emit that starts later cannot find it. */
#include <sched.h>

#include "internal.h"

uint64_t evgen_rt_seal_events(evgen_session *s, rt_thread *t, unsigned level, rt_buffer *b)
{
    evgen_stream *st = &t->pub.streams[s->slot][level];
    rt_stream *rs = &t->streams[s->slot][level];
    uint64_t records = st->written - rs->block_first;
    b->size = (uint32_t)(st->pos - (b->data + EVGEN_WIRE_BLOCK_HEADER_SIZE));
    b->framed = 0;
    if (records == 0)
        return 0;
    b->type = EVGEN_WIRE_BLOCK_EVENTS;
    b->thread_id = t->tid;
    b->stream = (uint8_t)level;
    b->sequence = rs->sequence++;
    b->event_count = (uint32_t)records;
    /* The end block carries the exact total; a block header holds at most 2^32 - 1. */
    /* An emit that finds the stream claimed drops and counts here while we seal (emit.c: drop):
     * atomic, so that a drop counted meanwhile goes to the next block rather than being lost. */
    uint64_t dropped = __atomic_load_n(&rs->dropped_since_block, __ATOMIC_RELAXED);
    b->dropped = dropped > UINT32_MAX ? UINT32_MAX : (uint32_t)dropped;
    __atomic_fetch_sub(&rs->dropped_since_block, b->dropped, __ATOMIC_RELAXED);
    return records;
}

/* T's stream at LEVEL in S is quiescent (its owner's emit, its exit, or claimed and not in use):
 * its buffer, if it holds records, goes to the writer. */
void evgen_rt_handoff(evgen_session *s, rt_thread *t, unsigned level)
{
    evgen_stream *st = &t->pub.streams[s->slot][level];
    rt_stream *rs = &t->streams[s->slot][level];
    rt_buffer *b = rs->buf;
    if (!b)
        return;
    uint64_t records = evgen_rt_seal_events(s, t, level, b);
    __atomic_store_n(&rs->buf, NULL, __ATOMIC_RELAXED);
    st->pos = st->end = NULL;
    if (records == 0) {
        evgen_rt_pool_put(s, b);
        return;
    }
    if (s->dio) { /* checksummed here, in this core's cache: the O_DIRECT writer reads none of it */
        evgen_rt_frame(b);
        b->framed = 1;
    }
    evgen_rt_enqueue_stream(s, b, rs);
}

static int attached(const evgen_session *s, const rt_thread *t)
{
    return __atomic_load_n(&t->in_use, __ATOMIC_ACQUIRE) &&
           __atomic_load_n(&t->sess[s->slot].epoch, __ATOMIC_ACQUIRE) == s->epoch;
}

static void wait_depth(const rt_thread *t, unsigned at_most)
{
    while (__atomic_load_n(&t->pub.depth, __ATOMIC_ACQUIRE) > at_most)
        sched_yield();
}

/* Under the lock: every attached thread's partial buffers in S go to the writer. */
void evgen_rt_flush_streams(evgen_session *s)
{
    unsigned slot = s->slot;
    int any = 0;
    for (rt_thread *t = __atomic_load_n(&evgen_rt.threads, __ATOMIC_ACQUIRE); t; t = t->all_next) {
        if (!attached(s, t))
            continue;
        for (unsigned d = 0; d < EVGEN_MAX_NESTING; d++)
            if (__atomic_load_n(&t->streams[slot][d].buf, __ATOMIC_RELAXED)) {
                __atomic_store_n(&t->pub.streams[slot][d].claimed, 1, __ATOMIC_RELAXED);
                any = 1;
            }
    }
    if (!any)
        return;
    evgen_rt_barrier();
    for (rt_thread *t = __atomic_load_n(&evgen_rt.threads, __ATOMIC_ACQUIRE); t; t = t->all_next)
        for (unsigned d = 0; d < EVGEN_MAX_NESTING; d++) {
            evgen_stream *st = &t->pub.streams[slot][d];
            if (!__atomic_load_n(&st->claimed, __ATOMIC_RELAXED))
                continue;
            wait_depth(t, d);
            evgen_rt_handoff(s, t, d);
            __atomic_store_n(&st->claimed, 0, __ATOMIC_RELEASE);
        }
}

/* Claims every stream of every thread attached to S that is not claimed yet; 1 if any was. */
static int claim_all(evgen_session *s)
{
    int any = 0;
    for (rt_thread *t = __atomic_load_n(&evgen_rt.threads, __ATOMIC_ACQUIRE); t; t = t->all_next) {
        if (!attached(s, t))
            continue;
        for (unsigned d = 0; d < EVGEN_MAX_NESTING; d++) {
            evgen_stream *st = &t->pub.streams[s->slot][d];
            if (!__atomic_load_n(&st->claimed, __ATOMIC_RELAXED)) {
                __atomic_store_n(&st->claimed, 1, __ATOMIC_RELAXED);
                any = 1;
            }
        }
    }
    return any;
}

/* Under the lock, S out of its slot and RT_CLOSING: no emit is inside S when this returns, and
 * every attached thread's buffers went to the writer (their totals are still in the threads). A
 * thread that was joining S during the first round is claimed in the second. */
void evgen_rt_close_streams(evgen_session *s)
{
    claim_all(s);
    do {
        evgen_rt_barrier();
        for (rt_thread *t = __atomic_load_n(&evgen_rt.threads, __ATOMIC_ACQUIRE); t; t = t->all_next)
            if (__atomic_load_n(&t->in_use, __ATOMIC_ACQUIRE) && t != (rt_thread *)evgen_thread_self)
                wait_depth(t, 0);
    } while (claim_all(s));
    for (rt_thread *t = __atomic_load_n(&evgen_rt.threads, __ATOMIC_ACQUIRE); t; t = t->all_next)
        if (attached(s, t))
            for (unsigned d = 0; d < EVGEN_MAX_NESTING; d++) {
                evgen_rt_handoff(s, t, d);
                /* No buffer is left: an emit waiting on the claim goes on and finds no session. */
                __atomic_store_n(&t->pub.streams[s->slot][d].claimed, 0, __ATOMIC_RELEASE);
            }
}
