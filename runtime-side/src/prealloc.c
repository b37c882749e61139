/* prealloc.c — a file session's space allocated ahead of the blocks written through the page cache
 * (fallocate with FALLOC_FL_KEEP_SIZE), on ext4.
 *
 * Why. A buffered write into space ext4 has not allocated yet pays delayed allocation's per-block
 * bookkeeping on the writing thread: a reservation, a quota charge, an extent-status entry and a
 * buffer head for every 4 KiB; into space already allocated (unwritten) it pays only the buffer
 * head. Here that took a quarter of the kernel's side of each write (0.30 against 0.22 ns of CPU per
 * byte, ~9 ns per 110-byte event: docs/performance-log.md, "Fourteenth round: space allocated ahead").
 * The blocks are allocated by one fallocate at a time, up to a step (1 to 8 MiB) past the block of
 * whichever thread first comes within half a step of the allocated end; the conversion of the
 * written blocks from unwritten is done by the kernel at writeback, as the floor's delayed
 * allocation is.
 *
 * What it keeps. FALLOC_FL_KEEP_SIZE leaves the file's size the bytes written: a reader of the live
 * file, or of one a killed process left, sees the same file as without it. Close gives back what
 * was allocated past the end (ftruncate to the file's own size, which on ext4 frees the blocks past
 * it). A killed process leaves at most a step allocated past the end, invisible to readers and
 * freed when the file is truncated or removed.
 *
 * Where. Regular files on ext4 only, the one file system measured: elsewhere (tmpfs, where an
 * allocation is memory; XFS and btrfs, whose buffered writes allocate otherwise) nothing changes.
 * EVGEN_NO_PREALLOCATE in the environment turns it off (for comparisons). The first fallocate that
 * fails (ENOSPC, EOPNOTSUPP...) turns it off for the session; the writes then go on as without it.
 *
 * Async-signal-safe: an atomic compare-and-swap and a system call. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* fallocate, FALLOC_FL_KEEP_SIZE */
#endif
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "internal.h"

#define EXT4_MAGIC 0xEF53 /* statfs f_type of ext2, ext3 and ext4 (one driver, ext4, for all) */
#define STEP_MIN (1u << 20)
#define STEP_MAX EVGEN_RT_PREALLOC_STEP_MAX

void evgen_rt_prealloc_open(evgen_session *s)
{
    struct stat st;
    struct statfs fs;
    if (s->sink != RT_SINK_FILE || getenv("EVGEN_NO_PREALLOCATE"))
        return;
    if (fstat(s->fd, &st) != 0 || !S_ISREG(st.st_mode) || fstatfs(s->fd, &fs) != 0 || fs.f_type != EXT4_MAGIC)
        return;
    __atomic_store_n(&s->prealloc_end, __atomic_load_n(&s->file_end, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
    __atomic_store_n(&s->prealloc, 1, __ATOMIC_RELEASE);
}

/* The step after AT: as much as is allocated already, between STEP_MIN and STEP_MAX, so that a short
 * trace is not given megabytes it does not use. */
static uint64_t step_after(uint64_t at)
{
    return at < STEP_MIN ? STEP_MIN : at > STEP_MAX ? STEP_MAX : at;
}

void evgen_rt_prealloc_slow(evgen_session *s, uint64_t end)
{
    uint64_t at = __atomic_load_n(&s->prealloc_end, __ATOMIC_RELAXED);
    for (;;) {
        uint64_t step = step_after(at);
        if (end + step / 2 <= at)
            return; /* another thread allocated meanwhile */
        /* A step past END, not past AT: what is allocated ahead of the writing stays under a step
         * (a killed process leaves no more), each fallocate adding at least half of one. */
        uint64_t to = end + step;
        if (!__atomic_compare_exchange_n(&s->prealloc_end, &at, to, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            continue;
        if (fallocate(s->fd, FALLOC_FL_KEEP_SIZE, (off_t)at, (off_t)(to - at)) != 0)
            __atomic_store_n(&s->prealloc, 0, __ATOMIC_RELAXED);
        return;
    }
}

void evgen_rt_prealloc_close(evgen_session *s)
{
    struct stat st;
    if (!__atomic_load_n(&s->prealloc_end, __ATOMIC_RELAXED))
        return;
    /* The file's own size, not file_end: after a failed write the file ends before it, and cutting
     * to file_end would add zeros. Best effort: the trace is whole either way, and a close that
     * failed here would tell the caller otherwise. */
    if (fstat(s->fd, &st) == 0)
        (void)!ftruncate(s->fd, st.st_size);
}
