/* writer.c — the session's buffer pool, its writer queue, and the writer thread that takes blocks
 * off the queue in order, frames each (header and crc32c, docs/format.md) and gives it to the sink.
 *
 * Emitters reach the pool and the queue from any context, signal handlers included, so both are
 * lock-free: the pool is an array of buffers each taken with a compare-and-swap, the queue an
 * intrusive many-producer single-consumer list (one atomic exchange per push), and the writer
 * sleeps on a futex that every push rings. */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "evgen/crc32c.h"
#include "internal.h"

static __thread int in_writer;

int evgen_rt_in_writer(void)
{
    return in_writer;
}

void evgen_rt_futex_wait(uint32_t *word, uint32_t seen, long timeout_ms)
{
    struct timespec ts = {timeout_ms / 1000, (timeout_ms % 1000) * 1000000L};
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, seen, &ts, NULL, 0);
}

void evgen_rt_futex_wake(uint32_t *word)
{
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* ---- the pool ------------------------------------------------------------------------------ */

rt_buffer *evgen_rt_pool_take(evgen_session *s)
{
    if (__atomic_load_n(&s->n_free, __ATOMIC_ACQUIRE) == 0)
        return NULL;
    for (uint32_t i = 0; i < s->opt.buffer_count; i++) {
        rt_buffer *b = &s->buffers[i];
        uint32_t free_buffer = 0;
        if (!__atomic_load_n(&b->taken, __ATOMIC_RELAXED) &&
            __atomic_compare_exchange_n(&b->taken, &free_buffer, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
            __atomic_fetch_sub(&s->n_free, 1, __ATOMIC_RELAXED);
            b->next = NULL;
            return b;
        }
    }
    return NULL;
}

void evgen_rt_pool_put(evgen_session *s, rt_buffer *b)
{
    __atomic_store_n(&b->taken, 0, __ATOMIC_RELEASE);
    __atomic_fetch_add(&s->n_free, 1, __ATOMIC_RELEASE);
    __atomic_fetch_add(&evgen_rt.pool_gen, 1, __ATOMIC_RELEASE);
    if (__atomic_load_n(&s->waiters, __ATOMIC_ACQUIRE))
        evgen_rt_futex_wake(&evgen_rt.pool_gen);
}

/* ---- the queue (D. Vyukov's intrusive MPSC queue) ------------------------------------------ */

void evgen_rt_queue_init(evgen_session *s)
{
    s->stub.next = NULL;
    s->q_head = s->q_tail = &s->stub;
}

static void push(evgen_session *s, rt_buffer *b)
{
    __atomic_store_n(&b->next, NULL, __ATOMIC_RELAXED);
    rt_buffer *prev = __atomic_exchange_n(&s->q_head, b, __ATOMIC_ACQ_REL);
    /* Between the exchange and this store the writer cannot see past prev; a signal handler that
     * interrupts here and pushes too only waits for nothing (nested emits never wait). */
    __atomic_store_n(&prev->next, b, __ATOMIC_RELEASE);
}

/* The writer's: the oldest block, or NULL (empty, or a push half done: the pusher rings after). */
rt_buffer *evgen_rt_queue_pop(evgen_session *s)
{
    rt_buffer *tail = s->q_tail, *next = __atomic_load_n(&tail->next, __ATOMIC_ACQUIRE);
    if (tail == &s->stub) {
        if (!next)
            return NULL;
        s->q_tail = tail = next;
        next = __atomic_load_n(&next->next, __ATOMIC_ACQUIRE);
    }
    if (next) {
        s->q_tail = next;
        return tail;
    }
    if (tail != __atomic_load_n(&s->q_head, __ATOMIC_ACQUIRE))
        return NULL;
    push(s, &s->stub);
    next = __atomic_load_n(&tail->next, __ATOMIC_ACQUIRE);
    if (next) {
        s->q_tail = next;
        return tail;
    }
    return NULL;
}

/* Wakes the writer: a block was queued, or it is asked to write or stop. */
static void ring(evgen_session *s)
{
    __atomic_fetch_add(&s->doorbell, 1, __ATOMIC_RELEASE);
    evgen_rt_futex_wake(&s->doorbell);
}

/* Where B goes: reserved now, or, for the O_DIRECT writer, when it takes B (writer_dio.c). The O_DIRECT
 * writer places blocks itself, their padding depending on the blocks before; once an adaptive
 * session's has handed the writing over, blocks are placed when handed over, as others are, except
 * a stream's whose blocks before still wait unplaced: after them. Returns whether the caller must
 * end a placing (evgen_rt_placing_begin) once B is in the queue: a writer taking the writing back
 * must find B there. */
static int place_on_enqueue(evgen_session *s, rt_buffer *b, rt_stream *rs)
{
    b->unplaced = NULL;
    b->counted = 0;
    if (b->type == RT_BLOCK_FORGET)
        return 0;
    /* Blocks the writer has still to place, queued before a hand-over, come before this one: its
     * stream's, and for the end block everybody's (closing, the session has no emitter left to
     * queue more; a hand-over between the close's last partial blocks and its end block left them
     * placed after the end block). */
    int behind = rs ? __atomic_load_n(&rs->unplaced, __ATOMIC_ACQUIRE) != 0
                    : b->type == EVGEN_WIRE_BLOCK_END && __atomic_load_n(&s->n_unplaced, __ATOMIC_ACQUIRE) != 0;
    if (!s->dio) {
        b->offset = evgen_rt_sink_reserve(s, EVGEN_WIRE_BLOCK_HEADER_SIZE + (size_t)b->size);
        return 0;
    }
    if (!behind && evgen_rt_placing_begin(s)) {
        b->offset = evgen_rt_sink_reserve(s, EVGEN_WIRE_BLOCK_HEADER_SIZE + (size_t)b->size);
        return 1;
    }
    b->offset = RT_UNPLACED;
    b->counted = 1;
    __atomic_fetch_add(&s->n_unplaced, 1, __ATOMIC_RELAXED);
    if (rs) {
        __atomic_fetch_add(&rs->unplaced, 1, __ATOMIC_RELAXED);
        b->unplaced = &rs->unplaced;
    }
    return 0;
}

void evgen_rt_placed(evgen_session *s, rt_buffer *b, int reserve)
{
    if (reserve && b->offset == RT_UNPLACED)
        b->offset = evgen_rt_sink_reserve(s, EVGEN_WIRE_BLOCK_HEADER_SIZE + (size_t)b->size);
    if (b->unplaced) /* release: the stream's next reservation comes after this one */
        __atomic_fetch_sub(b->unplaced, 1, __ATOMIC_RELEASE);
    b->unplaced = NULL;
    if (b->counted) /* release: so does the end block's */
        __atomic_fetch_sub(&s->n_unplaced, 1, __ATOMIC_RELEASE);
    b->counted = 0;
}

void evgen_rt_enqueue(evgen_session *s, rt_buffer *b)
{
    evgen_rt_enqueue_stream(s, b, NULL);
}

void evgen_rt_enqueue_stream(evgen_session *s, rt_buffer *b, rt_stream *rs)
{
    int placing = place_on_enqueue(s, b, rs);
    if (b->pooled)
        __atomic_fetch_add(&s->n_inflight, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&s->queued, 1, __ATOMIC_RELAXED);
    /* Read before the push: once pushed, the writer may write B and give it to another thread. */
    uint64_t size = EVGEN_WIRE_BLOCK_HEADER_SIZE + (uint64_t)b->size;
    push(s, b);
    if (placing)
        evgen_rt_placing_end(s);
    if (s->dio) {
        /* The O_DIRECT writer sleeps until it has enough for a batch: a wake-up per block would
         * cost it (and this thread's system call) more than the block's write. Sequentially
         * consistent against its store of wake_at and load of q_bytes (writer_dio.c). */
        uint64_t bytes = __atomic_add_fetch(&s->q_bytes, size, __ATOMIC_SEQ_CST);
        if (bytes < __atomic_load_n(&s->wake_at, __ATOMIC_SEQ_CST))
            return;
    }
    ring(s);
}

void evgen_rt_writer_nudge(evgen_session *s)
{
    if (s->dio)
        ring(s);
}

/* A metadata block: a file's is written at once by the calling thread, so that it is in the file
 * before any block of the events it defines, which emitting threads may write themselves (a
 * process that dies leaves no event the trace cannot decode); other sinks take it in queue order. */
void evgen_rt_put_metadata(evgen_session *s, rt_buffer *b)
{
    int emitters_write = s->sink == RT_SINK_FILE && (!s->dio || evgen_rt_placing_begin(s));
    if (!emitters_write) {
        /* the O_DIRECT writer alone writes (writer_dio.c), in order */
        evgen_rt_enqueue(s, b);
        /* An adaptive session's writer may hand the writing to the emitters before it writes the
         * block: in the file before this returns, so before any event it defines. */
        if (s->adaptive)
            evgen_rt_wait_written(s);
        return;
    }
    if (!__atomic_load_n(&s->error, __ATOMIC_ACQUIRE))
        evgen_rt_sink_write_now(s, b);
    if (s->dio)
        evgen_rt_placing_end(s);
    free(b->data);
    free(b);
}

/* Every block queued before the call has reached the sink. Not from the writer. */
void evgen_rt_wait_written(evgen_session *s)
{
    uint64_t target = __atomic_load_n(&s->queued, __ATOMIC_ACQUIRE);
    if (s->dio) { /* its writer waits for more blocks before it writes, unless asked */
        __atomic_fetch_add(&s->flush_req, 1, __ATOMIC_RELEASE);
        ring(s);
    }
    for (;;) {
        uint32_t seen = __atomic_load_n(&s->done_word, __ATOMIC_ACQUIRE);
        if (__atomic_load_n(&s->done, __ATOMIC_ACQUIRE) >= target)
            return;
        evgen_rt_futex_wait(&s->done_word, seen, 100);
    }
}

/* ---- the writer ---------------------------------------------------------------------------- */

/* Writes B's block header (docs/format.md), crc32c included, into its first bytes. */
void evgen_rt_frame(rt_buffer *b)
{
    evgen_wire_block_header bh = {0};
    bh.type = b->type;
    bh.payload_size = b->size;
    bh.thread_id = b->thread_id;
    bh.sequence = b->sequence;
    bh.event_count = b->event_count;
    bh.dropped = b->dropped;
    bh.stream = b->stream;
    bh.base_ticks = b->base_ticks;
    evgen_wire_put_block_header(b->data, &bh, b->data + EVGEN_WIRE_BLOCK_HEADER_SIZE);
}

void evgen_rt_count_lost(evgen_session *s, const rt_buffer *b)
{
    if (b->type != EVGEN_WIRE_BLOCK_EVENTS)
        return;
    s->lost_total += b->event_count;
    for (size_t i = 0; i < s->n_lost; i++)
        if (s->lost[i].thread_id == b->thread_id) {
            s->lost[i].events += b->event_count;
            return;
        }
    if (s->n_lost == s->cap_lost) {
        size_t cap = s->cap_lost ? 2 * s->cap_lost : 16;
        rt_lost *lost = realloc(s->lost, cap * sizeof *lost);
        if (!lost)
            return; /* the total stays exact; the per-thread split loses this one */
        s->lost = lost;
        s->cap_lost = cap;
    }
    s->lost[s->n_lost++] = (rt_lost){b->thread_id, b->event_count};
}

static void write_block(evgen_session *s, rt_buffer *b)
{
    int err = 0;
    if (b->type == RT_BLOCK_FORGET) {
        if (s->sink == RT_SINK_CALLBACK)
            evgen_rt_callback_block(s, b);
    } else if (__atomic_load_n(&s->error, __ATOMIC_ACQUIRE) &&
               (s->sink != RT_SINK_FILE || b->offset >= __atomic_load_n(&s->error_offset, __ATOMIC_ACQUIRE))) {
        evgen_rt_placed(s, b, 0);
        evgen_rt_count_lost(s, b); /* after a sink error blocks are discarded: emitters never wait on a dead sink */
    } else {
        evgen_rt_placed(s, b, 1); /* an adaptive session's block the O_DIRECT writer left unplaced */
        if (!b->framed)
            evgen_rt_frame(b);
        err = evgen_rt_sink_block(s, b);
        if (err) {
            evgen_rt_count_lost(s, b);
            evgen_rt_sink_failed(s, b->offset, err);
        }
    }
    evgen_rt_release(s, b);
    evgen_rt_block_done(s);
}

void evgen_rt_release(evgen_session *s, rt_buffer *b)
{
    if (b->pooled) {
        __atomic_fetch_sub(&s->n_inflight, 1, __ATOMIC_RELAXED);
        evgen_rt_pool_put(s, b);
    } else {
        free(b->data);
        free(b);
    }
}

void evgen_rt_block_done(evgen_session *s)
{
    __atomic_fetch_add(&s->done, 1, __ATOMIC_RELEASE);
    __atomic_fetch_add(&s->done_word, 1, __ATOMIC_RELEASE);
    evgen_rt_futex_wake(&s->done_word);
}

/* Blocks taken off the queue and placed, in queue order (writer_main's, after a hand-over). */
typedef struct placed_blocks {
    rt_buffer *head, **tail;
} placed_blocks;

/* After an adaptive session's hand-over: every block queued now is placed at once, and the oldest
 * returned; the others wait, placed, in P. A stream with a block queued unplaced hands its next
 * ones over unplaced too (evgen_rt_may_write_own): placed one write at a time, a stream that fills
 * blocks as fast as this thread writes them would never write its own again. */
static rt_buffer *place_queued(evgen_session *s, placed_blocks *p)
{
    for (rt_buffer *b; (b = evgen_rt_queue_pop(s)) != NULL;) {
        evgen_rt_dio_popped(s, b);
        if (b->type != RT_BLOCK_FORGET && !__atomic_load_n(&s->error, __ATOMIC_ACQUIRE))
            evgen_rt_placed(s, b, 1);
        b->next = NULL;
        *p->tail = b;
        p->tail = &b->next;
    }
    rt_buffer *b = p->head;
    if (b) {
        p->head = b->next;
        if (!p->head)
            p->tail = &p->head;
    }
    return b;
}

/* The next block to write, or NULL. */
static rt_buffer *next_block(evgen_session *s, placed_blocks *p)
{
    return s->dio ? place_queued(s, p) : evgen_rt_queue_pop(s);
}

/* An adaptive session's writer takes the writing back from the emitters: no thread places a block
 * from now on (emitters_write cleared, and none still between its look at it and its block in the
 * file or the queue), every block placed so far is written, and the O_DIRECT writer goes on from
 * the file's end with the blocks queued unplaced meanwhile, in queue order. The queue runs dry: the
 * blocks kept for the O_DIRECT writer are the pool's, and emitters wait for buffers once it has
 * them all. 0 if a thread stayed in its placing for a second (stopped, or gone from a signal
 * handler): the emitters keep the writing. */
static int take_back(evgen_session *s, placed_blocks *p)
{
    __atomic_store_n(&s->emitters_write, 0, __ATOMIC_SEQ_CST);
    for (int ms = 0; __atomic_load_n(&s->placing, __ATOMIC_SEQ_CST) != 0; ms++) {
        if (ms == 1000) {
            __atomic_store_n(&s->emitters_write, 1, __ATOMIC_RELEASE);
            return 0;
        }
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    for (rt_buffer *b; (b = p->head) != NULL;) {
        p->head = b->next;
        write_block(s, b);
    }
    p->tail = &p->head;
    rt_buffer *unplaced = NULL, **last = &unplaced;
    for (rt_buffer *b; (b = evgen_rt_queue_pop(s)) != NULL;) {
        evgen_rt_dio_popped(s, b);
        if (b->type != RT_BLOCK_FORGET && b->offset == RT_UNPLACED) {
            b->next = NULL;
            *last = b;
            last = &b->next;
        } else {
            write_block(s, b);
        }
    }
    evgen_rt_dio_take_back(s, unplaced);
    return 1;
}

static void *writer_main(void *arg)
{
    evgen_session *s = arg;
    in_writer = 1;
    placed_blocks placed = {NULL, &placed.head};
    /* An adaptive session's O_DIRECT writer hands the writing over (it returns 1) and takes it back
     * once the emitters' burst is over; this loop writes what is handed to it meanwhile. */
    if (s->dio && !evgen_rt_dio_writer(s))
        return NULL;
    for (;;) {
        if (s->adaptive && evgen_rt_dio_burst_over(s) && take_back(s, &placed)) {
            if (!evgen_rt_dio_writer(s))
                return NULL;
            continue;
        }
        rt_buffer *b = next_block(s, &placed);
        if (!b) {
            uint32_t bell = __atomic_load_n(&s->doorbell, __ATOMIC_ACQUIRE);
            b = next_block(s, &placed);
            if (!b) {
                if (__atomic_load_n(&s->stopping, __ATOMIC_ACQUIRE) &&
                    __atomic_load_n(&s->done, __ATOMIC_ACQUIRE) >= __atomic_load_n(&s->queued, __ATOMIC_ACQUIRE))
                    break;
                /* an adaptive session's writer looks every window whether the burst is over */
                evgen_rt_futex_wait(&s->doorbell, bell, s->adaptive ? 25 : 100);
                continue;
            }
        }
        write_block(s, b);
    }
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

/* Writes what is queued, then ends the thread. Called without the lock, after the last block. */
void evgen_rt_writer_stop(evgen_session *s)
{
    __atomic_store_n(&s->stopping, 1, __ATOMIC_RELEASE);
    ring(s);
    pthread_join(s->writer, NULL);
}
