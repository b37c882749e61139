/* crc32c_bench.c — what the block checksum costs: each implementation evgen_crc32c can choose
 * (evgen_crc32c_path_fn: byte-wise table, one crc32 instruction stream, three interleaved streams,
 * the carry-less folding in 16-, 32- and 64-byte registers, the 32-byte folding beside crc32
 * streams), evgen_crc32c itself and evgen_crc32c_cached (the writer's, for blocks it has just
 * written), over 64 KiB blocks, 4 KiB blocks and 118-byte records (a GCHeapStats event with its
 * record header) that stay in the cache, and over 256 KiB blocks (the writer's block size) read from
 * memory, as a reader reads a trace (a 256 MiB buffer, each block once per pass), beside the floor
 * measured in the same run: a memcpy of the same bytes. Prints, per shape and variant, the median of
 * RUNS runs of ns per call, GB/s, the ratio to the floor and the speed-up over the three streams. A
 * path the CPU lacks is left out.
 *   crc32c_bench [MIB_PER_RUN] [RUNS]   (defaults: 256 MiB checksummed per run, 7 runs) */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "evgen/crc32c.h"

#define BLOCK 65536u
#define MEMORY_BLOCK 262144u
#define MEMORY_BYTES (256u << 20) /* more than any cache */
#define MAX_RUNS 99

static uint8_t block[BLOCK], copy[MEMORY_BLOCK];
static uint8_t *memory; /* MEMORY_BYTES */
static volatile uint32_t sink;

/* The floor, called as the checksums are so that the 118-byte figures carry the same call. */
static __attribute__((noinline)) uint32_t copy_floor(uint32_t crc, const void *p, size_t n)
{
    memcpy(copy, p, n);
    return crc ^ copy[n / 2];
}

typedef struct {
    const char *name;
    evgen_crc32c_fn fn;
    int slow; /* runs a tenth of the calls */
} variant;

/* ns per call of `fn` over `size` bytes, `calls` times, walking the block so that records start at
 * every alignment, or, for blocks from memory, walking the whole of `memory`. */
static double run(evgen_crc32c_fn fn, size_t size, long calls, int from_memory)
{
    uint8_t *base = from_memory ? memory : block;
    size_t span = (from_memory ? MEMORY_BYTES : BLOCK) - size + 1, offset = 0;
    uint32_t c = 0;
    double t0 = bench_now_seconds();
    for (long i = 0; i < calls; i++) {
        if (!from_memory)
            block[offset] = (uint8_t)i; /* different bytes each time */
        c ^= fn((uint32_t)i, base + offset, size); /* independent calls, as blocks are */
        offset = (offset + size) % span;
    }
    sink = c;
    return (bench_now_seconds() - t0) / (double)calls * 1e9;
}

int main(int argc, char **argv)
{
    long mib = argc > 1 ? atol(argv[1]) : 256;
    int runs = argc > 2 ? atoi(argv[2]) : 7;
    if (mib <= 0 || runs <= 0 || runs > MAX_RUNS) {
        fprintf(stderr, "usage: crc32c_bench [MIB_PER_RUN >= 1] [RUNS 1..%d]\n", MAX_RUNS);
        return 2;
    }
    for (unsigned i = 0; i < BLOCK; i++)
        block[i] = (uint8_t)(i * 2654435761u >> 13);
    memory = malloc(MEMORY_BYTES);
    if (!memory) {
        fprintf(stderr, "crc32c_bench: no memory for %u MiB\n", MEMORY_BYTES >> 20);
        return 1;
    }
    for (size_t i = 0; i < MEMORY_BYTES; i++)
        memory[i] = (uint8_t)(i * 2654435761u >> 13);

    variant v[EVGEN_CRC32C_N_PATHS + 3];
    int n_variants = 0, three_way = -1;
    v[n_variants++] = (variant){"floor: memcpy", copy_floor, 0};
    for (int p = 0; p < EVGEN_CRC32C_N_PATHS; p++) {
        evgen_crc32c_fn fn = evgen_crc32c_path_fn((evgen_crc32c_path)p);
        if (!fn) {
            printf("(%s: not on this CPU)\n", evgen_crc32c_path_name((evgen_crc32c_path)p));
            continue;
        }
        if (p == EVGEN_CRC32C_SSE42_3WAY)
            three_way = n_variants;
        v[n_variants++] = (variant){evgen_crc32c_path_name((evgen_crc32c_path)p), fn, p == EVGEN_CRC32C_BYTEWISE};
    }
    v[n_variants++] = (variant){"evgen_crc32c", evgen_crc32c, 0};
    v[n_variants++] = (variant){"evgen_crc32c_cached", evgen_crc32c_cached, 0};

    static const struct {
        const char *label;
        size_t size;
        int from_memory;
    } shapes[] = {{"64 KiB blocks", BLOCK, 0},
                  {"4 KiB blocks", 4096, 0},
                  {"118-byte records", 118, 0},
                  {"256 KiB blocks read from memory (a reader's)", MEMORY_BLOCK, 1}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        size_t size = shapes[s].size;
        long calls = (long)((size_t)mib * 1048576 / size);
        static double ns[EVGEN_CRC32C_N_PATHS + 3][MAX_RUNS];
        for (int r = 0; r < runs; r++) /* interleaved, so that the host's load falls on every variant */
            for (int k = 0; k < n_variants; k++)
                ns[k][r] = run(v[k].fn, size, v[k].slow ? calls / 10 + 1 : calls, shapes[s].from_memory);
        double median[EVGEN_CRC32C_N_PATHS + 3];
        for (int k = 0; k < n_variants; k++)
            median[k] = bench_median(ns[k], runs);
        printf("%s%s, median of %d runs\n", s ? "\n" : "", shapes[s].label, runs);
        printf("%-24s %10s %8s %9s %9s\n", "variant", "ns/call", "GB/s", "x floor", "x 3-way");
        for (int k = 0; k < n_variants; k++) {
            printf("%-24s %10.1f %8.2f %9.2f", v[k].name, median[k], (double)size / median[k], median[k] / median[0]);
            if (three_way >= 0 && k > 0)
                printf(" %9.2f", median[three_way] / median[k]);
            printf("\n");
        }
    }
    return 0;
}
