/* thread_start_bench.c — how long a helper thread takes to start running when the thread that
 * creates it stays busy, as a reader's thread does after it starts the verifier: created with
 * pthread_create, and with evgen_rd_thread_start_beside (reader-side/core/thread_beside.c), which
 * places it on another CPU than its creator's. The creator spins until the new thread has
 * written its first timestamp; ROUNDS rounds, the two ways alternating, each start a few ms after
 * the last. Prints the median and the range in ms, and on which CPU the thread started.
 *   thread_start_bench [ROUNDS]   (default 15) */
#define _GNU_SOURCE /* sched_getcpu */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench_common.h"
#include "core.h"

typedef struct start {
    uint64_t at_ns; /* atomic: when the thread first ran, bench_now_seconds in ns (0: not yet) */
    int cpu;
} start;

static void *note_start(void *arg)
{
    start *s = arg;
    s->cpu = sched_getcpu();
    __atomic_store_n(&s->at_ns, (uint64_t)(bench_now_seconds() * 1e9), __ATOMIC_RELEASE);
    return NULL;
}

/* ms from the creation until the thread ran; *same: it started on the creator's CPU. */
static double one_start(int beside, int *same)
{
    start s = {0, -1};
    pthread_t t;
    int cpu = sched_getcpu();
    double t0 = bench_now_seconds();
    int err = beside ? evgen_rd_thread_start_beside(&t, note_start, &s) : pthread_create(&t, NULL, note_start, &s);
    if (err != 0) {
        fprintf(stderr, "thread_start_bench: cannot start a thread\n");
        exit(1);
    }
    uint64_t at;
    while ((at = __atomic_load_n(&s.at_ns, __ATOMIC_ACQUIRE)) == 0)
        ; /* busy, as the reader's thread is */
    pthread_join(t, NULL);
    *same = s.cpu == cpu;
    return ((double)at * 1e-9 - t0) * 1e3;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 15;
    if (rounds < 1 || rounds > 99) {
        fprintf(stderr, "usage: thread_start_bench [ROUNDS 1..99]\n");
        return 2;
    }
    double ms[2][99];
    int same[2] = {0, 0};
    for (int r = 0; r < rounds; r++)
        for (int beside = 0; beside < 2; beside++) {
            int s;
            ms[beside][r] = one_start(beside, &s);
            same[beside] += s;
            usleep(5000);
        }
    printf("thread_start_bench: a thread's start while its creator spins, %d rounds, %ld CPUs online\n", rounds,
           sysconf(_SC_NPROCESSORS_ONLN));
    const char *names[2] = {"pthread_create", "evgen_rd_thread_start_beside"};
    for (int beside = 0; beside < 2; beside++) {
        double med = bench_median(ms[beside], rounds);
        printf("%-30s median %7.3f ms  (%.3f-%.3f)  started on the creator's CPU %d of %d times\n", names[beside],
               med, ms[beside][0], ms[beside][rounds - 1], same[beside], rounds);
    }
    return 0;
}
