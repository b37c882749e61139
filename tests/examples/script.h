/* script.h — recording scripted traces for the example tests: a memory session with the GC
 * provider enabled, written to by the generated FireEtw functions, handed back as bytes. */
#ifndef EXAMPLE_TEST_SCRIPT_H
#define EXAMPLE_TEST_SCRIPT_H

#include <stddef.h>
#include <stdint.h>

/* Opens a memory session recording every event of Microsoft-Windows-DotNETRuntime and
 * -Private, runs body(arg), closes the session and returns the trace (free() it). Aborts on
 * failure; asserts that nothing was dropped. */
uint8_t *script_record(void (*body)(void *), void *arg, size_t *size);

/* Writes `size` bytes to `path` (aborts on failure). */
void script_write_file(const char *path, const uint8_t *data, size_t size);

/* A copy of `path` cut to `size` bytes, or with the byte at `offset` inverted, written to `out`. */
void script_cut_file(const char *path, const char *out, size_t size);
void script_flip_byte(const char *path, const char *out, size_t offset);

/* The size of a file (aborts if it cannot be read). */
size_t script_file_size(const char *path);

#endif /* EXAMPLE_TEST_SCRIPT_H */
