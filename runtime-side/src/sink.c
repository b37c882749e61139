/* sink.c — where framed bytes go: a file or a growing memory buffer; the callback sink decodes
 * instead (sink_callback.c). Runs on the writer thread, except the file header (written at open)
 * and the blocks emitting threads write themselves (direct.c).
 *
 * A file's blocks may be written by several threads at once, so each block's place in the file is
 * reserved when the block is handed over (one atomic add), in the order blocks are handed over,
 * and written there with pwrite(2): a stream's blocks are in the file in its order, metadata before
 * the events that use it, and the file has no gap once every write returned. */
#include <errno.h>
#include <unistd.h>

#include "internal.h"

int evgen_rt_write_all(int fd, uint64_t offset, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t w = pwrite(fd, p, n, (off_t)offset);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (w == 0)
            return EIO;
        p += w;
        offset += (uint64_t)w;
        n -= (size_t)w;
    }
    return 0;
}

/* Test hook (tests/runtime): a file sink fails with `err` once `bytes` of trace are written, as a
 * full disk (ENOSPC) or a dying one (EIO) would; bytes = UINT64_MAX turns it off. */
static uint64_t fail_after = UINT64_MAX;
static int fail_errno;

void evgen_rt_sink_fail_after(uint64_t bytes, int err)
{
    __atomic_store_n(&fail_errno, err, __ATOMIC_RELAXED);
    __atomic_store_n(&fail_after, bytes, __ATOMIC_RELEASE);
}

int evgen_rt_sink_injected(uint64_t offset, size_t n)
{
    return offset + n > __atomic_load_n(&fail_after, __ATOMIC_ACQUIRE) ? __atomic_load_n(&fail_errno, __ATOMIC_RELAXED)
                                                                        : 0;
}

uint64_t evgen_rt_sink_reserve(evgen_session *s, size_t n)
{
    return s->sink == RT_SINK_FILE ? __atomic_fetch_add(&s->file_end, (uint64_t)n, __ATOMIC_RELAXED) : 0;
}

/* Writes N bytes at OFFSET of a file (reserved by evgen_rt_sink_reserve), or at the end of the
 * memory buffer (the writer's only). Async-signal-safe for a file. */
int evgen_rt_sink_raw(evgen_session *s, uint64_t offset, const uint8_t *p, size_t n)
{
    int err = 0;
    switch (s->sink) {
    case RT_SINK_FILE:
        err = evgen_rt_sink_injected(offset, n);
        if (!err)
            err = evgen_rt_write_all(s->fd, offset, p, n);
        break;
    case RT_SINK_MEMORY:
        evgen_wire_buf_raw(&s->memory, p, n);
        err = s->memory.failed ? ENOMEM : 0;
        break;
    case RT_SINK_CALLBACK:
        break;
    }
    if (!err)
        __atomic_fetch_add(&s->bytes, (uint64_t)n, __ATOMIC_RELAXED);
    return err;
}

/* The sink failed with ERR to take the bytes placed at OFFSET: the session keeps its first error,
 * and blocks placed after the earliest failure are discarded (async-signal-safe). */
void evgen_rt_sink_failed(evgen_session *s, uint64_t offset, int err)
{
    int none = 0;
    __atomic_compare_exchange_n(&s->error, &none, err, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    uint64_t seen = __atomic_load_n(&s->error_offset, __ATOMIC_RELAXED);
    while (offset < seen &&
           !__atomic_compare_exchange_n(&s->error_offset, &seen, offset, 1, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        ;
}

/* Frames B and writes it at once, from the calling thread, at the next place in a file; 0, or the
 * errno, the failure recorded (async-signal-safe). */
int evgen_rt_sink_write_now(evgen_session *s, rt_buffer *b)
{
    evgen_rt_frame(b);
    size_t n = EVGEN_WIRE_BLOCK_HEADER_SIZE + (size_t)b->size;
    b->offset = evgen_rt_sink_reserve(s, n);
    int err = evgen_rt_sink_raw(s, b->offset, b->data, n);
    if (err)
        evgen_rt_sink_failed(s, b->offset, err);
    return err;
}

int evgen_rt_sink_block(evgen_session *s, rt_buffer *b)
{
    if (s->sink == RT_SINK_CALLBACK) {
        __atomic_fetch_add(&s->bytes, EVGEN_WIRE_BLOCK_HEADER_SIZE + (uint64_t)b->size, __ATOMIC_RELAXED);
        return evgen_rt_callback_block(s, b);
    }
    return evgen_rt_sink_raw(s, b->offset, b->data, EVGEN_WIRE_BLOCK_HEADER_SIZE + (size_t)b->size);
}
