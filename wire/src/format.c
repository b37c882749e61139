/* format.c — the file header, block headers and end block of evgen/wire_format.h: the one place
 * their bytes are laid out (docs/format.md). */
#include <string.h>

#include "evgen/crc32c.h"
#include "evgen/wire_format.h"

/* Byte offsets inside the headers (docs/format.md's tables). */
enum {
    FH_PROCESS_ID = 40,
    FH_START_TICKS = 24,
    FH_START_UNIX_NS = 32,
    BH_TYPE = 4,
    BH_FLAGS = 5,
    BH_HEADER_SIZE = 6,
    BH_PAYLOAD_SIZE = 8,
    BH_CRC = 12,
    BH_CRC_FROM = 16, /* the crc covers the header from here */
    BH_THREAD_ID = 16,
    BH_SEQUENCE = 24,
    BH_EVENT_COUNT = 28,
    BH_DROPPED = 32,
    BH_STREAM = 36,
    BH_BASE_TICKS = 40
};

uint32_t evgen_wire_file_header_crc(const uint8_t in[EVGEN_WIRE_FILE_HEADER_SIZE])
{
    return evgen_crc32c(0, in, EVGEN_WIRE_FH_CRC);
}

void evgen_wire_put_file_header(uint8_t out[EVGEN_WIRE_FILE_HEADER_SIZE], const evgen_wire_file_header *fh)
{
    memset(out, 0, EVGEN_WIRE_FILE_HEADER_SIZE);
    memcpy(out, EVGEN_WIRE_FILE_MAGIC, EVGEN_WIRE_FILE_MAGIC_SIZE);
    evgen_wire_put_le16(out + EVGEN_WIRE_FH_VERSION, fh->format_version ? fh->format_version : EVGEN_WIRE_FORMAT_VERSION);
    evgen_wire_put_le16(out + EVGEN_WIRE_FH_HEADER_SIZE, EVGEN_WIRE_FILE_HEADER_SIZE);
    out[EVGEN_WIRE_FH_POINTER_SIZE] = fh->pointer_size;
    out[EVGEN_WIRE_FH_CLOCK_KIND] = fh->clock_kind;
    evgen_wire_put_le64(out + EVGEN_WIRE_FH_CLOCK_FREQUENCY, fh->clock_frequency);
    evgen_wire_put_le64(out + FH_START_TICKS, fh->start_ticks);
    evgen_wire_put_le64(out + FH_START_UNIX_NS, fh->start_unix_ns);
    evgen_wire_put_le32(out + FH_PROCESS_ID, fh->process_id);
    evgen_wire_put_le32(out + EVGEN_WIRE_FH_CRC, evgen_wire_file_header_crc(out));
}

void evgen_wire_get_file_header(const uint8_t in[EVGEN_WIRE_FILE_HEADER_SIZE], evgen_wire_file_header *fh)
{
    fh->format_version = evgen_wire_le16(in + EVGEN_WIRE_FH_VERSION);
    fh->header_size = evgen_wire_le16(in + EVGEN_WIRE_FH_HEADER_SIZE);
    fh->pointer_size = in[EVGEN_WIRE_FH_POINTER_SIZE];
    fh->clock_kind = in[EVGEN_WIRE_FH_CLOCK_KIND];
    fh->clock_frequency = evgen_wire_le64(in + EVGEN_WIRE_FH_CLOCK_FREQUENCY);
    fh->start_ticks = evgen_wire_le64(in + FH_START_TICKS);
    fh->start_unix_ns = evgen_wire_le64(in + FH_START_UNIX_NS);
    fh->process_id = evgen_wire_le32(in + FH_PROCESS_ID);
    fh->crc = evgen_wire_le32(in + EVGEN_WIRE_FH_CRC);
}

/* The block's checksum, computed by FN (evgen_crc32c or evgen_crc32c_cached: the same value). */
static uint32_t block_crc(const uint8_t header[EVGEN_WIRE_BLOCK_HEADER_SIZE], const uint8_t *payload,
                          size_t payload_size, evgen_crc32c_fn fn)
{
    uint32_t crc = fn(0, header + BH_CRC_FROM, EVGEN_WIRE_BLOCK_HEADER_SIZE - BH_CRC_FROM);
    return fn(crc, payload, payload_size);
}

uint32_t evgen_wire_block_crc(const uint8_t header[EVGEN_WIRE_BLOCK_HEADER_SIZE], const uint8_t *payload,
                              size_t payload_size)
{
    return block_crc(header, payload, payload_size, evgen_crc32c);
}

void evgen_wire_put_block_header(uint8_t out[EVGEN_WIRE_BLOCK_HEADER_SIZE], const evgen_wire_block_header *bh,
                                 const uint8_t *payload)
{
    int events = bh->type == EVGEN_WIRE_BLOCK_EVENTS;
    memcpy(out, EVGEN_WIRE_BLOCK_MAGIC, EVGEN_WIRE_BLOCK_MAGIC_SIZE);
    out[BH_TYPE] = bh->type;
    out[BH_FLAGS] = 0;
    evgen_wire_put_le16(out + BH_HEADER_SIZE, EVGEN_WIRE_BLOCK_HEADER_SIZE);
    evgen_wire_put_le32(out + BH_PAYLOAD_SIZE, bh->payload_size);
    evgen_wire_put_le64(out + BH_THREAD_ID, events ? bh->thread_id : 0);
    evgen_wire_put_le32(out + BH_SEQUENCE, events ? bh->sequence : 0);
    evgen_wire_put_le32(out + BH_EVENT_COUNT, events ? bh->event_count : 0);
    evgen_wire_put_le32(out + BH_DROPPED, events ? bh->dropped : 0);
    evgen_wire_put_le32(out + BH_STREAM, events ? bh->stream : 0);
    evgen_wire_put_le64(out + BH_BASE_TICKS, events ? bh->base_ticks : 0);
    /* The writer frames a block it has just filled: its bytes are in the cache. */
    evgen_wire_put_le32(out + BH_CRC, block_crc(out, payload, bh->payload_size, evgen_crc32c_cached));
}

void evgen_wire_pad_block_header(uint8_t out[EVGEN_WIRE_BLOCK_HEADER_SIZE], uint32_t padding)
{
    evgen_wire_put_le16(out + BH_HEADER_SIZE, (uint16_t)(EVGEN_WIRE_BLOCK_HEADER_SIZE + padding));
}

void evgen_wire_get_block_header(const uint8_t in[EVGEN_WIRE_BLOCK_HEADER_SIZE], evgen_wire_block_header *bh)
{
    bh->type = in[BH_TYPE];
    bh->flags = in[BH_FLAGS];
    bh->header_size = evgen_wire_le16(in + BH_HEADER_SIZE);
    bh->payload_size = evgen_wire_le32(in + BH_PAYLOAD_SIZE);
    bh->crc = evgen_wire_le32(in + BH_CRC);
    bh->thread_id = evgen_wire_le64(in + BH_THREAD_ID);
    bh->sequence = evgen_wire_le32(in + BH_SEQUENCE);
    bh->event_count = evgen_wire_le32(in + BH_EVENT_COUNT);
    bh->dropped = evgen_wire_le32(in + BH_DROPPED);
    bh->stream = evgen_wire_le32(in + BH_STREAM);
    bh->base_ticks = evgen_wire_le64(in + BH_BASE_TICKS);
}

int evgen_wire_block_header_events_fields_zero(const evgen_wire_block_header *bh)
{
    return bh->thread_id == 0 && bh->sequence == 0 && bh->event_count == 0 && bh->dropped == 0 && bh->stream == 0 &&
           bh->base_ticks == 0;
}

int evgen_wire_block_header_is_written_form(const evgen_wire_block_header *bh)
{
    if (bh->type < EVGEN_WIRE_BLOCK_METADATA || bh->type > EVGEN_WIRE_BLOCK_END || bh->flags != 0 ||
        bh->header_size < EVGEN_WIRE_BLOCK_HEADER_SIZE)
        return 0;
    if (bh->type == EVGEN_WIRE_BLOCK_EVENTS)
        return bh->stream < EVGEN_WIRE_MAX_STREAMS && bh->event_count <= bh->payload_size;
    return evgen_wire_block_header_events_fields_zero(bh);
}

void evgen_wire_end_begin(evgen_wire_end_writer *w, evgen_wire_buf *out, size_t n_threads)
{
    w->out = out;
    w->sum = (evgen_wire_end_thread){0, 0, 0, 0};
    evgen_wire_buf_varint(out, n_threads);
}

void evgen_wire_end_put(evgen_wire_end_writer *w, const evgen_wire_end_thread *thread)
{
    evgen_wire_buf_varint(w->out, thread->thread_id);
    evgen_wire_buf_varint(w->out, thread->written);
    evgen_wire_buf_varint(w->out, thread->dropped);
    evgen_wire_buf_varint(w->out, thread->too_big);
    w->sum.written += thread->written;
    w->sum.dropped += thread->dropped;
    w->sum.too_big += thread->too_big;
}

void evgen_wire_end_finish(evgen_wire_end_writer *w, uint64_t extra_dropped)
{
    evgen_wire_buf_varint(w->out, w->sum.written);
    evgen_wire_buf_varint(w->out, w->sum.dropped + extra_dropped);
    evgen_wire_buf_varint(w->out, w->sum.too_big);
}

int evgen_wire_get_end(const uint8_t *payload, size_t size, int (*entry)(void *ctx, const evgen_wire_end_thread *t),
                       void *ctx, evgen_wire_end_thread *totals)
{
    const uint8_t *p = payload, *end = payload + size;
    uint64_t n;
    if (evgen_wire_get_varint(&p, end, &n) != 0 || n > (uint64_t)(end - p))
        return -1;
    for (uint64_t i = 0; i < n; i++) {
        evgen_wire_end_thread t;
        if (evgen_wire_get_varint(&p, end, &t.thread_id) != 0 || evgen_wire_get_varint(&p, end, &t.written) != 0 ||
            evgen_wire_get_varint(&p, end, &t.dropped) != 0 || evgen_wire_get_varint(&p, end, &t.too_big) != 0)
            return -1;
        if (entry) {
            int r = entry(ctx, &t);
            if (r != 0)
                return r;
        }
    }
    evgen_wire_end_thread sum = {0, 0, 0, 0};
    if (evgen_wire_get_varint(&p, end, &sum.written) != 0 || evgen_wire_get_varint(&p, end, &sum.dropped) != 0 ||
        evgen_wire_get_varint(&p, end, &sum.too_big) != 0)
        return -1;
    if (totals)
        *totals = sum;
    return p == end ? 0 : -1;
}
