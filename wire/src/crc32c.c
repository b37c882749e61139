/* crc32c.c — CRC-32C for block checksums: the SSE 4.2 instruction when the CPU has it, chosen
 * once at first use, else a byte-wise table. */
#include "evgen/crc32c.h"

#include <string.h>

#define POLY 0x82F63B78u

static uint32_t table[256];
static int table_ready;

static void build_table(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (POLY & (0u - (c & 1u)));
        table[i] = c;
    }
    __atomic_store_n(&table_ready, 1, __ATOMIC_RELEASE);
}

static uint32_t crc32c_table(uint32_t crc, const uint8_t *p, size_t n)
{
    if (!__atomic_load_n(&table_ready, __ATOMIC_ACQUIRE))
        build_table(); /* idempotent: racing threads write the same values */
    crc = ~crc;
    while (n--)
        crc = table[(crc ^ *p++) & 0xffu] ^ (crc >> 8);
    return ~crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42(uint32_t crc, const uint8_t *p, size_t n)
{
    uint64_t c = ~crc;
    while (n >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        c = __builtin_ia32_crc32di(c, v);
        p += 8;
        n -= 8;
    }
    uint32_t c32 = (uint32_t)c;
    while (n--)
        c32 = __builtin_ia32_crc32qi(c32, *p++);
    return ~c32;
}
#endif

typedef uint32_t (*crc_fn)(uint32_t, const uint8_t *, size_t);
static crc_fn chosen;

static crc_fn choose(void)
{
    crc_fn fn = crc32c_table;
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse4.2"))
        fn = crc32c_sse42;
#endif
    __atomic_store_n(&chosen, fn, __ATOMIC_RELEASE);
    return fn;
}

uint32_t evgen_crc32c(uint32_t crc, const void *p, size_t n)
{
    crc_fn fn = __atomic_load_n(&chosen, __ATOMIC_ACQUIRE);
    if (!fn)
        fn = choose();
    return fn(crc, (const uint8_t *)p, n);
}
