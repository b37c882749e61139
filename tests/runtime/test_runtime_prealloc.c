/* test_runtime_prealloc.c — a file session's space allocated ahead of its blocks on ext4
 * (runtime-side/src/prealloc.c). While the session runs, the file's size is the bytes written and
 * its allocated blocks reach past it; at close nothing stays allocated past the end; a failing sink's
 * file is not lengthened by the close; a killed process leaves a readable trace and at most a step
 * allocated past its end; EVGEN_NO_PREALLOCATE, and the O_DIRECT writer, allocate nothing ahead; an
 * adaptive session does once it has handed the writing over. Skipped where the temporary directory
 * is not on ext4 (the only file system it applies to). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cmocka.h>

#include "evgen/runtime.h"
#include "rt_helpers.h"
#include "test_manifest.h"
#include "trace_parse.h"

/* libevgen-runtime's test hooks (runtime-side/src/internal.h). */
void evgen_rt_sink_fail_after(uint64_t bytes, int err);
void evgen_rt_adaptive_force(int hand_over_at_once);
int evgen_rt_adaptive_handed_over(const evgen_session *s);

enum {
    BUFFER = 65536 - 48, /* 64 KiB blocks */
    TICKS = 300000,      /* ~4 MiB of trace */
    PAGE = 4096
};
#define EXT4_MAGIC 0xEF53
#define MIB (1024u * 1024u)

typedef struct file_space {
    uint64_t size, allocated;
} file_space;

static file_space space_of(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    file_space f = {(uint64_t)st.st_size, (uint64_t)st.st_blocks * 512u};
    return f;
}

/* Nothing allocated past the end but the last page's rest and, at most, one block of the file
 * system's own (an extent tree's). */
static void assert_nothing_ahead(file_space f)
{
    uint64_t pages = (f.size + PAGE - 1) / PAGE * PAGE;
    if (f.allocated > pages + PAGE)
        fail_msg("%llu bytes allocated for a file of %llu", (unsigned long long)f.allocated,
                 (unsigned long long)f.size);
}

/* The path of a trace in a fresh temporary directory, or NULL (the test skipped) off ext4. */
static char *ext4_path(const char *name)
{
    char *path = rt_path(name);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    *strrchr(dir, '/') = 0;
    struct statfs fs;
    assert_int_equal(statfs(dir, &fs), 0);
    if (fs.f_type != EXT4_MAGIC) {
        fprintf(stderr, "(%s is not on ext4: space is allocated ahead on ext4 only)\n", dir);
        rt_path_free(path);
        return NULL;
    }
    return path;
}

static evgen_session *open_ticking(const char *path, evgen_block_writer writer)
{
    evgen_session_options o = rt_options(BUFFER, 8, 1024, EVGEN_WHEN_FULL_WAIT);
    o.block_writer = writer;
    evgen_session *s = evgen_session_open_file(path, &o);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    return s;
}

static void emit_ticks(uint64_t n)
{
    for (uint64_t k = 0; k < n; k++)
        assert_int_equal(fire_tick(0, k), EVGEN_EMIT_OK);
}

/* Flushed mid-session, then closed. While it runs the blocks reach at least half a step (512 KiB)
 * past the file's end when AHEAD, none past its last page otherwise; once closed, none past it
 * either way, and the trace is complete. */
static void flushed_then_closed(evgen_block_writer writer, int ahead)
{
    char *path = ext4_path("flushed.evtrace");
    if (!path) {
        skip();
        return;
    }
    evgen_session *s = open_ticking(path, writer);
    emit_ticks(TICKS);
    assert_int_equal(evgen_session_flush(s), 0);
    file_space running = space_of(path);
    assert_true(running.size > 3 * MIB);
    if (!ahead)
        assert_nothing_ahead(running);
    else if (running.allocated < running.size + MIB / 2)
        fail_msg("%llu bytes allocated for %llu written: nothing ahead", (unsigned long long)running.allocated,
                 (unsigned long long)running.size);
    assert_int_equal(evgen_session_close(s, NULL, NULL, NULL), 0);
    file_space closed = space_of(path);
    assert_true(closed.size >= running.size);
    assert_nothing_ahead(closed);
    int has_end;
    assert_int_equal(rt_file_records(path, &has_end), TICKS);
    assert_true(has_end);
    rt_path_free(path);
}

static void test_prealloc_ahead_then_trimmed(void **state)
{
    (void)state;
    flushed_then_closed(EVGEN_BLOCK_WRITER_EMITTER, 1);
}

static void test_prealloc_writer_thread(void **state)
{
    (void)state;
    flushed_then_closed(EVGEN_BLOCK_WRITER_THREAD, 1);
}

/* An adaptive session, handed over to the emitters at its writer's first look, allocates ahead
 * from then on. */
static void test_prealloc_adaptive_after_hand_over(void **state)
{
    (void)state;
    evgen_rt_adaptive_force(1);
    flushed_then_closed(EVGEN_BLOCK_WRITER_ADAPTIVE, 1);
    evgen_rt_adaptive_force(0);
}

/* No space ahead with EVGEN_NO_PREALLOCATE, nor with the O_DIRECT writer (whose direct writes
 * must not meet the page cache's): the file allocated as written, at every moment. */
static void test_prealloc_refused_by_environment(void **state)
{
    (void)state;
    assert_int_equal(setenv("EVGEN_NO_PREALLOCATE", "1", 1), 0);
    flushed_then_closed(EVGEN_BLOCK_WRITER_EMITTER, 0);
    assert_int_equal(unsetenv("EVGEN_NO_PREALLOCATE"), 0);
}

static void test_prealloc_not_with_direct_io(void **state)
{
    (void)state;
    flushed_then_closed(EVGEN_BLOCK_WRITER_DIRECT_IO, 0);
}

/* The sink fails past 2 MiB (a full disk): the close cuts what was allocated past the file's own
 * end, not past the bytes the session reserved, which would lengthen the file with zeros. */
static void test_prealloc_failing_sink_not_lengthened(void **state)
{
    (void)state;
    char *path = ext4_path("failing.evtrace");
    if (!path) {
        skip();
        return;
    }
    evgen_rt_sink_fail_after(2 * MIB, ENOSPC);
    evgen_session *s = open_ticking(path, EVGEN_BLOCK_WRITER_EMITTER);
    uint64_t ok = 0;
    for (uint64_t k = 0; k < TICKS; k++)
        ok += fire_tick(0, k) == EVGEN_EMIT_OK;
    evgen_session_totals totals;
    errno = 0;
    assert_int_equal(evgen_session_close(s, &totals, NULL, NULL), -1);
    assert_int_equal(errno, ENOSPC);
    evgen_rt_sink_fail_after(UINT64_MAX, 0);
    assert_true(totals.lost > 0);
    assert_int_equal(totals.written + totals.lost, ok);
    file_space closed = space_of(path);
    assert_true(closed.size <= 2 * MIB);
    assert_nothing_ahead(closed);
    int has_end;
    assert_int_equal(rt_file_records(path, &has_end), totals.written);
    assert_false(has_end);
    evgen_session_totals_free(&totals);
    rt_path_free(path);
}

/* Killed with space allocated ahead: the file's size is the bytes written (the trace reads to its
 * last complete block), and what stays allocated past it is at most a step (8 MiB) and the blocks
 * then being written, whenever the kill comes. Killed past 5 MiB: there a rule that allocated a step
 * past the allocated end rather than past the writing had its end at 16.5 MiB, some 10-11 MiB
 * ahead (the CI once killed the child there, by a slow poll, when the test waited for 3 MiB). */
static void test_prealloc_killed_process(void **state)
{
    (void)state;
    char *path = ext4_path("killed.evtrace");
    if (!path) {
        skip();
        return;
    }
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        evgen_session *s = open_ticking(path, EVGEN_BLOCK_WRITER_EMITTER);
        (void)s;
        for (uint64_t k = 0;; k++)
            if (fire_tick(0, k) != EVGEN_EMIT_OK)
                _exit(3);
    }
    rt_kill_once_grown(pid, path, 5 * MIB);

    file_space left = space_of(path);
    assert_true(left.allocated > left.size + PAGE); /* it was allocating ahead */
    assert_true(left.allocated <= left.size + 8 * MIB + 8 * 65536 + 2 * PAGE);
    int has_end;
    assert_true(rt_file_records(path, &has_end) > 100000);
    assert_false(has_end);
    rt_path_free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prealloc_ahead_then_trimmed),
        cmocka_unit_test(test_prealloc_writer_thread),
        cmocka_unit_test(test_prealloc_adaptive_after_hand_over),
        cmocka_unit_test(test_prealloc_refused_by_environment),
        cmocka_unit_test(test_prealloc_not_with_direct_io),
        cmocka_unit_test(test_prealloc_failing_sink_not_lengthened),
        cmocka_unit_test(test_prealloc_killed_process),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
