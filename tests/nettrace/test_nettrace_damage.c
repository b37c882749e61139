/* test_nettrace_damage.c — cut and corrupted copies of the real .NET Core 3.0 trace: every cut of
 * its first 3 KiB and 250 more through the file, and 300 flipped bytes, each read from an exact-
 * size heap copy (so AddressSanitizer sees any read past the end): the open fails with a message
 * naming the offset or succeeds, everything readable before the damage is read, every event lies
 * inside the file, every field access stays inside its payload, and the problems name offsets in
 * the file, in file order (a cut event block: its undecodable tail before the block's header that
 * says the file ends inside it, as the reader finds them, but listed by offset). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gcevents_reader.h"
#include "real_trace.h"
#include "test_support.h"

typedef struct fixture {
    char *dir, *path;
    uint8_t *data;
    size_t size;
    uint64_t events; /* of the whole file */
} fixture;

static const evgen_reader_options *options(void)
{
    static const evgen_reader_manifest *manifests[] = {&gcevents_reader_manifest};
    static evgen_reader_options o = {manifests, 1};
    return &o;
}

/* Reads every event of `rd` in time order, touching every field; returns the count. */
static uint64_t read_all(evgen_reader *rd, const uint8_t *data, size_t size)
{
    uint64_t n = 0;
    evgen_event ev;
    evgen_reader_rewind(rd, EVGEN_ORDER_TIME);
    while (evgen_reader_next(rd, &ev)) {
        n++;
        assert_true(ev.payload >= data && ev.size <= size && (size_t)(ev.payload - data) <= size - ev.size);
        for (uint32_t f = 0; f < ev.layout->n_fields; f++) {
            uint32_t off, len;
            if (evgen_event_field(&ev, f, &off, &len))
                assert_true(off <= ev.size && len <= ev.size - off);
        }
        if (ev.stack)
            assert_true(ev.stack >= data && (size_t)(ev.stack - data) + (size_t)ev.stack_depth * ev.pointer_size <= size);
        if (GCAllocationTick_is(&ev)) { /* the generated accessors too */
            char name[64];
            evgen_utf16_to_utf8(GCAllocationTick_TypeName(&ev), name, sizeof name);
            (void)GCAllocationTick_HeapIndex(&ev);
        }
    }
    size_t n_problems;
    const evgen_read_problem *p = evgen_reader_problems(rd, &n_problems);
    for (size_t i = 0; i < n_problems; i++) {
        assert_true(p[i].offset <= size);
        if (i && p[i].offset < p[i - 1].offset)
            fail_msg("problem %zu at offset %llu (%s) after one at %llu (%s): not in file order", i,
                     (unsigned long long)p[i].offset, p[i].message, (unsigned long long)p[i - 1].offset,
                     p[i - 1].message);
    }
    return n;
}

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    *state = f;
    f->path = real_trace_unzip(&f->dir);
    if (!f->path)
        return 0;
    char *text = NULL;
    FILE *in = fopen(f->path, "rb");
    assert_non_null(in);
    fseek(in, 0, SEEK_END);
    f->size = (size_t)ftell(in);
    fseek(in, 0, SEEK_SET);
    f->data = malloc(f->size);
    assert_int_equal(fread(f->data, 1, f->size, in), f->size);
    fclose(in);
    free(text);
    char *error = NULL;
    evgen_reader *rd = evgen_reader_open_memory_with(f->data, f->size, options(), &error);
    assert_non_null(rd);
    f->events = read_all(rd, f->data, f->size);
    evgen_reader_close(rd);
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    real_trace_remove(f->dir, f->path);
    free(f->data);
    free(f);
    return 0;
}

/* A copy of the first `cut` bytes, read: returns the events read, or -1 if the open failed. */
static int64_t read_cut(const fixture *f, size_t cut, uint64_t *truncated_at)
{
    uint8_t *copy = malloc(cut ? cut : 1);
    memcpy(copy, f->data, cut);
    char *error = NULL;
    evgen_reader *rd = evgen_reader_open_memory_with(copy, cut, options(), &error);
    int64_t n = -1;
    if (!rd) {
        assert_non_null(error);
        if (cut >= 8 && !strstr(error, "offset"))
            fail_msg("cut at %zu: the error names no offset: %s", cut, error);
    } else {
        n = (int64_t)read_all(rd, copy, cut);
        evgen_read_status st = evgen_reader_status(rd, truncated_at);
        if (st != EVGEN_READ_TRUNCATED)
            fail_msg("cut at %zu of %zu: status %d, not truncated", cut, f->size, st);
        assert_true(*truncated_at <= cut);
        evgen_reader_close(rd);
    }
    free(error);
    free(copy);
    return n;
}

static void test_cuts(void **state)
{
    fixture *f = *state;
    REAL_TRACE_NEEDED(f->data);
    uint64_t at;
    /* Before the first event block ends nothing is read; the open fails until the trace object
     * is whole (it ends at offset 0x65 in this file), then succeeds with the file marked truncated. */
    int opened = 0;
    for (size_t cut = 0; cut < 3072; cut++) {
        int64_t n = read_cut(f, cut, &at);
        if (n >= 0)
            opened = 1;
        else
            assert_false(opened); /* once it opens, a longer copy opens too */
    }
    assert_true(opened);
    int64_t last = 0;
    for (size_t k = 1; k < 250; k++) {
        size_t cut = 3072 + (f->size - 3072) / 250 * k + k % 7;
        int64_t n = read_cut(f, cut, &at);
        assert_true(n >= last); /* a longer prefix reads no fewer events */
        assert_true((uint64_t)n <= f->events);
        last = n;
    }
    /* One byte short of the whole file: only the end-of-stream tag is missing. */
    assert_int_equal(read_cut(f, f->size - 1, &at), (int64_t)f->events);
    assert_int_equal(at, f->size - 1);
}

/* Cuts inside an event block whose last event header the cut splits: two problems, the block's
 * ("the file ends inside this block", at its object header) found after the split header's (later
 * in the file), listed by offset, the block's first. */
static void test_cut_event_block_problems_in_file_order(void **state)
{
    fixture *f = *state;
    REAL_TRACE_NEEDED(f->data);
    size_t checked = 0;
    for (size_t k = 1; k < 400; k++) {
        size_t cut = (f->size / 400) * k + k % 13;
        uint8_t *copy = malloc(cut);
        memcpy(copy, f->data, cut);
        evgen_reader *rd = evgen_reader_open_memory_with(copy, cut, options(), NULL);
        assert_non_null(rd);
        size_t n;
        const evgen_read_problem *p = evgen_reader_problems(rd, &n);
        uint64_t at;
        assert_int_equal(evgen_reader_status(rd, &at), EVGEN_READ_TRUNCATED);
        for (size_t i = 1; i < n; i++)
            if (p[i].offset < p[i - 1].offset)
                fail_msg("cut at %zu: problem %zu at offset %llu (%s) after one at %llu (%s)", cut, i,
                         (unsigned long long)p[i].offset, p[i].message, (unsigned long long)p[i - 1].offset,
                         p[i - 1].message);
        if (n == 2 && strstr(p[1].message, "does not decode within its block")) {
            assert_string_equal(p[0].message, "the file ends inside this block");
            assert_int_equal(p[0].offset, at);
            assert_true(p[1].offset > at && p[1].offset < cut);
            checked++;
        }
        evgen_reader_close(rd);
        free(copy);
    }
    printf("%zu of 399 cuts split an event header\n", checked);
    assert_true(checked > 0);
}

static void test_flips(void **state)
{
    fixture *f = *state;
    REAL_TRACE_NEEDED(f->data);
    uint8_t *copy = malloc(f->size);
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    size_t opened = 0, problems = 0;
    for (int i = 0; i < 300; i++) {
        memcpy(copy, f->data, f->size);
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        /* Half of the flips in the first 64 KiB, where the metadata and headers are dense. */
        size_t at = (size_t)((seed >> 33) % (i % 2 ? f->size : 65536));
        copy[at] ^= (uint8_t)(1u << ((seed >> 20) & 7));
        char *error = NULL;
        evgen_reader *rd = evgen_reader_open_memory_with(copy, f->size, options(), &error);
        if (!rd) {
            assert_non_null(error);
            assert_non_null(strstr(error, "offset"));
            free(error);
            continue;
        }
        opened++;
        read_all(rd, copy, f->size);
        size_t n;
        evgen_reader_problems(rd, &n);
        problems += n != 0;
        evgen_reader_close(rd);
    }
    free(copy);
    printf("%zu of 300 flipped copies opened, %zu with problems reported\n", opened, problems);
    assert_true(opened > 250);
    assert_true(problems > 0);
}

/* Hand-made damage with an exact message: a bad tag, an unknown object type, a stream header that
 * is not FastSerialization's, a wrong major version. */
static void test_messages(void **state)
{
    fixture *f = *state;
    REAL_TRACE_NEEDED(f->data);
    char *error = NULL;
    uint8_t *copy = malloc(f->size);

    memcpy(copy, f->data, f->size);
    copy[12] = 'X'; /* "!FastSerialization.1" */
    assert_null(evgen_reader_open_memory_with(copy, f->size, options(), &error));
    assert_string_equal(error, "not a nettrace stream: bad stream header at offset 8");
    free(error);

    memcpy(copy, f->data, f->size);
    memset(copy + 8, 0, 4); /* V6's reserved word, then major version 0 */
    memset(copy + 12, 0, 4);
    assert_null(evgen_reader_open_memory_with(copy, f->size, options(), &error));
    assert_string_equal(error, "unsupported nettrace major version 0 at offset 12 (this reader reads 4 to 6)");
    free(error);

    /* The first metadata block's begin tag (the trace object ends at 0x65). */
    memcpy(copy, f->data, f->size);
    assert_int_equal(copy[0x66], 5);
    copy[0x66] = 9;
    evgen_reader *rd = evgen_reader_open_memory_with(copy, f->size, options(), &error);
    assert_non_null(rd);
    size_t n;
    const evgen_read_problem *p = evgen_reader_problems(rd, &n);
    assert_int_equal(n, 1);
    assert_int_equal(p[0].offset, 0x66);
    assert_non_null(strstr(p[0].message, "not an object header"));
    evgen_event ev;
    assert_false(evgen_reader_next(rd, &ev));
    evgen_reader_close(rd);
    free(copy);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cuts),
        cmocka_unit_test(test_cut_event_block_problems_in_file_order),
        cmocka_unit_test(test_flips),
        cmocka_unit_test(test_messages),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
