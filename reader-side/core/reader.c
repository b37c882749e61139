/* reader.c — opening a trace (the file mapped, never read whole; its format found by its magic
 * and left to read it), closing it, the problems and threads the open records, and the queries on
 * what it found. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core.h"
#include "evgen/files.h"
#include "format.h"

char *evgen_rd_format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *out = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (out) {
        va_start(ap, fmt);
        vsnprintf(out, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    return out;
}

static void set_error(char **error, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_error(char **error, const char *fmt, ...)
{
    if (!error)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    *error = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (*error) {
        va_start(ap, fmt);
        vsnprintf(*error, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
}

/* Opens with the format `ops`, or (NULL) the one whose probe claims the data. */
static evgen_reader *open_data(const void *data, size_t size, void *map, int fd, const evgen_reader_options *options,
                               const evgen_rd_format_ops *ops, unsigned pointer_size, char **error)
{
    if (error)
        *error = NULL;
    evgen_reader *rd = calloc(1, sizeof *rd);
    if (!rd) {
        set_error(error, "out of memory");
        return NULL;
    }
    rd->data = data;
    rd->size = size;
    rd->map = map;
    rd->fd = fd;
    rd->header.pointer_size = (uint8_t)pointer_size;
    const evgen_rd_format_ops *const *f = evgen_rd_formats;
    while (!ops && f[1] && !f[0]->probe(rd->data, rd->size))
        f++;
    rd->format_ops = ops ? ops : *f;
    char *why = NULL;
    if (rd->format_ops->open(rd, options, &why) != 0) {
        set_error(error, "%s", why ? why : "out of memory");
        free(why);
        rd->map = NULL; /* the caller unmaps */
        evgen_reader_close(rd);
        return NULL;
    }
    rd->fd = -1; /* the caller closes it */
    evgen_rd_clock_init(rd);
    if (!rd->oom)
        evgen_rd_sort_problems(rd);
    if (!rd->oom && rd->max_variable)
        rd->scratch = calloc(rd->max_variable, sizeof *rd->scratch);
    if (rd->oom || (rd->max_variable && !rd->scratch)) {
        set_error(error, "out of memory reading the trace");
        rd->map = NULL;
        evgen_reader_close(rd);
        return NULL;
    }
    evgen_reader_rewind(rd, EVGEN_ORDER_FILE);
    return rd;
}

evgen_reader *evgen_reader_open(const char *path, char **error)
{
    return evgen_reader_open_with(path, NULL, error);
}

evgen_reader *evgen_reader_open_with(const char *path, const evgen_reader_options *options, char **error)
{
    if (error)
        *error = NULL;
    /* evgen/files.h: never blocks on a FIFO, refuses what is not a regular file */
    uint64_t file_size = 0;
    int fd = evgen_input_open(path, 0, &file_size, error);
    if (fd < 0)
        return NULL;
    if (file_size > SIZE_MAX) {
        close(fd);
        set_error(error, "cannot map: the file is too large");
        return NULL;
    }
    size_t size = (size_t)file_size;
    void *map = NULL;
    if (size) {
        map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map == MAP_FAILED) {
            int err = errno;
            close(fd);
            set_error(error, "cannot map: %s", strerror(err));
            return NULL;
        }
    }
    static const uint8_t empty[1];
    evgen_reader *rd = open_data(map ? map : empty, size, map, map ? fd : -1, options, NULL, 0, error);
    close(fd);
    if (!rd && map)
        munmap(map, size);
    return rd;
}

evgen_reader *evgen_reader_open_memory(const void *data, size_t size, char **error)
{
    return evgen_reader_open_memory_with(data, size, NULL, error);
}

evgen_reader *evgen_reader_open_memory_with(const void *data, size_t size, const evgen_reader_options *options,
                                            char **error)
{
    static const uint8_t empty[1];
    return open_data(data && size ? data : empty, data ? size : 0, NULL, -1, options, NULL, 0, error);
}

/* ---- a schema: manifests without a trace ------------------------------------------------------ */

static int schema_open(evgen_reader *rd, const evgen_reader_options *options, char **why)
{
    return evgen_rd_load_manifests(rd, options, why);
}

static void schema_rewind(evgen_reader *rd)
{
    (void)rd;
}

static int schema_next(evgen_reader *rd, evgen_event *event)
{
    (void)rd;
    (void)event;
    return 0;
}

static void schema_close(evgen_reader *rd)
{
    (void)rd;
}

static const evgen_rd_format_ops schema_format = {NULL, schema_open, schema_rewind, schema_next, schema_close,
                                                   NULL, 0};

evgen_reader *evgen_reader_open_schema(const evgen_reader_options *options, unsigned pointer_size, char **error)
{
    static const uint8_t empty[1];
    if (pointer_size != 4 && pointer_size != 8) {
        if (error)
            *error = NULL;
        set_error(error, "pointer size %u: a trace's pointers are 4 or 8 bytes", pointer_size);
        return NULL;
    }
    return open_data(empty, 0, NULL, -1, options, &schema_format, pointer_size, error);
}

void evgen_reader_close(evgen_reader *rd)
{
    if (!rd)
        return;
    if (rd->format_ops) /* first: a format may have a thread reading the file (evtrace/verifier.c) */
        rd->format_ops->close(rd);
    rd->format_ops = NULL;
    if (rd->map)
        munmap(rd->map, rd->size);
    for (size_t i = 0; i < rd->n_problems; i++)
        free((char *)rd->problems[i].message);
    for (size_t i = 0; i < rd->n_handlers; i++) {
        free(rd->handlers[i].provider);
        free(rd->handlers[i].event);
    }
    free(rd->handlers);
    free(rd->problems);
    free(rd->events);
    free(rd->manifests);
    free(rd->versions);
    free(rd->scratch);
    free(rd->threads);
    free(rd->thread_hash);
    evgen_rd_arena_free(&rd->arena);
    free(rd);
}

const evgen_trace_header *evgen_reader_header(const evgen_reader *rd)
{
    return &rd->header;
}

uint64_t evgen_reader_file_size(const evgen_reader *rd)
{
    return rd->size;
}

size_t evgen_reader_event_count(const evgen_reader *rd)
{
    return rd->n_events;
}

const evgen_trace_event_info *evgen_reader_event_info(const evgen_reader *rd, size_t index)
{
    return index < rd->n_events ? &rd->events[index]->pub : NULL;
}

const evgen_trace_event_info *evgen_reader_find_event(const evgen_reader *rd, const char *provider, const char *name)
{
    for (size_t i = 0; i < rd->n_events; i++) {
        const evgen_trace_event_info *e = &rd->events[i]->pub;
        if ((!name || strcmp(e->name, name) == 0) && (!provider || strcmp(e->provider, provider) == 0))
            return e;
    }
    return NULL;
}

/* What the open left to validate lazily, done before any answer about problems or totals. The
 * reader is not shared between threads (reader.h), so the const handle's state may be finished. */
static void complete(const evgen_reader *rd)
{
    if (rd->format_ops && rd->format_ops->complete)
        rd->format_ops->complete((evgen_reader *)(uintptr_t)rd);
}

evgen_read_status evgen_reader_status(const evgen_reader *rd, uint64_t *truncated_at)
{
    complete(rd);
    if (truncated_at)
        *truncated_at = rd->status == EVGEN_READ_TRUNCATED ? rd->truncated_at : 0;
    return rd->status;
}

const evgen_read_problem *evgen_reader_problems(const evgen_reader *rd, size_t *count)
{
    complete(rd);
    if (count)
        *count = rd->n_problems;
    return rd->problems;
}

const evgen_reader_thread *evgen_reader_threads(const evgen_reader *rd, size_t *count, int *has_end)
{
    complete(rd);
    if (count)
        *count = rd->n_threads;
    if (has_end)
        *has_end = rd->has_end;
    return rd->threads;
}

/* ---- problems ------------------------------------------------------------------------------ */

void evgen_rd_problem(evgen_reader *rd, uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    evgen_rd_vproblem(rd, offset, fmt, ap);
    va_end(ap);
}

void evgen_rd_vproblem(evgen_reader *rd, uint64_t offset, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *message = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!message ||
        evgen_rd_grow((void **)&rd->problems, &rd->cap_problems, rd->n_problems + 1, sizeof *rd->problems) != 0) {
        free(message);
        va_end(again);
        rd->oom = 1;
        return;
    }
    vsnprintf(message, (size_t)n + 1, fmt, again);
    va_end(again);
    rd->problems[rd->n_problems].offset = offset;
    rd->problems[rd->n_problems].message = message;
    rd->n_problems++;
    if (rd->status == EVGEN_READ_OK)
        rd->status = EVGEN_READ_CORRUPT;
}

void evgen_rd_sort_problems(evgen_reader *rd)
{
    size_t n = rd->n_problems, sorted = 1;
    while (sorted < n && rd->problems[sorted - 1].offset <= rd->problems[sorted].offset)
        sorted++;
    if (sorted >= n)
        return; /* the common case: recorded in order */
    /* A bottom-up merge sort: stable, n log n whatever the order. */
    evgen_read_problem *a = rd->problems, *b = malloc(n * sizeof *b);
    if (!b) {
        rd->oom = 1;
        return;
    }
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                b[k++] = a[j].offset < a[i].offset ? a[j++] : a[i++];
            while (i < mid)
                b[k++] = a[i++];
            while (j < hi)
                b[k++] = a[j++];
        }
        evgen_read_problem *swap = a;
        a = b;
        b = swap;
    }
    if (a != rd->problems) { /* the result is in the scratch array: it becomes the list */
        free(rd->problems);
        rd->problems = a;
        rd->cap_problems = n;
    } else {
        free(b);
    }
}

/* ---- threads ------------------------------------------------------------------------------ */

static size_t hash_slot(uint64_t tid, size_t cap)
{
    tid ^= tid >> 33;
    tid *= 0xff51afd7ed558ccdull;
    tid ^= tid >> 33;
    return (size_t)tid & (cap - 1);
}

size_t evgen_rd_thread_find(const evgen_reader *rd, uint64_t tid)
{
    if (rd->hash_cap) {
        for (size_t s = hash_slot(tid, rd->hash_cap);; s = (s + 1) & (rd->hash_cap - 1)) {
            size_t k = rd->thread_hash[s];
            if (k == 0)
                break;
            if (rd->threads[k - 1].thread_id == tid)
                return k - 1;
        }
    }
    return RD_NONE;
}

size_t evgen_rd_thread_index(evgen_reader *rd, uint64_t tid)
{
    size_t found = evgen_rd_thread_find(rd, tid);
    if (found != RD_NONE)
        return found;
    size_t i = rd->n_threads;
    if (evgen_rd_grow((void **)&rd->threads, &rd->cap_threads, i + 1, sizeof *rd->threads) != 0)
        return RD_NONE;
    if (2 * (i + 1) > rd->hash_cap) { /* keep the table at most half full */
        size_t cap = rd->hash_cap ? 2 * rd->hash_cap : 64;
        size_t *table = calloc(cap, sizeof *table);
        if (!table)
            return RD_NONE;
        for (size_t k = 0; k < i; k++) {
            size_t s = hash_slot(rd->threads[k].thread_id, cap);
            while (table[s])
                s = (s + 1) & (cap - 1);
            table[s] = k + 1;
        }
        free(rd->thread_hash);
        rd->thread_hash = table;
        rd->hash_cap = cap;
    }
    size_t s = hash_slot(tid, rd->hash_cap);
    while (rd->thread_hash[s])
        s = (s + 1) & (rd->hash_cap - 1);
    rd->thread_hash[s] = i + 1;
    memset(&rd->threads[i], 0, sizeof rd->threads[i]);
    rd->threads[i].thread_id = tid;
    rd->n_threads++;
    return i;
}
