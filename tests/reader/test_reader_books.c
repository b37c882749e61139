/* test_reader_books.c — the reader checks the end block's books: a several-thread trace the
 * runtime wrote, with one or two whole events blocks cut out (nothing else fixed) or its end
 * block rewritten with other counts, has one problem per thread whose events found differ from
 * the end block's `written`, at the end block's offset, naming the thread and both counts; a
 * reused thread id (listed twice) is summed; a clean trace has none and a trace without an end
 * block only its own problem. `evgen dump --stats` prints them and exits 1; every problem list is
 * in file order. The expected counts come from the block headers (docs/format.md) and the runtime
 * tests' independent parser, not from the reader. */
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
#include "test_support.h"
#include "trace_parse.h"

enum { THREADS = 3, ROUNDS = 60, PER_THREAD = ROUNDS * 7 };

typedef struct fixture {
    char *dir;
    rh_trace trace;
    rh_block blocks[256];
    size_t n_blocks;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->dir = evgen_test_tempdir();
    rh_record_mixed(THREADS, ROUNDS, 4096, &f->trace);
    f->n_blocks = rh_blocks(f->trace.data, f->trace.size, f->blocks, 256);
    assert_true(f->n_blocks > 10 && f->n_blocks < 256);
    assert_int_equal(f->blocks[f->n_blocks - 1].type, 3);
    assert_int_equal(f->blocks[f->n_blocks - 1].end, f->trace.size);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    evgen_test_rmtree(f->dir);
    free(f->dir);
    free(f->trace.data);
    free(f);
    return 0;
}

static void assert_file_order(const evgen_reader *rd)
{
    size_t n;
    const evgen_read_problem *p = evgen_reader_problems(rd, &n);
    for (size_t i = 1; i < n; i++)
        if (p[i].offset < p[i - 1].offset)
            fail_msg("problem %zu at %llu (%s) after one at %llu (%s)", i, (unsigned long long)p[i].offset,
                     p[i].message, (unsigned long long)p[i - 1].offset, p[i - 1].message);
}

/* The thread ids in the order their first events block lies (the reader's threads table). */
static size_t thread_order(const uint8_t *data, size_t size, uint64_t *ids, size_t cap)
{
    rh_block blocks[256];
    size_t nb = rh_blocks(data, size, blocks, 256), n = 0;
    for (size_t i = 0; i < nb && i < 256; i++) {
        if (blocks[i].type != 2)
            continue;
        size_t k = 0;
        while (k < n && ids[k] != blocks[i].thread_id)
            k++;
        if (k == n && n < cap)
            ids[n++] = blocks[i].thread_id;
    }
    return n;
}

static char *books(uint64_t tid, uint64_t written, uint64_t found)
{
    if (written > found)
        return evgen_test_format("thread %llu: the end block counts %llu events written, %llu found: %llu missing",
                                 (unsigned long long)tid, (unsigned long long)written, (unsigned long long)found,
                                 (unsigned long long)(written - found));
    return evgen_test_format("thread %llu: the end block counts %llu events written, %llu found: %llu more than written",
                             (unsigned long long)tid, (unsigned long long)written, (unsigned long long)found,
                             (unsigned long long)(found - written));
}

/* Runs `evgen dump ARGS PATH` on pipes; returns the exit status. */
static int dump(const char *path, const char *a1, const char *a2, char **out, char **err)
{
    const char *argv[6] = {EVGEN_EXE, "dump"};
    size_t n = 2;
    if (a1)
        argv[n++] = a1;
    if (a2)
        argv[n++] = a2;
    argv[n++] = path;
    argv[n] = NULL;
    return rh_run(argv, out, NULL, err);
}

/* `evgen dump --stats` (text, then JSON) of `data` lists exactly `want` (offset, message) as its
 * problems and exits 1 (0 if none); plain `evgen dump` prints them on stderr. */
static void check_dump(const fixture *f, const char *name, const uint8_t *data, size_t size, size_t n_want,
                       const uint64_t *offsets, char *const *messages)
{
    char *path = rh_write_file(f->dir, name, data, size);
    char *out, *err;
    assert_int_equal(dump(path, "--stats", NULL, &out, &err), n_want ? 1 : 0);
    char *line = evgen_test_format("\nproblems: %zu\n", n_want);
    if (!strstr(out, line))
        fail_msg("--stats does not say '%s':\n%s", line + 1, out);
    free(line);
    const char *at = strstr(out, "\nproblems: ");
    for (size_t i = 0; i < n_want; i++) {
        line = evgen_test_format("\n  offset %llu: %s\n", (unsigned long long)offsets[i], messages[i]);
        const char *found = strstr(at, line);
        if (!found)
            fail_msg("--stats does not list '%s' after the problems before it:\n%s", line + 1, out);
        at = found + 1;
        free(line);
    }
    if (n_want)
        assert_non_null(strstr(out, "status: corrupt, end block found\n"));
    else
        assert_non_null(strstr(out, "status: ok, end block found\n"));
    free(out);
    free(err);

    assert_int_equal(dump(path, "--stats", "--json", &out, &err), n_want ? 1 : 0);
    line = n_want ? evgen_test_format("{\"offset\":%llu,\"message\":\"%s\"}", (unsigned long long)offsets[0], messages[0])
                  : evgen_test_format("\"problems\":[]");
    if (!strstr(out, line))
        fail_msg("--stats --json has no '%s':\n%s", line, out);
    free(line);
    free(out);
    free(err);

    assert_int_equal(dump(path, "--order", "file", &out, &err), n_want ? 1 : 0);
    for (size_t i = 0; i < n_want; i++) {
        line = evgen_test_format("%s: offset %llu: %s\n", path, (unsigned long long)offsets[i], messages[i]);
        if (!strstr(err, line))
            fail_msg("stderr has no '%s':\n%s", line, err);
        free(line);
    }
    if (!n_want)
        assert_string_equal(err, "");
    free(out);
    free(err);
    free(path);
}

/* ---- a clean trace, and one without an end block ------------------------------------------- */

static void test_clean_trace_balances(void **state)
{
    fixture *f = *state;
    evgen_reader *rd = rh_open_memory(f->trace.data, f->trace.size);
    size_t np, nt;
    evgen_reader_problems(rd, &np);
    assert_int_equal(np, 0);
    assert_int_equal(evgen_reader_status(rd, NULL), EVGEN_READ_OK);
    int has_end;
    const evgen_reader_thread *th = evgen_reader_threads(rd, &nt, &has_end);
    assert_true(has_end);
    assert_int_equal(nt, THREADS);
    for (size_t i = 0; i < nt; i++) {
        assert_int_equal(th[i].events, PER_THREAD);
        assert_int_equal(th[i].written_end, PER_THREAD);
    }
    evgen_reader_close(rd);
    check_dump(f, "clean.evtrace", f->trace.data, f->trace.size, 0, NULL, NULL);

    /* Without its end block (the process died): nothing to compare, only that problem. */
    size_t end_at = f->blocks[f->n_blocks - 1].offset;
    rd = rh_open_memory(f->trace.data, end_at);
    const evgen_read_problem *p = evgen_reader_problems(rd, &np);
    assert_int_equal(np, 1);
    assert_int_equal(p[0].offset, end_at);
    assert_non_null(strstr(p[0].message, "no end block"));
    evgen_reader_close(rd);
}

/* ---- whole blocks cut out ------------------------------------------------------------------- */

/* The trace without the events blocks whose indexes are in `drop` (n_drop of them). */
static uint8_t *without_blocks(const fixture *f, const size_t *drop, size_t n_drop, size_t *size)
{
    uint8_t *out = malloc(f->trace.size);
    size_t len = 48;
    memcpy(out, f->trace.data, 48);
    for (size_t i = 0; i < f->n_blocks; i++) {
        int dropped = 0;
        for (size_t k = 0; k < n_drop; k++)
            dropped |= drop[k] == i;
        if (dropped)
            continue;
        memcpy(out + len, f->trace.data + f->blocks[i].offset, f->blocks[i].end - f->blocks[i].offset);
        len += f->blocks[i].end - f->blocks[i].offset;
    }
    *size = len;
    return out;
}

/* An events block of a thread other than `other`'s that is not its thread's first (so the threads
 * table keeps its order), from index `from`. */
static size_t pick_block(const fixture *f, size_t from, uint64_t other)
{
    for (size_t i = from; i + 1 < f->n_blocks; i++) {
        if (f->blocks[i].type != 2 || f->blocks[i].thread_id == other)
            continue;
        for (size_t j = 0; j < i; j++)
            if (f->blocks[j].type == 2 && f->blocks[j].thread_id == f->blocks[i].thread_id)
                return i;
    }
    fail_msg("no events block to cut out after %zu", from);
    return 0;
}

static void test_a_block_cut_out_is_missing(void **state)
{
    fixture *f = *state;
    /* One block from the middle. */
    size_t k = pick_block(f, f->n_blocks / 2, UINT64_MAX);
    const rh_block *b = &f->blocks[k];
    assert_true(b->event_count > 0);
    size_t size;
    uint8_t *data = without_blocks(f, &k, 1, &size);
    uint64_t end_at = f->blocks[f->n_blocks - 1].offset - (b->end - b->offset);

    evgen_reader *rd = rh_open_memory(data, size);
    assert_int_equal(evgen_reader_status(rd, NULL), EVGEN_READ_CORRUPT);
    size_t np;
    const evgen_read_problem *p = evgen_reader_problems(rd, &np);
    char *want = books(b->thread_id, PER_THREAD, PER_THREAD - b->event_count);
    assert_int_equal(np, 1);
    assert_int_equal(p[0].offset, end_at);
    assert_string_equal(p[0].message, want);
    size_t nt;
    const evgen_reader_thread *th = evgen_reader_threads(rd, &nt, NULL);
    for (size_t i = 0; i < nt; i++) {
        assert_int_equal(th[i].written_end, PER_THREAD);
        assert_int_equal(th[i].events, th[i].thread_id == b->thread_id ? PER_THREAD - b->event_count : PER_THREAD);
    }
    evgen_reader_close(rd);
    check_dump(f, "one-cut.evtrace", data, size, 1, &end_at, &want);
    free(want);
    free(data);

    /* Two blocks of two threads: one problem each, in the threads table's order. */
    size_t two[2] = {pick_block(f, 1, UINT64_MAX), 0};
    two[1] = pick_block(f, two[0] + 1, f->blocks[two[0]].thread_id);
    data = without_blocks(f, two, 2, &size);
    end_at = size - (f->blocks[f->n_blocks - 1].end - f->blocks[f->n_blocks - 1].offset);
    uint64_t ids[THREADS];
    assert_int_equal(thread_order(data, size, ids, THREADS), THREADS);
    char *wants[2];
    uint64_t offsets[2] = {end_at, end_at};
    size_t n_want = 0;
    for (size_t t = 0; t < THREADS; t++)
        for (size_t i = 0; i < 2; i++)
            if (f->blocks[two[i]].thread_id == ids[t])
                wants[n_want++] = books(ids[t], PER_THREAD, PER_THREAD - f->blocks[two[i]].event_count);
    assert_int_equal(n_want, 2);
    rd = rh_open_memory(data, size);
    p = evgen_reader_problems(rd, &np);
    assert_int_equal(np, 2);
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(p[i].offset, end_at);
        assert_string_equal(p[i].message, wants[i]);
    }
    evgen_reader_close(rd);
    check_dump(f, "two-cut.evtrace", data, size, 2, offsets, wants);
    free(wants[0]);
    free(wants[1]);
    free(data);
}

/* ---- the end block rewritten ---------------------------------------------------------------- */

/* The trace with its end block replaced by one for `n` (thread id, written) entries. */
static uint8_t *with_end(const fixture *f, size_t n, const uint64_t *ids, const uint64_t *written, size_t *size)
{
    rh_bytes file = {0};
    rh_put(&file, f->trace.data, f->blocks[f->n_blocks - 1].offset);
    rh_end_block(&file, n, ids, written);
    *size = file.len;
    return file.data;
}

static void test_a_rewritten_end_block_disagrees(void **state)
{
    fixture *f = *state;
    tp_trace parsed;
    if (tp_parse(f->trace.data, f->trace.size, NULL, NULL, &parsed) != 0)
        fail_msg("the independent parser refuses the trace: %s", parsed.error);
    assert_int_equal(parsed.n_end_threads, THREADS);
    uint64_t ids[THREADS + 1], written[THREADS + 1];
    for (size_t i = 0; i < THREADS; i++) {
        ids[i] = parsed.end_threads[i].thread_id;
        written[i] = parsed.end_threads[i].written;
        assert_int_equal(written[i], PER_THREAD);
        assert_int_equal(parsed.end_threads[i].dropped + parsed.end_threads[i].too_big, 0);
    }
    uint64_t end_at = f->blocks[f->n_blocks - 1].offset;
    uint64_t order[THREADS];
    assert_int_equal(thread_order(f->trace.data, f->trace.size, order, THREADS), THREADS);

    /* The end block's own copy, rewritten the same: no problem (the rewriting is right). */
    size_t size;
    uint8_t *data = with_end(f, THREADS, ids, written, &size);
    assert_int_equal(size, f->trace.size);
    evgen_reader *rd = rh_open_memory(data, size);
    size_t np;
    evgen_reader_problems(rd, &np);
    assert_int_equal(np, 0);
    evgen_reader_close(rd);
    free(data);

    /* One thread with 5 more written than found, one with 3 fewer, one left out (0 written). */
    uint64_t changed[THREADS] = {PER_THREAD + 5, PER_THREAD - 3, 0};
    data = with_end(f, 2, ids, changed, &size);
    rd = rh_open_memory(data, size);
    assert_int_equal(evgen_reader_status(rd, NULL), EVGEN_READ_CORRUPT);
    const evgen_read_problem *p = evgen_reader_problems(rd, &np);
    assert_int_equal(np, THREADS);
    char *wants[THREADS];
    uint64_t offsets[THREADS];
    for (size_t t = 0; t < THREADS; t++) {
        size_t i = 0;
        while (ids[i] != order[t])
            i++;
        wants[t] = books(order[t], changed[i], PER_THREAD);
        offsets[t] = end_at;
        assert_int_equal(p[t].offset, end_at);
        assert_string_equal(p[t].message, wants[t]);
    }
    evgen_reader_close(rd);
    check_dump(f, "rewritten.evtrace", data, size, THREADS, offsets, wants);
    for (size_t t = 0; t < THREADS; t++)
        free(wants[t]);
    free(data);

    /* A reused id: the first thread listed twice, its counts split; the reader sums them. */
    ids[THREADS] = ids[0];
    written[0] = PER_THREAD - 20;
    written[THREADS] = 20;
    data = with_end(f, THREADS + 1, ids, written, &size);
    rd = rh_open_memory(data, size);
    evgen_reader_problems(rd, &np);
    assert_int_equal(np, 0);
    size_t nt;
    const evgen_reader_thread *th = evgen_reader_threads(rd, &nt, NULL);
    assert_int_equal(nt, THREADS);
    for (size_t i = 0; i < nt; i++)
        assert_int_equal(th[i].written_end, PER_THREAD);
    evgen_reader_close(rd);
    free(data);
    /* Split wrong: one problem for the thread, with the sum. */
    written[THREADS] = 30;
    data = with_end(f, THREADS + 1, ids, written, &size);
    rd = rh_open_memory(data, size);
    p = evgen_reader_problems(rd, &np);
    assert_int_equal(np, 1);
    char *want = books(ids[0], PER_THREAD + 10, PER_THREAD);
    assert_string_equal(p[0].message, want);
    assert_int_equal(p[0].offset, end_at);
    free(want);
    evgen_reader_close(rd);
    free(data);
    tp_free(&parsed);
}

/* ---- file order ------------------------------------------------------------------------------ */

/* A corrupt block before the end block and garbage after it: the books, checked after the whole
 * file was scanned, are listed between the two, at the end block's offset. */
static void test_books_in_file_order(void **state)
{
    fixture *f = *state;
    size_t k = pick_block(f, f->n_blocks / 3, UINT64_MAX);
    const rh_block *b = &f->blocks[k];
    rh_bytes file = {0};
    rh_put(&file, f->trace.data, f->trace.size);
    file.data[b->offset + 60] ^= 0x01; /* a payload byte: the crc no longer matches */
    static const char garbage[] = "garbage after the end block";
    rh_put(&file, garbage, sizeof garbage - 1);
    uint64_t end_at = f->blocks[f->n_blocks - 1].offset;

    evgen_reader *rd = rh_open_memory(file.data, file.len);
    size_t np;
    const evgen_read_problem *p = evgen_reader_problems(rd, &np);
    assert_int_equal(np, 3);
    assert_int_equal(p[0].offset, b->offset);
    assert_non_null(strstr(p[0].message, "block checksum mismatch"));
    char *want = books(b->thread_id, PER_THREAD, PER_THREAD - b->event_count);
    assert_int_equal(p[1].offset, end_at);
    assert_string_equal(p[1].message, want);
    assert_int_equal(p[2].offset, f->trace.size);
    assert_non_null(strstr(p[2].message, "bad block magic"));
    assert_file_order(rd);
    free(want);
    evgen_reader_close(rd);
    rh_free(&file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_clean_trace_balances, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_block_cut_out_is_missing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_rewritten_end_block_disagrees, setup, teardown),
        cmocka_unit_test_setup_teardown(test_books_in_file_order, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
