/* direct.c — a thread that fills its buffer writes the block itself (file sessions that wait when
 * full, top emits): it checksums the block while the bytes are still in its core's cache, writes it
 * with pwrite(2) at a place reserved in the file (sink.c: padded so that the block ends on a
 * multiple of its span, for the page cache's sake), and refills the same buffer.
 *
 * Why not the writer thread: handing a full buffer to a thread on another core makes that core
 * read every line of it, and the emitter's next writes to those lines, when the buffer comes back,
 * wait for the other core to give them up; on the project's 2-vCPU machine that hand-off cost the
 * emitting thread as much as the rest of its work (bench/emit_bench, docs/performance.md). The
 * writer thread still writes metadata, end blocks, flushed partial buffers, the blocks of nested
 * emits (a signal handler's emit must not sleep in a system call) and every block of a session
 * that drops when full or asked for EVGEN_BLOCK_WRITER_THREAD.
 *
 * Async-signal-safe: pwrite or pwritev, no lock, no allocation. */
#include "internal.h"

rt_buffer *evgen_rt_write_own(evgen_session *s, rt_thread *t, unsigned level)
{
    evgen_stream *st = &t->pub.streams[s->slot][level];
    rt_stream *rs = &t->streams[s->slot][level];
    rt_buffer *b = rs->buf;
    if (evgen_rt_seal_events(s, t, level, b) == 0)
        return b; /* no record: nothing to write, the buffer is empty already */
    if (evgen_rt_sink_write_full(s, b) == 0)
        return b;
    /* The sink failed: the writer counts the block's events as lost, as it does for every block
     * placed after a failure, and returns the buffer to the pool. */
    __atomic_store_n(&rs->buf, NULL, __ATOMIC_RELAXED);
    st->pos = st->end = NULL;
    evgen_rt_enqueue(s, b);
    return NULL;
}
