/* thread_beside.c — starting a helper thread that is meant to run beside its creator at once (the
 * verifier, dump's formatter), not after it.
 *
 * Linux may queue a new thread on its creator's CPU, and while the creator keeps that CPU busy
 * the thread waits for the next scheduler tick to be moved to an idle one: on the project's
 * 2-vCPU VM (kernel 6.18, HZ 250) a thread created by a busy thread first ran 1.5-3.9 ms later
 * (bench/thread_start_bench), 0.07 ms later when the creator slept instead. A reader of a 100-MB
 * trace spent those milliseconds checking blocks alone (docs/performance.md). Created with its
 * affinity set to the CPUs the process may use other than the creator's, the thread starts on one
 * of those (0.07-0.18 ms there); its affinity is then given back the whole mask, so that nothing
 * stays pinned. Where no other CPU is allowed, it is created as usual. */
#define _GNU_SOURCE /* sched_getcpu, pthread_attr_setaffinity_np, pthread_setaffinity_np */
#include <pthread.h>
#include <sched.h>

#include "core.h"

int evgen_rd_thread_start_beside(pthread_t *thread, void *(*start)(void *), void *arg)
{
    cpu_set_t allowed, others;
    int cpu = sched_getcpu();
    int hint = cpu >= 0 && cpu < CPU_SETSIZE && sched_getaffinity(0, sizeof allowed, &allowed) == 0;
    if (hint) {
        others = allowed;
        CPU_CLR(cpu, &others);
        hint = CPU_COUNT(&others) > 0;
    }
    pthread_attr_t attr;
    if (hint && pthread_attr_init(&attr) != 0)
        hint = 0;
    if (hint && pthread_attr_setaffinity_np(&attr, sizeof others, &others) != 0) {
        pthread_attr_destroy(&attr);
        hint = 0;
    }
    int err = pthread_create(thread, hint ? &attr : NULL, start, arg);
    if (hint) {
        pthread_attr_destroy(&attr);
        if (err == 0) /* the thread keeps the CPU it started on until the scheduler moves it */
            pthread_setaffinity_np(*thread, sizeof allowed, &allowed);
    }
    return err;
}
