/* crc32c_x86.h — what crc32c.c and crc32c_fold.c share on x86-64: the SSE 4.2 crc32 instruction
 * over a run of bytes, and the folding path's entry point. Internal to libevgen-wire. */
#ifndef EVGEN_CRC32C_X86_H
#define EVGEN_CRC32C_X86_H

/* One-time set-up (a table, constants) that any thread, or a signal handler, may be the first to
 * need, without a lock: the first caller claims it and builds it; a caller that finds it being
 * built (another thread, or a handler that interrupted the builder) is told so and takes a path
 * that needs nothing built. What is built is written by one thread only and published by the
 * release store, so no two threads ever write the same bytes (ThreadSanitizer saw that race when
 * racing threads each built the tables, idempotently, as before). Returns whether it is built. */
enum { EVGEN_CRC32C_UNBUILT = 0, EVGEN_CRC32C_BUILDING = 1, EVGEN_CRC32C_BUILT = 2 };

static inline int evgen_crc32c_built(int *state, void (*build)(void))
{
    int seen = __atomic_load_n(state, __ATOMIC_ACQUIRE);
    if (seen == EVGEN_CRC32C_BUILT)
        return 1;
    if (seen != EVGEN_CRC32C_UNBUILT ||
        !__atomic_compare_exchange_n(state, &seen, EVGEN_CRC32C_BUILDING, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return 0;
    build();
    __atomic_store_n(state, EVGEN_CRC32C_BUILT, __ATOMIC_RELEASE);
    return 1;
}

#if defined(__x86_64__)
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Continues the CRC register `reg` (the working value, not inverted) over `n` bytes at `p`: eight
 * at a time, then four, two, one. */
__attribute__((target("sse4.2"))) static inline uint32_t evgen_crc32c_instr_run(uint32_t reg, const uint8_t *p,
                                                                                size_t n)
{
    uint64_t c = reg;
    for (; n >= 8; n -= 8, p += 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        c = __builtin_ia32_crc32di(c, v);
    }
    uint32_t c32 = (uint32_t)c;
    if (n >= 4) {
        uint32_t v;
        memcpy(&v, p, 4);
        c32 = __builtin_ia32_crc32si(c32, v);
        p += 4;
        n -= 4;
    }
    if (n >= 2) {
        uint16_t v;
        memcpy(&v, p, 2);
        c32 = __builtin_ia32_crc32hi(c32, v);
        p += 2;
        n -= 2;
    }
    if (n)
        c32 = __builtin_ia32_crc32qi(c32, *p);
    return c32;
}

/* The linear map "the register after `bytes` more zero bytes", as four 256-entry tables (the image
 * of a register is the xor of its four bytes' images): it joins the registers of pieces checksummed
 * side by side, each from zero but the first: the register after A then B is A's mapped past B's
 * length, xored with B's. */
typedef struct {
    uint32_t t[4][256];
} evgen_crc32c_zeros;

/* Fills Z for BYTES (a multiple of 8) zero bytes; the CPU must have SSE 4.2 (crc32c.c). */
void evgen_crc32c_zeros_build(evgen_crc32c_zeros *z, size_t bytes);

static inline uint32_t evgen_crc32c_zeros_apply(const evgen_crc32c_zeros *z, uint32_t reg)
{
    return z->t[0][reg & 0xffu] ^ z->t[1][reg >> 8 & 0xffu] ^ z->t[2][reg >> 16 & 0xffu] ^ z->t[3][reg >> 24];
}

/* evgen_crc32c with PCLMULQDQ folding (crc32c_fold.c); the CPU must have PCLMULQDQ and SSE 4.2. */
uint32_t evgen_crc32c_pclmul(uint32_t crc, const void *p, size_t n);
/* The same folding two lanes to a 32-byte register; the CPU must have AVX2 and VPCLMULQDQ too. */
uint32_t evgen_crc32c_vpclmul256(uint32_t crc, const void *p, size_t n);
/* The 32-byte folding of one part of each stretch beside three crc32 streams over the rest: both
 * units of the core at work. Same CPU as evgen_crc32c_vpclmul256. */
uint32_t evgen_crc32c_vpclmul256_streams(uint32_t crc, const void *p, size_t n);
/* The same folding four lanes to a 64-byte register; the CPU must have AVX-512F and VPCLMULQDQ too. */
uint32_t evgen_crc32c_vpclmul(uint32_t crc, const void *p, size_t n);
#endif

#endif /* EVGEN_CRC32C_X86_H */
