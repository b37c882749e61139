/* file_paths_bench.c — what getting bytes into a file costs on this machine, per byte, by each way
 * a tracer could take: write(2) of 64 KiB blocks from a reused buffer (what evgen does), a shared
 * mapping of the file that the tracer would write its events into directly (faulting each new page,
 * with MAP_POPULATE, or fallocate + MADV_POPULATE_WRITE ahead), and O_DIRECT (no page cache copy;
 * the device's speed), a 64 KiB block a call or 32 gathered into one pwritev (the O_DIRECT writer's
 * way). Beside them the floor of any copy: memcpy into a reused 64 KiB buffer.
 *
 * The question it answers (docs/performance.md): whether events written once "straight into memory
 * that becomes the file" cost less than a buffer copied by write(2). A mapping skips the copy but
 * pays for each new page (a fault or a populate, zeroing, page tables, unmapping); write(2) copies
 * but into pages it does not have to zero. Wall and process CPU ns per byte, median of RUNS.
 * Usage: file_paths_bench [MIB per run >= 16] [RUNS 1..64] [DIR] */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "bench_common.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

enum { BLOCK = 65536, WINDOW = 4 << 20 };

static unsigned char *block;

/* Each way writes `total` bytes to `path`; -1 if this system cannot do it (the row says so). */
static int by_write(const char *path, size_t total)
{
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (fd < 0)
        bench_die(path);
    for (size_t off = 0; off < total; off += BLOCK)
        if (write(fd, block, BLOCK) != BLOCK)
            bench_die("write");
    close(fd);
    return 0;
}

/* mode 0: fault each page; 1: MAP_POPULATE; 2: fallocate, then MADV_POPULATE_WRITE per window. */
static int by_mapping(const char *path, size_t total, int mode)
{
    int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
    if (fd < 0)
        bench_die(path);
    if (ftruncate(fd, (off_t)total) != 0)
        bench_die("ftruncate");
    if (mode == 2 && fallocate(fd, 0, 0, (off_t)total) != 0) {
        close(fd);
        return -1;
    }
    for (size_t off = 0; off < total; off += WINDOW) {
        unsigned char *p =
            mmap(NULL, WINDOW, PROT_READ | PROT_WRITE, MAP_SHARED | (mode == 1 ? MAP_POPULATE : 0), fd, (off_t)off);
        if (p == MAP_FAILED)
            bench_die("mmap");
        if (mode == 2 && madvise(p, WINDOW, MADV_POPULATE_WRITE) != 0) {
            munmap(p, WINDOW);
            close(fd);
            return -1;
        }
        for (size_t k = 0; k < WINDOW; k += BLOCK)
            memcpy(p + k, block, BLOCK);
        munmap(p, WINDOW);
    }
    close(fd);
    return 0;
}

static int by_direct_io(const char *path, size_t total)
{
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_DIRECT, 0644);
    if (fd < 0)
        return -1; /* tmpfs and some others refuse O_DIRECT */
    for (size_t off = 0; off < total; off += 16 * BLOCK)
        for (int k = 0; k < 16; k++)
            if (write(fd, block, BLOCK) != BLOCK) {
                close(fd);
                return -1;
            }
    close(fd);
    return 0;
}

/* What the O_DIRECT writer does (runtime-side/src/writer_dio.c): 32 blocks of 64 KiB gathered
 * into one pwritev, 2 MiB a call: a direct write's CPU is mostly a fixed price per call. */
static int by_direct_io_gathered(const char *path, size_t total)
{
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_DIRECT, 0644);
    if (fd < 0)
        return -1;
    struct iovec iov[32];
    for (int k = 0; k < 32; k++)
        iov[k] = (struct iovec){block, BLOCK};
    for (size_t off = 0; off < total; off += 32 * BLOCK)
        if (pwritev(fd, iov, 32, (off_t)off) != 32 * BLOCK) {
            close(fd);
            return -1;
        }
    close(fd);
    return 0;
}

static int by_memcpy(size_t total)
{
    static unsigned char target[BLOCK];
    for (size_t off = 0; off < total; off += BLOCK) {
        memcpy(target, block, BLOCK);
        __asm__ volatile("" : : "r"(target) : "memory");
    }
    return 0;
}

enum { WAY_MEMCPY, WAY_WRITE, WAY_FAULT, WAY_POPULATE, WAY_POPULATE_WRITE, WAY_DIRECT, WAY_DIRECT_GATHERED, N_WAYS };
static const char *const way_name[N_WAYS] = {
    "memcpy into a reused 64 KiB buffer (floor)",
    "write(2) 64 KiB blocks (page cache copy)",
    "shared mapping, a fault per new page",
    "shared mapping, MAP_POPULATE",
    "mapping, fallocate + MADV_POPULATE_WRITE",
    "O_DIRECT 64 KiB writes (no page cache)",
    "O_DIRECT, 32 blocks per pwritev (2 MiB)",
};

static int run_way(int way, const char *path, size_t total)
{
    switch (way) {
    case WAY_MEMCPY:
        return by_memcpy(total);
    case WAY_DIRECT_GATHERED:
        return by_direct_io_gathered(path, total);
    case WAY_WRITE:
        return by_write(path, total);
    case WAY_FAULT:
    case WAY_POPULATE:
    case WAY_POPULATE_WRITE:
        return by_mapping(path, total, way - WAY_FAULT);
    default:
        return by_direct_io(path, total);
    }
}

int main(int argc, char **argv)
{
    long mib;
    int runs;
    const char *dir;
    int usage = bench_mib_args(argc, argv, 256, "per run", &mib, &runs, &dir);
    if (usage)
        return usage;
    size_t total = (size_t)mib << 20;
    total -= total % WINDOW;
    if (posix_memalign((void **)&block, 4096, BLOCK) != 0)
        bench_die("posix_memalign");
    memset(block, 0x5a, BLOCK);
    char path[4096];
    snprintf(path, sizeof path, "%s/evgen-file-paths-%ld.bin", dir, (long)getpid());

    double wall[N_WAYS][64], cpu[N_WAYS][64];
    int failed[N_WAYS] = {0};
    for (int r = 0; r < runs; r++)
        for (int way = 0; way < N_WAYS; way++) {
            double t0 = bench_now_seconds(), c0 = bench_process_cpu_seconds();
            int rc = run_way(way, path, total);
            wall[way][r] = (bench_now_seconds() - t0) * 1e9 / (double)total;
            cpu[way][r] = (bench_process_cpu_seconds() - c0) * 1e9 / (double)total;
            unlink(path); /* outside the time: dropping dirty pages is not part of writing them */
            failed[way] |= rc != 0;
        }
    printf("file_paths_bench: %ld MiB per run into %s, median of %d runs\n", mib, dir, runs);
    printf("%-44s %10s %10s %12s\n", "", "wall ns/B", "CPU ns/B", "110-B event");
    for (int way = 0; way < N_WAYS; way++) {
        if (failed[way]) {
            printf("%-44s   (not supported here)\n", way_name[way]);
            continue;
        }
        double w = bench_median(wall[way], runs), c = bench_median(cpu[way], runs);
        printf("%-44s %10.3f %10.3f %9.1f ns\n", way_name[way], w, c, c * 118);
    }
    printf("(the last column: CPU for the 118 bytes a 110-byte event takes in the floor's file)\n");
    return 0;
}
