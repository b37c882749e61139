/* util.c — allocation, string building and C names for the generator (files: outputs.h). */
#include "model/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(void)
{
    fputs("evgen: fatal: out of memory\n", stderr);
    abort();
}

void *evgen_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *evgen_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *evgen_xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q)
        out_of_memory();
    return q;
}

char *evgen_xstrdup(const char *s)
{
    return evgen_xstrndup(s, strlen(s));
}

char *evgen_xstrndup(const char *s, size_t n)
{
    char *p = evgen_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *evgen_xvasprintf(const char *fmt, va_list ap)
{
    evgen_strbuf sb;
    evgen_sb_init(&sb);
    evgen_sb_vprintf(&sb, fmt, ap);
    return evgen_sb_take(&sb);
}

char *evgen_xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = evgen_xvasprintf(fmt, ap);
    va_end(ap);
    return s;
}

void evgen_zero(void *p, size_t size)
{
    memset(p, 0, size);
}

void evgen_sb_init(evgen_strbuf *sb)
{
    sb->data = NULL;
    sb->len = 0;
    sb->cap = 0;
}

void evgen_sb_free(evgen_strbuf *sb)
{
    free(sb->data);
    evgen_sb_init(sb);
}

static void reserve(evgen_strbuf *sb, size_t extra)
{
    if (sb->len + extra + 1 <= sb->cap)
        return;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    sb->data = evgen_xrealloc(sb->data, cap);
    sb->cap = cap;
}

void evgen_sb_putn(evgen_strbuf *sb, const char *s, size_t n)
{
    reserve(sb, n);
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void evgen_sb_putc(evgen_strbuf *sb, char c)
{
    evgen_sb_putn(sb, &c, 1);
}

void evgen_sb_puts(evgen_strbuf *sb, const char *s)
{
    evgen_sb_putn(sb, s, strlen(s));
}

void evgen_sb_vprintf(evgen_strbuf *sb, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0)
        return;
    reserve(sb, (size_t)n);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void evgen_sb_printf(evgen_strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    evgen_sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

void evgen_sb_json_string(evgen_strbuf *sb, const char *s)
{
    evgen_sb_putc(sb, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': evgen_sb_puts(sb, "\\\""); break;
        case '\\': evgen_sb_puts(sb, "\\\\"); break;
        case '\n': evgen_sb_puts(sb, "\\n"); break;
        case '\t': evgen_sb_puts(sb, "\\t"); break;
        case '\r': evgen_sb_puts(sb, "\\r"); break;
        default:
            if (*p < 0x20)
                evgen_sb_printf(sb, "\\u%04x", *p);
            else
                evgen_sb_putc(sb, (char)*p);
        }
    }
    evgen_sb_putc(sb, '"');
}

char *evgen_sb_take(evgen_strbuf *sb)
{
    char *s = sb->data ? sb->data : evgen_xstrdup("");
    evgen_sb_init(sb);
    return s;
}

char *evgen_default_name(const char *manifest_path)
{
    const char *slash = strrchr(manifest_path, '/');
    const char *base = slash ? slash + 1 : manifest_path;
    const char *dot = strrchr(base, '.');
    char *name = evgen_xstrndup(base, dot ? (size_t)(dot - base) : strlen(base));
    /* It prefixes C identifiers: "gc-events.h" gives "gc_events". */
    for (char *c = name; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_')
            *c = '_';
    if (!name[0] || isdigit((unsigned char)name[0])) {
        char *prefixed = evgen_xasprintf("_%s", name);
        free(name);
        name = prefixed;
    }
    return name;
}

bool evgen_valid_name(const char *name)
{
    bool ok = name[0] && (isalpha((unsigned char)name[0]) || name[0] == '_');
    for (const char *c = name; ok && *c; c++)
        ok = isalnum((unsigned char)*c) || *c == '_';
    return ok;
}
