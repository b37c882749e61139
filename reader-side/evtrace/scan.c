/* scan.c — the passes over a trace's blocks. The walk at open reads block headers only while they
 * are as a writer writes them, indexing events blocks unverified; a block is verified (crc32c, every
 * record) when first touched, with the problems and the resync of the eager scan. The eager scan
 * checks every block in full: frames (magic, sizes, crc32c), metadata decoded, every events block's
 * records checked, the end block read; events blocks chained per (thread, stream), every problem
 * recorded with its offset, and after a bad block it resyncs on the next "EVBK" whose block checks
 * out. Then the books: the end block's count of each thread's events against the events its blocks
 * hold. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evtrace.h"

/* ---- frames ------------------------------------------------------------------------------- */

typedef enum frame_kind {
    FRAME_OK,
    FRAME_SHORT,     /* fewer than 48 bytes left, and they start like a block */
    FRAME_MAGIC,     /* not "EVBK" */
    FRAME_HSIZE,     /* header_size below 48 */
    FRAME_PAST_END,  /* runs past the end of the file */
    FRAME_CRC        /* checksum mismatch */
} frame_kind;

typedef struct frame {
    uint64_t offset;
    evgen_wire_block_header bh; /* decoded when the header is whole (sizes, the stored crc...) */
    uint32_t crc;               /* computed */
} frame;

static frame_kind check_frame(const evgen_reader *rd, uint64_t off, frame *f)
{
    const uint8_t *h = rd->data + off;
    uint64_t avail = rd->size - off;
    f->offset = off;
    if (avail < EVGEN_WIRE_BLOCK_HEADER_SIZE)
        return memcmp(h, EVGEN_WIRE_BLOCK_MAGIC, avail < EVGEN_WIRE_BLOCK_MAGIC_SIZE ? (size_t)avail
                                                                                     : EVGEN_WIRE_BLOCK_MAGIC_SIZE) == 0
                   ? FRAME_SHORT
                   : FRAME_MAGIC;
    if (memcmp(h, EVGEN_WIRE_BLOCK_MAGIC, EVGEN_WIRE_BLOCK_MAGIC_SIZE) != 0)
        return FRAME_MAGIC;
    evgen_wire_get_block_header(h, &f->bh);
    if (f->bh.header_size < EVGEN_WIRE_BLOCK_HEADER_SIZE)
        return FRAME_HSIZE;
    if ((uint64_t)f->bh.header_size + f->bh.payload_size > avail)
        return FRAME_PAST_END;
    f->crc = evgen_wire_block_crc(h, h + f->bh.header_size, f->bh.payload_size);
    return f->crc == f->bh.crc ? FRAME_OK : FRAME_CRC;
}

/* Cheap checks of a resync candidate's header before its crc is computed, so that garbage full of
 * "EVBK" does not cost a checksum of the rest of the file per candidate: the header must be as a
 * writer writes it (evgen_wire_block_header_is_written_form). */
static int plausible(const evgen_reader *rd, uint64_t at)
{
    if (rd->size - at < EVGEN_WIRE_BLOCK_HEADER_SIZE)
        return 1; /* a torn candidate: nothing more to check */
    evgen_wire_block_header bh;
    evgen_wire_get_block_header(rd->data + at, &bh);
    return evgen_wire_block_header_is_written_form(&bh);
}

/* The offset of the next block at or after `from` that checks out, or the file size if none;
 * `*torn` receives the first candidate (whole magic) that runs past the end, else UINT64_MAX. */
static uint64_t resync(const evgen_reader *rd, uint64_t from, uint64_t *torn)
{
    *torn = UINT64_MAX;
    while (from < rd->size) {
        const uint8_t *p = memchr(rd->data + from, 'E', rd->size - from);
        if (!p)
            break;
        uint64_t at = (uint64_t)(p - rd->data);
        if (rd->size - at >= EVGEN_WIRE_BLOCK_MAGIC_SIZE &&
            memcmp(p, EVGEN_WIRE_BLOCK_MAGIC, EVGEN_WIRE_BLOCK_MAGIC_SIZE) == 0 && plausible(rd, at)) {
            frame f;
            frame_kind k = check_frame(rd, at, &f);
            if (k == FRAME_OK)
                return at;
            if ((k == FRAME_PAST_END || k == FRAME_SHORT) && *torn == UINT64_MAX)
                *torn = at;
        }
        from = at + 1;
    }
    return rd->size;
}

static void torn_tail(evgen_reader *rd, uint64_t off, const char *what)
{
    evgen_rd_problem(rd, off, "the file ends inside %s: the trace was cut short (%llu bytes after it)", what,
                     (unsigned long long)(rd->size - off));
    rd->status = EVGEN_READ_TRUNCATED;
    rd->truncated_at = off;
}

/* ---- block contents ----------------------------------------------------------------------- */

/* The most type numbers a lost metadata block may leave undefined before the next one. */
#define RD_MAX_TYPE_GAP (1u << 20)

/* Numbers the versions of a decoded metadata block as the trace's types and registers it: 0, -1
 * with `why` set, or -2 if memory ran out. */
static int define_types(evgen_reader *rd, rd_evtrace *et, const rd_metadata *md, char *why, size_t why_size)
{
    /* Types are numbered across the trace; a gap means a metadata block was lost (its types stay
     * undefined), bounded by what the file could hold. */
    uint64_t first_type = md->first_type, n_types = md->n_types;
    if (first_type > (uint64_t)et->n_types + RD_MAX_TYPE_GAP || n_types > rd->size) {
        snprintf(why, why_size, "first_type %llu is impossible", (unsigned long long)first_type);
        return -1;
    }
    for (uint64_t t = first_type; t < first_type + n_types && t < et->n_types; t++)
        if (et->types[t].version) {
            snprintf(why, why_size, "type %llu is already defined by an earlier metadata block",
                     (unsigned long long)t);
            return -1;
        }
    /* Everything checks out: register the manifest and its events, and the trace's types. */
    size_t types_end = (size_t)(first_type + n_types);
    if (evgen_rd_grow((void **)&et->types, &et->cap_types, types_end, sizeof *et->types) ||
        evgen_rd_metadata_add(rd, md) != 0) {
        snprintf(why, why_size, "out of memory");
        return -2;
    }
    if (types_end > et->n_types) {
        memset(et->types + et->n_types, 0, (types_end - et->n_types) * sizeof *et->types);
        et->n_types = types_end;
    }
    size_t t = (size_t)first_type;
    for (uint32_t i = 0; i < md->n_events; i++) {
        const rd_event *e = md->events[i];
        for (uint32_t k = 0; k < e->pub.n_versions; k++, t++) {
            const rd_version *v = &e->versions[k];
            et->types[t].version = v;
            et->types[t].variable = v->pub->fixed_size < 0;
            et->types[t].fixed_size = v->pub->fixed_size < 0 ? 0 : (uint32_t)v->pub->fixed_size;
        }
    }
    return 0;
}

static void metadata_block(evgen_reader *rd, rd_evtrace *et, const frame *f)
{
    const uint8_t *h = rd->data + f->offset;
    if (!evgen_wire_block_header_events_fields_zero(&f->bh)) {
        evgen_rd_problem(rd, f->offset, "metadata block with thread fields set: skipped");
        return;
    }
    char why[256];
    const uint8_t *p = h + f->bh.header_size;
    rd_metadata md;
    int rc = evgen_rd_metadata_decode(rd, p, p + f->bh.payload_size, 0, &md, why, sizeof why);
    if (rc == 0)
        rc = define_types(rd, et, &md, why, sizeof why);
    if (rc == -2)
        rd->oom = 1;
    else if (rc != 0)
        evgen_rd_problem(rd, f->offset, "metadata block: %s: skipped (its events cannot be decoded)", why);
}

/* A problem of a block's records, recorded only if `report` (the verifier thread only asks). */
static void __attribute__((format(printf, 4, 5)))
records_problem(evgen_reader *rd, int report, uint64_t offset, const char *fmt, ...)
{
    if (!report)
        return;
    va_list ap;
    va_start(ap, fmt);
    evgen_rd_vproblem(rd, offset, fmt, ap);
    va_end(ap);
}

/* Checks every record of an events block; 0, or -1 with the problem recorded if `report`. */
static int check_records(evgen_reader *rd, const rd_evtrace *et, const frame *f, uint32_t count, int report)
{
    const uint8_t *h = rd->data + f->offset;
    const uint8_t *p = h + f->bh.header_size, *start = p, *end = p + f->bh.payload_size;
    /* The last record's type, kept: a block's records are mostly of one type, and the size taken
     * from a type in hand does not wait for the type table's load to move on to the next record. */
    uint64_t last_type = UINT64_MAX, head_type = EVGEN_WIRE_NO_TYPE; /* the record head's state */
    const rd_type *t = NULL;
    int repeats = rd->header.format_version >= 2u; /* format 2: an odd head repeats the last type */
    for (uint32_t k = 0; k < count; k++) {
        /* The common record first: the last type again (an odd head), of a fixed size; the checks
         * below find exactly the same, more slowly. While a one- or two-byte head and the payload
         * are surely inside the block, the records go by in a loop of a few instructions each
         * (the verifier's thread spends its time here); the block's last ones, and any other
         * head, take the checks after it. */
        if (repeats && t && !t->variable) {
            const uint64_t fixed = t->fixed_size, room = fixed + 2;
            while ((uint64_t)(end - p) >= room && (p[0] & 1u) && (p[0] < 0x80 || p[1] < 0x80)) {
                p += (p[0] < 0x80 ? 1 : 2) + fixed;
                if (++k == count)
                    break;
            }
            if (k == count)
                break;
        }
        const uint8_t *q = p;
        uint64_t repeat_head;
        if (repeats && t && !t->variable && p < end && (p[0] & 1u) &&
            evgen_wire_get_varint(&q, end, &repeat_head) == 0 && t->fixed_size <= (uint64_t)(end - q)) {
            p = q + t->fixed_size;
            continue;
        }
        uint64_t at = f->offset + f->bh.header_size + (uint64_t)(p - start);
        uint64_t type, size;
        int64_t delta;
        if (p == end) {
            records_problem(rd, report, f->offset, "events block ends after %u of its %u records: skipped", k,
                            count);
            return -1;
        }
        int head = evgen_wire_get_record_head(&p, end, rd->header.format_version, &head_type, &type, &delta);
        if (head != 0) {
            records_problem(rd, report, f->offset,
                            head == -2 ? "events block: record %u at offset %llu repeats the type of the record "
                                         "before it, and is the block's first: skipped"
                                       : "events block: record %u at offset %llu: bad varint: skipped",
                            k, (unsigned long long)at);
            return -1;
        }
        if (type != last_type) {
            t = evgen_rd_type(et, type);
            last_type = type;
        }
        if (!t) {
            records_problem(rd, report, f->offset,
                            "events block: record %u at offset %llu: type %llu is not defined by an earlier "
                            "metadata block: skipped",
                            k, (unsigned long long)at, (unsigned long long)type);
            return -1;
        }
        if (!t->variable)
            size = t->fixed_size;
        else if (evgen_wire_get_varint(&p, end, &size) != 0) {
            records_problem(rd, report, f->offset, "events block: record %u at offset %llu: bad varint: skipped",
                            k, (unsigned long long)at);
            return -1;
        }
        if (size > (uint64_t)(end - p)) {
            records_problem(rd, report, f->offset,
                            "events block: record %u at offset %llu (%s v%u): a %llu-byte payload runs past the "
                            "block: skipped",
                            k, (unsigned long long)at, t->version->info->name, t->version->pub->version,
                            (unsigned long long)size);
            return -1;
        }
        p += size;
    }
    if (p != end) {
        records_problem(rd, report, f->offset, "events block: %zu bytes after its %u records: skipped",
                        (size_t)(end - p), count);
        return -1;
    }
    return 0;
}

/* The chain of thread `ti`'s blocks of `stream`, added if new; RD_NONE if out of memory. A thread
 * has a few streams (one per nesting level it reached): a walk of its list is enough. */
static size_t chain_index(rd_evtrace *et, size_t ti, uint32_t stream)
{
    if (ti >= et->n_thread_chains) { /* threads the core added since: none has a chain yet */
        if (evgen_rd_grow((void **)&et->thread_chains, &et->cap_thread_chains, ti + 1, sizeof *et->thread_chains))
            return RD_NONE;
        for (; et->n_thread_chains <= ti; et->n_thread_chains++)
            et->thread_chains[et->n_thread_chains].first_chain = RD_NONE;
    }
    size_t *link = &et->thread_chains[ti].first_chain;
    while (*link != RD_NONE) {
        if (et->chains[*link].stream == stream)
            return *link;
        link = &et->chains[*link].next_of_thread;
    }
    if (evgen_rd_grow((void **)&et->chains, &et->cap_chains, et->n_chains + 1, sizeof *et->chains) != 0)
        return RD_NONE;
    size_t c = et->n_chains++;
    et->chains[c] = (rd_chain){ti, stream, RD_NONE, RD_NONE, RD_NONE};
    *link = c;
    return c;
}

/* Indexes an events block: checked in full first when `state` is GOOD, taken on its header when
 * UNVERIFIED (the walk). */
static void events_block(evgen_reader *rd, rd_evtrace *et, const frame *f, uint8_t state)
{
    uint64_t tid = f->bh.thread_id;
    uint32_t count = f->bh.event_count, dropped = f->bh.dropped, stream = f->bh.stream;
    if (stream >= EVGEN_WIRE_MAX_STREAMS) {
        evgen_rd_problem(rd, f->offset, "events block of thread %llu with stream %u (at most %u): skipped",
                         (unsigned long long)tid, stream, EVGEN_WIRE_MAX_STREAMS - 1);
        return;
    }
    if (state == RD_BLOCK_GOOD && check_records(rd, et, f, count, 1) != 0)
        return;
    size_t ti = evgen_rd_thread_index(rd, tid);
    size_t ci = ti == RD_NONE ? RD_NONE : chain_index(et, ti, stream);
    if (ci == RD_NONE ||
        evgen_rd_grow((void **)&et->blocks, &et->cap_blocks, et->n_blocks + 1, sizeof *et->blocks) != 0) {
        rd->oom = 1;
        return;
    }
    size_t b = et->n_blocks++;
    et->blocks[b] = (rd_block){f->offset + f->bh.header_size, f->bh.payload_size, count, f->bh.base_ticks, ti, ci,
                               RD_NONE, f->offset, dropped, state};
    evgen_rd_chain_block(rd, et, b);
}

/* An end block's thread entry added to its thread's books (an id the OS reused appears twice: one
 * reader thread, both totals); -2 if memory ran out. */
static int add_end_entry(void *ctx, const evgen_wire_end_thread *t)
{
    evgen_reader *rd = ctx;
    size_t ti = evgen_rd_thread_index(rd, t->thread_id);
    if (ti == RD_NONE)
        return -2;
    rd->threads[ti].written_end += t->written;
    rd->threads[ti].dropped_end += t->dropped;
    rd->threads[ti].too_big_end += t->too_big;
    return 0;
}

static void end_block(evgen_reader *rd, rd_evtrace *et, const frame *f)
{
    const uint8_t *payload = rd->data + f->offset + f->bh.header_size;
    if (!evgen_wire_block_header_events_fields_zero(&f->bh)) {
        evgen_rd_problem(rd, f->offset, "end block with thread fields set: skipped");
        return;
    }
    if (evgen_wire_get_end(payload, f->bh.payload_size, NULL, NULL, NULL) != 0) {
        evgen_rd_problem(rd, f->offset, "end block: bad totals: skipped");
        return;
    }
    if (rd->has_end)
        return; /* only one is ever written; a copy adds nothing */
    if (evgen_wire_get_end(payload, f->bh.payload_size, add_end_entry, rd, NULL) != 0)
        rd->oom = 1;
    rd->has_end = 1;
    et->end_offset = f->offset;
}

static void block(evgen_reader *rd, rd_evtrace *et, const frame *f)
{
    uint8_t type = f->bh.type;
    switch (type) {
    case EVGEN_WIRE_BLOCK_METADATA:
        metadata_block(rd, et, f);
        break;
    case EVGEN_WIRE_BLOCK_EVENTS:
        events_block(rd, et, f, RD_BLOCK_GOOD);
        break;
    case EVGEN_WIRE_BLOCK_END:
        end_block(rd, et, f);
        break;
    default:
        evgen_rd_problem(rd, f->offset, "unknown block type %u: skipped", type);
        break;
    }
}

/* ---- the books ---------------------------------------------------------------------------- */

/* The end block counts every event each thread wrote (a reused id: both threads' sum); the blocks
 * read hold the events found. A block lost or skipped as corrupt leaves events missing, which only
 * this comparison shows when the block is gone without a trace (cut out whole); more found than
 * written is an end block that does not describe these blocks. Each disagreement is a problem at
 * the end block's offset, one per thread, in the order of the threads table (--stats shows). */
static void check_books(evgen_reader *rd, const rd_evtrace *et)
{
    for (size_t t = 0; t < rd->n_threads; t++) {
        const evgen_reader_thread *th = &rd->threads[t];
        if (th->written_end > th->events)
            evgen_rd_problem(rd, et->end_offset,
                             "thread %llu: the end block counts %llu events written, %llu found: %llu missing",
                             (unsigned long long)th->thread_id, (unsigned long long)th->written_end,
                             (unsigned long long)th->events, (unsigned long long)(th->written_end - th->events));
        else if (th->written_end < th->events)
            evgen_rd_problem(rd, et->end_offset,
                             "thread %llu: the end block counts %llu events written, %llu found: %llu more than "
                             "written",
                             (unsigned long long)th->thread_id, (unsigned long long)th->written_end,
                             (unsigned long long)th->events, (unsigned long long)(th->events - th->written_end));
    }
}

typedef struct books_tally {
    const evgen_reader *rd;
    uint64_t *written; /* by thread index */
    int unknown;       /* an entry with events of a thread the walk did not meet */
} books_tally;

static int tally_end_entry(void *ctx, const evgen_wire_end_thread *t)
{
    books_tally *bt = ctx;
    size_t ti = evgen_rd_thread_find(bt->rd, t->thread_id);
    if (ti == RD_NONE)
        bt->unknown |= t->written != 0;
    else
        bt->written[ti] += t->written;
    return 0;
}

int evgen_rd_walk_matches_books(const evgen_reader *rd, const rd_evtrace *et)
{
    frame f;
    if (et->tail == UINT64_MAX || et->tail >= rd->size || check_frame(rd, et->tail, &f) != FRAME_OK ||
        f.bh.type != EVGEN_WIRE_BLOCK_END || !evgen_wire_block_header_events_fields_zero(&f.bh))
        return 0;
    books_tally bt = {rd, calloc(rd->n_threads + 1, sizeof *bt.written), 0};
    if (!bt.written)
        return 0;
    int same = evgen_wire_get_end(rd->data + f.offset + f.bh.header_size, f.bh.payload_size, tally_end_entry, &bt,
                                  NULL) == 0 &&
               !bt.unknown;
    for (size_t t = 0; same && t < rd->n_threads; t++)
        same = bt.written[t] == rd->threads[t].events;
    free(bt.written);
    return same;
}

/* ---- the scan ----------------------------------------------------------------------------- */

static const char *frame_problem(frame_kind k, const frame *f, char *buf, size_t size)
{
    switch (k) {
    case FRAME_MAGIC:
        return "bad block magic (not \"EVBK\")";
    case FRAME_HSIZE:
        snprintf(buf, size, "impossible block header size %u", f->bh.header_size);
        return buf;
    case FRAME_PAST_END:
        snprintf(buf, size, "impossible block size: %u + %u bytes run past the end of the file", f->bh.header_size,
                 f->bh.payload_size);
        return buf;
    case FRAME_CRC:
        snprintf(buf, size, "block checksum mismatch (stored 0x%08x, computed 0x%08x)", f->bh.crc, f->crc);
        return buf;
    case FRAME_OK:
    case FRAME_SHORT:
        break;
    }
    return "bad block";
}

int evgen_rd_scan_eager(evgen_reader *rd, rd_evtrace *et, uint64_t off)
{
    while (off < rd->size && !rd->oom) {
        frame f;
        frame_kind k = check_frame(rd, off, &f);
        if (k == FRAME_OK) {
            block(rd, et, &f);
            off += (uint64_t)f.bh.header_size + f.bh.payload_size;
            continue;
        }
        if (k == FRAME_SHORT) {
            torn_tail(rd, off, "a block header");
            return 0;
        }
        uint64_t torn;
        uint64_t next = resync(rd, off + 1, &torn);
        if (k == FRAME_PAST_END && next == rd->size) {
            torn_tail(rd, off, "a block");
            return 0;
        }
        char buf[160];
        const char *what = frame_problem(k, &f, buf, sizeof buf);
        if (next < rd->size)
            evgen_rd_problem(rd, off, "%s: skipped %llu bytes to the next good block at offset %llu", what,
                             (unsigned long long)(next - off), (unsigned long long)next);
        else
            evgen_rd_problem(rd, off, "%s: no good block after it", what);
        if (next == rd->size && torn != UINT64_MAX) {
            torn_tail(rd, torn, "a block");
            return 0;
        }
        off = next;
    }
    return !rd->oom;
}

void evgen_rd_scan_final(evgen_reader *rd, rd_evtrace *et)
{
    if (!rd->has_end && rd->status != EVGEN_READ_TRUNCATED && !rd->oom) {
        evgen_rd_problem(rd, rd->size, "no end block: the session was not closed (the trace may be incomplete)");
        rd->status = EVGEN_READ_TRUNCATED;
        rd->truncated_at = rd->size;
    }
    if (rd->has_end && !rd->oom)
        check_books(rd, et);
}

/* ---- the walk and lazy verification ------------------------------------------------------- */

/* Verifies every UNVERIFIED block before the walk goes past a block it must read in full: 1 if a
 * bad one made the eager scan take over the rest of the file (the walk is over), else 0. */
static int verify_pending(evgen_reader *rd, rd_evtrace *et)
{
    for (size_t b = 0; b < et->n_blocks && !rd->oom; b++) {
        if (et->blocks[b].state != RD_BLOCK_UNVERIFIED)
            continue;
        evgen_rd_verify_block(rd, et, b);
        if (et->tail == UINT64_MAX)
            return 1;
    }
    return 0;
}

int evgen_rd_evtrace_eager_open;

/* The block header at `off` for the walk (the file holds its 48 bytes there): a mapped file's read
 * with pread into `buf`, not through the mapping; a trace in memory's where it lies. A first touch
 * of a mapped page maps the whole folio around it (a 256 KiB block's, on a file system with large
 * folios): through the mapping the walk would take every page fault of the read on the reader's
 * thread at open, where pread leaves them to the verifier thread, which touches every page first
 * on another core. NULL if pread fails (the walk then stops as at a bad header). */
static const uint8_t *walk_header(const evgen_reader *rd, uint64_t off, uint8_t buf[EVGEN_WIRE_BLOCK_HEADER_SIZE])
{
    if (rd->fd < 0)
        return rd->data + off;
    return pread(rd->fd, buf, EVGEN_WIRE_BLOCK_HEADER_SIZE, (off_t)off) == EVGEN_WIRE_BLOCK_HEADER_SIZE ? buf : NULL;
}

void evgen_rd_scan(evgen_reader *rd, rd_evtrace *et, uint64_t off)
{
    et->tail = UINT64_MAX;
    if (evgen_rd_evtrace_eager_open) { /* the reference: every block checked at open */
        et->final_checks = evgen_rd_scan_eager(rd, et, off);
        return;
    }
    while (off < rd->size && !rd->oom) {
        uint64_t avail = rd->size - off;
        frame f;
        f.offset = off;
        uint8_t buf[EVGEN_WIRE_BLOCK_HEADER_SIZE];
        const uint8_t *header = avail >= EVGEN_WIRE_BLOCK_HEADER_SIZE ? walk_header(rd, off, buf) : NULL;
        if (header && memcmp(header, EVGEN_WIRE_BLOCK_MAGIC, EVGEN_WIRE_BLOCK_MAGIC_SIZE) == 0) {
            evgen_wire_get_block_header(header, &f.bh);
            uint64_t end = (uint64_t)f.bh.header_size + f.bh.payload_size;
            if (evgen_wire_block_header_is_written_form(&f.bh) && end <= avail) {
                if (f.bh.type == EVGEN_WIRE_BLOCK_EVENTS) {
                    events_block(rd, et, &f, RD_BLOCK_UNVERIFIED);
                    off += end;
                    continue;
                }
                if (f.bh.type == EVGEN_WIRE_BLOCK_END && end == avail) {
                    et->tail = off; /* read with the books, once every block is verified */
                    return;
                }
                if (f.bh.type == EVGEN_WIRE_BLOCK_METADATA) {
                    et->tail = off;
                    if (verify_pending(rd, et))
                        return;
                    et->tail = UINT64_MAX;
                    if (check_frame(rd, off, &f) == FRAME_OK) {
                        metadata_block(rd, et, &f);
                        off += end;
                        continue;
                    }
                }
            }
        }
        /* A header a writer does not write, or a bad metadata block: the eager scan from here. */
        et->tail = off;
        if (verify_pending(rd, et))
            return;
        et->final_checks = evgen_rd_scan_eager(rd, et, off);
        et->tail = UINT64_MAX;
        return;
    }
    et->tail = off; /* the file's end: the end-of-file checks when the books are */
}

/* The eager scan met block `b`'s frame and found it bad or its records wrong: its problems, and the
 * scan goes on where the eager scan would (rd->size: nowhere). */
static uint64_t fail_block(evgen_reader *rd, rd_evtrace *et, size_t b, frame_kind k, const frame *f, uint64_t *torn)
{
    uint64_t off = et->blocks[b].offset;
    *torn = UINT64_MAX;
    if (k == FRAME_OK) { /* the records: the eager scan skipped the block and went on after it */
        check_records(rd, et, f, f->bh.event_count, 1);
        return off + f->bh.header_size + f->bh.payload_size;
    }
    uint64_t next = resync(rd, off + 1, torn);
    char buf[160];
    const char *what = frame_problem(k, f, buf, sizeof buf);
    if (next < rd->size)
        evgen_rd_problem(rd, off, "%s: skipped %llu bytes to the next good block at offset %llu", what,
                         (unsigned long long)(next - off), (unsigned long long)next);
    else
        evgen_rd_problem(rd, off, "%s: no good block after it", what);
    return next;
}

int evgen_rd_block_checks_out(evgen_reader *rd, const rd_evtrace *et, size_t b)
{
    const rd_block *blk = &et->blocks[b];
    frame f;
    /* The frame is decoded anew from the mapping: it must be the one the walk indexed. */
    return check_frame(rd, blk->offset, &f) == FRAME_OK && blk->payload == blk->offset + f.bh.header_size &&
           blk->size == f.bh.payload_size && blk->count == f.bh.event_count && blk->base_ticks == f.bh.base_ticks &&
           check_records(rd, et, &f, blk->count, 0) == 0;
}

int evgen_rd_verify_block(evgen_reader *rd, rd_evtrace *et, size_t b)
{
    rd_block *blk = &et->blocks[b];
    if (blk->state != RD_BLOCK_UNVERIFIED)
        return blk->state;
    int verdict = evgen_rd_verifier_claim(et, b);
    if (verdict == RD_BLOCK_UNVERIFIED) { /* ours to check */
        int ok = evgen_rd_block_checks_out(rd, et, b);
        evgen_rd_verifier_publish(et, b, ok);
        verdict = ok ? RD_BLOCK_GOOD : RD_BLOCK_BAD;
    }
    if (verdict == RD_BLOCK_GOOD) {
        blk->state = RD_BLOCK_GOOD;
        return RD_BLOCK_GOOD;
    }
    /* Bad: what follows changes the blocks, the counts, maybe the types; the verifier stops. */
    evgen_rd_verifier_stop(et);
    blk = &et->blocks[b];
    frame f;
    frame_kind k = check_frame(rd, blk->offset, &f);
    /* The eager scan would have met every block before it first. */
    for (size_t i = 0; i < b; i++)
        if (et->blocks[i].state == RD_BLOCK_UNVERIFIED) {
            evgen_rd_verify_block(rd, et, i);
            if (b >= et->n_blocks || et->blocks[b].offset != f.offset || et->blocks[b].state != RD_BLOCK_UNVERIFIED)
                return b < et->n_blocks ? et->blocks[b].state : RD_BLOCK_BAD; /* a rescan replaced it */
        }
    blk = &et->blocks[b];
    blk->state = RD_BLOCK_BAD;
    et->dirty = 1;
    rd->threads[blk->thread].events -= blk->count;
    rd->threads[blk->thread].dropped -= blk->dropped;
    rd->total_events -= blk->count;
    uint64_t torn;
    uint64_t next = fail_block(rd, et, b, k, &f, &torn);
    uint64_t walked = f.offset + f.bh.header_size + f.bh.payload_size; /* where the walk went on */
    if (next == walked && next < rd->size)
        return RD_BLOCK_BAD; /* the same blocks follow: nothing else changes */
    /* The walk went astray (a corrupt payload_size that met a header by chance, a good block
     * inside this one's payload): what it took after this block goes, and the eager scan runs from
     * where it would have gone on. */
    et->n_blocks = b + 1;
    et->list_gen++; /* a time-order merge's cursors take their next blocks anew */
    evgen_rd_recount(rd, et);
    et->tail = UINT64_MAX;
    if (next == rd->size && torn != UINT64_MAX) {
        torn_tail(rd, torn, "a block");
        et->final_checks = 0;
    } else {
        et->final_checks = evgen_rd_scan_eager(rd, et, next);
    }
    return RD_BLOCK_BAD;
}
