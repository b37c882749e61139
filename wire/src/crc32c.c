/* crc32c.c — CRC-32C for block checksums, and the choice, once at first use, of how to compute it:
 * on x86-64 with AVX-512 and VPCLMULQDQ, 64-byte registers of four 16-byte lanes folded with
 * carry-less multiplies; with AVX2 and VPCLMULQDQ, 32-byte registers of two lanes, and for bytes in
 * the cache (evgen_crc32c_cached, the writer's) the same beside three crc32 streams; with PCLMULQDQ
 * and SSE 4.2, one lane per register (all in crc32c_fold.c); with SSE 4.2 alone, the crc32
 * instruction, a long buffer as three interleaved streams (where the instruction's latency is three
 * times its issue interval, Intel's cores, one dependent chain leaves two thirds of the unit idle);
 * else a byte-wise table, which is also the tests' reference. On the project's AMD EPYC (Zen 1)
 * bench/crc32c_bench measured the 16-byte folding at 1.6-1.7 times the streams' speed per 64 KiB
 * block, 2 times per 4 KiB block, 1.4 times per 118-byte record, and the three streams 16 % faster
 * than one on 64 KiB; on its Zen 4 host of 2026-11-27 the 64-byte folding ran at 58 GB/s per 64 KiB
 * block, 4.0 times the 16-byte folding and 2.3 times the streams (which outran the 16-byte folding
 * there: 24.7 against 14.6 GB/s). The streams' registers are joined by the linear map "append
 * STRIDE zero bytes" (crc32c_x86.h), applied with four 256-entry tables. */
#include "evgen/crc32c.h"

#include <string.h>

#include "crc32c_x86.h"

#define POLY 0x82F63B78u

static uint32_t table[256];
static int table_state;

/* The register after one more bit of message: the definition, which the table applies 8 bits at once. */
static uint32_t next_bit(uint32_t c)
{
    return (c >> 1) ^ (POLY & (0u - (c & 1u)));
}

static void build_table(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = next_bit(c);
        table[i] = c;
    }
}

uint32_t evgen_crc32c_bytewise(uint32_t crc, const void *data, size_t n)
{
    const uint8_t *p = data;
    crc = ~crc;
    if (!evgen_crc32c_built(&table_state, build_table)) { /* being built meanwhile: bit by bit */
        while (n--) {
            crc ^= *p++;
            for (int k = 0; k < 8; k++)
                crc = next_bit(crc);
        }
        return ~crc;
    }
    while (n--)
        crc = table[(crc ^ *p++) & 0xffu] ^ (crc >> 8);
    return ~crc;
}


#if defined(__x86_64__)
/* The bytes each of the three streams covers per round; a buffer shorter than three of them, and
 * what is left after the last whole round, go through one stream. */
#define STRIDE 2048u

static evgen_crc32c_zeros stride_zeros; /* joins the three streams' registers */
static int stride_zeros_state;

static void build_stride_zeros(void)
{
    evgen_crc32c_zeros_build(&stride_zeros, STRIDE);
}

__attribute__((target("sse4.2"))) void evgen_crc32c_zeros_build(evgen_crc32c_zeros *z, size_t bytes)
{
    uint32_t column[32]; /* the image of each single bit */
    for (int i = 0; i < 32; i++) {
        uint64_t c = (uint64_t)1u << i;
        for (size_t w = 0; w < bytes / 8; w++)
            c = __builtin_ia32_crc32di(c, 0);
        column[i] = (uint32_t)c;
    }
    for (int k = 0; k < 4; k++)
        for (uint32_t b = 0; b < 256; b++) {
            uint32_t v = 0;
            for (int i = 0; i < 8; i++)
                if (b >> i & 1)
                    v ^= column[8 * k + i];
            z->t[k][b] = v;
        }
}

/* One stream of the instruction, whatever the length. */
__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42(uint32_t crc, const void *data, size_t n)
{
    return ~evgen_crc32c_instr_run(~crc, data, n);
}

__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42_3way(uint32_t crc, const void *data, size_t n)
{
    const uint8_t *p = data;
    uint64_t c = ~crc;
    /* (While the map is being built, one stream does it all.) */
    if (n >= 3 * STRIDE && evgen_crc32c_built(&stride_zeros_state, build_stride_zeros)) {
        do {
            uint64_t a = c, b = 0, d = 0;
            for (size_t i = 0; i < STRIDE; i += 8) { /* three independent chains */
                uint64_t va, vb, vd;
                memcpy(&va, p + i, 8);
                memcpy(&vb, p + STRIDE + i, 8);
                memcpy(&vd, p + 2 * STRIDE + i, 8);
                a = __builtin_ia32_crc32di(a, va);
                b = __builtin_ia32_crc32di(b, vb);
                d = __builtin_ia32_crc32di(d, vd);
            }
            /* the register after A B D: B's from A's register shifted past B, then D's */
            c = evgen_crc32c_zeros_apply(&stride_zeros,
                                         evgen_crc32c_zeros_apply(&stride_zeros, (uint32_t)a) ^ (uint32_t)b) ^
                (uint32_t)d;
            p += 3 * STRIDE;
            n -= 3 * STRIDE;
        } while (n >= 3 * STRIDE);
    }
    return ~evgen_crc32c_instr_run((uint32_t)c, p, n);
}
#endif

static const char *const path_names[EVGEN_CRC32C_N_PATHS] = {"bytewise", "sse4.2", "sse4.2 3-way",
                                                            "pclmul fold", "vpclmul256 fold", "vpclmul fold",
                                                            "vpclmul256 fold + crc32"};

const char *evgen_crc32c_path_name(evgen_crc32c_path path)
{
    return (unsigned)path < EVGEN_CRC32C_N_PATHS ? path_names[path] : NULL;
}

evgen_crc32c_fn evgen_crc32c_path_fn(evgen_crc32c_path path)
{
    switch (path) {
    case EVGEN_CRC32C_BYTEWISE:
        return evgen_crc32c_bytewise;
    case EVGEN_CRC32C_SSE42:
    case EVGEN_CRC32C_SSE42_3WAY:
    case EVGEN_CRC32C_PCLMUL:
    case EVGEN_CRC32C_VPCLMUL256:
    case EVGEN_CRC32C_VPCLMUL:
    case EVGEN_CRC32C_VPCLMUL256_STREAMS:
#if defined(__x86_64__)
        __builtin_cpu_init();
        if (!__builtin_cpu_supports("sse4.2"))
            return NULL;
        if (path == EVGEN_CRC32C_SSE42)
            return crc32c_sse42;
        if (path == EVGEN_CRC32C_SSE42_3WAY)
            return crc32c_sse42_3way;
        if (!__builtin_cpu_supports("pclmul"))
            return NULL;
        if (path == EVGEN_CRC32C_PCLMUL)
            return evgen_crc32c_pclmul;
        if (!__builtin_cpu_supports("vpclmulqdq"))
            return NULL;
        if (path == EVGEN_CRC32C_VPCLMUL256)
            return __builtin_cpu_supports("avx2") ? evgen_crc32c_vpclmul256 : NULL;
        if (path == EVGEN_CRC32C_VPCLMUL256_STREAMS)
            return __builtin_cpu_supports("avx2") ? evgen_crc32c_vpclmul256_streams : NULL;
        return __builtin_cpu_supports("avx512f") ? evgen_crc32c_vpclmul : NULL;
#else
        return NULL;
#endif
    case EVGEN_CRC32C_N_PATHS:
        break;
    }
    return NULL;
}

/* The function in *SLOT, chosen at first use: the first path of PREFERRED (N of them) the CPU has,
 * else the table. Racing first calls choose the same. */
static evgen_crc32c_fn chosen_in(evgen_crc32c_fn *slot, const evgen_crc32c_path *preferred, size_t n)
{
    evgen_crc32c_fn fn = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (fn)
        return fn;
    for (size_t i = 0; !fn; i++)
        fn = i < n ? evgen_crc32c_path_fn(preferred[i]) : evgen_crc32c_bytewise;
    __atomic_store_n(slot, fn, __ATOMIC_RELEASE);
    return fn;
}

uint32_t evgen_crc32c(uint32_t crc, const void *p, size_t n)
{
    /* Each faster than the ones after it on bytes read from memory. */
    static const evgen_crc32c_path preferred[] = {EVGEN_CRC32C_VPCLMUL, EVGEN_CRC32C_VPCLMUL256, EVGEN_CRC32C_PCLMUL,
                                                     EVGEN_CRC32C_SSE42_3WAY};
    static evgen_crc32c_fn chosen;
    return chosen_in(&chosen, preferred, sizeof preferred / sizeof preferred[0])(crc, p, n);
}

uint32_t evgen_crc32c_cached(uint32_t crc, const void *p, size_t n)
{
    /* The same, but the streams beside the 32-byte folding, which are faster in the cache and slower
     * from memory (docs/performance-log.md, "The checksum"). */
    static const evgen_crc32c_path preferred[] = {EVGEN_CRC32C_VPCLMUL, EVGEN_CRC32C_VPCLMUL256_STREAMS,
                                                     EVGEN_CRC32C_PCLMUL, EVGEN_CRC32C_SSE42_3WAY};
    static evgen_crc32c_fn chosen;
    return chosen_in(&chosen, preferred, sizeof preferred / sizeof preferred[0])(crc, p, n);
}
