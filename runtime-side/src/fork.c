/* fork.c — fork(2) and the runtime: the lock is held across fork so the child sees consistent
 * state. The child keeps none of the parent's sessions (their writer threads do not exist there,
 * and their files are the parent's): every event is disabled in the child until it opens a session
 * of its own. The parent's sessions go on untouched. */
#include <unistd.h>

#include "internal.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void prepare(void)
{
    evgen_rt_lock();
}

static void parent(void)
{
    evgen_rt_unlock();
}

static void child(void)
{
    for (unsigned slot = 0; slot < EVGEN_MAX_SESSIONS; slot++) {
        evgen_session *s = evgen_rt.slots[slot];
        evgen_rt.slots[slot] = NULL;
        evgen_rt.unattributed[slot] = 0;
        /* Leaked on purpose: its buffers belong to threads that do not exist here. */
        if (s && s->sink == RT_SINK_FILE) {
            close(s->fd);
            if (s->dio_fd >= 0)
                close(s->dio_fd);
        }
    }
    evgen_rt.slots_taken = 0;
    evgen_rt.pool_gen = 0;
    evgen_rt_apply_all();
    evgen_rt_thread_fork_child();
    evgen_rt_unlock();
}

static void install(void)
{
    pthread_atfork(prepare, parent, child);
}

void evgen_rt_fork_handlers(void)
{
    pthread_once(&once, install);
}
