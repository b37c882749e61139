/* test_reader_streams.c — streams (docs/format.md: an events block's bytes 36..39, the nesting
 * level of a thread's emits interrupted by a signal handler), on hand-made traces: two threads, one
 * of them with blocks of streams 0, 1 and 2 whose timestamps interleave, each stream with its own
 * sequence and base_ticks chain. Time order returns every event by timestamp (the streams of a
 * thread merged), file order as the blocks lie, each event with its thread and stream; the stats
 * count a thread's streams under its id; `evgen dump` shows the stream in JSON only when nonzero;
 * a stream of 256 or more is refused, and a metadata or end block with one is skipped; the resync
 * after a bad block finds a block of a nested stream. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evgen/reader.h"
#include "reader_helpers.h"
#include "test_support.h"
#include "trace_parse.h" /* tp_crc32 */

enum { K_U32 = 3 };

/* One block of the trace: a thread's stream, its sequence in that stream, its base_ticks, and
 * its records as (ticks, N) where N is the event's place in time order. */
typedef struct spec_block {
    uint64_t thread_id;
    uint32_t stream, sequence, dropped;
    uint64_t base_ticks;
    size_t n;
    uint64_t ticks[3];
    uint32_t value[3];
} spec_block;

#define T0 RH_START_TICKS
/* Thread 7's stream 0 is interrupted twice by a handler (stream 1), once while that handler's
 * emit is interrupted again (stream 2); thread 8 emits beside it. File order: A B F E C D. */
static const spec_block spec[] = {
    {7, 0, 0, 0, T0, 3, {T0 + 10, T0 + 40, T0 + 70}, {0, 3, 7}},   /* A */
    {7, 1, 0, 0, T0, 2, {T0 + 20, T0 + 50}, {1, 4}},                /* B */
    {8, 0, 0, 0, T0, 2, {T0 + 20, T0 + 100}, {2, 10}},              /* F: a tie with B at T0 + 20 */
    {7, 2, 0, 0, T0, 1, {T0 + 55}, {5}},                            /* E */
    {7, 0, 1, 0, T0 + 70, 2, {T0 + 80, T0 + 110}, {8, 11}},         /* C: A's last record */
    {7, 1, 1, 2, T0 + 50, 2, {T0 + 60, T0 + 90}, {6, 9}},           /* D: B's last record */
};
enum { N_BLOCKS = sizeof spec / sizeof spec[0], N_EVENTS = 12 };

/* The stream and thread of event N. */
static void owner(uint32_t value, uint64_t *thread_id, uint32_t *stream)
{
    for (size_t b = 0; b < N_BLOCKS; b++)
        for (size_t i = 0; i < spec[b].n; i++)
            if (spec[b].value[i] == value) {
                *thread_id = spec[b].thread_id;
                *stream = spec[b].stream;
                return;
            }
    fail_msg("no event %u", value);
}

static void metadata(rh_bytes *file)
{
    static const rh_field n_field[] = {{"N", K_U32, 0, 0}};
    const char *names[] = {"Tick"};
    const rh_field *fields[] = {n_field};
    size_t n_fields[] = {1};
    rh_metadata(file, 0, 1, names, fields, n_fields);
}

static void events_block(rh_bytes *file, const spec_block *b)
{
    rh_bytes p = {0};
    uint64_t ticks = b->base_ticks;
    for (size_t i = 0; i < b->n; i++) {
        rh_varint(&p, 0); /* type 0: Tick v1 */
        rh_zigzag(&p, (int64_t)(b->ticks[i] - ticks));
        rh_le(&p, b->value[i], 4);
        ticks = b->ticks[i];
    }
    rh_append_stream_block(file, 2, b->thread_id, b->stream, b->sequence, (uint32_t)b->n, b->dropped, b->base_ticks,
                           &p);
    rh_free(&p);
}

/* The trace of `spec`; `garbage_before` (a block index, or N_BLOCKS for none) gets junk bytes
 * before it; *offsets receives each block's offset. */
static void build(rh_bytes *file, size_t garbage_before, size_t *offsets)
{
    memset(file, 0, sizeof *file);
    rh_file_header(file, 1, 1000000000u);
    metadata(file);
    for (size_t b = 0; b < N_BLOCKS; b++) {
        if (b == garbage_before)
            rh_put(file, "junk\x01\x02\x03", 7);
        offsets[b] = file->len;
        events_block(file, &spec[b]);
    }
    uint64_t ids[] = {7, 8}, written[] = {10, 2};
    rh_end_block(file, 2, ids, written);
}

/* Rewrites the stream of the block at `at` and its crc. */
static void set_stream(rh_bytes *file, size_t at, uint32_t stream)
{
    uint8_t *h = file->data + at;
    for (int i = 0; i < 4; i++)
        h[36 + i] = (uint8_t)(stream >> (8 * i));
    uint32_t size = (uint32_t)h[8] | (uint32_t)h[9] << 8 | (uint32_t)h[10] << 16 | (uint32_t)h[11] << 24;
    uint32_t crc = tp_crc32(tp_crc32(0, h + 16, 32), h + 48, size);
    for (int i = 0; i < 4; i++)
        h[12 + i] = (uint8_t)(crc >> (8 * i));
}

static uint32_t value_of(const evgen_event *ev)
{
    assert_string_equal(ev->info->name, "Tick");
    assert_int_equal(ev->size, 4);
    return (uint32_t)ev->payload[0] | (uint32_t)ev->payload[1] << 8 | (uint32_t)ev->payload[2] << 16 |
           (uint32_t)ev->payload[3] << 24;
}

/* The events as spec says: thread, stream, ticks of event N. */
static void check_event(const evgen_event *ev, uint32_t value)
{
    uint64_t tid;
    uint32_t stream;
    owner(value, &tid, &stream);
    assert_int_equal(ev->thread_id, tid);
    assert_int_equal(ev->stream, stream);
    for (size_t b = 0; b < N_BLOCKS; b++)
        for (size_t i = 0; i < spec[b].n; i++)
            if (spec[b].value[i] == value) {
                assert_int_equal(ev->ticks, spec[b].ticks[i]);
                assert_int_equal(ev->timestamp_ns, spec[b].ticks[i] - T0);
            }
}

/* Time order and file order of a reader of the whole spec. */
static void check_orders(evgen_reader *rd)
{
    evgen_event ev;
    evgen_reader_rewind(rd, EVGEN_ORDER_TIME);
    uint64_t last = 0;
    uint32_t n = 0;
    while (evgen_reader_next(rd, &ev)) {
        uint32_t v = value_of(&ev);
        if (ev.timestamp_ns < last)
            fail_msg("time order: event %u at %llu ns after one at %llu ns", v, (unsigned long long)ev.timestamp_ns,
                     (unsigned long long)last);
        last = ev.timestamp_ns;
        if (v != n)
            fail_msg("time order: event %u where %u belongs", v, n);
        check_event(&ev, v);
        n++;
    }
    assert_int_equal(n, N_EVENTS);

    evgen_reader_rewind(rd, EVGEN_ORDER_FILE);
    for (size_t b = 0; b < N_BLOCKS; b++)
        for (size_t i = 0; i < spec[b].n; i++) {
            assert_true(evgen_reader_next(rd, &ev));
            uint32_t v = value_of(&ev);
            if (v != spec[b].value[i])
                fail_msg("file order: event %u where block %zu's record %zu (%u) lies", v, b, i, spec[b].value[i]);
            check_event(&ev, v);
        }
    assert_false(evgen_reader_next(rd, &ev));
}

static void test_streams_in_time_and_file_order(void **state)
{
    (void)state;
    rh_bytes file;
    size_t offsets[N_BLOCKS];
    build(&file, N_BLOCKS, offsets);
    evgen_reader *rd = rh_open_memory(file.data, file.len);
    size_t np;
    const evgen_read_problem *p = evgen_reader_problems(rd, &np);
    if (np)
        fail_msg("problem at %llu: %s", (unsigned long long)p[0].offset, p[0].message);
    assert_int_equal(evgen_reader_status(rd, NULL), EVGEN_READ_OK);
    check_orders(rd);
    /* Twice: a rewind restarts every stream's chain. */
    check_orders(rd);

    /* One thread id, its streams counted together. */
    size_t nt;
    int has_end;
    const evgen_reader_thread *th = evgen_reader_threads(rd, &nt, &has_end);
    assert_true(has_end);
    assert_int_equal(nt, 2);
    assert_int_equal(th[0].thread_id, 7);
    assert_int_equal(th[0].events, 10);
    assert_int_equal(th[0].dropped, 2);
    assert_int_equal(th[0].written_end, 10);
    assert_int_equal(th[1].thread_id, 8);
    assert_int_equal(th[1].events, 2);
    assert_int_equal(th[1].written_end, 2);
    evgen_reader_close(rd);
    rh_free(&file);
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void test_dump_of_streams(void **state)
{
    (void)state;
    rh_bytes file;
    size_t offsets[N_BLOCKS];
    build(&file, N_BLOCKS, offsets);
    char *dir = evgen_test_tempdir();
    char *path = rh_write_file(dir, "streams.evtrace", file.data, file.len);
    char *out, *err;

    /* Text: as for any trace, one line per event in time order. */
    const char *text[] = {EVGEN_EXE, "dump", path, NULL};
    assert_int_equal(rh_run(text, &out, NULL, &err), 0);
    assert_string_equal(err, "");
    assert_int_equal(count_lines(out), N_EVENTS);
    assert_non_null(strstr(out, "20 7 Tick_V1 N=1\n20 8 Tick_V1 N=2\n40 7 Tick_V1 N=3\n"));
    free(out);
    free(err);

    /* JSON: "stream" after "thread", only when nonzero. */
    const char *json[] = {EVGEN_EXE, "dump", "--json", path, NULL};
    assert_int_equal(rh_run(json, &out, NULL, &err), 0);
    assert_int_equal(count_lines(out), N_EVENTS);
    assert_non_null(strstr(out, "{\"timestamp_ns\":10,\"thread\":7,\"event\":\"Tick\""));
    assert_non_null(strstr(out, "{\"timestamp_ns\":20,\"thread\":7,\"stream\":1,\"event\":\"Tick\""));
    assert_non_null(strstr(out, "{\"timestamp_ns\":55,\"thread\":7,\"stream\":2,\"event\":\"Tick\""));
    assert_non_null(strstr(out, "{\"timestamp_ns\":20,\"thread\":8,\"event\":\"Tick\""));
    size_t streams = 0;
    for (const char *s = out; (s = strstr(s, "\"stream\":")) != NULL; s++)
        streams++;
    assert_int_equal(streams, 5); /* B's, D's and E's events */
    free(out);
    free(err);

    /* --stats: two threads, thread 7 with its three streams' 10 events. */
    const char *stats[] = {EVGEN_EXE, "dump", "--stats", path, NULL};
    assert_int_equal(rh_run(stats, &out, NULL, &err), 0);
    assert_non_null(strstr(out, "\n             7             10              2                10"));
    assert_non_null(strstr(out, "\n             8              2              0                 2"));
    assert_non_null(strstr(out, ", 2 threads\n"));
    assert_non_null(strstr(out, "problems: 0\n"));
    free(out);
    free(err);
    free(path);
    evgen_test_rmtree(dir);
    free(dir);
    rh_free(&file);
}

/* Streams 0 to 255 are read; 256 and more skip the block; metadata and end blocks must have 0. */
static void test_stream_bounds(void **state)
{
    (void)state;
    rh_bytes file;
    size_t offsets[N_BLOCKS];
    build(&file, N_BLOCKS, offsets);
    set_stream(&file, offsets[3], 255); /* E */
    evgen_reader *rd = rh_open_memory(file.data, file.len);
    size_t np;
    evgen_reader_problems(rd, &np);
    assert_int_equal(np, 0);
    evgen_event ev;
    evgen_reader_rewind(rd, EVGEN_ORDER_TIME);
    size_t n = 0;
    while (evgen_reader_next(rd, &ev)) {
        if (value_of(&ev) == 5)
            assert_int_equal(ev.stream, 255);
        n++;
    }
    assert_int_equal(n, N_EVENTS);
    evgen_reader_close(rd);

    set_stream(&file, offsets[3], 256);
    rd = rh_open_memory(file.data, file.len);
    const evgen_read_problem *p = evgen_reader_problems(rd, &np);
    assert_int_equal(np, 2);
    assert_int_equal(p[0].offset, offsets[3]);
    assert_string_equal(p[0].message, "events block of thread 7 with stream 256 (at most 255): skipped");
    assert_string_equal(p[1].message, "thread 7: the end block counts 10 events written, 9 found: 1 missing");
    evgen_reader_rewind(rd, EVGEN_ORDER_TIME);
    for (n = 0; evgen_reader_next(rd, &ev); n++)
        assert_int_not_equal(value_of(&ev), 5);
    assert_int_equal(n, N_EVENTS - 1);
    evgen_reader_close(rd);
    rh_free(&file);

    /* A metadata block with a stream: skipped, so no event decodes. */
    build(&file, N_BLOCKS, offsets);
    set_stream(&file, 48, 1);
    rd = rh_open_memory(file.data, file.len);
    p = evgen_reader_problems(rd, &np);
    assert_true(np >= 1);
    assert_int_equal(p[0].offset, 48);
    assert_string_equal(p[0].message, "metadata block with thread fields set: skipped");
    evgen_reader_close(rd);
    rh_free(&file);

    /* An end block with a stream: skipped; the trace has no end block. */
    build(&file, N_BLOCKS, offsets);
    const uint8_t *last = file.data + offsets[N_BLOCKS - 1]; /* the end block follows it */
    size_t end_at = offsets[N_BLOCKS - 1] + 48 +
                    ((size_t)last[8] | (size_t)last[9] << 8 | (size_t)last[10] << 16 | (size_t)last[11] << 24);
    assert_int_equal(file.data[end_at + 4], 3);
    set_stream(&file, end_at, 1);
    rd = rh_open_memory(file.data, file.len);
    p = evgen_reader_problems(rd, &np);
    assert_int_equal(np, 2);
    assert_int_equal(p[0].offset, end_at);
    assert_string_equal(p[0].message, "end block with thread fields set: skipped");
    assert_non_null(strstr(p[1].message, "no end block"));
    int has_end;
    evgen_reader_threads(rd, NULL, &has_end);
    assert_false(has_end);
    evgen_reader_close(rd);
    rh_free(&file);
}

/* Junk before a block of stream 1: the resync lands on it, not on the block after it. */
static void test_resync_finds_a_nested_stream(void **state)
{
    (void)state;
    rh_bytes file;
    size_t offsets[N_BLOCKS];
    build(&file, 1, offsets);
    evgen_reader *rd = rh_open_memory(file.data, file.len);
    size_t np;
    const evgen_read_problem *p = evgen_reader_problems(rd, &np);
    assert_int_equal(np, 1);
    assert_int_equal(p[0].offset, offsets[1] - 7);
    char want[160];
    snprintf(want, sizeof want, "bad block magic (not \"EVBK\"): skipped 7 bytes to the next good block at offset %zu",
             offsets[1]);
    assert_string_equal(p[0].message, want);
    check_orders(rd);
    evgen_reader_close(rd);
    rh_free(&file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_streams_in_time_and_file_order),
        cmocka_unit_test(test_dump_of_streams),
        cmocka_unit_test(test_stream_bounds),
        cmocka_unit_test(test_resync_finds_a_nested_stream),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
