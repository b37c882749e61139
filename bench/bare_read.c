/* bare_read.c — the least a reader of an .evtrace file can do, timed as reader_bench times the
 * whole read: map the file, walk its blocks, frame every record (a repeated type's short head at
 * once, the wire's own decoder otherwise), read all 16 fields through the generated accessors
 * (asking for the bytes a page ahead, as the reader does), unmap. It trusts the file (no checksum,
 * no record check, no thread or time index) and knows its one record type, so a reader that frames
 * records and reads fields this way is not faster on the same machine. It is not the memory's
 * limit: on the Zen 4 host of 2026-11-27 one core streams the same gigabyte three times as fast;
 * the kernel's mapping and unmapping of the file's pages are a third of it (docs/performance.md). */
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

/* The records of one events block: 0, or -1 if one is not of the expected type and size. The
 * state in locals (the event, the sum), and a repeated type's one- or two-byte head read at once,
 * as evgen_reader_next's inline run does: what any reader's loop can do at best. */
static int block_records(const evgen_wire_block_header *bh, const uint8_t *p, const uint8_t *end, unsigned format,
                         const evgen_event *shape, uint64_t *type_seen, uint64_t *sum, long *n)
{
    evgen_event ev = *shape;
    uint64_t last_type = EVGEN_WIRE_NO_TYPE, type, ticks = bh->base_ticks, s = 0;
    int64_t delta;
    for (uint32_t k = 0; k < bh->event_count; k++) {
        if (format >= 2u && last_type != EVGEN_WIRE_NO_TYPE && end - p >= 2 && (p[0] & 1u) &&
            (p[0] < 0x80 || p[1] < 0x80)) {
            uint64_t head = p[0] < 0x80 ? p[0] : (p[0] & 0x7fu) | (uint64_t)p[1] << 7;
            p += p[0] < 0x80 ? 1 : 2;
            delta = (int64_t)(head >> 1);
        } else {
            if (evgen_wire_get_record_head(&p, end, format, &last_type, &type, &delta) != 0)
                return -1;
            if (*type_seen == EVGEN_WIRE_NO_TYPE)
                *type_seen = type;
            if (type != *type_seen)
                return -1;
        }
        if (ev.size > (uint64_t)(end - p))
            return -1;
        ticks += (uint64_t)delta;
        evgen_reader_prefetch_ahead(p); /* the next pages, as evgen_reader_next does */
        ev.payload = p;
        ev.ticks = ticks;
        s += gc_heap_stats_sum(&ev);
        p += ev.size;
    }
    *sum += s;
    *n += bh->event_count;
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

double map_alone(const char *path, uint64_t *touched)
{
    double t0 = bench_now_seconds();
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size <= 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    size_t file_size = (size_t)st.st_size, page = (size_t)sysconf(_SC_PAGESIZE);
    const volatile uint8_t *data = mmap(NULL, file_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (data == MAP_FAILED)
        return -1;
    uint64_t t = 0;
    for (size_t off = 0; off < file_size; off += page)
        t += data[off];
    munmap((void *)data, file_size);
    *touched = t;
    return bench_now_seconds() - t0;
}
