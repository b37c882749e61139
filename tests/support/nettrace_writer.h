/* nettrace_writer.h — a small writer of EventPipe .nettrace files (format versions 4, 5 and 6)
 * for tests of the reader: the tests build a trace call by call and get its bytes back.
 *
 * Blocks are written in the order of the calls. Consecutive calls of one kind share a block
 * (nt_metadata: a MetadataBlock; nt_stack with consecutive ids: a StackBlock; nt_write_event:
 * an EventBlock; nt_thread: a Thread block; nt_label_list with consecutive indexes: a LabelList
 * block); a call of another kind, nt_flush, nt_sequence_point and nt_writer_finish end the open
 * block. Each event block restarts the header compression state, as the format requires.
 *
 * What the writer fixes itself: the trace's SyncTimeUTC is 2024-01-01 00:00:00.000 (a Monday);
 * V4/V5 ExpectedCPUSamplingRate is 0; the V4/V5 Trace object is type version 4, minimum reader
 * version 4, in both versions (the .NET runtime writes 4 even when its metadata carries V5 tags);
 * V4/V5 metadata records have an all-zero header (thread, timestamp, sequence) and are not marked
 * sorted; V6 sequence points have Flags 0; the V6 trace block carries the key-value pairs
 * HardwareThreadCount and ProcessId, in that order, as decimal strings; V6 metadata writes the
 * optional Keyword, Level and Version elements only when they are not zero.
 *
 * Errors: misuse (a call the chosen version does not have, a field type the version cannot
 * describe, a size that does not fit its field) and running out of memory print a message to
 * stderr and abort(): this is test code, and a wrong trace must not pass silently.
 * Thread safety: a writer is used by one thread at a time; writers are independent. */
#ifndef EVGEN_NETTRACE_WRITER_H
#define EVGEN_NETTRACE_WRITER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nt_writer nt_writer;

/* One flat payload field. type_code is the format's type code (Boolean 3 ... String 18, Array 19;
 * V6 also VarInt 20, VarUInt 21, UTF8CodeUnit 23, RelLoc 24, DataLoc 25); element_type_code is
 * the element's type code for Array, RelLoc and DataLoc and is ignored otherwise. Object (1) and
 * FixedLengthArray (22) need more than a flat field says and are refused. */
typedef struct nt_field {
    const char *name; /* UTF-8 */
    int type_code;
    int element_type_code;
} nt_field;

/* One event. In V6, thread_id and capture_thread_id are thread indexes (see nt_thread), and
 * activity ids are carried by a label list (label_list_id, see nt_label_list) instead of the
 * header: activity_id and related_activity_id must be NULL there, and label_list_id must be 0 in
 * V4/V5. NULL activity ids are written as zeros. */
typedef struct nt_event {
    uint32_t metadata_id; /* below 2^31 */
    uint32_t sequence;
    uint64_t thread_id;
    uint64_t capture_thread_id;
    uint32_t processor;
    uint32_t stack_id;
    uint64_t timestamp;
    int sorted; /* the IsSorted flag */
    const uint8_t *activity_id; /* 16 bytes or NULL (V4/V5) */
    const void *payload;        /* payload_size bytes; may be NULL when payload_size is 0 */
    uint32_t payload_size;
    const uint8_t *related_activity_id; /* 16 bytes or NULL (V4/V5) */
    uint32_t label_list_id;             /* V6; 0 is the empty label list */
} nt_event;

/* A new writer; the stream header and the trace block/object are written at once. version is 4, 5
 * or 6; compressed chooses header compression for event and metadata blocks (V4/V5; in V6 for
 * event blocks, metadata rows having one encoding). pointer_size (4 or 8) is the size of each
 * stack IP. Never returns NULL. */
nt_writer *nt_writer_new(int version, int compressed, uint32_t pointer_size, uint64_t sync_qpc,
                         uint64_t qpc_frequency, uint32_t process_id, uint32_t cpu_count);

/* Describes an event type. V4: fields in the V1 list, no arrays. V5: the same, except that an
 * event with an Array field has an empty V1 list and all its fields in a V2Params tag. V6: a
 * metadata row; version and level must fit a byte. */
void nt_metadata(nt_writer *w, uint32_t metadata_id, const char *provider, uint32_t event_id,
                 const char *event_name, uint64_t keywords, uint32_t version, uint32_t level,
                 const nt_field *fields, size_t n_fields);

/* V6 only: a Thread block row giving thread `index` its OS process id and OS thread id. */
void nt_thread(nt_writer *w, uint64_t index, uint64_t os_thread_id, uint64_t process_id);

/* V6 only: label list `index` (>= 1) holding an ActivityId and/or a RelatedActivityId label
 * (16 bytes each; at least one not NULL, since an empty list cannot be written). */
void nt_label_list(nt_writer *w, uint32_t index, const uint8_t *activity_id,
                   const uint8_t *related_activity_id);

/* A stack of `depth` IPs (each must fit pointer_size bytes); ips may be NULL when depth is 0. */
void nt_stack(nt_writer *w, uint32_t stack_id, const uint64_t *ips, uint32_t depth);

/* An event; the copy is made at once, so the caller's buffers may be reused. The block's
 * Min/MaxTimestamp are the real minimum and maximum of its events. (Not named nt_event: C gives
 * a typedef and a function one name space.) */
void nt_write_event(nt_writer *w, const nt_event *event);

/* Ends the open block, if any, so the next call starts a new one. */
void nt_flush(nt_writer *w);

/* Ends the open block and writes a sequence point: n (thread, sequence) pairs, where a thread is
 * a thread id in V4/V5 and a thread index in V6. threads and sequences may be NULL when n is 0. */
void nt_sequence_point(nt_writer *w, uint64_t timestamp, const uint64_t *threads,
                       const uint32_t *sequences, size_t n);

/* Ends the open block, writes the end of the stream (the NullReference tag in V4/V5, an
 * EndOfStream block in V6), frees the writer and returns the file's bytes (malloc'd, the caller
 * frees) with their count in *size. */
uint8_t *nt_writer_finish(nt_writer *w, size_t *size);

/* Writes `size` bytes to `path`, replacing it. Returns 0, or -1 if the file could not be written
 * (errno tells why). */
int nt_write_file(const char *path, const uint8_t *data, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_NETTRACE_WRITER_H */
