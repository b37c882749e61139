/* golden_values.c — the deterministic values of golden traces and test harnesses (splitmix64 of
 * FNV-1a hashes of the names). Changing anything here invalidates every golden trace: never do. */
#include "golden_values.h"

#include <string.h>

#include "evgen/wire_kinds.h"

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

uint64_t evgen_golden_member_value(uint64_t array_value, uint32_t element, uint32_t member)
{
    return mix(array_value ^ mix(((uint64_t)element << 32 | member) + 1));
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

static void put_le(void (*put)(void *ctx, const void *p, size_t n), void *ctx, uint64_t v, unsigned n)
{
    uint8_t bytes[8];
    for (unsigned i = 0; i < n && i < 8; i++)
        bytes[i] = (uint8_t)(v >> (8 * i));
    put(ctx, bytes, n < 8 ? n : 8);
}

void evgen_golden_scalar(unsigned kind, unsigned size, uint64_t v, void (*put)(void *ctx, const void *p, size_t n),
                         void *ctx)
{
    switch (evgen_wire_kind_class(kind)) {
    case EVGEN_WIRE_CLASS_UTF8:
        for (size_t k = 0; k < evgen_golden_string_length(v); k++) {
            char c = evgen_golden_utf8_char(v, k);
            put(ctx, &c, 1);
        }
        put(ctx, "", 1);
        break;
    case EVGEN_WIRE_CLASS_UTF16:
        for (size_t k = 0; k < evgen_golden_string_length(v); k++)
            put_le(put, ctx, evgen_golden_utf16_unit(v, k), 2);
        put_le(put, ctx, 0, 2);
        break;
    case EVGEN_WIRE_CLASS_FLOAT:
        if (size == 4) {
            float x = (float)evgen_golden_real(v);
            put(ctx, &x, 4);
        } else {
            double x = evgen_golden_real(v);
            put(ctx, &x, 8);
        }
        break;
    case EVGEN_WIRE_CLASS_BOOL:
        put_le(put, ctx, v & 1, size);
        break;
    case EVGEN_WIRE_CLASS_GUID:
        for (size_t k = 0; k < 16; k++) {
            uint8_t b = evgen_golden_byte(v, k + 3);
            put(ctx, &b, 1);
        }
        break;
    case EVGEN_WIRE_CLASS_UNSIGNED:
    case EVGEN_WIRE_CLASS_SIGNED:
    case EVGEN_WIRE_CLASS_POINTER:
    case EVGEN_WIRE_CLASS_STRUCT:
        put_le(put, ctx, v, size);
        break;
    }
}

uint64_t evgen_golden_expected_bits(unsigned kind, uint64_t v, unsigned size)
{
    evgen_wire_class cls = evgen_wire_kind_class(kind);
    if (cls == EVGEN_WIRE_CLASS_FLOAT) { /* the accessor's value as a double */
        double d = size == 4 ? (double)(float)evgen_golden_real(v) : evgen_golden_real(v);
        uint64_t bits;
        memcpy(&bits, &d, 8);
        return bits;
    }
    if (cls == EVGEN_WIRE_CLASS_BOOL)
        return v & 1;
    uint64_t truncated = size >= 8 ? v : v & ((1ull << (8 * size)) - 1);
    if (cls == EVGEN_WIRE_CLASS_SIGNED && size < 8 && (truncated >> (8 * size - 1)) & 1)
        truncated |= ~0ull << (8 * size); /* signed fields come back sign-extended */
    return truncated;
}
