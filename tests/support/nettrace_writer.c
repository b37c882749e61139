/* nettrace_writer.c — builds EventPipe .nettrace files (versions 4, 5 and 6) byte by byte, from the
 * format documents in microsoft/perfview (NetTraceFormat_v5.md, NetTraceFormat.md), for tests. */
#include "nettrace_writer.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The FastSerialization tags of V4/V5. */
enum { TAG_NULL_REFERENCE = 1, TAG_BEGIN_PRIVATE_OBJECT = 5, TAG_END_OBJECT = 6 };

/* V6 block kinds (BlockHeader.BlockKind). */
enum {
    KIND_END_OF_STREAM = 0,
    KIND_TRACE = 1,
    KIND_EVENT = 2,
    KIND_METADATA = 3,
    KIND_SEQUENCE_POINT = 4,
    KIND_STACK = 5,
    KIND_THREAD = 6,
    KIND_LABEL_LIST = 8
};

/* Compressed event header flags. In V6, 16 is the LabelListId and 32 is unused. */
enum {
    FLAG_METADATA_ID = 1,
    FLAG_CAPTURE_THREAD_AND_SEQUENCE = 2,
    FLAG_THREAD_ID = 4,
    FLAG_STACK_ID = 8,
    FLAG_ACTIVITY_ID = 16,
    FLAG_LABEL_LIST_ID = 16,
    FLAG_RELATED_ACTIVITY_ID = 32,
    FLAG_SORTED = 64,
    FLAG_PAYLOAD_SIZE = 128
};

enum { TYPE_OBJECT = 1, TYPE_ARRAY = 19, TYPE_FIXED_LENGTH_ARRAY = 22, TYPE_RELLOC = 24, TYPE_DATALOC = 25 };

/* V4/V5 uncompressed event header size, the EventSize field included; V6 has no activity ids
 * but a LabelListId. */
enum { V5_EVENT_HEADER_SIZE = 80, V6_EVENT_HEADER_SIZE = 52, EVENT_BLOCK_HEADER_SIZE = 20 };

typedef struct nt_buf {
    uint8_t *data;
    size_t len;
    size_t cap;
} nt_buf;

typedef enum nt_block_kind {
    NT_BLOCK_NONE,
    NT_BLOCK_METADATA,
    NT_BLOCK_STACK,
    NT_BLOCK_EVENT,
    NT_BLOCK_THREAD,
    NT_BLOCK_LABEL_LIST
} nt_block_kind;

/* The previous event header of a block, which header compression encodes against. */
typedef struct nt_prev_header {
    uint32_t metadata_id;
    uint32_t sequence;
    uint64_t thread_id;
    uint64_t capture_thread_id;
    uint32_t processor;
    uint32_t stack_id;
    uint64_t timestamp;
    uint8_t activity_id[16];
    uint8_t related_activity_id[16];
    uint32_t label_list_id;
    uint32_t payload_size;
} nt_prev_header;

struct nt_writer {
    int version;
    int compressed;
    uint32_t pointer_size;
    nt_buf out;             /* the file so far */
    nt_block_kind open;     /* the block that later calls of the same kind extend */
    nt_buf rows;            /* the open block's rows, without the block's own header */
    uint32_t first_id;      /* stack and label list blocks */
    uint32_t count;         /* rows in the open block */
    uint64_t min_timestamp; /* event and metadata blocks, once count > 0 */
    uint64_t max_timestamp;
    nt_prev_header prev;
};

#if defined(__GNUC__) || defined(__clang__)
#define NT_NORETURN __attribute__((noreturn, format(printf, 1, 2)))
#else
#define NT_NORETURN
#endif

static void nt_die(const char *format, ...) NT_NORETURN;

static void nt_die(const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    fputs("nettrace_writer: ", stderr);
    vfprintf(stderr, format, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

static void buf_reserve(nt_buf *b, size_t extra)
{
    if (extra <= b->cap - b->len)
        return;
    if (extra > SIZE_MAX / 2 - b->len)
        nt_die("buffer size overflow");
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < extra)
        cap *= 2;
    uint8_t *data = realloc(b->data, cap);
    if (!data)
        nt_die("out of memory");
    b->data = data;
    b->cap = cap;
}

static void buf_bytes(nt_buf *b, const void *bytes, size_t n)
{
    if (n == 0)
        return;
    buf_reserve(b, n);
    memcpy(b->data + b->len, bytes, n);
    b->len += n;
}

static void buf_zeros(nt_buf *b, size_t n)
{
    if (n == 0)
        return;
    buf_reserve(b, n);
    memset(b->data + b->len, 0, n);
    b->len += n;
}

static void buf_u8(nt_buf *b, uint8_t v)
{
    buf_bytes(b, &v, 1);
}

/* Little-endian integers of `size` bytes, whatever the host's byte order. */
static void buf_le(nt_buf *b, uint64_t v, size_t size)
{
    uint8_t bytes[8];
    for (size_t i = 0; i < size; i++)
        bytes[i] = (uint8_t)(v >> (8 * i));
    buf_bytes(b, bytes, size);
}

static void buf_u16(nt_buf *b, uint16_t v)
{
    buf_le(b, v, 2);
}

static void buf_u32(nt_buf *b, uint32_t v)
{
    buf_le(b, v, 4);
}

static void buf_u64(nt_buf *b, uint64_t v)
{
    buf_le(b, v, 8);
}

/* Overwrites a little-endian field written earlier as a placeholder. */
static void buf_patch_le(nt_buf *b, size_t offset, uint64_t v, size_t size)
{
    for (size_t i = 0; i < size; i++)
        b->data[offset + i] = (uint8_t)(v >> (8 * i));
}

/* varuint: 7 bits a byte, least significant first, the high bit set on all but the last. */
static void buf_varuint(nt_buf *b, uint64_t v)
{
    while (v >= 0x80) {
        buf_u8(b, (uint8_t)(v | 0x80));
        v >>= 7;
    }
    buf_u8(b, (uint8_t)v);
}

/* Decodes one UTF-8 sequence at *p, advancing it; dies on malformed input (overlong forms,
 * surrogates and values above U+10FFFF included). */
static uint32_t utf8_next(const unsigned char **p, const char *whole)
{
    const unsigned char *s = *p;
    uint32_t cp;
    int extra;
    uint32_t min;
    if (s[0] < 0x80) {
        *p = s + 1;
        return s[0];
    } else if ((s[0] & 0xE0) == 0xC0) {
        cp = s[0] & 0x1F;
        extra = 1;
        min = 0x80;
    } else if ((s[0] & 0xF0) == 0xE0) {
        cp = s[0] & 0x0F;
        extra = 2;
        min = 0x800;
    } else if ((s[0] & 0xF8) == 0xF0) {
        cp = s[0] & 0x07;
        extra = 3;
        min = 0x10000;
    } else {
        nt_die("invalid UTF-8 in \"%s\"", whole);
        return 0;
    }
    for (int i = 1; i <= extra; i++) {
        if ((s[i] & 0xC0) != 0x80)
            nt_die("invalid UTF-8 in \"%s\"", whole);
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        nt_die("invalid UTF-8 in \"%s\"", whole);
    *p = s + 1 + extra;
    return cp;
}

/* A V4/V5 string: UTF-16LE code units and a NUL unit. */
static void buf_utf16z(nt_buf *b, const char *utf8)
{
    const unsigned char *p = (const unsigned char *)(utf8 ? utf8 : "");
    while (*p) {
        uint32_t cp = utf8_next(&p, utf8);
        if (cp < 0x10000) {
            buf_u16(b, (uint16_t)cp);
        } else {
            cp -= 0x10000;
            buf_u16(b, (uint16_t)(0xD800 | (cp >> 10)));
            buf_u16(b, (uint16_t)(0xDC00 | (cp & 0x3FF)));
        }
    }
    buf_u16(b, 0);
}

/* A V6 string: varuint32 byte count and the UTF-8 bytes. */
static void buf_string(nt_buf *b, const char *utf8)
{
    const char *s = utf8 ? utf8 : "";
    size_t n = strlen(s);
    if (n > UINT32_MAX)
        nt_die("string too long");
    buf_varuint(b, n);
    buf_bytes(b, s, n);
}

/* ---- blocks ---- */

static const char *fast_serialization_type_name(int v6_kind)
{
    switch (v6_kind) {
    case KIND_EVENT:
        return "EventBlock";
    case KIND_METADATA:
        return "MetadataBlock";
    case KIND_SEQUENCE_POINT:
        return "SPBlock";
    case KIND_STACK:
        return "StackBlock";
    }
    nt_die("block kind %d has no V4/V5 object", v6_kind);
    return NULL;
}

/* BeginPrivateObject, the type object (NullReference as its type, version, minimum reader
 * version, the length-prefixed name), EndObject of the type. */
static void write_object_begin(nt_buf *out, const char *type_name, uint32_t version, uint32_t min_reader)
{
    size_t n = strlen(type_name);
    buf_u8(out, TAG_BEGIN_PRIVATE_OBJECT);
    buf_u8(out, TAG_BEGIN_PRIVATE_OBJECT);
    buf_u8(out, TAG_NULL_REFERENCE);
    buf_u32(out, version);
    buf_u32(out, min_reader);
    buf_u32(out, (uint32_t)n);
    buf_bytes(out, type_name, n);
    buf_u8(out, TAG_END_OBJECT);
}

/* Writes one block with `content` as its payload: in V4/V5 an object of type version 2 whose
 * payload is BlockSize, zero padding to a 4-byte file offset, and the content; in V6 a BlockHeader
 * (uint24 size, uint8 kind) and the content. */
static void write_block(nt_writer *w, int v6_kind, const nt_buf *content)
{
    if (w->version >= 6) {
        if (content->len > 0xFFFFFF)
            nt_die("a V6 block of %zu bytes does not fit the 24-bit BlockSize", content->len);
        buf_u32(&w->out, (uint32_t)content->len | ((uint32_t)v6_kind << 24));
        buf_bytes(&w->out, content->data, content->len);
        return;
    }
    if (content->len > INT32_MAX)
        nt_die("a block of %zu bytes does not fit BlockSize", content->len);
    write_object_begin(&w->out, fast_serialization_type_name(v6_kind), 2, 2);
    buf_u32(&w->out, (uint32_t)content->len);
    buf_zeros(&w->out, (4 - w->out.len % 4) % 4);
    buf_bytes(&w->out, content->data, content->len);
    buf_u8(&w->out, TAG_END_OBJECT);
}

/* The 20-byte header of event and metadata blocks: HeaderSize, Flags, Min/MaxTimestamp. */
static void put_event_block_header(const nt_writer *w, nt_buf *content)
{
    buf_u16(content, EVENT_BLOCK_HEADER_SIZE);
    buf_u16(content, w->compressed ? 1 : 0);
    buf_u64(content, w->count ? w->min_timestamp : 0);
    buf_u64(content, w->count ? w->max_timestamp : 0);
}

/* Writes the open block, if any, and resets the per-block state. */
static void close_block(nt_writer *w)
{
    nt_buf content = {NULL, 0, 0};
    int kind = 0;
    switch (w->open) {
    case NT_BLOCK_NONE:
        return;
    case NT_BLOCK_METADATA:
        kind = KIND_METADATA;
        if (w->version >= 6)
            buf_u16(&content, 0); /* HeaderSize: no header bytes */
        else
            put_event_block_header(w, &content);
        break;
    case NT_BLOCK_EVENT:
        kind = KIND_EVENT;
        put_event_block_header(w, &content);
        break;
    case NT_BLOCK_STACK:
        kind = KIND_STACK;
        buf_u32(&content, w->first_id);
        buf_u32(&content, w->count);
        break;
    case NT_BLOCK_THREAD:
        kind = KIND_THREAD;
        break;
    case NT_BLOCK_LABEL_LIST:
        kind = KIND_LABEL_LIST;
        buf_u32(&content, w->first_id);
        buf_u32(&content, w->count);
        break;
    }
    buf_bytes(&content, w->rows.data, w->rows.len);
    write_block(w, kind, &content);
    free(content.data);
    w->open = NT_BLOCK_NONE;
    w->rows.len = 0;
    w->count = 0;
    w->first_id = 0;
    memset(&w->prev, 0, sizeof w->prev);
}

/* Makes `kind` the open block, ending another kind first. */
static void open_block(nt_writer *w, nt_block_kind kind)
{
    if (w->open != kind)
        close_block(w);
    w->open = kind;
}

static void require_v6(const nt_writer *w, const char *call)
{
    if (w->version < 6)
        nt_die("%s is for format version 6, not %d", call, w->version);
}

/* ---- the trace header ---- */

/* SyncTimeUTC: 2024-01-01 00:00:00.000, a Monday (year, month, dayOfWeek, day, hour, minute,
 * second, millisecond). */
static void put_sync_time(nt_buf *b)
{
    static const uint16_t sync_time[8] = {2024, 1, 1, 1, 0, 0, 0, 0};
    for (int i = 0; i < 8; i++)
        buf_u16(b, sync_time[i]);
}

static void buf_decimal_string(nt_buf *b, uint32_t v)
{
    char text[sizeof "4294967295"];
    snprintf(text, sizeof text, "%" PRIu32, v);
    buf_string(b, text);
}

nt_writer *nt_writer_new(int version, int compressed, uint32_t pointer_size, uint64_t sync_qpc,
                         uint64_t qpc_frequency, uint32_t process_id, uint32_t cpu_count)
{
    if (version < 4 || version > 6)
        nt_die("format version %d: only 4, 5 and 6 are written", version);
    if (pointer_size != 4 && pointer_size != 8)
        nt_die("pointer size %" PRIu32 ": only 4 and 8", pointer_size);
    nt_writer *w = calloc(1, sizeof *w);
    if (!w)
        nt_die("out of memory");
    w->version = version;
    w->compressed = compressed != 0;
    w->pointer_size = pointer_size;
    w->open = NT_BLOCK_NONE;

    buf_bytes(&w->out, "Nettrace", 8);
    if (version >= 6) {
        buf_u32(&w->out, 0); /* Reserved */
        buf_u32(&w->out, 6); /* MajorVersion */
        buf_u32(&w->out, 0); /* MinorVersion */
        nt_buf trace = {NULL, 0, 0};
        put_sync_time(&trace);
        buf_u64(&trace, sync_qpc);
        buf_u64(&trace, qpc_frequency);
        buf_u32(&trace, pointer_size);
        buf_u32(&trace, 2); /* KeyValueCount */
        buf_string(&trace, "HardwareThreadCount");
        buf_decimal_string(&trace, cpu_count);
        buf_string(&trace, "ProcessId");
        buf_decimal_string(&trace, process_id);
        write_block(w, KIND_TRACE, &trace);
        free(trace.data);
    } else {
        static const char serialization[] = "!FastSerialization.1";
        buf_u32(&w->out, (uint32_t)(sizeof serialization - 1));
        buf_bytes(&w->out, serialization, sizeof serialization - 1);
        write_object_begin(&w->out, "Trace", 4, 4);
        put_sync_time(&w->out);
        buf_u64(&w->out, sync_qpc);
        buf_u64(&w->out, qpc_frequency);
        buf_u32(&w->out, pointer_size);
        buf_u32(&w->out, process_id);
        buf_u32(&w->out, cpu_count);
        buf_u32(&w->out, 0); /* ExpectedCPUSamplingRate */
        buf_u8(&w->out, TAG_END_OBJECT);
    }
    return w;
}

/* ---- event headers ---- */

static const uint8_t zero_guid[16];

/* Appends one event (or, in V4/V5 metadata blocks, one metadata record) to the open block's
 * rows, uncompressed or against the previous header of the block. */
static void put_event(nt_writer *w, const nt_event *e)
{
    int v6 = w->version >= 6;
    const uint8_t *activity = e->activity_id ? e->activity_id : zero_guid;
    const uint8_t *related = e->related_activity_id ? e->related_activity_id : zero_guid;
    if (e->metadata_id & 0x80000000u)
        nt_die("metadata id %" PRIu32 " does not fit 31 bits", e->metadata_id);
    if (e->payload_size && !e->payload)
        nt_die("an event of %" PRIu32 " payload bytes without a payload", e->payload_size);

    if (!w->compressed) {
        uint32_t header = v6 ? V6_EVENT_HEADER_SIZE : V5_EVENT_HEADER_SIZE;
        if (e->payload_size > UINT32_MAX - header - 3)
            nt_die("payload too large");
        uint32_t size = header + e->payload_size;
        /* V4/V5 pad each event to a 4-byte file offset; the rows start 4-aligned and every event
         * keeps them so, so padding the event's own size is padding the offset. */
        uint32_t padded = v6 ? size : (size + 3) & ~3u;
        buf_u32(&w->rows, padded - 4); /* EventSize: the rest of the event, padding included */
        /* The high bit is IsSorted, as the format documents say; the .NET runtime sets it for
         * unsorted events instead and TraceEvent reads it that way, but neither writes
         * uncompressed V4+ blocks. */
        buf_u32(&w->rows, e->metadata_id | (e->sorted ? 0x80000000u : 0));
        buf_u32(&w->rows, e->sequence);
        buf_u64(&w->rows, e->thread_id);
        buf_u64(&w->rows, e->capture_thread_id);
        buf_u32(&w->rows, e->processor);
        buf_u32(&w->rows, e->stack_id);
        buf_u64(&w->rows, e->timestamp);
        if (v6) {
            buf_u32(&w->rows, e->label_list_id);
        } else {
            buf_bytes(&w->rows, activity, 16);
            buf_bytes(&w->rows, related, 16);
        }
        buf_u32(&w->rows, e->payload_size);
        buf_bytes(&w->rows, e->payload, e->payload_size);
        buf_zeros(&w->rows, padded - size);
    } else {
        nt_prev_header *p = &w->prev;
        nt_buf fields = {NULL, 0, 0};
        uint8_t flags = 0;
        if (e->metadata_id != p->metadata_id) {
            flags |= FLAG_METADATA_ID;
            buf_varuint(&fields, e->metadata_id);
        }
        /* The reader adds 1 to the previous sequence number, in V4/V5 only for events (not for
         * metadata records, MetadataId 0); an explicit value is a delta from previous + 1. */
        uint32_t implied = p->sequence + ((v6 || e->metadata_id != 0) ? 1u : 0u);
        if (e->sequence != implied || e->capture_thread_id != p->capture_thread_id ||
            e->processor != p->processor) {
            flags |= FLAG_CAPTURE_THREAD_AND_SEQUENCE;
            buf_varuint(&fields, (uint32_t)(e->sequence - p->sequence - 1u));
            buf_varuint(&fields, e->capture_thread_id);
            buf_varuint(&fields, e->processor);
        }
        if (e->thread_id != p->thread_id) {
            flags |= FLAG_THREAD_ID;
            buf_varuint(&fields, e->thread_id);
        }
        if (e->stack_id != p->stack_id) {
            flags |= FLAG_STACK_ID;
            buf_varuint(&fields, e->stack_id);
        }
        buf_varuint(&fields, e->timestamp - p->timestamp); /* modulo 2^64, as the reader adds */
        if (v6) {
            if (e->label_list_id != p->label_list_id) {
                flags |= FLAG_LABEL_LIST_ID;
                buf_varuint(&fields, e->label_list_id);
            }
        } else {
            if (memcmp(activity, p->activity_id, 16) != 0) {
                flags |= FLAG_ACTIVITY_ID;
                buf_bytes(&fields, activity, 16);
            }
            if (memcmp(related, p->related_activity_id, 16) != 0) {
                flags |= FLAG_RELATED_ACTIVITY_ID;
                buf_bytes(&fields, related, 16);
            }
        }
        if (e->sorted)
            flags |= FLAG_SORTED;
        if (e->payload_size != p->payload_size) {
            flags |= FLAG_PAYLOAD_SIZE;
            buf_varuint(&fields, e->payload_size);
        }
        buf_u8(&w->rows, flags);
        buf_bytes(&w->rows, fields.data, fields.len);
        free(fields.data);
        buf_bytes(&w->rows, e->payload, e->payload_size);

        p->metadata_id = e->metadata_id;
        p->sequence = e->sequence;
        p->thread_id = e->thread_id;
        p->capture_thread_id = e->capture_thread_id;
        p->processor = e->processor;
        p->stack_id = e->stack_id;
        p->timestamp = e->timestamp;
        memcpy(p->activity_id, activity, 16);
        memcpy(p->related_activity_id, related, 16);
        p->label_list_id = e->label_list_id;
        p->payload_size = e->payload_size;
    }

    if (w->count == 0 || e->timestamp < w->min_timestamp)
        w->min_timestamp = e->timestamp;
    if (w->count == 0 || e->timestamp > w->max_timestamp)
        w->max_timestamp = e->timestamp;
    w->count++;
}

void nt_write_event(nt_writer *w, const nt_event *event)
{
    if (event->metadata_id == 0)
        nt_die("an event with metadata id 0 (the id of metadata records)");
    if (w->version >= 6 && (event->activity_id || event->related_activity_id))
        nt_die("V6 events carry activity ids in label lists (label_list_id), not in the header");
    if (w->version < 6 && event->label_list_id != 0)
        nt_die("label lists are V6 only");
    open_block(w, NT_BLOCK_EVENT);
    put_event(w, event);
}

/* ---- metadata ---- */

/* Whether `type_code` is a type the version describes without further information. */
static int is_plain_type(int version, int type_code)
{
    switch (type_code) {
    case 3:  /* Boolean */
    case 4:  /* Char (UTF16CodeUnit) */
    case 5:  /* SByte */
    case 6:  /* Byte */
    case 7:  /* Int16 */
    case 8:  /* UInt16 */
    case 9:  /* Int32 */
    case 10: /* UInt32 */
    case 11: /* Int64 */
    case 12: /* UInt64 */
    case 13: /* Single */
    case 14: /* Double */
    case 16: /* DateTime */
    case 17: /* Guid */
    case 18: /* NullTerminatedUTF16String */
        return 1;
    case 20: /* VarInt */
    case 21: /* VarUInt */
    case 23: /* UTF8CodeUnit */
        return version >= 6;
    }
    return 0;
}

/* Whether the type code is followed by an element type. */
static int has_element_type(int version, int type_code)
{
    return type_code == TYPE_ARRAY ||
           (version >= 6 && (type_code == TYPE_RELLOC || type_code == TYPE_DATALOC));
}

static void check_field(int version, const nt_field *f)
{
    const char *name = f->name ? f->name : "";
    if (is_plain_type(version, f->type_code))
        return;
    if (has_element_type(version, f->type_code)) {
        if (version == 4)
            nt_die("field %s: arrays need format version 5 or later", name);
        if (!is_plain_type(version, f->element_type_code))
            nt_die("field %s: element type code %d is not a flat type", name, f->element_type_code);
        return;
    }
    if (f->type_code == TYPE_OBJECT || f->type_code == TYPE_FIXED_LENGTH_ARRAY)
        nt_die("field %s: type code %d needs more than a flat field", name, f->type_code);
    nt_die("field %s: type code %d is not a V%d type", name, f->type_code, version);
}

/* The V4/V5 metadata payload: the header, then the fields in the V1 list, or, when one is an
 * array, an empty V1 list and a V2Params tag. */
static void put_metadata_payload_v5(nt_buf *b, uint32_t metadata_id, const char *provider,
                                    uint32_t event_id, const char *event_name, uint64_t keywords,
                                    uint32_t version, uint32_t level, const nt_field *fields,
                                    size_t n_fields)
{
    int has_array = 0;
    for (size_t i = 0; i < n_fields; i++)
        has_array |= fields[i].type_code == TYPE_ARRAY;
    if (n_fields > INT32_MAX)
        nt_die("too many fields");
    buf_u32(b, metadata_id);
    buf_utf16z(b, provider);
    buf_u32(b, event_id);
    buf_utf16z(b, event_name);
    buf_u64(b, keywords);
    buf_u32(b, version);
    buf_u32(b, level);
    if (!has_array) {
        buf_u32(b, (uint32_t)n_fields);
        for (size_t i = 0; i < n_fields; i++) {
            buf_u32(b, (uint32_t)fields[i].type_code);
            buf_utf16z(b, fields[i].name);
        }
        return;
    }
    buf_u32(b, 0); /* the V1 FieldCount, empty when V2Params describes the fields */
    nt_buf tag = {NULL, 0, 0};
    buf_u32(&tag, (uint32_t)n_fields);
    for (size_t i = 0; i < n_fields; i++) {
        size_t start = tag.len;
        buf_u32(&tag, 0); /* Size, this field included, patched below */
        buf_utf16z(&tag, fields[i].name);
        buf_u32(&tag, (uint32_t)fields[i].type_code);
        if (fields[i].type_code == TYPE_ARRAY)
            buf_u32(&tag, (uint32_t)fields[i].element_type_code);
        buf_patch_le(&tag, start, tag.len - start, 4);
    }
    buf_u32(b, (uint32_t)tag.len); /* TagPayloadBytes: after the TagKind byte */
    buf_u8(b, 2);                  /* TagKind V2Params */
    buf_bytes(b, tag.data, tag.len);
    free(tag.data);
}

static void patch_u16_size(nt_buf *b, size_t start, const char *what)
{
    size_t n = b->len - start - 2;
    if (n > 0xFFFF)
        nt_die("%s of %zu bytes does not fit its uint16 size", what, n);
    buf_patch_le(b, start, n, 2);
}

/* A V6 metadata row, its uint16 Size included. */
static void put_metadata_row_v6(nt_buf *b, uint32_t metadata_id, const char *provider,
                                uint32_t event_id, const char *event_name, uint64_t keywords,
                                uint32_t version, uint32_t level, const nt_field *fields,
                                size_t n_fields)
{
    if (version > 0xFF || level > 0xFF)
        nt_die("V6 metadata: version %" PRIu32 " and level %" PRIu32 " must fit a byte", version, level);
    if (n_fields > 0xFFFF)
        nt_die("V6 metadata: too many fields");
    size_t row = b->len;
    buf_u16(b, 0);
    buf_varuint(b, metadata_id);
    buf_string(b, provider);
    buf_varuint(b, event_id);
    buf_string(b, event_name);
    buf_u16(b, (uint16_t)n_fields);
    for (size_t i = 0; i < n_fields; i++) {
        size_t field = b->len;
        buf_u16(b, 0);
        buf_string(b, fields[i].name);
        buf_u8(b, (uint8_t)fields[i].type_code);
        if (has_element_type(6, fields[i].type_code))
            buf_u8(b, (uint8_t)fields[i].element_type_code);
        patch_u16_size(b, field, "a field description");
    }
    size_t optional = b->len;
    buf_u16(b, 0);
    if (keywords) {
        buf_u8(b, 3); /* Keyword */
        buf_u64(b, keywords);
    }
    if (level) {
        buf_u8(b, 8); /* Level */
        buf_u8(b, (uint8_t)level);
    }
    if (version) {
        buf_u8(b, 9); /* Version */
        buf_u8(b, (uint8_t)version);
    }
    patch_u16_size(b, optional, "optional metadata");
    patch_u16_size(b, row, "a metadata row");
}

void nt_metadata(nt_writer *w, uint32_t metadata_id, const char *provider, uint32_t event_id,
                 const char *event_name, uint64_t keywords, uint32_t version, uint32_t level,
                 const nt_field *fields, size_t n_fields)
{
    if (metadata_id == 0)
        nt_die("metadata id 0 is reserved");
    for (size_t i = 0; i < n_fields; i++)
        check_field(w->version, &fields[i]);
    open_block(w, NT_BLOCK_METADATA);
    if (w->version >= 6) {
        put_metadata_row_v6(&w->rows, metadata_id, provider, event_id, event_name, keywords, version,
                            level, fields, n_fields);
        w->count++;
        return;
    }
    nt_buf payload = {NULL, 0, 0};
    put_metadata_payload_v5(&payload, metadata_id, provider, event_id, event_name, keywords, version,
                            level, fields, n_fields);
    if (payload.len > UINT32_MAX - V5_EVENT_HEADER_SIZE)
        nt_die("metadata payload too large");
    nt_event record;
    memset(&record, 0, sizeof record);
    record.payload = payload.data;
    record.payload_size = (uint32_t)payload.len;
    put_event(w, &record);
    free(payload.data);
}

/* ---- threads, label lists, stacks, sequence points ---- */

void nt_thread(nt_writer *w, uint64_t index, uint64_t os_thread_id, uint64_t process_id)
{
    require_v6(w, "nt_thread");
    open_block(w, NT_BLOCK_THREAD);
    size_t row = w->rows.len;
    buf_u16(&w->rows, 0);
    buf_varuint(&w->rows, index);
    buf_u8(&w->rows, 2); /* OSProcessId */
    buf_varuint(&w->rows, process_id);
    buf_u8(&w->rows, 3); /* OSThreadId */
    buf_varuint(&w->rows, os_thread_id);
    patch_u16_size(&w->rows, row, "a thread row");
    w->count++;
}

void nt_label_list(nt_writer *w, uint32_t index, const uint8_t *activity_id,
                   const uint8_t *related_activity_id)
{
    require_v6(w, "nt_label_list");
    if (index == 0)
        nt_die("label list index 0 is the implicit empty list");
    if (!activity_id && !related_activity_id)
        nt_die("an empty label list cannot be written");
    if (w->open != NT_BLOCK_LABEL_LIST || index != w->first_id + w->count)
        close_block(w);
    if (w->open != NT_BLOCK_LABEL_LIST) {
        open_block(w, NT_BLOCK_LABEL_LIST);
        w->first_id = index;
    }
    /* The high bit of a label's kind marks the last label of its list. */
    if (activity_id) {
        buf_u8(&w->rows, (uint8_t)(1 | (related_activity_id ? 0 : 0x80)));
        buf_bytes(&w->rows, activity_id, 16);
    }
    if (related_activity_id) {
        buf_u8(&w->rows, 2 | 0x80);
        buf_bytes(&w->rows, related_activity_id, 16);
    }
    w->count++;
}

void nt_stack(nt_writer *w, uint32_t stack_id, const uint64_t *ips, uint32_t depth)
{
    if (depth > UINT32_MAX / w->pointer_size)
        nt_die("stack too deep");
    if (w->open != NT_BLOCK_STACK || stack_id != w->first_id + w->count)
        close_block(w);
    if (w->open != NT_BLOCK_STACK) {
        open_block(w, NT_BLOCK_STACK);
        w->first_id = stack_id;
    }
    buf_u32(&w->rows, depth * w->pointer_size);
    for (uint32_t i = 0; i < depth; i++) {
        if (w->pointer_size == 4 && ips[i] > UINT32_MAX)
            nt_die("IP 0x%" PRIx64 " does not fit 4 bytes", ips[i]);
        buf_le(&w->rows, ips[i], w->pointer_size);
    }
    w->count++;
}

void nt_flush(nt_writer *w)
{
    close_block(w);
}

void nt_sequence_point(nt_writer *w, uint64_t timestamp, const uint64_t *threads,
                       const uint32_t *sequences, size_t n)
{
    if (n > INT32_MAX)
        nt_die("too many threads");
    close_block(w);
    nt_buf content = {NULL, 0, 0};
    buf_u64(&content, timestamp);
    if (w->version >= 6)
        buf_u32(&content, 0); /* Flags: neither the thread nor the metadata cache is flushed */
    buf_u32(&content, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        if (w->version >= 6) {
            buf_varuint(&content, threads[i]);
            buf_varuint(&content, sequences[i]);
        } else {
            buf_u64(&content, threads[i]);
            buf_u32(&content, sequences[i]);
        }
    }
    write_block(w, KIND_SEQUENCE_POINT, &content);
    free(content.data);
}

uint8_t *nt_writer_finish(nt_writer *w, size_t *size)
{
    close_block(w);
    if (w->version >= 6)
        buf_u32(&w->out, (uint32_t)KIND_END_OF_STREAM << 24); /* an EndOfStream block, size 0 */
    else
        buf_u8(&w->out, TAG_NULL_REFERENCE);
    uint8_t *data = w->out.data;
    *size = w->out.len;
    free(w->rows.data);
    free(w);
    return data;
}

int nt_write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = size == 0 || fwrite(data, 1, size, f) == size;
    if (fclose(f) != 0)
        ok = 0;
    return ok ? 0 : -1;
}
