/* evtrace.c — the .evtrace format plugged into the reader's core (format.h): the file header
 * validated, the walk of its blocks (scan.c; validation finished lazily, lazy.c), and the format's
 * state freed. */
#include <stdlib.h>
#include <string.h>

#include "evtrace.h"

/* The file header: 0, or -1 with `*why` set. */
static int read_header(evgen_reader *rd, uint32_t *header_size, char **why)
{
    const uint8_t *h = rd->data;
    size_t n = rd->size;
    if (n == 0) {
        *why = evgen_rd_format("not an evgen trace: the file is empty");
        return -1;
    }
    if (memcmp(h, EVGEN_WIRE_FILE_MAGIC, n < EVGEN_WIRE_FILE_MAGIC_SIZE ? n : EVGEN_WIRE_FILE_MAGIC_SIZE) != 0) {
        *why = evgen_rd_format("not an evgen trace: bad magic at offset 0 (neither .evtrace nor .nettrace)");
        return -1;
    }
    if (n < EVGEN_WIRE_FILE_HEADER_SIZE) {
        *why = evgen_rd_format("truncated trace: the file ends at offset %zu, inside the %u-byte file header", n,
                               EVGEN_WIRE_FILE_HEADER_SIZE);
        return -1;
    }
    evgen_wire_file_header fh;
    evgen_wire_get_file_header(h, &fh);
    if (fh.format_version < EVGEN_WIRE_FORMAT_VERSION_OLDEST || fh.format_version > EVGEN_WIRE_FORMAT_VERSION) {
        *why = evgen_rd_format("unsupported format version %u at offset %u (this reader reads versions %u to %u)",
                               fh.format_version, EVGEN_WIRE_FH_VERSION, EVGEN_WIRE_FORMAT_VERSION_OLDEST,
                               EVGEN_WIRE_FORMAT_VERSION);
        return -1;
    }
    uint32_t crc = evgen_wire_file_header_crc(h);
    if (fh.crc != crc) {
        *why = evgen_rd_format("bad header crc at offset %u (stored 0x%08x, computed 0x%08x)", EVGEN_WIRE_FH_CRC, fh.crc,
                               crc);
        return -1;
    }
    *header_size = fh.header_size;
    rd->header.format_version = fh.format_version;
    rd->header.pointer_size = fh.pointer_size;
    rd->header.clock_kind = fh.clock_kind;
    rd->header.clock_frequency = fh.clock_frequency;
    rd->header.start_ticks = fh.start_ticks;
    rd->header.start_unix_ns = fh.start_unix_ns;
    rd->header.process_id = fh.process_id;
    rd->header.container = EVGEN_CONTAINER_EVTRACE;
    if (*header_size < EVGEN_WIRE_FILE_HEADER_SIZE || *header_size > n)
        *why = evgen_rd_format("bad header size %u at offset %u", *header_size, EVGEN_WIRE_FH_HEADER_SIZE);
    else if (fh.pointer_size != 4 && fh.pointer_size != 8)
        *why = evgen_rd_format("bad pointer size %u at offset %u", fh.pointer_size, EVGEN_WIRE_FH_POINTER_SIZE);
    else if (fh.clock_kind != EVGEN_WIRE_CLOCK_MONOTONIC && fh.clock_kind != EVGEN_WIRE_CLOCK_TSC)
        *why = evgen_rd_format("unknown clock kind %u at offset %u", fh.clock_kind, EVGEN_WIRE_FH_CLOCK_KIND);
    else if (fh.clock_frequency == 0)
        *why = evgen_rd_format("clock frequency 0 at offset %u", EVGEN_WIRE_FH_CLOCK_FREQUENCY);
    else
        return 0;
    return -1;
}

static int open_evtrace(evgen_reader *rd, const evgen_reader_options *options, char **why)
{
    (void)options; /* an .evtrace file carries its own metadata */
    rd_evtrace *et = rd->format = calloc(1, sizeof *et);
    if (!et)
        return -1;
    uint32_t header_size;
    if (read_header(rd, &header_size, why) != 0)
        return -1;
    evgen_rd_scan(rd, et, header_size);
    if (!rd->oom && et->tail != UINT64_MAX)
        evgen_rd_verifier_start(rd, et); /* blocks left unverified: checked ahead on another core */
    return 0;
}

static void close_evtrace(evgen_reader *rd)
{
    rd_evtrace *et = rd->format;
    if (!et)
        return;
    evgen_rd_verifier_stop(et);
    free(et->types);
    free(et->blocks);
    free(et->thread_chains);
    free(et->chains);
    free(et->cursors);
    free(et->heap);
    free(et);
}

const evgen_rd_format_ops evgen_rd_evtrace_format = {
    NULL, /* no probe: the last format tried, whose header check names what the file is not */
    open_evtrace, evgen_rd_evtrace_rewind, evgen_rd_evtrace_next, close_evtrace, evgen_rd_evtrace_complete,
    1, /* evgen_rd_fill_event's events */
};
