/* test_gen_var_store.c — a variable struct element's generated store never outgrows the space its
 * size pass measured, even when the caller changes a string in between (FireEtw measures every
 * element, reserves, then stores). The generated runtime side of good/variable-struct-array.h is
 * compiled into this test itself, so that its static helpers can be called directly:
 * _struct0_size measures an element, _struct0_put stores it within a limit, _struct0_min_size is
 * the fewest bytes an element takes (every string empty). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "good_variable_struct_array_runtime.c"

#define GUARD 0xA5
#define ROOM 512

/* The strings the element points to, changed by the tests between the passes. */
static uint16_t field_name[64];
static char type_name[64];

static void set_utf16(const char *ascii)
{
    size_t i = 0;
    for (; ascii[i]; i++)
        field_name[i] = (uint16_t)(unsigned char)ascii[i];
    field_name[i] = 0;
}

static NamedRoot element(void)
{
    NamedRoot e;
    memset(&e, 0, sizeof e);
    e.RootID = 0x1122334455667788u;
    e.Kind = RootKind_Thread;
    e.Flags = 7;
    e.FieldName = field_name;
    e.Slot = 9;
    e.TypeName = type_name;
    e.Address = (evgen_ptr)(uintptr_t)0x1000;
    e.Pinned = true;
    return e;
}

/* The element stored at p, walked member by member as a reader would: its end, or NULL when a
 * string has no terminator before limit. */
static const uint8_t *walk(const uint8_t *p, const uint8_t *limit)
{
    p += 8 + 4 + 4;
    while (p + 1 < limit && (p[0] | p[1]))
        p += 2;
    if (p + 1 >= limit)
        return NULL;
    p += 2 + 2;
    while (p < limit && *p)
        p++;
    if (p >= limit)
        return NULL;
    return p + 1 + sizeof(void *) + 1;
}

/* Unchanged strings: the store takes exactly the measured size, strings whole. */
static void test_unchanged_element_is_stored_as_measured(void **state)
{
    (void)state;
    set_utf16("Counter");
    strcpy(type_name, "App.Program");
    NamedRoot e = element();
    size_t size = good_variable_struct_array_struct0_size(&e);
    assert_int_equal(size, 16 + 2 * 8 + 2 + 12 + sizeof(void *) + 1);
    uint8_t buf[ROOM];
    memset(buf, GUARD, sizeof buf);
    uint8_t *end = good_variable_struct_array_struct0_put(buf, &e, buf + size);
    assert_ptr_equal(end, buf + size);
    assert_ptr_equal(walk(buf, buf + size), buf + size);
    assert_memory_equal(buf + 16, "C\0o\0u\0n\0t\0e\0r\0\0\0", 16);
    assert_memory_equal(buf + 34, "App.Program", 12);
    assert_int_equal(buf[size], GUARD);
}

/* Strings lengthened after the size pass: cut to fit, each still terminated, nothing written past
 * the measured size. */
static void test_lengthened_strings_stay_within_the_measured_size(void **state)
{
    (void)state;
    set_utf16("ab");
    strcpy(type_name, "x");
    NamedRoot e = element();
    size_t size = good_variable_struct_array_struct0_size(&e);
    set_utf16("a much longer field name than measured");
    strcpy(type_name, "a much longer type name than measured");
    uint8_t buf[ROOM];
    memset(buf, GUARD, sizeof buf);
    uint8_t *end = good_variable_struct_array_struct0_put(buf, &e, buf + size);
    assert_ptr_equal(end, buf + size);
    assert_ptr_equal(walk(buf, buf + size), buf + size);
    for (size_t i = size; i < sizeof buf; i++)
        assert_int_equal(buf[i], GUARD);
}

/* Shortened strings: the element ends before its limit (FireEtw zero-fills the rest of the array). */
static void test_shortened_strings_end_before_the_limit(void **state)
{
    (void)state;
    set_utf16("a long field name");
    strcpy(type_name, "a long type name");
    NamedRoot e = element();
    size_t size = good_variable_struct_array_struct0_size(&e);
    set_utf16("");
    type_name[0] = 0;
    uint8_t buf[ROOM];
    memset(buf, GUARD, sizeof buf);
    uint8_t *end = good_variable_struct_array_struct0_put(buf, &e, buf + size);
    assert_int_equal((size_t)(end - buf), good_variable_struct_array_struct0_min_size());
    assert_ptr_equal(walk(buf, buf + size), end);
}

/* Two elements, as FireEtw stores them: the first one's limit leaves the second its fewest bytes,
 * so a first element lengthened in between cannot crowd the second out of the reservation. */
static void test_an_element_leaves_room_for_the_next(void **state)
{
    (void)state;
    set_utf16("a");
    strcpy(type_name, "b");
    NamedRoot e[2] = {element(), element()};
    size_t size = good_variable_struct_array_struct0_size(&e[0]) + good_variable_struct_array_struct0_size(&e[1]);
    set_utf16("lengthened between the passes");
    strcpy(type_name, "so was this one");
    uint8_t buf[ROOM];
    memset(buf, GUARD, sizeof buf);
    uint8_t *end = buf + size, *p = buf;
    p = good_variable_struct_array_struct0_put(p, &e[0], end - good_variable_struct_array_struct0_min_size());
    const uint8_t *second = p;
    p = good_variable_struct_array_struct0_put(p, &e[1], end);
    assert_ptr_equal(p, end);
    assert_ptr_equal(walk(buf, end), second);
    assert_ptr_equal(walk(second, end), end);
    assert_int_equal(buf[size], GUARD);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unchanged_element_is_stored_as_measured),
        cmocka_unit_test(test_lengthened_strings_stay_within_the_measured_size),
        cmocka_unit_test(test_shortened_strings_end_before_the_limit),
        cmocka_unit_test(test_an_element_leaves_room_for_the_next),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
