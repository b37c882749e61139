/* test_nettrace_formats.c — hand-made .nettrace files of every format version and encoding
 * (tests/support/nettrace_writer.c: V4 and V5 FastSerialization objects, compressed and not; V6
 * blocks with thread indexes), read back: events bound to manifest/gcevents.h by (provider, id)
 * with the trace's version (newer and older than the manifest's newest), an EventSource-style
 * event described by the trace's own metadata, file and time order across sequence-point regions,
 * stacks and their region rule, lost events from sequence gaps and sequence points; and every cut
 * of each file read without a crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gcevents_reader.h"
#include "nettrace_writer.h"

enum { T1 = 100, T2 = 200 }; /* OS thread ids; V6 refers to them by index 1 and 2 */
enum { TC_INT32 = 9, TC_UINT16 = 8, TC_STRING = 18, TC_ARRAY = 19 };
#define RUNTIME "Microsoft-Windows-DotNETRuntime"

typedef struct format {
    int version, compressed;
} format;

static const format formats[] = {{4, 1}, {4, 0}, {5, 1}, {5, 0}, {6, 1}, {6, 0}};

static void put(uint8_t **p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        *(*p)++ = (uint8_t)(v >> (8 * i));
}

/* GCStart: Count, Depth, Reason, Type (v1 +), ClrInstanceID (v1 +), ClientSequenceNumber (v2 +). */
static uint32_t gcstart(uint8_t *buf, uint32_t version, uint32_t count)
{
    uint8_t *p = buf;
    put(&p, count, 4);
    put(&p, 1, 4);  /* Depth */
    put(&p, 4, 4);  /* Reason */
    if (version >= 1) {
        put(&p, 0, 4); /* Type */
        put(&p, 3, 2); /* ClrInstanceID */
    }
    if (version >= 2)
        put(&p, 0x1122334455667788ull, 8);
    if (version >= 3)
        put(&p, 0xAABBCCDD, 4); /* a field this manifest does not know yet */
    return (uint32_t)(p - buf);
}

/* MyEvent: A int32, S string, and from V5 on Arr uint16[] (a uint16 count, then the elements). */
static uint32_t my_event(uint8_t *buf, int with_array, int32_t a)
{
    uint8_t *p = buf;
    put(&p, (uint64_t)(uint32_t)a, 4);
    const char *s = "hi";
    for (const char *c = s; *c; c++)
        put(&p, (uint8_t)*c, 2);
    put(&p, 0, 2);
    if (with_array) {
        put(&p, 3, 2);
        put(&p, 7, 2);
        put(&p, 8, 2);
        put(&p, 9, 2);
    }
    return (uint32_t)(p - buf);
}

static uint64_t tid(const format *f, uint64_t os)
{
    return f->version >= 6 ? (os == T1 ? 1 : 2) : os;
}

static uint8_t *make(const format *f, size_t *size)
{
    nt_writer *w = nt_writer_new(f->version, f->compressed, 8, 500, 1000000, 4242, 2);
    if (f->version >= 6) {
        nt_thread(w, 1, T1, 4242);
        nt_thread(w, 2, T2, 4242);
    }
    int arrays = f->version >= 5;
    nt_field fields[] = {{"A", TC_INT32, 0}, {"S", TC_STRING, 0}, {"Arr", TC_ARRAY, TC_UINT16}};
    nt_metadata(w, 1, RUNTIME, 1, "", 1, 2, 4, NULL, 0);
    nt_metadata(w, 2, RUNTIME, 1, "", 1, 3, 4, NULL, 0);
    nt_metadata(w, 3, RUNTIME, 1, "", 1, 1, 4, NULL, 0);
    nt_metadata(w, 4, "My-Provider", 7, "MyEvent", 0, 0, 4, fields, arrays ? 3 : 2);
    uint64_t ips[2] = {0x1000, 0x2000};
    nt_stack(w, 1, ips, 2);
    uint8_t b[4][64];
    uint32_t n0 = gcstart(b[0], 2, 10), n1 = my_event(b[1], arrays, -5), n2 = gcstart(b[2], 3, 11),
             n3 = gcstart(b[3], 1, 12);
    nt_event e[4] = {
        {1, 1, tid(f, T1), tid(f, T1), 0, 1, 1000, 0, NULL, b[0], n0, NULL, 0},
        {4, 2, tid(f, T1), tid(f, T1), 0, 0, 3000, 0, NULL, b[1], n1, NULL, 0},
        {2, 1, tid(f, T2), tid(f, T2), 1, 0, 2000, 0, NULL, b[2], n2, NULL, 0},
        {3, 2, tid(f, T2), tid(f, T2), 1, 0, 2500, 0, NULL, b[3], n3, NULL, 0},
    };
    for (int i = 0; i < 4; i++)
        nt_write_event(w, &e[i]);
    uint64_t sp_threads[2] = {tid(f, T1), tid(f, T2)};
    uint32_t sp_seq[2] = {2, 2};
    nt_sequence_point(w, 4000, sp_threads, sp_seq, 2);
    /* Region 2: T2 skips sequence numbers 3 and 4; T1's event names stack 1 of the last region,
     * which the sequence point flushed (a problem). */
    nt_event g[2] = {
        {1, 5, tid(f, T2), tid(f, T2), 1, 0, 6000, 0, NULL, b[0], n0, NULL, 0},
        {4, 3, tid(f, T1), tid(f, T1), 0, 1, 5000, 0, NULL, b[1], n1, NULL, 0},
    };
    nt_write_event(w, &g[0]);
    nt_write_event(w, &g[1]);
    uint64_t t1 = tid(f, T1);
    uint32_t s6 = 6;
    nt_sequence_point(w, 7000, &t1, &s6, 1); /* T1 attempted 3 more than it wrote */
    return nt_writer_finish(w, size);
}

static evgen_reader *open_bound(const uint8_t *data, size_t size, char **error)
{
    const evgen_reader_manifest *manifests[] = {&gcevents_reader_manifest};
    evgen_reader_options options = {manifests, 1};
    return evgen_reader_open_memory_with(data, size, &options, error);
}

static void check_my_event(const evgen_event *ev, int arrays)
{
    assert_true(ev->info->unbound);
    assert_string_equal(ev->info->name, "MyEvent");
    assert_string_equal(ev->info->provider, "My-Provider");
    assert_int_equal(ev->info->id, 7);
    const evgen_trace_version *v = ev->layout;
    assert_int_equal(v->n_fields, arrays ? 4 : 2);
    assert_string_equal(v->fields[0].name, "A");
    assert_string_equal(v->fields[1].name, "S");
    uint32_t off, size;
    assert_true(evgen_event_field(ev, 0, &off, &size));
    assert_int_equal(size, 4);
    int32_t a;
    memcpy(&a, ev->payload + off, 4);
    assert_int_equal(a, -5);
    assert_true(evgen_event_field(ev, 1, &off, &size));
    assert_int_equal(size, 6); /* "hi" and the terminator, UTF-16 */
    if (arrays) {
        assert_string_equal(v->fields[2].name, "ArrCount");
        assert_string_equal(v->fields[3].name, "Arr");
        assert_true(v->fields[3].is_array);
        assert_true(evgen_event_field(ev, 3, &off, &size));
        assert_int_equal(size, 6);
        assert_int_equal(ev->payload[off + 4], 9);
    }
}

static void test_read_back(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof formats / sizeof formats[0]; k++) {
        const format *f = &formats[k];
        size_t size;
        uint8_t *data = make(f, &size);
        char *error = NULL;
        evgen_reader *rd = open_bound(data, size, &error);
        if (!rd)
            fail_msg("V%d%s: %s", f->version, f->compressed ? " compressed" : "", error);
        const evgen_trace_header *h = evgen_reader_header(rd);
        assert_int_equal(h->container, EVGEN_CONTAINER_NETTRACE);
        assert_int_equal(h->format_version, f->version == 5 ? 4 : f->version); /* V5 files say 4 */
        assert_int_equal(h->clock_frequency, 1000000);
        assert_int_equal(h->start_ticks, 500);
        assert_int_equal(h->process_id, 4242);
        assert_int_equal(h->cpu_count, 2);
        /* The one problem: T1's event of region 2 names stack 1 of region 1 (read without it). */
        size_t n_problems;
        const evgen_read_problem *problem = evgen_reader_problems(rd, &n_problems);
        assert_int_equal(n_problems, 1);
        assert_non_null(strstr(problem->message, "1 event names a stack id no stack block of the region holds (the first: 1)"));
        assert_int_equal(evgen_reader_status(rd, NULL), EVGEN_READ_CORRUPT);

        static const uint64_t file_ticks[] = {1000, 3000, 2000, 2500, 6000, 5000};
        static const uint64_t time_ticks[] = {1000, 2000, 2500, 3000, 5000, 6000};
        for (int order = 0; order < 2; order++) {
            evgen_event ev;
            int n = 0;
            evgen_reader_rewind(rd, order ? EVGEN_ORDER_TIME : EVGEN_ORDER_FILE);
            while (evgen_reader_next(rd, &ev)) {
                assert_true(n < 6);
                assert_int_equal(ev.ticks, order ? time_ticks[n] : file_ticks[n]);
                assert_int_equal(ev.timestamp_ns, (ev.ticks - 500) * 1000);
                if (ev.ticks == 1000) { /* GCStart v2, bound, with its stack */
                    assert_true(GCStart_is(&ev));
                    assert_false(ev.info->unbound);
                    assert_int_equal(ev.version, 2);
                    assert_int_equal(GCStart_Count(&ev), 10);
                    assert_int_equal(GCStart_Depth(&ev), 1);
                    assert_int_equal(GCStart_ClrInstanceID(&ev), 3);
                    assert_int_equal(GCStart_ClientSequenceNumber(&ev), 0x1122334455667788ull);
                    assert_int_equal(ev.thread_id, T1);
                    assert_int_equal(ev.stack_depth, 2);
                    assert_int_equal(evgen_event_stack_ip(&ev, 0), 0x1000);
                    assert_int_equal(evgen_event_stack_ip(&ev, 1), 0x2000);
                    assert_int_equal(ev.sequence, 1);
                } else if (ev.ticks == 2000) { /* v3: newer than the manifest knows */
                    assert_true(GCStart_is(&ev));
                    assert_int_equal(ev.version, 3);
                    assert_int_equal(ev.layout->version, 2);
                    assert_int_equal(GCStart_Count(&ev), 11);
                    assert_int_equal(GCStart_ClientSequenceNumber(&ev), 0x1122334455667788ull);
                    assert_int_equal(ev.thread_id, T2);
                    assert_null(ev.stack);
                } else if (ev.ticks == 2500) { /* v1: the appended field is absent */
                    assert_int_equal(ev.version, 1);
                    assert_int_equal(GCStart_Count(&ev), 12);
                    assert_true(GCStart_has_ClrInstanceID(&ev));
                    assert_false(GCStart_has_ClientSequenceNumber(&ev));
                } else if (ev.ticks == 3000 || ev.ticks == 5000) {
                    check_my_event(&ev, f->version >= 5);
                    assert_int_equal(ev.thread_id, T1);
                    if (ev.ticks == 5000)
                        assert_null(ev.stack); /* stack 1 belongs to the region before */
                } else {
                    assert_int_equal(ev.ticks, 6000);
                    assert_int_equal(ev.sequence, 5);
                    assert_int_equal(ev.thread_id, T2);
                }
                n++;
            }
            assert_int_equal(n, 6);
        }
        size_t n_threads;
        int has_end;
        const evgen_reader_thread *t = evgen_reader_threads(rd, &n_threads, &has_end);
        assert_true(has_end);
        uint64_t lost[2] = {0, 0}, events[2] = {0, 0};
        for (size_t i = 0; i < n_threads; i++) {
            int which = t[i].thread_id == T1 ? 0 : t[i].thread_id == T2 ? 1 : -1;
            assert_true(which >= 0);
            lost[which] += t[i].dropped;
            events[which] += t[i].events;
        }
        assert_int_equal(lost[0], 3);
        assert_int_equal(lost[1], 2);
        assert_int_equal(events[0], 3);
        assert_int_equal(events[1], 3);
        evgen_reader_close(rd);
        free(data);
    }
}

/* Without the manifest every event is still read: runtime events with their raw payload. */
static void test_unbound_without_manifest(void **state)
{
    (void)state;
    size_t size;
    uint8_t *data = make(&formats[4], &size);
    char *error = NULL;
    evgen_reader *rd = evgen_reader_open_memory(data, size, &error);
    assert_non_null(rd);
    evgen_event ev;
    int n = 0;
    while (evgen_reader_next(rd, &ev)) {
        assert_true(ev.info->unbound);
        if (ev.info->id == 1) {
            assert_string_equal(ev.info->name, "Event1");
            assert_int_equal(ev.layout->n_fields, 0);
            assert_true(ev.size >= 18);
        }
        n++;
    }
    assert_int_equal(n, 6);
    evgen_reader_close(rd);
    free(data);
}

/* Every cut of every file: no crash, the error or the truncation names an offset within the cut,
 * the problems are in file order, and a longer cut reads no fewer events. */
static void test_cuts(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof formats / sizeof formats[0]; k++) {
        size_t size;
        uint8_t *data = make(&formats[k], &size);
        int last = 0;
        for (size_t cut = 0; cut < size; cut++) {
            uint8_t *copy = malloc(cut ? cut : 1);
            memcpy(copy, data, cut);
            char *error = NULL;
            evgen_reader *rd = open_bound(copy, cut, &error);
            if (!rd) {
                assert_non_null(error);
                assert_int_equal(last, 0);
            } else {
                uint64_t at;
                assert_int_equal(evgen_reader_status(rd, &at), EVGEN_READ_TRUNCATED);
                assert_true(at <= cut);
                size_t np;
                const evgen_read_problem *p = evgen_reader_problems(rd, &np);
                for (size_t i = 1; i < np; i++)
                    if (p[i].offset < p[i - 1].offset)
                        fail_msg("V%d cut at %zu: problem at %llu (%s) after one at %llu (%s)", formats[k].version,
                                 cut, (unsigned long long)p[i].offset, p[i].message,
                                 (unsigned long long)p[i - 1].offset, p[i - 1].message);
                evgen_event ev;
                int n = 0;
                evgen_reader_rewind(rd, EVGEN_ORDER_TIME);
                while (evgen_reader_next(rd, &ev)) {
                    assert_true(ev.payload >= copy && (size_t)(ev.payload - copy) + ev.size <= cut);
                    (void)GCStart_ClientSequenceNumber(&ev);
                    n++;
                }
                assert_true(n >= last);
                last = n;
                evgen_reader_close(rd);
            }
            free(error);
            free(copy);
        }
        assert_int_equal(last, 6); /* only the end is missing from the longest cut */
        free(data);
    }
}

/* Every byte of every file changed three ways (low bit, high bit, all bits): no crash, every event
 * and field inside the copy, every problem at an offset in it. */
static void test_flips(void **state)
{
    (void)state;
    static const uint8_t masks[] = {0x01, 0x80, 0xFF};
    size_t opened = 0, tried = 0;
    for (size_t k = 0; k < sizeof formats / sizeof formats[0]; k++) {
        size_t size;
        uint8_t *data = make(&formats[k], &size);
        uint8_t *copy = malloc(size);
        for (size_t at = 0; at < size; at++)
            for (size_t m = 0; m < sizeof masks; m++) {
                memcpy(copy, data, size);
                copy[at] ^= masks[m];
                tried++;
                char *error = NULL;
                evgen_reader *rd = open_bound(copy, size, &error);
                if (!rd) {
                    assert_non_null(strstr(error, "offset"));
                    free(error);
                    continue;
                }
                opened++;
                evgen_event ev;
                evgen_reader_rewind(rd, m == 1 ? EVGEN_ORDER_FILE : EVGEN_ORDER_TIME);
                while (evgen_reader_next(rd, &ev)) {
                    assert_true(ev.payload >= copy && (size_t)(ev.payload - copy) + ev.size <= size);
                    for (uint32_t f = 0; f < ev.layout->n_fields; f++) {
                        uint32_t off, len;
                        if (evgen_event_field(&ev, f, &off, &len))
                            assert_true(off <= ev.size && len <= ev.size - off);
                    }
                    for (uint32_t i = 0; i < ev.stack_depth; i++)
                        (void)evgen_event_stack_ip(&ev, i);
                    (void)GCStart_ClientSequenceNumber(&ev);
                }
                size_t n;
                const evgen_read_problem *p = evgen_reader_problems(rd, &n);
                for (size_t i = 0; i < n; i++)
                    assert_true(p[i].offset <= size);
                evgen_reader_close(rd);
            }
        free(copy);
        free(data);
    }
    printf("%zu of %zu changed copies opened\n", opened, tried);
    assert_true(opened > tried / 2);
}

/* A trace with 4-byte pointers: pointer fields and the struct arrays the manifest's structs with
 * pointers describe (GCBulkMovedObjectRanges' {ptr, ptr, uint64}: a 16-byte stride on x86, 24 in
 * the manifest's x64 layout) follow the trace's pointer size. */
static void test_pointer_size_4(void **state)
{
    (void)state;
    nt_writer *w = nt_writer_new(4, 1, 4, 0, 1000000, 1, 1);
    nt_metadata(w, 1, RUNTIME, 22, "", 0x400000, 0, 4, NULL, 0);
    nt_metadata(w, 2, RUNTIME, 10, "", 1, 3, 5, NULL, 0);
    uint8_t b[64], t[64], *p = b;
    put(&p, 7, 4); /* Index */
    put(&p, 2, 4); /* Count */
    put(&p, 3, 2); /* ClrInstanceID */
    for (uint64_t i = 0; i < 2; i++) {
        put(&p, 0x1000 + i, 4);
        put(&p, 0x2000 + i, 4);
        put(&p, 0x30 + i, 8);
    }
    nt_event e = {1, 1, 9, 9, 0, 0, 10, 0, NULL, b, (uint32_t)(p - b), NULL, 0};
    nt_write_event(w, &e);
    /* GCAllocationTick v3: AllocationAmount, Kind, ClrInstanceID, Amount64, TypeID (ptr), TypeName,
     * HeapIndex, Address (ptr). */
    p = t;
    put(&p, 100, 4);
    put(&p, 0, 4);
    put(&p, 3, 2);
    put(&p, 100, 8);
    put(&p, 0xABCD1234, 4);
    put(&p, 'X', 2);
    put(&p, 0, 2);
    put(&p, 1, 4);
    put(&p, 0x5555AAAA, 4);
    nt_event g = {2, 2, 9, 9, 0, 0, 20, 0, NULL, t, (uint32_t)(p - t), NULL, 0};
    nt_write_event(w, &g);
    size_t size;
    uint8_t *data = nt_writer_finish(w, &size);
    evgen_reader *rd = open_bound(data, size, NULL);
    assert_non_null(rd);
    assert_int_equal(evgen_reader_header(rd)->pointer_size, 4);
    evgen_event ev;
    assert_true(evgen_reader_next(rd, &ev));
    assert_true(GCBulkMovedObjectRanges_is(&ev));
    assert_int_equal(GCBulkMovedObjectRanges_Index(&ev), 7);
    assert_int_equal(GCBulkMovedObjectRanges_Values_count(&ev), 2);
    for (uint32_t i = 0; i < 2; i++) {
        assert_int_equal(GCBulkMovedObjectRanges_Values_OldRangeBase(&ev, i), 0x1000 + i);
        assert_int_equal(GCBulkMovedObjectRanges_Values_NewRangeBase(&ev, i), 0x2000 + i);
        assert_int_equal(GCBulkMovedObjectRanges_Values_RangeLength(&ev, i), 0x30 + i);
    }
    assert_true(evgen_reader_next(rd, &ev));
    assert_true(GCAllocationTick_is(&ev));
    assert_int_equal(GCAllocationTick_TypeID(&ev), 0xABCD1234);
    assert_int_equal(GCAllocationTick_HeapIndex(&ev), 1);
    assert_int_equal(GCAllocationTick_Address(&ev), 0x5555AAAA);
    assert_false(evgen_reader_next(rd, &ev));
    evgen_reader_close(rd);
    free(data);
}

/* Events whose metadata id no record defined (a lost metadata block): skipped, one problem for the
 * block at the first of them, the others read. */
static void test_undefined_metadata(void **state)
{
    (void)state;
    for (int version = 4; version <= 6; version += 2) {
        nt_writer *w = nt_writer_new(version, 1, 8, 0, 1000000, 1, 1);
        nt_metadata(w, 1, RUNTIME, 3, "", 1, 1, 4, NULL, 0);
        uint8_t payload[2] = {3, 0};
        nt_event e = {1, 1, 5, 5, 0, 0, 10, 0, NULL, payload, 2, NULL, 0};
        for (uint32_t i = 0; i < 5; i++) {
            e.metadata_id = i == 0 || i == 4 ? 1 : 9;
            e.sequence = i + 1;
            e.timestamp = 10 + i;
            nt_write_event(w, &e);
        }
        size_t size;
        uint8_t *data = nt_writer_finish(w, &size);
        evgen_reader *rd = open_bound(data, size, NULL);
        assert_non_null(rd);
        size_t n;
        const evgen_read_problem *p = evgen_reader_problems(rd, &n);
        assert_int_equal(n, 1);
        assert_string_equal(p[0].message, "3 events with undefined metadata ids (the first: 9) skipped");
        assert_true(p[0].offset > 0 && p[0].offset < size);
        assert_int_equal(evgen_reader_status(rd, NULL), EVGEN_READ_CORRUPT);
        evgen_event ev;
        int read = 0;
        while (evgen_reader_next(rd, &ev)) {
            assert_true(GCRestartEEEnd_is(&ev));
            assert_int_equal(GCRestartEEEnd_ClrInstanceID(&ev), 3);
            read++;
        }
        assert_int_equal(read, 2);
        evgen_reader_close(rd);
        free(data);
    }
}

/* Activity ids: in V4/V5 event headers, in V6 label lists (valid until the next sequence point). */
static void test_activity_ids(void **state)
{
    (void)state;
    static const uint8_t act[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    static const uint8_t rel[16] = {0xA0};
    for (size_t k = 0; k < sizeof formats / sizeof formats[0]; k++) {
        const format *f = &formats[k];
        nt_writer *w = nt_writer_new(f->version, f->compressed, 8, 0, 1000000, 1, 1);
        nt_metadata(w, 1, RUNTIME, 3, "", 1, 1, 4, NULL, 0);
        if (f->version >= 6)
            nt_label_list(w, 1, act, rel);
        uint8_t payload[2] = {3, 0};
        nt_event e = {1, 1, 5, 5, 0, 0, 10, 0, f->version < 6 ? act : NULL, payload, 2, NULL, f->version >= 6};
        nt_write_event(w, &e);
        e.sequence = 2;
        e.timestamp = 11;
        e.activity_id = NULL;
        e.label_list_id = 0;
        nt_write_event(w, &e); /* no activity */
        uint64_t thread = 5;
        uint32_t seq = 2;
        nt_sequence_point(w, 12, &thread, &seq, 1);
        e.sequence = 3;
        e.timestamp = 13;
        e.label_list_id = f->version >= 6; /* a list of the region before: not resolved */
        nt_write_event(w, &e);
        size_t size;
        uint8_t *data = nt_writer_finish(w, &size);
        evgen_reader *rd = open_bound(data, size, NULL);
        assert_non_null(rd);
        evgen_event ev;
        assert_true(evgen_reader_next(rd, &ev));
        assert_non_null(ev.activity_id);
        assert_memory_equal(ev.activity_id, act, 16);
        assert_true(evgen_reader_next(rd, &ev));
        assert_null(ev.activity_id); /* V4/V5 uncompressed headers always carry one: all zero is none */
        assert_true(evgen_reader_next(rd, &ev));
        if (f->version >= 6)
            assert_null(ev.activity_id);
        assert_false(evgen_reader_next(rd, &ev));
        size_t n;
        evgen_reader_problems(rd, &n);
        assert_int_equal(n, 0);
        evgen_reader_close(rd);
        free(data);
    }
}

/* Several manifests: each decoded, the events bound to the first that knows them. */
static void test_several_manifests(void **state)
{
    (void)state;
    size_t size;
    uint8_t *data = make(&formats[0], &size);
    const evgen_reader_manifest *manifests[] = {&gcevents_reader_manifest, &gcevents_reader_manifest};
    evgen_reader_options options = {manifests, 2};
    char *error = NULL;
    evgen_reader *rd = evgen_reader_open_memory_with(data, size, &options, &error);
    if (!rd)
        fail_msg("two manifests: %s", error);
    const evgen_trace_event_info *first = evgen_reader_find_event(rd, RUNTIME, "GCStart");
    assert_non_null(first);
    size_t n_starts = 0;
    for (size_t i = 0; i < evgen_reader_event_count(rd); i++)
        n_starts += strcmp(evgen_reader_event_info(rd, i)->name, "GCStart") == 0;
    assert_int_equal(n_starts, 2); /* one per manifest */
    evgen_event ev;
    int bound = 0;
    while (evgen_reader_next(rd, &ev))
        if (GCStart_is(&ev)) {
            assert_ptr_equal(ev.info, first);
            bound++;
        }
    assert_int_equal(bound, 4);
    evgen_reader_close(rd);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_back),
        cmocka_unit_test(test_unbound_without_manifest),
        cmocka_unit_test(test_cuts),
        cmocka_unit_test(test_flips),
        cmocka_unit_test(test_pointer_size_4),
        cmocka_unit_test(test_undefined_metadata),
        cmocka_unit_test(test_activity_ids),
        cmocka_unit_test(test_several_manifests),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
