/* bytes.c — the growable byte string of evgen/wire_bytes.h. */
#include <stdlib.h>
#include <string.h>

#include "evgen/wire_bytes.h"

int evgen_wire_buf_reserve(evgen_wire_buf *b, size_t n)
{
    if (b->failed)
        return -1;
    if (n <= b->cap - b->len)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < n) {
        if (cap > SIZE_MAX / 2) {
            b->failed = 1;
            return -1;
        }
        cap *= 2;
    }
    uint8_t *data = realloc(b->data, cap);
    if (!data) {
        b->failed = 1;
        return -1;
    }
    b->data = data;
    b->cap = cap;
    return 0;
}

void evgen_wire_buf_raw(evgen_wire_buf *b, const void *p, size_t n)
{
    if (n == 0 || evgen_wire_buf_reserve(b, n) != 0)
        return;
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

void evgen_wire_buf_varint(evgen_wire_buf *b, uint64_t v)
{
    uint8_t tmp[EVGEN_WIRE_VARINT_MAX];
    evgen_wire_buf_raw(b, tmp, (size_t)(evgen_wire_put_varint(tmp, v) - tmp));
}

void evgen_wire_buf_zigzag(evgen_wire_buf *b, int64_t v)
{
    evgen_wire_buf_varint(b, evgen_wire_zigzag(v));
}

void evgen_wire_buf_string(evgen_wire_buf *b, const char *s)
{
    size_t n = s ? strlen(s) : 0; /* a descriptor's missing name is written as "" */
    evgen_wire_buf_varint(b, n);
    evgen_wire_buf_raw(b, s, n);
}

void evgen_wire_buf_le32(evgen_wire_buf *b, uint32_t v)
{
    uint8_t tmp[4];
    evgen_wire_put_le32(tmp, v);
    evgen_wire_buf_raw(b, tmp, 4);
}

void evgen_wire_buf_free(evgen_wire_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}
