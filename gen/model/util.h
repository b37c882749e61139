/* util.h — small allocation, string-building and C-name helpers shared by the generator. */
#ifndef EVGEN_GEN_UTIL_H
#define EVGEN_GEN_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* Allocation that aborts with a message on out-of-memory: the generator is a short-lived
 * command-line tool, and there is nothing sensible to do without memory. */
void *evgen_xmalloc(size_t size);
void *evgen_xcalloc(size_t n, size_t size);
void *evgen_xrealloc(void *p, size_t size);
char *evgen_xstrdup(const char *s);
char *evgen_xstrndup(const char *s, size_t n);
char *evgen_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *evgen_xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* Grows a dynamic array `*items` of `*count` elements by one zeroed element; returns it. */
#define EVGEN_PUSH(items, count) \
    ((items) = evgen_xrealloc((items), ((count) + 1) * sizeof *(items)), \
     evgen_zero(&(items)[(count)], sizeof *(items)), &(items)[(count)++])
void evgen_zero(void *p, size_t size);

/* A growable NUL-terminated string. */
typedef struct evgen_strbuf {
    char *data;
    size_t len;
    size_t cap;
} evgen_strbuf;

void evgen_sb_init(evgen_strbuf *sb);
void evgen_sb_free(evgen_strbuf *sb);
void evgen_sb_putc(evgen_strbuf *sb, char c);
void evgen_sb_puts(evgen_strbuf *sb, const char *s);
void evgen_sb_putn(evgen_strbuf *sb, const char *s, size_t n);
void evgen_sb_printf(evgen_strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void evgen_sb_vprintf(evgen_strbuf *sb, const char *fmt, va_list ap);
/* Appends `s` as a JSON string literal, quotes included. */
void evgen_sb_json_string(evgen_strbuf *sb, const char *s);
/* Takes ownership of the buffer's string (never NULL); the strbuf is left empty. */
char *evgen_sb_take(evgen_strbuf *sb);

/* The default name for a manifest: its file name without directory and extension, made a C
 * identifier. Caller frees. */
char *evgen_default_name(const char *manifest_path);
/* Whether `name` can prefix C identifiers (--name). */
bool evgen_valid_name(const char *name);

#endif /* EVGEN_GEN_UTIL_H */
