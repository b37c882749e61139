/* real_trace.h — the real traces of ../shared/reference/traces/, unzipped at test time into a
 * temporary directory, and PerfView TraceEvent's baselines for them, parsed and compared. */
#ifndef EVGEN_TEST_REAL_TRACE_H
#define EVGEN_TEST_REAL_TRACE_H

#include <stddef.h>
#include <stdint.h>

#define REAL_TRACE_NAME "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace"

/* Unzips the trace into a new temporary directory (*dir, caller removes it with
 * evgen_test_rmtree and frees it). Returns the trace's path (caller frees), or NULL when
 * ../shared is not beside the checkout (the caller skips). A failure to unzip fails the test. */
char *real_trace_unzip(char **dir);
/* The same for any trace of ../shared/reference/traces/: `name` is the trace's file name, the zip
 * is `name`.zip. */
char *real_trace_unzip_named(const char *name, char **dir);
/* Removes what real_trace_unzip made (dir may be NULL) and frees both strings. */
void real_trace_remove(char *dir, char *path);

/* In a test: skips it, saying why, when the trace is not there (`present` false). */
#define REAL_TRACE_NEEDED(present)                                                                               \
    do {                                                                                                         \
        if (!(present)) {                                                                                        \
            fprintf(stderr, "../shared/reference/traces is not beside the checkout: skipped\n");                  \
            skip();                                                                                              \
        }                                                                                                        \
    } while (0)

/* One line of the baseline: "Provider/EventName, count, <Event MSec=... attr="value" .../>". */
typedef struct baseline_attr {
    char *name, *value;
} baseline_attr;

typedef struct baseline_line {
    char *key; /* Provider/EventName */
    uint64_t count;
    double msec;
    uint64_t tid;
    baseline_attr *attrs; /* the event's own attributes (not MSec, PID, PName, TID, EventName, ...) */
    size_t n_attrs;
} baseline_line;

/* Parses the baseline of the .NET Core 3.0 trace; NULL when ../shared is absent. */
baseline_line *baseline_read(size_t *count);
/* The same for the trace `name` of ../shared/reference/traces/ (its `name`.baseline.txt). */
baseline_line *baseline_read_named(const char *name, size_t *count);
void baseline_free(baseline_line *lines, size_t count);

/* Compares one baseline attribute with the event's field of the same name, as PerfView prints it
 * (integers with thousands separators or in hex, enum names and flag lists, strings, floats,
 * integer arrays as [a,b], char arrays as text): fails the test on a difference; 1 when compared,
 * 0 when the event has no such field or it cannot be compared. */
struct evgen_event;
int baseline_compare_attr(const struct evgen_event *ev, const baseline_attr *a, const char *key);

#endif
