/* lazy.c — finishing a .evtrace reader's validation: every block the walk at open took verified
 * (scan.c), the rest of the file scanned, the books checked, and the threads put back in the order
 * the eager scan finds them when a bad block changed it; then the problems sorted. What every query
 * of problems or totals does first, so that it answers as if the whole file had been checked at
 * open. */
#include <stdlib.h>
#include <string.h>

#include "evtrace.h"

void evgen_rd_recount(evgen_reader *rd, rd_evtrace *et)
{
    for (size_t t = 0; t < rd->n_threads; t++) {
        rd->threads[t].events = 0;
        rd->threads[t].dropped = 0;
    }
    rd->total_events = 0;
    for (size_t c = 0; c < et->n_chains; c++)
        et->chains[c].first_block = et->chains[c].last_block = RD_NONE;
    for (size_t b = 0; b < et->n_blocks; b++) {
        et->blocks[b].next = RD_NONE;
        if (et->blocks[b].state != RD_BLOCK_BAD)
            evgen_rd_chain_block(rd, et, b);
    }
}

void evgen_rd_chain_block(evgen_reader *rd, rd_evtrace *et, size_t b)
{
    rd_block *blk = &et->blocks[b];
    rd_chain *chain = &et->chains[blk->chain];
    if (chain->last_block == RD_NONE)
        chain->first_block = b;
    else
        et->blocks[chain->last_block].next = b;
    chain->last_block = b;
    rd->threads[blk->thread].events += blk->count;
    rd->threads[blk->thread].dropped += blk->dropped;
    rd->total_events += blk->count;
}

/* ---- the threads' order ------------------------------------------------------------------------ */

/* Where the eager scan first meets each thread: the offset of its first good block, or for a
 * thread the end block names first, the end block's offset and its place among the entries. */
typedef struct first_seen {
    uint64_t offset, entry;
    size_t thread;
} first_seen;

typedef struct end_walk {
    evgen_reader *rd;
    first_seen *seen;
    uint64_t offset, entry;
} end_walk;

static int see_end_entry(void *ctx, const evgen_wire_end_thread *t)
{
    end_walk *w = ctx;
    size_t ti = evgen_rd_thread_find(w->rd, t->thread_id);
    if (ti != RD_NONE && w->offset < w->seen[ti].offset) {
        w->seen[ti].offset = w->offset;
        w->seen[ti].entry = w->entry;
    }
    w->entry++;
    return 0;
}

static int by_first_seen(const void *a, const void *b)
{
    const first_seen *x = a, *y = b;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    if (x->entry != y->entry)
        return x->entry < y->entry ? -1 : 1;
    return x->thread < y->thread ? -1 : x->thread > y->thread;
}

/* Puts the threads in the order the eager scan adds them and drops those only bad blocks named;
 * the blocks', chains' and per-thread indexes follow. */
static void order_threads(evgen_reader *rd, rd_evtrace *et)
{
    size_t n = rd->n_threads;
    first_seen *seen = malloc((n + 1) * sizeof *seen);
    size_t *to = malloc((n + 1) * sizeof *to);
    evgen_reader_thread *old = malloc((n + 1) * sizeof *old);
    rd_thread *old_chains = malloc((n + 1) * sizeof *old_chains);
    if (!seen || !to || !old || !old_chains) {
        rd->oom = 1;
        goto done;
    }
    for (size_t t = 0; t < n; t++)
        seen[t] = (first_seen){UINT64_MAX, 0, t};
    for (size_t b = 0; b < et->n_blocks; b++) {
        const rd_block *blk = &et->blocks[b];
        if (blk->state != RD_BLOCK_BAD && blk->offset < seen[blk->thread].offset)
            seen[blk->thread].offset = blk->offset;
    }
    if (rd->has_end) {
        const uint8_t *h = rd->data + et->end_offset;
        evgen_wire_block_header bh;
        evgen_wire_get_block_header(h, &bh);
        end_walk w = {rd, seen, et->end_offset, 0};
        evgen_wire_get_end(h + bh.header_size, bh.payload_size, see_end_entry, &w, NULL);
    }
    qsort(seen, n, sizeof *seen, by_first_seen);
    memcpy(old, rd->threads, n * sizeof *old);
    for (size_t t = 0; t < n; t++) {
        old_chains[t].first_chain = RD_NONE;
        if (t < et->n_thread_chains)
            old_chains[t] = et->thread_chains[t];
        to[t] = RD_NONE;
    }
    /* The threads again, in order: the hash emptied, each kept thread added anew. */
    if (rd->hash_cap)
        memset(rd->thread_hash, 0, rd->hash_cap * sizeof *rd->thread_hash);
    rd->n_threads = 0;
    for (size_t k = 0; k < n && seen[k].offset != UINT64_MAX; k++) {
        size_t t = seen[k].thread, i = evgen_rd_thread_index(rd, old[t].thread_id); /* fits: no growth */
        rd->threads[i] = old[t];
        to[t] = i;
    }
    for (size_t t = 0; t < et->n_thread_chains && t < n; t++)
        et->thread_chains[t].first_chain = RD_NONE;
    for (size_t t = 0; t < n && t < et->n_thread_chains; t++)
        if (to[t] != RD_NONE)
            et->thread_chains[to[t]] = old_chains[t];
    for (size_t b = 0; b < et->n_blocks; b++)
        et->blocks[b].thread = to[et->blocks[b].thread];
    for (size_t c = 0; c < et->n_chains; c++)
        et->chains[c].thread = to[et->chains[c].thread];
done:
    free(seen);
    free(to);
    free(old);
    free(old_chains);
}

/* ---- completion ------------------------------------------------------------------------------- */

void evgen_rd_evtrace_complete(evgen_reader *rd)
{
    rd_evtrace *et = rd->format;
    if (!et || et->complete)
        return;
    evgen_rd_verifier_meet(et);
    for (size_t b = 0; b < et->n_blocks && !rd->oom; b++)
        if (et->blocks[b].state == RD_BLOCK_UNVERIFIED)
            evgen_rd_verify_block(rd, et, b);
    evgen_rd_verifier_stop(et); /* done, or stopped by a bad block: the scan below decodes metadata */
    if (et->tail != UINT64_MAX && !rd->oom) {
        et->final_checks = evgen_rd_scan_eager(rd, et, et->tail);
        et->tail = UINT64_MAX;
    }
    if (et->dirty && !rd->oom)
        order_threads(rd, et); /* before the books: their problems follow the threads' order */
    if (et->final_checks && !rd->oom)
        evgen_rd_scan_final(rd, et);
    if (!rd->oom)
        evgen_rd_sort_problems(rd);
    et->complete = 1;
}
