/* bytes.h — the reader's little-endian loads and LEB128 varints, bounded by the end of what they
 * read. Not installed. */
#ifndef EVGEN_READER_BYTES_H
#define EVGEN_READER_BYTES_H

#include <stdint.h>

/* A little-endian integer of 1, 2, 4 or 8 bytes (others: 0). */
static inline uint64_t rd_load(const uint8_t *p, unsigned n)
{
    switch (n) {
    case 1:
        return p[0];
    case 2:
        return (uint64_t)p[0] | ((uint64_t)p[1] << 8);
    case 4:
        return (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) | ((uint64_t)p[3] << 24);
    case 8: {
        uint64_t lo = (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) | ((uint64_t)p[3] << 24);
        uint64_t hi = (uint64_t)p[4] | ((uint64_t)p[5] << 8) | ((uint64_t)p[6] << 16) | ((uint64_t)p[7] << 24);
        return lo | (hi << 32);
    }
    default:
        return 0;
    }
}

static inline uint16_t rd_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t rd_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline uint64_t rd_le64(const uint8_t *p)
{
    return (uint64_t)rd_le32(p) | ((uint64_t)rd_le32(p + 4) << 32);
}

/* Reads an unsigned LEB128 varint at *p, below `end`. Returns 0 and advances *p, or -1 if it runs
 * past `end`, is longer than 10 bytes or overflows 64 bits. */
static inline int rd_varint(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
    const uint8_t *q = *p;
    if (q < end && *q < 0x80) { /* the common case: one byte */
        *out = *q;
        *p = q + 1;
        return 0;
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < 10; i++) {
        if (q >= end)
            return -1;
        uint8_t b = *q++;
        if (i == 9 && b > 1)
            return -1; /* bits beyond 64 */
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            *out = v;
            *p = q;
            return 0;
        }
    }
    return -1;
}

static inline int64_t rd_unzigzag(uint64_t z)
{
    return (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
}

#endif /* EVGEN_READER_BYTES_H */
