/* report.c — gcheapstats_report TRACE [--svg OUT.svg]: reads a trace with libevgen-reader and the
 * generated accessors, in time order, through gclog (PerfView's tracking of suspensions and GCs:
 * gclog.h); prints one row per GC in GC number order, as PerfView's GCStats does, with its derived
 * figures (gcstats.h), then totals; with --svg, also writes a line chart of the sizes after each GC. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gclog.h"
#include "svg.h"
#include "table.h"
#include "trace_open.h"

typedef struct gc_list {
    gclog_entry *items;
    size_t n, cap;
} gc_list;

static int take_ready(gclog *log, gc_list *list)
{
    gclog_entry e;
    while (gclog_next(log, &e)) {
        if (list->n == list->cap) {
            size_t cap = list->cap ? 2 * list->cap : 64;
            gclog_entry *grown = realloc(list->items, cap * sizeof *grown);
            if (!grown)
                return -1;
            list->items = grown;
            list->cap = cap;
        }
        list->items[list->n++] = e;
    }
    return 0;
}

static int by_number(const void *a, const void *b)
{
    uint32_t x = ((const gclog_entry *)a)->number, y = ((const gclog_entry *)b)->number;
    return (x > y) - (x < y);
}

/* Reads every event into `list`; returns 0, or -1 if out of memory. */
static int read_gcs(evgen_reader *reader, gc_list *list)
{
    gclog *log = gclog_new();
    if (!log)
        return -1;
    int failed = 0;
    evgen_event ev;
    evgen_reader_rewind(reader, EVGEN_ORDER_TIME);
    while (!failed && evgen_reader_next(reader, &ev))
        failed = gclog_feed(log, &ev) != 0 || take_ready(log, list) != 0;
    if (!failed)
        failed = gclog_finish(log) != 0 || take_ready(log, list) != 0;
    gclog_free(log);
    if (list->n > 1)
        qsort(list->items, list->n, sizeof *list->items, by_number);
    return failed ? -1 : 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: gcheapstats_report TRACE [--svg OUT.svg]\n"
                    "  a per-GC table (generation, type, reason, pause, sizes after, promoted bytes) and totals;\n"
                    "  --svg OUT.svg also writes a line chart of the sizes after each GC\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *path = NULL, *svg_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--svg") == 0 && i + 1 < argc)
            svg_path = argv[++i];
        else if (argv[i][0] == '-' || path)
            return usage();
        else
            path = argv[i];
    }
    if (!path)
        return usage();
    evgen_reader *reader = example_trace_open("gcheapstats_report", path);
    if (!reader)
        return 1;
    gc_list list = {NULL, 0, 0};
    int status = 0;
    if (read_gcs(reader, &list) != 0) {
        fprintf(stderr, "gcheapstats_report: out of memory\n");
        status = 1;
    }
    table_print(stdout, list.items, list.n);
    fflush(stdout);
    if (svg_path) {
        const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        char title[512];
        snprintf(title, sizeof title, "GC heap sizes after each GC: %s", name);
        if (svg_write(svg_path, title, list.items, list.n) != 0) {
            perror(svg_path);
            status = 1;
        }
    }
    if (example_trace_problems("gcheapstats_report", path, reader))
        status = 1;
    free(list.items);
    evgen_reader_close(reader);
    return status;
}
