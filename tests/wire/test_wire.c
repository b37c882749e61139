/* test_wire.c — libevgen-wire: the kinds table against docs/format.md's table, the encodings at
 * their limits, the headers at their documented offsets, the record and end-block framing, the
 * metadata codec (round trip, every truncation refused), and the layout rule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evgen/crc32c.h"
#include "evgen/wire_format.h"
#include "evgen/wire_kinds.h"
#include "evgen/wire_layout.h"
#include "evgen/wire_metadata.h"
#include "test_support.h"

/* ---- kinds ----------------------------------------------------------------------------------- */

static void test_kind_codes_are_contiguous_and_spellings_unique(void **state)
{
    (void)state;
    assert_null(evgen_wire_kind_info_of(0));
    assert_null(evgen_wire_kind_info_of(EVGEN_WIRE_KIND_LAST + 1));
    for (unsigned k = 1; k <= EVGEN_WIRE_KIND_LAST; k++) {
        const evgen_wire_kind_info *info = evgen_wire_kind_info_of(k);
        assert_non_null(info);
        assert_int_equal(info->code, k);
        assert_int_equal(evgen_wire_kind_by_spelling(info->spelling, strlen(info->spelling)), k);
        for (unsigned j = 1; j < k; j++)
            assert_string_not_equal(evgen_wire_kind_info_of(j)->spelling, info->spelling);
        /* a fixed-size kind has a read type and an accessor family; a struct has neither */
        if (info->cls != EVGEN_WIRE_CLASS_STRUCT) {
            assert_non_null(info->read_type);
            assert_non_null(info->access);
        }
    }
    assert_int_equal(evgen_wire_kind_by_spelling("uint3", 5), 0);
    assert_int_equal(evgen_wire_kind_by_spelling("uint32x", 7), 0);
    assert_true(evgen_wire_kind_is_integer(EVGEN_WIRE_I16));
    assert_false(evgen_wire_kind_is_integer(EVGEN_WIRE_BOOL32));
    assert_true(evgen_wire_kind_is_signed(EVGEN_WIRE_I64));
    assert_false(evgen_wire_kind_is_signed(EVGEN_WIRE_U64));
    assert_true(evgen_wire_kind_is_string(EVGEN_WIRE_UTF16Z));
    assert_false(evgen_wire_kind_is_fixed(EVGEN_WIRE_UTF8Z));
    assert_int_equal(evgen_wire_kind_size(EVGEN_WIRE_PTR, 4), 4);
    assert_int_equal(evgen_wire_kind_size(EVGEN_WIRE_PTR, 8), 8);
    assert_int_equal(evgen_wire_kind_size(99, 8), 0);
}

/* The table "Wire kinds and sizes" of docs/format.md, row by row: "| 1–4 | uint8, uint16, ... |
 * 1, 2, 4, 8 |". Each code's spelling and size there is the table's. */
static void test_kinds_match_format_md(void **state)
{
    (void)state;
    char *doc = evgen_test_read(EVGEN_SOURCE_DIR "/docs/format.md");
    const char *table = strstr(doc, "Wire kinds and sizes:");
    assert_non_null(table);
    unsigned seen = 0;
    for (const char *line = strstr(table, "\n| ") ; line; line = strstr(line + 1, "\n| ")) {
        unsigned first, last;
        int used = 0;
        const char *p = line + 3;
        if (sscanf(p, "%u%n", &first, &used) != 1)
            continue; /* the header row */
        p += used;
        last = first;
        if (strncmp(p, "\xe2\x80\x93", 3) == 0) /* an en dash: a range */
            sscanf(p + 3, "%u", &last);
        else if (*p == ',')
            sscanf(p + 1, " %u", &last);
        const char *names = strstr(p, "| ") + 2, *sizes = strstr(names, "| ") + 2;
        for (unsigned k = first; k <= last; k++) {
            const evgen_wire_kind_info *info = evgen_wire_kind_info_of(k);
            assert_non_null(info);
            size_t n = strlen(info->spelling);
            assert_memory_equal(names, info->spelling, n);
            names += n;
            while (*names == ',' || *names == ' ')
                names++;
            unsigned size;
            if (sscanf(sizes, "%u", &size) == 1) {
                assert_int_equal(evgen_wire_kind_size(k, 8), size);
                sizes = strchr(sizes, ',') ? strchr(sizes, ',') + 1 : sizes;
            } else {
                assert_false(evgen_wire_kind_is_fixed(k) && info->cls != EVGEN_WIRE_CLASS_POINTER);
            }
            seen++;
        }
        if (last == EVGEN_WIRE_KIND_LAST)
            break;
    }
    assert_int_equal(seen, EVGEN_WIRE_KIND_LAST);
    free(doc);
}

/* ---- encodings ------------------------------------------------------------------------------- */

static void test_varint_limits(void **state)
{
    (void)state;
    static const uint64_t values[] = {0, 1, 127, 128, 16383, 16384, UINT32_MAX, (uint64_t)1 << 63, UINT64_MAX};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        uint8_t buf[EVGEN_WIRE_VARINT_MAX];
        uint8_t *end = evgen_wire_put_varint(buf, values[i]);
        const uint8_t *p = buf;
        uint64_t v = 0;
        assert_int_equal(evgen_wire_get_varint(&p, end, &v), 0);
        assert_ptr_equal(p, end);
        assert_true(v == values[i]);
        p = buf; /* one byte short */
        assert_int_equal(evgen_wire_get_varint(&p, end - 1, &v), -1);
    }
    /* ten bytes whose last holds bits beyond 64; eleven bytes */
    uint8_t over[11];
    memset(over, 0xff, sizeof over);
    over[9] = 0x02;
    const uint8_t *p = over;
    uint64_t v;
    assert_int_equal(evgen_wire_get_varint(&p, over + 10, &v), -1);
    over[9] = 0x80;
    over[10] = 0x00;
    p = over;
    assert_int_equal(evgen_wire_get_varint(&p, over + 11, &v), -1);
    static const int64_t signed_values[] = {0, -1, 1, INT64_MIN, INT64_MAX, -64, 64};
    for (size_t i = 0; i < sizeof signed_values / sizeof signed_values[0]; i++)
        assert_true(evgen_wire_unzigzag(evgen_wire_zigzag(signed_values[i])) == signed_values[i]);
    assert_true(evgen_wire_zigzag(-1) == 1 && evgen_wire_zigzag(1) == 2);
}

static void test_buf_string_and_failure(void **state)
{
    (void)state;
    evgen_wire_buf b = {0};
    evgen_wire_buf_string(&b, "GCStart");
    evgen_wire_buf_string(&b, NULL);
    evgen_wire_buf_le32(&b, 0x01020304);
    static const uint8_t want[] = {7, 'G', 'C', 'S', 't', 'a', 'r', 't', 0, 4, 3, 2, 1};
    assert_int_equal(b.len, sizeof want);
    assert_memory_equal(b.data, want, sizeof want);
    assert_int_equal(evgen_wire_buf_reserve(&b, SIZE_MAX), -1);
    assert_true(b.failed);
    size_t len = b.len;
    evgen_wire_buf_varint(&b, 5); /* ignored after a failure */
    assert_int_equal(b.len, len);
    evgen_wire_buf_free(&b);
}

/* Every implementation evgen_crc32c may choose (evgen_crc32c_path_fn), and evgen_crc32c itself, must
 * give the byte-wise table's checksum. A path this CPU lacks is skipped with a message. */
typedef struct {
    const char *name;
    evgen_crc32c_fn fn;
} crc_path;

static size_t crc_paths(crc_path out[EVGEN_CRC32C_N_PATHS + 2])
{
    size_t n = 0;
    for (int p = 0; p < EVGEN_CRC32C_N_PATHS; p++) {
        const char *name = evgen_crc32c_path_name((evgen_crc32c_path)p);
        assert_non_null(name);
        evgen_crc32c_fn fn = evgen_crc32c_path_fn((evgen_crc32c_path)p);
        if (fn)
            out[n++] = (crc_path){name, fn};
        else
            print_message("crc32c: skipping the %s path: this CPU lacks its instructions\n", name);
    }
    out[n++] = (crc_path){"evgen_crc32c", evgen_crc32c};
    out[n++] = (crc_path){"evgen_crc32c_cached", evgen_crc32c_cached};
    assert_null(evgen_crc32c_path_name(EVGEN_CRC32C_N_PATHS));
    assert_null(evgen_crc32c_path_fn(EVGEN_CRC32C_N_PATHS));
    assert_ptr_equal(evgen_crc32c_path_fn(EVGEN_CRC32C_BYTEWISE), evgen_crc32c_bytewise);
    return n;
}

static uint32_t xorshift32(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

static void expect_crc(const crc_path *path, uint32_t init, const uint8_t *p, size_t n, size_t align, uint32_t want)
{
    uint32_t got = path->fn(init, p, n);
    if (got != want)
        fail_msg("%s: length %zu at alignment %zu from %08x: %08x, the table says %08x", path->name, n, align,
                 init, got, want);
}

/* The reference itself against published values: "123456789" (the check value) and RFC 3720's
 * (iSCSI) 32-byte vectors; then every path on them. */
static void test_crc32c_known_values(void **state)
{
    (void)state;
    uint8_t zeros[32] = {0}, ones[32], up[32], down[32];
    for (int i = 0; i < 32; i++) {
        ones[i] = 0xff;
        up[i] = (uint8_t)i;
        down[i] = (uint8_t)(31 - i);
    }
    crc_path paths[EVGEN_CRC32C_N_PATHS + 2];
    size_t n_paths = crc_paths(paths);
    for (size_t k = 0; k < n_paths; k++) {
        assert_int_equal(paths[k].fn(0, "123456789", 9), 0xE3069283u);
        assert_int_equal(paths[k].fn(0, zeros, 32), 0x8A9136AAu);
        assert_int_equal(paths[k].fn(0, ones, 32), 0x62A8AB43u);
        assert_int_equal(paths[k].fn(0, up, 32), 0x46DD794Eu);
        assert_int_equal(paths[k].fn(0, down, 32), 0x113FDB5Cu);
        assert_int_equal(paths[k].fn(0x1234u, "", 0), 0x1234u);
    }
}

/* Random bytes of every length 0..1024, the writer's block size and just past it, every length
 * around the three streams' rounds and the folding-with-streams' stretches (3,968 bytes), and
 * 1 MiB + 7, at every start alignment 0..15 from an arbitrary initial checksum; all zeros and all
 * ones (folding's degenerate lanes). */
static void test_crc32c_paths_agree(void **state)
{
    (void)state;
    enum { MAX = (1 << 20) + 7, SLACK = 16 };
    uint8_t *buf = malloc(MAX + SLACK);
    assert_non_null(buf);
    uint32_t x = 2463534242u;
    for (size_t i = 0; i < MAX + SLACK; i++) /* bytes of every value */
        buf[i] = (uint8_t)xorshift32(&x);
    crc_path paths[EVGEN_CRC32C_N_PATHS + 2];
    size_t n_paths = crc_paths(paths);

    static const size_t large[] = {3967, 3968, 3969, 3975, 4095, 4096, 4097, 4096 + 48, 7935, 7936, 7937,
                                   7936 + 127, 7936 + 128, 7936 + 129, 11904, 6143, 6144, 6145, 6151, 12288, 12289,
                                   18431, 18432, 18433, 18440, 65535,
                                   65536, 65537, 65538, 65539, 65540, 65541, 65542, 65543, 65544, 65545,
                                   65546, 65547, 65548, 65549, 65550, 65551, MAX};
    size_t n_lengths = 1025 + sizeof large / sizeof large[0];
    for (size_t i = 0; i < n_lengths; i++) {
        size_t n = i < 1025 ? i : large[i - 1025];
        for (size_t align = 0; align < 16; align++) {
            uint32_t init = xorshift32(&x), want = evgen_crc32c_bytewise(init, buf + align, n);
            for (size_t k = 0; k < n_paths; k++)
                expect_crc(&paths[k], init, buf + align, n, align, want);
        }
    }
    for (int fill = 0; fill <= 0xff; fill += 0xff) {
        memset(buf, fill, 70000);
        static const size_t some[] = {63, 64, 65, 127, 128, 1000, 65536, 70000};
        for (size_t i = 0; i < sizeof some / sizeof some[0]; i++) {
            uint32_t want = evgen_crc32c_bytewise(0, buf, some[i]);
            for (size_t k = 0; k < n_paths; k++)
                expect_crc(&paths[k], 0, buf, some[i], 0, want);
        }
    }
    free(buf);
}

/* A checksum continued over a second buffer is the checksum of the two joined, cut anywhere,
 * whichever paths compute the two parts. */
static void test_crc32c_chains(void **state)
{
    (void)state;
    enum { LEN = 70000 };
    uint8_t *buf = malloc(LEN);
    assert_non_null(buf);
    uint32_t x = 88172645u;
    for (size_t i = 0; i < LEN; i++)
        buf[i] = (uint8_t)xorshift32(&x);
    crc_path paths[EVGEN_CRC32C_N_PATHS + 2];
    size_t n_paths = crc_paths(paths);
    static const size_t lengths[] = {200, 4096, LEN};
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
        size_t len = lengths[l];
        uint32_t whole = evgen_crc32c_bytewise(0, buf, len);
        for (size_t cut = 0; cut <= len; cut += cut < 200 ? 1 : 997) {
            for (size_t k = 0; k < n_paths; k++) {
                const crc_path *first = &paths[k], *second = &paths[(k + cut) % n_paths];
                uint32_t got = second->fn(first->fn(0, buf, cut), buf + cut, len - cut);
                if (got != whole)
                    fail_msg("%s then %s, %zu bytes cut at %zu: %08x, the table says %08x", first->name,
                             second->name, len, cut, got, whole);
            }
        }
    }
    free(buf);
}

/* ---- container ------------------------------------------------------------------------------- */

static void test_file_header_offsets(void **state)
{
    (void)state;
    assert_int_equal(evgen_crc32c(0, "123456789", 9), 0xE3069283u);
    evgen_wire_file_header in = {0, 0, 4, EVGEN_WIRE_CLOCK_TSC, 2400000000u, 77, 1700000000000000000ull, 4242, 0};
    uint8_t h[EVGEN_WIRE_FILE_HEADER_SIZE];
    evgen_wire_put_file_header(h, &in);
    assert_memory_equal(h, "EVTRACE\0", 8);
    assert_int_equal(evgen_wire_le16(h + 8), EVGEN_WIRE_FORMAT_VERSION);
    assert_int_equal(evgen_wire_le16(h + 10), 48);
    assert_int_equal(h[12], 4);
    assert_int_equal(h[13], 2);
    assert_true(evgen_wire_le64(h + 16) == 2400000000u && evgen_wire_le64(h + 24) == 77);
    assert_int_equal(evgen_wire_le32(h + 40), 4242);
    assert_int_equal(evgen_wire_le32(h + 44), evgen_crc32c(0, h, 44));
    evgen_wire_file_header out;
    evgen_wire_get_file_header(h, &out);
    assert_int_equal(out.format_version, EVGEN_WIRE_FORMAT_VERSION);
    assert_int_equal(out.header_size, 48);
    assert_true(out.start_unix_ns == in.start_unix_ns && out.process_id == 4242);
    assert_int_equal(out.crc, evgen_wire_file_header_crc(h));
}

static void test_block_header_offsets(void **state)
{
    (void)state;
    const uint8_t payload[] = {1, 2, 3, 4, 5, 6};
    evgen_wire_block_header in = {EVGEN_WIRE_BLOCK_EVENTS, 9, 9, sizeof payload, 0, 1234, 5, 3, 2, 1, 99};
    uint8_t h[EVGEN_WIRE_BLOCK_HEADER_SIZE];
    evgen_wire_put_block_header(h, &in, payload);
    assert_memory_equal(h, "EVBK", 4);
    assert_int_equal(h[4], 2);
    assert_int_equal(h[5], 0); /* flags are always written 0 */
    assert_int_equal(evgen_wire_le16(h + 6), 48);
    assert_int_equal(evgen_wire_le32(h + 8), sizeof payload);
    assert_true(evgen_wire_le64(h + 16) == 1234);
    assert_int_equal(evgen_wire_le32(h + 24), 5);
    assert_int_equal(evgen_wire_le32(h + 28), 3);
    assert_int_equal(evgen_wire_le32(h + 32), 2);
    assert_int_equal(evgen_wire_le32(h + 36), 1);
    assert_true(evgen_wire_le64(h + 40) == 99);
    uint32_t crc = evgen_crc32c(evgen_crc32c(0, h + 16, 32), payload, sizeof payload);
    assert_int_equal(evgen_wire_le32(h + 12), crc);
    evgen_wire_block_header out;
    evgen_wire_get_block_header(h, &out);
    assert_int_equal(out.crc, evgen_wire_block_crc(h, payload, sizeof payload));
    assert_true(evgen_wire_block_header_is_written_form(&out));
    out.stream = EVGEN_WIRE_MAX_STREAMS;
    assert_false(evgen_wire_block_header_is_written_form(&out));
    out.stream = 0;
    out.event_count = 7; /* seven records cannot fit six bytes (each takes one at least) */
    assert_false(evgen_wire_block_header_is_written_form(&out));
    out.event_count = 3;

    /* padding after the 48 bytes (an O_DIRECT writer's): header_size grows, the crc stays */
    evgen_wire_pad_block_header(h, 464);
    assert_int_equal(evgen_wire_le16(h + 6), 512);
    assert_int_equal(evgen_wire_le32(h + 12), crc);
    evgen_wire_get_block_header(h, &out);
    assert_int_equal(out.header_size, 512);
    assert_int_equal(out.crc, evgen_wire_block_crc(h, payload, sizeof payload));
    assert_true(evgen_wire_block_header_is_written_form(&out));
    evgen_wire_pad_block_header(h, EVGEN_WIRE_BLOCK_PADDING_MAX);
    assert_int_equal(evgen_wire_le16(h + 6), 65535);
    out.header_size = 47;
    assert_false(evgen_wire_block_header_is_written_form(&out));

    /* a metadata block's events fields are written 0 whatever the caller had */
    in.type = EVGEN_WIRE_BLOCK_METADATA;
    evgen_wire_put_block_header(h, &in, payload);
    evgen_wire_get_block_header(h, &out);
    assert_true(evgen_wire_block_header_events_fields_zero(&out));
    assert_true(evgen_wire_block_header_is_written_form(&out));
    out.type = 4;
    assert_false(evgen_wire_block_header_is_written_form(&out));
}

static void test_record_header(void **state)
{
    (void)state;
    uint8_t buf[EVGEN_WIRE_RECORD_HEADER_MAX];
    uint8_t *end = evgen_wire_put_record_header(buf, 0, UINT32_MAX, INT64_MIN, 1, UINT32_MAX);
    assert_true(end - buf <= (long)EVGEN_WIRE_RECORD_HEADER_MAX);
    const uint8_t *p = buf;
    uint64_t get_last = EVGEN_WIRE_NO_TYPE, type = 0, size = 0;
    int64_t delta = 0;
    assert_int_equal(evgen_wire_get_record_head(&p, end, 2, &get_last, &type, &delta), 0);
    assert_true(type == UINT32_MAX && delta == INT64_MIN && get_last == UINT32_MAX);
    assert_int_equal(evgen_wire_get_varint(&p, end, &size), 0);
    assert_true(size == UINT32_MAX && p == end);
    end = evgen_wire_put_record_header(buf, 0, 3, -2, 0, 123);
    assert_int_equal(end - buf, 2); /* the first of a block names its type; a fixed type: no size */
}

/* A run of records round-trips, and a repeated type costs one byte below 64 ticks, two below
 * 8192; a negative delta or another type writes the type again. */
static void test_record_header_runs(void **state)
{
    (void)state;
    static const struct {
        uint64_t type;
        int64_t delta;
        int variable;
        long bytes; /* of the header */
    } records[] = {
        {7, 100, 0, 3},                   /* the first: type 7 (1 byte), zigzag 100 (2 bytes) */
        {7, 0, 0, 1},                     /* the same type: the head alone */
        {7, 63, 0, 1},                    /* the largest delta of one byte */
        {7, 64, 0, 2},
        {7, 8191, 1, 4},                  /* two bytes of head, two of size */
        {7, 8192, 0, 3},
        {7, -1, 0, 2},                    /* negative: type and zigzag again */
        {7, INT64_MAX, 0, 10},
        {63, 5, 0, 2},                    /* another type below 64: one byte */
        {64, 5, 0, 3},                    /* 64 and above: two */
        {64, 5, 0, 1},
        {UINT32_MAX, -5, 1, 8},
        {UINT32_MAX, 1, 1, 3},
    };
    uint8_t buf[64 * EVGEN_WIRE_RECORD_HEADER_MAX];
    uint8_t *w = buf;
    size_t n = sizeof records / sizeof records[0];
    for (size_t i = 0; i < n; i++) {
        int same_type = i > 0 && records[i].type == records[i - 1].type;
        uint8_t *next = evgen_wire_put_record_header(w, same_type, records[i].type, records[i].delta,
                                                     records[i].variable, 200);
        assert_int_equal(next - w, records[i].bytes);
        w = next;
    }
    const uint8_t *p = buf;
    uint64_t get_last = EVGEN_WIRE_NO_TYPE;
    for (size_t i = 0; i < n; i++) {
        uint64_t type = 0, size = 0;
        int64_t delta = 0;
        assert_int_equal(evgen_wire_get_record_head(&p, w, 2, &get_last, &type, &delta), 0);
        assert_true(type == records[i].type && delta == records[i].delta);
        if (records[i].variable) {
            assert_int_equal(evgen_wire_get_varint(&p, w, &size), 0);
            assert_true(size == 200);
        }
    }
    assert_ptr_equal(p, w);

    /* A block's first record cannot repeat a type; a head cut short is a bad varint. */
    const uint8_t repeat[] = {0x01}, cut[] = {0x0e, 0x80};
    uint64_t type = 0, last = EVGEN_WIRE_NO_TYPE;
    int64_t delta = 0;
    p = repeat;
    assert_int_equal(evgen_wire_get_record_head(&p, repeat + 1, 2, &last, &type, &delta), -2);
    p = cut;
    last = EVGEN_WIRE_NO_TYPE;
    assert_int_equal(evgen_wire_get_record_head(&p, cut + 2, 2, &last, &type, &delta), -1);

    /* Format 1: a varint type and a zigzag delta, for every record: 0x01 is type 1 there. */
    const uint8_t v1[] = {0x01, 0x03, 0x01, 0x04};
    last = EVGEN_WIRE_NO_TYPE;
    p = v1;
    assert_int_equal(evgen_wire_get_record_head(&p, v1 + 4, 1, &last, &type, &delta), 0);
    assert_true(type == 1 && delta == -2);
    assert_int_equal(evgen_wire_get_record_head(&p, v1 + 4, 1, &last, &type, &delta), 0);
    assert_true(type == 1 && delta == 2 && p == v1 + 4);
}

static int collect_end(void *ctx, const evgen_wire_end_thread *t)
{
    evgen_wire_end_thread *sum = ctx;
    sum->thread_id += t->thread_id;
    sum->written += t->written;
    return t->thread_id == 666 ? 7 : 0;
}

static void test_end_block(void **state)
{
    (void)state;
    const evgen_wire_end_thread threads[] = {{11, 100, 2, 0}, {12, 300, 0, 1}};
    evgen_wire_buf b = {0};
    evgen_wire_end_writer w;
    evgen_wire_end_begin(&w, &b, 2);
    for (size_t i = 0; i < 2; i++)
        evgen_wire_end_put(&w, &threads[i]);
    evgen_wire_end_finish(&w, 5); /* 5 drops in no thread's entry */
    evgen_wire_end_thread sum = {0, 0, 0, 0}, got;
    assert_int_equal(evgen_wire_get_end(b.data, b.len, collect_end, &sum, &got), 0);
    assert_true(sum.thread_id == 23 && sum.written == 400);
    assert_true(got.written == 400 && got.dropped == 7 && got.too_big == 1);
    for (size_t n = 0; n < b.len; n++) /* every cut is refused */
        assert_int_equal(evgen_wire_get_end(b.data, n, NULL, NULL, NULL), -1);
    evgen_wire_buf_varint(&b, 0); /* a byte after the totals */
    assert_int_equal(evgen_wire_get_end(b.data, b.len, NULL, NULL, NULL), -1);
    evgen_wire_buf_free(&b);
    const evgen_wire_end_thread bad = {666, 1, 0, 0};
    evgen_wire_end_begin(&w, &b, 1);
    evgen_wire_end_put(&w, &bad);
    evgen_wire_end_finish(&w, 0);
    assert_int_equal(evgen_wire_get_end(b.data, b.len, collect_end, &sum, NULL), 7);
    evgen_wire_buf_free(&b);
}

/* ---- metadata -------------------------------------------------------------------------------- */

/* An allocator that keeps every block to free at the end. */
typedef struct pool {
    void *blocks[4096];
    size_t n;
} pool;

static void *pool_alloc(void *ctx, size_t size)
{
    pool *p = ctx;
    if (p->n == sizeof p->blocks / sizeof p->blocks[0])
        return NULL;
    return p->blocks[p->n++] = calloc(1, size ? size : 1);
}

static void pool_free(pool *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->blocks[i]);
    p->n = 0;
}

static const evgen_wire_member members[] = {{"Address", EVGEN_WIRE_PTR, 0, -1}, {"Kind", EVGEN_WIRE_U32, 8, 0}};
static const evgen_wire_field fields_v1[] = {
    {"Count", EVGEN_WIRE_U32, 0, -1, -1, -1},
    {"Name", EVGEN_WIRE_UTF16Z, 0, -1, -1, -1},
    {"Items", EVGEN_WIRE_STRUCT, EVGEN_WIRE_FIELD_IS_ARRAY, -1, 0, 0},
    {"Reason", EVGEN_WIRE_I32, 0, 0, -1, -1},
};

static void encode_sample(evgen_wire_buf *b)
{
    evgen_wire_meta_put_head(b, 42, "sample");
    evgen_wire_meta_put_count(b, 2);
    evgen_wire_meta_put_provider(b, "Microsoft-Windows-DotNETRuntime");
    evgen_wire_meta_put_provider(b, "Other");
    evgen_wire_meta_put_count(b, 1);
    evgen_wire_meta_put_enum_head(b, "GCReason", 2);
    evgen_wire_meta_put_enum_const(b, "AllocSmall", 0);
    evgen_wire_meta_put_enum_const(b, "Negative", -5);
    evgen_wire_meta_put_count(b, 1);
    evgen_wire_meta_put_struct_head(b, "Item", 16, 2);
    for (size_t i = 0; i < 2; i++)
        evgen_wire_meta_put_member(b, &members[i]);
    evgen_wire_meta_put_count(b, 1);
    evgen_wire_event_head e = {"Sample", 1, 7, 4, 0x8000000000000001ull, 2};
    evgen_wire_meta_put_event_head(b, &e);
    /* Version 0 has its own level and keywords. */
    evgen_wire_version_head v0 = {0, EVGEN_WIRE_VERSION_ATTRIBUTES, 1, 5, 0x8000000000000004ull},
                            v1 = {1, EVGEN_WIRE_VERSION_LEGACY, 4, 0, 0};
    evgen_wire_meta_put_version_head(b, &v0);
    evgen_wire_meta_put_field(b, &fields_v1[0]);
    evgen_wire_meta_put_version_head(b, &v1);
    for (size_t i = 0; i < 4; i++)
        evgen_wire_meta_put_field(b, &fields_v1[i]);
}

/* Decodes what encode_sample wrote; 0 if it decoded and matched, else the decoder's failure. */
static int decode_sample(const uint8_t *data, size_t size, pool *pl, char *why, size_t why_size)
{
    evgen_wire_meta_decoder d;
    evgen_wire_meta_decoder_init(&d, data, size, pool_alloc, pl, why, why_size);
    uint64_t first_type;
    const char *name, *s;
    evgen_wire_meta_get_head(&d, &first_type, &name);
    uint32_t n_providers = evgen_wire_meta_get_count(&d, "provider");
    for (uint32_t i = 0; i < n_providers; i++)
        s = evgen_wire_meta_get_provider(&d);
    uint32_t n_enums = evgen_wire_meta_get_count(&d, "enum");
    for (uint32_t i = 0; i < n_enums; i++) {
        uint32_t n_consts;
        evgen_wire_meta_get_enum_head(&d, &s, &n_consts);
        for (uint32_t k = 0; k < n_consts; k++) {
            int64_t value;
            evgen_wire_meta_get_enum_const(&d, &s, &value);
            if (!d.failed && k == 1)
                assert_true(value == -5 && strcmp(s, "Negative") == 0);
        }
    }
    uint32_t n_structs = evgen_wire_meta_get_count(&d, "struct");
    for (uint32_t i = 0; i < n_structs; i++) {
        uint32_t stride, n_members;
        evgen_wire_meta_get_struct_head(&d, &s, &stride, &n_members);
        for (uint32_t k = 0; k < n_members; k++) {
            evgen_wire_member m;
            evgen_wire_meta_get_member(&d, n_enums, &m);
            if (!d.failed)
                assert_true(m.kind == members[k].kind && m.offset == members[k].offset &&
                            m.enum_index == members[k].enum_index && strcmp(m.name, members[k].name) == 0);
        }
    }
    uint32_t n_events = evgen_wire_meta_get_count(&d, "event");
    for (uint32_t i = 0; i < n_events; i++) {
        evgen_wire_event_head e;
        evgen_wire_meta_get_event_head(&d, n_providers, &e);
        if (!d.failed)
            assert_true(e.provider == 1 && e.id == 7 && e.level == 4 && e.keywords == 0x8000000000000001ull);
        int64_t previous = -1;
        for (uint32_t k = 0; k < e.n_versions; k++) {
            evgen_wire_version_head v;
            evgen_wire_meta_get_version_head(&d, e.name, previous, &v);
            previous = v.version;
            evgen_wire_field got[8];
            for (uint32_t f = 0; f < v.n_fields && f < 8; f++) {
                evgen_wire_meta_get_field(&d, n_enums, n_structs, got, f, e.name, &got[f]);
                if (!d.failed) {
                    const evgen_wire_field *w = &fields_v1[f];
                    assert_true(got[f].kind == w->kind && got[f].flags == w->flags &&
                                got[f].enum_index == w->enum_index && got[f].struct_index == w->struct_index &&
                                got[f].count_field == w->count_field && strcmp(got[f].name, w->name) == 0);
                }
            }
            if (!d.failed && k == 0)
                assert_true(v.flags == EVGEN_WIRE_VERSION_ATTRIBUTES && v.level == 5 &&
                            v.keywords == 0x8000000000000004ull);
            if (!d.failed && k == 1)
                assert_true(v.flags == EVGEN_WIRE_VERSION_LEGACY && v.level == 0 && v.keywords == 0);
        }
    }
    evgen_wire_meta_get_end(&d);
    if (!d.failed)
        assert_true(first_type == 42 && strcmp(name, "sample") == 0);
    return d.failed;
}

static void test_metadata_round_trip_and_every_cut(void **state)
{
    (void)state;
    evgen_wire_buf b = {0};
    encode_sample(&b);
    assert_false(b.failed);
    pool *pl = calloc(1, sizeof *pl);
    char why[160];
    assert_int_equal(decode_sample(b.data, b.len, pl, why, sizeof why), 0);
    pool_free(pl);
    for (size_t n = 0; n < b.len; n++) {
        uint8_t *cut = malloc(n ? n : 1); /* exactly n bytes: ASan sees any read past them */
        memcpy(cut, b.data, n);
        assert_int_equal(decode_sample(cut, n, pl, why, sizeof why), 1);
        assert_true(why[0] != '\0');
        pool_free(pl);
        free(cut);
    }
    free(pl);
    evgen_wire_buf_free(&b);
}

/* A version flag this format does not define (a newer writer's) stops the decoder at once with
 * a clear error: what the flag announces may follow, so nothing after it can be read. */
static void test_unknown_version_flag_is_refused(void **state)
{
    (void)state;
    evgen_wire_buf b = {0};
    evgen_wire_meta_put_head(&b, 0, "m");
    evgen_wire_meta_put_count(&b, 1);
    evgen_wire_meta_put_provider(&b, "P");
    evgen_wire_meta_put_count(&b, 0);
    evgen_wire_meta_put_count(&b, 0);
    evgen_wire_meta_put_count(&b, 1);
    evgen_wire_event_head e = {"Sample", 0, 1, 4, 1, 1};
    evgen_wire_meta_put_event_head(&b, &e);
    evgen_wire_buf_varint(&b, 0);   /* version */
    evgen_wire_buf_varint(&b, 0x4); /* flags: unknown */
    evgen_wire_buf_varint(&b, 0);   /* n_fields */
    assert_false(b.failed);
    pool *pl = calloc(1, sizeof *pl);
    char why[160];
    evgen_wire_meta_decoder d;
    evgen_wire_meta_decoder_init(&d, b.data, b.len, pool_alloc, pl, why, sizeof why);
    uint64_t first_type;
    const char *name;
    evgen_wire_meta_get_head(&d, &first_type, &name);
    assert_int_equal(evgen_wire_meta_get_count(&d, "provider"), 1);
    evgen_wire_meta_get_provider(&d);
    evgen_wire_meta_get_count(&d, "enum");
    evgen_wire_meta_get_count(&d, "struct");
    evgen_wire_meta_get_count(&d, "event");
    evgen_wire_event_head got;
    evgen_wire_meta_get_event_head(&d, 1, &got);
    assert_int_equal(d.failed, 0);
    evgen_wire_version_head v;
    evgen_wire_meta_get_version_head(&d, got.name, -1, &v);
    assert_int_equal(d.failed, 1);
    assert_string_equal(why, "event Sample: version 0 has flags 0x4 this reader does not know (written by a newer evgen?)");
    assert_true(v.flags == 0 && v.n_fields == 0);
    /* The encoder writes only the flags the format defines. */
    evgen_wire_buf b2 = {0};
    evgen_wire_version_head h = {3, 0x4 | EVGEN_WIRE_VERSION_LEGACY, 0, 0, 0};
    evgen_wire_meta_put_version_head(&b2, &h);
    assert_true(b2.len == 3 && b2.data[0] == 3 && b2.data[1] == EVGEN_WIRE_VERSION_LEGACY && b2.data[2] == 0);
    evgen_wire_buf_free(&b2);
    pool_free(pl);
    free(pl);
    evgen_wire_buf_free(&b);
}

static void test_field_rules(void **state)
{
    (void)state;
    evgen_wire_field count = {"N", EVGEN_WIRE_U16, 0, -1, -1, -1}, flt = {"F", EVGEN_WIRE_F32, 0, -1, -1, -1};
    evgen_wire_field f = {"A", EVGEN_WIRE_U8, EVGEN_WIRE_FIELD_IS_ARRAY, -1, -1, 0};
    assert_null(evgen_wire_field_problem(&f, &count));
    assert_string_equal(evgen_wire_field_problem(&f, &flt), "the count field is not an integer");
    f.kind = EVGEN_WIRE_UTF8Z;
    assert_string_equal(evgen_wire_field_problem(&f, &count), "an array of strings");
    f.kind = 0;
    assert_string_equal(evgen_wire_field_problem(&f, &count), "unknown kind");
    f.kind = EVGEN_WIRE_STRUCT;
    assert_string_equal(evgen_wire_field_problem(&f, &count), "a struct kind needs a struct and only it has one");
    f.flags = 0;
    f.struct_index = 0;
    f.count_field = -1;
    assert_string_equal(evgen_wire_field_problem(&f, NULL), "a struct is only allowed as an array element");
    f.kind = EVGEN_WIRE_U32;
    f.struct_index = -1;
    f.flags = EVGEN_WIRE_FIELD_IS_ARRAY;
    assert_string_equal(evgen_wire_field_problem(&f, NULL), "an array needs a count field and only it has one");
}

/* ---- layout ---------------------------------------------------------------------------------- */

static void test_layout_rule(void **state)
{
    (void)state;
    /* U16, PTR, UTF8Z, U32, U8[] (count: the U16), PTR, U64 */
    static const struct {
        unsigned kind;
        int array;
    } fields[] = {{EVGEN_WIRE_U16, 0}, {EVGEN_WIRE_PTR, 0},  {EVGEN_WIRE_UTF8Z, 0}, {EVGEN_WIRE_U32, 0},
                  {EVGEN_WIRE_U8, 1},  {EVGEN_WIRE_PTR, 0}, {EVGEN_WIRE_U64, 0}};
    for (unsigned ps = 4; ps <= 8; ps += 4) {
        evgen_wire_layout l;
        evgen_wire_layout_init(&l, ps);
        evgen_wire_slot s[7];
        for (size_t i = 0; i < 7; i++)
            s[i] = evgen_wire_layout_add(&l, fields[i].kind, fields[i].array);
        assert_true(s[0].anchor == -1 && s[0].delta == 0 && evgen_wire_slot_is_fixed_offset(&s[0]));
        assert_true(s[1].delta == 2 && s[1].size == ps && evgen_wire_slot_is_fixed_offset(&s[1]));
        assert_true(s[2].delta == 2 + ps && s[2].ptrs_before == 1 && s[2].size == 0 && s[2].var == 0);
        assert_false(evgen_wire_slot_is_fixed_offset(&s[2]));
        assert_true(s[3].anchor == 2 && s[3].var_before == 1 && s[3].delta == 0);
        assert_true(s[4].anchor == 2 && s[4].delta == 4 && s[4].size == 0 && s[4].var == 1);
        assert_true(s[5].anchor == 4 && s[5].var_before == 2 && s[5].delta == 0);
        assert_true(s[6].delta == ps && s[6].ptrs_before == 1 && s[6].size == 8);
        assert_true(l.pointer_dependent && l.n_variable == 2);
        assert_int_equal(evgen_wire_layout_fixed_size(&l), -1);
    }
    evgen_wire_layout l;
    evgen_wire_layout_init(&l, 8);
    evgen_wire_layout_add(&l, EVGEN_WIRE_U32, 0);
    evgen_wire_layout_add(&l, EVGEN_WIRE_GUID, 0);
    assert_int_equal(evgen_wire_layout_fixed_size(&l), 20);
    assert_false(l.pointer_dependent);
}

static void test_struct_layout(void **state)
{
    (void)state;
    const uint32_t kinds[] = {EVGEN_WIRE_U8, EVGEN_WIRE_PTR, EVGEN_WIRE_U16, EVGEN_WIRE_GUID};
    uint32_t off[4];
    assert_int_equal(evgen_wire_struct_layout(kinds, 4, 8, off), 40);
    assert_true(off[0] == 0 && off[1] == 8 && off[2] == 16 && off[3] == 20);
    assert_int_equal(evgen_wire_struct_layout(kinds, 4, 4, off), 28);
    assert_true(off[0] == 0 && off[1] == 4 && off[2] == 8 && off[3] == 12);
}

/* One value's size, what a variable struct's element is walked with: strings up to their
 * terminator and never past `avail` (an exact-size copy, so ASan sees any read beyond it), an odd
 * UTF-16 remainder not whole, fixed kinds by the pointer size. */
static void test_value_size(void **state)
{
    (void)state;
    static const uint8_t utf16[] = {'A', 0, 'B', 0, 0, 0, 'x'}, utf8[] = {'h', 'i', 0, 'x'};
    for (uint64_t n = 0; n <= sizeof utf16; n++) {
        uint8_t *cut = malloc(n ? n : 1);
        memcpy(cut, utf16, n);
        assert_int_equal(evgen_wire_value_size(cut, n, EVGEN_WIRE_UTF16Z, 8), n >= 6 ? 6 : 0);
        free(cut);
    }
    static const uint8_t odd[] = {'A', 0, 0, 'B', 0}; /* zero bytes, but no 0 unit at an even distance */
    assert_int_equal(evgen_wire_value_size(odd, 3, EVGEN_WIRE_UTF16Z, 8), 0);
    assert_int_equal(evgen_wire_value_size(odd, 5, EVGEN_WIRE_UTF16Z, 8), 0);
    for (uint64_t n = 0; n <= sizeof utf8; n++)
        assert_int_equal(evgen_wire_value_size(utf8, n, EVGEN_WIRE_UTF8Z, 8), n >= 3 ? 3 : 0);
    assert_int_equal(evgen_wire_value_size(utf8, 4, EVGEN_WIRE_U32, 8), 4);
    assert_int_equal(evgen_wire_value_size(utf8, 3, EVGEN_WIRE_U32, 8), 0);
    assert_int_equal(evgen_wire_value_size(utf8, 4, EVGEN_WIRE_PTR, 4), 4);
    assert_int_equal(evgen_wire_value_size(utf8, 4, EVGEN_WIRE_PTR, 8), 0);
    assert_int_equal(evgen_wire_value_size(utf8, 4, EVGEN_WIRE_STRUCT, 8), 0);
}

/* A variable struct (stride 0, string members) decodes; it is the only struct with stride 0. */
static void test_variable_struct_head(void **state)
{
    (void)state;
    evgen_wire_buf b = {0};
    evgen_wire_meta_put_struct_head(&b, "Var", EVGEN_WIRE_STRIDE_VARIABLE, 2);
    evgen_wire_member m0 = {"Id", EVGEN_WIRE_U64, 0, -1}, m1 = {"Name", EVGEN_WIRE_UTF16Z, 8, -1};
    evgen_wire_meta_put_member(&b, &m0);
    evgen_wire_meta_put_member(&b, &m1);
    pool *pl = calloc(1, sizeof *pl);
    char why[160];
    evgen_wire_meta_decoder d;
    evgen_wire_meta_decoder_init(&d, b.data, b.len, pool_alloc, pl, why, sizeof why);
    const char *name;
    uint32_t stride = 1, n;
    evgen_wire_meta_get_struct_head(&d, &name, &stride, &n);
    evgen_wire_member got;
    evgen_wire_meta_get_member(&d, 0, &got);
    evgen_wire_meta_get_member(&d, 0, &got);
    assert_false(d.failed);
    assert_true(stride == 0 && n == 2 && got.kind == EVGEN_WIRE_UTF16Z && got.offset == 8);
    pool_free(pl);
    free(pl);
    evgen_wire_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind_codes_are_contiguous_and_spellings_unique),
        cmocka_unit_test(test_kinds_match_format_md),
        cmocka_unit_test(test_varint_limits),
        cmocka_unit_test(test_buf_string_and_failure),
        cmocka_unit_test(test_crc32c_known_values),
        cmocka_unit_test(test_crc32c_paths_agree),
        cmocka_unit_test(test_crc32c_chains),
        cmocka_unit_test(test_file_header_offsets),
        cmocka_unit_test(test_block_header_offsets),
        cmocka_unit_test(test_record_header),
        cmocka_unit_test(test_record_header_runs),
        cmocka_unit_test(test_end_block),
        cmocka_unit_test(test_metadata_round_trip_and_every_cut),
        cmocka_unit_test(test_unknown_version_flag_is_refused),
        cmocka_unit_test(test_field_rules),
        cmocka_unit_test(test_layout_rule),
        cmocka_unit_test(test_struct_layout),
        cmocka_unit_test(test_value_size),
        cmocka_unit_test(test_variable_struct_head),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
