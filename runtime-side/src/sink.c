/* sink.c — where framed bytes go: a file or a growing memory buffer; the callback sink decodes
 * instead (sink_callback.c). Runs on the writer thread, except the file header (written at open)
 * and the blocks emitting threads write themselves (direct.c).
 *
 * A file's blocks may be written by several threads at once, so each block's place in the file is
 * reserved when the block is handed over (one atomic add), in the order blocks are handed over,
 * and written there with pwrite(2): a stream's blocks are in the file in its order, metadata before
 * the events that use it, and the file has no gap once every write returned.
 *
 * A full block that its own thread writes (direct.c) is padded to end on a multiple of the
 * session's block span (256 KiB by default): the page cache keeps a file written in aligned pieces
 * of 256 KiB in folios of 256 KiB, which a reader maps at a fraction of the cost of 4 KiB pages
 * (docs/performance.md, "The page cache's folios"). */
#define _DEFAULT_SOURCE /* pwritev */
#include <errno.h>
#include <sys/uio.h>
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

/* pwritev(2) of every byte of IOV[0..N) at OFFSET, partial writes and EINTR retried; IOV is
 * consumed. 0 or the errno (async-signal-safe). */
static int write_all_iov(int fd, uint64_t offset, struct iovec *iov, int n)
{
    while (n) {
        ssize_t w = pwritev(fd, iov, n, (off_t)offset);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (w == 0)
            return EIO;
        offset += (uint64_t)w;
        size_t left = (size_t)w;
        for (; n && left >= iov->iov_len; n--, iov++)
            left -= iov->iov_len;
        if (n) {
            iov->iov_base = (uint8_t *)iov->iov_base + left;
            iov->iov_len -= left;
        }
    }
    return 0;
}

uint64_t evgen_rt_sink_reserve(evgen_session *s, size_t n)
{
    if (s->sink != RT_SINK_FILE)
        return 0;
    uint64_t at = __atomic_fetch_add(&s->file_end, (uint64_t)n, __ATOMIC_RELAXED);
    evgen_rt_prealloc(s, at + n);
    return at;
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

/* The span full blocks are aligned to: 48 + buffer_size when that is a power of two of 64 KiB or
 * more (the default's 256 KiB), else none (a buffer size of the caller's that is not one: its
 * blocks lie end to end as before). On the grid, a block's padding is the room its last record
 * left (tens of bytes). Off it (the file's header and metadata, a flush's partial blocks, a block
 * of the writer thread's), each full block takes at most a sixteenth of its span, so that the file
 * is back on the grid within sixteen full blocks, no block grows by more than 6.25%, and each
 * departure from the grid costs at most one span of padding in all. */
void evgen_rt_sink_span(evgen_session *s)
{
    uint64_t span = EVGEN_WIRE_BLOCK_HEADER_SIZE + (uint64_t)s->opt.buffer_size;
    if (span < 65536 || (span & (span - 1)) != 0)
        return; /* (buffer_size <= 1 GiB: a power of two here fits 32 bits) */
    uint64_t pad_max = span / 16;
    s->block_span = (uint32_t)span;
    s->block_pad_max = (uint32_t)(pad_max < EVGEN_WIRE_BLOCK_PADDING_MAX ? pad_max : EVGEN_WIRE_BLOCK_PADDING_MAX);
}

/* The place of N bytes of block whose end the padding (*PADDING zero bytes more) puts on the next
 * multiple of the span, or nearer to it by block_pad_max. One compare-and-swap: several threads
 * may reserve at once (async-signal-safe). */
static uint64_t reserve_spanned(evgen_session *s, size_t n, uint32_t *padding)
{
    uint64_t start = __atomic_load_n(&s->file_end, __ATOMIC_RELAXED), pad;
    do {
        uint64_t past = (start + n) & (s->block_span - 1);
        pad = past ? s->block_span - past : 0;
        if (pad > s->block_pad_max)
            pad = s->block_pad_max;
    } while (!__atomic_compare_exchange_n(&s->file_end, &start, start + n + pad, 1, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED));
    *padding = (uint32_t)pad;
    return start;
}

/* An adaptive session's emitter writes its block and counts how long the write took: the writer
 * sees whether the emitters are busy writing (writer_dio.c). Async-signal-safe. */
static int write_all_iov_timed(evgen_session *s, uint64_t offset, struct iovec iov[3])
{
    uint64_t t0 = evgen_clock_monotonic();
    int err = write_all_iov(s->fd, offset, iov, 3);
    __atomic_fetch_add(&s->own_write_ns, evgen_clock_monotonic() - t0, __ATOMIC_RELAXED);
    return err;
}

/* Zeros for the padding pwritev writes (never written to: .bss, so no bytes in the library). */
static uint8_t zero_padding[EVGEN_WIRE_BLOCK_PADDING_MAX];

/* Frames the full block B and writes it at once, from the calling thread, padded onto the
 * session's span if it has one (evgen_rt_sink_span); 0, or the errno, the failure recorded
 * (async-signal-safe). */
int evgen_rt_sink_write_full(evgen_session *s, rt_buffer *b)
{
    if (!s->block_span)
        return evgen_rt_sink_write_now(s, b);
    evgen_rt_frame(b);
    size_t n = EVGEN_WIRE_BLOCK_HEADER_SIZE + (size_t)b->size;
    uint32_t padding;
    b->offset = reserve_spanned(s, n, &padding);
    evgen_rt_prealloc(s, b->offset + n + padding);
    evgen_wire_pad_block_header(b->data, padding);
    struct iovec iov[3] = {{b->data, EVGEN_WIRE_BLOCK_HEADER_SIZE},
                           {zero_padding, padding},
                           {b->data + EVGEN_WIRE_BLOCK_HEADER_SIZE, b->size}};
    int err = evgen_rt_sink_injected(b->offset, n + padding);
    if (!err && s->adaptive)
        err = write_all_iov_timed(s, b->offset, iov);
    else if (!err)
        err = write_all_iov(s->fd, b->offset, iov, 3);
    if (err)
        evgen_rt_sink_failed(s, b->offset, err);
    else
        __atomic_fetch_add(&s->bytes, (uint64_t)n + padding, __ATOMIC_RELAXED);
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
