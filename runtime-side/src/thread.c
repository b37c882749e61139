/* thread.c — emitting threads: their states (made without malloc or locks, since a thread's
 * first emit may be in a signal handler), joining a session, and what a thread leaves behind when
 * it exits or when the process forks. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

__thread evgen_thread *evgen_thread_self EVGEN_TLS_MODEL;

static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;
static int exit_key_ok;

/* A thread that exits gives its buffers to the writer, so nothing it emitted is lost, leaves its
 * totals in each session, and frees its state for the next new thread. */
static void thread_exit(void *arg)
{
    rt_thread *t = arg;
    int saved = errno;
    evgen_rt_lock();
    for (unsigned slot = 0; slot < EVGEN_MAX_SESSIONS; slot++) {
        evgen_session *s = evgen_rt.slots[slot];
        if (!s || t->sess[slot].epoch != s->epoch)
            continue;
        for (unsigned d = 0; d < EVGEN_MAX_NESTING; d++)
            evgen_rt_handoff(s, t, d);
        rt_totals totals;
        evgen_rt_thread_totals(s, t, &totals);
        if (evgen_rt_add_exited(s, &totals) != 0 && !s->error)
            __atomic_store_n(&s->error, ENOMEM, __ATOMIC_RELAXED);
        __atomic_store_n(&t->sess[slot].epoch, 0, __ATOMIC_RELAXED);
    }
    evgen_thread_self = NULL;
    __atomic_store_n(&t->in_use, 0, __ATOMIC_RELEASE);
    evgen_rt_unlock();
    errno = saved;
}

static void make_exit_key(void)
{
    exit_key_ok = pthread_key_create(&exit_key, thread_exit) == 0;
}

/* Called from session open (never from a signal handler): the key exists before any emit. */
void evgen_rt_thread_key(void)
{
    pthread_once(&exit_key_once, make_exit_key);
}

/* A free state, or a new one (mmap: a system call, async-signal-safe unlike malloc). */
static rt_thread *claim_state(void)
{
    for (rt_thread *t = __atomic_load_n(&evgen_rt.threads, __ATOMIC_ACQUIRE); t; t = t->all_next) {
        uint32_t free_state = 0;
        if (!__atomic_load_n(&t->in_use, __ATOMIC_RELAXED) &&
            __atomic_compare_exchange_n(&t->in_use, &free_state, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            return t;
    }
    void *p = mmap(NULL, sizeof(rt_thread), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    rt_thread *t = p; /* zeroed by mmap */
    t->in_use = 1;
    rt_thread *head = __atomic_load_n(&evgen_rt.threads, __ATOMIC_RELAXED);
    do
        t->all_next = head;
    while (!__atomic_compare_exchange_n(&evgen_rt.threads, &head, t, 1, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
    return t;
}

/* The calling thread's first emit. Lock-free; NULL if the key is missing or memory runs out.
 * A state freed by an exited thread has every epoch 0 and no buffer. */
rt_thread *evgen_rt_thread_new(void)
{
    if (!exit_key_ok)
        return NULL;
    rt_thread *t = claim_state();
    if (!t)
        return NULL;
    __atomic_store_n(&t->pub.depth, 0, __ATOMIC_RELAXED);
    t->pub.no_wait = 0;
    t->attaching = 0;
    t->tid = (uint64_t)syscall(SYS_gettid);
    /* glibc stores the first 32 keys' values in the thread descriptor: no allocation, no lock. */
    if (pthread_setspecific(exit_key, t) != 0) {
        __atomic_store_n(&t->in_use, 0, __ATOMIC_RELEASE);
        return NULL;
    }
    evgen_thread_self = &t->pub;
    return t;
}

/* On the thread itself, inside an emit, lock-free: T attaches to S's slot. No flusher looks at
 * T's streams in the slot until the epoch is stored. */
void evgen_rt_thread_join(rt_thread *t, evgen_session *s)
{
    unsigned slot = s->slot;
    for (unsigned d = 0; d < EVGEN_MAX_NESTING; d++) {
        evgen_stream *st = &t->pub.streams[slot][d];
        st->pos = st->end = NULL;
        st->last_ts = s->start_ticks;
        st->last_type = EVGEN_NO_TYPE;
        st->written = 0;
        __atomic_store_n(&st->claimed, 0, __ATOMIC_RELAXED);
        st->max_payload = s->opt.max_payload;
        st->clock = s->stream_clock;
        rt_stream *rs = &t->streams[slot][d];
        rs->buf = NULL;
        rs->block_first = rs->dropped_since_block = 0;
        rs->sequence = 0;
        /* not unplaced: a block of the thread that had this state may still be queued (writer.c) */
    }
    rt_thread_session *ts = &t->sess[slot];
    __atomic_store_n(&ts->dropped, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&ts->too_big, 0, __ATOMIC_RELAXED);
    ts->serial = __atomic_fetch_add(&evgen_rt.next_serial, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&ts->epoch, s->epoch, __ATOMIC_RELEASE);
}

/* Under the lock, T quiescent in S's slot: its counts over every stream. */
void evgen_rt_thread_totals(const evgen_session *s, const rt_thread *t, rt_totals *out)
{
    unsigned slot = s->slot;
    memset(out, 0, sizeof *out);
    out->t.thread_id = t->tid;
    for (unsigned d = 0; d < EVGEN_MAX_NESTING; d++)
        out->t.written += t->pub.streams[slot][d].written;
    out->t.dropped = __atomic_load_n(&t->sess[slot].dropped, __ATOMIC_RELAXED);
    out->t.too_big = __atomic_load_n(&t->sess[slot].too_big, __ATOMIC_RELAXED);
    out->serial = t->sess[slot].serial;
}

/* Under the lock. */
int evgen_rt_add_exited(evgen_session *s, const rt_totals *totals)
{
    if (s->n_exited == s->cap_exited) {
        size_t cap = s->cap_exited ? 2 * s->cap_exited : 16;
        rt_totals *exited = realloc(s->exited, cap * sizeof *exited);
        if (!exited)
            return -1;
        s->exited = exited;
        s->cap_exited = cap;
    }
    s->exited[s->n_exited++] = *totals;
    return 0;
}

/* In a forked child, under the lock: only the calling thread exists; every other state is free,
 * and the caller's forgets the parent's sessions. */
void evgen_rt_thread_fork_child(void)
{
    rt_thread *self = (rt_thread *)evgen_thread_self;
    for (rt_thread *t = evgen_rt.threads; t; t = t->all_next) {
        for (unsigned slot = 0; slot < EVGEN_MAX_SESSIONS; slot++) {
            t->sess[slot].epoch = 0;
            for (unsigned d = 0; d < EVGEN_MAX_NESTING; d++) {
                t->pub.streams[slot][d].pos = t->pub.streams[slot][d].end = NULL;
                t->pub.streams[slot][d].claimed = 0;
                t->streams[slot][d].buf = NULL;
            }
        }
        if (t != self) {
            t->pub.depth = 0;
            t->in_use = 0;
        }
    }
    if (self)
        self->tid = (uint64_t)syscall(SYS_gettid);
}
