/* test_gen_version_attributes.c — versions with a level and keywords of their own
 * (EVENT_VERSION_ATTRIBUTES), run: each version is written exactly to the sessions whose rules
 * match its own attributes, EventEnabled<Event>() is true while any version is recorded, and the
 * trace's metadata holds each version's level and keywords — read by the independent parser, by
 * libevgen-reader, and again after evgen convert. On manifest/gcevents.h (GCCreateConcurrentThread
 * and GCTerminateConcurrentThread: v0 keyword GC, v1 GC|Threading) and on
 * tests/manifests/good/version-attributes.h (Sweep: own attributes the event's do not cover). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evgen/convert.h"
#include "evgen/reader.h"
#include "evgen/runtime.h"
#include "gcevents_runtime.h"
#include "good_version_attributes_runtime.h"
#include "test_support.h"
#include "rt_helpers.h"
#include "trace_parse.h"

#define DOTNET "Microsoft-Windows-DotNETRuntime"
#define KW_GC 0x1ull
#define KW_THREADING 0x10000ull

static evgen_session *open_session(const char *provider, uint8_t level, uint64_t keywords)
{
    evgen_session *s = evgen_session_open_memory(NULL);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, provider, level, keywords), 0);
    return s;
}

/* How many records of `event` at `version` the trace holds. */
static size_t count_records(const rt_closed *c, const char *event, uint64_t version)
{
    size_t n = 0;
    for (size_t i = 0; i < c->records.n; i++) {
        uint64_t v;
        const tp_event *e = rt_record_event(c, &c->records.items[i], &v);
        n += strcmp(e->name, event) == 0 && v == version;
    }
    return n;
}

/* Fires both versions of both GC thread events; returns the statuses of v0 and v1 of the first. */
static void fire_thread_events(uint32_t *v0, uint32_t *v1)
{
    *v0 = FireEtwGCCreateConcurrentThread_V0();
    *v1 = FireEtwGCCreateConcurrentThread_V1(7);
    assert_int_equal(FireEtwGCTerminateConcurrentThread_V0(), *v0);
    assert_int_equal(FireEtwGCTerminateConcurrentThread_V1(7), *v1);
}

/* A session that enables only Threading records v1 (GC|Threading), not v0 (GC). */
static void test_threading_only_gets_v1_not_v0(void **state)
{
    (void)state;
    evgen_session *s = open_session(DOTNET, 4, KW_THREADING);
    assert_true(EventEnabledGCCreateConcurrentThread());
    assert_false(EventEnabledGCHeapStats());
    uint32_t v0, v1;
    fire_thread_events(&v0, &v1);
    assert_int_equal(v0, EVGEN_EMIT_DISABLED);
    assert_int_equal(v1, EVGEN_EMIT_OK);
    rt_closed c;
    rt_close_and_parse(s, &c);
    assert_int_equal(c.totals.written, 2);
    assert_int_equal(count_records(&c, "GCCreateConcurrentThread", 0), 0);
    assert_int_equal(count_records(&c, "GCCreateConcurrentThread", 1), 1);
    assert_int_equal(count_records(&c, "GCTerminateConcurrentThread", 0), 0);
    assert_int_equal(count_records(&c, "GCTerminateConcurrentThread", 1), 1);
    rt_closed_free(&c);
    assert_false(EventEnabledGCCreateConcurrentThread());
}

/* A session that enables GC records both versions. */
static void test_gc_gets_both(void **state)
{
    (void)state;
    evgen_session *s = open_session(DOTNET, 4, KW_GC);
    uint32_t v0, v1;
    fire_thread_events(&v0, &v1);
    assert_int_equal(v0, EVGEN_EMIT_OK);
    assert_int_equal(v1, EVGEN_EMIT_OK);
    rt_closed c;
    rt_close_and_parse(s, &c);
    assert_int_equal(count_records(&c, "GCCreateConcurrentThread", 0), 1);
    assert_int_equal(count_records(&c, "GCCreateConcurrentThread", 1), 1);
    assert_int_equal(count_records(&c, "GCTerminateConcurrentThread", 0), 1);
    assert_int_equal(count_records(&c, "GCTerminateConcurrentThread", 1), 1);
    rt_closed_free(&c);
}

/* Two sessions at once, Threading and GC: each gets exactly its versions. A level below the
 * events' (Informational, 4) records neither. */
static void test_two_sessions_each_get_theirs(void **state)
{
    (void)state;
    evgen_session *threading = open_session(DOTNET, 5, KW_THREADING);
    evgen_session *gc = open_session(NULL, 4, KW_GC);
    evgen_session *quiet = open_session(DOTNET, 3, ~0ull);
    uint32_t v0, v1;
    fire_thread_events(&v0, &v1);
    assert_int_equal(v0, EVGEN_EMIT_OK);
    assert_int_equal(v1, EVGEN_EMIT_OK);
    rt_closed ct, cg, cq;
    rt_close_and_parse(threading, &ct);
    rt_close_and_parse(gc, &cg);
    rt_close_and_parse(quiet, &cq);
    assert_int_equal(count_records(&ct, "GCCreateConcurrentThread", 0), 0);
    assert_int_equal(count_records(&ct, "GCCreateConcurrentThread", 1), 1);
    assert_int_equal(count_records(&ct, "GCTerminateConcurrentThread", 0), 0);
    assert_int_equal(count_records(&ct, "GCTerminateConcurrentThread", 1), 1);
    assert_int_equal(ct.totals.written, 2);
    assert_int_equal(count_records(&cg, "GCCreateConcurrentThread", 0), 1);
    assert_int_equal(count_records(&cg, "GCCreateConcurrentThread", 1), 1);
    assert_int_equal(cg.totals.written, 4);
    assert_int_equal(cq.totals.written, 0);
    rt_closed_free(&ct);
    rt_closed_free(&cg);
    rt_closed_free(&cq);
}

/* Sweep: event level 4, keywords 0x2; v0 level 5, keywords 0x4; v2 level 2, keywords 0xa. v1 has
 * the event's attributes but cannot check the event's byte (set while any version is recorded):
 * a session that records only v2 must not get v1. */
static void test_own_attributes_the_event_does_not_cover(void **state)
{
    (void)state;
    static const struct {
        uint8_t level;
        uint64_t keywords;
        uint32_t v0, v1, v2;
    } cases[] = {
        {5, 0x4, EVGEN_EMIT_OK, EVGEN_EMIT_DISABLED, EVGEN_EMIT_DISABLED},
        {4, 0x4, EVGEN_EMIT_DISABLED, EVGEN_EMIT_DISABLED, EVGEN_EMIT_DISABLED},
        {4, 0x2, EVGEN_EMIT_DISABLED, EVGEN_EMIT_OK, EVGEN_EMIT_OK},
        {2, 0x8, EVGEN_EMIT_DISABLED, EVGEN_EMIT_DISABLED, EVGEN_EMIT_OK},
        {3, 0x2, EVGEN_EMIT_DISABLED, EVGEN_EMIT_DISABLED, EVGEN_EMIT_OK},
        {5, ~0ull, EVGEN_EMIT_OK, EVGEN_EMIT_OK, EVGEN_EMIT_OK},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        evgen_session *s = open_session("Evgen-Test", cases[i].level, cases[i].keywords);
        int any = cases[i].v0 == EVGEN_EMIT_OK || cases[i].v1 == EVGEN_EMIT_OK || cases[i].v2 == EVGEN_EMIT_OK;
        assert_int_equal(EventEnabledSweep(), any);
        assert_int_equal(FireEtwSweep_V0(1), cases[i].v0);
        assert_int_equal(FireEtwSweep_V1(1, 2), cases[i].v1);
        assert_int_equal(FireEtwSweep_V2(1, 2, 3), cases[i].v2);
        rt_closed c;
        rt_close_and_parse(s, &c);
        assert_int_equal(count_records(&c, "Sweep", 0), cases[i].v0 == EVGEN_EMIT_OK);
        assert_int_equal(count_records(&c, "Sweep", 1), cases[i].v1 == EVGEN_EMIT_OK);
        assert_int_equal(count_records(&c, "Sweep", 2), cases[i].v2 == EVGEN_EMIT_OK);
        rt_closed_free(&c);
    }
}

/* ---- metadata ------------------------------------------------------------------------------- */

typedef struct expected_version {
    const char *event;
    uint32_t version;
    uint8_t level;
    uint64_t keywords;
    int own;
} expected_version;

static const expected_version expected[] = {
    {"GCCreateConcurrentThread", 0, 4, 0x1, 1},
    {"GCCreateConcurrentThread", 1, 4, 0x10001, 0},
    {"GCTerminateConcurrentThread", 0, 4, 0x1, 1},
    {"GCTerminateConcurrentThread", 1, 4, 0x10001, 0},
    {"GCHeapStats", 2, 4, 0x1, 0},
    {"Sweep", 0, 5, 0x4, 1},
    {"Sweep", 1, 4, 0x2, 0},
    {"Sweep", 2, 2, 0xa, 1},
    {"CreateThread", 0, 4, 0x1, 1},
};

static const evgen_trace_version *reader_version(const evgen_reader *rd, const char *provider, const char *event,
                                                 uint32_t version)
{
    const evgen_trace_event_info *info = evgen_reader_find_event(rd, provider, event);
    assert_non_null(info);
    for (uint32_t k = 0; k < info->n_versions; k++)
        if (info->versions[k].version == version)
            return &info->versions[k];
    fail_msg("%s has no version %u", event, version);
    return NULL;
}

static void check_reader(const char *path)
{
    char *error = NULL;
    evgen_reader *rd = evgen_reader_open(path, &error);
    if (!rd)
        fail_msg("%s: %s", path, error);
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        const expected_version *x = &expected[i];
        const char *provider = strcmp(x->event, "Sweep") == 0 || strcmp(x->event, "CreateThread") == 0
                                   ? "Evgen-Test"
                                   : DOTNET;
        const evgen_trace_version *v = reader_version(rd, provider, x->event, x->version);
        if (v->level != x->level || v->keywords != x->keywords || (v->own_attributes != 0) != x->own)
            fail_msg("%s: %s v%u: level %u keywords 0x%llx own %u", path, x->event, x->version, v->level,
                     (unsigned long long)v->keywords, v->own_attributes);
    }
    /* The event keeps its own attributes. */
    const evgen_trace_event_info *info = evgen_reader_find_event(rd, DOTNET, "GCCreateConcurrentThread");
    assert_int_equal(info->keywords, 0x10001);
    assert_int_equal(info->level, 4);
    size_t n_problems = 0;
    evgen_reader_problems(rd, &n_problems);
    assert_int_equal(n_problems, 0);
    evgen_reader_close(rd);
}

/* Each version's level and keywords in the trace equal the manifest's: in the metadata as the
 * independent parser reads it, as libevgen-reader reads it, and after evgen convert. */
static void test_metadata_round_trip(void **state)
{
    (void)state;
    evgen_session *s = open_session(NULL, 5, ~0ull);
    assert_int_equal(FireEtwGCCreateConcurrentThread_V0(), EVGEN_EMIT_OK);
    assert_int_equal(FireEtwSweep_V2(1, 2, 3), EVGEN_EMIT_OK);
    rt_closed c;
    rt_close_and_parse(s, &c);
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        const expected_version *x = &expected[i];
        int found = 0;
        for (size_t m = 0; m < c.parsed.n_manifests; m++) {
            for (size_t e = 0; e < c.parsed.manifests[m].n_events; e++) {
                const tp_event *ev = &c.parsed.manifests[m].events[e];
                if (strcmp(ev->name, x->event) != 0)
                    continue;
                for (size_t v = 0; v < ev->n_versions; v++) {
                    const tp_version *ver = &ev->versions[v];
                    if (ver->version != x->version)
                        continue;
                    found = 1;
                    assert_int_equal(ver->level, x->level);
                    assert_int_equal(ver->keywords, x->keywords);
                    assert_int_equal((ver->flags & 2) != 0, x->own);
                }
            }
        }
        if (!found)
            fail_msg("the parser found no %s v%u", x->event, x->version);
    }

    char *dir = evgen_test_tempdir();
    char *trace = evgen_test_format("%s/attrs.evtrace", dir);
    char *converted = evgen_test_format("%s/converted.evtrace", dir);
    FILE *f = fopen(trace, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(c.trace, 1, c.size, f), c.size);
    assert_int_equal(fclose(f), 0);
    check_reader(trace);
    assert_int_equal(evgen_convert(trace, converted, NULL, stderr), 0);
    check_reader(converted);
    evgen_test_rmtree(dir);
    free(converted);
    free(trace);
    free(dir);
    rt_closed_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threading_only_gets_v1_not_v0),
        cmocka_unit_test(test_gc_gets_both),
        cmocka_unit_test(test_two_sessions_each_get_theirs),
        cmocka_unit_test(test_own_attributes_the_event_does_not_cover),
        cmocka_unit_test(test_metadata_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
