/* writer.c — the session's writer thread: takes blocks off the queue in order, frames each
 * (header and crc32c, docs/format.md) and gives it to the sink; pooled buffers then go back to
 * the pool. Emitting threads only ever wait here when a WAIT session runs out of buffers. */
#include <signal.h>
#include <stdlib.h>

#include "evgen/crc32c.h"
#include "internal.h"

static __thread int in_writer;

int evgen_rt_in_writer(void)
{
    return in_writer;
}

rt_buffer *evgen_rt_pool_take(evgen_session *s)
{
    rt_buffer *b = s->free_list;
    if (b) {
        s->free_list = b->next;
        s->n_free--;
        b->next = NULL;
    }
    return b;
}

void evgen_rt_pool_put(evgen_session *s, rt_buffer *b)
{
    b->next = s->free_list;
    s->free_list = b;
    s->n_free++;
    if (evgen_rt.n_waiters)
        pthread_cond_broadcast(&evgen_rt.buffer_cv);
}

void evgen_rt_enqueue(evgen_session *s, rt_buffer *b)
{
    b->next = NULL;
    if (s->queue_tail)
        s->queue_tail->next = b;
    else
        s->queue_head = b;
    s->queue_tail = b;
    s->queued++;
    if (b->pooled)
        s->n_inflight++;
    pthread_cond_signal(&s->queue_cv);
}

static void frame(rt_buffer *b)
{
    uint8_t *h = b->data;
    h[0] = 'E', h[1] = 'V', h[2] = 'B', h[3] = 'K';
    h[4] = b->type;
    h[5] = 0;
    evgen_rt_le16(h + 6, EVGEN_RT_BLOCK_HEADER_SIZE);
    evgen_rt_le32(h + 8, b->size);
    evgen_rt_le64(h + 16, b->type == EVGEN_RT_BLOCK_EVENTS ? b->thread_id : 0);
    evgen_rt_le32(h + 24, b->type == EVGEN_RT_BLOCK_EVENTS ? b->sequence : 0);
    evgen_rt_le32(h + 28, b->type == EVGEN_RT_BLOCK_EVENTS ? b->event_count : 0);
    evgen_rt_le32(h + 32, b->type == EVGEN_RT_BLOCK_EVENTS ? b->dropped : 0);
    evgen_rt_le32(h + 36, 0);
    evgen_rt_le64(h + 40, b->type == EVGEN_RT_BLOCK_EVENTS ? b->base_ticks : 0);
    uint32_t crc = evgen_crc32c(0, h + 16, EVGEN_RT_BLOCK_HEADER_SIZE - 16);
    crc = evgen_crc32c(crc, h + EVGEN_RT_BLOCK_HEADER_SIZE, b->size);
    evgen_rt_le32(h + 12, (uint32_t)crc);
}

static void *writer_main(void *arg)
{
    evgen_session *s = arg;
    in_writer = 1;
    pthread_mutex_lock(&evgen_rt.lock);
    for (;;) {
        while (!s->queue_head && !s->stopping)
            pthread_cond_wait(&s->queue_cv, &evgen_rt.lock);
        rt_buffer *b = s->queue_head;
        if (!b)
            break; /* stopping, and everything is written */
        s->queue_head = b->next;
        if (!s->queue_head)
            s->queue_tail = NULL;
        int failed = s->error;
        pthread_mutex_unlock(&evgen_rt.lock);

        /* After a sink error the blocks are discarded, so emitters never wait on a dead sink. */
        int err = 0;
        if (!failed) {
            frame(b);
            err = evgen_rt_sink_block(s, b);
        }

        pthread_mutex_lock(&evgen_rt.lock);
        if (err && !s->error)
            s->error = err;
        s->done++;
        if (b->pooled) {
            s->n_inflight--;
            evgen_rt_pool_put(s, b);
        } else {
            free(b->data);
            free(b);
        }
        pthread_cond_broadcast(&s->done_cv);
    }
    pthread_mutex_unlock(&evgen_rt.lock);
    return NULL;
}

int evgen_rt_writer_start(evgen_session *s)
{
    /* The writer takes none of the application's signals. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int err = pthread_create(&s->writer, NULL, writer_main, s);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return err;
}

/* Writes what is queued, then ends the thread. Called without the lock. */
void evgen_rt_writer_stop(evgen_session *s)
{
    pthread_mutex_lock(&evgen_rt.lock);
    s->stopping = 1;
    pthread_cond_signal(&s->queue_cv);
    pthread_mutex_unlock(&evgen_rt.lock);
    pthread_join(s->writer, NULL);
}
