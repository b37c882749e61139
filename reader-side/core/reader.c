/* reader.c — opening a trace (the file mapped, never read whole; the header validated; the one
 * scan of its blocks), closing it, and the queries on what the open found. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evgen/crc32c.h"
#include "evgen/files.h"
#include "internal.h"
#include "nettrace.h"

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

/* The file header: 0, or -1 with the error set. */
static int read_header(evgen_reader *rd, uint32_t *header_size, char **error)
{
    static const uint8_t magic[8] = {'E', 'V', 'T', 'R', 'A', 'C', 'E', 0};
    const uint8_t *h = rd->data;
    size_t n = rd->size;
    if (n == 0) {
        set_error(error, "not an evgen trace: the file is empty");
        return -1;
    }
    if (memcmp(h, magic, n < 8 ? n : 8) != 0) {
        set_error(error, "not an evgen trace: bad magic at offset 0 (neither .evtrace nor .nettrace)");
        return -1;
    }
    if (n < EVGEN_RD_FILE_HEADER_SIZE) {
        set_error(error, "truncated trace: the file ends at offset %zu, inside the %u-byte file header", n,
                  EVGEN_RD_FILE_HEADER_SIZE);
        return -1;
    }
    uint16_t version = rd_le16(h + 8);
    if (version != EVGEN_RD_FORMAT_VERSION) {
        set_error(error, "unsupported format version %u at offset 8 (this reader reads version %u)", version,
                  EVGEN_RD_FORMAT_VERSION);
        return -1;
    }
    uint32_t stored = rd_le32(h + 44), crc = evgen_crc32c(0, h, 44);
    if (stored != crc) {
        set_error(error, "bad header crc at offset 44 (stored 0x%08x, computed 0x%08x)", stored, crc);
        return -1;
    }
    *header_size = rd_le16(h + 10);
    rd->header.format_version = version;
    rd->header.pointer_size = h[12];
    rd->header.clock_kind = h[13];
    rd->header.clock_frequency = rd_le64(h + 16);
    rd->header.start_ticks = rd_le64(h + 24);
    rd->header.start_unix_ns = rd_le64(h + 32);
    rd->header.process_id = rd_le32(h + 40);
    rd->header.container = EVGEN_CONTAINER_EVTRACE;
    if (*header_size < EVGEN_RD_FILE_HEADER_SIZE || *header_size > n)
        set_error(error, "bad header size %u at offset 10", *header_size);
    else if (rd->header.pointer_size != 4 && rd->header.pointer_size != 8)
        set_error(error, "bad pointer size %u at offset 12", rd->header.pointer_size);
    else if (rd->header.clock_kind != 1 && rd->header.clock_kind != 2)
        set_error(error, "unknown clock kind %u at offset 13", rd->header.clock_kind);
    else if (rd->header.clock_frequency == 0)
        set_error(error, "clock frequency 0 at offset 16");
    else
        return 0;
    return -1;
}

static evgen_reader *open_data(const void *data, size_t size, void *map, const evgen_reader_options *options,
                               char **error)
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
    if (evgen_rd_is_nettrace(rd->data, rd->size)) {
        char *why = NULL;
        if (evgen_rd_nt_open(rd, options, &why) != 0) {
            set_error(error, "%s", why ? why : "out of memory");
            free(why);
            rd->map = NULL;
            evgen_reader_close(rd);
            return NULL;
        }
    } else {
        uint32_t header_size;
        if (read_header(rd, &header_size, error) != 0) {
            rd->map = NULL; /* the caller unmaps */
            evgen_reader_close(rd);
            return NULL;
        }
        evgen_rd_scan(rd, header_size);
    }
    if (!rd->oom)
        evgen_rd_sort_problems(rd);
    if (!rd->oom && rd->max_variable)
        rd->scratch = calloc(rd->max_variable, sizeof *rd->scratch);
    if (!rd->oom && rd->n_chains) {
        rd->cursors = calloc(rd->n_chains, sizeof *rd->cursors);
        rd->heap = calloc(rd->n_chains, sizeof *rd->heap);
    }
    if (rd->oom || (rd->max_variable && !rd->scratch) || (rd->n_chains && (!rd->cursors || !rd->heap))) {
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
    close(fd);
    static const uint8_t empty[1];
    evgen_reader *rd = open_data(map ? map : empty, size, map, options, error);
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
    return open_data(data && size ? data : empty, data ? size : 0, NULL, options, error);
}

void evgen_reader_close(evgen_reader *rd)
{
    if (!rd)
        return;
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
    free(rd->types);
    free(rd->versions);
    free(rd->scratch);
    free(rd->blocks);
    free(rd->threads);
    free(rd->thread_chains);
    free(rd->chains);
    free(rd->thread_hash);
    free(rd->cursors);
    free(rd->heap);
    evgen_rd_nt_free(rd->nt);
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

evgen_read_status evgen_reader_status(const evgen_reader *rd, uint64_t *truncated_at)
{
    if (truncated_at)
        *truncated_at = rd->status == EVGEN_READ_TRUNCATED ? rd->truncated_at : 0;
    return rd->status;
}

const evgen_read_problem *evgen_reader_problems(const evgen_reader *rd, size_t *count)
{
    if (count)
        *count = rd->n_problems;
    return rd->problems;
}

const evgen_reader_thread *evgen_reader_threads(const evgen_reader *rd, size_t *count, int *has_end)
{
    if (count)
        *count = rd->n_threads;
    if (has_end)
        *has_end = rd->has_end;
    return rd->threads;
}
