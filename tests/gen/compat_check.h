/* compat_check.h — checks that an event read through a generated reader holds the deterministic
 * values of gen/golden_values.h (what the fire-all harnesses fire and golden traces hold). */
#ifndef EVGEN_TEST_COMPAT_CHECK_H
#define EVGEN_TEST_COMPAT_CHECK_H

#include "read_value.h"

typedef int (*evgen_read_all_fn)(const evgen_event *ev, evgen_read_value *values, int capacity);

/* Fails the current cmocka test, naming the event, version and field, unless every field the
 * event's version has is present with its deterministic value, and every other field is absent.
 * Returns the number of fields checked, or -1 if `read_all` does not know the event. */
int compat_check_event(const evgen_event *ev, evgen_read_all_fn read_all);

#endif /* EVGEN_TEST_COMPAT_CHECK_H */
