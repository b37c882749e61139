/* order.c — iterating a .evtrace file: file order (the good blocks as written, each verified as
 * the cursor enters it), time order (a k-way merge through a binary heap of one cursor per
 * (thread, stream) chain, each in time order). Time order verifies lazily too: a cursor enters
 * block b only once every block up to b is verified, in file order, so that a bad block that makes
 * the blocks after it change (the walk at open went astray: the eager scan replaces them) is past
 * every block a cursor has entered; the cursors then take their next blocks from the list as it
 * is now. That is the eager merge exactly when no such change can add a chain or lengthen one the
 * merge has finished, which the end block's books say: when they count every event of every
 * thread in the blocks the walk took; else the rewind verifies every block first. */
#include <stdlib.h>
#include <string.h>

#include "evtrace.h"

/* Reads the record at c->p (the cursor's block must be good, as the scan checked): 0, or -1 if
 * it does not decode (never for a block the scan accepted). */
static inline __attribute__((always_inline)) int decode(const evgen_reader *rd, const rd_evtrace *et, rd_cursor *c, rd_record *out)
{
    const uint8_t *p = c->p;
    uint64_t type, size;
    int64_t delta;
    evgen_reader_prefetch_ahead(p); /* as the inline run does (reader.h) */
    if (evgen_wire_get_record_head(&p, c->end, rd->header.format_version, &c->last_type, &type, &delta) != 0)
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

/* Verifies every block up to `b`, in file order: 0, or -1 if a bad one changed the blocks after it
 * (list_gen moved). */
static int verify_through(evgen_reader *rd, rd_evtrace *et, size_t b)
{
    unsigned gen = et->list_gen;
    for (; et->verified_upto <= b && et->verified_upto < et->n_blocks && !rd->oom; et->verified_upto++) {
        evgen_rd_verify_block(rd, et, et->verified_upto);
        if (et->list_gen != gen)
            return -1;
    }
    return 0;
}

/* A chain cursor's next block in the list as it is now. */
static size_t chain_next(const rd_evtrace *et, const rd_cursor *c)
{
    return c->current == RD_NONE ? et->chains[c->chain].first_block : et->blocks[c->current].next;
}

/* Moves the cursor into its next good block with records: 1, or 0 at the end of its chain. A
 * block the walk took unverified is verified as the cursor enters it, every block before it in the
 * file first (the file cursor goes in file order; a chain's, through verify_through); a bad one
 * is skipped. Once per block: kept out of the per-record path. */
static __attribute__((noinline)) int enter_next_block(evgen_reader *rd, rd_evtrace *et, rd_cursor *c)
{
    for (;;) {
        size_t b = c->pending;
        if (b == RD_NONE)
            return 0;
        if (c->by_chain && b >= et->verified_upto && verify_through(rd, et, b) != 0) {
            c->pending = chain_next(et, c); /* the blocks after a bad one changed: b may be another */
            continue;
        }
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
        c->current = b; /* good: a recount keeps it in its chain */
        c->p = rd->data + blk->payload;
        c->end = c->p + blk->size;
        c->left = blk->count;
        c->ticks = blk->base_ticks;
        c->last_type = EVGEN_WIRE_NO_TYPE;
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

/* Room for a cursor per chain; the heap is rebuilt after (its pointers may move). */
static int grow_cursors(rd_evtrace *et)
{
    if (et->n_chains <= et->cap_cursors)
        return 0;
    rd_cursor *cursors = realloc(et->cursors, et->n_chains * sizeof *cursors);
    if (!cursors)
        return -1;
    et->cursors = cursors;
    rd_cursor **heap = realloc(et->heap, et->n_chains * sizeof *heap);
    if (!heap)
        return -1;
    et->heap = heap;
    et->cap_cursors = et->n_chains;
    return 0;
}

/* Brings the merge to the list of blocks as it is: a cursor for every chain (a new one at its
 * chain's first block), each cursor's next block taken from the list anew, every cursor that can
 * hold a record holding one, and the heap rebuilt from them. At rewind, and after a bad block
 * changed the blocks after it. */
static void merge_refresh(evgen_reader *rd, rd_evtrace *et)
{
    do {
        et->merge_gen = et->list_gen;
        et->n_heap = 0;
        if (grow_cursors(et) != 0) {
            rd->oom = 1;
            return;
        }
        for (; et->n_cursors < et->n_chains; et->n_cursors++)
            et->cursors[et->n_cursors] =
                (rd_cursor){.by_chain = 1, .chain = et->n_cursors, .current = RD_NONE, .pending = RD_NONE};
        for (size_t i = 0; i < et->n_cursors && et->merge_gen == et->list_gen; i++) {
            rd_cursor *c = &et->cursors[i];
            c->pending = chain_next(et, c); /* its next block as the list has it now */
            if (!c->holding)
                c->holding = advance(rd, et, c, &c->next);
        }
    } while (et->merge_gen != et->list_gen && !rd->oom);
    for (size_t i = 0; i < et->n_cursors; i++)
        if (et->cursors[i].holding)
            et->heap[et->n_heap++] = &et->cursors[i];
    for (size_t i = et->n_heap / 2; i-- > 0;)
        sift_down(et->heap, et->n_heap, i);
}

/* ---- the run evgen_reader_next frames inline (reader.h) ----------------------------------------- */

/* Lends the run the rest of cursor c's block, positioned after the record it returned last, up to
 * the first record at or past `ticks_limit`: when the format frames them as the inline code does
 * (format 2, a repeated type that is one fixed size, so without variable fields) and the trace has
 * a clock. The block was verified when c entered it; the run's clock and file are set at open. */
static void lend_run(evgen_reader *rd, rd_evtrace *et, rd_cursor *c, uint64_t ticks_limit)
{
    const rd_type *t = evgen_rd_type(et, c->last_type);
    if (!c->left || rd->header.format_version < 2u || !t || t->variable || rd->header.clock_frequency == 0)
        return;
    const rd_version *v = t->version;
    evgen_reader_run *run = &rd->run;
    run->p = c->p;
    run->left = c->left;
    run->size = t->fixed_size;
    run->ticks = c->ticks;
    run->ticks_limit = ticks_limit;
    run->info = v->info;
    run->layout = v->pub;
    run->version = v->pub->version;
    run->thread_id = c->thread_id;
    run->stream = c->stream;
    et->lent = c;
}

/* The cursor the run was lent from takes back what the run did not return: 1 if there was one. */
static int take_back_run(evgen_reader *rd, rd_evtrace *et)
{
    rd_cursor *c = et->lent;
    if (!c)
        return 0;
    c->p = rd->run.p;
    c->left = rd->run.left;
    c->ticks = rd->run.ticks;
    rd->run.left = 0;
    et->lent = NULL;
    return 1;
}

/* The top cursor, whose held record was returned, holds its next one, or leaves the heap. */
static void pass_on(evgen_reader *rd, rd_evtrace *et, rd_cursor *top)
{
    if (!advance(rd, et, top, &top->next)) {
        top->holding = 0;
        et->heap[0] = et->heap[--et->n_heap];
    }
    /* top's held record lies in a block already entered, which no change replaces; the other
     * cursors take their next blocks anew at the next call, before any of them moves. */
    if (et->n_heap > 1) /* one chain left (a one-thread trace): nothing to reorder */
        sift_down(et->heap, et->n_heap, 0);
}

void evgen_rd_evtrace_rewind(evgen_reader *rd)
{
    rd_evtrace *et = rd->format;
    et->lent = NULL; /* the cursors start anew */
    memset(&et->file_cursor, 0, sizeof et->file_cursor);
    et->file_cursor.pending = 0;
    et->file_cursor.current = RD_NONE;
    et->n_heap = 0;
    et->n_cursors = 0;
    if (rd->order != EVGEN_ORDER_TIME)
        return;
    /* Without books that account for every event the walk took, a verification could find blocks
     * it missed (a payload_size that sent it past them) whose events precede ones the merge
     * returned: everything is verified first. */
    if (!et->complete && !evgen_rd_walk_matches_books(rd, et))
        evgen_rd_evtrace_complete(rd);
    merge_refresh(rd, et);
}

int evgen_rd_evtrace_next(evgen_reader *rd, evgen_event *event)
{
    rd_evtrace *et = rd->format;
    if (rd->order == EVGEN_ORDER_FILE) {
        rd_record r;
        take_back_run(rd, et);
        if (!advance(rd, et, &et->file_cursor, &r))
            return 0;
        evgen_rd_fill_event(rd, &r, et->file_cursor.thread_id, event);
        event->stream = et->file_cursor.stream;
        lend_run(rd, et, &et->file_cursor, UINT64_MAX);
        return 1;
    }
    /* The run was lent from the top cursor, whose held record it followed: the cursor takes back
     * what the run did not return and moves on, as it would have when the run was lent — unless
     * the blocks after a bad one changed since (a query of problems that verified the rest), when
     * the refresh below moves it with the others. */
    rd_cursor *top = et->lent;
    if (take_back_run(rd, et)) {
        if (et->merge_gen != et->list_gen)
            top->holding = 0;
        else
            pass_on(rd, et, top);
    }
    /* The blocks after a bad one changed since the last call (its advance, or a query of problems
     * that verified the rest): the cursors follow the list as it is now. */
    if (et->merge_gen != et->list_gen)
        merge_refresh(rd, et);
    if (et->n_heap == 0)
        return 0;
    top = et->heap[0];
    evgen_rd_fill_event(rd, &top->next, top->thread_id, event);
    event->stream = top->stream;
    /* The records of top's chain before every other chain's next one follow without the heap: the
     * run's (its cursor moves on at the next call); a tie goes to the heap, which breaks it. */
    uint64_t limit = UINT64_MAX;
    for (size_t k = 1; k <= 2 && k < et->n_heap; k++)
        if (et->heap[k]->next.ticks < limit)
            limit = et->heap[k]->next.ticks;
    lend_run(rd, et, top, limit);
    if (!et->lent)
        pass_on(rd, et, top);
    return 1;
}
