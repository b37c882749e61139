/* sink.c — where framed bytes go: a file (write(2), partial writes retried) or a growing memory
 * buffer; the callback sink decodes instead (sink_callback.c). Runs on the writer thread, except
 * the file header, written at open before the writer starts. */
#include <errno.h>
#include <unistd.h>

#include "internal.h"

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (w == 0)
            return EIO;
        p += w;
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

int evgen_rt_sink_raw(evgen_session *s, const uint8_t *p, size_t n)
{
    int err = 0;
    switch (s->sink) {
    case RT_SINK_FILE:
        if (s->bytes + n > __atomic_load_n(&fail_after, __ATOMIC_ACQUIRE)) {
            err = __atomic_load_n(&fail_errno, __ATOMIC_RELAXED);
            break;
        }
        err = write_all(s->fd, p, n);
        break;
    case RT_SINK_MEMORY:
        evgen_wire_buf_raw(&s->memory, p, n);
        err = s->memory.failed ? ENOMEM : 0;
        break;
    case RT_SINK_CALLBACK:
        break;
    }
    if (!err)
        s->bytes += n;
    return err;
}

int evgen_rt_sink_block(evgen_session *s, rt_buffer *b)
{
    if (s->sink == RT_SINK_CALLBACK) {
        s->bytes += EVGEN_WIRE_BLOCK_HEADER_SIZE + (uint64_t)b->size;
        return evgen_rt_callback_block(s, b);
    }
    return evgen_rt_sink_raw(s, b->data, EVGEN_WIRE_BLOCK_HEADER_SIZE + (size_t)b->size);
}
