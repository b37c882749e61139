/* one_file_two_threads_bench.c — how fast two threads can put bytes into one file, against one
 * thread, by write(2) and by a shared mapping of the file.
 *
 * The question it answers (docs/performance.md, "Two emitting threads"): evgen's default writer has
 * each emitting thread pwrite its full 64 KiB blocks into the one trace file. On ext4 a buffered
 * write holds the inode's lock (i_rwsem) exclusively through its copy into the page cache, so two
 * threads' writes to one file take turns: their sum cannot pass one core's copy speed, whatever the
 * emitters do between writes. Writes to two files, or into a mapping of the file (page faults do not
 * take that lock), show what the lock costs. Every file has its space allocated (fallocate) before
 * the clock starts, as the default writer allocates ahead.
 *
 * Prints, per way, the median of RUNS: GB/s of the whole process (wall), process CPU ns per byte,
 * and the rate against one thread's write(2).
 * Usage: one_file_two_threads_bench [MIB per thread >= 16] [RUNS 1..64] [DIR] */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench_common.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

enum { BLOCK = 65536, WINDOW = 4 << 20 };

/* One thread's share of a run: `bytes` into `fd`. A writer by write(2) takes its blocks' offsets
 * from `next_offset` (shared by the threads of one file, so their blocks interleave as evgen's
 * do); a writer by mapping owns [base, base + bytes) and maps it a window at a time. */
struct writer {
    int fd;
    int by_mapping;
    size_t bytes;
    off_t base;
    _Atomic long long *next_offset;
    pthread_t thread;
    int failed;
};

static void write_blocks(struct writer *w, const unsigned char *block)
{
    for (size_t done = 0; done < w->bytes; done += BLOCK) {
        long long offset = atomic_fetch_add(w->next_offset, BLOCK);
        if (pwrite(w->fd, block, BLOCK, (off_t)offset) != BLOCK) {
            w->failed = 1;
            return;
        }
    }
}

/* fallocate'd windows, populated for writing, then filled with 64 KiB copies: the cheapest
 * mapping in file_paths_bench. */
static void write_mapped(struct writer *w, const unsigned char *block)
{
    for (size_t done = 0; done < w->bytes; done += WINDOW) {
        unsigned char *p = mmap(NULL, WINDOW, PROT_READ | PROT_WRITE, MAP_SHARED, w->fd, w->base + (off_t)done);
        if (p == MAP_FAILED || madvise(p, WINDOW, MADV_POPULATE_WRITE) != 0) {
            w->failed = 1;
            if (p != MAP_FAILED)
                munmap(p, WINDOW);
            return;
        }
        for (size_t k = 0; k < WINDOW; k += BLOCK)
            memcpy(p + k, block, BLOCK);
        munmap(p, WINDOW);
    }
}

static void *writer_main(void *arg)
{
    static _Thread_local unsigned char block[BLOCK]; /* each thread copies from its own */
    memset(block, 0x5a, sizeof block);
    struct writer *w = arg;
    if (w->by_mapping)
        write_mapped(w, block);
    else
        write_blocks(w, block);
    return NULL;
}

/* A way: how many threads, whether they share one file, and which of them write by mapping. */
struct way {
    const char *name;
    int threads;
    int one_file;
    int mapped[2];
};

static const struct way ways[] = {
    {"1 thread, write(2)", 1, 1, {0, 0}},
    {"1 thread, mapping", 1, 1, {1, 0}},
    {"2 threads, one file, write(2) both", 2, 1, {0, 0}},
    {"2 threads, one file, write(2) + mapping", 2, 1, {0, 1}},
    {"2 threads, one file, mapping both", 2, 1, {1, 1}},
    {"2 threads, a file each, write(2)", 2, 0, {0, 0}},
};
enum { N_WAYS = sizeof ways / sizeof ways[0] };

/* The path of a run's file F (0 or 1) in DIR. */
static void file_path(char path[4096], const char *dir, int f)
{
    snprintf(path, 4096, "%s/evgen-two-threads-%ld-%d.bin", dir, (long)getpid(), f);
}

static int open_allocated(const char *path, size_t bytes)
{
    int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
    if (fd < 0)
        bench_die(path);
    if (fallocate(fd, 0, 0, (off_t)bytes) != 0 && ftruncate(fd, (off_t)bytes) != 0)
        bench_die("fallocate");
    return fd;
}

/* Runs one way, `per_thread` bytes a thread; returns 0, or -1 if this system cannot. */
static int run_way(const struct way *way, const char *dir, size_t per_thread)
{
    char path[2][4096];
    int fd[2];
    int files = way->one_file ? 1 : way->threads;
    size_t file_bytes = way->one_file ? per_thread * (size_t)way->threads : per_thread;
    for (int f = 0; f < files; f++) {
        file_path(path[f], dir, f);
        fd[f] = open_allocated(path[f], file_bytes);
    }
    /* Threads writing by write(2) share the offsets below the mapped regions. */
    int writing = 0;
    for (int t = 0; t < way->threads; t++)
        writing += !way->mapped[t];
    _Atomic long long next_offset[2] = {0, 0};
    struct writer w[2];
    for (int t = 0, mapped_index = 0; t < way->threads; t++) {
        int f = way->one_file ? 0 : t;
        w[t] = (struct writer){.fd = fd[f], .by_mapping = way->mapped[t], .bytes = per_thread,
                               .next_offset = &next_offset[f]};
        if (way->mapped[t])
            w[t].base = (off_t)(per_thread * (size_t)(way->one_file ? writing + mapped_index++ : 0));
    }
    for (int t = 0; t < way->threads; t++)
        if (pthread_create(&w[t].thread, NULL, writer_main, &w[t]) != 0)
            bench_die("pthread_create");
    int failed = 0;
    for (int t = 0; t < way->threads; t++) {
        pthread_join(w[t].thread, NULL);
        failed |= w[t].failed;
    }
    for (int f = 0; f < files; f++)
        close(fd[f]);
    return failed ? -1 : 0;
}

static void remove_files(const char *dir)
{
    char path[4096];
    for (int f = 0; f < 2; f++) {
        file_path(path, dir, f);
        unlink(path);
    }
}

int main(int argc, char **argv)
{
    long mib;
    int runs;
    const char *dir;
    int usage = bench_mib_args(argc, argv, 512, "per thread", &mib, &runs, &dir);
    if (usage)
        return usage;
    size_t per_thread = (size_t)mib << 20;
    per_thread -= per_thread % WINDOW;

    double rate[N_WAYS][64], cpu[N_WAYS][64];
    int failed[N_WAYS] = {0};
    for (int r = 0; r < runs; r++)
        for (int i = 0; i < N_WAYS; i++) {
            double bytes = (double)per_thread * ways[i].threads;
            double t0 = bench_now_seconds(), c0 = bench_process_cpu_seconds();
            failed[i] |= run_way(&ways[i], dir, per_thread) != 0;
            rate[i][r] = bytes / (bench_now_seconds() - t0) / 1e9;
            cpu[i][r] = (bench_process_cpu_seconds() - c0) * 1e9 / bytes;
            remove_files(dir); /* outside the time: dropping dirty pages is not part of writing them */
        }
    printf("one_file_two_threads_bench: %ld MiB per thread into %s, space allocated ahead, median of %d runs\n",
           mib, dir, runs);
    printf("%-44s %8s %10s %16s\n", "", "GB/s", "CPU ns/B", "vs 1 write(2)");
    double one_thread = bench_median(rate[0], runs);
    for (int i = 0; i < N_WAYS; i++) {
        if (failed[i]) {
            printf("%-44s   (not supported here)\n", ways[i].name);
            continue;
        }
        double g = bench_median(rate[i], runs), c = bench_median(cpu[i], runs);
        printf("%-44s %8.2f %10.3f %15.2fx\n", ways[i].name, g, c, g / one_thread);
    }
    printf("(GB/s: all the process's bytes over the wall time; CPU: every thread's, per byte)\n");
    return 0;
}
