/* fork.c — fork(2) and the runtime: the lock is held across fork so the child sees consistent
 * state, and the child drops the parent's session (its writer thread does not exist there), so
 * events in the child are disabled until the child opens a session of its own. */
#include <unistd.h>

#include "internal.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void prepare(void)
{
    pthread_mutex_lock(&evgen_rt.lock);
}

static void parent(void)
{
    pthread_mutex_unlock(&evgen_rt.lock);
}

static void child(void)
{
    evgen_session *s = evgen_rt.session;
    if (s) {
        /* Leaked on purpose: its buffers may belong to threads that do not exist here. */
        evgen_rt_disable_all();
        evgen_rt.session = NULL;
        if (s->sink == RT_SINK_FILE)
            close(s->fd);
    }
    evgen_rt.opening = 0;
    evgen_rt.n_waiters = 0;
    evgen_rt_thread_forget();
    pthread_cond_init(&evgen_rt.buffer_cv, NULL);
    pthread_mutex_unlock(&evgen_rt.lock);
}

static void install(void)
{
    pthread_atfork(prepare, parent, child);
}

void evgen_rt_fork_handlers(void)
{
    pthread_once(&once, install);
}
