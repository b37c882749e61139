/* test_runtime_stress.c — many threads emitting at once while another flushes: under WAIT every
 * event arrives exactly once and in order; under DROP with tiny buffers every discard is
 * counted exactly; a WAIT thread is never stuck behind idle threads' buffers; every process-wide
 * barrier the flush protocol can use keeps those guarantees. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "evgen/runtime.h"
#include "rt_helpers.h"
#include "test_manifest.h"
#include "trace_parse.h"

/* runtime-side/src/barrier.c's test hook: 0 choose, 1 private expedited, 2 global, 3 mprotect. */
int evgen_rt_barrier_force(int mode);

enum { MAX_THREADS = 8 };

typedef struct worker {
    uint32_t index;
    uint64_t count;
    int with_too_big; /* also fire a HeapStats v2 (110 bytes) every 997 events */
    pthread_barrier_t *start;
    int *running;
    uint64_t tid;
    uint64_t ok, dropped, too_big, other;
} worker;

static void count_status(worker *w, uint32_t status)
{
    switch (status) {
    case EVGEN_EMIT_OK: w->ok++; break;
    case EVGEN_EMIT_DROPPED: w->dropped++; break;
    case EVGEN_EMIT_TOO_BIG: w->too_big++; break;
    default: w->other++; break;
    }
}

static void *work(void *arg)
{
    worker *w = arg;
    w->tid = rt_gettid();
    static const uint64_t v[10] = {0};
    static const uint32_t c[3] = {0};
    pthread_barrier_wait(w->start);
    for (uint64_t k = 0; k < w->count; k++) {
        count_status(w, fire_tick(w->index, k));
        if (w->with_too_big && k % 997 == 0)
            count_status(w, fire_heapstats_v2(v, c, 0, 0, 0));
    }
    __atomic_fetch_sub(w->running, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* Runs the workers; the calling thread flushes over and over until they are done. */
static unsigned run_workers(worker *w, unsigned n, evgen_session *s, unsigned max_flushes)
{
    pthread_t th[MAX_THREADS];
    pthread_barrier_t start;
    int running = (int)n;
    pthread_barrier_init(&start, NULL, n + 1);
    for (unsigned i = 0; i < n; i++) {
        w[i].start = &start;
        w[i].running = &running;
        assert_int_equal(pthread_create(&th[i], NULL, work, &w[i]), 0);
    }
    pthread_barrier_wait(&start);
    unsigned flushes = 0;
    while (__atomic_load_n(&running, __ATOMIC_ACQUIRE) > 0 && flushes < max_flushes) {
        assert_int_equal(evgen_session_flush(s), 0);
        flushes++;
    }
    for (unsigned i = 0; i < n; i++)
        pthread_join(th[i], NULL);
    pthread_barrier_destroy(&start);
    return flushes;
}

/* Checks the Tick records of each worker: from its thread, in order, each sequence number once
 * (strict: no gap either). */
typedef struct order {
    const worker *w;
    unsigned n;
    int strict;
    uint64_t next[MAX_THREADS], count[MAX_THREADS], last_ticks[MAX_THREADS];
    char error[200];
} order;

static void check_order(const tp_record *r, void *context)
{
    order *o = context;
    if (o->error[0])
        return;
    if (r->type != testevents_manifest.type_base + 3 || r->size != TEST_TICK_SIZE) {
        snprintf(o->error, sizeof o->error, "unexpected record of type %llu", (unsigned long long)r->type);
        return;
    }
    uint32_t index;
    uint64_t seq;
    memcpy(&index, r->payload, 4);
    memcpy(&seq, r->payload + 4, 8);
    if (index >= o->n || r->thread_id != o->w[index].tid) {
        snprintf(o->error, sizeof o->error, "record of worker %u in a block of thread %llu", index,
                 (unsigned long long)r->thread_id);
        return;
    }
    if (o->strict ? seq != o->next[index] : seq < o->next[index]) {
        snprintf(o->error, sizeof o->error, "worker %u: sequence %llu after %llu", index, (unsigned long long)seq,
                 (unsigned long long)o->next[index]);
        return;
    }
    if (r->ticks < o->last_ticks[index]) {
        snprintf(o->error, sizeof o->error, "worker %u: time went backwards", index);
        return;
    }
    o->next[index] = seq + 1;
    o->last_ticks[index] = r->ticks;
    o->count[index]++;
}

static const evgen_thread_totals *totals_of(const evgen_session_totals *t, uint64_t tid)
{
    for (size_t i = 0; i < t->n_threads; i++)
        if (t->threads[i].thread_id == tid)
            return &t->threads[i];
    return NULL;
}

/* WAIT: nothing lost, nothing duplicated, nothing reordered, with flushes racing the emitters. */
static void run_wait(unsigned n_threads, uint64_t per_thread, uint32_t buffer_size, uint32_t buffer_count,
                     unsigned max_flushes, evgen_block_writer writer)
{
    char *path = rt_path("wait.evtrace");
    evgen_session_options opt = rt_options(buffer_size, buffer_count, 1024, EVGEN_WHEN_FULL_WAIT);
    opt.block_writer = writer;
    evgen_session *s = evgen_session_open_file(path, &opt);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, "Test-Provider", 4, 0x4), 0);
    worker w[MAX_THREADS];
    memset(w, 0, sizeof w);
    for (unsigned i = 0; i < n_threads; i++) {
        w[i].index = i;
        w[i].count = per_thread;
    }
    run_workers(w, n_threads, s, max_flushes);
    evgen_session_totals totals;
    assert_int_equal(evgen_session_close(s, &totals, NULL, NULL), 0);

    assert_int_equal(totals.written, (uint64_t)n_threads * per_thread);
    assert_int_equal(totals.dropped, 0);
    assert_int_equal(totals.too_big, 0);
    for (unsigned i = 0; i < n_threads; i++) {
        assert_int_equal(w[i].ok, per_thread);
        const evgen_thread_totals *tt = totals_of(&totals, w[i].tid);
        assert_non_null(tt);
        assert_int_equal(tt->written, per_thread);
    }

    order o = {.w = w, .n = n_threads, .strict = 1};
    tp_trace t;
    size_t size;
    uint8_t *data = tp_read_file(path, &size);
    assert_non_null(data);
    int rc = tp_parse(data, size, check_order, &o, &t);
    if (rc != 0 || o.error[0])
        fprintf(stderr, "%s%s\n", t.error, o.error);
    assert_int_equal(rc, 0);
    assert_string_equal(o.error, "");
    for (unsigned i = 0; i < n_threads; i++) {
        assert_int_equal(o.count[i], per_thread);
        assert_int_equal(o.next[i], per_thread);
    }
    assert_true(t.has_end);
    assert_int_equal(t.end_written, totals.written);
    assert_int_equal(t.end_dropped, 0);
    assert_int_equal(t.dropped_in_blocks, 0);
    assert_int_equal(totals.bytes, size);
    evgen_session_totals_free(&totals);
    tp_free(&t);
    free(data);
    rt_path_free(path);
}

static void test_runtime_wait_8_threads(void **state)
{
    (void)state;
    run_wait(8, RT_SANITIZED ? 100000 : 1000000, 65536, 64, 100000, EVGEN_BLOCK_WRITER_EMITTER);
}

/* The O_DIRECT writer gathering 8 threads' blocks while flushes take partial ones. */
static void test_runtime_wait_8_threads_direct_io(void **state)
{
    (void)state;
    run_wait(8, RT_SANITIZED ? 50000 : 500000, 65536, 64, 100000, EVGEN_BLOCK_WRITER_DIRECT_IO);
}

/* The adaptive writer: eight threads on one disk wait for it, and the O_DIRECT writer hands the
 * writing over to them mid-run (or not, if the disk keeps up): either way every event, in order. */
static void test_runtime_wait_8_threads_adaptive(void **state)
{
    (void)state;
    run_wait(8, RT_SANITIZED ? 50000 : 500000, 65536, 64, 100000, EVGEN_BLOCK_WRITER_ADAPTIVE);
}

/* DROP: every event written, dropped or refused, and counted where it happened. */
static void run_drop(evgen_block_writer writer)
{
    const unsigned n_threads = 8;
    const uint64_t per_thread = RT_SANITIZED ? 25000 : 250000;
    char *path = rt_path("drop.evtrace");
    evgen_session_options opt = rt_options(4096, 2, 100, EVGEN_WHEN_FULL_DROP);
    opt.block_writer = writer;
    evgen_session *s = evgen_session_open_file(path, &opt);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    worker w[MAX_THREADS];
    memset(w, 0, sizeof w);
    for (unsigned i = 0; i < n_threads; i++) {
        w[i].index = i;
        w[i].count = per_thread;
        w[i].with_too_big = 1;
    }
    run_workers(w, n_threads, s, 1000);
    evgen_session_totals totals;
    assert_int_equal(evgen_session_close(s, &totals, NULL, NULL), 0);

    uint64_t fired = 0, ok = 0;
    for (unsigned i = 0; i < n_threads; i++) {
        uint64_t fired_i = per_thread + (per_thread + 996) / 997;
        assert_int_equal(w[i].other, 0);
        assert_int_equal(w[i].ok + w[i].dropped + w[i].too_big, fired_i);
        assert_int_equal(w[i].too_big, (per_thread + 996) / 997);
        const evgen_thread_totals *tt = totals_of(&totals, w[i].tid);
        assert_non_null(tt);
        assert_int_equal(tt->written, w[i].ok);
        assert_int_equal(tt->dropped, w[i].dropped);
        assert_int_equal(tt->too_big, w[i].too_big);
        fired += fired_i;
        ok += w[i].ok;
    }
    assert_int_equal(totals.written + totals.dropped + totals.too_big, fired);
    assert_int_equal(totals.written, ok);

    order o = {.w = w, .n = n_threads, .strict = 0};
    tp_trace t;
    size_t size;
    uint8_t *data = tp_read_file(path, &size);
    assert_non_null(data);
    int rc = tp_parse(data, size, check_order, &o, &t);
    if (rc != 0 || o.error[0])
        fprintf(stderr, "%s%s\n", t.error, o.error);
    assert_int_equal(rc, 0);
    assert_string_equal(o.error, "");
    assert_int_equal(t.n_records, totals.written); /* the file holds exactly what was written */
    for (unsigned i = 0; i < n_threads; i++)
        assert_int_equal(o.count[i], w[i].ok);
    assert_true(t.has_end);
    assert_int_equal(t.end_written, totals.written);
    assert_int_equal(t.end_dropped, totals.dropped);
    assert_int_equal(t.end_too_big, totals.too_big);
    assert_true(t.dropped_in_blocks <= totals.dropped);
    for (size_t i = 0; i < t.n_end_threads; i++) {
        const evgen_thread_totals *tt = totals_of(&totals, t.end_threads[i].thread_id);
        assert_non_null(tt);
        assert_int_equal(t.end_threads[i].written, tt->written);
        assert_int_equal(t.end_threads[i].dropped, tt->dropped);
        assert_int_equal(t.end_threads[i].too_big, tt->too_big);
    }
    evgen_session_totals_free(&totals);
    tp_free(&t);
    free(data);
    rt_path_free(path);
}

static void test_runtime_drop_tiny_buffers(void **state)
{
    (void)state;
    run_drop(EVGEN_BLOCK_WRITER_AUTO);
}

static void test_runtime_drop_tiny_buffers_direct_io(void **state)
{
    (void)state;
    run_drop(EVGEN_BLOCK_WRITER_DIRECT_IO);
}

/* ---- WAIT with every buffer idle in other threads ---- */

typedef struct holder {
    pthread_mutex_t *lock;
    pthread_cond_t *cv;
    int *emitted, *release;
    uint32_t index;
    uint32_t status;
} holder;

static void *hold_a_buffer(void *arg)
{
    holder *h = arg;
    h->status = fire_tick(h->index, 0);
    pthread_mutex_lock(h->lock);
    (*h->emitted)++;
    pthread_cond_broadcast(h->cv);
    while (!*h->release)
        pthread_cond_wait(h->cv, h->lock);
    pthread_mutex_unlock(h->lock);
    return NULL;
}

static void test_runtime_wait_steals_idle_buffers(void **state)
{
    (void)state;
    evgen_session_options opt = rt_options(4096, 2, 1024, EVGEN_WHEN_FULL_WAIT);
    evgen_session *s = evgen_session_open_memory(&opt);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
    int emitted = 0, release = 0;
    holder h[2] = {{&lock, &cv, &emitted, &release, 0, 99}, {&lock, &cv, &emitted, &release, 1, 99}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(pthread_create(&th[i], NULL, hold_a_buffer, &h[i]), 0);
        pthread_mutex_lock(&lock);
        while (emitted < i + 1)
            pthread_cond_wait(&cv, &lock);
        pthread_mutex_unlock(&lock);
    }
    /* Both buffers sit in idle threads; this emit must not wait for them forever. */
    assert_int_equal(fire_tick(2, 0), EVGEN_EMIT_OK);
    pthread_mutex_lock(&lock);
    release = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < 2; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(h[i].status, EVGEN_EMIT_OK);
    }
    uint8_t *mem;
    size_t size;
    evgen_session_totals totals;
    assert_int_equal(evgen_session_close(s, &totals, &mem, &size), 0);
    assert_int_equal(totals.written, 3);
    tp_trace t;
    assert_int_equal(tp_parse(mem, size, NULL, NULL, &t), 0);
    assert_int_equal(t.n_records, 3);
    evgen_session_totals_free(&totals);
    tp_free(&t);
    free(mem);
}

/* ---- the flush protocol with each process-wide barrier ---- */

static void run_with_barrier(int mode, unsigned max_flushes)
{
    if (evgen_rt_barrier_force(mode) != 0) {
        fprintf(stderr, "barrier mode %d unavailable here\n", mode);
        return;
    }
    /* Small buffers: many hand-offs racing many flushes. */
    run_wait(4, RT_SANITIZED ? 20000 : 200000, 4096, 8, max_flushes, EVGEN_BLOCK_WRITER_EMITTER);
    assert_int_equal(evgen_rt_barrier_force(0), 0);
}

static void test_runtime_barrier_private_expedited(void **state)
{
    (void)state;
    run_with_barrier(1, 100000);
}

static void test_runtime_barrier_global(void **state)
{
    (void)state;
    run_with_barrier(2, 50); /* each global barrier waits for every CPU: slow */
}

static void test_runtime_barrier_mprotect(void **state)
{
    (void)state;
    run_with_barrier(3, 100000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runtime_wait_8_threads),
        cmocka_unit_test(test_runtime_wait_8_threads_direct_io),
        cmocka_unit_test(test_runtime_wait_8_threads_adaptive),
        cmocka_unit_test(test_runtime_drop_tiny_buffers),
        cmocka_unit_test(test_runtime_drop_tiny_buffers_direct_io),
        cmocka_unit_test(test_runtime_wait_steals_idle_buffers),
        cmocka_unit_test(test_runtime_barrier_private_expedited),
        cmocka_unit_test(test_runtime_barrier_global),
        cmocka_unit_test(test_runtime_barrier_mprotect),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
