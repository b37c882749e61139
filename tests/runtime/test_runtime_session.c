/* test_runtime_session.c — libevgen-runtime sessions, checked through the tests' own trace
 * parser: options, file header, metadata, records byte for byte, the three sinks, enablement,
 * too-big payloads, threads that exit or idle, late registration, errors, fork. */
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
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "evgen/crc32c.h"
#include "evgen/runtime.h"
#include "rt_helpers.h"
#include "test_manifest.h"
#include "test_support.h"
#include "trace_parse.h"

/* ---- the emit script every sink records, and its expected records, built by hand ---- */

enum { SCRIPT_TICKS = 100 };

typedef struct expected {
    uint32_t type; /* within testevents */
    rt_vec payload;
} expected;

static const uint16_t script_text[] = {'h', 'i', 0x263A, 0};
static const uint32_t script_values[] = {1, 2, 0xDEADBEEF};

static void script_spans(test_span spans[2])
{
    memset(spans, 0, 2 * sizeof *spans); /* the padding is part of the payload */
    spans[0].start = 100;
    spans[0].len = 5;
    spans[1].start = 200;
    spans[1].len = 6;
}

static void emit_script(void)
{
    uint64_t v[10];
    for (int i = 0; i < 10; i++)
        v[i] = 0x0102030405060708ull * (uint64_t)(i + 1);
    const uint32_t c[3] = {11, 22, 33};
    test_span spans[2];
    script_spans(spans);
    assert_int_equal(fire_heapstats_v2(v, c, 7, 0xAAAA, 0xBBBB), EVGEN_EMIT_OK);
    assert_int_equal(fire_message(1, script_text, 3, script_values, 2, spans), EVGEN_EMIT_OK);
    assert_int_equal(fire_message(2, NULL, 0, NULL, 0, NULL), EVGEN_EMIT_OK);
    for (uint64_t k = 0; k < SCRIPT_TICKS; k++)
        assert_int_equal(fire_tick(0, k), EVGEN_EMIT_OK);
    assert_int_equal(fire_marker(42, -5), EVGEN_EMIT_OK);
}

/* The script's records as the format lays them out: fields in order, packed, little-endian. */
static size_t script_expected(expected *out)
{
    size_t n = 0;
    expected *e = &out[n++];
    memset(e, 0, sizeof *e);
    e->type = 1;
    for (int i = 0; i < 10; i++)
        rt_vec_le(&e->payload, 0x0102030405060708ull * (uint64_t)(i + 1), 8);
    rt_vec_le(&e->payload, 11, 4);
    rt_vec_le(&e->payload, 22, 4);
    rt_vec_le(&e->payload, 33, 4);
    rt_vec_le(&e->payload, 7, 2);
    rt_vec_le(&e->payload, 0xAAAA, 8);
    rt_vec_le(&e->payload, 0xBBBB, 8);

    e = &out[n++];
    memset(e, 0, sizeof *e);
    e->type = 2;
    rt_vec_le(&e->payload, 1, 4);
    static const uint8_t text[] = {'h', 0, 'i', 0, 0x3A, 0x26, 0, 0};
    rt_vec_raw(&e->payload, text, sizeof text);
    rt_vec_le(&e->payload, 3, 2);
    rt_vec_le(&e->payload, 1, 4);
    rt_vec_le(&e->payload, 2, 4);
    rt_vec_le(&e->payload, 0xDEADBEEF, 4);
    rt_vec_le(&e->payload, 2, 2);
    rt_vec_le(&e->payload, 100, 8);
    rt_vec_le(&e->payload, 5, 4);
    rt_vec_le(&e->payload, 0, 4);
    rt_vec_le(&e->payload, 200, 8);
    rt_vec_le(&e->payload, 6, 4);
    rt_vec_le(&e->payload, 0, 4);

    e = &out[n++];
    memset(e, 0, sizeof *e);
    e->type = 2;
    rt_vec_le(&e->payload, 2, 4);
    rt_vec_le(&e->payload, 0, 2); /* NULL text: the empty string */
    rt_vec_le(&e->payload, 0, 2);
    rt_vec_le(&e->payload, 0, 2);

    for (uint64_t k = 0; k < SCRIPT_TICKS; k++) {
        e = &out[n++];
        memset(e, 0, sizeof *e);
        e->type = 3;
        rt_vec_le(&e->payload, 0, 4);
        rt_vec_le(&e->payload, k, 8);
    }

    e = &out[n++];
    memset(e, 0, sizeof *e);
    e->type = 4;
    rt_vec_le(&e->payload, 42, 8);
    rt_vec_le(&e->payload, (uint32_t)-5, 4);
    return n;
}

#define SCRIPT_RECORDS (SCRIPT_TICKS + 4)

static void check_script_records(const tp_record *r, size_t n, uint64_t tid, uint64_t start_ticks)
{
    static expected want[SCRIPT_RECORDS];
    size_t n_want = script_expected(want);
    assert_int_equal(n, n_want);
    uint64_t prev = start_ticks;
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(r[i].type, testevents_manifest.type_base + want[i].type);
        assert_int_equal(r[i].size, want[i].payload.len);
        assert_memory_equal(r[i].payload, want[i].payload.data, want[i].payload.len);
        assert_int_equal(r[i].thread_id, tid);
        assert_true(r[i].ticks >= prev); /* one thread's records: never backwards */
        prev = r[i].ticks;
    }
}

static const tp_manifest *find_manifest(const tp_trace *t, const char *name)
{
    for (size_t i = 0; i < t->n_manifests; i++)
        if (strcmp(t->manifests[i].name, name) == 0)
            return &t->manifests[i];
    return NULL;
}

/* ---- tests ---- */

static void test_runtime_options(void **state)
{
    (void)state;
    evgen_session_options o;
    evgen_session_options_init(&o);
    assert_int_equal(o.size, sizeof o);
    assert_int_equal(o.buffer_size, 256 * 1024 - EVGEN_WIRE_BLOCK_HEADER_SIZE);
    assert_int_equal(o.buffer_count, 64);
    assert_int_equal(o.max_payload, 65536);
    assert_int_equal(o.when_full, EVGEN_WHEN_FULL_WAIT);
    assert_int_equal(o.clock, EVGEN_CLOCK_MONOTONIC_TSC);

    struct {
        uint32_t buffer_size, buffer_count, max_payload, when_full, clock, size;
    } bad[] = {
        {4095, 4, 100, 0, 1, sizeof o},                                 /* buffer under 4096 */
        {4096, 4, 4096 - EVGEN_MAX_RECORD_HEADER + 1, 0, 1, sizeof o},  /* no room for the header */
        {65536, 4, 65536, 0, 1, sizeof o},                              /* likewise */
        {4096, 0, 100, 0, 1, sizeof o},                                 /* no buffer */
        {4096, 4, 100, 7, 1, sizeof o},                                 /* unknown policy */
        {4096, 4, 100, 0, 9, sizeof o},                                 /* unknown clock */
        {4096, 4, 100, 0, 1, 0},                                        /* options_init not called */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        evgen_session_options_init(&o);
        o.buffer_size = bad[i].buffer_size;
        o.buffer_count = bad[i].buffer_count;
        o.max_payload = bad[i].max_payload;
        o.when_full = (evgen_when_full)bad[i].when_full;
        o.clock = (evgen_clock_kind)bad[i].clock;
        o.size = bad[i].size;
        errno = 0;
        assert_null(evgen_session_open_memory(&o));
        assert_int_equal(errno, EINVAL);
    }
    evgen_session_options_init(&o);
    assert_int_equal(o.block_writer, EVGEN_BLOCK_WRITER_AUTO);
    o.block_writer = (evgen_block_writer)7; /* unknown block writer */
    errno = 0;
    assert_null(evgen_session_open_memory(&o));
    assert_int_equal(errno, EINVAL);
    evgen_session_options_init(&o);
    o.buffer_size = 4096;
    o.max_payload = 4096 - EVGEN_MAX_RECORD_HEADER; /* exactly enough */
    evgen_session *s = evgen_session_open_memory(&o);
    assert_non_null(s);

    /* EVGEN_MAX_SESSIONS at a time, whatever the sink; the next is refused before its file exists. */
    evgen_session *more[EVGEN_MAX_SESSIONS - 1];
    for (unsigned i = 0; i < EVGEN_MAX_SESSIONS - 1; i++)
        assert_non_null(more[i] = evgen_session_open_memory(NULL));
    errno = 0;
    assert_null(evgen_session_open_memory(NULL));
    assert_int_equal(errno, EBUSY);
    char *path = rt_path("busy.evtrace");
    errno = 0;
    assert_null(evgen_session_open_file(path, NULL));
    assert_int_equal(errno, EBUSY);
    assert_int_not_equal(access(path, F_OK), 0); /* refused before creating the file */
    for (unsigned i = 0; i < EVGEN_MAX_SESSIONS - 1; i++)
        assert_int_equal(evgen_session_close(more[i], NULL, NULL, NULL), 0);
    assert_int_equal(evgen_session_close(s, NULL, NULL, NULL), 0);

    errno = 0;
    assert_null(evgen_session_open_file("/nonexistent-dir/x.evtrace", NULL));
    assert_int_equal(errno, ENOENT);
    errno = 0;
    assert_null(evgen_session_open_callback(NULL, NULL, NULL));
    assert_int_equal(errno, EINVAL);
    /* A failed open leaves nothing behind: the next open works. */
    s = evgen_session_open_file(path, NULL);
    assert_non_null(s);
    assert_int_equal(evgen_session_close(s, NULL, NULL, NULL), 0);
    rt_path_free(path);
}

static void test_runtime_header_and_metadata(void **state)
{
    (void)state;
    char *path = rt_path("meta.evtrace");
    struct timespec before, after;
    clock_gettime(CLOCK_REALTIME, &before);
    evgen_session *s = evgen_session_open_file(path, NULL);
    assert_non_null(s);
    clock_gettime(CLOCK_REALTIME, &after);
    evgen_session_totals totals;
    assert_int_equal(evgen_session_close(s, &totals, NULL, NULL), 0);

    tp_trace t;
    int rc;
    uint8_t *data = rt_parse_file(path, &t, NULL, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal(t.format_version, 2);
    assert_int_equal(t.header_size, 48);
    assert_int_equal(t.pointer_size, sizeof(void *));
    assert_int_equal(t.clock_kind, EVGEN_CLOCK_MONOTONIC);
    assert_int_equal(t.clock_frequency, 1000000000u);
    assert_int_equal(t.process_id, (uint32_t)getpid());
    uint64_t lo = (uint64_t)before.tv_sec * 1000000000u + (uint64_t)before.tv_nsec;
    uint64_t hi = (uint64_t)after.tv_sec * 1000000000u + (uint64_t)after.tv_nsec;
    assert_true(t.start_unix_ns >= lo && t.start_unix_ns <= hi);
    assert_true(t.start_ticks > 0 && t.start_ticks <= evgen_clock_monotonic());
    assert_false(t.torn);

    const tp_manifest *m = find_manifest(&t, "testevents");
    assert_non_null(m);
    assert_true(rt_metadata_matches(m, &testevents_manifest, t.pointer_size));
    assert_int_equal(t.n_blocks[1], t.n_manifests);
    assert_int_equal(t.n_blocks[2], 0);
    assert_int_equal(t.n_blocks[3], 1);
    assert_true(t.has_end);
    assert_int_equal(t.n_end_threads, 0);
    assert_int_equal(t.end_written + t.end_dropped + t.end_too_big, 0);
    /* bytes: everything produced, header included. */
    size_t size;
    free(tp_read_file(path, &size));
    assert_int_equal(totals.bytes, size);
    assert_int_equal(totals.n_threads, 0);
    evgen_session_totals_free(&totals);
    tp_free(&t);
    free(data);
    rt_path_free(path);
}

static void test_runtime_records_round_trip(void **state)
{
    (void)state;
    char *path = rt_path("records.evtrace");
    evgen_session *s = evgen_session_open_file(path, NULL);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    emit_script();
    evgen_session_totals totals;
    assert_int_equal(evgen_session_close(s, &totals, NULL, NULL), 0);
    /* After close every event is disabled again. */
    assert_int_equal(fire_tick(0, 0), EVGEN_EMIT_DISABLED);

    tp_trace t;
    tp_records recs = {0};
    int rc;
    uint8_t *data = rt_parse_file(path, &t, &recs, &rc);
    assert_int_equal(rc, 0);
    check_script_records(recs.items, recs.n, rt_gettid(), t.start_ticks);
    assert_int_equal(totals.written, SCRIPT_RECORDS);
    assert_int_equal(totals.dropped + totals.too_big, 0);
    assert_int_equal(totals.n_threads, 1);
    assert_int_equal(totals.threads[0].thread_id, rt_gettid());
    assert_int_equal(totals.threads[0].written, SCRIPT_RECORDS);
    assert_true(t.has_end);
    assert_int_equal(t.n_end_threads, 1);
    assert_int_equal(t.end_threads[0].thread_id, rt_gettid());
    assert_int_equal(t.end_threads[0].written, SCRIPT_RECORDS);
    assert_int_equal(t.end_written, SCRIPT_RECORDS);
    evgen_session_totals_free(&totals);
    tp_records_free(&recs);
    tp_free(&t);
    free(data);
    rt_path_free(path);
}

/* What a listener received, copied. */
typedef struct heard {
    tp_record *items;
    uint8_t **payloads;
    size_t n, cap;
    uint64_t last_ns;
    int bad;
} heard;

static void listen(const evgen_event_record *r, void *context)
{
    heard *h = context;
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 64;
        h->items = realloc(h->items, h->cap * sizeof *h->items);
        h->payloads = realloc(h->payloads, h->cap * sizeof *h->payloads);
    }
    const evgen_event_desc *e = r->event;
    uint32_t version_index = (uint32_t)(r->version - e->versions);
    uint8_t *copy = malloc(r->size + 1);
    memcpy(copy, r->payload, r->size);
    h->payloads[h->n] = copy;
    h->items[h->n] = (tp_record){r->thread_id, 0, r->manifest->type_base + e->type_offset + version_index,
                                 r->timestamp_ns, copy, r->size, 0};
    if (r->timestamp_ns < h->last_ns || strcmp(r->provider, r->manifest->providers[e->provider]) != 0)
        h->bad = 1;
    if (!(r->version->flags & EVGEN_VERSION_VARIABLE) && r->size != r->version->fixed_size)
        h->bad = 1;
    h->last_ns = r->timestamp_ns;
    h->n++;
}

static void test_runtime_sinks_agree(void **state)
{
    (void)state;
    /* File. */
    char *path = rt_path("sinks.evtrace");
    evgen_session *s = evgen_session_open_file(path, NULL);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    emit_script();
    assert_int_equal(evgen_session_close(s, NULL, NULL, NULL), 0);
    tp_trace tf;
    tp_records rf = {0};
    int rc;
    uint8_t *file = rt_parse_file(path, &tf, &rf, &rc);
    assert_int_equal(rc, 0);

    /* Memory. */
    s = evgen_session_open_memory(NULL);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    emit_script();
    uint8_t *mem = NULL;
    size_t mem_size = 0;
    evgen_session_totals totals;
    assert_int_equal(evgen_session_close(s, &totals, &mem, &mem_size), 0);
    assert_non_null(mem);
    assert_int_equal(totals.bytes, mem_size);
    evgen_session_totals_free(&totals);
    tp_trace tm;
    tp_records rm = {0};
    assert_int_equal(tp_parse(mem, mem_size, tp_collect, &rm, &tm), 0);
    assert_true(tm.has_end);

    /* Callback. */
    heard h = {0};
    s = evgen_session_open_callback(listen, &h, NULL);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    emit_script();
    assert_int_equal(evgen_session_close(s, &totals, NULL, NULL), 0);
    assert_int_equal(totals.written, SCRIPT_RECORDS);
    evgen_session_totals_free(&totals);
    assert_false(h.bad);

    check_script_records(rf.items, rf.n, rt_gettid(), tf.start_ticks);
    check_script_records(rm.items, rm.n, rt_gettid(), tm.start_ticks);
    check_script_records(h.items, h.n, rt_gettid(), 0);
    /* The same metadata in both traces. */
    assert_int_equal(tf.n_manifests, tm.n_manifests);
    assert_true(rt_metadata_matches(find_manifest(&tm, "testevents"), &testevents_manifest, tm.pointer_size));

    for (size_t i = 0; i < h.n; i++)
        free(h.payloads[i]);
    free(h.payloads);
    free(h.items);
    tp_records_free(&rm);
    tp_free(&tm);
    free(mem);
    tp_records_free(&rf);
    tp_free(&tf);
    free(file);
    rt_path_free(path);
}

static void expect_enabled(int heapstats, int message, int tick, int marker)
{
    assert_int_equal(testevents_enabled[0] != 0, heapstats);
    assert_int_equal(testevents_enabled[1] != 0, message);
    assert_int_equal(testevents_enabled[2] != 0, tick);
    assert_int_equal(testevents_enabled[3] != 0, marker);
    assert_int_equal(fire_tick(9, 0), tick ? EVGEN_EMIT_OK : EVGEN_EMIT_DISABLED);
    assert_int_equal(fire_marker(0, 0), marker ? EVGEN_EMIT_OK : EVGEN_EMIT_DISABLED);
}

static void test_runtime_enable_disable(void **state)
{
    (void)state;
    evgen_session *s = evgen_session_open_memory(NULL);
    assert_non_null(s);
    expect_enabled(0, 0, 0, 0); /* nothing until enabled */

    /* HeapStats: level 4, keywords 0x1. Message: 5, 0x2. Tick: 4, 0x4. Marker (Other): 0, none. */
    assert_int_equal(evgen_session_enable(s, "Test-Provider", 4, 0x1), 0);
    expect_enabled(1, 0, 0, 0);
    assert_int_equal(evgen_session_enable(s, "Test-Provider", 5, 0x6), 0); /* replaces the rule */
    expect_enabled(0, 1, 1, 0);
    assert_int_equal(evgen_session_enable(s, "Test-Provider", 4, 0x6), 0); /* Message is level 5 */
    expect_enabled(0, 0, 1, 0);
    assert_int_equal(evgen_session_enable(s, "Other-Provider", 0, 0), 0); /* LogAlways, no keyword */
    expect_enabled(0, 0, 1, 1);
    assert_int_equal(evgen_session_disable(s, "Test-Provider"), 0);
    expect_enabled(0, 0, 0, 1);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    expect_enabled(1, 1, 1, 1);
    assert_int_equal(evgen_session_disable(s, "Other-Provider"), 0); /* later and more specific */
    expect_enabled(1, 1, 1, 0);
    assert_int_equal(evgen_session_enable(s, NULL, 0, 0), 0); /* level 0: only LogAlways events */
    expect_enabled(0, 0, 0, 1);
    assert_int_equal(evgen_session_enable(s, NULL, 4, 0), 0); /* keyword 0: only keyword-less events */
    expect_enabled(0, 0, 0, 1);
    assert_int_equal(evgen_session_enable(s, NULL, 4, 0x5), 0);
    expect_enabled(1, 0, 1, 1);

    errno = 0;
    assert_int_equal(evgen_session_enable(s, "No-Such-Provider", 5, ~0ull), -1);
    assert_int_equal(errno, ENOENT);
    expect_enabled(1, 0, 1, 1); /* a refused call changes nothing */
    errno = 0;
    assert_int_equal(evgen_session_disable(s, "No-Such-Provider"), -1);
    assert_int_equal(errno, ENOENT);
    assert_int_equal(evgen_session_disable(s, NULL), 0);
    expect_enabled(0, 0, 0, 0);

    uint8_t *mem;
    size_t size;
    evgen_session_totals totals;
    assert_int_equal(evgen_session_close(s, &totals, &mem, &size), 0);
    /* Exactly the emits that returned OK were recorded. */
    tp_trace t;
    tp_records recs = {0};
    assert_int_equal(tp_parse(mem, size, tp_collect, &recs, &t), 0);
    size_t ticks = 0, markers = 0;
    for (size_t i = 0; i < recs.n; i++) {
        ticks += recs.items[i].type == testevents_manifest.type_base + 3;
        markers += recs.items[i].type == testevents_manifest.type_base + 4;
    }
    assert_int_equal(ticks, 7);
    assert_int_equal(markers, 7);
    assert_int_equal(recs.n, totals.written);
    evgen_session_totals_free(&totals);
    tp_records_free(&recs);
    tp_free(&t);
    free(mem);
    errno = 0;
    assert_int_equal(evgen_session_enable(NULL, NULL, 1, 1), -1);
    assert_int_equal(errno, EINVAL);
}

static void test_runtime_too_big(void **state)
{
    (void)state;
    evgen_session_options o = rt_options(4096, 4, 100, EVGEN_WHEN_FULL_WAIT);
    evgen_session *s = evgen_session_open_memory(&o);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    uint64_t v[10] = {0};
    uint32_t c[3] = {0};
    uint16_t long_text[60];
    for (int i = 0; i < 59; i++)
        long_text[i] = 'a';
    long_text[59] = 0; /* 120 bytes of text: the payload is over 100 */
    for (int round = 0; round < 3; round++) {
        assert_int_equal(fire_heapstats_v2(v, c, 0, 0, 0), EVGEN_EMIT_TOO_BIG); /* 110 > 100 */
        assert_int_equal(fire_message(7, long_text, 0, NULL, 0, NULL), EVGEN_EMIT_TOO_BIG);
        assert_int_equal(fire_message(8, NULL, 0, NULL, 0, NULL), EVGEN_EMIT_OK);
        assert_int_equal(fire_tick(0, (uint64_t)round), EVGEN_EMIT_OK);
    }
    uint8_t *mem;
    size_t size;
    evgen_session_totals totals;
    assert_int_equal(evgen_session_close(s, &totals, &mem, &size), 0);
    assert_int_equal(totals.written, 6);
    assert_int_equal(totals.too_big, 6);
    assert_int_equal(totals.dropped, 0);
    assert_int_equal(totals.n_threads, 1);
    assert_int_equal(totals.threads[0].too_big, 6);

    tp_trace t;
    tp_records recs = {0};
    assert_int_equal(tp_parse(mem, size, tp_collect, &recs, &t), 0);
    assert_int_equal(recs.n, 6);
    for (size_t i = 0; i < recs.n; i++)
        assert_true(recs.items[i].type != testevents_manifest.type_base + 1 && recs.items[i].size < 100);
    assert_int_equal(t.end_too_big, 6);
    assert_int_equal(t.end_threads[0].too_big, 6);
    assert_int_equal(t.end_written, 6);
    evgen_session_totals_free(&totals);
    tp_records_free(&recs);
    tp_free(&t);
    free(mem);
}

/* ---- threads that exit, threads that idle ---- */

typedef struct idler {
    pthread_mutex_t lock;
    pthread_cond_t cv;
    int emitted, release;
    uint64_t tid;
    unsigned count;
} idler;

static void *exit_after_emitting(void *arg)
{
    idler *w = arg;
    w->tid = rt_gettid();
    for (unsigned k = 0; k < w->count; k++)
        if (fire_tick(1, k) != EVGEN_EMIT_OK)
            return (void *)1;
    return NULL;
}

static void test_runtime_thread_exit_writes(void **state)
{
    (void)state;
    char *path = rt_path("exit.evtrace");
    evgen_session *s = evgen_session_open_file(path, NULL);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    idler w = {.count = 1000};
    pthread_t th;
    void *ret;
    assert_int_equal(pthread_create(&th, NULL, exit_after_emitting, &w), 0);
    assert_int_equal(pthread_join(th, &ret), 0);
    assert_null(ret);
    /* The thread's state is gone: only its exit can have handed its buffer over. */
    evgen_session_totals totals;
    assert_int_equal(evgen_session_close(s, &totals, NULL, NULL), 0);
    assert_int_equal(totals.n_threads, 1);
    assert_int_equal(totals.threads[0].thread_id, w.tid);
    assert_int_equal(totals.threads[0].written, 1000);

    tp_trace t;
    tp_records recs = {0};
    int rc;
    uint8_t *data = rt_parse_file(path, &t, &recs, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal(recs.n, 1000);
    for (size_t i = 0; i < recs.n; i++) {
        assert_int_equal(recs.items[i].thread_id, w.tid);
        uint64_t seq;
        memcpy(&seq, recs.items[i].payload + 4, 8);
        assert_int_equal(seq, i);
    }
    assert_int_equal(t.end_threads[0].written, 1000);
    evgen_session_totals_free(&totals);
    tp_records_free(&recs);
    tp_free(&t);
    free(data);
    rt_path_free(path);
}

static void *emit_then_idle(void *arg)
{
    idler *w = arg;
    w->tid = rt_gettid();
    for (unsigned k = 0; k < w->count; k++)
        fire_tick(2, k);
    pthread_mutex_lock(&w->lock);
    w->emitted = 1;
    pthread_cond_broadcast(&w->cv);
    while (!w->release)
        pthread_cond_wait(&w->cv, &w->lock);
    pthread_mutex_unlock(&w->lock);
    /* Emits again after the flush took its buffer: it gets a fresh one. */
    fire_tick(2, w->count);
    return NULL;
}

static size_t count_thread(const tp_records *recs, uint64_t tid)
{
    size_t n = 0;
    for (size_t i = 0; i < recs->n; i++)
        n += recs->items[i].thread_id == tid;
    return n;
}

static void test_runtime_flush_idle_thread(void **state)
{
    (void)state;
    char *path = rt_path("flush.evtrace");
    evgen_session *s = evgen_session_open_file(path, NULL);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    idler w = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, 10};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, emit_then_idle, &w), 0);
    pthread_mutex_lock(&w.lock);
    while (!w.emitted)
        pthread_cond_wait(&w.cv, &w.lock);
    pthread_mutex_unlock(&w.lock);
    fire_marker(1, 0); /* the calling thread's buffer is flushed too */

    assert_int_equal(evgen_session_flush(s), 0);
    tp_trace t;
    tp_records recs = {0};
    int rc;
    uint8_t *data = rt_parse_file(path, &t, &recs, &rc);
    assert_int_equal(rc, 0);
    assert_false(t.torn);
    assert_false(t.has_end);
    assert_int_equal(count_thread(&recs, w.tid), 10);
    assert_int_equal(count_thread(&recs, rt_gettid()), 1);
    tp_records_free(&recs);
    tp_free(&t);
    free(data);

    pthread_mutex_lock(&w.lock);
    w.release = 1;
    pthread_cond_broadcast(&w.cv);
    pthread_mutex_unlock(&w.lock);
    pthread_join(th, NULL);
    evgen_session_totals totals;
    assert_int_equal(evgen_session_close(s, &totals, NULL, NULL), 0);
    assert_int_equal(totals.written, 12);
    data = rt_parse_file(path, &t, &recs, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal(count_thread(&recs, w.tid), 11);
    assert_int_equal(t.n_records, 12);
    evgen_session_totals_free(&totals);
    tp_records_free(&recs);
    tp_free(&t);
    free(data);
    rt_path_free(path);
}

/* ---- registration while a session is open ---- */

static void test_runtime_late_registration(void **state)
{
    (void)state;
    char *path = rt_path("late.evtrace");
    evgen_session *s = evgen_session_open_file(path, NULL);
    assert_non_null(s);
    errno = 0;
    assert_int_equal(evgen_session_enable(s, "Late-Provider", 5, ~0ull), -1); /* not registered yet */
    assert_int_equal(errno, ENOENT);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    assert_int_equal(fire_tick(0, 1), EVGEN_EMIT_OK);
    assert_int_equal(fire_late(1, NULL), EVGEN_EMIT_DISABLED);

    evgen_register_manifest(&lateevents_manifest);
    uint32_t base = lateevents_manifest.type_base;
    assert_int_equal(base, testevents_manifest.type_base + testevents_manifest.n_types);
    evgen_register_manifest(&lateevents_manifest); /* idempotent */
    evgen_register_manifest(&testevents_manifest);
    assert_int_equal(lateevents_manifest.type_base, base);
    assert_null(lateevents_manifest.next);
    assert_int_not_equal(lateevents_enabled[0], 0); /* the session's rules apply to it */
    int where;
    assert_int_equal(fire_late(77, &where), EVGEN_EMIT_OK);
    assert_int_equal(evgen_session_enable(s, "Late-Provider", 3, ~0ull), 0); /* Late is level 4 */
    assert_int_equal(fire_late(78, &where), EVGEN_EMIT_DISABLED);
    assert_int_equal(evgen_session_close(s, NULL, NULL, NULL), 0);

    tp_trace t;
    tp_records recs = {0};
    int rc;
    uint8_t *data = rt_parse_file(path, &t, &recs, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal(t.n_manifests, 2);
    assert_string_equal(t.manifests[1].name, "lateevents");
    assert_true(rt_metadata_matches(&t.manifests[1], &lateevents_manifest, t.pointer_size));
    assert_int_equal(recs.n, 2);
    assert_int_equal(recs.items[1].type, base);
    rt_vec want = {.len = 0};
    rt_vec_le(&want, 77, 8);
    rt_vec_le(&want, (uint64_t)(uintptr_t)&where, (int)sizeof(void *));
    assert_int_equal(recs.items[1].size, want.len);
    assert_memory_equal(recs.items[1].payload, want.data, want.len);
    tp_records_free(&recs);
    tp_free(&t);
    free(data);

    /* The next session describes both manifests from the start. */
    s = evgen_session_open_memory(NULL);
    assert_non_null(s);
    uint8_t *mem;
    size_t size;
    assert_int_equal(evgen_session_close(s, NULL, &mem, &size), 0);
    assert_int_equal(tp_parse(mem, size, NULL, NULL, &t), 0);
    assert_int_equal(t.n_manifests, 2);
    assert_true(rt_metadata_matches(&t.manifests[0], &testevents_manifest, t.pointer_size));
    assert_true(rt_metadata_matches(&t.manifests[1], &lateevents_manifest, t.pointer_size));
    tp_free(&t);
    free(mem);
    rt_path_free(path);
}

/* ---- clocks ---- */

static void test_runtime_tsc_clock(void **state)
{
    (void)state;
    evgen_session_options o;
    evgen_session_options_init(&o);
    o.clock = EVGEN_CLOCK_TSC;
    errno = 0;
    evgen_session *s = evgen_session_open_memory(&o);
    if (!s) {
        /* No invariant TSC here (or not x86-64): refused, as documented. */
        assert_int_equal(errno, EINVAL);
        skip();
    }
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    for (uint64_t k = 0; k < 1000; k++)
        assert_int_equal(fire_tick(0, k), EVGEN_EMIT_OK);
    rt_closed c;
    rt_close_and_parse(s, &c);
    assert_int_equal(c.parsed.clock_kind, EVGEN_CLOCK_TSC);
    assert_true(c.parsed.clock_frequency >= 100000000u); /* any TSC ticks faster than 100 MHz */
    assert_int_equal(c.records.n, 1000);
    uint64_t prev = c.parsed.start_ticks;
    for (size_t i = 0; i < c.records.n; i++) {
        assert_true(c.records.items[i].ticks >= prev);
        prev = c.records.items[i].ticks;
    }
    rt_closed_free(&c);
}

/* ---- the writer thread's own calls ---- */

typedef struct reentry {
    evgen_session *session;
    int calls;
    uint32_t emit_status;
    int flush_rc, flush_errno;
} reentry;

static void reenter(const evgen_event_record *r, void *context)
{
    (void)r;
    reentry *e = context;
    if (e->calls++ == 0) {
        e->emit_status = fire_tick(3, 0);
        errno = 0;
        e->flush_rc = evgen_session_flush(e->session);
        e->flush_errno = errno;
    }
}

static void test_runtime_callback_reentry(void **state)
{
    (void)state;
    reentry e = {0};
    evgen_session *s = evgen_session_open_callback(reenter, &e, NULL);
    assert_non_null(s);
    e.session = s;
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    assert_int_equal(fire_tick(0, 0), EVGEN_EMIT_OK);
    assert_int_equal(evgen_session_flush(s), 0); /* the callback has run when flush returns */
    assert_int_equal(e.calls, 1);
    assert_int_equal(e.emit_status, EVGEN_EMIT_DISABLED); /* the writer never records */
    assert_int_equal(e.flush_rc, -1);
    assert_int_equal(e.flush_errno, EDEADLK);
    evgen_session_totals totals;
    assert_int_equal(evgen_session_close(s, &totals, NULL, NULL), 0);
    assert_int_equal(totals.written, 1);
    assert_int_equal(totals.n_threads, 1);
    evgen_session_totals_free(&totals);
}

/* ---- sink errors, in a child whose file size is limited ---- */

static void test_runtime_sink_error(void **state)
{
    (void)state;
    char *path = rt_path("full.evtrace");
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit rl = {16384, 16384};
        signal(SIGXFSZ, SIG_IGN);
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
            _exit(10);
        evgen_session_options o = rt_options(4096, 4, 1024, EVGEN_WHEN_FULL_WAIT);
        evgen_session *s = evgen_session_open_file(path, &o);
        if (!s)
            _exit(11);
        evgen_session_enable(s, NULL, 255, ~0ull);
        /* ~280 KB: the writer fails; emitters never hang, and once the sink has failed the session
         * drops (and counts) instead of pretending to record. */
        uint64_t ok = 0, dropped = 0;
        for (uint64_t k = 0; k < 20000; k++) {
            uint32_t rc = fire_tick(0, k);
            if (rc == EVGEN_EMIT_OK)
                ok++;
            else if (rc == EVGEN_EMIT_DROPPED)
                dropped++;
            else
                _exit(12);
        }
        if (dropped == 0 || evgen_session_error(s) != EFBIG) /* the status is there while running */
            _exit(16);
        errno = 0;
        if (evgen_session_flush(s) != -1 || errno != EFBIG)
            _exit(13);
        evgen_session_totals totals;
        errno = 0;
        if (evgen_session_close(s, &totals, NULL, NULL) != -1 || errno != EFBIG)
            _exit(14);
        /* Every event is in exactly one count; `written` is what reached the file. */
        if (totals.written + totals.lost != ok || totals.dropped != dropped || totals.lost == 0 ||
            totals.bytes > 16384 || totals.n_threads != 1 || totals.threads[0].written != totals.written)
            _exit(15);
        tp_trace t;
        int rc;
        uint8_t *data = rt_parse_file(path, &t, NULL, &rc);
        if (rc != 0 || t.n_records != totals.written)
            _exit(17);
        tp_free(&t);
        free(data);
        _exit(0);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    /* What was written before the limit is a valid, torn trace. */
    tp_trace t;
    int rc;
    uint8_t *data = rt_parse_file(path, &t, NULL, &rc);
    assert_int_equal(rc, 0);
    assert_false(t.has_end);
    tp_free(&t);
    free(data);
    rt_path_free(path);
}

/* ---- a full disk and a dying one, injected into the file sink ---- */

void evgen_rt_sink_fail_after(uint64_t bytes, int err);
void evgen_rt_adaptive_force(int hand_over_at_once);
int evgen_rt_adaptive_handed_over(const evgen_session *s);

/* Whether S's adaptive writer has the writing handed over (WANT 1) or back (WANT 0), waiting up to
 * 5 s for it to. */
static int handed_over_within_5s(const evgen_session *s, int want)
{
    for (int ms = 0; ms < 5000 && evgen_rt_adaptive_handed_over(s) != want; ms++)
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    return evgen_rt_adaptive_handed_over(s) == want;
}

static void *emit_ticks(void *arg)
{
    uint64_t *ok = arg;
    for (uint64_t k = 0; k < 20000; k++)
        *ok += fire_tick(1, k) == EVGEN_EMIT_OK;
    return NULL;
}

/* Every way a full buffer reaches the file: written by its own thread (EMITTER), the writer's, or the
 * writer's with O_DIRECT. */
static void test_runtime_sink_injected(void **state)
{
    (void)state;
    const int errors[] = {ENOSPC, EIO, ENOSPC, EIO, ENOSPC, EIO, ENOSPC, EIO};
    const evgen_block_writer writers[] = {EVGEN_BLOCK_WRITER_EMITTER,   EVGEN_BLOCK_WRITER_EMITTER,
                                          EVGEN_BLOCK_WRITER_THREAD,    EVGEN_BLOCK_WRITER_THREAD,
                                          EVGEN_BLOCK_WRITER_DIRECT_IO, EVGEN_BLOCK_WRITER_DIRECT_IO,
                                          EVGEN_BLOCK_WRITER_ADAPTIVE,  EVGEN_BLOCK_WRITER_ADAPTIVE};
    for (size_t e = 0; e < 8; e++) {
        char *path = rt_path("failing.evtrace");
        evgen_session_options o = rt_options(4096, 4, 1024, EVGEN_WHEN_FULL_WAIT);
        o.block_writer = writers[e];
        /* adaptive: handed over to the emitters at once, so that they meet the failure */
        evgen_rt_adaptive_force(writers[e] == EVGEN_BLOCK_WRITER_ADAPTIVE);
        evgen_rt_sink_fail_after(100000, errors[e]);
        evgen_session *s = evgen_session_open_file(path, &o);
        assert_non_null(s);
        assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
        alarm(60); /* emitters never wait on a dead sink */
        uint64_t ok[2] = {0, 0};
        pthread_t other;
        assert_int_equal(pthread_create(&other, NULL, emit_ticks, &ok[1]), 0);
        emit_ticks(&ok[0]);
        assert_int_equal(pthread_join(other, NULL), 0);
        assert_int_equal(evgen_session_error(s), errors[e]); /* seen while the session runs */
        errno = 0;
        assert_int_equal(evgen_session_flush(s), -1);
        assert_int_equal(errno, errors[e]);
        evgen_session_totals totals;
        errno = 0;
        assert_int_equal(evgen_session_close(s, &totals, NULL, NULL), -1);
        assert_int_equal(errno, errors[e]);
        alarm(0);
        evgen_rt_sink_fail_after(UINT64_MAX, 0);
        evgen_rt_adaptive_force(0);
        assert_int_equal(totals.written + totals.lost, ok[0] + ok[1]);
        assert_int_equal(totals.written + totals.lost + totals.dropped, 40000);
        assert_true(totals.lost > 0);
        assert_true(totals.dropped > 0);
        /* The file holds every block before the error, readable, and exactly `written` events. */
        int has_end;
        assert_int_equal(rt_file_records(path, &has_end), totals.written);
        assert_false(has_end);
        assert_true(totals.bytes <= 100000);
        evgen_session_totals_free(&totals);
        rt_path_free(path);
    }
}

/* ---- several threads writing their own blocks into one file ---- */

typedef struct stream_order {
    uint64_t tids[8];
    uint64_t next_seq[8];  /* per thread: the tick it must emit next */
    uint32_t last_block[8];
    int bad;
} stream_order;

static void check_stream_order(const tp_record *r, void *context)
{
    stream_order *o = context;
    uint32_t thread;
    uint64_t seq;
    memcpy(&thread, r->payload, 4);
    memcpy(&seq, r->payload + 4, 8);
    if (thread >= 8 || r->stream != 0) {
        o->bad = 1;
        return;
    }
    if (o->next_seq[thread] == 0)
        o->tids[thread] = r->thread_id;
    /* In file order, each thread's records come in emit order, its blocks in sequence order. */
    o->bad |= seq != o->next_seq[thread] || r->thread_id != o->tids[thread] ||
              r->block_sequence < o->last_block[thread];
    o->next_seq[thread] = seq + 1;
    o->last_block[thread] = r->block_sequence;
}

/* The trace a closed session left at PATH, parsed whole: its TOTALS N events written, none dropped
 * or lost; TOTALS.bytes long (no gap, nothing past the end), its end block there and no torn tail,
 * N records, each thread's ticks in order (ORDER, zeroed here). Returns the file's bytes (*SIZE of
 * them; the caller frees them and tp_frees T). */
static uint8_t *read_ordered_ticks(const char *path, const evgen_session_totals *totals, uint64_t n, size_t *size,
                                   tp_trace *t, stream_order *order)
{
    assert_int_equal(totals->written, n);
    assert_int_equal(totals->dropped + totals->lost, 0);
    uint8_t *data = tp_read_file(path, size);
    assert_non_null(data);
    assert_int_equal(totals->bytes, *size);
    memset(order, 0, sizeof *order);
    int rc = tp_parse(data, *size, check_stream_order, order, t);
    if (rc != 0)
        fprintf(stderr, "%s\n", t->error);
    assert_int_equal(rc, 0);
    assert_true(t->has_end);
    assert_false(t->torn);
    assert_int_equal(t->n_records, n);
    assert_false(order->bad);
    return data;
}

/* A closed session's file holds COUNTS[i] ticks of each thread i < N_THREADS, whole and in order,
 * as its TOTALS say; frees TOTALS. */
static void assert_threads_ticks(const char *path, evgen_session_totals *totals, const uint64_t *counts,
                                 size_t n_threads)
{
    uint64_t all = 0;
    for (size_t i = 0; i < n_threads; i++)
        all += counts[i];
    size_t size;
    tp_trace t;
    stream_order order;
    uint8_t *data = read_ordered_ticks(path, totals, all, &size, &t, &order);
    for (size_t i = 0; i < n_threads; i++)
        assert_int_equal(order.next_seq[i], counts[i]);
    tp_free(&t);
    free(data);
    evgen_session_totals_free(totals);
}

typedef struct tick_job {
    uint32_t thread;
    uint64_t count;
} tick_job;

static void *emit_numbered_ticks(void *arg)
{
    const tick_job *job = arg;
    for (uint64_t k = 0; k < job->count; k++)
        if (fire_tick(job->thread, k) != EVGEN_EMIT_OK)
            return (void *)1;
    return NULL;
}

void evgen_rt_dio_force_align(uint32_t align);

/* Events blocks whose header is padded (header_size > 48) so that their payload starts at a
 * multiple of `align` in the file; -1 if one is padded but not so aligned. */
static long padded_blocks(const uint8_t *data, size_t size, uint32_t align)
{
    long padded = 0;
    for (size_t off = 48; off + 48 <= size;) {
        uint16_t header_size;
        uint32_t payload;
        memcpy(&header_size, data + off + 6, 2);
        memcpy(&payload, data + off + 8, 4);
        if (header_size > 48) {
            if ((off + header_size) % align != 0)
                return -1;
            padded++;
        }
        off += (size_t)header_size + payload;
    }
    return padded;
}

uint32_t evgen_rt_dio_alignment_in(const char *dir);

/* 1 if an O_DIRECT session writes the tests' temporary files with O_DIRECT (not the page cache). */
static int tempdir_has_direct_io(void)
{
    char *dir = evgen_test_tempdir();
    int direct = evgen_rt_dio_alignment_in(dir) > 1;
    evgen_test_rmtree(dir);
    free(dir);
    return direct;
}

uint8_t *evgen_rt_dio_slab(size_t bytes, size_t *mapped);
void evgen_rt_dio_slab_free(uint8_t *slab, size_t mapped);

/* The flags /proc/self/smaps gives the mapping that holds `p` ("" if none). */
static void vm_flags_of(const void *p, char *flags, size_t size)
{
    flags[0] = 0;
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f)
        return;
    char line[512];
    int inside = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
            inside = (uintptr_t)p >= lo && (uintptr_t)p < hi;
        else if (inside && strncmp(line, "VmFlags:", 8) == 0) {
            snprintf(flags, size, "%s", line + 8);
            break;
        }
    }
    fclose(f);
}

/* The O_DIRECT writer's pool: aligned to 2 MiB when it is that large, all of it writable, advised to
 * be transparent huge pages where the kernel has them ("hg" in smaps), and given back whole. */
static void test_runtime_dio_slab(void **state)
{
    (void)state;
    static const size_t sizes[] = {10000, (5u << 20) + 123, 4u << 20};
    char *thp = evgen_test_read("/sys/kernel/mm/transparent_hugepage/enabled");
    int advised = thp && !strstr(thp, "[never]"); /* the kernel has THP and may give them */
    free(thp);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t mapped = 0;
        uint8_t *slab = evgen_rt_dio_slab(sizes[i], &mapped);
        assert_non_null(slab);
        assert_true(mapped >= sizes[i] && mapped - sizes[i] < 65536);
        assert_int_equal((uintptr_t)slab % (2u << 20), 0);
        memset(slab, 0xa5, mapped);
        assert_int_equal(slab[mapped - 1], 0xa5);
        char flags[512];
        vm_flags_of(slab, flags, sizeof flags);
        if (advised)
            assert_non_null(strstr(flags, " hg"));
        evgen_rt_dio_slab_free(slab, mapped);
        vm_flags_of(slab, flags, sizeof flags);
        assert_string_equal(flags, ""); /* unmapped */
    }
}

static void test_runtime_block_writers(void **state)
{
    (void)state;
    /* The O_DIRECT writer as the file system has it, then forced: through the page cache (1), with
     * a 4096-byte alignment, and with one the device refuses (256: the first write fails with
     * EINVAL, and the session goes on through the page cache). */
    const evgen_block_writer writers[] = {EVGEN_BLOCK_WRITER_EMITTER,   EVGEN_BLOCK_WRITER_THREAD,
                                          EVGEN_BLOCK_WRITER_DIRECT_IO, EVGEN_BLOCK_WRITER_DIRECT_IO,
                                          EVGEN_BLOCK_WRITER_DIRECT_IO, EVGEN_BLOCK_WRITER_DIRECT_IO};
    const uint32_t forced[] = {0, 0, 0, 1, 4096, 256};
    int direct_io = tempdir_has_direct_io();
    for (size_t w = 0; w < 6; w++) {
        char *path = rt_path("threads.evtrace");
        evgen_session_options o = rt_options(4096, 16, 1024, EVGEN_WHEN_FULL_WAIT);
        o.block_writer = writers[w];
        evgen_rt_dio_force_align(forced[w]);
        evgen_session *s = evgen_session_open_file(path, &o);
        evgen_rt_dio_force_align(0);
        assert_non_null(s);
        assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
        enum { THREADS = 4, TICKS = 30000 };
        pthread_t threads[THREADS];
        tick_job jobs[THREADS];
        for (uint32_t i = 0; i < THREADS; i++) {
            jobs[i] = (tick_job){i, TICKS};
            assert_int_equal(pthread_create(&threads[i], NULL, emit_numbered_ticks, &jobs[i]), 0);
        }
        /* A flush in the middle takes partial buffers to the writer while the threads write theirs. */
        assert_int_equal(evgen_session_flush(s), 0);
        for (uint32_t i = 0; i < THREADS; i++) {
            void *failed;
            assert_int_equal(pthread_join(threads[i], &failed), 0);
            assert_null(failed);
        }
        evgen_session_totals totals;
        assert_int_equal(evgen_session_close(s, &totals, NULL, NULL), 0);

        size_t size;
        tp_trace t;
        stream_order order;
        uint8_t *data = read_ordered_ticks(path, &totals, THREADS * TICKS, &size, &t, &order);
        assert_true(t.n_blocks[2] >= THREADS * TICKS * 12 / 4096); /* many blocks per thread */
        long padded = padded_blocks(data, size, forced[w] > 1 ? forced[w] : 512);
        assert_true(padded >= 0);
        if (writers[w] != EVGEN_BLOCK_WRITER_DIRECT_IO || forced[w] == 1)
            assert_int_equal(padded, 0);
        else if (forced[w] == 0 && direct_io) /* most full blocks are written in place */
            assert_true(padded > (long)t.n_blocks[2] / 2);
        for (uint32_t i = 0; i < THREADS; i++)
            assert_int_equal(order.next_seq[i], TICKS);
        tp_free(&t);
        free(data);
        evgen_session_totals_free(&totals);
        rt_path_free(path);
    }
}

/* The events blocks of a file, in file order: where each lies and ends, and its padding. */
typedef struct block_place {
    uint64_t offset, end;
    uint32_t padding;
} block_place;

static size_t events_blocks(const uint8_t *data, size_t size, block_place *out, size_t cap)
{
    size_t n = 0;
    for (size_t off = 48; off + 48 <= size;) {
        uint16_t header_size;
        uint32_t payload;
        memcpy(&header_size, data + off + 6, 2);
        memcpy(&payload, data + off + 8, 4);
        size_t end = off + header_size + payload;
        if (data[off + 4] == 2 && n < cap) {
            out[n++] = (block_place){off, end, (uint32_t)header_size - 48};
            for (size_t i = off + 48; i < off + header_size; i++)
                assert_int_equal(data[i], 0); /* the padding is zeros */
        }
        off = end;
    }
    return n;
}

/* An EVGEN_BLOCK_WRITER_ADAPTIVE session of 64 KiB blocks (16 of them) on PATH, every event enabled. */
static evgen_session *open_adaptive(const char *path)
{
    evgen_session_options o = rt_options(64 * 1024 - 48, 16, 1024, EVGEN_WHEN_FULL_WAIT);
    o.block_writer = EVGEN_BLOCK_WRITER_ADAPTIVE;
    evgen_session *s = evgen_session_open_file(path, &o);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    return s;
}

/* EVGEN_BLOCK_WRITER_ADAPTIVE: the O_DIRECT writer writes the first blocks; once it hands the writing
 * over, the emitting threads write theirs through the page cache, on the span's grid, while the
 * writer writes the partial blocks of a flush, at places reserved the same way: one file, nothing
 * lost, each thread's records in order, the file's size what the totals say. A session whose
 * emitters never wait keeps the O_DIRECT writer. */
static void test_runtime_adaptive_hands_over(void **state)
{
    (void)state;
    const int direct_io = tempdir_has_direct_io();
    for (int hand_over = 0; hand_over < 2; hand_over++) {
        char *path = rt_path("adaptive.evtrace");
        evgen_session *s = open_adaptive(path);
        enum { THREADS = 4, TICKS = 40000, BEFORE = 20000 };
        /* This thread's ticks (numbered as a fifth thread's) through the O_DIRECT writer, nobody
         * waiting: no hand-over. */
        tick_job first = {THREADS, BEFORE};
        assert_null(emit_numbered_ticks(&first));
        assert_int_equal(evgen_session_flush(s), 0);
        /* (where the file takes no O_DIRECT, it hands over at its first look) */
        assert_int_equal(evgen_rt_adaptive_handed_over(s), !direct_io);
        if (hand_over) {
            evgen_rt_adaptive_force(1);
            assert_int_equal(evgen_session_flush(s), 0); /* wakes the writer, which hands over */
            int handed_over = handed_over_within_5s(s, 1);
            evgen_rt_adaptive_force(0); /* before any assertion: the next tests' sessions adapt */
            assert_true(handed_over);
        }
        pthread_t threads[THREADS];
        tick_job jobs[THREADS];
        for (uint32_t i = 0; i < THREADS; i++) {
            jobs[i] = (tick_job){i, TICKS};
            assert_int_equal(pthread_create(&threads[i], NULL, emit_numbered_ticks, &jobs[i]), 0);
        }
        assert_int_equal(evgen_session_flush(s), 0); /* partial blocks to the writer meanwhile */
        for (uint32_t i = 0; i < THREADS; i++) {
            void *failed;
            assert_int_equal(pthread_join(threads[i], &failed), 0);
            assert_null(failed);
        }
        if (hand_over) /* (without, four threads may wait for a slow disk and hand over too) */
            assert_true(evgen_rt_adaptive_handed_over(s));
        evgen_session_totals totals;
        assert_int_equal(evgen_session_close(s, &totals, NULL, NULL), 0);
        const uint64_t all = BEFORE + (uint64_t)THREADS * TICKS;

        size_t size;
        tp_trace t;
        stream_order order;
        uint8_t *data = read_ordered_ticks(path, &totals, all, &size, &t, &order);
        for (uint32_t i = 0; i < THREADS; i++)
            assert_int_equal(order.next_seq[i], TICKS);
        assert_int_equal(order.next_seq[THREADS], BEFORE);
        /* After the hand-over the emitters write their full blocks themselves, padded towards the
         * 64 KiB grid (a sixteenth of the span, 4096 bytes, at most; the O_DIRECT writer pads less
         * than its alignment, writer.c's loop not at all). */
        block_place places[64];
        size_t n = events_blocks(data, size, places, 64), own = 0;
        for (size_t i = 0; i < n; i++) {
            assert_true(places[i].padding <= 4096);
            own += places[i].end % (64 * 1024) == 0 || places[i].padding == 4096;
        }
        if (hand_over)
            assert_true(own > 0);
        tp_free(&t);
        free(data);
        evgen_session_totals_free(&totals);
        rt_path_free(path);
    }
}

void evgen_rt_adaptive_force_back(int take_back_at_once);

/* Ticks numbered as thread `thread`'s until `stop` is set, none while `pause` is; `count` of them. */
typedef struct endless_job {
    uint32_t thread;
    int *stop, *pause;
    uint64_t count;
} endless_job;

static void *emit_ticks_until_stopped(void *arg)
{
    endless_job *job = arg;
    for (job->count = 0; !__atomic_load_n(job->stop, __ATOMIC_ACQUIRE); job->count++) {
        while (__atomic_load_n(job->pause, __ATOMIC_ACQUIRE) && !__atomic_load_n(job->stop, __ATOMIC_ACQUIRE))
            sched_yield();
        if (fire_tick(job->thread, job->count) != EVGEN_EMIT_OK)
            return (void *)1;
    }
    return NULL;
}

/* EVGEN_BLOCK_WRITER_ADAPTIVE takes the writing back from the emitters and hands it over again,
 * several times, while four threads emit and this one flushes: the O_DIRECT writer goes on from
 * where the emitters' blocks end, after the blocks queued meanwhile. In every other cycle the
 * emitters pause after a flush, so that the writing is taken back with the file's end off the
 * alignment (a flush's partial blocks are not padded): the O_DIRECT writer writes the aligned piece
 * it lies in again, read back from the file. One file, nothing lost, each thread's records in
 * order, the file's size what the totals say. */
static void test_runtime_adaptive_takes_back(void **state)
{
    (void)state;
    if (!tempdir_has_direct_io()) { /* no O_DIRECT to take the writing back to */
        skip();
        return;
    }
    char *path = rt_path("adaptive-back.evtrace");
    evgen_session *s = open_adaptive(path);
    enum { THREADS = 4, CYCLES = 8 };
    int stop = 0, pause = 0;
    pthread_t threads[THREADS];
    endless_job jobs[THREADS];
    for (uint32_t i = 0; i < THREADS; i++) {
        jobs[i] = (endless_job){i, &stop, &pause, 0};
        assert_int_equal(pthread_create(&threads[i], NULL, emit_ticks_until_stopped, &jobs[i]), 0);
    }
    int handed_over[CYCLES], taken_back[CYCLES], flushed = 0;
    for (int c = 0; c < CYCLES; c++) {
        evgen_rt_adaptive_force(1);
        flushed |= evgen_session_flush(s); /* wakes the writer, which hands over */
        handed_over[c] = handed_over_within_5s(s, 1);
        evgen_rt_adaptive_force(0);
        nanosleep(&(struct timespec){0, 20000000}, NULL); /* the emitters write their own blocks */
        if (c % 2) {
            __atomic_store_n(&pause, 1, __ATOMIC_RELEASE);
            flushed |= evgen_session_flush(s);
        }
        evgen_rt_adaptive_force_back(1);
        taken_back[c] = handed_over_within_5s(s, 0);
        evgen_rt_adaptive_force_back(0);
        __atomic_store_n(&pause, 0, __ATOMIC_RELEASE);
        flushed |= evgen_session_flush(s);
        nanosleep(&(struct timespec){0, 20000000}, NULL); /* the O_DIRECT writer writes them */
    }
    __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
    uint64_t all = 0;
    for (uint32_t i = 0; i < THREADS; i++) {
        void *failed;
        assert_int_equal(pthread_join(threads[i], &failed), 0);
        assert_null(failed);
        all += jobs[i].count;
    }
    evgen_session_totals totals;
    assert_int_equal(evgen_session_close(s, &totals, NULL, NULL), 0);
    /* (the hooks are back to 0 before any assertion: the next tests' sessions adapt) */
    assert_int_equal(flushed, 0);
    for (int c = 0; c < CYCLES; c++) {
        assert_true(handed_over[c]);
        assert_true(taken_back[c]);
    }
    size_t size;
    tp_trace t;
    stream_order order;
    uint8_t *data = read_ordered_ticks(path, &totals, all, &size, &t, &order);
    for (uint32_t i = 0; i < THREADS; i++)
        assert_int_equal(order.next_seq[i], jobs[i].count);
    /* The O_DIRECT writer wrote after the take-backs: blocks padded so that their payload starts on
     * its alignment, not ending on the emitters' 64 KiB grid. */
    enum { MAX_BLOCKS = 1 << 16 };
    block_place *places = malloc(MAX_BLOCKS * sizeof *places);
    assert_non_null(places);
    size_t n = events_blocks(data, size, places, MAX_BLOCKS), direct = 0;
    for (size_t i = 0; i < n; i++)
        direct += places[i].padding > 0 && (places[i].offset + 48 + places[i].padding) % 512 == 0 &&
                  places[i].end % (64 * 1024) != 0;
    free(places);
    assert_true(direct > CYCLES);
    tp_free(&t);
    free(data);
    evgen_session_totals_free(&totals);
    rt_path_free(path);
}

/* Left to itself, an adaptive session's writer takes the writing back once the emitters have been
 * quiet for a while (the burst is over), with no hook: here after a hand-over forced when 8 MB had
 * gone with O_DIRECT (what the writer needs to know the disk's speed), and nothing emitted since.
 * The events emitted after it are in the file with the others, in order. */
static void test_runtime_adaptive_takes_back_when_quiet(void **state)
{
    (void)state;
    if (!tempdir_has_direct_io()) {
        skip();
        return;
    }
    char *path = rt_path("adaptive-quiet.evtrace");
    evgen_session *s = open_adaptive(path);
    enum { BURST = 700000, AFTER = 50000 }; /* ticks of 12 bytes: 8.4 MB, then 0.6 MB */
    tick_job burst = {0, BURST};
    assert_null(emit_numbered_ticks(&burst));
    assert_int_equal(evgen_session_flush(s), 0);
    evgen_rt_adaptive_force(1);
    assert_int_equal(evgen_session_flush(s), 0);
    int handed_over = handed_over_within_5s(s, 1);
    evgen_rt_adaptive_force(0);
    int taken_back = handed_over_within_5s(s, 0);
    tick_job after = {1, AFTER};
    assert_null(emit_numbered_ticks(&after));
    evgen_session_totals totals;
    assert_int_equal(evgen_session_close(s, &totals, NULL, NULL), 0);
    assert_true(handed_over);
    assert_true(taken_back);
    assert_threads_ticks(path, &totals, (const uint64_t[]){BURST, AFTER}, 2);
    rt_path_free(path);
}

/* EVGEN_BLOCK_WRITER_AUTO, the default: a file session that waits when full is an adaptive one (its
 * writer hands the writing over when told to, and at its first look where the file takes no
 * O_DIRECT); one that drops has no O_DIRECT writer to hand over from, nor has an
 * EVGEN_BLOCK_WRITER_EMITTER session. Each writes every event, in order. */
static void test_runtime_auto_writer(void **state)
{
    (void)state;
    const int direct_io = tempdir_has_direct_io();
    const struct {
        evgen_when_full when_full;
        evgen_block_writer writer;
        uint32_t align; /* evgen_rt_dio_force_align's: 0 as statx says, 1 no O_DIRECT */
        int force;      /* evgen_rt_adaptive_force's */
        int handed_over;
    } cases[] = {
        {EVGEN_WHEN_FULL_WAIT, EVGEN_BLOCK_WRITER_AUTO, 0, 0, !direct_io},
        {EVGEN_WHEN_FULL_WAIT, EVGEN_BLOCK_WRITER_AUTO, 0, 1, 1},
        {EVGEN_WHEN_FULL_WAIT, EVGEN_BLOCK_WRITER_AUTO, 1, 0, 1},
        {EVGEN_WHEN_FULL_WAIT, EVGEN_BLOCK_WRITER_ADAPTIVE, 1, 0, 1},
        {EVGEN_WHEN_FULL_DROP, EVGEN_BLOCK_WRITER_AUTO, 0, 1, 0},
        {EVGEN_WHEN_FULL_WAIT, EVGEN_BLOCK_WRITER_EMITTER, 0, 1, 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char *path = rt_path("auto.evtrace");
        /* a pool that holds every block: the session that drops drops none */
        evgen_session_options o = rt_options(4096, 64, 1024, cases[c].when_full);
        o.block_writer = cases[c].writer;
        evgen_rt_dio_force_align(cases[c].align);
        evgen_session *s = evgen_session_open_file(path, &o);
        evgen_rt_dio_force_align(0);
        assert_non_null(s);
        assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
        evgen_rt_adaptive_force(cases[c].force);
        enum { TICKS = 5000 }; /* some twenty blocks */
        tick_job job = {0, TICKS};
        void *failed = emit_numbered_ticks(&job);
        int flushed = evgen_session_flush(s); /* wakes the writer, which looks */
        int handed_over = cases[c].handed_over ? handed_over_within_5s(s, 1) : evgen_rt_adaptive_handed_over(s);
        evgen_rt_adaptive_force(0); /* before any assertion: the next tests' sessions adapt */
        assert_null(failed);
        assert_int_equal(flushed, 0);
        assert_int_equal(handed_over, cases[c].handed_over);
        evgen_session_totals totals;
        assert_int_equal(evgen_session_close(s, &totals, NULL, NULL), 0);
        assert_threads_ticks(path, &totals, (const uint64_t[]){TICKS}, 1);
        rt_path_free(path);
    }
}

void evgen_rt_adaptive_hold(int stage);
int evgen_rt_adaptive_holding(void);
void evgen_rt_before_end_block(void (*hook)(evgen_session *s));

static int handed_over_before_end; /* what release_hand_over saw */

/* Close's hook: the writer, held before its hand-over while close queued the streams' last blocks
 * (unplaced, as the O_DIRECT writer's), hands over now, then waits until the session stops. */
static void release_hand_over(evgen_session *s)
{
    evgen_rt_adaptive_hold(2);
    handed_over_before_end = handed_over_within_5s(s, 1);
}

/* An adaptive session's writer hands over between close's last partial blocks, queued unplaced,
 * and its end block (the CI caught it once, unforced): the end block takes its place after them,
 * where it once took the file's end at once and the trace had blocks after its end. */
static void test_runtime_adaptive_end_block_last(void **state)
{
    (void)state;
    if (!tempdir_has_direct_io()) { /* no O_DIRECT phase to hold: it hands over at once */
        skip();
        return;
    }
    char *path = rt_path("adaptive-end.evtrace");
    evgen_session *s = open_adaptive(path);
    enum { TICKS = 300 }; /* a partial block, still in this thread's stream */
    tick_job job = {0, TICKS};
    assert_null(emit_numbered_ticks(&job));
    evgen_rt_adaptive_hold(1);
    evgen_rt_adaptive_force(1);
    int held = 0;
    for (int ms = 0; ms < 5000 && !(held = evgen_rt_adaptive_holding()); ms++)
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    handed_over_before_end = 0;
    evgen_rt_before_end_block(release_hand_over);
    evgen_session_totals totals;
    int closed = evgen_session_close(s, &totals, NULL, NULL);
    evgen_rt_before_end_block(NULL); /* before any assertion: the next tests' sessions run free */
    evgen_rt_adaptive_force(0);
    evgen_rt_adaptive_hold(0);
    assert_true(held);
    assert_true(handed_over_before_end);
    assert_int_equal(closed, 0);
    assert_threads_ticks(path, &totals, (const uint64_t[]){TICKS}, 1);
    rt_path_free(path);
}

/* A thread that writes its own full blocks (EVGEN_BLOCK_WRITER_EMITTER) pads each to end on a multiple
 * of the span (48 + buffer_size, a power of two), at most a sixteenth of the span per block: after
 * the metadata or a flush moved the file's end off that grid, it is back within sixteen blocks,
 * and stays there; a buffer size whose span is not a power of two pads nothing. */
static void test_runtime_blocks_on_span(void **state)
{
    (void)state;
    const uint32_t spans[] = {256 * 1024, 64 * 1024, 66 * 1024 + 48};
    for (size_t c = 0; c < 3; c++) {
        const uint32_t span = spans[c];
        const int on_grid_wanted = (span & (span - 1)) == 0;
        char *path = rt_path("span.evtrace");
        evgen_session_options o;
        evgen_session_options_init(&o);
        o.buffer_size = span - 48;
        o.max_payload = 1024;
        o.block_writer = EVGEN_BLOCK_WRITER_EMITTER;
        evgen_session *s = evgen_session_open_file(path, &o);
        assert_non_null(s);
        assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
        /* 12-byte records: some 48 full blocks, a flush halfway */
        const uint64_t ticks = (uint64_t)span / 14 * 48, flush_at = ticks / 2;
        for (uint64_t k = 0; k < ticks; k++) {
            if (k == flush_at)
                assert_int_equal(evgen_session_flush(s), 0);
            assert_int_equal(fire_tick(0, k), EVGEN_EMIT_OK);
        }
        evgen_session_totals totals;
        assert_int_equal(evgen_session_close(s, &totals, NULL, NULL), 0);

        size_t size;
        tp_trace t;
        stream_order order;
        uint8_t *data = read_ordered_ticks(path, &totals, ticks, &size, &t, &order); /* the padding counted */
        assert_int_equal(order.next_seq[0], ticks);

        block_place blocks[80];
        size_t n = events_blocks(data, size, blocks, 80);
        assert_true(n >= 40 && n < 80);
        /* the blocks before the flush's, those after it, the last one (written at close): each run
         * of full blocks reaches the grid within sixteen blocks, then stays on it */
        size_t flushed = 0; /* the first block cut short: a full one ends within a record (< 32
                             * bytes) of its buffer; by how much the flush cuts its block depends
                             * on the record sizes, which the clock's deltas decide (under the
                             * sanitizers, more than half a block: the test took it for a full one) */
        while (flushed < n && blocks[flushed].end - blocks[flushed].offset - blocks[flushed].padding + 32 >= span)
            flushed++;
        assert_true(flushed > 16 && flushed + 18 < n); /* the flush's partial block */
        size_t off_grid = 0, padded = 0;
        for (size_t b = 0; b + 1 < n; b++) {
            if (b == flushed)
                continue;
            int on_grid = blocks[b].end % span == 0;
            padded += blocks[b].padding != 0;
            if (!on_grid_wanted) {
                assert_int_equal(blocks[b].padding, 0);
                continue;
            }
            assert_true(blocks[b].padding <= span / 16);
            size_t since = b < flushed ? b : b - flushed - 1; /* full blocks since the grid was lost */
            if (since >= 16 && !on_grid)
                fail_msg("span %u: block %zu of %zu ends at %llu, off the grid", span, b, n,
                         (unsigned long long)blocks[b].end);
            off_grid += !on_grid;
        }
        if (on_grid_wanted)
            assert_true(off_grid <= 32 && padded > n / 2);
        else
            assert_int_equal(padded, 0);
        tp_free(&t);
        free(data);
        evgen_session_totals_free(&totals);
        rt_path_free(path);
    }
}

/* ---- fork: the child does not inherit the parent's session ---- */

static void test_runtime_fork_child(void **state)
{
    (void)state;
    evgen_session *s = evgen_session_open_memory(NULL);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    assert_int_equal(fire_tick(0, 0), EVGEN_EMIT_OK);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (fire_tick(0, 1) != EVGEN_EMIT_DISABLED || testevents_enabled[2])
            _exit(20);
        evgen_session *c = evgen_session_open_memory(NULL); /* its own session works */
        if (!c || evgen_session_enable(c, NULL, 255, ~0ull) != 0 || fire_tick(0, 2) != EVGEN_EMIT_OK)
            _exit(21);
        uint8_t *mem;
        size_t size;
        evgen_session_totals totals;
        if (evgen_session_close(c, &totals, &mem, &size) != 0 || totals.written != 1 ||
            totals.threads[0].thread_id != rt_gettid())
            _exit(22);
        tp_trace t;
        if (tp_parse(mem, size, NULL, NULL, &t) != 0 || t.n_records != 1 || t.process_id != (uint32_t)getpid())
            _exit(23);
        _exit(0);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_int_equal(fire_tick(0, 3), EVGEN_EMIT_OK);
    evgen_session_totals totals;
    assert_int_equal(evgen_session_close(s, &totals, NULL, NULL), 0);
    assert_int_equal(totals.written, 2);
    evgen_session_totals_free(&totals);
}

/* ---- descriptors the runtime must refuse ---- */

static uint8_t bad_enabled[1];
static const char *const bad_providers[] = {"Bad-Provider"};
static const evgen_field_desc bad_fields[] = {{"Value", EVGEN_WIRE_U64, 0, -1, -1, -1}};
static const evgen_version_desc bad_versions[] = {{sizeof(evgen_version_desc), 0, 0, 8, bad_fields, 1, 0, 0, 0}};
static const evgen_event_desc bad_events[] = {{sizeof(evgen_event_desc), "Bad", 0, 1, 4, 0, bad_versions, 1, 0}};
static const evgen_event_desc bad_offset_events[] = {
    {sizeof(evgen_event_desc), "Bad", 0, 1, 4, 0, bad_versions, 1, 1}}; /* type_offset should be 0 */

static void test_runtime_invalid_manifest(void **state)
{
    (void)state;
    evgen_manifest_desc stale_abi = {sizeof(evgen_manifest_desc), EVGEN_RUNTIME_ABI + 1, "stale", bad_providers, 1,
                                     bad_events, 1, 1, NULL, 0, NULL, 0, bad_enabled, 0, NULL, 0};
    evgen_manifest_desc bad_types = {sizeof(evgen_manifest_desc), EVGEN_RUNTIME_ABI, "badtypes", bad_providers, 1,
                                     bad_offset_events, 1, 1, NULL, 0, NULL, 0, bad_enabled, 0, NULL, 0};
    evgen_manifest_desc bad_count = {sizeof(evgen_manifest_desc), EVGEN_RUNTIME_ABI, "badcount", bad_providers, 1,
                                     bad_events, 1, 2, NULL, 0, NULL, 0, bad_enabled, 0, NULL, 0};
    evgen_session *s = evgen_session_open_memory(NULL);
    assert_non_null(s);
    evgen_register_manifest(&stale_abi);
    evgen_register_manifest(&bad_types);
    evgen_register_manifest(&bad_count);
    evgen_register_manifest(NULL);
    assert_null(stale_abi.next);
    errno = 0;
    assert_int_equal(evgen_session_enable(s, "Bad-Provider", 255, ~0ull), -1);
    assert_int_equal(errno, ENOENT);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    assert_int_equal(bad_enabled[0], 0);
    uint8_t *mem;
    size_t size;
    assert_int_equal(evgen_session_close(s, NULL, &mem, &size), 0);
    tp_trace t;
    assert_int_equal(tp_parse(mem, size, NULL, NULL, &t), 0);
    for (size_t i = 0; i < t.n_manifests; i++)
        assert_string_not_equal(t.manifests[i].name, "stale");
    tp_free(&t);
    free(mem);
}

/* ---- flush on one thread while another closes ---- */

typedef struct flusher {
    evgen_session *session;
    unsigned ok;
    int last_errno;
} flusher;

static void *flush_until_closed(void *arg)
{
    flusher *f = arg;
    while (evgen_session_flush(f->session) == 0)
        f->ok++;
    f->last_errno = errno;
    return NULL;
}

static void test_runtime_flush_races_close(void **state)
{
    (void)state;
    for (int round = 0; round < 20; round++) {
        evgen_session_options o = rt_options(4096, 4, 1024, EVGEN_WHEN_FULL_WAIT);
        flusher f = {evgen_session_open_memory(&o), 0, 0};
        assert_non_null(f.session);
        assert_int_equal(evgen_session_enable(f.session, NULL, 255, ~0ull), 0);
        pthread_t th;
        assert_int_equal(pthread_create(&th, NULL, flush_until_closed, &f), 0);
        for (uint64_t k = 0; k < 2000; k++)
            assert_int_equal(fire_tick(0, k), EVGEN_EMIT_OK);
        evgen_session_totals totals;
        uint8_t *mem;
        size_t size;
        assert_int_equal(evgen_session_close(f.session, &totals, &mem, &size), 0);
        pthread_join(th, NULL);
        assert_int_equal(f.last_errno, EINVAL); /* the session was gone */
        assert_int_equal(totals.written, 2000);
        tp_trace t;
        assert_int_equal(tp_parse(mem, size, NULL, NULL, &t), 0);
        assert_int_equal(t.n_records, 2000);
        assert_true(t.has_end);
        tp_free(&t);
        free(mem);
        evgen_session_totals_free(&totals);
    }
}

/* The checksum: the runtime's (hardware or table) and the parser's (bit by bit) agree with the
 * CRC-32C check value and with each other on every length and alignment. */
static void test_runtime_crc32c(void **state)
{
    (void)state;
    assert_int_equal(evgen_crc32c(0, "123456789", 9), 0xE3069283u);
    assert_int_equal(tp_crc32(0, (const uint8_t *)"123456789", 9), 0xE3069283u);
    uint8_t data[300];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 131 + 7);
    for (size_t start = 0; start < 9; start++) {
        for (size_t n = 0; n + start <= sizeof data; n += 7) {
            uint32_t whole = evgen_crc32c(0, data + start, n);
            assert_int_equal(whole, tp_crc32(0, data + start, n));
            size_t half = n / 2;
            assert_int_equal(evgen_crc32c(evgen_crc32c(0, data + start, half), data + start + half, n - half), whole);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runtime_crc32c),
        cmocka_unit_test(test_runtime_options),
        cmocka_unit_test(test_runtime_header_and_metadata),
        cmocka_unit_test(test_runtime_records_round_trip),
        cmocka_unit_test(test_runtime_sinks_agree),
        cmocka_unit_test(test_runtime_enable_disable),
        cmocka_unit_test(test_runtime_too_big),
        cmocka_unit_test(test_runtime_thread_exit_writes),
        cmocka_unit_test(test_runtime_flush_idle_thread),
        cmocka_unit_test(test_runtime_tsc_clock),
        cmocka_unit_test(test_runtime_callback_reentry),
        cmocka_unit_test(test_runtime_sink_error),
        cmocka_unit_test(test_runtime_sink_injected),
        cmocka_unit_test(test_runtime_dio_slab),
        cmocka_unit_test(test_runtime_block_writers),
        cmocka_unit_test(test_runtime_blocks_on_span),
        cmocka_unit_test(test_runtime_adaptive_hands_over),
        cmocka_unit_test(test_runtime_adaptive_takes_back),
        cmocka_unit_test(test_runtime_adaptive_takes_back_when_quiet),
        cmocka_unit_test(test_runtime_adaptive_end_block_last),
        cmocka_unit_test(test_runtime_auto_writer),
        cmocka_unit_test(test_runtime_fork_child),
        cmocka_unit_test(test_runtime_invalid_manifest),
        cmocka_unit_test(test_runtime_flush_races_close),
        cmocka_unit_test(test_runtime_late_registration), /* last: registers a second manifest */
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
