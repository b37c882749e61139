/* test_reader_run.c — the records evgen_reader_next frames inline (the run, reader.h) against what
 * the test computes on its own: hand-made format-2 traces of several threads and streams whose
 * records mix a fixed-size type that repeats (the run's), another fixed-size one, a variable-size
 * one, one-, two- and three-byte heads, negative deltas, ties between threads, and clocks whose
 * nanoseconds need no division, a multiplication, a division, or more than 64 bits. Every event of
 * file order is checked field by field against the trace as built, and time order against a merge
 * written here without a heap (ties by thread, then offset), whole, with the reader's queries and
 * rewinds in the middle of runs, and on a trace the runtime wrote. */
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

enum { K_U16 = 2, K_U32 = 3, K_U64 = 4, K_UTF8Z = 15 };
enum { T_FIX, T_SMALL, T_TEXT, N_TYPES }; /* type numbers, in the metadata's order */
static const uint32_t fixed_size[N_TYPES] = {12, 2, 0};

/* One record as the test built it. */
typedef struct built {
    uint64_t offset, ticks, thread_id;
    uint32_t stream, type, size, head_len;
    size_t chain;
} built;

typedef struct hand_trace {
    rh_bytes file;
    built *records;
    size_t n;
    size_t n_chains;
    uint64_t frequency;
} hand_trace;

static uint64_t rng_state;
static uint32_t rng(void)
{
    rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(rng_state >> 33);
}

/* A delta that makes one-byte heads most of the time, and two- and three-byte ones, on a coarse
 * grid so that threads tie. */
static int64_t pick_delta(void)
{
    uint32_t r = rng() % 100;
    if (r < 70)
        return (int64_t)(rng() % 8) * 5;
    if (r < 90)
        return 64 + (int64_t)(rng() % 1600) * 5;
    if (r < 96)
        return 8192 + (int64_t)(rng() % 100000);
    return -(int64_t)(rng() % 40); /* written with its type named again */
}

/* `threads` threads, each `chains_per_thread` streams, each `blocks` blocks of up to 40 records,
 * the blocks of all chains interleaved in the file; chain c starts at base[c]. */
static void build(hand_trace *t, uint64_t frequency, int threads, int streams, int blocks, const uint64_t *base)
{
    static const rh_field fix[] = {{"A", K_U64, 0, 0}, {"B", K_U32, 0, 0}}, small[] = {{"X", K_U16, 0, 0}},
                          text[] = {{"N", K_U32, 0, 0}, {"S", K_UTF8Z, 0, 0}};
    const char *names[] = {"Fix", "Small", "Text"};
    const rh_field *fields[] = {fix, small, text};
    size_t n_fields[] = {2, 1, 2};
    memset(t, 0, sizeof *t);
    t->frequency = frequency;
    rh_file_header_version(&t->file, 2, 1, frequency);
    rh_metadata(&t->file, 0, N_TYPES, names, fields, n_fields);
    size_t n_chains = (size_t)threads * (size_t)streams, cap = n_chains * (size_t)blocks * 40;
    t->records = calloc(cap, sizeof *t->records);
    t->n_chains = n_chains;
    uint64_t *ticks = calloc(n_chains, sizeof *ticks), *written = calloc((size_t)threads, sizeof *written),
             *tids = calloc((size_t)threads, sizeof *tids);
    assert_non_null(t->records);
    assert_non_null(ticks);
    for (size_t c = 0; c < n_chains; c++)
        ticks[c] = base[c];
    for (int k = 0; k < threads; k++)
        tids[k] = 900u - 37u * (uint64_t)k; /* not in file order: ties go by id */
    rh_bytes p = {0};
    for (int b = 0; b < blocks; b++)
        for (size_t c = 0; c < n_chains; c++) {
            uint32_t count = 1 + rng() % 40, last = UINT32_MAX;
            uint64_t block_base = ticks[c];
            size_t payload_at = t->file.len + 48;
            p.len = 0;
            for (uint32_t i = 0; i < count; i++) {
                built *r = &t->records[t->n++];
                uint32_t type = rng() % 10 < 8 ? T_FIX : rng() % 2 ? T_SMALL : T_TEXT;
                int64_t delta = pick_delta();
                int repeat = type == last && delta >= 0;
                size_t at = p.len;
                if (repeat) {
                    rh_varint(&p, (uint64_t)delta * 2 + 1);
                } else {
                    rh_varint(&p, (uint64_t)type * 2);
                    rh_zigzag(&p, delta);
                }
                r->head_len = (uint32_t)(p.len - at);
                uint8_t payload[32];
                for (size_t j = 0; j < sizeof payload; j++)
                    payload[j] = (uint8_t)rng();
                uint32_t size = fixed_size[type];
                if (type == T_TEXT) {
                    size = 4 + 1 + rng() % 8;
                    for (uint32_t j = 4; j + 1 < size; j++)
                        payload[j] = (uint8_t)('a' + rng() % 26);
                    payload[size - 1] = 0;
                    rh_varint(&p, size);
                    r->head_len = (uint32_t)(p.len - at);
                }
                rh_put(&p, payload, size);
                ticks[c] += (uint64_t)delta;
                *r = (built){.offset = payload_at + at, .ticks = ticks[c], .thread_id = tids[c / (size_t)streams],
                             .stream = (uint32_t)(c % (size_t)streams), .type = type, .size = size,
                             .head_len = r->head_len, .chain = c};
                last = type;
            }
            rh_append_stream_block(&t->file, 2, tids[c / (size_t)streams], (uint32_t)(c % (size_t)streams),
                                   (uint32_t)b, count, 0, block_base, &p);
            written[c / (size_t)streams] += count;
        }
    rh_end_block(&t->file, (size_t)threads, tids, written);
    rh_free(&p);
    free(ticks);
    free(written);
    free(tids);
}

static void free_trace(hand_trace *t)
{
    rh_free(&t->file);
    free(t->records);
}

/* timestamp_ns as docs/format.md defines it: (ticks - start) * 1e9 / frequency, 0 before the
 * start, UINT64_MAX past what 64 bits hold. */
static uint64_t expected_ns(const hand_trace *t, uint64_t ticks)
{
    if (ticks <= RH_START_TICKS)
        return 0;
    unsigned __int128 ns = (unsigned __int128)(ticks - RH_START_TICKS) * 1000000000u / t->frequency;
    return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

static void check_event(const hand_trace *t, const evgen_reader *rd, const built *r, const evgen_event *ev)
{
    static const char *const names[] = {"Fix", "Small", "Text"};
    assert_int_equal(ev->offset, r->offset);
    assert_string_equal(ev->info->name, names[r->type]);
    assert_int_equal(ev->version, 1);
    assert_ptr_equal(ev->layout, &ev->info->versions[0]);
    assert_int_equal(ev->size, r->size);
    assert_ptr_equal(ev->payload, t->file.data + r->offset + r->head_len);
    assert_int_equal(ev->thread_id, r->thread_id);
    assert_int_equal(ev->ticks, r->ticks);
    assert_int_equal(ev->timestamp_ns, expected_ns(t, r->ticks));
    assert_int_equal(ev->pointer_size, 8);
    assert_int_equal(ev->n_variable, r->type == T_TEXT ? 1 : 0);
    if (r->type == T_TEXT)
        assert_int_equal(ev->variable_end[0], r->size);
    assert_ptr_equal(ev->reader, rd);
    assert_null(ev->stack);
    assert_int_equal(ev->stack_depth, 0);
    assert_int_equal(ev->sequence, 0);
    assert_int_equal(ev->capture_thread_id, 0);
    assert_null(ev->activity_id);
    assert_int_equal(ev->stream, r->stream);
}

/* Time order written plainly: at each step the chain whose next record is smallest by (ticks,
 * thread id, offset); each chain's records in file order. Returns indexes into t->records. */
static size_t *merge_by_hand(const hand_trace *t)
{
    size_t *order = malloc(t->n * sizeof *order), *next = calloc(t->n_chains, sizeof *next);
    assert_non_null(order);
    assert_non_null(next);
    for (size_t c = 0; c < t->n_chains; c++) /* each chain's first record */
        for (next[c] = 0; next[c] < t->n && t->records[next[c]].chain != c; next[c]++) {
        }
    for (size_t k = 0; k < t->n; k++) {
        size_t best = SIZE_MAX;
        for (size_t c = 0; c < t->n_chains; c++) {
            if (next[c] >= t->n)
                continue;
            const built *a = &t->records[next[c]];
            const built *b = best == SIZE_MAX ? NULL : &t->records[next[best]];
            if (!b || a->ticks < b->ticks || (a->ticks == b->ticks && (a->thread_id < b->thread_id ||
                                                                      (a->thread_id == b->thread_id && a->offset < b->offset))))
                best = c;
        }
        order[k] = next[best];
        for (next[best]++; next[best] < t->n && t->records[next[best]].chain != best; next[best]++) {
        }
    }
    free(next);
    return order;
}

/* Reads t in `order`, checking every event; every `query_every` events (0: never) asks the
 * reader something that finishes its validation, between two records of a run. */
static void read_and_check(const hand_trace *t, evgen_order order, size_t query_every)
{
    evgen_reader *rd = rh_open_memory(t->file.data, t->file.len);
    size_t *merged = order == EVGEN_ORDER_TIME ? merge_by_hand(t) : NULL;
    evgen_reader_rewind(rd, order);
    evgen_event ev;
    size_t k = 0;
    for (; evgen_reader_next(rd, &ev); k++) {
        assert_true(k < t->n);
        check_event(t, rd, &t->records[merged ? merged[k] : k], &ev);
        if (query_every && k % query_every == query_every / 2) {
            assert_int_equal(evgen_reader_status(rd, NULL), EVGEN_READ_OK);
            size_t n_threads, n_problems;
            int has_end;
            assert_non_null(evgen_reader_threads(rd, &n_threads, &has_end));
            assert_true(has_end);
            evgen_reader_problems(rd, &n_problems);
            assert_int_equal(n_problems, 0);
        }
    }
    assert_int_equal(k, t->n);
    assert_false(evgen_reader_next(rd, &ev)); /* and stays at the end */
    free(merged);
    evgen_reader_close(rd);
}

static void check_both_orders(uint64_t frequency, int threads, int streams, const uint64_t *base)
{
    for (int round = 0; round < 3; round++) {
        hand_trace t;
        build(&t, frequency, threads, streams, 12, base);
        read_and_check(&t, EVGEN_ORDER_FILE, 0);
        read_and_check(&t, EVGEN_ORDER_TIME, 0);
        read_and_check(&t, EVGEN_ORDER_FILE, 7);
        read_and_check(&t, EVGEN_ORDER_TIME, 7);
        free_trace(&t);
    }
}

/* Nanosecond ticks (no division), three threads of two streams each that tie often. */
static void test_nanosecond_clock_threads_and_streams(void **state)
{
    (void)state;
    rng_state = 1;
    const uint64_t base[6] = {RH_START_TICKS, RH_START_TICKS, RH_START_TICKS + 5, RH_START_TICKS,
                              RH_START_TICKS + 10, RH_START_TICKS - 20};
    check_both_orders(1000000000u, 3, 2, base);
}

/* QueryPerformanceCounter's 10 MHz (a multiplication), one chain past where the product fits 64
 * bits (the library's conversion), one before the start (0 ns). */
static void test_ten_megahertz_clock_past_64_bits(void **state)
{
    (void)state;
    rng_state = 2;
    const uint64_t base[4] = {RH_START_TICKS, 200000000000000000u, RH_START_TICKS - 500, RH_START_TICKS + 3};
    check_both_orders(10000000u, 4, 1, base);
}

/* A TSC's frequency (a division per event). */
static void test_tsc_clock(void **state)
{
    (void)state;
    rng_state = 3;
    const uint64_t base[2] = {RH_START_TICKS + 1, RH_START_TICKS + 2};
    check_both_orders(2994373000u, 1, 2, base);
}

/* One chain: time order is file order, the whole block a run. */
static void test_one_chain(void **state)
{
    (void)state;
    rng_state = 4;
    const uint64_t base[1] = {RH_START_TICKS};
    check_both_orders(1000000000u, 1, 1, base);
}

/* A rewind in the middle of a run starts the iteration over, in either order. */
static void test_rewind_in_a_run(void **state)
{
    (void)state;
    rng_state = 5;
    const uint64_t base[3] = {RH_START_TICKS, RH_START_TICKS, RH_START_TICKS};
    hand_trace t;
    build(&t, 1000000000u, 3, 1, 8, base);
    size_t *merged = merge_by_hand(&t);
    evgen_reader *rd = rh_open_memory(t.file.data, t.file.len);
    evgen_event ev;
    for (size_t stop = 1; stop < t.n; stop += 1 + t.n / 9) {
        for (int o = 0; o < 2; o++) {
            evgen_order order = o ? EVGEN_ORDER_TIME : EVGEN_ORDER_FILE;
            evgen_reader_rewind(rd, order);
            for (size_t k = 0; k < stop; k++) {
                assert_true(evgen_reader_next(rd, &ev));
                check_event(&t, rd, &t.records[o ? merged[k] : k], &ev);
            }
        }
    }
    evgen_reader_rewind(rd, EVGEN_ORDER_FILE);
    size_t k = 0;
    for (; evgen_reader_next(rd, &ev); k++)
        check_event(&t, rd, &t.records[k], &ev);
    assert_int_equal(k, t.n);
    evgen_reader_close(rd);
    free(merged);
    free_trace(&t);
}

/* A run's record cut short: the repeated fixed-size record whose payload runs past its block is
 * found by the block's check (before the run could frame it), the block skipped, the next read. */
static void test_record_past_its_block(void **state)
{
    (void)state;
    for (int c = 0; c < 4; c++) {
        /* one- and two-byte heads, the payload 7 bytes short or 1 (the verifier's loop reads a
         * record whole only when both head bytes and the whole payload are in the block) */
        const int two_byte_head = c & 1;
        const size_t shortfall = c < 2 ? 7 : 1;
        static const rh_field fix[] = {{"A", K_U64, 0, 0}, {"B", K_U32, 0, 0}};
        const char *names[] = {"Fix"};
        const rh_field *fields[] = {fix};
        size_t n_fields[] = {2};
        rh_bytes file = {0}, p = {0};
        rh_file_header_version(&file, 2, 1, 1000000000u);
        rh_metadata(&file, 0, 1, names, fields, n_fields);
        uint8_t payload[12] = {1, 2, 3};
        rh_varint(&p, 0); /* type 0 named, delta 0 */
        rh_zigzag(&p, 0);
        rh_put(&p, payload, sizeof payload);
        rh_varint(&p, two_byte_head ? 2 * 100 + 1 : 2 * 3 + 1); /* the type again */
        rh_put(&p, payload, sizeof payload - shortfall);
        size_t bad_at = file.len;
        rh_append_block(&file, 2, 7, 0, 2, 0, RH_START_TICKS, &p);
        p.len = 0;
        rh_varint(&p, 0);
        rh_zigzag(&p, 9);
        rh_put(&p, payload, sizeof payload);
        size_t good_payload_at = file.len + 48;
        rh_append_block(&file, 2, 7, 1, 1, 0, RH_START_TICKS, &p);
        evgen_reader *rd = rh_open_memory(file.data, file.len);
        evgen_event ev;
        assert_true(evgen_reader_next(rd, &ev));
        assert_int_equal(ev.offset, good_payload_at);
        assert_int_equal(ev.ticks, RH_START_TICKS + 9);
        assert_false(evgen_reader_next(rd, &ev));
        size_t n;
        const evgen_read_problem *problems = evgen_reader_problems(rd, &n);
        assert_true(n >= 1);
        assert_int_equal(problems[0].offset, bad_at);
        char expected[160];
        snprintf(expected, sizeof expected,
                 "events block: record 1 at offset %zu (Fix v1): a 12-byte payload runs past the block: skipped",
                 bad_at + 48 + 2 + sizeof payload);
        assert_string_equal(problems[0].message, expected);
        evgen_reader_close(rd);
        rh_free(&file);
        rh_free(&p);
    }
}

/* N records of the fixed-size type 0, 3 ticks apart, the first named: a block's payload. */
static void fixed_records(rh_bytes *p, uint32_t n, uint8_t tag)
{
    p->len = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i == 0) {
            rh_varint(p, 0); /* type 0 named */
            rh_zigzag(p, 3);
        } else {
            rh_varint(p, 2 * 3 + 1); /* the type again, delta 3 */
        }
        uint8_t payload[12] = {tag, (uint8_t)i};
        rh_put(p, payload, sizeof payload);
    }
}

/* A query in time order, right after a run returned the last record of its block, that finds
 * another thread's block bad and the blocks after it other than the walk took them (its
 * payload_size hid a block, its event count made the books agree): the next call follows the blocks
 * as they are now, not the next block its cursor noted when it entered its own, which is another
 * block now. The same events come, in the same order, as when the problems are asked for first. */
static void test_query_changes_the_blocks_after_a_run(void **state)
{
    (void)state;
    static const rh_field fix[] = {{"A", K_U64, 0, 0}, {"B", K_U32, 0, 0}};
    const char *names[] = {"Fix"};
    const rh_field *fields[] = {fix};
    size_t n_fields[] = {2};
    enum { PER_BLOCK = 10, ONE = 77, OTHER = 88 };
    rh_bytes file = {0}, p = {0};
    rh_file_header_version(&file, 2, 1, 1000000000u);
    rh_metadata(&file, 0, 1, names, fields, n_fields);
    fixed_records(&p, PER_BLOCK, 1); /* ONE's first block, before every other record */
    rh_append_block(&file, 2, ONE, 0, PER_BLOCK, 0, RH_START_TICKS, &p);
    fixed_records(&p, PER_BLOCK, 2); /* OTHER's, later */
    rh_append_block(&file, 2, OTHER, 0, PER_BLOCK, 0, RH_START_TICKS + 1000, &p);
    fixed_records(&p, PER_BLOCK, 3); /* OTHER's second: made bad below */
    size_t bad_at = file.len, bad_payload = p.len;
    rh_append_block(&file, 2, OTHER, 1, PER_BLOCK, 0, RH_START_TICKS + 2000, &p);
    fixed_records(&p, PER_BLOCK, 4); /* OTHER's third, which the bad block's payload_size hides */
    size_t hidden_at = file.len;
    rh_append_block(&file, 2, OTHER, 2, PER_BLOCK, 0, RH_START_TICKS + 3000, &p);
    uint32_t grown = (uint32_t)(bad_payload + (file.len - hidden_at)), count = 2 * PER_BLOCK;
    memcpy(file.data + bad_at + 8, &grown, 4);  /* payload_size: not under the crc */
    memcpy(file.data + bad_at + 28, &count, 4); /* event_count: the books agree with the walk */
    fixed_records(&p, PER_BLOCK, 5); /* ONE's second, after them all */
    rh_append_block(&file, 2, ONE, 1, PER_BLOCK, 0, RH_START_TICKS + 4000, &p);
    const uint64_t tids[2] = {ONE, OTHER}, written[2] = {2 * PER_BLOCK, 3 * PER_BLOCK};
    rh_end_block(&file, 2, tids, written);

    /* The reference: every block verified first. */
    evgen_reader *rd = rh_open_memory(file.data, file.len);
    size_t n_problems;
    evgen_reader_problems(rd, &n_problems);
    assert_true(n_problems >= 1);
    evgen_reader_rewind(rd, EVGEN_ORDER_TIME);
    uint64_t want[5 * PER_BLOCK];
    size_t n_want = 0;
    evgen_event ev;
    while (evgen_reader_next(rd, &ev)) {
        assert_true(n_want < 5 * PER_BLOCK);
        want[n_want++] = ev.offset;
    }
    assert_int_equal(n_want, 4 * PER_BLOCK); /* all but the bad block's */
    evgen_reader_close(rd);

    /* The same, the problems asked for once the run returned ONE's first block's last event. */
    rd = rh_open_memory(file.data, file.len);
    evgen_reader_rewind(rd, EVGEN_ORDER_TIME);
    size_t n = 0;
    while (evgen_reader_next(rd, &ev)) {
        assert_true(n < n_want);
        assert_int_equal(ev.offset, want[n]);
        if (++n == PER_BLOCK) {
            assert_int_equal(ev.thread_id, ONE);
            evgen_reader_problems(rd, &n_problems);
            assert_true(n_problems >= 1);
        }
    }
    assert_int_equal(n, n_want);
    evgen_reader_close(rd);
    rh_free(&file);
    rh_free(&p);
}

/* A trace the runtime wrote (several threads, many blocks, fixed and variable events): time order
 * is the merge by hand of the (thread, stream) chains that file order shows. */
static void test_runtime_trace_merges_as_by_hand(void **state)
{
    (void)state;
    rh_trace trace;
    rh_record_mixed(4, 400, 4096, &trace);
    evgen_reader *rd = rh_open_memory(trace.data, trace.size);
    hand_trace t = {.frequency = evgen_reader_header(rd)->clock_frequency};
    size_t cap = 1024;
    t.records = malloc(cap * sizeof *t.records);
    uint64_t chain_ids[64][2];
    evgen_event ev;
    while (evgen_reader_next(rd, &ev)) {
        if (t.n == cap)
            t.records = realloc(t.records, (cap *= 2) * sizeof *t.records);
        assert_non_null(t.records);
        size_t c = 0;
        while (c < t.n_chains && (chain_ids[c][0] != ev.thread_id || chain_ids[c][1] != ev.stream))
            c++;
        if (c == t.n_chains) {
            assert_true(c < 64);
            chain_ids[c][0] = ev.thread_id;
            chain_ids[c][1] = ev.stream;
            t.n_chains++;
        }
        t.records[t.n++] = (built){.offset = ev.offset, .ticks = ev.ticks, .thread_id = ev.thread_id, .chain = c};
    }
    assert_int_equal(t.n, 4 * 400 * 7);
    size_t *merged = merge_by_hand(&t);
    evgen_reader_rewind(rd, EVGEN_ORDER_TIME);
    for (size_t k = 0; k < t.n; k++) {
        assert_true(evgen_reader_next(rd, &ev));
        assert_int_equal(ev.offset, t.records[merged[k]].offset);
        assert_int_equal(ev.ticks, t.records[merged[k]].ticks);
    }
    assert_false(evgen_reader_next(rd, &ev));
    evgen_reader_close(rd);
    free(merged);
    free(t.records);
    free(trace.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nanosecond_clock_threads_and_streams),
        cmocka_unit_test(test_ten_megahertz_clock_past_64_bits),
        cmocka_unit_test(test_tsc_clock),
        cmocka_unit_test(test_one_chain),
        cmocka_unit_test(test_rewind_in_a_run),
        cmocka_unit_test(test_record_past_its_block),
        cmocka_unit_test(test_query_changes_the_blocks_after_a_run),
        cmocka_unit_test(test_runtime_trace_merges_as_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
