/* evgen/wire_bytes.h — the encodings every part of the wire format is built of (docs/format.md,
 * "Encodings"): little-endian integers, LEB128 varints, zigzag, length-prefixed strings; and a
 * growable byte string to encode into. Loads and the varint encoder are inline: the emit fast
 * path (runtime_emit.h) and the reader's hot loops use them. Compiles as C99 and C++. */
#ifndef EVGEN_WIRE_BYTES_H
#define EVGEN_WIRE_BYTES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most bytes a varint of 64 bits takes. */
#define EVGEN_WIRE_VARINT_MAX 10u

/* ---- little-endian loads and stores ------------------------------------------------------- */

static inline uint16_t evgen_wire_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t evgen_wire_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline uint64_t evgen_wire_le64(const uint8_t *p)
{
    return (uint64_t)evgen_wire_le32(p) | ((uint64_t)evgen_wire_le32(p + 4) << 32);
}

/* A little-endian unsigned integer of 1, 2, 4 or 8 bytes (other sizes: 0). */
static inline uint64_t evgen_wire_load(const uint8_t *p, unsigned n)
{
    switch (n) {
    case 1: return p[0];
    case 2: return evgen_wire_le16(p);
    case 4: return evgen_wire_le32(p);
    case 8: return evgen_wire_le64(p);
    default: return 0;
    }
}

/* The same, as a two's-complement signed integer of that size. */
static inline int64_t evgen_wire_load_signed(const uint8_t *p, unsigned n)
{
    uint64_t v = evgen_wire_load(p, n);
    if (n && n < 8 && (v >> (8 * n - 1)) & 1)
        v |= ~(uint64_t)0 << (8 * n);
    return (int64_t)v;
}

static inline void evgen_wire_put_le16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void evgen_wire_put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline void evgen_wire_put_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* ---- varints ---------------------------------------------------------------------------- */

/* Writes `v` as an unsigned LEB128 varint at `p` (room for EVGEN_WIRE_VARINT_MAX bytes); returns
 * the byte after it. */
static inline uint8_t *evgen_wire_put_varint(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

static inline uint64_t evgen_wire_zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t evgen_wire_unzigzag(uint64_t z)
{
    return (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
}

/* Reads an unsigned LEB128 varint at *p, below `end`. Returns 0 and advances *p, or -1 if it runs
 * past `end`, is longer than 10 bytes or overflows 64 bits. */
static inline int evgen_wire_get_varint(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
    const uint8_t *q = *p;
    if (q < end && *q < 0x80) { /* the common case: one byte */
        *out = *q;
        *p = q + 1;
        return 0;
    }
    if (end - q >= 2 && q[1] < 0x80) { /* two (a time delta of 64 ns to 8 us) */
        *out = (uint64_t)(q[0] & 0x7f) | (uint64_t)q[1] << 7;
        *p = q + 2;
        return 0;
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < EVGEN_WIRE_VARINT_MAX; i++) {
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

/* ---- a growable byte string ------------------------------------------------------------- */

/* Bytes being encoded. Zero-initialize it; after a failed allocation every append is ignored
 * and `failed` is set, so an encoder checks once at the end. */
typedef struct evgen_wire_buf {
    uint8_t *data;
    size_t len, cap;
    int failed;
} evgen_wire_buf;

void evgen_wire_buf_raw(evgen_wire_buf *b, const void *p, size_t n);
void evgen_wire_buf_varint(evgen_wire_buf *b, uint64_t v);
void evgen_wire_buf_zigzag(evgen_wire_buf *b, int64_t v);
/* A string: its varint length, then its bytes (no terminator); NULL is written as "". */
void evgen_wire_buf_string(evgen_wire_buf *b, const char *s);
void evgen_wire_buf_le32(evgen_wire_buf *b, uint32_t v);
/* Makes room for `n` more bytes; 0, or -1 (and `failed`) if memory runs out. */
int evgen_wire_buf_reserve(evgen_wire_buf *b, size_t n);
void evgen_wire_buf_free(evgen_wire_buf *b);

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_WIRE_BYTES_H */
