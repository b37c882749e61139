/* test_gen_roundtrip.c — one manifest's generated code round-trips: built once per manifest of
 * tests/manifests/good (and more), with MANIFEST_REL naming the manifest and FIRE_ALL its
 * generated harness (see tests/gen/CMakeLists.txt). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "roundtrip.h"

size_t FIRE_ALL(void);

static void test_every_event_version_round_trips(void **state)
{
    (void)state;
    assert_true(roundtrip_check(MANIFEST_REL, FIRE_ALL) > 0);
}

static int teardown(void **state)
{
    (void)state;
    roundtrip_free();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_event_version_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
