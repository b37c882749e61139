/* test_reader_var_elements.c — arrays of a variable struct (docs/format.md: stride 0, members back
 * to back, strings among them), hand-made: the array's end walked element by element, never past
 * the payload; a cut string, an odd UTF-16 remainder or a count beyond the payload makes the array
 * and every field after it absent; zero elements; element and member access; evgen dump's text
 * and JSON (every line parsed by json-c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "evgen/dump.h"
#include "evgen/reader.h"
#include "evgen/wire_kinds.h"
#include "evgen/wire_metadata.h"
#include "reader_helpers.h"
#include "test_support.h"

/* Manifest "var": event Roots version 0 = Count (uint32), Values (Root[Count]), Tail (uint16),
 * where Root = {Id uint64, Flags int32, Name utf16z} (offsets 0, 8 and 12 by the layout rule). */
static void metadata(rh_bytes *file)
{
    evgen_wire_buf b = {0};
    evgen_wire_meta_put_head(&b, 0, "var");
    evgen_wire_meta_put_count(&b, 1);
    evgen_wire_meta_put_provider(&b, "Var");
    evgen_wire_meta_put_count(&b, 0);
    evgen_wire_meta_put_count(&b, 1);
    evgen_wire_meta_put_struct_head(&b, "Root", EVGEN_WIRE_STRIDE_VARIABLE, 3);
    static const evgen_wire_member members[] = {
        {"Id", EVGEN_WIRE_U64, 0, -1}, {"Flags", EVGEN_WIRE_I32, 8, -1}, {"Name", EVGEN_WIRE_UTF16Z, 12, -1}};
    for (int i = 0; i < 3; i++)
        evgen_wire_meta_put_member(&b, &members[i]);
    evgen_wire_meta_put_count(&b, 1);
    evgen_wire_event_head e = {"Roots", 0, 38, 4, 0x100000, 1};
    evgen_wire_meta_put_event_head(&b, &e);
    evgen_wire_version_head v = {0, 0, 3, 0, 0};
    evgen_wire_meta_put_version_head(&b, &v);
    static const evgen_wire_field fields[] = {{"Count", EVGEN_WIRE_U32, 0, -1, -1, -1},
                                              {"Values", EVGEN_WIRE_STRUCT, EVGEN_WIRE_FIELD_IS_ARRAY, -1, 0, 0},
                                              {"Tail", EVGEN_WIRE_U16, 0, -1, -1, -1}};
    for (int i = 0; i < 3; i++)
        evgen_wire_meta_put_field(&b, &fields[i]);
    assert_false(b.failed);
    rh_bytes p = {0};
    rh_put(&p, b.data, b.len);
    rh_append_block(file, 1, 0, 0, 0, 0, 0, &p);
    rh_free(&p);
    evgen_wire_buf_free(&b);
}

static void element(rh_bytes *p, uint64_t id, int32_t flags, const char *name)
{
    rh_le(p, id, 8);
    rh_le(p, (uint32_t)flags, 4);
    for (const char *c = name; *c; c++)
        rh_le(p, (uint8_t)*c, 2);
    rh_le(p, 0, 2);
}

static void record(rh_bytes *block, const rh_bytes *payload)
{
    rh_varint(block, 0);
    rh_zigzag(block, 1);
    rh_varint(block, payload->len);
    rh_put(block, payload->data, payload->len);
}

/* The events, in order. */
enum { GOOD, EMPTY, COUNT_TOO_BIG, CUT_STRING, ODD_UTF16, N_RECORDS };

static void build(rh_bytes *file)
{
    rh_file_header(file, 1, 1000000000u);
    metadata(file);
    rh_bytes block = {0}, p = {0};
    /* GOOD: 2 elements, then Tail. */
    rh_le(&p, 2, 4);
    element(&p, 0x1111, -1, "Ab");
    element(&p, 0x2222, 7, "");
    rh_le(&p, 0xBEEF, 2);
    record(&block, &p);
    p.len = 0;
    /* EMPTY: no element, then Tail. */
    rh_le(&p, 0, 4);
    rh_le(&p, 0x1234, 2);
    record(&block, &p);
    p.len = 0;
    /* COUNT_TOO_BIG: Count 1000000 but 1 element (and 2 bytes the next one cannot be). */
    rh_le(&p, 1000000, 4);
    element(&p, 1, 1, "x");
    rh_le(&p, 0xBEEF, 2);
    record(&block, &p);
    p.len = 0;
    /* CUT_STRING: 1 element whose Name has no terminator. */
    rh_le(&p, 1, 4);
    rh_le(&p, 5, 8);
    rh_le(&p, 6, 4);
    rh_le(&p, 'q', 2);
    rh_le(&p, 'r', 2);
    record(&block, &p);
    p.len = 0;
    /* ODD_UTF16: Name 'A' then one 0 byte: no 0 unit at an even distance. */
    rh_le(&p, 1, 4);
    rh_le(&p, 5, 8);
    rh_le(&p, 6, 4);
    rh_le(&p, 'A', 2);
    rh_le(&p, 0, 1);
    record(&block, &p);
    rh_append_block(file, 2, 9, 0, N_RECORDS, 0, RH_START_TICKS, &block);
    uint64_t tid = 9, written = N_RECORDS;
    rh_end_block(file, 1, &tid, &written);
    rh_free(&block);
    rh_free(&p);
}

static void test_walk_and_malformed_elements(void **state)
{
    (void)state;
    rh_bytes file = {0};
    build(&file);
    evgen_reader *rd = rh_open_memory(file.data, file.len);
    size_t n_problems = 0;
    evgen_reader_problems(rd, &n_problems);
    assert_int_equal(n_problems, 0);
    evgen_event ev;
    uint32_t off, size;

    assert_true(evgen_reader_next(rd, &ev)); /* GOOD */
    const evgen_trace_struct *st = &ev.info->manifest->structs[0];
    assert_true(st->variable && st->stride == 0 && st->n_members == 3);
    assert_true(evgen_event_field(&ev, 1, &off, &size));
    assert_int_equal(off, 4);
    assert_int_equal(size, (12 + 6) + (12 + 2));
    uint32_t e0 = evgen_struct_element_size(st, ev.payload + off, size, ev.pointer_size);
    assert_int_equal(e0, 18);
    uint32_t mo, ms;
    assert_true(evgen_struct_member(st, ev.payload + off, e0, ev.pointer_size, 2, &mo, &ms));
    assert_int_equal(mo, 12);
    assert_int_equal(ms, 6);
    assert_true(evgen_struct_member(st, ev.payload + off, e0, ev.pointer_size, 1, &mo, &ms));
    assert_true(mo == 8 && ms == 4);
    assert_false(evgen_struct_member(st, ev.payload + off, e0, ev.pointer_size, 3, &mo, &ms));
    assert_int_equal(evgen_struct_element_size(st, ev.payload + off + e0, size - e0, ev.pointer_size), 14);
    assert_true(evgen_event_field(&ev, 2, &off, &size));
    assert_int_equal(evgen_wire_load(ev.payload + off, 2), 0xBEEF);

    assert_true(evgen_reader_next(rd, &ev)); /* EMPTY */
    assert_true(evgen_event_field(&ev, 1, &off, &size));
    assert_true(off == 4 && size == 0);
    assert_true(evgen_event_field(&ev, 2, &off, &size));
    assert_int_equal(evgen_wire_load(ev.payload + off, 2), 0x1234);

    for (int i = COUNT_TOO_BIG; i < N_RECORDS; i++) {
        assert_true(evgen_reader_next(rd, &ev));
        assert_true(evgen_event_field(&ev, 0, &off, &size)); /* Count, before the array */
        assert_false(evgen_event_field(&ev, 1, &off, &size));
        assert_false(evgen_event_field(&ev, 2, &off, &size));
    }
    assert_false(evgen_reader_next(rd, &ev));
    evgen_reader_close(rd);
    rh_free(&file);
}

/* Every cut of the GOOD payload: the array is absent, or whole with the elements it claims. */
static void test_every_cut(void **state)
{
    (void)state;
    rh_bytes file = {0};
    build(&file);
    evgen_reader *rd = rh_open_memory(file.data, file.len);
    evgen_event ev;
    assert_true(evgen_reader_next(rd, &ev));
    uint32_t full = ev.size;
    for (uint32_t n = 0; n < full; n++) {
        uint8_t *cut = malloc(n ? n : 1);
        memcpy(cut, ev.payload, n);
        evgen_event c = ev;
        c.payload = cut;
        c.size = n;
        evgen_event_locate_variable(&c);
        uint32_t off, size;
        int has = evgen_event_field(&c, 1, &off, &size);
        assert_int_equal(has, n >= 4 + 32);
        assert_false(evgen_event_field(&c, 2, &off, &size));
        free(cut);
    }
    evgen_reader_close(rd);
    rh_free(&file);
}

static char *dump(const char *path, int json)
{
    char out_path[] = "/tmp/evgen_var_dump_XXXXXX";
    int fd = mkstemp(out_path);
    assert_true(fd >= 0);
    evgen_dump_options o;
    evgen_dump_options_init(&o);
    o.json = json;
    o.progress = 0;
    FILE *err = tmpfile();
    assert_int_equal(evgen_dump(path, &o, fd, err), 0);
    fclose(err);
    close(fd);
    char *text = evgen_test_read(out_path);
    unlink(out_path);
    return text;
}

static void test_dump(void **state)
{
    (void)state;
    rh_bytes file = {0};
    build(&file);
    char path[] = "/tmp/evgen_var_trace_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, file.data, file.len), (ssize_t)file.len);
    close(fd);
    char *text = dump(path, 0);
    assert_non_null(strstr(text, "Values=[{Id=4369,Flags=-1,Name=\"Ab\"},{Id=8738,Flags=7,Name=\"\"}] Tail=48879"));
    assert_non_null(strstr(text, "Values=[] Tail=4660"));
    free(text);
    char *json = dump(path, 1);
    int lines = 0, found = 0;
    for (char *line = strtok(json, "\n"); line; line = strtok(NULL, "\n"), lines++) {
        json_object *o = json_tokener_parse(line);
        assert_non_null(o);
        json_object *fields, *values;
        if (json_object_object_get_ex(o, "fields", &fields) && json_object_object_get_ex(fields, "Values", &values) &&
            json_object_array_length(values) == 2) {
            json_object *second = json_object_array_get_idx(values, 1), *name, *flags;
            assert_true(json_object_object_get_ex(second, "Name", &name));
            assert_string_equal(json_object_get_string(name), "");
            assert_true(json_object_object_get_ex(json_object_array_get_idx(values, 0), "Flags", &flags));
            assert_int_equal(json_object_get_int(flags), -1);
            found++;
        }
        json_object_put(o);
    }
    assert_int_equal(lines, N_RECORDS);
    assert_int_equal(found, 1);
    free(json);
    unlink(path);
    rh_free(&file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_and_malformed_elements),
        cmocka_unit_test(test_every_cut),
        cmocka_unit_test(test_dump),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
