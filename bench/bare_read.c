/* bare_read.c — the least a reader of an .evtrace file can do, timed as reader_bench times the
 * whole read: map the file, walk its blocks, frame every record with the wire's own decoder, read
 * all 16 fields through the generated accessors, unmap. It trusts the file (no checksum, no record
 * check, no thread or time index) and knows its one record type, so no reader that frames records
 * with this decoder and reads fields through these accessors can be faster on the same machine: the
 * whole read's ratio to babeltrace2 cannot exceed this one's. It is not the memory's limit: on the
 * Zen 4 host of 2026-11-27 one core streams the same gigabyte three times as fast (docs/performance.md). */
#define _POSIX_C_SOURCE 200809L
#include "bare_read.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_common.h"
#include "evgen/wire_format.h"
#include "gc_heap_stats_sum.h"

/* The records of one events block: 0, or -1 if one is not of the expected type and size. */
static int block_records(const evgen_wire_block_header *bh, const uint8_t *p, const uint8_t *end, unsigned format,
                         evgen_event *ev, uint64_t *type_seen, uint64_t *sum, long *n)
{
    uint64_t last_type = EVGEN_WIRE_NO_TYPE, type;
    int64_t delta;
    uint64_t ticks = bh->base_ticks;
    for (uint32_t k = 0; k < bh->event_count; k++) {
        if (evgen_wire_get_record_head(&p, end, format, &last_type, &type, &delta) != 0)
            return -1;
        if (*type_seen == EVGEN_WIRE_NO_TYPE)
            *type_seen = type;
        if (type != *type_seen || ev->size > (uint64_t)(end - p))
            return -1;
        ticks += (uint64_t)delta;
        ev->payload = p;
        ev->ticks = ticks;
        *sum += gc_heap_stats_sum(ev);
        p += ev->size;
        ++*n;
    }
    return 0;
}

double bare_read(const char *path, uint32_t version, uint32_t size, uint64_t *sum, long *n)
{
    double t0 = bench_now_seconds();
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < (off_t)EVGEN_WIRE_FILE_HEADER_SIZE) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    size_t file_size = (size_t)st.st_size;
    const uint8_t *data = mmap(NULL, file_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (data == MAP_FAILED)
        return -1;
    evgen_wire_file_header fh;
    evgen_wire_get_file_header(data, &fh);
    evgen_event ev;
    memset(&ev, 0, sizeof ev);
    ev.version = version;
    ev.size = size;
    uint64_t type_seen = EVGEN_WIRE_NO_TYPE;
    *sum = 0;
    *n = 0;
    int bad = 0;
    for (size_t off = fh.header_size; !bad && file_size - off >= EVGEN_WIRE_BLOCK_HEADER_SIZE;) {
        evgen_wire_block_header bh;
        evgen_wire_get_block_header(data + off, &bh);
        size_t block_size = (size_t)bh.header_size + bh.payload_size;
        if (block_size > file_size - off || bh.header_size < EVGEN_WIRE_BLOCK_HEADER_SIZE)
            bad = 1;
        else if (bh.type == EVGEN_WIRE_BLOCK_EVENTS)
            bad = block_records(&bh, data + off + bh.header_size, data + off + block_size, fh.format_version, &ev,
                                &type_seen, sum, n) != 0;
        off += block_size;
    }
    munmap((void *)data, file_size);
    return bad ? -1 : bench_now_seconds() - t0;
}
