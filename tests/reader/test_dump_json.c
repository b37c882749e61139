/* test_dump_json.c — the dump's one JSON writer (reader-side/core/dump_json.h, shared with evgen export --perfetto): objects and
 * arrays nested every way an event line nests them, empty ones, keys rendered at setup and whole
 * rendered members, escaped strings; every line it writes is parsed by json-c and its values read
 * back, so a misplaced separator fails. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "dump_json.h"

typedef struct fixture {
    dump_buffer o;
    json_writer w;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->o.buf = f->o.p = calloc(1, OUT_SIZE);
    f->o.end = f->o.buf + OUT_SIZE;
    f->o.fd = -1; /* never flushed: the test reads the buffer */
    jw_init(&f->w, &f->o);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    free(f->o.buf);
    free(f);
    return 0;
}

/* The lines written so far, parsed; each must be one JSON object. */
static json_object *parse_lines(fixture *f, size_t *n_lines)
{
    *n_lines = 0;
    json_object *all = json_object_new_array();
    char *text = strndup(f->o.buf, (size_t)(f->o.p - f->o.buf));
    assert_non_null(text);
    for (char *line = text, *next; *line; line = next + 1) {
        next = strchr(line, '\n');
        assert_non_null(next); /* every value ends its line */
        *next = '\0';
        enum json_tokener_error error;
        json_object *value = json_tokener_parse_verbose(line, &error);
        if (!value)
            fail_msg("not JSON (%s): %s", json_tokener_error_desc(error), line);
        assert_true(json_object_is_type(value, json_type_object));
        json_object_array_add(all, value);
        ++*n_lines;
    }
    free(text);
    return all;
}

static json_object *member(json_object *o, const char *key)
{
    json_object *v = NULL;
    if (!json_object_object_get_ex(o, key, &v))
        fail_msg("no member %s in %s", key, json_object_to_json_string(o));
    return v;
}

/* Rendered text as dump.c keeps it: zero-padded for put_rendered's 16-byte steps. */
static void render(char *buf, size_t cap, void (*write)(json_writer *), size_t *len)
{
    dump_buffer r = {.buf = buf, .p = buf, .end = buf + cap, .fd = -1};
    memset(buf, 0, cap);
    json_writer w;
    jw_init_members(&w, &r);
    write(&w);
    *len = (size_t)(r.p - r.buf);
}

static void head_members(json_writer *w)
{
    jw_key_string(w, "event", "Ev\"nt\n");
    jw_key_u64(w, "id", 7);
}

static void test_nesting(void **state)
{
    fixture *f = *state;
    json_writer *w = &f->w;
    char head[512], key[64]; /* rendered as dump.c renders: with ROOM to spare, never flushed */
    size_t head_len, key_len;
    render(head, sizeof head, head_members, &head_len);
    dump_buffer r = {.buf = key, .p = key, .end = key + sizeof key, .fd = -1};
    memset(key, 0, sizeof key);
    put_json_string(&r, "Count");
    putc_(&r, ':');
    key_len = (size_t)(r.p - r.buf);

    /* An event line: members, a rendered head, fields with an array of structs and an array of
     * numbers, an empty array and object, then names. */
    jw_begin_object(w);
    jw_key_u64(w, "timestamp_ns", 12);
    jw_members_rendered(w, head, head_len);
    jw_key(w, "fields");
    jw_begin_object(w);
    jw_key_rendered(w, key, key_len);
    jw_u64(w, 3);
    jw_key(w, "Values");
    jw_begin_array(w);
    for (int i = 0; i < 3; i++) {
        jw_begin_object(w);
        jw_key_u64(w, "A", (uint64_t)i);
        jw_key_string(w, "B", "x");
        jw_end(w);
    }
    jw_end(w);
    jw_key(w, "Numbers");
    jw_begin_array(w);
    for (uint64_t i = 0; i < 4; i++)
        jw_u64(w, i * 10);
    jw_end(w);
    jw_key(w, "Empty");
    jw_begin_array(w);
    jw_end(w);
    jw_key(w, "None");
    jw_begin_object(w);
    jw_end(w);
    jw_key(w, "Nested");
    jw_begin_array(w);
    jw_begin_array(w);
    jw_bool(w, 1);
    jw_end(w);
    jw_begin_array(w);
    jw_end(w);
    jw_end(w);
    jw_end(w); /* fields */
    jw_key_string(w, "truncated", "Tail");
    jw_end(w); /* the line */
    /* A second line starts without a separator. */
    jw_begin_object(w);
    jw_end(w);

    size_t n;
    json_object *lines = parse_lines(f, &n);
    assert_int_equal(n, 2);
    json_object *line = json_object_array_get_idx(lines, 0);
    assert_int_equal(json_object_get_int64(member(line, "timestamp_ns")), 12);
    assert_string_equal(json_object_get_string(member(line, "event")), "Ev\"nt\n");
    assert_int_equal(json_object_get_int64(member(line, "id")), 7);
    json_object *fields = member(line, "fields");
    assert_int_equal(json_object_get_int64(member(fields, "Count")), 3);
    json_object *values = member(fields, "Values");
    assert_int_equal(json_object_array_length(values), 3);
    assert_int_equal(json_object_get_int64(member(json_object_array_get_idx(values, 2), "A")), 2);
    json_object *numbers = member(fields, "Numbers");
    assert_int_equal(json_object_array_length(numbers), 4);
    assert_int_equal(json_object_get_int64(json_object_array_get_idx(numbers, 3)), 30);
    assert_int_equal(json_object_array_length(member(fields, "Empty")), 0);
    assert_int_equal(json_object_object_length(member(fields, "None")), 0);
    json_object *nested = member(fields, "Nested");
    assert_int_equal(json_object_array_length(nested), 2);
    assert_true(json_object_get_boolean(json_object_array_get_idx(json_object_array_get_idx(nested, 0), 0)));
    assert_string_equal(json_object_get_string(member(line, "truncated")), "Tail");
    assert_int_equal(json_object_object_length(json_object_array_get_idx(lines, 1)), 0);
    assert_int_equal(f->w.depth, 0);
    json_object_put(lines);
}

/* Strings: control characters, quotes, backslashes, DEL, invalid UTF-8 (U+FFFD), and UTF-16 with
 * an unpaired surrogate, all read back as the characters they stand for. */
static void test_strings(void **state)
{
    fixture *f = *state;
    json_writer *w = &f->w;
    static const uint8_t bad_utf8[] = {'a', 0xC3, 'b', 0x7F, 0x01, '"', '\\'};
    static const uint8_t utf16[] = {'h', 0, 0xE9, 0, 0x00, 0xD8, 'x', 0}; /* h é <lone high> x */
    jw_begin_object(w);
    jw_key(w, "utf8");
    jw_value(w);
    put_utf8(&f->o, bad_utf8, sizeof bad_utf8, 1);
    jw_key(w, "utf16");
    jw_value(w);
    put_utf16(&f->o, utf16, sizeof utf16 / 2, 1);
    jw_key(w, "k\"ey\t");
    jw_u64(w, UINT64_MAX);
    jw_end(w);

    size_t n;
    json_object *lines = parse_lines(f, &n);
    assert_int_equal(n, 1);
    json_object *line = json_object_array_get_idx(lines, 0);
    assert_string_equal(json_object_get_string(member(line, "utf8")), "a\xEF\xBF\xBD"
                                                                      "b\x7F\x01\"\\");
    assert_string_equal(json_object_get_string(member(line, "utf16")), "h\xC3\xA9\xEF\xBF\xBDx");
    assert_non_null(member(line, "k\"ey\t"));
    json_object_put(lines);
}

/* Items on lines of their own (jw_line_before_item, export --perfetto's one event per line): an
 * array of objects and an object's members, the first item included, parsed as one document and
 * split where the writer broke the lines. */
static void test_line_before_item(void **state)
{
    fixture *f = *state;
    json_writer *w = &f->w;
    jw_begin_object(w);
    jw_key_u64(w, "first", 1);
    jw_key(w, "items");
    jw_begin_array(w);
    for (uint64_t i = 0; i < 3; i++) {
        jw_line_before_item(w);
        jw_begin_object(w);
        jw_key_u64(w, "i", i);
        jw_end(w);
    }
    jw_line_before_item(w);
    jw_u64(w, 7);
    jw_end(w);
    jw_line_before_item(w);
    jw_key_string(w, "last", "x");
    jw_end(w);

    char *text = strndup(f->o.buf, (size_t)(f->o.p - f->o.buf));
    assert_string_equal(text, "{\"first\":1,\"items\":[\n{\"i\":0},\n{\"i\":1},\n{\"i\":2},\n7],\n\"last\":\"x\"}\n");
    enum json_tokener_error error;
    json_object *doc = json_tokener_parse_verbose(text, &error);
    if (!doc)
        fail_msg("not JSON (%s): %s", json_tokener_error_desc(error), text);
    json_object *items = member(doc, "items");
    assert_int_equal(json_object_array_length(items), 4);
    assert_int_equal(json_object_get_int(member(json_object_array_get_idx(items, 2), "i")), 2);
    assert_string_equal(json_object_get_string(member(doc, "last")), "x");
    json_object_put(doc);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_nesting, setup, teardown),
        cmocka_unit_test_setup_teardown(test_strings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_line_before_item, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
