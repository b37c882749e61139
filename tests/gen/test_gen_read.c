/* test_gen_read.c — the generated reader of manifest/gcevents.h, run on traces written by the
 * generated runtime side: every accessor of every event version returns the value fired; every
 * accessor on payloads cut at every length gives the value or "absent", never an out-of-bounds
 * read (each cut payload lives in a buffer of exactly its size, for AddressSanitizer); and
 * versions both ways, with a reader generated from an older manifest. Traces go through files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evgen/reader.h"
#include "evgen/runtime.h"
#include "gcevents_reader.h"
#include "gcevents_runtime.h"
#include "evgen/compat_test.h"

int gcevents_read_all(const evgen_event *ev, evgen_read_value *values, int capacity);
#include "roundtrip.h"
#include "test_support.h"

size_t gcevents_fire_all(void);
int gcv1_read_heapstats(const evgen_event *ev, uint64_t *gen0, uint64_t *gen3, uint16_t *clr_instance);
int gcv1_knows_event(const evgen_event *ev);

#define MAX_FIELDS 64

typedef struct trace {
    char *dir;
    char path[4200];
    evgen_reader *reader;
} trace;

/* Fires `fire` into a file session and opens the file (the reader maps it). */
static void record(trace *t, size_t (*fire)(void))
{
    t->dir = evgen_test_tempdir();
    snprintf(t->path, sizeof t->path, "%s/events.evtrace", t->dir);
    evgen_session *s = evgen_session_open_file(t->path, NULL);
    assert_non_null(s);
    assert_int_equal(evgen_session_enable(s, NULL, 255, ~0ull), 0);
    assert_true(fire() > 0);
    assert_int_equal(evgen_session_close(s, NULL, NULL, NULL), 0);
    char *error = NULL;
    t->reader = evgen_reader_open(t->path, &error);
    if (!t->reader)
        fail_msg("cannot open the trace: %s", error);
}

static void release(trace *t)
{
    evgen_reader_close(t->reader);
    evgen_test_rmtree(t->dir);
    free(t->dir);
}

static size_t fire_everything(void)
{
    return gcevents_fire_all();
}

static void test_accessors_return_the_fired_values(void **state)
{
    (void)state;
    trace t;
    record(&t, fire_everything);
    evgen_event ev;
    size_t events = 0;
    while (evgen_reader_next(t.reader, &ev)) {
        char why[512] = "";
        if (evgen_compat_check_event(&ev, gcevents_read_all, why, sizeof why) < 0)
            fail_msg("%s v%u: %s", ev.info->name, ev.version, why[0] ? why : "unknown to the generated reader");
        events++;
    }
    assert_int_equal(events, 111);
    assert_int_equal(evgen_reader_status(t.reader, NULL), EVGEN_READ_OK);
    release(&t);
}

/* Every cut of every payload: fields present at a cut are present, with the same value, in every
 * longer cut and in the whole payload; a cut never reads beyond its own bytes. */
static void test_cut_payloads_read_in_bounds(void **state)
{
    (void)state;
    trace t;
    record(&t, fire_everything);
    evgen_event ev;
    size_t cuts = 0;
    while (evgen_reader_next(t.reader, &ev)) {
        evgen_read_value whole[MAX_FIELDS], cut[MAX_FIELDS];
        int n = gcevents_read_all(&ev, whole, MAX_FIELDS);
        assert_true(n >= 0);
        int present_before[MAX_FIELDS] = {0};
        for (uint32_t length = 0; length <= ev.size; length++) {
            uint8_t *copy = malloc(length ? length : 1);
            memcpy(copy, ev.payload, length);
            evgen_event short_ev = ev;
            short_ev.payload = copy;
            short_ev.size = length;
            evgen_event_locate_variable(&short_ev);
            int m = gcevents_read_all(&short_ev, cut, MAX_FIELDS);
            assert_int_equal(m, n);
            for (int i = 0; i < n; i++) {
                if (cut[i].present) {
                    if (!whole[i].present || cut[i].bits != whole[i].bits || cut[i].length != whole[i].length)
                        fail_msg("%s v%u cut at %u of %u: %s differs from the whole payload's", ev.info->name,
                                 ev.version, length, ev.size, cut[i].field);
                } else if (present_before[i]) {
                    fail_msg("%s v%u: %s present at a shorter cut, absent at %u", ev.info->name, ev.version,
                             cut[i].field, length);
                }
                present_before[i] = cut[i].present;
            }
            if (length == ev.size)
                for (int i = 0; i < n; i++)
                    assert_int_equal(cut[i].present, whole[i].present);
            free(copy);
            cuts++;
        }
    }
    printf("%zu cut payloads read\n", cuts);
    assert_true(cuts > 1000);
    release(&t);
}

static size_t fire_heapstats_versions(void)
{
    assert_int_equal(FireEtwGCHeapStats_V1(10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 7), EVGEN_EMIT_OK);
    assert_int_equal(FireEtwGCHeapStats_V2(30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 8, 0x4444, 0x5555),
                     EVGEN_EMIT_OK);
    assert_int_equal(FireEtwGCTriggered_V0(GCReason_Induced, 9), EVGEN_EMIT_OK);
    return 3;
}

/* A reader that stops at GCHeapStats version 1 reads version 2 (known fields right, the tail
 * ignored, the event still version 2); today's reader reads version 1 (GenerationSize4 absent);
 * an event the older manifest lacks is still iterated and decodable from the trace's metadata. */
static void test_versions_both_ways(void **state)
{
    (void)state;
    trace t;
    record(&t, fire_heapstats_versions);
    evgen_event ev;
    uint64_t gen0, gen3;
    uint16_t clr;

    assert_true(evgen_reader_next(t.reader, &ev)); /* version 1 */
    assert_int_equal(ev.version, 1);
    assert_int_equal(gcv1_read_heapstats(&ev, &gen0, &gen3, &clr), 14);
    assert_int_equal(gen0, 10);
    assert_int_equal(clr, 7);
    assert_false(GCHeapStats_has_GenerationSize4(&ev));

    assert_true(evgen_reader_next(t.reader, &ev)); /* version 2, newer than the old reader knows */
    assert_int_equal(ev.version, 2);
    assert_int_equal(ev.size, 110);
    assert_int_equal(gcv1_read_heapstats(&ev, &gen0, &gen3, &clr), 14);
    assert_int_equal(gen0, 30);
    assert_int_equal(gen3, 36);
    assert_int_equal(clr, 8);
    assert_true(GCHeapStats_has_GenerationSize4(&ev));

    assert_true(evgen_reader_next(t.reader, &ev)); /* GCTriggered: unknown to the old manifest */
    assert_string_equal(ev.info->name, "GCTriggered");
    assert_false(gcv1_knows_event(&ev));
    uint32_t offset, size;
    assert_true(evgen_event_field(&ev, 0, &offset, &size));
    assert_int_equal(size, 4);
    assert_int_equal(ev.payload[offset], GCReason_Induced);
    assert_false(evgen_reader_next(t.reader, &ev));
    release(&t);
}

static int teardown(void **state)
{
    (void)state;
    roundtrip_free();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accessors_return_the_fired_values),
        cmocka_unit_test(test_cut_payloads_read_in_bounds),
        cmocka_unit_test(test_versions_both_ways),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
