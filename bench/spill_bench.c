/* spill_bench.c — can a thread write through the page cache into a file while another thread
 * writes the same file with O_DIRECT? The question behind letting emitters *spill* their blocks
 * through the page cache when the O_DIRECT writer is behind the disk (docs/performance-log.md, "Tried
 * in the ninth round"): spills help only if they do not wait for the direct writes.
 *
 * One thread writes 256 KiB pieces with pwrite(2) (the page cache) at places it reserves in the
 * file; beside it, another writes 1 MiB pieces with O_DIRECT at the next places, in one of the ways
 * a writer could: synchronously (pwrite), or asynchronously (Linux AIO: io_submit, then
 * io_getevents), each into a file that grows as it is written or into space allocated ahead
 * (fallocate, which also sets the file's size; or FALLOC_FL_KEEP_SIZE, which does not). On ext4 a
 * buffered write takes the inode lock, which a synchronous direct write holds until the device is
 * done, and so does one that extends the file. Printed per way, median of RUNS: the buffered
 * thread's GB/s, its longest pwrite, and the direct thread's GB/s meanwhile.
 * Usage: spill_bench [RUNS 1..64] [DIR] */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench_common.h"

enum { DIRECT_PIECE = 1 << 20, BUFFERED_PIECE = 256 << 10, BUFFERED_PIECES = 1200, FILE_MAX = 1 << 30 };

typedef enum { ALONE, SYNC, SYNC_ALLOCATED, ASYNC, ASYNC_ALLOCATED, ASYNC_KEEP_SIZE, N_WAYS } way;

static const char *const way_names[N_WAYS] = {
    "buffered alone",
    "beside synchronous direct writes",
    "  the same, space allocated ahead",
    "beside asynchronous direct writes (AIO)",
    "  the same, space allocated ahead",
    "  the same, allocated, size kept (KEEP_SIZE)",
};

typedef struct run {
    way how;
    int fd, direct_fd;
    uint64_t next; /* the next free place in the file (atomic) */
    int stop;      /* atomic */
    uint64_t direct_bytes;
    const char *error; /* what failed, or NULL */
} run;

static void *direct_writer(void *arg)
{
    run *r = arg;
    uint8_t *buf = NULL;
    aio_context_t ctx = 0;
    int async = r->how >= ASYNC;
    if (posix_memalign((void **)&buf, 4096, DIRECT_PIECE) != 0) {
        r->error = "posix_memalign";
        return NULL;
    }
    memset(buf, 0xd1, DIRECT_PIECE);
    if (async && syscall(SYS_io_setup, 4, &ctx) != 0) {
        r->error = "io_setup";
        free(buf);
        return NULL;
    }
    while (!__atomic_load_n(&r->stop, __ATOMIC_RELAXED)) {
        uint64_t at = __atomic_fetch_add(&r->next, DIRECT_PIECE, __ATOMIC_RELAXED);
        if (at + DIRECT_PIECE > FILE_MAX)
            break;
        long wrote;
        if (!async) {
            wrote = pwrite(r->direct_fd, buf, DIRECT_PIECE, (off_t)at);
        } else {
            struct iocb cb;
            memset(&cb, 0, sizeof cb);
            cb.aio_fildes = (uint32_t)r->direct_fd;
            cb.aio_lio_opcode = IOCB_CMD_PWRITE;
            cb.aio_buf = (uint64_t)(uintptr_t)buf;
            cb.aio_nbytes = DIRECT_PIECE;
            cb.aio_offset = (int64_t)at;
            struct iocb *list[1] = {&cb};
            struct io_event ev;
            if (syscall(SYS_io_submit, ctx, 1, list) != 1 || syscall(SYS_io_getevents, ctx, 1, 1, &ev, NULL) != 1)
                wrote = -1;
            else
                wrote = (long)ev.res;
        }
        if (wrote != DIRECT_PIECE) {
            r->error = "a direct write";
            break;
        }
        r->direct_bytes += DIRECT_PIECE;
    }
    if (async)
        syscall(SYS_io_destroy, ctx);
    free(buf);
    return NULL;
}

typedef struct figure {
    double buffered_gbps, worst_ms, direct_gbps;
} figure;

/* One run of HOW into PATH; 0, or -1 (the reason printed) when this system cannot. */
static int one_run(way how, const char *path, const uint8_t *piece, figure *out)
{
    run r;
    memset(&r, 0, sizeof r);
    r.how = how;
    r.fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    r.direct_fd = how == ALONE ? -1 : open(path, O_RDWR | O_DIRECT);
    if (r.fd < 0 || (how != ALONE && r.direct_fd < 0)) {
        fprintf(stderr, "%s: %s: %s\n", way_names[how], path, strerror(errno));
        return -1;
    }
    int allocate = how == SYNC_ALLOCATED || how == ASYNC_ALLOCATED || how == ASYNC_KEEP_SIZE;
    if (allocate && fallocate(r.fd, how == ASYNC_KEEP_SIZE ? FALLOC_FL_KEEP_SIZE : 0, 0, FILE_MAX) != 0) {
        fprintf(stderr, "%s: fallocate: %s\n", way_names[how], strerror(errno));
        return -1;
    }
    pthread_t direct;
    if (how != ALONE && pthread_create(&direct, NULL, direct_writer, &r) != 0)
        return -1;
    double t0 = bench_now_seconds(), worst = 0;
    uint64_t bytes = 0;
    for (int i = 0; i < BUFFERED_PIECES; i++) {
        uint64_t at = __atomic_fetch_add(&r.next, BUFFERED_PIECE, __ATOMIC_RELAXED);
        if (at + BUFFERED_PIECE > FILE_MAX)
            break;
        double a = bench_now_seconds();
        if (pwrite(r.fd, piece, BUFFERED_PIECE, (off_t)at) != BUFFERED_PIECE) {
            perror("pwrite");
            exit(1);
        }
        double took = bench_now_seconds() - a;
        worst = took > worst ? took : worst;
        bytes += BUFFERED_PIECE;
    }
    double wall = bench_now_seconds() - t0;
    __atomic_store_n(&r.stop, 1, __ATOMIC_RELAXED);
    if (how != ALONE)
        pthread_join(direct, NULL);
    if (r.direct_fd >= 0)
        close(r.direct_fd);
    close(r.fd);
    unlink(path);
    if (r.error) {
        fprintf(stderr, "%s: %s failed\n", way_names[how], r.error);
        return -1;
    }
    *out = (figure){(double)bytes / wall / 1e9, worst * 1e3, (double)r.direct_bytes / wall / 1e9};
    return 0;
}

int main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 5;
    const char *dir = bench_dir_arg(argc, argv, 2);
    if (runs < 1 || runs > 64) {
        fprintf(stderr, "usage: %s [RUNS 1..64] [DIR]\n", argv[0]);
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/spill_bench.%d", dir, (int)getpid());
    uint8_t *piece = malloc(BUFFERED_PIECE);
    if (!piece)
        return 1;
    memset(piece, 0xb2, BUFFERED_PIECE);
    static double buffered[N_WAYS][64], worst[N_WAYS][64], direct[N_WAYS][64];
    int failed[N_WAYS] = {0};
    for (int k = 0; k < runs; k++) /* every way once per round, in the same order */
        for (int w = 0; w < N_WAYS; w++) {
            figure f = {0, 0, 0};
            if (!failed[w] && one_run((way)w, path, piece, &f) != 0)
                failed[w] = 1;
            buffered[w][k] = f.buffered_gbps;
            worst[w][k] = f.worst_ms;
            direct[w][k] = f.direct_gbps;
        }
    printf("spill_bench: %d pwrites of %d KiB beside %d KiB direct writes to the same file in %s, median of %d "
           "runs\n\n",
           BUFFERED_PIECES, BUFFERED_PIECE >> 10, DIRECT_PIECE >> 10, dir, runs);
    printf("%-46s %12s %12s %12s\n", "", "buffered", "longest", "direct");
    printf("%-46s %12s %12s %12s\n", "", "GB/s", "pwrite ms", "GB/s");
    for (int w = 0; w < N_WAYS; w++) {
        if (failed[w]) {
            printf("%-46s %12s\n", way_names[w], "(cannot here)");
            continue;
        }
        printf("%-46s %12.2f %12.2f %12.2f\n", way_names[w], bench_median(buffered[w], runs),
               bench_median(worst[w], runs), bench_median(direct[w], runs));
    }
    free(piece);
    return 0;
}
