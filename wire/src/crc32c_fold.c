/* crc32c_fold.c — CRC-32C of a buffer by folding 16-byte lanes with carry-less multiplies
 * (PCLMULQDQ), the method of Intel's "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ"
 * written for the reflected Castagnoli polynomial. Four lanes run side by side over 64 bytes a round;
 * each fold is two independent multiplies, so the speed is the multiplier's issue rate, not the
 * crc32 instruction's (on the project's AMD EPYC, unloaded, a multiply issued about every 1.0 ns
 * covers 8 bytes, where a crc32 instruction every 1.2-1.5 ns does; the two share the core's
 * resources there, so running crc32 streams beside the lanes gained nothing). The last 128 bits are
 * reduced to the 32-bit register by two crc32 instructions, which also finish the tail and the short
 * buffers. Where the CPU has VPCLMULQDQ, one instruction multiplies two lanes at once with AVX2
 * (evgen_crc32c_vpclmul256), four with AVX-512 (evgen_crc32c_vpclmul, at the end): four times the
 * speed on Zen 4.
 *
 * Why the folding constants are what they are (bit order of a reflected CRC: the first bit of the
 * message is bit 0 of its first byte, and the polynomial's highest-degree term comes first):
 *  - 16 bytes loaded little-endian into a 128-bit register hold, at bit i, the coefficient of
 *    x^(127-i) of the polynomial B they form; the CRC register after a message M is M*x^32 mod P
 *    (an initial register is xored into the first 32 bits of the message).
 *  - An accumulator A followed by D more bits of message counts as A*x^D. Split A = H*x^64 + L (H is
 *    the low 64-bit half, L the high): A*x^D = H*x^(D+64) + L*x^D, which is congruent mod P to
 *    H*(x^(D+64) mod P) + L*(x^D mod P): a polynomial of degree < 96, so it fits in the 128 bits that
 *    end where the data D bits further ends, and xoring that data in carries the fold on.
 *  - PCLMULQDQ multiplies the bits as they lie; read back in the reflected convention, the product of
 *    a 64-bit half (bit i = x^(63-i)) by a constant held with bit j = x^(32-j) is the true product
 *    times x^32. So the constant for H is x^(D+32) mod P and for L x^(D-32) mod P, each stored as
 *    its 32-bit reflected form (bit j = x^(31-j), as the table and the crc32 instruction keep the
 *    register) shifted left one place.
 *  - D is 512 between rounds (4 lanes of 128 bits), 128 per lane afterwards, and 384/256/128 to
 *    gather the four lanes into one. x^n mod P is computed at first use by shifting x^0 left n times
 *    with the reduction the byte-wise table uses; tests/wire checks every length and alignment
 *    against that table, which no wrong constant survives.
 *  - Two crc32 instructions from a zero register over the final 128 bits A compute A*x^32 mod P,
 *    which is the register for everything folded so far. */
#include "crc32c_x86.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define POLY 0x82F63B78u

/* Four lanes need 64 bytes; a shorter buffer (a block header) is at most eight dependent crc32
 * instructions, fewer than folding would take. */
#define FOLD_MIN 64u

/* How far ahead of the folding its loops ask for the bytes (prefetch): on bytes read from memory
 * (a reader's blocks) the 32-byte folding went from 13.6 to 16.8 GB/s per 256 KiB block with 2 KiB
 * (1 KiB: 16.5, 4 KiB: 15.9; the Zen 4 guest of 2026-11-29, bench/crc32c_bench), where the
 * hardware's prefetcher alone left it waiting; a prefetch never faults, so it may run past the end. */
#define PREFETCH_AHEAD 2048

/* Each pair: the low half multiplies H, the high half L (see above). */
static struct {
    uint64_t fold128[2], fold256[2], fold384[2], fold512[2], fold1024[2], fold1536[2], fold2048[2];
} k;
static int k_state; /* evgen_crc32c_built */

/* x^n mod P, reflected: bit 31-d holds the coefficient of x^d. */
static uint32_t xpow_mod_p(unsigned n)
{
    uint32_t r = 0x80000000u; /* x^0 */
    while (n--)
        r = (r >> 1) ^ (POLY & (0u - (r & 1u)));
    return r;
}

static void fold_pair(uint64_t pair[2], unsigned distance)
{
    pair[0] = (uint64_t)xpow_mod_p(distance + 32) << 1;
    pair[1] = (uint64_t)xpow_mod_p(distance - 32) << 1;
}

static void build_constants(void)
{
    fold_pair(k.fold128, 128);
    fold_pair(k.fold256, 256);
    fold_pair(k.fold384, 384);
    fold_pair(k.fold512, 512);
    fold_pair(k.fold1024, 1024);
    fold_pair(k.fold1536, 1536);
    fold_pair(k.fold2048, 2048);
}

#define FOLD_TARGET __attribute__((target("pclmul,sse4.2")))

/* A carried `pair`'s distance forward: still to be xored with the data that ends there. */
FOLD_TARGET static inline __m128i carried(__m128i a, const uint64_t pair[2])
{
    __m128i kk = _mm_loadu_si128((const __m128i *)(const void *)pair);
    return _mm_xor_si128(_mm_clmulepi64_si128(a, kk, 0x00), _mm_clmulepi64_si128(a, kk, 0x11));
}

FOLD_TARGET static inline __m128i load16(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/* The four lanes (64 bytes in flight, `p` just past them) onto one, then the rest of the buffer. */
FOLD_TARGET static inline uint32_t finish_four_lanes(__m128i x0, __m128i x1, __m128i x2, __m128i x3,
                                                     const uint8_t *p, size_t n)
{
    for (; n >= 64; n -= 64, p += 64) {
        _mm_prefetch((const char *)(p + PREFETCH_AHEAD), _MM_HINT_T0);
        x0 = _mm_xor_si128(carried(x0, k.fold512), load16(p));
        x1 = _mm_xor_si128(carried(x1, k.fold512), load16(p + 16));
        x2 = _mm_xor_si128(carried(x2, k.fold512), load16(p + 32));
        x3 = _mm_xor_si128(carried(x3, k.fold512), load16(p + 48));
    }
    /* the four lanes onto the last one, in parallel */
    __m128i a = _mm_xor_si128(_mm_xor_si128(carried(x0, k.fold384), carried(x1, k.fold256)),
                              _mm_xor_si128(carried(x2, k.fold128), x3));
    for (; n >= 16; n -= 16, p += 16)
        a = _mm_xor_si128(carried(a, k.fold128), load16(p));
    uint64_t reg = __builtin_ia32_crc32di(0, (uint64_t)_mm_cvtsi128_si64(a));
    reg = __builtin_ia32_crc32di(reg, (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(a, a)));
    return ~evgen_crc32c_instr_run((uint32_t)reg, p, n);
}

FOLD_TARGET uint32_t evgen_crc32c_pclmul(uint32_t crc, const void *data, size_t n)
{
    const uint8_t *p = data;
    /* (While the constants are being built, the instruction does it all.) */
    if (n < FOLD_MIN || !evgen_crc32c_built(&k_state, build_constants))
        return ~evgen_crc32c_instr_run(~crc, p, n);
    __m128i x0 = _mm_xor_si128(load16(p), _mm_cvtsi32_si128((int)~crc));
    return finish_four_lanes(x0, load16(p + 16), load16(p + 32), load16(p + 48), p + 64, n - 64);
}

/* ---- 32-byte registers (AVX2 VPCLMULQDQ) ---------------------------------------------------
 * The same folding with each 256-bit register holding two 16-byte lanes, both multiplied by one
 * instruction, for the CPUs (and virtual machines: a Zen 4 guest without AVX-512 was seen) that
 * have VPCLMULQDQ but not AVX-512: four registers cover 128 bytes a round (D = 1024 per lane), the
 * first two are carried onto the last two (D = 512), whose four lanes then go on as the 128-bit
 * path's. */
#define YMM_TARGET __attribute__((target("pclmul,sse4.2,avx2,vpclmulqdq")))
#define YMM_MIN 128u

YMM_TARGET static inline __m256i ymm_pair(const uint64_t pair[2])
{
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)pair));
}

/* carried(a) xor d, in both lanes */
YMM_TARGET static inline __m256i ymm_fold(__m256i a, __m256i kk, __m256i d)
{
    return _mm256_xor_si256(_mm256_xor_si256(_mm256_clmulepi64_epi128(a, kk, 0x00), _mm256_clmulepi64_epi128(a, kk, 0x11)),
                            d);
}

YMM_TARGET static inline __m256i load32(const uint8_t *p)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

/* Four registers: 128 bytes in flight. */
typedef struct {
    __m256i y0, y1, y2, y3;
} ymm_lanes;

/* The first 128 bytes at P, the register REG xored into the first 32 bits. */
YMM_TARGET static inline ymm_lanes ymm_start(const uint8_t *p, uint32_t reg)
{
    ymm_lanes l = {_mm256_xor_si256(load32(p), _mm256_castsi128_si256(_mm_cvtsi32_si128((int)reg))), load32(p + 32),
                   load32(p + 64), load32(p + 96)};
    return l;
}

/* The next 128 bytes at P folded in (k1024: the constants for D = 1024). */
YMM_TARGET static inline void ymm_round(ymm_lanes *l, __m256i k1024, const uint8_t *p)
{
    l->y0 = ymm_fold(l->y0, k1024, load32(p));
    l->y1 = ymm_fold(l->y1, k1024, load32(p + 32));
    l->y2 = ymm_fold(l->y2, k1024, load32(p + 64));
    l->y3 = ymm_fold(l->y3, k1024, load32(p + 96));
}

/* The first two registers carried onto the last two, whose four lanes go on over the N bytes at P
 * as the 128-bit path's; returns the final checksum (finish_four_lanes). */
YMM_TARGET static inline uint32_t ymm_finish(ymm_lanes l, const uint8_t *p, size_t n)
{
    __m256i k512 = ymm_pair(k.fold512);
    __m256i y2 = ymm_fold(l.y0, k512, l.y2), y3 = ymm_fold(l.y1, k512, l.y3);
    return finish_four_lanes(_mm256_castsi256_si128(y2), _mm256_extracti128_si256(y2, 1), _mm256_castsi256_si128(y3),
                             _mm256_extracti128_si256(y3, 1), p, n);
}

YMM_TARGET uint32_t evgen_crc32c_vpclmul256(uint32_t crc, const void *data, size_t n)
{
    const uint8_t *p = data;
    if (n < YMM_MIN || !evgen_crc32c_built(&k_state, build_constants))
        return evgen_crc32c_pclmul(crc, data, n);
    ymm_lanes l = ymm_start(p, ~crc);
    p += 128;
    n -= 128;
    __m256i k1024 = ymm_pair(k.fold1024);
    for (; n >= 128; n -= 128, p += 128) {
        _mm_prefetch((const char *)(p + PREFETCH_AHEAD), _MM_HINT_T0);
        _mm_prefetch((const char *)(p + PREFETCH_AHEAD + 64), _MM_HINT_T0);
        ymm_round(&l, k1024, p);
    }
    return ymm_finish(l, p, n);
}

/* ---- 32-byte registers beside three crc32 streams -----------------------------------------
 * The carry-less multiplier and the crc32 instruction are different units: on the Zen 4 guest of
 * 2026-11-29 the folding alone ran at 25.5 GB/s per 64 KiB block (the multiplier's issue rate), and
 * with three crc32 streams in the same loop at 36.8 (bench/crc32c_bench; 33.6 against 25.2 per 4 KiB
 * block). So each stretch of HYB_CHUNK bytes (3,968) is cut in four: the first HYB_ROUNDS * 128
 * bytes are folded as above while three streams checksum the three equal pieces after them, 40
 * bytes each per round of the fold; the four registers are then joined with the map "past a
 * piece's length of zeros" (crc32c_x86.h). What is left after the last whole stretch goes to the
 * folding alone. Longer stretches ran ~4% faster on 64 KiB and not at all on 4 KiB blocks. */
#define HYB_ROUNDS 16u
#define HYB_STREAM_ROUND 40u /* bytes of each stream per round */
#define HYB_STREAM_LEN (HYB_ROUNDS * HYB_STREAM_ROUND)
#define HYB_CHUNK (HYB_ROUNDS * (128u + 3u * HYB_STREAM_ROUND))

static evgen_crc32c_zeros hyb_zeros;
static int hyb_zeros_state;

static void build_hyb_zeros(void)
{
    evgen_crc32c_zeros_build(&hyb_zeros, HYB_STREAM_LEN);
}

typedef struct {
    uint64_t a, b, d;
} three_streams;

YMM_TARGET static inline uint64_t word_at(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* One round of the three streams, interleaved by hand: three independent chains in flight, where
 * a loop per stream left each a chain of dependent instructions (gcc kept the loops). */
YMM_TARGET static inline void streams_round(three_streams *s, const uint8_t *pa, const uint8_t *pb, const uint8_t *pd)
{
#define STREAMS_WORD(i)                                              \
    s->a = __builtin_ia32_crc32di(s->a, word_at(pa + 8 * (i)));     \
    s->b = __builtin_ia32_crc32di(s->b, word_at(pb + 8 * (i)));     \
    s->d = __builtin_ia32_crc32di(s->d, word_at(pd + 8 * (i)))
    STREAMS_WORD(0);
    STREAMS_WORD(1);
    STREAMS_WORD(2);
    STREAMS_WORD(3);
    STREAMS_WORD(4);
#undef STREAMS_WORD
}

YMM_TARGET uint32_t evgen_crc32c_vpclmul256_streams(uint32_t crc, const void *data, size_t n)
{
    const uint8_t *p = data;
    if (n < HYB_CHUNK || !evgen_crc32c_built(&k_state, build_constants) ||
        !evgen_crc32c_built(&hyb_zeros_state, build_hyb_zeros))
        return evgen_crc32c_vpclmul256(crc, data, n);
    __m256i k1024 = ymm_pair(k.fold1024);
    uint32_t reg = ~crc;
    for (; n >= HYB_CHUNK; n -= HYB_CHUNK, p += HYB_CHUNK) {
        const uint8_t *sa = p + HYB_ROUNDS * 128u, *sb = sa + HYB_STREAM_LEN, *sd = sb + HYB_STREAM_LEN;
        ymm_lanes l = ymm_start(p, reg);
        three_streams st = {0, 0, 0};
        streams_round(&st, sa, sb, sd);
        for (unsigned r = 1; r < HYB_ROUNDS; r++) {
            ymm_round(&l, k1024, p + 128u * r);
            streams_round(&st, sa + HYB_STREAM_ROUND * r, sb + HYB_STREAM_ROUND * r, sd + HYB_STREAM_ROUND * r);
        }
        uint32_t folded = ~ymm_finish(l, p, 0);
        reg = evgen_crc32c_zeros_apply(&hyb_zeros, folded) ^ (uint32_t)st.a;
        reg = evgen_crc32c_zeros_apply(&hyb_zeros, reg) ^ (uint32_t)st.b;
        reg = evgen_crc32c_zeros_apply(&hyb_zeros, reg) ^ (uint32_t)st.d;
    }
    return evgen_crc32c_vpclmul256(~reg, p, n);
}

/* ---- 64-byte registers (AVX-512 VPCLMULQDQ) ------------------------------------------------
 * The same folding with each 512-bit register holding four 16-byte lanes, all multiplied by one
 * instruction: four registers cover 256 bytes a round (D = 2048 per lane), are gathered into one
 * (D = 1536, 1024, 512), whose four lanes then go on as the 128-bit path's. */
#define WIDE_TARGET __attribute__((target("pclmul,sse4.2,avx512f,vpclmulqdq")))
#define WIDE_MIN 256u

WIDE_TARGET static inline __m512i wide_pair(const uint64_t pair[2])
{
    return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)pair));
}

/* carried(a) xor d, in every lane */
WIDE_TARGET static inline __m512i wide_fold(__m512i a, __m512i kk, __m512i d)
{
    return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(a, kk, 0x00), _mm512_clmulepi64_epi128(a, kk, 0x11),
                                     d, 0x96); /* a ^ b ^ c */
}

WIDE_TARGET static inline __m512i load64(const uint8_t *p)
{
    return _mm512_loadu_si512((const void *)p);
}

WIDE_TARGET uint32_t evgen_crc32c_vpclmul(uint32_t crc, const void *data, size_t n)
{
    const uint8_t *p = data;
    if (n < WIDE_MIN || !evgen_crc32c_built(&k_state, build_constants))
        return evgen_crc32c_pclmul(crc, data, n);
    __m512i y0 = _mm512_xor_si512(load64(p), _mm512_castsi128_si512(_mm_cvtsi32_si128((int)~crc)));
    __m512i y1 = load64(p + 64), y2 = load64(p + 128), y3 = load64(p + 192);
    p += 256;
    n -= 256;
    __m512i k2048 = wide_pair(k.fold2048);
    for (; n >= 256; n -= 256, p += 256) {
        y0 = wide_fold(y0, k2048, load64(p));
        y1 = wide_fold(y1, k2048, load64(p + 64));
        y2 = wide_fold(y2, k2048, load64(p + 128));
        y3 = wide_fold(y3, k2048, load64(p + 192));
    }
    /* the four registers onto the last one */
    __m512i y = wide_fold(y0, wide_pair(k.fold1536), wide_fold(y1, wide_pair(k.fold1024), wide_fold(y2, wide_pair(k.fold512), y3)));
    return finish_four_lanes(_mm512_extracti32x4_epi32(y, 0), _mm512_extracti32x4_epi32(y, 1),
                             _mm512_extracti32x4_epi32(y, 2), _mm512_extracti32x4_epi32(y, 3), p, n);
}
#else
typedef int evgen_crc32c_fold_is_x86_only; /* ISO C wants a declaration in every file */
#endif
