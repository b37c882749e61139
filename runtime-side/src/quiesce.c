/* quiesce.c — taking buffers away from threads that may be emitting (flush, close, and a WAIT
 * thread that finds every buffer idle in other threads), without a lock on the fast path.
 *
 * The protocol, all of it under the runtime lock:
 *   1. for every attached thread holding a buffer: claimed = 1;
 *   2. one process-wide barrier (barrier.c: membarrier(2));
 *   3. for each of them: wait while busy == 1 (acquire), then take the partial buffer and give
 *      the thread a fresh state (no buffer), then claimed = 0 (release).
 *
 * Why it is enough. The emitter (runtime_emit.h) does: busy = 1; compiler barrier; load claimed.
 * The flusher does: claimed = 1; barrier; load busy. Stores followed by loads of the other
 * variable on two threads is the store-buffering pattern, which needs a full fence on both
 * sides; membarrier supplies the emitter's fence on the flusher's behalf: when it returns, every
 * thread of the process has executed a full memory barrier (or been switched out, which implies
 * one) at some point P of its instruction stream after the flusher's claimed = 1 was globally
 * visible. For an emit of thread T:
 *   - if T's load of claimed is after P, it reads 1, and T takes the slow path, which blocks on
 *     the runtime lock until the flusher is done; it never touches pos or the buffer meanwhile;
 *   - if the load is before P, T's busy = 1 store precedes P in program order, so it is visible
 *     to the flusher after the barrier: the flusher sees busy == 1 (or the 0 of that emit's
 *     commit, or of a later emit, which takes the slow path), and waits for busy == 0. The
 *     commit stores pos and then busy = 0 with release; the flusher's acquire load of 0 makes
 *     the record bytes and pos visible before it reads them.
 * A thread's emits before P committed before P, so their pos is visible too. Once the flusher
 * stores claimed = 0 with release, T's next acquire load of claimed sees the fresh state (no
 * buffer, pos == end == NULL), which sends it to the slow path for a new buffer.
 * A thread in the slow path holds or waits for the lock, so it is never in the middle of a
 * claim; the slow path sets busy = 1 before it releases the lock. */
#include <sched.h>

#include "internal.h"

/* Under the lock; T is quiescent (its own slow path, its exit, or claimed and not busy). */
void evgen_rt_handoff(evgen_session *s, rt_thread *t)
{
    rt_buffer *b = t->buf;
    if (!b)
        return;
    uint64_t records = t->pub.written - t->block_first;
    b->size = (uint32_t)(t->pub.pos - (b->data + EVGEN_RT_BLOCK_HEADER_SIZE));
    t->buf = NULL;
    t->pub.pos = t->pub.end = NULL;
    if (records == 0) {
        evgen_rt_pool_put(s, b);
        return;
    }
    b->type = EVGEN_RT_BLOCK_EVENTS;
    b->thread_id = t->tid;
    b->sequence = t->sequence++;
    b->event_count = (uint32_t)records;
    /* The end block carries the exact total; a block header holds at most 2^32 - 1. */
    b->dropped = t->dropped_since_block > UINT32_MAX ? UINT32_MAX : (uint32_t)t->dropped_since_block;
    t->dropped_since_block -= b->dropped;
    evgen_rt_enqueue(s, b);
}

void evgen_rt_quiesce(evgen_session *s, const rt_thread *except)
{
    int any = 0;
    for (rt_thread *t = s->threads; t; t = t->next)
        if (t != except && t->buf) {
            __atomic_store_n(&t->pub.claimed, 1, __ATOMIC_RELAXED);
            any = 1;
        }
    if (!any)
        return;
    evgen_rt_barrier();
    for (rt_thread *t = s->threads; t; t = t->next) {
        if (t == except || !t->buf)
            continue;
        while (__atomic_load_n(&t->pub.busy, __ATOMIC_ACQUIRE))
            sched_yield();
        evgen_rt_handoff(s, t);
        __atomic_store_n(&t->pub.claimed, 0, __ATOMIC_RELEASE);
    }
}
