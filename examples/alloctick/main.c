/* main.c — alloctick TRACE [--top N]: the GCAllocationTick samples of a trace, summarised per heap
 * (SOH, LOH, POH) and per type, with each type's upscaled allocation estimate (alloctick.h),
 * largest first, the top N types (default 20; 0: all). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloctick.h"
#include "trace_open.h"
#include "units.h"

static const char *const heap_names[ALLOCTICK_HEAPS] = {"SOH", "LOH", "POH", "other"};

/* A share in percent with one decimal, rounded. */
static const char *percent(uint64_t part, uint64_t whole, char *buf, size_t size)
{
    if (whole == 0)
        snprintf(buf, size, "-");
    else {
        unsigned long long t = (unsigned long long)((part * 2000.0 / whole + 1) / 2);
        snprintf(buf, size, "%llu.%llu", t / 10, t % 10);
    }
    return buf;
}

static void print_heaps(const alloctick *a)
{
    alloctick_sum total = alloctick_total(a);
    char mb[32], pc[48];
    printf("\n%-6s %10s %14s %7s\n", "Heap", "Ticks", "Estimated MB", "%");
    for (int h = 0; h < ALLOCTICK_HEAPS; h++) {
        alloctick_sum s = alloctick_heap(a, h);
        if (h == ALLOCTICK_OTHER && s.ticks == 0)
            continue;
        printf("%-6s %10llu %14s %7s\n", heap_names[h], (unsigned long long)s.ticks, units_mb(s.bytes, mb, sizeof mb),
               percent(s.bytes, total.bytes, pc, sizeof pc));
    }
}

static void print_types(alloctick *a, size_t top)
{
    size_t n = 0;
    const alloctick_type *types = alloctick_types(a, &n);
    alloctick_sum total = alloctick_total(a);
    size_t shown = top == 0 || top > n ? n : top;
    printf("\nTop %zu of %zu types by estimated allocation:\n", shown, n);
    printf("%10s %14s %7s %10s %10s %10s %12s  %s\n", "Ticks", "Estimated MB", "%", "SOH MB", "LOH MB", "POH MB",
           "Mean object", "Type");
    for (size_t i = 0; i < shown; i++) {
        const alloctick_type *t = &types[i];
        char mb[4][32], pc[48], mean[32] = "-";
        if (t->sized_ticks)
            snprintf(mean, sizeof mean, "%llu", (unsigned long long)(t->object_bytes / t->sized_ticks));
        printf("%10llu %14s %7s %10s %10s %10s %12s  %s\n", (unsigned long long)t->total.ticks,
               units_mb(t->total.bytes, mb[0], sizeof mb[0]), percent(t->total.bytes, total.bytes, pc, sizeof pc),
               units_mb(t->heap_bytes[ALLOCTICK_SOH], mb[1], sizeof mb[1]),
               units_mb(t->heap_bytes[ALLOCTICK_LOH], mb[2], sizeof mb[2]),
               units_mb(t->heap_bytes[ALLOCTICK_POH], mb[3], sizeof mb[3]), mean, t->name);
    }
}

static int usage(void)
{
    fprintf(stderr, "usage: alloctick TRACE [--top N]\n"
                    "  GCAllocationTick samples per heap and per type, with the estimated bytes allocated\n"
                    "  (the sum of the ticks' amounts); the top N types (default 20, 0 for all)\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    size_t top = 20;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--top") == 0 && i + 1 < argc) {
            char *end = NULL;
            long long n = strtoll(argv[++i], &end, 10);
            if (!*argv[i] || *end || n < 0)
                return usage();
            top = (size_t)n;
        } else if (argv[i][0] == '-' || path)
            return usage();
        else
            path = argv[i];
    }
    if (!path)
        return usage();
    evgen_reader *reader = example_trace_open("alloctick", path);
    if (!reader)
        return 1;
    alloctick *a = alloctick_new();
    int failed = !a;
    evgen_event ev;
    evgen_reader_rewind(reader, EVGEN_ORDER_TIME);
    while (!failed && evgen_reader_next(reader, &ev))
        failed = alloctick_feed(a, &ev) != 0;
    int status = 0;
    if (failed) {
        fprintf(stderr, "alloctick: out of memory\n");
        status = 1;
    }
    if (a) {
        alloctick_sum total = alloctick_total(a);
        char mb[32];
        printf("GCAllocationTick: %llu ticks (one per ~100 KB allocated on a heap), estimated allocation %s MB\n",
               (unsigned long long)total.ticks, units_mb(total.bytes, mb, sizeof mb));
        print_heaps(a);
        print_types(a, top);
    }
    fflush(stdout);
    if (example_trace_problems("alloctick", path, reader))
        status = 1;
    alloctick_free(a);
    evgen_reader_close(reader);
    return status;
}
