/* reader_helpers.h — what the reader tests share: traces written by the runtime (the fire-all
 * harness in one thread; a mix of events from several threads in many blocks), a builder of
 * hand-made traces for what the runtime never writes, a trace's block layout read from
 * docs/format.md alone, and running a program with its output on pipes. */
#ifndef EVGEN_TEST_READER_HELPERS_H
#define EVGEN_TEST_READER_HELPERS_H

#include <stddef.h>
#include <stdint.h>

#include "evgen/reader.h"
#include "evgen/runtime.h"

typedef struct rh_trace {
    uint8_t *data;
    size_t size;
} rh_trace;

/* A memory session recording every event (buffer_size 0: the default), and its trace. */
evgen_session *rh_open_session(uint32_t buffer_size);
void rh_close_session(evgen_session *session, rh_trace *out);
void rh_die(const char *what); /* prints and aborts */
/* Opens a trace in memory; fails the test (cmocka) with the reader's error if it cannot. */
evgen_reader *rh_open_memory(const void *data, size_t size);

/* Runs `fire` with every event enabled in a memory session; the trace goes to `out` (free data). */
void rh_record(size_t (*fire)(void), uint32_t buffer_size, rh_trace *out);

/* `threads` threads each emit `rounds` rounds of 7 gcevents events (fixed and variable sizes,
 * strings, byte and struct arrays), into buffers of `buffer_size` bytes: many blocks. In
 * reader_mixed.c (links gcevents_runtime). */
void rh_record_mixed(int threads, int rounds, uint32_t buffer_size, rh_trace *out);
/* The same into a file session with that evgen_block_writer (aborts unless every event is written). */
void rh_record_mixed_file(int threads, int rounds, uint32_t buffer_size, int block_writer, const char *path);

/* The complete blocks of a trace, walked by their headers alone from offset 48. */
typedef struct rh_block {
    size_t offset, end;
    uint8_t type;
    uint32_t event_count;
    uint64_t thread_id;
} rh_block;
/* Returns the number of blocks (at most `cap` stored). */
size_t rh_blocks(const uint8_t *data, size_t size, rh_block *out, size_t cap);

/* ---- hand-made traces -------------------------------------------------------------------- */

typedef struct rh_bytes {
    uint8_t *data;
    size_t len, cap;
} rh_bytes;

void rh_put(rh_bytes *b, const void *p, size_t n);
void rh_le(rh_bytes *b, uint64_t v, unsigned n);
void rh_varint(rh_bytes *b, uint64_t v);
void rh_zigzag(rh_bytes *b, int64_t v);
void rh_string(rh_bytes *b, const char *s);
void rh_free(rh_bytes *b);

/* A file header (pointer size 8, start_ticks 1000) with clock kind and frequency, of format
 * version 1 (the hand-made traces' records are written in its framing) or `version`. */
void rh_file_header(rh_bytes *file, uint8_t clock_kind, uint64_t frequency);
void rh_file_header_version(rh_bytes *file, uint16_t version, uint8_t clock_kind, uint64_t frequency);
#define RH_START_TICKS 1000u
/* A block with its header and crc appended to `file` (stream 0). */
void rh_append_block(rh_bytes *file, uint8_t type, uint64_t thread_id, uint32_t sequence, uint32_t count, uint32_t dropped,
              uint64_t base_ticks, const rh_bytes *payload);
/* The same with the header's `stream` (bytes 36..39). */
void rh_append_stream_block(rh_bytes *file, uint8_t type, uint64_t thread_id, uint32_t stream, uint32_t sequence,
                            uint32_t count, uint32_t dropped, uint64_t base_ticks, const rh_bytes *payload);
/* A field of a hand-made event: a wire kind, an array flag, 1 + the index of its count field. */
typedef struct rh_field {
    const char *name;
    unsigned kind, array, count_plus1;
} rh_field;
/* A metadata block of one manifest "hand" (provider "Hand") whose events each have one version,
 * version 1, with the given fields; their types start at `first_type`. */
void rh_metadata(rh_bytes *file, uint64_t first_type, size_t n_events, const char *const *names,
                 const rh_field *const *fields, const size_t *n_fields);
/* An end block for the given threads' written counts (an id may appear twice, as a reused one). */
void rh_end_block(rh_bytes *file, size_t n, const uint64_t *thread_ids, const uint64_t *written);

/* ---- files and programs ------------------------------------------------------------------ */

/* Writes `size` bytes to DIR/NAME; returns the path (caller frees). */
char *rh_write_file(const char *dir, const char *name, const void *data, size_t size);

/* Runs argv with stdin /dev/null and stdout and stderr on pipes (never a terminal); captures both
 * (NUL-terminated, *out_len bytes of stdout). Returns the exit status, or -1. */
int rh_run(const char *const argv[], char **out, size_t *out_len, char **err);

#endif /* EVGEN_TEST_READER_HELPERS_H */
