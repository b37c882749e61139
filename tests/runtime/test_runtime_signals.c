/* test_runtime_signals.c — emitting from signal handlers, as a sampling profiler does: a timer
 * every 50 µs whose SIGPROF handler fires an event while the thread's loop fires its own, and a
 * second timer whose SIGUSR1 handler interrupts the first handler (two levels of nesting). Each
 * run checks that nothing hangs, every block of the trace is valid, and every event is either in
 * the trace intact (exactly once, with its payload) or was returned as dropped and counted as such.
 *
 * EVGEN_SIGNAL_EVENTS sets the loop's events per run (default 200000; the scenario is
 * 1000000). */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "evgen/runtime.h"
#include "rt_helpers.h"
#include "test_manifest.h"
#include "trace_parse.h"

enum { HANDLER_MAX = 1 << 20 };

/* What each emit returned, indexed by its sequence number: the oracle the trace is checked
 * against. Written by the handlers too (plain stores to preallocated memory are async-signal-safe). */
static uint8_t *loop_status, *prof_status, *usr_status;
static volatile uint32_t prof_count, usr_count;
static volatile int firing;

static void on_sigprof(int sig)
{
    (void)sig;
    if (!firing || prof_count >= HANDLER_MAX)
        return;
    uint32_t k = prof_count++;
    prof_status[k] = (uint8_t)fire_marker(k, 7);
}

static void on_sigusr1(int sig)
{
    (void)sig;
    if (!firing || usr_count >= HANDLER_MAX)
        return;
    uint32_t k = usr_count++;
    usr_status[k] = (uint8_t)fire_tick(1, k);
}

static timer_t start_timer(int signo, long interval_ns)
{
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = signo;
    sev._sigev_un._tid = (pid_t)syscall(SYS_gettid); /* sigev_notify_thread_id, which glibc 2.36 does not name */
    timer_t timer;
    assert_int_equal(timer_create(CLOCK_MONOTONIC, &sev, &timer), 0);
    struct itimerspec its = {{0, interval_ns}, {0, interval_ns}};
    assert_int_equal(timer_settime(timer, 0, &its, NULL), 0);
    return timer;
}

static int flusher_stop; /* atomic */

static void *flusher(void *arg)
{
    evgen_session *s = arg;
    while (!__atomic_load_n(&flusher_stop, __ATOMIC_ACQUIRE)) {
        if (evgen_session_flush(s) != 0)
            return (void *)1;
        usleep(500);
    }
    return NULL;
}

typedef struct run_config {
    evgen_when_full when_full;
    int nested;  /* a second handler interrupts the first */
    int flusher; /* another thread flushes all along */
} run_config;

typedef struct tally {
    uint64_t ok, dropped;
} tally;

static void count(tally *t, const uint8_t *status, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        assert_true(status[i] == EVGEN_EMIT_OK || status[i] == EVGEN_EMIT_DROPPED);
        if (status[i] == EVGEN_EMIT_OK)
            t->ok++;
        else
            t->dropped++;
    }
}

/* Every record of `type` carries its sequence number at `offset`: each OK one exactly once. */
static void check_found(const tp_records *records, uint64_t type, size_t offset, int bytes, const uint8_t *status,
                        uint64_t n, uint64_t ok)
{
    uint8_t *seen = calloc(n ? n : 1, 1);
    uint64_t found = 0;
    for (size_t i = 0; i < records->n; i++) {
        const tp_record *r = &records->items[i];
        if (r->type != type)
            continue;
        uint64_t k = 0;
        memcpy(&k, r->payload + offset, (size_t)bytes);
        assert_true(k < n);
        assert_int_equal(status[k], EVGEN_EMIT_OK);
        assert_false(seen[k]);
        seen[k] = 1;
        found++;
    }
    assert_int_equal(found, ok);
    free(seen);
}

static uint64_t events_per_run(void)
{
    const char *env = getenv("EVGEN_SIGNAL_EVENTS");
    uint64_t n = env ? strtoull(env, NULL, 10) : 0;
    return n ? n : RT_SANITIZED ? 50000 : 200000;
}

static void run_once(const run_config *cfg, unsigned run)
{
    uint64_t n = events_per_run();
    loop_status = calloc(n, 1);
    prof_status = calloc(HANDLER_MAX, 1);
    usr_status = calloc(HANDLER_MAX, 1);
    prof_count = usr_count = 0;
    char *path = rt_path("signals.evtrace");
    /* Small buffers: the slow path (handoffs, waits, claims) runs often, inside handlers too. */
    evgen_session_options o = rt_options(4096, 8, 1024, cfg->when_full);
    evgen_session *s = evgen_session_open_file(path, &o);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);

    pthread_t flush_thread;
    flusher_stop = 0;
    if (cfg->flusher)
        assert_int_equal(pthread_create(&flush_thread, NULL, flusher, s), 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask); /* SIGUSR1 may interrupt the SIGPROF handler */
    sa.sa_flags = SA_RESTART;
    sa.sa_handler = on_sigprof;
    assert_int_equal(sigaction(SIGPROF, &sa, NULL), 0);
    sa.sa_handler = on_sigusr1;
    assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
    alarm(120); /* a hang fails the test instead of the CI job */
    firing = 1;
    timer_t prof = start_timer(SIGPROF, 50000);
    timer_t usr = cfg->nested ? start_timer(SIGUSR1, 37000) : 0;

    const uint64_t v[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    const uint32_t c[3] = {11, 12, 13};
    for (uint64_t k = 0; k < n; k++)
        loop_status[k] = (uint8_t)fire_heapstats_v2(v, c, 9, k, ~k);

    firing = 0;
    timer_delete(prof);
    if (cfg->nested)
        timer_delete(usr);
    if (cfg->flusher) {
        __atomic_store_n(&flusher_stop, 1, __ATOMIC_RELEASE);
        void *rc;
        assert_int_equal(pthread_join(flush_thread, &rc), 0);
        assert_null(rc);
    }
    evgen_session_totals totals;
    assert_int_equal(evgen_session_close(s, &totals, NULL, NULL), 0);
    alarm(0);

    tally all = {0, 0};
    count(&all, loop_status, n);
    uint64_t loop_ok = all.ok;
    tally prof_t = {0, 0}, usr_t = {0, 0};
    count(&prof_t, prof_status, prof_count);
    count(&usr_t, usr_status, usr_count);
    all.ok += prof_t.ok + usr_t.ok;
    all.dropped += prof_t.dropped + usr_t.dropped;
    /* Under WAIT only nested emits drop: the loop never does. */
    if (cfg->when_full == EVGEN_WHEN_FULL_WAIT)
        assert_int_equal(loop_ok, n);
    assert_int_equal(totals.written, all.ok);
    assert_int_equal(totals.dropped, all.dropped);
    assert_int_equal(totals.lost, 0);
    assert_true(prof_count > 0);

    tp_trace t;
    tp_records records = {0};
    int rc;
    uint8_t *data = rt_parse_file(path, &t, &records, &rc);
    if (rc != 0)
        print_error("run %u: %s\n", run, t.error);
    assert_int_equal(rc, 0);
    assert_true(t.has_end);
    assert_int_equal(t.n_records, all.ok);
    assert_int_equal(t.end_written, all.ok);
    assert_int_equal(t.end_dropped, all.dropped);
    uint32_t base = testevents_manifest.type_base;
    check_found(&records, base + 1, 94, 8, loop_status, n, loop_ok);
    check_found(&records, base + 4, 0, 8, prof_status, prof_count, prof_t.ok);
    check_found(&records, base + 3, 4, 8, usr_status, usr_count, usr_t.ok);
    if (cfg->nested)
        assert_true(usr_count > 0);
    print_message("run %u (%s%s%s): loop %llu ok; SIGPROF %u (%llu dropped); SIGUSR1 %u (%llu dropped)\n", run,
                  cfg->when_full == EVGEN_WHEN_FULL_WAIT ? "WAIT" : "DROP", cfg->nested ? ", nested" : "",
                  cfg->flusher ? ", flusher" : "", (unsigned long long)loop_ok, prof_count,
                  (unsigned long long)prof_t.dropped, usr_count, (unsigned long long)usr_t.dropped);
    tp_records_free(&records);
    tp_free(&t);
    free(data);
    evgen_session_totals_free(&totals);
    rt_path_free(path);
    free(loop_status);
    free(prof_status);
    free(usr_status);
}

/* 20 runs: WAIT and DROP, one level and two levels of handlers, with and without a flusher. */
static void test_signals_sigprof(void **state)
{
    (void)state;
    for (unsigned run = 0; run < 20; run++) {
        run_config cfg = {run % 2 ? EVGEN_WHEN_FULL_DROP : EVGEN_WHEN_FULL_WAIT, run >= 10, run % 4 >= 2};
        run_once(&cfg, run);
    }
}

/* A handler that interrupts a thread's very first emit (its state being made) or its first emit
 * in a session (joining it) drops and counts; the thread's later events are recorded. */
static void test_signals_first_emit(void **state)
{
    (void)state;
    for (int i = 0; i < 50; i++) {
        evgen_session *s = evgen_session_open_memory(NULL);
        assert_non_null(s);
        assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
        prof_status = calloc(HANDLER_MAX, 1);
        prof_count = 0;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_sigprof;
        assert_int_equal(sigaction(SIGPROF, &sa, NULL), 0);
        alarm(60);
        firing = 1;
        timer_t prof = start_timer(SIGPROF, 20000);
        uint64_t ok = 0;
        for (uint64_t k = 0; k < 2000; k++)
            ok += fire_tick(2, k) == EVGEN_EMIT_OK;
        firing = 0;
        timer_delete(prof);
        tally handler = {0, 0};
        count(&handler, prof_status, prof_count);
        evgen_session_totals totals;
        assert_int_equal(evgen_session_close(s, &totals, NULL, NULL), 0);
        alarm(0);
        assert_int_equal(totals.written, ok + handler.ok);
        assert_int_equal(totals.dropped, handler.dropped);
        evgen_session_totals_free(&totals);
        free(prof_status);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signals_sigprof),
        cmocka_unit_test(test_signals_first_emit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
