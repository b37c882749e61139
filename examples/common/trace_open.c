/* trace_open.c — opens a trace for an example reader and reports its problems with their offsets. */
#include "trace_open.h"

#include <stdio.h>
#include <stdlib.h>

#include "gcevents_reader.h"

evgen_reader *example_trace_open(const char *prog, const char *path)
{
    char *error = NULL;
    /* A .nettrace file written by a .NET runtime describes none of its GC events' fields: they are
     * bound to manifest/gcevents.h (an .evtrace file ignores the option: it describes its own). */
    const evgen_reader_manifest *manifests[] = {&gcevents_reader_manifest};
    evgen_reader_options options = {manifests, 1};
    evgen_reader *reader = evgen_reader_open_with(path, &options, &error);
    if (!reader) {
        fprintf(stderr, "%s: %s: %s\n", prog, path, error ? error : "cannot open the trace");
        free(error);
    }
    return reader;
}

int example_trace_problems(const char *prog, const char *path, const evgen_reader *reader)
{
    size_t count = 0;
    const evgen_read_problem *problems = evgen_reader_problems(reader, &count);
    for (size_t i = 0; i < count; i++)
        fprintf(stderr, "%s: warning: %s: offset %llu: %s\n", prog, path, (unsigned long long)problems[i].offset,
                problems[i].message);
    /* A .nettrace file's lost events (sequence gaps): the runtime's buffers overflowed. */
    if (evgen_reader_header(reader)->container == EVGEN_CONTAINER_NETTRACE) {
        size_t n_threads;
        int has_end;
        const evgen_reader_thread *threads = evgen_reader_threads(reader, &n_threads, &has_end);
        uint64_t lost = 0;
        for (size_t i = 0; i < n_threads; i++)
            lost += threads[i].dropped;
        if (lost)
            fprintf(stderr, "%s: warning: %s: %llu events were lost by the runtime (sequence number gaps): the "
                            "results above lack them\n",
                    prog, path, (unsigned long long)lost);
    }
    uint64_t truncated_at = 0;
    evgen_read_status status = evgen_reader_status(reader, &truncated_at);
    if (status == EVGEN_READ_TRUNCATED)
        fprintf(stderr, "%s: warning: %s: truncated: read up to offset %llu; the results above stop there\n", prog,
                path, (unsigned long long)truncated_at);
    else if (status == EVGEN_READ_CORRUPT)
        fprintf(stderr, "%s: warning: %s: corrupt: the results above lack the skipped blocks\n", prog, path);
    return status != EVGEN_READ_OK || count != 0;
}
