/* ctf_test_traces.c — writes into DIR the hand-made traces of the ctf exporter's tests, for what
 * the golden and real traces do not hold:
 *   handmade.evtrace   payloads with a tail and cut ones (in a string, in a fixed field), invalid
 *                      UTF-8, a signed array count, field names TSDL cannot spell as they are, a
 *                      nested stream, events before the session's start, lost and too-big events
 *                      (in blocks and in the end block, and of a thread with no event), one
 *                      thread's 3000 events (several packets);
 *   handmade.nettrace  4-byte pointers, bound events that fit, have a tail (one of a version newer
 *                      than the manifest's), or are cut, UTF-16 with an unpaired surrogate, a
 *                      struct array, an unbound event with fields of its own (a dotted name, an
 *                      array) and one without, sequence-number gaps, an event before the start;
 *   badclock.evtrace   a clock at 1 Hz whose start is 2^64 - 1 ticks: no CTF clock offset holds
 *                      it, so the export fails (and leaves nothing behind).
 * usage: ctf_test_traces DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evgen/crc32c.h"
#include "evgen/wire_bytes.h"
#include "nettrace_writer.h"
#include "reader_helpers.h"

/* ---- handmade.evtrace ------------------------------------------------------------------------ */

enum { T_SIZED, T_SIGNED, T_NAMES }; /* the hand manifest's types */

/* A record of a variable type (its size written) or a fixed one. */
static void record(rh_bytes *b, unsigned type, int64_t delta, const void *payload, size_t n, int variable)
{
    rh_varint(b, type);
    rh_zigzag(b, delta);
    if (variable)
        rh_varint(b, n);
    rh_put(b, payload, n);
}

/* A Sized payload: A (u32), S (utf8z: `s`, `s_len` bytes with its terminator if any), B (u64, the
 * first `b_len` bytes of it), then `tail` extra bytes. */
static size_t sized(uint8_t *out, uint32_t a, const char *s, size_t s_len, size_t b_len, size_t tail)
{
    size_t n = 0;
    evgen_wire_put_le32(out, a);
    n += 4;
    memcpy(out + n, s, s_len);
    n += s_len;
    uint8_t b[8];
    evgen_wire_put_le64(b, 0x0123456789abcdefull + a);
    memcpy(out + n, b, b_len);
    n += b_len;
    for (size_t i = 0; i < tail; i++)
        out[n++] = (uint8_t)(0xA0 + i);
    return n;
}

static void names_record(rh_bytes *b, int64_t delta, uint32_t seed)
{
    uint8_t p[10];
    evgen_wire_put_le32(p, seed);
    p[4] = (uint8_t)seed;
    evgen_wire_put_le16(p + 5, (uint16_t)(seed * 3));
    evgen_wire_put_le16(p + 7, (uint16_t)(seed * 5));
    p[9] = 0x7f;
    record(b, T_NAMES, delta, p, sizeof p, 0);
}

static void write_evtrace(const char *dir)
{
    rh_bytes file = {0};
    rh_file_header(&file, 1, 1000000000u);
    static const rh_field sized_fields[] = {{"A", 3, 0, 0}, {"S", 15, 0, 0}, {"B", 4, 0, 0}};
    static const rh_field signed_fields[] = {{"N", 6, 0, 0}, {"Values", 1, 1, 1}};
    static const rh_field names_fields[] = {
        {"event", 3, 0, 0}, {"_under", 1, 0, 0}, {"a.b", 2, 0, 0}, {"a_b", 2, 0, 0}, {"raw", 1, 0, 0}};
    const char *const names[] = {"Sized", "Signed", "Names"};
    const rh_field *const fields[] = {sized_fields, signed_fields, names_fields};
    const size_t n_fields[] = {3, 2, 5};
    rh_metadata(&file, 0, 3, names, fields, n_fields);

    /* Thread 100, stream 0: the odd payloads, the first before the start (ticks 600 < 1000). */
    rh_bytes b = {0};
    uint8_t p[64];
    size_t n;
    n = sized(p, 1, "hi", 3, 8, 0);
    record(&b, T_SIZED, -400, p, n, 1);
    n = sized(p, 2, "tail", 5, 8, 3); /* 3 bytes past B */
    record(&b, T_SIZED, 500, p, n, 1);
    n = sized(p, 3, "cut", 4, 5, 0); /* ends inside B */
    record(&b, T_SIZED, 10, p, n, 1);
    n = sized(p, 4, "nul", 3, 0, 0); /* S without its terminator */
    record(&b, T_SIZED, 10, p, n, 1);
    n = sized(p, 5, "a\xff\xc3z", 5, 8, 0); /* invalid UTF-8 */
    record(&b, T_SIZED, 10, p, n, 1);
    uint8_t s[5] = {3, 0, 7, 8, 9}; /* N = 3 (int16), Values 7 8 9 */
    record(&b, T_SIGNED, 10, s, sizeof s, 1);
    names_record(&b, 10, 42);
    rh_append_block(&file, 2, 100, 0, 7, 0, RH_START_TICKS, &b);
    rh_free(&b);
    uint64_t ticks = RH_START_TICKS - 400 + 500 + 50; /* the last record's */
    /* Then 3000 more: several packets. */
    for (uint32_t i = 0; i < 3000; i++) {
        n = sized(p, 100 + i, "packet filler", 14, 8, 0);
        record(&b, T_SIZED, 7, p, n, 1);
    }
    rh_append_block(&file, 2, 100, 1, 3000, 0, ticks, &b);
    rh_free(&b);

    /* Thread 100, nested stream 1 (a signal handler's events). */
    names_record(&b, 105, 1);
    names_record(&b, 1, 2);
    rh_append_stream_block(&file, 2, 100, 1, 0, 2, 0, RH_START_TICKS, &b);
    rh_free(&b);

    /* Thread 200: 5 events dropped before its first block, 3 before its second. */
    names_record(&b, 200, 3);
    names_record(&b, 1, 4);
    rh_append_block(&file, 2, 200, 0, 2, 5, RH_START_TICKS, &b);
    rh_free(&b);
    names_record(&b, 1, 5);
    rh_append_block(&file, 2, 200, 1, 1, 3, RH_START_TICKS + 201, &b);
    rh_free(&b);

    /* The end block: thread 200 also had an event too big; thread 300 lost everything. */
    rh_varint(&b, 3);
    const uint64_t end[3][4] = {{100, 3009, 0, 0}, {200, 3, 8, 1}, {300, 0, 4, 2}};
    for (int t = 0; t < 3; t++)
        for (int k = 0; k < 4; k++)
            rh_varint(&b, end[t][k]);
    rh_varint(&b, 3012);
    rh_varint(&b, 12);
    rh_varint(&b, 3);
    rh_append_block(&file, 3, 0, 0, 0, 0, 0, &b);
    rh_free(&b);
    free(rh_write_file(dir, "handmade.evtrace", file.data, file.len));

    /* badclock.evtrace: the same file with a 1 Hz clock started at tick 2^64 - 1. */
    evgen_wire_put_le64(file.data + 16, 1);
    evgen_wire_put_le64(file.data + 24, UINT64_MAX);
    evgen_wire_put_le32(file.data + 44, evgen_crc32c(0, file.data, 44));
    free(rh_write_file(dir, "badclock.evtrace", file.data, file.len));
    rh_free(&file);
}

/* ---- handmade.nettrace ----------------------------------------------------------------------- */

#define RUNTIME "Microsoft-Windows-DotNETRuntime"
enum { TC_INT32 = 9, TC_UINT16 = 8, TC_STRING = 18, TC_ARRAY = 19 };
#define SYNC_QPC 1000000u

static size_t put(uint8_t *p, size_t at, uint64_t v, unsigned size)
{
    for (unsigned i = 0; i < size; i++)
        p[at + i] = (uint8_t)(v >> (8 * i));
    return at + size;
}

/* GCStart version 2's fields (26 bytes), then `tail` bytes; cut to `keep` bytes when smaller. */
static size_t gcstart(uint8_t *p, uint32_t count, size_t tail, size_t keep)
{
    size_t n = put(p, 0, count, 4);
    n = put(p, n, 2, 4);     /* Depth */
    n = put(p, n, 1, 4);     /* Reason: Induced */
    n = put(p, n, 7, 4);     /* Type: a value GCType has no name for */
    n = put(p, n, 9, 2);     /* ClrInstanceID */
    n = put(p, n, 0xfeedfacecafebeefull, 8);
    for (size_t i = 0; i < tail; i++)
        p[n++] = (uint8_t)(0x10 + i);
    return keep < n ? keep : n;
}

static void write_nettrace(const char *dir)
{
    nt_writer *w = nt_writer_new(5, 1, 4, SYNC_QPC, 10000000u, 77, 4);
    nt_field custom[] = {{"a.b", TC_INT32, 0}, {"Text", TC_STRING, 0}, {"Arr", TC_ARRAY, TC_UINT16}};
    nt_metadata(w, 1, RUNTIME, 1, "", 1, 2, 4, NULL, 0);     /* GCStart v2 */
    nt_metadata(w, 2, RUNTIME, 10, "", 1, 3, 5, NULL, 0);    /* GCAllocationTick v3 */
    nt_metadata(w, 3, RUNTIME, 22, "", 0x400000, 0, 4, NULL, 0); /* GCBulkMovedObjectRanges v0 */
    nt_metadata(w, 4, "My-Provider", 5, "Custom", 0, 1, 4, custom, 3);
    nt_metadata(w, 5, "My-Provider", 6, "", 0, 1, 4, NULL, 0);
    nt_metadata(w, 6, RUNTIME, 1, "", 1, 3, 4, NULL, 0);     /* GCStart v3: newer than the manifest */

    uint8_t b[9][96];
    size_t n[9];
    n[0] = gcstart(b[0], 10, 0, 99);
    n[1] = gcstart(b[1], 11, 4, 99);
    n[2] = gcstart(b[2], 12, 0, 10); /* cut in Reason */
    /* GCAllocationTick v3 with 4-byte pointers and an unpaired surrogate in TypeName. */
    size_t k = put(b[3], 0, 100000, 4);
    k = put(b[3], k, 1, 4);
    k = put(b[3], k, 9, 2);
    k = put(b[3], k, 100000, 8);
    k = put(b[3], k, 0x7ff01234, 4);
    const uint16_t name[] = {'S', 'y', 's', 0xD800, 't', 0x4E2D, 0};
    for (size_t i = 0; i < sizeof name / sizeof name[0]; i++)
        k = put(b[3], k, name[i], 2);
    k = put(b[3], k, 3, 4);
    n[3] = put(b[3], k, 0xdeadbee0, 4);
    /* GCBulkMovedObjectRanges: 2 ranges of {ptr, ptr, u64} (16 bytes with 4-byte pointers). */
    k = put(b[4], 0, 1, 4);
    k = put(b[4], k, 2, 4);
    k = put(b[4], k, 9, 2);
    for (int i = 0; i < 2; i++) {
        k = put(b[4], k, 0x1000u * (i + 1), 4);
        k = put(b[4], k, 0x2000u * (i + 1), 4);
        k = put(b[4], k, 0x100000000ull + i, 8);
    }
    n[4] = k;
    /* Custom: a.b = -5, Text = "é", Arr = [3, 4]. */
    k = put(b[5], 0, (uint32_t)-5, 4);
    k = put(b[5], k, 0xe9, 2);
    k = put(b[5], k, 0, 2);
    k = put(b[5], k, 2, 2);
    k = put(b[5], k, 3, 2);
    n[5] = put(b[5], k, 4, 2);
    memcpy(b[6], "\x01\x02\x03\x04\x05", 5);
    n[6] = 5;
    n[7] = gcstart(b[7], 13, 4, 99); /* GCStart v3: v2's fields and a tail */

    const uint64_t t1 = 0x1111, t2 = 0x2222;
    nt_event e[] = {
        {1, 1, t1, t1, 0, 0, SYNC_QPC - 50, 0, NULL, b[0], (uint32_t)n[0], NULL, 0}, /* before the start */
        {1, 2, t1, t1, 0, 0, SYNC_QPC + 100, 0, NULL, b[1], (uint32_t)n[1], NULL, 0},
        {1, 3, t1, t1, 0, 0, SYNC_QPC + 200, 0, NULL, b[2], (uint32_t)n[2], NULL, 0},
        {2, 6, t1, t1, 0, 0, SYNC_QPC + 300, 0, NULL, b[3], (uint32_t)n[3], NULL, 0}, /* 3 lost */
        {3, 7, t1, t1, 0, 0, SYNC_QPC + 400, 0, NULL, b[4], (uint32_t)n[4], NULL, 0},
        {4, 8, t1, t1, 0, 0, SYNC_QPC + 500, 0, NULL, b[5], (uint32_t)n[5], NULL, 0},
        {5, 9, t1, t1, 0, 0, SYNC_QPC + 600, 0, NULL, b[6], (uint32_t)n[6], NULL, 0},
        {6, 10, t1, t1, 0, 0, SYNC_QPC + 700, 0, NULL, b[7], (uint32_t)n[7], NULL, 0},
        {1, 1, t2, t2, 1, 0, SYNC_QPC + 150, 0, NULL, b[0], (uint32_t)n[0], NULL, 0},
        {4, 2, t2, t2, 1, 0, SYNC_QPC + 250, 0, NULL, b[5], (uint32_t)n[5], NULL, 0},
        {1, 10, t2, t2, 1, 0, SYNC_QPC + 350, 0, NULL, b[1], (uint32_t)n[1], NULL, 0}, /* 7 lost */
    };
    for (size_t i = 0; i < sizeof e / sizeof e[0]; i++)
        nt_write_event(w, &e[i]);
    uint64_t threads[2] = {t1, t2};
    uint32_t sequences[2] = {10, 10};
    nt_sequence_point(w, SYNC_QPC + 800, threads, sequences, 2);
    size_t size;
    uint8_t *data = nt_writer_finish(w, &size);
    free(rh_write_file(dir, "handmade.nettrace", data, size));
    free(data);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: ctf_test_traces DIR\n");
        return 2;
    }
    write_evtrace(argv[1]);
    write_nettrace(argv[1]);
    return 0;
}
