/* test_runtime_crash.c — a process killed while tracing leaves every complete block readable:
 * a child emits until SIGKILL; the trace has valid blocks in order, maybe a torn tail, no end
 * block. And the parser finds a torn tail or a corrupt block wherever it is. */
#include <errno.h>
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

enum { BLOCK = 4096 };

static const uint16_t text[] = {'k', 'i', 'l', 'l', 0};

/* The child: emits Ticks (and now and then a variable Message) until it is killed. */
static void emit_forever(const char *path, evgen_block_writer writer)
{
    evgen_session_options o = rt_options(BLOCK, 8, 1024, EVGEN_WHEN_FULL_WAIT);
    o.block_writer = writer;
    evgen_session *s = evgen_session_open_file(path, &o);
    if (!s || evgen_session_enable(s, NULL, 255, ~0ull) != 0)
        _exit(2);
    for (uint64_t k = 0;; k++) {
        if (fire_tick(0, k) != EVGEN_EMIT_OK)
            _exit(3);
        if (k % 64 == 0) {
            uint32_t values[2] = {(uint32_t)k, (uint32_t)(k >> 32)};
            if (fire_message((uint32_t)k, text, 2, values, 0, NULL) != EVGEN_EMIT_OK)
                _exit(4);
        }
    }
}

typedef struct sequence {
    uint64_t next_tick, messages;
    int bad;
} sequence;

static void check_sequence(const tp_record *r, void *context)
{
    sequence *q = context;
    uint64_t seq;
    if (r->type == testevents_manifest.type_base + 3) {
        memcpy(&seq, r->payload + 4, 8);
        q->bad |= seq != q->next_tick;
        q->next_tick = seq + 1;
    } else if (r->type == testevents_manifest.type_base + 2) {
        uint32_t s32;
        memcpy(&s32, r->payload, 4);
        q->bad |= q->next_tick == 0 || s32 != (uint32_t)(q->next_tick - 1) || (q->next_tick - 1) % 64 != 0;
        q->messages++;
    } else {
        q->bad = 1;
    }
}

/* Killed while its blocks were written by its own threads (AUTO), or gathered by the O_DIRECT
 * writer (whose last block may wait for the next batch: a torn tail, as with a block being written). */
static void killed_process(evgen_block_writer writer)
{
    char *path = rt_path("killed.evtrace");
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        emit_forever(path, writer);

    /* Kill it once a few blocks are in the file (or give up after ~60 s: the test then fails). */
    rt_kill_once_grown(pid, path, 48 + 6 * (BLOCK + 48));

    size_t size;
    uint8_t *data = tp_read_file(path, &size);
    assert_non_null(data);
    sequence q = {0};
    tp_trace t;
    int rc = tp_parse(data, size, check_sequence, &q, &t);
    if (rc != 0)
        fprintf(stderr, "%s\n", t.error);
    assert_int_equal(rc, 0); /* every complete block checks out */
    assert_false(t.has_end);
    assert_int_equal(t.process_id, (uint32_t)pid);
    assert_true(t.n_blocks[2] >= 3);
    assert_false(q.bad); /* records in emit order, none missing between complete blocks */
    assert_int_equal(q.next_tick + q.messages, t.n_records);
    if (t.torn) /* a block cut by the kill: the bytes after the last complete block (padding included) */
        assert_true(t.torn_offset < size &&
                    size - t.torn_offset < 48 + BLOCK + (writer != EVGEN_BLOCK_WRITER_EMITTER ? 4095 : 0));
    tp_free(&t);
    free(data);
    rt_path_free(path);
}

static void test_runtime_killed_process(void **state)
{
    (void)state;
    killed_process(EVGEN_BLOCK_WRITER_EMITTER);
}

static void test_runtime_killed_process_direct_io(void **state)
{
    (void)state;
    killed_process(EVGEN_BLOCK_WRITER_DIRECT_IO);
}

void evgen_rt_adaptive_force(int hand_over_at_once);

/* An adaptive session killed after its O_DIRECT writer handed the writing to the emitting thread. */
static void test_runtime_killed_process_adaptive(void **state)
{
    (void)state;
    evgen_rt_adaptive_force(1); /* the child inherits it */
    killed_process(EVGEN_BLOCK_WRITER_ADAPTIVE);
    evgen_rt_adaptive_force(0);
}

/* Block boundaries of a trace, read from the block headers. */
static size_t block_offsets(const uint8_t *data, size_t size, size_t *offsets, size_t max)
{
    size_t n = 0, off = 48;
    while (off + 48 <= size && n < max) {
        offsets[n++] = off;
        uint32_t payload;
        memcpy(&payload, data + off + 8, 4);
        off += 48 + payload;
    }
    assert_int_equal(off, size);
    return n;
}

static void test_runtime_torn_and_corrupt(void **state)
{
    (void)state;
    evgen_session_options o = rt_options(BLOCK, 4, 1024, EVGEN_WHEN_FULL_WAIT);
    evgen_session *s = evgen_session_open_memory(&o);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    for (uint64_t k = 0; k < 2000; k++)
        assert_int_equal(fire_tick(0, k), EVGEN_EMIT_OK);
    uint8_t *mem;
    size_t size;
    assert_int_equal(evgen_session_close(s, NULL, &mem, &size), 0);

    size_t offsets[64];
    size_t n = block_offsets(mem, size, offsets, 64);
    assert_true(n >= 5);
    tp_trace t;
    /* Cut at every block boundary, and inside every block (in its header and its payload). */
    for (size_t b = 0; b < n; b++) {
        size_t end = b + 1 < n ? offsets[b + 1] : size;
        size_t cuts[] = {offsets[b], offsets[b] + 1, offsets[b] + 47, offsets[b] + 48, (offsets[b] + end) / 2,
                         end - 1};
        for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
            sequence q = {0};
            assert_int_equal(tp_parse(mem, cuts[c], check_sequence, &q, &t), 0);
            assert_false(q.bad);
            assert_false(t.has_end);
            if (cuts[c] == offsets[b]) {
                assert_false(t.torn);
            } else {
                assert_true(t.torn);
                assert_int_equal(t.torn_offset, offsets[b]);
            }
            tp_free(&t);
        }
    }
    /* A flipped bit in any block is caught by its crc, and reported at that block. */
    for (size_t b = 0; b < n; b++) {
        size_t at = b + 1 < n ? (offsets[b] + offsets[b + 1]) / 2 : offsets[b] + 20;
        mem[at] ^= 0x10;
        assert_int_equal(tp_parse(mem, size, NULL, NULL, &t), -1);
        char want[64];
        snprintf(want, sizeof want, "block at offset %zu: crc mismatch", offsets[b]);
        assert_string_equal(t.error, want);
        tp_free(&t);
        mem[at] ^= 0x10;
    }
    assert_int_equal(tp_parse(mem, size, NULL, NULL, &t), 0);
    assert_true(t.has_end);
    assert_int_equal(t.n_records, 2000);
    tp_free(&t);
    free(mem);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runtime_killed_process),
        cmocka_unit_test(test_runtime_killed_process_direct_io),
        cmocka_unit_test(test_runtime_killed_process_adaptive),
        cmocka_unit_test(test_runtime_torn_and_corrupt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
