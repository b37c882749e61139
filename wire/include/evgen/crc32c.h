/* evgen/crc32c.h — the trace's checksum: CRC-32C (Castagnoli, reflected polynomial 0x82F63B78,
 * initial value and final xor 0xFFFFFFFF), computed with the CPU's crc32 instruction where it
 * has one (SSE 4.2 on x86-64), else with a table. Chosen over zlib's CRC-32 because the writer
 * checksums every byte of the trace and the instruction is about twice as fast. */
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

/* The same, a byte at a time with a table, whatever the CPU: the reference the fast paths are
 * tested against (tests/wire), and the benchmark's baseline. */
uint32_t evgen_crc32c_bytewise(uint32_t crc, const void *p, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_CRC32C_H */
