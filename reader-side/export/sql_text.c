/* sql_text.c — the SQL export's text: a growing buffer, identifiers from metadata names, and the
 * CSV form of values (sql_text.h). */
#include "sql_text.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evgen/reader.h"
#include "evgen/wire_bytes.h"

int sql_text_reserve(sql_text *t, size_t n)
{
    if (t->failed)
        return -1;
    if (t->cap - t->len > n)
        return 0;
    size_t cap = t->cap ? t->cap : 256;
    while (cap - t->len <= n) {
        if (cap > SIZE_MAX / 2) {
            t->failed = 1;
            return -1;
        }
        cap *= 2;
    }
    char *grown = realloc(t->data, cap);
    if (!grown) {
        t->failed = 1;
        return -1;
    }
    t->data = grown;
    t->cap = cap;
    return 0;
}

void sql_text_put(sql_text *t, const void *p, size_t n)
{
    if (n == 0 || sql_text_reserve(t, n) != 0)
        return;
    memcpy(t->data + t->len, p, n);
    t->len += n;
}

void sql_text_puts(sql_text *t, const char *s)
{
    sql_text_put(t, s, strlen(s));
}

void sql_text_putc(sql_text *t, char c)
{
    if (sql_text_reserve(t, 1) == 0)
        t->data[t->len++] = c;
}

void sql_text_printf(sql_text *t, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    char small[256];
    int n = vsnprintf(small, sizeof small, format, ap);
    va_end(ap);
    if (n < 0) {
        t->failed = 1;
        return;
    }
    if ((size_t)n < sizeof small) {
        sql_text_put(t, small, (size_t)n);
        return;
    }
    if (sql_text_reserve(t, (size_t)n + 1) != 0)
        return;
    va_start(ap, format);
    vsnprintf(t->data + t->len, (size_t)n + 1, format, ap);
    va_end(ap);
    t->len += (size_t)n;
}

void sql_text_u64(sql_text *t, uint64_t v)
{
    char digits[20];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (sql_text_reserve(t, n) != 0)
        return;
    while (n)
        t->data[t->len++] = digits[--n];
}

void sql_text_i64(sql_text *t, int64_t v)
{
    if (v < 0) {
        sql_text_putc(t, '-');
        sql_text_u64(t, (uint64_t)0 - (uint64_t)v);
    } else {
        sql_text_u64(t, (uint64_t)v);
    }
}

char *sql_text_take(sql_text *t)
{
    if (sql_text_reserve(t, 1) != 0) {
        sql_text_free(t);
        return NULL;
    }
    t->data[t->len] = '\0';
    char *s = t->data;
    memset(t, 0, sizeof *t);
    return s;
}

void sql_text_free(sql_text *t)
{
    free(t->data);
    memset(t, 0, sizeof *t);
}

/* ---- identifiers --------------------------------------------------------------------------------- */

static void ident_append(char *out, size_t *n, const char *name)
{
    for (const unsigned char *c = (const unsigned char *)name; *c && *n < SQL_IDENT_MAX; c++) {
        char x = (char)*c;
        if (x >= 'A' && x <= 'Z')
            x = (char)(x - 'A' + 'a');
        else if (!((x >= 'a' && x <= 'z') || (x >= '0' && x <= '9') || x == '_'))
            x = '_';
        if (*n == 0 && x >= '0' && x <= '9')
            out[(*n)++] = '_';
        if (*n < SQL_IDENT_MAX)
            out[(*n)++] = x;
    }
}

char *sql_ident2(const char *a, const char *b)
{
    char *out = malloc(SQL_IDENT_MAX + 1);
    if (!out)
        return NULL;
    size_t n = 0;
    ident_append(out, &n, a);
    if (b) {
        if (n < SQL_IDENT_MAX)
            out[n++] = '_';
        ident_append(out, &n, b);
    }
    if (n == 0)
        out[n++] = '_';
    out[n] = '\0';
    return out;
}

char *sql_ident(const char *name)
{
    return sql_ident2(name, NULL);
}

/* ---- CSV values ---------------------------------------------------------------------------------- */

static const char hexdigits[] = "0123456789abcdef";

/* The length of the well-formed UTF-8 sequence at p (Unicode's table 3-7: no overlong form, no
 * surrogate, nothing above U+10FFFF), or 0. */
static size_t utf8_sequence(const uint8_t *p, size_t n)
{
    uint8_t c = p[0];
    if (c < 0x80)
        return 1;
    size_t len;
    uint8_t lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        if (c == 0xe0)
            lo = 0xa0;
        else if (c == 0xed)
            hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        if (c == 0xf0)
            lo = 0x90;
        else if (c == 0xf4)
            hi = 0x8f;
    } else {
        return 0;
    }
    if (n < len || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if (p[i] < 0x80 || p[i] > 0xbf)
            return 0;
    return len;
}

void sql_csv_utf8(sql_text *t, const uint8_t *p, size_t n)
{
    int quote = n == 0;
    for (size_t i = 0; i < n && !quote; i++)
        quote = p[i] == ',' || p[i] == '"' || p[i] == '\r' || p[i] == '\n';
    /* at most 3 bytes out per byte in (U+FFFD), twice for quotes, and the two quotes */
    if (n > (SIZE_MAX - 2) / 3 || sql_text_reserve(t, 3 * n + 2) != 0)
        return;
    char *w = t->data + t->len;
    if (quote)
        *w++ = '"';
    for (size_t i = 0; i < n;) {
        size_t len = utf8_sequence(p + i, n - i);
        if (len == 0) {
            memcpy(w, "\xef\xbf\xbd", 3);
            w += 3;
            i++;
            continue;
        }
        if (p[i] == '"')
            *w++ = '"';
        memcpy(w, p + i, len);
        w += len;
        i += len;
    }
    if (quote)
        *w++ = '"';
    t->len = (size_t)(w - t->data);
}

void sql_text_plain(sql_text *t, const char *s)
{
    const uint8_t *p = (const uint8_t *)s;
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        size_t len = utf8_sequence(p + i, n - i);
        if (len == 0) {
            sql_text_put(t, "\xef\xbf\xbd", 3);
            i++;
        } else if (p[i] < 0x20 || p[i] == 0x7f) {
            sql_text_putc(t, ' ');
            i++;
        } else {
            sql_text_put(t, p + i, len);
            i += len;
        }
    }
}

void sql_csv_utf16(sql_text *t, sql_text *scratch, const uint8_t *p, uint32_t units)
{
    evgen_utf16_view view = {p, units};
    size_t need = evgen_utf16_to_utf8(view, NULL, 0);
    scratch->len = 0;
    if (sql_text_reserve(scratch, need + 1) != 0) {
        t->failed = 1;
        return;
    }
    evgen_utf16_to_utf8(view, scratch->data, need + 1);
    sql_csv_utf8(t, (const uint8_t *)scratch->data, need);
}

void sql_csv_bytea(sql_text *t, const uint8_t *p, size_t n)
{
    if (n > (SIZE_MAX - 2) / 2 || sql_text_reserve(t, 2 * n + 2) != 0)
        return;
    char *w = t->data + t->len;
    *w++ = '\\';
    *w++ = 'x';
    for (size_t i = 0; i < n; i++) {
        *w++ = hexdigits[p[i] >> 4];
        *w++ = hexdigits[p[i] & 15];
    }
    t->len = (size_t)(w - t->data);
}

static char *put_hex(char *w, uint64_t v, int digits)
{
    for (int i = digits - 1; i >= 0; i--)
        *w++ = hexdigits[(v >> (4 * i)) & 15];
    return w;
}

void sql_csv_guid(sql_text *t, const uint8_t *p)
{
    if (sql_text_reserve(t, 36) != 0)
        return;
    char *w = t->data + t->len;
    w = put_hex(w, evgen_wire_le32(p), 8);
    *w++ = '-';
    w = put_hex(w, evgen_wire_le16(p + 4), 4);
    *w++ = '-';
    w = put_hex(w, evgen_wire_le16(p + 6), 4);
    *w++ = '-';
    for (int i = 8; i < 16; i++) {
        if (i == 10)
            *w++ = '-';
        w = put_hex(w, p[i], 2);
    }
    t->len = (size_t)(w - t->data);
}

void sql_csv_float(sql_text *t, double v, int single)
{
    if (isnan(v))
        sql_text_puts(t, "NaN");
    else if (isinf(v))
        sql_text_puts(t, v > 0 ? "Infinity" : "-Infinity");
    else
        sql_text_printf(t, single ? "%.9g" : "%.17g", v);
}

void sql_csv_time(sql_text *t, sql_time_cache *cache, uint64_t unix_ns)
{
    int64_t second = (int64_t)(unix_ns / 1000000000u);
    uint32_t micro = (uint32_t)(unix_ns % 1000000000u / 1000u);
    if (!cache->valid || cache->second != second) {
        time_t s = (time_t)second;
        struct tm tm;
        if (!gmtime_r(&s, &tm)) {
            t->failed = 1;
            return;
        }
        snprintf(cache->text, sizeof cache->text, "%04d-%02d-%02d %02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1,
                 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
        cache->second = second;
        cache->valid = 1;
    }
    sql_text_puts(t, cache->text);
    sql_text_printf(t, ".%06u+00:00", (unsigned)micro);
}
