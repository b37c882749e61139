/* test_runtime_lifecycle.c — what happens around a runtime's sessions: several sessions at once
 * with different providers and levels, fork with threads emitting, and a shared library that
 * registered a manifest being dlclose()d while a callback session decodes its events. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "evgen/runtime.h"
#include "rt_helpers.h"
#include "test_manifest.h"
#include "trace_parse.h"

/* ---- several sessions ---- */

enum { THREADS = 3 };

typedef struct emitter {
    pthread_t thread;
    uint64_t heapstats, ticks, markers; /* attempts (ticks atomic: the test waits on them) */
    int *stop; /* atomic */
} emitter;

static void *emit_all(void *arg)
{
    emitter *e = arg;
    const uint64_t v[10] = {0};
    const uint32_t c[3] = {0};
    for (uint64_t k = 0; !__atomic_load_n(e->stop, __ATOMIC_ACQUIRE) || k < 3000; k++) {
        fire_heapstats_v2(v, c, 1, k, k);
        e->heapstats++;
        fire_tick(0, k);
        __atomic_fetch_add(&e->ticks, 1, __ATOMIC_RELAXED);
        if (k % 4 == 0) {
            fire_marker(k, 0);
            e->markers++;
        }
    }
    return NULL;
}

/* The ticks the running emitters have attempted so far. */
static uint64_t ticks_attempted(emitter *e)
{
    uint64_t n = 0;
    for (int i = 0; i < THREADS; i++)
        n += __atomic_load_n(&e[i].ticks, __ATOMIC_RELAXED);
    return n;
}

/* Waits until the emitters have attempted N more ticks than when called (at most 60 s), where a
 * fixed sleep could pass with none of them scheduled on a loaded machine. */
static void wait_for_ticks(emitter *e, uint64_t n)
{
    uint64_t start = ticks_attempted(e), now = start;
    for (int ms = 0; ms < 60000 && now < start + n; ms++) {
        usleep(1000);
        now = ticks_attempted(e);
    }
    assert_true(now >= start + n);
}

/* Records of `type` in the trace; *all and *end_written (may be NULL) receive its record count
 * and its end block's written total. */
static uint64_t records_of(const uint8_t *data, size_t size, uint64_t type, uint64_t *all, uint64_t *end_written)
{
    tp_records records = {0};
    tp_trace t;
    assert_int_equal(tp_parse(data, size, tp_collect, &records, &t), 0);
    uint64_t n = 0;
    for (size_t i = 0; i < records.n; i++)
        n += records.items[i].type == type;
    if (all)
        *all = t.n_records;
    if (end_written)
        *end_written = t.end_written;
    tp_records_free(&records);
    tp_free(&t);
    return n;
}

static uint64_t callback_markers;

static void count_markers(const evgen_event_record *r, void *context)
{
    (void)context;
    callback_markers += strcmp(r->event->name, "Marker") == 0;
}

/* A: Test-Provider at level 4, keyword 0x1 (HeapStats only). B: everything. C: Other-Provider
 * (Marker), a callback. D opens in B's slot after B closes, mid-run, and takes Ticks. Each session
 * gets exactly what it enabled: every attempt is written or dropped and counted. */
static void test_sessions_at_once(void **state)
{
    (void)state;
    evgen_session_options o = rt_options(8192, 16, 1024, EVGEN_WHEN_FULL_WAIT);
    evgen_session *a = evgen_session_open_memory(&o), *b = evgen_session_open_memory(&o);
    callback_markers = 0;
    evgen_session *c = evgen_session_open_callback(count_markers, NULL, &o);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_int_equal(evgen_session_enable(a, "Test-Provider", 4, 0x1), 0);
    assert_int_equal(evgen_session_enable(b, NULL, 255, ~0ull), 0);
    assert_int_equal(evgen_session_enable(c, "Other-Provider", 255, ~0ull), 0);

    int stop = 0;
    emitter e[THREADS];
    memset(e, 0, sizeof e);
    for (int i = 0; i < THREADS; i++) {
        e[i].stop = &stop;
        assert_int_equal(pthread_create(&e[i].thread, NULL, emit_all, &e[i]), 0);
    }
    wait_for_ticks(e, 1000);
    evgen_session_totals tb;
    uint8_t *mb;
    size_t nb;
    assert_int_equal(evgen_session_close(b, &tb, &mb, &nb), 0);
    evgen_session *d = evgen_session_open_memory(&o);
    assert_non_null(d);
    assert_int_equal(evgen_session_enable(d, "Test-Provider", 4, 0x4), 0);
    wait_for_ticks(e, 1000);
    __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
    uint64_t heapstats = 0, ticks = 0, markers = 0;
    for (int i = 0; i < THREADS; i++) {
        assert_int_equal(pthread_join(e[i].thread, NULL), 0);
        heapstats += e[i].heapstats;
        ticks += e[i].ticks;
        markers += e[i].markers;
    }
    evgen_session_totals ta, tc, td;
    uint8_t *ma, *md;
    size_t na, nd;
    assert_int_equal(evgen_session_close(a, &ta, &ma, &na), 0);
    assert_int_equal(evgen_session_close(c, &tc, NULL, NULL), 0);
    assert_int_equal(evgen_session_close(d, &td, &md, &nd), 0);

    uint32_t base = testevents_manifest.type_base;
    uint64_t all, end_written;
    /* A was open from before the first to after the last attempt. */
    assert_int_equal(ta.written + ta.dropped, heapstats);
    assert_int_equal(records_of(ma, na, base + 1, &all, &end_written), ta.written);
    assert_int_equal(all, ta.written); /* nothing else */
    assert_int_equal(end_written, ta.written);
    /* C: markers only, every one delivered or counted. */
    assert_int_equal(tc.written + tc.dropped, markers);
    assert_int_equal(callback_markers, tc.written);
    /* B and D saw part of the run: what they counted is what they hold. */
    assert_true(tb.written > 0);
    assert_int_equal(records_of(mb, nb, base + 3, &all, NULL) + records_of(mb, nb, base + 1, NULL, NULL) +
                         records_of(mb, nb, base + 4, NULL, NULL),
                     tb.written);
    assert_int_equal(all, tb.written);
    assert_true(td.written > 0);
    assert_int_equal(records_of(md, nd, base + 3, &all, NULL), td.written);
    assert_int_equal(all, td.written);
    assert_true(ticks > td.written);
    free(ma);
    free(mb);
    free(md);
    evgen_session_totals_free(&ta);
    evgen_session_totals_free(&tb);
    evgen_session_totals_free(&tc);
    evgen_session_totals_free(&td);
    /* All closed: nothing is enabled any more. */
    for (int i = 0; i < 4; i++)
        assert_int_equal(testevents_enabled[i], 0);
}

/* ---- fork while threads emit ---- */

static void test_fork_with_threads(void **state)
{
    (void)state;
    char *path = rt_path("parent.evtrace");
    evgen_session_options o = rt_options(8192, 16, 1024, EVGEN_WHEN_FULL_WAIT);
    evgen_session *s = evgen_session_open_file(path, &o);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    int stop = 0;
    emitter e[2];
    memset(e, 0, sizeof e);
    for (int i = 0; i < 2; i++) {
        e[i].stop = &stop;
        assert_int_equal(pthread_create(&e[i].thread, NULL, emit_all, &e[i]), 0);
    }
    for (int k = 0; k < 10; k++) {
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            /* Silent: the parent's sessions are not the child's. Its own session works. */
            if (fire_tick(0, 1) != EVGEN_EMIT_DISABLED)
                _exit(20);
            char child_path[4096];
            snprintf(child_path, sizeof child_path, "%s.child%d", path, k);
            evgen_session *cs = evgen_session_open_file(child_path, NULL);
            if (!cs || evgen_session_enable(cs, NULL, 255, ~0ull) != 0)
                _exit(21);
            for (int i = 0; i < 100; i++)
                if (fire_tick(0, (uint64_t)i) != EVGEN_EMIT_OK)
                    _exit(22);
            evgen_session_totals totals;
            if (evgen_session_close(cs, &totals, NULL, NULL) != 0 || totals.written != 100)
                _exit(23);
            tp_trace t;
            int rc;
            uint8_t *data = rt_parse_file(child_path, &t, NULL, &rc);
            if (rc != 0 || t.n_records != 100 || !t.has_end)
                _exit(24);
            free(data);
            unlink(child_path);
            _exit(0);
        }
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
    uint64_t attempts = 0;
    for (int i = 0; i < 2; i++) {
        assert_int_equal(pthread_join(e[i].thread, NULL), 0);
        attempts += e[i].heapstats + e[i].ticks + e[i].markers;
    }
    evgen_session_totals totals;
    assert_int_equal(evgen_session_close(s, &totals, NULL, NULL), 0);
    assert_int_equal(totals.written, attempts); /* WAIT, no handler: nothing dropped */
    int has_end;
    assert_int_equal(rt_file_records(path, &has_end), attempts);
    assert_true(has_end);
    evgen_session_totals_free(&totals);
    rt_path_free(path);
}

/* ---- dlclose ---- */

typedef uint32_t (*dl_fire_fn)(uint64_t value);

static uint64_t dl_seen;

static void count_dl(const evgen_event_record *r, void *context)
{
    (void)context;
    if (strcmp(r->provider, "Evgen-Test-Public") == 0 && r->size == 8)
        dl_seen++;
}

/* The module (dl_module.c + its generated runtime side) registers its manifest when loaded and
 * unregisters it when unloaded; the callback session decodes its events with its descriptors,
 * which must not be used after dlclose (ASan would see it). Loaded twice: new types each time. */
static void test_dlclose(void **state)
{
    (void)state;
    dl_seen = 0;
    evgen_session *s = evgen_session_open_callback(count_dl, NULL, NULL);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    for (int round = 0; round < 2; round++) {
        void *module = dlopen(EVGEN_DL_MODULE, RTLD_NOW | RTLD_LOCAL);
        if (!module)
            fail_msg("dlopen: %s", dlerror());
        assert_int_equal(evgen_session_enable(s, "Evgen-Test-Public", 255, ~0ull), 0);
        dl_fire_fn fire = (dl_fire_fn)(uintptr_t)dlsym(module, "dl_fire");
        assert_non_null(fire);
        for (uint64_t k = 0; k < 1000; k++)
            assert_int_equal(fire(k), EVGEN_EMIT_OK);
        assert_int_equal(dlclose(module), 0);
        /* Unloaded: its provider is gone, our own events go on. */
        errno = 0;
        assert_int_equal(evgen_session_enable(s, "Evgen-Test-Public", 255, ~0ull), -1);
        assert_int_equal(errno, ENOENT);
        assert_int_equal(fire_tick(0, 1), EVGEN_EMIT_OK);
    }
    assert_int_equal(evgen_session_flush(s), 0);
    assert_int_equal(dl_seen, 2000);
    /* Unregistering one's own manifest works the same way, and registering it again too. */
    evgen_unregister_manifest(&lateevents_manifest);
    assert_int_equal(fire_late(1, NULL), EVGEN_EMIT_DISABLED);
    evgen_register_manifest(&lateevents_manifest);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    assert_int_equal(fire_late(2, NULL), EVGEN_EMIT_OK);
    evgen_session_totals totals;
    assert_int_equal(evgen_session_close(s, &totals, NULL, NULL), 0);
    assert_int_equal(totals.written, 2000 + 2 + 1);
    evgen_session_totals_free(&totals);
}

/* A runtime that is itself a dlopen'd library, with libevgen-runtime inside it
 * (dl_runtime_module.c): it loads (its thread pointer takes glibc's static TLS reserve), a thread's
 * first emit in a signal handler works, and its trace holds every event. Loaded twice. */
typedef long (*dl_runtime_record_fn)(const char *path, uint64_t events);

static void test_runtime_in_a_dlopened_library(void **state)
{
    (void)state;
    for (int round = 0; round < 2; round++) {
        void *module = dlopen(EVGEN_DL_RUNTIME_MODULE, RTLD_NOW | RTLD_LOCAL);
        if (!module)
            fail_msg("dlopen: %s", dlerror());
        dl_runtime_record_fn record = (dl_runtime_record_fn)(uintptr_t)dlsym(module, "dl_runtime_record");
        assert_non_null(record);
        char *path = rt_path("dl-runtime.evtrace");
        assert_int_equal(record(path, 5000), 5000);
        tp_trace t;
        int rc;
        uint8_t *data = rt_parse_file(path, &t, NULL, &rc);
        assert_non_null(data);
        assert_int_equal(rc, 0);
        assert_int_equal(t.n_records, 5000);
        assert_false(t.torn);
        tp_free(&t);
        free(data);
        rt_path_free(path);
        assert_int_equal(dlclose(module), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sessions_at_once),
        cmocka_unit_test(test_fork_with_threads),
        cmocka_unit_test(test_dlclose),
        cmocka_unit_test(test_runtime_in_a_dlopened_library),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
