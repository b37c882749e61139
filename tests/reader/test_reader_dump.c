/* test_reader_dump.c — `evgen dump`, run as a program on traces of manifest/gcevents.h: every
 * value of every event version in text and JSON; exact lines with enum names and escaped
 * strings; --event, --from, --to, --order; --stats in text and JSON; problems on stderr with their
 * offsets and exit status 1 after everything readable; files that cannot be read; usage errors;
 * a progress bar on a terminal only, never on a pipe (and the same bar of convert and export). */
#define _XOPEN_SOURCE 700 /* posix_openpt */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <spawn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "dump_check.h"
#include "evgen/runtime.h"
#include "gcevents_runtime.h"
#include "reader_helpers.h"
#include "roundtrip.h"
#include "test_support.h"

extern char **environ;

size_t gcevents_fire_all(void);

static json_object *get(json_object *o, const char *key)
{
    json_object *v = NULL;
    return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

typedef struct fixture {
    char *dir;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->dir = evgen_test_tempdir();
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    evgen_test_rmtree(f->dir);
    free(f->dir);
    free(f);
    roundtrip_free();
    return 0;
}

/* Runs `evgen dump ARGS... PATH` on pipes. */
static int dump(const char *path, const char *const *args, char **out, char **err)
{
    const char *argv[16] = {EVGEN_EXE, "dump"};
    size_t n = 2;
    for (; args && *args; args++)
        argv[n++] = *args;
    argv[n++] = path;
    argv[n] = NULL;
    return rh_run(argv, out, NULL, err);
}

/* ---- values ------------------------------------------------------------------------------- */

static void test_every_value_of_every_event_version(void **state)
{
    (void)state;
    assert_int_equal(dump_check_values("manifest/gcevents.h", gcevents_fire_all), 111);
}

static size_t fire_named(void)
{
    static const evgen_char16 tricky[] = {'q', '"', 'b', '\\', 's', '\n', 't', '\t', 0x1, 0x4e2d, 0};
    static const uint8_t data[] = {1, 2, 255};
    GCLOHCompactInfo compact[2] = {{1, 2, 3, (evgen_ptr)0x10, 0}, {4, 5, 6, 0, (evgen_ptr)0xabcdef}};
    assert_int_equal(FireEtwGCStart_V2(5, 1, GCReason_Induced, GCType_BackgroundGC, 7, 18446744073709551615ull),
                     EVGEN_EMIT_OK);
    assert_int_equal(FireEtwGCStart_V2(6, 2, 77, 9, 7, 0), EVGEN_EMIT_OK);
    assert_int_equal(FireEtwGCAllocationTick_V4(100, GCAllocationKind_Large, 1, 100, (const void *)(uintptr_t)0x7ff8,
                                                tricky, 0, NULL, 42),
                     EVGEN_EMIT_OK);
    assert_int_equal(FireEtwGCDynamicEvent_V0(tricky + 10, 3, data, 2), EVGEN_EMIT_OK);
    assert_int_equal(FireEtwGCLOHCompact_V0(1, 2, compact), EVGEN_EMIT_OK);
    assert_int_equal(FireEtwGCRestartEEEnd_V0(), EVGEN_EMIT_OK);
    return 6;
}

/* What follows "TIMESTAMP THREAD " on each line. */
static void check_text_tails(const char *out, const char *const *want, size_t n)
{
    const char *line = out;
    for (size_t i = 0; i < n; i++) {
        const char *nl = strchr(line, '\n');
        assert_non_null(nl);
        const char *tail = strchr(strchr(line, ' ') + 1, ' ') + 1;
        if ((size_t)(nl - tail) != strlen(want[i]) || strncmp(tail, want[i], strlen(want[i])) != 0)
            fail_msg("line %zu:\n  got  %.*s\n  want %s", i + 1, (int)(nl - tail), tail, want[i]);
        line = nl + 1;
    }
    assert_string_equal(line, "");
}

static void test_exact_lines_with_enum_names_and_escapes(void **state)
{
    fixture *f = *state;
    rh_trace t;
    rh_record(fire_named, 0, &t);
    char *path = rh_write_file(f->dir, "named.evtrace", t.data, t.size);
    char *out, *err;
    assert_int_equal(dump(path, NULL, &out, &err), 0);
    assert_string_equal(err, "");
    static const char *const text[] = {
        ("GCStart_V2 Count=5 Depth=1 Reason=Induced(1) Type=BackgroundGC(1) ClrInstanceID=7 "
         "ClientSequenceNumber=18446744073709551615"),
        "GCStart_V2 Count=6 Depth=2 Reason=77 Type=9 ClrInstanceID=7 ClientSequenceNumber=0",
        ("GCAllocationTick_V4 AllocationAmount=100 AllocationKind=Large(1) ClrInstanceID=1 AllocationAmount64=100 "
         "TypeID=0x7ff8 TypeName=\"q\\\"b\\\\s\\nt\\t\\x01\xe4\xb8\xad\" HeapIndex=0 Address=0x0 ObjectSize=42"),
        "GCDynamicEvent_V0 Name=\"\" DataSize=3 Data=[1,2,255] ClrInstanceID=2",
        ("GCLOHCompact_V0 ClrInstanceID=1 Count=2 Values=[{TimePlan=1,TimeCompact=2,TimeRelocate=3,TotalRefs=0x10,"
         "ZeroRefs=0x0},{TimePlan=4,TimeCompact=5,TimeRelocate=6,TotalRefs=0x0,ZeroRefs=0xabcdef}]"),
        "GCRestartEEEnd_V0",
    };
    check_text_tails(out, text, 6);
    free(out);
    free(err);

    static const char *const json_args[] = {"--json", NULL};
    assert_int_equal(dump(path, json_args, &out, &err), 0);
    assert_string_equal(err, "");
    char *save = NULL;
    char *line = strtok_r(out, "\n", &save);
    json_object *o = json_tokener_parse(line);
    assert_non_null(o);
    assert_string_equal(json_object_get_string(get(o, "event")), "GCStart");
    assert_string_equal(json_object_get_string(get(o, "provider")), "Microsoft-Windows-DotNETRuntime");
    assert_int_equal(json_object_get_int(get(o, "id")), 1);
    assert_int_equal(json_object_get_int(get(o, "version")), 2);
    assert_true(json_object_get_uint64(get(get(o, "fields"), "ClientSequenceNumber")) == UINT64_MAX);
    assert_non_null(strstr(line, "\"ClientSequenceNumber\":18446744073709551615")); /* a number, exact */
    assert_string_equal(json_object_get_string(get(get(o, "names"), "Reason")), "Induced");
    assert_string_equal(json_object_get_string(get(get(o, "names"), "Type")), "BackgroundGC");
    json_object_put(o);
    line = strtok_r(NULL, "\n", &save);
    o = json_tokener_parse(line);
    assert_null(get(o, "names")); /* 77 and 9 are no constants */
    json_object_put(o);
    line = strtok_r(NULL, "\n", &save);
    assert_non_null(strstr(line, "\"TypeName\":\"q\\\"b\\\\s\\nt\\t\\u0001\xe4\xb8\xad\""));
    o = json_tokener_parse(line);
    assert_string_equal(json_object_get_string(get(get(o, "fields"), "TypeName")), "q\"b\\s\nt\t\x01\xe4\xb8\xad");
    assert_string_equal(json_object_get_string(get(get(o, "fields"), "TypeID")), "0x7ff8");
    json_object_put(o);
    line = strtok_r(NULL, "\n", &save);
    assert_non_null(strstr(line, "\"Data\":[1,2,255]"));
    line = strtok_r(NULL, "\n", &save);
    o = json_tokener_parse(line);
    json_object *values = get(get(o, "fields"), "Values");
    assert_int_equal(json_object_array_length(values), 2);
    assert_string_equal(json_object_get_string(get(json_object_array_get_idx(values, 1), "ZeroRefs")), "0xabcdef");
    assert_int_equal(json_object_get_int(get(json_object_array_get_idx(values, 1), "TimePlan")), 4);
    json_object_put(o);
    line = strtok_r(NULL, "\n", &save);
    assert_non_null(strstr(line, "\"event\":\"GCRestartEEEnd\""));
    assert_non_null(strstr(line, "\"fields\":{}"));
    assert_null(strtok_r(NULL, "\n", &save));
    free(out);
    free(err);
    free(path);
    free(t.data);
}

/* ---- GCDynamicEvent's named payloads --------------------------------------------------------- */

static size_t put_le(uint8_t *p, uint64_t v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
    return n;
}

static size_t fire_dynamic(void)
{
    static const evgen_char16 committed[] = {'C', 'o', 'm', 'm', 'i', 't', 't', 'e', 'd', 'U', 's', 'a', 'g', 'e', 0};
    static const evgen_char16 tuning[] = {'H', 'e', 'a', 'p', 'C', 'o', 'u', 'n', 't', 'T', 'u', 'n', 'i', 'n', 'g', 0};
    static const evgen_char16 sample[] = {'H', 'e', 'a', 'p', 'C', 'o', 'u', 'n', 't', 'S', 'a', 'm', 'p', 'l', 'e', 0};
    static const evgen_char16 other[] = {'O', 't', 'h', 'e', 'r', 0};
    uint8_t data[64];
    size_t n = put_le(data, 1, 2); /* Version 1, then five UInt64 */
    for (uint64_t v = 1; v <= 5; v++)
        n += put_le(data + n, v * 1000000007ull, 8);
    assert_int_equal(FireEtwGCDynamicEvent_V0(committed, (uint32_t)n, data, 1), EVGEN_EMIT_OK);
    n = put_le(data, 1, 2);
    n += put_le(data + n, 12, 2); /* NewHeapCount */
    n += put_le(data + n, 99, 8); /* GCIndex */
    static const float costs[6] = {1.5f, 0.25f, -2.0f, 1e30f, 0.0f, 0.0f};
    for (int i = 0; i < 6; i++) {
        float c = costs[i];
        if (i == 5)
            c = NAN; /* JSON has no NaN: a string */
        uint32_t bits;
        memcpy(&bits, &c, 4);
        n += put_le(data + n, bits, 4);
    }
    assert_int_equal(FireEtwGCDynamicEvent_V0(tuning, (uint32_t)n, data, 1), EVGEN_EMIT_OK);
    n = put_le(data, 1, 2);
    n += put_le(data + n, 7, 8); /* GCIndex, then a cut ElapsedTimeBetweenGCs */
    assert_int_equal(FireEtwGCDynamicEvent_V0(sample, (uint32_t)n + 3, data, 1), EVGEN_EMIT_OK);
    assert_int_equal(FireEtwGCDynamicEvent_V0(other, 2, data, 1), EVGEN_EMIT_OK);
    return 4;
}

/* The three payloads evgen/gc_dynamic.h knows print decoded, in text and JSON (parsed), a cut one
 * with what it holds and its status, an unknown name as bytes only. */
static void test_gc_dynamic_decoded(void **state)
{
    fixture *f = *state;
    rh_trace t;
    rh_record(fire_dynamic, 0, &t);
    char *path = rh_write_file(f->dir, "dynamic.evtrace", t.data, t.size);
    char *out, *err;
    assert_int_equal(dump(path, NULL, &out, &err), 0);
    assert_string_equal(err, "");
    assert_non_null(strstr(out, " decoded=CommittedUsage{Version=1,TotalCommittedInUse=1000000007,"
                                "TotalCommittedInGlobalDecommit=2000000014,TotalCommittedInFree=3000000021,"
                                "TotalCommittedInGlobalFree=4000000028,TotalBookkeepingCommitted=5000000035}\n"));
    assert_non_null(strstr(out, " decoded=HeapCountTuning{Version=1,NewHeapCount=12,GCIndex=99,"
                                "MedianThroughputCostPercent=1.5,SmoothedMedianThroughputCostPercent=0.25,"));
    assert_non_null(strstr(out, " decoded=HeapCountSample{Version=1,GCIndex=7} decoded_status=\"truncated\"\n"));
    const char *other = strstr(out, "Name=\"Other\"");
    assert_non_null(other);
    assert_null(strstr(other, "decoded"));
    free(out);
    free(err);

    static const char *const json_args[] = {"--json", NULL};
    assert_int_equal(dump(path, json_args, &out, &err), 0);
    char *save = NULL;
    json_object *o = json_tokener_parse(strtok_r(out, "\n", &save));
    assert_non_null(o);
    json_object *dec = get(o, "decoded");
    assert_string_equal(json_object_get_string(get(dec, "layout")), "CommittedUsage");
    assert_string_equal(json_object_get_string(get(dec, "status")), "ok");
    assert_true(json_object_get_uint64(get(dec, "TotalBookkeepingCommitted")) == 5000000035ull);
    json_object_put(o);
    o = json_tokener_parse(strtok_r(NULL, "\n", &save));
    assert_non_null(o);
    dec = get(o, "decoded");
    assert_int_equal(json_object_get_int(get(dec, "NewHeapCount")), 12);
    assert_true(json_object_get_double(get(dec, "ThroughputCostPercentReductionPerStepUp")) == -2.0);
    assert_string_equal(json_object_get_string(get(dec, "SpaceCostPercentDecreasePerStepDown")), "NaN");
    json_object_put(o);
    o = json_tokener_parse(strtok_r(NULL, "\n", &save));
    assert_non_null(o);
    assert_string_equal(json_object_get_string(get(get(o, "decoded"), "status")), "truncated");
    json_object_put(o);
    o = json_tokener_parse(strtok_r(NULL, "\n", &save));
    assert_non_null(o);
    assert_null(get(o, "decoded"));
    json_object_put(o);
    free(out);
    free(err);
    free(path);
    free(t.data);
}

/* A hand-made trace: a payload cut inside a string, invalid UTF-8, a negative count, more
 * variable fields than an event holds ends for. */
static void test_truncated_fields_and_odd_strings(void **state)
{
    fixture *f = *state;
    static const rh_field text[] = {{"A", 3, 0, 0}, {"S", 15, 0, 0}, {"B", 2, 0, 0}};
    static const rh_field counted[] = {{"N", 7, 0, 0}, {"Items", 2, 1, 1}};
    rh_field many[18];
    static const char *const names[18] = {"S0", "S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8",
                                          "S9", "S10", "S11", "S12", "S13", "S14", "S15", "S16", "Tail"};
    for (int i = 0; i < 18; i++)
        many[i] = (rh_field){names[i], i < 17 ? 15u : 3u, 0, 0};
    const char *event_names[] = {"Text", "Counted", "Many"};
    const rh_field *fields[] = {text, counted, many};
    size_t n_fields[] = {3, 2, 18};
    rh_bytes file = {0}, p = {0}, payload = {0};
    rh_file_header(&file, 1, 1000000000u);
    rh_metadata(&file, 0, 3, event_names, fields, n_fields);
    static const uint8_t cut[] = {1, 0, 0, 0, 'a', 'b'};
    static const uint8_t odd[] = {2, 0, 0, 0, 'x', 0xff, 0xc3, 0xa9, '"', 0x7f, 0, 5, 0};
    static const uint8_t negative[] = {0xfe, 0xff, 0xff, 0xff, 1, 0};
    for (int i = 0; i < 17; i++)
        rh_put(&payload, "s", 2);
    rh_le(&payload, 99, 4);
    const struct {
        uint64_t type;
        const void *data;
        size_t size;
    } records[] = {{0, cut, sizeof cut}, {0, odd, sizeof odd}, {1, negative, sizeof negative},
                   {2, payload.data, payload.len}};
    for (size_t i = 0; i < 4; i++) {
        rh_varint(&p, records[i].type);
        rh_zigzag(&p, 10);
        rh_varint(&p, records[i].size);
        rh_put(&p, records[i].data, records[i].size);
    }
    rh_append_block(&file, 2, 3, 0, 4, 0, RH_START_TICKS, &p);
    uint64_t tid = 3, written = 4;
    rh_end_block(&file, 1, &tid, &written);
    char *path = rh_write_file(f->dir, "hand.evtrace", file.data, file.len);

    char *out, *err;
    assert_int_equal(dump(path, NULL, &out, &err), 0);
    assert_string_equal(err, "");
    static const char *const lines[] = {
        "Text_V1 A=1 <truncated at S>",
        "Text_V1 A=2 S=\"x\\xff\xc3\xa9\\\"\\x7f\" B=5",
        "Counted_V1 N=-2 <truncated at Items>",
        ("Many_V1 S0=\"s\" S1=\"s\" S2=\"s\" S3=\"s\" S4=\"s\" S5=\"s\" S6=\"s\" S7=\"s\" S8=\"s\" "
         "S9=\"s\" S10=\"s\" S11=\"s\" S12=\"s\" S13=\"s\" S14=\"s\" S15=\"s\" S16=\"s\" Tail=99"),
    };
    check_text_tails(out, lines, 4);
    free(out);
    free(err);
    static const char *const json_args[] = {"--json", NULL};
    assert_int_equal(dump(path, json_args, &out, &err), 0);
    char *save = NULL;
    json_object *o = json_tokener_parse(strtok_r(out, "\n", &save));
    assert_string_equal(json_object_get_string(get(o, "truncated")), "S");
    assert_int_equal(json_object_object_length(get(o, "fields")), 1);
    json_object_put(o);
    o = json_tokener_parse(strtok_r(NULL, "\n", &save));
    assert_non_null(o);
    /* Invalid UTF-8 becomes U+FFFD: the JSON stays valid. */
    assert_string_equal(json_object_get_string(get(get(o, "fields"), "S")), "x\xef\xbf\xbd\xc3\xa9\"\x7f");
    json_object_put(o);
    o = json_tokener_parse(strtok_r(NULL, "\n", &save));
    assert_int_equal(json_object_get_int(get(get(o, "fields"), "N")), -2);
    assert_string_equal(json_object_get_string(get(o, "truncated")), "Items");
    json_object_put(o);
    o = json_tokener_parse(strtok_r(NULL, "\n", &save));
    assert_int_equal(json_object_get_int(get(get(o, "fields"), "Tail")), 99);
    json_object_put(o);
    free(out);
    free(err);
    free(path);
    rh_free(&file);
    rh_free(&p);
    rh_free(&payload);
}

/* ---- filters and order -------------------------------------------------------------------- */

typedef struct line_info {
    uint64_t ts, thread;
    char event[64];
} line_info;

static line_info *parse_json_lines(char *out, size_t *n)
{
    size_t cap = count_lines(out) + 1;
    line_info *lines = calloc(cap, sizeof *lines);
    *n = 0;
    char *save = NULL;
    for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        json_object *o = json_tokener_parse(line);
        if (!o)
            fail_msg("not JSON: %s", line);
        lines[*n].ts = json_object_get_uint64(get(o, "timestamp_ns"));
        lines[*n].thread = json_object_get_uint64(get(o, "thread"));
        snprintf(lines[*n].event, sizeof lines[*n].event, "%s", json_object_get_string(get(o, "event")));
        (*n)++;
        json_object_put(o);
    }
    return lines;
}

static void test_filters_and_orders(void **state)
{
    fixture *f = *state;
    rh_trace t;
    rh_record_mixed(4, 100, 4096, &t);
    char *path = rh_write_file(f->dir, "mixed.evtrace", t.data, t.size);
    char *out, *err;
    static const char *const json_args[] = {"--json", NULL};
    assert_int_equal(dump(path, json_args, &out, &err), 0);
    assert_string_equal(err, "");
    size_t n;
    line_info *all = parse_json_lines(out, &n);
    free(out);
    free(err);
    assert_int_equal(n, 4 * 100 * 7);
    for (size_t i = 1; i < n; i++) /* the default order is time */
        assert_true(all[i - 1].ts <= all[i].ts);

    /* --order file: the same events, each thread's in the same order. */
    static const char *const file_args[] = {"--json", "--order", "file", NULL};
    assert_int_equal(dump(path, file_args, &out, &err), 0);
    size_t n_file;
    line_info *in_file = parse_json_lines(out, &n_file);
    free(out);
    free(err);
    assert_int_equal(n_file, n);
    rh_block blocks[512];
    size_t nb = rh_blocks(t.data, t.size, blocks, 512), at = 0;
    assert_true(nb < 512);
    for (size_t b = 0; b < nb; b++) /* block by block, as the file holds them */
        for (uint32_t k = 0; blocks[b].type == 2 && k < blocks[b].event_count; k++, at++)
            assert_int_equal(in_file[at].thread, blocks[b].thread_id);
    assert_int_equal(at, n_file);

    /* --event, repeatable. */
    static const char *const event_args[] = {"--json", "--event", "GCStart", "--event=GCEnd", NULL};
    assert_int_equal(dump(path, event_args, &out, &err), 0);
    size_t n_events;
    line_info *events = parse_json_lines(out, &n_events);
    free(out);
    free(err);
    assert_int_equal(n_events, 4 * 100 * 2);
    for (size_t i = 0; i < n_events; i++)
        assert_true(strcmp(events[i].event, "GCStart") == 0 || strcmp(events[i].event, "GCEnd") == 0);

    /* --from and --to, inclusive, in nanoseconds since the session opened. */
    char from[32], to[32];
    snprintf(from, sizeof from, "%" PRIu64, all[n / 4].ts);
    snprintf(to, sizeof to, "%" PRIu64, all[n / 2].ts);
    const char *range_args[] = {"--json", "--from", from, "--to", to, NULL};
    assert_int_equal(dump(path, range_args, &out, &err), 0);
    size_t n_range;
    line_info *range = parse_json_lines(out, &n_range);
    free(out);
    free(err);
    size_t want = 0;
    for (size_t i = 0; i < n; i++)
        want += all[i].ts >= all[n / 4].ts && all[i].ts <= all[n / 2].ts;
    assert_int_equal(n_range, want);
    for (size_t i = 0; i < n_range; i++)
        assert_true(range[i].ts >= all[n / 4].ts && range[i].ts <= all[n / 2].ts);

    /* Text and filters together: one line per GCEnd. */
    static const char *const text_args[] = {"--event", "GCEnd", "--order", "file", NULL};
    assert_int_equal(dump(path, text_args, &out, &err), 0);
    assert_int_equal(count_lines(out), 400);
    assert_non_null(strstr(out, " GCEnd_V1 Count="));
    free(out);
    free(err);

    free(all);
    free(in_file);
    free(events);
    free(range);
    free(path);
    free(t.data);
}

/* ---- two cores ------------------------------------------------------------------------------ */

/* Runs `evgen dump ARGS... PATH` with EVGEN_DUMP_THREADS=1 (one thread) or as it comes. */
static int dump_threads(const char *path, const char *const *args, int one_thread, char **out, char **err)
{
    if (one_thread)
        setenv("EVGEN_DUMP_THREADS", "1", 1);
    else
        unsetenv("EVGEN_DUMP_THREADS");
    int status = dump(path, args, out, err);
    unsetenv("EVGEN_DUMP_THREADS");
    return status;
}

/* The lines formatted on two cores (tools/dump_pipeline.c: batches of 2048 events, a ring of four,
 * some formatted by the helper thread and some by the reader's) are byte for byte the one-thread
 * dump's: ~50,000 events of seven types (strings, arrays, GCDynamicEvent) from six threads, in
 * JSON and text, time and file order, with a filter; and a damaged trace, whose problems and exit
 * status must be the same too. */
static void test_two_cores_same_output(void **state)
{
    fixture *f = *state;
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
        print_message("one CPU online: both dumps run on one thread\n");
    rh_trace t;
    rh_record_mixed(6, 1200, 4096, &t);
    char *good = rh_write_file(f->dir, "many.evtrace", t.data, t.size);
    t.data[t.size / 2] ^= 0x40; /* a payload byte of a block in the middle: that block is reported */
    char *damaged = rh_write_file(f->dir, "damaged.evtrace", t.data, t.size);
    static const char *const json[] = {"--json", NULL}, *const json_file[] = {"--json", "--order", "file", NULL},
                             *const text[] = {NULL}, *const text_file[] = {"--order", "file", NULL},
                             *const filtered[] = {"--json", "--event", "GCAllocationTick", NULL};
    const char *const *arg_sets[] = {json, json_file, text, text_file, filtered};
    const char *paths[] = {good, damaged};
    for (size_t p = 0; p < 2; p++)
        for (size_t a = 0; a < sizeof arg_sets / sizeof arg_sets[0]; a++) {
            char *out1, *err1, *out2, *err2;
            int status1 = dump_threads(paths[p], arg_sets[a], 1, &out1, &err1);
            int status2 = dump_threads(paths[p], arg_sets[a], 0, &out2, &err2);
            assert_int_equal(status2, status1);
            assert_int_equal(status1, p == 0 ? 0 : 1);
            assert_string_equal(err2, err1);
            if (strcmp(out1, out2) != 0)
                fail_msg("%s, argument set %zu: the two-core dump differs from the one-thread dump", paths[p], a);
            size_t lines = count_lines(out1), whole = a == 4 ? 6 * 1200 : 6 * 1200 * 7;
            if (p == 0)
                assert_int_equal(lines, whole);
            else /* one block's events lost */
                assert_true(lines < whole && lines > whole * 9 / 10);
            free(out1);
            free(err1);
            free(out2);
            free(err2);
        }
    free(good);
    free(damaged);
    free(t.data);
}

/* ---- --stats ------------------------------------------------------------------------------ */

static void test_stats(void **state)
{
    fixture *f = *state;
    rh_trace t;
    rh_record_mixed(4, 100, 4096, &t);
    char *path = rh_write_file(f->dir, "stats.evtrace", t.data, t.size);
    char *out, *err;
    static const char *const args[] = {"--stats", NULL};
    assert_int_equal(dump(path, args, &out, &err), 0);
    assert_string_equal(err, "");
    assert_non_null(strstr(out, "  GCStart_V2 (Microsoft-Windows-DotNETRuntime)\n"));
    assert_non_null(strstr(out, "totals: 2800 events, "));
    assert_non_null(strstr(out, "status: ok, end block found\n"));
    assert_non_null(strstr(out, "problems: 0\n"));
    free(out);
    free(err);

    static const char *const json_args[] = {"--stats", "--json", NULL};
    assert_int_equal(dump(path, json_args, &out, &err), 0);
    json_object *o = json_tokener_parse(out);
    assert_non_null(o);
    assert_int_equal(json_object_get_int64(get(get(o, "totals"), "events")), 2800);
    assert_int_equal(json_object_get_int64(get(get(o, "totals"), "threads")), 4);
    assert_int_equal(json_object_get_int64(get(o, "file_size")), (int64_t)t.size);
    json_object *events = get(o, "events");
    int64_t sum_count = 0, sum_bytes = 0;
    for (size_t i = 0; i < json_object_array_length(events); i++) {
        json_object *e = json_object_array_get_idx(events, i);
        sum_count += json_object_get_int64(get(e, "count"));
        sum_bytes += json_object_get_int64(get(e, "bytes"));
        if (strcmp(json_object_get_string(get(e, "event")), "GCHeapStats") == 0) {
            assert_int_equal(json_object_get_int64(get(e, "count")), 400);
            assert_int_equal(json_object_get_int64(get(e, "bytes")), 400 * 110);
        }
    }
    assert_int_equal(sum_count, 2800);
    assert_int_equal(sum_bytes, json_object_get_int64(get(get(o, "totals"), "bytes")));
    json_object *threads = get(o, "threads");
    assert_int_equal(json_object_array_length(threads), 4);
    for (size_t i = 0; i < 4; i++) {
        json_object *th = json_object_array_get_idx(threads, i);
        assert_int_equal(json_object_get_int64(get(th, "events")), 700);
        assert_int_equal(json_object_get_int64(get(th, "written_end")), 700);
    }
    assert_string_equal(json_object_get_string(get(o, "status")), "ok");
    assert_int_equal(json_object_array_length(get(o, "problems")), 0);
    json_object_put(o);
    free(out);
    free(err);

    /* Stats of what the filters keep. */
    static const char *const filtered[] = {"--stats", "--json", "--event", "GCEnd", NULL};
    assert_int_equal(dump(path, filtered, &out, &err), 0);
    o = json_tokener_parse(out);
    assert_int_equal(json_object_get_int64(get(get(o, "totals"), "events")), 400);
    assert_int_equal(json_object_array_length(get(o, "events")), 1);
    json_object_put(o);
    free(out);
    free(err);
    free(path);
    free(t.data);
}

/* ---- problems ----------------------------------------------------------------------------- */

static void test_problems_go_to_stderr_with_status_1(void **state)
{
    fixture *f = *state;
    rh_trace t;
    rh_record_mixed(3, 60, 4096, &t);
    rh_block blocks[256];
    size_t nb = rh_blocks(t.data, t.size, blocks, 256);
    assert_true(nb > 8 && nb < 256);

    /* Cut inside block k: the events of the blocks before it, then the offset on stderr. */
    size_t k = nb / 2, events_before = 0, total = 0;
    for (size_t i = 0; i < nb; i++) {
        if (blocks[i].type == 2 && i < k)
            events_before += blocks[i].event_count;
        if (blocks[i].type == 2)
            total += blocks[i].event_count;
    }
    char *path = rh_write_file(f->dir, "cut.evtrace", t.data, blocks[k].offset + 100);
    char *out, *err;
    static const char *const file_order[] = {"--order", "file", NULL};
    assert_int_equal(dump(path, file_order, &out, &err), 1);
    assert_int_equal(count_lines(out), events_before);
    char want[512];
    snprintf(want, sizeof want, "%s: offset %zu: the file ends inside a block", path, blocks[k].offset);
    if (strncmp(err, want, strlen(want)) != 0)
        fail_msg("stderr: %s\nwant: %s...", err, want);
    assert_int_equal(count_lines(err), 1);
    free(out);
    free(err);
    free(path);

    /* A corrupt block in the middle: reported, skipped, the rest dumped. */
    uint8_t *copy = malloc(t.size);
    memcpy(copy, t.data, t.size);
    copy[blocks[k].offset + 200] ^= 0x20;
    path = rh_write_file(f->dir, "corrupt.evtrace", copy, t.size);
    static const char *const json_args[] = {"--json", NULL};
    assert_int_equal(dump(path, json_args, &out, &err), 1);
    assert_int_equal(count_lines(out), total - blocks[k].event_count);
    snprintf(want, sizeof want, "%s: offset %zu: block checksum mismatch", path, blocks[k].offset);
    if (strncmp(err, want, strlen(want)) != 0)
        fail_msg("stderr: %s\nwant: %s...", err, want);
    /* Then the books: the end block counts the skipped block's events, which are missing. */
    assert_int_equal(blocks[k].type, 2);
    assert_int_equal(blocks[nb - 1].type, 3);
    char books[256];
    snprintf(books, sizeof books, "offset %zu: thread %llu: the end block counts 420 events written, %u found: %u missing",
             blocks[nb - 1].offset, (unsigned long long)blocks[k].thread_id, 420 - blocks[k].event_count,
             blocks[k].event_count);
    assert_int_equal(count_lines(err), 2);
    if (!strstr(err, books))
        fail_msg("stderr: %s\nwant: %s", err, books);
    free(out);
    free(err);
    /* --stats lists them too. */
    static const char *const stats_args[] = {"--stats", NULL};
    assert_int_equal(dump(path, stats_args, &out, &err), 1);
    snprintf(want, sizeof want, "problems: 2\n  offset %zu: block checksum mismatch", blocks[k].offset);
    assert_non_null(strstr(out, want));
    snprintf(want, sizeof want, "\n  %s\n", books);
    assert_non_null(strstr(out, want));
    assert_non_null(strstr(out, "status: corrupt"));
    free(out);
    free(err);
    free(path);
    free(copy);
    free(t.data);
}

static void test_unreadable_files_and_usage(void **state)
{
    fixture *f = *state;
    char *out, *err;
    char missing[512];
    snprintf(missing, sizeof missing, "%s/missing.evtrace", f->dir);
    assert_int_equal(dump(missing, NULL, &out, &err), 1);
    assert_string_equal(out, "");
    assert_non_null(strstr(err, "missing.evtrace: cannot open: No such file or directory"));
    free(out);
    free(err);

    char *path = rh_write_file(f->dir, "not-a-trace.txt", "hello, world\n", 13);
    assert_int_equal(dump(path, NULL, &out, &err), 1);
    assert_non_null(strstr(err, "not an evgen trace: bad magic at offset 0"));
    free(out);
    free(err);
    free(path);

    rh_trace t;
    rh_record(gcevents_fire_all, 0, &t);
    path = rh_write_file(f->dir, "ok.evtrace", t.data, t.size);
    static const char *const unknown_event[] = {"--event", "NoSuchEvent", NULL};
    assert_int_equal(dump(path, unknown_event, &out, &err), 1);
    assert_non_null(strstr(err, "no event named 'NoSuchEvent'"));
    assert_string_equal(out, "");
    free(out);
    free(err);

    static const char *const bad_order[] = {"--order", "random", NULL};
    assert_int_equal(dump(path, bad_order, &out, &err), 2);
    assert_non_null(strstr(err, "--order is 'time' or 'file'"));
    free(out);
    free(err);
    static const char *const bad_from[] = {"--from", "-5", NULL};
    assert_int_equal(dump(path, bad_from, &out, &err), 2);
    free(out);
    free(err);
    static const char *const bad_option[] = {"--bogus", NULL};
    assert_int_equal(dump(path, bad_option, &out, &err), 2);
    assert_non_null(strstr(err, "unknown option '--bogus'"));
    free(out);
    free(err);
    const char *two[] = {EVGEN_EXE, "dump", path, path, NULL};
    assert_int_equal(rh_run(two, &out, NULL, &err), 2);
    free(out);
    free(err);
    const char *none[] = {EVGEN_EXE, "dump", NULL};
    assert_int_equal(rh_run(none, &out, NULL, &err), 2);
    assert_non_null(strstr(err, "dump needs a trace file"));
    free(out);
    free(err);
    const char *help[] = {EVGEN_EXE, "dump", "--help", NULL};
    assert_int_equal(rh_run(help, &out, NULL, &err), 0);
    assert_non_null(strstr(out, "usage: evgen dump TRACE"));
    free(out);
    free(err);
    const char *main_help[] = {EVGEN_EXE, "--help", NULL};
    assert_int_equal(rh_run(main_help, &out, NULL, &err), 0);
    assert_non_null(strstr(out, "  dump TRACE"));
    free(out);
    free(err);
    free(path);
    free(t.data);
}

/* ---- the progress bar --------------------------------------------------------------------- */

static size_t fire_big(void)
{
    static uint8_t data[60000];
    static const evgen_char16 name[] = {'b', 'i', 'g', 0};
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)i;
    size_t n = 0;
    for (; n < 1150; n++) /* 1150 x 60 KB: over 64 MiB */
        assert_int_equal(FireEtwGCDynamicEvent_V0(name, sizeof data, data, 1), EVGEN_EMIT_OK);
    return n;
}

/* Runs evgen with `argv` (argv[0] evgen) with stderr on a new pseudo-terminal; returns what it shows. */
static char *run_on_terminal(const char *const *argv, int *status)
{
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0)
        return NULL; /* no pseudo-terminals here */
    assert_int_equal(grantpt(master), 0);
    assert_int_equal(unlockpt(master), 0);
    int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
    assert_true(slave >= 0);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, slave, 2);
    posix_spawn_file_actions_addclose(&fa, master);
    pid_t pid;
    assert_int_equal(posix_spawn(&pid, EVGEN_EXE, &fa, NULL, (char *const *)argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    close(slave);
    size_t len = 0, cap = 4096;
    char *shown = malloc(cap);
    for (;;) {
        if (cap - len < 1024)
            shown = realloc(shown, cap *= 2);
        ssize_t n = read(master, shown + len, cap - len - 1);
        if (n > 0)
            len += (size_t)n;
        else if (n < 0 && errno == EINTR)
            continue;
        else
            break; /* EIO: the terminal's last user is gone */
    }
    shown[len] = '\0';
    close(master);
    int st;
    assert_true(waitpid(pid, &st, 0) == pid);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return shown;
}

static void test_progress_bar_on_a_terminal_only(void **state)
{
    fixture *f = *state;
    rh_trace t;
    rh_record(fire_big, 0, &t);
    assert_true(t.size >= (64u << 20));
    char *path = rh_write_file(f->dir, "big.evtrace", t.data, t.size);
    free(t.data);

    /* On a pipe: nothing but the output. */
    char *out, *err;
    static const char *const args[] = {"--stats", NULL};
    assert_int_equal(dump(path, args, &out, &err), 0);
    assert_string_equal(err, "");
    assert_non_null(strstr(out, "totals: 1150 events"));
    free(out);
    free(err);

    /* On a terminal: the bar moves to 100 % and is erased; the same for convert (two passes over
     * the events) and export. */
    char *converted = evgen_test_format("%s/converted.evtrace", f->dir);
    char *exported = evgen_test_format("%s/exported.json", f->dir);
    const char *const commands[][6] = {
        {EVGEN_EXE, "dump", "--stats", path, NULL},
        {EVGEN_EXE, "convert", path, converted, NULL},
        {EVGEN_EXE, "export", "--perfetto", exported, path, NULL},
    };
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        int status = -1;
        char *shown = run_on_terminal(commands[i], &status);
        if (!shown) {
            free(path);
            skip(); /* the pipe half passed; the terminal half needs a pseudo-terminal */
        }
        if (status != 0 || !strstr(shown, "100%") || !strstr(shown, " 50%") || !strstr(shown, "\r\033[K"))
            fail_msg("evgen %s: status %d, no progress bar on the terminal: '%s'", commands[i][1], status, shown);
        free(shown);
    }
    free(exported);
    free(converted);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_every_value_of_every_event_version, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exact_lines_with_enum_names_and_escapes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gc_dynamic_decoded, setup, teardown),
        cmocka_unit_test_setup_teardown(test_truncated_fields_and_odd_strings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_filters_and_orders, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_cores_same_output, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stats, setup, teardown),
        cmocka_unit_test_setup_teardown(test_problems_go_to_stderr_with_status_1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unreadable_files_and_usage, setup, teardown),
        cmocka_unit_test_setup_teardown(test_progress_bar_on_a_terminal_only, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
