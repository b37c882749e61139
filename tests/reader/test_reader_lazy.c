/* test_reader_lazy.c — lazy validation (reader.h: a block is verified when first touched, the rest
 * when problems or totals are asked for) answers exactly as the eager scan at open did: for a
 * several-thread trace with damage in many places (a payload byte flipped, the bytes the crc does not
 * cover changed — payload_size among them, sending the header walk astray —, the end and metadata
 * blocks flipped, cuts, random flips), the problems (offsets, texts, order), the status, the
 * threads' table and the events in file and in time order are the same whether the caller asks
 * for problems first, iterates first, iterates halfway, or reads in time order first; and each
 * problem is reported once, however many times the caller iterates and asks. The reference is the
 * eager scan itself, which the reader keeps for damaged files (evgen_rd_evtrace_eager_open). And a
 * reader closed while its verifier thread runs. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "evgen/reader.h"
#include "evgen/wire_format.h"
#include "reader_helpers.h"

extern int evgen_rd_evtrace_eager_open; /* reader-side/evtrace/evtrace.h: the reference */

typedef struct text {
    char *data;
    size_t len;
    FILE *f;
} text;

static void text_open(text *t)
{
    t->data = NULL;
    t->len = 0;
    t->f = open_memstream(&t->data, &t->len);
    assert_non_null(t->f);
}

static void text_close(text *t)
{
    fclose(t->f);
}

static void put_problems(evgen_reader *rd, text *t)
{
    size_t n;
    const evgen_read_problem *p = evgen_reader_problems(rd, &n);
    for (size_t i = 0; i < n; i++)
        fprintf(t->f, "P %llu %s\n", (unsigned long long)p[i].offset, p[i].message);
    uint64_t at;
    evgen_read_status st = evgen_reader_status(rd, &at);
    fprintf(t->f, "S %d %llu\n", (int)st, (unsigned long long)at);
    size_t nt;
    int has_end;
    const evgen_reader_thread *th = evgen_reader_threads(rd, &nt, &has_end);
    fprintf(t->f, "E %d\n", has_end);
    for (size_t i = 0; i < nt; i++)
        fprintf(t->f, "T %llu %llu %llu %llu %llu %llu\n", (unsigned long long)th[i].thread_id,
                (unsigned long long)th[i].events, (unsigned long long)th[i].dropped,
                (unsigned long long)th[i].written_end, (unsigned long long)th[i].dropped_end,
                (unsigned long long)th[i].too_big_end);
}

static void put_event(const evgen_event *ev, text *t)
{
    fprintf(t->f, "%llu %llu %llu %u %s %u %u\n", (unsigned long long)ev->offset, (unsigned long long)ev->thread_id,
            (unsigned long long)ev->ticks, ev->stream, ev->info->name, ev->version, ev->size);
}

/* Events in `order`; with `stop_after`, stops there (the rest with put_rest). */
static void put_events(evgen_reader *rd, evgen_order order, text *t, size_t stop_after)
{
    evgen_reader_rewind(rd, order);
    evgen_event ev;
    for (size_t n = 0; n < stop_after && evgen_reader_next(rd, &ev); n++)
        put_event(&ev, t);
}

static void put_rest(evgen_reader *rd, text *t)
{
    evgen_event ev;
    while (evgen_reader_next(rd, &ev))
        put_event(&ev, t);
}

enum { PROBLEMS_FIRST, FILE_ORDER_FIRST, HALFWAY, TIME_ORDER_FIRST, TIME_HALFWAY, N_WAYS };
static const char *const way_names[] = {"problems first", "file order first", "problems halfway through",
                                        "time order first", "problems halfway through time order"};

/* What a reader says of `data`, asked in `way`, as one text: problems, status, threads, then the
 * events in file order and in time order. NULL if the open fails (the same for every way). */
static char *read_all(const uint8_t *data, size_t size, int eager, int way)
{
    evgen_rd_evtrace_eager_open = eager;
    evgen_reader *rd = evgen_reader_open_memory(data, size, NULL);
    evgen_rd_evtrace_eager_open = 0;
    if (!rd)
        return NULL;
    text probs, files, times;
    text_open(&probs);
    text_open(&files);
    text_open(&times);
    switch (way) {
    case PROBLEMS_FIRST:
        put_problems(rd, &probs);
        put_events(rd, EVGEN_ORDER_FILE, &files, SIZE_MAX);
        put_events(rd, EVGEN_ORDER_TIME, &times, SIZE_MAX);
        break;
    case FILE_ORDER_FIRST:
        put_events(rd, EVGEN_ORDER_FILE, &files, SIZE_MAX);
        put_problems(rd, &probs);
        put_events(rd, EVGEN_ORDER_TIME, &times, SIZE_MAX);
        break;
    case HALFWAY:
        put_events(rd, EVGEN_ORDER_FILE, &files, 100);
        put_problems(rd, &probs);
        put_rest(rd, &files);
        put_events(rd, EVGEN_ORDER_TIME, &times, SIZE_MAX);
        break;
    case TIME_ORDER_FIRST:
        put_events(rd, EVGEN_ORDER_TIME, &times, SIZE_MAX);
        put_events(rd, EVGEN_ORDER_FILE, &files, SIZE_MAX);
        put_problems(rd, &probs);
        break;
    default: /* the query verifies the rest under the merge: its cursors follow the blocks as they are */
        put_events(rd, EVGEN_ORDER_TIME, &times, 100);
        put_problems(rd, &probs);
        put_rest(rd, &times);
        put_events(rd, EVGEN_ORDER_FILE, &files, SIZE_MAX);
        break;
    }
    /* Asked again after every iteration: each problem once, nothing new. */
    text again;
    text_open(&again);
    put_events(rd, EVGEN_ORDER_FILE, &again, SIZE_MAX);
    text_close(&again);
    free(again.data);
    text_open(&again);
    put_problems(rd, &again);
    text_close(&again);
    text_close(&probs);
    if (strcmp(again.data, probs.data) != 0)
        fail_msg("asked again (%s), the problems differ:\n%s\n--- first:\n%s", way_names[way], again.data, probs.data);
    free(again.data);
    evgen_reader_close(rd);
    text_close(&files);
    text_close(&times);
    char *all = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&all, &len);
    fprintf(f, "%s-- file order\n%s-- time order\n%s", probs.data, files.data, times.data);
    fclose(f);
    free(probs.data);
    free(files.data);
    free(times.data);
    return all;
}

typedef struct tally {
    size_t cases, damaged;
} tally;

/* Every way of asking agrees with the eager reference on this copy of the trace. */
static void check_same(const uint8_t *data, size_t size, const char *what, tally *tl)
{
    char *want = read_all(data, size, 1, PROBLEMS_FIRST);
    for (int way = 0; way < N_WAYS; way++) {
        char *got = read_all(data, size, 0, way);
        if ((want == NULL) != (got == NULL))
            fail_msg("%s: the open %s lazily (%s) and %s eagerly", what, got ? "succeeds" : "fails", way_names[way],
                     want ? "succeeds" : "fails");
        if (want && strcmp(want, got) != 0) {
            size_t k = 0;
            while (want[k] == got[k])
                k++;
            while (k && want[k - 1] != '\n')
                k--;
            fail_msg("%s (%s): lazily\n%.600s\n--- eagerly\n%.600s", what, way_names[way], got + k, want + k);
        }
        free(got);
    }
    tl->cases++;
    tl->damaged += want && strstr(want, "P ") == want;
    free(want);
}

static uint32_t get_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

typedef struct fixture {
    rh_trace t;
    rh_block blocks[512];
    size_t n_blocks;
    uint8_t *copy;
} fixture;

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    rh_record_mixed(3, 120, 4096, &fx->t);
    fx->n_blocks = rh_blocks(fx->t.data, fx->t.size, fx->blocks, 512);
    assert_true(fx->n_blocks > 20 && fx->n_blocks <= 512);
    fx->copy = malloc(fx->t.size);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    free(fx->t.data);
    free(fx->copy);
    free(fx);
    return 0;
}

static uint8_t *fresh(fixture *fx)
{
    memcpy(fx->copy, fx->t.data, fx->t.size);
    return fx->copy;
}

static void test_undamaged_trace_reads_the_same(void **state)
{
    fixture *fx = *state;
    tally tl = {0, 0};
    check_same(fresh(fx), fx->t.size, "the trace as written", &tl);
    assert_int_equal(tl.damaged, 0);
}

/* A payload byte of each block (events, metadata, end): the crc catches it. */
static void test_a_corrupt_block_anywhere(void **state)
{
    fixture *fx = *state;
    tally tl = {0, 0};
    for (size_t i = 0; i < fx->n_blocks; i++) {
        const rh_block *b = &fx->blocks[i];
        uint8_t *c = fresh(fx);
        c[b->offset + 48 + (b->end - b->offset - 48) / 2] ^= 0x41;
        char what[96];
        snprintf(what, sizeof what, "a payload byte of block %zu (type %u) at %zu", i, b->type, b->offset);
        check_same(c, fx->t.size, what, &tl);
    }
    assert_int_equal(tl.damaged, fx->n_blocks);
}

/* Threads of one or two blocks each: a bad first block moves its thread after the others in the
 * threads' table (the end block names it), as the eager scan orders them; with two bad blocks, the
 * books' problems follow that order too. */
static void test_a_thread_whose_first_block_is_bad(void **state)
{
    (void)state;
    tally tl = {0, 0};
    for (int rounds = 2; rounds <= 12; rounds += 10) {
        rh_trace t;
        rh_record_mixed(4, rounds, 4096, &t);
        rh_block blocks[64];
        size_t n = rh_blocks(t.data, t.size, blocks, 64);
        assert_true(n >= 6 && n <= 64);
        uint8_t *c = malloc(t.size);
        for (size_t i = 0; i < n; i++) {
            memcpy(c, t.data, t.size);
            c[blocks[i].offset + 48 + (blocks[i].end - blocks[i].offset - 48) / 3] ^= 0x10;
            char what[96];
            snprintf(what, sizeof what, "%d rounds: a payload byte of block %zu (type %u)", rounds, i, blocks[i].type);
            check_same(c, t.size, what, &tl);
            for (size_t j = i + 1; j < n && j < i + 6; j++) { /* and a second one: two threads' books */
                c[blocks[j].offset + 48 + (blocks[j].end - blocks[j].offset - 48) / 3] ^= 0x10;
                snprintf(what, sizeof what, "%d rounds: payload bytes of blocks %zu and %zu", rounds, i, j);
                check_same(c, t.size, what, &tl);
                c[blocks[j].offset + 48 + (blocks[j].end - blocks[j].offset - 48) / 3] ^= 0x10;
            }
        }
        free(c);
        free(t.data);
    }
    assert_int_equal(tl.damaged, tl.cases);
}

/* Two bad blocks in a row in the middle of a several-thread trace: the eager scan resyncs past both,
 * so the blocks after the first change (the walk's list is replaced from there) while a time-order
 * merge is under way; its cursors must take their next blocks from the list as it is then. */
static void test_two_bad_blocks_in_a_row(void **state)
{
    fixture *fx = *state;
    tally tl = {0, 0};
    for (size_t i = fx->n_blocks / 4; i + 2 < fx->n_blocks; i += fx->n_blocks / 4) {
        uint8_t *c = fresh(fx);
        for (size_t k = i; k < i + 2; k++)
            c[fx->blocks[k].offset + 48 + (fx->blocks[k].end - fx->blocks[k].offset - 48) / 2] ^= 0x21;
        char what[96];
        snprintf(what, sizeof what, "payload bytes of blocks %zu and %zu", i, i + 1);
        check_same(c, fx->t.size, what, &tl);
    }
    assert_true(tl.cases >= 2);
    assert_int_equal(tl.damaged, tl.cases);
}

/* A hand-made trace whose threads' blocks interleave in the file and whose events interleave in
 * time, one by one: blocks of threads 1, 2, 3, 1, 2, 3... of 20 events each, the k-th event of a
 * round at the same time for all three (a thread apart), and an end block whose books agree. A
 * time-order merge holds a block of each thread at once, and each cursor's next block lies past the
 * one the merge verifies last. */
enum { IL_THREADS = 3, IL_ROUNDS = 30, IL_EVENTS = 20 };

static void interleaved_trace(rh_bytes *file)
{
    static const rh_field n_field[] = {{"N", 3 /* u32 */, 0, 0}};
    const char *names[] = {"Tick"};
    const rh_field *fields[] = {n_field};
    size_t n_fields[] = {1};
    rh_file_header(file, EVGEN_WIRE_CLOCK_MONOTONIC, 1000000000u);
    rh_metadata(file, 0, 1, names, fields, n_fields);
    for (uint32_t r = 0; r < IL_ROUNDS; r++)
        for (uint32_t t = 0; t < IL_THREADS; t++) {
            rh_bytes p = {0};
            uint64_t base = RH_START_TICKS + (uint64_t)r * IL_EVENTS * 30, ticks = base;
            for (uint32_t j = 0; j < IL_EVENTS; j++) {
                uint64_t at = base + (uint64_t)j * 30 + t * 10 + 1;
                rh_varint(&p, 0);
                rh_zigzag(&p, (int64_t)(at - ticks));
                rh_le(&p, (r * IL_EVENTS + j) * IL_THREADS + t, 4);
                ticks = at;
            }
            rh_append_block(file, EVGEN_WIRE_BLOCK_EVENTS, 1 + t, r, IL_EVENTS, 0, base, &p);
            rh_free(&p);
        }
    const uint64_t ids[IL_THREADS] = {1, 2, 3};
    const uint64_t written[IL_THREADS] = {IL_ROUNDS * IL_EVENTS, IL_ROUNDS * IL_EVENTS, IL_ROUNDS * IL_EVENTS};
    rh_end_block(file, IL_THREADS, ids, written);
}

/* Bad blocks under a time-order merge of interleaved threads: one (its chain goes on past it), two
 * in a row (the eager scan resyncs past both: the blocks after the first are replaced while the
 * merge holds cursors whose next blocks lay among them), and a payload_size that sends the walk
 * past a block (the books disagree: the rewind verifies everything first). */
static void test_bad_blocks_under_an_interleaved_merge(void **state)
{
    (void)state;
    rh_bytes file = {0};
    interleaved_trace(&file);
    rh_block blocks[128];
    size_t n = rh_blocks(file.data, file.len, blocks, 128);
    assert_int_equal(n, 1 + IL_THREADS * IL_ROUNDS + 1);
    /* The eager reference merges with the same code: the order itself is checked here, event N
     * being the N-th by time. */
    evgen_reader *rd = evgen_reader_open_memory(file.data, file.len, NULL);
    assert_non_null(rd);
    evgen_reader_rewind(rd, EVGEN_ORDER_TIME);
    evgen_event ev;
    uint32_t want = 0;
    while (evgen_reader_next(rd, &ev)) {
        assert_int_equal(ev.size, 4);
        assert_int_equal(get_le32(ev.payload), want);
        want++;
    }
    assert_int_equal(want, IL_THREADS * IL_ROUNDS * IL_EVENTS);
    evgen_reader_close(rd);
    uint8_t *c = malloc(file.len);
    tally tl = {0, 0};
    memcpy(c, file.data, file.len);
    check_same(c, file.len, "the interleaved trace as written", &tl);
    assert_int_equal(tl.damaged, 0);
    for (size_t i = 10; i + 4 < n; i += 7)
        for (size_t bad = 1; bad <= 3; bad++) {
            memcpy(c, file.data, file.len);
            for (size_t k = i; k < i + bad; k++)
                c[blocks[k].offset + 48 + (blocks[k].end - blocks[k].offset - 48) / 2] ^= 0x21;
            char what[96];
            snprintf(what, sizeof what, "interleaved: payload bytes of %zu block(s) from block %zu", bad, i);
            check_same(c, file.len, what, &tl);
            memcpy(c, file.data, file.len);
            put_le32(c + blocks[i].offset + 8, (uint32_t)(blocks[i + bad + 1].offset - blocks[i].offset - 48));
            snprintf(what, sizeof what, "interleaved: block %zu's payload_size over %zu block(s)", i, bad);
            check_same(c, file.len, what, &tl);
        }
    assert_int_equal(tl.damaged + 1, tl.cases);
    free(c);
    rh_free(&file);
}

/* The header bytes the crc does not cover (4..15: flags, type, sizes, the crc itself) of a block in
 * the middle: the walk reads them, so the eager scan must take over where they lie. */
static void test_header_bytes_outside_the_crc(void **state)
{
    fixture *fx = *state;
    tally tl = {0, 0};
    size_t mid = fx->n_blocks / 2;
    for (size_t at = 4; at < 16; at++)
        for (int bit = 0; bit < 8; bit += 3) {
            uint8_t *c = fresh(fx);
            c[fx->blocks[mid].offset + at] ^= (uint8_t)(1u << bit);
            char what[96];
            snprintf(what, sizeof what, "header byte %zu bit %d of block %zu", at, bit, mid);
            check_same(c, fx->t.size, what, &tl);
        }
    assert_true(tl.damaged > 0);
}

/* payload_size changed so that the walk lands on a real header further on (the next block's
 * skipped: the walk goes astray, and only the block's crc says so), or runs off the file's end,
 * or short of the block's end. */
static void test_a_corrupt_payload_size(void **state)
{
    fixture *fx = *state;
    tally tl = {0, 0};
    for (size_t i = 1; i + 2 < fx->n_blocks; i += 2) {
        const rh_block *b = &fx->blocks[i];
        uint32_t size = (uint32_t)(b->end - b->offset - 48);
        const uint32_t sizes[] = {
            (uint32_t)(fx->blocks[i + 2].offset - b->offset - 48), /* onto the block after next */
            (uint32_t)(fx->t.size - b->offset - 48),               /* to the file's end exactly */
            size - 1, size + 1, size / 2, 0, UINT32_MAX,
        };
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
            uint8_t *c = fresh(fx);
            assert_int_equal(get_le32(c + b->offset + 8), size);
            put_le32(c + b->offset + 8, sizes[k]);
            char what[96];
            snprintf(what, sizeof what, "payload_size %u (not %u) of block %zu at %zu", sizes[k], size, i, b->offset);
            check_same(c, fx->t.size, what, &tl);
        }
    }
    assert_int_equal(tl.damaged, tl.cases);
}

/* Cuts: inside a block, on a block's boundary, inside the end block. */
static void test_cut_traces(void **state)
{
    fixture *fx = *state;
    tally tl = {0, 0};
    for (size_t i = 1; i < fx->n_blocks; i += 4) {
        const rh_block *b = &fx->blocks[i];
        size_t cuts[] = {b->offset, b->offset + 20, b->offset + 48, (b->offset + b->end) / 2, b->end - 1};
        for (size_t k = 0; k < sizeof cuts / sizeof *cuts; k++) {
            char what[96];
            snprintf(what, sizeof what, "the trace cut at %zu", cuts[k]);
            check_same(fresh(fx), cuts[k], what, &tl);
        }
    }
    assert_int_equal(tl.damaged, tl.cases);
}

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* One to three random bytes anywhere past the file header, 200 times. */
static void test_random_flips(void **state)
{
    fixture *fx = *state;
    tally tl = {0, 0};
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    for (int n = 0; n < 200; n++) {
        uint8_t *c = fresh(fx);
        int flips = 1 + (int)(next_random(&seed) % 3);
        for (int k = 0; k < flips; k++)
            c[48 + next_random(&seed) % (fx->t.size - 48)] ^= (uint8_t)(1 + next_random(&seed) % 255);
        char what[64];
        snprintf(what, sizeof what, "random flips, case %d", n);
        check_same(c, fx->t.size, what, &tl);
    }
    assert_true(tl.damaged > 150);
}

/* Closed while the verifier thread may still be checking blocks (just opened; one event read): the
 * close stops it before the file is unmapped, and a memory trace can be freed right after. The
 * sanitizers watch; the events read are counted. */
static void test_close_while_the_verifier_runs(void **state)
{
    fixture *fx = *state;
    char dir[] = "/tmp/evgen-lazy-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *path = rh_write_file(dir, "mixed.evtrace", fx->t.data, fx->t.size);
    for (int n = 0; n < 300; n++) {
        evgen_reader *rd = evgen_reader_open(path, NULL);
        assert_non_null(rd);
        evgen_event ev;
        if (n % 2)
            assert_int_equal(evgen_reader_next(rd, &ev), 1);
        evgen_reader_close(rd);
        uint8_t *copy = malloc(fx->t.size);
        memcpy(copy, fx->t.data, fx->t.size);
        rd = evgen_reader_open_memory(copy, fx->t.size, NULL);
        assert_non_null(rd);
        if (n % 2)
            assert_int_equal(evgen_reader_next(rd, &ev), 1);
        evgen_reader_close(rd);
        free(copy);
    }
    /* And read whole after all that: every event. */
    evgen_reader *rd = evgen_reader_open(path, NULL);
    size_t n_threads, events = 0, read = 0;
    const evgen_reader_thread *th = evgen_reader_threads(rd, &n_threads, NULL);
    for (size_t i = 0; i < n_threads; i++)
        events += th[i].events;
    evgen_event ev;
    while (evgen_reader_next(rd, &ev))
        read++;
    assert_int_equal(read, events);
    assert_true(read > 0);
    evgen_reader_close(rd);
    unlink(path);
    rmdir(dir);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_undamaged_trace_reads_the_same),
        cmocka_unit_test(test_a_corrupt_block_anywhere),
        cmocka_unit_test(test_a_thread_whose_first_block_is_bad),
        cmocka_unit_test(test_two_bad_blocks_in_a_row),
        cmocka_unit_test(test_bad_blocks_under_an_interleaved_merge),
        cmocka_unit_test(test_header_bytes_outside_the_crc),
        cmocka_unit_test(test_a_corrupt_payload_size),
        cmocka_unit_test(test_cut_traces),
        cmocka_unit_test(test_random_flips),
        cmocka_unit_test(test_close_while_the_verifier_runs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
