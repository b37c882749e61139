/* sql_text.h — the text the SQL export writes (DDL, CSV rows, the load script): a growing buffer,
 * SQL identifiers made from metadata names, and the CSV form of each kind of value, as PostgreSQL's
 * COPY ... (FORMAT csv) reads it. Not installed. */
#ifndef EVGEN_EXPORT_SQL_TEXT_H
#define EVGEN_EXPORT_SQL_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* A growing text; `failed` once memory ran out (every later call then does nothing). */
typedef struct sql_text {
    char *data;
    size_t len, cap;
    int failed;
} sql_text;

/* Room for `n` more bytes at data + len: 0, or -1 (and `failed`). */
int sql_text_reserve(sql_text *t, size_t n);
void sql_text_put(sql_text *t, const void *p, size_t n);
void sql_text_puts(sql_text *t, const char *s);
void sql_text_putc(sql_text *t, char c);
void sql_text_printf(sql_text *t, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void sql_text_u64(sql_text *t, uint64_t v);
void sql_text_i64(sql_text *t, int64_t v);
/* The text, NUL-terminated, handed to the caller (the buffer is left empty); NULL if it failed. */
char *sql_text_take(sql_text *t);
void sql_text_free(sql_text *t);

/* A metadata name in an SQL comment: control characters as spaces (a line break would end the
 * comment), bytes that are not UTF-8 as U+FFFD. */
void sql_text_plain(sql_text *t, const char *s);

/* ---- identifiers --------------------------------------------------------------------------------- */

/* The longest identifier PostgreSQL keeps (NAMEDATALEN - 1). */
#define SQL_IDENT_MAX 63

/* `name` as an SQL identifier, malloc'd (NULL if out of memory): ASCII letters lower-cased, digits
 * and '_' kept, every other byte '_', a '_' before a leading digit, at most SQL_IDENT_MAX bytes. */
char *sql_ident(const char *name);
/* The same for `a` + "_" + `b` (a provider-qualified event). */
char *sql_ident2(const char *a, const char *b);

/* ---- CSV values ----------------------------------------------------------------------------------
 * A NULL is an empty field; everything else is written so that it never reads as one. */

/* Text: quoted when empty or holding a comma, quote, CR or LF (quotes doubled); bytes that are not
 * UTF-8 (PostgreSQL refuses them) become U+FFFD, as unpaired surrogates do in UTF-16. */
void sql_csv_utf8(sql_text *t, const uint8_t *p, size_t n);
/* UTF-16LE code units converted to UTF-8 through `scratch`, then as sql_csv_utf8. */
void sql_csv_utf16(sql_text *t, sql_text *scratch, const uint8_t *p, uint32_t units);
/* PostgreSQL's bytea hex form: \x then two lower-case hex digits a byte. */
void sql_csv_bytea(sql_text *t, const uint8_t *p, size_t n);
/* 8-4-4-4-12, the first three groups little-endian, as evgen dump prints a GUID. */
void sql_csv_guid(sql_text *t, const uint8_t *p);
/* Enough digits to read back the same float (%.9g) or double (%.17g); NaN, Infinity, -Infinity. */
void sql_csv_float(sql_text *t, double v, int single);

/* A timestamptz in UTC with microseconds, 2019-06-15 10:21:07.123456+00:00 (the nanoseconds below a
 * microsecond dropped). `cache` keeps the last second's rendering: zero it before first use. */
typedef struct sql_time_cache {
    int64_t second;
    int valid;
    char text[80];
} sql_time_cache;
void sql_csv_time(sql_text *t, sql_time_cache *cache, uint64_t unix_ns);

#endif /* EVGEN_EXPORT_SQL_TEXT_H */
