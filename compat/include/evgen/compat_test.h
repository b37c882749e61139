/* compat_test.h — libevgen-compat: the golden-trace compatibility test that evgen_add_manifest(...
 * GOLDEN dir) builds as NAME_compat, in evgen's tree and in a user's project alike.
 *
 * A manifest's compatibility, checked against the traces it shipped:
 *   1. every version today's manifest has (as its fire-all harness fires them) and every version
 *      its lock freezes is held by a golden trace of the golden directory;
 *   2. every golden trace ever recorded reads with today's generated reader, every field equal
 *      to its deterministic value (compat/golden/golden_values.h: derived from event, version
 *      and field);
 *   3. a trace written today reads with the reader generated from the oldest lock snapshot of the
 *      golden directory (evgen gen --from-lock), every event that reader knows field by field.
 * No test framework is needed: results go to stdout, one line each, closing with
 * "N passed, N failed"; the exit status is 0 only when every check passed. */
#ifndef EVGEN_COMPAT_TEST_H
#define EVGEN_COMPAT_TEST_H

#include <stddef.h>
#include <stdint.h>

#include "evgen/reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a generated read-all harness (NAME_read_all.c) reports per field; the same struct as the
 * one gen/backends/templates/read_all.c.tmpl declares. */
typedef struct evgen_read_value {
    const char *field;
    int present;
    uint64_t bits;   /* the value, or a digest of it */
    uint32_t length; /* strings: code units; arrays: elements */
} evgen_read_value;

/* NAME_read_all: fills values[] for an event the generated reader knows and returns the number of
 * fields, or -1 for an event it does not know. */
typedef int (*evgen_read_all_fn)(const evgen_event *ev, evgen_read_value *values, int capacity);
/* NAME_fire_all: fires every version of every event of the manifest, with golden values. */
typedef size_t (*evgen_fire_all_fn)(void);

enum { EVGEN_COMPAT_UNKNOWN_EVENT = -1, EVGEN_COMPAT_MISMATCH = -2 };

/* Checks an event read through a generated reader against the deterministic golden values: every
 * field the event's version has (by the trace's own metadata) must be present with its value, and
 * every other field absent. Returns the number of fields checked; EVGEN_COMPAT_UNKNOWN_EVENT if
 * `read_all` does not know the event; EVGEN_COMPAT_MISMATCH with `why` (of `why_size` bytes)
 * naming the event, version, field, and what was read and expected. */
int evgen_compat_check_event(const evgen_event *ev, evgen_read_all_fn read_all, char *why, size_t why_size);

/* The values NAME_fire_all() fires (its template declares all of them): a scalar field's value and
 * an array's element count, derived from (event, version, field) alone. The strings and arrays it
 * fires live in buffers that evgen_compat_fire_values_free() releases. */
uint64_t evgen_test_value(const char *event, unsigned version, const char *field);
uint32_t evgen_test_count(const char *event, unsigned version, const char *field);
void evgen_compat_fire_values_free(void);

/* The harnesses of one manifest, which evgen_add_manifest(... GOLDEN dir) builds beside the test. */
typedef struct evgen_compat_harness {
    const char *name;                /* NAME, for messages */
    evgen_read_all_fn read_all;      /* today's reader */
    evgen_fire_all_fn fire_all;      /* today's writer */
    evgen_read_all_fn oldest_read_all; /* the oldest lock snapshot's reader, or NULL if none */
    const char *oldest_lock;         /* its lock snapshot, for messages (or NULL) */
} evgen_compat_harness;

/* main() of NAME_compat. Usage: NAME_compat GOLDEN_DIR LOCK_FILE [MANIFEST]; MANIFEST only names
 * the manifest in the `evgen lock` command a failure suggests. Returns 0 if every check passed,
 * 1 if one failed, 2 for a usage error. */
int evgen_compat_test_main(int argc, char **argv, const evgen_compat_harness *harness);

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_COMPAT_TEST_H */
