/* evgen/crc32c.h — the trace's checksum: CRC-32C (Castagnoli, reflected polynomial 0x82F63B78,
 * initial value and final xor 0xFFFFFFFF), computed with carry-less multiplies (PCLMULQDQ, VPCLMULQDQ) and the
 * crc32 instruction where the CPU has them (x86-64), else with a table. Chosen over zlib's CRC-32
 * because the writer checksums every byte of the trace and the instruction is about twice as fast. */
#ifndef EVGEN_CRC32C_H
#define EVGEN_CRC32C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Continues `crc` (0 to start) over `n` bytes at `p`. evgen_crc32c(0, "123456789", 9) is
 * 0xE3069283. Thread-safe. */
uint32_t evgen_crc32c(uint32_t crc, const void *p, size_t n);

/* The same checksum, computed the fastest way for bytes in the caller's cache (a block it has just
 * written): where the CPU has VPCLMULQDQ with AVX2 but not AVX-512, the folding beside three crc32
 * streams (EVGEN_CRC32C_VPCLMUL256_STREAMS), 1.3-1.45 times evgen_crc32c's speed on bytes in the
 * cache and half of it on bytes read from memory, as a reader's are; elsewhere evgen_crc32c.
 * Thread-safe. */
uint32_t evgen_crc32c_cached(uint32_t crc, const void *p, size_t n);

/* The same, a byte at a time with a table, whatever the CPU: the reference the fast paths are
 * tested against (tests/wire), and the benchmark's baseline. */
uint32_t evgen_crc32c_bytewise(uint32_t crc, const void *p, size_t n);

/* The implementations evgen_crc32c and evgen_crc32c_cached choose among, named so that the tests
 * can check each against the table and the benchmark can time each. */
typedef enum {
    EVGEN_CRC32C_BYTEWISE,    /* the table, any CPU */
    EVGEN_CRC32C_SSE42,       /* one stream of the SSE 4.2 crc32 instruction */
    EVGEN_CRC32C_SSE42_3WAY,  /* three interleaved streams of it on long buffers */
    EVGEN_CRC32C_PCLMUL,      /* 16-byte lanes folded with PCLMULQDQ, short buffers as SSE42 */
    EVGEN_CRC32C_VPCLMUL256,  /* the same, two lanes per AVX2 register (VPCLMULQDQ), short buffers as PCLMUL */
    EVGEN_CRC32C_VPCLMUL,     /* the same, four lanes per AVX-512 register (VPCLMULQDQ), short buffers as PCLMUL */
    EVGEN_CRC32C_VPCLMUL256_STREAMS, /* VPCLMUL256 beside three crc32 streams, each on its share of
                                      * every 3,968 bytes; what is left as VPCLMUL256 */
    EVGEN_CRC32C_N_PATHS
} evgen_crc32c_path;

typedef uint32_t (*evgen_crc32c_fn)(uint32_t crc, const void *p, size_t n);

/* The function of `path` (same contract as evgen_crc32c), or NULL when this CPU or build lacks the
 * instructions it needs. Thread-safe. */
evgen_crc32c_fn evgen_crc32c_path_fn(evgen_crc32c_path path);

/* "bytewise", "sse4.2", "sse4.2 3-way", "pclmul fold", "vpclmul256 fold", "vpclmul fold",
 * "vpclmul256 fold + crc32"; NULL past the last path. */
const char *evgen_crc32c_path_name(evgen_crc32c_path path);

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_CRC32C_H */
