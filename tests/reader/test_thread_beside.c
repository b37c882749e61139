/* test_thread_beside.c — evgen_rd_thread_start_beside (reader-side/core/thread_beside.c), which
 * starts the verifier and dump's formatter on another CPU than their creator's: the thread runs its
 * function with its argument and is joined as any thread; it is left free to run on every CPU its
 * creator may use (its placement is a hint, never a pin); and a creator restricted to one CPU gets
 * an ordinary thread, restricted as it is. When the thread starts is the scheduler's (measured by
 * bench/thread_start_bench, not here). */
#define _GNU_SOURCE /* sched_getaffinity, pthread_getaffinity_np, CPU_* */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core.h"

typedef struct probe {
    int go;         /* atomic: set by the test once evgen_rd_thread_start_beside returned */
    int ran;        /* the argument was seen */
    cpu_set_t mask; /* the thread's affinity once `go` was set */
    int mask_read;  /* pthread_getaffinity_np succeeded */
} probe;

static void *probe_main(void *arg)
{
    probe *p = arg;
    p->ran = 1;
    while (!__atomic_load_n(&p->go, __ATOMIC_ACQUIRE))
        sched_yield();
    p->mask_read = pthread_getaffinity_np(pthread_self(), sizeof p->mask, &p->mask) == 0;
    return p;
}

/* Starts a probe, lets it read its affinity, joins it. */
static void run_probe(probe *p)
{
    pthread_t t;
    assert_int_equal(evgen_rd_thread_start_beside(&t, probe_main, p), 0);
    __atomic_store_n(&p->go, 1, __ATOMIC_RELEASE);
    void *result = NULL;
    assert_int_equal(pthread_join(t, &result), 0);
    assert_ptr_equal(result, p);
    assert_int_equal(p->ran, 1);
    assert_int_equal(p->mask_read, 1);
}

static void test_runs_its_function_and_is_left_unpinned(void **state)
{
    (void)state;
    cpu_set_t allowed;
    assert_int_equal(sched_getaffinity(0, sizeof allowed, &allowed), 0);
    for (int i = 0; i < 20; i++) { /* several: the creator's CPU, which the hint avoids, varies */
        probe p = {0};
        run_probe(&p);
        assert_true(CPU_EQUAL(&p.mask, &allowed));
    }
}

static void test_a_creator_on_one_cpu_gets_an_ordinary_thread(void **state)
{
    (void)state;
    cpu_set_t allowed, one;
    assert_int_equal(sched_getaffinity(0, sizeof allowed, &allowed), 0);
    int cpu = sched_getcpu();
    assert_true(cpu >= 0 && CPU_ISSET(cpu, &allowed));
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0);
    probe p = {0};
    run_probe(&p);
    assert_int_equal(sched_setaffinity(0, sizeof allowed, &allowed), 0);
    assert_true(CPU_EQUAL(&p.mask, &one)); /* the creator's restriction, inherited as usual */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_its_function_and_is_left_unpinned),
        cmocka_unit_test(test_a_creator_on_one_cpu_gets_an_ordinary_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
