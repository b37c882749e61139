/* fuzz_trace.h — what the trace fuzz targets do with a trace (fuzz_trace.c). */
#ifndef EVGEN_FUZZ_TRACE_H
#define EVGEN_FUZZ_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "evgen/compat_test.h" /* evgen_read_all_fn: a generated reader's read-all harness */
#include "evgen/reader.h"

/* Reads the trace `data` every way a tool can, checking what the reader promises:
 * - opened from memory with `options` (NULL: none): header, events, lookup by name, threads,
 *   problems and status;
 * - iterated in file order and in time order: every field of every event through the generic
 *   field API (each must lie inside its payload, and its bytes are read), strings converted,
 *   the stack and activity id read, then the same event with its payload cut in half, and every
 *   accessor of the generated reader `read_all` (NULL: none);
 * - dispatched to a handler of every event;
 * - dumped by evgen dump (text and JSON lines, file and time order, --stats) to /dev/null. */
void evgen_fuzz_read_trace(const uint8_t *data, size_t size, const evgen_reader_options *options,
                           evgen_read_all_fn read_all);

#endif /* EVGEN_FUZZ_TRACE_H */
