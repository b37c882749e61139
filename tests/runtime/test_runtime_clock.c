/* test_runtime_clock.c — EVGEN_CLOCK_MONOTONIC_TSC: CLOCK_MONOTONIC read from the time-stamp counter
 * between anchors (runtime-side/src/clock.c). Each event carries clock_gettime's value just before
 * its emit; its timestamp in the trace must lie between that and the value just after, for
 * events spread over the anchors' ramp (the origin young, spans short) and well past it, on
 * several threads and in a signal handler interrupting emits (a nesting level's own anchor); an
 * anchor made wrong, which the next re-anchoring must catch; and one emit recorded by a ticks
 * session and a nanoseconds one at once. */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include <cmocka.h>

#include "evgen/runtime.h"
#include "rt_helpers.h"
#include "test_manifest.h"
#include "trace_parse.h"

/* libevgen-runtime's test hooks (runtime-side/src/internal.h). */
int evgen_rt_monotonic_tsc_usable(void);
void evgen_rt_monotonic_tsc_forget(void);

enum {
    EVENTS_PER_THREAD = 40000,
    THREADS = 3,
    SPACING_NS = 2500,     /* between a thread's events: 100 ms per thread */
    HANDLER_EVENTS = 4096, /* most the signal handler records */
    TOLERANCE_NS = 2000    /* allowed outside [before, after]: a broken conversion is off by far more */
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The value after each emit, by (thread, sequence) or the handler's count; the value before is in
 * the payload, with the thread (THREADS + k for the handler's k-th event). */
static uint64_t after_main[THREADS][EVENTS_PER_THREAD];
static uint64_t after_handler[HANDLER_EVENTS];
static volatile sig_atomic_t handler_n;

static void handler(int sig)
{
    (void)sig;
    int k = handler_n;
    if (k >= HANDLER_EVENTS)
        return;
    uint64_t before = now_ns();
    if (fire_tick(THREADS + (uint32_t)k, before) == EVGEN_EMIT_OK) {
        after_handler[k] = now_ns();
        handler_n = k + 1;
    }
}

static void *emit_thread(void *arg)
{
    uint32_t id = (uint32_t)(uintptr_t)arg;
    for (uint32_t k = 0; k < EVENTS_PER_THREAD; k++) {
        uint64_t before = now_ns();
        assert_int_equal(fire_tick(id, before), EVGEN_EMIT_OK);
        after_main[id][k] = now_ns();
        while (now_ns() - before < SPACING_NS) {
        }
    }
    return NULL;
}

typedef struct checked {
    size_t n, outside;
    int64_t worst; /* the farthest outside [before, after] (0: none) */
} checked;

static void check_one(checked *c, uint64_t ts, uint64_t before, uint64_t after)
{
    int64_t off = ts < before ? (int64_t)(before - ts) : ts > after ? (int64_t)(ts - after) : 0;
    c->n++;
    if (off > c->worst)
        c->worst = off;
    if (off > TOLERANCE_NS)
        c->outside++;
}

/* Fails unless every timestamp check_one saw lay within TOLERANCE_NS of its [before, after]. */
static void check_passed(const checked *c)
{
    print_message("%zu timestamps, the farthest %lld ns outside clock_gettime's [before, after]\n", c->n,
                  (long long)c->worst);
    if (c->outside)
        fail_msg("%zu of %zu timestamps outside clock_gettime's [before, after] by more than %d ns (worst %lld ns)",
                 c->outside, c->n, TOLERANCE_NS, (long long)c->worst);
}

/* A tick record's fields: fire_tick's thread (here an event's id) and sequence (here the clock
 * before its emit). */
static void tick_fields(const tp_record *r, uint32_t *id, uint64_t *before)
{
    assert_int_equal(r->size, TEST_TICK_SIZE);
    memcpy(id, r->payload, 4);
    memcpy(before, r->payload + 4, 8);
}

static void check_trace(const rt_closed *closed, int with_handler)
{
    assert_int_equal(closed->parsed.clock_kind, EVGEN_CLOCK_MONOTONIC); /* the trace says CLOCK_MONOTONIC */
    assert_int_equal(closed->parsed.clock_frequency, 1000000000u);
    size_t seen[THREADS] = {0};
    size_t handler_seen = 0;
    checked c = {0, 0, 0};
    for (size_t i = 0; i < closed->records.n; i++) {
        const tp_record *r = &closed->records.items[i];
        uint32_t id;
        uint64_t before;
        tick_fields(r, &id, &before);
        if (id >= THREADS) { /* the handler's k-th event (its streams' blocks come in their own order) */
            assert_true(id - THREADS < (uint32_t)handler_n);
            check_one(&c, r->ticks, before, after_handler[id - THREADS]);
            handler_seen++;
            continue;
        }
        assert_true(id < THREADS);
        /* A thread's events are in its order (one stream each, level 0): the k-th is its k-th emit. */
        assert_int_equal(r->stream, 0);
        size_t k = seen[id]++;
        check_one(&c, r->ticks, before, after_main[id][k]);
    }
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(seen[i], EVENTS_PER_THREAD);
    if (with_handler)
        assert_int_equal(handler_seen, (size_t)handler_n);
    check_passed(&c);
}

/* THREADS threads emit EVENTS_PER_THREAD each, the main one interrupted by SIGALRM every 200 us
 * (whose handler emits, at level 1 when it interrupted an emit) when WITH_HANDLER; the others block
 * the signal. *CLOSED receives the trace. */
static void run_session(int with_handler, rt_closed *closed)
{
    evgen_session_options o;
    evgen_session_options_init(&o);
    o.clock = EVGEN_CLOCK_MONOTONIC_TSC;
    o.buffer_size = 1 << 20;
    evgen_session *s = evgen_session_open_memory(&o);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    handler_n = 0;
    if (with_handler) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = handler;
        sigemptyset(&sa.sa_mask);
        assert_int_equal(sigaction(SIGALRM, &sa, NULL), 0);
        struct itimerval every = {{0, 200}, {0, 200}};
        assert_int_equal(setitimer(ITIMER_REAL, &every, NULL), 0);
    }
    sigset_t alarm, old;
    sigemptyset(&alarm);
    sigaddset(&alarm, SIGALRM);
    assert_int_equal(pthread_sigmask(SIG_BLOCK, &alarm, &old), 0); /* the threads inherit it */
    pthread_t tid[THREADS];
    for (int i = 1; i < THREADS; i++)
        assert_int_equal(pthread_create(&tid[i], NULL, emit_thread, (void *)(uintptr_t)i), 0);
    assert_int_equal(pthread_sigmask(SIG_SETMASK, &old, NULL), 0);
    emit_thread((void *)(uintptr_t)0); /* the main thread: the one SIGALRM interrupts (mostly) */
    for (int i = 1; i < THREADS; i++)
        assert_int_equal(pthread_join(tid[i], NULL), 0);
    if (with_handler) {
        struct itimerval off;
        memset(&off, 0, sizeof off);
        assert_int_equal(setitimer(ITIMER_REAL, &off, NULL), 0);
        signal(SIGALRM, SIG_DFL);
    }
    rt_close_and_parse(s, closed);
}

static void test_monotonic_tsc_within_clock_gettime(void **state)
{
    (void)state;
    rt_closed closed;
    run_session(1, &closed);
    check_trace(&closed, 1);
    rt_closed_free(&closed);
    if (evgen_rt_monotonic_tsc_usable()) {
        /* The counter was read: this thread took a level-0 anchor (its span may be 0 again if
         * the last re-anchoring was disturbed, as on a loaded machine: it then waits for the next). */
        assert_non_null(evgen_thread_self);
        assert_true(evgen_thread_self->anchors[0].tsc != 0);
    } else {
        print_message("no TSC clocksource here: EVGEN_CLOCK_MONOTONIC_TSC read clock_gettime\n");
    }
}

/* EVGEN_NO_TSC: the same trace from clock_gettime alone, no anchor taken. */
static void test_monotonic_tsc_refused_by_environment(void **state)
{
    (void)state;
    assert_int_equal(setenv("EVGEN_NO_TSC", "1", 1), 0);
    evgen_rt_monotonic_tsc_forget();
    assert_int_equal(evgen_rt_monotonic_tsc_usable(), 0);
    if (evgen_thread_self)
        memset(evgen_thread_self->anchors, 0, sizeof evgen_thread_self->anchors);
    rt_closed closed;
    run_session(0, &closed);
    check_trace(&closed, 0);
    rt_closed_free(&closed);
    assert_int_equal(evgen_thread_self->anchors[0].tsc, 0);
    assert_int_equal(evgen_thread_self->anchors[0].span, 0);
    assert_int_equal(unsetenv("EVGEN_NO_TSC"), 0);
    evgen_rt_monotonic_tsc_forget();
}

/* An anchor that no longer agrees with clock_gettime (as after a suspend, or a counter that
 * jumped): the next re-anchoring finds its prediction off, starts again from a new origin and
 * gives clock_gettime's value, and the anchors after it are right again. */
static void test_monotonic_tsc_recovers_from_a_wrong_anchor(void **state)
{
    (void)state;
#if defined(__x86_64__)
    evgen_session_options o;
    evgen_session_options_init(&o);
    o.clock = EVGEN_CLOCK_MONOTONIC_TSC;
    evgen_session *s = evgen_session_open_memory(&o);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    if (!evgen_rt_monotonic_tsc_usable()) {
        evgen_session_close(s, NULL, NULL, NULL);
        skip();
    }
    enum { N = 2000 };
    static uint64_t before[N], after[N];
    /* Emit until this thread holds a real anchor. */
    uint64_t start = now_ns();
    while (!evgen_thread_self || evgen_thread_self->anchors[0].span == 0) {
        assert_int_equal(fire_tick(0, now_ns()), EVGEN_EMIT_OK);
        assert_true(now_ns() - start < 1000000000u);
    }
    /* Now 1 ms off: consistent with the counter's rate otherwise, and just expired (its span ends
     * 1 tick before the counter it was anchored at plus the span), so the next emit re-anchors and
     * compares its prediction, within four spans, with clock_gettime's value. */
    evgen_clock_anchor *a = &evgen_thread_self->anchors[0];
    const uint64_t back = 2000000; /* ticks: ~1 ms at 2 GHz */
    uint64_t t0 = __builtin_ia32_rdtsc(), n0 = now_ns();
    a->tsc = t0 - back;
    a->ns = n0 - ((back * a->mult) >> 32) - 1000000;
    a->span = back - 1;
    before[0] = now_ns();
    assert_int_equal(fire_tick(1, before[0]), EVGEN_EMIT_OK);
    after[0] = now_ns();
    assert_int_equal(evgen_thread_self->anchors[0].span, 0); /* started again: no anchor yet */
    for (uint32_t k = 1; k < N; k++) { /* over ~2 ms: the new origin's ramp, then anchors again */
        before[k] = now_ns();
        assert_int_equal(fire_tick(1 + k, before[k]), EVGEN_EMIT_OK);
        after[k] = now_ns();
        while (now_ns() - before[k] < 1000) {
        }
    }
    assert_true(evgen_thread_self->anchors[0].tsc > t0); /* anchored again since (its span may be 0
                                                           * again if the last try was disturbed) */
    rt_closed closed;
    rt_close_and_parse(s, &closed);
    checked c = {0, 0, 0};
    for (size_t i = 0; i < closed.records.n; i++) {
        uint32_t id;
        uint64_t ignored;
        tick_fields(&closed.records.items[i], &id, &ignored);
        if (id >= 1) /* the events from the wrong anchor on */
            check_one(&c, closed.records.items[i].ticks, before[id - 1], after[id - 1]);
    }
    assert_int_equal(c.n, N);
    check_passed(&c);
    rt_closed_free(&closed);
#else
    skip();
#endif
}

/* One emit recorded by two sessions whose clocks count in different units: each trace gets its
 * own clock's timestamp (the copy to the second session does not reuse the first's). */
static void test_sessions_with_different_clocks(void **state)
{
    (void)state;
    evgen_session_options ticks, ns;
    evgen_session_options_init(&ticks);
    evgen_session_options_init(&ns);
    ticks.clock = EVGEN_CLOCK_TSC;
    evgen_session *a = evgen_session_open_memory(&ticks);
    if (!a)
        skip(); /* no invariant TSC here */
    evgen_session *b = evgen_session_open_memory(&ns); /* the default: nanoseconds */
    assert_non_null(b);
    assert_int_equal(evgen_session_enable(a, NULL, 255, ~0ull), 0);
    assert_int_equal(evgen_session_enable(b, NULL, 255, ~0ull), 0);
    enum { N = 1000 };
    static uint64_t after[N];
    for (uint32_t k = 0; k < N; k++) {
        uint64_t before = now_ns();
        assert_int_equal(fire_tick(k, before), EVGEN_EMIT_OK);
        after[k] = now_ns();
    }
    rt_closed ta, tb;
    rt_close_and_parse(a, &ta);
    rt_close_and_parse(b, &tb);
    assert_int_equal(ta.parsed.clock_kind, EVGEN_CLOCK_TSC);
    assert_int_equal(tb.parsed.clock_kind, EVGEN_CLOCK_MONOTONIC);
    assert_int_equal(ta.records.n, N);
    assert_int_equal(tb.records.n, N);
    checked c = {0, 0, 0};
    for (size_t i = 0; i < tb.records.n; i++) {
        uint32_t k;
        uint64_t before;
        tick_fields(&tb.records.items[i], &k, &before);
        assert_true(k < N);
        check_one(&c, tb.records.items[i].ticks, before, after[k]);
    }
    check_passed(&c);
    /* And the ticks session's are ticks: one per event, rising. */
    for (size_t i = 1; i < ta.records.n; i++)
        assert_true(ta.records.items[i].ticks >= ta.records.items[i - 1].ticks);
    rt_closed_free(&ta);
    rt_closed_free(&tb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_monotonic_tsc_within_clock_gettime),
        cmocka_unit_test(test_monotonic_tsc_refused_by_environment),
        cmocka_unit_test(test_monotonic_tsc_recovers_from_a_wrong_anchor),
        cmocka_unit_test(test_sessions_with_different_clocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
