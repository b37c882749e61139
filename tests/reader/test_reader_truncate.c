/* test_reader_truncate.c — a trace cut short: a several-thread trace (many blocks) cut at every
 * byte offset of its first 64 KiB and at 200 random offsets beyond. Each cut, copied into a buffer
 * of exactly its size (so the sanitizers see any read past it), yields exactly the events of the
 * complete blocks before the cut, counted from the block headers alone, with status TRUNCATED at
 * the end of the last complete block; a cut inside the file header fails the open. */
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

typedef struct expected {
    size_t events;   /* in the complete blocks before the cut */
    size_t readable; /* end of the last complete block (48: none) */
} expected;

static expected expect(const rh_block *blocks, size_t n, size_t cut)
{
    expected e = {0, 48};
    for (size_t i = 0; i < n && blocks[i].end <= cut; i++) {
        if (blocks[i].type == 2)
            e.events += blocks[i].event_count;
        e.readable = blocks[i].end;
    }
    return e;
}

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Opens the first `cut` bytes of the trace and checks what they yield. */
static void check_cut(const rh_trace *t, const rh_block *blocks, size_t n_blocks, const uint64_t *offsets,
                      size_t n_events, size_t cut, int time_order_too)
{
    uint8_t *copy = malloc(cut ? cut : 1);
    memcpy(copy, t->data, cut);
    char *error = NULL;
    evgen_reader *rd = evgen_reader_open_memory(copy, cut, &error);
    if (cut < 48) {
        if (rd)
            fail_msg("a cut at %zu, inside the file header, opens", cut);
        assert_non_null(error);
        free(error);
        free(copy);
        return;
    }
    if (!rd)
        fail_msg("cut at %zu: %s", cut, error);
    expected want = expect(blocks, n_blocks, cut);
    uint64_t at = 0;
    evgen_read_status status = evgen_reader_status(rd, &at);
    size_t np;
    const evgen_read_problem *p = evgen_reader_problems(rd, &np);
    if (cut == t->size) {
        assert_int_equal(status, EVGEN_READ_OK);
        assert_int_equal(np, 0);
    } else {
        if (status != EVGEN_READ_TRUNCATED || at != want.readable)
            fail_msg("cut at %zu: status %d at %llu, expected truncated at %zu", cut, (int)status,
                     (unsigned long long)at, want.readable);
        if (np != 1 || p[0].offset != want.readable)
            fail_msg("cut at %zu: %zu problems, the first at %llu (%s)", cut, np, np ? (unsigned long long)p[0].offset : 0ull,
                     np ? p[0].message : "");
    }
    evgen_event ev;
    size_t n = 0;
    while (evgen_reader_next(rd, &ev)) {
        if (n >= n_events || ev.offset != offsets[n])
            fail_msg("cut at %zu: event %zu at offset %llu is not the trace's", cut, n, (unsigned long long)ev.offset);
        assert_true(ev.payload + ev.size <= copy + cut);
        n++;
    }
    if (n != want.events)
        fail_msg("cut at %zu: %zu events, the complete blocks hold %zu", cut, n, want.events);
    if (time_order_too) {
        evgen_reader_rewind(rd, EVGEN_ORDER_TIME);
        size_t m = 0;
        while (evgen_reader_next(rd, &ev))
            m++;
        assert_int_equal(m, want.events);
    }
    evgen_reader_close(rd);
    free(copy);
}

static void test_every_cut_yields_the_complete_blocks(void **state)
{
    (void)state;
    rh_trace t;
    rh_record_mixed(3, 130, 4096, &t);
    assert_true(t.size > 65536 + 16384);
    rh_block blocks[512];
    size_t n_blocks = rh_blocks(t.data, t.size, blocks, 512);
    assert_true(n_blocks < 512);
    assert_int_equal(blocks[n_blocks - 1].end, t.size); /* the blocks tile the file */
    assert_int_equal(blocks[n_blocks - 1].type, 3);
    size_t in_first_64k = 0;
    for (size_t i = 0; i < n_blocks; i++)
        in_first_64k += blocks[i].end <= 65536;
    assert_true(in_first_64k > 10);

    /* The whole trace, read once: the offsets every cut's events must have. */
    evgen_reader *rd = evgen_reader_open_memory(t.data, t.size, NULL);
    assert_non_null(rd);
    uint64_t *offsets = malloc(sizeof *offsets * 8192);
    size_t n_events = 0;
    evgen_event ev;
    while (evgen_reader_next(rd, &ev)) {
        assert_true(n_events < 8192);
        offsets[n_events++] = ev.offset;
    }
    assert_int_equal(n_events, expect(blocks, n_blocks, t.size).events);
    assert_int_equal(n_events, 3 * 130 * 7);
    evgen_reader_close(rd);

    for (size_t cut = 0; cut <= 65536; cut++)
        check_cut(&t, blocks, n_blocks, offsets, n_events, cut, cut % 251 == 0);
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 200; i++) {
        size_t cut = 65537 + (size_t)(next_random(&seed) % (t.size - 65536));
        check_cut(&t, blocks, n_blocks, offsets, n_events, cut, 1);
    }
    check_cut(&t, blocks, n_blocks, offsets, n_events, t.size, 1);
    /* Exactly at each block's end: nothing torn, but no end block (except the whole file). */
    for (size_t i = 0; i + 1 < n_blocks; i++)
        check_cut(&t, blocks, n_blocks, offsets, n_events, blocks[i].end, 0);
    free(offsets);
    free(t.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_cut_yields_the_complete_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
