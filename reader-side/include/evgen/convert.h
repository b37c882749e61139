/* evgen/convert.h — `evgen convert`: rewrites a trace libevgen-reader reads (an EventPipe .nettrace
 * file, or an .evtrace file) as an .evtrace file (docs/format.md) that keeps every event the reader
 * reads, with its thread id, its timestamp in the input's ticks and its payload bytes, described by
 * metadata any .evtrace reader decodes without the manifests. docs/convert.md describes the output:
 * which metadata blocks, how types are numbered, and the "raw" types of payloads no layout fits.
 *
 * Thread safety: each call opens its own reader; calls on different files are independent. */
#ifndef EVGEN_CONVERT_H
#define EVGEN_CONVERT_H

#include <stdio.h>

#include "evgen/reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Converts the trace at `in` into an .evtrace file at `out`, opening `in` with `options` (NULL:
 * none; the manifests .nettrace events are bound to, evgen_reader_open_with).
 *
 * `out` is checked before anything is read (evgen/files.h): it must not be `in` (the same path or
 * the same file), and it may only be a new file or a regular file (a symbolic link: the regular
 * file it points to, replaced in place); a FIFO, a device, a socket or a directory is refused. The
 * output is written to a temporary file beside it and renamed over it once complete, so `out` is
 * either left as it was or is a whole trace. Returns 0, or 1 with messages on `err` (NULL: none):
 * - `out` is refused: "OUT: cannot write: ..."; nothing is read or created;
 * - `in` cannot be opened: "IN: message"; `out` is not created;
 * - `in` has problems (corrupt blocks, truncation): every event the reader reads is converted and
 *   `out` written, then one "IN: offset N: message" line per problem;
 * - the output cannot be written or renamed, or memory ran out: "PATH: message"; `out` is not
 *   created (the temporary file is removed). */
int evgen_convert(const char *in, const char *out, const evgen_reader_options *options, FILE *err);

/* evgen_convert, where `out` must not be any of the other files the caller read either
 * (`also_read[0..n_also_read)`: the manifests of `options`, say). */
int evgen_convert_with(const char *in, const char *out, const evgen_reader_options *options,
                       const char *const *also_read, size_t n_also_read, FILE *err);

/* evgen_convert_with, writing `out` in .evtrace format `format_version` (docs/format.md,
 * "Versions"): 0 for the newest this evgen writes (what evgen_convert writes), or an older one, for
 * readers of older evgen versions (format 1: every evgen; 2: evgen 0.2 on). Another version is
 * refused: "OUT: cannot write .evtrace format N (this evgen writes 1 to 2)", nothing read or
 * created. */
int evgen_convert_format(const char *in, const char *out, const evgen_reader_options *options, unsigned format_version,
                         const char *const *also_read, size_t n_also_read, FILE *err);

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_CONVERT_H */
