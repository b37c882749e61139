/* test_reader_convert.c — evgen_convert and `evgen convert` (docs/convert.md) on the real .NET Core
 * 3.0 trace of ../shared/reference/traces/ (skipped without ../shared): the .evtrace output read
 * back holds every event of the input with the same thread, ticks, name, provider, version and
 * payload bytes (raw types: the Raw array is the payload), thread by thread in order; its blocks,
 * walked and checksummed here from docs/format.md alone, follow the format's rules; the manifest's
 * metadata block is its original bytes; an .evtrace input is rewritten; bound events whose payload
 * does not fit the manifest's layout become raw, and dump prints them as it printed the input; a
 * hand-made 4-byte-pointer input's struct arrays read back as the input's; a truncated input
 * converts what is readable and fails with the offset; an input that cannot be opened leaves no
 * output; the command line. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evgen/convert.h"
#include "evgen/dump.h"
#include "evgen/reader.h"
#include "gcevents_reader.h"
#include "nettrace_writer.h"
#include "reader_helpers.h"
#include "test_support.h"

#define TRACE_NAME "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace"
#define TRACE_ZIP EVGEN_SOURCE_DIR "/../shared/reference/traces/" TRACE_NAME ".zip"
#define TRACE_EVENTS 105540u

typedef struct fixture {
    char *dir;
    char *trace; /* the unzipped trace, or NULL without ../shared */
} fixture;

/* One directory and one unzipped trace for the whole group. */
static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->dir = evgen_test_tempdir();
    if (evgen_test_exists(TRACE_ZIP)) {
        const char *argv[] = {CMAKE_EXE, "-E", "tar", "xf", TRACE_ZIP, NULL};
        free(evgen_test_must_run(argv, f->dir));
        f->trace = evgen_test_format("%s/%s", f->dir, TRACE_NAME);
        assert_true(evgen_test_exists(f->trace));
    }
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    evgen_test_rmtree(f->dir);
    free(f->dir);
    free(f->trace);
    free(f);
    return 0;
}

#define NEED_TRACE(f)                                                                  \
    do {                                                                               \
        if (!(f)->trace) {                                                             \
            print_message("skipped: %s is not there (no ../shared)\n", TRACE_ZIP);     \
            skip();                                                                    \
        }                                                                              \
    } while (0)

static const evgen_reader_manifest *const gcevents_only[] = {&gcevents_reader_manifest};
static const evgen_reader_options with_gcevents = {gcevents_only, 1};

static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    assert_int_equal(fseek(fp, 0, SEEK_END), 0);
    long n = ftell(fp);
    assert_true(n >= 0);
    rewind(fp);
    uint8_t *data = malloc((size_t)n + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    *size = (size_t)n;
    return data;
}

/* Converts, capturing the messages; returns the status, *messages (caller frees). */
static int convert(const char *in, const char *out, const evgen_reader_options *options, char **messages)
{
    FILE *err = tmpfile();
    assert_non_null(err);
    int status = evgen_convert(in, out, options, err);
    long n = ftell(err);
    rewind(err);
    char *text = calloc((size_t)n + 1, 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)n, err), (size_t)n);
    fclose(err);
    *messages = text;
    return status;
}

/* ---- the events, compared -------------------------------------------------------------------- */

typedef struct rec {
    const evgen_trace_event_info *info;
    const evgen_trace_version *layout;
    uint32_t version, size;
    const uint8_t *payload;
    uint64_t thread_id, ticks;
    size_t index;            /* in file order */
    int raw_found;           /* output: evgen_event_field found the Raw array */
    uint32_t raw_off, raw_size;
} rec;

static rec *read_events(evgen_reader *rd, int order, size_t *n)
{
    size_t cap = 1024;
    rec *r = malloc(cap * sizeof *r);
    assert_non_null(r);
    *n = 0;
    evgen_event ev;
    evgen_reader_rewind(rd, order);
    while (evgen_reader_next(rd, &ev)) {
        if (*n == cap) {
            cap *= 2;
            r = realloc(r, cap * sizeof *r);
            assert_non_null(r);
        }
        rec *x = &r[*n];
        memset(x, 0, sizeof *x);
        x->info = ev.info;
        x->layout = ev.layout;
        x->version = ev.version;
        x->size = ev.size;
        x->payload = ev.payload;
        x->thread_id = ev.thread_id;
        x->ticks = ev.ticks;
        x->index = (*n)++;
        if (ev.layout->n_fields == 2)
            x->raw_found = evgen_event_field(&ev, 1, &x->raw_off, &x->raw_size);
    }
    return r;
}

static int by_thread(const void *a, const void *b)
{
    const rec *x = a, *y = b;
    if (x->thread_id != y->thread_id)
        return x->thread_id < y->thread_id ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static int is_raw_layout(const evgen_trace_version *v)
{
    return v->n_fields == 2 && strcmp(v->fields[0].name, "RawSize") == 0 && v->fields[0].kind == 3 &&
           !v->fields[0].is_array && strcmp(v->fields[1].name, "Raw") == 0 && v->fields[1].kind == 1 &&
           v->fields[1].is_array && v->fields[1].count_field == 0;
}

typedef struct comparison {
    size_t events, raw, bound, version_kept;
} comparison;

/* Every event of `in` (opened with `options`) is in `out`, thread by thread in order: same thread,
 * ticks, name, provider, id; same payload with the same fields, or a raw type holding it. */
static comparison compare_events(const char *in, const evgen_reader_options *options, const char *out)
{
    char *error = NULL;
    evgen_reader *ri = evgen_reader_open_with(in, options, &error);
    evgen_reader *ro = evgen_reader_open(out, &error);
    assert_non_null(ri);
    assert_non_null(ro);
    size_t ni, no;
    /* convert writes the input in time order; a thread's events in the output are in file order */
    rec *a = read_events(ri, EVGEN_ORDER_TIME, &ni), *b = read_events(ro, EVGEN_ORDER_FILE, &no);
    assert_int_equal(ni, no);
    qsort(a, ni, sizeof *a, by_thread);
    qsort(b, no, sizeof *b, by_thread);
    comparison c = {ni, 0, 0, 0};
    for (size_t i = 0; i < ni; i++) {
        const rec *x = &a[i], *y = &b[i];
        assert_int_equal(x->thread_id, y->thread_id);
        assert_int_equal(x->ticks, y->ticks);
        assert_string_equal(x->info->name, y->info->name);
        int fits = x->layout->fixed_size < 0 || (uint64_t)x->layout->fixed_size == x->size;
        if (!fits && !x->info->unbound) { /* a manifest event's raw variant: a provider of its own */
            char *raw_provider = evgen_test_format("%s (raw)", x->info->provider);
            assert_string_equal(y->info->provider, raw_provider);
            free(raw_provider);
        } else {
            assert_string_equal(x->info->provider, y->info->provider);
        }
        assert_int_equal(x->info->id, y->info->id);
        if (fits) {
            /* The layout's own type: its fields, the version it has (the trace's, unless a manifest
             * bound a newer one to it: docs/convert.md). */
            assert_int_equal(y->version, x->layout->version);
            assert_int_equal(y->layout->n_fields, x->layout->n_fields);
            for (uint32_t k = 0; k < x->layout->n_fields; k++)
                assert_string_equal(y->layout->fields[k].name, x->layout->fields[k].name);
            assert_int_equal(y->size, x->size);
            assert_memory_equal(y->payload, x->payload, x->size);
            assert_string_equal(y->info->manifest->name, x->info->manifest->name);
        } else {
            assert_true(is_raw_layout(y->layout));
            assert_string_equal(y->info->manifest->name, "nettrace");
            assert_int_equal(y->version, x->version);
            assert_int_equal(y->size, x->size + 4u);
            assert_int_equal(y->payload[0] | y->payload[1] << 8 | y->payload[2] << 16 | (uint32_t)y->payload[3] << 24,
                             x->size);
            assert_true(y->raw_found);
            assert_int_equal(y->raw_off, 4);
            assert_int_equal(y->raw_size, x->size);
            assert_memory_equal(y->payload + 4, x->payload, x->size);
            c.raw++;
        }
        c.bound += !x->info->unbound;
        c.version_kept += y->version == x->version;
    }
    free(a);
    free(b);
    evgen_reader_close(ri);
    evgen_reader_close(ro);
    return c;
}

/* Per (provider, event name, version): the counts of `in` and `out` agree. */
typedef struct key_count {
    char key[256];
    uint64_t count;
} key_count;

static int by_key(const void *a, const void *b)
{
    return strcmp(((const key_count *)a)->key, ((const key_count *)b)->key);
}

static key_count *count_keys(const char *path, const evgen_reader_options *options, size_t *n)
{
    char *error = NULL;
    evgen_reader *rd = evgen_reader_open_with(path, options, &error);
    assert_non_null(rd);
    size_t cap = 64;
    key_count *k = calloc(cap, sizeof *k);
    *n = 0;
    evgen_event ev;
    while (evgen_reader_next(rd, &ev)) {
        char key[256];
        snprintf(key, sizeof key, "%s/%s/%u", ev.info->provider, ev.info->name, ev.version);
        size_t i = 0;
        while (i < *n && strcmp(k[i].key, key) != 0)
            i++;
        if (i == *n) {
            if (*n == cap) {
                cap *= 2;
                k = realloc(k, cap * sizeof *k);
            }
            memset(&k[i], 0, sizeof *k);
            snprintf(k[i].key, sizeof k[i].key, "%s", key);
            (*n)++;
        }
        k[i].count++;
    }
    evgen_reader_close(rd);
    qsort(k, *n, sizeof *k, by_key);
    return k;
}

static void compare_counts(const char *in, const evgen_reader_options *options, const char *out)
{
    size_t na, nb;
    key_count *a = count_keys(in, options, &na), *b = count_keys(out, NULL, &nb);
    assert_int_equal(na, nb);
    for (size_t i = 0; i < na; i++) {
        assert_string_equal(a[i].key, b[i].key);
        assert_int_equal(a[i].count, b[i].count);
    }
    free(a);
    free(b);
}

/* ---- the blocks, from docs/format.md alone --------------------------------------------------- */

/* CRC-32C bit by bit: an oracle independent of evgen/crc32c.h. */
static uint32_t crc32c_bitwise(uint32_t crc, const uint8_t *p, size_t n)
{
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

static uint64_t varint(const uint8_t **p)
{
    uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
        uint8_t b = *(*p)++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
    }
}

typedef struct layout {
    size_t n_metadata, n_events_blocks, largest_payload;
    unsigned format_version;
    const uint8_t *metadata[8]; /* payloads of the metadata blocks */
    size_t metadata_size[8];
    uint64_t end_written;
} layout;

/* Walks the file: header and block checksums, metadata first, then the threads' events blocks
 * (sequence from 0, the first based at start_ticks, at most 64 KiB unless one record), then the
 * end block, last. */
static layout walk(const uint8_t *d, size_t size)
{
    layout l;
    memset(&l, 0, sizeof l);
    assert_true(size >= 48);
    assert_memory_equal(d, "EVTRACE\0", 8);
    l.format_version = (unsigned)le(d + 8, 2);
    assert_true(l.format_version == 1 || l.format_version == 2);
    assert_int_equal(le(d + 44, 4), crc32c_bitwise(0, d, 44));
    uint64_t start_ticks = le(d + 24, 8);
    uint64_t tids[64];
    uint32_t next_seq[64];
    size_t n_tids = 0;
    int seen_events = 0, seen_end = 0;
    for (size_t off = 48; off < size;) {
        assert_false(seen_end);
        assert_true(size - off >= 48);
        const uint8_t *h = d + off;
        assert_memory_equal(h, "EVBK", 4);
        assert_int_equal(le(h + 6, 2), 48);
        size_t payload = (size_t)le(h + 8, 4);
        assert_true(size - off - 48 >= payload);
        assert_int_equal(le(h + 12, 4), crc32c_bitwise(crc32c_bitwise(0, h + 16, 32), h + 48, payload));
        switch (h[4]) {
        case 1:
            assert_false(seen_events);
            assert_true(l.n_metadata < 8);
            l.metadata[l.n_metadata] = h + 48;
            l.metadata_size[l.n_metadata++] = payload;
            break;
        case 2: {
            seen_events = 1;
            l.n_events_blocks++;
            uint64_t tid = le(h + 16, 8);
            uint32_t count = (uint32_t)le(h + 28, 4);
            assert_true(count >= 1);
            assert_true(payload <= 65536 || count == 1);
            if (payload > l.largest_payload)
                l.largest_payload = payload;
            size_t t = 0;
            while (t < n_tids && tids[t] != tid)
                t++;
            if (t == n_tids) {
                assert_true(n_tids < 64);
                tids[n_tids] = tid;
                next_seq[n_tids++] = 0;
                assert_int_equal(le(h + 40, 8), start_ticks);
            }
            assert_int_equal(le(h + 24, 4), next_seq[t]++);
            break;
        }
        case 3: {
            seen_end = 1;
            const uint8_t *p = h + 48;
            uint64_t n = varint(&p), sum = 0;
            for (uint64_t i = 0; i < n; i++) {
                varint(&p);
                sum += varint(&p);
                varint(&p);
                varint(&p);
            }
            l.end_written = varint(&p);
            assert_int_equal(l.end_written, sum);
            varint(&p);
            varint(&p);
            assert_ptr_equal(p, h + 48 + payload);
            break;
        }
        default:
            fail_msg("block type %u at offset %zu", h[4], off);
        }
        off += 48 + payload;
    }
    assert_true(seen_end);
    return l;
}

/* ---- tests ------------------------------------------------------------------------------------ */

static void assert_header_copied(const char *in, const evgen_reader_options *options, const char *out)
{
    char *error = NULL;
    evgen_reader *ri = evgen_reader_open_with(in, options, &error);
    evgen_reader *ro = evgen_reader_open(out, &error);
    assert_non_null(ri);
    assert_non_null(ro);
    const evgen_trace_header *a = evgen_reader_header(ri), *b = evgen_reader_header(ro);
    assert_int_equal(b->container, EVGEN_CONTAINER_EVTRACE);
    assert_int_equal(b->format_version, 2);
    assert_int_equal(b->pointer_size, a->pointer_size);
    assert_int_equal(b->clock_kind, a->clock_kind == 1 || a->clock_kind == 2 ? a->clock_kind : 2);
    assert_int_equal(b->clock_frequency, a->clock_frequency);
    assert_int_equal(b->start_ticks, a->start_ticks);
    assert_int_equal(b->start_unix_ns, a->start_unix_ns);
    assert_int_equal(b->process_id, a->process_id);
    assert_int_equal(evgen_reader_status(ro, NULL), EVGEN_READ_OK);
    /* Per thread: written = the events read; dropped = the input's. */
    size_t nt_in, nt_out;
    int end_in, end_out;
    const evgen_reader_thread *ti = evgen_reader_threads(ri, &nt_in, &end_in);
    const evgen_reader_thread *to = evgen_reader_threads(ro, &nt_out, &end_out);
    assert_true(end_out);
    for (size_t i = 0; i < nt_out; i++) {
        assert_int_equal(to[i].written_end, to[i].events);
        size_t k = 0;
        while (k < nt_in && ti[k].thread_id != to[i].thread_id)
            k++;
        assert_true(k < nt_in);
        assert_int_equal(to[i].events, ti[k].events);
        assert_int_equal(to[i].dropped_end, ti[k].dropped > ti[k].dropped_end ? ti[k].dropped : ti[k].dropped_end);
    }
    evgen_reader_close(ri);
    evgen_reader_close(ro);
}

static size_t leading_varint(const uint8_t *p, uint64_t *value)
{
    const uint8_t *q = p;
    *value = varint(&q);
    return (size_t)(q - p);
}

static void test_real_trace(void **state)
{
    fixture *f = *state;
    NEED_TRACE(f);
    char *out = evgen_test_format("%s/out.evtrace", f->dir);
    char *messages = NULL;
    assert_int_equal(convert(f->trace, out, &with_gcevents, &messages), 0);
    assert_string_equal(messages, "");
    free(messages);

    comparison c = compare_events(f->trace, &with_gcevents, out);
    assert_int_equal(c.events, TRACE_EVENTS);
    assert_int_equal(c.version_kept, TRACE_EVENTS); /* every event keeps the trace's version number */
    compare_counts(f->trace, &with_gcevents, out);
    assert_header_copied(f->trace, &with_gcevents, out);

    size_t size;
    uint8_t *data = read_file(out, &size);
    layout l = walk(data, size);
    assert_int_equal(l.format_version, 2);
    assert_int_equal(l.end_written, TRACE_EVENTS);
    /* gcevents' block: its original bytes, first_type 0; then the "nettrace" block. */
    assert_int_equal(l.n_metadata, 2);
    uint64_t first;
    size_t skip_out = leading_varint(l.metadata[0], &first), skip_man;
    assert_int_equal(first, 0);
    skip_man = leading_varint(gcevents_reader_manifest.metadata, &first);
    assert_int_equal(l.metadata_size[0] - skip_out, gcevents_reader_manifest.size - skip_man);
    assert_memory_equal(l.metadata[0] + skip_out, gcevents_reader_manifest.metadata + skip_man,
                        gcevents_reader_manifest.size - skip_man);
    size_t gcevents_types = 0;
    evgen_reader *ro = evgen_reader_open(out, NULL);
    assert_non_null(ro);
    for (size_t i = 0; i < evgen_reader_event_count(ro); i++) {
        const evgen_trace_event_info *info = evgen_reader_event_info(ro, i);
        if (strcmp(info->manifest->name, "gcevents") == 0)
            gcevents_types += info->n_versions;
    }
    /* In time order as the input was: the sample profiler's thread writes other threads' samples,
     * and each thread of the output still has its events in time order. */
    evgen_event ev;
    uint64_t last_ns = 0, events = 0;
    evgen_reader_rewind(ro, EVGEN_ORDER_TIME);
    while (evgen_reader_next(ro, &ev)) {
        if (ev.timestamp_ns < last_ns)
            fail_msg("event %llu at %llu ns comes after one at %llu ns", (unsigned long long)events,
                     (unsigned long long)ev.timestamp_ns, (unsigned long long)last_ns);
        last_ns = ev.timestamp_ns;
        events++;
    }
    assert_int_equal(events, TRACE_EVENTS);
    evgen_reader_close(ro);
    leading_varint(l.metadata[1], &first);
    assert_int_equal(first, gcevents_types);
    print_message("converted %u events (%zu bound to gcevents, %zu raw) from %s into %zu bytes: %zu events "
                  "blocks (largest payload %zu bytes), metadata %zu + %zu bytes\n",
                  TRACE_EVENTS, c.bound, c.raw, TRACE_NAME, size, l.n_events_blocks, l.largest_payload,
                  l.metadata_size[0], l.metadata_size[1]);
    assert_true(c.bound > 0 && c.raw > 0 && c.bound + c.raw <= TRACE_EVENTS);

    /* evgen dump reads it whole. */
    const char *argv[] = {EVGEN_EXE, "dump", "--stats", out, NULL};
    char *dump_out = NULL, *dump_err = NULL;
    assert_int_equal(rh_run(argv, &dump_out, NULL, &dump_err), 0);
    assert_non_null(strstr(dump_out, "status: ok, end block found\n"));
    assert_non_null(strstr(dump_out, "totals: 105540 events,"));
    assert_string_equal(dump_err, "");
    free(dump_out);
    free(dump_err);

    /* An .evtrace input is rewritten: the same events, the same metadata bytes. */
    char *again = evgen_test_format("%s/again.evtrace", f->dir);
    assert_int_equal(convert(out, again, NULL, &messages), 0);
    assert_string_equal(messages, "");
    free(messages);
    c = compare_events(out, NULL, again);
    assert_int_equal(c.events, TRACE_EVENTS);
    assert_int_equal(c.raw, 0);
    assert_header_copied(out, NULL, again);
    size_t size2;
    uint8_t *data2 = read_file(again, &size2);
    layout l2 = walk(data2, size2);
    assert_int_equal(size2, size);
    assert_int_equal(l2.n_metadata, l.n_metadata);
    for (size_t i = 0; i < l.n_metadata; i++) {
        assert_int_equal(l2.metadata_size[i], l.metadata_size[i]);
        assert_memory_equal(l2.metadata[i], l.metadata[i], l.metadata_size[i]);
    }
    free(data2);
    free(again);
    free(data);
    free(out);
}

/* Without a manifest every event is unbound: any with a payload is raw. */
static void test_real_trace_unbound(void **state)
{
    fixture *f = *state;
    NEED_TRACE(f);
    char *out = evgen_test_format("%s/unbound.evtrace", f->dir);
    char *messages = NULL;
    assert_int_equal(convert(f->trace, out, NULL, &messages), 0);
    assert_string_equal(messages, "");
    free(messages);
    comparison c = compare_events(f->trace, NULL, out);
    assert_int_equal(c.events, TRACE_EVENTS);
    assert_int_equal(c.bound, 0);
    assert_int_equal(c.version_kept, TRACE_EVENTS);
    compare_counts(f->trace, NULL, out);
    assert_header_copied(f->trace, NULL, out);
    size_t size;
    uint8_t *data = read_file(out, &size);
    layout l = walk(data, size);
    assert_int_equal(l.n_metadata, 1);
    free(data);
    free(out);
}

/* `evgen dump` of the events named `name` (NULL: every event) in `path` (text or JSON lines), read
 * with `options`. */
static char *dump_events(const char *dir, const char *path, const evgen_reader_options *options, int json,
                         const char *name)
{
    char *out = evgen_test_format("%s/dump.txt", dir);
    FILE *file = fopen(out, "w");
    assert_non_null(file);
    evgen_dump_options opt;
    evgen_dump_options_init(&opt);
    opt.json = json;
    opt.reader = options;
    opt.events = &name;
    opt.n_events = name ? 1 : 0;
    opt.progress = 0;
    assert_int_equal(evgen_dump(path, &opt, fileno(file), stderr), 0);
    fclose(file);
    char *text = evgen_test_read(out);
    assert_non_null(text);
    remove(out);
    free(out);
    return text;
}

/* Fails with the first line where the dump `after` (of `path`) differs from `before`. */
static void assert_same_dumps(const char *path, const char *before, const char *after)
{
    if (strcmp(before, after) == 0)
        return;
    size_t i = 0;
    while (before[i] == after[i])
        i++;
    while (i && before[i - 1] != '\n')
        i--;
    fail_msg("%s: the dumps differ at\n%.*s\n%.*s", path, (int)strcspn(before + i, "\n"), before + i,
             (int)strcspn(after + i, "\n"), after + i);
}

/* A manifest whose GCStart stops at version 1 with two fields (8 bytes, where the trace's version 2
 * has 26): GCStart becomes raw at the trace's version 2. Its GCAllocationTick version 2 ends with a
 * string: the trace's version 3 payloads keep that layout, tail included, as version 2. */
static void test_bound_raw(void **state)
{
    fixture *f = *state;
    NEED_TRACE(f);
    rh_bytes m = {0};
    rh_varint(&m, 0);
    rh_string(&m, "tiny");
    rh_varint(&m, 1);
    rh_string(&m, "Microsoft-Windows-DotNETRuntime");
    rh_varint(&m, 0); /* enums */
    rh_varint(&m, 0); /* structs */
    rh_varint(&m, 2);
    static const struct {
        const char *name;
        unsigned kind;
    } start[] = {{"Count", 3}, {"Depth", 3}},
      tick[] = {{"AllocationAmount", 3}, {"AllocationKind", 3}, {"ClrInstanceID", 2},
                {"AllocationAmount64", 4}, {"TypeID", 14}, {"TypeName", 16}};
    rh_string(&m, "GCStart");
    rh_varint(&m, 0); /* provider */
    rh_varint(&m, 1); /* id */
    rh_varint(&m, 4); /* level */
    rh_varint(&m, 1); /* keywords */
    rh_varint(&m, 1); /* versions */
    rh_varint(&m, 1); /* version 1 */
    rh_varint(&m, 0);
    rh_varint(&m, 2);
    for (size_t i = 0; i < 2; i++) {
        rh_string(&m, start[i].name);
        rh_varint(&m, start[i].kind);
        for (int k = 0; k < 4; k++)
            rh_varint(&m, 0); /* flags, enum+1, struct+1, count+1 */
    }
    rh_string(&m, "GCAllocationTick");
    rh_varint(&m, 0);
    rh_varint(&m, 10);
    rh_varint(&m, 5);
    rh_varint(&m, 1);
    rh_varint(&m, 1);
    rh_varint(&m, 2); /* version 2 */
    rh_varint(&m, 0);
    rh_varint(&m, 6);
    for (size_t i = 0; i < 6; i++) {
        rh_string(&m, tick[i].name);
        rh_varint(&m, tick[i].kind);
        for (int k = 0; k < 4; k++)
            rh_varint(&m, 0);
    }
    const evgen_reader_manifest tiny = {"tiny", m.data, m.len};
    const evgen_reader_manifest *const list[] = {&tiny};
    const evgen_reader_options options = {list, 1};

    char *out = evgen_test_format("%s/tiny.evtrace", f->dir);
    char *messages = NULL;
    assert_int_equal(convert(f->trace, out, &options, &messages), 0);
    assert_string_equal(messages, "");
    free(messages);
    comparison c = compare_events(f->trace, &options, out);
    assert_int_equal(c.events, TRACE_EVENTS);
    assert_int_equal(c.bound, 478 + 35458);
    /* GCAllocationTick v3 read as v2: the one version number not kept. */
    assert_int_equal(c.version_kept, TRACE_EVENTS - 35458);

    evgen_reader *ro = evgen_reader_open(out, NULL);
    assert_non_null(ro);
    evgen_event ev;
    size_t starts = 0, ticks = 0;
    while (evgen_reader_next(ro, &ev)) {
        if (ev.info->id == 1 && strcmp(ev.info->name, "GCStart") == 0) {
            assert_string_equal(ev.info->manifest->name, "nettrace");
            assert_string_equal(ev.info->provider, "Microsoft-Windows-DotNETRuntime (raw)");
            assert_true(is_raw_layout(ev.layout));
            assert_int_equal(ev.version, 2);
            assert_int_equal(ev.size, 4 + 26);
            starts++;
        } else if (strcmp(ev.info->name, "GCAllocationTick") == 0) {
            assert_string_equal(ev.info->manifest->name, "tiny");
            assert_int_equal(ev.version, 2);
            assert_int_equal(ev.layout->n_fields, 6);
            ticks++;
        }
    }
    assert_int_equal(starts, 478);
    assert_int_equal(ticks, 35458);
    evgen_reader_close(ro);
    /* A dump reads the same before and after: GCStart's two fields, then the version 2 tail. */
    for (int json = 0; json <= 1; json++) {
        char *before = dump_events(f->dir, f->trace, &options, json, "GCStart");
        char *after = dump_events(f->dir, out, NULL, json, "GCStart");
        assert_same_dumps(out, before, after);
        assert_non_null(strstr(before, json ? "\"fields\":{\"Count\":1,\"Depth\":0,\"raw\":\""
                                             : " GCStart_V1 Count=1 Depth=0 raw="));
        free(before);
        free(after);
    }
    size_t size;
    uint8_t *data = read_file(out, &size);
    layout l = walk(data, size);
    assert_int_equal(l.n_metadata, 2);
    uint64_t first;
    leading_varint(l.metadata[1], &first);
    assert_int_equal(first, 2); /* after tiny's two types */
    free(data);
    free(out);
    rh_free(&m);
}

static size_t put_le(uint8_t *p, size_t at, uint64_t v, unsigned size)
{
    for (unsigned i = 0; i < size; i++)
        p[at + i] = (uint8_t)(v >> (8 * i));
    return at + size;
}

/* A .nettrace file of a 32-bit runtime (4-byte pointers) with arrays of gcevents' structs that
 * hold pointers: GCBulkMovedObjectRanges ({ptr, ptr, u64}: 16 bytes, 24 with 8-byte pointers) and
 * GCFitBucketInfo ({u16, u32, ptr}: 12 bytes, 16 with 8-byte pointers). The output, read without
 * the manifest, shows every element as the input read with it did, and so does its own convert. */
static void test_pointer4_struct_arrays(void **state)
{
    fixture *f = *state;
    nt_writer *w = nt_writer_new(5, 1, 4, 1000000u, 10000000u, 77, 2);
    nt_metadata(w, 1, "Microsoft-Windows-DotNETRuntime", 22, "", 0x400000, 0, 4, NULL, 0);
    nt_metadata(w, 2, "Microsoft-Windows-DotNETRuntime", 209, "", 1, 0, 5, NULL, 0);
    nt_metadata(w, 3, "Microsoft-Windows-DotNETRuntime", 16, "", 0x100000, 0, 4, NULL, 0);
    uint8_t moved[10 + 2 * 16], fit[14 + 3 * 12], edge[10 + 2 * 13];
    size_t k = put_le(moved, 0, 1, 4); /* Index */
    k = put_le(moved, k, 2, 4);        /* Count */
    k = put_le(moved, k, 9, 2);        /* ClrInstanceID */
    for (unsigned i = 0; i < 2; i++) {
        k = put_le(moved, k, 0x1000u * (i + 1), 4);
        k = put_le(moved, k, 0x2000u * (i + 1), 4);
        k = put_le(moved, k, 0x100000000ull + i, 8);
    }
    assert_int_equal(k, sizeof moved);
    k = put_le(fit, 0, 9, 2);      /* ClrInstanceID */
    k = put_le(fit, k, 1, 2);      /* BucketKind */
    k = put_le(fit, k, 1000, 8);   /* TotalSize */
    k = put_le(fit, k, 3, 2);      /* Count */
    for (unsigned i = 0; i < 3; i++) {
        k = put_le(fit, k, 10 + i, 2);
        k = put_le(fit, k, 0xeeee, 2); /* the C struct's padding */
        k = put_le(fit, k, 20 + i, 4);
        k = put_le(fit, k, 0x30000000u + i, 4);
    }
    assert_int_equal(k, sizeof fit);
    /* GCBulkRootEdge: #pragma pack(1) elements {ptr, u8, u32, ptr}, 13 bytes with 4-byte pointers */
    k = put_le(edge, 0, 4, 4); /* Index */
    k = put_le(edge, k, 2, 4); /* Count */
    k = put_le(edge, k, 9, 2); /* ClrInstanceID */
    for (unsigned i = 0; i < 2; i++) {
        k = put_le(edge, k, 0x5000u + i, 4);
        k = put_le(edge, k, 1 + i, 1);
        k = put_le(edge, k, 0x40u + i, 4);
        k = put_le(edge, k, 0x6000u + i, 4);
    }
    assert_int_equal(k, sizeof edge);
    nt_event e[] = {
        {1, 1, 0x1111, 0x1111, 0, 0, 1000100, 0, NULL, moved, sizeof moved, NULL, 0},
        {2, 2, 0x1111, 0x1111, 0, 0, 1000200, 0, NULL, fit, sizeof fit, NULL, 0},
        {3, 3, 0x1111, 0x1111, 0, 0, 1000300, 0, NULL, edge, sizeof edge, NULL, 0},
    };
    for (size_t i = 0; i < sizeof e / sizeof e[0]; i++)
        nt_write_event(w, &e[i]);
    size_t size;
    uint8_t *data = nt_writer_finish(w, &size);
    char *in = rh_write_file(f->dir, "ptr4.nettrace", data, size);
    free(data);

    char *out = evgen_test_format("%s/ptr4.evtrace", f->dir);
    char *again = evgen_test_format("%s/ptr4-again.evtrace", f->dir);
    char *messages = NULL;
    assert_int_equal(convert(in, out, &with_gcevents, &messages), 0);
    assert_string_equal(messages, "");
    free(messages);
    assert_int_equal(convert(out, again, NULL, &messages), 0);
    assert_string_equal(messages, "");
    free(messages);

    char *before = dump_events(f->dir, in, &with_gcevents, 1, NULL);
    /* The input's elements, as written above. */
    assert_non_null(strstr(before, "\"Values\":[{\"OldRangeBase\":\"0x1000\",\"NewRangeBase\":\"0x2000\","
                                   "\"RangeLength\":4294967296},{\"OldRangeBase\":\"0x2000\",\"NewRangeBase\":"
                                   "\"0x4000\",\"RangeLength\":4294967297}]"));
    assert_non_null(strstr(before, "\"Values\":[{\"Index\":10,\"Count\":20,\"Size\":\"0x30000000\"},"
                                   "{\"Index\":11,\"Count\":21,\"Size\":\"0x30000001\"},"
                                   "{\"Index\":12,\"Count\":22,\"Size\":\"0x30000002\"}]"));
    /* packed elements keep their pack with 4-byte pointers */
    if (!strstr(before, "\"Values\":[{\"RootedNodeAddress\":\"0x5000\",\"GCRootKind\":1,\"GCRootFlag\":64,"
                        "\"GCRootID\":\"0x6000\"},{\"RootedNodeAddress\":\"0x5001\",\"GCRootKind\":2,"
                        "\"GCRootFlag\":65,\"GCRootID\":\"0x6001\"}]"))
        fail_msg("GCBulkRootEdge's packed elements misread: %s", before);
    const char *outputs[] = {out, again};
    for (size_t i = 0; i < 2; i++) {
        char *after = dump_events(f->dir, outputs[i], NULL, 1, NULL);
        assert_same_dumps(outputs[i], before, after);
        free(after);
    }
    free(before);
    free(again);
    free(out);
    free(in);
}

/* A hand-made .evtrace file with drops in its blocks, after a thread's last block, and of a thread
 * with no block (too big too): the end block of the output has the totals; without an end block,
 * the blocks' counts, and status 1 for the missing end block. */
static void evtrace_with_drops(fixture *f, int with_end)
{
    rh_bytes file = {0}, p = {0};
    rh_file_header(&file, 1, 1000000000u);
    static const rh_field x[] = {{"X", 3, 0, 0}};
    const char *const names[] = {"A"};
    const rh_field *const fields[] = {x};
    const size_t n_fields[] = {1};
    rh_metadata(&file, 0, 1, names, fields, n_fields);
    static const int64_t deltas[] = {10, 5, 20, -3};
    for (size_t i = 0; i < 4; i++) {
        rh_varint(&p, 0);
        rh_zigzag(&p, deltas[i]);
        rh_le(&p, 100 + i, 4);
        if (i == 1) {
            rh_append_block(&file, 2, 7, 0, 2, 3, RH_START_TICKS, &p);
            p.len = 0;
        } else if (i == 2) {
            rh_append_block(&file, 2, 7, 1, 1, 2, RH_START_TICKS + 15, &p);
            p.len = 0;
        }
    }
    rh_append_block(&file, 2, 9, 0, 1, 0, RH_START_TICKS, &p);
    p.len = 0;
    if (with_end) {
        static const uint64_t end[][4] = {{7, 3, 6, 0}, {9, 1, 0, 0}, {11, 0, 4, 1}};
        rh_varint(&p, 3);
        for (size_t i = 0; i < 3; i++)
            for (size_t k = 0; k < 4; k++)
                rh_varint(&p, end[i][k]);
        rh_varint(&p, 4);
        rh_varint(&p, 10);
        rh_varint(&p, 1);
        rh_append_block(&file, 3, 0, 0, 0, 0, 0, &p);
    }
    char *in = rh_write_file(f->dir, with_end ? "drops.evtrace" : "drops-noend.evtrace", file.data, file.len);
    char *out = evgen_test_format("%s.out", in);
    char *messages = NULL;
    assert_int_equal(convert(in, out, NULL, &messages), with_end ? 0 : 1);
    if (!with_end)
        assert_non_null(strstr(messages, "no end block"));
    free(messages);
    comparison c = compare_events(in, NULL, out);
    assert_int_equal(c.events, 4);
    assert_header_copied(in, NULL, out); /* clock 1 kept; dropped: the end block's, else the blocks' */
    evgen_reader *ro = evgen_reader_open(out, NULL);
    assert_non_null(ro);
    size_t n;
    int has_end;
    const evgen_reader_thread *t = evgen_reader_threads(ro, &n, &has_end);
    assert_true(has_end);
    assert_int_equal(n, with_end ? 3 : 2);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(t[i].dropped, 0); /* where the drops were is not known: totals only */
        if (t[i].thread_id == 7)
            assert_int_equal(t[i].dropped_end, with_end ? 6 : 5);
        else if (t[i].thread_id == 11)
            assert_true(t[i].dropped_end == 4 && t[i].too_big_end == 1 && t[i].written_end == 0);
    }
    evgen_reader_close(ro);
    free(out);
    free(in);
    rh_free(&p);
    rh_free(&file);
}

static void test_evtrace_drops(void **state)
{
    evtrace_with_drops(*state, 1);
    evtrace_with_drops(*state, 0);
}

static int dir_has_prefix(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int found = 0;
    for (struct dirent *e; (e = readdir(d));)
        found |= strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return found;
}

/* A cut copy: every event before the cut is converted; status 1 with the offset of the cut. */
static void test_truncated(void **state)
{
    fixture *f = *state;
    NEED_TRACE(f);
    size_t size;
    uint8_t *data = read_file(f->trace, &size);
    char *cut = rh_write_file(f->dir, "cut.nettrace", data, size / 2);
    char *out = evgen_test_format("%s/cut.evtrace", f->dir);
    char *messages = NULL;
    assert_int_equal(convert(cut, out, &with_gcevents, &messages), 1);
    char *expected = evgen_test_format("%s: offset ", cut);
    assert_true(strncmp(messages, expected, strlen(expected)) == 0);
    assert_non_null(strstr(messages, "the file ends"));
    print_message("%s", messages);
    comparison c = compare_events(cut, &with_gcevents, out);
    assert_true(c.events > 0 && c.events < TRACE_EVENTS);
    assert_header_copied(cut, &with_gcevents, out);
    uint8_t *converted = read_file(out, &size);
    walk(converted, size);
    assert_false(dir_has_prefix(f->dir, "cut.evtrace.tmp."));
    free(converted);
    free(expected);
    free(messages);
    free(out);
    free(cut);
    free(data);
}

/* Damaged copies (a few bytes flipped, often in the metadata and event headers near the start):
 * whatever the reader makes of them converts into a trace that reads back the same, or the input
 * does not open and there is no output. */
static void test_mutants(void **state)
{
    fixture *f = *state;
    NEED_TRACE(f);
    size_t size;
    uint8_t *data = read_file(f->trace, &size);
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    size_t converted = 0;
    for (int round = 0; round < 24; round++) {
        uint8_t *copy = malloc(size);
        assert_non_null(copy);
        memcpy(copy, data, size);
        int flips = 1 + round % 8;
        for (int k = 0; k < flips; k++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            size_t span = round % 2 ? size : 65536; /* half of them in the first 64 KiB */
            copy[(seed >> 33) % span] ^= (uint8_t)(1u << ((seed >> 20) % 8));
        }
        char *in = rh_write_file(f->dir, "mutant.nettrace", copy, size);
        char *out = evgen_test_format("%s/mutant-%d.evtrace", f->dir, round);
        char *messages = NULL;
        int status = convert(in, out, &with_gcevents, &messages);
        if (evgen_test_exists(out)) {
            comparison c = compare_events(in, &with_gcevents, out);
            size_t out_size;
            uint8_t *written = read_file(out, &out_size);
            layout l = walk(written, out_size);
            assert_int_equal(l.end_written, c.events);
            free(written);
            converted++;
        } else {
            assert_int_equal(status, 1);
        }
        free(messages);
        free(out);
        free(in);
        free(copy);
    }
    assert_true(converted > 0);
    free(data);
}

/* An input that does not open: "IN: message", no output, no temporary file left. */
static void test_open_failure(void **state)
{
    fixture *f = *state;
    char *missing = evgen_test_format("%s/missing.nettrace", f->dir);
    char *text = rh_write_file(f->dir, "text.nettrace", "not a trace\n", 12);
    char *empty = rh_write_file(f->dir, "empty.nettrace", "", 0);
    char *netcut = rh_write_file(f->dir, "netcut.nettrace", "Nettrace\x04", 9);
    const char *inputs[] = {missing, text, empty, netcut};
    char *out = evgen_test_format("%s/failed.evtrace", f->dir);
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        char *messages = NULL;
        assert_int_equal(convert(inputs[i], out, &with_gcevents, &messages), 1);
        char *expected = evgen_test_format("%s: ", inputs[i]);
        assert_true(strncmp(messages, expected, strlen(expected)) == 0);
        assert_non_null(strchr(messages, '\n'));
        free(expected);
        free(messages);
        assert_false(evgen_test_exists(out));
        assert_false(dir_has_prefix(f->dir, "failed.evtrace"));
    }
    /* An output that cannot be created: "OUT: cannot write into the directory ...", nothing left. */
    if (f->trace) {
        char *nowhere = evgen_test_format("%s/no/such/dir/out.evtrace", f->dir);
        char *messages = NULL;
        assert_int_equal(convert(f->trace, nowhere, &with_gcevents, &messages), 1);
        assert_non_null(strstr(messages, "out.evtrace: cannot write into the directory"));
        assert_false(evgen_test_exists(nowhere));
        free(messages);
        free(nowhere);
    }
    free(out);
    free(netcut);
    free(empty);
    free(text);
    free(missing);
}

/* `evgen convert`: usage, the manifest evgen ships for .nettrace files (the same bytes as the
 * generated gcevents_reader_manifest), exit status 1 with the offset of a cut. */
static void test_command(void **state)
{
    fixture *f = *state;
    char *out_text = NULL, *err_text = NULL;
    const char *usage[] = {EVGEN_EXE, "convert", NULL};
    assert_int_equal(rh_run(usage, &out_text, NULL, &err_text), 2);
    assert_non_null(strstr(err_text, "missing the input trace: evgen convert IN OUT.evtrace"));
    free(out_text);
    free(err_text);
    const char *help[] = {EVGEN_EXE, "convert", "--help", NULL};
    assert_int_equal(rh_run(help, &out_text, NULL, &err_text), 0);
    assert_non_null(strstr(out_text, "--manifest FILE"));
    assert_non_null(strstr(out_text, "--format-version N"));
    free(out_text);
    free(err_text);
    const char *bad_version[] = {EVGEN_EXE, "convert", "in.nettrace", "out.evtrace", "--format-version", "3", NULL};
    assert_int_equal(rh_run(bad_version, &out_text, NULL, &err_text), 2);
    assert_non_null(strstr(err_text, "evgen convert: --format-version takes 1 or 2, not '3'"));
    free(out_text);
    free(err_text);
    const char *top[] = {EVGEN_EXE, "--help", NULL};
    assert_int_equal(rh_run(top, &out_text, NULL, &err_text), 0);
    assert_non_null(strstr(out_text, "  convert IN OUT.evtrace"));
    free(out_text);
    free(err_text);
    NEED_TRACE(f);

    char *lib = evgen_test_format("%s/lib.evtrace", f->dir), *cli = evgen_test_format("%s/cli.evtrace", f->dir);
    char *messages = NULL;
    assert_int_equal(convert(f->trace, lib, &with_gcevents, &messages), 0);
    free(messages);
    const char *run[] = {EVGEN_EXE, "convert", f->trace, cli, NULL};
    assert_int_equal(rh_run(run, &out_text, NULL, &err_text), 0);
    assert_string_equal(err_text, "");
    free(out_text);
    free(err_text);
    size_t a_size, b_size;
    uint8_t *a = read_file(lib, &a_size), *b = read_file(cli, &b_size);
    assert_int_equal(a_size, b_size);
    assert_memory_equal(a, b, a_size);
    free(b);
    /* --format-version 1 writes what evgen_convert_format(..., 1, ...) does */
    char *lib1 = evgen_test_format("%s/lib1.evtrace", f->dir), *cli1 = evgen_test_format("%s/cli1.evtrace", f->dir);
    assert_int_equal(evgen_convert_format(f->trace, lib1, &with_gcevents, 1, NULL, 0, stderr), 0);
    const char *run1[] = {EVGEN_EXE, "convert", "--format-version", "1", f->trace, cli1, NULL};
    assert_int_equal(rh_run(run1, &out_text, NULL, &err_text), 0);
    free(out_text);
    free(err_text);
    uint8_t *c = read_file(lib1, &a_size);
    b = read_file(cli1, &b_size);
    assert_int_equal(a_size, b_size);
    assert_memory_equal(c, b, a_size);
    assert_int_equal(le(b + 8, 2), 1);
    free(c);
    free(lib1);
    free(cli1);

    free(a);
    size_t size;
    uint8_t *data = read_file(f->trace, &size);
    char *cut = rh_write_file(f->dir, "cli-cut.nettrace", data, size / 3);
    char *cut_out = evgen_test_format("%s/cli-cut.evtrace", f->dir);
    const char *run_cut[] = {EVGEN_EXE, "convert", "--manifest", EVGEN_SOURCE_DIR "/manifest/gcevents.h", cut,
                             cut_out, NULL};
    assert_int_equal(rh_run(run_cut, &out_text, NULL, &err_text), 1);
    assert_non_null(strstr(err_text, ": offset "));
    assert_true(evgen_test_exists(cut_out));
    free(out_text);
    free(err_text);
    free(cut_out);
    free(cut);
    free(data);
    free(b);
    free(cli);
    free(lib);
}

/* --format-version 1: the same events framed as every older reader reads them (a type and a delta
 * per record), a larger file; the same metadata and blocks otherwise. A version no evgen writes is
 * refused before anything is read or created. */
static void test_format_version_1(void **state)
{
    fixture *f = *state;
    NEED_TRACE(f);
    char *out1 = evgen_test_format("%s/format1.evtrace", f->dir), *out2 = evgen_test_format("%s/format2.evtrace", f->dir);
    assert_int_equal(evgen_convert_format(f->trace, out1, &with_gcevents, 1, NULL, 0, stderr), 0);
    assert_int_equal(evgen_convert_format(f->trace, out2, &with_gcevents, 0, NULL, 0, stderr), 0);
    comparison c = compare_events(f->trace, &with_gcevents, out1);
    assert_int_equal(c.events, TRACE_EVENTS);
    size_t size1, size2;
    uint8_t *data1 = read_file(out1, &size1), *data2 = read_file(out2, &size2);
    layout l1 = walk(data1, size1), l2 = walk(data2, size2);
    assert_int_equal(l1.format_version, 1);
    assert_int_equal(l2.format_version, 2);
    assert_int_equal(l1.n_events_blocks, l2.n_events_blocks);
    assert_int_equal(l1.end_written, TRACE_EVENTS);
    assert_true(size1 > size2); /* format 1 spends a type on every record */
    evgen_reader *r1 = evgen_reader_open(out1, NULL);
    assert_non_null(r1);
    assert_int_equal(evgen_reader_header(r1)->format_version, 1);
    assert_int_equal(evgen_reader_status(r1, NULL), EVGEN_READ_OK);
    evgen_reader_close(r1);

    char *out3 = evgen_test_format("%s/format3.evtrace", f->dir);
    FILE *err = tmpfile();
    assert_non_null(err);
    assert_int_equal(evgen_convert_format(f->trace, out3, &with_gcevents, 3, NULL, 0, err), 1);
    char text[200] = {0};
    rewind(err);
    assert_true(fread(text, 1, sizeof text - 1, err) > 0);
    fclose(err);
    assert_non_null(strstr(text, "cannot write .evtrace format 3 (this evgen writes 1 to 2)"));
    assert_false(evgen_test_exists(out3));
    free(data1);
    free(data2);
    free(out1);
    free(out2);
    free(out3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_trace),
        cmocka_unit_test(test_real_trace_unbound),
        cmocka_unit_test(test_format_version_1),
        cmocka_unit_test(test_bound_raw),
        cmocka_unit_test(test_pointer4_struct_arrays),
        cmocka_unit_test(test_evtrace_drops),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_mutants),
        cmocka_unit_test(test_open_failure),
        cmocka_unit_test(test_command),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
