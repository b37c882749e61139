/* trace_open.h — opening a trace for an example reader, and reporting what went wrong in it. */
#ifndef EXAMPLE_TRACE_OPEN_H
#define EXAMPLE_TRACE_OPEN_H

#include "evgen/reader.h"

/* Opens `path` with libevgen-reader: an .evtrace file, or a .nettrace file from a .NET runtime
 * whose GC events are read through manifest/gcevents.h. On failure prints "PROG: PATH: error" on stderr (the
 * reader's message names the byte offset) and returns NULL. */
evgen_reader *example_trace_open(const char *prog, const char *path);

/* To call once the events were read: prints a warning on stderr for every problem the reader
 * found ("PROG: warning: PATH: offset N: message"), and returns 0 if the trace was read whole
 * and sound, 1 if it was corrupt or truncated (the exit status the examples then use). */
int example_trace_problems(const char *prog, const char *path, const evgen_reader *reader);

#endif /* EXAMPLE_TRACE_OPEN_H */
