/* folio_bench.c — what write(2) into the page cache costs per byte by the size and alignment of the
 * pieces, which decide the size of the page cache's folios (docs/performance.md, "The page cache's
 * folios"): 64 KiB + 48 (the blocks of a 64 KiB buffer: unaligned, small folios), and pieces of 64
 * KiB, 128 KiB, 256 KiB (evgen's default block) and 1 MiB laid end to end from offset 0 (aligned:
 * folios of that size).
 *
 * Each piece size writes MIB to a new file from a reused buffer, after IDLE seconds of sleep, and
 * the file is removed. IDLE = 0 measures memory the previous write has just freed ("warm"); on a
 * virtual machine whose balloon reports free memory to the host (free page reporting), a few
 * seconds of idleness let the freed memory go back to the host, and the next write pays the host's
 * faults ("cold"), which large folios pay more of. Wall and process CPU ns per byte, median of RUNS.
 * Usage: folio_bench [MIB per write >= 16] [RUNS 1..64] [IDLE seconds 0..60] [DIR] */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"

static const size_t piece_sizes[] = {65536 + 48, 65536, 131072, 262144, 1048576};
enum { N_SIZES = sizeof piece_sizes / sizeof piece_sizes[0], MAX_PIECE = 1048576 };

/* Writes TOTAL bytes in pieces of SIZE to PATH; wall and CPU ns per byte. */
static void one_write(const char *path, size_t total, size_t size, const unsigned char *piece, double *wall,
                      double *cpu)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        perror(path);
        exit(1);
    }
    double t0 = bench_now_seconds(), c0 = bench_process_cpu_seconds();
    size_t at = 0;
    for (; at + size <= total; at += size)
        if (pwrite(fd, piece, size, (off_t)at) != (ssize_t)size) {
            perror("pwrite");
            exit(1);
        }
    *wall = (bench_now_seconds() - t0) * 1e9 / (double)at;
    *cpu = (bench_process_cpu_seconds() - c0) * 1e9 / (double)at;
    close(fd);
    unlink(path);
}

int main(int argc, char **argv)
{
    long mib = argc > 1 ? atol(argv[1]) : 512;
    int runs = argc > 2 ? atoi(argv[2]) : 3, idle = argc > 3 ? atoi(argv[3]) : 0;
    const char *dir = bench_dir_arg(argc, argv, 4);
    if (mib < 16 || runs < 1 || runs > 64 || idle < 0 || idle > 60) {
        fprintf(stderr, "usage: %s [MIB per write >= 16] [RUNS 1..64] [IDLE seconds 0..60] [DIR]\n", argv[0]);
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/folio_bench.%d", dir, (int)getpid());
    unsigned char *piece = malloc(MAX_PIECE);
    if (!piece)
        return 1;
    memset(piece, 0x5a, MAX_PIECE);
    static double wall[N_SIZES][64], cpu[N_SIZES][64];
    for (int k = 0; k < runs; k++) /* every size once per round, in the same order */
        for (int i = 0; i < N_SIZES; i++) {
            if (idle)
                sleep((unsigned)idle);
            one_write(path, (size_t)mib << 20, piece_sizes[i], piece, &wall[i][k], &cpu[i][k]);
        }
    printf("folio_bench: %ld MiB per write into %s, each after %d s idle, median of %d runs\n\n", mib, dir, idle,
           runs);
    printf("%-34s %10s %10s %14s\n", "pieces written end to end", "wall ns/B", "CPU ns/B", "110-B event");
    for (int i = 0; i < N_SIZES; i++) {
        double c = bench_median(cpu[i], runs);
        char name[64];
        snprintf(name, sizeof name, "%zu bytes%s", piece_sizes[i], piece_sizes[i] % 4096 ? " (unaligned)" : "");
        printf("%-34s %10.3f %10.3f %11.1f ns\n", name, bench_median(wall[i], runs), c, c * 111.1);
    }
    printf("(the last column: CPU for the 111.1 bytes a GCHeapStats event takes in evgen's file)\n");
    free(piece);
    return 0;
}
