/* test_reader_read.c — libevgen-reader reads back what the runtime wrote: every event of the
 * fire-all harness and of a several-thread mix equals the record the runtime tests' independent
 * parser finds (event, version, payload, thread, ticks), in file order and merged in time order;
 * metadata, thread totals, dispatch, field lookup and variable-field ends; and hand-made traces
 * for what the runtime never writes: many variable fields, short payloads, other clocks, bad
 * headers, bad blocks of every kind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h> /* truncate */

#include <cmocka.h>

#include "evgen/reader.h"
#include "reader_helpers.h"
#include "roundtrip.h"
#include "test_support.h"
#include "trace_parse.h"

size_t gcevents_fire_all(void);

/* ---- the oracle: the independent parser's records ---------------------------------------- */

typedef struct oracle {
    tp_trace parsed;
    tp_records records;
} oracle;

static void parse(const rh_trace *t, oracle *o)
{
    memset(o, 0, sizeof *o);
    if (tp_parse(t->data, t->size, tp_collect, &o->records, &o->parsed) != 0)
        fail_msg("the independent parser refuses the trace: %s", o->parsed.error);
}

static void free_oracle(oracle *o)
{
    tp_records_free(&o->records);
    tp_free(&o->parsed);
}

static const tp_event *record_event(const oracle *o, const tp_record *r, uint64_t *version)
{
    const tp_type *ty = &o->parsed.types[r->type];
    const tp_event *e = &o->parsed.manifests[ty->manifest].events[ty->event];
    *version = e->versions[ty->version].version;
    return e;
}

/* The reader's event equals the parser's record. */
static void check_event(const oracle *o, const tp_record *r, const evgen_event *ev, const evgen_trace_header *h)
{
    uint64_t version;
    const tp_event *e = record_event(o, r, &version);
    if (strcmp(ev->info->name, e->name) != 0 || ev->version != version || ev->layout->version != version)
        fail_msg("event %s v%u, the parser has %s v%llu", ev->info->name, ev->version, e->name,
                 (unsigned long long)version);
    assert_int_equal(ev->info->id, e->id);
    assert_int_equal(ev->size, r->size);
    assert_memory_equal(ev->payload, r->payload, r->size);
    assert_int_equal(ev->thread_id, r->thread_id);
    assert_int_equal(ev->ticks, r->ticks);
    assert_int_equal(ev->timestamp_ns, r->ticks - h->start_ticks); /* CLOCK_MONOTONIC: ticks are ns */
    assert_int_equal(ev->pointer_size, 8);
}

/* Every field of the event is found, back to back, and the last one ends with the payload; the
 * variable ends the event holds agree. */
static void check_fields(const evgen_event *ev)
{
    uint32_t at = 0, var = 0;
    for (uint32_t f = 0; f < ev->layout->n_fields; f++) {
        uint32_t off = 0, size = 0;
        if (!evgen_event_field(ev, f, &off, &size))
            fail_msg("%s v%u: field %s not found", ev->info->name, ev->version, ev->layout->fields[f].name);
        assert_int_equal(off, at);
        const evgen_trace_field *fd = &ev->layout->fields[f];
        if (fd->is_array || fd->kind == 15 || fd->kind == 16) {
            if (var < ev->n_variable)
                assert_int_equal(ev->variable_end[var], off + size);
            var++;
        }
        at = off + size;
    }
    assert_int_equal(at, ev->size);
    assert_int_equal(var, ev->layout->n_variable);
    assert_int_equal(ev->n_variable, var < EVGEN_EVENT_MAX_VARIABLE ? var : EVGEN_EVENT_MAX_VARIABLE);
    uint32_t off, size;
    assert_false(evgen_event_field(ev, ev->layout->n_fields, &off, &size));
}

static evgen_reader *open_trace(const rh_trace *t)
{
    return rh_open_memory(t->data, t->size);
}

static void assert_clean(const evgen_reader *rd)
{
    size_t n;
    const evgen_read_problem *p = evgen_reader_problems(rd, &n);
    if (n)
        fail_msg("problem at offset %llu: %s", (unsigned long long)p[0].offset, p[0].message);
    assert_int_equal(evgen_reader_status(rd, NULL), EVGEN_READ_OK);
}

/* ---- traces from the runtime -------------------------------------------------------------- */

static void test_every_fired_event_reads_back(void **state)
{
    (void)state;
    rh_trace t;
    rh_record(gcevents_fire_all, 0, &t);
    oracle o;
    parse(&t, &o);
    evgen_reader *rd = open_trace(&t);
    assert_clean(rd);
    const evgen_trace_header *h = evgen_reader_header(rd);
    assert_int_equal(h->format_version, 2);
    assert_int_equal(h->pointer_size, 8);
    assert_int_equal(h->clock_kind, 1);
    assert_int_equal(h->clock_frequency, 1000000000u);
    assert_int_equal(h->start_ticks, o.parsed.start_ticks);
    assert_int_equal(h->process_id, o.parsed.process_id);
    assert_int_equal(evgen_reader_file_size(rd), t.size);

    evgen_event ev;
    size_t n = 0;
    uint64_t last_offset = 0;
    while (evgen_reader_next(rd, &ev)) {
        assert_true(n < o.records.n);
        check_event(&o, &o.records.items[n], &ev, h);
        assert_true(ev.offset > last_offset && ev.offset < t.size);
        assert_ptr_equal(ev.payload, t.data + (ev.payload - t.data)); /* into the trace itself */
        assert_true(ev.payload > t.data + ev.offset && ev.payload + ev.size <= t.data + t.size);
        last_offset = ev.offset;
        check_fields(&ev);
        n++;
    }
    assert_int_equal(n, 111);
    assert_int_equal(n, o.records.n);
    assert_false(evgen_reader_next(rd, &ev)); /* stays at the end */

    /* Metadata: every event of the manifest, by index and by name; enums and structs. */
    assert_int_equal(evgen_reader_event_count(rd), o.parsed.manifests[0].n_events);
    for (size_t i = 0; i < evgen_reader_event_count(rd); i++) {
        const evgen_trace_event_info *e = evgen_reader_event_info(rd, i);
        assert_int_equal(e->index, i);
        assert_string_equal(e->name, o.parsed.manifests[0].events[i].name);
        assert_ptr_equal(evgen_reader_find_event(rd, e->provider, e->name), e);
        assert_int_equal(e->n_versions, o.parsed.manifests[0].events[i].n_versions);
        for (uint32_t v = 1; v < e->n_versions; v++)
            assert_true(e->versions[v].version > e->versions[v - 1].version);
    }
    assert_null(evgen_reader_event_info(rd, evgen_reader_event_count(rd)));
    assert_null(evgen_reader_find_event(rd, NULL, "NoSuchEvent"));
    assert_null(evgen_reader_find_event(rd, "No-Such-Provider", "GCStart"));
    const evgen_trace_event_info *start = evgen_reader_find_event(rd, NULL, "GCStart");
    assert_non_null(start);
    assert_string_equal(start->provider, "Microsoft-Windows-DotNETRuntime");
    assert_string_equal(start->manifest->name, "gcevents");
    assert_int_equal(start->versions[0].legacy, 1);
    assert_int_equal(start->versions[2].fixed_size, 26);
    const evgen_trace_field *reason = &start->versions[2].fields[2];
    assert_string_equal(reason->name, "Reason");
    assert_true(reason->enum_index >= 0);
    const evgen_trace_enum *en = &start->manifest->enums[reason->enum_index];
    assert_string_equal(en->name, "GCReason");
    assert_string_equal(en->consts[0].name, "AllocSmall");
    const evgen_trace_event_info *compact = evgen_reader_find_event(rd, NULL, "GCLOHCompact");
    const evgen_trace_field *values = &compact->versions[0].fields[2];
    assert_int_equal(values->is_array, 1);
    assert_int_equal(values->kind, 17);
    assert_int_equal(values->count_field, 1);
    assert_int_equal(compact->manifest->structs[values->struct_index].stride, 32);
    assert_int_equal(compact->versions[0].fixed_size, -1);
    assert_int_equal(compact->versions[0].n_variable, 1);

    size_t nt;
    int has_end;
    const evgen_reader_thread *threads = evgen_reader_threads(rd, &nt, &has_end);
    assert_int_equal(nt, 1);
    assert_true(has_end);
    assert_int_equal(threads[0].events, 111);
    assert_int_equal(threads[0].written_end, 111);
    assert_int_equal(threads[0].dropped + threads[0].dropped_end + threads[0].too_big_end, 0);
    evgen_reader_close(rd);
    free_oracle(&o);
    free(t.data);
    roundtrip_free();
}

/* Reads the whole trace in one order into an array. */
static evgen_event *read_all(evgen_reader *rd, evgen_order order, size_t *n)
{
    size_t cap = 1024;
    evgen_event *all = malloc(cap * sizeof *all);
    *n = 0;
    evgen_reader_rewind(rd, order);
    for (;;) {
        if (*n == cap)
            all = realloc(all, (cap *= 2) * sizeof *all);
        if (!evgen_reader_next(rd, &all[*n]))
            break;
        (*n)++;
    }
    return all;
}

static int by_offset(const void *a, const void *b)
{
    const evgen_event *x = a, *y = b;
    return (x->offset > y->offset) - (x->offset < y->offset);
}

static void test_several_threads_in_file_and_time_order(void **state)
{
    (void)state;
    rh_trace t;
    rh_record_mixed(4, 300, 4096, &t);
    oracle o;
    parse(&t, &o);
    assert_true(o.parsed.n_blocks[2] > 40); /* many blocks, interleaved */
    evgen_reader *rd = open_trace(&t);
    assert_clean(rd);
    const evgen_trace_header *h = evgen_reader_header(rd);

    /* File order: the parser's records, one for one. */
    size_t n_file;
    evgen_event *file = read_all(rd, EVGEN_ORDER_FILE, &n_file);
    assert_int_equal(n_file, o.records.n);
    assert_int_equal(n_file, 4 * 300 * 7);
    for (size_t i = 0; i < n_file; i++) {
        check_event(&o, &o.records.items[i], &file[i], h);
        check_fields(&file[i]);
        if (i)
            assert_true(file[i].offset > file[i - 1].offset);
    }

    /* Time order: the same events, timestamps never decreasing, ties by thread then offset, and
     * each thread's events in their file order. */
    size_t n_time;
    evgen_event *timed = read_all(rd, EVGEN_ORDER_TIME, &n_time);
    assert_int_equal(n_time, n_file);
    for (size_t i = 1; i < n_time; i++) {
        const evgen_event *a = &timed[i - 1], *b = &timed[i];
        assert_true(a->timestamp_ns <= b->timestamp_ns);
        if (a->ticks == b->ticks) {
            assert_true(a->thread_id <= b->thread_id);
            if (a->thread_id == b->thread_id)
                assert_true(a->offset < b->offset);
        }
    }
    size_t nt;
    const evgen_reader_thread *threads = evgen_reader_threads(rd, &nt, NULL);
    assert_int_equal(nt, 4);
    for (size_t k = 0; k < nt; k++) {
        size_t i = 0, j = 0, count = 0;
        for (;; i++, j++) {
            while (i < n_file && file[i].thread_id != threads[k].thread_id)
                i++;
            while (j < n_time && timed[j].thread_id != threads[k].thread_id)
                j++;
            if (i == n_file || j == n_time)
                break;
            assert_int_equal(file[i].offset, timed[j].offset);
            count++;
        }
        assert_true(i == n_file && j == n_time);
        assert_int_equal(count, 300 * 7);
        assert_int_equal(threads[k].events, 300 * 7);
        assert_int_equal(threads[k].written_end, 300 * 7);
    }
    qsort(timed, n_time, sizeof *timed, by_offset);
    for (size_t i = 0; i < n_time; i++)
        assert_int_equal(timed[i].offset, file[i].offset);

    /* Rewinding gives the same again. */
    size_t n_again;
    evgen_event *again = read_all(rd, EVGEN_ORDER_FILE, &n_again);
    assert_int_equal(n_again, n_file);
    for (size_t i = 0; i < n_again; i++)
        assert_int_equal(again[i].offset, file[i].offset);
    free(again);
    free(timed);
    free(file);
    evgen_reader_close(rd);
    free_oracle(&o);
    free(t.data);
}

/* The same trace from a file (mapped) as from memory. */
static void test_open_file_maps_the_same_trace(void **state)
{
    (void)state;
    rh_trace t;
    rh_record_mixed(2, 50, 4096, &t);
    char *dir = evgen_test_tempdir();
    char *path = rh_write_file(dir, "mixed.evtrace", t.data, t.size);
    char *error = NULL;
    evgen_reader *a = evgen_reader_open(path, &error);
    assert_non_null(a);
    assert_null(error);
    evgen_reader *b = open_trace(&t);
    assert_int_equal(evgen_reader_file_size(a), t.size);
    evgen_event x, y;
    size_t n = 0;
    evgen_reader_rewind(a, EVGEN_ORDER_TIME);
    evgen_reader_rewind(b, EVGEN_ORDER_TIME);
    while (evgen_reader_next(a, &x)) {
        assert_true(evgen_reader_next(b, &y));
        assert_int_equal(x.offset, y.offset);
        assert_int_equal(x.size, y.size);
        assert_memory_equal(x.payload, y.payload, x.size);
        n++;
    }
    assert_false(evgen_reader_next(b, &y));
    assert_int_equal(n, 2 * 50 * 7);
    evgen_reader_close(a);
    evgen_reader_close(b);
    evgen_test_rmtree(dir);
    free(path);
    free(dir);
    free(t.data);
}

/* ---- a trace written with O_DIRECT: padded block headers ---------------------------------- */

/* Test hook of libevgen-runtime: the alignment its O_DIRECT writer would use in DIR (1: none). */
uint32_t evgen_rt_dio_alignment_in(const char *dir);

/* An order-free digest of a trace's events: the sum of each payload's crc with its size. */
static uint64_t payload_digest(evgen_reader *r, size_t *n)
{
    evgen_event ev;
    uint64_t sum = 0;
    *n = 0;
    evgen_reader_rewind(r, EVGEN_ORDER_FILE);
    while (evgen_reader_next(r, &ev)) {
        sum += tp_crc32(0, ev.payload, ev.size) + ((uint64_t)ev.size << 32);
        (*n)++;
    }
    return sum;
}

/* EVGEN_BLOCK_WRITER_DIRECT_IO pads a block's header so that its payload starts aligned in the file
 * (header_size above 48): the reader reads such a trace as it reads the same events from memory,
 * and after a damaged block it resyncs on the padded blocks that follow. */
static void test_direct_io_trace_reads_like_any(void **state)
{
    (void)state;
    enum { THREADS = 2, ROUNDS = 400 };
    rh_trace t;
    rh_record_mixed(THREADS, ROUNDS, 4096, &t);
    evgen_reader *mem = open_trace(&t);
    size_t n_mem;
    uint64_t want = payload_digest(mem, &n_mem);
    assert_int_equal(n_mem, THREADS * ROUNDS * 7);
    evgen_reader_close(mem);

    char *dir = evgen_test_tempdir();
    char *path = rh_write_file(dir, "direct.evtrace", "", 0);
    rh_record_mixed_file(THREADS, ROUNDS, 4096, EVGEN_BLOCK_WRITER_DIRECT_IO, path);
    size_t size;
    uint8_t *data = tp_read_file(path, &size);
    assert_non_null(data);
    rh_block blocks[4096];
    size_t n_blocks = rh_blocks(data, size, blocks, 4096), padded = 0, victim = 0;
    assert_true(n_blocks < 4096);
    assert_int_equal(blocks[n_blocks - 1].end, size); /* the blocks tile the file */
    for (size_t i = 0; i < n_blocks; i++) {
        uint16_t header_size;
        memcpy(&header_size, data + blocks[i].offset + 6, 2);
        if (header_size > 48) {
            padded++;
            /* the payload starts at a multiple of 512 (the least O_DIRECT alignment) */
            assert_int_equal((blocks[i].offset + header_size) % 512, 0);
            uint16_t next_size;
            memcpy(&next_size, data + blocks[i].end + 6, 2);
            if (!victim && i > n_blocks / 2 && i + 2 < n_blocks && blocks[i].type == 2 && next_size > 48)
                victim = i;
        }
    }
    if (evgen_rt_dio_alignment_in(dir) > 1) /* the rule the writer applies (tmpfs: the page cache) */
        assert_true(padded > n_blocks / 4);

    char *error = NULL;
    evgen_reader *r = evgen_reader_open(path, &error);
    assert_non_null(r);
    size_t n;
    assert_true(payload_digest(r, &n) == want);
    assert_int_equal(n, n_mem);
    size_t n_problems;
    evgen_reader_problems(r, &n_problems);
    assert_int_equal(n_problems, 0);
    assert_int_equal(evgen_reader_status(r, NULL), EVGEN_READ_OK);
    evgen_reader_close(r);

    if (victim) { /* one padded block damaged: reported, every other block read */
        data[blocks[victim].end - 1] ^= 0x40;
        r = evgen_reader_open_memory(data, size, &error);
        assert_non_null(r);
        payload_digest(r, &n);
        assert_int_equal(n, n_mem - blocks[victim].event_count);
        const evgen_read_problem *p = evgen_reader_problems(r, &n_problems);
        assert_int_equal(n_problems, 2); /* the block, and its thread's count against the end block */
        assert_int_equal(p[0].offset, blocks[victim].offset);
        assert_non_null(strstr(p[0].message, "checksum mismatch"));
        char next[64]; /* the resync took the next block, padded too */
        snprintf(next, sizeof next, "next good block at offset %zu", blocks[victim + 1].offset);
        assert_non_null(strstr(p[0].message, next));
        assert_non_null(strstr(p[1].message, "missing"));
        evgen_reader_close(r);
    }
    free(data);
    evgen_test_rmtree(dir);
    free(path);
    free(dir);
    free(t.data);
}

/* ---- dispatch ----------------------------------------------------------------------------- */

typedef struct calls {
    char log[64][32];
    size_t n;
    uint64_t starts, all, private_events;
} calls;

static void on_start(const evgen_event *ev, void *context)
{
    calls *c = context;
    assert_string_equal(ev->info->name, "GCStart");
    c->starts++;
    if (c->n < 64)
        snprintf(c->log[c->n++], sizeof c->log[0], "start:%u", ev->version);
}

static void on_any(const evgen_event *ev, void *context)
{
    calls *c = context;
    c->all++;
    if (c->n < 64)
        snprintf(c->log[c->n++], sizeof c->log[0], "any:%s", ev->info->name);
}

static void on_private(const evgen_event *ev, void *context)
{
    calls *c = context;
    assert_string_equal(ev->info->provider, "Microsoft-Windows-DotNETRuntimePrivate");
    c->private_events++;
}

static void test_dispatch_to_handlers_in_order(void **state)
{
    (void)state;
    rh_trace t;
    rh_record(gcevents_fire_all, 0, &t);
    evgen_reader *rd = open_trace(&t);
    calls c;
    memset(&c, 0, sizeof c);
    assert_int_equal(evgen_reader_on(rd, NULL, "GCStart", on_start, &c), 0);
    assert_int_equal(evgen_reader_on(rd, NULL, NULL, on_any, &c), 0);
    assert_int_equal(evgen_reader_on(rd, "Microsoft-Windows-DotNETRuntimePrivate", NULL, on_private, &c), 0);
    assert_int_equal(evgen_reader_on(rd, NULL, "NoSuchEvent", on_any, &c), -1);
    assert_int_equal(evgen_reader_on(rd, "No-Such-Provider", NULL, on_any, &c), -1);
    assert_int_equal(evgen_reader_on(rd, "Microsoft-Windows-DotNETRuntimePrivate", "GCStart", on_any, &c), -1);
    assert_int_equal(evgen_reader_process(rd, EVGEN_ORDER_TIME), 111);
    assert_int_equal(c.starts, 3);
    assert_int_equal(c.all, 111);
    assert_true(c.private_events > 0);
    /* GCStart v0 comes first: its handler first, then the catch-all, in the order added. */
    assert_string_equal(c.log[0], "start:0");
    assert_string_equal(c.log[1], "any:GCStart");
    assert_string_equal(c.log[2], "start:1");
    assert_string_equal(c.log[3], "any:GCStart");
    /* Processing again dispatches again. */
    assert_int_equal(evgen_reader_process(rd, EVGEN_ORDER_FILE), 111);
    assert_int_equal(c.starts, 6);
    evgen_reader_close(rd);
    free(t.data);
    roundtrip_free();
}

/* ---- hand-made traces --------------------------------------------------------------------- */

enum { K_U16 = 2, K_U32 = 3, K_I32 = 7, K_UTF8Z = 15, K_UTF16Z = 16 };

/* One record: type, delta, [size], payload. */
static void record(rh_bytes *p, uint64_t type, int64_t delta, int variable, const void *payload, size_t size)
{
    rh_varint(p, type);
    rh_zigzag(p, delta);
    if (variable)
        rh_varint(p, size);
    rh_put(p, payload, size);
}

/* Twenty strings and a trailing integer: the event holds 16 ends, evgen_event_field finds all. */
static void test_more_variable_fields_than_the_event_holds(void **state)
{
    (void)state;
    rh_field many[21];
    char names[20][8];
    for (int i = 0; i < 20; i++) {
        snprintf(names[i], sizeof names[i], "S%d", i);
        many[i] = (rh_field){names[i], K_UTF8Z, 0, 0};
    }
    many[20] = (rh_field){"Tail", K_U32, 0, 0};
    const char *event_names[] = {"Many"};
    const rh_field *fields[] = {many};
    size_t n_fields[] = {21};
    rh_bytes file = {0}, p = {0}, payload = {0};
    rh_file_header(&file, 1, 1000000000u);
    rh_metadata(&file, 0, 1, event_names, fields, n_fields);
    for (int i = 0; i < 20; i++) {
        rh_put(&payload, names[i], strlen(names[i]));
        rh_put(&payload, "", 1);
    }
    rh_le(&payload, 0xDEADBEEF, 4);
    record(&p, 0, 5, 1, payload.data, payload.len);
    rh_append_block(&file, 2, 77, 0, 1, 0, RH_START_TICKS, &p);
    uint64_t tid = 77, written = 1;
    rh_end_block(&file, 1, &tid, &written);

    evgen_reader *rd = rh_open_memory(file.data, file.len);
    assert_clean(rd);
    evgen_event ev;
    assert_true(evgen_reader_next(rd, &ev));
    assert_int_equal(ev.layout->n_variable, 20);
    assert_int_equal(ev.n_variable, EVGEN_EVENT_MAX_VARIABLE);
    assert_int_equal(ev.timestamp_ns, 5);
    uint32_t end = 0;
    for (uint32_t f = 0; f < 20; f++) {
        uint32_t off, size;
        assert_true(evgen_event_field(&ev, f, &off, &size));
        assert_int_equal(off, end);
        assert_int_equal(size, strlen(names[f]) + 1);
        assert_memory_equal(ev.payload + off, names[f], size);
        end = off + size;
        if (f < EVGEN_EVENT_MAX_VARIABLE)
            assert_int_equal(ev.variable_end[f], end);
    }
    uint32_t off, size;
    assert_true(evgen_event_field(&ev, 20, &off, &size));
    assert_int_equal(off, end);
    assert_int_equal(size, 4);
    assert_int_equal(off + size, ev.size);
    evgen_reader_close(rd);
    rh_free(&file);
    rh_free(&p);
    rh_free(&payload);
}

/* Payloads that do not hold their variable fields: ends are UINT32_MAX from the first such
 * field; UTF-16 terminators count only at even distances; negative and oversized counts. */
static void test_short_payloads_end_variable_fields(void **state)
{
    (void)state;
    static const rh_field text[] = {{"A", K_U32, 0, 0}, {"S", K_UTF8Z, 0, 0}, {"B", K_U16, 0, 0}};
    static const rh_field wide[] = {{"W", K_UTF16Z, 0, 0}, {"X", K_U16, 0, 0}};
    static const rh_field counted[] = {{"N", K_I32, 0, 0}, {"Items", K_U16, 1, 1}, {"Z", K_UTF8Z, 0, 0}};
    const char *event_names[] = {"Text", "Wide", "Counted"};
    const rh_field *fields[] = {text, wide, counted};
    size_t n_fields[] = {3, 2, 3};
    rh_bytes file = {0}, p = {0};
    rh_file_header(&file, 1, 1000000000u);
    rh_metadata(&file, 0, 3, event_names, fields, n_fields);
    /* Text: "A" then a string with no terminator. */
    static const uint8_t t1[] = {1, 0, 0, 0, 'a', 'b', 'c'};
    record(&p, 0, 1, 1, t1, sizeof t1);
    /* Text: whole but B cut short. */
    static const uint8_t t2[] = {1, 0, 0, 0, 'a', 0, 9};
    record(&p, 0, 1, 1, t2, sizeof t2);
    /* Wide: units 0x0041, 0x4200, 0x0000: the zero bytes at odd offsets 1..2 are not a terminator. */
    static const uint8_t w1[] = {0x41, 0x00, 0x00, 0x42, 0x00, 0x00, 5, 0};
    record(&p, 1, 1, 1, w1, sizeof w1);
    /* Counted: N = -1. */
    static const uint8_t c1[] = {0xff, 0xff, 0xff, 0xff, 'z', 0};
    record(&p, 2, 1, 1, c1, sizeof c1);
    /* Counted: N = 3 but only 2 items. */
    static const uint8_t c2[] = {3, 0, 0, 0, 1, 0, 2, 0};
    record(&p, 2, 1, 1, c2, sizeof c2);
    /* Counted: N = 2, whole. */
    static const uint8_t c3[] = {2, 0, 0, 0, 1, 0, 2, 0, 'z', 0};
    record(&p, 2, 1, 1, c3, sizeof c3);
    /* Counted: a payload shorter than N. */
    static const uint8_t c4[] = {2, 0};
    record(&p, 2, 1, 1, c4, sizeof c4);
    rh_append_block(&file, 2, 5, 0, 7, 0, RH_START_TICKS, &p);
    uint64_t tid = 5, written = 7;
    rh_end_block(&file, 1, &tid, &written);

    evgen_reader *rd = rh_open_memory(file.data, file.len);
    assert_clean(rd);
    evgen_event ev;
    uint32_t off, size;
    assert_true(evgen_reader_next(rd, &ev)); /* t1 */
    assert_int_equal(ev.n_variable, 1);
    assert_int_equal(ev.variable_end[0], UINT32_MAX);
    assert_true(evgen_event_field(&ev, 0, &off, &size));
    assert_false(evgen_event_field(&ev, 1, &off, &size));
    assert_false(evgen_event_field(&ev, 2, &off, &size));
    assert_true(evgen_reader_next(rd, &ev)); /* t2 */
    assert_int_equal(ev.variable_end[0], 6);
    assert_true(evgen_event_field(&ev, 1, &off, &size));
    assert_int_equal(size, 2);
    assert_false(evgen_event_field(&ev, 2, &off, &size));
    assert_true(evgen_reader_next(rd, &ev)); /* w1 */
    assert_int_equal(ev.variable_end[0], 6);
    assert_true(evgen_event_field(&ev, 1, &off, &size));
    assert_int_equal(off, 6);
    assert_true(evgen_reader_next(rd, &ev)); /* c1: negative count */
    assert_int_equal(ev.n_variable, 2);
    assert_int_equal(ev.variable_end[0], UINT32_MAX);
    assert_int_equal(ev.variable_end[1], UINT32_MAX);
    assert_true(evgen_event_field(&ev, 0, &off, &size));
    assert_false(evgen_event_field(&ev, 1, &off, &size));
    assert_true(evgen_reader_next(rd, &ev)); /* c2: more items than bytes */
    assert_int_equal(ev.variable_end[0], UINT32_MAX);
    assert_true(evgen_reader_next(rd, &ev)); /* c3 */
    assert_int_equal(ev.variable_end[0], 8);
    assert_int_equal(ev.variable_end[1], 10);
    assert_true(evgen_event_field(&ev, 1, &off, &size));
    assert_int_equal(off, 4);
    assert_int_equal(size, 4);
    /* The same event cut short by the caller: ends recomputed. */
    evgen_event cut = ev;
    cut.size = 9;
    evgen_event_locate_variable(&cut);
    assert_int_equal(cut.variable_end[0], 8);
    assert_int_equal(cut.variable_end[1], UINT32_MAX);
    cut.size = 7;
    evgen_event_locate_variable(&cut);
    assert_int_equal(cut.variable_end[0], UINT32_MAX);
    assert_true(evgen_reader_next(rd, &ev)); /* c4: N itself cut */
    assert_int_equal(ev.variable_end[0], UINT32_MAX);
    assert_false(evgen_event_field(&ev, 0, &off, &size));
    assert_false(evgen_reader_next(rd, &ev));
    evgen_reader_close(rd);
    rh_free(&file);
    rh_free(&p);
}

/* A TSC clock: nanoseconds through the frequency, without overflow; a tick before the start. */
static void test_timestamps_from_another_clock(void **state)
{
    (void)state;
    static const rh_field none[] = {{"X", K_U16, 0, 0}};
    const char *event_names[] = {"Tick"};
    const rh_field *fields[] = {none};
    size_t n_fields[] = {1};
    rh_bytes file = {0}, p = {0};
    const uint64_t f = 2999999999u;
    rh_file_header(&file, 2, f);
    rh_metadata(&file, 0, 1, event_names, fields, n_fields);
    static const uint8_t x[] = {1, 0};
    const int64_t deltas[] = {-10, 10 + 3000000000ll, (int64_t)1 << 62, (int64_t)1 << 61};
    for (int i = 0; i < 4; i++)
        record(&p, 0, deltas[i], 0, x, sizeof x);
    rh_append_block(&file, 2, 1, 0, 4, 0, RH_START_TICKS, &p);
    uint64_t tid = 1, written = 4;
    rh_end_block(&file, 1, &tid, &written);
    evgen_reader *rd = rh_open_memory(file.data, file.len);
    assert_clean(rd);
    evgen_event ev;
    uint64_t ticks = RH_START_TICKS;
    for (int i = 0; i < 4; i++) {
        assert_true(evgen_reader_next(rd, &ev));
        ticks += (uint64_t)deltas[i];
        assert_int_equal(ev.ticks, ticks);
        unsigned __int128 want =
            ticks <= RH_START_TICKS ? 0 : (unsigned __int128)(ticks - RH_START_TICKS) * 1000000000u / f;
        assert_int_equal(ev.timestamp_ns, (uint64_t)want);
    }
    evgen_reader_close(rd);
    rh_free(&file);
    rh_free(&p);
}

/* A format-2 record, framed by hand from docs/format.md: an odd head repeats the block's previous
 * record's type (delta = head / 2, never negative), an even one is type * 2 with a zigzag delta. */
static void record2(rh_bytes *p, int repeat, uint64_t type, int64_t delta, int variable, const void *payload,
                    size_t size)
{
    if (repeat) {
        rh_varint(p, (uint64_t)delta * 2 + 1);
    } else {
        rh_varint(p, type * 2);
        rh_zigzag(p, delta);
    }
    if (variable)
        rh_varint(p, size);
    rh_put(p, payload, size);
}

/* Format 2: runs of one type with one-byte and two-byte heads, a type named again after a negative
 * delta; a block whose first record repeats a type is reported and skipped, the blocks around it
 * read, in file and in time order alike. */
static void test_format2_records(void **state)
{
    (void)state;
    static const rh_field tick[] = {{"X", K_U16, 0, 0}}, text[] = {{"A", K_U32, 0, 0}, {"S", K_UTF8Z, 0, 0}};
    const char *event_names[] = {"Tick", "Text"};
    const rh_field *fields[] = {tick, text};
    size_t n_fields[] = {1, 2};
    rh_bytes file = {0}, p = {0};
    rh_file_header_version(&file, 2, 1, 1000000000u);
    rh_metadata(&file, 0, 2, event_names, fields, n_fields);
    static const uint8_t x[] = {0x34, 0x12}, a[] = {7, 0, 0, 0, 'h', 'i', 0};
    static const struct {
        int repeat;
        uint64_t type;
        int64_t delta;
    } first[] = {{0, 0, 5}, {1, 0, 0}, {1, 0, 70}, {0, 1, -3}, {1, 1, 8191}, {0, 0, -1}}, third[] = {{0, 0, 1}, {1, 0, 2}};
    for (size_t i = 0; i < 6; i++)
        record2(&p, first[i].repeat, first[i].type, first[i].delta, first[i].type == 1,
                first[i].type == 1 ? (const void *)a : x, first[i].type == 1 ? sizeof a : sizeof x);
    rh_append_block(&file, 2, 5, 0, 6, 0, RH_START_TICKS, &p);
    uint64_t ticks_after_first = RH_START_TICKS + 5 + 0 + 70 - 3 + 8191 - 1;
    p.len = 0;
    size_t bad_at = file.len;
    record2(&p, 1, 0, 4, 0, x, sizeof x); /* repeats a type, and is the block's first */
    rh_append_block(&file, 2, 5, 1, 1, 0, ticks_after_first, &p);
    p.len = 0;
    for (size_t i = 0; i < 2; i++)
        record2(&p, third[i].repeat, third[i].type, third[i].delta, 0, x, sizeof x);
    rh_append_block(&file, 2, 5, 2, 2, 0, ticks_after_first + 4, &p);
    uint64_t tid = 5, written = 9;
    size_t end_at = file.len;
    rh_end_block(&file, 1, &tid, &written);

    for (int time_order = 0; time_order < 2; time_order++) {
        evgen_reader *rd = rh_open_memory(file.data, file.len);
        if (time_order)
            evgen_reader_rewind(rd, EVGEN_ORDER_TIME);
        evgen_event ev;
        uint64_t ticks = RH_START_TICKS;
        for (size_t i = 0; i < 8; i++) {
            int in_first = i < 6;
            uint64_t type = in_first ? first[i].type : third[i - 6].type;
            ticks += (uint64_t)(in_first ? first[i].delta : third[i - 6].delta);
            if (i == 6)
                ticks = ticks_after_first + 4 + 1;
            assert_true(evgen_reader_next(rd, &ev));
            assert_string_equal(ev.info->name, event_names[type]);
            assert_int_equal(ev.ticks, ticks);
            assert_int_equal(ev.size, type == 1 ? sizeof a : sizeof x);
            assert_memory_equal(ev.payload, type == 1 ? (const void *)a : x, ev.size);
        }
        assert_false(evgen_reader_next(rd, &ev));
        size_t np;
        const evgen_read_problem *pr = evgen_reader_problems(rd, &np);
        assert_int_equal(np, 2);
        assert_int_equal(pr[0].offset, bad_at);
        if (!strstr(pr[0].message, "record 0 at offset") || !strstr(pr[0].message, "repeats the type"))
            fail_msg("problem '%s'", pr[0].message);
        assert_int_equal(pr[1].offset, end_at);
        evgen_reader_close(rd);
    }
    rh_free(&file);
    rh_free(&p);
}

static void expect_open_error(const void *data, size_t size, const char *message)
{
    char *error = NULL;
    evgen_reader *rd = evgen_reader_open_memory(data, size, &error);
    assert_null(rd);
    assert_non_null(error);
    if (!strstr(error, message))
        fail_msg("error '%s' does not say '%s'", error, message);
    free(error);
}

static void test_bad_headers_fail_the_open(void **state)
{
    (void)state;
    rh_bytes file = {0};
    rh_file_header(&file, 1, 1000000000u);
    uint64_t tid = 1, written = 0;
    rh_end_block(&file, 1, &tid, &written);
    evgen_reader *rd = rh_open_memory(file.data, file.len);
    assert_clean(rd);
    evgen_reader_close(rd);

    expect_open_error(file.data, 0, "empty");
    expect_open_error("EVTRACX", 8, "bad magic at offset 0");
    expect_open_error("GIF89a", 6, "bad magic at offset 0");
    /* .NET Core 2.x's container: named, with the versions that wrote it and what reads it. */
    static const char netperf[] = "\x14\0\0\0!FastSerialization.1\x04\0\0\0\x05\x01";
    expect_open_error(netperf, sizeof netperf - 1, "a .netperf file");
    expect_open_error(netperf, sizeof netperf - 1, ".NET Core 2.1, 2.2");
    expect_open_error(file.data, 20, "inside the 48-byte file header");
    uint8_t h[48];
    memcpy(h, file.data, 48);
    h[8] = 3; /* format version 3 */
    expect_open_error(h, 48, "unsupported format version 3 at offset 8 (this reader reads versions 1 to 2)");
    h[8] = 0;
    expect_open_error(h, 48, "unsupported format version 0");
    memcpy(h, file.data, 48);
    h[40] ^= 1; /* the process id: the crc no longer matches */
    expect_open_error(h, 48, "bad header crc at offset 44");
    memcpy(h, file.data, 48);
    h[12] = 3; /* pointer size 3, with a matching crc */
    uint32_t crc = tp_crc32(0, h, 44);
    for (int i = 0; i < 4; i++)
        h[44 + i] = (uint8_t)(crc >> (8 * i));
    expect_open_error(h, 48, "bad pointer size 3");

    char *error = NULL;
    assert_null(evgen_reader_open("/nonexistent/trace.evtrace", &error));
    assert_non_null(strstr(error, "cannot open"));
    free(error);
    assert_null(evgen_reader_open("/", &error));
    assert_string_equal(error, "cannot read: a directory; evgen reads only regular files");
    free(error);
    rh_free(&file);
}

/* A trace with a good metadata block, then `bad` (a block with its own problem), then a good
 * events block and the end block: the problem is reported at the bad block's offset and the
 * good blocks around it are read. The end block counts the `lost` events the bad block was
 * written with too: when there are some, the books are a second problem, at the end block. */
typedef void (*make_bad)(rh_bytes *file);

static const rh_field pair[] = {{"A", K_U32, 0, 0}, {"S", K_UTF8Z, 0, 0}};

static void good_events(rh_bytes *file, uint32_t sequence)
{
    rh_bytes p = {0};
    static const uint8_t a[] = {7, 0, 0, 0, 'h', 'i', 0};
    record(&p, 0, 1, 1, a, sizeof a);
    record(&p, 0, 1, 1, a, sizeof a);
    rh_append_block(file, 2, 9, sequence, 2, 0, RH_START_TICKS, &p);
    rh_free(&p);
}

static void bad_varint(rh_bytes *file)
{
    rh_bytes p = {0};
    static const uint8_t v[11] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    rh_put(&p, v, sizeof v);
    rh_append_block(file, 2, 9, 1, 1, 0, RH_START_TICKS, &p);
    rh_free(&p);
}

static void unknown_type(rh_bytes *file)
{
    rh_bytes p = {0};
    static const uint8_t a[] = {7, 0, 0, 0, 0};
    record(&p, 5, 1, 1, a, sizeof a);
    rh_append_block(file, 2, 9, 1, 1, 0, RH_START_TICKS, &p);
    rh_free(&p);
}

static void record_past_block(rh_bytes *file)
{
    rh_bytes p = {0};
    rh_varint(&p, 0);
    rh_zigzag(&p, 1);
    rh_varint(&p, 100);
    rh_put(&p, "abc", 3);
    rh_append_block(file, 2, 9, 1, 1, 0, RH_START_TICKS, &p);
    rh_free(&p);
}

static void bytes_after_records(rh_bytes *file)
{
    rh_bytes p = {0};
    static const uint8_t a[] = {7, 0, 0, 0, 0};
    record(&p, 0, 1, 1, a, sizeof a);
    rh_put(&p, "xx", 2);
    rh_append_block(file, 2, 9, 1, 1, 0, RH_START_TICKS, &p);
    rh_free(&p);
}

static void fewer_records(rh_bytes *file)
{
    rh_bytes p = {0};
    static const uint8_t a[] = {7, 0, 0, 0, 0};
    record(&p, 0, 1, 1, a, sizeof a);
    rh_append_block(file, 2, 9, 1, 3, 0, RH_START_TICKS, &p);
    rh_free(&p);
}

static void unknown_block_type(rh_bytes *file)
{
    rh_bytes p = {0};
    rh_put(&p, "future", 6);
    rh_append_block(file, 9, 0, 0, 0, 0, 0, &p);
    rh_free(&p);
}

static void bad_metadata(rh_bytes *file)
{
    /* An array with no count field. */
    static const rh_field bad[] = {{"Items", K_U16, 1, 0}};
    const char *names[] = {"Bad"};
    const rh_field *fields[] = {bad};
    size_t n[] = {1};
    rh_metadata(file, 1, 1, names, fields, n);
}

static void bad_crc(rh_bytes *file)
{
    size_t at = file->len;
    good_events(file, 1);
    file->data[at + 60] ^= 0x10;
}

static void bad_magic(rh_bytes *file)
{
    size_t at = file->len;
    good_events(file, 1);
    file->data[at] = 'X';
}

static void garbage(rh_bytes *file)
{
    rh_put(file, "garbage between blocks with a false EVBK", 40);
}

static void impossible_header_size(rh_bytes *file)
{
    size_t at = file->len;
    good_events(file, 1);
    file->data[at + 6] = 16;
}

static void impossible_payload_size(rh_bytes *file)
{
    size_t at = file->len;
    good_events(file, 1);
    file->data[at + 11] = 0x7f; /* far past the end of the file */
}

static void check_bad_block(make_bad make, const char *message, uint64_t lost)
{
    static const rh_field *fields[] = {pair};
    const char *names[] = {"Pair"};
    size_t n[] = {2};
    rh_bytes file = {0};
    rh_file_header(&file, 1, 1000000000u);
    rh_metadata(&file, 0, 1, names, fields, n);
    good_events(&file, 0);
    size_t bad_at = file.len;
    make(&file);
    good_events(&file, 2);
    uint64_t tid = 9, written = 4 + lost;
    size_t end_at = file.len;
    rh_end_block(&file, 1, &tid, &written);

    evgen_reader *rd = rh_open_memory(file.data, file.len);
    assert_int_equal(evgen_reader_status(rd, NULL), EVGEN_READ_CORRUPT);
    size_t np;
    const evgen_read_problem *p = evgen_reader_problems(rd, &np);
    assert_int_equal(np, lost ? 2 : 1);
    assert_int_equal(p[0].offset, bad_at);
    if (!strstr(p[0].message, message))
        fail_msg("problem '%s' does not say '%s'", p[0].message, message);
    if (lost) {
        char books[160];
        snprintf(books, sizeof books, "thread 9: the end block counts %llu events written, 4 found: %llu missing",
                 (unsigned long long)written, (unsigned long long)lost);
        assert_int_equal(p[1].offset, end_at);
        assert_string_equal(p[1].message, books);
    }
    evgen_event ev;
    size_t events = 0;
    while (evgen_reader_next(rd, &ev)) {
        assert_string_equal(ev.info->name, "Pair");
        events++;
    }
    assert_int_equal(events, 4);
    size_t nt;
    int has_end;
    const evgen_reader_thread *th = evgen_reader_threads(rd, &nt, &has_end);
    assert_true(has_end);
    assert_int_equal(nt, 1);
    assert_int_equal(th[0].events, 4);
    evgen_reader_close(rd);
    rh_free(&file);
}

static void test_bad_blocks_are_reported_and_skipped(void **state)
{
    (void)state;
    check_bad_block(bad_varint, "bad varint", 1);
    check_bad_block(unknown_type, "type 5 is not defined", 1);
    check_bad_block(record_past_block, "runs past the block", 1);
    check_bad_block(bytes_after_records, "2 bytes after its 1 records", 1);
    check_bad_block(fewer_records, "ends after 1 of its 3 records", 3);
    check_bad_block(unknown_block_type, "unknown block type 9", 0);
    check_bad_block(bad_metadata, "array needs a count field", 0);
    check_bad_block(bad_crc, "checksum mismatch", 2);
    check_bad_block(bad_magic, "bad block magic", 2);
    check_bad_block(garbage, "bad block magic", 0);
    check_bad_block(impossible_header_size, "impossible block header size 16", 2);
    check_bad_block(impossible_payload_size, "impossible block size", 2);
}

/* Types are numbered across metadata blocks: a lost block leaves a gap, the next block's types
 * keep their numbers; an events block before its metadata is refused. */
static void test_type_numbers_across_metadata_blocks(void **state)
{
    (void)state;
    static const rh_field *fields[] = {pair};
    const char *first[] = {"First"}, *second[] = {"Second"};
    size_t n[] = {2};
    rh_bytes file = {0}, p = {0};
    static const uint8_t a[] = {7, 0, 0, 0, 'h', 'i', 0};
    rh_file_header(&file, 1, 1000000000u);
    record(&p, 0, 1, 1, a, sizeof a);
    size_t early = file.len;
    rh_append_block(&file, 2, 1, 0, 1, 0, RH_START_TICKS, &p); /* before any metadata */
    rh_metadata(&file, 0, 1, first, fields, n);
    rh_metadata(&file, 3, 1, second, fields, n); /* types 1 and 2 were in a lost block */
    rh_free(&p);
    record(&p, 3, 1, 1, a, sizeof a);
    record(&p, 0, 1, 1, a, sizeof a);
    rh_append_block(&file, 2, 1, 1, 2, 0, RH_START_TICKS, &p);
    rh_free(&p);
    record(&p, 1, 1, 1, a, sizeof a);
    size_t gap = file.len;
    rh_append_block(&file, 2, 1, 2, 1, 0, RH_START_TICKS, &p);
    size_t again = file.len;
    rh_metadata(&file, 3, 1, second, fields, n); /* type 3 again */
    uint64_t tid = 1, written = 4;
    size_t end_at = file.len;
    rh_end_block(&file, 1, &tid, &written);

    evgen_reader *rd = rh_open_memory(file.data, file.len);
    size_t np;
    const evgen_read_problem *pr = evgen_reader_problems(rd, &np);
    assert_int_equal(np, 4);
    assert_int_equal(pr[0].offset, early);
    assert_int_equal(pr[1].offset, gap);
    assert_int_equal(pr[2].offset, again);
    assert_non_null(strstr(pr[2].message, "already defined"));
    /* The two blocks skipped: the books, found at the end, listed at the end block. */
    assert_int_equal(pr[3].offset, end_at);
    assert_string_equal(pr[3].message, "thread 1: the end block counts 4 events written, 2 found: 2 missing");
    evgen_event ev;
    assert_true(evgen_reader_next(rd, &ev));
    assert_string_equal(ev.info->name, "Second");
    assert_true(evgen_reader_next(rd, &ev));
    assert_string_equal(ev.info->name, "First");
    assert_false(evgen_reader_next(rd, &ev));
    assert_int_equal(evgen_reader_event_count(rd), 2);
    evgen_reader_close(rd);
    rh_free(&file);
    rh_free(&p);
}

static void test_utf16_to_utf8(void **state)
{
    (void)state;
    /* "aé中" U+1F600 (a pair), then an unpaired high and an unpaired low surrogate. */
    static const uint8_t units[] = {'a', 0, 0xe9, 0, 0x2d, 0x4e, 0x3d, 0xd8, 0x00, 0xde, 0x00, 0xd8, 'b', 0, 0x00, 0xdc};
    evgen_utf16_view v = {units, sizeof units / 2};
    char out[64];
    size_t n = evgen_utf16_to_utf8(v, out, sizeof out);
    static const char want[] = "a\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80\xef\xbf\xbd" "b\xef\xbf\xbd";
    assert_int_equal(n, strlen(want));
    assert_string_equal(out, want);
    /* Like snprintf: the length it needs, whole characters only, always terminated. */
    memset(out, 'x', sizeof out);
    assert_int_equal(evgen_utf16_to_utf8(v, out, 4), strlen(want));
    assert_string_equal(out, "a\xc3\xa9");
    assert_int_equal(evgen_utf16_to_utf8(v, NULL, 0), strlen(want));
    assert_int_equal(evgen_utf16_to_utf8(v, out, 1), strlen(want));
    assert_string_equal(out, "");
    evgen_utf16_view empty = {units, 0};
    assert_int_equal(evgen_utf16_to_utf8(empty, out, sizeof out), 0);
    assert_string_equal(out, "");
}

/* Lines of /proc/self/maps, and the start of the mapping of `path` among them (0 if none). */
static size_t mappings(const char *path, uintptr_t *start)
{
    FILE *f = fopen("/proc/self/maps", "r");
    assert_non_null(f);
    char line[4096 + 256];
    size_t n = 0;
    *start = 0;
    while (fgets(line, sizeof line, f)) {
        n++;
        const char *name = strchr(line, '/');
        if (name && strncmp(name, path, strlen(path)) == 0 && name[strlen(path)] == '\n')
            *start = (uintptr_t)strtoull(line, NULL, 16);
    }
    fclose(f);
    return n;
}

/* A trace of several megabytes, written by threads that pad their full blocks onto the 256-KiB grid
 * (the default buffer size, sink.c): read event for event as the same events recorded into memory
 * without padding, whole and cut short, and the process's mappings as they were once closed. */
static void test_large_padded_trace(void **state)
{
    (void)state;
    enum { THREADS = 2, ROUNDS = 12000 };
    const uint32_t buffer_size = 256 * 1024 - 48;
    rh_trace t;
    rh_record_mixed(THREADS, ROUNDS, buffer_size, &t);
    evgen_reader *mem = open_trace(&t);
    size_t n_mem;
    uint64_t want = payload_digest(mem, &n_mem);
    assert_int_equal(n_mem, THREADS * ROUNDS * 7);
    evgen_reader_close(mem);

    char *dir = evgen_test_tempdir();
    char *path = rh_write_file(dir, "large.evtrace", "", 0);
    rh_record_mixed_file(THREADS, ROUNDS, buffer_size, EVGEN_BLOCK_WRITER_EMITTER, path);
    size_t size;
    uint8_t *data = tp_read_file(path, &size);
    assert_non_null(data);
    assert_true(size > (3u << 20));
    rh_block blocks[256];
    size_t n_blocks = rh_blocks(data, size, blocks, 256), padded = 0;
    assert_int_equal(blocks[n_blocks - 1].end, size);
    for (size_t i = 0; i < n_blocks; i++) {
        uint16_t header_size;
        memcpy(&header_size, data + blocks[i].offset + 6, 2);
        padded += header_size > 48;
    }
    assert_true(padded > 4);
    /* Where the cut below goes: 3 bytes short of a page, inside the last events block. (Cut 3 bytes
     * short of the file's last page instead, as before, it fell inside the 70-byte end block alone,
     * every event still there, whenever the file's size was within 67 bytes past a page: ~1.6% of
     * runs.) */
    size_t last = n_blocks;
    while (last > 0 && blocks[last - 1].event_count == 0)
        last--;
    assert_true(last > 0);
    size_t middle = (blocks[last - 1].offset + blocks[last - 1].end) / 2;
    size_t cut = middle / 4096 * 4096 - 3 > blocks[last - 1].offset ? middle / 4096 * 4096 - 3 : middle;
    free(data);

    uintptr_t start;
    size_t before = mappings(path, &start);
    assert_int_equal(start, 0);
    evgen_reader *r = evgen_reader_open(path, NULL);
    assert_non_null(r);
    mappings(path, &start);
    assert_true(start != 0);
    size_t n;
    assert_true(payload_digest(r, &n) == want);
    assert_int_equal(n, n_mem);
    assert_int_equal(evgen_reader_status(r, NULL), EVGEN_READ_OK);
    evgen_reader_close(r);
    assert_int_equal(mappings(path, &start), before);
    assert_int_equal(start, 0);

    /* the same, cut inside a block: the blocks before the cut read */
    assert_int_equal(truncate(path, (off_t)cut), 0);
    before = mappings(path, &start);
    r = evgen_reader_open(path, NULL);
    assert_non_null(r);
    payload_digest(r, &n);
    assert_true(n > 0 && n < n_mem);
    assert_int_equal(evgen_reader_status(r, NULL), EVGEN_READ_TRUNCATED);
    evgen_reader_close(r);
    assert_int_equal(mappings(path, &start), before);

    evgen_test_rmtree(dir);
    free(path);
    free(dir);
    free(t.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_fired_event_reads_back),
        cmocka_unit_test(test_several_threads_in_file_and_time_order),
        cmocka_unit_test(test_open_file_maps_the_same_trace),
        cmocka_unit_test(test_direct_io_trace_reads_like_any),
        cmocka_unit_test(test_dispatch_to_handlers_in_order),
        cmocka_unit_test(test_more_variable_fields_than_the_event_holds),
        cmocka_unit_test(test_short_payloads_end_variable_fields),
        cmocka_unit_test(test_timestamps_from_another_clock),
        cmocka_unit_test(test_format2_records),
        cmocka_unit_test(test_bad_headers_fail_the_open),
        cmocka_unit_test(test_bad_blocks_are_reported_and_skipped),
        cmocka_unit_test(test_type_numbers_across_metadata_blocks),
        cmocka_unit_test(test_utf16_to_utf8),
        cmocka_unit_test(test_large_padded_trace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
