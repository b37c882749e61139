/* session.c — sessions: options, open (file header, metadata, writer), flush, close (end block,
 * totals, the memory sink's bytes). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evgen/crc32c.h"
#include "internal.h"

void evgen_session_options_init(evgen_session_options *options)
{
    memset(options, 0, sizeof *options);
    options->size = sizeof *options;
    options->buffer_size = 66 * 1024; /* the largest record (64 KiB of payload and its header) fits */
    options->buffer_count = 64;
    options->max_payload = 65536; /* ETW's limit */
    options->when_full = EVGEN_WHEN_FULL_WAIT;
    options->clock = EVGEN_CLOCK_MONOTONIC;
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
        (out->clock != EVGEN_CLOCK_MONOTONIC && out->clock != EVGEN_CLOCK_TSC))
        return -1;
    uint64_t stride = ((uint64_t)out->buffer_size + EVGEN_RT_BLOCK_HEADER_SIZE + 63) & ~(uint64_t)63;
    if (stride * out->buffer_count > SIZE_MAX / 2)
        return -1;
    return 0;
}

static int make_pool(evgen_session *s)
{
    size_t stride = ((size_t)s->opt.buffer_size + EVGEN_RT_BLOCK_HEADER_SIZE + 63) & ~(size_t)63;
    s->slab = aligned_alloc(64, stride * s->opt.buffer_count);
    s->buffers = calloc(s->opt.buffer_count, sizeof *s->buffers);
    if (!s->slab || !s->buffers)
        return ENOMEM;
    for (uint32_t i = s->opt.buffer_count; i-- > 0;) {
        rt_buffer *b = &s->buffers[i];
        b->data = s->slab + i * stride;
        b->capacity = s->opt.buffer_size;
        b->pooled = 1;
        b->next = s->free_list;
        s->free_list = b;
    }
    s->n_free = s->opt.buffer_count;
    return 0;
}

static void file_header(const evgen_session *s, uint64_t start_unix_ns, uint8_t h[EVGEN_RT_FILE_HEADER_SIZE])
{
    memcpy(h, "EVTRACE", 8);
    evgen_rt_le16(h + 8, EVGEN_RT_FORMAT_VERSION);
    evgen_rt_le16(h + 10, EVGEN_RT_FILE_HEADER_SIZE);
    h[12] = (uint8_t)sizeof(void *);
    h[13] = (uint8_t)s->opt.clock;
    evgen_rt_le16(h + 14, 0);
    evgen_rt_le64(h + 16, s->frequency);
    evgen_rt_le64(h + 24, s->start_ticks);
    evgen_rt_le64(h + 32, start_unix_ns);
    evgen_rt_le32(h + 40, (uint32_t)getpid());
    evgen_rt_le32(h + 44, evgen_crc32c(0, h, 44));
}

static void destroy(evgen_session *s)
{
    if (s->sink == RT_SINK_FILE && s->fd >= 0)
        close(s->fd);
    pthread_cond_destroy(&s->queue_cv);
    pthread_cond_destroy(&s->done_cv);
    evgen_rt_rules_free(s);
    evgen_rt_bytes_free(&s->memory);
    free(s->types);
    free(s->totals);
    free(s->buffers);
    free(s->slab);
    free(s);
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
    pthread_mutex_lock(&evgen_rt.lock);
    int busy = evgen_rt.session || evgen_rt.opening;
    if (!busy)
        evgen_rt.opening = 1; /* a reservation: the file header and the writer come first */
    pthread_mutex_unlock(&evgen_rt.lock);
    if (busy) {
        errno = EBUSY;
        return NULL;
    }

    int err = 0;
    evgen_session *s = calloc(1, sizeof *s);
    if (!s) {
        err = ENOMEM;
        goto fail;
    }
    s->opt = opt;
    s->sink = sink;
    s->fd = -1;
    s->callback = callback;
    s->context = context;
    pthread_cond_init(&s->queue_cv, NULL);
    pthread_cond_init(&s->done_cv, NULL);
    if (opt.clock == EVGEN_CLOCK_TSC) {
        if (evgen_rt_tsc_frequency(&s->frequency) != 0) {
            err = EINVAL; /* no invariant TSC on this machine */
            goto fail;
        }
        s->clock_is_tsc = 1;
    } else {
        s->frequency = 1000000000u;
    }
    if ((err = make_pool(s)) != 0)
        goto fail;
    if (sink == RT_SINK_FILE && (s->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) < 0) {
        err = errno;
        goto fail;
    }
    s->start_ticks = evgen_rt_now(s);
    uint8_t header[EVGEN_RT_FILE_HEADER_SIZE];
    file_header(s, evgen_rt_realtime_ns(), header);
    if ((err = evgen_rt_sink_raw(s, header, sizeof header)) != 0)
        goto fail;
    if ((err = evgen_rt_writer_start(s)) != 0)
        goto fail;

    pthread_mutex_lock(&evgen_rt.lock);
    evgen_rt_barrier_init();
    for (evgen_manifest_desc *m = evgen_rt.manifests; m; m = m->next) {
        rt_buffer *b = evgen_rt_metadata_block(m);
        if (!b) {
            s->error = ENOMEM; /* reported by flush and close */
            break;
        }
        evgen_rt_enqueue(s, b);
    }
    evgen_rt.session = s;
    evgen_rt.opening = 0;
    pthread_mutex_unlock(&evgen_rt.lock);
    return s;

fail:
    if (s)
        destroy(s);
    pthread_mutex_lock(&evgen_rt.lock);
    evgen_rt.opening = 0;
    pthread_mutex_unlock(&evgen_rt.lock);
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

/* Under the lock: every block queued so far has reached the sink. */
static void wait_written(evgen_session *s)
{
    uint64_t target = s->queued;
    while (s->done < target)
        evgen_rt_wait(&s->done_cv);
}

int evgen_session_flush(evgen_session *session)
{
    if (!session) {
        errno = EINVAL;
        return -1;
    }
    if (evgen_rt_in_writer()) {
        errno = EDEADLK; /* from a callback: the writer would wait for itself */
        return -1;
    }
    pthread_mutex_lock(&evgen_rt.lock);
    int err = evgen_rt.session == session ? 0 : EINVAL;
    if (!err) {
        session->n_flushers++;
        evgen_rt_quiesce(session, NULL);
        wait_written(session);
        err = session->error;
        if (--session->n_flushers == 0)
            pthread_cond_broadcast(&session->done_cv);
    }
    pthread_mutex_unlock(&evgen_rt.lock);
    if (err) {
        errno = err;
        return -1;
    }
    return 0;
}

static int fill_totals(const evgen_session *s, evgen_session_totals *totals)
{
    memset(totals, 0, sizeof *totals);
    for (size_t i = 0; i < s->n_totals; i++) {
        totals->written += s->totals[i].written;
        totals->dropped += s->totals[i].dropped;
        totals->too_big += s->totals[i].too_big;
    }
    totals->bytes = s->bytes;
    if (s->n_totals) {
        evgen_thread_totals *threads = malloc(s->n_totals * sizeof *threads);
        if (!threads)
            return ENOMEM;
        memcpy(threads, s->totals, s->n_totals * sizeof *threads);
        totals->threads = threads;
        totals->n_threads = s->n_totals;
    }
    return 0;
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
    if (evgen_rt_in_writer()) {
        errno = EDEADLK;
        return -1;
    }
    evgen_session *s = session;
    pthread_mutex_lock(&evgen_rt.lock);
    if (evgen_rt.session != s) {
        pthread_mutex_unlock(&evgen_rt.lock);
        errno = EINVAL;
        return -1;
    }
    /* From here no thread attaches or gets a buffer: the slow path finds no session. */
    evgen_rt.session = NULL;
    evgen_rt_disable_all();
    if (evgen_rt.n_waiters)
        pthread_cond_broadcast(&evgen_rt.buffer_cv);
    evgen_rt_quiesce(s, NULL);
    while (s->threads)
        evgen_rt_thread_detach(s, s->threads);
    rt_buffer *end = evgen_rt_end_block(s);
    if (end)
        evgen_rt_enqueue(s, end);
    else if (!s->error)
        s->error = ENOMEM;
    pthread_mutex_unlock(&evgen_rt.lock);

    evgen_rt_writer_stop(s);
    /* A flush on another thread may still be on its way out of wait_written. */
    pthread_mutex_lock(&evgen_rt.lock);
    while (s->n_flushers)
        evgen_rt_wait(&s->done_cv);
    pthread_mutex_unlock(&evgen_rt.lock);

    int err = s->error;
    if (s->sink == RT_SINK_FILE) {
        if (close(s->fd) != 0 && !err)
            err = errno;
        s->fd = -1;
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
