/* test_nettrace_baselines.c — all three real traces of ../shared/reference/traces/ read as a user
 * reads them (bound to manifest/gcevents.h):
 * - the two with PerfView TraceEvent's baseline (.NET Core 3.0 and .NET 5 on Windows): every event
 *   kind the baseline lists, of every provider, has the baseline's count; its first event in time
 *   order has the baseline's time, thread and every field value the baseline prints that the
 *   event has a field for; the providers are the baseline's;
 * - every event of all three: what the metadata (the trace's own, or the manifest's) describes is
 *   decoded to the last byte; an event with no fields is one the runtime wrote without field
 *   descriptions (its runtime providers and the sample profiler);
 * - the .NET 5 macOS sample-profiler trace: every sample has its stack, and every frame of every
 *   stack lies in a method the trace's own rundown events (MethodDCEndVerbose, decoded here from
 *   the payload as ClrEtwAll.man lays it out) describe, Main in every one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gcevents_reader.h"
#include "real_trace.h"
#include "test_support.h"

#define TRACE_30 "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace"
#define TRACE_50 "eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace"
#define TRACE_OSX "dotnet5-osx-sampleprofiler-single-thread.nettrace"

/* PerfView's name of an event kind (Provider/Task/Opcode) and the names evgen reads it with: the
 * manifest's for the GC events, EventN (its id in ClrEtwAll.man) for runtime events the trace
 * describes without fields and no manifest of evgen knows. Kinds of self-describing providers
 * (EventSource, EventPipe) are found by their own names instead. */
typedef struct kind {
    const char *key;
    const char *names[2];
} kind;

static const kind kinds[] = {
    {"Microsoft-DotNETCore-SampleProfiler/Thread/Sample", {"Event0"}},
    {"Microsoft-Windows-DotNETRuntime/AppDomainResourceManagement/ThreadCreated", {"Event85"}},
    {"Microsoft-Windows-DotNETRuntime/Contention/Start", {"Event81"}},
    {"Microsoft-Windows-DotNETRuntime/Contention/Stop", {"Event91"}},
    {"Microsoft-Windows-DotNETRuntime/GC", {"IncreaseMemoryPressure", "DecreaseMemoryPressure"}},
    {"Microsoft-Windows-DotNETRuntime/GC/AllocationTick", {"GCAllocationTick"}},
    {"Microsoft-Windows-DotNETRuntime/GC/BulkMovedObjectRanges", {"GCBulkMovedObjectRanges"}},
    {"Microsoft-Windows-DotNETRuntime/GC/FinalizersStart", {"GCFinalizersBegin"}},
    {"Microsoft-Windows-DotNETRuntime/GC/FinalizersStop", {"GCFinalizersEnd"}},
    {"Microsoft-Windows-DotNETRuntime/GC/GenerationRange", {"GCGenerationRange"}},
    {"Microsoft-Windows-DotNETRuntime/GC/GlobalHeapHistory", {"GCGlobalHeapHistory"}},
    {"Microsoft-Windows-DotNETRuntime/GC/HeapStats", {"GCHeapStats"}},
    {"Microsoft-Windows-DotNETRuntime/GC/MarkWithType", {"GCMarkWithType"}},
    {"Microsoft-Windows-DotNETRuntime/GC/PerHeapHistory", {"GCPerHeapHistory"}},
    {"Microsoft-Windows-DotNETRuntime/GC/PinObjectAtGCTime", {"PinObjectAtGCTime"}},
    {"Microsoft-Windows-DotNETRuntime/GC/RestartEEStart", {"GCRestartEEBegin"}},
    {"Microsoft-Windows-DotNETRuntime/GC/RestartEEStop", {"GCRestartEEEnd"}},
    {"Microsoft-Windows-DotNETRuntime/GC/Start", {"GCStart"}},
    {"Microsoft-Windows-DotNETRuntime/GC/Stop", {"GCEnd"}},
    {"Microsoft-Windows-DotNETRuntime/GC/SuspendEEStart", {"GCSuspendEEBegin"}},
    {"Microsoft-Windows-DotNETRuntime/GC/SuspendEEStop", {"GCSuspendEEEnd"}},
    {"Microsoft-Windows-DotNETRuntime/GC/Triggered", {"GCTriggered"}},
    {"Microsoft-Windows-DotNETRuntime/Loader/AssemblyLoad", {"Event154"}},
    {"Microsoft-Windows-DotNETRuntime/Loader/DomainModuleLoad", {"Event151"}},
    {"Microsoft-Windows-DotNETRuntime/Loader/ModuleLoad", {"Event152"}},
    {"Microsoft-Windows-DotNETRuntime/Method/JittingStarted", {"Event145"}},
    {"Microsoft-Windows-DotNETRuntime/Method/LoadVerbose", {"Event143"}},
    {"Microsoft-Windows-DotNETRuntime/Method/R2RGetEntryPoint", {"Event159"}},
    {"Microsoft-Windows-DotNETRuntime/ThreadPool/Dequeue", {"Event62"}},
    {"Microsoft-Windows-DotNETRuntime/ThreadPool/Enqueue", {"Event61"}},
    {"Microsoft-Windows-DotNETRuntime/ThreadPoolWorkerThread/Start", {"Event50"}},
    {"Microsoft-Windows-DotNETRuntime/ThreadPoolWorkerThread/Wait", {"Event57"}},
    {"Microsoft-Windows-DotNETRuntime/ThreadPoolWorkerThreadAdjustment/Adjustment", {"Event55"}},
    {"Microsoft-Windows-DotNETRuntime/ThreadPoolWorkerThreadAdjustment/Sample", {"Event54"}},
    {"Microsoft-Windows-DotNETRuntime/ThreadPoolWorkerThreadAdjustment/Stats", {"Event56"}},
    {"Microsoft-Windows-DotNETRuntimePrivate/GC/PinPlugAtGCTime", {"PinPlugAtGCTime"}},
    {"Microsoft-Windows-DotNETRuntimeRundown/Loader/AppDomainDCStop", {"Event158"}},
    {"Microsoft-Windows-DotNETRuntimeRundown/Loader/AssemblyDCStop", {"Event156"}},
    {"Microsoft-Windows-DotNETRuntimeRundown/Loader/DomainModuleDCStop", {"Event152"}},
    {"Microsoft-Windows-DotNETRuntimeRundown/Loader/ModuleDCStop", {"Event154"}},
    {"Microsoft-Windows-DotNETRuntimeRundown/Method/DCStopComplete", {"Event146"}},
    {"Microsoft-Windows-DotNETRuntimeRundown/Method/DCStopInit", {"Event148"}},
    {"Microsoft-Windows-DotNETRuntimeRundown/Runtime/Start", {"Event187"}},
};
#define N_KINDS (sizeof kinds / sizeof kinds[0])

/* The providers whose events the runtime describes without fields (their templates are in
 * ClrEtwAll.man, not in the trace): an event of theirs may have a payload and no fields. */
static int fieldless_provider(const char *provider)
{
    return strncmp(provider, "Microsoft-Windows-DotNETRuntime", 31) == 0 ||
           strcmp(provider, "Microsoft-DotNETCore-SampleProfiler") == 0;
}

typedef struct opened {
    char *dir, *path;
    evgen_reader *rd;
} opened;

static int open_trace(const char *name, opened *o)
{
    memset(o, 0, sizeof *o);
    o->path = real_trace_unzip_named(name, &o->dir);
    if (!o->path)
        return 0;
    const evgen_reader_manifest *manifests[] = {&gcevents_reader_manifest};
    evgen_reader_options options = {manifests, 1};
    char *error = NULL;
    o->rd = evgen_reader_open_with(o->path, &options, &error);
    if (!o->rd)
        fail_msg("cannot open %s: %s", name, error);
    size_t n_problems;
    const evgen_read_problem *p = evgen_reader_problems(o->rd, &n_problems);
    if (n_problems)
        fail_msg("%s: %zu problems, the first at offset %llu: %s", name, n_problems,
                 (unsigned long long)p->offset, p->message);
    assert_int_equal(evgen_reader_status(o->rd, NULL), EVGEN_READ_OK);
    return 1;
}

static void close_trace(opened *o)
{
    evgen_reader_close(o->rd);
    real_trace_remove(o->dir, o->path);
}

/* Is `ev` of the baseline's kind `key`? The provider is the key's head; the rest names the event
 * through the table, or is the event's own name (maybe followed by "/opcode" for an opcode
 * PerfView has no name for). */
static int of_key(const evgen_event *ev, const char *key)
{
    size_t plen = strlen(ev->info->provider);
    if (strncmp(key, ev->info->provider, plen) != 0 || key[plen] != '/')
        return 0;
    for (size_t k = 0; k < N_KINDS; k++)
        if (strcmp(kinds[k].key, key) == 0) {
            for (int i = 0; i < 2 && kinds[k].names[i]; i++)
                if (strcmp(ev->info->name, kinds[k].names[i]) == 0)
                    return 1;
            return 0;
        }
    const char *rest = key + plen + 1;
    size_t n = strcspn(rest, "/");
    return strlen(ev->info->name) == n && memcmp(ev->info->name, rest, n) == 0;
}

/* Counts, first events and providers against the baseline of `name`. */
static void check_against_baseline(const char *name, size_t expect_lines)
{
    opened o;
    if (!open_trace(name, &o))
        skip();
    size_t n_lines;
    baseline_line *lines = baseline_read_named(name, &n_lines);
    assert_non_null(lines);
    assert_int_equal(n_lines, expect_lines);
    uint64_t *counts = calloc(n_lines, sizeof *counts);
    int *first_seen = calloc(n_lines, sizeof *first_seen);
    size_t compared = 0, with_fields = 0;
    evgen_event ev;
    evgen_reader_rewind(o.rd, EVGEN_ORDER_TIME);
    while (evgen_reader_next(o.rd, &ev)) {
        int provider_known = 0;
        for (size_t i = 0; i < n_lines; i++) {
            size_t plen = strlen(ev.info->provider);
            provider_known |= strncmp(lines[i].key, ev.info->provider, plen) == 0 && lines[i].key[plen] == '/';
            if (!of_key(&ev, lines[i].key))
                continue;
            counts[i]++;
            if (first_seen[i]++)
                continue;
            const baseline_line *l = &lines[i];
            char ours[32], theirs[32];
            snprintf(ours, sizeof ours, "%.4f", (double)ev.timestamp_ns / 1e6);
            snprintf(theirs, sizeof theirs, "%.4f", l->msec);
            if (strcmp(ours, theirs) != 0)
                fail_msg("%s: %s: first at %s ms, the baseline says %s", name, l->key, ours, theirs);
            if (ev.thread_id != l->tid)
                fail_msg("%s: %s: first on thread %llu, the baseline says %llu", name, l->key,
                         (unsigned long long)ev.thread_id, (unsigned long long)l->tid);
            size_t here = 0;
            for (size_t a = 0; a < l->n_attrs; a++)
                here += (size_t)baseline_compare_attr(&ev, &l->attrs[a], l->key);
            /* An event with fields compares some attribute (arrays of structs are child elements) */
            if (ev.layout->n_fields && l->n_attrs && !here)
                fail_msg("%s: %s: none of the baseline's %zu attributes compared", name, l->key, l->n_attrs);
            with_fields += ev.layout->n_fields > 0;
            compared += here;
        }
        if (!provider_known)
            fail_msg("%s: provider %s (event %s) is not in the baseline", name, ev.info->provider, ev.info->name);
    }
    for (size_t i = 0; i < n_lines; i++)
        if (counts[i] != lines[i].count)
            fail_msg("%s: %s: %llu events, the baseline has %llu", name, lines[i].key,
                     (unsigned long long)counts[i], (unsigned long long)lines[i].count);
    printf("%s: %zu kinds counted, %zu first events with fields, %zu field values equal the baseline's\n", name,
           n_lines, with_fields, compared);
    assert_true(compared > 0);
    free(counts);
    free(first_seen);
    baseline_free(lines, n_lines);
    close_trace(&o);
}

static void test_dotnetcore30(void **state)
{
    (void)state;
    check_against_baseline(TRACE_30, 36);
}

static void test_dotnet50(void **state)
{
    (void)state;
    check_against_baseline(TRACE_50, 11);
}

/* Everything the metadata describes is decoded: the fields reach the payload's end. */
static void check_decoded(const char *name)
{
    opened o;
    if (!open_trace(name, &o))
        skip();
    evgen_event ev;
    uint64_t events = 0, fieldless = 0;
    evgen_reader_rewind(o.rd, EVGEN_ORDER_FILE);
    while (evgen_reader_next(o.rd, &ev)) {
        events++;
        uint32_t n = ev.layout->n_fields, off = 0, size = 0;
        if (!n) {
            if (ev.size && !fieldless_provider(ev.info->provider))
                fail_msg("%s: %s of %s has a %u-byte payload and no fields", name, ev.info->name, ev.info->provider,
                         ev.size);
            fieldless++;
            continue;
        }
        for (uint32_t f = 0; f < n; f++)
            if (!evgen_event_field(&ev, f, &off, &size))
                fail_msg("%s: %s_V%u at offset %llu: field %s is not in its %u-byte payload", name, ev.info->name,
                         ev.layout->version, (unsigned long long)ev.offset, ev.layout->fields[f].name, ev.size);
        if (off + size != ev.size)
            fail_msg("%s: %s_V%u at offset %llu: its fields end at byte %u of %u", name, ev.info->name,
                     ev.layout->version, (unsigned long long)ev.offset, off + size, ev.size);
    }
    printf("%s: %llu events, %llu of them described without fields by the runtime\n", name,
           (unsigned long long)events, (unsigned long long)fieldless);
    close_trace(&o);
}

static void test_decoded(void **state)
{
    (void)state;
    check_decoded(TRACE_30);
    check_decoded(TRACE_50);
    check_decoded(TRACE_OSX);
}

/* MethodDCEndVerbose (rundown event 144, version 1 or 2 in ClrEtwAll.man): MethodID, ModuleID,
 * MethodStartAddress (UInt64 each), MethodSize, MethodToken, MethodFlags (UInt32 each), then
 * MethodNamespace, MethodName, MethodSignature (UTF-16, NUL-terminated), ClrInstanceID... */
typedef struct method {
    uint64_t start;
    uint32_t size;
    char name[256];
} method;

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* The UTF-16 string at p (ends before `end`), as UTF-8 into out; returns the byte after its NUL. */
static const uint8_t *utf16z(const uint8_t *p, const uint8_t *end, char *out, size_t cap)
{
    const uint8_t *q = p;
    while (q + 1 < end && (q[0] || q[1]))
        q += 2;
    assert_true(q + 1 < end);
    evgen_utf16_to_utf8((evgen_utf16_view){p, (size_t)(q - p) / 2}, out, cap);
    return q + 2;
}

static int decode_method(const evgen_event *ev, method *m)
{
    if (strcmp(ev->info->provider, "Microsoft-Windows-DotNETRuntimeRundown") != 0 || ev->info->id != 144)
        return 0;
    const uint8_t *p = ev->payload, *end = p + ev->size;
    assert_true(ev->size > 36);
    m->start = le(p + 16, 8);
    m->size = (uint32_t)le(p + 24, 4);
    char ns[128], name[128];
    p = utf16z(p + 36, end, ns, sizeof ns);
    utf16z(p, end, name, sizeof name);
    snprintf(m->name, sizeof m->name, "%s.%s", ns, name);
    return 1;
}

static void test_stacks_resolve(void **state)
{
    (void)state;
    opened o;
    if (!open_trace(TRACE_OSX, &o))
        skip();
    method *methods = NULL;
    size_t n_methods = 0, cap = 0;
    evgen_event ev;
    evgen_reader_rewind(o.rd, EVGEN_ORDER_FILE);
    while (evgen_reader_next(o.rd, &ev)) {
        if (n_methods == cap) {
            cap = cap ? 2 * cap : 64;
            methods = realloc(methods, cap * sizeof *methods);
            assert_non_null(methods);
        }
        n_methods += (size_t)decode_method(&ev, &methods[n_methods]);
    }
    assert_true(n_methods >= 100);
    uint64_t samples = 0, frames = 0, with_main = 0, with_stack = 0;
    evgen_reader_rewind(o.rd, EVGEN_ORDER_TIME);
    while (evgen_reader_next(o.rd, &ev)) {
        int is_sample = strcmp(ev.info->provider, "Microsoft-DotNETCore-SampleProfiler") == 0;
        with_stack += ev.stack_depth > 0;
        if (!is_sample)
            continue;
        samples++;
        if (!ev.stack_depth)
            fail_msg("sample %llu at %llu ns has no stack", (unsigned long long)samples,
                     (unsigned long long)ev.timestamp_ns);
        int main_seen = 0;
        for (uint32_t i = 0; i < ev.stack_depth; i++) {
            uint64_t ip = evgen_event_stack_ip(&ev, i);
            const method *in = NULL;
            for (size_t k = 0; k < n_methods && !in; k++)
                if (ip >= methods[k].start && ip - methods[k].start < methods[k].size)
                    in = &methods[k];
            if (!in)
                fail_msg("sample %llu: frame %u at 0x%llx is in no method of the rundown", (unsigned long long)samples,
                         i, (unsigned long long)ip);
            main_seen |= strcmp(in->name, "Example.Program.Main") == 0;
            frames++;
        }
        with_main += (uint64_t)main_seen;
    }
    printf("%llu samples, %llu frames, all in the rundown's %zu methods; Main in %llu\n", (unsigned long long)samples,
           (unsigned long long)frames, n_methods, (unsigned long long)with_main);
    assert_int_equal(samples, 5564);
    assert_int_equal(with_stack, samples); /* only the samples carry stacks */
    assert_int_equal(with_main, samples);
    free(methods);
    close_trace(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dotnetcore30),
        cmocka_unit_test(test_dotnet50),
        cmocka_unit_test(test_decoded),
        cmocka_unit_test(test_stacks_resolve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
