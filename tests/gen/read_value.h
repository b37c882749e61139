/* read_value.h — what the generated read-all harnesses (NAME_read_all.c) report per field; the
 * same struct as the one gen/templates/read_all.c.tmpl declares. */
#ifndef EVGEN_TEST_READ_VALUE_H
#define EVGEN_TEST_READ_VALUE_H

#include <stdint.h>

#include "evgen/reader.h"

typedef struct evgen_read_value {
    const char *field;
    int present;
    uint64_t bits;   /* the value, or a digest of it */
    uint32_t length; /* strings: code units; arrays: elements */
} evgen_read_value;

int gcevents_read_all(const evgen_event *ev, evgen_read_value *values, int capacity);
int gcv1_read_all(const evgen_event *ev, evgen_read_value *values, int capacity);

#endif /* EVGEN_TEST_READ_VALUE_H */
