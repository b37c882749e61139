/* session.c — sessions: options, open (file header, metadata, writer), flush, close (end block,
 * totals, the memory sink's bytes). */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

void evgen_session_options_init(evgen_session_options *options)
{
    memset(options, 0, sizeof *options);
    options->size = sizeof *options;
    /* With its 48-byte header a full block is 256 KiB, a power of two the emitting threads align it
     * to in the file (sink.c); the largest record (64 KiB of payload and its header) fits. */
    options->buffer_size = 256 * 1024 - EVGEN_WIRE_BLOCK_HEADER_SIZE;
    options->buffer_count = 64;
    options->max_payload = 65536; /* ETW's limit */
    options->when_full = EVGEN_WHEN_FULL_WAIT;
    options->clock = EVGEN_CLOCK_MONOTONIC_TSC;
    options->block_writer = EVGEN_BLOCK_WRITER_AUTO;
}

/* Fields past the caller's `size` keep their defaults; a size that does not even cover
 * buffer_size means the caller forgot evgen_session_options_init. */
static int resolve_options(const evgen_session_options *in, evgen_session_options *out)
{
    evgen_session_options_init(out);
    if (in) {
        if (in->size < offsetof(evgen_session_options, buffer_size) + sizeof in->buffer_size)
            return -1;
        memcpy(out, in, in->size < sizeof *out ? in->size : sizeof *out);
        out->size = sizeof *out;
    }
    if (out->buffer_size < 4096 || out->buffer_size > (1u << 30) ||
        (uint64_t)out->max_payload + EVGEN_MAX_RECORD_HEADER > out->buffer_size || out->buffer_count == 0 ||
        (out->when_full != EVGEN_WHEN_FULL_WAIT && out->when_full != EVGEN_WHEN_FULL_DROP) ||
        (out->clock != EVGEN_CLOCK_MONOTONIC && out->clock != EVGEN_CLOCK_TSC &&
         out->clock != EVGEN_CLOCK_MONOTONIC_TSC) ||
        (out->block_writer != EVGEN_BLOCK_WRITER_AUTO && out->block_writer != EVGEN_BLOCK_WRITER_THREAD &&
         out->block_writer != EVGEN_BLOCK_WRITER_DIRECT_IO && out->block_writer != EVGEN_BLOCK_WRITER_ADAPTIVE &&
         out->block_writer != EVGEN_BLOCK_WRITER_EMITTER))
        return -1;
    uint64_t stride = (uint64_t)out->buffer_size + 2 * EVGEN_RT_DIO_MAX_ALIGN;
    if (stride * out->buffer_count > SIZE_MAX / 2)
        return -1;
    return 0;
}

/* The buffers' bytes in one slab. For O_DIRECT (writer_dio.c, which also provides the memory) each
 * payload starts aligned to EVGEN_RT_DIO_MAX_ALIGN, its header just before it; else each buffer
 * starts on a cache line. */
static int make_pool(evgen_session *s, int payload_aligned)
{
    size_t align = payload_aligned ? EVGEN_RT_DIO_MAX_ALIGN : 64;
    size_t lead = payload_aligned ? EVGEN_RT_DIO_MAX_ALIGN - EVGEN_WIRE_BLOCK_HEADER_SIZE : 0;
    size_t stride = (lead + EVGEN_WIRE_BLOCK_HEADER_SIZE + (size_t)s->opt.buffer_size + align - 1) & ~(align - 1);
    size_t bytes = stride * s->opt.buffer_count;
    s->slab = payload_aligned ? evgen_rt_dio_slab(bytes, &s->slab_mapped) : aligned_alloc(align, bytes);
    s->buffers = calloc(s->opt.buffer_count, sizeof *s->buffers);
    if (!s->slab || !s->buffers)
        return ENOMEM;
    for (uint32_t i = 0; i < s->opt.buffer_count; i++) {
        rt_buffer *b = &s->buffers[i];
        b->data = s->slab + i * stride + lead;
        b->capacity = s->opt.buffer_size;
        b->pooled = 1;
    }
    s->n_free = s->opt.buffer_count;
    return 0;
}

static void file_header(const evgen_session *s, uint64_t start_unix_ns, uint8_t h[EVGEN_WIRE_FILE_HEADER_SIZE])
{
    evgen_wire_file_header fh = {0};
    fh.pointer_size = (uint8_t)sizeof(void *);
    fh.clock_kind = s->stream_clock == EVGEN_STREAM_CLOCK_TSC ? EVGEN_CLOCK_TSC : EVGEN_CLOCK_MONOTONIC;
    fh.clock_frequency = s->frequency;
    fh.start_ticks = s->start_ticks;
    fh.start_unix_ns = start_unix_ns;
    fh.process_id = (uint32_t)getpid();
    evgen_wire_put_file_header(h, &fh);
}

static void destroy(evgen_session *s)
{
    if (s->sink == RT_SINK_FILE && s->fd >= 0)
        close(s->fd);
    evgen_rt_dio_free(s);
    evgen_rt_rules_free(s);
    evgen_wire_buf_free(&s->memory);
    free(s->types);
    free(s->lost);
    free(s->exited);
    free(s->totals);
    free(s->buffers);
    if (s->slab_mapped)
        evgen_rt_dio_slab_free(s->slab, s->slab_mapped);
    else
        free(s->slab);
    free(s);
}

int evgen_rt_session_is_open(const evgen_session *s)
{
    for (unsigned slot = 0; slot < EVGEN_MAX_SESSIONS; slot++)
        if (s && evgen_rt.slots[slot] == s)
            return 1;
    return 0;
}

/* Under the lock: a free slot reserved, or -1. */
static int reserve_slot(void)
{
    for (unsigned slot = 0; slot < EVGEN_MAX_SESSIONS; slot++)
        if (!(evgen_rt.slots_taken & (1u << slot))) {
            evgen_rt.slots_taken |= 1u << slot;
            return (int)slot;
        }
    return -1;
}

static void release_slot(unsigned slot)
{
    evgen_rt_lock();
    evgen_rt.slots_taken &= ~(1u << slot);
    evgen_rt_unlock();
}

/* The writer EVGEN_BLOCK_WRITER_AUTO stands for: the adaptive one for a file session that waits
 * when full (the least CPU while the disk keeps up, the page cache's speed once it does not:
 * docs/performance.md, "Which writer"); the writer thread for the others, whose emitters may not
 * wait for a disk or have none. */
static evgen_block_writer chosen_writer(const evgen_session_options *opt, rt_sink_kind sink)
{
    if (opt->block_writer != EVGEN_BLOCK_WRITER_AUTO)
        return opt->block_writer;
    return sink == RT_SINK_FILE && opt->when_full == EVGEN_WHEN_FULL_WAIT ? EVGEN_BLOCK_WRITER_ADAPTIVE
                                                                          : EVGEN_BLOCK_WRITER_THREAD;
}

static evgen_session *open_session(rt_sink_kind sink, const char *path, evgen_event_callback callback,
                                   void *context, const evgen_session_options *options)
{
    evgen_session_options opt;
    if (resolve_options(options, &opt) != 0 || (sink == RT_SINK_FILE && !path) ||
        (sink == RT_SINK_CALLBACK && !callback)) {
        errno = EINVAL;
        return NULL;
    }
    evgen_rt_fork_handlers();
    evgen_rt_thread_key();
    evgen_rt_lock();
    int slot = reserve_slot();
    evgen_rt_unlock();
    if (slot < 0) {
        errno = EBUSY; /* EVGEN_MAX_SESSIONS are open */
        return NULL;
    }

    int err = 0;
    evgen_session *s = calloc(1, sizeof *s);
    if (!s) {
        err = ENOMEM;
        goto fail;
    }
    s->opt = opt;
    s->slot = (unsigned)slot;
    s->sink = sink;
    s->fd = -1;
    s->dio_fd = -1;
    s->error_offset = UINT64_MAX;
    s->callback = callback;
    s->context = context;
    evgen_rt_queue_init(s);
    if (opt.clock == EVGEN_CLOCK_TSC) {
        if (evgen_rt_tsc_frequency(&s->frequency) != 0) {
            err = EINVAL; /* no invariant TSC on this machine */
            goto fail;
        }
        s->stream_clock = EVGEN_STREAM_CLOCK_TSC;
    } else {
        s->frequency = 1000000000u;
        s->stream_clock = opt.clock == EVGEN_CLOCK_MONOTONIC_TSC && evgen_rt_monotonic_tsc_usable()
                              ? EVGEN_STREAM_CLOCK_MONOTONIC_TSC
                              : EVGEN_STREAM_CLOCK_SYSTEM;
    }
    const evgen_block_writer writer = chosen_writer(&opt, sink);
    int direct_io = sink == RT_SINK_FILE &&
                    (writer == EVGEN_BLOCK_WRITER_DIRECT_IO || writer == EVGEN_BLOCK_WRITER_ADAPTIVE);
    if ((err = make_pool(s, direct_io)) != 0)
        goto fail;
    s->emitters_write = sink == RT_SINK_FILE && opt.when_full == EVGEN_WHEN_FULL_WAIT &&
                        writer == EVGEN_BLOCK_WRITER_EMITTER;
    /* ADAPTIVE: the O_DIRECT writer, until it hands the emitters the writing (writer_dio.c). */
    s->adaptive = direct_io && opt.when_full == EVGEN_WHEN_FULL_WAIT && writer == EVGEN_BLOCK_WRITER_ADAPTIVE;
    if (s->emitters_write || s->adaptive)
        evgen_rt_sink_span(s);
    if (sink == RT_SINK_FILE && (s->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) < 0) {
        err = errno;
        goto fail;
    }
    s->start_ticks = evgen_rt_now(s);
    uint8_t header[EVGEN_WIRE_FILE_HEADER_SIZE];
    file_header(s, evgen_rt_realtime_ns(), header);
    if ((err = evgen_rt_sink_raw(s, evgen_rt_sink_reserve(s, sizeof header), header, sizeof header)) != 0)
        goto fail;
    if (direct_io && (err = evgen_rt_dio_open(s, path, header, sizeof header)) != 0)
        goto fail;
    if (!direct_io)
        evgen_rt_prealloc_open(s);
    if ((err = evgen_rt_writer_start(s)) != 0)
        goto fail;

    evgen_rt_lock();
    evgen_rt_barrier_init();
    s->epoch = ++evgen_rt.last_epoch;
    s->state = RT_OPEN;
    for (evgen_manifest_desc *m = evgen_rt.manifests; m; m = m->next) {
        rt_buffer *b = evgen_rt_metadata_block(m);
        if (!b) {
            s->error = ENOMEM; /* reported by flush and close */
            break;
        }
        evgen_rt_put_metadata(s, b);
    }
    __atomic_store_n(&evgen_rt.slots[slot], s, __ATOMIC_RELEASE);
    __atomic_store_n(&evgen_rt.unattributed[slot], 0, __ATOMIC_RELAXED);
    evgen_rt_unlock();
    return s;

fail:
    if (s)
        destroy(s);
    release_slot((unsigned)slot);
    errno = err;
    return NULL;
}

evgen_session *evgen_session_open_file(const char *path, const evgen_session_options *options)
{
    return open_session(RT_SINK_FILE, path, NULL, NULL, options);
}

evgen_session *evgen_session_open_memory(const evgen_session_options *options)
{
    return open_session(RT_SINK_MEMORY, NULL, NULL, NULL, options);
}

evgen_session *evgen_session_open_callback(evgen_event_callback callback, void *context,
                                           const evgen_session_options *options)
{
    return open_session(RT_SINK_CALLBACK, NULL, callback, context, options);
}

/* Flush and close wait for other threads: from a callback (the writer would wait for itself) or
 * from a signal handler that interrupted an emit of this thread, they would wait forever. */
static int cannot_wait_here(void)
{
    const evgen_thread *t = evgen_thread_self;
    return evgen_rt_in_writer() || (t && __atomic_load_n(&t->depth, __ATOMIC_RELAXED) != 0);
}

int evgen_session_flush(evgen_session *session)
{
    if (!session) {
        errno = EINVAL;
        return -1;
    }
    if (cannot_wait_here()) {
        errno = EDEADLK;
        return -1;
    }
    evgen_rt_lock();
    int err = evgen_rt_session_is_open(session) ? 0 : EINVAL;
    if (!err) {
        evgen_rt_flush_streams(session);
        evgen_rt_wait_written(session);
        err = __atomic_load_n(&session->error, __ATOMIC_ACQUIRE);
    }
    evgen_rt_unlock();
    if (err) {
        errno = err;
        return -1;
    }
    return 0;
}

int evgen_session_error(const evgen_session *session)
{
    return session ? __atomic_load_n(&session->error, __ATOMIC_ACQUIRE) : EINVAL;
}

static int by_serial(const void *a, const void *b)
{
    uint64_t x = ((const rt_totals *)a)->serial, y = ((const rt_totals *)b)->serial;
    return x < y ? -1 : x > y;
}

/* Under the lock, S quiescent: every thread's totals (exited ones and attached ones), in the
 * order of their first emit; the attached threads leave S. */
static int collect_totals(evgen_session *s)
{
    size_t n = s->n_exited;
    for (rt_thread *t = evgen_rt.threads; t; t = t->all_next)
        if (t->in_use && t->sess[s->slot].epoch == s->epoch)
            n++;
    rt_totals *all = malloc((n ? n : 1) * sizeof *all);
    s->totals = malloc((n ? n : 1) * sizeof *s->totals);
    if (!all || !s->totals) {
        free(all);
        return ENOMEM;
    }
    size_t k = 0;
    for (size_t i = 0; i < s->n_exited; i++)
        all[k++] = s->exited[i];
    for (rt_thread *t = evgen_rt.threads; t; t = t->all_next)
        if (t->in_use && t->sess[s->slot].epoch == s->epoch) {
            evgen_rt_thread_totals(s, t, &all[k++]);
            __atomic_store_n(&t->sess[s->slot].epoch, 0, __ATOMIC_RELAXED);
        }
    if (k > 1)
        qsort(all, k, sizeof *all, by_serial);
    for (size_t i = 0; i < k; i++)
        s->totals[i] = all[i].t;
    s->n_totals = k;
    free(all);
    return 0;
}

/* After the writer stopped: `written` counts what reached the sink. */
static int fill_totals(const evgen_session *s, evgen_session_totals *totals)
{
    memset(totals, 0, sizeof *totals);
    evgen_thread_totals *threads = NULL;
    if (s->n_totals && !(threads = malloc(s->n_totals * sizeof *threads)))
        return ENOMEM;
    for (size_t i = 0; i < s->n_totals; i++) {
        evgen_thread_totals t = s->totals[i];
        for (size_t k = 0; k < s->n_lost; k++)
            if (s->lost[k].thread_id == t.thread_id) {
                uint64_t lost = s->lost[k].events < t.written ? s->lost[k].events : t.written;
                t.written -= lost;
                break; /* an id the OS reused: its first entry carries the loss */
            }
        threads[i] = t;
        totals->written += t.written;
        totals->dropped += t.dropped;
        totals->too_big += t.too_big;
    }
    totals->dropped += s->unattributed_at_close;
    totals->lost = s->lost_total;
    totals->bytes = s->bytes;
    totals->threads = threads;
    totals->n_threads = s->n_totals;
    return 0;
}

static void (*before_end_block)(evgen_session *s);

void evgen_rt_before_end_block(void (*hook)(evgen_session *s))
{
    __atomic_store_n(&before_end_block, hook, __ATOMIC_RELEASE);
}

int evgen_session_close(evgen_session *session, evgen_session_totals *totals, uint8_t **memory,
                        size_t *memory_size)
{
    if (totals)
        memset(totals, 0, sizeof *totals);
    if (memory)
        *memory = NULL;
    if (memory_size)
        *memory_size = 0;
    if (!session) {
        errno = EINVAL;
        return -1;
    }
    if (cannot_wait_here()) {
        errno = EDEADLK;
        return -1;
    }
    evgen_session *s = session;
    evgen_rt_lock();
    if (!evgen_rt_session_is_open(s)) {
        evgen_rt_unlock();
        errno = EINVAL;
        return -1;
    }
    /* From here no emit finds the session; close_streams waits for those inside it. */
    __atomic_store_n(&evgen_rt.slots[s->slot], NULL, __ATOMIC_RELEASE);
    __atomic_store_n(&s->state, RT_CLOSING, __ATOMIC_RELEASE);
    evgen_rt_apply_all();
    evgen_rt_close_streams(s);
    int err = collect_totals(s);
    s->unattributed_at_close = __atomic_exchange_n(&evgen_rt.unattributed[s->slot], 0, __ATOMIC_RELAXED);
    void (*hook)(evgen_session *) = __atomic_load_n(&before_end_block, __ATOMIC_ACQUIRE);
    if (hook)
        hook(s);
    rt_buffer *end = err ? NULL : evgen_rt_end_block(s, s->unattributed_at_close);
    if (end)
        evgen_rt_enqueue(s, end);
    else if (!s->error)
        s->error = ENOMEM;
    /* Emits waiting for a buffer of S see it closing; S lives until the last has left. Without the
     * lock: a waiter may be on its way to take it (emit.c), and finds S out of its slot. */
    __atomic_fetch_add(&evgen_rt.pool_gen, 1, __ATOMIC_RELEASE);
    evgen_rt_futex_wake(&evgen_rt.pool_gen);
    evgen_rt_unlock();
    while (__atomic_load_n(&s->waiters, __ATOMIC_ACQUIRE))
        sched_yield();

    evgen_rt_writer_stop(s);
    release_slot(s->slot);

    if (!err)
        err = s->error;
    if (s->sink == RT_SINK_FILE) {
        evgen_rt_prealloc_close(s);
        if (close(s->fd) != 0 && !err)
            err = errno;
        s->fd = -1;
        if (s->dio_fd >= 0 && close(s->dio_fd) != 0 && !err)
            err = errno;
        s->dio_fd = -1;
    }
    if (totals && fill_totals(s, totals) != 0 && !err)
        err = ENOMEM;
    if (s->sink == RT_SINK_MEMORY && memory && !s->memory.failed) {
        *memory = s->memory.data;
        if (memory_size)
            *memory_size = s->memory.len;
        s->memory.data = NULL;
    }
    destroy(s);
    if (err) {
        errno = err;
        return -1;
    }
    return 0;
}

void evgen_session_totals_free(evgen_session_totals *totals)
{
    if (!totals)
        return;
    free((void *)totals->threads);
    totals->threads = NULL;
    totals->n_threads = 0;
}
