/* dump_check.h — `evgen dump` of a fire-all trace, checked value by value (dump_check.c). */
#ifndef EVGEN_TEST_DUMP_CHECK_H
#define EVGEN_TEST_DUMP_CHECK_H

#include <stddef.h>

/* Records every version of every event of `manifest_rel` (relative to the source tree) with
 * `fire_all` into a trace file, runs `evgen dump --json` and `evgen dump` on it, and checks every
 * field of every line: JSON values and the text rendering, both from the field types of
 * `evgen describe --json` and the values tests/gen/roundtrip.c derives. Fails the current cmocka
 * test on any difference; returns the number of events checked. */
size_t dump_check_values(const char *manifest_rel, size_t (*fire_all)(void));

#endif /* EVGEN_TEST_DUMP_CHECK_H */
