/* golden_values.c — the deterministic values of golden traces and test harnesses (splitmix64 of
 * FNV-1a hashes of the names). Changing anything here invalidates every golden trace: never do. */
#include "golden_values.h"

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t hash_string(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

uint64_t evgen_golden_value(const char *event, unsigned version, const char *field)
{
    return mix(hash_string(event) ^ mix(version + 1) ^ (hash_string(field) * 31));
}

uint32_t evgen_golden_count(const char *event, unsigned version, const char *count_field)
{
    return (uint32_t)(evgen_golden_value(event, version, count_field) % 4);
}

size_t evgen_golden_string_length(uint64_t value)
{
    return value % 3 == 0 ? 0 : value % 3 == 1 ? 5 : 300;
}

char evgen_golden_utf8_char(uint64_t value, size_t i)
{
    return (char)('a' + (value + i * 7) % 26);
}

uint16_t evgen_golden_utf16_unit(uint64_t value, size_t i)
{
    static const uint16_t extra[] = {0x00e9, 0x4e2d, 0x0416}; /* é, 中, Ж: real UTF-16 */
    return i % 11 == 10 ? extra[(value + i) % 3] : (uint16_t)('a' + (value + i * 7) % 26);
}

uint8_t evgen_golden_byte(uint64_t value, size_t i)
{
    return (uint8_t)((value >> (8 * (i % 8))) ^ i);
}

double evgen_golden_real(uint64_t value)
{
    return (double)(value % 1000000) / 4.0;
}
