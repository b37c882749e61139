/* test_example_simulate.c — examples/gcheapstats' simulated GC, run as a program: its trace
 * parses, holds one GCTriggered, GCStart v2, GCEnd v1 and GCHeapStats v2 per GC, and its
 * allocation ticks, with nothing dropped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_support.h"
#include "trace_parse.h"

typedef struct counts {
    const tp_trace *trace;
    size_t start_v2, end_v1, heapstats_v2, triggered, ticks_v4, other;
    uint64_t last_poh;
} counts;

static void count_record(const tp_record *r, void *context)
{
    counts *c = context;
    const tp_type *t = &c->trace->types[r->type];
    const tp_event *e = &c->trace->manifests[t->manifest].events[t->event];
    uint64_t v = e->versions[t->version].version;
    if (strcmp(e->name, "GCStart") == 0 && v == 2)
        c->start_v2++;
    else if (strcmp(e->name, "GCEnd") == 0 && v == 1)
        c->end_v1++;
    else if (strcmp(e->name, "GCHeapStats") == 0 && v == 2 && r->size == 110) {
        c->heapstats_v2++;
        memcpy(&c->last_poh, r->payload + 94, 8); /* GenerationSize4 */
    } else if (strcmp(e->name, "GCTriggered") == 0)
        c->triggered++;
    else if (strcmp(e->name, "GCAllocationTick") == 0 && v == 4)
        c->ticks_v4++;
    else
        c->other++;
}

static void test_simulated_gc_trace(void **state)
{
    (void)state;
    char *dir = evgen_test_tempdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/gc.evtrace", dir);
    const char *argv[] = {EVGEN_SIMULATE_EXE, path, "25", NULL};
    char *out = NULL, *err = NULL;
    assert_int_equal(evgen_test_run(argv, NULL, &out, &err), 0);
    assert_non_null(strstr(out, "25 GCs"));
    assert_non_null(strstr(out, "(0 dropped)"));
    size_t size = 0;
    uint8_t *data = tp_read_file(path, &size);
    assert_non_null(data);
    tp_trace trace;
    counts c;
    memset(&c, 0, sizeof c);
    c.trace = &trace;
    /* tp_parse decodes the metadata before the records that use it, so the callback can look
     * types up in the trace being filled. */
    if (tp_parse(data, size, count_record, &c, &trace) != 0)
        fail_msg("trace does not parse: %s", trace.error);
    assert_true(trace.has_end);
    assert_int_equal(c.start_v2, 25);
    assert_int_equal(c.end_v1, 25);
    assert_int_equal(c.heapstats_v2, 25);
    assert_int_equal(c.triggered, 25);
    assert_true(c.ticks_v4 > 25);
    assert_int_equal(c.other, 0);
    assert_true(c.last_poh > 0);
    tp_free(&trace);
    free(data);
    free(out);
    free(err);
    evgen_test_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_simulated_gc_trace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
