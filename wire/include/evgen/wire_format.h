/* evgen/wire_format.h — the .evtrace container, as docs/format.md specifies it byte by byte: the
 * file header, the block header, the record framing of an events block and the end block. The
 * runtime writes with these functions, the reader and `evgen convert` read and write with them;
 * nothing else in evgen knows an offset inside a header. */
#ifndef EVGEN_WIRE_FORMAT_H
#define EVGEN_WIRE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "evgen/wire_bytes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The format version this evgen writes; a reader reads every one from 1 (docs/format.md,
 * "Versions"). Version 2 changed only the record header (below). */
#define EVGEN_WIRE_FORMAT_VERSION 2u
#define EVGEN_WIRE_FORMAT_VERSION_OLDEST 1u

/* ---- the file header (48 bytes) --------------------------------------------------------- */

#define EVGEN_WIRE_FILE_MAGIC "EVTRACE" /* 8 bytes with its terminator */
#define EVGEN_WIRE_FILE_MAGIC_SIZE 8u
#define EVGEN_WIRE_FILE_HEADER_SIZE 48u
/* Offsets of the fields a reader reports errors at. */
#define EVGEN_WIRE_FH_VERSION 8u
#define EVGEN_WIRE_FH_HEADER_SIZE 10u
#define EVGEN_WIRE_FH_POINTER_SIZE 12u
#define EVGEN_WIRE_FH_CLOCK_KIND 13u
#define EVGEN_WIRE_FH_CLOCK_FREQUENCY 16u
#define EVGEN_WIRE_FH_CRC 44u

enum { EVGEN_WIRE_CLOCK_MONOTONIC = 1, EVGEN_WIRE_CLOCK_TSC = 2 };

typedef struct evgen_wire_file_header {
    uint16_t format_version;
    uint16_t header_size;
    uint8_t pointer_size; /* 4 or 8 */
    uint8_t clock_kind;   /* EVGEN_WIRE_CLOCK_* */
    uint64_t clock_frequency;
    uint64_t start_ticks;
    uint64_t start_unix_ns;
    uint32_t process_id;
    uint32_t crc; /* decoded: as stored */
} evgen_wire_file_header;

/* Writes the 48 bytes of a file header (magic, size 48 and the crc filled in; header_size and crc
 * of `fh` are ignored). Its format_version: `fh`'s, or EVGEN_WIRE_FORMAT_VERSION when that is 0 (a
 * writer of an older version frames its records with that version's functions below). */
void evgen_wire_put_file_header(uint8_t out[EVGEN_WIRE_FILE_HEADER_SIZE], const evgen_wire_file_header *fh);
/* Decodes the fields of a file header's 48 bytes, as stored; checks nothing. */
void evgen_wire_get_file_header(const uint8_t in[EVGEN_WIRE_FILE_HEADER_SIZE], evgen_wire_file_header *fh);
/* The crc a file header must store: crc32c of its bytes 0..43. */
uint32_t evgen_wire_file_header_crc(const uint8_t in[EVGEN_WIRE_FILE_HEADER_SIZE]);

/* ---- blocks (a 48-byte header, then the payload) ---------------------------------------- */

#define EVGEN_WIRE_BLOCK_MAGIC "EVBK" /* 4 bytes, no terminator */
#define EVGEN_WIRE_BLOCK_MAGIC_SIZE 4u
#define EVGEN_WIRE_BLOCK_HEADER_SIZE 48u
/* An events block's stream is a nesting level below this. */
#define EVGEN_WIRE_MAX_STREAMS 256u

enum { EVGEN_WIRE_BLOCK_METADATA = 1, EVGEN_WIRE_BLOCK_EVENTS = 2, EVGEN_WIRE_BLOCK_END = 3 };

typedef struct evgen_wire_block_header {
    uint8_t type; /* EVGEN_WIRE_BLOCK_* */
    uint8_t flags;
    uint16_t header_size;
    uint32_t payload_size;
    uint32_t crc; /* decoded: as stored */
    /* events blocks only (0 in the others) */
    uint64_t thread_id;
    uint32_t sequence;
    uint32_t event_count;
    uint32_t dropped;
    uint32_t stream;
    uint64_t base_ticks;
} evgen_wire_block_header;

/* Writes a block header for `payload` (payload_size bytes): magic, flags 0, size 48, the crc over
 * header bytes 16..47 and the payload. The events fields are written as `bh` has them, 0 for
 * blocks of other types. header_size, flags and crc of `bh` are ignored. */
void evgen_wire_put_block_header(uint8_t out[EVGEN_WIRE_BLOCK_HEADER_SIZE], const evgen_wire_block_header *bh,
                                 const uint8_t *payload);
/* The most zero bytes a writer puts after a block header's 48 (evgen_wire_pad_block_header). */
#define EVGEN_WIRE_BLOCK_PADDING_MAX (65535u - EVGEN_WIRE_BLOCK_HEADER_SIZE)
/* Makes the header that evgen_wire_put_block_header wrote at `out` announce `padding` zero bytes
 * after its 48 (header_size = 48 + padding), so that the payload starts where the writer needs it
 * (an O_DIRECT writer: aligned in the file). The crc does not change: it covers neither
 * header_size nor the padding. Every reader, of every format version, skips a header's bytes past
 * the 48 it knows. padding <= EVGEN_WIRE_BLOCK_PADDING_MAX. */
void evgen_wire_pad_block_header(uint8_t out[EVGEN_WIRE_BLOCK_HEADER_SIZE], uint32_t padding);
/* Decodes a block header's 48 bytes as stored; checks nothing (not even the magic). */
void evgen_wire_get_block_header(const uint8_t in[EVGEN_WIRE_BLOCK_HEADER_SIZE], evgen_wire_block_header *bh);
/* The crc a block must store: header bytes 16..47, then `payload_size` bytes of payload. */
uint32_t evgen_wire_block_crc(const uint8_t header[EVGEN_WIRE_BLOCK_HEADER_SIZE], const uint8_t *payload,
                              size_t payload_size);
/* A header as a writer writes it: a known type, flags 0, header_size 48 or more (padding); an events block with a
 * stream below EVGEN_WIRE_MAX_STREAMS and room for its records (each takes a byte at least);
 * another block with the events fields all 0. A reader resyncing after damage checks this
 * before it computes a candidate's crc. */
int evgen_wire_block_header_is_written_form(const evgen_wire_block_header *bh);
/* The events fields (thread_id .. base_ticks) are all 0, as metadata and end blocks have them. */
int evgen_wire_block_header_events_fields_zero(const evgen_wire_block_header *bh);

/* ---- records of an events block --------------------------------------------------------- */

/* The most bytes a record header takes: varint type + varint64 delta + varint32 size. */
#define EVGEN_WIRE_RECORD_HEADER_MAX 20u

/* A record's type before the first record of a block (no type is this large). */
#define EVGEN_WIRE_NO_TYPE UINT64_MAX

/* How the emit's fast path is inlined (evgen/runtime_emit.h's EVGEN_EMIT_INLINE is this): always,
 * where events fire, since gcc -O2 otherwise calls a copy of its own from a file that fires several
 * events; with EVGEN_EMIT_NO_FORCED_INLINE, as the compiler chooses. The record header's writer
 * below is part of that path. */
#if defined(EVGEN_EMIT_NO_FORCED_INLINE)
#define EVGEN_WIRE_EMIT_INLINE static inline
#else
#define EVGEN_WIRE_EMIT_INLINE static inline __attribute__((always_inline))
#endif

/* Writes a format-2 record header at `p`. `same_type`: the record has the type of the block's
 * previous record (never for a block's first). Its head is one varint:
 * - odd: the record repeats the previous record's type and head >> 1 is its delta (>= 0), so a run
 *   of one event costs one byte of header for deltas below 64 ticks, two below 8192;
 * - even: head >> 1 is the type, and a zigzag varint delta follows (another type, or a negative
 *   delta).
 * The delta is in ticks from the previous record of the block (the first: from base_ticks). Then
 * the payload size if the type is variable. Returns the byte after it, where the payload goes. */
EVGEN_WIRE_EMIT_INLINE uint8_t *evgen_wire_put_record_header(uint8_t *p, int same_type, uint64_t type, int64_t delta,
                                                            int variable, uint32_t payload_size)
{
    if (same_type && delta >= 0) {
        p = evgen_wire_put_varint(p, (uint64_t)delta << 1 | 1u);
    } else {
        p = evgen_wire_put_varint(p, type << 1);
        p = evgen_wire_put_varint(p, evgen_wire_zigzag(delta));
    }
    if (variable)
        p = evgen_wire_put_varint(p, payload_size);
    return p;
}

/* Writes a format-1 record header at `p` (a varint type, a zigzag delta, the size if variable):
 * for a trace that readers older than format 2 must read (evgen convert --format-version 1). */
static inline uint8_t *evgen_wire_put_record_header_format1(uint8_t *p, uint64_t type, int64_t delta, int variable,
                                                            uint32_t payload_size)
{
    p = evgen_wire_put_varint(p, type);
    p = evgen_wire_put_varint(p, evgen_wire_zigzag(delta));
    if (variable)
        p = evgen_wire_put_varint(p, payload_size);
    return p;
}

/* Reads a record's type and delta at *p (below `end`) in a block of format `version` (1: a varint
 * type, then a zigzag varint delta; 2: as evgen_wire_put_record_header writes). *last_type: the
 * block's previous record's type (EVGEN_WIRE_NO_TYPE before the first), updated. The caller, who
 * knows whether the type is variable, reads the size with evgen_wire_get_varint. 0; -1 for a bad
 * varint; -2 for a format-2 record that repeats the type of a previous record the block does not
 * have (the first of a block). */
static inline int evgen_wire_get_record_head(const uint8_t **p, const uint8_t *end, unsigned version,
                                             uint64_t *last_type, uint64_t *type, int64_t *delta)
{
    uint64_t head, z;
    if (evgen_wire_get_varint(p, end, &head) != 0)
        return -1;
    if (version < 2u) {
        *type = head;
    } else if (head & 1u) {
        if (*last_type == EVGEN_WIRE_NO_TYPE)
            return -2;
        *type = *last_type;
        *delta = (int64_t)(head >> 1);
        return 0;
    } else {
        *type = head >> 1;
    }
    if (evgen_wire_get_varint(p, end, &z) != 0)
        return -1;
    *last_type = *type;
    *delta = evgen_wire_unzigzag(z);
    return 0;
}

/* ---- the end block ---------------------------------------------------------------------- */

typedef struct evgen_wire_end_thread {
    uint64_t thread_id, written, dropped, too_big;
} evgen_wire_end_thread;

/* Encodes an end block's payload without building a table of entries: begin with the number of
 * entries, put each thread's entry, then finish, which writes the totals — the sums of the entries,
 * plus `extra_dropped` for drops no thread's entry holds. */
typedef struct evgen_wire_end_writer {
    evgen_wire_buf *out;
    evgen_wire_end_thread sum;
} evgen_wire_end_writer;

void evgen_wire_end_begin(evgen_wire_end_writer *w, evgen_wire_buf *out, size_t n_threads);
void evgen_wire_end_put(evgen_wire_end_writer *w, const evgen_wire_end_thread *thread);
void evgen_wire_end_finish(evgen_wire_end_writer *w, uint64_t extra_dropped);
/* Decodes an end block's payload, calling `entry` for each thread's entry in order (NULL: only
 * check); returns 0, -1 for a bad encoding (bad varint, a count past the block, bytes after the
 * totals) or what `entry` returned if it returned non-zero. `totals` (may be NULL) gets the totals
 * (thread_id 0). */
int evgen_wire_get_end(const uint8_t *payload, size_t size, int (*entry)(void *ctx, const evgen_wire_end_thread *t),
                       void *ctx, evgen_wire_end_thread *totals);

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_WIRE_FORMAT_H */
