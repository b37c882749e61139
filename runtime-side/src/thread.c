/* thread.c — emitting threads: evgen_thread_self, attaching a thread to the session on its first
 * emit, and handing its partial buffer to the writer when it exits. */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

__thread evgen_thread *evgen_thread_self;

static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;
static int exit_key_ok;

/* A thread that exits gives its buffer to the writer, so nothing it emitted is lost, and leaves
 * its totals in the session. */
static void thread_exit(void *arg)
{
    rt_thread *t = arg;
    pthread_mutex_lock(&evgen_rt.lock);
    if (t->session)
        evgen_rt_thread_detach(t->session, t);
    pthread_mutex_unlock(&evgen_rt.lock);
    evgen_thread_self = NULL;
    free(t);
}

static void make_exit_key(void)
{
    exit_key_ok = pthread_key_create(&exit_key, thread_exit) == 0;
}

static int add_totals(evgen_session *s, uint64_t tid)
{
    if (s->n_totals == s->cap_totals) {
        size_t cap = s->cap_totals ? 2 * s->cap_totals : 16;
        evgen_thread_totals *totals = realloc(s->totals, cap * sizeof *totals);
        if (!totals)
            return -1;
        s->totals = totals;
        s->cap_totals = cap;
    }
    s->totals[s->n_totals] = (evgen_thread_totals){tid, 0, 0, 0};
    return 0;
}

/* Under the lock, on the calling thread. Returns NULL only if memory runs out. */
rt_thread *evgen_rt_thread_attach(evgen_session *s)
{
    rt_thread *t = (rt_thread *)evgen_thread_self;
    if (!t) {
        pthread_once(&exit_key_once, make_exit_key);
        if (!exit_key_ok || !(t = calloc(1, sizeof *t)))
            return NULL;
        if (pthread_setspecific(exit_key, t) != 0) {
            free(t);
            return NULL;
        }
        t->tid = (uint64_t)syscall(SYS_gettid);
        evgen_thread_self = &t->pub;
    }
    if (t->session == s)
        return t;
    /* Not attached: closing a session detaches every thread. */
    if (add_totals(s, t->tid) != 0)
        return NULL;
    t->slot = s->n_totals++;
    t->session = s;
    t->next = s->threads;
    s->threads = t;
    t->buf = NULL;
    t->sequence = 0;
    t->dropped_since_block = 0;
    t->pub.pos = t->pub.end = NULL;
    t->pub.last_ts = s->start_ticks;
    t->pub.written = 0;
    t->pub.max_payload = s->opt.max_payload;
    t->pub.clock_is_tsc = (uint32_t)s->clock_is_tsc;
    return t;
}

/* Under the lock; T is quiescent. Its buffer goes to the writer and its count to the totals. */
void evgen_rt_thread_detach(evgen_session *s, rt_thread *t)
{
    evgen_rt_handoff(s, t);
    s->totals[t->slot].written = t->pub.written;
    for (rt_thread **p = &s->threads; *p; p = &(*p)->next)
        if (*p == t) {
            *p = t->next;
            break;
        }
    t->next = NULL;
    t->session = NULL;
}

/* In a forked child: the session belongs to the parent; the only thread left forgets it. */
void evgen_rt_thread_forget(void)
{
    rt_thread *t = (rt_thread *)evgen_thread_self;
    if (!t)
        return;
    t->tid = (uint64_t)syscall(SYS_gettid);
    t->session = NULL;
    t->next = NULL;
    t->buf = NULL;
    t->pub.pos = t->pub.end = NULL;
    t->pub.busy = 0;
    t->pub.claimed = 0;
}
