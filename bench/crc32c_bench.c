/* crc32c_bench.c — what the block checksum costs: evgen_crc32c (the CPU's instruction, three
 * interleaved streams on a long buffer) and the byte-wise table, over 64 KiB blocks (the writer's
 * block size), beside the floor measured in the same run: a memcpy of the same block (memory speed
 * for a block that stays in cache). Prints, per variant, the median of RUNS runs of ns per block,
 * GB/s and ns per 110-byte event's share.
 *   crc32c_bench [BLOCKS] [RUNS]   (defaults: 20000 blocks, 7 runs) */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "evgen/crc32c.h"

#define BLOCK 65536u
#define EVENT_BYTES 110.0 /* GCHeapStats v2's payload, emit_bench's event */

static uint8_t block[BLOCK], copy[BLOCK];
static volatile uint32_t sink;

typedef enum { FLOOR_MEMCPY, CRC_FAST, CRC_BYTEWISE, N_VARIANTS } variant;
static const char *const names[N_VARIANTS] = {"floor: memcpy", "evgen_crc32c", "bytewise table"};

static double run(variant v, long blocks)
{
    double t0 = bench_now_seconds();
    uint32_t c = 0;
    for (long i = 0; i < blocks; i++) {
        block[i & 63] = (uint8_t)i; /* a different block each time */
        if (v == FLOOR_MEMCPY) {
            memcpy(copy, block, BLOCK);
            c ^= copy[i & (BLOCK - 1)];
        } else if (v == CRC_FAST) {
            c ^= evgen_crc32c(0, block, BLOCK);
        } else {
            c ^= evgen_crc32c_bytewise(0, block, BLOCK);
        }
    }
    sink = c;
    return (bench_now_seconds() - t0) / (double)blocks * 1e9;
}

int main(int argc, char **argv)
{
    long blocks = argc > 1 ? atol(argv[1]) : 20000;
    int runs = argc > 2 ? atoi(argv[2]) : 7;
    if (blocks <= 0 || runs <= 0 || runs > 99) {
        fprintf(stderr, "usage: crc32c_bench [BLOCKS] [RUNS]\n");
        return 2;
    }
    for (unsigned i = 0; i < BLOCK; i++)
        block[i] = (uint8_t)(i * 2654435761u >> 13);
    double ns[N_VARIANTS][99];
    for (int r = 0; r < runs; r++) /* interleaved, so that the host's load falls on every variant */
        for (int v = 0; v < N_VARIANTS; v++)
            ns[v][r] = run((variant)v, v == CRC_BYTEWISE ? blocks / 10 + 1 : blocks);
    double floor = bench_median(ns[FLOOR_MEMCPY], runs);
    printf("64 KiB blocks, median of %d runs\n", runs);
    printf("%-16s %12s %8s %14s %10s\n", "variant", "ns/block", "GB/s", "ns/110B event", "x floor");
    for (int v = 0; v < N_VARIANTS; v++) {
        double m = bench_median(ns[v], runs);
        printf("%-16s %12.0f %8.2f %14.2f %10.2f\n", names[v], m, BLOCK / m, m / (BLOCK / EVENT_BYTES), m / floor);
    }
    return 0;
}
