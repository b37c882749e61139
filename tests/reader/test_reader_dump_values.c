/* test_reader_dump_values.c — `evgen dump` of one manifest's fire-all trace, every value checked
 * in text and JSON: built once per manifest of tests/manifests/good (every type: integers of
 * every width and sign, floats, bools, GUIDs, pointers, UTF-8 and UTF-16 strings, enums, arrays of
 * scalars and of padded structs), with MANIFEST_REL naming it and FIRE_ALL its harness. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "dump_check.h"

size_t FIRE_ALL(void);

static void test_dump_prints_every_value(void **state)
{
    (void)state;
    assert_true(dump_check_values(MANIFEST_REL, FIRE_ALL) > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dump_prints_every_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
