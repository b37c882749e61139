/* dump_json.h — the one JSON writer of `evgen dump` (and of `evgen export --perfetto`, which is why it
 * lives in core/): it alone places the commas and the colons, so
 * no caller can write a stray or missing separator. It keeps, per open object or array, whether
 * an item was written in it and whether it is an array. An object takes members (jw_key, then
 * exactly one value); an array takes values; every value function places the comma an array
 * needs itself. Text rendered once at setup (a key, or whole members) is replayed through
 * jw_key_rendered and jw_members_rendered, which place the separator before it the same way.
 * Not installed. */
#ifndef EVGEN_READER_DUMP_JSON_H
#define EVGEN_READER_DUMP_JSON_H

#include <stdint.h>

#include "dump_out.h"

#define JSON_MAX_DEPTH 8 /* an event line: line > fields > array > struct element */

typedef struct json_writer {
    dump_buffer *o;
    unsigned depth;                     /* open objects and arrays; 0: between top-level values */
    uint8_t has_item[JSON_MAX_DEPTH];   /* per level: an item was written (the next needs a comma) */
    uint8_t is_array[JSON_MAX_DEPTH];   /* per level: an array (values) or an object (members) */
} json_writer;

/* A writer at the top level of `o`. */
static inline void jw_init(json_writer *w, dump_buffer *o)
{
    memset(w, 0, sizeof *w);
    w->o = o;
}

/* A writer that renders members of an object already open (for text rendered once and replayed). */
static inline void jw_init_members(json_writer *w, dump_buffer *o)
{
    jw_init(w, o);
    w->depth = 1;
}

/* The separator before an item of the innermost object or array. */
static inline void jw_item(json_writer *w)
{
    if (w->has_item[w->depth])
        putc_(w->o, ',');
    w->has_item[w->depth] = 1;
}

/* Before a value: in an array it is an item; in an object its key was written just before. */
static inline void jw_value(json_writer *w)
{
    if (w->is_array[w->depth])
        jw_item(w);
}

/* Starts the next item of the innermost array or object on a new line (a file of one value per
 * line, as export --perfetto writes its events): the comma it needs, then '\n'. Call it only right
 * before writing an item (a value of an array, or jw_key), so the comma is never the last. */
static inline void jw_line_before_item(json_writer *w)
{
    if (w->has_item[w->depth])
        putc_(w->o, ',');
    putc_(w->o, '\n');
    w->has_item[w->depth] = 0; /* the comma is written: the item's own jw_item must not add one */
}

static inline void jw_open(json_writer *w, char bracket, int is_array)
{
    jw_value(w);
    putc_(w->o, bracket);
    if (w->depth + 1 < JSON_MAX_DEPTH) /* deeper nesting never happens; stay in bounds if it did */
        w->depth++;
    w->has_item[w->depth] = 0;
    w->is_array[w->depth] = (uint8_t)is_array;
}

static inline void jw_begin_object(json_writer *w)
{
    jw_open(w, '{', 0);
}

static inline void jw_begin_array(json_writer *w)
{
    jw_open(w, '[', 1);
}

/* Closes the innermost object or array; a line's last value ends it with '\n'. */
static inline void jw_end(json_writer *w)
{
    putc_(w->o, w->is_array[w->depth] ? ']' : '}');
    if (w->depth)
        w->depth--;
    if (!w->depth) {
        putc_(w->o, '\n'); /* one JSON value per line */
        w->has_item[0] = 0;
    }
}

static inline void jw_key(json_writer *w, const char *key)
{
    jw_item(w);
    put_json_string(w->o, key);
    putc_(w->o, ':');
}

/* A key rendered at setup as "name": (no separator: the writer places it). */
static inline void jw_key_rendered(json_writer *w, const char *text, size_t len)
{
    jw_item(w);
    put_rendered(w->o, text, len);
}

/* One or more whole members rendered at setup by a jw_init_members writer. */
static inline void jw_members_rendered(json_writer *w, const char *text, size_t len)
{
    jw_item(w);
    put_rendered(w->o, text, len);
}

static inline void jw_u64(json_writer *w, uint64_t v)
{
    jw_value(w);
    put_u64(w->o, v);
}

static inline void jw_string(json_writer *w, const char *s)
{
    jw_value(w);
    put_json_string(w->o, s);
}

static inline void jw_bool(json_writer *w, int v)
{
    jw_value(w);
    puts_(w->o, v ? "true" : "false");
}

static inline void jw_key_u64(json_writer *w, const char *key, uint64_t v)
{
    jw_key(w, key);
    jw_u64(w, v);
}

static inline void jw_key_string(json_writer *w, const char *key, const char *s)
{
    jw_key(w, key);
    jw_string(w, s);
}

#endif
