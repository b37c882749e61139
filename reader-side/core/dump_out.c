/* dump_out.c — the output buffer of dump and export, and its quoted strings (dump_out.h). */
#include "dump_out.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evgen/wire_bytes.h"
#include "evgen/wire_kinds.h"

/* Writes n bytes at q to o's descriptor, unless o has failed. */
static void write_all(dump_buffer *o, const char *q, size_t n)
{
    while (n && !o->error) {
        ssize_t k = write(o->fd, q, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            o->error = k < 0 ? errno : EIO;
        else
            q += k, n -= (size_t)k;
    }
}

/* Memory: the buffer's bytes appended to the spill, which doubles as it needs. */
static void spill(dump_buffer *o)
{
    size_t n = (size_t)(o->p - o->buf);
    if (o->spill_len + n > o->spill_cap && !o->error) {
        size_t cap = o->spill_cap ? o->spill_cap : n;
        while (cap < o->spill_len + n)
            cap *= 2;
        char *grown = realloc(o->spill, cap);
        if (grown) {
            o->spill = grown;
            o->spill_cap = cap;
        } else {
            o->error = ENOMEM;
        }
    }
    if (!o->error) {
        memcpy(o->spill + o->spill_len, o->buf, n);
        o->spill_len += n;
    }
}

void out_flush(dump_buffer *o)
{
    if (o->memory)
        spill(o);
    else
        write_all(o, o->buf, (size_t)(o->p - o->buf));
    o->p = o->buf;
}

void out_write_buffer(dump_buffer *o, dump_buffer *from)
{
    out_flush(o);
    if (from->error && !o->error)
        o->error = from->error;
    write_all(o, from->spill, from->spill_len);
    write_all(o, from->buf, (size_t)(from->p - from->buf));
    from->spill_len = 0;
    from->p = from->buf;
}

/* The length of the valid UTF-8 sequence at s (n bytes left), or 0. */
static size_t utf8_sequence(const uint8_t *s, size_t n)
{
    uint8_t c = s[0];
    if (c >= 0xC2 && c <= 0xDF)
        return n >= 2 && (s[1] & 0xC0) == 0x80 ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (n < 3 || (s[2] & 0xC0) != 0x80)
            return 0;
        uint8_t lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        return s[1] >= lo && s[1] <= hi ? 3 : 0;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (n < 4 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80)
            return 0;
        uint8_t lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        return s[1] >= lo && s[1] <= hi ? 4 : 0;
    }
    return 0;
}

/* An ASCII character, escaped for a quoted text or JSON string. */
static inline char *escape_ascii(char *w, unsigned c, int json)
{
    if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f) {
        *w++ = (char)c;
        return w;
    }
    *w++ = '\\';
    switch (c) {
    case '"':
    case '\\':
        *w++ = (char)c;
        return w;
    case '\n':
        *w++ = 'n';
        return w;
    case '\r':
        *w++ = 'r';
        return w;
    case '\t':
        *w++ = 't';
        return w;
    default:
        break;
    }
    if (json) {
        if (c == 0x7f) {
            w[-1] = 0x7f; /* JSON leaves DEL alone */
            return w;
        }
        memcpy(w, "u00", 3);
        w[3] = hexdigits[c >> 4];
        w[4] = hexdigits[c & 15];
        return w + 5;
    }
    *w++ = 'x';
    *w++ = hexdigits[c >> 4];
    *w++ = hexdigits[c & 15];
    return w;
}

static char *put_codepoint(char *w, uint32_t cp)
{
    if (cp < 0x800) {
        *w++ = (char)(0xC0 | (cp >> 6));
    } else {
        if (cp < 0x10000) {
            *w++ = (char)(0xE0 | (cp >> 12));
        } else {
            *w++ = (char)(0xF0 | (cp >> 18));
            *w++ = (char)(0x80 | ((cp >> 12) & 0x3F));
        }
        *w++ = (char)(0x80 | ((cp >> 6) & 0x3F));
    }
    *w++ = (char)(0x80 | (cp & 0x3F));
    return w;
}

void put_utf8(dump_buffer *o, const uint8_t *s, size_t n, int json)
{
    putc_(o, '"');
    put_utf8_chars(o, s, n, json);
    putc_(o, '"');
}

void put_utf8_chars(dump_buffer *o, const uint8_t *s, size_t n, int json)
{
    size_t i = 0;
    while (i < n) {
        char *w = room(o, 16);
        uint8_t c = s[i];
        if (c < 0x80) {
            o->p = escape_ascii(w, c, json);
            i++;
            continue;
        }
        size_t k = utf8_sequence(s + i, n - i);
        if (k) {
            memcpy(w, s + i, k);
            o->p = w + k;
            i += k;
        } else if (json) {
            memcpy(w, "\\ufffd", 6);
            o->p = w + 6;
            i++;
        } else {
            w[0] = '\\';
            w[1] = 'x';
            w[2] = hexdigits[c >> 4];
            w[3] = hexdigits[c & 15];
            o->p = w + 4;
            i++;
        }
    }
}

void put_utf16(dump_buffer *o, const uint8_t *s, size_t units, int json)
{
    putc_(o, '"');
    for (size_t i = 0; i < units; i++) {
        char *w = room(o, 16);
        uint32_t u = evgen_wire_le16(s + 2 * i), cp = u;
        if (u >= 0xD800 && u <= 0xDFFF) {
            uint32_t lo = i + 1 < units ? evgen_wire_le16(s + 2 * i + 2) : 0;
            if (u <= 0xDBFF && lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                i++;
            } else {
                cp = 0xFFFD;
            }
        }
        o->p = cp < 0x80 ? escape_ascii(w, cp, json) : put_codepoint(w, cp);
    }
    putc_(o, '"');
}

void put_json_string(dump_buffer *o, const char *s)
{
    put_utf8(o, (const uint8_t *)s, strlen(s), 1);
}

char *fmt_float(char *w, unsigned kind, const uint8_t *p, int json)
{
    double v;
    if (kind == EVGEN_WIRE_F32) {
        float f;
        memcpy(&f, p, 4);
        v = f;
    } else {
        memcpy(&v, p, 8);
    }
    if (json && !isfinite(v))
        return w + snprintf(w, ROOM, "\"%s\"", isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
    return w + snprintf(w, ROOM, kind == EVGEN_WIRE_F32 ? "%.9g" : "%.17g", v);
}
