/* test_reader_corrupt.c — flipped bytes: every byte of the file header and of the metadata block,
 * and 1000 random bytes elsewhere, of a several-thread trace. Every flip is either detected — the
 * open fails (the header), or a problem names the offset of the block holding the byte and every
 * event of the other blocks is still read, unchanged — or harmless: no problem, and the events
 * read are exactly the original ones. Never a crash (the sanitizers watch the copy, which is
 * exactly the file's size). */
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

typedef struct event_copy {
    uint64_t offset, thread_id, ticks;
    const char *name; /* the original reader's, compared by content */
    uint32_t version, size;
    const uint8_t *payload;
} event_copy;

typedef struct original {
    const rh_trace *trace;
    rh_block blocks[256];
    size_t n_blocks;
    event_copy *events;
    size_t n_events;
} original;

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static const rh_block *block_of(const original *o, size_t at)
{
    for (size_t i = 0; i < o->n_blocks; i++)
        if (at >= o->blocks[i].offset && at < o->blocks[i].end)
            return &o->blocks[i];
    return NULL;
}

static int same(const event_copy *a, const evgen_event *b)
{
    return a->offset == b->offset && a->thread_id == b->thread_id && a->ticks == b->ticks &&
           strcmp(a->name, b->info->name) == 0 && a->version == b->version && a->size == b->size &&
           memcmp(a->payload, b->payload, a->size) == 0;
}

typedef struct outcome {
    size_t detected, harmless;
} outcome;

static void check_flip(const original *o, size_t at, uint8_t mask, outcome *out)
{
    const rh_trace *t = o->trace;
    uint8_t *copy = malloc(t->size);
    memcpy(copy, t->data, t->size);
    copy[at] ^= mask;
    char *error = NULL;
    evgen_reader *rd = evgen_reader_open_memory(copy, t->size, &error);
    if (at < 48) {
        if (rd)
            fail_msg("a flip at %zu (0x%02x) in the file header is not detected", at, mask);
        free(error);
        free(copy);
        out->detected++;
        return;
    }
    if (!rd)
        fail_msg("a flip at %zu fails the open: %s", at, error);
    const rh_block *b = block_of(o, at);
    assert_non_null(b);
    size_t np;
    const evgen_read_problem *p = evgen_reader_problems(rd, &np);
    int detected = 0;
    for (size_t i = 0; i < np; i++)
        detected |= p[i].offset == b->offset;
    if (np && !detected)
        fail_msg("a flip at %zu (0x%02x) in the block at %zu: problems, but none there (first: %llu: %s)", at, mask,
                 b->offset, (unsigned long long)p[0].offset, p[0].message);

    /* The events read: the original ones, in order, but those of the flipped block (and, for a
     * metadata block, all: their types are no longer defined). */
    evgen_event ev;
    size_t k = 0;
    while (evgen_reader_next(rd, &ev)) {
        while (k < o->n_events && o->events[k].offset != ev.offset)
            k++;
        if (k == o->n_events || !same(&o->events[k], &ev))
            fail_msg("a flip at %zu (0x%02x): an event at %llu the original trace does not have", at, mask,
                     (unsigned long long)ev.offset);
        if (detected && ev.offset >= b->offset && ev.offset < b->end)
            fail_msg("a flip at %zu: an event of the skipped block at %zu was read", at, b->offset);
        k++;
    }
    size_t want = 0, got = 0;
    evgen_reader_rewind(rd, EVGEN_ORDER_FILE);
    while (evgen_reader_next(rd, &ev))
        got++;
    for (size_t i = 0; i < o->n_events; i++)
        want += !(detected && o->events[i].offset >= b->offset && o->events[i].offset < b->end);
    if (detected && b->type == 1)
        want = 0;
    if (got != want)
        fail_msg("a flip at %zu (0x%02x) in a type %u block: %zu events read, %zu expected", at, mask, b->type, got,
                 want);
    if (detected) {
        out->detected++;
    } else {
        assert_int_equal(evgen_reader_status(rd, NULL), EVGEN_READ_OK);
        out->harmless++;
    }
    /* Time order survives it too. */
    evgen_reader_rewind(rd, EVGEN_ORDER_TIME);
    size_t timed = 0;
    while (evgen_reader_next(rd, &ev))
        timed++;
    assert_int_equal(timed, got);
    evgen_reader_close(rd);
    free(copy);
}

static void test_flipped_bytes_are_detected_or_harmless(void **state)
{
    (void)state;
    rh_trace t;
    rh_record_mixed(2, 40, 4096, &t);
    original o;
    memset(&o, 0, sizeof o);
    o.trace = &t;
    o.n_blocks = rh_blocks(t.data, t.size, o.blocks, 256);
    assert_true(o.n_blocks < 256);
    assert_int_equal(o.blocks[0].type, 1);
    assert_int_equal(o.blocks[o.n_blocks - 1].end, t.size);

    evgen_reader *rd = evgen_reader_open_memory(t.data, t.size, NULL);
    assert_non_null(rd);
    o.events = calloc(4096, sizeof *o.events);
    evgen_event ev;
    while (evgen_reader_next(rd, &ev)) {
        assert_true(o.n_events < 4096);
        o.events[o.n_events++] =
            (event_copy){ev.offset, ev.thread_id, ev.ticks, ev.info->name, ev.version, ev.size, ev.payload};
    }
    assert_int_equal(o.n_events, 2 * 40 * 7);

    outcome out = {0, 0};
    /* Every byte of the header and the metadata block, inverted. */
    for (size_t at = 0; at < o.blocks[0].end; at++)
        check_flip(&o, at, 0xff, &out);
    size_t header_and_metadata = out.detected + out.harmless;
    /* And 1000 random bytes elsewhere, with random masks. */
    uint64_t seed = 0x2545f4914f6cdd1dull;
    for (int i = 0; i < 1000; i++) {
        size_t at = o.blocks[0].end + (size_t)(next_random(&seed) % (t.size - o.blocks[0].end));
        uint8_t mask = (uint8_t)(1 + next_random(&seed) % 255);
        check_flip(&o, at, mask, &out);
    }
    printf("%zu flips of the header and metadata, 1000 elsewhere: %zu detected, %zu harmless\n",
           header_and_metadata, out.detected, out.harmless);
    assert_true(out.detected > out.harmless); /* harmless: a block's flags byte, which nothing reads */
    evgen_reader_close(rd);
    free(o.events);
    free(t.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flipped_bytes_are_detected_or_harmless),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
