/* bytes.c — a growable byte string with the trace's encodings: varint, zigzag varint, string. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int evgen_rt_bytes_reserve(rt_bytes *b, size_t n)
{
    if (b->failed)
        return -1;
    if (b->cap - b->len >= n)
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

void evgen_rt_bytes_raw(rt_bytes *b, const void *p, size_t n)
{
    if (n == 0 || evgen_rt_bytes_reserve(b, n) != 0)
        return;
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

void evgen_rt_bytes_varint(rt_bytes *b, uint64_t v)
{
    uint8_t tmp[10];
    size_t n = (size_t)(evgen_put_varint(tmp, v) - tmp);
    evgen_rt_bytes_raw(b, tmp, n);
}

void evgen_rt_bytes_zigzag(rt_bytes *b, int64_t v)
{
    evgen_rt_bytes_varint(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

void evgen_rt_bytes_string(rt_bytes *b, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    evgen_rt_bytes_varint(b, n);
    evgen_rt_bytes_raw(b, s, n);
}

void evgen_rt_bytes_free(rt_bytes *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}
