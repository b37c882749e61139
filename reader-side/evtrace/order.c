/* order.c — iterating a .evtrace file: file order (the good blocks as written, each verified as
 * the cursor enters it), time order (every block verified first, then a k-way merge through a
 * binary heap of one cursor per (thread, stream) chain, each in time order). */
#include <string.h>

#include "evtrace.h"

/* Reads the record at c->p (the cursor's block must be good, as the scan checked): 0, or -1 if
 * it does not decode (never for a block the scan accepted). */
static inline __attribute__((always_inline)) int decode(const evgen_reader *rd, const rd_evtrace *et, rd_cursor *c, rd_record *out)
{
    const uint8_t *p = c->p;
    uint64_t type, size;
    int64_t delta;
    if (evgen_wire_get_record_head(&p, c->end, &type, &delta) != 0)
        return -1;
    const rd_type *t = evgen_rd_type(et, type);
    if (!t)
        return -1;
    if (!t->variable)
        size = t->fixed_size;
    else if (evgen_wire_get_varint(&p, c->end, &size) != 0)
        return -1;
    if (size > (uint64_t)(c->end - p))
        return -1;
    out->offset = (uint64_t)(c->p - rd->data);
    c->ticks += (uint64_t)delta;
    out->version = t->version;
    out->payload = p;
    out->size = (uint32_t)size;
    out->ticks = c->ticks;
    c->p = p + size;
    c->left--;
    return 0;
}

/* Moves the cursor into its next good block with records: 1, or 0 at the end of its chain. A
 * block the walk took unverified is verified as the cursor enters it (every block before it in
 * the file is, by then: the file cursor goes in file order, and time order verifies all at
 * rewind); a bad one is skipped. Once per block: kept out of the per-record path. */
static __attribute__((noinline)) int enter_next_block(evgen_reader *rd, rd_evtrace *et, rd_cursor *c)
{
    for (;;) {
        size_t b = c->pending;
        if (b == RD_NONE)
            return 0;
        if (b >= et->n_blocks) { /* file order: the end of the blocks the walk took */
            if (et->tail != UINT64_MAX)
                evgen_rd_evtrace_complete(rd); /* the blocks the rest of the file may hold */
            if (b >= et->n_blocks) {
                c->pending = RD_NONE;
                return 0;
            }
        }
        if (et->blocks[b].state == RD_BLOCK_UNVERIFIED)
            evgen_rd_verify_block(rd, et, b);
        const rd_block *blk = &et->blocks[b];
        c->pending = c->by_chain ? blk->next : b + 1;
        if (blk->state == RD_BLOCK_BAD || blk->count == 0)
            continue;
        c->p = rd->data + blk->payload;
        c->end = c->p + blk->size;
        c->left = blk->count;
        c->ticks = blk->base_ticks;
        c->thread_id = rd->threads[blk->thread].thread_id;
        c->stream = et->chains[blk->chain].stream;
        return 1;
    }
}

/* The cursor's next record: 1, or 0 at the end of its chain. */
static inline __attribute__((always_inline)) int advance(evgen_reader *rd, rd_evtrace *et, rd_cursor *c, rd_record *r)
{
    for (;;) {
        if (c->left) {
            if (decode(rd, et, c, r) == 0)
                return 1;
            c->left = 0; /* the scan checked every record: never reached */
        }
        if (!enter_next_block(rd, et, c))
            return 0;
    }
}

/* Time order: is a's record before b's? Ties by thread id, then by file offset (a thread's streams
 * are one thread). */
static int before(const rd_cursor *a, const rd_cursor *b)
{
    if (a->next.ticks != b->next.ticks)
        return a->next.ticks < b->next.ticks;
    if (a->thread_id != b->thread_id)
        return a->thread_id < b->thread_id;
    return a->next.offset < b->next.offset;
}

static void sift_down(rd_cursor **heap, size_t n, size_t i)
{
    rd_cursor *c = heap[i];
    for (;;) {
        size_t k = 2 * i + 1;
        if (k >= n)
            break;
        if (k + 1 < n && before(heap[k + 1], heap[k]))
            k++;
        if (!before(heap[k], c))
            break;
        heap[i] = heap[k];
        i = k;
    }
    heap[i] = c;
}

void evgen_rd_evtrace_rewind(evgen_reader *rd)
{
    rd_evtrace *et = rd->format;
    memset(&et->file_cursor, 0, sizeof et->file_cursor);
    et->file_cursor.pending = 0;
    et->n_heap = 0;
    if (rd->order != EVGEN_ORDER_TIME)
        return;
    evgen_rd_evtrace_complete(rd);
    for (size_t i = 0; i < et->n_chains && i < et->cap_cursors; i++) {
        rd_cursor *c = &et->cursors[i];
        memset(c, 0, sizeof *c);
        c->by_chain = 1;
        c->pending = et->chains[i].first_block;
        if (advance(rd, et, c, &c->next))
            et->heap[et->n_heap++] = c;
    }
    for (size_t i = et->n_heap / 2; i-- > 0;)
        sift_down(et->heap, et->n_heap, i);
}

int evgen_rd_evtrace_next(evgen_reader *rd, evgen_event *event)
{
    rd_evtrace *et = rd->format;
    if (rd->order == EVGEN_ORDER_FILE) {
        rd_record r;
        if (!advance(rd, et, &et->file_cursor, &r))
            return 0;
        evgen_rd_fill_event(rd, &r, et->file_cursor.thread_id, event);
        event->stream = et->file_cursor.stream;
        return 1;
    }
    if (et->n_heap == 0)
        return 0;
    rd_cursor *top = et->heap[0];
    evgen_rd_fill_event(rd, &top->next, top->thread_id, event);
    event->stream = top->stream;
    if (!advance(rd, et, top, &top->next))
        et->heap[0] = et->heap[--et->n_heap];
    if (et->n_heap > 1) /* one chain left (a one-thread trace): nothing to reorder */
        sift_down(et->heap, et->n_heap, 0);
    return 1;
}
