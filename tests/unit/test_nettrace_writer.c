/* test_nettrace_writer.c — tests/support/nettrace_writer.c writes the bytes the .nettrace format
 * documents (microsoft/perfview NetTraceFormat_v5.md and NetTraceFormat.md) describe: each expected
 * file below was laid out by hand from those documents, offsets in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nettrace_writer.h"
#include "test_support.h"

/* Little-endian integers, spelled out byte by byte. */
#define U16(v) (uint8_t)((v)&0xFF), (uint8_t)(((v) >> 8) & 0xFF)
#define U32(v) U16((v)&0xFFFF), U16(((v) >> 16) & 0xFFFF)
#define U64(v) U32((uint64_t)(v)&0xFFFFFFFFu), U32(((uint64_t)(v) >> 32) & 0xFFFFFFFFu)
#define ZERO16 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0

/* Activity ids used below. */
#define ACT_A 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10
#define ACT_B 0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xBB, 0xBC, 0xBD, 0xBE, 0xBF
#define ACT_C 0xC0, 0xC1, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xCB, 0xCC, 0xCD, 0xCE, 0xCF
static const uint8_t act_a[16] = {ACT_A};
static const uint8_t act_b[16] = {ACT_B};
static const uint8_t act_c[16] = {ACT_C};

/* The trace parameters of every test: QPC 0x1000 at the sync time, 1 MHz, process 1234, 4 CPUs. */
#define SYNC_QPC 0x1000
#define QPC_FREQUENCY 1000000
#define PROCESS_ID 1234
#define CPU_COUNT 4

/* SyncTimeUTC as the writer fixes it: 2024-01-01 (a Monday) 00:00:00.000. */
#define SYNC_TIME U16(2024), U16(1), U16(1), U16(1), U16(0), U16(0), U16(0), U16(0)

/* V4/V5: the magic, the FastSerialization header and the Trace object, 102 bytes. */
#define V5_PREFIX                                                                                 \
    /* 0 */ 'N', 'e', 't', 't', 'r', 'a', 'c', 'e',                                               \
    /* 8 */ U32(20), '!', 'F', 'a', 's', 't', 'S', 'e', 'r', 'i', 'a', 'l', 'i', 'z', 'a', 't', \
        'i', 'o', 'n', '.', '1',                                                                  \
    /* 32: BeginPrivateObject, type object (NullReference, version 4, min 4, "Trace", End) */    \
    0x05, 0x05, 0x01, U32(4), U32(4), U32(5), 'T', 'r', 'a', 'c', 'e', 0x06,                     \
    /* 53: payload */ SYNC_TIME, U64(SYNC_QPC), U64(QPC_FREQUENCY), U32(8) /* PointerSize */,     \
    U32(PROCESS_ID), U32(CPU_COUNT), U32(0) /* ExpectedCPUSamplingRate */,                        \
    /* 101 */ 0x06

/* A block object's header: BeginPrivateObject and its type object (version 2, minimum 2). */
#define BLOCK_TYPE(len, ...) 0x05, 0x05, 0x01, U32(2), U32(2), U32(len), __VA_ARGS__, 0x06
#define EVENT_BLOCK BLOCK_TYPE(10, 'E', 'v', 'e', 'n', 't', 'B', 'l', 'o', 'c', 'k')
#define METADATA_BLOCK BLOCK_TYPE(13, 'M', 'e', 't', 'a', 'd', 'a', 't', 'a', 'B', 'l', 'o', 'c', 'k')

/* V6: the magic and the version header, then the trace block (77 bytes). */
#define V6_PREFIX(pointer_size)                                                                   \
    'N', 'e', 't', 't', 'r', 'a', 'c', 'e', U32(0), U32(6), U32(0),                               \
    /* 20: BlockHeader: size 77, kind Trace */ 0x4D, 0x00, 0x00, 0x01,                           \
    /* 24 */ SYNC_TIME, U64(SYNC_QPC), U64(QPC_FREQUENCY), U32(pointer_size), U32(2),             \
    /* 64 */ 19, 'H', 'a', 'r', 'd', 'w', 'a', 'r', 'e', 'T', 'h', 'r', 'e', 'a', 'd', 'C', 'o',  \
    'u', 'n', 't', 1, '4', 9, 'P', 'r', 'o', 'c', 'e', 's', 's', 'I', 'd', 4, '1', '2', '3', '4'
/* 101: the first block after the trace block. */

/* Compares the whole file, reporting the first difference with the bytes around it. */
static void expect_bytes(const uint8_t *got, size_t got_n, const uint8_t *want, size_t want_n)
{
    size_t n = got_n < want_n ? got_n : want_n;
    size_t at = 0;
    while (at < n && got[at] == want[at])
        at++;
    if (at == n && got_n == want_n)
        return;
    size_t from = at >= 8 ? at - 8 : 0;
    fprintf(stderr, "first difference at offset %zu (got %zu bytes, expected %zu)\n", at, got_n, want_n);
    fprintf(stderr, "  got     ");
    for (size_t i = from; i < got_n && i < at + 8; i++)
        fprintf(stderr, i == at ? "[%02x]" : " %02x ", got[i]);
    fprintf(stderr, "\n  expected");
    for (size_t i = from; i < want_n && i < at + 8; i++)
        fprintf(stderr, i == at ? "[%02x]" : " %02x ", want[i]);
    fprintf(stderr, "\n");
    fail_msg("the written file differs from the hand-computed bytes");
}

static nt_writer *new_writer(int version, int compressed, uint32_t pointer_size)
{
    return nt_writer_new(version, compressed, pointer_size, SYNC_QPC, QPC_FREQUENCY, PROCESS_ID, CPU_COUNT);
}

/* V4, uncompressed: a metadata record and an event with a 3-byte payload, padded to 4 bytes; both
 * block objects pad their content to a 4-byte file offset. */
static void test_v4_uncompressed_event(void **state)
{
    (void)state;
    static const uint8_t want[] = {
        V5_PREFIX,
        /* 102 */ METADATA_BLOCK,
        /* 131: BlockSize */ U32(144),
        /* 135: padding to 136 */ 0x00,
        /* 136: HeaderSize, Flags (uncompressed), Min/MaxTimestamp */ U16(20), U16(0), U64(0), U64(0),
        /* 156: EventSize 120 (76 + 44), MetadataId 0, sequence, thread, capture thread, processor,
         * stack, timestamp, activity ids: all zero */
        U32(120), U32(0), U32(0), U64(0), U64(0), U32(0), U32(0), U64(0), ZERO16, ZERO16,
        /* 232: PayloadSize */ U32(44),
        /* 236: MetaDataId 1, "P", EventId 7, "E", Keywords, Version 0, Level 4 */
        U32(1), 'P', 0, 0, 0, U32(7), 'E', 0, 0, 0, U64(0), U32(0), U32(4),
        /* 268: FieldCount 1: Int32 "n" */ U32(1), U32(9), 'n', 0, 0, 0,
        /* 280 */ 0x06,
        /* 281 */ EVENT_BLOCK,
        /* 307: BlockSize */ U32(104),
        /* 311: padding to 312 */ 0x00,
        /* 312 */ U16(20), U16(0), U64(0x2000), U64(0x2000),
        /* 332: EventSize 80 (76 + 3 + 1 padding), MetadataId 1 with IsSorted, sequence 1,
         * thread 0x10, capture thread 0x10, processor 2, stack 0, timestamp 0x2000 */
        U32(80), U32(0x80000001u), U32(1), U64(0x10), U64(0x10), U32(2), U32(0), U64(0x2000),
        /* 376 */ ACT_A, ZERO16,
        /* 408 */ U32(3), 0xAA, 0xBB, 0xCC, /* padding */ 0x00,
        /* 416 */ 0x06,
        /* 417: NullReference, the end */ 0x01};
    static const uint8_t payload[] = {0xAA, 0xBB, 0xCC};
    static const nt_field fields[] = {{"n", 9, 0}};

    nt_writer *w = new_writer(4, 0, 8);
    nt_metadata(w, 1, "P", 7, "E", 0, 0, 4, fields, 1);
    nt_event e = {1, 1, 0x10, 0x10, 2, 0, 0x2000, 1, act_a, payload, sizeof payload, NULL, 0};
    nt_write_event(w, &e);
    size_t size = 0;
    uint8_t *data = nt_writer_finish(w, &size);
    expect_bytes(data, size, want, sizeof want);
    free(data);
}

/* V4, header compression: fields appear only when they change, sequence numbers as the gap after
 * previous + 1, timestamps as deltas; nt_flush starts a block whose state starts from zero. */
static void test_v4_compressed_sequence(void **state)
{
    (void)state;
    static const uint8_t want[] = {
        V5_PREFIX,
        /* 102 */ EVENT_BLOCK,
        /* 128: BlockSize, no padding */ U32(60),
        /* 132: Flags 1 (compressed), Min 1000, Max 1300 */ U16(20), U16(1), U64(1000), U64(1300),
        /* 152: MetadataId|CaptureThreadAndSequence|ThreadId|PayloadSize; id 1; sequence gap 0,
         * capture thread 0x10, processor 0; thread 0x10; timestamp delta 1000; size 2 */
        0x87, 0x01, 0x00, 0x10, 0x00, 0x10, 0xE8, 0x07, 0x02, 0x01, 0x02,
        /* 163: StackId 3; delta 10 (sequence 2 = 1 + 1 is implied) */ 0x08, 0x03, 0x0A, 0x03, 0x04,
        /* 168: id 2; sequence 5 = 2 + 1 + gap 2; capture 0x10, processor 0; delta 290; activity;
         * sorted; payload size 0 */
        0xD3, 0x02, 0x02, 0x10, 0x00, 0xA2, 0x02, ACT_A, 0x00,
        /* 192 */ 0x06,
        /* 193 */ EVENT_BLOCK,
        /* 219: BlockSize */ U32(28),
        /* 223: padding to 224 */ 0x00,
        /* 224 */ U16(20), U16(1), U64(1400), U64(1400),
        /* 244: against zeros again: id 2; sequence 6 = 0 + 1 + gap 5, capture 0x10, processor 0;
         * thread 0x10; delta 1400; the payload size is 0 as the zeroed previous one */
        0x07, 0x02, 0x05, 0x10, 0x00, 0x10, 0xF8, 0x0A,
        /* 252 */ 0x06,
        /* 253 */ 0x01};
    static const uint8_t p1[] = {0x01, 0x02}, p2[] = {0x03, 0x04};

    nt_writer *w = new_writer(4, 1, 8);
    nt_event e1 = {1, 1, 0x10, 0x10, 0, 0, 1000, 0, NULL, p1, 2, NULL, 0};
    nt_event e2 = {1, 2, 0x10, 0x10, 0, 3, 1010, 0, NULL, p2, 2, NULL, 0};
    nt_event e3 = {2, 5, 0x10, 0x10, 0, 3, 1300, 1, act_a, NULL, 0, NULL, 0};
    nt_event e4 = {2, 6, 0x10, 0x10, 0, 0, 1400, 0, NULL, NULL, 0, NULL, 0};
    nt_write_event(w, &e1);
    nt_write_event(w, &e2);
    nt_write_event(w, &e3);
    nt_flush(w);
    nt_write_event(w, &e4);
    size_t size = 0;
    uint8_t *data = nt_writer_finish(w, &size);
    expect_bytes(data, size, want, sizeof want);
    free(data);
}

/* V5, compressed metadata: a record with an array field (empty V1 list, fields in a V2Params tag)
 * and a record without one (V1 list), in one MetadataBlock. */
static void test_v5_metadata_v2params(void **state)
{
    (void)state;
    static const uint8_t want[] = {
        V5_PREFIX,
        /* 102 */ METADATA_BLOCK,
        /* 131: BlockSize */ U32(149),
        /* 135: padding */ 0x00,
        /* 136 */ U16(20), U16(1), U64(0), U64(0),
        /* 156: PayloadSize flag; timestamp delta 0; PayloadSize 77 */ 0x80, 0x00, 0x4D,
        /* 159: MetaDataId 7, "Pr", EventId 3, "Ev" */
        U32(7), 'P', 0, 'r', 0, 0, 0, U32(3), 'E', 0, 'v', 0, 0, 0,
        /* 179: Keywords, Version 2, Level 4, V1 FieldCount 0 */ U64(0x100000002ull), U32(2), U32(4), U32(0),
        /* 199: TagPayloadBytes 32, TagKind V2Params, V2FieldCount 2 */ U32(32), 0x02, U32(2),
        /* 208: Size 12 (itself included), "A", Int32 */ U32(12), 'A', 0, 0, 0, U32(9),
        /* 220: Size 16, "B", Array of Byte */ U32(16), 'B', 0, 0, 0, U32(19), U32(6),
        /* 236: PayloadSize 46 */ 0x80, 0x00, 0x2E,
        /* 239: MetaDataId 8, "Pr", EventId 4, "F", Keywords 0, Version 0, Level 5 */
        U32(8), 'P', 0, 'r', 0, 0, 0, U32(4), 'F', 0, 0, 0, U64(0), U32(0), U32(5),
        /* 273: FieldCount 1: String "C" */ U32(1), U32(18), 'C', 0, 0, 0,
        /* 285 */ 0x06,
        /* 286 */ 0x01};
    static const nt_field with_array[] = {{"A", 9, 0}, {"B", 19, 6}};
    static const nt_field flat[] = {{"C", 18, 0}};

    nt_writer *w = new_writer(5, 1, 8);
    nt_metadata(w, 7, "Pr", 3, "Ev", 0x100000002ull, 2, 4, with_array, 2);
    nt_metadata(w, 8, "Pr", 4, "F", 0, 0, 5, flat, 1);
    size_t size = 0;
    uint8_t *data = nt_writer_finish(w, &size);
    expect_bytes(data, size, want, sizeof want);
    free(data);
}

/* V6: the stream header, the trace block with its key-value pairs, and a thread, metadata, stack,
 * event, sequence point and end-of-stream block, each behind its BlockHeader. */
static void test_v6_file(void **state)
{
    (void)state;
    static const uint8_t want[] = {
        V6_PREFIX(8),
        /* 101: Thread block, 8 bytes: RowSize 6, index 1, OSProcessId 1234, OSThreadId 0x10 */
        0x08, 0x00, 0x00, 0x06, U16(6), 0x01, 0x02, 0xD2, 0x09, 0x03, 0x10,
        /* 113: Metadata block, 38 bytes: HeaderSize 0; row size 34 */
        0x26, 0x00, 0x00, 0x03, U16(0), U16(34),
        /* 121: id 1, "P", event id 5, "E", 2 fields */ 0x01, 1, 'P', 0x05, 1, 'E', U16(2),
        /* 129: "x" Int32 (3 bytes); "a" Array of Byte (4 bytes) */
        U16(3), 1, 'x', 9, U16(4), 1, 'a', 19, 6,
        /* 140: optional metadata, 13 bytes: Keyword 0x10, Level 4, Version 1 */
        U16(13), 0x03, U64(0x10), 0x08, 0x04, 0x09, 0x01,
        /* 155: Stack block, 20 bytes: first id 1, count 1, 8 bytes of IP */
        0x14, 0x00, 0x00, 0x05, U32(1), U32(1), U32(8), U64(0x1234),
        /* 179: Event block, 40 bytes: HeaderSize 20, compressed, Min 0x2000, Max 0x2005 */
        0x28, 0x00, 0x00, 0x02, U16(20), U16(1), U64(0x2000), U64(0x2005),
        /* 203: id 1; sequence 1, capture thread index 1, processor 0; thread index 1; stack 1;
         * delta 0x2000; sorted; payload size 4 */
        0xCF, 0x01, 0x00, 0x01, 0x00, 0x01, 0x01, 0x80, 0x40, 0x04, U32(1),
        /* 217: all implied (sequence 2), delta 5 */ 0x00, 0x05, U32(2),
        /* 223: SequencePoint block, 18 bytes: timestamp, flags 0, one thread: index 1, sequence 2 */
        0x12, 0x00, 0x00, 0x04, U64(0x3000), U32(0), U32(1), 0x01, 0x02,
        /* 245: EndOfStream */ 0x00, 0x00, 0x00, 0x00};
    static const nt_field fields[] = {{"x", 9, 0}, {"a", 19, 6}};
    static const uint64_t ip = 0x1234;
    static const uint64_t threads[] = {1};
    static const uint32_t sequences[] = {2};
    static const uint8_t p1[] = {1, 0, 0, 0}, p2[] = {2, 0, 0, 0};

    nt_writer *w = new_writer(6, 1, 8);
    nt_thread(w, 1, 0x10, PROCESS_ID);
    nt_metadata(w, 1, "P", 5, "E", 0x10, 1, 4, fields, 2);
    nt_stack(w, 1, &ip, 1);
    nt_event e1 = {1, 1, 1, 1, 0, 1, 0x2000, 1, NULL, p1, 4, NULL, 0};
    nt_event e2 = {1, 2, 1, 1, 0, 1, 0x2005, 0, NULL, p2, 4, NULL, 0};
    nt_write_event(w, &e1);
    nt_write_event(w, &e2);
    nt_sequence_point(w, 0x3000, threads, sequences, 1);
    size_t size = 0;
    uint8_t *data = nt_writer_finish(w, &size);
    expect_bytes(data, size, want, sizeof want);
    free(data);
}

/* V6, uncompressed: consecutive label lists share a block (the last label of a list has the high
 * bit), and the event header carries the LabelListId where V5 has activity ids, with no padding. */
static void test_v6_uncompressed_event_and_label_lists(void **state)
{
    (void)state;
    static const uint8_t want[] = {
        V6_PREFIX(8),
        /* 101: LabelList block, 59 bytes: first index 1, count 2 */
        0x3B, 0x00, 0x00, 0x08, U32(1), U32(2),
        /* 113: list 1: ActivityId, last */ 0x81, ACT_A,
        /* 130: list 2: ActivityId, RelatedActivityId, last */ 0x01, ACT_B, 0x82, ACT_C,
        /* 164: Event block, 73 bytes: uncompressed */ 0x49, 0x00, 0x00, 0x02, U16(20), U16(0), U64(0x2000),
        U64(0x2000),
        /* 188: EventSize 49 (48 + 1), MetadataId 1 sorted, sequence 1, thread index 1, capture index
         * 1, processor 3, stack 0, timestamp, LabelListId 2, PayloadSize 1 */
        U32(49), U32(0x80000001u), U32(1), U64(1), U64(1), U32(3), U32(0), U64(0x2000), U32(2), U32(1), 0xAB,
        /* 241 */ 0x00, 0x00, 0x00, 0x00};
    static const uint8_t payload[] = {0xAB};

    nt_writer *w = new_writer(6, 0, 8);
    nt_label_list(w, 1, act_a, NULL);
    nt_label_list(w, 2, act_b, act_c);
    nt_event e = {1, 1, 1, 1, 3, 0, 0x2000, 1, NULL, payload, 1, NULL, 2};
    nt_write_event(w, &e);
    size_t size = 0;
    uint8_t *data = nt_writer_finish(w, &size);
    expect_bytes(data, size, want, sizeof want);
    free(data);
}

/* Stack ids that follow on share a StackBlock; a gap starts another. 4-byte IPs. */
static void test_stack_blocks_split_on_gaps(void **state)
{
    (void)state;
    static const uint8_t want[] = {
        V6_PREFIX(4),
        /* 101: first id 1, count 2: one IP, then an empty stack */
        0x14, 0x00, 0x00, 0x05, U32(1), U32(2), U32(4), U32(0x1000), U32(0),
        /* 125: first id 5, count 1 */ 0x10, 0x00, 0x00, 0x05, U32(5), U32(1), U32(4), U32(0x2000),
        /* 145 */ 0x00, 0x00, 0x00, 0x00};
    static const uint64_t ip1 = 0x1000, ip5 = 0x2000;

    nt_writer *w = new_writer(6, 1, 4);
    nt_stack(w, 1, &ip1, 1);
    nt_stack(w, 2, NULL, 0);
    nt_stack(w, 5, &ip5, 1);
    size_t size = 0;
    uint8_t *data = nt_writer_finish(w, &size);
    expect_bytes(data, size, want, sizeof want);
    free(data);
}

static uint64_t read_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* Min/MaxTimestamp are the real extremes of a block whose events are not in time order. */
static void test_block_timestamps_are_min_and_max(void **state)
{
    (void)state;
    for (int compressed = 0; compressed <= 1; compressed++) {
        nt_writer *w = new_writer(5, compressed, 8);
        static const uint64_t times[] = {500, 300, 400};
        for (uint32_t i = 0; i < 3; i++) {
            nt_event e = {1, i + 1, 0x10, 0x10, 0, 0, times[i], 0, NULL, NULL, 0, NULL, 0};
            nt_write_event(w, &e);
        }
        size_t size = 0;
        uint8_t *data = nt_writer_finish(w, &size);
        /* The EventBlock object at 102, BlockSize at 128, the header at 132. */
        assert_true(size > 152);
        assert_int_equal(data[132], 20);
        assert_int_equal(data[134], compressed);
        assert_int_equal(read_u64(data + 136), 300);
        assert_int_equal(read_u64(data + 144), 500);
        free(data);
    }
}

static int contains(const uint8_t *data, size_t size, const uint8_t *needle, size_t n)
{
    for (size_t i = 0; i + n <= size; i++)
        if (memcmp(data + i, needle, n) == 0)
            return 1;
    return 0;
}

/* V4/V5 names are UTF-16LE: U+00E9 is one unit, U+1F600 a surrogate pair. */
static void test_utf16_names(void **state)
{
    (void)state;
    static const uint8_t want[] = {0xE9, 0x00, 0x3D, 0xD8, 0x00, 0xDE, 0x00, 0x00};
    nt_writer *w = new_writer(5, 0, 8);
    nt_metadata(w, 1, "\xC3\xA9\xF0\x9F\x98\x80", 1, "E", 0, 0, 0, NULL, 0);
    size_t size = 0;
    uint8_t *data = nt_writer_finish(w, &size);
    assert_true(contains(data, size, want, sizeof want));
    free(data);
}

/* nt_write_file writes the bytes as they are. */
static void test_write_file(void **state)
{
    (void)state;
    nt_writer *w = new_writer(6, 1, 8);
    size_t size = 0;
    uint8_t *data = nt_writer_finish(w, &size);
    char *dir = evgen_test_tempdir();
    char *path = evgen_test_format("%s/t.nettrace", dir);
    assert_int_equal(nt_write_file(path, data, size), 0);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    uint8_t *back = malloc(size + 1);
    assert_non_null(back);
    assert_int_equal(fread(back, 1, size + 1, f), size);
    fclose(f);
    assert_memory_equal(back, data, size);
    char *missing = evgen_test_format("%s/no/such/dir/t.nettrace", dir);
    assert_int_equal(nt_write_file(missing, data, size), -1);
    free(missing);
    free(back);
    evgen_test_rmtree(dir);
    free(path);
    free(dir);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v4_uncompressed_event),
        cmocka_unit_test(test_v4_compressed_sequence),
        cmocka_unit_test(test_v5_metadata_v2params),
        cmocka_unit_test(test_v6_file),
        cmocka_unit_test(test_v6_uncompressed_event_and_label_lists),
        cmocka_unit_test(test_stack_blocks_split_on_gaps),
        cmocka_unit_test(test_block_timestamps_are_min_and_max),
        cmocka_unit_test(test_utf16_names),
        cmocka_unit_test(test_write_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
