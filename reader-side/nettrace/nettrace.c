/* nettrace.c — EventPipe .nettrace files, read in one pass at open: the stream header, the trace
 * object, then every block — FastSerialization objects in V4/V5, block headers in V6 — with its
 * events (header compression and all) located into an index, stacks kept per sequence-point
 * region, V6 thread indexes resolved, and sequence-number gaps counted as lost events. A block
 * that does not decode is reported with its offset and skipped; the events before the problem
 * are kept. The format: docs/nettrace.md, after microsoft/perfview's EventPipe format documents. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nettrace.h"

static const uint8_t nt_magic[8] = {'N', 'e', 't', 't', 'r', 'a', 'c', 'e'};
static const char fast_serialization[] = "!FastSerialization.1";

enum { TAG_NULL = 1, TAG_BEGIN_PRIVATE = 5, TAG_END = 6 };
enum { V6_END = 0, V6_TRACE = 1, V6_EVENT = 2, V6_METADATA = 3, V6_SEQUENCE_POINT = 4, V6_STACK = 5, V6_THREAD = 6,
       V6_LABEL_LIST = 8 };
enum { HDR_METADATA_ID = 1, HDR_CAPTURE = 2, HDR_THREAD = 4, HDR_STACK = 8, HDR_ACTIVITY = 16, HDR_RELATED = 32,
       HDR_SORTED = 64, HDR_SIZE = 128 };

static int is_nettrace(const uint8_t *data, size_t size)
{
    return size >= 8 && memcmp(data, nt_magic, 8) == 0;
}

/* ---- the index ------------------------------------------------------------------------------- */

typedef struct scan {
    evgen_reader *rd;
    rd_nettrace *nt;
    int oom;
    uint64_t last_tid[2]; /* the last two threads looked up, and their indexes + 1 */
    size_t last_index[2];
} scan;

/* evgen_rd_thread_index with a two-entry cache: an event's thread and capture thread repeat. */
static size_t thread_at(scan *s, uint64_t tid)
{
    for (int k = 0; k < 2; k++)
        if (s->last_index[k] && s->last_tid[k] == tid)
            return s->last_index[k] - 1;
    size_t t = evgen_rd_thread_index(s->rd, tid);
    if (t != RD_NONE) {
        s->last_tid[1] = s->last_tid[0];
        s->last_index[1] = s->last_index[0];
        s->last_tid[0] = tid;
        s->last_index[0] = t + 1;
    }
    return t;
}

static uint64_t off_of(const scan *s, const uint8_t *p)
{
    return (uint64_t)(p - s->rd->data);
}

static rd_nt_event *new_event(scan *s)
{
    rd_nettrace *nt = s->nt;
    if (nt->n_events >= UINT32_MAX ||
        evgen_rd_grow((void **)&nt->events, &nt->cap_events, nt->n_events + 1, sizeof *nt->events) != 0) {
        s->oom = 1;
        return NULL;
    }
    rd_nt_event *e = &nt->events[nt->n_events];
    memset(e, 0, sizeof *e);
    return e;
}

/* The capture thread's sequence check: events lost between its last event and this one. */
static void check_sequence(scan *s, uint64_t capture_thread, uint32_t sequence, int from_sequence_point)
{
    evgen_reader *rd = s->rd;
    rd_nettrace *nt = s->nt;
    size_t t = thread_at(s, capture_thread);
    if (t == RD_NONE || evgen_rd_grow((void **)&nt->sequences, &nt->cap_sequences, rd->n_threads,
                                      sizeof *nt->sequences) != 0) {
        s->oom = 1;
        return;
    }
    for (; nt->n_sequences < rd->n_threads; nt->n_sequences++)
        memset(&nt->sequences[nt->n_sequences], 0, sizeof *nt->sequences);
    rd_nt_sequence *q = &nt->sequences[t];
    if (!q->seen) {
        q->seen = 1;
        q->last = sequence;
        return;
    }
    if (from_sequence_point) {
        /* A lower bound of what the thread attempted: more than it wrote means lost events. */
        if (sequence > q->last && sequence - q->last < (1u << 31)) {
            rd->threads[t].dropped += sequence - q->last;
            q->last = sequence;
        }
        return;
    }
    uint32_t gap = sequence - q->last - 1; /* wraps after 2^32 - 1, as the numbers do */
    if (sequence != 1 && gap != 0 && gap < (1u << 31)) /* 1: a new thread reusing the id */
        rd->threads[t].dropped += gap;
    q->last = sequence;
}

static uint64_t os_thread(const rd_nettrace *nt, uint64_t id)
{
    if (nt->version < 6)
        return id;
    for (size_t i = nt->n_thread_refs; i-- > 0;)
        if (nt->thread_refs[i].index == id)
            return nt->thread_refs[i].os_thread_id;
    return id; /* an index no thread block defined: the index stands for itself */
}

static uint32_t find_stack(const rd_nettrace *nt, uint32_t id)
{
    if (id == 0)
        return 0;
    size_t first = nt->region_stacks, n = nt->n_stacks - first;
    if (n && id >= nt->stacks[first].id && id - nt->stacks[first].id < n &&
        nt->stacks[first + (id - nt->stacks[first].id)].id == id) /* ids are given in order: the usual case */
        return (uint32_t)(first + (id - nt->stacks[first].id) + 1);
    for (size_t i = nt->n_stacks; i-- > first;)
        if (nt->stacks[i].id == id)
            return (uint32_t)(i + 1);
    return 0;
}

/* ---- event blocks ---------------------------------------------------------------------------- */

/* The header of the previous event in the block: what compressed headers are relative to. */
typedef struct prev_header {
    uint32_t meta, sequence, stack, size, processor, label_list;
    uint64_t thread, capture_thread, ticks, activity;
} prev_header;

/* V6: the activity id of label list `id` of the current region (file offset), or 0. */
static uint64_t find_label_activity(const rd_nettrace *nt, uint32_t id)
{
    if (id == 0)
        return 0;
    for (size_t i = nt->n_labels; i-- > nt->region_labels;)
        if (nt->labels[i].id == id)
            return nt->labels[i].activity;
    return 0;
}

/* Decodes one event (or, in a V4/V5 metadata block, one metadata record) at c->p. Returns 0 with
 * `out` filled, or -1 if it does not decode within the block. */
static int read_blob(const scan *s, rd_ncur *c, int compressed, prev_header *h, const uint8_t **payload, int *sorted)
{
    const rd_nettrace *nt = s->nt;
    if (compressed) {
        uint8_t flags = (uint8_t)rd_nt_take(c, 1);
        if (flags & HDR_METADATA_ID)
            h->meta = (uint32_t)rd_nt_take_varint(c);
        if (flags & HDR_CAPTURE) {
            h->sequence += (uint32_t)rd_nt_take_varint(c) + 1;
            h->capture_thread = rd_nt_take_varint(c);
            h->processor = (uint32_t)rd_nt_take_varint(c);
        } else if (h->meta != 0) {
            h->sequence++;
        }
        if (flags & HDR_THREAD)
            h->thread = rd_nt_take_varint(c);
        if (flags & HDR_STACK)
            h->stack = (uint32_t)rd_nt_take_varint(c);
        h->ticks += rd_nt_take_varint(c);
        if (nt->version >= 6) {
            if (flags & HDR_ACTIVITY) /* V6: a label list id */
                h->label_list = (uint32_t)rd_nt_take_varint(c);
            h->activity = find_label_activity(nt, h->label_list);
        } else {
            if (flags & HDR_ACTIVITY) {
                h->activity = off_of(s, c->p);
                rd_nt_skip(c, 16);
            }
            if (flags & HDR_RELATED)
                rd_nt_skip(c, 16); /* stays beside the activity id: only the first is located */
        }
        *sorted = (flags & HDR_SORTED) != 0;
        if (flags & HDR_SIZE)
            h->size = (uint32_t)rd_nt_take_varint(c);
        if (c->bad)
            return -1;
        *payload = c->p;
        rd_nt_skip(c, h->size);
        return c->bad ? -1 : 0;
    }
    uint32_t event_size = (uint32_t)rd_nt_take(c, 4);
    if (c->bad || event_size > (size_t)(c->end - c->p))
        return -1;
    const uint8_t *blob_end = c->p + event_size;
    rd_ncur b = {c->p, blob_end, 0};
    uint32_t meta = (uint32_t)rd_nt_take(&b, 4);
    h->meta = meta & 0x7FFFFFFFu;
    *sorted = (meta >> 31) != 0;
    h->sequence = (uint32_t)rd_nt_take(&b, 4);
    h->thread = rd_nt_take(&b, 8);
    h->capture_thread = rd_nt_take(&b, 8);
    h->processor = (uint32_t)rd_nt_take(&b, 4);
    h->stack = (uint32_t)rd_nt_take(&b, 4);
    h->ticks = rd_nt_take(&b, 8);
    if (nt->version >= 6) {
        h->label_list = (uint32_t)rd_nt_take(&b, 4);
        h->activity = find_label_activity(nt, h->label_list);
    } else {
        h->activity = off_of(s, b.p);
        rd_nt_skip(&b, 32);
    }
    h->size = (uint32_t)rd_nt_take(&b, 4);
    if (b.bad || h->size > (size_t)(blob_end - b.p))
        return -1;
    *payload = b.p;
    /* V4/V5 pad each event to a 4-byte file offset; the padding may be counted in EventSize. */
    const uint8_t *next = blob_end;
    if (nt->version < 6) {
        uint64_t o = off_of(s, b.p + h->size);
        uint64_t aligned = (o + 3) & ~(uint64_t)3;
        if (off_of(s, blob_end) < aligned)
            next = s->rd->data + (aligned <= off_of(s, c->end) ? aligned : off_of(s, c->end));
    }
    c->p = next;
    return 0;
}

/* The events of an EventBlock (is_metadata 0) or the records of a V4/V5 MetadataBlock. */
static void read_event_block(scan *s, const uint8_t *p, const uint8_t *end, int is_metadata)
{
    evgen_reader *rd = s->rd;
    rd_nettrace *nt = s->nt;
    rd_ncur c = {p, end, 0};
    uint16_t header_size = (uint16_t)rd_nt_take(&c, 2), flags = (uint16_t)rd_nt_take(&c, 2);
    if (c.bad || header_size < 4 || header_size > (size_t)(end - p)) {
        evgen_rd_problem(rd, off_of(s, p), "bad %s block header (size %u)", is_metadata ? "metadata" : "event",
                         header_size);
        return;
    }
    c.p = p + header_size;
    prev_header h;
    memset(&h, 0, sizeof h);
    uint64_t undefined = 0, undefined_at = 0, unresolved = 0, unresolved_at = 0;
    uint32_t undefined_id = 0, unresolved_id = 0;
    const uint8_t *bad_at = NULL;
    while (c.p < end && !s->oom) {
        const uint8_t *at = c.p, *payload = NULL;
        int sorted = 0;
        if (read_blob(s, &c, flags & 1, &h, &payload, &sorted) != 0) {
            bad_at = at;
            break;
        }
        if (is_metadata) {
            char why[160];
            rd_nt_meta_record m;
            if (evgen_rd_nt_meta_v5(rd, payload, payload + h.size, &m, why, sizeof why) != 0)
                evgen_rd_problem(rd, off_of(s, payload), "bad metadata record: %s", why);
            else if (evgen_rd_nt_define(rd, &m, off_of(s, payload)) != 0)
                s->oom = 1;
            continue;
        }
        if (h.meta >= nt->n_metas || !nt->metas[h.meta].version) {
            /* One problem per block, at its first such event: a lost metadata block would
             * otherwise give one per event. */
            if (!undefined++) {
                undefined_at = off_of(s, at);
                undefined_id = h.meta;
            }
            continue;
        }
        rd_nt_event *e = new_event(s);
        if (!e)
            return;
        e->payload = off_of(s, payload);
        e->offset = off_of(s, at);
        e->ticks = h.ticks;
        uint64_t capture = os_thread(nt, h.capture_thread);
        /* V6 leaves the thread out when it is the capture thread. */
        e->thread_id = nt->version >= 6 && h.thread == 0 ? capture : os_thread(nt, h.thread);
        e->capture_thread_id = capture;
        e->activity = h.activity;
        e->size = h.size;
        e->meta = h.meta;
        e->sequence = h.sequence;
        e->stack = find_stack(nt, h.stack);
        if (h.stack && !e->stack && !unresolved++) { /* a stack no stack block of its region holds */
            unresolved_at = off_of(s, at);
            unresolved_id = h.stack;
        }
        nt->n_events++;
        size_t t = thread_at(s, e->thread_id);
        if (t == RD_NONE) {
            s->oom = 1;
            return;
        }
        rd->threads[t].events++;
        check_sequence(s, capture, h.sequence, 0);
    }
    /* In file order: the undefined events all come before the point where decoding stopped. */
    if (undefined)
        evgen_rd_problem(rd, undefined_at, "%llu event%s with undefined metadata ids (the first: %u) skipped",
                         (unsigned long long)undefined, undefined == 1 ? "" : "s", undefined_id);
    if (unresolved)
        evgen_rd_problem(rd, unresolved_at,
                         "%llu event%s name%s a stack id no stack block of the region holds (the first: %u); "
                         "read without a stack",
                         (unsigned long long)unresolved, unresolved == 1 ? "" : "s", unresolved == 1 ? "s" : "",
                         unresolved_id);
    if (bad_at)
        evgen_rd_problem(rd, off_of(s, bad_at), "%s does not decode within its block; the rest of the block is skipped",
                         is_metadata ? "a metadata record" : "an event header");
}

/* ---- the other blocks ------------------------------------------------------------------------ */

static void read_stack_block(scan *s, const uint8_t *p, const uint8_t *end)
{
    rd_nettrace *nt = s->nt;
    rd_ncur c = {p, end, 0};
    uint32_t first = (uint32_t)rd_nt_take(&c, 4), count = (uint32_t)rd_nt_take(&c, 4);
    for (uint32_t i = 0; i < count && !c.bad && !s->oom; i++) {
        uint32_t size = (uint32_t)rd_nt_take(&c, 4);
        const uint8_t *ips = c.p;
        rd_nt_skip(&c, size);
        if (c.bad)
            break;
        if (evgen_rd_grow((void **)&nt->stacks, &nt->cap_stacks, nt->n_stacks + 1, sizeof *nt->stacks) != 0) {
            s->oom = 1;
            return;
        }
        rd_nt_stack *st = &nt->stacks[nt->n_stacks++];
        st->offset = off_of(s, ips);
        st->id = first + i;
        st->depth = size / s->rd->header.pointer_size;
    }
    if (c.bad)
        evgen_rd_problem(s->rd, off_of(s, p), "stack block does not decode; the stacks after the problem are lost");
}

/* V6 label lists: the activity id of each (the other labels are read past). */
static void read_v6_label_block(scan *s, const uint8_t *p, const uint8_t *end)
{
    rd_nettrace *nt = s->nt;
    rd_ncur c = {p, end, 0};
    uint32_t first = (uint32_t)rd_nt_take(&c, 4), count = (uint32_t)rd_nt_take(&c, 4);
    for (uint32_t i = 0; i < count && !c.bad && !s->oom; i++) {
        uint64_t activity = 0;
        for (int last = 0; !last && !c.bad;) {
            uint8_t kind = (uint8_t)rd_nt_take(&c, 1);
            last = (kind & 0x80) != 0;
            switch (kind & 0x7F) {
            case 1: /* activity id */
                activity = off_of(s, c.p);
                rd_nt_skip(&c, 16);
                break;
            case 2: case 3: rd_nt_skip(&c, 16); break;     /* related activity id, trace id */
            case 4: case 8: rd_nt_skip(&c, 8); break;      /* span id, keywords */
            case 7: case 9: case 10: rd_nt_skip(&c, 1); break; /* opcode, level, version */
            case 5: case 6:                          /* key, then a string or a varint value */
                rd_nt_skip(&c, (size_t)rd_nt_take_varint(&c));
                if ((kind & 0x7F) == 5)
                    rd_nt_skip(&c, (size_t)rd_nt_take_varint(&c));
                else
                    rd_nt_take_varint(&c);
                break;
            default:
                c.bad = 1; /* a label this reader cannot size: the rest of the block is lost */
                break;
            }
        }
        if (c.bad)
            break;
        if (evgen_rd_grow((void **)&nt->labels, &nt->cap_labels, nt->n_labels + 1, sizeof *nt->labels) != 0) {
            s->oom = 1;
            return;
        }
        nt->labels[nt->n_labels].id = first + i;
        nt->labels[nt->n_labels++].activity = activity;
    }
    if (c.bad)
        evgen_rd_problem(s->rd, off_of(s, p), "label list block does not decode; its lists after the problem are lost");
}

static void read_sequence_point(scan *s, const uint8_t *p, const uint8_t *end)
{
    rd_nettrace *nt = s->nt;
    rd_ncur c = {p, end, 0};
    rd_nt_take(&c, 8); /* its timestamp: the events before it are before it */
    if (nt->version >= 6)
        rd_nt_take(&c, 4); /* flags: the caches it flushes are the reader's business */
    uint32_t count = (uint32_t)rd_nt_take(&c, 4);
    for (uint32_t i = 0; i < count && !c.bad && !s->oom; i++) {
        uint64_t thread = nt->version >= 6 ? rd_nt_take_varint(&c) : rd_nt_take(&c, 8);
        uint32_t sequence = (uint32_t)(nt->version >= 6 ? rd_nt_take_varint(&c) : rd_nt_take(&c, 4));
        if (!c.bad)
            check_sequence(s, os_thread(nt, thread), sequence, 1);
    }
    if (c.bad)
        evgen_rd_problem(s->rd, off_of(s, p), "sequence point block does not decode");
    /* A new region: stacks and label lists before it may no longer be referenced, events after it
     * are later. */
    nt->region_stacks = nt->n_stacks;
    nt->region_labels = nt->n_labels;
    if (nt->n_events && (!nt->n_regions || nt->regions[nt->n_regions - 1] != nt->n_events)) {
        if (evgen_rd_grow((void **)&nt->regions, &nt->cap_regions, nt->n_regions + 1, sizeof *nt->regions) != 0) {
            s->oom = 1;
            return;
        }
        nt->regions[nt->n_regions++] = nt->n_events;
    }
}

static void read_v6_metadata_block(scan *s, const uint8_t *p, const uint8_t *end)
{
    rd_ncur c = {p, end, 0};
    uint16_t header = (uint16_t)rd_nt_take(&c, 2);
    rd_nt_skip(&c, header);
    while (!c.bad && c.p < end && !s->oom) {
        const uint8_t *at = c.p;
        uint16_t size = (uint16_t)rd_nt_take(&c, 2);
        const uint8_t *row = c.p;
        rd_nt_skip(&c, size);
        if (c.bad)
            break;
        char why[160];
        rd_nt_meta_record m;
        if (evgen_rd_nt_meta_v6(s->rd, row, row + size, &m, why, sizeof why) != 0)
            evgen_rd_problem(s->rd, off_of(s, at), "bad metadata row: %s", why);
        else if (evgen_rd_nt_define(s->rd, &m, off_of(s, at)) != 0)
            s->oom = 1;
    }
    if (c.bad)
        evgen_rd_problem(s->rd, off_of(s, p), "metadata block does not decode");
}

static void read_v6_thread_block(scan *s, const uint8_t *p, const uint8_t *end)
{
    rd_nettrace *nt = s->nt;
    rd_ncur c = {p, end, 0};
    while (!c.bad && c.p < end && !s->oom) {
        uint16_t size = (uint16_t)rd_nt_take(&c, 2);
        if (c.bad || size > (size_t)(end - c.p))
            break;
        rd_ncur row = {c.p, c.p + size, 0};
        c.p += size;
        uint64_t index = rd_nt_take_varint(&row), tid = index;
        while (!row.bad && row.p < row.end) {
            uint8_t kind = (uint8_t)rd_nt_take(&row, 1);
            if (kind == 1) { /* name */
                uint64_t n = rd_nt_take_varint(&row);
                rd_nt_skip(&row, (size_t)n);
            } else if (kind == 2) { /* process id */
                rd_nt_take_varint(&row);
            } else if (kind == 3) {
                tid = rd_nt_take_varint(&row);
            } else if (kind == 4) { /* key and value */
                for (int k = 0; k < 2; k++) {
                    uint64_t n = rd_nt_take_varint(&row);
                    rd_nt_skip(&row, (size_t)n);
                }
            } else {
                break; /* a kind this reader does not know: the rest of the row is its */
            }
        }
        if (row.bad)
            break;
        if (evgen_rd_grow((void **)&nt->thread_refs, &nt->cap_thread_refs, nt->n_thread_refs + 1,
                          sizeof *nt->thread_refs) != 0) {
            s->oom = 1;
            return;
        }
        nt->thread_refs[nt->n_thread_refs].index = index;
        nt->thread_refs[nt->n_thread_refs++].os_thread_id = tid;
    }
    if (c.bad)
        evgen_rd_problem(s->rd, off_of(s, p), "thread block does not decode");
}

/* ---- the trace object and the stream --------------------------------------------------------- */

/* SyncTimeUTC (8 int16: year, month, day of week, day, hour, minute, second, ms) in ns since 1970. */
static uint64_t utc_ns(rd_ncur *c)
{
    int64_t f[8];
    for (int i = 0; i < 8; i++)
        f[i] = (int16_t)rd_nt_take(c, 2);
    int64_t y = f[0], m = f[1], d = f[3];
    if (y < 1970 || m < 1 || m > 12 || d < 1 || d > 31)
        return 0;
    /* Days from civil (Howard Hinnant's algorithm). */
    y -= m <= 2;
    int64_t era = y / 400, yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t days = era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
    int64_t s = days * 86400 + f[4] * 3600 + f[5] * 60 + f[6];
    return s < 0 ? 0 : (uint64_t)s * 1000000000u + (uint64_t)f[7] * 1000000u;
}

static int read_trace(scan *s, rd_ncur *c, char **error, uint64_t at)
{
    evgen_trace_header *h = &s->rd->header;
    h->start_unix_ns = utc_ns(c);
    h->start_ticks = rd_nt_take(c, 8);
    h->clock_frequency = rd_nt_take(c, 8);
    h->pointer_size = (uint8_t)rd_nt_take(c, 4);
    if (s->nt->version < 6) {
        h->process_id = (uint32_t)rd_nt_take(c, 4);
        h->cpu_count = (uint32_t)rd_nt_take(c, 4);
        rd_nt_take(c, 4); /* expected CPU sampling rate */
    } else {
        uint32_t n = (uint32_t)rd_nt_take(c, 4);
        for (uint32_t i = 0; i < n && !c->bad; i++) {
            uint64_t kn = rd_nt_take_varint(c);
            const uint8_t *k = c->p;
            rd_nt_skip(c, (size_t)kn);
            uint64_t vn = rd_nt_take_varint(c);
            const uint8_t *v = c->p;
            rd_nt_skip(c, (size_t)vn);
            if (c->bad || vn > 20)
                continue;
            char num[21];
            memcpy(num, v, (size_t)vn);
            num[vn] = '\0';
            if (kn == 9 && memcmp(k, "ProcessId", 9) == 0)
                h->process_id = (uint32_t)strtoul(num, NULL, 10);
            else if (kn == 19 && memcmp(k, "HardwareThreadCount", 19) == 0)
                h->cpu_count = (uint32_t)strtoul(num, NULL, 10);
        }
    }
    if (c->bad) {
        *error = evgen_rd_format("truncated nettrace: the file ends inside the trace object at offset %llu",
                                 (unsigned long long)at);
        return -1;
    }
    if (h->pointer_size != 4 && h->pointer_size != 8) {
        *error = evgen_rd_format("bad pointer size %u in the trace object at offset %llu", h->pointer_size,
                                 (unsigned long long)at);
        return -1;
    }
    if (h->clock_frequency == 0) {
        *error = evgen_rd_format("clock frequency 0 in the trace object at offset %llu", (unsigned long long)at);
        return -1;
    }
    return 0;
}

/* Dispatches a block's content by kind (V6 numbering; V4/V5 names are mapped to it). */
static void read_block(scan *s, int kind, const uint8_t *p, const uint8_t *end)
{
    switch (kind) {
    case V6_EVENT:
        read_event_block(s, p, end, 0);
        break;
    case V6_METADATA:
        if (s->nt->version >= 6)
            read_v6_metadata_block(s, p, end);
        else
            read_event_block(s, p, end, 1);
        break;
    case V6_STACK:
        read_stack_block(s, p, end);
        break;
    case V6_SEQUENCE_POINT:
        read_sequence_point(s, p, end);
        break;
    case V6_THREAD:
        read_v6_thread_block(s, p, end);
        break;
    case V6_LABEL_LIST:
        if (s->nt->version >= 6)
            read_v6_label_block(s, p, end);
        break;
    default:
        break; /* kinds a reader skips: removed threads, newer ones */
    }
}

static void truncated(scan *s, uint64_t at, const char *what)
{
    evgen_reader *rd = s->rd;
    evgen_rd_problem(rd, at, "%s", what);
    rd->status = EVGEN_READ_TRUNCATED;
    rd->truncated_at = at;
}

/* V4/V5: FastSerialization objects until the NullReference tag. */
static void read_objects(scan *s, const uint8_t *p)
{
    evgen_reader *rd = s->rd;
    const uint8_t *end = rd->data + rd->size;
    for (;;) {
        if (s->oom)
            return;
        if (p >= end) {
            truncated(s, off_of(s, p), "the file ends without the end-of-stream tag");
            return;
        }
        const uint8_t *obj = p;
        if (*p == TAG_NULL) {
            rd->has_end = 1;
            if (p + 1 != end)
                evgen_rd_problem(rd, off_of(s, p + 1), "%zu bytes after the end-of-stream tag",
                                 (size_t)(end - p - 1));
            return;
        }
        rd_ncur c = {p, end, 0};
        uint8_t t0 = (uint8_t)rd_nt_take(&c, 1), t1 = (uint8_t)rd_nt_take(&c, 1), t2 = (uint8_t)rd_nt_take(&c, 1);
        rd_nt_take(&c, 4); /* the type's version */
        rd_nt_take(&c, 4); /* the oldest reader version it needs */
        uint32_t name_len = (uint32_t)rd_nt_take(&c, 4);
        const uint8_t *name = c.p;
        rd_nt_skip(&c, name_len);
        uint8_t t3 = (uint8_t)rd_nt_take(&c, 1);
        uint32_t block_size = (uint32_t)rd_nt_take(&c, 4);
        if (c.bad) {
            truncated(s, off_of(s, obj), "the file ends inside an object header");
            return;
        }
        if (t0 != TAG_BEGIN_PRIVATE || t1 != TAG_BEGIN_PRIVATE || t2 != TAG_NULL || t3 != TAG_END || name_len > 64) {
            evgen_rd_problem(rd, off_of(s, obj), "not an object header (tags %u %u %u); the rest of the file is unreadable",
                             t0, t1, t2);
            return;
        }
        int kind = -1;
        static const struct { const char *name; int kind; } kinds[] = {
            {"EventBlock", V6_EVENT}, {"MetadataBlock", V6_METADATA}, {"StackBlock", V6_STACK},
            {"SPBlock", V6_SEQUENCE_POINT}};
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
            if (strlen(kinds[k].name) == name_len && memcmp(name, kinds[k].name, name_len) == 0)
                kind = kinds[k].kind;
        /* The content starts at the next 4-byte file offset. */
        uint64_t content = (off_of(s, c.p) + 3) & ~(uint64_t)3;
        if (content > rd->size || block_size > rd->size - content) {
            /* Cut short: what is there is read, as far as it goes. */
            if (content < rd->size && kind == V6_EVENT)
                read_block(s, kind, rd->data + content, end);
            truncated(s, off_of(s, obj), "the file ends inside this block");
            return;
        }
        const uint8_t *body = rd->data + content, *body_end = body + block_size;
        if (kind < 0)
            evgen_rd_problem(rd, off_of(s, obj), "unknown object type '%.*s' skipped", (int)name_len, (const char *)name);
        else
            read_block(s, kind, body, body_end);
        if (body_end >= end) {
            truncated(s, off_of(s, body_end), "the file ends before the block's end tag");
            return;
        }
        if (*body_end != TAG_END) {
            evgen_rd_problem(rd, off_of(s, body_end), "missing end tag after the block; the rest of the file is unreadable");
            return;
        }
        p = body_end + 1;
    }
}

/* V6: blocks until the EndOfStream block. */
static void read_blocks(scan *s, const uint8_t *p)
{
    evgen_reader *rd = s->rd;
    const uint8_t *end = rd->data + rd->size;
    for (;;) {
        if (s->oom)
            return;
        if ((size_t)(end - p) < 4) {
            truncated(s, off_of(s, p), "the file ends without the end-of-stream block");
            return;
        }
        uint32_t x = evgen_wire_le32(p);
        uint32_t size = x & 0xFFFFFFu;
        int kind = (int)(x >> 24);
        const uint8_t *body = p + 4;
        if (kind == V6_END) {
            rd->has_end = 1;
            if (body + size != end)
                evgen_rd_problem(rd, off_of(s, body), "%zu bytes after the end-of-stream block", (size_t)(end - body));
            return;
        }
        if (size > (size_t)(end - body)) {
            if (kind == V6_EVENT)
                read_block(s, kind, body, end);
            truncated(s, off_of(s, p), "the file ends inside this block");
            return;
        }
        if (kind == V6_TRACE)
            evgen_rd_problem(rd, off_of(s, p), "a second trace block ignored");
        else
            read_block(s, kind, body, body + size);
        p = body + size;
    }
}

/* Reads the whole file into the reader's nettrace index, binding events to `options`' manifests
 * (format.h's open). */
static int open_nettrace(evgen_reader *rd, const evgen_reader_options *options, char **error)
{
    rd_nettrace *nt = calloc(1, sizeof *nt);
    if (!nt) {
        *error = evgen_rd_format("out of memory");
        return -1;
    }
    rd->format = nt;
    rd->header.container = EVGEN_CONTAINER_NETTRACE;
    rd->header.clock_kind = 3; /* QueryPerformanceCounter-style ticks at clock_frequency */
    scan s;
    memset(&s, 0, sizeof s);
    s.rd = rd;
    s.nt = nt;
    rd_ncur c = {rd->data + 8, rd->data + rd->size, 0};
    uint32_t first = (uint32_t)rd_nt_take(&c, 4);
    const uint8_t *objects;
    if (first == 0) {
        uint32_t major = (uint32_t)rd_nt_take(&c, 4);
        rd_nt_take(&c, 4); /* minor: changes a reader may ignore */
        if (c.bad) {
            *error = evgen_rd_format("truncated nettrace: the file ends inside the stream header at offset 8");
            return -1;
        }
        if (major != 6) {
            *error = evgen_rd_format("unsupported nettrace major version %u at offset 12 (this reader reads 4 to 6)",
                                     major);
            return -1;
        }
        nt->version = 6;
        uint32_t x = (uint32_t)rd_nt_take(&c, 4);
        if (c.bad || (x >> 24) != V6_TRACE || (x & 0xFFFFFFu) > (size_t)(c.end - c.p)) {
            *error = evgen_rd_format(c.bad ? "truncated nettrace: the file ends before the trace block at offset 20"
                                           : "the first block at offset 20 is not a whole trace block");
            return -1;
        }
        rd_ncur t = {c.p, c.p + (x & 0xFFFFFFu), 0};
        if (read_trace(&s, &t, error, 20) != 0)
            return -1;
        objects = t.end;
    } else {
        if (first != sizeof fast_serialization - 1 || c.bad || (size_t)(c.end - c.p) < first ||
            memcmp(c.p, fast_serialization, first) != 0) {
            *error = evgen_rd_format(c.bad || (size_t)(c.end - c.p) < sizeof fast_serialization - 1
                                         ? "truncated nettrace: the file ends inside the stream header at offset 8"
                                         : "not a nettrace stream: bad stream header at offset 8");
            return -1;
        }
        c.p += first;
        /* The trace object: 5 5 1 version minReader "Trace" 6 fields... 6 */
        const uint8_t *obj = c.p;
        uint8_t t0 = (uint8_t)rd_nt_take(&c, 1), t1 = (uint8_t)rd_nt_take(&c, 1), t2 = (uint8_t)rd_nt_take(&c, 1);
        uint32_t version = (uint32_t)rd_nt_take(&c, 4), min_reader = (uint32_t)rd_nt_take(&c, 4), n = (uint32_t)rd_nt_take(&c, 4);
        const uint8_t *name = c.p;
        rd_nt_skip(&c, n);
        uint8_t t3 = (uint8_t)rd_nt_take(&c, 1);
        uint64_t at = (uint64_t)(obj - rd->data);
        if (c.bad) {
            *error = evgen_rd_format("truncated nettrace: the file ends inside the trace object at offset %llu",
                                     (unsigned long long)at);
            return -1;
        }
        if (t0 != TAG_BEGIN_PRIVATE || t1 != TAG_BEGIN_PRIVATE || t2 != TAG_NULL || t3 != TAG_END || n != 5 ||
            memcmp(name, "Trace", 5) != 0) {
            *error = evgen_rd_format("not a nettrace stream: no trace object at offset %llu", (unsigned long long)at);
            return -1;
        }
        if (min_reader > 5 || version < 4) {
            *error = evgen_rd_format("unsupported nettrace version %u (needs a reader of version %u) at offset %llu; "
                                     "this reader reads 4 to 6",
                                     version, min_reader, (unsigned long long)at);
            return -1;
        }
        nt->version = version > 5 ? 5 : version;
        if (read_trace(&s, &c, error, at) != 0)
            return -1;
        if (rd_nt_take(&c, 1) != TAG_END || c.bad) {
            *error = evgen_rd_format(c.bad ? "truncated nettrace: the file ends inside the trace object at offset %llu"
                                           : "bad end tag of the trace object at offset %llu",
                                     (unsigned long long)(c.p - rd->data - (c.bad ? 0 : 1)));
            return -1;
        }
        objects = c.p;
    }
    rd->header.format_version = (uint16_t)nt->version;
    if (evgen_rd_load_manifests(rd, options, error) != 0)
        return -1;
    if (nt->version >= 6)
        read_blocks(&s, objects);
    else
        read_objects(&s, objects);
    if (s.oom)
        rd->oom = 1;
    rd->total_events = nt->n_events;
    return 0;
}

static void close_nettrace(evgen_reader *rd)
{
    rd_nettrace *nt = evgen_rd_nt(rd);
    if (!nt)
        return;
    free(nt->metas);
    free(nt->events);
    free(nt->regions);
    free(nt->stacks);
    free(nt->thread_refs);
    free(nt->labels);
    free(nt->sequences);
    free(nt->time_order);
    free(nt);
}

const evgen_rd_format_ops evgen_rd_nettrace_format = {
    is_nettrace, open_nettrace, evgen_rd_nt_rewind, evgen_rd_nt_next, close_nettrace, NULL, /* nothing left lazily */
    0, /* stacks, sequence numbers, activities */
};
