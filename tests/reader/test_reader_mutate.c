/* test_reader_mutate.c — whatever the bytes are: a trace of every event version of a manifest
 * (gcevents, or FIRE_ALL's: every kind of field), mutated at random (bytes set, runs overwritten with edge
 * values, bytes inserted and deleted, cuts), and then — so that the mutations reach the decoders
 * behind the checksums — every block's crc and the header's fixed up. Each mutant is opened,
 * iterated in both orders with every field located, and dumped in text, JSON and --stats; the
 * sanitizers and the bounds checks here watch. ITERATIONS mutants (argument 1, default 3000). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <fcntl.h>
#include <unistd.h>

#include "evgen/dump.h"
#include "evgen/reader.h"
#include "reader_helpers.h"
#include "roundtrip.h"
#include "test_support.h"
#include "trace_parse.h"

#ifndef FIRE_ALL /* the harness of the manifest whose trace is mutated */
#define FIRE_ALL gcevents_fire_all
#endif
size_t FIRE_ALL(void);

static long iterations = 3000;

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Recomputes the crc of every block whose header can be walked, and of the file header. */
static void fix_checksums(uint8_t *data, size_t size)
{
    if (size >= 48)
        put_le32(data + 44, tp_crc32(0, data, 44));
    size_t off = 48;
    while (off + 48 <= size && memcmp(data + off, "EVBK", 4) == 0) {
        size_t hsize = (size_t)(data[off + 6] | data[off + 7] << 8);
        size_t psize = (size_t)data[off + 8] | (size_t)data[off + 9] << 8 | (size_t)data[off + 10] << 16 |
                       (size_t)data[off + 11] << 24;
        if (hsize < 48 || hsize + psize > size - off)
            break;
        put_le32(data + off + 12, tp_crc32(tp_crc32(0, data + off + 16, 32), data + off + hsize, psize));
        off += hsize + psize;
    }
}

static size_t mutate(uint8_t *data, size_t size, size_t cap, uint64_t *seed)
{
    static const uint8_t edges[] = {0x00, 0xff, 0x80, 0x7f, 0x01, 0x02, 0x10, 0x11, 0x0f, 0x40};
    int n = 1 + (int)(next_random(seed) % 4);
    for (int k = 0; k < n && size > 0; k++) {
        size_t at = (size_t)(next_random(seed) % size);
        switch (next_random(seed) % 6) {
        case 0: /* one byte */
        case 1:
            data[at] = (uint8_t)next_random(seed);
            break;
        case 2: { /* a run of edge values */
            size_t len = 1 + (size_t)(next_random(seed) % 12);
            for (size_t i = at; i < size && i < at + len; i++)
                data[i] = edges[next_random(seed) % sizeof edges];
            break;
        }
        case 3: { /* insert bytes */
            size_t len = 1 + (size_t)(next_random(seed) % 8);
            if (size + len <= cap) {
                memmove(data + at + len, data + at, size - at);
                for (size_t i = 0; i < len; i++)
                    data[at + i] = (uint8_t)next_random(seed);
                size += len;
            }
            break;
        }
        case 4: { /* delete bytes */
            size_t len = 1 + (size_t)(next_random(seed) % 8);
            if (at + len <= size) {
                memmove(data + at, data + at + len, size - at - len);
                size -= len;
            }
            break;
        }
        default: /* cut */
            if (next_random(seed) % 4 == 0)
                size = at;
            break;
        }
    }
    /* Usually keep the header intact: most mutants should reach the blocks. */
    if (next_random(seed) % 8)
        fix_checksums(data, size);
    return size;
}

static void exercise(const uint8_t *data, size_t size, const char *path, int null_fd)
{
    char *error = NULL;
    evgen_reader *rd = evgen_reader_open_memory(data, size, &error);
    if (!rd) {
        assert_non_null(error);
        free(error);
        return;
    }
    size_t np;
    const evgen_read_problem *p = evgen_reader_problems(rd, &np);
    for (size_t i = 0; i < np; i++)
        assert_true(p[i].offset <= size && p[i].message[0]);
    for (int order = 0; order < 2; order++) {
        evgen_reader_rewind(rd, order ? EVGEN_ORDER_TIME : EVGEN_ORDER_FILE);
        evgen_event ev;
        while (evgen_reader_next(rd, &ev)) {
            assert_true(ev.payload >= data && ev.payload + ev.size <= data + size);
            for (uint32_t f = 0; f <= ev.layout->n_fields; f++) {
                uint32_t off, len;
                if (evgen_event_field(&ev, f, &off, &len))
                    assert_true(f < ev.layout->n_fields && off <= ev.size && len <= ev.size - off);
            }
            for (uint32_t k = 0; k < ev.n_variable; k++)
                assert_true(ev.variable_end[k] == UINT32_MAX || ev.variable_end[k] <= ev.size);
        }
    }
    evgen_reader_close(rd);

    unlink(path); /* cheaper than truncating a file just mapped */
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (size)
        assert_int_equal(fwrite(data, 1, size, f), size);
    fclose(f);
    FILE *err = fopen("/dev/null", "w");
    evgen_dump_options opt;
    evgen_dump_options_init(&opt);
    evgen_dump(path, &opt, null_fd, err);
    opt.json = 1;
    opt.order = EVGEN_ORDER_FILE;
    evgen_dump(path, &opt, null_fd, err);
    opt.stats = 1;
    evgen_dump(path, &opt, null_fd, err);
    fclose(err);
}

static void test_mutants_never_crash(void **state)
{
    (void)state;
    rh_trace t;
    rh_record(FIRE_ALL, 0, &t);
    char *dir = evgen_test_tempdir();
    char path[512];
    snprintf(path, sizeof path, "%s/mutant.evtrace", dir);
    int null_fd = open("/dev/null", O_WRONLY);
    size_t cap = t.size + 4096;
    uint8_t *buf = malloc(cap);
    uint64_t seed = 0x853c49e6748fea9bull;
    for (long i = 0; i < iterations; i++) {
        memcpy(buf, t.data, t.size);
        size_t size = mutate(buf, t.size, cap, &seed);
        /* An exact-size copy: a read past the end is a sanitizer error. */
        uint8_t *exact = malloc(size ? size : 1);
        memcpy(exact, buf, size);
        exercise(exact, size, path, null_fd);
        free(exact);
    }
    close(null_fd);
    free(buf);
    evgen_test_rmtree(dir);
    free(dir);
    free(t.data);
    roundtrip_free();
}

int main(int argc, char **argv)
{
    if (argc > 1)
        iterations = atol(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mutants_never_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
