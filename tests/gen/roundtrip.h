/* roundtrip.h — the generic round trip of a manifest's generated code (roundtrip.c). */
#ifndef EVGEN_TEST_ROUNDTRIP_H
#define EVGEN_TEST_ROUNDTRIP_H

#include <stddef.h>

/* Fires every version of every event of `manifest_rel` (relative to the source tree) with
 * `fire_all` (the generated harness) into a memory session, and checks every record against the
 * payload built from the manifest's `evgen describe --json` layout and the derived values.
 * Fails the current cmocka test on any difference; returns the number of versions checked. */
size_t roundtrip_check(const char *manifest_rel, size_t (*fire_all)(void));

/* Frees the buffers the derived strings and arrays live in. */
void roundtrip_free(void);

#endif /* EVGEN_TEST_ROUNDTRIP_H */
