/* fuzz_trace.c — what the trace fuzz targets (fuzz_evtrace, fuzz_nettrace) do with an input: read
 * it every way libevgen-reader and evgen dump can, and check the reader's promises on the way,
 * and that every line dump writes as JSON is one JSON object (json-c's parser says). */
#define _GNU_SOURCE /* memfd_create */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <json-c/json.h>

#include "evgen/dump.h"
#include "fuzz.h"
#include "fuzz_trace.h"

/* Bytes are read into this, so that no read can be optimized away. */
static volatile uint8_t sink;

static void touch(const uint8_t *p, size_t n)
{
    uint8_t x = 0;
    for (size_t i = 0; i < n; i++)
        x ^= p[i];
    sink ^= x;
}

static void touch_string(const char *s)
{
    FUZZ_CHECK(s != NULL);
    touch((const uint8_t *)s, strlen(s));
}

/* The trace's metadata, as the reader decoded it: every name is a string, every index in range. */
static void read_metadata(evgen_reader *rd)
{
    const evgen_trace_header *h = evgen_reader_header(rd);
    FUZZ_CHECK(h != NULL);
    sink ^= (uint8_t)(h->format_version ^ h->pointer_size ^ h->clock_kind ^ h->container);
    size_t n = evgen_reader_event_count(rd);
    for (size_t i = 0; i < n; i++) {
        const evgen_trace_event_info *info = evgen_reader_event_info(rd, i);
        FUZZ_CHECK(info != NULL && info->index == i);
        touch_string(info->name);
        touch_string(info->provider);
        FUZZ_CHECK(evgen_reader_find_event(rd, info->provider, info->name) != NULL);
        FUZZ_CHECK(evgen_reader_find_event(rd, NULL, info->name) != NULL);
        const evgen_trace_manifest *m = info->manifest;
        for (uint32_t v = 0; v < info->n_versions; v++) {
            const evgen_trace_version *ver = &info->versions[v];
            for (uint32_t f = 0; f < ver->n_fields; f++) {
                const evgen_trace_field *fd = &ver->fields[f];
                touch_string(fd->name);
                FUZZ_CHECK(fd->enum_index < 0 || (m && (uint32_t)fd->enum_index < m->n_enums));
                FUZZ_CHECK(fd->struct_index < 0 || (m && (uint32_t)fd->struct_index < m->n_structs));
                FUZZ_CHECK(fd->count_field < 0 || (uint32_t)fd->count_field < ver->n_fields);
            }
        }
    }
    FUZZ_CHECK(evgen_reader_event_info(rd, n) == NULL);
    size_t n_problems = 0, n_threads = 0;
    const evgen_read_problem *problems = evgen_reader_problems(rd, &n_problems);
    for (size_t i = 0; i < n_problems; i++)
        touch_string(problems[i].message);
    int has_end = 0;
    const evgen_reader_thread *threads = evgen_reader_threads(rd, &n_threads, &has_end);
    for (size_t i = 0; i < n_threads; i++)
        sink ^= (uint8_t)threads[i].events;
    uint64_t truncated_at = 0;
    evgen_read_status status = evgen_reader_status(rd, &truncated_at);
    FUZZ_CHECK(status == EVGEN_READ_OK || status == EVGEN_READ_CORRUPT || status == EVGEN_READ_TRUNCATED);
}

/* Every field of `ev` through the generic field API, and through the generated reader. */
static void read_fields(const evgen_event *ev, evgen_read_all_fn read_all)
{
    FUZZ_CHECK(ev->n_variable <= EVGEN_EVENT_MAX_VARIABLE);
    const evgen_trace_version *layout = ev->layout;
    for (uint32_t f = 0; layout && f < layout->n_fields; f++) {
        uint32_t off = 0, size = 0;
        if (!evgen_event_field(ev, f, &off, &size))
            continue;
        FUZZ_CHECK(off <= ev->size && size <= ev->size - off);
        const uint8_t *p = ev->payload + off;
        touch(p, size);
        const evgen_trace_field *fd = &layout->fields[f];
        if (!fd->is_array && fd->kind == 16 && size >= 2) { /* utf16z, its terminator included */
            evgen_utf16_view text = {p, (size - 2) / 2};
            char small[16];
            size_t need = evgen_utf16_to_utf8(text, small, sizeof small);
            char *whole = malloc(need + 1);
            FUZZ_CHECK(whole != NULL);
            FUZZ_CHECK(evgen_utf16_to_utf8(text, whole, need + 1) == need && whole[need] == '\0');
            touch((const uint8_t *)whole, need);
            free(whole);
        }
    }
    for (uint32_t i = 0; i <= ev->stack_depth && i < 4096; i++)
        sink ^= (uint8_t)evgen_event_stack_ip(ev, i);
    if (ev->activity_id)
        touch(ev->activity_id, 16);
    if (read_all) {
        evgen_read_value values[256];
        int n = read_all(ev, values, 256);
        for (int i = 0; i < n && i < 256; i++)
            sink ^= (uint8_t)(values[i].bits ^ values[i].length ^ (unsigned)values[i].present);
    }
}

/* One event as read, then its payload alone in a buffer of its exact size (so that AddressSanitizer
 * sees a read past it), whole and cut in half. */
static void read_event(const evgen_event *ev, evgen_read_all_fn read_all)
{
    read_fields(ev, read_all);
    uint32_t sizes[2] = {ev->size, ev->size / 2};
    for (int i = 0; i < 2; i++) {
        uint8_t *copy = malloc(sizes[i] ? sizes[i] : 1);
        FUZZ_CHECK(copy != NULL);
        if (sizes[i])
            memcpy(copy, ev->payload, sizes[i]);
        evgen_event alone = *ev;
        alone.payload = copy;
        alone.size = sizes[i];
        evgen_event_locate_variable(&alone);
        if (i == 0) /* the same payload elsewhere: the same variable-length field ends */
            FUZZ_CHECK(alone.n_variable == ev->n_variable &&
                       memcmp(alone.variable_end, ev->variable_end, ev->n_variable * sizeof ev->variable_end[0]) == 0);
        read_fields(&alone, read_all);
        free(copy);
    }
}

/* Which records an iteration returned, whatever their order: their count and two sums of their
 * file offsets. */
typedef struct visited {
    uint64_t count, sum, sum_squares;
} visited;

/* The timestamps are not checked for order: deltas are signed (docs/format.md), so a thread's
 * records may go back in time, and the time order merges the threads as they are. */
static visited read_in_order(evgen_reader *rd, evgen_order order, evgen_read_all_fn read_all)
{
    visited seen = {0, 0, 0};
    evgen_event ev;
    evgen_reader_rewind(rd, order);
    while (evgen_reader_next(rd, &ev)) {
        FUZZ_CHECK(ev.info != NULL && evgen_reader_event_info(rd, ev.info->index) == ev.info);
        FUZZ_CHECK(ev.reader == rd);
        read_event(&ev, read_all);
        seen.count++;
        seen.sum += ev.offset;
        seen.sum_squares += ev.offset * ev.offset;
    }
    FUZZ_CHECK(!evgen_reader_next(rd, &ev)); /* the end stays the end */
    return seen;
}

static void count_event(const evgen_event *ev, void *context)
{
    (void)ev;
    ++*(uint64_t *)context;
}

/* evgen dump opens traces by path: the input goes into an anonymous in-memory file, named by its
 * /proc/self/fd path. One file for the process, rewritten for each input. */
static int trace_fd = -1, null_fd = -1, json_fd = -1;
static FILE *null_file;
static char trace_path[64];

/* Every line of what dump wrote to json_fd parses as one JSON object; json_fd is emptied. */
static void check_json_lines(void)
{
    off_t size = lseek(json_fd, 0, SEEK_END);
    FUZZ_CHECK(size >= 0);
    char *text = malloc((size_t)size + 1);
    FUZZ_CHECK(text != NULL);
    for (off_t done = 0; done < size;) {
        ssize_t n = pread(json_fd, text + done, (size_t)(size - done), done);
        FUZZ_CHECK(n > 0);
        done += n;
    }
    text[size] = '\0';
    FUZZ_CHECK(size == 0 || text[size - 1] == '\n');
    json_tokener *tok = json_tokener_new();
    FUZZ_CHECK(tok != NULL);
    for (char *line = text, *next; *line; line = next + 1) {
        next = strchr(line, '\n');
        FUZZ_CHECK(next != NULL);
        json_tokener_reset(tok);
        json_object *o = json_tokener_parse_ex(tok, line, (int)(next - line));
        FUZZ_CHECK(o != NULL && json_tokener_get_parse_end(tok) == (size_t)(next - line));
        FUZZ_CHECK(json_object_is_type(o, json_type_object));
        json_object_put(o);
    }
    json_tokener_free(tok);
    free(text);
    FUZZ_CHECK(ftruncate(json_fd, 0) == 0 && lseek(json_fd, 0, SEEK_SET) == 0);
}

static void dump_trace(const uint8_t *data, size_t size, const evgen_reader_options *options)
{
    if (trace_fd < 0) {
        trace_fd = memfd_create("evgen-fuzz-trace", MFD_CLOEXEC);
        json_fd = memfd_create("evgen-fuzz-json", MFD_CLOEXEC);
        null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
        null_file = fopen("/dev/null", "w");
        FUZZ_CHECK(trace_fd >= 0 && json_fd >= 0 && null_fd >= 0 && null_file != NULL);
        snprintf(trace_path, sizeof trace_path, "/proc/self/fd/%d", trace_fd);
    }
    FUZZ_CHECK(ftruncate(trace_fd, 0) == 0);
    for (size_t done = 0; done < size;) {
        ssize_t n = pwrite(trace_fd, data + done, size - done, (off_t)done);
        FUZZ_CHECK(n > 0);
        done += (size_t)n;
    }
    static const struct {
        int json, stats, order, stacks;
    } runs[] = {{0, 0, EVGEN_ORDER_TIME, 1}, {1, 0, EVGEN_ORDER_FILE, 1}, {0, 1, EVGEN_ORDER_TIME, 0},
                {1, 1, EVGEN_ORDER_FILE, 0}};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        evgen_dump_options opt;
        evgen_dump_options_init(&opt);
        opt.json = runs[i].json;
        opt.stats = runs[i].stats;
        opt.order = runs[i].order;
        opt.stacks = runs[i].stacks;
        opt.progress = 0;
        opt.reader = options;
        int status = evgen_dump(trace_path, &opt, runs[i].json ? json_fd : null_fd, null_file);
        FUZZ_CHECK(status == 0 || status == 1);
        if (runs[i].json)
            check_json_lines();
    }
}

void evgen_fuzz_read_trace(const uint8_t *data, size_t size, const evgen_reader_options *options,
                           evgen_read_all_fn read_all)
{
    char *error = NULL;
    evgen_reader *rd = evgen_reader_open_memory_with(data, size, options, &error);
    if (!rd) {
        FUZZ_CHECK(error == NULL || error[0] != '\0');
        free(error);
        dump_trace(data, size, options); /* its "cannot open" path */
        return;
    }
    FUZZ_CHECK(error == NULL);
    FUZZ_CHECK(evgen_reader_file_size(rd) == size);
    read_metadata(rd);
    visited in_file = read_in_order(rd, EVGEN_ORDER_FILE, read_all);
    visited in_time = read_in_order(rd, EVGEN_ORDER_TIME, read_all);
    /* the time order is an order of the same records */
    FUZZ_CHECK(in_file.count == in_time.count && in_file.sum == in_time.sum &&
               in_file.sum_squares == in_time.sum_squares);
    uint64_t dispatched = 0;
    if (evgen_reader_event_count(rd))
        FUZZ_CHECK(evgen_reader_on(rd, NULL, NULL, count_event, &dispatched) == 0);
    uint64_t processed = evgen_reader_process(rd, EVGEN_ORDER_TIME);
    FUZZ_CHECK(processed == in_file.count && (evgen_reader_event_count(rd) == 0 || dispatched == in_file.count));
    evgen_reader_close(rd);
    /* Time order first, on a reader that has verified nothing yet (it verifies as it merges): the
     * same records. */
    rd = evgen_reader_open_memory_with(data, size, options, NULL);
    FUZZ_CHECK(rd != NULL);
    visited time_first = read_in_order(rd, EVGEN_ORDER_TIME, read_all);
    FUZZ_CHECK(time_first.count == in_file.count && time_first.sum == in_file.sum &&
               time_first.sum_squares == in_file.sum_squares);
    evgen_reader_close(rd);
    dump_trace(data, size, options);
}
