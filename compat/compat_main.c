/* compat_main.c — main() of a manifest's NAME_compat test, compiled in the build that calls
 * evgen_add_manifest(NAME ... GOLDEN dir), with NAME_READ_ALL, NAME_FIRE_ALL and, when the golden
 * directory holds a lock snapshot, OLDEST_READ_ALL and OLDEST_LOCK defined (EvgenAddManifest.cmake). */
#include <stddef.h>

#include "evgen/compat_test.h"

#if !defined(EVGEN_COMPAT_NAME) || !defined(EVGEN_COMPAT_READ_ALL) || !defined(EVGEN_COMPAT_FIRE_ALL)
#error "compat_main.c is compiled by evgen_add_manifest(... GOLDEN dir), which defines EVGEN_COMPAT_*"
#endif

int EVGEN_COMPAT_READ_ALL(const evgen_event *ev, evgen_read_value *values, int capacity);
size_t EVGEN_COMPAT_FIRE_ALL(void);
#ifdef EVGEN_COMPAT_OLDEST_READ_ALL
int EVGEN_COMPAT_OLDEST_READ_ALL(const evgen_event *ev, evgen_read_value *values, int capacity);
#define EVGEN_COMPAT_OLDEST EVGEN_COMPAT_OLDEST_READ_ALL
#else
#define EVGEN_COMPAT_OLDEST NULL
#define EVGEN_COMPAT_OLDEST_LOCK NULL
#endif

int main(int argc, char **argv)
{
    const evgen_compat_harness harness = {EVGEN_COMPAT_NAME, EVGEN_COMPAT_READ_ALL, EVGEN_COMPAT_FIRE_ALL,
                                          EVGEN_COMPAT_OLDEST, EVGEN_COMPAT_OLDEST_LOCK};
    return evgen_compat_test_main(argc, argv, &harness);
}
