/* evtrace.c — the .evtrace format plugged into the reader's core (format.h): the file header
 * validated, the one scan of its blocks, the iteration state, and the format's state freed. */
#include <stdlib.h>
#include <string.h>

#include "evgen/crc32c.h"
#include "evtrace.h"

/* The file header: 0, or -1 with `*why` set. */
static int read_header(evgen_reader *rd, uint32_t *header_size, char **why)
{
    static const uint8_t magic[8] = {'E', 'V', 'T', 'R', 'A', 'C', 'E', 0};
    const uint8_t *h = rd->data;
    size_t n = rd->size;
    if (n == 0) {
        *why = evgen_rd_format("not an evgen trace: the file is empty");
        return -1;
    }
    if (memcmp(h, magic, n < 8 ? n : 8) != 0) {
        *why = evgen_rd_format("not an evgen trace: bad magic at offset 0 (neither .evtrace nor .nettrace)");
        return -1;
    }
    if (n < EVGEN_RD_FILE_HEADER_SIZE) {
        *why = evgen_rd_format("truncated trace: the file ends at offset %zu, inside the %u-byte file header", n,
                               EVGEN_RD_FILE_HEADER_SIZE);
        return -1;
    }
    uint16_t version = rd_le16(h + 8);
    if (version != EVGEN_RD_FORMAT_VERSION) {
        *why = evgen_rd_format("unsupported format version %u at offset 8 (this reader reads version %u)", version,
                               EVGEN_RD_FORMAT_VERSION);
        return -1;
    }
    uint32_t stored = rd_le32(h + 44), crc = evgen_crc32c(0, h, 44);
    if (stored != crc) {
        *why = evgen_rd_format("bad header crc at offset 44 (stored 0x%08x, computed 0x%08x)", stored, crc);
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
        *why = evgen_rd_format("bad header size %u at offset 10", *header_size);
    else if (rd->header.pointer_size != 4 && rd->header.pointer_size != 8)
        *why = evgen_rd_format("bad pointer size %u at offset 12", rd->header.pointer_size);
    else if (rd->header.clock_kind != 1 && rd->header.clock_kind != 2)
        *why = evgen_rd_format("unknown clock kind %u at offset 13", rd->header.clock_kind);
    else if (rd->header.clock_frequency == 0)
        *why = evgen_rd_format("clock frequency 0 at offset 16");
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
    if (!rd->oom && et->n_chains) {
        et->cursors = calloc(et->n_chains, sizeof *et->cursors);
        et->heap = calloc(et->n_chains, sizeof *et->heap);
        if (!et->cursors || !et->heap)
            rd->oom = 1;
    }
    return 0;
}

static void close_evtrace(evgen_reader *rd)
{
    rd_evtrace *et = rd->format;
    if (!et)
        return;
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
    open_evtrace, evgen_rd_evtrace_rewind, evgen_rd_evtrace_next, close_evtrace,
};
