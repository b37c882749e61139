/* dump_out.h — the output of `evgen dump` and `evgen export --perfetto`: one large buffer written
 * to a file descriptor, number formatting by hand (the dump's hot path), and quoted strings escaped
 * for text or JSON. Nothing here allocates per event. In core/ so that tools/ and export/ share it.
 * Not installed. */
#ifndef EVGEN_READER_DUMP_OUT_H
#define EVGEN_READER_DUMP_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "evgen/wire_bytes.h"

#define OUT_SIZE (1u << 20)
#define ROOM 128 /* bytes one number, GUID or escape needs at most */

typedef struct dump_buffer {
    char *buf, *p, *end;
    int fd;
    int error; /* errno of the first failed write */
    /* In memory (`memory` set, no fd): what a flush takes from buf is kept here, for a caller that
     * writes it out later, in its place among other buffers' (tools/dump_pipeline.c). */
    int memory;
    char *spill;
    size_t spill_len, spill_cap;
} dump_buffer;

/* Writes out what the buffer holds (or, in memory, moves it to spill); the first failure is kept
 * in o->error. */
void out_flush(dump_buffer *o);

/* Writes out o's pending bytes, then a memory buffer's whole text (its spill, then its buffer) in
 * order, and empties `from`; a failure of either is kept in o->error. */
void out_write_buffer(dump_buffer *o, dump_buffer *from);

/* At least `n` (<= OUT_SIZE) bytes of room at o->p. */
static inline char *room(dump_buffer *o, size_t n)
{
    if ((size_t)(o->end - o->p) < n)
        out_flush(o);
    return o->p;
}

static inline void put(dump_buffer *o, const char *s, size_t n)
{
    while (n) {
        if (o->p == o->end)
            out_flush(o);
        size_t k = (size_t)(o->end - o->p) < n ? (size_t)(o->end - o->p) : n;
        memcpy(o->p, s, k);
        o->p += k;
        s += k;
        n -= k;
    }
}

static inline void puts_(dump_buffer *o, const char *s)
{
    put(o, s, strlen(s));
}

static inline void putc_(dump_buffer *o, char c)
{
    if (o->p == o->end)
        out_flush(o);
    *o->p++ = c;
}

/* Copies a rendered prefix: short ones in 16-byte steps (rendered buffers are zeroed and have
 * room to spare, so reading past `n` stays inside them), with no call into the C library. */
static inline void put_rendered(dump_buffer *o, const char *s, size_t n)
{
    if (n > 64) {
        put(o, s, n);
        return;
    }
    char *w = room(o, 80);
    for (size_t i = 0; i < n; i += 16)
        memcpy(w + i, s + i, 16);
    o->p = w + n;
}

/* The same through a write pointer `w` the caller keeps in a local (o->p is behind it): where
 * the text ends. A loop that stores through o->p reloads it after every byte, for a char store
 * may alias it; one that writes many short items keeps its own pointer and these, and hands it
 * back (o->p = w) before calling anything that writes through o->p. */
static inline char *room_at(dump_buffer *o, char *w, size_t n)
{
    if ((size_t)(o->end - w) < n) {
        o->p = w;
        out_flush(o);
        w = o->p;
    }
    return w;
}

static inline char *put_rendered_at(dump_buffer *o, char *w, const char *s, size_t n)
{
    if (n > 64) {
        o->p = w;
        put(o, s, n);
        return o->p;
    }
    w = room_at(o, w, 80);
    for (size_t i = 0; i < n; i += 16)
        memcpy(w + i, s + i, 16);
    return w + n;
}

/* ---- numbers ------------------------------------------------------------------------------ */

static const char digits2[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                              "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                              "8081828384858687888990919293949596979899";

/* Decimal digits of v (1 for 0): log10 from the bit length, corrected by one comparison. */
static inline unsigned decimal_length(uint64_t v)
{
    static const uint64_t p10[20] = {1ull,
                                     10ull,
                                     100ull,
                                     1000ull,
                                     10000ull,
                                     100000ull,
                                     1000000ull,
                                     10000000ull,
                                     100000000ull,
                                     1000000000ull,
                                     10000000000ull,
                                     100000000000ull,
                                     1000000000000ull,
                                     10000000000000ull,
                                     100000000000000ull,
                                     1000000000000000ull,
                                     10000000000000000ull,
                                     100000000000000000ull,
                                     1000000000000000000ull,
                                     10000000000000000000ull};
    v |= 1;
    unsigned t = ((64u - (unsigned)__builtin_clzll(v)) * 1233u) >> 12;
    return t + (v >= p10[t]);
}

static inline char *fmt_u64(char *w, uint64_t v)
{
    if (v < 100) { /* counts, generations, ids, flags: most fields of most events */
        if (v < 10) {
            *w = (char)('0' + v);
            return w + 1;
        }
        memcpy(w, &digits2[2 * v], 2);
        return w + 2;
    }
    unsigned n = decimal_length(v);
    char *t = w + n;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        t -= 2;
        t[0] = digits2[2 * r];
        t[1] = digits2[2 * r + 1];
    }
    if (v >= 10) {
        t[-2] = digits2[2 * v];
        t[-1] = digits2[2 * v + 1];
    } else {
        t[-1] = (char)('0' + v);
    }
    return w + n;
}

static inline char *fmt_i64(char *w, int64_t v)
{
    if (v < 0) {
        *w++ = '-';
        return fmt_u64(w, 0 - (uint64_t)v);
    }
    return fmt_u64(w, (uint64_t)v);
}

static const char hexdigits[] = "0123456789abcdef";

static inline char *fmt_hex(char *w, uint64_t v, int width)
{
    char tmp[16];
    int n = 0;
    do {
        tmp[n++] = hexdigits[v & 15];
        v >>= 4;
    } while (v || n < width);
    while (n)
        *w++ = tmp[--n];
    return w;
}

/* A GUID's 16 bytes as text: 8-4-4-4-12 hex digits, the first three groups little-endian (36 bytes). */
static inline char *fmt_guid(char *w, const uint8_t *p)
{
    w = fmt_hex(w, evgen_wire_le32(p), 8);
    *w++ = '-';
    w = fmt_hex(w, evgen_wire_le16(p + 4), 4);
    *w++ = '-';
    w = fmt_hex(w, evgen_wire_le16(p + 6), 4);
    *w++ = '-';
    for (int i = 8; i < 16; i++) {
        if (i == 10)
            *w++ = '-';
        *w++ = hexdigits[p[i] >> 4];
        *w++ = hexdigits[p[i] & 15];
    }
    return w;
}

/* A float32 or float64 value of `kind` at `p` with enough digits to read back the same value; in
 * JSON, which has no such numbers, NaN and the infinities as the strings JavaScript prints. */
char *fmt_float(char *w, unsigned kind, const uint8_t *p, int json);

/* A bool8 or bool32 value: true or false, or the number a bool32 holds beside 0 and 1. */
static inline char *fmt_bool(char *w, uint64_t v)
{
    if (v > 1)
        return fmt_u64(w, v);
    memcpy(w, v ? "true" : "false", 5);
    return w + (v ? 4 : 5);
}

/* A pointer as 0x and its hex digits, quoted in JSON (JSON numbers would lose 64-bit addresses). */
static inline char *fmt_pointer(char *w, uint64_t v, int json)
{
    if (json)
        *w++ = '"';
    *w++ = '0';
    *w++ = 'x';
    w = fmt_hex(w, v, 1);
    if (json)
        *w++ = '"';
    return w;
}

static inline void put_u64(dump_buffer *o, uint64_t v)
{
    char *w = room(o, ROOM);
    o->p = fmt_u64(w, v);
}

/* ---- strings ------------------------------------------------------------------------------ */

/* A quoted string from UTF-8 bytes: invalid bytes become \xNN in text, U+FFFD in JSON. */
void put_utf8(dump_buffer *o, const uint8_t *s, size_t n, int json);
/* The same characters without the quotes, for a string written in pieces. */
void put_utf8_chars(dump_buffer *o, const uint8_t *s, size_t n, int json);
/* A quoted string from UTF-16LE units: unpaired surrogates become U+FFFD. */
void put_utf16(dump_buffer *o, const uint8_t *s, size_t units, int json);
/* A NUL-terminated name, as a JSON string. */
void put_json_string(dump_buffer *o, const char *s);

#endif
