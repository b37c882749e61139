/* main.c — gclog TRACE: one line per GC of a trace (number, generation, type, reason, pause, sizes
 * after, compaction), in the order the GCs complete. The rules are in gclog.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gclog.h"
#include "trace_open.h"

/* Prints the entries ready; returns -1 if out of memory. */
static int print_ready(gclog *log, unsigned long *count)
{
    gclog_entry e;
    char small[512];
    while (gclog_next(log, &e)) {
        char *line = small;
        int n = gclog_format(&e, small, sizeof small);
        if (n >= (int)sizeof small) { /* a background GC's phases make a long line */
            line = malloc((size_t)n + 1);
            if (!line)
                return -1;
            gclog_format(&e, line, (size_t)n + 1);
        }
        puts(line);
        if (line != small)
            free(line);
        (*count)++;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: gclog TRACE\n"
                        "  one line per GC: number, generation, type, reason, pause, sizes after, compaction\n");
        return 2;
    }
    const char *path = argv[1];
    evgen_reader *reader = example_trace_open("gclog", path);
    if (!reader)
        return 1;
    gclog *log = gclog_new();
    if (!log) {
        fprintf(stderr, "gclog: out of memory\n");
        evgen_reader_close(reader);
        return 1;
    }
    unsigned long count = 0;
    int failed = 0;
    evgen_event ev;
    evgen_reader_rewind(reader, EVGEN_ORDER_TIME);
    while (!failed && evgen_reader_next(reader, &ev))
        failed = gclog_feed(log, &ev) != 0 || print_ready(log, &count) != 0;
    failed |= gclog_finish(log) != 0;
    failed |= print_ready(log, &count) != 0;
    printf("%lu GCs\n", count);
    if (failed)
        fprintf(stderr, "gclog: out of memory\n");
    int status = example_trace_problems("gclog", path, reader) || failed;
    gclog_free(log);
    evgen_reader_close(reader);
    return status;
}
